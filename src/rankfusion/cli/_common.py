"""The options every command spells alike, and their parsing (docs/design.md, 'Inputs'): the
data-file block (``add_data_arguments`` / ``data_arguments``), the output block (``--out``,
``--overwrite``, ``--output-format``, ``--top``), ``--no-progress``; the old spellings kept as
deprecated aliases for one release (``add_alias``: a note on stderr, then the new option's
value); numbers and ``NAME=VALUE`` parameters; printing a workflow's result (``emit``).

Nothing here computes: each command passes the parsed values to one call of
:mod:`rankfusion.workflows` and prints or saves what it returns.
"""

from __future__ import annotations

import argparse
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["number", "param_value", "parse_params", "parse_numbers", "print_frame", "count",
           "check_count", "target", "DeprecatedAlias", "add_alias", "add_data_arguments",
           "add_accept_sparse_argument", "DATA_FORMATS",
           "add_task_argument",
           "data_arguments", "add_output_arguments", "add_progress_argument",
           "check_stdout_out", "emit", "announce", "OUTPUT_FORMATS", "one_value"]

#: The choices of ``--output-format`` (``rankfusion.workflows.OUTPUT_FORMATS``, spelled here
#: so that building the parsers imports no workflow; a test checks the two agree).
OUTPUT_FORMATS = ("table", "csv", "tsv", "json")


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


def target(text: str) -> int | str:
    """``--target``: a 0-based position (``3``, ``-1``) or a column name."""
    try:
        return int(text)
    except ValueError:
        return text


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


def parse_numbers(text: str | None, option: str) -> list[float] | None:
    """``"1,2,0.5"`` → ``[1.0, 2.0, 0.5]`` (None stays None)."""
    if not text:
        return None
    try:
        return [float(w) for w in text.split(",")]
    except ValueError:
        raise ValueError(f"{option} must be comma-separated numbers, got {text!r}") from None


def print_frame(frame: pd.DataFrame, *, max_rows: int | None = None) -> None:
    """Print ``frame`` as every command prints a table (``rankfusion.workflows.frame_text``)."""
    from ..workflows import frame_text

    print(frame_text(frame, max_rows=max_rows))


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


# ------------------------------------------------------------------ deprecated spellings
class DeprecatedAlias(argparse.Action):
    """An old spelling of an option, kept for one release: it stores its value where the new
    option does and prints ``note: OLD is deprecated; use NEW`` on stderr. Hidden from
    ``--help``; ``rankfusion.cli`` refuses it together with the new spelling."""

    def __init__(self, option_strings, dest, new: str = "", **kwargs):
        kwargs["default"] = argparse.SUPPRESS
        kwargs["help"] = argparse.SUPPRESS
        super().__init__(option_strings, dest, **kwargs)
        self.new = new

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"note: {option_string} is deprecated; use {self.new}", file=sys.stderr)
        setattr(namespace, self.dest, values)


def add_alias(p, old: str, new: str) -> None:
    """Accept ``old`` for the option ``new`` of parser ``p`` (already added): same value
    type and choices, a deprecation note when used."""
    action = p._option_string_actions[new]
    p.add_argument(old, dest=action.dest, action=DeprecatedAlias, new=new, type=action.type,
                   choices=action.choices, metavar=action.metavar)


def one_value(text: str | None, option: str, why: str) -> str | None:
    """``text`` when it names one item (``--rules``, ``--estimators``: the options that take
    one or several comma-separated names, a command that uses one refusing several); a piece
    holding ``=`` but no ``:`` continues the rule before it (``ga:k=5,distance=kendall`` is one
    rule), as in ``rankfusion.evaluation.split_rules``.

    Raises
    ------
    ValueError
        If ``text`` names several items, naming ``option``, the items and ``why``, or has an
        empty item.
    """
    if text is None:
        return None
    items: list[str] = []
    for piece in (t.strip() for t in str(text).split(",")):
        if items and "=" in piece and ":" not in piece:
            items[-1] += "," + piece
        else:
            items.append(piece)
    if len(items) > 1 and not all(items):
        raise ValueError(f"{option} {text!r} has an empty item (two commas or a trailing "
                         "comma)")
    if len(items) > 1:
        raise ValueError(f"{option} names {len(items)} items ({', '.join(items)}), and {why}: "
                         "give one")
    return text


