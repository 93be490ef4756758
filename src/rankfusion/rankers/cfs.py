"""CFS: correlation-based feature subset selection (Hall 2000), exactly as Weka 3.6.

:func:`cfs_subset` reproduces ``weka.attributeSelection.CfsSubsetEval`` (default options)
searched by ``BestFirst -D 1 -N 5``, locally predictive attributes included; the ranker ``cfs``
is the order in which greedy forward search on the same merit adds the features
(docs/design.md, 'Rankers').

Exactness with Weka rests on reproducing its arithmetic, every quirk confirmed against Weka 3.6.14
(the fixtures under ``tests/fixtures/cfs/``):

* numeric attributes are discretised with Fayyad-Irani MDL, better encoding
  (:mod:`rankfusion.rankers.discretize`); an attribute without cuts has the single value "All";
* correlations are symmetric uncertainties ``2 (H(A) + H(B) - H(A, B)) / (H(A) + H(B))`` computed
  with Weka's ``ContingencyTables.symmetricalUncertainty`` loop order on a table with one extra
  row and column for missing values, the missing counts spread over the observed cells in
  proportion to the observed totals: first the missing rows, then the missing columns, then the
  both-missing cell (``CfsSubsetEval.symmUncertCorr``); no spreading when one attribute is
  missing everywhere;
* every correlation is stored as a 32-bit float; a value with ``|SU| < 1e-6`` counts as 0 for an
  attribute-class pair but as **1.0** between two attributes (an attribute with nothing to share
  is treated as fully redundant);
* merit ``|Σ r_cf / sqrt(k + 2 Σ r_ff)|`` summed in attribute order in double precision, 0 for the
  empty set;
* best-first search: the open list holds at most ``max_stale`` (5) subsets ordered by merit, a new
  subset going after those of equal merit and dropped when the list is full and it is no better
  than the last; every child is (re)inserted even when seen before; a forward child is an
  improvement only when it beats the best merit by more than 1e-5 (backward: a higher merit, or
  an equal merit with fewer attributes); the search stops after ``max_stale`` expansions in a row
  without improvement or when the list runs empty;
* locally predictive attributes: the attributes outside the subset are taken in decreasing order
  of class correlation (ties to the lower index) and one is added when no attribute already in
  the (growing) subset correlates with it more than it correlates with the class.

References
----------
M. A. Hall. Correlation-based feature selection for discrete and numeric class machine learning.
ICML 2000, 359-366. M. A. Hall. Correlation-based Feature Subset Selection for Machine Learning.
PhD thesis, University of Waikato, 1999. Weka 3.6 ``CfsSubsetEval`` and ``BestFirst``.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .._utils.constraints import Interval, Options, check_param, validate_params
from .._utils.data import prepare_ranker_data as prepare
from .._utils.jit import compiled_serial, kernel
from .._utils.validation import check_bool
from ._registry import BOOL, register_ranker
from .discretize import discretize, mdl_cut_points
from .discretize import lnf as _lnf_kernel

# the compiled kernel, called from the numba functions below (whether or not discretize's
# kernels were compiled, and their globals rebound, before this module was imported)
lnf = compiled_serial(_lnf_kernel)

__all__ = ["cfs_subset", "cfs", "CFSMerit"]

_DIRECTIONS = ("forward", "backward")


# ----------------------------------------------------------------------------------------------
# symmetric uncertainty, Weka's arithmetic
# ----------------------------------------------------------------------------------------------
@numba.njit(cache=True)
def _eq(a, b):
    # weka.core.Utils.eq
    return a == b or (a - b < 1e-6 and b - a < 1e-6)


@numba.njit(cache=True)
def _su_table(counts):
    # weka.core.ContingencyTables.symmetricalUncertainty, same loop order
    ni, nj = counts.shape
    col_ent = 0.0
    total = 0.0
    for c in range(nj):
        s = 0.0
        for r in range(ni):
            s += counts[r, c]
        col_ent += lnf(s)
        total += s
    col_ent -= lnf(total)
    row_ent = 0.0
    cond = 0.0
    for r in range(ni):
        s = 0.0
        for c in range(nj):
            s += counts[r, c]
            cond += lnf(counts[r, c])
        row_ent += lnf(s)
    cond -= row_ent
    row_ent -= lnf(total)
    gain = col_ent - cond
    if _eq(col_ent, 0.0) or _eq(row_ent, 0.0):
        return 0.0
    return 2.0 * (gain / (col_ent + row_ent))


@numba.njit(cache=True)
def _su_pair(ca, na, cb, nb, with_class, missing_separate):
    """CfsSubsetEval.symmUncertCorr for codes ``ca`` (rows, ``na`` values) and ``cb``."""
    n = ca.shape[0]
    ni = na + 1
    nj = nb + 1
    counts = np.zeros((ni, nj))
    for t in range(n):
        ii = ca[t] if ca[t] >= 0 else ni - 1
        jj = cb[t] if cb[t] >= 0 else nj - 1
        counts[ii, jj] += 1.0
    sumi = np.zeros(ni)
    sumj = np.zeros(nj)
    total = 0.0
    for i in range(ni):
        for j in range(nj):
            sumi[i] += counts[i, j]
            total += counts[i, j]
    for j in range(nj):
        for i in range(ni):
            sumj[j] += counts[i, j]
    if (not missing_separate) and sumi[ni - 1] < n and sumj[nj - 1] < n:
        i_copy = sumi.copy()
        j_copy = sumj.copy()
        counts_copy = counts.copy()
        total_missing = sumi[ni - 1] + sumj[nj - 1] - counts[ni - 1, nj - 1]
        if sumi[ni - 1] > 0.0:
            for j in range(nj - 1):
                if counts[ni - 1, j] > 0.0:
                    for i in range(ni - 1):
                        temp = (i_copy[i] / (total - i_copy[ni - 1])) * counts[ni - 1, j]
                        counts[i, j] += temp
                        sumi[i] += temp
                    counts[ni - 1, j] = 0.0
        sumi[ni - 1] = 0.0
        if sumj[nj - 1] > 0.0:
            for i in range(ni - 1):
                if counts[i, nj - 1] > 0.0:
                    for j in range(nj - 1):
                        temp = (j_copy[j] / (total - j_copy[nj - 1])) * counts[i, nj - 1]
                        counts[i, j] += temp
                        sumj[j] += temp
                    counts[i, nj - 1] = 0.0
        sumj[nj - 1] = 0.0
        if counts[ni - 1, nj - 1] > 0.0 and total_missing != total:
            for i in range(ni - 1):
                for j in range(nj - 1):
                    temp = (counts_copy[i, j] / (total - total_missing)) * counts_copy[
                        ni - 1, nj - 1]
                    counts[i, j] += temp
                    sumi[i] += temp
                    sumj[j] += temp
            counts[ni - 1, nj - 1] = 0.0
    su = _su_table(counts)
    if _eq(su, 0.0):
        return 0.0 if with_class else 1.0
    return su


#: Work (pairs × samples) from which the symmetric uncertainties of a batch of attribute pairs
#: are computed in parallel (docs/design.md, 'Threads'; some 10–50 ms of serial work).
SU_PARALLEL_FROM = 10**7


@kernel(parallel=True, parallel_from=SU_PARALLEL_FROM)
def _su_batch(codes_t, n_values, rows, cols, cls, missing_separate, out):
    for k in numba.prange(rows.shape[0]):
        a = rows[k]
        b = cols[k]
        out[k] = np.float32(_su_pair(codes_t[a], n_values[a], codes_t[b], n_values[b],
                                     a == cls or b == cls, missing_separate))


# ----------------------------------------------------------------------------------------------
# merit, Weka's summation order
# ----------------------------------------------------------------------------------------------
@numba.njit(cache=True)
def _merit(sub, k, corr, cls):
    num = 0.0
    for t in range(k):
        num += np.float64(corr[sub[t], cls])
    denom = 0.0
    for t in range(k):
        i = sub[t]
        denom += 1.0
        for u in range(t):
            denom += 2.0 * np.float64(corr[i, sub[u]])
    if denom < 0.0:
        denom = -denom
    if denom == 0.0:
        return 0.0
    merit = num / math.sqrt(denom)
    if merit < 0.0:
        merit = -merit
    return merit


@numba.njit(cache=True)
def _child_subset(parent, c, forward, buf):
    """Write the sorted subset ``parent ∪ {c}`` (forward) or ``parent \\ {c}`` (backward)
    into ``buf`` (length ``len(parent) + 1``) and return its size; ``parent`` is sorted."""
    k = parent.shape[0]
    m = 0
    if forward:
        placed = False
        for t in range(k):
            if not placed and c < parent[t]:
                buf[m] = c
                m += 1
                placed = True
            buf[m] = parent[t]
            m += 1
        if not placed:
            buf[m] = c
            m += 1
    else:
        for t in range(k):
            if parent[t] != c:
                buf[m] = parent[t]
                m += 1
    return m


@numba.njit(cache=True)
def _children_merits(parent, cands, forward, corr, cls):
    """Merits of ``parent ∪ {c}`` (forward) or ``parent \\ {c}`` (backward) for each ``c``."""
    out = np.empty(cands.shape[0])
    buf = np.empty(parent.shape[0] + 1, dtype=np.int64)
    for u in range(cands.shape[0]):
        m = _child_subset(parent, cands[u], forward, buf)
        out[u] = _merit(buf, m, corr, cls)
    return out


class CFSMerit:
    """Lazily computed CFS correlations of one data set (Weka's ``m_corr_matrix``).

    ``corr[a, b]`` (float32, symmetric) is the symmetric uncertainty of attributes ``a`` and
    ``b``; index ``p`` is the class. A pair is computed the first time it is needed, with the
    first-requested attribute as the table's rows, as Weka does (the orientation decides the
    last bits of the double before the cast to float32).
    """

    def __init__(self, codes: np.ndarray, n_values: np.ndarray, class_codes: np.ndarray,
                 n_classes: int, *, missing_separate: bool = False):
        n, p = codes.shape
        self.p = p
        self.cls = p
        self.codes_t = np.ascontiguousarray(
            np.vstack([codes.T, class_codes[None, :]]).astype(np.int64))
        self.n_values = np.append(np.asarray(n_values, dtype=np.int64), n_classes)
        self.missing_separate = bool(missing_separate)
        self.corr = np.full((p + 1, p + 1), np.nan, dtype=np.float32)
        np.fill_diagonal(self.corr, 1.0)

    def ensure(self, rows: np.ndarray, cols: np.ndarray) -> None:
        """Compute the missing pairs ``(rows[k], cols[k])`` with ``rows[k]`` as table rows."""
        rows = np.asarray(rows, dtype=np.int64)
        cols = np.asarray(cols, dtype=np.int64)
        need = np.isnan(self.corr[rows, cols])
        if not need.any():
            return
        rows, cols = rows[need], cols[need]
        # the same unordered pair requested twice in one batch: keep the first orientation
        key = np.minimum(rows, cols) * (self.p + 1) + np.maximum(rows, cols)
        _, first = np.unique(key, return_index=True)
        first.sort()
        rows, cols = rows[first], cols[first]
        out = np.empty(rows.shape[0], dtype=np.float32)
        _su_batch.run(self.codes_t, self.n_values, rows, cols, self.cls, self.missing_separate,
                      out, work=rows.shape[0] * self.codes_t.shape[1])
        self.corr[rows, cols] = out
        self.corr[cols, rows] = out

    def class_corr(self, idx) -> np.ndarray:
        idx = np.asarray(idx, dtype=np.int64)
        self.ensure(idx, np.full(idx.shape, self.cls))
        return self.corr[idx, self.cls]

    def ensure_search_pairs(self, members: np.ndarray, others: np.ndarray) -> None:
        """Pairs met by ``evaluateSubset``: the larger attribute index is the table's rows."""
        if members.size == 0 or others.size == 0:
            return
        a = np.repeat(others, members.size)
        b = np.tile(members, others.size)
        self.ensure(np.maximum(a, b), np.minimum(a, b))

    def merit(self, subset) -> float:
        sub = np.sort(np.asarray(subset, dtype=np.int64))
        self.class_corr(sub)
        self.ensure_search_pairs(sub, sub)
        return float(_merit(sub, sub.shape[0], self.corr, self.cls))

    def children_merits(self, parent, cands, forward) -> np.ndarray:
        """Merits of the children of ``parent`` (one per candidate), for the search."""
        return _children_merits(parent, cands, forward, self.corr, self.cls)


