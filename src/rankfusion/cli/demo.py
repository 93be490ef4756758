"""``rankfusion demo``: the main job on bundled data.

``rankfusion demo`` runs the headline of Izetta et al. (2017): one-vs-one SVM-RFE on the bundled
St. Jude leukemia data (248 samples × 985 genes, 6 classes → 15 rankings), combined by K-First
and Schulze, beside the usual joint "Average" RFE, and the cross-validated error of a linear SVM
on each method's top genes, and ends with the advisor's verdict for the data (does any
combination of three filters beat the best of them alone?); ``--plot FILE.png`` saves the error
curves.
``rankfusion demo --lists`` aggregates the example lists shipped with the package (five
scikit-learn rankers on the UCI Wine data) with every position-based rule and prints how the
rules agree and differ. The work: :func:`rankfusion.workflows.run_demo`.
"""

from __future__ import annotations

from ._common import (
    add_alias,
    add_output_arguments,
    add_progress_argument,
    check_count,
    emit,
)


def add_parser(sub) -> None:
    p = sub.add_parser("demo", help="run the main job on bundled data",
                       description="Run rankfusion's main job on data shipped with the package.")
    p.add_argument("--lists", action="store_true",
                   help="compare the aggregation rules on the bundled example lists instead")
    p.add_argument("--n-jobs", type=int, default=None,
                   help="binary problems and splits in parallel (default: one at a time; the "
                   "output does not depend on it)")
    p.add_argument("--splits", type=int, default=10, metavar="N",
                   help="stratified 75/25 splits of the error table (default 10; 0 = skip it "
                   "and the advisor's verdict)")
    p.add_argument("--random-state", type=int, default=0, metavar="N",
                   help="seed of the splits (default 0; the output is deterministic)")
    add_alias(p, "--seed", "--random-state")
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help="save the error curves (needs the plot extra: pip install "
                   "\"rankfusion[plot]\")")
    add_output_arguments(
        p, out=None, top=None, overwrite="replace an existing --plot file (default: refuse)",
        top_help="features shown per method (default 15; 5 with --lists; at most all); "
        "csv/tsv print the top genes (the rules with --lists), json every table")
    add_progress_argument(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..workflows import run_demo

    check_count(args.top)
    if args.lists:
        given = [flag for flag, on in (("--plot", args.plot is not None),
                                       ("--splits", args.splits != 10),
                                       ("--random-state", args.random_state != 0),
                                       ("--n-jobs", args.n_jobs is not None)) if on]
        if given:
            raise ValueError(f"{', '.join(given)} apply to the St. Jude demo, not to --lists")
    elif args.splits < 0 or args.splits == 1:
        raise ValueError("--splits must be 0 (skip the error table) or ≥ 2 (a mean ± SD "
                         f"needs two splits), got {args.splits}")
    elif args.plot is not None and args.splits == 0:
        raise ValueError("--plot draws the error curves: it needs --splits ≥ 2")
    result = run_demo(lists=args.lists, top=args.top, n_splits=args.splits,
                      random_state=args.random_state, n_jobs=args.n_jobs, plot=args.plot,
                      overwrite=args.overwrite, progress=not args.no_progress)
    emit(result, args)
    return 0
