"""``rankfusion reproduce PAPER``: run a reproduced paper's configurations and regenerate the
tables and figures of its section of EXPERIMENTS.md."""

from __future__ import annotations

from ._common import announce

PAPER_NAMES = ("izetta", "fuzzy", "nlc", "bouaguel", "robust_fs")


def add_parser(sub) -> None:
    p = sub.add_parser(
        "reproduce",
        help="rerun a reproduced paper (izetta, fuzzy, nlc, bouaguel, robust_fs) and "
        "regenerate its tables and figures",
        description="Run every configuration of a paper reproduced in EXPERIMENTS.md "
        "(experiments/PAPER/*.toml; --smoke: its smoke.toml) and regenerate the tables and "
        "figures of its section with experiments/PAPER/tables.py. The experiments/ folder "
        "is not installed with the package: it is read from --experiments DIR, else "
        "$RANKFUSION_EXPERIMENTS, else ./experiments (run from the root of a clone), else the "
        "checkout the package is imported from, else the clone 'pip install .' installed it "
        "from. By default the results go to "
        "experiments/results/PAPER/{smoke,full}, where the repository ships its results: a "
        "folder holding the finished results of the same configuration is adopted (nothing "
        "computed), other cells resume from the cell files. Derived files the table scripts "
        "keep (fuzzy table4.csv, fig4.csv; robust FS all_data_*.csv, kstep_*.csv; Bouaguel "
        "all_data.csv) are recomputed in smoke runs and with --recompute-derived; otherwise "
        "the ones reused are named as cached in the output.",
    )
    p.add_argument("paper", metavar="PAPER", choices=PAPER_NAMES,
                   help="one of " + ", ".join(PAPER_NAMES))
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--smoke", dest="mode", action="store_const", const="smoke",
                      help="the paper's smoke.toml (minutes; the default)")
    mode.add_argument("--full", dest="mode", action="store_const", const="full",
                      help="every full configuration of the paper's section")
    p.set_defaults(mode="smoke")
    p.add_argument("--out", "-o", default=None,
                   help="output folder (default: experiments/results/PAPER/MODE, the shipped "
                   "results)")
    p.add_argument("--experiments", metavar="DIR", default=None,
                   help="the repository's experiments/ folder (default: see above)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="run the cells on this Dask scheduler (needs rankfusion[dask])")
    where.add_argument("--dask-local", metavar="N", type=int, default=None,
                       help="run the cells on a local Dask cluster of N worker processes")
    p.add_argument("--recompute-derived", action="store_true", default=None,
                   help="recompute the table scripts' derived files even in a full run")
    p.add_argument("--no-adopt", action="store_true",
                   help="do not adopt shipped results: call the runner on every folder")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress lines on standard error")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..experiments.reproduce import reproduce

    if args.out is not None and args.out.strip() == "-":
        raise ValueError("--out -: reproduce writes a results folder, which standard output "
                         "cannot hold; give a folder name")
    if args.dask_local is not None and args.dask_local < 1:
        raise ValueError(f"--dask-local must be ≥ 1 worker, got {args.dask_local}")
    quiet = args.no_progress
    rep = reproduce(args.paper, args.mode, out=args.out, experiments=args.experiments,
                    scheduler=args.scheduler, n_workers=args.dask_local,
                    recompute_derived=args.recompute_derived, adopt=not args.no_adopt,
                    progress=False if quiet else None,
                    log=None if quiet else (lambda line: announce(f"reproduce: {line}")))
    print(rep.summary())
    return 0
