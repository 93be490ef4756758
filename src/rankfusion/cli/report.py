"""``rankfusion report DIR``: (re)write the report of an experiment folder."""

from __future__ import annotations


def add_parser(sub) -> None:
    p = sub.add_parser(
        "report",
        help="write the HTML + Markdown report of an experiment results folder",
        description="Write DIR/report/report.html (self-contained) and report.md with the "
        "tables and figures of a finished experiment.",
    )
    p.add_argument("dir", metavar="DIR")
    p.add_argument("--title", default=None, help="report title (default: the experiment name)")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..experiments import write_report

    path = write_report(args.dir, title=args.title)
    print(f"report: {path}")
    print(f"markdown: {path.with_suffix('.md')}")
    return 0
