"""Supervised MDL discretisation of numeric attributes (Fayyad & Irani 1993), as Weka.

This is the discretisation behind Weka's information-based attribute evaluators
(``InfoGainAttributeEval``, ``GainRatioAttributeEval``, ``SymmetricalUncertAttributeEval``,
``ChiSquaredAttributeEval``, ``CfsSubsetEval``): ``weka.filters.supervised.attribute.Discretize``
with ``useBetterEncoding = true`` and Fayyad–Irani's MDL stopping rule (not Kononenko's).

Algorithm (per numeric attribute, Weka 3.6 ``Discretize.cutPointsForSubset``)
----------------------------------------------------------------------------
Sort the instances by the attribute; instances where it is missing are left out. For a subset
``S`` of ``N`` sorted instances, every boundary between two *different* consecutive values is a
candidate cut ``T`` at the midpoint ``(v_i + v_{i+1}) / 2``. The cut with the lowest class
entropy ``E(A, T; S) = |S1|/N·Ent(S1) + |S2|/N·Ent(S2)`` wins (the *first* one on exact float
ties, scanning from low to high values). It is accepted when

    Gain(A, T; S) > (log2(N_cuts) + Δ(A, T; S)) / N,
    Δ = log2(3^k − 2) − [k·Ent(S) − k1·Ent(S1) − k2·Ent(S2)],

where ``k``, ``k1``, ``k2`` are the numbers of classes present in ``S``, ``S1``, ``S2``. With
Weka's "better encoding" ``N_cuts`` is the number of candidate cuts in ``S`` (distinct-value
boundaries); Fayyad & Irani's original uses ``N − 1`` (``better_encoding=False``). Accepted
cuts split ``S`` and the search recurses into both halves.

The entropies are computed with exactly Weka's floating-point operations
(``ContingencyTables.entropy`` / ``entropyConditionedOnRows``: sums of ``x·ln x`` in class order,
divided by ``total·ln 2``), so near-ties between candidate cuts resolve as they do in Weka; class
codes should follow the order of the class's categories (as in the ARFF header) for that.

References
----------
Fayyad, U. M. & Irani, K. B. (1993). Multi-interval discretization of continuous-valued
attributes for classification learning. IJCAI-93, 1022–1027.
Weka 3.6, ``weka.filters.supervised.attribute.Discretize`` (Witten & Frank).
"""

from __future__ import annotations

import math

import numpy as np

from .._utils.data import check_features, weka_classes
from .._utils.jit import kernel
from .._utils.validation import check_bool

__all__ = ["mdl_cut_points", "discretize"]

_LN2 = math.log(2.0)

#: Work (samples × features) below which the kernels run as plain Python when numba is not
#: loaded yet: cheaper than importing and loading numba (docs/design.md, 'Threads').
_PYTHON_BELOW = 5_000


@kernel(python_below=_PYTHON_BELOW)
def lnf(x):
    # Weka 3.6.14 ContingencyTables.lnFunc (checked with javap): 0 for x <= 0, else x ln x
    if x <= 0.0:
        return 0.0
    return x * math.log(x)


@kernel(python_below=_PYTHON_BELOW)
def _entropy(counts):
    # Weka ContingencyTables.entropy(double[])
    rv = 0.0
    s = 0.0
    for j in range(counts.shape[0]):
        rv -= lnf(counts[j])
        s += counts[j]
    if s - 0.0 < 1e-6 and 0.0 - s < 1e-6:
        return 0.0
    return (rv + lnf(s)) / (s * _LN2)


@kernel(python_below=_PYTHON_BELOW)
def _entropy_rows2(left, right, table):
    # Weka ContingencyTables.entropyConditionedOnRows for a 2-row table of integer counts
    rv = 0.0
    total = 0.0
    s = 0.0
    for j in range(left.shape[0]):
        rv = rv + table[int(left[j])]
        s += left[j]
    rv = rv - table[int(s)]
    total += s
    s = 0.0
    for j in range(right.shape[0]):
        rv = rv + table[int(right[j])]
        s += right[j]
    rv = rv - table[int(s)]
    total += s
    if total - 0.0 < 1e-6 and 0.0 - total < 1e-6:
        return 0.0
    return -rv / (total * _LN2)