def _add_to_list(open_list: list, subset: tuple, merit: float, max_size: int) -> None:
    """BestFirst.LinkedList2.addToList: ordered by merit, new after equal, bounded size."""
    size = len(open_list)
    if size == 0:
        open_list.append((subset, merit))
        return
    if merit > open_list[0][1]:
        if size == max_size:
            open_list.pop()
        open_list.insert(0, (subset, merit))
        return
    if size == max_size and merit <= open_list[-1][1]:
        return
    for i in range(size):
        if merit > open_list[i][1]:
            if size == max_size:
                open_list.pop()
            open_list.insert(i, (subset, merit))
            return
        if i == size - 1:
            open_list.append((subset, merit))
            return


def _best_first(ev: CFSMerit, direction: str, max_stale: int):
    p = ev.p
    all_feats = np.arange(p, dtype=np.int64)
    forward = direction == "forward"
    ev.class_corr(all_feats)
    if forward:
        best_group: tuple = ()
        best_size = 0
    else:
        best_group = tuple(range(p))
        best_size = p
    best_merit = ev.merit(best_group)
    open_list: list = [(best_group, best_merit)]
    stale = 0
    while stale < max_stale:
        if not open_list:
            break
        parent, _ = open_list.pop(0)
        parent_arr = np.array(parent, dtype=np.int64)
        size = len(parent)
        in_parent = np.zeros(p, dtype=bool)
        in_parent[parent_arr] = True
        cands = all_feats[~in_parent] if forward else parent_arr
        if cands.size == 0:
            stale += 1
            continue
        ev.ensure_search_pairs(parent_arr, cands if forward else parent_arr)
        merits = ev.children_merits(parent_arr, cands, forward)
        added = False
        child_size = size + 1 if forward else size - 1
        for c, merit in zip(cands.tolist(), merits.tolist()):
            if forward:
                child = tuple(sorted(parent + (c,)))
            else:
                child = tuple(x for x in parent if x != c)
            _add_to_list(open_list, child, merit, max_stale)
            if forward:
                better = (merit - best_merit) > 0.00001
            elif merit == best_merit:
                better = child_size < best_size
            else:
                better = merit > best_merit
            if better:
                added = True
                stale = 0
                best_merit = merit
                best_size = child_size
                best_group = child
        if not added:
            stale += 1
    return best_group, best_merit


