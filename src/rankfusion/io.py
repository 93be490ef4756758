"""Reading classification data and ranked lists, and writing output files safely.

:func:`load_data` returns the features as a DataFrame (nominal attributes as pandas categoricals
in their declared order or text columns, NaN for missing values) and the target as a Series.
The target is the column named (or numbered) by ``target``; by default the last column, as
Weka does. Every input is read once (``"-"`` is standard input) and read as the user meant it
or refused with one message naming the file, the place and the fix (docs/design.md,
'Inputs'): a column is numeric or nominal by one rule, a cell that breaks a numeric column is
an error unless it is a declared missing-value marker, identifier-like columns and duplicate
column names are refused.

:func:`read_arff` is a small reader for Weka's ARFF format (dense and sparse rows, nominal
attributes with their declared values, ``?`` for missing, quoted names and values, comments),
written because ``scipy.io.arff`` drops the declared category order of nominal attributes
(it returns bytes) and cannot read sparse rows or quoted values containing commas reliably.

:func:`read_lists` and :func:`write_lists` read and write ranked lists (scores, positions or
orders) as CSV files; :class:`~rankfusion.RankedLists` itself reads and writes no files.
:func:`standardize` z-scores the columns of a feature matrix.

:func:`safe_output_path` and :func:`atomic_write` are what every command uses for ``--out``:
an output never replaces an input file, never replaces an existing file unless asked, and is
written to a temporary file renamed into place, so that a failure leaves no half-written file.
"""

from __future__ import annotations

import copy
import csv
import gzip
import io as _io
import os
import re
import sys
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from ._utils.atomic import atomic_open
from ._utils.csv_cells import unprotect_cell
from ._utils.data import (
    ID_TARGET_MIN_ROWS_OF_FILE,
    NOT_CLASSES_ADVICE,
    ClassificationData,
    rescale_extreme_columns,
    target_problem,
    without_attrs,
)
from ._utils.lazy import lazy_module
from ._utils.validation import check_unique_columns
from .lists import RankedLists

pd = lazy_module("pandas")  # imported on first use (small commands start without it)

__all__ = ["read_arff", "load_data", "read_lists", "write_lists", "LIST_KINDS", "standardize",
           "DEFAULT_NA_VALUES", "InputWarning", "read_input", "safe_output_path",
           "atomic_write", "protect_csv_cells", "read_small", "SMALL_CELLS"]

_NUMERIC = {"numeric", "real", "integer"}


def _unquote(tok: str) -> str:
    tok = tok.strip()
    if len(tok) >= 2 and tok[0] == tok[-1] and tok[0] in "'\"":
        body = tok[1:-1]
        return re.sub(r"\\(.)", r"\1", body)
    return tok


def _split(text: str, sep: str = ",") -> list[str]:
    """Split ``text`` at ``sep`` outside quotes; tokens keep their quotes (``_unquote`` them)."""
    out, cur, quote, i = [], [], None, 0
    while i < len(text):
        ch = text[i]
        if quote:
            cur.append(ch)
            if ch == "\\" and i + 1 < len(text):
                cur.append(text[i + 1])
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
            cur.append(ch)
        elif ch == sep:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
        i += 1
    if quote:
        raise ValueError(f"unterminated quote in ARFF line: {text[:80]!r}")
    out.append("".join(cur))
    return out


def _strip_comment(line: str) -> str:
    """Drop a ``%`` comment (outside quotes) to the end of the line, as Weka's tokenizer."""
    quote = None
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "%":
            return line[:i].rstrip()
        i += 1
    return line


def _parse_attribute(rest: str, lineno: int):
    rest = rest.strip()
    if rest[:1] in "'\"":
        q = rest[0]
        j = 1
        while j < len(rest) and not (rest[j] == q and rest[j - 1] != "\\"):
            j += 1
        if j >= len(rest):
            raise ValueError(f"ARFF line {lineno}: unterminated attribute name")
        name = _unquote(rest[: j + 1])
        typ = rest[j + 1:].strip()
    else:
        parts = rest.split(None, 1)
        if len(parts) < 2:
            raise ValueError(f"ARFF line {lineno}: attribute without a type: {rest!r}")
        name, typ = parts[0], parts[1].strip()
    if typ.startswith("{"):
        if not typ.endswith("}"):
            raise ValueError(f"ARFF line {lineno}: nominal values must end with '}}'")
        inner = typ[1:-1]
        values = [_unquote(v) for v in _split(inner)] if inner.strip() else []
        return name, "nominal", values
    kind = typ.split(None, 1)[0].lower()
    if kind in _NUMERIC:
        return name, "numeric", None
    if kind in ("string", "date"):
        return name, kind, None
    raise ValueError(f"ARFF line {lineno}: unsupported attribute type {typ!r}")


def _data_table(path, rows, names, kinds, cats):
    """The @data section as an (n, p) array of unquoted strings ('?' = missing), or, for
    all-numeric attributes and a nominal last one, ``(float block, (n, 1) strings)``."""
    p = len(names)
    n = len(rows)
    if n == 0:
        return np.empty((0, p), dtype=object)
    lines = [line for _, line in rows]
    if not any(line.startswith("{") or "'" in line or '"' in line or "\\" in line
               for line in lines):
        # fast path: plain comma-separated values into a fixed-width string array
        for lineno, line in rows:
            if line.count(",") != p - 1:
                raise ValueError(f"{path}, line {lineno}: {line.count(',') + 1} values but "
                                 f"{p} attributes")
        parts = [line.split(",") for line in lines]
        num = [j for j, k in enumerate(kinds) if k == "numeric"]
        if len(num) == p - 1 and kinds[-1] != "numeric" and not any(
                "?" in line or " " in line or "\t" in line for line in lines):
            # the common wide case (numbers, then a nominal class): parse the numbers directly
            try:
                values = np.array([list(map(float, r[:-1])) for r in parts])
            except ValueError:
                values = None
            if values is not None:
                return values, np.array([[r[-1]] for r in parts])
        table = np.array(parts)
        if any(" " in line or "\t" in line for line in lines):
            table = np.char.strip(table)
        return table
    table = np.empty((n, p), dtype=object)
    for r, (lineno, line) in enumerate(rows):
        if line.startswith("{"):
            if not line.endswith("}"):
                raise ValueError(f"{path}, line {lineno}: unterminated sparse row")
            row = ["0" if kinds[k] == "numeric" else (cats[k][0] if cats[k] else "")
                   for k in range(p)]  # sparse rows: absent entries are 0 / first value
            body = line[1:-1].strip()
            given: set = set()
            if body:
                for item in _split(body):
                    idx, _, val = item.strip().partition(" ")
                    if not re.fullmatch(r"\d+", idx):
                        raise ValueError(f"{path}, line {lineno}: sparse index {idx!r} is not an "
                                         f"attribute number 0…{p - 1}")
                    if int(idx) >= p:
                        raise ValueError(f"{path}, line {lineno}: sparse index {idx} is past the "
                                         f"last attribute (the header declares {p}: 0…{p - 1})")
                    k = int(idx)
                    if k in given:
                        raise ValueError(
                            f"{path}, line {lineno}: the sparse row gives attribute {k} "
                            f"({names[k]!r}) twice; each index may appear once in a row")
                    given.add(k)
                    row[k] = val.strip()
        else:
            row = _split(line)
            if len(row) != p:
                raise ValueError(f"{path}, line {lineno}: {len(row)} values but {p} "
                                 "attributes")
        table[r] = [_unquote(v) for v in row]
    return table


def read_arff(path, *, encoding: str = "utf-8") -> pd.DataFrame:
    """Read an ARFF file (optionally ``.gz``; ``"-"`` = standard input) into a DataFrame.

    Numeric attributes become float64 columns, nominal attributes pandas categoricals with the
    declared categories in declared order, string and date attributes object columns. ``?`` is
    a missing value (NaN). The relation name is kept in ``frame.attrs["relation"]`` and the
    declared types (``"numeric"``, ``"nominal"``, ``"string"``, ``"date"``) in
    ``frame.attrs["arff_types"]``.

    Parameters
    ----------
    path : str or path-like
        The file (``.arff`` or ``.arff.gz``), or ``"-"`` for standard input.
    encoding : str, default "utf-8"
        Text encoding of the file.

    Returns
    -------
    DataFrame
    """
    text, label = read_input(path, encoding=encoding)
    return _parse_arff(text, label)


