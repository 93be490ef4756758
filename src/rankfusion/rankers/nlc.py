"""NLC: the number of label changes along each feature's projection (Ruiz et al. 2003).

Sort the examples by one attribute and walk the sorted sequence counting how often the class label
changes; an attribute whose projection separates the classes into few pure intervals has a small
count and is relevant. The exact definition (ties ordered for the most changes) is in
:func:`label_changes`.
"""

from __future__ import annotations

import numba
import numpy as np

from .._utils.data import check_classification_data
from ._registry import register_ranker

__all__ = ["label_changes", "nlc"]


def label_changes(X, y) -> np.ndarray:
    r"""Number of label changes (NLC) of each feature, with ties ordered for the most changes.

    For attribute :math:`j` the examples are sorted by their value of :math:`j` and the number of
    positions :math:`t` with :math:`y_{(t)} \ne y_{(t+1)}` is counted (Ruiz, Riquelme & Aguilar-Ruiz
    2003, §3.3, Tables 1-2). Inside a *run* of equal values (the paper's "subsequence of the same
    value", Definition 5) the examples are put in the order giving the **largest number of changes
    counted over the whole sequence** -- the run joined to its neighbours -- so the count never
    depends on the sort order (docs/design.md, 'Rankers').

    The maximum is computed exactly, in :math:`O(n \log n)` per feature (each class's values
    sorted with :func:`numpy.sort`, then merged into runs with their class counts) plus a pass
    linear in :math:`n`:

    * A run holding :math:`m` examples with class counts :math:`c_x`, arranged to start with label
      :math:`a` and end with label :math:`b`, has at most

      .. math:: m - 1 - \max\bigl(0,\ \max_x (2 c_x - m - 1 + [a \ne x] + [b \ne x])\bigr)

      internal changes (feasible when :math:`c_a, c_b \ge 1`, :math:`c_a \ge 2` if :math:`a = b`
      and :math:`m \ge 2`, and :math:`a = b` if :math:`m = 1`). Proof: an arrangement with
      :math:`B` maximal blocks of equal labels has :math:`B - 1` changes; class :math:`x` split into
      :math:`b_x \le c_x` blocks needs at least :math:`b_x - 1 + [a \ne x] + [b \ne x]` blocks of
      other classes around and between them, which bounds :math:`b_x \le m - c_x + 1 - [a \ne x] -
      [b \ne x]`; at most one class can be bound this way and the bound is attained by placing the
      other labels one per gap. (The test suite checks the formula against every permutation.)
    * The runs interact only through the label of a run's first element and the last element of
      the run before it (one change if they differ). A dynamic programme over the runs whose state
      is the label ending the run so far, ``best[b] = max_a (enter(a) + internal(a, b))`` with
      ``enter(a) = max_l (best_prev[l] + [l != a])``, therefore gives the exact maximum over every
      order of every run at once.

    Departures from the paper (docs/design.md, 'Departures from the papers and reference
    tools'): the paper prints 87, 120, 19, 16 for iris, above the maximum that any order of the
    tied values allows, and its own example contradicts itself
    ("[O,E,O,E,O,E,O] ... returns 5"; that sequence has 6 changes); we count exactly as defined
    above. Scikit-learn's iris gives 76, 113, 16, 14.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Numeric attributes are sorted by value; nominal attributes (pandas categorical / object
        columns) are projected in category order. Missing values (NaN) are left out of that
        feature's sequence.
    y : array-like of shape (n_samples,)
        Class labels.

    Returns
    -------
    ndarray of int64, shape (n_features,)
        The NLC of each feature (smaller = more relevant). A feature with no observed value has 0.

    References
    ----------
    R. Ruiz, J. C. Riquelme, J. S. Aguilar-Ruiz. NLC: a measure based on projections. DEXA 2003,
    LNCS 2736, pp. 907-916.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0], [4.0, 0.0]])
    >>> label_changes(X, [0, 0, 1, 1]).tolist()
    [1, 3]
    """
    data = check_classification_data(X, y)
    return _label_changes_values(data.values, data.y, data.n_classes)


def _label_changes_values(values: np.ndarray, y: np.ndarray, n_classes: int) -> np.ndarray:
    """NLC of every column of a validated float matrix (NaN = missing) for class codes ``y``.

    The values of each class are sorted separately (``numpy.sort``, NaN last) and merged per
    feature: equal heads form a run, whose class counts are all the dynamic programme needs
    (the order inside a run is irrelevant by construction). ``y`` holds the int64 codes
    0 … n_classes − 1 of a validated target, each of which occurs.
    """
    # any order of the rows within a class will do: each class's block is sorted right after
    by_class = np.argsort(y)
    merged = np.ascontiguousarray(values[by_class].T)  # (p, n): classes in consecutive blocks
    sizes = np.bincount(y)  # n_classes counts: every code occurs
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    n_obs = np.empty((merged.shape[0], n_classes), dtype=np.int64)
    for c in range(n_classes):
        block = merged[:, starts[c]:starts[c + 1]]
        block.sort(axis=1)  # in place, NaN last
        n_obs[:, c] = sizes[c] - np.isnan(block).sum(axis=1)
    return _nlc_kernel(merged, starts, n_obs, int(n_classes))