@kernel(python_below=_PYTHON_BELOW)
def _mdl_threshold(prior, bl, br, n_inst, n_cuts, prior_ent):
    """Fayyad & Irani's (1993) MDL threshold ``(log2(N_cuts) + Δ) / N`` for the cut that
    splits the class counts ``prior`` into ``bl`` and ``br``."""
    k = 0
    k1 = 0
    k2 = 0
    for j in range(prior.shape[0]):
        if prior[j] > 0:
            k += 1
        if bl[j] > 0:
            k1 += 1
        if br[j] > 0:
            k2 += 1
    ent_l = _entropy(bl)
    ent_r = _entropy(br)
    delta = math.log(3.0 ** k - 2.0) / _LN2 - (k * prior_ent - k2 * ent_r - k1 * ent_l)
    return (math.log(float(n_cuts)) / _LN2 + delta) / n_inst


@kernel(python_below=_PYTHON_BELOW)
def _fayyad_irani(prior, bl, br, n_inst, n_cuts, table):
    """Whether the cut is accepted: its gain *strictly* above the MDL threshold (Fayyad &
    Irani 1993, eq. of the MDLP criterion; Weka's ``FayyadAndIranisMDL`` uses ``>`` too), so
    a gain exactly on the threshold is refused."""
    prior_ent = _entropy(prior)
    gain = prior_ent - _entropy_rows2(bl, br, table)
    return gain > _mdl_threshold(prior, bl, br, n_inst, n_cuts, prior_ent)


@kernel(python_below=_PYTHON_BELOW)
def _column_cuts(v, yc, n_classes, better, out, table):
    """Cut points of one column; ``v`` sorted non-missing values, ``yc`` their classes.
    Writes the cuts (unsorted) into ``out`` and returns how many."""
    n = v.shape[0]
    n_out = 0
    stack = np.empty((n + 2, 2), dtype=np.int64)
    top = 0
    stack[0, 0] = 0
    stack[0, 1] = n
    top = 1
    prior = np.zeros(n_classes)
    left = np.zeros(n_classes)
    right = np.zeros(n_classes)
    bl = np.zeros(n_classes)
    br = np.zeros(n_classes)
    while top > 0:
        top -= 1
        first = stack[top, 0]
        last = stack[top, 1]
        if last - first < 2:
            continue
        for c in range(n_classes):
            prior[c] = 0.0
            left[c] = 0.0
        for i in range(first, last):
            prior[yc[i]] += 1.0
        for c in range(n_classes):
            right[c] = prior[c]
        prior_ent = _entropy(prior)
        best = prior_ent
        best_i = -1
        n_cuts = 0
        for i in range(first, last - 1):
            c = yc[i]
            left[c] += 1.0
            right[c] -= 1.0
            if v[i] < v[i + 1]:
                e = _entropy_rows2(left, right, table)
                if e < best:
                    best = e
                    best_i = i
                    for cc in range(n_classes):
                        bl[cc] = left[cc]
                        br[cc] = right[cc]
                n_cuts += 1
        if not better:
            n_cuts = last - first - 1
        if prior_ent - best <= 0:
            continue
        if _fayyad_irani(prior, bl, br, float(last - first), n_cuts, table):
            out[n_out] = (v[best_i] + v[best_i + 1]) / 2.0
            n_out += 1
            stack[top, 0] = first
            stack[top, 1] = best_i + 1
            top += 1
            stack[top, 0] = best_i + 1
            stack[top, 1] = last
            top += 1
    return n_out


@kernel(python_below=_PYTHON_BELOW)
def _all_cuts(values_t, order_t, n_valid, yc, n_classes, better, cuts_t, n_cuts):
    # values_t, order_t: (p, n) C-contiguous, one row per feature
    n = values_t.shape[1]
    table = np.empty(n + 1)
    for k in range(n + 1):
        table[k] = lnf(float(k))
    v = np.empty(n)
    c = np.empty(n, dtype=np.int64)
    for j in range(values_t.shape[0]):
        m = n_valid[j]
        for i in range(m):
            r = order_t[j, i]
            v[i] = values_t[j, r]
            c[i] = yc[r]
        n_cuts[j] = _column_cuts(v[:m], c[:m], n_classes, better, cuts_t[j], table)