def _parse_arff(text: str, path) -> pd.DataFrame:
    names, kinds, cats = [], [], []
    relation = None
    rows: list[tuple[int, str]] = []
    in_data = False
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if "%" in line:
            line = _strip_comment(line)
        if not line:
            continue
        if not in_data:
            low = line.lower()
            if low.startswith("@relation"):
                relation = _unquote(line[9:].strip())
            elif low.startswith("@attribute"):
                n, k, c = _parse_attribute(line[10:], lineno)
                names.append(n)
                kinds.append(k)
                cats.append(c)
            elif low.startswith("@data"):
                if not names:
                    raise ValueError(f"{path}: @data before any @attribute")
                in_data = True
                data_line = lineno
            else:
                raise ValueError(f"{path}, line {lineno}: unexpected header line {line[:60]!r}")
            continue
        rows.append((lineno, line))
    if not in_data:
        raise ValueError(f"{path}: not an ARFF file (no @data section)")
    if not rows:
        raise ValueError(f"{path}, line {data_line}: the @data section has no data rows; "
                         "the file declares attributes but holds no instances")
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"{path}: the attribute name {dup!r} is declared twice; attribute "
                         "names must be unique")
    table = _data_table(path, rows, names, kinds, cats)
    cols = {}
    num = [j for j, k in enumerate(kinds) if k == "numeric"]
    if isinstance(table, tuple):  # fast path: numeric block already parsed, class strings
        values, last = table
        for k, j in enumerate(num):
            cols[names[j]] = values[:, k]
        table = np.empty((last.shape[0], len(names)), dtype=last.dtype)
        table[:, -1] = last[:, 0]
        num = []
    n = table.shape[0]
    if num:
        block = table[:, num]
        block = np.where(block == "?", "nan", block)
        try:
            values = block.astype(np.float64)
        except ValueError:
            for r in range(table.shape[0]):
                for j in num:
                    v = table[r, j]
                    try:
                        float(v)
                    except ValueError:
                        raise ValueError(f"{path}, line {rows[r][0]}: attribute {names[j]!r} is "
                                         f"numeric but has the value {str(v)!r}") from None
            raise  # pragma: no cover
        for k, j in enumerate(num):
            cols[names[j]] = values[:, k]
    for j, (name, kind, c) in enumerate(zip(names, kinds, cats)):
        if kind == "numeric":
            continue
        raw_col = table[:, j].astype(object)
        miss = raw_col == "?"
        if kind == "nominal":
            cats = pd.Index(c, dtype=object)
            if not cats.is_unique:
                raise ValueError(f"{path}: attribute {name!r} declares a value twice")
            codes = cats.get_indexer(raw_col)
            bad = (codes < 0) & ~miss
            if bad.any():
                r = int(np.flatnonzero(bad)[0])
                raise ValueError(f"{path}, line {rows[r][0]}: value {raw_col[r]!r} of attribute "
                                 f"{name!r} is not among its declared values {c}")
            codes[miss] = -1
            cols[name] = pd.Categorical.from_codes(codes, categories=cats)
        else:
            cols[name] = pd.Series([None if m else v for v, m in zip(raw_col, miss)],
                                   dtype=object)
    num_names = [nm for nm, k in zip(names, kinds) if k == "numeric"]
    for nm in num_names:
        bad = np.isinf(np.asarray(cols[nm], dtype=np.float64))
        if bad.any():
            r = int(np.flatnonzero(bad)[0])
            raise ValueError(f"{path}, line {rows[r][0]}: attribute {nm!r} has the value "
                             f"{float(cols[nm][r])}, not a finite number; mark a missing value "
                             "with '?'")
    if len(num_names) > 100:  # wide data: one float block instead of thousands of columns
        block = pd.DataFrame(np.column_stack([cols.pop(nm) for nm in num_names]),
                             columns=num_names)
        others = pd.DataFrame(cols, index=block.index)
        frame = pd.concat([block, others], axis=1)[names]
    else:
        frame = pd.DataFrame(cols, columns=names)
    frame.attrs["relation"] = relation
    frame.attrs["arff_types"] = dict(zip(names, kinds))
    frame.attrs["places"] = [f"line {lineno}" for lineno, _ in rows]
    return frame


# --------------------------------------------------------------------------- reading input
#: Cells of a CSV file read as missing values unless ``na_values`` says otherwise: ``?``
#: (Weka's marker), the empty cell, and ``NaN``/``nan`` (how numpy and pandas write a missing
#: number). ``NA``, ``N/A``, ``None``, ``null`` are *not* among them: they can be values of a
#: nominal attribute ("NA" = North America); in a numeric column they are an error that says
#: to pass ``na_values`` (``--na-values``).
DEFAULT_NA_VALUES = ("?", "", "NaN", "nan")

#: Names that mean standard input.
_STDIN = ("-",)

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
_UNNAMED_RE = re.compile(r"Unnamed: \d+(?:_level_\d+)?")


class InputWarning(UserWarning):
    """A file was read, but something in it may not be what its author meant (e.g. class
    labels that differ only by surrounding spaces or by case). The command line prints these
    as ``rankfusion: warning: …``."""


def _label(source) -> str:
    return "<stdin>" if str(source) in _STDIN else os.fspath(source)


def read_input(source, *, encoding: str = "utf-8", binary: bool = False):
    """The whole content of an input file, read once: ``(text or bytes, label)``.

    ``source`` is a path, or ``"-"`` for standard input (``/dev/stdin`` works as a path);
    gzip-compressed content is decompressed whatever the name. The label names the file in
    error messages. A decoding error names the file, the line and the fix
    (``encoding="latin-1"``, ``--encoding latin-1``).

    Parameters
    ----------
    source : str or path-like
        A path, or ``"-"`` for standard input.
    encoding : str, default "utf-8"
        Text encoding (ignored with ``binary``).
    binary : bool, default False
        Return bytes instead of text.

    Returns
    -------
    (str or bytes, str)
        The content and the label naming the file in messages.
    """
    if not isinstance(source, (str, bytes, os.PathLike)):
        raise TypeError(f"source must be a path, '-' for standard input, or a DataFrame; got "
                        f"{type(source).__name__}")
    label = _label(source)
    if str(source) in _STDIN:
        data = sys.stdin.buffer.read()
    else:
        path = os.fspath(source)
        if not os.path.exists(path):
            raise FileNotFoundError(f"no such file: {path}")
        if os.path.isdir(path):
            raise IsADirectoryError(f"{path} is a directory, not a file")
        with open(path, "rb") as fh:
            data = fh.read()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise ValueError(f"{label}: a damaged gzip file ({exc})") from None
    if binary:
        return data, label
    return _decode(data, label, encoding), label


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


def _where(places: list[str], r: int) -> str:
    return places[r]


def _classify_columns(label, names, body, lines, na_values, nominal_cols, target_col,
                      strip: bool = True):
    """Columns of a text table → dict name → numeric array / object array (the rule of
    docs/design.md, 'Inputs')."""
    n, p = body.shape
    out = {}
    flat = pd.Series(body.reshape(-1, order="F"), dtype=object)
    stripped = flat.str.strip()
    missing = stripped.isin(list(na_values)).to_numpy().copy()
    num, inf = _number_mask(stripped)
    values = np.full(flat.shape[0], np.nan)
    if num.any():
        values[num] = stripped[num].astype(np.float64).to_numpy()
    by_value = _numeric_markers(na_values)
    if by_value.size:
        missing |= num & np.isin(values, by_value)
    num &= ~missing
    inf &= ~missing
    values[missing] = np.nan
    over = num & ~np.isfinite(values)
    strings = stripped.to_numpy(dtype=object)
    has_point = stripped.str.contains(r"[.eE]", regex=True).to_numpy(dtype=bool,
                                                                       na_value=False)
    for j, name in enumerate(names):
        sl = slice(j * n, (j + 1) * n)
        m, nu, inf_j = missing[sl], num[sl], inf[sl]
        text = ~m & ~nu & ~inf_j
        declared = name in nominal_cols
        if not declared and text.any():
            cells_j = strings[sl]
            r_text = np.flatnonzero(text)
            kinds = [_decoration(cells_j[r]) for r in r_text[:1000]]
            plain_text = [r for r, k in zip(r_text, kinds) if k is None]
            decorated = [r for r, k in zip(r_text, kinds) if k is not None]
            all_thousands = all(k == "a thousands separator" for k in kinds)
            if decorated and (nu.any() or len(decorated) >= len(plain_text)) and not (
                    all_thousands and not nu.any() and not plain_text):
                r = int(decorated[0])
                what = _decoration(cells_j[r])
                share = ("every cell of the column is written so" if not nu.any()
                         and not plain_text else "among plain numbers" if nu.any()
                         else f"in {len(decorated)} of {len(r_text)} text cells")
                raise ValueError(
                    f"{label}: column {name!r}, {_where(lines, r)}: {cells_j[r]!r} is a number "
                    f"written with {what} ({share}); rankfusion reads plain numbers only "
                    "(a nominal column would get one category per value): remove the "
                    f"{what.split(' ', 1)[1]} from the file, or pass --nominal {name!r} "
                    "(nominal=[...]) if these are labels")
        if not declared and (nu.any() or inf_j.any()) and text.any():
            r_text = int(np.flatnonzero(text)[0])
            r_num = int(np.flatnonzero(nu | inf_j)[0])
            v = strings[sl][r_text]
            fix = (f"if {v!r} marks a missing value pass --na-values {v!r} (na_values=[...]); "
                   if nu.sum() >= text.sum() else "")
            raise ValueError(
                f"{label}: column {name!r} mixes numbers ({_where(lines, r_num)}: "
                f"{strings[sl][r_num]!r}) and text ({_where(lines, r_text)}: {v!r}); {fix}"
                f"if the column is nominal pass --nominal {name!r} (nominal=[...]); "
                "otherwise correct the cell")
        if not declared and text.any() and not nu.any() and not inf_j.any():
            comma = pd.Series(strings[sl][text], dtype=object).str.fullmatch(r"[+-]?\d*,\d+")
            if comma.all():
                r = int(np.flatnonzero(text)[0])
                raise ValueError(
                    f"{label}: column {name!r} holds numbers with a decimal comma"
                    + (" (or a thousands separator)" if all(
                        re.fullmatch(_THOUSANDS, c) for c in strings[sl][text]) else "")
                    + f" ({_where(lines, r)}: {strings[sl][r]!r}); rankfusion reads '.' as the "
                    "decimal point: convert the file, or pass --nominal "
                    f"{name!r} (nominal=[...]) if these are labels")
        if declared or (not nu.any() and not inf_j.any() and text.any()):
            col = (strings if strip else flat.to_numpy(dtype=object))[sl].copy()
            col[m] = np.nan
            out[name] = col
            continue
        if inf_j.any() or over[sl].any():
            r = int(np.flatnonzero(inf_j | over[sl])[0])
            raise ValueError(
                f"{label}: column {name!r}, {_where(lines, r)}: {strings[sl][r]!r} is not a "
                "finite number; if it marks a missing value pass --na-values "
                f"{strings[sl][r]!r} (na_values=[...])")
        col = values[sl]
        if not m.any() and n and not has_point[sl].any() and np.all(np.abs(col) < 2.0 ** 53):
            col = col.astype(np.int64)
        out[name] = col
    return out