def _add_locally_predictive(ev: CFSMerit, best: set) -> set:
    """CfsSubsetEval.addLocallyPredictive (threshold 0)."""
    p = ev.p
    cc = ev.class_corr(np.arange(p))
    tried = set(best)
    while True:
        # best untried attribute by class correlation, ties to the lower index (strict >)
        temp_best = -1.0
        j = -1
        for i in range(p):
            if i not in tried and float(cc[i]) > temp_best:
                temp_best = float(cc[i])
                j = i
        if j < 0:
            break
        tried.add(j)
        ok = True
        for i in range(p):
            if i in best:
                ev.ensure(np.array([i]), np.array([j]))
                if float(ev.corr[i, j]) > temp_best:
                    ok = False
                    break
        if ok:
            best.add(j)
    return best


def _prepare_codes(X, y):
    """MDL codes (n, p), values per attribute, class codes and the number of classes."""
    data, yc, n_classes, n_values = prepare(X, y)
    cuts = mdl_cut_points(X, y)
    codes = np.asarray(discretize(X, cuts), dtype=np.int64)
    nv = np.array([len(c) + 1 if c is not None else int(n_values[j])
                   for j, c in enumerate(cuts)], dtype=np.int64)
    return codes, nv, np.asarray(yc, dtype=np.int64), int(n_classes)


