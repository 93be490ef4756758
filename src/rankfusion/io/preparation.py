"""Preparing a feature matrix: :func:`standardize` z-scores its columns.
"""

from __future__ import annotations

import numpy as np

from .._utils.data import rescale_extreme_columns
from .._utils.lazy import lazy_module

pd = lazy_module("pandas")  # imported on first use (small commands start without it)

__all__ = ["standardize"]


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
