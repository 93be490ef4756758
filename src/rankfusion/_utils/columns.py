"""What the shape of a feature matrix already decides, checked at the boundary of the advisor
and the selectors before any work (docs/design.md, 'Validation'): columns in which every
value is missing (nothing to rank them by), constant columns (nothing to tell the classes
apart by), a single feature (nothing to choose among).

The functions take a numpy array, a pandas DataFrame (any column types: a nominal column is
missing where ``pandas.isna`` says so) or a scipy.sparse matrix (a column is all missing only
when every row stores NaN), and never modify it.
"""

from __future__ import annotations

import numpy as np

from .lazy import lazy_module

pd = lazy_module("pandas")  # imported on first use (small commands start without it)

__all__ = [
    "column_labels",
    "empty_columns",
    "constant_columns",
    "check_observed_columns",
    "names_text",
    "plain_value",
]


def column_labels(X, names=None) -> list[str]:
    """The names of ``X``'s columns as messages show them: ``names`` when given, a
    DataFrame's column names, else ``x0 … x{p-1}`` (the names every fitted selector gives an
    array's columns, ``feature_names_in_`` aside)."""
    if names is not None:
        return [str(n) for n in names]
    if isinstance(X, pd.DataFrame):
        return [str(c) for c in X.columns]
    p = int(np.shape(X)[1]) if len(np.shape(X)) == 2 else 0
    return [f"x{j}" for j in range(p)]


def _float_values(X):
    """``X`` as a 2-D float array (a view where possible), or None when it is not one."""
    try:
        arr = np.asarray(X)
        if arr.ndim != 2:
            return None
        if arr.dtype.kind in "iub":
            return arr
        if arr.dtype.kind != "f":
            arr = arr.astype(np.float64)
    except (TypeError, ValueError):
        return None
    return arr


def _is_sparse(X) -> bool:
    return type(X).__module__.startswith("scipy.sparse")


def empty_columns(X) -> np.ndarray:
    """Indices (increasing) of the columns of ``X`` in which every value is missing (NaN,
    None, ``pandas.NA``); empty when there are none or when ``X`` is not a 2-D table.

    Parameters
    ----------
    X : array-like, DataFrame or scipy.sparse matrix of shape (n, p)

    Returns
    -------
    ndarray of int64

    Examples
    --------
    >>> empty_columns(np.array([[1.0, np.nan], [2.0, np.nan]])).tolist()
    [1]
    """
    if isinstance(X, pd.DataFrame):
        if X.shape[0] == 0:
            return np.zeros(0, dtype=np.int64)
        if any(isinstance(dtype, pd.SparseDtype) for dtype in X.dtypes):
            return np.flatnonzero([_all_missing(X.iloc[:, j]) for j in range(X.shape[1])]
                                  ).astype(np.int64)
        return np.flatnonzero(X.isna().all(axis=0).to_numpy()).astype(np.int64)
    if _is_sparse(X):
        M = X.tocsc()
        n = M.shape[0]
        if n == 0:
            return np.zeros(0, dtype=np.int64)
        data = np.asarray(M.data, dtype=np.float64)
        counts = (
            np.add.reduceat(np.isnan(data).astype(np.int64), M.indptr[:-1])
            if data.shape[0]
            else np.zeros(M.shape[1], dtype=np.int64)
        )
        # reduceat gives a value at an empty column's start: count only stored entries
        counts = np.where(np.diff(M.indptr) > 0, counts, 0)
        return np.flatnonzero(counts == n).astype(np.int64)
    try:
        arr = np.asarray(X)
    except (TypeError, ValueError):
        return np.zeros(0, dtype=np.int64)
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.dtype.kind not in "fO":
        return np.zeros(0, dtype=np.int64)
    missing = np.isnan(arr) if arr.dtype.kind == "f" else pd.isna(arr)
    return np.flatnonzero(missing.all(axis=0)).astype(np.int64)


def _all_missing(col) -> bool:
    """Whether every value of one column of a frame is missing; a sparse column from its stored
    values and fill value (pandas' own ``isna`` of a sparse column warns on pandas 1.5 under
    numpy 1.24, and densifies)."""
    if isinstance(col.dtype, pd.SparseDtype):
        stored = np.asarray(col.array.sp_values)
        unstored_missing = stored.shape[0] == len(col) or bool(pd.isna(col.dtype.fill_value))
        return unstored_missing and bool(pd.isna(stored).all())
    return bool(col.isna().all())