# ------------------------------------------------------------------ shared option blocks
#: The choices of ``--format`` (``libsvm`` is another name of ``svmlight``).
DATA_FORMATS = ("csv", "arff", "parquet", "svmlight", "libsvm")


def add_data_arguments(p, *, what: str = "the data set (.csv, .arff, .parquet, .svm; '-' = "
                       "standard input)") -> None:
    """``DATA``, ``--target``/``-t``, ``--format`` and the reading options (``--drop``,
    ``--na-values``, ``--nominal``, ``--sep``, ``--encoding``; ``--zero-based`` and
    ``--n-features`` of svmlight files) of every command that reads a data set
    (``rankfusion.workflows.read_data``)."""
    p.add_argument("data", metavar="DATA", help=what)
    p.add_argument("--target", "-t", default=None, type=target,
                   help="class column: a name, or a position (0-based; -1 = last). Default: last")
    p.add_argument("--format", default=None, choices=DATA_FORMATS,
                   help="input format (default: from the file name; .svm, .svmlight, .libsvm "
                   "are svmlight; never guessed from the content); libsvm = svmlight")
    g = p.add_argument_group("reading DATA")
    g.add_argument("--drop", default=None, metavar="NAMES",
                   help="comma-separated columns to leave out (sample ids, row names)")
    g.add_argument("--na-values", default=None, metavar="LIST",
                   help="comma-separated cells read as missing values, replacing the default "
                   "'?', empty, 'NaN', 'nan' (the empty cell always stays missing); e.g. "
                   "--na-values '?,NA'")
    g.add_argument("--nominal", default=None, metavar="NAMES",
                   help="comma-separated columns to read as nominal even if they hold numbers")
    g.add_argument("--sep", default=None,
                   help="CSV separator (default ','; tab for .tsv); e.g. ';' or tab")
    g.add_argument("--encoding", default="utf-8",
                   help="text encoding of CSV/ARFF (default utf-8; e.g. latin-1)")
    g.add_argument("--zero-based", action="store_true",
                   help="svmlight: the feature indices count from 0 (default: from 1, the "
                   "format's definition)")
    g.add_argument("--n-features", type=int, default=None, metavar="P",
                   help="svmlight: the number of features, when the file's largest index is "
                   "not it (needed for an index beyond 64 per byte of the file and 2^20)")


def add_accept_sparse_argument(p) -> None:
    """``--accept-sparse densify``: sparse data (an svmlight file) made dense, within the
    memory check, for the work that cannot take it (docs/design.md, 'Sparse input')."""
    p.add_argument("--accept-sparse", default=None, choices=["densify"],
                   help="make sparse data (svmlight files) dense, within the memory check, "
                   "for the parts of the work that cannot take it; by default they refuse it")


def add_task_argument(p) -> None:
    """``--task auto|classification|regression`` of a command that takes a target
    (docs/design.md, 'Tasks'): passed to its workflow, which reads and checks the target."""
    p.add_argument("--task", default="auto", choices=["auto", "classification", "regression"],
                   help="what the target is: auto (default: non-integer numbers are "
                   "regression, text labels classification; a whole-number target with many "
                   "distinct values is refused, naming both choices), classification (class "
                   "labels) or regression (a numeric quantity)")


def data_arguments(args) -> dict:
    """The keyword arguments of a ``rankfusion.workflows.run_*`` function that reads a data
    set, from :func:`add_data_arguments`: ``data``, ``target``, ``format``, ``drop``,
    ``na_values``, ``nominal``, ``sep``, ``encoding``, ``zero_based``, ``n_features``."""
    na = None
    if args.na_values is not None:
        na = [v.strip() for v in args.na_values.split(",")]
    out = {"data": args.data, "target": args.target, "format": args.format,
           "drop": args.drop, "na_values": na, "nominal": args.nominal, "sep": args.sep,
           "encoding": args.encoding, "zero_based": args.zero_based,
           "n_features": args.n_features}
    if getattr(args, "task", None) is not None:  # the commands with add_task_argument
        out["task"] = args.task
    return out


