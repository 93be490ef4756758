"""``rankfusion select DATA --target COL``: ensemble feature selection on a data set.

Rankers × bootstrap samples → one consensus ranking → a subset, by
:class:`rankfusion.EnsembleSelector` (built by :func:`rankfusion.selection.ensemble_from_options`).
Prints the chosen subset, the subset-size curve (compact) and the stability summary; ``--out
DIR`` saves the consensus ranking, the subset, the curve and a JSON summary
(:func:`rankfusion.selection.write_selection`; an existing folder needs ``--overwrite``).
"""

from __future__ import annotations

import time

from ._common import (
    add_data_options,
    announce,
    check_count,
    count,
    data_options,
    parse_params,
    print_frame,
)
from ._names import RANKERS


def add_parser(sub) -> None:
    p = sub.add_parser(
        "select",
        help="ensemble feature selection: rankers × bootstraps → consensus → subset",
        description="Rank the features of DATA (.csv, .arff, .parquet) with several rankers on "
        "bootstrap samples, combine the lists into one consensus ranking and keep a subset "
        "(EnsembleSelector).",
    )
    p.add_argument("data", metavar="DATA")
    p.add_argument("--target", "-t", default=None,
                   help="class column: a name, or a position (0-based; -1 = last). Default: last")
    p.add_argument("--format", default=None, choices=["csv", "arff", "parquet"],
                   help="input format (default: from the file name)")
    p.add_argument("--ignore", default="", metavar="COL[,COL…]",
                   help="columns that are not features (identifiers …)")
    p.add_argument("--rankers", "-r", default="info_gain,relieff,nlc",
                   help="comma-separated ranker names (default info_gain,relieff,nlc); known: "
                   f"{', '.join(RANKERS)}")
    p.add_argument("--aggregate", "-a", default="borda", metavar="RULE",
                   help="a rule of rankfusion.aggregate, with its parameters if any (borda, "
                   "kfirst:k=0.05, schulze, …), or fuzzy:EW|RW|OW|MW (needs --bootstraps ≥ 2)."
                   " Default borda")
    p.add_argument("--bootstraps", "-b", type=int, default=0, metavar="N",
                   help="bootstrap samples per ranker (default 0: each ranker once on all data)")
    p.add_argument("--subset", "-k", default="half", metavar="SIZE",
                   help="k-step, learning-curve, a count, a fraction in (0, 1] or half "
                   "(default)")
    p.add_argument("--estimators", default=None, metavar="NAME[,NAME…]",
                   help="classifiers of the size search among linear_svm, naive_bayes, knn1, "
                   "tree (default: all four)")
    p.add_argument("--cv", type=int, default=5, help="folds of the size search (default 5)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the rule (e.g. k=0.1 for kfirst) or of the rankers "
                   "that take it (e.g. n_neighbors=10); repeatable")
    p.add_argument("--random-state", type=int, default=None, metavar="N",
                   help="seed (default: fresh entropy, printed and saved so the run can be "
                   "repeated)")
    p.add_argument("--n-jobs", type=int, default=None,
                   help="ranking jobs in parallel (the result does not depend on it)")
    p.add_argument("--out", "-o", default=None, metavar="DIR",
                   help="write consensus.csv, subset.txt, subset_curve.csv, stability.csv and "
                   "summary.json into this new folder")
    p.add_argument("--overwrite", action="store_true",
                   help="allow --out to be an existing folder (its result files are replaced)")
    p.add_argument("--top", type=count, default=20,
                   help="subset features printed (default 20; 0 = all)")
    p.add_argument("--no-progress", action="store_true",
                   help="print neither the work estimate nor the progress on standard error "
                   "(default: both; off a terminal a progress line every 10 s)")
    add_data_options(p, drop=False)  # --ignore plays --drop's part here
    p.set_defaults(func=run)


def _target(text):
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def run(args) -> int:
    from ..selection import (
        check_output_dir,
        ensemble_from_options,
        ensemble_work,
        read_data,
        selected_features,
        selection_summary,
        stability_table,
        subset_curve_table,
        write_selection,
    )

    check_count(args.top)

    t0 = time.perf_counter()
    sel = ensemble_from_options(
        rankers=args.rankers, aggregation=args.aggregate, n_bootstraps=args.bootstraps,
        subset=args.subset, estimators=args.estimators, params=parse_params(args.param),
        cv=args.cv, random_state=args.random_state, n_jobs=args.n_jobs,
        progress=not args.no_progress)
    if args.out is not None:  # refused before the work, not after
        check_output_dir(args.out, overwrite=args.overwrite, inputs=[args.data])
    ignore = [c.strip() for c in args.ignore.split(",") if c.strip()]
    reading = {k: v for k, v in data_options(args).items() if k != "drop"}
    X, y = read_data(args.data, _target(args.target), ignore=ignore, format=args.format,
                     **reading)
    t_read = time.perf_counter() - t0
    work = ensemble_work(sel, X.shape[0], X.shape[1])
    if not args.no_progress:
        announce(work.describe())
    work.check_memory()
    t1 = time.perf_counter()
    sel.fit(X, y)
    t_fit = time.perf_counter() - t1

    subset = selected_features(sel)
    print(f"# {args.data}: {X.shape[0]} samples, {X.shape[1]} features, target {y.name!r} "
          f"with {len(sel.classes_)} classes")
    print(f"# {sel.lists_.n_lists} lists ({args.rankers}; {args.bootstraps} bootstraps) "
          f"combined by {args.aggregate}; seed entropy {sel.seed_entropy_}")
    shown = subset if not args.top else subset[: args.top]
    more = f" (first {len(shown)} shown)" if len(shown) < len(subset) else ""
    print(f"\nsubset: {len(subset)} of {X.shape[1]} features{more}, best first")
    print("  " + ", ".join(shown))
    curve = subset_curve_table(sel)
    if curve is not None:
        sc = sel.subset_curve_
        print(f"\n{sc.method} size search: mean {args.cv}-fold CV accuracy on the top k "
              f"(chosen k = {sc.n_features}, {sc.estimator} {sc.accuracy:.3f})")
        print_frame(curve)
    stab = stability_table(sel)
    if stab is not None:
        print(f"\nstability over the {args.bootstraps} bootstraps (Nogueira's Φ of the top-"
              f"{sel.n_features_} subsets with its 95 % interval; ASD, APC of the scores)")
        if sel.n_features_ == X.shape[1]:
            print("  (Φ is undefined when the subset holds every feature)")
        print_frame(stab)
    if args.out is not None:
        t2 = time.perf_counter()
        options = {k: v for k, v in vars(args).items() if k != "func"}
        seconds = {"read": t_read, "fit": t_fit}
        summary = selection_summary(sel, options=options, seconds=seconds,
                                    n_samples=X.shape[0])
        files = write_selection(sel, args.out, summary=summary, overwrite=args.overwrite,
                                inputs=[args.data])
        print(f"\n# wrote {', '.join(f.name for f in files)} to {args.out} "
              f"({time.perf_counter() - t2:.2f} s)")
    print(f"# time: read {t_read:.2f} s, fit {t_fit:.2f} s")
    return 0