def constant_columns(X) -> np.ndarray:
    """Indices (increasing) of the columns of ``X`` that hold one value in every row (a
    missing value counts as a value of its own: ``[1, 1, NaN]`` is not constant, since
    missingness may carry information; an all-missing column is constant).

    Parameters
    ----------
    X : array-like, DataFrame or scipy.sparse matrix of shape (n, p)

    Returns
    -------
    ndarray of int64

    Examples
    --------
    >>> constant_columns(np.array([[1.0, 5.0, 0.0], [1.0, 6.0, np.nan]])).tolist()
    [0]
    """
    if isinstance(X, pd.DataFrame):
        return np.flatnonzero((X.nunique(dropna=False) <= 1).to_numpy()).astype(np.int64)
    if _is_sparse(X):
        M = X.tocsc().astype(np.float64)
        n = M.shape[0]
        stored = np.diff(M.indptr)
        const = []
        for j in range(M.shape[1]):
            vals = M.data[M.indptr[j] : M.indptr[j + 1]]
            if stored[j] < n:  # implicit zeros present
                vals = np.concatenate([vals, [0.0]])
            const.append(_one_value(vals))
        return np.flatnonzero(np.asarray(const, dtype=bool)).astype(np.int64)
    arr = _float_values(X)
    if arr is None or arr.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    first = arr[:1]
    same = arr == first
    if arr.dtype.kind == "f":
        same |= np.isnan(arr) & np.isnan(first)
    return np.flatnonzero(same.all(axis=0)).astype(np.int64)


def _one_value(vals: np.ndarray) -> bool:
    nan = np.isnan(vals)
    if nan.all():
        return True
    if nan.any():
        return False
    return bool(vals.min() == vals.max())


def names_text(names, limit: int = 10) -> str:
    """``'a', 'b', 'c'`` (at most ``limit`` names, then ``… (N in all)``)."""
    names = [str(n) for n in names]
    shown = ", ".join(repr(n) for n in names[:limit])
    return shown + (f", … ({len(names)} in all)" if len(names) > limit else "")


def check_observed_columns(X, *, names=None, name: str = "X", drop: str | None = None) -> None:
    """A ``ValueError`` naming the columns of ``X`` in which every value is missing: no
    ranker has anything to rank them by, and an imputer or a scaler fails on them deep in
    scikit-learn (docs/design.md, 'Validation').

    Parameters
    ----------
    X : array-like, DataFrame or scipy.sparse matrix of shape (n, p)
        The features.
    names : sequence of str, optional
        The column names (default: :func:`column_labels`).
    name : str, default "X"
        The argument, as the message names it.
    drop : str, optional
        How the caller leaves columns out: ``{names}`` stands for their quoted names,
        ``{plain}`` for the names joined by commas, ``{indices}`` for their 0-based
        positions (default: ``X.drop(columns=[…])`` for a DataFrame, ``np.delete(X, […],
        axis=1)`` for an array).

    Raises
    ------
    ValueError
        When a column holds no value.
    """
    idx = empty_columns(X)
    if idx.shape[0] == 0:
        return
    labels = column_labels(X, names)
    bad = [labels[int(j)] for j in idx]
    if drop is None:
        drop = (
            "X.drop(columns=[{names}])"
            if isinstance(X, pd.DataFrame)
            else "np.delete(X, [{indices}], axis=1)"
        )
    way = drop.format(
        names=", ".join(repr(b) for b in bad),
        plain=",".join(bad),
        indices=", ".join(str(int(j)) for j in idx),
    )
    what = "column" if len(bad) == 1 else f"{len(bad)} columns"
    raise ValueError(
        f"{name}: {what} {names_text(bad)} hold{'s' if len(bad) == 1 else ''} "
        "no value (every entry is missing): nothing to rank "
        f"{'it' if len(bad) == 1 else 'them'} by; leave "
        f"{'it' if len(bad) == 1 else 'them'} out ({way}) or fill "
        f"{'it' if len(bad) == 1 else 'them'} in"
    )


def plain_value(value):
    """A numpy scalar as the Python value it holds (``np.int64(0)`` → ``0``,
    ``np.str_('a')`` → ``'a'``), so that messages show ``0``, never ``np.int64(0)``; any
    other value unchanged.

    Examples
    --------
    >>> repr(plain_value(np.int64(3))), repr(plain_value(np.str_("a")))
    ('3', "'a'")
    """
    return value.item() if isinstance(value, np.generic) else value
