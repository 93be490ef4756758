"""CSV text, as data files and list files share it.

The rows of a text and the line each starts on, the separator, the syntax of numbers (a number
written with a percent sign, a currency sign, a thousands separator or a unit is not a plain
number) and the missing-value markers (:data:`DEFAULT_NA_VALUES`; docs/design.md, 'Inputs').
"""

from __future__ import annotations

import csv
import io as _io
import re
from collections.abc import Iterable

import numpy as np

from .._utils.lazy import lazy_module

pd = lazy_module("pandas")  # imported on first use (small commands start without it)

__all__ = ["DEFAULT_NA_VALUES"]


#: Cells of a CSV file read as missing values unless ``na_values`` says otherwise: ``?``
#: (Weka's marker), the empty cell, and ``NaN``/``nan`` (how numpy and pandas write a missing
#: number). ``NA``, ``N/A``, ``None``, ``null`` are *not* among them: they can be values of a
#: nominal attribute ("NA" = North America); in a numeric column they are an error that says
#: to pass ``na_values`` (``--na-values``).
DEFAULT_NA_VALUES = ("?", "", "NaN", "nan")

_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"

_INFINITY = r"[+-]?(?:inf|infinity)"

_NUMBER_RE = re.compile(_NUMBER)

_INTEGER_RE = re.compile(r"[+-]?\d+")

_PLAIN = r"[+-]?(?:\d+\.?\d*|\.\d+)"

_THOUSANDS = r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?"

_UNITS = ("kg|mg|µg|ug|g|km|cm|mm|m|ml|l|ms|s|min|h|kb|mb|gb|tb|°c|°f|°|kcal|cal|mmhg|bpm|"
          "hz|khz|mhz|ghz|kw|w|v|mv|lb|lbs|oz|ft|in")

#: Numbers written with a percent sign, a currency sign, a thousands separator or a unit
#: (``12.3%``, ``$5``, ``1,234``, ``3 kg``, ``120mmHg``): text to the CSV rule, which would
#: make a nominal column with a category per value (docs/design.md, 'Inputs').
_DECORATED = [
    ("a percent sign", re.compile(rf"(?:{_PLAIN}|{_THOUSANDS})\s*%")),
    ("a currency sign", re.compile(rf"[+-]?[$€£¥]\s*(?:{_THOUSANDS}|{_PLAIN})"
                                   rf"|(?:{_THOUSANDS}|{_PLAIN})\s*[$€£¥]")),
    ("a thousands separator", re.compile(_THOUSANDS)),
    ("a unit", re.compile(rf"(?:{_THOUSANDS}|{_PLAIN})(?:\s*(?:{_UNITS})|\s+[^\W\d_]"
                          r"[^\W\d_/°²³]{0,7}(?:/[^\W\d_]{1,4})?)(?:[²³])?",
                          re.IGNORECASE)),
]



def _decoration(cell: str) -> str | None:
    """What makes ``cell`` a decorated number (:data:`_DECORATED`), or None."""
    for what, rx in _DECORATED:
        if rx.fullmatch(cell):
            return what
    return None



def _check_sep(sep) -> str:
    if sep in ("tab", "\\t"):
        sep = "\t"
    if not isinstance(sep, str) or len(sep) != 1 or sep in "\"\r\n":
        raise ValueError(f"sep must be one character (e.g. ',', ';' or 'tab'), got {sep!r}")
    return sep



def _csv_rows(text: str, label: str, sep: str) -> tuple[list[list[str]], list[int]]:
    """The non-blank rows of a CSV text and the file line where each one starts."""
    reader = csv.reader(_io.StringIO(text, newline=""), delimiter=sep, quotechar='"',
                        strict=True)
    rows, lines = [], []
    last = 0
    try:
        for row in reader:
            start = last + 1
            last = reader.line_num
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            rows.append(row)
            lines.append(start)
    except csv.Error as exc:
        raise ValueError(f"{label}, line {reader.line_num}: {exc}") from None
    return rows, lines



def _sep_hint(header: list[str], label: str, sep: str) -> None:
    """One column in the header while another separator is there: say how to read it."""
    if len(header) != 1:
        return
    for other, name in ((";", "';'"), ("\t", "tab"), (",", "','"), ("|", "'|'")):
        if other != sep and other in header[0]:
            shown = {",": "','", "\t": "tab"}.get(sep, repr(sep))
            raise ValueError(
                f"{label}: the header has one column when split at {shown} but contains "
                f"{name}: a {'semicolon' if other == ';' else name}-separated file? pass "
                f"--sep {name} (sep={other!r})")



def _number_mask(cells: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """(is a finite-syntax number, is an infinity) for stripped text cells."""
    num = cells.str.fullmatch(_NUMBER).to_numpy(dtype=bool, na_value=False).copy()
    inf = cells.str.fullmatch(_INFINITY, case=False).to_numpy(dtype=bool,
                                                              na_value=False).copy()
    return num, inf



def _number_text(v) -> str:
    """A number given as a missing-value marker, written as a cell would hold it."""
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    f = float(v)
    if f != f:
        return "NaN"
    return repr(f) if np.isfinite(f) else ("inf" if f > 0 else "-inf")



def _na_markers(value, *, default: tuple) -> tuple:
    """The missing-value markers of ``na_values=``: ``default`` when None; a string is *one*
    marker (``"NA"``, never the letters ``N`` and ``A``); a number is one marker; a list
    holds strings and numbers. A marker that reads as a number (``0.5``, ``"-999"``) matches
    every cell of the same value (``0.50``, ``5e-1``; ``-999.0``), docs/design.md, 'Inputs';
    other markers match the cell stripped of surrounding spaces exactly. Anything else is a
    ``TypeError`` naming ``na_values``."""
    if value is None:
        return tuple(default)
    if isinstance(value, str):
        return (value.strip(),)
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
            value, (bool, np.bool_)):
        return (_number_text(value),)
    if (isinstance(value, (bytes, bytearray, dict, bool, np.bool_))
            or not isinstance(value, Iterable)):
        raise TypeError(f"na_values must be a marker or a list of markers (strings or "
                        f"numbers, e.g. na_values=['NA', -999]), got {type(value).__name__} "
                        f"{value!r}")
    out = []
    for v in value:
        if isinstance(v, str):
            out.append(v.strip())
        elif isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(
                v, (bool, np.bool_)):
            out.append(_number_text(v))
        else:
            raise TypeError(f"na_values must hold strings or numbers, got "
                            f"{type(v).__name__} {v!r} in {value!r}")
    return tuple(out)



def _numeric_markers(marks) -> np.ndarray:
    """The values of the markers that read as finite numbers."""
    vals = [float(m) for m in marks if _NUMBER_RE.fullmatch(m)]
    return np.array([v for v in vals if np.isfinite(v)], dtype=np.float64)
