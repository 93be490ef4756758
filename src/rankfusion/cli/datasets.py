"""``rankfusion datasets``: list the real datasets :func:`rankfusion.datasets.load` knows.

Prints one row per dataset (name, samples, features, classes, missing values, whether it is
shipped, source) from the package's metadata table, without loading any data. ``--name NAME``
prints that dataset's description (source, citation, licence) instead.
"""

from __future__ import annotations

from ._common import print_frame


def add_parser(sub) -> None:
    p = sub.add_parser(
        "datasets",
        help="list the bundled real datasets (shape, classes, missing values, source)",
        description="List the real datasets of rankfusion.datasets.load: name, samples, "
        "features, classes, missing values, shipped or read from RANKFUSION_DATA, source.",
    )
    p.add_argument("--name", default=None,
                   help="print the description (source, citation, licence) of one dataset")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..datasets import available_datasets, load

    if args.name is not None:
        print(load(args.name).DESCR)
        return 0
    table = available_datasets().set_index("name")
    width = int(table["source"].str.len().max())
    table["source"] = table["source"].str.ljust(width)
    print_frame(table, max_rows=None)
    return 0
