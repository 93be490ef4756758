"""``rankfusion aggregate LISTS.csv --method M``: combine lists into a consensus ranking.

LISTS.csv is read by :func:`rankfusion.io.read_lists` (``-`` = standard input): ``--input``
says its kind (scores, positions or orders); the default ``auto`` decides only where one
reading is possible and says on stderr which one it took (docs/design.md, 'Inputs').
"""

from __future__ import annotations

import argparse

from ._common import (
    add_output_options,
    announce,
    check_count,
    check_outputs,
    count,
    number,
    parse_params,
    print_frame,
    write_csv,
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
    p.add_argument("--method", "-m", default="kfirst",
                   help="aggregation rule, with its parameters if any (kfirst:k=5; default "
                   "kfirst); one of: " + ", ".join(METHODS))
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
    p.add_argument("--out", "-o", default=None, help="write the consensus table to this CSV")
    add_output_options(p)
    p.add_argument("--top", type=count, default=20, help="rows to print (default 20; 0 = all)")
    p.set_defaults(func=run)


def _params(args) -> dict:
    params = parse_params(args.param)
    if args.k is not None:
        if "k" in params:
            raise ValueError(f"k given twice: --k {args.k} and --param k={params['k']}")
        params["k"] = args.k
    return params


def run(args) -> int:
    from ..aggregation import aggregate, resolve
    from ..io import read_lists

    check_count(args.top)
    rule = resolve(args.method, argument="--method")  # fails before the file is read
    outputs = check_outputs(args, [args.lists], "out")
    weights = None
    if args.weights:
        try:
            weights = [float(w) for w in args.weights.split(",")]
        except ValueError:
            raise ValueError(
                f"--weights must be comma-separated numbers, got {args.weights!r}"
            ) from None
    params = _params(args)
    lists, reading = read_lists(args.lists, args.input, header=args.header,
                                list_names=args.list_names, sep=args.sep,
                                encoding=args.encoding, return_reading=True)
    if args.input == "auto":
        announce(f"read {args.lists} as {reading}; say --input to choose")
    result = aggregate(lists, rule, weights=weights, **params)
    frame = result.to_frame()
    if "out" in outputs:
        write_csv(frame, outputs["out"])
    print(f"# {result.method} consensus of {lists.n_lists} lists over {lists.n_features} "
          f"features{'' if not result.params else ' ' + str(result.params)}")
    print_frame(frame.head(args.top) if args.top else frame)
    if "out" in outputs:
        print(f"# written to {args.out}")
    return 0