def _prepare_cfs(X, y, missing_separate: bool) -> CFSMerit:
    codes, nv, yc, n_classes = _prepare_codes(X, y)
    return CFSMerit(codes, nv, yc, n_classes, missing_separate=missing_separate)


def cfs_subset(X, y, direction: str = "forward", *, locally_predictive: bool = True,
               max_stale: int = 5, missing_separate: bool = False) -> np.ndarray:
    r"""The feature subset Weka's CfsSubsetEval + BestFirst selects (Hall 2000).

    Merit of a subset :math:`S` of :math:`k` features (Hall 2000, eq. 1, with symmetric
    uncertainty as the correlation on MDL-discretised data):

    .. math:: M_S = \frac{\sum_{f \in S} r_{cf}}{\sqrt{k + 2 \sum_{f < g \in S} r_{fg}}}

    searched best-first (``BestFirst -D 1 -N 5``: forward from the empty set, an open list of 5
    subsets, stop after 5 expansions without an improvement of more than 1e-5), then locally
    predictive attributes are added. All of Weka 3.6's arithmetic and tie rules are reproduced
    (see the module docstring), so the selection equals Weka's.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Numeric attributes (MDL-discretised internally) and nominal ones (categorical / object
        columns); NaN is missing.
    y : array-like of shape (n_samples,)
        Class labels; a pandas categorical's category order is used as Weka uses the ARFF order.
    direction : {"forward", "backward"}, default "forward"
        BestFirst ``-D 1`` (forward) or ``-D 0`` (backward, from all features).
    locally_predictive : bool, default True
        Weka's default; ``False`` is CfsSubsetEval ``-L``.
    max_stale : int, default 5
        BestFirst ``-N``: non-improving expansions before stopping, also the open-list size.
    missing_separate : bool, default False
        CfsSubsetEval ``-M``: missing as a value of its own instead of spread over the others.

    Returns
    -------
    ndarray of int64
        The selected feature indices, sorted.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> cfs_subset(X, y).tolist()
    [2, 3]
    """
    locally_predictive = check_bool(locally_predictive, "locally_predictive")
    missing_separate = check_bool(missing_separate, "missing_separate")
    validate_params(_SEARCH_CONSTRAINTS, {"direction": direction, "max_stale": max_stale})
    ev = _prepare_cfs(X, y, missing_separate)
    group, _ = _best_first(ev, direction, int(max_stale))
    best = set(group)
    if locally_predictive:
        best = _add_locally_predictive(ev, best)
    return np.array(sorted(best), dtype=np.int64)