def mdl_cuts_values(values: np.ndarray, y: np.ndarray, n_classes: int,
                     numeric: np.ndarray, better_encoding: bool = True) -> list:
    """Cut points for validated data: ``values`` float (n, p) with NaN missing, ``y`` class
    codes; nominal columns (``numeric`` False) get ``None``."""
    n, p = values.shape
    cols = np.flatnonzero(numeric)
    out: list = [None] * p
    if cols.size == 0:
        return out
    sub_t = np.ascontiguousarray(values[:, cols].T)  # one row per feature
    # the order inside runs of equal values does not matter (cuts fall between distinct
    # values), so the fast unstable sort is fine; NaN sorts last
    order_t = np.argsort(sub_t, axis=1)
    n_valid = (~np.isnan(sub_t)).sum(axis=1).astype(np.int64)
    cuts_t = np.empty((cols.size, max(n, 1)))
    n_cuts = np.zeros(cols.size, dtype=np.int64)
    _all_cuts.run(sub_t, order_t, n_valid, np.ascontiguousarray(y, dtype=np.int64),
                  int(n_classes), bool(better_encoding), cuts_t, n_cuts, work=n * cols.size)
    for k, j in enumerate(cols):
        out[j] = np.sort(cuts_t[k, : n_cuts[k]])
    return out


def mdl_cut_points(X, y, *, better_encoding: bool = True) -> list:
    """Fayyad–Irani MDL cut points of every numeric feature, as Weka's supervised Discretize.

    Parameters
    ----------
    X : array-like or DataFrame, shape (n_samples, n_features)
        Numeric features (NaN = missing, left out of the search). DataFrame columns that are
        categorical / object are nominal and get ``None``.
    y : array-like, shape (n_samples,)
        Class labels (ints, strings or a pandas categorical; a categorical's category order is
        used as Weka uses the ARFF declaration order).
    better_encoding : bool, default True
        Weka's ``-E``: the MDL cost counts only the distinct-value boundaries as candidate cuts
        (Weka's attribute evaluators use this); ``False`` is Fayyad & Irani's ``N − 1``.

    Returns
    -------
    list of ndarray (or None)
        Per feature, its cut points in increasing order (an empty array when no cut is
        accepted); ``None`` for a nominal feature.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0]])
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> mdl_cut_points(X, y)
    [array([4.5])]
    """
    better_encoding = check_bool(better_encoding, "better_encoding")
    values, nominal, _, _ = check_features(X)
    yc, n_classes = weka_classes(y, values.shape[0])
    return mdl_cuts_values(values, yc, n_classes, ~nominal, better_encoding)


@kernel(python_below=_PYTHON_BELOW)
def _codes_kernel(values, flat, start, nominal, codes):
    n, p = values.shape
    for i in range(n):
        for j in range(p):
            v = values[i, j]
            if math.isnan(v):
                codes[i, j] = -1
            elif nominal[j]:
                codes[i, j] = int(v)
            else:
                # Weka: the first interval whose cut point is >= the value
                lo = start[j]
                hi = start[j + 1]
                while lo < hi:
                    mid = (lo + hi) // 2
                    if flat[mid] < v:
                        lo = mid + 1
                    else:
                        hi = mid
                codes[i, j] = lo - start[j]


def discretize_values(values: np.ndarray, cut_points) -> np.ndarray:
    p = values.shape[1]
    nominal = np.array([c is None for c in cut_points], dtype=np.bool_)
    sizes = np.array([0 if c is None else len(c) for c in cut_points], dtype=np.int64)
    start = np.zeros(p + 1, dtype=np.int64)
    np.cumsum(sizes, out=start[1:])
    flat = np.concatenate([np.asarray(c, dtype=np.float64).reshape(-1) for c in cut_points
                           if c is not None] or [np.empty(0)])
    codes = np.empty(values.shape, dtype=np.int64)
    _codes_kernel.run(np.ascontiguousarray(values, dtype=np.float64), flat, start, nominal, codes,
                      work=codes.size)
    return codes


def discretize(X, cut_points) -> np.ndarray:
    """Interval codes of ``X`` under ``cut_points`` (from :func:`mdl_cut_points`).

    A value ``v`` goes to interval ``j`` = the number of cut points strictly below ``v``
    (Weka: the first interval whose upper cut point is ``>= v``). A feature whose entry is
    ``None`` is nominal and keeps its category codes.

    Returns
    -------
    ndarray of int64, shape (n_samples, n_features)
        Codes ``0 .. len(cuts)``; ``-1`` marks a missing value.
    """
    values, _, _, _ = check_features(X)
    cut_points = list(cut_points)
    if len(cut_points) != values.shape[1]:
        raise ValueError(f"cut_points has {len(cut_points)} entries but X has "
                         f"{values.shape[1]} features")
    clean = []
    for j, c in enumerate(cut_points):
        if c is None:
            clean.append(None)
            continue
        arr = np.asarray(c, dtype=np.float64).reshape(-1)
        if np.isnan(arr).any():
            raise ValueError(f"cut_points[{j}] contains NaN")
        clean.append(np.sort(arr))
    return discretize_values(values, clean)
