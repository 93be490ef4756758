"""Protecting CSV text cells against spreadsheet formula injection, without pandas.

The rule and its reasons are in :mod:`rankfusion._utils.tabular` (docs/design.md, 'Outputs'):
a text cell whose first character (or first after leading spaces) is ``=``, ``+``, ``-``,
``@``, a tab or a carriage return is written with a single quote in front, unless it is a plain
decimal number. Kept free of pandas so that the pandas-free readers (``io.read_lists``) can undo
it when they read a file the library wrote.
"""

from __future__ import annotations

import re

__all__ = ["FORMULA_TRIGGERS", "protect_cell", "unprotect_cell"]

#: First characters that make a spreadsheet read a cell as a formula (OWASP, CSV injection).
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")

_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def _needs_quote(s: str) -> bool:
    if s.startswith("'"):
        # a text that already starts with the quote gets one more when the rest would be
        # protected, so that unprotect_cell(protect_cell(s)) == s for every s
        return _needs_quote(s[1:])
    if not s:
        return False
    lead = s.lstrip(" \n")
    if not (s[0] in FORMULA_TRIGGERS or lead[:1] in FORMULA_TRIGGERS):
        return False
    return _NUMBER.fullmatch(s.strip(" \t\r\n")) is None


def protect_cell(value):
    """``value`` as it must be written to a CSV cell so that no spreadsheet runs it.

    Parameters
    ----------
    value : object
        A cell. Only ``str`` is changed; numbers, bools, None and NaN come back as they are.

    Returns
    -------
    object
        ``"'" + value`` for a text starting (after spaces) with ``=``, ``+``, ``-``, ``@``, or
        starting with a tab or carriage return, unless the text is a plain decimal number;
        a text starting with ``'`` gets one more quote when the rest would be protected (so
        that :func:`unprotect_cell` undoes it exactly); any other value unchanged.

    Examples
    --------
    >>> protect_cell("=1+1"), protect_cell("@SUM(A1)"), protect_cell("-1.5"), protect_cell(-1)
    ("'=1+1", "'@SUM(A1)", '-1.5', -1)
    >>> protect_cell("gene_1"), protect_cell("\\t=x"), protect_cell("'=x")
    ('gene_1', "'\\t=x", "''=x")
    """
    if isinstance(value, str) and _needs_quote(value):
        return "'" + value
    return value


def unprotect_cell(value):
    """The inverse of :func:`protect_cell`: the text as it was before it was written.

    >>> unprotect_cell("'=1+1"), unprotect_cell("''=x"), unprotect_cell("'quoted")
    ('=1+1', "'=x", "'quoted")
    """
    if isinstance(value, str) and value.startswith("'") and _needs_quote(value[1:]):
        return value[1:]
    return value