@numba.njit(cache=True, nogil=True)
def _su_attributes(codes_t, n_values, has_missing, a, b, missing_separate, buf):
    """``_su_pair`` of attributes ``a`` (table rows) and ``b`` with the same result, faster.

    Without missing values nothing is spread, so the table is filled in a reused buffer; an
    attribute with one value has zero entropy, so its SU is 0, stored as 1.0 between
    attributes (exactly what ``_su_pair`` returns); pairs with missing values go to
    ``_su_pair``.
    """
    if has_missing[a] or has_missing[b]:
        return _su_pair(codes_t[a], n_values[a], codes_t[b], n_values[b], False,
                        missing_separate)
    na = n_values[a]
    nb = n_values[b]
    if na == 1 or nb == 1:
        return 1.0
    t = buf[:na + 1, :nb + 1]
    t[:, :] = 0.0
    ca = codes_t[a]
    cb = codes_t[b]
    for s in range(ca.shape[0]):
        t[ca[s], cb[s]] += 1.0
    su = _su_table(t)
    if _eq(su, 0.0):
        return 1.0
    return su


@numba.njit(cache=True, nogil=True)
def _greedy_forward(rcf, codes_t, n_values, has_missing, missing_separate):
    """Greedy forward search on the CFS merit; the correlations with each feature added are
    computed when it is added (the larger attribute index as the table's rows, as Weka).

    Attributes with one value and no missing value (MDL found no cut: most of a microarray)
    are *trivial*: their class correlation is 0 and their correlation with any attribute 1.0,
    so all of them still outside the subset share one merit, and only the lowest-index one
    can win a step; their running redundancy is one number (exactly k after k steps). The
    merits, sums and tie rule (the highest merit, then the lowest index) are those of the
    plain loop over every feature, operation for operation.

    Returns the order of entry and the merit of the subset each feature completed.
    """
    p = rcf.shape[0]
    trivial = np.zeros(p, dtype=np.bool_)
    n_nt = 0
    for j in range(p):
        trivial[j] = n_values[j] == 1 and not has_missing[j]
        if not trivial[j]:
            n_nt += 1
    nt = np.empty(n_nt, dtype=np.int64)
    tr = np.empty(p - n_nt, dtype=np.int64)
    a = 0
    b = 0
    for j in range(p):
        if trivial[j]:
            tr[b] = j
            b += 1
        else:
            nt[a] = j
            a += 1
    alive = np.ones(n_nt, dtype=np.bool_)
    tptr = 0
    red = np.zeros(p)  # Σ_{s in S} r_fs for the non-trivial f
    red_t = 0.0  # the same sum for every trivial f
    order = np.empty(p, dtype=np.int64)
    merits = np.empty(p)
    mx = 1
    for j in range(p):
        if n_values[j] > mx:
            mx = n_values[j]
    buf = np.empty((mx + 1, mx + 1))
    num = 0.0
    pair_sum = 0.0
    for k in range(p):
        best = -1.0
        f = -1
        fq = -1
        for q in range(n_nt):
            if alive[q]:
                c = nt[q]
                denom = (k + 1) + 2.0 * (pair_sum + red[c])
                m = abs((num + rcf[c]) / math.sqrt(denom))
                if m > best or f < 0:
                    best = m
                    f = c
                    fq = q
        if tptr < tr.shape[0]:
            c = tr[tptr]
            denom = (k + 1) + 2.0 * (pair_sum + red_t)
            m = abs((num + rcf[c]) / math.sqrt(denom))
            if f < 0 or m > best or (m == best and c < f):
                best = m
                f = c
                fq = -1
        order[k] = f
        merits[k] = best
        num += rcf[f]
        if fq < 0:  # a trivial feature: 1.0 with every other attribute
            pair_sum += red_t
            tptr += 1
            for q in range(n_nt):
                if alive[q]:
                    red[nt[q]] += 1.0
        else:
            pair_sum += red[f]
            alive[fq] = False
            for q in range(n_nt):
                if alive[q]:
                    r = nt[q]
                    if r > f:
                        su = _su_attributes(codes_t, n_values, has_missing, r, f,
                                            missing_separate, buf)
                    else:
                        su = _su_attributes(codes_t, n_values, has_missing, f, r,
                                            missing_separate, buf)
                    red[r] += np.float64(np.float32(su))
        red_t += 1.0
    return order, merits


