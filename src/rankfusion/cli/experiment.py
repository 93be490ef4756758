"""``rankfusion experiment CONFIG.toml``: run (or resume) an experiment grid."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from ._common import announce


def add_parser(sub) -> None:
    p = sub.add_parser(
        "experiment",
        help="run or resume a TOML experiment grid (datasets × selectors × rules × protocols)",
        description="Run an experiment described in TOML (schema: docs/experiments.md). The "
        "whole file is validated before any work; finished cells are kept on disk, so an "
        "interrupted run resumes where it stopped. A report is written at the end.",
    )
    p.add_argument("config", metavar="CONFIG.toml")
    p.add_argument("--out", "-o", default=None,
                   help="results folder (default: results/<config name>)")
    p.add_argument("--overwrite", action="store_true",
                   help="run in a folder that holds another configuration's results (or a "
                   "data file changed since its last run): this configuration replaces the "
                   "folder's; finished cells of unchanged settings are reused (default: "
                   "refuse; the same configuration resumes)")
    p.add_argument("--dry-run", action="store_true",
                   help="print the cells, the estimated work and what is done; run nothing")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="run the cells on this Dask scheduler (needs rankfusion[dask])")
    where.add_argument("--dask-local", metavar="N", type=int, default=None,
                       help="run the cells on a local Dask cluster of N worker processes")
    p.add_argument("--n-jobs", type=int, default=None,
                   help="joblib jobs inside each cell (the protocol's splits)")
    p.add_argument("--csv", action="store_true", help="also write results.csv, positions.csv")
    p.add_argument("--no-report", action="store_true", help="do not write the report")
    p.add_argument("--no-progress", action="store_true",
                   help="print neither the work estimate nor the progress on standard error "
                   "(default: both; off a terminal a progress line every 10 s)")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..experiments import dry_run, load_config, run_experiment

    if args.out is not None and args.out.strip() == "-":
        raise ValueError("--out -: an experiment writes a results folder, which standard "
                         "output cannot hold; give a folder name")
    cfg = load_config(args.config)
    out = Path(args.out) if args.out else Path("results") / Path(args.config).stem
    if args.dry_run:
        dry_run(cfg, out, overwrite=args.overwrite)
        return 0
    if args.dask_local is not None and args.dask_local < 1:
        raise ValueError(f"--dask-local must be ≥ 1 worker, got {args.dask_local}")
    if not args.no_progress:
        # the estimate, without its table
        counts = dry_run(cfg, out, file=io.StringIO(), overwrite=args.overwrite)
        announce(f"experiment: {counts['todo']:,} of {counts['total']:,} cells to compute: "
                 f"{counts['selector_fits']:,} selector fits ({counts['ranker_lists']:,} ranked "
                 f"lists), {counts['classifier_fits']:,} classifier fits")
    summary = run_experiment(cfg, out, scheduler=args.scheduler, n_workers=args.dask_local,
                             n_jobs=args.n_jobs, csv=args.csv, report=not args.no_report,
                             progress=not args.no_progress, overwrite=args.overwrite)
    print(f"{summary.total} cells: {summary.reused} reused, {len(summary.computed)} computed"
          + (f" ({len(summary.recomputed_corrupt)} were corrupt)"
             if summary.recomputed_corrupt else "")
          + f", {summary.seconds:.1f} s → {out}")
    if summary.failed:
        for h, msg in summary.failed.items():
            label = next((c.label for c in cfg.cells if c.hash == h), h[:12])
            print(f"rankfusion: cell {label} failed: {msg}", file=sys.stderr)
        print(f"rankfusion: error: {len(summary.failed)} cell(s) failed; fix and rerun (the "
              "finished cells are kept)", file=sys.stderr)
        return 1
    if summary.report is not None:
        drawn = ("" if summary.report_seconds is None
                 else f" (drawn in {summary.report_seconds:.1f} s, after the run)")
        print(f"report: {summary.report}{drawn}")
    return 0
