"""RReliefF (Robnik-Šikonja & Kononenko 1997) exactly as Weka 3.6's ``ReliefFAttributeEval``
with a numeric class (docs/design.md, 'Tasks').

For each sampled instance ``R`` (by default every instance, in order) find its ``k`` nearest
neighbours ``I_j`` among all other instances (one pool: there are no classes) and accumulate,
with ``w_j = 1/k`` (or the rank weights ``exp(−(j/σ)²)`` normalised to sum 1 when
``weight_by_distance``)

    N_dC     += d(τ(R), τ(I_j)) · w_j
    N_dA[A]  += diff(A, R, I_j) · w_j
    N_dCdA[A] += d(τ(R), τ(I_j)) · diff(A, R, I_j) · w_j

then ``W[A] = N_dCdA[A] / N_dC − (N_dA[A] − N_dCdA[A]) / (m − N_dC)`` (``m`` = number of sampled
instances). ``d(τ(R), τ(I))`` is the range-normalised difference of the targets,
``|τ(R) − τ(I)| / (max τ − min τ)``. ``diff``, the distance (sum of the diffs in column order),
the missing-value rules and the neighbour bookkeeping are those of
:func:`~rankfusion.rankers.relieff` (Weka's), so the scores equal Weka's; the products are
formed in Weka's order (``(d(τ) · diff) · w_j``). Equality with Weka (docs/design.md,
'Equality with the oracles'): bit-equal on every platform with ``w_j = 1/k``; within 4 ulps of
1 with ``weight_by_distance``, whose rank weights are the platform's ``exp`` (Weka's are
Java's ``Math.exp``).

References
----------
Robnik-Šikonja, M. & Kononenko, I. (1997). An adaptation of Relief for attribute estimation in
regression. ICML-97, 296–304.
Weka 3.6, ``weka.attributeSelection.ReliefFAttributeEval`` (Hall), numeric class.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .._utils.constraints import validate_params
from .._utils.data import check_features, rescale_extreme_columns
from .._utils.task import check_regression_target
from .._utils.validation import check_bool
from ._registry import register_ranker
from .relief import (
    _NOMINAL,
    _NOMINAL_FULL,
    _NUMERIC,
    _NUMERIC_MISSING,
    RELIEFF_CONSTRAINTS,
    _diff,
    _sample,
    _weka_sort,
)

__all__ = ["rrelieff"]


@numba.njit(cache=True)
def _rrelieff_kernel(V, kinds, nvals, t, sample, k, by_distance, sigma):
    n, p = V.shape
    ndc = 0.0
    nda = np.zeros(p)
    ndcda = np.zeros(p)
    dist = np.empty(n)
    kd = np.zeros(k)
    ki = np.zeros(k, dtype=np.int64)
    rank_w = np.empty(k)
    for r in range(k):
        q = r / sigma
        rank_w[r] = math.exp(-(q * q))
    order = np.empty(k, dtype=np.int64)
    for z in sample:
        for i in range(n):
            dist[i] = 0.0
        for j in range(p):
            vz = V[z, j]
            col = V[:, j]
            if kinds[j] == _NUMERIC:
                for i in range(n):
                    dist[i] += abs(col[i] - vz)
            elif kinds[j] == _NOMINAL_FULL:
                for i in range(n):
                    if col[i] != vz:
                        dist[i] += 1.0
            else:
                for i in range(n):
                    dist[i] += _diff(kinds[j], nvals[j], col[i], vz)
        stored = 0
        worst = 0
        for s in range(k):
            kd[s] = 0.0
            ki[s] = 0
        for i in range(n):
            if i == z:
                continue
            d = dist[i]
            if stored < k:
                kd[stored] = d
                ki[stored] = i
                stored += 1
            elif d < kd[worst]:
                kd[worst] = d
                ki[worst] = i
            else:
                continue
            ww = -1.0
            for s in range(stored):
                if kd[s] > ww:
                    ww = kd[s]
                    worst = s
        norm = 1.0
        if by_distance:
            idx = _weka_sort(kd[:stored].copy())
            norm = 0.0
            for s in range(stored):
                order[s] = idx[s]
                norm += rank_w[s]
        else:
            for s in range(stored):
                order[s] = s
        for s in range(stored):
            h = ki[order[s]]
            dc = abs(t[z] - t[h])
            if by_distance:
                wgt = rank_w[s] / norm
            else:
                wgt = 1.0 / stored
            ndc += dc * wgt
            for j in range(p):
                d = _diff(kinds[j], nvals[j], V[z, j], V[h, j])
                ndcda[j] += (dc * d) * wgt
                nda[j] += d * wgt
    return ndc, nda, ndcda


def _prepare(X):
    values, nominal, categories, _ = check_features(X)
    values, _ = rescale_extreme_columns(values, nominal)
    n, p = values.shape
    V = np.empty((n, p), order="F")
    kinds = np.empty(p, dtype=np.int64)
    all_missing = np.isnan(values).all(axis=0)
    for j in range(p):
        col = values[:, j]
        miss = np.isnan(col)
        if nominal[j]:
            V[:, j] = col
            kinds[j] = _NOMINAL if miss.any() else _NOMINAL_FULL
            continue
        kinds[j] = _NUMERIC_MISSING if miss.any() else _NUMERIC
        if miss.all():
            V[:, j] = np.nan
            continue
        lo, hi = np.nanmin(col), np.nanmax(col)
        if abs(hi - lo) < 1e-6:  # Weka's Utils.eq(max, min): norm() is 0
            V[:, j] = np.where(miss, np.nan, 0.0)
        else:
            V[:, j] = (col - lo) / (hi - lo)
    n_values = np.array([0 if c is None else len(c) for c in categories], dtype=np.float64)
    return V, kinds, np.maximum(n_values, 1.0), all_missing


@register_ranker("rrelieff", aliases=("relieff_regression",),
                 tags={"allow_nan": True, "tasks": ("regression",)},
                 constraints=RELIEFF_CONSTRAINTS)
def rrelieff(X, y, *, n_neighbors: int = 10, n_samples: int | None = None,
             weight_by_distance: bool = False, sigma: float = 2,
             random_state=None) -> np.ndarray:
    """RReliefF attribute weights for a numeric target, as Weka 3.6's ``ReliefFAttributeEval``
    with a numeric class (Robnik-Šikonja & Kononenko 1997).

    ``W[A] = N_dCdA[A] / N_dC − (N_dA[A] − N_dCdA[A]) / (m − N_dC)``: the estimated probability
    that ``A`` differs given that the targets differ, minus that given they do not (see the
    module docstring for the sums).

    Parameters
    ----------
    X : array-like or DataFrame, shape (n_samples, n_features)
        Numeric and/or nominal features; NaN = missing (Weka's rules).
    y : array-like, shape (n_samples,)
        The numeric target (finite, not constant).
    n_neighbors : int, default 10
        ``k`` nearest neighbours (Weka ``-K``).
    n_samples : int, optional
        Number of reference instances drawn with replacement (Weka ``-M``); default all
        instances, in order (the only setting that reproduces Weka exactly).
    weight_by_distance : bool, default False
        Weight the ``j``-th nearest neighbour by ``exp(−(j/sigma)²)`` (Weka ``-W``).
    sigma : float, default 2
        Width of the rank weights (Weka ``-A``).
    random_state : int, Generator or None
        Seed for ``n_samples``.

    Returns
    -------
    ndarray of float64, shape (n_features,)
        Higher = more relevant. A feature missing everywhere scores 0. Weka's to the last
        bit on every platform by default; with ``weight_by_distance`` within 4 ulps of 1
        (docs/design.md, 'Equality with the oracles').

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.random((60, 3))
    >>> s = rrelieff(X, 4 * X[:, 0] + 0.1 * X[:, 2])
    >>> int(np.argmax(s))
    0
    """
    validate_params(RELIEFF_CONSTRAINTS, {"n_neighbors": n_neighbors, "sigma": sigma})
    weight_by_distance = check_bool(weight_by_distance, "weight_by_distance")
    V, kinds, nvals, all_missing = _prepare(X)
    n = V.shape[0]
    t = check_regression_target(y, n, name="y")
    t = (t - t.min()) / (t.max() - t.min()) if t.max() - t.min() >= 1e-6 else np.zeros(n)
    sample = _sample(n, n_samples, random_state)
    ndc, nda, ndcda = _rrelieff_kernel(V, kinds, nvals, t, sample, int(n_neighbors),
                                       bool(weight_by_distance), float(sigma))
    m = float(sample.shape[0])
    with np.errstate(divide="ignore", invalid="ignore"):
        W = ndcda / ndc - (nda - ndcda) / (m - ndc)
    W = np.nan_to_num(W, nan=0.0, posinf=0.0, neginf=0.0)
    W[all_missing] = 0.0
    return W
