"""Features and target from a data file or a DataFrame: :func:`load_data`, :func:`read_small`.

:func:`load_data` returns the features as a DataFrame (nominal attributes as pandas categoricals
in their declared order or text columns, NaN for missing values) and the target as a Series.
The target is the column named (or numbered) by ``target``; by default the last column, as
Weka does. Every input is read once (``"-"`` is standard input) and read as the user meant it
or refused with one message naming the file, the place and the fix (docs/design.md,
'Inputs'). :func:`read_small` is the same reading of a small, plain CSV file without pandas.
"""

from __future__ import annotations

import copy
import csv
import io as _io
import os
import re
import unicodedata
import warnings
from collections.abc import Sequence

import numpy as np

from .._utils.data import (
    ID_TARGET_MIN_ROWS_OF_FILE,
    NOT_CLASSES_ADVICE,
    ClassificationData,
    target_problem,
    without_attrs,
)
from .._utils.lazy import lazy_module
from .._utils.names import invisible_character, invisible_message, nfc, spellings_text
from .._utils.validation import check_unique_columns
from .arff import SMALL_ARFF_CELLS, _parse_arff, small_arff
from .columns import (
    _DATE_RE,
    _UNNAMED_RE,
    _as_name_list,
    _check_target_column,
    _counter_problem,
    _frame_from_text,
    _identifier_problem,
    _is_text,
    _label_variants,
    _regression_target_column,
    _resolve_target,
    _text_columns_of_frame,
)
from .csv_text import (
    _INFINITY,
    _NUMBER,
    _NUMBER_RE,
    DEFAULT_NA_VALUES,
    _check_sep,
    _csv_rows,
    _decoration,
    _na_markers,
    _numeric_markers,
)
from .inputs import _STDIN, InputWarning, _decode, _format_of, read_input

pd = lazy_module("pandas")  # imported on first use (small commands start without it)

__all__ = ["load_data", "read_small", "SMALL_CELLS"]


