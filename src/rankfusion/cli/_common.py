"""Helpers shared by the sub-commands: parsing numbers and parameters, printing tables, the
data-file options (``add_data_options`` / ``data_options``) and safe output files
(``add_output_options`` / ``check_outputs`` / ``write_csv``) every command uses the same way
(docs/design.md, 'Inputs')."""

from __future__ import annotations

import argparse
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["number", "param_value", "parse_params", "print_frame", "format_float_table",
           "count", "check_count",
           "add_data_options",
           "data_options", "add_output_options", "check_outputs", "write_csv", "announce"]


def number(text: str) -> int | float:
    """``5`` → int 5, ``0.1`` → float 0.1.

    The CLI reads k this way (docs/design.md, 'Aggregation rules').
    """
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def param_value(text: str):
    """A ``--param NAME=VALUE`` value: true/yes, false/no, none, an int, a float, else text."""
    low = text.strip().lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    if low == "none":
        return None
    try:
        return number(text.strip())
    except argparse.ArgumentTypeError:
        return text.strip()


def parse_params(items) -> dict:
    """``["k=5", "distance=kendall"]`` → ``{"k": 5, "distance": "kendall"}``; a name given
    twice is an error (not the last value silently)."""
    out = {}
    for item in items:
        if "=" not in item:
            raise ValueError(f"--param expects NAME=VALUE, got {item!r}")
        key, val = item.split("=", 1)
        key = key.strip()
        if key in out:
            raise ValueError(f"--param {key} given twice ({out[key]!r} and {val.strip()!r})")
        out[key] = param_value(val)
    return out


def print_frame(frame: pd.DataFrame, *, max_rows: int | None = None) -> None:
    import pandas as pd

    with pd.option_context("display.max_rows", max_rows, "display.width", 200,
                           "display.max_columns", 50):
        print(frame.to_string(max_rows=max_rows))


def format_float_table(index_name: str, index, columns: dict) -> str | None:
    """The text :func:`print_frame` prints for a table of float columns with a named index,
    made without pandas; None outside the values for which it is the same text (then print
    the DataFrame).

    Within that domain this is pandas' ``DataFrame.to_string`` (six decimals, trailing zeros
    trimmed alike in a column, a sign space; labels right-aligned over the numbers, the index
    left-aligned under its name). Outside it pandas chooses other layouts, so None for: a
    non-finite value, one above 1e6 or below 1e-6 in size but not 0; an empty, non-ASCII
    (wide and combining characters) or non-printable label or name (pandas escapes tabs and
    newlines); a label, column name or index name starting with a space (pandas strips the
    spaces that begin every label of the index, and every column name, before it aligns them:
    ``' ==='`` printed as ``'==='``).
    """
    labels = [str(v) for v in index]
    names = [str(c) for c in columns]
    if not all(t.isascii() and t.isprintable() and t for t in labels + names + [index_name]):
        return None
    if any(t.startswith(" ") for t in labels + names + [index_name]):
        return None
    strcols = [["", index_name, *labels]]
    for name, col in zip(names, columns.values()):
        vals = [float(v) for v in col]
        if any(v != v or abs(v) > 1e6 or 0 < abs(v) < 1e-6 or v in (float("inf"), -float(
                "inf")) for v in vals):
            return None
        cells = [f"{v: .6f}" for v in vals]
        while cells and all(c.endswith("0") for c in cells):
            cells = [c[:-1] for c in cells]
        cells = [c + "0" if c.endswith(".") else c for c in cells]
        width = max([len(c) for c in cells] + [len(name) + 1])
        strcols.append([(" " + name).rjust(width), " " * width,
                        *(c.rjust(width) for c in cells)])
    widths = [max(len(c) for c in col) for col in strcols]
    widths = [w + 1 for w in widths[:-1]] + widths[-1:]
    rows = zip(*(tuple(c.ljust(w) for c in col) for col, w in zip(strcols, widths)))
    return "\n".join("".join(r) for r in rows)


def count(text: str) -> int:
    """An argparse type for ``--top``: a whole number (checked ≥ 0 by :func:`check_count` in
    the command, so the error is the usual one line)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def check_count(value, option: str = "--top") -> None:
    """A ``ValueError`` unless ``value`` (an option such as ``--top``) is None or ≥ 0."""
    if value is not None and value < 0:
        raise ValueError(f"{option} must be ≥ 0 (0 = all rows), got {value}")


def add_data_options(p, *, drop: bool = True) -> None:
    """The options of commands that read a data file with :func:`rankfusion.io.load_data`."""
    g = p.add_argument_group("reading DATA")
    g.add_argument("--na-values", default=None, metavar="LIST",
                   help="comma-separated cells read as missing values, replacing the default "
                   "'?', empty, 'NaN', 'nan' (the empty cell always stays missing); e.g. "
                   "--na-values '?,NA'")
    if drop:
        g.add_argument("--drop", default=None, metavar="NAMES",
                       help="comma-separated columns to leave out (sample ids, row names)")
    g.add_argument("--nominal", default=None, metavar="NAMES",
                   help="comma-separated columns to read as nominal even if they hold numbers")
    g.add_argument("--sep", default=None,
                   help="CSV separator (default ','; tab for .tsv); e.g. ';' or tab")
    g.add_argument("--encoding", default="utf-8",
                   help="text encoding of CSV/ARFF (default utf-8; e.g. latin-1)")


def data_options(args) -> dict:
    """Keyword arguments of :func:`rankfusion.io.load_data` from :func:`add_data_options`."""
    na = None
    if args.na_values is not None:
        na = [v.strip() for v in args.na_values.split(",")]
    return {"na_values": na, "drop": getattr(args, "drop", None), "nominal": args.nominal,
            "sep": args.sep, "encoding": args.encoding}


def add_output_options(p) -> None:
    """``--overwrite``: the permission to replace existing output files."""
    p.add_argument("--overwrite", action="store_true",
                   help="replace existing output files (never an input file)")


def check_outputs(args, inputs, *options: str) -> dict:
    """Check the output files of ``options`` (attribute names such as ``"out"``) before any
    work: never an input, never an existing file without ``--overwrite``, never two options
    naming one file. Returns ``{attribute: Path}`` for the options given."""
    from ..io import safe_output_path

    paths: dict = {}
    for attr in options:
        value = getattr(args, attr, None)
        if value is None:
            continue
        flag = "--" + attr.replace("_", "-")
        if str(value).strip() == "-":
            raise ValueError(f"{flag} -: the results are printed on standard output already; "
                             "give a file name to write them to")
        path = safe_output_path(value, inputs, overwrite=getattr(args, "overwrite", False),
                                option=flag)
        for oflag, opath in paths.values():
            if path.resolve() == opath.resolve():
                raise ValueError(f"{flag} and {oflag} name the same file {value}")
        paths[attr] = (flag, path)
    return {k: v[1] for k, v in paths.items()}


def write_csv(frame: pd.DataFrame, path, **kwargs) -> None:
    """Write ``frame`` as CSV atomically (a temporary file renamed into place), text cells
    protected against spreadsheet formulas (docs/design.md, 'Outputs')."""
    from ..io import atomic_write, protect_csv_cells

    with atomic_write(path) as fh:
        protect_csv_cells(frame).to_csv(fh, **kwargs)


def announce(message: str) -> None:
    """One line on stderr, ``rankfusion: …`` (how an input was read)."""
    print(f"rankfusion: {message}", file=sys.stderr)
