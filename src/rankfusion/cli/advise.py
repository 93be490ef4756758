"""``rankfusion advise DATA --target COL``: does combining rankings pay on this data set?

A thin command over :func:`rankfusion.workflows.run_advice` (:func:`rankfusion.advise`: nested
resampling; the Nadeau–Bengio corrected test of the combination procedure against the best
single ranker). Prints the verdict and the top of the table; ``--out DIR`` writes
``advice.csv``, ``summary.json`` and ``advice.html`` and files each part of the work there as it
finishes (the same command resumes an interrupted run; ``--dask-local N`` / ``--scheduler
ADDRESS`` run the parts on Dask); ``--dry-run`` prints the work and does none of it.
"""

from __future__ import annotations

from ._common import (
    add_accept_sparse_argument,
    add_alias,
    add_data_arguments,
    add_output_arguments,
    add_progress_argument,
    add_task_argument,
    check_count,
    check_stdout_out,
    data_arguments,
    emit,
    one_value,
)
from ._names import METHODS, RANKERS, SCORINGS


def add_parser(sub) -> None:
    p = sub.add_parser(
        "advise",
        help="does any combination of rankers × rule × size beat the best single ranker?",
        description="Nested resampling on DATA (.csv, .arff, .parquet): inside each outer "
        "training part an inner CV chooses the best combination of rankers × rule × subset "
        "size and the best single ranker; both are scored on the outer test part and "
        "compared with the Nadeau–Bengio corrected t-test.",
    )
    add_data_arguments(p)
    add_alias(p, "--ignore", "--drop")
    add_task_argument(p)
    add_accept_sparse_argument(p)
    p.add_argument("--rankers", "-r", default=None,
                   help="comma-separated ranker names, at least two (default "
                   "info_gain,relieff,nlc; for regression f_regression,rrelieff,"
                   f"mutual_info_regression); known: {', '.join(RANKERS)}")
    p.add_argument("--rules", "-a", default="borda,mean_score,kfirst,rrf", metavar="RULES",
                   help="comma-separated rules with parameters, e.g. 'borda,kfirst:k=0.05' "
                   "or the fuzzy weightings 'fuzzy:OW,fuzzy:EW' (these rank every training "
                   "part on --bootstraps samples too) "
                   f"(default borda,mean_score,kfirst,rrf); known: {', '.join(METHODS)}")
    add_alias(p, "--rule", "--rules")
    p.add_argument("--bootstraps", "-b", type=int, default=10, metavar="N",
                   help="with a fuzzy rule: bootstrap samples per ranker and training part, "
                   "≥ 2 (default 10; every ranker runs N more times per training part, "
                   "--dry-run counts them); ignored without a fuzzy rule")
    p.add_argument("--sample-fraction", type=float, default=1.0, metavar="F",
                   help="rows drawn with replacement per bootstrap sample, a fraction in "
                   "(0, 1] of the training part (default 1.0)")
    p.add_argument("--sizes", default=None, metavar="SIZES",
                   help="comma-separated subset sizes: counts (5) or fractions (0.05), or "
                   "k-step, and the stability rule 'stability' or "
                   "'stability:pfer=1,threshold=0.9' (the stable set of each training part, "
                   "e.g. '5,10,stability:pfer=1') (default: 1, 2, 4, … up to 256)")
    p.add_argument("--estimators", default=None, metavar="NAME",
                   help="the estimator scoring a subset (one per run; the option takes a "
                   "comma-separated list in select), e.g. naive_bayes or linear_svm, or a "
                   "regressor such as ridge or knn5_regressor (default: a linear SVM, for "
                   "regression a ridge, on features z-scored on each training part)")
    add_alias(p, "--estimator", "--estimators")
    p.add_argument("--scoring", default=None, choices=SCORINGS,
                   help="the score, higher = better: for classes accuracy (default), "
                   "balanced_accuracy, roc_auc (one-vs-rest macro for more than two classes), "
                   "neg_log_loss (the log-loss negated) or mcc; for regression r2 (default), "
                   "neg_rmse or neg_mae")
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
    where = p.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDRESS", default=None,
                       help="run the parts on this Dask scheduler (needs --out and "
                       "rankfusion[dask]); the numbers are those of a local run")
    where.add_argument("--dask-local", metavar="N", type=int, default=None,
                       help="run the parts on a local Dask cluster of N worker processes "
                       "(needs --out)")
    add_output_arguments(
        p, out="write advice.csv, summary.json and advice.html into this folder, filing each "
        "part of the work there as it finishes: the same command on the same folder resumes "
        "an interrupted run ('-': advice.csv only, not resumable)", metavar="DIR", top=10,
        overwrite="allow --out to be an existing folder that is not this run's (its result "
        "files are replaced, another configuration's parts discarded)",
        top_help="rows of the table printed (default 10; 0 = all)")
    p.add_argument("--dry-run", action="store_true",
                   help="print the work (ranker fits, aggregations, classifier fits) and stop")
    add_progress_argument(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..workflows import run_advice

    check_count(args.top)
    to_stdout = check_stdout_out(args)
    if to_stdout and args.dry_run:
        raise ValueError("--out - writes advice.csv, which a dry run does not make")
    if args.dask_local is not None and args.dask_local < 1:
        raise ValueError(f"--dask-local must be ≥ 1 worker, got {args.dask_local}")
    if args.scheduler is not None and not args.scheduler.strip():
        raise ValueError("--scheduler needs a Dask scheduler address, e.g. tcp://host:8786")
    result = run_advice(
        **data_arguments(args), accept_sparse=args.accept_sparse or False,
        rankers=args.rankers, rules=args.rules, sizes=args.sizes,
        estimator=one_value(args.estimators, "--estimators",
                            "advise scores every subset with one estimator"),
        cv=args.cv, inner_cv=args.inner_cv, repeats=args.repeats,
        combine=args.combine, alpha=args.alpha, tie_break=args.tie_break,
        random_state=args.random_state, n_jobs=args.n_jobs,
        n_bootstraps=args.bootstraps, sample_fraction=args.sample_fraction,
        out=None if to_stdout else args.out, overwrite=args.overwrite, top=args.top,
        dry_run=args.dry_run, options={k: v for k, v in vars(args).items() if k != "func"},
        scheduler=args.scheduler, n_workers=args.dask_local, progress=not args.no_progress,
        scoring=args.scoring)
    emit(result, args, to_stdout=to_stdout)
    return 0
