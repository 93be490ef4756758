"""Reading classification data: CSV, ARFF, Parquet or a pandas DataFrame.

:func:`load_data` returns the features as a DataFrame (nominal attributes as pandas categoricals
in their declared order, NaN for missing values) and the target as a Series. The target is the
column named (or numbered) by ``target``; by default the last column, as Weka does.

:func:`read_arff` is a small reader for Weka's ARFF format (dense and sparse rows, nominal
attributes with their declared values, ``?`` for missing, quoted names and values, comments),
written because ``scipy.io.arff`` drops the declared category order of nominal attributes
(it returns bytes) and cannot read sparse rows or quoted values containing commas reliably.

:func:`read_lists` and :func:`write_lists` read and write ranked lists (scores, positions or
orders) as CSV files; :class:`~rankfusion.RankedLists` itself reads and writes no files.
:func:`standardize` z-scores the columns of a feature matrix.
"""

from __future__ import annotations

import gzip
import os
import re

import numpy as np
import pandas as pd

from ._utils.data import rescale_extreme_columns
from .lists import RankedLists

__all__ = ["read_arff", "load_data", "read_lists", "write_lists", "LIST_KINDS", "standardize"]

_NUMERIC = {"numeric", "real", "integer"}


def _open_text(path):
    path = os.fspath(path)
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, encoding="utf-8", errors="replace")


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
            if body:
                for item in _split(body):
                    idx, _, val = item.strip().partition(" ")
                    row[int(idx)] = val.strip()
        else:
            row = _split(line)
            if len(row) != p:
                raise ValueError(f"{path}, line {lineno}: {len(row)} values but {p} "
                                 "attributes")
        table[r] = [_unquote(v) for v in row]
    return table


def read_arff(path) -> pd.DataFrame:
    """Read an ARFF file (optionally ``.gz``) into a DataFrame.

    Numeric attributes become float64 columns, nominal attributes pandas categoricals with the
    declared categories in declared order, string and date attributes object columns. ``?`` is
    a missing value (NaN). The relation name is kept in ``frame.attrs["relation"]`` and the
    declared types (``"numeric"``, ``"nominal"``, ``"string"``, ``"date"``) in
    ``frame.attrs["arff_types"]``.
    """
    names, kinds, cats = [], [], []
    relation = None
    rows: list[tuple[int, str]] = []
    in_data = False
    with _open_text(path) as fh:
        for lineno, raw in enumerate(fh, 1):
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
                else:
                    raise ValueError(f"{path}, line {lineno}: unexpected header line {line[:60]!r}")
                continue
            rows.append((lineno, line))
    if not in_data:
        raise ValueError(f"{path}: not an ARFF file (no @data section)")
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: duplicate attribute names")
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
            for j in num:
                col = table[:, j]
                for v in col[col != "?"]:
                    try:
                        float(v)
                    except ValueError:
                        raise ValueError(f"{path}: attribute {names[j]!r} is numeric but has "
                                         f"the value {v!r}") from None
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
                v = raw_col[np.flatnonzero(bad)[0]]
                raise ValueError(f"{path}: value {v!r} of attribute {name!r} is not "
                                 f"among its declared values {c}")
            codes[miss] = -1
            cols[name] = pd.Categorical.from_codes(codes, categories=cats)
        else:
            cols[name] = pd.Series([None if m else v for v, m in zip(raw_col, miss)],
                                   dtype=object)
    num_names = [nm for nm, k in zip(names, kinds) if k == "numeric"]
    if len(num_names) > 100:  # wide data: one float block instead of thousands of columns
        block = pd.DataFrame(np.column_stack([cols.pop(nm) for nm in num_names]),
                             columns=num_names)
        others = pd.DataFrame(cols, index=block.index)
        frame = pd.concat([block, others], axis=1)[names]
    else:
        frame = pd.DataFrame(cols, columns=names)
    frame.attrs["relation"] = relation
    frame.attrs["arff_types"] = dict(zip(names, kinds))
    return frame


