"""Tables as text, the way the command line prints them: pandas' ``DataFrame.to_string``
(:func:`frame_text`), or the same text made without pandas for plain float tables
(:func:`format_float_table`, which lets ``rankfusion rank`` on a small file start without
loading pandas)."""

from __future__ import annotations

import re as _re

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["frame_text", "format_float_table", "command_line_text"]

# ``task="regression"`` / ``task='auto'`` (the Python spelling), with the command line's own
# spelling already beside it in parentheses or not
_TASK_SPELLING = _re.compile(r"""task=(["'])(auto|classification|regression)\1"""
                             r"""(?: \(--task (?:auto|classification|regression)\))?""")


# the reading keywords of ``load_data`` as the command line spells them (docs/design.md,
# 'Inputs'): ``zero_based=True`` → ``--zero-based``, ``format='svmlight'`` → ``--format
# svmlight`` (a ``(format='arff')`` beside ``--format arff`` dropped), and in a message about
# an svmlight file ``n_features=N`` → ``--n-features N``
_FORMAT_BOTH = _re.compile(r"""--format (\w+) \(format=(["'])\1\2\)""")
_FORMAT_SPELLING = _re.compile(r"""(?<![\w-])format=(["'])(\w+)\1""")
_N_FEATURES_SPELLING = _re.compile(r"\bn_features=(\d+)")


def command_line_text(message: str) -> str:
    """An error message of the library as the command line says it: the Python spelling of
    the task (``task="classification"``, ``task='regression'``) becomes the option
    (``--task classification``), and so do the reading keywords ``zero_based=True``
    (``--zero-based``), ``format='svmlight'`` (``--format svmlight``) and, for an svmlight
    file, ``n_features=N`` (``--n-features N``); the rest is unchanged. The command line
    prints every error through it, so one message text serves both (docs/design.md,
    'Tasks', 'Inputs').

    Parameters
    ----------
    message : str
        The message.

    Returns
    -------
    str

    Examples
    --------
    >>> command_line_text('say task="classification" or task="regression"')
    'say --task classification or --task regression'
    >>> command_line_text('say task="regression" (--task regression)')
    'say --task regression'
    >>> command_line_text("pass zero_based=True for a file counting from 0")
    'pass --zero-based for a file counting from 0'
    >>> command_line_text("pass --format arff (format='arff')")
    'pass --format arff'
    """
    text = _TASK_SPELLING.sub(lambda m: f"--task {m.group(2)}", str(message))
    text = text.replace("zero_based=True", "--zero-based")
    text = _FORMAT_BOTH.sub(r"--format \1", text)
    text = _FORMAT_SPELLING.sub(r"--format \2", text)
    if "svmlight" in text:
        text = _N_FEATURES_SPELLING.sub(r"--n-features \1", text)
    return text


def frame_text(frame: pd.DataFrame, *, max_rows: int | None = None) -> str:
    """``frame`` as the command line prints it: ``DataFrame.to_string`` 200 characters wide,
    up to 50 columns.

    Parameters
    ----------
    frame : DataFrame
        The table.
    max_rows : int, optional
        Rows shown (pandas elides the middle ones beyond); None = all.

    Returns
    -------
    str
        The text, without a final newline.

    Examples
    --------
    >>> import pandas as pd
    >>> print(frame_text(pd.DataFrame({"score": [0.5, 0.25]}, index=["a", "b"])))
       score
    a   0.50
    b   0.25
    """
    import pandas as pd

    with pd.option_context("display.max_rows", max_rows, "display.width", 200,
                           "display.max_columns", 50):
        return frame.to_string(max_rows=max_rows)


def format_float_table(index_name: str, index, columns: dict) -> str | None:
    """The text :func:`frame_text` gives for a table of float columns with a named index,
    made without pandas; None outside the values for which it is the same text (then print
    the DataFrame).

    Within that domain this is pandas' ``DataFrame.to_string`` (six decimals, trailing zeros
    trimmed alike in a column, a sign space; a numpy integer column as whole numbers; labels
    right-aligned over the numbers, the index left-aligned under its name). Outside it
    pandas chooses other layouts, so None for: a
    non-finite value, one above 1e6 or below 1e-6 in size but not 0; an empty, non-ASCII
    (wide and combining characters) or non-printable label or name (pandas escapes tabs and
    newlines); a label, column name or index name starting with a space (pandas strips the
    spaces that begin every label of the index, and every column name, before it aligns them:
    ``' ==='`` printed as ``'==='``).

    Parameters
    ----------
    index_name : str
        The name of the index (printed above the labels).
    index : sequence
        The row labels.
    columns : dict of str → sequence of float, or integer array
        Column name → values, one per label, in print order; a numpy array of an integer
        dtype prints as pandas prints an integer column.

    Returns
    -------
    str or None
        The text, without a final newline; None where pandas would print otherwise.

    Examples
    --------
    >>> print(format_float_table("feature", ["a", "b"], {"score": [0.5, 0.25]}))
             score
    feature
    a         0.50
    b         0.25
    """
    labels = [str(v) for v in index]
    names = [str(c) for c in columns]
    if not all(t.isascii() and t.isprintable() and t for t in labels + names + [index_name]):
        return None
    if any(t.startswith(" ") for t in labels + names + [index_name]):
        return None
    strcols = [["", index_name, *labels]]
    for name, col in zip(names, columns.values()):
        if getattr(getattr(col, "dtype", None), "kind", "f") in "iu":  # an integer array
            cells = [f"{int(v): d}" for v in col]
        else:
            vals = [float(v) for v in col]
            if any(v != v or abs(v) > 1e6 or 0 < abs(v) < 1e-6 or v in (
                    float("inf"), -float("inf")) for v in vals):
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
