"""ReliefF (Kononenko 1994) exactly as Weka 3.6's ``ReliefFAttributeEval``, and the binary
Relief of Kira & Rendell (1992) (docs/design.md, 'Rankers').

ReliefF
-------
For each sampled instance ``R`` (by default every instance, in order) find its ``k`` nearest
hits (same class) and, for every other class ``C``, its ``k`` nearest misses; then for every
attribute ``A``

    W[A] −= Σ_hits diff(A, R, H) / k_hit
    W[A] += Σ_{C ≠ class(R)} P(C) / (1 − P(class(R))) · Σ_misses(C) diff(A, R, M) / k_C

and finally ``W /= m`` (``m`` = number of sampled instances). With two classes the miss factor
is 1. ``k_hit``, ``k_C`` are the numbers of neighbours actually found (fewer than ``k`` in a
small class). With ``weight_by_distance`` the ``j``-th nearest neighbour (0-based) of a class gets
weight ``exp(−(j/σ)²)`` normalised to sum 1 over that class's neighbours, instead of ``1/k``.

``diff``: numeric attributes ``|norm(a) − norm(b)|`` with ``norm(x) = (x − min) / (max − min)``
over the whole data (0 when ``max − min`` is below 1e-6); nominal attributes 0 if equal, else 1.
Missing values as Weka: numeric, both missing → 1, one missing → ``max(norm(v), 1 − norm(v))``
of the observed value ``v``; nominal, either missing → ``1 − 1/n_values`` (``n_values`` = the
number of declared categories). The distance between two instances is the sum of the diffs,
accumulated attribute by attribute in column order — float rounding then decides near-ties
exactly as Weka's loop does.

Neighbour bookkeeping (Weka's ``findKHitMiss``): scan the other instances in order; per class
keep the first ``k``; after that an instance replaces the kept one in the first slot holding the
largest distance, only if strictly closer. Without distance weighting the kept neighbours are
used in slot order; with it, sorted by distance with Weka's quicksort (``Utils.sort``).

With ``n_samples`` the instances are drawn with replacement from ``random_state``; this cannot
reproduce Java's random numbers, so only the default (all instances) equals Weka.

Equality with Weka (docs/design.md, 'Equality with the oracles'): bit-equal on every platform
without ``weight_by_distance`` (the input read exactly, only ``+ − × ÷ |·|`` in Weka's order);
with it, within 4 ulps of 1, because the rank weights are the platform's ``exp`` (Weka's are
Java's ``Math.exp``), whose last bit is not the same everywhere.

An attribute that is missing everywhere scores 0 (docs/design.md, 'Validation': never NaN or
noise) — a deliberate departure from Weka, which gives it rounding noise when hits and misses
balance and clearly non-zero values
when some class has fewer than k + 1 instances (x = 1, 2, 3, 9 with classes a, a, a, b and the
attribute all "?": Weka 0.25). On sparse ARFF rows Weka 3.6 takes an attribute's min and max
from the stored values only, ignoring the implicit zeros; rankfusion reads sparse rows as dense
data, so it equals Weka on the dense form of such a file.

References
----------
Kira, K. & Rendell, L. A. (1992). A practical approach to feature selection. ICML-92, 249–256.
Kononenko, I. (1994). Estimating attributes: analysis and extensions of RELIEF. ECML-94,
171–182.
Robnik-Šikonja, M. & Kononenko, I. (1997). An adaptation of Relief for attribute estimation in
regression. ICML-97, 296–304 (the distance weighting).
Weka 3.6, ``weka.attributeSelection.ReliefFAttributeEval`` (Hall).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .._utils.constraints import Interval, validate_params
from .._utils.data import prepare_ranker_data as prepare
from .._utils.seeding import check_random_state
from .._utils.validation import check_bool, check_positive_int
from ._registry import BOOL, RANDOM_STATE, register_ranker

__all__ = ["relieff", "relief"]

_NUMERIC, _NUMERIC_MISSING, _NOMINAL, _NOMINAL_FULL = 0, 1, 2, 3


@numba.njit(cache=True)
def _diff(kind, nval, a, b):
    if kind == _NOMINAL_FULL:
        return 0.0 if a == b else 1.0
    if kind == _NOMINAL:
        if math.isnan(a) or math.isnan(b):
            return 1.0 - 1.0 / nval
        return 0.0 if int(a) == int(b) else 1.0
    if math.isnan(a) or math.isnan(b):
        if math.isnan(a) and math.isnan(b):
            return 1.0
        d = b if math.isnan(a) else a
        if d < 0.5:
            d = 1.0 - d
        return d
    return abs(a - b)


@numba.njit(cache=True)
def _cswap(arr, index, left, right):
    if arr[index[left]] > arr[index[right]]:
        h = index[left]
        index[left] = index[right]
        index[right] = h


@numba.njit(cache=True)
def _weka_sort(arr):
    """Weka 3.6 ``Utils.sort``: quicksort with median-of-three pivots and swap-sorting of
    2-3 elements; the order it gives to tied distances decides the rank weights of tied
    neighbours. Iterative (an explicit stack: numba's cache cannot hold recursive functions)."""
    index = np.arange(arr.shape[0])
    stack = np.empty((arr.shape[0] + 2, 2), dtype=np.int64)
    top = 0
    if arr.shape[0] > 1:
        stack[0, 0] = 0
        stack[0, 1] = arr.shape[0] - 1
        top = 1
    while top > 0:
        top -= 1
        left = stack[top, 0]
        right = stack[top, 1]
        diff = right - left
        if diff <= 0:
            continue
        if diff == 1:
            _cswap(arr, index, left, right)
            continue
        if diff == 2:
            _cswap(arr, index, left, left + 1)
            _cswap(arr, index, left, right)
            _cswap(arr, index, left + 1, right)
            continue
        c = (left + right) // 2
        _cswap(arr, index, left, c)
        _cswap(arr, index, left, right)
        _cswap(arr, index, c, right)
        h = index[c]
        index[c] = index[right - 1]
        index[right - 1] = h
        pivot = arr[index[right - 1]]
        lo = left
        hi = right - 1
        while True:
            lo += 1
            while arr[index[lo]] < pivot:
                lo += 1
            hi -= 1
            while arr[index[hi]] > pivot:
                hi -= 1
            if lo >= hi:
                break
            h = index[lo]
            index[lo] = index[hi]
            index[hi] = h
        h = index[lo]
        index[lo] = index[right - 1]
        index[right - 1] = h
        # the two halves are disjoint, so the order they are sorted in does not matter
        stack[top, 0] = left
        stack[top, 1] = lo - 1
        top += 1
        stack[top, 0] = lo + 1
        stack[top, 1] = right
        top += 1
    return index


@numba.njit(cache=True)
def _relieff_kernel(V, kinds, nvals, y, n_classes, sample, k, by_distance, sigma, power,
                    class_probs, multiclass):
    n, p = V.shape
    W = np.zeros(p)
    dist = np.empty(n)
    kd = np.zeros((n_classes, k))
    ki = np.zeros((n_classes, k), dtype=np.int64)
    stored = np.zeros(n_classes, dtype=np.int64)
    worst = np.zeros(n_classes, dtype=np.int64)
    rank_w = np.empty(k)
    for r in range(k):
        t = r / sigma
        rank_w[r] = math.exp(-(t * t))
    order = np.empty((n_classes, k), dtype=np.int64)
    norm = np.ones(n_classes)
    for z in sample:
        # distances, attribute by attribute in column order (Weka's summation order)
        for i in range(n):
            dist[i] = 0.0
        for j in range(p):
            vz = V[z, j]
            col = V[:, j]
            if kinds[j] == _NUMERIC:
                if power == 1:
                    for i in range(n):
                        dist[i] += abs(col[i] - vz)
                else:
                    for i in range(n):
                        d = col[i] - vz
                        dist[i] += d * d
            elif kinds[j] == _NOMINAL_FULL:  # codes, none missing: 0/1
                for i in range(n):
                    if col[i] != vz:
                        dist[i] += 1.0
            else:
                for i in range(n):
                    d = _diff(kinds[j], nvals[j], col[i], vz)
                    if power == 1:
                        dist[i] += d
                    else:
                        dist[i] += d * d
        # k nearest per class, Weka's bookkeeping
        for c in range(n_classes):
            stored[c] = 0
            worst[c] = 0
            for s in range(k):
                kd[c, s] = 0.0
                ki[c, s] = 0
        for i in range(n):
            if i == z:
                continue
            c = y[i]
            d = dist[i]
            if stored[c] < k:
                kd[c, stored[c]] = d
                ki[c, stored[c]] = i
                stored[c] += 1
            elif d < kd[c, worst[c]]:
                kd[c, worst[c]] = d
                ki[c, worst[c]] = i
            else:
                continue
            ww = -1.0
            for s in range(stored[c]):
                if kd[c, s] > ww:
                    ww = kd[c, s]
                    worst[c] = s
        # neighbour order and normalisers
        for c in range(n_classes):
            m = stored[c]
            if by_distance:
                idx = _weka_sort(kd[c, :m].copy())
                tot = 0.0
                for s in range(m):
                    order[c, s] = idx[s]
                    tot += rank_w[s]
                norm[c] = tot
            else:
                for s in range(m):
                    order[c, s] = s
        cz = y[z]
        w_norm = 1.0 - class_probs[cz] if multiclass else 1.0
        # hits
        m = stored[cz]
        for s in range(m):
            h = ki[cz, order[cz, s]]
            for j in range(p):
                d = _diff(kinds[j], nvals[j], V[z, j], V[h, j])
                if power == 2:
                    d = d * d
                if by_distance:
                    d *= rank_w[s] / norm[cz]
                else:
                    d /= m
                W[j] -= d
        # misses
        for c in range(n_classes):
            if c == cz:
                continue
            m = stored[c]
            for s in range(m):
                h = ki[c, order[c, s]]
                for j in range(p):
                    d = _diff(kinds[j], nvals[j], V[z, j], V[h, j])
                    if power == 2:
                        d = d * d
                    if by_distance:
                        d *= rank_w[s] / norm[c]
                    else:
                        d /= m
                    if multiclass:
                        W[j] += (class_probs[c] / w_norm) * d
                    else:
                        W[j] += d
    return W


def _prepare_relief(X, y):
    data, yc, n_classes, n_values = prepare(X, y)
    vals = data.values
    n, p = vals.shape
    V = np.empty((n, p), order="F")
    kinds = np.empty(p, dtype=np.int64)
    all_missing = np.isnan(vals).all(axis=0)
    for j in range(p):
        col = vals[:, j]
        if data.nominal[j]:
            V[:, j] = col
            kinds[j] = _NOMINAL if np.isnan(col).any() else _NOMINAL_FULL
            continue
        miss = np.isnan(col)
        kinds[j] = _NUMERIC_MISSING if miss.any() else _NUMERIC
        if miss.all():
            V[:, j] = np.nan
            continue
        lo = np.nanmin(col)
        hi = np.nanmax(col)
        if abs(hi - lo) < 1e-6:  # Weka's Utils.eq(max, min): norm() is 0
            V[:, j] = np.where(miss, np.nan, 0.0)
        else:
            V[:, j] = (col - lo) / (hi - lo)
    nvals = np.maximum(n_values, 1).astype(np.float64)
    return data, V, kinds, nvals, yc, n_classes, all_missing


def _sample(n, n_samples, random_state):
    rng = check_random_state(random_state)  # checked even when unused: a typo still fails
    if n_samples is None:
        return np.arange(n, dtype=np.int64)
    n_samples = check_positive_int(n_samples, name="n_samples")
    if n_samples >= n:  # Weka: more samples than instances means all of them, in order
        return np.arange(n, dtype=np.int64)
    return rng.integers(0, n, size=int(n_samples)).astype(np.int64)


#: ReliefF's parameters (docs/design.md, 'Parameters'): declared on its registry entry and
#: checked here on every call.
RELIEFF_CONSTRAINTS = {
    "n_neighbors": [Interval("int", 1, None)], "n_samples": [None, Interval("int", 1, None)],
    "weight_by_distance": [BOOL], "sigma": [Interval("real", 0, None, closed="neither")],
    "random_state": RANDOM_STATE}


@register_ranker("relieff", aliases=("relief_f",), tags={"allow_nan": True},
                 constraints=RELIEFF_CONSTRAINTS)
def relieff(X, y, *, n_neighbors: int = 10, n_samples: int | None = None,
            weight_by_distance: bool = False, sigma: float = 2,
            random_state=None) -> np.ndarray:
    """ReliefF attribute weights, as Weka 3.6's ``ReliefFAttributeEval`` (Kononenko 1994).

    Parameters
    ----------
    X : array-like or DataFrame, shape (n_samples, n_features)
        Numeric and/or nominal (categorical / object) features; NaN = missing.
    y : array-like, shape (n_samples,)
        Class labels (two or more classes).
    n_neighbors : int, default 10
        ``k`` nearest hits and misses per class (Weka ``-K``).
    n_samples : int, optional
        Number of reference instances drawn with replacement (Weka ``-M``); default all
        instances, in order (the only setting that reproduces Weka exactly).
    weight_by_distance : bool, default False
        Weight neighbours by rank, ``exp(−(j/sigma)²)`` (Weka ``-W``).
    sigma : float, default 2
        Width of the rank weights (Weka ``-A``).
    random_state : int, Generator or None
        Seed for ``n_samples``.

    Returns
    -------
    ndarray of float64, shape (n_features,)
        Weights in [−1, 1]; higher = more relevant. Weka's to the last bit on every platform
        by default; with ``weight_by_distance`` within 4 ulps of 1 (the rank weights are the
        platform's ``exp``; docs/design.md, 'Equality with the oracles').

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"size": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    ...                   "colour": ["red", "red", "blue", "blue", "red", None]})
    >>> relieff(X, ["a", "a", "a", "b", "b", "b"]).round(4)  # Weka 3.6: 0.3333, -0.1667
    array([ 0.3333, -0.1667])
    """
    validate_params(RELIEFF_CONSTRAINTS, {"n_neighbors": n_neighbors, "sigma": sigma})
    weight_by_distance = check_bool(weight_by_distance, "weight_by_distance")
    data, V, kinds, nvals, yc, n_classes, all_missing = _prepare_relief(X, y)
    n = data.n_samples
    sample = _sample(n, n_samples, random_state)
    probs = np.bincount(yc, minlength=n_classes) / n
    W = _relieff_kernel(V, kinds, nvals, yc, n_classes, sample, int(n_neighbors),
                        bool(weight_by_distance), float(sigma), 1, probs, n_classes > 2)
    W *= 1.0 / sample.shape[0]
    W[all_missing] = 0.0
    return W


@register_ranker("relief", tags={"allow_nan": True}, constraints={
    "n_samples": [None, Interval("int", 1, None)], "random_state": RANDOM_STATE})
def relief(X, y, *, n_samples: int | None = None, random_state=None) -> np.ndarray:
    """Relief of Kira & Rendell (1992) for two classes.

    For each reference instance ``R`` (all instances in order by default, or ``n_samples``
    drawn at random) take its nearest hit ``H`` and nearest miss ``M`` under the squared
    Euclidean distance of the per-attribute diffs, and update
    ``W[A] += (diff(A, R, M)² − diff(A, R, H)²) / m``. ``diff`` is ReliefF's (numeric values
    normalised by the range, nominal 0/1; Weka's rules for missing values — the original has
    none). Ties between neighbours go to the earlier instance.

    Parameters
    ----------
    X, y : features and binary class labels (more than two classes → ``ValueError``; use
        :func:`relieff`).
    n_samples : int, optional
        Number of reference instances drawn with replacement; default all of them.
    random_state : int, Generator or None

    Returns
    -------
    ndarray of float64, shape (n_features,)
    """
    data, V, kinds, nvals, yc, n_classes, all_missing = _prepare_relief(X, y)
    if n_classes != 2:
        raise ValueError(f"relief (Kira & Rendell) needs exactly 2 classes, y has {n_classes}; "
                         "use 'relieff' for more")
    sample = _sample(data.n_samples, n_samples, random_state)
    probs = np.bincount(yc, minlength=n_classes) / data.n_samples
    W = _relieff_kernel(V, kinds, nvals, yc, n_classes, sample, 1, False, 2.0, 2, probs, False)
    W *= 1.0 / sample.shape[0]
    W[all_missing] = 0.0
    return W
