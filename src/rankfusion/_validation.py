"""Validation at the public boundary (docs/design.md, 'Validation').

Every public function checks its arguments here, once, and raises a ``ValueError`` or a
``TypeError`` that names the argument and the problem. Nothing here modifies the caller's data.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = [
    "check_names",
    "check_score_matrix",
    "check_weights",
    "check_top_k",
    "check_positive_int",
    "check_bool",
    "check_fraction",
    "check_seed",
]


def _is_real_dtype(dtype) -> bool:
    """Integers or floats (numpy or pandas extension dtypes), not bools or complex numbers."""
    return (pd.api.types.is_integer_dtype(dtype) or pd.api.types.is_float_dtype(dtype)) and not (
        pd.api.types.is_bool_dtype(dtype)
    )


def check_names(names, n: int, *, name: str, default_prefix: str) -> np.ndarray:
    """Return ``n`` unique names as an object array, or defaults ``prefix0 … prefix{n-1}``."""
    if names is None:
        return np.array([f"{default_prefix}{i}" for i in range(n)], dtype=object)
    if isinstance(names, str):
        raise TypeError(f"{name} must be a sequence of names, got a single string {names!r}")
    arr = np.array(list(names), dtype=object)
    if arr.ndim != 1 or arr.shape[0] != n:
        raise ValueError(f"{name} must hold {n} names, got {arr.shape[0] if arr.ndim else 0}")
    seen: dict = {}
    for i, v in enumerate(arr):
        if v in seen:
            raise ValueError(
                f"{name} must be unique: {v!r} appears at positions {seen[v]} and {i}"
            )
        seen[v] = i
    return arr


def check_score_matrix(
    X, *, name: str = "lists", features=None, list_names=None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate a features × lists matrix of scores (higher = better).

    Returns a float64 copy of the values, the feature names and the list names. A DataFrame
    gives its index as feature names and its columns as list names.
    """
    if isinstance(X, pd.Series):
        raise ValueError(
            f"{name} must be 2-D (features × lists); got a Series. Use series.to_frame() "
            "for a single list"
        )
    if isinstance(X, pd.DataFrame):
        bad = [c for c in X.columns if not _is_real_dtype(X[c].dtype)]
        if bad:
            raise TypeError(
                f"{name} must hold real numbers (higher = better); column {bad[0]!r} has "
                f"dtype {X[bad[0]].dtype}"
            )
        if features is None:
            features = list(X.index)
        if list_names is None:
            list_names = list(X.columns)
        values = X.to_numpy(dtype=np.float64, copy=True)
    else:
        if hasattr(X, "toarray") or type(X).__module__.startswith("scipy.sparse"):
            raise TypeError(f"{name} must be a dense array or DataFrame, got a sparse matrix")
        try:
            arr = np.asarray(X)
        except Exception as exc:  # ragged nested lists
            raise ValueError(f"{name} could not be read as a 2-D array: {exc}") from None
        if arr.dtype == object:
            try:
                arr = arr.astype(np.float64)
            except (TypeError, ValueError):
                raise TypeError(
                    f"{name} must hold real numbers (scores, higher = better); got "
                    "non-numeric entries. Orders of feature names go through "
                    "RankedLists.from_orders"
                ) from None
        if not _is_real_dtype(arr.dtype):
            raise TypeError(
                f"{name} must hold real numbers (scores, higher = better); got dtype "
                f"{arr.dtype}. Orders of feature names go through RankedLists.from_orders"
            )
        if arr.ndim != 2:
            raise ValueError(
                f"{name} must be 2-D (features × lists); got {arr.ndim}-D with shape {arr.shape}"
            )
        values = np.array(arr, dtype=np.float64, copy=True)
    p, m = values.shape
    if p < 1 or m < 1:
        raise ValueError(f"{name} must have at least one feature and one list; got shape {(p, m)}")
    finite = np.isfinite(values)
    if not finite.all():
        i, j = np.argwhere(~finite)[0]
        kind = "NaN" if np.isnan(values[i, j]) else "inf"
        raise ValueError(
            f"{name} must be finite; found {kind} at feature {i}, list {j} "
            f"({int((~finite).sum())} non-finite value(s) in all)"
        )
    features = check_names(features, p, name="features", default_prefix="f")
    list_names = check_names(list_names, m, name="list_names", default_prefix="L")
    return values, features, list_names


