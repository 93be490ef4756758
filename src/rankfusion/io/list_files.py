"""Ranked lists as CSV files: :func:`read_lists` and :func:`write_lists`.

The files hold scores, positions or orders; :class:`~rankfusion.RankedLists` itself reads and
writes no files.
"""

from __future__ import annotations

import os
import re
import warnings

import numpy as np

from .._utils.csv_cells import unprotect_cell
from .._utils.names import invisible_message, nfc, spellings_text
from ..lists import RankedLists
from .csv_text import _INFINITY, _NUMBER_RE, _check_sep, _csv_rows, _sep_hint
from .inputs import InputWarning, read_input
from .outputs import atomic_write, safe_output_path

__all__ = ["LIST_KINDS", "read_lists", "write_lists"]


#: The kinds of list files :func:`read_lists` reads (``"auto"`` decides only where the reading
#: is unambiguous: every cell a number → scores, no cell a number → orders).
LIST_KINDS = ("auto", "scores", "positions", "orders")

#: First cells that make the first row of an orders file a header naming the list column.
ORDER_HEADER_WORDS = ("list", "lists", "name", "names", "list_name", "list name", "method",
                      "methods", "ranker", "rankers", "id")

_RANK_LABEL_RE = re.compile(r"(?:top|rank|pos|position|#)?[ _]?(\d+)", re.IGNORECASE)

_INFINITY_RE = re.compile(_INFINITY, re.IGNORECASE)


def _number_cells(cells) -> tuple[np.ndarray, np.ndarray]:
    """(is a finite-syntax number, is an infinity) for stripped text cells: the patterns of
    the data-file reader, matched cell by cell without pandas (a list file is read in full
    by the csv module anyway, and small commands start without pandas)."""
    n = len(cells)
    num = np.fromiter((_NUMBER_RE.fullmatch(c) is not None for c in cells), bool, n)
    inf = np.fromiter((_INFINITY_RE.fullmatch(c) is not None for c in cells), bool, n)
    return num, inf



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
    flat = body.reshape(-1)
    num, inf = _number_cells(flat)
    empty = np.fromiter((c == "" for c in flat), bool, flat.shape[0])
    values = np.full(flat.shape[0], np.nan)
    if num.any():
        values[num] = flat[num].astype(np.float64)  # float() of each cell: exact
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
    names = {"features": np.array(features, dtype=object),
             "list_names": np.array(list_names, dtype=object)}
    try:
        if kind == "scores":
            return RankedLists.from_scores(values, **names)
        return RankedLists.from_positions(values, **names)
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
    if not text.isascii():
        rows = _unicode_names(rows, lines, label)
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



def _unicode_names(rows, lines, label):
    """Every cell of a list file (a feature or list name, or a number) in Unicode form NFC,
    with an :class:`InputWarning` naming the names that were two spellings before, and a
    ``ValueError`` for a name holding an invisible character (docs/design.md, 'Inputs')."""
    forms: dict = {}
    out = []
    for r, line in zip(rows, lines):
        new = []
        for j, c in enumerate(r):
            if not c.isascii():
                msg = invisible_message(c.strip(), f"{label}, line {line}, column {j + 1}: "
                                                    "the name")
                if msg:
                    raise ValueError(msg)
                k = nfc(c)
                forms.setdefault(k.strip(), set()).add(c.strip())
                c = k
            new.append(c)
        out.append(new)
    merged = {k: raw for k, raw in forms.items() if len(raw) > 1}
    if merged:
        warnings.warn(f"{label}: names that differ only by their Unicode form (a composed "
                      "character or a letter and a combining mark) were read as one name each, "
                      f"in form NFC ({spellings_text(merged)})", InputWarning, stacklevel=3)
    return out


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
    num, inf = _number_cells(body)
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
    from .._utils.tabular import to_csv  # text cells protected (docs/design.md, 'Outputs')

    with atomic_write(out) as fh:
        to_csv(frame, fh, float_format="%.17g")