def _frame_from_text(text, label, *, sep, na_values, nominal_cols, target):
    rows, lines = _csv_rows(text, label, sep)
    if not rows:
        raise ValueError(f"{label}: the file is empty")
    header = [c.strip() for c in rows[0]]
    if header and header[0].lower().startswith(("@relation", "@attribute")):
        raise ValueError(f"{label}: an ARFF file ({header[0].split()[0]} on the first line) "
                         "read as CSV; pass --format arff (format='arff')")
    _sep_hint(rows[0], label, sep)
    if len(header) > 1 and all(_NUMBER_RE.fullmatch(h) for h in header):
        raise ValueError(f"{label}: the first row is all numbers ({', '.join(header[:3])}, …): "
                         "data, not column names; the file needs a header row naming the "
                         "columns")
    if len(rows) < 2:
        raise ValueError(f"{label}: a header row but no data rows")
    p = len(header)
    shown = "tab" if sep == "\t" else repr(sep)
    fix = f"remove the trailing {shown} from each line"
    if p > 1 and header[-1] == "" and all(len(r) == p and not r[-1].strip() for r in rows[1:]):
        raise ValueError(f"{label}: every line ends with {shown}, which makes an empty last "
                         f"column (column {p}, no name, no value on any line; it would be read "
                         f"as the target); {fix}")
    if all(len(r) == p + 1 and not r[-1].strip() for r in rows[1:]):
        raise ValueError(f"{label}: every data line ends with {shown} (line {lines[1]}: "
                         f"{len(rows[1])} cells, the last empty, but the header (line "
                         f"{lines[0]}) has {p}); remove the trailing {shown}")
    if p > 1 and header[-1] == "" and all(len(r) == p - 1 for r in rows[1:]):
        raise ValueError(f"{label}, line {lines[0]}: the header ends with {shown}, which names "
                         f"an empty column {p} that no data line has; remove it")
    for row, line in zip(rows[1:], lines[1:]):
        if len(row) != p:
            raise ValueError(f"{label}, line {line}: {len(row)} cells but the header (line "
                             f"{lines[0]}) has {p}; every row needs one cell per column")
    names = [h if h else f"Unnamed: {j}" for j, h in enumerate(header)]
    seen: dict = {}
    for j, h in enumerate(names):
        if h in seen:
            raise ValueError(f"{label}: the column name {h!r} appears twice in the header "
                             f"(columns {seen[h] + 1} and {j + 1}); column names must be unique")
        seen[h] = j
    body = np.array(rows[1:], dtype=object).reshape(len(rows) - 1, p)
    places = [f"line {n}" for n in lines[1:]]
    cols = _classify_columns(label, names, body, places, na_values, nominal_cols, target)
    frame = pd.DataFrame(cols, columns=names)
    frame.attrs["places"] = places
    return frame, body


def _sniff_format(data: bytes) -> str:
    if data[:4] == b"PAR1":
        return "parquet"
    head = data[:4096].decode("latin-1")
    for line in head.splitlines():
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        return "arff" if line.lower().startswith(("@relation", "@attribute")) else "csv"
    return "csv"


def _format_of(source, fmt: str | None, data: bytes | None = None) -> str:
    if fmt is not None:
        if fmt not in ("csv", "arff", "parquet"):
            raise ValueError(f"format must be 'csv', 'arff' or 'parquet', got {fmt!r}")
        return fmt
    low = os.fspath(source).lower().removesuffix(".gz")
    if low.endswith(".arff"):
        return "arff"
    if low.endswith((".parquet", ".pq")):
        return "parquet"
    if low.endswith((".csv", ".txt", ".tsv")):
        return "csv"
    if data is None:
        raise ValueError(f"cannot tell the format of {source!r}; use a .csv, .arff or "
                         ".parquet name or pass format=")
    return _sniff_format(data)


def _as_name_list(value, what: str) -> list:
    """Column names of ``drop=`` / ``nominal=``: a list of names, or one string (a name, or
    names separated by commas). Numbers name columns whose header is that number; anything
    else (a bool, bytes, a number alone, a list holding ``None`` or a float) is a
    ``TypeError`` naming the option."""
    if value is None:
        return []
    if isinstance(value, str):
        return [c.strip() for c in value.split(",") if c.strip()]
    if (isinstance(value, (bytes, bytearray, dict, bool, np.bool_))
            or not isinstance(value, Iterable)):
        raise TypeError(f"{what} must be a column name or a list of column names (e.g. "
                        f"{what}=['id'] or {what}='id'), got {type(value).__name__} {value!r}")
    out = []
    for c in value:
        if isinstance(c, str):
            out.append(c.strip())
        elif isinstance(c, (int, np.integer)) and not isinstance(c, (bool, np.bool_)):
            out.append(str(int(c)))
        else:
            raise TypeError(f"{what} must hold column names (strings), got "
                            f"{type(c).__name__} {c!r} in {value!r}")
    return out


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


def _resolve_target(cols: list, target) -> int:
    if target is None:
        return len(cols) - 1
    if isinstance(target, (int, np.integer)) and not isinstance(target, bool):
        t = int(target)
        named = [j for j, c in enumerate(cols) if str(c) == str(t)]
        if not -len(cols) <= t < len(cols):
            if named:
                return named[0]
            raise ValueError(f"target index {t} is out of range for {len(cols)} columns")
        if named and named[0] != t % len(cols):
            raise ValueError(
                f"target {t} is ambiguous: column {t % len(cols)} ({str(cols[t % len(cols)])!r})"
                f" by position, and the column named {str(t)!r} (column {named[0]}): give "
                f"{named[0]} for the column named {str(t)!r}, or the name of column "
                f"{t % len(cols)}")
        return t % len(cols)
    names = [str(c) for c in cols]
    if str(target) not in names:
        shown = ", ".join(names[:10]) + (" …" if len(names) > 10 else "")
        raise ValueError(f"target column {target!r} not found; columns: {shown}")
    return names.index(str(target))


def _text_columns_of_frame(frame: pd.DataFrame, label, na_values, nominal_cols) -> pd.DataFrame:
    """A DataFrame's all-text object columns classified by the rule for file cells."""
    out = {}
    for j, name in enumerate(frame.columns):
        s = frame.iloc[:, j]
        if not _is_text(s):
            continue
        obs = s[s.notna()]
        if obs.empty or not all(isinstance(v, str) for v in obs):
            continue  # mixed Python objects: refused by the feature check
        body = s.astype(object).where(s.notna(), "").to_numpy(dtype=object).reshape(-1, 1)
        marks = tuple(na_values) + ("",)
        places = [f"row {i!r}" for i in frame.index]
        out[j] = _classify_columns(label, [name], body, places, marks, set(nominal_cols),
                                   None, strip=False)[name]
    if not out:
        return frame
    frame = frame.copy()
    for j, col in out.items():
        frame.isetitem(j, col)
    return frame


def _is_text(s: pd.Series) -> bool:
    """An object or string column (not categorical, numeric or bool)."""
    return s.dtype == object or (pd.api.types.is_string_dtype(s.dtype)
                                 and not isinstance(s.dtype, pd.CategoricalDtype))


#: A whole-number column increasing (or decreasing) by one on every row is a row number or
#: an identifier from this many rows on (docs/design.md, 'Inputs', 'Identifiers').
ID_COLUMN_MIN_ROWS = 6


