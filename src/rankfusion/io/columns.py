"""The columns of a data table, checked before any work (docs/design.md, 'Inputs').

A column is numeric or nominal by one rule; the target column is chosen by name or position
and must hold class labels; identifier-like columns (row numbers, a different text in every
row, ARFF string and date attributes) are refused, naming ``drop=``.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable

import numpy as np

from .._utils.data import ID_TARGET_MIN_ROWS_OF_FILE, NOT_CLASSES_ADVICE, target_problem
from .._utils.lazy import lazy_module
from .._utils.names import invisible_message, nfc, spellings_text
from .csv_text import (
    _NUMBER_RE,
    _THOUSANDS,
    _csv_rows,
    _decoration,
    _number_mask,
    _numeric_markers,
    _sep_hint,
)
from .inputs import InputWarning

pd = lazy_module("pandas")  # imported on first use (small commands start without it)

__all__: list[str] = []


_UNNAMED_RE = re.compile(r"Unnamed: \d+(?:_level_\d+)?")



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



#: A line of an svmlight / libsvm file: ``label index:value …`` (query ids, a comment).
_SVMLIGHT_LINE = re.compile(r"\s*[+-]?[\w.]+(?:,[\w.]+)*(?:\s+qid:\S+)?(?:\s+\d+:\S+)+\s*(?:#.*)?")


def _svmlight_refusal(text: str, label) -> None:
    """A ``ValueError`` for an svmlight / libsvm text about to be read as CSV: its first line
    that is not blank or a ``#`` comment is ``label index:value …`` (docs/design.md, 'Inputs':
    never guessed)."""
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if _SVMLIGHT_LINE.fullmatch(line):
            raise ValueError(f"{label}, line {n}: {line.strip()[:40]!r} is an svmlight/libsvm "
                             "line ('label index:value …'), not CSV; pass format='svmlight' "
                             "to read the file as svmlight")
        return


def _frame_from_text(text, label, *, sep, na_values, nominal_cols, target):
    _svmlight_refusal(text, label)
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
    raw_header = header
    if not text.isascii():  # one Unicode form, nothing invisible (docs/design.md, 'Inputs')
        header = _unicode_cells(label, header, rows, lines, target)
    names = [h if h else f"Unnamed: {j}" for j, h in enumerate(header)]
    seen: dict = {}
    for j, h in enumerate(names):
        if h in seen:
            same = (" (the same name in Unicode form NFC: "
                    f"{ascii(raw_header[seen[h]])} and {ascii(raw_header[j])})"
                    if raw_header[seen[h]] != raw_header[j] else "")
            raise ValueError(f"{label}: the column name {h!r} appears twice in the header "
                             f"(columns {seen[h] + 1} and {j + 1}){same}; column names must be "
                             "unique")
        seen[h] = j
    body = np.array(rows[1:], dtype=object).reshape(len(rows) - 1, p)
    places = [f"line {n}" for n in lines[1:]]
    cols = _classify_columns(label, names, body, places, na_values, nominal_cols, target)
    frame = pd.DataFrame(cols, columns=names)
    frame.attrs["places"] = places
    return frame, body



def _unicode_cells(label, header, rows, lines, target) -> list:
    """The header in Unicode form NFC, every cell of ``rows[1:]`` likewise (in place), with a
    ``ValueError`` for an invisible character in a column name or a class label (naming the
    column and the file line) and an :class:`InputWarning` naming the cells of a column that
    were two spellings before normalisation (docs/design.md, 'Inputs')."""
    for j, h in enumerate(header):
        msg = invisible_message(h, f"{label}, line {lines[0]}: the name of column {j + 1},")
        if msg:
            raise ValueError(msg)
    header = [nfc(h) for h in header]
    try:
        t = _resolve_target(header, None if target is None else
                            nfc(target) if isinstance(target, str) else target)
    except ValueError:
        t = None  # the reader says what is wrong with the target later
    merged: dict = {}
    for i in range(1, len(rows)):
        row = rows[i]
        for j, c in enumerate(row):
            if c.isascii():
                continue
            if j == t:
                msg = invisible_message(c.strip(), f"{label}, line {lines[i]}: the class label "
                                        f"(column {header[t]!r})")
                if msg:
                    raise ValueError(msg)
            k = nfc(c)
            row[j] = k
            merged.setdefault(j, {}).setdefault(k.strip(), set()).add(c.strip())
    odd = {j: both for j, forms in merged.items()
           if (both := {k: raw for k, raw in forms.items() if len(raw) > 1})}
    if odd:
        shown = "; ".join(f"column {header[j]!r}: {spellings_text(m)}" for j, m in odd.items())
        warnings.warn(f"{label}: cells that differ only by their Unicode form (a composed "
                      "character or a letter and a combining mark) were read as one value each, "
                      f"in form NFC ({shown})", InputWarning, stacklevel=5)
    return header



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
        import difflib

        shown = ", ".join(names[:10]) + (" …" if len(names) > 10 else "")
        folded = [n for n in names if n.strip().casefold() == str(target).strip().casefold()]
        close = folded or difflib.get_close_matches(str(target), names, n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ";"
        raise ValueError(f"target column {target!r} not found{hint} columns: {shown}")
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


def _regression_target_column(y: pd.Series, name: str, label: str, places: list,
                              declared) -> pd.Series:
    """The target column of a file or DataFrame as a numeric (regression) target: a new
    float64 Series, or one error naming the file, the column, the line and the cell
    (docs/design.md, 'Tasks'). Every cell must be a finite number: a cell of text among
    numbers is refused, never read as a class."""
    where = f"{label}: the target column {name!r}"
    if declared in ("string", "date") or isinstance(y.dtype, pd.CategoricalDtype) \
            or y.dtype.kind == "b":
        what = (f"an ARFF {declared} attribute" if declared in ("string", "date") else
                "nominal (class labels)" if y.dtype.kind != "b" else "true/false values")
        raise TypeError(f'{where} is {what}, not numbers, for task="regression": use '
                        'task="classification", or choose the numeric column with target=')
    miss = y.isna().to_numpy()
    if miss.all():
        raise ValueError(f"{where} is empty on every line: no target values; choose the "
                         "target column with target= (--target)")
    if miss.any():
        r = int(np.flatnonzero(miss)[0])
        raise ValueError(f"{label}, {places[r]}: the target column {name!r} has no value (an "
                         f"empty cell or a missing-value marker; {int(miss.sum())} such rows); "
                         "a regression target needs a number in every row")
    if y.dtype.kind in "iuf":
        arr = y.to_numpy(dtype=np.float64)
    else:
        cells = y.to_numpy(dtype=object)
        arr = np.empty(cells.shape[0], dtype=np.float64)
        for i, v in enumerate(cells):
            try:
                if isinstance(v, (bool, np.bool_)):
                    raise ValueError
                arr[i] = float(v.strip() if isinstance(v, str) else v)
            except (TypeError, ValueError):
                raise ValueError(f"{label}, {places[i]}: the target column {name!r} holds "
                                 f"{v!r}, not a number; a regression target needs a number "
                                 "in every row (fix the cell, or mark it missing and leave "
                                 'the row out), or use task="classification"') from None
    bad = ~np.isfinite(arr)
    if bad.any():
        r = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{label}, {places[r]}: the target column {name!r} holds {arr[r]}, "
                         "not a finite number")
    if np.all(arr == arr[0]):
        raise ValueError(f"{where} is constant ({float(arr[0])!r}): nothing to explain")
    return pd.Series(arr, index=y.index, name=y.name)

