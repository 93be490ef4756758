"""``rankfusion select DATA --target COL``: ensemble feature selection on a data set.

Rankers × bootstrap samples → one consensus ranking → a subset, by
:class:`rankfusion.EnsembleSelector`. Prints the chosen subset, the subset-size curve (compact)
and the stability summary; ``--out DIR`` saves the consensus ranking, the subset, the curve and
a JSON summary (an existing folder needs ``--overwrite``); ``--dry-run`` refuses what the data's
shape already decides, prints the work and does none of it. The work:
:func:`rankfusion.workflows.run_selection`.
"""

from __future__ import annotations

from ._common import (
    add_accept_sparse_argument,
    add_alias,
    add_data_arguments,
    add_output_arguments,
    add_progress_argument,
    add_task_argument,
    add_tie_break_argument,
    announce,
    check_count,
    check_stdout_out,
    data_arguments,
    emit,
    one_value,
    parse_params,
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
    add_data_arguments(p)
    add_task_argument(p)
    add_accept_sparse_argument(p)
    add_alias(p, "--ignore", "--drop")
    p.add_argument("--rankers", "-r", default="info_gain,relieff,nlc",
                   help="comma-separated ranker names (default info_gain,relieff,nlc); known: "
                   f"{', '.join(RANKERS)}")
    p.add_argument("--rules", "-a", default="borda", metavar="RULE",
                   help="a rule of rankfusion.aggregate, with its parameters if any (borda, "
                   "kfirst:k=0.05, schulze, …), or fuzzy:EW|RW|OW|MW (needs --bootstraps ≥ 2):"
                   " one per run (the option takes a comma-separated list in the commands "
                   "that compare rules). Default borda")
    add_alias(p, "--rule", "--rules")
    add_alias(p, "--aggregate", "--rules")
    p.add_argument("--bootstraps", "-b", type=int, default=0, metavar="N",
                   help="bootstrap samples per ranker (default 0: each ranker once on all data)")
    p.add_argument("--subset", "-k", default="half", metavar="SIZE",
                   help="k-step, learning-curve, a count, a fraction in (0, 1] or half "
                   "(default)")
    p.add_argument("--estimators", default=None, metavar="NAMES",
                   help="classifiers of the size search among linear_svm, naive_bayes, knn1, "
                   "tree (default: all four); for a regression target regressors (ridge, "
                   "linear_svr, …; default ridge), the first scoring the subset")
    add_alias(p, "--estimator", "--estimators")
    p.add_argument("--cv", type=int, default=5, help="folds of the size search (default 5)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the rule (e.g. k=0.1 for kfirst) or of the rankers "
                   "that take it (e.g. n_neighbors=10); repeatable")
    p.add_argument("--random-state", type=int, default=None, metavar="N",
                   help="seed (default: fresh entropy, printed and saved so the run can be "
                   "repeated)")
    add_tie_break_argument(p)
    p.add_argument("--n-jobs", type=int, default=None,
                   help="ranking jobs in parallel (the result does not depend on it)")
    add_output_arguments(
        p, out="write consensus.csv, subset.txt, subset_curve.csv, stability.csv and "
        "summary.json into this new folder ('-': consensus.csv only)", metavar="DIR",
        overwrite="allow --out to be an existing folder (its result files are replaced)",
        top_help="subset features printed (default 20; 0 = all); csv/tsv print the subset "
        "table, json also subset_curve and stability")
    p.add_argument("--dry-run", action="store_true",
                   help="read DATA, check what its shape decides (classes, empty columns, "
                   "--subset against the features, --cv against the classes), print the "
                   "work (ranker calls, aggregations, classifier fits) and stop")
    add_progress_argument(p)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..workflows import run_selection

    check_count(args.top)
    to_stdout = check_stdout_out(args)
    if to_stdout and args.dry_run:
        raise ValueError("--out - writes consensus.csv, which a dry run does not make")
    result = run_selection(
        **data_arguments(args), accept_sparse=args.accept_sparse or False,
        rankers=args.rankers,
        rule=one_value(args.rules, "--rules", "select builds one consensus ranking per run"),
        n_bootstraps=args.bootstraps, subset=args.subset, estimators=args.estimators,
        params=parse_params(args.param), cv=args.cv, random_state=args.random_state,
        tie_break=args.tie_break, n_jobs=args.n_jobs, out=None if to_stdout else args.out,
        overwrite=args.overwrite, top=args.top,
        options={k: v for k, v in vars(args).items() if k != "func"},
        progress=not args.no_progress, log=announce, dry_run=args.dry_run)
    emit(result, args, to_stdout=to_stdout)
    return 0