def load_data(source, target: str | int | None = None, *, format: str | None = None,
              na_values: Sequence[str] | None = None, drop: Sequence[str] | str | None = None,
              nominal: Sequence[str] | str | None = None, sep: str | None = None,
              encoding: str = "utf-8", sparse: bool = False, task: str | None = None,
              zero_based: bool = False, n_features: int | None = None):
    """Features and target from a file or a DataFrame, read by the rules of docs/design.md,
    'Inputs' (and 'Tasks' for ``task``).

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
    format : {"csv", "arff", "parquet", "svmlight"}, optional
        Overrides the format guessed from the file name. ``"svmlight"`` (alias ``"libsvm"``;
        the endings ``.svm``, ``.svmlight``, ``.libsvm``) is read into a scipy.sparse matrix
        (:func:`~rankfusion.io.read_svmlight`: one-based indices).
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
    sparse : bool, default False
        Read an ARFF file into a scipy.sparse CSR matrix
        (:func:`~rankfusion.io.read_sparse_arff`: Weka's sparse rows, never densified);
        svmlight files are always sparse. ``drop``, ``nominal``, ``na_values`` and ``sep``
        do not apply to sparse reading.
    task : {None, "auto", "classification", "regression"}, default None
        What the target is. None (the reader's historical rule): class labels, checked as
        every classification entry checks them (a continuous or many-valued whole-number
        column is refused). ``"classification"``: class labels, as asked (a whole-number
        column with many distinct values is kept; non-integer numbers are refused).
        ``"regression"``: a numeric target, returned as a float64 Series; every cell must be
        a finite number (a text cell among numbers is refused naming its line, never read as
        a class). ``"auto"``: :func:`rankfusion._utils.task.resolve_task` on the column — a
        column declared numeric (ARFF) or holding non-integer numbers is regression, text
        labels are classification, and a whole-number column with many distinct values (or
        numbers with a few text cells) is refused naming both choices. The task is never
        guessed from a column beyond this rule; the entries that take ``y`` decide with their
        own ``task=`` too. svmlight labels are under the same rules (non-integer labels are
        refused as class labels).
    zero_based : bool, default False
        svmlight files only: the indices count from 0 (default one-based, the format's
        definition; :func:`~rankfusion.io.read_svmlight`).
    n_features : int, optional
        svmlight files only: the number of features (default: the largest index, which may
        not exceed ``max(2**20, 64 × the file's bytes)`` unless given).

    Returns
    -------
    X : DataFrame or scipy.sparse.csr_matrix
        (a CSR matrix for sparse reading: its attribute ``feature_names`` holds the names)
        The other columns, names kept. Numeric columns are float64 (int64 when every cell is
        an integer and none is missing); nominal CSV columns hold the text (stripped of
        surrounding spaces), NaN when missing; nominal ARFF attributes are categoricals.
    y : Series
        The class column (a float64 Series for a regression target).

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
    if task is not None:
        from .._utils.task import check_task

        task = check_task(task)
    drop_cols = [nfc(c) for c in _as_name_list(drop, "drop")]
    nominal_cols = [nfc(c) for c in _as_name_list(nominal, "nominal")]
    if isinstance(target, str):
        target = nfc(target)  # as the header is read (docs/design.md, 'Inputs')
    zero_based, n_features = _svmlight_options(zero_based, n_features)
    if na_values is not None:  # read once (a generator), a wrong type refused before reading
        na_values = _na_markers(na_values, default=())
    merged = None
    if isinstance(source, pd.DataFrame):
        label = "the DataFrame"
        check_unique_columns(source, name="the data")
        frame = _nfc_columns(without_attrs(source), label)
        marks = _na_markers(na_values, default=())
        if marks or nominal_cols:
            frame = _text_columns_of_frame(frame, label, marks, nominal_cols)
        elif any(_is_text(frame.iloc[:, j]) for j in range(frame.shape[1])):
            frame = _text_columns_of_frame(frame, label, (), ())
    else:
        data, label = read_input(source, binary=True)
        fmt = _format_of(source, format, data)
        if fmt != "svmlight" and (zero_based or n_features is not None):
            raise ValueError(f"{'zero_based' if zero_based else 'n_features'} applies to "
                             f"svmlight files only; {label} is read as {fmt}")
        if fmt == "svmlight" or sparse:
            return _load_sparse(data, label, fmt, target, encoding, sparse, drop_cols,
                                nominal_cols, na_values, sep, task, zero_based, n_features)
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
    y = frame.iloc[:, t]
    if places is None:  # Parquet
        places = [f"row {i + 1}" for i in range(frame.shape[0])]
    y = _target_of(y, names[t], label, places, declared, task)
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
    if isinstance(source, pd.DataFrame):
        y = _nfc_labels(y, label, places)
    _label_variants(y, label, merged)
    return X, y


def _svmlight_options(zero_based, n_features):
    """``zero_based`` and ``n_features`` of :func:`load_data` checked."""
    from .._utils.validation import check_bool

    zero_based = check_bool(zero_based, "zero_based")
    if n_features is not None and (isinstance(n_features, bool) or not isinstance(
            n_features, (int, np.integer)) or n_features < 1):
        raise ValueError(f"n_features must be a positive whole number or None, got "
                         f"{n_features!r}")
    return zero_based, None if n_features is None else int(n_features)


def _nfc_columns(frame, label):
    """A DataFrame's column names in Unicode form NFC (a renamed shallow copy when one
    changes), a name holding an invisible character refused (docs/design.md, 'Inputs')."""
    cols = list(frame.columns)
    if all(not isinstance(c, str) or c.isascii() for c in cols):
        return frame
    for j, c in enumerate(cols):
        msg = isinstance(c, str) and invisible_message(
            c, f"{label}: the name of column {j + 1},", fix="rename the column")
        if msg:
            raise ValueError(msg)
    new = [nfc(c) if isinstance(c, str) else c for c in cols]
    if new == cols:
        return frame
    out = frame.copy(deep=False)
    out.columns = new
    check_unique_columns(out, name=f"{label} (column names in Unicode form NFC)")
    return out


def _nfc_labels(y, label, places):
    """A DataFrame's text class labels in Unicode form NFC (a new Series when one changes,
    with an :class:`InputWarning` naming the spellings merged), a label holding an invisible
    character refused."""
    if isinstance(y.dtype, pd.CategoricalDtype):
        cats = list(y.cat.categories)
        if all(not isinstance(c, str) or c.isascii() for c in cats):
            return y
        for c in cats:
            msg = isinstance(c, str) and invisible_message(
                c, f"{label}: the class label (column {str(y.name)!r})",
                fix="rename the category")
            if msg:
                raise ValueError(msg)
        new = [nfc(c) if isinstance(c, str) else c for c in cats]
        if new == cats:
            return y
        merged = {k: {c for c, m in zip(cats, new) if m == k} for k in new if new.count(k) > 1}
        if merged:
            warnings.warn(f"{label}: class labels that differ only by their Unicode form were "
                          f"read as one class each, in form NFC ({spellings_text(merged)})",
                          InputWarning, stacklevel=3)
        order = list(dict.fromkeys(new))  # the declared order, first spelling first
        codes = np.array([order.index(n) for n in new])[y.cat.codes.to_numpy()]
        codes[y.cat.codes.to_numpy() < 0] = -1
        return pd.Series(pd.Categorical.from_codes(codes, categories=order), index=y.index,
                         name=y.name)
    if not _is_text(y):
        return y
    obs = [v for v in pd.unique(y[y.notna()]) if isinstance(v, str) and not v.isascii()]
    if not obs:
        return y
    arr = y.to_numpy(dtype=object)
    for v in obs:
        r = int(np.flatnonzero(arr == v)[0])
        msg = invisible_message(v, f"{label}, {places[r]}: the class label (column "
                                   f"{str(y.name)!r})", fix="correct the label")
        if msg:
            raise ValueError(msg)
    forms: dict = {}
    for v in pd.unique(y[y.notna()]):
        if isinstance(v, str):
            forms.setdefault(nfc(v), set()).add(v)
    if all(len(raw) == 1 and k in raw for k, raw in forms.items()):
        return y
    merged = {k: raw for k, raw in forms.items() if len(raw) > 1}
    if merged:
        warnings.warn(f"{label}: class labels that differ only by their Unicode form (a "
                      "composed character or a letter and a combining mark) were read as one "
                      f"class each, in form NFC ({spellings_text(merged)})", InputWarning,
                      stacklevel=3)
    return pd.Series([nfc(v) if isinstance(v, str) else v for v in arr], index=y.index,
                     name=y.name, dtype=object)



def _target_of(y, name: str, label: str, places: list, declared, task):
    """The target column by the rules of every reader (docs/design.md, 'Inputs' and
    'Tasks'): a numeric target for ``task="regression"`` (or ``"auto"`` on a numeric
    column), else class labels checked (:func:`_check_target_column`); ``declared`` is the
    ARFF type of the column (None for CSV, Parquet, svmlight and DataFrames)."""
    if task == "regression" or (task == "auto" and declared == "numeric"):
        return _regression_target_column(y, name, label, places, declared)
    if declared == "numeric":
        raise ValueError(
            f"the target {name!r} is declared numeric in the ARFF header: a regression "
            'target; say task="regression" (--task regression), or declare the class '
            "nominal for classification")
    if declared in ("string", "date"):
        raise ValueError(f"{label}: the target {name!r} is an ARFF {declared} "
                         "attribute, not class labels; declare the class nominal "
                         "({a,b,…}) or choose the class with target=")
    if task == "auto" and _auto_task(y, name, label, places) == "regression":
        return _regression_target_column(y, name, label, places, declared)
    if task == "classification" and y.dtype.kind in "iuf" and not y.isna().any() \
            and _whole_numbers(y):
        return y  # whole numbers taken as class labels, as asked (many values included)
    if task == "classification" and y.dtype.kind == "f" and not y.isna().any():
        # asked for class labels, given measurements: the reader takes both, so the way
        # out is the other task (the command line says --task regression)
        frac = y[y != np.round(y)]
        if frac.shape[0]:
            raise ValueError(f"{label}: the target column {name!r} holds non-integer "
                             f"numbers (e.g. {float(frac.iloc[0])!r}), not class labels, for "
                             'task="classification": say task="regression" (a numeric '
                             "quantity), or bin it into classes first (e.g. pandas.cut)")
    _check_target_column(y, name, label, places)
    return y


def _whole_numbers(y) -> bool:
    """Whether a numeric target column holds whole numbers only (class codes)."""
    from .._utils.task import target_kind

    return target_kind(y) == "integer"


def _auto_task(y, name: str, label: str, places: list) -> str:
    """``task="auto"`` on a target column (:func:`rankfusion._utils.task.resolve_task`):
    ``"regression"`` or ``"classification"``, or a ``ValueError`` naming both choices for a
    column the rule cannot tell (many distinct whole numbers)."""
    from .._utils.task import resolve_task

    where = f"{label}: the target column {name!r}"
    # (a numeric column with a text cell never gets here: the reader refuses it, naming both
    # cells; a column declared nominal is class labels, as the user said)
    if y.dtype.kind not in "iuf" or y.isna().any():
        return "classification"  # text, categorical, or a missing label: checked as labels
    found = resolve_task(y.to_numpy(), "auto", name=where)
    if found == "classification":
        # the reader's stricter rule for a file's class column (few samples per class)
        problem = target_problem(y.to_numpy(), min_id_samples=ID_TARGET_MIN_ROWS_OF_FILE,
                                 sparse=True)
        if problem:
            why = problem.replace(f"; {NOT_CLASSES_ADVICE}", "")
            raise ValueError(f"{where} {why}; the task cannot be told from the values: say "
                             'task="classification" (its values are class labels) or '
                             'task="regression" (a numeric quantity)')
    return found


class _RowLines:
    """``places`` of a sparse file's rows (``"line N"``), found only when a message needs
    one (an svmlight file's lines are counted then)."""

    def __init__(self, n: int, lines):
        self._n, self._lines = n, lines

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, r: int) -> str:
        if callable(self._lines):
            self._lines = self._lines()
        return f"line {self._lines[r]}"


