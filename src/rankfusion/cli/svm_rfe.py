"""``rankfusion svm-rfe DATA --target COL --decomposition ovo --rules kfirst,schulze,average``.

Multiclass SVM-RFE (Izetta et al. 2017): one SVM-RFE ranking per binary problem (OVO or OVA),
combined by each rule of ``--rules`` (``average`` = the joint RFE on mean |w|); or the
MSVM-RFE baselines (``--criterion crammer_singer|weston_watkins``; the former spelling
``--decomposition crammer_singer|weston_watkins`` still works for one release, with a note).
Prints the top features of every method side by side; ``--out`` writes the full positions
table (features × methods), ``--lists-out`` the per-problem lists (features × problems
positions, readable by ``rankfusion aggregate --input positions``). The work:
:func:`rankfusion.workflows.run_svm_rfe`.
"""

from __future__ import annotations

import sys

from ._common import (
    add_accept_sparse_argument,
    add_alias,
    add_data_arguments,
    add_output_arguments,
    add_progress_argument,
    add_task_argument,
    announce,
    check_count,
    check_stdout_out,
    data_arguments,
    emit,
    number,
    parse_params,
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
    add_data_arguments(p)
    add_task_argument(p)
    add_accept_sparse_argument(p)
    p.add_argument("--decomposition", "-d", default="ovo",
                   choices=["ovo", "ova", "crammer_singer", "weston_watkins"],
                   help="the binary problems of --criterion binary: one-vs-one (ovo) or "
                   "one-vs-all (ova); crammer_singer and weston_watkins here are deprecated: "
                   "use --criterion")
    p.add_argument("--criterion", default="binary",
                   choices=["binary", "crammer_singer", "weston_watkins"],
                   help="binary (default): one RFE ranking per binary problem, combined by "
                   "--rules; crammer_singer / weston_watkins: one MSVM-RFE run (sum of w² of a "
                   "multiclass linear SVM)")
    p.add_argument("--rules", "-a", default=None,
                   help="comma-separated rules (default kfirst,schulze,average); 'average' is "
                   f"the joint RFE on mean |w|; rules: {', '.join(METHODS)}")
    add_alias(p, "--rule", "--rules")
    add_alias(p, "--aggregate", "--rules")
    p.add_argument("--k", type=number, default=None,
                   help="kfirst: count (int) or fraction of the features (float; default 0.1)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a parameter of the rules, repeatable (numbers are parsed); each rule "
                   "of --rules gets the ones it takes")
    p.add_argument("--random-state", type=int, default=None, metavar="N",
                   help="seed of every random step (rules such as ce, ga, kemeny; the "
                   "Crammer–Singer solver); default: fresh entropy")
    p.add_argument("--C", default="1.0", help="SVM C (default 1.0), or 'cv' (5-fold CV "
                   "over 10^-3…10^3)")
    p.add_argument("--step", type=number, default=0.1,
                   help="fraction removed per iteration (float) or a fixed count (int)")
    p.add_argument("--step-until", type=int, default=None,
                   help="one feature at a time below this many (default 20)")
    p.add_argument("--standardize", action="store_true",
                   help="z-score every feature first (mean 0, SD 1)")
    p.add_argument("--n-jobs", type=int, default=None, help="binary problems in parallel")
    add_output_arguments(p, out="write the consensus positions (features × methods) to this "
                         "CSV")
    p.add_argument("--lists-out", default=None, metavar="FILE",
                   help="write the per-problem positions (features × problems) to this CSV")
    add_progress_argument(p)
    p.set_defaults(func=run)


def _C(text: str):
    if text == "cv":
        return "cv"
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"--C must be a positive number or 'cv', got {text!r}") from None


def run(args) -> int:
    from ..workflows import run_svm_rfe

    check_count(args.top)
    C = _C(args.C)
    decomposition, criterion = args.decomposition, args.criterion
    if decomposition in ("crammer_singer", "weston_watkins"):
        if criterion not in ("binary", decomposition):
            raise ValueError(f"-d {decomposition} (the former spelling of --criterion "
                             f"{decomposition}) contradicts --criterion {criterion}: give "
                             "--criterion only")
        print(f"note: --decomposition {decomposition} is deprecated; use --criterion "
              f"{decomposition}", file=sys.stderr)
        decomposition, criterion = "ovo", decomposition
    if criterion != "binary" and args.rules is not None:
        flag = ("-d" if args.decomposition == criterion else "--criterion")
        raise ValueError(f"--rules does not apply to {flag} {criterion}: one "
                         "multiclass SVM-RFE run ranks the features, no lists are combined")
    if isinstance(args.step, int) and args.step_until not in (None, 20):
        raise ValueError("--step-until applies to a fractional --step; an integer --step "
                         f"({args.step}) removes that many features every iteration")
    to_stdout = check_stdout_out(args, "lists_out")
    result = run_svm_rfe(
        **data_arguments(args), accept_sparse=args.accept_sparse or False,
        rules=args.rules, decomposition=decomposition,
        criterion=criterion, k=args.k,
        params=parse_params(args.param), C=C, step=args.step,
        step_until=20 if args.step_until is None else args.step_until,
        standardize=args.standardize, random_state=args.random_state, n_jobs=args.n_jobs,
        out=None if to_stdout else args.out, lists_out=args.lists_out,
        overwrite=args.overwrite, top=args.top, progress=not args.no_progress, log=announce)
    emit(result, args, to_stdout=to_stdout)
    return 0
