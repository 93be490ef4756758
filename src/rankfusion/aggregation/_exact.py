"""Exact, permutation-invariant reductions over lists (docs/design.md, 'Exact keys').

Rules built on positions work on doubled integer positions ``P2 = 2·pos``. Unweighted sums of
integers are exact. With weights, sums are exact when the weights are whole numbers; otherwise
each feature's terms are sorted before summing, so the result does not depend on the order of
the lists and equal multisets of terms give equal keys.
"""

from __future__ import annotations

import numpy as np

__all__ = ["list_sum", "integral_weights", "exact_int"]

_INT_LIMIT = 2**62


def integral_weights(weights: np.ndarray | None) -> np.ndarray | None:
    """Weights as int64 when they are all whole numbers small enough, else None."""
    if weights is None:
        return None
    if np.all(weights == np.round(weights)) and weights.max() < 2**31:
        return weights.astype(np.int64)
    return None


def _abs_max(values: np.ndarray) -> int:
    """max |v| without a temporary copy of ``values`` (as a Python int: no overflow)."""
    if values.size == 0:
        return 0
    return max(abs(int(values.max())), abs(int(values.min())))


def list_sum(values: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Σ_l w_l · values[:, l] per feature, exact for integers, permutation-invariant always.

    ``values`` is an integer or float array (features × lists). Integer values with no or whole
    weights give an int64 result (checked against overflow); otherwise a float64 result whose
    terms were sorted per feature before summation.
    """
    integer = np.issubdtype(values.dtype, np.integer)
    if weights is None:
        if integer:
            bound = _abs_max(values) * values.shape[1]
            if bound >= _INT_LIMIT:
                return exact_int([sum(int(v) for v in row) for row in values])
            return values.sum(axis=1, dtype=np.int64)
        return np.sort(values, axis=1).sum(axis=1)
    iw = integral_weights(weights)
    if integer and iw is not None:
        bound = _abs_max(values) * int(iw.sum())
        if bound >= _INT_LIMIT:
            return exact_int([sum(int(v) * int(w) for v, w in zip(row, iw)) for row in values])
        return values.astype(np.int64, copy=False) @ iw
    terms = values * weights[None, :]
    return np.sort(terms, axis=1).sum(axis=1)


def exact_int(values) -> np.ndarray:
    """Python integers too large for int64 → int64 dense ranks of the same order."""
    uniq = sorted(set(values))
    rank = {v: i for i, v in enumerate(uniq)}
    return np.array([rank[v] for v in values], dtype=np.int64)