_SCORES = ("order", "merit")

#: The ranking form's parameters (docs/design.md, 'Parameters'): declared on its registry
#: entry and checked on every call.
#: The best-first search's own parameters (:func:`cfs_subset`).
_SEARCH_CONSTRAINTS = {"direction": [Options(*_DIRECTIONS)],
                       "max_stale": [Interval("int", 1, None)]}
CFS_CONSTRAINTS = {"missing_separate": [BOOL], "score": [Options(*_SCORES)],
                   "n_steps": [None, Interval("int", 1, None)]}


def _cfs_first_steps(X, y, missing_separate: bool, n_steps: int) -> np.ndarray:
    """The greedy forward search stopped after ``n_steps`` additions (see :func:`cfs`)."""
    check_param("n_steps", n_steps, CFS_CONSTRAINTS["n_steps"])
    ev = _prepare_cfs(X, y, missing_separate)
    p = ev.p
    last = min(int(n_steps), p)
    rcf = ev.class_corr(np.arange(p)).astype(np.float64)
    remaining = np.ones(p, dtype=bool)
    red = np.zeros(p)  # Σ_{s in S} r_fs for every f
    num = 0.0
    pair_sum = 0.0
    scores = np.empty(p)
    for k in range(p):
        cand = np.flatnonzero(remaining)
        denom = (k + 1) + 2.0 * (pair_sum + red[cand])
        merit = np.abs((num + rcf[cand]) / np.sqrt(denom))
        if k == last:  # stop: the rest by the merit of adding each next (stable: lower index)
            order = cand[np.argsort(-merit, kind="stable")]
            scores[order] = p - (k + 1 + np.arange(order.size))
            break
        f = int(cand[int(np.argmax(merit))])
        scores[f] = p - (k + 1)
        remaining[f] = False
        num += rcf[f]
        pair_sum += red[f]
        rest = np.flatnonzero(remaining)
        if rest.size:
            ev.ensure(np.maximum(rest, f), np.minimum(rest, f))
            red[rest] += ev.corr[rest, f].astype(np.float64)
    return scores


