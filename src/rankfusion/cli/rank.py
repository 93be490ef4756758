"""``rankfusion rank DATA --ranker NAME[,NAME…]``: score and rank the features of a data set.

DATA is a CSV, ARFF or Parquet file (see :func:`rankfusion.io.load_data`; ``-`` = standard
input); the class is the column named by ``--target`` (default: the last column, as Weka).
Prints one row per feature, best first by the first ranker, with each ranker's score and
position; ``--out`` writes the full table as CSV (features × rankers scores, usable as input
to ``rankfusion aggregate``).
"""

from __future__ import annotations

from ._common import (
    add_data_options,
    add_output_options,
    check_count,
    check_outputs,
    count,
    data_options,
    format_float_table,
    parse_params,
    print_frame,
    write_csv,
)
from ._names import RANKERS

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd



def add_parser(sub) -> None:
    p = sub.add_parser(
        "rank",
        help="score the features of a data set (CSV, ARFF, Parquet) with one or more rankers",
        description="Score and rank the features of a classification data set. DATA is a "
        ".csv, .arff or .parquet file (.gz CSV/ARFF too); the class is --target (default: "
        "the last column).",
    )
    p.add_argument("data", metavar="DATA")
    p.add_argument("--target", "-t", default=None,
                   help="class column: a name, or a position (0-based; -1 = last). Default: last")
    p.add_argument("--ranker", "-r", default="info_gain",
                   help="comma-separated ranker names (default info_gain); known: "
                   f"{', '.join(RANKERS)}")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a ranker parameter, repeatable, passed to every ranker that takes it "
                   "(e.g. n_neighbors=5, missing_as_value=true)")
    p.add_argument("--format", default=None, choices=["csv", "arff", "parquet"],
                   help="input format (default: from the file name)")
    add_data_options(p)
    p.add_argument("--out", "-o", default=None, help="write the scores table to this CSV")
    add_output_options(p)
    p.add_argument("--top", type=count, default=20, help="rows to print (default 20; 0 = all)")
    p.set_defaults(func=run)


def _target(text):
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def rank_table(X, y, rankers: list[str], params: dict | None = None) -> pd.DataFrame:
    """Scores and positions of every feature under each ranker, sorted by the first one."""
    import numpy as np

    from ..rankers import rank_features

    lists = rank_features(X, y, rankers, params=params)
    table = lists.to_frame("scores")
    table.index.name = "feature"
    for name, col in zip(lists.list_names, lists.positions.T):
        table[f"{name}_pos"] = col
    first = lists.scores[:, 0]
    order = np.lexsort((np.arange(lists.n_features), -first))
    return table.iloc[order]


#: Rankers the small-file route computes without pandas (the information measures, whose
#: scores depend on the data alone), and the parameters they take.
LIGHT_RANKERS = ("info_gain", "gain_ratio", "symmetric_uncertainty", "chi_square")
LIGHT_PARAMS = ("missing_as_value", "binarize")


def run_small(args, rankers: list[str]) -> bool:
    """The command on a small plain CSV with information measures, without pandas: the same
    output as the general route (tested), or False (nothing printed) when the input is not
    one :func:`rankfusion.io.read_small` reads or the table is not one that
    :func:`format_float_table` prints exactly as pandas."""
    from ..io import read_small
    from ..rankers import ranker_info

    params = parse_params(args.param)
    entries = [ranker_info(name) for name in rankers]
    if (args.out is not None or len(set(rankers)) < len(rankers)
            or any(e.name not in LIGHT_RANKERS for e in entries)
            or any(k not in LIGHT_PARAMS for k in params)):
        return False
    read = read_small(args.data, _target(args.target), format=args.format,
                      **data_options(args))
    if read is None:
        return False
    data, target = read
    import numpy as np

    from ..lists import RankedLists

    scores = np.column_stack([np.asarray(e.func(data, None, **params), dtype=np.float64)
                              for e in entries])
    lists = RankedLists.from_scores(scores, features=[str(f) for f in data.feature_names],
                                    list_names=rankers)
    order = np.lexsort((np.arange(lists.n_features), -lists.scores[:, 0]))
    if args.top:
        order = order[:args.top]
    columns = {name: lists.scores[order, k] for k, name in enumerate(rankers)}
    columns.update({f"{name}_pos": lists.positions[order, k]
                    for k, name in enumerate(rankers)})
    text = format_float_table("feature", lists.features[order], columns)
    if text is None:
        return False
    print(f"# {args.data}: {data.n_samples} samples, {data.n_features} features, target "
          f"{target!r} with {data.n_classes} classes; rankers: {', '.join(rankers)}")
    print(text)
    return True


def run(args) -> int:
    from ..rankers import get_ranker

    check_count(args.top)
    rankers = [r.strip() for r in args.ranker.split(",") if r.strip()]
    if not rankers:
        raise ValueError("--ranker needs at least one ranker name")
    for name in rankers:
        get_ranker(name)  # unknown names fail before the data are read
    if run_small(args, rankers):
        return 0
    import pandas as pd

    from ..io import load_data

    outputs = check_outputs(args, [args.data], "out")
    X, y = load_data(args.data, _target(args.target), format=args.format,
                     **data_options(args))
    table = rank_table(X, y, rankers, parse_params(args.param))
    if "out" in outputs:
        write_csv(table[[r for r in rankers]], outputs["out"])
    classes = pd.Series(y).astype(str).value_counts()
    print(f"# {args.data}: {X.shape[0]} samples, {X.shape[1]} features, target "
          f"{y.name!r} with {classes.shape[0]} classes; rankers: {', '.join(rankers)}")
    print_frame(table.head(args.top) if args.top else table)
    if "out" in outputs:
        print(f"# written to {args.out}")
    return 0
