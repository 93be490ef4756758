"""``rankfusion datasets``: list the real datasets :func:`rankfusion.datasets.load` knows.

Prints one row per dataset (name, samples, features, classes, missing values, whether it is
shipped, source) from the package's metadata table, without loading any data. ``--name NAME``
prints that dataset's description (source, citation, licence) instead. ``--export NAME --out
FILE`` writes one data set as CSV or Parquet (:func:`rankfusion.datasets.export_dataset`; the
format from the file name, ``--out -`` CSV on standard output, ``--force`` to replace a file).
"""

from __future__ import annotations

import sys

from ._common import print_frame


def add_parser(sub) -> None:
    p = sub.add_parser(
        "datasets",
        help="list the bundled real datasets (shape, classes, missing values, source); "
        "export one as CSV or Parquet",
        description="List the real datasets of rankfusion.datasets.load: name, samples, "
        "features, classes, missing values, shipped or read from RANKFUSION_DATA, source. "
        "With --export NAME --out FILE, write one of them as a data file that every command "
        "reads (features, then the class in the last column, named 'class').",
    )
    p.add_argument("--name", default=None, metavar="NAME",
                   help="print the description (source, citation, licence) of one dataset")
    p.add_argument("--export", default=None, metavar="NAME",
                   help="write the data set NAME to the file --out names")
    p.add_argument("--out", "-o", default=None, metavar="FILE",
                   help="with --export: the file to write; its ending chooses the format: "
                   ".csv, .csv.gz or .parquet; '-' writes CSV to standard output")
    p.add_argument("--force", "--overwrite", action="store_true", dest="force",
                   help="with --export: replace FILE if it exists (default: refuse); "
                   "--overwrite, as the other commands spell it, is the same")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..datasets import available_datasets, check_dataset_name, export_dataset, load

    for flag, name in (("--export", args.export), ("--name", args.name)):
        if name is not None:
            check_dataset_name(name, argument=flag, listing="`rankfusion datasets`")
    if args.export is not None:
        if args.name is not None:
            raise ValueError("--name and --export: give one of them (--name prints a "
                             "description, --export writes a file)")
        if args.out is None:
            raise ValueError("--export needs --out FILE (.csv, .csv.gz or .parquet; '-' = "
                             "standard output)")
        if args.out.strip() == "-":
            if args.force:
                raise ValueError("--force applies to the file --out names, and --out - "
                                 "writes to standard output: leave --force out")
            export_dataset(args.export, sys.stdout)
            return 0
        path = export_dataset(args.export, args.out, force=args.force)
        print(f"rankfusion: wrote {args.export} to {path}", file=sys.stderr)
        return 0
    for flag, value in (("--out", args.out), ("--force", args.force or None)):
        if value is not None:
            raise ValueError(f"{flag} goes with --export NAME (the data set to write)")
    if args.name is not None:
        print(load(args.name).DESCR)
        return 0
    table = available_datasets().set_index("name")
    width = int(table["source"].str.len().max())
    table["source"] = table["source"].str.ljust(width)
    print_frame(table, max_rows=None)
    return 0