def check_weights(weights, n_lists: int, *, name: str = "weights") -> np.ndarray | None:
    """Validate list weights: ``n_lists`` finite non-negative numbers, not all zero.

    Returns a float64 array (a copy) or ``None`` when ``weights`` is ``None``.
    """
    if weights is None:
        return None
    if isinstance(weights, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of numbers, got a string")
    if isinstance(weights, (pd.Series, dict)):
        weights = list(weights.values()) if isinstance(weights, dict) else weights.to_numpy()
    arr = np.asarray(weights)
    if arr.dtype == object or not _is_real_dtype(arr.dtype):
        try:
            arr = np.asarray(weights, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"{name} must be numbers, got dtype {arr.dtype}") from None
    arr = np.array(arr, dtype=np.float64, copy=True)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one weight per list); got shape {arr.shape}")
    if arr.shape[0] != n_lists:
        raise ValueError(f"{name} must have one weight per list ({n_lists}); got {arr.shape[0]}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must be finite; got {arr.tolist()}")
    if (arr < 0).any():
        raise ValueError(f"{name} must be non-negative; got {arr.tolist()}")
    if not (arr > 0).any():
        raise ValueError(f"{name} must not all be zero")
    return arr


def check_top_k(k, p: int, *, name: str = "k") -> int:
    """Resolve a top-k ``k``: an int ≥ 1 is a count (≤ p); a float in (0, 1] a fraction.

    docs/design.md, 'Fractions'.

    A fraction gives ``max(1, floor(k·p + 0.5))``, so 1.0 means p. Any other value is an error.
    """
    if isinstance(k, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int ≥ 1 or a float in (0, 1], got a bool")
    if isinstance(k, numbers.Integral):
        k = int(k)
        if k < 1:
            raise ValueError(f"{name} must be ≥ 1 when given as a count; got {k}")
        if k > p:
            raise ValueError(f"{name}={k} exceeds the number of features ({p})")
        return k
    if isinstance(k, numbers.Real):
        k = float(k)
        if not (0.0 < k <= 1.0):
            raise ValueError(
                f"{name} as a float is a fraction of the features and must lie in (0, 1]; "
                f"got {k}. Give an int for a count"
            )
        return max(1, int(np.floor(k * p + 0.5)))
    raise TypeError(f"{name} must be an int ≥ 1 or a float in (0, 1], got {type(k).__name__}")


def check_bool(value, name: str) -> bool:
    """A bool; the command line's ``--param name=true|false|1|0`` is accepted too."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
        return value.strip().lower() in ("true", "yes")
    raise TypeError(f"{name} must be a bool, got {value!r}")


def check_fraction(value, name: str) -> float:
    """A number in (0, 1]."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number in (0, 1], got {type(value).__name__}")
    value = float(value)
    if not (0.0 < value <= 1.0):
        raise ValueError(f"{name} must lie in (0, 1], got {value}")
    return value


def check_seed(random_state) -> int:
    """A uint32 seed from None (fresh entropy), an int or a numpy Generator."""
    if random_state is None:
        return int(np.random.default_rng().integers(0, 2**32 - 1))
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2**32 - 1))
    if isinstance(random_state, (bool, np.bool_)) or not isinstance(random_state, numbers.Integral):
        raise TypeError(
            f"random_state must be None, an int or a numpy Generator, got "
            f"{type(random_state).__name__}"
        )
    if not 0 <= random_state < 2**32:
        raise ValueError(f"random_state must lie in [0, 2**32), got {random_state}")
    return int(random_state)


def check_positive_int(value, *, name: str, minimum: int = 1) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be ≥ {minimum}, got {value}")
    return int(value)


def as_name_list(values: Sequence, *, name: str) -> list:
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of feature names, got a single string")
    return list(values)
