"""``rankfusion aggregate LISTS.csv --rules RULE``: combine lists into a consensus ranking.

LISTS.csv is read by :func:`rankfusion.io.read_lists` (``-`` = standard input): ``--input``
says its kind (scores, positions or orders); the default ``auto`` decides only where one
reading is possible and says on stderr which one it took (docs/design.md, 'Inputs'). The work:
:func:`rankfusion.workflows.run_aggregation`.
"""

from __future__ import annotations

import argparse

from ._common import (
    add_alias,
    add_output_arguments,
    add_progress_argument,
    add_tie_arguments,
    announce,
    check_count,
    check_stdout_out,
    emit,
    number,
    one_value,
    parse_numbers,
    parse_params,
)
from ._names import METHODS


def add_parser(sub) -> None:
    p = sub.add_parser(
        "aggregate",
        help="combine ranked lists (CSV) into one consensus ranking",
        description="Combine ranked lists into one consensus ranking. LISTS.csv ('-' = "
        "standard input) is features × lists scores (higher = better) or positions (1 = "
        "best) with a name column, or one row per list of feature names, best first "
        "(orders). Say which with --input; 'auto' reads numbers as scores and names as "
        "orders and refuses anything in between.",
    )
    p.add_argument("lists", metavar="LISTS.csv")
    p.add_argument("--rules", "-a", default="kfirst", metavar="RULE",
                   help="the aggregation rule, with its parameters if any (kfirst:k=5; default "
                   "kfirst): one per run (the option takes a comma-separated list in the "
                   "commands that compare rules); one of: " + ", ".join(METHODS))
    add_alias(p, "--rule", "--rules")
    add_alias(p, "--method", "--rules")
    add_alias(p, "-m", "--rules")
    p.add_argument("--k", type=number, default=None,
                   help="kfirst: count (int, e.g. 5) or fraction of the features (float, e.g. 0.1)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="any other rule parameter, repeatable (numbers are parsed)")
    p.add_argument("--weights", default=None,
                   help="comma-separated list weights, one per list")
    p.add_argument("--input", default="auto", choices=["auto", "scores", "positions", "orders"],
                   help="the kind of LISTS.csv (default auto: every cell a number → scores, "
                   "no cell a number → orders; anything else is refused)")
    p.add_argument("--header", default=None, action=argparse.BooleanOptionalAction,
                   help="orders: the first row is (not) a header (default: a first cell "
                   "such as 'list', or 1,2,3… after it, makes it one)")
    p.add_argument("--list-names", default=None, action=argparse.BooleanOptionalAction,
                   help="orders: the first cell of each row is (not) the list's name "
                   "(default: yes when the header says so; else it must be given)")
    p.add_argument("--sep", default=",", help="CSV separator (default ','; e.g. ';' or tab)")
    p.add_argument("--encoding", default="utf-8", help="text encoding (default utf-8)")
    add_output_arguments(p, out="write the consensus table to this CSV")
    add_tie_arguments(p, rule_seed=True)
    add_progress_argument(p, reports=False)
    p.set_defaults(func=run)


def _params(args) -> dict:
    """``--param`` with ``--k`` (one spelling of k, not two)."""
    params = parse_params(args.param)
    if args.k is not None:
        if "k" in params:
            raise ValueError(f"k given twice: --k {args.k} and --param k={params['k']}")
        params["k"] = args.k
    return params


def run(args) -> int:
    from ..workflows import run_aggregation

    check_count(args.top)
    to_stdout = check_stdout_out(args)
    result = run_aggregation(
        args.lists, one_value(args.rules, "--rules", "aggregate combines the lists by one "
                              "rule per run"), params=_params(args),
        weights=parse_numbers(args.weights, "--weights"), input=args.input,
        header=args.header, list_names=args.list_names, sep=args.sep, encoding=args.encoding,
        out=None if to_stdout else args.out, overwrite=args.overwrite, top=args.top,
        tie_break=args.tie_break, random_state=args.random_state, log=announce)
    emit(result, args, to_stdout=to_stdout)
    return 0