def _read_any(source, fmt: str | None) -> pd.DataFrame:
    if isinstance(source, pd.DataFrame):
        return source
    path = os.fspath(source)
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such file: {path}")
    if fmt is None:
        low = path.lower().removesuffix(".gz")
        if low.endswith(".arff"):
            fmt = "arff"
        elif low.endswith((".parquet", ".pq")):
            fmt = "parquet"
        elif low.endswith((".csv", ".txt", ".tsv")):
            fmt = "csv"
        else:
            raise ValueError(f"cannot tell the format of {path!r}; use a .csv, .arff or "
                             ".parquet name or pass format=")
    if fmt == "arff":
        return read_arff(path)
    if fmt == "parquet":
        return pd.read_parquet(path)
    if fmt == "csv":
        sep = "\t" if path.lower().removesuffix(".gz").endswith(".tsv") else ","
        # "?" and empty cells are missing (and NaN spelled out); pandas' other default NA
        # strings ("NA", "None", "null", "N/A" …) stay values: "NA" may be North America
        return pd.read_csv(path, sep=sep, keep_default_na=False,
                           na_values=["?", "", "NaN", "nan"])
    raise ValueError(f"format must be 'csv', 'arff' or 'parquet', got {fmt!r}")


def load_data(source, target: str | int | None = None, *, format: str | None = None):
    """Features and target from a file or a DataFrame.

    Parameters
    ----------
    source : str, path or DataFrame
        A ``.csv`` (``?`` and empty cells are missing; text columns are nominal), ``.arff`` or
        ``.parquet`` file (``.gz`` compressed CSV/ARFF too), or a DataFrame (not modified).
    target : str or int, optional
        The class column, by name or by position (negative counts from the end); default the
        last column, as Weka.
    format : {"csv", "arff", "parquet"}, optional
        Overrides the format guessed from the file name.

    Returns
    -------
    X : DataFrame
        The other columns, names and dtypes kept (nominal ARFF attributes are categoricals).
    y : Series
        The class column.
    """
    frame = _read_any(source, format)
    if frame.shape[1] < 2:
        raise ValueError(f"the data need a target and at least one feature; got "
                         f"{frame.shape[1]} column(s)")
    cols = list(frame.columns)
    if target is None:
        t = len(cols) - 1
    elif isinstance(target, (int, np.integer)) and not isinstance(target, bool):
        t = int(target)
        if not -len(cols) <= t < len(cols):
            raise ValueError(f"target index {t} is out of range for {len(cols)} columns")
        t %= len(cols)
    else:
        names = [str(c) for c in cols]
        if str(target) not in names:
            shown = ", ".join(names[:10]) + (" …" if len(names) > 10 else "")
            raise ValueError(f"target column {target!r} not found; columns: {shown}")
        t = names.index(str(target))
    declared = frame.attrs.get("arff_types", {}).get(cols[t])
    if declared == "numeric":
        raise ValueError(
            f"the target {cols[t]!r} is declared numeric in the ARFF header: a regression "
            "target; rankfusion handles classification (declare the class nominal)"
        )
    y = frame.iloc[:, t]
    X = frame.drop(columns=frame.columns[t])
    return X, y


# --------------------------------------------------------------------------- ranked lists
#: The kinds of list files :func:`read_lists` reads (``"auto"`` guesses scores or orders).
LIST_KINDS = ("auto", "scores", "positions", "orders")


def _is_number(v) -> bool:
    if isinstance(v, (int, float, np.number)) and not isinstance(v, bool):
        return True
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


def _guess_kind(raw: pd.DataFrame) -> str:
    """``"scores"`` when every cell after the header row and the first column is a number,
    ``"orders"`` otherwise."""
    body = raw.iloc[1:, 1:].to_numpy().ravel()
    cells = [c for c in body if c != ""]
    return "scores" if cells and all(_is_number(c) for c in cells) else "orders"