@register_ranker("nlc", aliases=("label_changes",), constraints={}, tags={"allow_nan": True})
def nlc(X, y) -> np.ndarray:
    """NLC ranker: score = -NLC (higher = fewer label changes = more relevant).

    The sign convention: docs/design.md, 'Scores and positions'.

    A constant feature gets the largest possible count (every order of the whole sample is
    allowed) and therefore ranks last. A feature with fewer than two observed values has no
    sequence at all (its count is 0): it scores ``-n``, below any count a feature can reach
    (at most n − 1), so it ranks last too rather than first. Counts of features with very
    different numbers of missing values are not comparable (fewer values, fewer changes).
    The raw counts are :func:`label_changes`.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Features, numeric or nominal; NaN for missing values.
    y : array-like of shape (n_samples,)
        Class labels.

    Returns
    -------
    ndarray of float64, shape (n_features,)
        Minus the number of label changes of each feature.
    """
    counts = label_changes(X, y)
    data = check_classification_data(X, y)
    observed = (~np.isnan(data.values)).sum(axis=0)
    score = 0.0 - counts.astype(np.float64)  # 0.0 - … : no negative zeros in the output
    score[observed < 2] = -float(data.n_samples)
    return score


@numba.njit(cache=True)
def _internal_max(cnt, pres, q, m, a, b):
    """Max changes inside a run of ``m`` examples (class counts ``cnt`` over the ``q`` present
    classes ``pres``) that starts with label ``a`` and ends with ``b``; -1 when infeasible."""
    if m == 1:
        return 0 if a == b else -1
    if a == b and cnt[a] < 2:
        return -1
    excess = 0
    for t in range(q):
        x = pres[t]
        e = 2 * cnt[x] - m - 1
        if a != x:
            e += 1
        if b != x:
            e += 1
        if e > excess:
            excess = e
    return m - 1 - excess


@numba.njit(cache=True)
def _nlc_kernel(merged, starts, n_obs, n_classes):
    p = merged.shape[0]
    out = np.zeros(p, dtype=np.int64)
    cnt = np.zeros(n_classes, dtype=np.int64)
    pres = np.empty(n_classes, dtype=np.int64)
    head = np.empty(n_classes, dtype=np.int64)
    prev_lab = np.empty(n_classes, dtype=np.int64)
    prev_val = np.empty(n_classes, dtype=np.int64)
    new_lab = np.empty(n_classes, dtype=np.int64)
    new_val = np.empty(n_classes, dtype=np.int64)
    enter = np.empty(n_classes, dtype=np.int64)
    neg = -(1 << 60)
    for j in range(p):
        for c in range(n_classes):
            head[c] = starts[c]
        n_prev = 0  # number of states (labels that can end the sequence so far)
        while True:
            # the next run: the smallest head value over the classes, and its class counts
            found = False
            v = 0.0
            for c in range(n_classes):
                if head[c] < starts[c] + n_obs[j, c]:
                    h = merged[j, head[c]]
                    if not found or h < v:
                        v = h
                        found = True
            if not found:
                break
            q = 0
            m = 0
            for c in range(n_classes):
                end = starts[c] + n_obs[j, c]
                k = 0
                while head[c] < end and merged[j, head[c]] == v:
                    head[c] += 1
                    k += 1
                if k > 0:
                    cnt[c] = k
                    pres[q] = c
                    q += 1
                    m += k
            # top two states of the previous prefix (value, label)
            b1v = neg
            b1l = -1
            b2v = neg
            for u in range(n_prev):
                val = prev_val[u]
                if val > b1v:
                    b2v = b1v
                    b1v = val
                    b1l = prev_lab[u]
                elif val > b2v:
                    b2v = val
            # enter(a): best prefix value + change at the boundary into label a
            for u in range(q):
                a = pres[u]
                if n_prev == 0:
                    enter[u] = 0
                else:
                    same = neg
                    for w in range(n_prev):
                        if prev_lab[w] == a:
                            same = prev_val[w]
                    other = b2v if b1l == a else b1v
                    e = same
                    if other > neg and other + 1 > e:
                        e = other + 1
                    enter[u] = e
            n_new = 0
            for w in range(q):
                b = pres[w]
                best = neg
                for u in range(q):
                    inner = _internal_max(cnt, pres, q, m, pres[u], b)
                    if inner >= 0 and enter[u] > neg:
                        val = enter[u] + inner
                        if val > best:
                            best = val
                if best > neg:
                    new_lab[n_new] = b
                    new_val[n_new] = best
                    n_new += 1
            for u in range(n_new):
                prev_lab[u] = new_lab[u]
                prev_val[u] = new_val[u]
            n_prev = n_new
            for u in range(q):
                cnt[pres[u]] = 0
        best = 0
        for u in range(n_prev):
            if prev_val[u] > best:
                best = prev_val[u]
        out[j] = best
    return out
