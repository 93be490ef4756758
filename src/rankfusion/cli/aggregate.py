"""``rankfusion aggregate LISTS.csv --method M``: combine lists into a consensus ranking."""

from __future__ import annotations

from ._common import number, parse_params, print_frame
from ._names import METHODS


def add_parser(sub) -> None:
    p = sub.add_parser(
        "aggregate",
        help="combine ranked lists (CSV) into one consensus ranking",
        description="Combine ranked lists into one consensus ranking. LISTS.csv is either "
        "features × lists scores with a name column (higher = better), or one row per list "
        "of feature names, best first.",
    )
    p.add_argument("lists", metavar="LISTS.csv")
    p.add_argument("--method", "-m", default="kfirst",
                   help="aggregation rule (default kfirst); one of: "
                   + ", ".join(METHODS))
    p.add_argument("--k", type=number, default=None,
                   help="kfirst: count (int, e.g. 5) or fraction of the features (float, e.g. 0.1)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="any other rule parameter, repeatable (numbers are parsed)")
    p.add_argument("--weights", default=None,
                   help="comma-separated list weights, one per list")
    p.add_argument("--input", default="auto", choices=["auto", "scores", "positions", "orders"],
                   help="how to read LISTS.csv (default: detect scores or orders)")
    p.add_argument("--out", "-o", default=None, help="write the consensus table to this CSV")
    p.add_argument("--top", type=int, default=20, help="rows to print (default 20; 0 = all)")
    p.set_defaults(func=run)


def _params(args) -> dict:
    params = parse_params(args.param)
    if args.k is not None:
        params["k"] = args.k
    return params


def run(args) -> int:
    from ..aggregation import aggregate
    from ..io import read_lists

    lists = read_lists(args.lists, args.input)
    weights = None
    if args.weights:
        try:
            weights = [float(w) for w in args.weights.split(",")]
        except ValueError:
            raise ValueError(
                f"--weights must be comma-separated numbers, got {args.weights!r}"
            ) from None
    result = aggregate(lists, args.method, weights=weights, **_params(args))
    frame = result.to_frame()
    if args.out:
        frame.to_csv(args.out)
    print(f"# {result.method} consensus of {lists.n_lists} lists over {lists.n_features} "
          f"features{'' if not result.params else ' ' + str(result.params)}")
    print_frame(frame.head(args.top) if args.top else frame)
    if args.out:
        print(f"# written to {args.out}")
    return 0
