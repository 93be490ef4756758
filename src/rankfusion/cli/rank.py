"""``rankfusion rank DATA --rankers NAME[,NAME…]``: score and rank the features of a data set.

DATA is a CSV, ARFF, Parquet or svmlight/libsvm file (see :func:`rankfusion.io.load_data`;
``-`` = standard input); the class is the column named by ``--target`` (default: the last
column, as Weka).
Prints one row per feature, best first by the first ranker, with each ranker's score and
position; ``--out`` writes the full table as CSV (features × rankers scores, usable as input
to ``rankfusion aggregate``). The work: :func:`rankfusion.workflows.run_ranking`.
"""

from __future__ import annotations

from ._common import (
    add_alias,
    add_data_arguments,
    add_output_arguments,
    add_progress_argument,
    add_task_argument,
    add_tie_arguments,
    check_count,
    check_stdout_out,
    data_arguments,
    emit,
    parse_params,
)
from ._names import RANKERS


def add_parser(sub) -> None:
    p = sub.add_parser(
        "rank",
        help="score the features of a data set (CSV, ARFF, Parquet) with one or more rankers",
        description="Score and rank the features of a classification data set. DATA is a "
        ".csv, .arff or .parquet file (.gz CSV/ARFF too); the class is --target (default: "
        "the last column).",
    )
    add_data_arguments(p)
    add_task_argument(p)
    p.add_argument("--rankers", "-r", default="info_gain",
                   help="comma-separated ranker names (default info_gain); known: "
                   f"{', '.join(RANKERS)}")
    add_alias(p, "--ranker", "--rankers")
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                   help="a ranker parameter, repeatable, passed to every ranker that takes it "
                   "(e.g. n_neighbors=5, missing_as_value=true)")
    g = p.add_argument_group("sparse data (svmlight/libsvm files are always read sparse)")
    g.add_argument("--sparse", action="store_true",
                   help="read an ARFF file into a sparse matrix (Weka's {index value} rows)")
    g.add_argument("--accept-sparse", default=None, choices=["densify"],
                   help="densify sparse data (within the memory check) for rankers that "
                   "cannot take it; by default they refuse, naming the sparse-capable ones")
    add_output_arguments(p, out="write the scores table to this CSV")
    add_tie_arguments(p)
    add_progress_argument(p, reports=False)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..workflows import run_ranking

    check_count(args.top)
    to_stdout = check_stdout_out(args)
    result = run_ranking(**data_arguments(args), rankers=args.rankers,
                         params=parse_params(args.param), out=None if to_stdout else args.out,
                         overwrite=args.overwrite, top=args.top, tie_break=args.tie_break,
                         random_state=args.random_state, sparse=args.sparse,
                         accept_sparse=args.accept_sparse or False)
    emit(result, args, to_stdout=to_stdout)
    return 0
