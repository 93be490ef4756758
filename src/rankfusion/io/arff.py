"""Weka's ARFF format: :func:`read_arff`.

A small reader (dense and sparse rows, nominal attributes with their declared values, ``?`` for
missing, quoted names and values, comments), written because ``scipy.io.arff`` drops the
declared category order of nominal attributes (it returns bytes) and cannot read sparse rows or
quoted values containing commas reliably.
"""

from __future__ import annotations

import re

import numpy as np

from .._utils.lazy import lazy_module
from .._utils.names import invisible_message, nfc
from .inputs import read_input

pd = lazy_module("pandas")  # imported on first use (small commands start without it)

__all__ = ["read_arff"]


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



def arff_unicode_text(text: str) -> str:
    """An ARFF text in Unicode form NFC: names, declared values and cells in one form
    (docs/design.md, 'Inputs'; the declared values say the spelling of each value, so a
    value written otherwise in a data line is that value)."""
    return nfc(text)


def check_attribute_text(path, lineno: int, name: str, values) -> None:
    """A ``ValueError`` for an attribute name or a declared nominal value holding an
    invisible character (naming the file, the line and the character)."""
    for what, v in [("the attribute name", name)] + [(f"a value of attribute {name!r},", c)
                                                      for c in values or ()]:
        msg = invisible_message(v, f"{path}, line {lineno}: {what}")
        if msg:
            raise ValueError(msg)


def _arff_parts(text: str, path):
    """The header and the data lines of an ARFF text: ``(relation, names, kinds, cats,
    rows)``, rows as ``(line number, stripped line)``; the header's errors raised here."""
    names, kinds, cats = [], [], []
    relation = None
    rows: list[tuple[int, str]] = []
    in_data = False
    text = arff_unicode_text(text)
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
                check_attribute_text(path, lineno, n, c)
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
    return relation, names, kinds, cats, rows


def _parse_arff(text: str, path, *, sparse: bool = False, target=None):
    if sparse:  # a scipy.sparse matrix (docs/design.md, 'Sparse input')
        from .sparse_files import parse_sparse_arff

        return parse_sparse_arff(text, path, target)
    relation, names, kinds, cats, rows = _arff_parts(text, path)
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



_QUOTED_LAST = re.compile("'([^'\\\\,\"{}]*)'|\"([^\"\\\\,'{}]*)\"")


def _unquoted_class(rows):
    """The data lines with a quoted last value (``…,'Iris-setosa'``, as Weka writes nominal
    values) unquoted where nothing else in the line is quoted: the value the general reader
    gives (:func:`_split`, :func:`_unquote`); other lines as they are."""
    out = []
    for lineno, line in rows:
        head, comma, last = line.rpartition(",")
        m = _QUOTED_LAST.fullmatch(last.strip()) if comma else None
        if m and not any(ch in head for ch in "'\"\\") and not line.startswith("{"):
            line = head + comma + (m.group(1) if m.group(1) is not None else m.group(2))
        out.append((lineno, line))
    return out


#: The largest dense ARFF (in cells) :func:`small_arff` reads itself.
SMALL_ARFF_CELLS = 1_000_000


def small_arff(text: str, path, target=None):
    """A dense ARFF text of numeric attributes and a nominal class last, read with numpy
    alone (no pandas): ``(ClassificationData, class name)``, or None for anything else.

    The reading is :func:`rankfusion.io.load_data`'s on the same file, followed by the
    rankers' validation: the numbers as :func:`read_arff` parses them, the class codes in
    the order the header declares the observed values (Weka's). Only a file whose reading
    raises no error and no warning is read here: no missing value (``?``), quoted or sparse
    row, string or date attribute, infinite number, row-number column, column named as pandas
    names an index (``Unnamed: 0``), class labels differing only by case, fewer than two
    classes, or more than :data:`SMALL_ARFF_CELLS` cells; the target must be the last
    attribute. None otherwise (then :func:`rankfusion.io.load_data` reads the file or says
    what is wrong).
    """
    from .._utils.data import ClassificationData
    from .columns import _UNNAMED_RE, ID_COLUMN_MIN_ROWS, _resolve_target

    try:
        _, names, kinds, cats, rows = _arff_parts(text, path)
        p = len(names)
        if (p < 2 or len(rows) * p > SMALL_ARFF_CELLS or kinds[-1] != "nominal"
                or any(k != "numeric" for k in kinds[:-1])
                or _resolve_target(names, target) != p - 1):
            return None
        table = _data_table(path, _unquoted_class(rows), names, kinds, cats)
    except ValueError:
        return None
    if not isinstance(table, tuple):  # missing values, quotes, spaces: the general reader
        return None
    values, last = table
    labels = last[:, 0].tolist()
    declared = cats[-1]
    if len(set(declared)) != len(declared) or not set(labels) <= set(declared):
        return None
    if not np.isfinite(values).all():
        return None
    if any(_UNNAMED_RE.fullmatch(nm) for nm in names[:-1]):
        return None
    if values.shape[0] >= ID_COLUMN_MIN_ROWS:  # a row-number column (_counter_problem)
        step = np.diff(values, axis=0)
        counter = (values == np.round(values)).all(axis=0) & (
            (step == 1.0).all(axis=0) | (step == -1.0).all(axis=0))
        if counter.any():
            return None
    seen = set(labels)
    classes = [c for c in declared if c in seen]
    if len(classes) < 2 or len({c.strip().casefold() for c in classes}) != len(classes):
        return None
    lut = {c: i for i, c in enumerate(classes)}
    codes = np.array([lut[v] for v in labels], dtype=np.int64)
    data = ClassificationData(np.ascontiguousarray(values, dtype=np.float64),
                              np.zeros(p - 1, dtype=bool), [None] * (p - 1),
                              np.array(names[:-1], dtype=object), codes,
                              np.array(classes, dtype=object))
    return data, names[-1]
