"""``rankfusion svm-rfe DATA --target COL --decomposition ovo --aggregate kfirst,schulze,average``.

Multiclass SVM-RFE (Izetta et al. 2017): one SVM-RFE ranking per binary problem (OVO or OVA),
combined by each rule of ``--aggregate`` (``average`` = the joint RFE on mean |w|); or the
MSVM-RFE baselines (``--decomposition crammer_singer|weston_watkins``). Prints the top features
of every method side by side; ``--out`` writes the full positions table (features × methods),
``--lists-out`` the per-problem lists (features × problems positions, readable by
``rankfusion aggregate --input positions``).
"""

from __future__ import annotations

import time

from ._common import (
    add_data_options,
    add_output_options,
    announce,
    check_count,
    check_outputs,
    count,
    data_options,
    number,
    parse_params,
    print_frame,
    write_csv,
)
from ._names import METHODS


def add_parser(sub) -> None:
    p = sub.add_parser(
        "svm-rfe",
        help="multiclass SVM-RFE: one ranking per OVO/OVA problem, combined by rules",
        description="Multiclass SVM-RFE with list combination (Izetta et al. 2017). DATA is a "
        ".csv, .arff or .parquet file; the class is --target (default: the last column). "
        "Features must be numeric (drop others with --drop).",
    )
    p.add_argument("data", metavar="DATA")
    p.add_argument("--target", "-t", default=None,
                   help="class column: a name or a 0-based position (default: the last column)")
    p.add_argument("--decomposition", "-d", default="ovo",
                   choices=["ovo", "ova", "crammer_singer", "weston_watkins"])
    p.add_argument("--aggregate", "-a", default="kfirst,schulze,average",
                   help="comma-separated rules (default kfirst,schulze,average); 'average' is "
                   f"the joint RFE on mean |w|; rules: {', '.join(METHODS)}")
    p.add_argument("--k", type=number, default=None,
                   help="kfirst: count (int) or fraction of the features (float; default 0.1)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the rules, repeatable (numbers are parsed); each rule "
                   "of --aggregate gets the ones it takes")
    p.add_argument("--random-state", type=int, default=None,
                   help="seed of every random step (rules such as ce, ga, kemeny; the "
                   "Crammer–Singer solver); default: fresh entropy")
    p.add_argument("--C", default="1.0", help="SVM C (default 1.0), or 'cv' (5-fold CV "
                   "over 10^-3…10^3)")
    p.add_argument("--step", type=number, default=0.1,
                   help="fraction removed per iteration (float) or a fixed count (int)")
    p.add_argument("--step-until", type=int, default=20,
                   help="one feature at a time below this many (default 20)")
    p.add_argument("--standardize", action="store_true",
                   help="z-score every feature first (mean 0, SD 1)")
    p.add_argument("--n-jobs", type=int, default=None, help="binary problems in parallel")
    p.add_argument("--out", "-o", default=None,
                   help="write the consensus positions (features × methods) to this CSV")
    p.add_argument("--lists-out", default=None,
                   help="write the per-problem positions (features × problems) to this CSV")
    add_output_options(p)
    add_data_options(p)
    p.add_argument("--top", type=count, default=20, help="rows to print (default 20; 0 = all)")
    p.add_argument("--no-progress", action="store_true",
                   help="print neither the work estimate nor the progress on standard error "
                   "(default: both; off a terminal a progress line every 10 s)")
    p.set_defaults(func=run)


def _read(args):
    import numpy as np
    import pandas as pd

    from ..io import load_data, standardize

    try:
        target = int(args.target) if args.target is not None else None
    except ValueError:
        target = args.target
    X, y = load_data(args.data, target, **data_options(args))
    bad = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c].dtype)]
    if bad:
        raise ValueError(f"column {bad[0]!r} is not numeric; SVM-RFE needs numbers "
                         "(leave it out with --drop)")
    if X.isna().any().any():
        raise ValueError("the data have missing values; SVM-RFE needs complete data")
    if y.isna().any():
        raise ValueError("the class column has missing values")
    values = X.to_numpy(dtype=np.float64)
    if args.standardize:
        values = standardize(values)
    return values, y.astype(str).to_numpy(), [str(c) for c in X.columns]


def run(args) -> int:
    import numpy as np
    import pandas as pd

    from ..selection import progress_bar, svm_rfe_rankings, svm_rfe_work

    check_count(args.top)
    if args.C != "cv":
        try:
            float(args.C)
        except ValueError:
            raise ValueError(f"--C must be a positive number or 'cv', got {args.C!r}") from None
    methods = [m.strip() for m in args.aggregate.split(",") if m.strip()]
    if args.decomposition in ("crammer_singer", "weston_watkins") and \
            args.aggregate != "kfirst,schulze,average":
        raise ValueError(f"--aggregate does not apply to -d {args.decomposition}: one "
                         "multiclass SVM-RFE run ranks the features, no lists are combined")
    if isinstance(args.step, int) and args.step_until != 20:
        raise ValueError("--step-until applies to a fractional --step; an integer --step "
                         f"({args.step}) removes that many features every iteration")
    outputs = check_outputs(args, [args.data], "out", "lists_out")
    X, y, names = _read(args)
    C = args.C if args.C == "cv" else float(args.C)
    n_classes = np.unique(y).shape[0]
    aggregation_params = parse_params(args.param)
    rule_params = ({"kfirst": {"k": args.k}} if args.k is not None and "kfirst" in methods
                   else None)
    work = svm_rfe_work(X.shape[0], X.shape[1], n_classes, methods=methods,
                        decomposition=args.decomposition, C=C, step=args.step,
                        step_until=args.step_until, aggregation_params=aggregation_params,
                        rule_params=rule_params, random_state=args.random_state)
    if not args.no_progress:
        announce(work.describe())
    work.check_memory()
    bar = progress_bar(work.counts.get("binary problems", 0), "SVM-RFE", "binary problems",
                       enabled=not args.no_progress)
    t0 = time.perf_counter()
    try:
        out = svm_rfe_rankings(
            X, y, methods, decomposition=args.decomposition, C=C, step=args.step,
            step_until=args.step_until, n_jobs=args.n_jobs,
            aggregation_params=aggregation_params, rule_params=rule_params,
            random_state=args.random_state, feature_names=names, problem_lists=True,
            progress=None if bar is None else (lambda result: bar.update(1)))
    finally:
        if bar is not None:
            bar.close()
    elapsed = time.perf_counter() - t0
    if out.C_cv_results is not None:
        print(f"# C chosen by 5-fold CV: {out.C:g}")
    positions = out.positions
    table = pd.DataFrame(positions, index=pd.Index(names, name="feature"))
    n_lists = out.n_lists
    print(f"# SVM-RFE ({args.decomposition}, {n_lists} list{'s' if n_lists > 1 else ''}) on "
          f"{X.shape[0]} samples × {X.shape[1]} features, {n_classes} classes; C={out.C:g}; "
          f"{elapsed:.2f} s")
    top = args.top if args.top else X.shape[1]
    side = pd.DataFrame({m: [names[i] for i in np.argsort(pos, kind="stable")[:top]]
                         for m, pos in positions.items()},
                        index=pd.RangeIndex(1, min(top, X.shape[1]) + 1, name="rank"))
    print_frame(side)
    if "out" in outputs:
        write_csv(table, outputs["out"])
        print(f"# positions written to {args.out}")
    if "lists_out" in outputs and out.lists is not None:
        write_csv(out.lists.to_frame("positions"), outputs["lists_out"])
        print(f"# per-problem lists written to {args.lists_out}")
    return 0