def _counter_problem(values: np.ndarray) -> str | None:
    """Why a numeric column is a row number or an identifier (whole numbers that step by +1,
    or by −1, on every row), or None."""
    n = values.shape[0]
    if n < ID_COLUMN_MIN_ROWS or values.dtype.kind not in "iuf":
        return None
    v = values.astype(np.float64)
    if not np.isfinite(v).all() or not np.all(v == np.round(v)):
        return None
    step = np.diff(v)
    if not (np.all(step == 1.0) or np.all(step == -1.0)):
        return None
    first, last = int(v[0]), int(v[-1])
    row = " (the row number)" if (first, last) in ((0, n - 1), (1, n)) else ""
    return (f"holds {first}, {int(v[1])}, … {last}{row}: a whole number "
            f"{'increasing' if step[0] > 0 else 'decreasing'} by one on every row, a row "
            "number or an identifier, which information measures would rank first on data "
            "sorted by class")


def _identifier_problem(name, s: pd.Series, arff_type: str | None) -> str | None:
    if (s.dtype.kind in "iuf" and not isinstance(s.dtype, pd.CategoricalDtype)
            and not s.isna().any()):
        counter = _counter_problem(s.to_numpy())
        if counter:
            return f"column {name!r} {counter}"
    if _UNNAMED_RE.fullmatch(str(name)):
        return (f"column {name!r} has no name in the header: a row index written by pandas? "
                "It would be ranked as a feature")
    if arff_type in ("string", "date"):
        return (f"attribute {name!r} is an ARFF {arff_type} attribute: an identifier or a "
                "time stamp, not a feature (Weka's attribute evaluators refuse them too)")
    if arff_type is None and _is_text(s):
        obs = s[s.notna()]
        n = s.shape[0]
        if n >= 3 and obs.shape[0] == n and obs.nunique() == n:
            return (f"column {name!r} is text with a different value in every row: an "
                    "identifier, which information measures would rank first")
    return None


#: Text cells that are dates or times (ISO 8601 ``2024-01-31``, ``2024-01-31 12:00``,
#: ``31/01/2024``, ``12:30:00``): a time stamp, not a class label.
_DATE_RE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?"
                      r"(?:Z|[+-]\d{2}:?\d{2})?)?|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}"
                      r"|\d{1,2}:\d{2}(?::\d{2})?")


def _check_target_column(y: pd.Series, name: str, label: str, places: list) -> None:
    """The target column of a file or DataFrame as class labels, or one error naming the
    file, the column and the line (docs/design.md, 'Inputs' and 'Validation'): a missing
    label; dates, continuous numbers or a whole-number identifier
    (:func:`rankfusion._utils.data.target_problem`); text with a different value in every
    row or all dates."""
    where = f"{label}: the target column {name!r}"
    miss = y.isna().to_numpy()
    if miss.all():
        raise ValueError(f"{where} is empty on every line: no class labels; choose the class "
                         "column with target= (--target)")
    if miss.any():
        r = int(np.flatnonzero(miss)[0])
        raise ValueError(f"{label}, {places[r]}: the target column {name!r} has no label (an "
                         f"empty cell or a missing-value marker; {int(miss.sum())} such rows); "
                         "give every row its class, or leave those rows out")
    if isinstance(y.dtype, pd.CategoricalDtype):
        return
    if y.dtype.kind in "iufmM":
        arr = y.to_numpy()
    else:
        arr = y.to_numpy(dtype=object)
    if arr.dtype.kind == "f" and np.isinf(arr).any():
        r = int(np.flatnonzero(np.isinf(arr))[0])
        raise ValueError(f"{label}, {places[r]}: the target column {name!r} holds {arr[r]}, "
                         "not a class label")
    problem = target_problem(arr, min_id_samples=ID_TARGET_MIN_ROWS_OF_FILE, sparse=True)
    if problem:
        raise ValueError(f"{where} {problem}")
    if _is_text(y) and all(isinstance(v, str) for v in arr):
        n = arr.shape[0]
        dates = [bool(_DATE_RE.fullmatch(v.strip())) for v in arr]
        if all(dates):
            raise ValueError(f"{where} holds dates or times ({places[0]}: {arr[0]!r}), not "
                             f"class labels; {NOT_CLASSES_ADVICE}")
        if n >= ID_TARGET_MIN_ROWS_OF_FILE and len({v.strip().casefold() for v in arr}) == n:
            raise ValueError(f"{where} has a different value in every row ({n} rows): an "
                             "identifier, not class labels (every class would hold one "
                             "sample); choose the class column with target= (--target)")


def _label_variants(y: pd.Series, label: str, merged: dict | None) -> None:
    """Warn about class labels that differ only by surrounding spaces or by case."""
    if merged:
        shown = "; ".join(f"{', '.join(repr(v) for v in sorted(raw))} → {k!r}"
                          for k, raw in merged.items())
        warnings.warn(f"{label}: class labels that differ only by surrounding spaces were "
                      f"read as one class each ({shown})", InputWarning, stacklevel=3)
    obs = y[y.notna()]
    if not _is_text(obs):
        return
    groups: dict = {}
    for v in pd.unique(obs):
        if isinstance(v, str):
            groups.setdefault(v.strip().casefold(), set()).add(v)
    odd = [sorted(g) for g in groups.values() if len(g) > 1]
    if odd:
        shown = "; ".join(" and ".join(repr(v) for v in g) for g in odd)
        warnings.warn(f"{label}: class labels {shown} differ only by case or surrounding "
                      "spaces; they are kept as different classes (rename them if they are "
                      "one)", InputWarning, stacklevel=3)