def _read_orders(raw: pd.DataFrame, path) -> RankedLists:
    """One row per list: the list name, then the feature names best first (rows may be shorter:
    top-k lists). A header row is present when the first row looks like column labels (a first
    cell such as ``list`` or ``name``, or rank numbers 1, 2, … after it); the first column names
    the lists unless its values are themselves ranked features."""
    first = [str(c).strip() for c in raw.iloc[0].tolist()]
    has_header = first[0].lower() in ("list", "lists", "name", "list_name", "") or all(
        c.isdigit() for c in first[1:] if c != ""
    ) and any(c != "" for c in first[1:])
    rows = [list(r) for r in (raw.iloc[1:] if has_header else raw).itertuples(index=False)]
    if not rows:
        raise ValueError(f"{path}: no lists found")
    firsts = {r[0] for r in rows}
    rest = {c for r in rows for c in r[1:] if c != ""}
    named = (has_header and first[0] != "") or (not (firsts & rest) and len(firsts) == len(rows)
                                                and len(rows) > 1)
    if named:
        names = [r[0] for r in rows]
        orders = [[c for c in r[1:] if c != ""] for r in rows]
    else:
        names = None
        orders = [[c for c in r if c != ""] for r in rows]
    return RankedLists.from_orders(orders, list_names=names)


def _read_matrix(path) -> pd.DataFrame:
    frame = pd.read_csv(path, index_col=0)
    frame.index = frame.index.astype(str)
    return frame


def _read_positions(path) -> RankedLists:
    return RankedLists.from_positions(_read_matrix(path))


def _read_scores(path) -> RankedLists:
    frame = _read_matrix(path)
    non_numeric = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    if non_numeric:
        raise ValueError(f"{path}: column {non_numeric[0]!r} is not numeric scores")
    if frame.isna().any().any():
        raise ValueError(f"{path}: empty or NaN score cells; scores must be finite")
    return RankedLists.from_scores(frame)


def read_lists(path: str | os.PathLike, kind: str = "auto") -> RankedLists:
    """Read ranked lists from a CSV file.

    Parameters
    ----------
    path : str or path
        The file.
    kind : {"auto", "scores", "positions", "orders"}
        How to read it:

        * ``"scores"``: features × lists, the first column the feature names, a header row of
          list names; higher = better.
        * ``"positions"``: the same layout with positions (1 = best; empty = not ranked), as
          :func:`write_lists` writes by default.
        * ``"orders"``: one row per list, the list name first, then the feature names best
          first (rows may be shorter: top-k lists).
        * ``"auto"``: orders when the cells after the first row and column are names rather
          than numbers, scores otherwise.

    Returns
    -------
    RankedLists
        Feature names are read as strings.

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
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such file: {path}")
    raw = pd.read_csv(path, header=None, dtype=str, keep_default_na=False)
    if raw.shape[0] < 2 and kind != "orders":
        raise ValueError(f"{path}: expected a header row and at least one feature row")
    if kind == "auto":
        kind = _guess_kind(raw)
    if kind == "orders":
        return _read_orders(raw, path)
    if kind == "positions":
        return _read_positions(path)
    return _read_scores(path)


def write_lists(lists: RankedLists, path: str | os.PathLike, *,
                values: str = "positions") -> None:
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
    """
    if not isinstance(lists, RankedLists):
        raise TypeError(f"lists must be a RankedLists, got {type(lists).__name__}")
    if values not in ("positions", "scores"):
        raise ValueError(f"values must be 'positions' or 'scores', got {values!r}")
    lists.to_frame(values).to_csv(path, float_format="%.17g")


# --------------------------------------------------------------------------- preparation
def standardize(X, *, name: str = "X") -> np.ndarray:
    """Z-score every column: ``(x − mean) / sd`` with the population SD (``ddof=0``).

    A constant column (sd = 0) is centred only (divided by 1). Returns a new float64 array;
    the caller's data are not modified.

    Parameters
    ----------
    X : array-like of shape (n, p)
        Finite real numbers.

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