def _load_sparse(data, label, fmt, target, encoding, sparse, drop_cols, nominal_cols,
                 na_values, sep, task, zero_based, n_features):
    """``load_data`` of a sparse reading (docs/design.md, 'Sparse input'): the target under
    the rules of every reader (:func:`_target_of`)."""
    from .._utils.validation import check_bool
    from .sparse_files import parse_sparse_arff, svmlight_data_lines, svmlight_from_bytes

    check_bool(sparse, "sparse")
    given = [k for k, v in (("drop", drop_cols), ("nominal", nominal_cols),
                            ("na_values", na_values), ("sep", sep)) if v]
    if given:
        raise ValueError(f"{given[0]} does not apply to sparse reading ({label})")
    if fmt == "svmlight":
        if target is not None:
            raise ValueError(f"target does not apply to an svmlight file ({label}): its "
                             "first field is the label")
        X, y = svmlight_from_bytes(data, label, zero_based=zero_based, n_features=n_features)
        places = _RowLines(y.shape[0], lambda: svmlight_data_lines(data))
        declared = None
    elif fmt != "arff":
        raise ValueError(f"sparse=True reads ARFF or svmlight files; {label} is {fmt}")
    else:
        X, y, _, (lines, kind) = parse_sparse_arff(_decode(data, label, encoding), label,
                                                   target, with_places=True)
        places = lines
        declared = kind if kind in ("string", "date") else None
    return X, _target_of(y, str(y.name), label, places, declared, task)


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
    reading raises no error and no warning; a small dense ARFF file of numeric attributes and
    a nominal class likewise (:func:`rankfusion.io.arff.small_arff`). Anything else (another
    ARFF file, Parquet, standard input, a
    larger file, a cell :func:`load_data` would refuse or warn about, a class label that is
    missing or not a whole number) gives None: call :func:`load_data`, which reads it or says
    what is wrong. Commands use it so that a small job starts without loading pandas.

    Parameters
    ----------
    source : str or path
        The data file (standard input, a DataFrame, or a file neither CSV nor ARFF gives
        None).
    target : str or int, optional
        The class column, as :func:`load_data` reads it (default the last column).
    format : {"csv", "arff"}, optional
        Any other format gives None.
    na_values : sequence of str, optional
        Cells read as missing values, as :func:`load_data`.
    drop : sequence of str or comma-separated str, optional
        Columns to leave out, as :func:`load_data`.
    nominal : sequence of str or comma-separated str, optional
        Columns to read as nominal, as :func:`load_data`.
    sep : str, optional
        The CSV separator, as :func:`load_data`.
    encoding : str, default "utf-8"
        Text encoding of the file.
    max_cells : int, default SMALL_CELLS
        The largest number of cells of a CSV file read here; a larger file gives None (an
        ARFF file: at most ``SMALL_ARFF_CELLS``, its numbers parsed by numpy in one pass).

    Returns
    -------
    (ClassificationData, str) or None
        The features as ``rankfusion._utils.data.check_classification_data`` makes them
        from ``load_data``'s
        ``X`` and ``y`` (nominal categories sorted, class codes in sorted label order, as
        Weka's for CSV files; for ARFF, in the order the header declares the classes), and
        the name of the target column.
    """
    try:
        return _read_small(source, target, format, na_values, drop, nominal, sep, encoding,
                           max_cells)
    except (ValueError, TypeError, OSError, UnicodeError, csv.Error, OverflowError):
        return None  # load_data says what is wrong



def _read_small_arff(source, target, na_values, drop, nominal, sep, encoding):
    """A small dense ARFF file (:func:`rankfusion.io.arff.small_arff`), or None."""
    path = os.fspath(source)
    if (any(v is not None for v in (na_values, drop, nominal, sep))
            or not os.path.isfile(path) or os.path.getsize(path) > 40 * SMALL_ARFF_CELLS):
        return None
    data, label = read_input(path, binary=True)
    return small_arff(_decode(data, label, encoding), label, target)


def _read_small(source, target, fmt, na_values, drop, nominal, sep, encoding, max_cells):
    if not isinstance(source, (str, os.PathLike)) or str(source) in _STDIN:
        return None
    low = os.fspath(source).lower().removesuffix(".gz")
    if fmt in (None, "arff") and low.endswith(".arff"):
        return _read_small_arff(source, target, na_values, drop, nominal, sep, encoding)
    if fmt not in (None, "csv") or not low.endswith((".csv", ".txt", ".tsv")):
        return None
    path = os.fspath(source)
    if not os.path.isfile(path) or os.path.getsize(path) > 40 * max_cells:
        return None
    data, label = read_input(path, binary=True)
    text = _decode(data, label, encoding)
    if not text.isascii() and (not unicodedata.is_normalized("NFC", text)
                               or invisible_character(text)):
        return None  # load_data normalises the names (docs/design.md, 'Inputs')
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