def add_output_arguments(p, *, out: str | None, top=20, top_help: str | None = None,
                         metavar: str = "FILE", overwrite: str | None = None) -> None:
    """``--out``/``-o`` (when ``out`` is its help; ``-`` = standard output), ``--overwrite``
    (``overwrite`` is its help), ``--output-format`` and ``--top`` (``top`` its default,
    ``top_help`` its help)."""
    if out is not None:
        p.add_argument("--out", "-o", default=None, metavar=metavar,
                       help=out + "; '-' writes it to standard output instead of the table")
    p.add_argument("--overwrite", action="store_true",
                   help=overwrite or "replace existing output files (never an input file)")
    p.add_argument("--output-format", default="table", choices=OUTPUT_FORMATS,
                   help="what is printed on standard output: table (default, for people), "
                   "csv or tsv (the main table), json (records); notes go to standard error")
    p.add_argument("--top", type=count, default=top,
                   help=top_help or f"rows to print (default {top}; 0 = all)")


def add_tie_break_argument(p) -> None:
    """``--tie-break index|random``: how features with equal values are ordered at a top-k
    cut-off."""
    p.add_argument("--tie-break", default="index", choices=["index", "random"],
                   help="order of tied features: by column order (default; exact) or at "
                   "random (seeded by --random-state); a top that cuts through ties is "
                   "reported either way")


def add_tie_arguments(p, *, rule_seed: bool = False) -> None:
    """``--tie-break`` (:func:`add_tie_break_argument`) and ``--random-state N`` (its seed;
    ``rule_seed``: the seed also reaches a rule that takes one)."""
    add_tie_break_argument(p)
    p.add_argument("--random-state", type=int, default=None, metavar="N",
                   help="seed of --tie-break random" + (" and of a rule that takes a seed "
                                                        "(ga, ce, kemeny …)" if rule_seed
                                                        else ""))


def add_progress_argument(p, *, reports: bool = True) -> None:
    """``--no-progress``, on every command that does work."""
    p.add_argument("--no-progress", action="store_true",
                   help="print neither the work estimate nor the progress on standard error "
                   "(default: both; off a terminal a progress line every 10 s)" if reports
                   else "print no progress on standard error (this command reports none; "
                   "accepted as every command accepts it)")


def check_stdout_out(args, *others: str) -> bool:
    """Whether ``--out -`` asks for the main output on standard output; refuses what cannot
    go with it: an ``--output-format`` other than table (both would fill standard output),
    ``--overwrite`` when no other output file (``others``, attribute names) is given, and
    ``-`` for the ``others``."""
    for attr in others:
        if str(getattr(args, attr, None)).strip() == "-":
            flag = "--" + attr.replace("_", "-")
            raise ValueError(f"{flag} -: only --out can write to standard output; give "
                             f"{flag} a file name")
    if getattr(args, "out", None) is None or str(args.out).strip() != "-":
        return False
    if args.output_format != "table":
        raise ValueError(f"--out - and --output-format {args.output_format} both write to "
                         "standard output; give one of them")
    if args.overwrite and not any(getattr(args, a, None) for a in others):
        raise ValueError("--overwrite applies to the files --out names, and --out - writes "
                         "to standard output: leave --overwrite out")
    return True


def emit(run, args, *, to_stdout: bool = False) -> None:
    """Print a workflow's result: its summary (``--output-format table``), or its tables in
    the format asked for, or (``to_stdout``, for ``--out -``) the file ``--out`` would write;
    in the last two cases its notes go to standard error."""
    if to_stdout or args.output_format != "table":
        for note in run.notes():
            announce(note)
    if to_stdout:
        run.save(sys.stdout)
    else:
        sys.stdout.write(run.render(args.output_format))


def announce(message: str) -> None:
    """One line on stderr, ``rankfusion: …`` (how an input was read)."""
    print(f"rankfusion: {message}", file=sys.stderr)
