"""CSV reading that gives back the very doubles the file spells, and CSV writing that a
spreadsheet cannot run.

pandas before 3.1 parses floats with a fast converter (``float_precision="high"``, its default)
that is not correctly rounded: many values that Weka or R print with 17 significant digits come
back one unit in the last place off (measured on pandas 1.5.3, 2.2.3 and 3.0.6 alike: 4,686 of
20,000 random decimal strings). ``float_precision="round_trip"`` converts with Python's own
correctly rounded parser; pandas 3.1 made every mode exact and deprecated the option. Every
CSV the library reads goes through :func:`read_csv`, which asks for ``"round_trip"`` where
pandas needs it, so a number reads as ``float()`` reads it on every supported pandas
(docs/design.md, 'Inputs' and 'Equality with the oracles').

Every CSV the library writes goes through :func:`to_csv`, which protects text cells against
spreadsheet formula injection (docs/design.md, 'Outputs'): a feature or list name such as
``=HYPERLINK(…)`` or ``@SUM(A1)`` would run as a formula when the file is opened in Excel or
LibreOffice. Following the OWASP recommendation for CSV injection, a text cell whose first
character is ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (or whose first character
after leading spaces is one of the first four) is written with a single quote ``'`` in front,
which spreadsheets read as "this cell is text" and do not show. Text that is a plain decimal
number (``-1.5``, ``+2``, ``-3e-4``) is left alone: it is a number to a spreadsheet, not a
formula. Numeric columns are never touched.
"""

from __future__ import annotations

import re

import pandas as pd

from .csv_cells import FORMULA_TRIGGERS, protect_cell, unprotect_cell

__all__ = ["read_csv", "EXACT_FLOATS", "protect_cell", "unprotect_cell", "protect_frame",
           "to_csv", "FORMULA_TRIGGERS"]


def _exact_floats(version: str) -> dict:
    """The ``pandas.read_csv`` keywords that parse floats exactly on pandas ``version``:
    ``float_precision="round_trip"`` before 3.1 (the default converter is not correctly
    rounded there, 3.0.x included), none from 3.1 on (every converter is exact; the option is
    deprecated)."""
    m = re.match(r"(\d+)\.(\d+)", version)
    major_minor = (int(m[1]), int(m[2])) if m else (0, 0)
    return {} if major_minor >= (3, 1) else {"float_precision": "round_trip"}


#: Keyword arguments that make ``pandas.read_csv`` correctly rounded on the installed pandas.
EXACT_FLOATS: dict = _exact_floats(pd.__version__)


def read_csv(*args, **kwargs) -> pd.DataFrame:
    """``pandas.read_csv`` that reads every decimal number as ``float()`` does (the correctly
    rounded double) on every supported pandas version.

    Takes the arguments of :func:`pandas.read_csv`, with its C engine (the default); the
    ``float_precision`` is set by this function (:data:`EXACT_FLOATS`: ``"round_trip"`` on
    pandas before 3.1, the default from 3.1 on, where it is exact).
    """
    if "float_precision" in kwargs:
        raise TypeError("read_csv sets float_precision itself (correctly rounded)")
    if kwargs.get("engine", "c") != "c":
        raise TypeError(f"read_csv reads with pandas' C engine, whose float parser is exact; "
                        f"got engine={kwargs['engine']!r}")
    return pd.read_csv(*args, **kwargs, **EXACT_FLOATS)


def _protect_index(index: pd.Index) -> pd.Index:
    if isinstance(index, pd.MultiIndex):
        return index.set_levels([_protect_index(lv) for lv in index.levels],
                                verify_integrity=False).set_names(
            [protect_cell(n) for n in index.names])
    if index.dtype == object or isinstance(index.dtype, (pd.StringDtype, pd.CategoricalDtype)):
        new = pd.Index([protect_cell(v) for v in index], dtype=object, name=index.name)
    else:
        new = index.copy()
    return new.rename(protect_cell(index.name))


def protect_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` with every text cell, column name and index label passed through
    :func:`protect_cell` (numeric, bool and datetime columns untouched).

    Parameters
    ----------
    frame : pandas.DataFrame or pandas.Series

    Returns
    -------
    pandas.DataFrame or pandas.Series
        The caller's frame is not modified.
    """
    if isinstance(frame, pd.Series):
        return protect_frame(frame.to_frame()).iloc[:, 0].rename(protect_cell(frame.name))
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame or Series, got "
                        f"{type(frame).__name__}")
    out = frame.copy()
    for i in range(out.shape[1]):
        col = out.iloc[:, i]
        if col.dtype == object or isinstance(col.dtype, (pd.StringDtype, pd.CategoricalDtype)):
            out.isetitem(i, pd.Series([protect_cell(v) for v in col], index=out.index,
                                      dtype=object))
    out.columns = _protect_index(out.columns)
    out.index = _protect_index(out.index)
    return out


def to_csv(frame, path_or_buf=None, **kwargs):
    """``frame.to_csv(path_or_buf, **kwargs)`` after :func:`protect_frame`: the one way the
    library writes CSV (docs/design.md, 'Outputs').

    Examples
    --------
    >>> import pandas as pd
    >>> print(to_csv(pd.DataFrame({"feature": ["=cmd|' /C calc'!A0", "-x", "-2"],
    ...                            "score": [-1.5, 2.0, 3.0]}), index=False), end="")
    feature,score
    '=cmd|' /C calc'!A0,-1.5
    '-x,2.0
    -2,3.0
    """
    return protect_frame(frame).to_csv(path_or_buf, **kwargs)