def load_data(source, target: str | int | None = None, *, format: str | None = None,
              na_values: Sequence[str] | None = None, drop: Sequence[str] | str | None = None,
              nominal: Sequence[str] | str | None = None, sep: str | None = None,
              encoding: str = "utf-8"):
    """Features and target from a file or a DataFrame, read by the rules of docs/design.md,
    'Inputs'.

    Parameters
    ----------
    source : str, path or DataFrame
        A ``.csv``/``.tsv``, ``.arff`` or ``.parquet`` file (gzip-compressed CSV/ARFF too;
        ``"-"`` = standard input; a name without one of these endings is read as ARFF when
        its first line is ``@relation``, Parquet by its magic bytes, else CSV), or a DataFrame
        (never modified).
    target : str or int, optional
        The class column, by name or by position (negative counts from the end); default the
        last column, as Weka.
    format : {"csv", "arff", "parquet"}, optional
        Overrides the format guessed from the file name.
    na_values : str, number, or sequence of str and numbers, optional
        Cells read as missing values (CSV, and text columns of a DataFrame or Parquet file).
        Default for files :data:`DEFAULT_NA_VALUES` (``?``, empty, ``NaN``, ``nan``); for a
        DataFrame only NaN/None. Given, it *replaces* the default (the empty cell is always
        missing). A single string is one marker (``"NA"``). A marker that reads as a number
        (``-999``, ``0.5``, ``"0.5"``) matches every cell of that value (``-999.0``,
        ``0.50``); other markers match the cell (stripped of surrounding spaces) exactly.
        ARFF files use ``?`` only. Another type is a ``TypeError``.
    drop : sequence of str or comma-separated str, optional
        Columns to leave out before anything else is checked (identifiers, sample names).
    nominal : sequence of str or comma-separated str, optional
        Columns to read as nominal (text) even though their cells are numbers or mix numbers
        and text (codes such as blood groups ``0``, ``A``, ``B``, ``AB``).
    sep : str, optional
        The CSV separator: default ``","`` (tab for ``.tsv``); ``";"``, ``"tab"`` …
    encoding : str, default "utf-8"
        Text encoding of CSV and ARFF files (``"latin-1"`` for Western European files that
        are not UTF-8).

    Returns
    -------
    X : DataFrame
        The other columns, names kept. Numeric columns are float64 (int64 when every cell is
        an integer and none is missing); nominal CSV columns hold the text (stripped of
        surrounding spaces), NaN when missing; nominal ARFF attributes are categoricals.
    y : Series
        The class column.

    Raises
    ------
    ValueError
        A cell that breaks a numeric column (naming the column, the file line and the value),
        an identifier-like column (suggesting ``drop=``), a duplicate column name, a row with
        the wrong number of cells, a file that is not in the encoding or separator given
        (naming the fix). Warns (:class:`InputWarning`) when class labels differ only by case
        or surrounding spaces.

    Examples
    --------
    >>> import pandas as pd
    >>> X, y = load_data(pd.DataFrame({"a": [1.0, 2.0, 3.0], "c": ["x", "y", "x"]}))
    >>> X.columns.tolist(), y.tolist()
    (['a'], ['x', 'y', 'x'])
    """
    drop_cols = _as_name_list(drop, "drop")
    nominal_cols = _as_name_list(nominal, "nominal")
    if na_values is not None:  # read once (a generator), a wrong type refused before reading
        na_values = _na_markers(na_values, default=())
    merged = None
    if isinstance(source, pd.DataFrame):
        label = "the DataFrame"
        check_unique_columns(source, name="the data")
        frame = without_attrs(source)
        marks = _na_markers(na_values, default=())
        if marks or nominal_cols:
            frame = _text_columns_of_frame(frame, label, marks, nominal_cols)
        elif any(_is_text(frame.iloc[:, j]) for j in range(frame.shape[1])):
            frame = _text_columns_of_frame(frame, label, (), ())
    else:
        data, label = read_input(source, binary=True)
        fmt = _format_of(source, format, data)
        if fmt == "parquet":
            try:
                frame = pd.read_parquet(_io.BytesIO(data))
            except Exception as exc:  # pyarrow raises its own types
                raise ValueError(f"{label}: not a readable Parquet file ({exc})") from None
            check_unique_columns(frame, name=label)
            marks = _na_markers(na_values, default=DEFAULT_NA_VALUES)
            frame = _text_columns_of_frame(frame, label, marks, nominal_cols)
        else:
            text = _decode(data, label, encoding)
            if fmt == "arff":
                frame = _parse_arff(text, label)
            else:
                if sep is None:
                    sep = "\t" if os.fspath(source).lower().removesuffix(".gz").endswith(
                        ".tsv") else ","
                sep = _check_sep(sep)
                marks = _na_markers(na_values, default=DEFAULT_NA_VALUES) + ("",)
                frame, merged = _read_csv_frame(text, label, sep, marks, nominal_cols, target)
    if frame.shape[1] < 2:
        raise ValueError(f"{label}: the data need a target and at least one feature; got "
                         f"{frame.shape[1]} column(s)")
    if isinstance(source, pd.DataFrame):
        attrs = dict(source.attrs)  # the caller's, kept on X as pandas would
        types = {}
        places = [f"row {i!r}" for i in frame.index]
    else:
        # the ARFF header's types serve the checks below; X keeps the relation name only
        attrs = dict(frame.attrs)
        types = attrs.pop("arff_types", {})
        places = attrs.pop("places", None)
        frame = without_attrs(frame)
    cols = list(frame.columns)
    names = [str(c) for c in cols]
    for what, given in (("drop", drop_cols), ("nominal", nominal_cols)):
        unknown = [c for c in given if c not in names]
        if unknown:
            import difflib

            close = difflib.get_close_matches(unknown[0], names, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ";"
            shown = ", ".join(names[:10]) + (" …" if len(names) > 10 else "")
            raise ValueError(f"{what}: no column {unknown[0]!r}{hint} columns: {shown}")
    t = _resolve_target(cols, target)
    if names[t] in drop_cols:
        raise ValueError(f"drop: {names[t]!r} is the target column")
    declared = types.get(cols[t])
    if declared == "numeric":
        raise ValueError(
            f"the target {cols[t]!r} is declared numeric in the ARFF header: a regression "
            "target; rankfusion handles classification (declare the class nominal)"
        )
    if declared in ("string", "date"):
        raise ValueError(f"{label}: the target {cols[t]!r} is an ARFF {declared} attribute, "
                         "not class labels; declare the class nominal ({a,b,…}) or choose "
                         "the class with target=")
    y = frame.iloc[:, t]
    if places is None:  # Parquet
        places = [f"row {i + 1}" for i in range(frame.shape[0])]
    _check_target_column(y, names[t], label, places)
    keep = [j for j in range(len(cols)) if j != t and names[j] not in drop_cols]
    if not keep:
        raise ValueError(f"{label}: no feature column is left (after drop)")
    for j in keep:
        if names[j] in nominal_cols:
            continue
        problem = _identifier_problem(cols[j], frame.iloc[:, j], types.get(cols[j]))
        if problem:
            raise ValueError(f"{label}: {problem}; leave it out with --drop {names[j]!r} "
                             f"(drop=[{names[j]!r}])")
    for j in keep:
        s_j = frame.iloc[:, j]
        if s_j.dtype.kind == "f":
            bad = np.isinf(s_j.to_numpy())
            if bad.any():
                r = int(np.flatnonzero(bad)[0])
                raise ValueError(f"{label}, {places[r]}: column {names[j]!r} holds "
                                 f"{s_j.iloc[r]}, not a finite number; replace it, or by NaN "
                                 "if it marks a missing value")
    X = frame.iloc[:, keep]
    if isinstance(source, pd.DataFrame) and X is not source:
        X = X.copy()
    if attrs:
        X.attrs = copy.deepcopy(attrs)
    _label_variants(y, label, merged)
    return X, y


#: Leading bytes of binary files that are often given for a CSV by mistake.
_BINARY_MAGIC = ((b"PK\x03\x04", "a zip archive (an Excel .xlsx or .ods workbook?)"),
                 (b"\xd0\xcf\x11\xe0", "an old Excel .xls / Office file"),
                 (b"%PDF", "a PDF document"))


def _utf16_kind(data: bytes) -> tuple[str, str] | None:
    """How a file shows itself as UTF-16 (or UTF-32), and the codec to read it: its
    byte-order mark, or a NUL byte in every other place of its start (ASCII text in UTF-16
    without a mark); else None."""
    if data[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        return "UTF-32 text (it starts with a UTF-32 byte-order mark)", "utf-32"
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "UTF-16 text (it starts with a UTF-16 byte-order mark)", "utf-16"
    head = data[:512]
    head = head[:len(head) // 2 * 2]
    if len(head) >= 4:
        even, odd = head[0::2], head[1::2]
        if odd.count(0) == len(odd) and even.count(0) == 0:
            return ("UTF-16 text without a byte-order mark (a NUL byte after every "
                    "character)", "utf-16-le")
        if even.count(0) == len(even) and odd.count(0) == 0:
            return ("UTF-16 text without a byte-order mark (a NUL byte before every "
                    "character)", "utf-16-be")
    return None


def _decode(data: bytes, label: str, encoding: str) -> str:
    for magic, what in _BINARY_MAGIC:
        if data.startswith(magic):
            raise ValueError(f"{label}: {what}, not text; save the sheet as CSV first")
    if not isinstance(encoding, str):
        raise TypeError(f"encoding must be a codec name such as 'utf-8' or 'latin-1', got "
                        f"{type(encoding).__name__} {encoding!r}")
    utf16 = _utf16_kind(data)
    if utf16 and not encoding.lower().replace("_", "").startswith(("utf-16", "utf16",
                                                                   "utf-32", "utf32")):
        what, codec = utf16
        raise ValueError(
            f"{label}: {what}, not {encoding} text (Excel's 'Unicode text' and Windows "
            f"Notepad save so); pass --encoding {codec} (encoding={codec!r}), or save the "
            "file as UTF-8")
    try:
        codec = "utf-8-sig" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") \
            else encoding
        return data.decode(codec)
    except LookupError:
        raise ValueError(f"unknown encoding {encoding!r}") from None
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ValueError(
            f"{label}: not {encoding} text (byte 0x{data[exc.start]:02x} on line {line}); "
            "if the file is Latin-1 or Windows-1252, pass --encoding latin-1 "
            "(encoding='latin-1')") from None


def _read_csv_frame(text, label, sep, marks, nominal_cols, target):
    """The CSV as a DataFrame, and for the target column the stripped labels that merged
    different raw spellings ({label: {raw spellings}})."""
    frame, body = _frame_from_text(text, label, sep=sep, na_values=marks,
                                   nominal_cols=set(nominal_cols), target=target)
    if frame.shape[1] < 1:
        return frame, None
    t = _resolve_target(list(frame.columns), target)
    raw = body[:, t]
    merged: dict = {}
    for v in pd.unique(raw):
        k = v.strip()
        if k not in marks:
            merged.setdefault(k, set()).add(v)
    return frame, {k: v for k, v in merged.items() if len(v) > 1}


#: The largest CSV (in cells) :func:`read_small` reads itself; larger files go to
#: :func:`load_data`, whose pandas start-up is then a small part of the work.
SMALL_CELLS = 200_000


def read_small(source, target: str | int | None = None, *, format: str | None = None,
               na_values: Sequence[str] | None = None, drop: Sequence[str] | str | None = None,
               nominal: Sequence[str] | str | None = None, sep: str | None = None,
               encoding: str = "utf-8", max_cells: int = SMALL_CELLS):
    """A small, plain CSV file read with the csv module and numpy alone (no pandas), or None.

    The same reading as :func:`load_data` — the same cells numeric, nominal or missing, the
    same columns dropped, the same target — for a file of at most ``max_cells`` cells whose
    reading raises no error and no warning. Anything else (ARFF, Parquet, standard input, a
    larger file, a cell :func:`load_data` would refuse or warn about, a class label that is
    missing or not a whole number) gives None: call :func:`load_data`, which reads it or says
    what is wrong. Commands use it so that a small job starts without loading pandas.

    Returns
    -------
    (ClassificationData, str) or None
        The features as ``rankfusion._utils.data.check_classification_data`` makes them
        from ``load_data``'s
        ``X`` and ``y`` (nominal categories sorted, class codes in sorted label order, as
        Weka's for CSV files), and the name of the target column.
    """
    try:
        return _read_small(source, target, format, na_values, drop, nominal, sep, encoding,
                           max_cells)
    except (ValueError, TypeError, OSError, UnicodeError, csv.Error, OverflowError):
        return None  # load_data says what is wrong


def _read_small(source, target, fmt, na_values, drop, nominal, sep, encoding, max_cells):
    if not isinstance(source, (str, os.PathLike)) or str(source) in _STDIN:
        return None
    low = os.fspath(source).lower().removesuffix(".gz")
    if fmt not in (None, "csv") or not low.endswith((".csv", ".txt", ".tsv")):
        return None
    path = os.fspath(source)
    if not os.path.isfile(path) or os.path.getsize(path) > 40 * max_cells:
        return None
    data, label = read_input(path, binary=True)
    text = _decode(data, label, encoding)
    sep = _check_sep(("\t" if low.endswith(".tsv") else ",") if sep is None else sep)
    marks = _na_markers(na_values, default=DEFAULT_NA_VALUES) + ("",)
    by_value = set(_numeric_markers(marks).tolist())
    drop_cols, nominal_cols = _as_name_list(drop, "drop"), _as_name_list(nominal, "nominal")
    rows, _ = _csv_rows(text, label, sep)
    if len(rows) < 2:
        return None
    names = [c.strip() for c in rows[0]]
    p, n = len(names), len(rows) - 1
    if (n * p > max_cells or p < 2 or any(len(r) != p for r in rows)
            or len(set(names)) < p or not all(names)
            or all(_NUMBER_RE.fullmatch(h) for h in names)
            or any(_UNNAMED_RE.fullmatch(h) for h in names)
            or any(c not in names for c in drop_cols + nominal_cols)):
        return None
    t = _resolve_target(names, target)
    if names[t] in drop_cols:
        return None
    keep = [j for j in range(p) if j != t and names[j] not in drop_cols]
    if not keep:
        return None
    number = re.compile(_NUMBER)
    infinity = re.compile(_INFINITY, re.IGNORECASE)
    columns = {}
    for j in range(p):  # dropped columns too: load_data reads them before dropping
        raw = [r[j] for r in rows[1:]]
        cells = [c.strip() for c in raw]
        missing = [c in marks or (bool(by_value) and number.fullmatch(c) is not None
                                  and float(c) in by_value) for c in cells]
        if names[j] in nominal_cols:
            columns[j] = (None, cells, missing)
            continue
        num = [not m and number.fullmatch(c) is not None for c, m in zip(cells, missing)]
        inf = [not m and infinity.fullmatch(c) is not None for c, m in zip(cells, missing)]
        if any(inf):
            return None
        n_text = n - sum(num) - sum(missing)
        if n_text and any(num):
            return None  # numbers mixed with text: load_data's error
        if n_text:
            if all(re.fullmatch(r"[+-]?\d*,\d+", c) for c, m in zip(cells, missing)
                   if not m):
                return None  # a decimal comma: load_data's error
            if any(_decoration(c) for c, m in zip(cells, missing) if not m):
                return None  # 12%, $5, 3 kg: load_data's error
            columns[j] = (None, cells, missing)
            continue
        values = np.array([float(c) if ok else np.nan for c, ok in zip(cells, num)])
        if not np.isfinite(values[np.asarray(num, dtype=bool)]).all():
            return None  # 1e999: load_data's error
        integer = (not any(missing) and not any(re.search(r"[.eE]", c) for c in cells)
                   and bool(np.all(np.abs(values) < 2.0 ** 53)))
        columns[j] = (integer, values, missing)
    # the target: labels as load_data's y gives them to check_target / weka_classes
    integer, ycells, ymissing = columns.pop(t)
    if any(ymissing) or (integer is not None and not integer):
        return None  # a missing label, or float labels: load_data / check_target decide
    if len({r[t] for r in rows[1:]}) != len({c.strip() for c in (r[t] for r in rows[1:])}):
        return None  # labels differing by surrounding spaces: load_data warns
    if integer is None:
        if len({c.casefold() for c in set(ycells)}) != len(set(ycells)):
            return None  # labels differing by case: load_data warns
        labels = np.array(ycells, dtype=object)
    else:
        labels = ycells.astype(np.int64)
    classes, codes = np.unique(labels, return_inverse=True)
    if classes.shape[0] < 2:
        return None
    if target_problem(labels, min_id_samples=ID_TARGET_MIN_ROWS_OF_FILE, sparse=True) or (
            integer is None and ((n >= ID_TARGET_MIN_ROWS_OF_FILE and classes.shape[0] == n)
            or all(_DATE_RE.fullmatch(c) for c in ycells))):
        return None  # not class labels: load_data's error
    values = np.empty((n, len(keep)), dtype=np.float64)
    nominal_mask = np.zeros(len(keep), dtype=bool)
    categories: list = [None] * len(keep)
    for k, j in enumerate(keep):
        integer, col, missing = columns[j]
        if integer is not None:
            if names[j] not in nominal_cols and not any(missing) and _counter_problem(col):
                return None  # a row number / identifier column: load_data's error
            values[:, k] = col
            continue
        obs = [c for c, m in zip(col, missing) if not m]
        if (names[j] not in nominal_cols and n >= 3 and len(obs) == n
                and len(set(obs)) == n):
            return None  # an identifier column: load_data's error
        cats = sorted(set(obs))
        lut = {c: i for i, c in enumerate(cats)}
        values[:, k] = [np.nan if m else lut[c] for c, m in zip(col, missing)]
        nominal_mask[k] = True
        categories[k] = cats
    data = ClassificationData(values, nominal_mask, categories,
                              np.array([names[j] for j in keep], dtype=object),
                              codes.astype(np.int64).reshape(-1), classes)
    return data, names[t]


# --------------------------------------------------------------------------- ranked lists
#: The kinds of list files :func:`read_lists` reads (``"auto"`` decides only where the reading
#: is unambiguous: every cell a number → scores, no cell a number → orders).
LIST_KINDS = ("auto", "scores", "positions", "orders")

#: First cells that make the first row of an orders file a header naming the list column.
ORDER_HEADER_WORDS = ("list", "lists", "name", "names", "list_name", "list name", "method",
                      "methods", "ranker", "rankers", "id")

_RANK_LABEL_RE = re.compile(r"(?:top|rank|pos|position|#)?[ _]?(\d+)", re.IGNORECASE)


def _is_rank_row(cells: list[str]) -> bool:
    """``1, 2, 3 …`` or ``top1, top2 …`` / ``rank_1 …``: column labels of an orders file."""
    cells = [c for c in cells if c != ""]
    if not cells:
        return False
    nums = []
    for c in cells:
        m = _RANK_LABEL_RE.fullmatch(c)
        if not m:
            return False
        nums.append(int(m.group(1)))
    return nums == list(range(1, len(nums) + 1))


def _trim_row(row: list[str], label: str, line: int) -> list[str]:
    """Stripped cells without trailing empty ones; an empty cell before a name is an error."""
    cells = [c.strip() for c in row]
    while cells and cells[-1] == "":
        cells.pop()
    if "" in cells[1:]:  # the first cell (a list name, a header label) may be empty
        k = cells.index("", 1)
        raise ValueError(f"{label}, line {line}: empty cell in column {k + 1} before "
                         f"{cells[k + 1]!r}; empty cells may only end a short (top-k) list")
    return cells


def _read_orders(rows, lines, label, header, list_names) -> tuple[RankedLists, str]:
    cells = [_trim_row(r, label, n) for r, n in zip(rows, lines)]
    for row, line in zip(cells, lines):
        seen: dict = {}
        for k, c in enumerate(row[1:], 2):
            if c in seen:
                raise ValueError(f"{label}, line {line}: {c!r} appears twice (columns "
                                 f"{seen[c]} and {k}); a list ranks each feature once")
            seen[c] = k
    first = cells[0]

    def names_by_header(row):
        if not row or row[0] == "" or row[0].lower() in ORDER_HEADER_WORDS:
            return True
        if _is_rank_row(row):
            return False
        return True if _is_rank_row(row[1:]) else None

    if header is None:
        by_header = names_by_header(first)
        header = by_header is not None
    else:
        header = bool(header)
        by_header = names_by_header(first) if header else None
    if list_names is None:
        if by_header is None:
            raise ValueError(
                f"{label}: cannot tell whether the first column names the lists (no header "
                "row such as 'list,1,2,3'); pass --list-names or --no-list-names "
                "(list_names=True or False)")
        list_names = by_header
    data = list(zip(cells, lines))[1 if header else 0:]
    if not data:
        raise ValueError(f"{label}: no lists found")
    orders, names = [], []
    where: dict = {}
    for row, line in data:
        if list_names:
            if not row or row[0] == "":
                raise ValueError(f"{label}, line {line}: the list has no name in column 1")
            if row[0] in where:
                raise ValueError(f"{label}: the list name {row[0]!r} appears twice (lines "
                                 f"{where[row[0]]} and {line})")
            where[row[0]] = line
            if len(row) < 2:
                raise ValueError(f"{label}, line {line}: the list {row[0]!r} ranks no feature")
            names.append(row[0])
            orders.append(row[1:])
        else:
            if not row:
                raise ValueError(f"{label}, line {line}: an empty list")
            if row[0] == "":
                raise ValueError(f"{label}, line {line}: empty cell in column 1 before "
                                 f"{row[1]!r}; every cell of a list without a name is a "
                                 "feature")
            if len(set(row)) < len(row):
                dup = next(c for c in row if row.count(c) > 1)
                raise ValueError(f"{label}, line {line}: {dup!r} appears twice; a list ranks "
                                 "each feature once")
            orders.append(row)
    try:
        lists = RankedLists.from_orders(orders, list_names=names if list_names else None)
    except ValueError as exc:
        raise ValueError(f"{label}: {exc}") from None
    how = ("orders: " + ("first row read as a header; " if header else "no header row; ")
           + ("list names in the first column" if list_names else "every cell a feature, "
              "lists named L0, L1, …"))
    return lists, how


def _matrix_parts(rows, lines, label):
    header = [c.strip() for c in rows[0]]
    if len(rows) < 2:
        raise ValueError(f"{label}: expected a header row and at least one feature row")
    _sep_hint(rows[0], label, ",")
    m = len(header)
    if m < 2:
        raise ValueError(f"{label}: expected a column of feature names and at least one list "
                         "column; got 1 column")
    for row, line in zip(rows[1:], lines[1:]):
        if len(row) != m:
            raise ValueError(f"{label}, line {line}: {len(row)} cells but the header has {m}")
    list_names = header[1:]
    seen: dict = {}
    for k, nm in enumerate(list_names, 2):
        if nm == "":
            raise ValueError(f"{label}: the list in column {k} has no name in the header")
        if nm in seen:
            raise ValueError(f"{label}: the list name {nm!r} appears twice in the header "
                             f"(columns {seen[nm]} and {k})")
        seen[nm] = k
    features = [r[0].strip() for r in rows[1:]]
    at: dict = {}
    for f, line in zip(features, lines[1:]):
        if f == "":
            raise ValueError(f"{label}, line {line}: the feature has no name in column 1")
        if f in at:
            raise ValueError(f"{label}: the feature {f!r} appears twice (lines {at[f]} and "
                             f"{line})")
        at[f] = line
    body = np.array([[c.strip() for c in r[1:]] for r in rows[1:]], dtype=object)
    flat = pd.Series(body.reshape(-1), dtype=object)
    num, inf = _number_mask(flat)
    empty = (flat == "").to_numpy()
    values = np.full(flat.shape[0], np.nan)
    if num.any():
        values[num] = flat[num].astype(np.float64).to_numpy()
    inf |= num & ~np.isfinite(values)
    text = ~num & ~inf & ~empty
    shape = body.shape

    def cell(i):
        r, c = divmod(int(i), shape[1])
        return f"line {lines[r + 1]}, column {c + 2} ({list_names[c]!r})", body[r, c]

    return header, list_names, features, values.reshape(shape), num.reshape(shape), \
        inf.reshape(shape), empty.reshape(shape), text.reshape(shape), cell


def _matrix_lists(parts, label, kind) -> RankedLists:
    _, list_names, features, values, num, inf, empty, text, cell = parts
    what = "a score" if kind == "scores" else "a position"
    if text.any():
        where, v = cell(np.flatnonzero(text.reshape(-1))[0])
        raise ValueError(f"{label}, {where}: {v!r} is not a number; every cell of a {kind} "
                         "file is " + ("a number" if kind == "scores" else
                                       "a position or empty"))
    if inf.any():
        where, v = cell(np.flatnonzero(inf.reshape(-1))[0])
        raise ValueError(f"{label}, {where}: {v!r} is not a finite number; {what} must be "
                         "finite")
    if kind == "scores" and empty.any():
        where, _ = cell(np.flatnonzero(empty.reshape(-1))[0])
        raise ValueError(f"{label}, {where}: empty cell; scores must all be given (a file "
                         "of top-k positions? pass --input positions / kind='positions')")
    if kind == "positions":
        _check_position_cells(values, list_names, label, cell)
    frame = pd.DataFrame(values, index=pd.Index(features, dtype=object),
                         columns=pd.Index(list_names, dtype=object))
    try:
        if kind == "scores":
            return RankedLists.from_scores(frame)
        return RankedLists.from_positions(frame)
    except ValueError as exc:
        msg = str(exc)
        m = re.match(r"positions: list (\d+) ", msg)
        if m:  # a list that is not a ranking with average ties: name it and a tied cell
            j = int(m.group(1))
            col = values[:, j]
            ranked = np.flatnonzero(~np.isnan(col))
            vals, counts = np.unique(col[ranked], return_counts=True)
            tied = vals[counts > 1]
            r = int(ranked[np.isin(col[ranked], tied)][0]) if tied.size else int(ranked[0])
            where, v = cell(r * values.shape[1] + j)
            raise ValueError(f"{label}, {where}: {v!r}: the list {list_names[j]!r} "
                             f"{msg[m.end():]}") from None
        raise ValueError(f"{label}: {msg}") from None


def _check_position_cells(values, list_names, label, cell) -> None:
    """Positions read from a file: each list ranks a feature, every position is a whole or
    half number in 1…k (k the features the list ranks); an error names the cell's line and
    column (docs/design.md, 'Inputs', 'List files')."""
    ranked = ~np.isnan(values)
    m = values.shape[1]
    for j in range(m):
        if not ranked[:, j].any():
            raise ValueError(f"{label}: the list {list_names[j]!r} (column {j + 2}) ranks no "
                             "feature: every cell of the column is empty")
    doubled = 2.0 * np.where(ranked, values, 1.0)
    bad = ranked & (doubled != np.round(doubled))
    if bad.any():
        where, v = cell(np.flatnonzero(bad.reshape(-1))[0])
        raise ValueError(f"{label}, {where}: {v!r} is not a position: positions must be "
                         "whole or half-integers (a half for a tie; 1 = best)")
    k = ranked.sum(axis=0)
    out = ranked & ((values < 1) | (values > k[None, :]))
    if out.any():
        i = int(np.flatnonzero(out.reshape(-1))[0])
        where, v = cell(i)
        j = i % m
        raise ValueError(f"{label}, {where}: position {v} is outside [1, {int(k[j])}] (the "
                         f"list {list_names[j]!r} ranks {int(k[j])} features; 1 = best)")


def _looks_like_positions(values: np.ndarray) -> bool:
    """Every column holds places 1 … p only (whole or half numbers, ties allowed) and starts
    at the top (its best value is 1, or 1.5 for a tie of the first two): positions, or
    integer scores that cannot be told from them."""
    p = values.shape[0]
    if p < 2:
        return False
    doubled = 2.0 * values
    return bool(np.array_equal(doubled, np.round(doubled)) and (values >= 1).all()
                and (values <= p).all() and (values.min(axis=0) <= 1.5).all())


def read_lists(path: str | os.PathLike, kind: str = "auto", *, header: bool | None = None,
               list_names: bool | None = None, sep: str = ",", encoding: str = "utf-8",
               return_reading: bool = False):
    """Read ranked lists from a CSV file (read once; ``"-"`` = standard input).

    Parameters
    ----------
    path : str or path
        The file.
    kind : {"auto", "scores", "positions", "orders"}
        How to read it:

        * ``"scores"``: features × lists, the first column the feature names, a header row of
          list names; every other cell a finite number, higher = better.
        * ``"positions"``: the same layout with positions (1 = best; empty = not ranked), as
          :func:`write_lists` writes by default.
        * ``"orders"``: one row per list, feature names best first (rows may be shorter:
          top-k lists); see ``header`` and ``list_names``.
        * ``"auto"``: only where one reading is possible: every cell after the first row and
          column a number → scores; no cell a number → orders. Numbers with empty cells, a
          mix of numbers and names, or scores whose every column is a permutation of 1…p
          ("looks like positions") are refused with the way out.
    header, list_names : bool, optional
        Orders files: whether the first row is a header, and whether the first cell of each
        row names the list. Not given, one rule decides from the first row alone: a first row
        whose first cell is empty or one of :data:`ORDER_HEADER_WORDS` (``list``, ``name``,
        ``method``, ``ranker`` …), or whose other cells are ``1, 2, 3 …`` (or ``top1 …``), is
        a header and the lists are named in the first column; a first row that is all
        ``1, 2, 3 …`` is a header of unnamed lists; a file without such a header needs
        ``list_names`` said explicitly.
    sep : str, default ","
        The separator (``";"``, ``"tab"`` …).
    encoding : str, default "utf-8"
    return_reading : bool, default False
        Also return a one-line description of the reading taken (the command line prints it
        for ``--input auto``).

    Returns
    -------
    RankedLists
        Feature and list names are strings. With ``return_reading``, ``(lists, reading)``.

    Examples
    --------
    >>> import os, tempfile
    >>> from rankfusion import RankedLists
    >>> lists = RankedLists.from_orders([["a", "b", "c"], ["b", "a", "c"]], list_names=["x", "y"])
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_lists(lists, os.path.join(d, "l.csv"))
    ...     back = read_lists(os.path.join(d, "l.csv"), kind="positions")
    >>> back == lists
    True
    """
    if kind not in LIST_KINDS:
        raise ValueError(f"kind must be one of {', '.join(LIST_KINDS)}; got {kind!r}")
    for nm, v in (("header", header), ("list_names", list_names)):
        if v is not None and not isinstance(v, (bool, np.bool_)):
            raise TypeError(f"{nm} must be True, False or None, got {v!r}")
    sep = _check_sep(sep)
    text, label = read_input(path, encoding=encoding)
    rows, lines = _csv_rows(text, label, sep)
    # undo the formula protection write_lists applied (docs/design.md, 'Outputs'), so that a
    # written list reads back with its own names
    rows = [[unprotect_cell(c) for c in r] for r in rows]
    if not rows:
        raise ValueError(f"{label}: the file is empty")
    if all(len(r) == 1 for r in rows):
        _sep_hint(rows[0], label, sep)
    if kind == "orders":
        lists, how = _read_orders(rows, lines, label, header, list_names)
    elif kind in ("scores", "positions"):
        lists = _matrix_lists(_matrix_parts(rows, lines, label), label, kind)
        how = kind
    else:
        lists, how = _read_auto(rows, lines, label, header, list_names)
    if not how.startswith("orders") and (header is not None or list_names is not None):
        given = " and ".join(n for n, v in (("header", header), ("list_names", list_names))
                             if v is not None)
        raise ValueError(f"{label}: read as {how.split(' (')[0]}, which has a header row of "
                         f"list names always; {given} (--header / --list-names) apply to "
                         "orders files")
    return (lists, how) if return_reading else lists


def _read_auto(rows, lines, label, header, list_names):
    body = [c.strip() for r in rows[1:] for c in r[1:]]
    body = [c for c in body if c != ""]
    if not body:
        every = [c.strip() for r in rows for c in r if c.strip() != ""]
        if every and not any(_NUMBER_RE.fullmatch(c) for c in every):
            lists, how = _read_orders(rows, lines, label, header, list_names)
            return lists, how + " (no cell is a number)"
        raise ValueError(f"{label}: cannot tell the kind of list file; pass --input scores, "
                         "positions or orders (kind=…)")
    cells = pd.Series(body, dtype=object)
    num, inf = _number_mask(cells)
    if not (num | inf).any():
        lists, how = _read_orders(rows, lines, label, header, list_names)
        return lists, how + " (no cell is a number)"
    parts = _matrix_parts(rows, lines, label)
    _, _, _, values, num, inf, empty, text, cell = parts
    if text.any():
        where, v = cell(np.flatnonzero(text.reshape(-1))[0])
        nwhere, nv = cell(np.flatnonzero((num | inf).reshape(-1))[0])
        raise ValueError(
            f"{label}: numbers ({nwhere}: {nv!r}) and names ({where}: {v!r}) in one file: "
            "neither scores (every cell a number) nor orders (no cell a number); correct "
            "the cell, or pass --input scores, positions or orders (kind=…)")
    if empty.any():
        where, _ = cell(np.flatnonzero(empty.reshape(-1))[0])
        raise ValueError(f"{label}, {where}: empty cell among numbers: a file of top-k "
                         "positions? pass --input positions (kind='positions'); scores must "
                         "all be given")
    if not inf.any() and values.shape[0] > 1 and (values == values[:1]).all():
        raise ValueError(f"{label}: every list gives all its features one value ("
                         f"{rows[1][1].strip()!r}…): a list of ties, which cannot tell scores "
                         "(higher = better) from positions (1 = best); pass --input scores or "
                         "--input positions (kind='scores' / 'positions')")
    if not inf.any() and _looks_like_positions(values):
        raise ValueError(f"{label}: every column holds places 1…{values.shape[0]} starting at "
                         "1: looks like positions (1 = best), which read as scores would "
                         "reverse the ranking: pass --input positions or --input scores "
                         "(kind=…)")
    first = [c.strip() for c in rows[0]]
    if (first[0].lower() in ORDER_HEADER_WORDS and len(first) > 1) or _is_rank_row(first[1:]):
        raise ValueError(f"{label}: the header {', '.join(first[:4])}… is an orders file's "
                         "(a list column, then places 1, 2, …) but every cell is a number: "
                         "pass --input orders (feature ids that are numbers) or --input "
                         "scores (kind=…)")
    return _matrix_lists(parts, label, "scores"), "scores (every cell is a number)"


def write_lists(lists: RankedLists, path: str | os.PathLike, *,
                values: str = "positions", overwrite: bool = True) -> None:
    """Write ranked lists as a features × lists CSV, read back by :func:`read_lists` with
    ``kind=values``.

    Parameters
    ----------
    lists : RankedLists
    path : str or path
    values : {"positions", "scores"}
        Positions (1 = best, empty where a list did not rank the feature) or the raw scores
        (lists built from scores only); floats are written with 17 significant digits, so
        they read back exactly.
    overwrite : bool, default True
        Replace an existing file (``False``: a ``FileExistsError``). The file is written to a
        temporary name and renamed into place (:func:`atomic_write`).
    """
    if not isinstance(lists, RankedLists):
        raise TypeError(f"lists must be a RankedLists, got {type(lists).__name__}")
    if values not in ("positions", "scores"):
        raise ValueError(f"values must be 'positions' or 'scores', got {values!r}")
    frame = lists.to_frame(values)
    out = safe_output_path(path, overwrite=overwrite, option="path")
    from ._utils.tabular import to_csv  # text cells protected (docs/design.md, 'Outputs')

    with atomic_write(out) as fh:
        to_csv(frame, fh, float_format="%.17g")


# --------------------------------------------------------------------------- output files
def safe_output_path(out, inputs: Iterable = (), *, overwrite: bool = False,
                     option: str = "--out") -> Path:
    """Check an output file name before any work is done; return it as a ``Path``.

    Refuses (``ValueError``) an output that is one of ``inputs`` (compared after resolving
    links and relative paths, and by ``os.path.samefile``), a directory, a file in a folder
    that does not exist, and (``FileExistsError``) an existing file unless ``overwrite``.
    ``option`` names the argument in the messages. Devices and pipes (``/dev/stdout``) are
    accepted as they are.

    Parameters
    ----------
    out : str or path-like
        The output file.
    inputs : iterable of path-like, default ()
        The files the run reads.
    overwrite : bool, default False
        Accept an existing file.
    option : str, default "--out"
        The argument's name in error messages.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     data = os.path.join(d, "data.csv")
    ...     open(data, "w").close()
    ...     try:
    ...         safe_output_path(data, [data])
    ...     except ValueError as exc:
    ...         print(str(exc).split("; ")[1])
    ...     safe_output_path(os.path.join(d, "out.csv"), [data]).name
    choose another name (an input is never overwritten)
    'out.csv'
    """
    if out is None or str(out).strip() == "":
        raise ValueError(f"{option} needs a file name")
    path = Path(out)
    special = path.exists() and not path.is_file() and not path.is_dir()
    target = path.resolve()
    for inp in inputs:
        if inp is None or str(inp) in _STDIN:
            continue
        ip = Path(inp)
        try:
            same = os.path.samefile(path, ip) if path.exists() and ip.exists() else \
                target == ip.resolve()
        except OSError:
            same = False
        if same and not special:
            raise ValueError(f"{option} {out} is the input file {inp}; choose another name "
                             "(an input is never overwritten)")
    if special:
        return path
    if path.is_dir():
        raise IsADirectoryError(f"{option} {out} is a directory; give a file name")
    if not target.parent.is_dir():
        raise FileNotFoundError(f"{option} {out}: the folder {target.parent} does not exist")
    if path.exists() and not overwrite:
        raise FileExistsError(f"{option} {out} exists; pass --overwrite to replace it "
                              "(overwrite=True)")
    return path


atomic_write = atomic_open  # the one atomic writer (rankfusion._utils.atomic.atomic_open)


def protect_csv_cells(frame):
    """A copy of ``frame`` whose text cells, column names and index labels cannot run as
    spreadsheet formulas (a leading ``'``; numbers untouched): the protection every CSV writer
    applies (:func:`rankfusion._utils.tabular.protect_frame`; docs/design.md, 'Outputs').

    Parameters
    ----------
    frame : pandas.DataFrame or pandas.Series
        The table to write; anything else is a ``TypeError``.

    Returns
    -------
    pandas.DataFrame or pandas.Series
        A protected copy; the caller's frame is not modified.
    """
    from ._utils.tabular import protect_frame

    return protect_frame(frame)


# --------------------------------------------------------------------------- preparation
def standardize(X, *, name: str = "X") -> np.ndarray:
    """Z-score every column: ``(x − mean) / sd`` with the population SD (``ddof=0``).

    A constant column (sd = 0) is centred only (divided by 1). Returns a new float64 array;
    the caller's data are not modified.

    Parameters
    ----------
    X : array-like of shape (n, p)
        Finite real numbers.
    name : str, default "X"
        The argument's name in error messages.

    Returns
    -------
    ndarray of float64, shape (n, p)

    Examples
    --------
    >>> standardize([[1.0, 5.0], [3.0, 5.0]])
    array([[-1.,  0.],
           [ 1.,  0.]])
    """
    if isinstance(X, pd.DataFrame):
        bad = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c].dtype)
               or pd.api.types.is_bool_dtype(X[c].dtype)]
        if bad:
            raise TypeError(f"{name} column {bad[0]!r} is not numeric; z-scoring needs numbers")
    arr = np.asarray(X)
    if arr.dtype == object or arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (samples × features); got shape {arr.shape}")
    values = np.array(arr, dtype=np.float64, copy=True)
    if not np.isfinite(values).all():
        raise ValueError(f"{name} must be finite (no NaN or inf) to be z-scored")
    values, _ = rescale_extreme_columns(values)  # exact; z-scores are scale invariant
    sd = values.std(axis=0)
    return (values - values.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
