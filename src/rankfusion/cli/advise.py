"""``rankfusion advise DATA --target COL``: does combining rankings pay on this data set?

A thin command over :func:`rankfusion.advise` (nested resampling; the Nadeau–Bengio corrected
test of the combination procedure against the best single ranker). Prints the verdict and the
top of the table; ``--out DIR`` writes ``advice.csv`` and ``summary.json``
(:func:`rankfusion.evaluation.write_advice`); ``--dry-run`` prints the work
(:func:`rankfusion.evaluation.advice_plan`) and does none of it.
"""

from __future__ import annotations

import time

from ._common import add_data_options, check_count, count, data_options, print_frame
from ._names import METHODS, RANKERS


def add_parser(sub) -> None:
    p = sub.add_parser(
        "advise",
        help="does any combination of rankers × rule × size beat the best single ranker?",
        description="Nested resampling on DATA (.csv, .arff, .parquet): inside each outer "
        "training part an inner CV chooses the best combination of rankers × rule × subset "
        "size and the best single ranker; both are scored on the outer test part and "
        "compared with the Nadeau–Bengio corrected t-test.",
    )
    p.add_argument("data", metavar="DATA")
    p.add_argument("--target", "-t", default=None,
                   help="class column: a name, or a position (0-based; -1 = last). Default: last")
    p.add_argument("--format", default=None, choices=["csv", "arff", "parquet"],
                   help="input format (default: from the file name)")
    p.add_argument("--ignore", default="", metavar="COL[,COL…]",
                   help="columns that are not features (identifiers …)")
    p.add_argument("--rankers", "-r", default="info_gain,relieff,nlc",
                   help="comma-separated ranker names, at least two (default "
                   f"info_gain,relieff,nlc); known: {', '.join(RANKERS)}")
    p.add_argument("--rules", default="borda,mean_score,kfirst,rrf", metavar="RULES",
                   help="comma-separated rules with parameters, e.g. 'borda,kfirst:k=0.05' "
                   f"(default borda,mean_score,kfirst,rrf); known: {', '.join(METHODS)}")
    p.add_argument("--sizes", default=None, metavar="SIZES",
                   help="comma-separated subset sizes: counts (5) or fractions (0.05), or "
                   "k-step (default: 1, 2, 4, … up to 256)")
    p.add_argument("--estimator", default=None, metavar="NAME",
                   help="classifier scoring a subset, e.g. naive_bayes or linear_svm (default: "
                   "a linear SVM on features z-scored on each training part)")
    p.add_argument("--cv", type=int, default=5, help="outer folds per repeat (default 5)")
    p.add_argument("--inner-cv", type=int, default=3, help="inner folds (default 3)")
    p.add_argument("--repeats", type=int, default=2, help="repeats of the outer folds "
                   "(default 2)")
    p.add_argument("--combine", default="subsets", choices=["subsets", "all"],
                   help="subsets: every subset of ≥ 2 rankers (default); all: all together")
    p.add_argument("--alpha", type=float, default=0.05, help="level (default 0.05)")
    p.add_argument("--tie-break", default="random", choices=["random", "index"],
                   help="order of tied scores inside the resampling (default random)")
    p.add_argument("--random-state", type=int, default=None, metavar="N",
                   help="seed (default: fresh entropy, saved in summary.json)")
    p.add_argument("--n-jobs", type=int, default=None,
                   help="outer folds in parallel (the result does not depend on it)")
    p.add_argument("--out", "-o", default=None, metavar="DIR",
                   help="write advice.csv and summary.json into this new folder")
    p.add_argument("--overwrite", action="store_true",
                   help="allow --out to be an existing folder (its result files are replaced)")
    p.add_argument("--top", type=count, default=10,
                   help="rows of the table printed (default 10; 0 = all)")
    p.add_argument("--dry-run", action="store_true",
                   help="print the work (ranker fits, aggregations, classifier fits) and stop")
    add_data_options(p, drop=False)
    p.set_defaults(func=run)


def _target(text):
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def run(args) -> int:
    from ..evaluation import (
        advice_frame,
        advice_plan,
        advise,
        parse_sizes,
        split_rules,
        write_advice,
    )
    from ..selection import check_output_dir, read_data

    check_count(args.top)
    rankers = [r.strip() for r in args.rankers.split(",") if r.strip()]
    kwargs = dict(rankers=rankers, rules=split_rules(args.rules),
                  sizes=None if args.sizes is None else parse_sizes(args.sizes),
                  estimator=args.estimator, cv=args.cv, inner_cv=args.inner_cv,
                  n_repeats=args.repeats, combine=args.combine, alpha=args.alpha,
                  tie_break=args.tie_break, random_state=args.random_state,
                  n_jobs=args.n_jobs)
    if args.out is not None and not args.dry_run:  # refused before the work, not after
        check_output_dir(args.out, overwrite=args.overwrite, inputs=[args.data])
    ignore = [c.strip() for c in args.ignore.split(",") if c.strip()]
    reading = {k: v for k, v in data_options(args).items() if k != "drop"}
    t0 = time.perf_counter()
    X, y = read_data(args.data, _target(args.target), ignore=ignore, format=args.format,
                     **reading)
    t_read = time.perf_counter() - t0
    if args.dry_run:
        plan = advice_plan(X, y, **kwargs)
        print(f"# {args.data}: dry run, nothing computed")
        for key, value in plan.items():
            print(f"{key}: {value}")
        return 0
    t1 = time.perf_counter()
    adv = advise(X, y, **kwargs)
    t_fit = time.perf_counter() - t1
    s = adv.summary
    print(f"# {args.data}: {s['n_samples']} samples, {s['n_features']} features; "
          f"{s['outer_folds']} outer folds ({args.repeats} × {args.cv}), {args.inner_cv} "
          f"inner; seed entropy {s['seed_entropy']}")
    print(adv.verdict)
    print(f"\nrecommended: {adv.recommended.label}")
    print(f"best single: {adv.best_single.label}")
    print(f"one-SE pick (smallest size within one SE of the best): {adv.one_se.label}")
    frame = advice_frame(adv)[["rankers", "rule", "size", "score", "score_low", "score_high",
                               "phi", "chosen"]]
    shown = frame if not args.top else frame.head(args.top)
    print(f"\nconfigurations by mean outer accuracy ({len(shown)} of {len(frame)}; "
          f"{round(100 * (1 - adv.alpha))} % intervals; phi = Nogueira's stability; chosen = "
          "share of outer folds whose inner CV picked it)")
    print_frame(shown.round(3))
    if args.out is not None:
        options = {k: v for k, v in vars(args).items() if k != "func"}
        files = write_advice(adv, args.out, overwrite=args.overwrite, inputs=[args.data],
                             extra={"options": options,
                                    "command_seconds": {"read": t_read, "advise": t_fit}})
        print(f"\n# wrote {', '.join(f.name for f in files)} to {args.out}")
    sec = s["seconds"]
    print(f"# time: read {t_read:.2f} s, advise {t_fit:.2f} s (summed over the work: rankers "
          f"{sec['rankers']:.2f} s, aggregation {sec['aggregation']:.2f} s, classifier "
          f"{sec['classifier']:.2f} s for {s['classifier_fits']} fits)")
    return 0