@register_ranker("cfs", tags={"allow_nan": True, "greedy": True}, constraints=CFS_CONSTRAINTS)
def cfs(X, y, *, missing_separate: bool = False, score: str = "order",
        n_steps: int | None = None) -> np.ndarray:
    r"""CFS ranking: the order of greedy forward search on the CFS merit (Hall 2000).

    Starting from the empty set, the feature whose addition gives the highest merit
    :math:`M_{S \cup \{f\}}` (same correlations as :func:`cfs_subset`, ties to the lower index)
    is added, until every feature is placed. The merits are updated incrementally (running
    sums of :math:`r_{cf}` and :math:`r_{fg}`), so the whole ranking costs :math:`O(p^2)`
    correlations, each computed once, when the first of its two features enters. This ranking
    form of CFS is what the fuzzy-combination paper's ensembles need (docs/design.md,
    'Rankers'). It equals the order of Weka's ``GreedyStepwise -R -T -1.797e308 -N -1`` search
    with CfsSubsetEval on the 19 files of ``tests/fixtures/cfs/cfs_raw.json`` (Weka reading the
    raw files), up to the first exact tie of the merit, which Weka breaks by rounding and this
    function by the lower index (arrhythmia after 144 places, madelon after 74;
    ``tests/rankers/test_cfs_raw_weka.py``).

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        As :func:`cfs_subset`.
    y : array-like of shape (n_samples,)
        Class labels.
    missing_separate : bool, default False
        CfsSubsetEval ``-M``.
    score : {"order", "merit"}, default "order"
        ``"order"``: ``p − position`` (the first feature added gets ``p − 1``, the last 0).
        ``"merit"``: the merit :math:`M_{S_k}` of the subset :math:`S_k` that the feature
        completed when it entered at step k (in [0, 1] when the correlations are, as here).

    n_steps : int, optional
        Stop the greedy search after that many additions (default: all p steps); the features
        not yet added follow in decreasing order of the merit each would give if added next
        (ties to the lower index). The first ``n_steps`` positions are those of the full
        search; the cost falls to :math:`O(n\_steps \cdot p)` correlations (a top-k CFS
        ranking of microarray data inside cross-validation). Only with ``score="order"``.

    Returns
    -------
    ndarray of float64, shape (n_features,)
        The scores, higher = better for ``"order"``.

    Notes
    -----
    What holds for ``"merit"``: the feature entering at step k has the highest merit among
    the features still outside, so :math:`M_{S_k} \ge M_{S_{k-1} \cup \{g\}}` for every
    feature g entering later. The merits themselves are *not* monotone in k: adding a feature
    that is predictive and not redundant raises the merit, so the first few entering merits
    usually rise before they fall, and ranking the features by ``"merit"`` can differ from the
    order of entry (``"order"``); scale-free aggregation (e.g. min–max normalised scores)
    is where the merit scale is useful.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> cfs(X, y).tolist()  # petal width (3) enters first, then petal length (2)
    [1.0, 0.0, 2.0, 3.0]
    >>> cfs(X, y, score="merit").round(3).tolist()  # {3}: 0.871, {2, 3}: 0.887, …
    [0.83, 0.797, 0.887, 0.871]
    """
    missing_separate = check_bool(missing_separate, "missing_separate")
    check_param("score", score, CFS_CONSTRAINTS["score"])
    missing_separate = bool(missing_separate)
    if n_steps is not None:
        if score != "order":
            raise ValueError("n_steps applies to score='order' only")
        return _cfs_first_steps(X, y, missing_separate, n_steps)
    codes, nv, yc, n_classes = _prepare_codes(X, y)
    p = codes.shape[1]
    codes_t = np.ascontiguousarray(np.vstack([codes.T, yc[None, :]]))
    n_values = np.append(nv, n_classes)
    # class correlations as CFSMerit.class_corr: the attribute as the table's rows
    rcf32 = np.empty(p, dtype=np.float32)
    _su_batch.run(codes_t, n_values, np.arange(p, dtype=np.int64), np.full(p, p, dtype=np.int64),
                  p, missing_separate, rcf32, work=p * codes_t.shape[1])
    rcf = rcf32.astype(np.float64)
    has_missing = (codes_t[:p] < 0).any(axis=1)
    order, merits = _greedy_forward(rcf, codes_t, n_values, has_missing, missing_separate)
    out = np.empty(p)
    if score == "order":
        out[order] = p - 1 - np.arange(p)
    else:
        out[order] = merits
    return out
