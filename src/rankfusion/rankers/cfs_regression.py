"""CFS with a numeric class (Hall 2000), exactly as Weka 3.6's ``CfsSubsetEval`` + ``BestFirst``
(docs/design.md, 'Tasks').

With a numeric class Weka does not discretise; the correlations are (Weka's ``num_num``,
``num_nom2``, ``nom_nom``):

* numeric–numeric: ``|r|``, Pearson's correlation with a missing value replaced by the mean;
* nominal–numeric: ``Σ_v p_v |r(1[x = v], z)|``, the indicator of each value ``v`` correlated
  with the numeric one, weighted by the value's frequency ``p_v`` (a missing nominal value
  counts as the mode);
* nominal–nominal: ``Σ_{v,w} p_{vw} |r(1[x = v], 1[x' = w])|``;

a level with zero variance contributes 1 (maximally redundant) between two attributes and 0
with the class; a correlation of exactly 0 between two attributes becomes 1. Each correlation
is stored as a 32-bit float. The merit weights each attribute by its standard deviation
``σ_i`` (population; for a nominal attribute ``sqrt(Σ_v p_v · var(1[x = v]))``; 1 for a constant
one):

    M_S = |Σ_{i∈S} σ_i r_ic| / sqrt(|Σ_{i∈S} (σ_i² + 2 Σ_{j∈S, j<i} σ_i σ_j r_ij)|)

summed in attribute order in double precision. The search (best first, open list of 5, stop
after 5 expansions without an improvement above 1e-5) and the locally predictive attributes
are those of :func:`~rankfusion.rankers.cfs_subset`.

References
----------
M. A. Hall. Correlation-based feature selection for discrete and numeric class machine learning.
ICML 2000, 359-366. Weka 3.6 ``CfsSubsetEval`` and ``BestFirst``.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from .._utils.constraints import validate_params
from .._utils.task import check_regression_data
from .._utils.validation import check_bool
from ._registry import register_ranker
from .cfs import _SEARCH_CONSTRAINTS, _add_locally_predictive, _best_first, _child_subset

__all__ = ["cfs_subset_regression", "cfs_regression"]


def _seq(a: np.ndarray) -> float:
    """The sum of ``a`` added left to right (Java's loop; numpy's sum is pairwise)."""
    return float(np.cumsum(a)[-1]) if a.shape[0] else 0.0


@numba.njit(cache=True)
def _merit_w(sub, k, corr, cls, sd):
    num = 0.0
    for t in range(k):
        i = sub[t]
        num += sd[i] * np.float64(corr[i, cls])
    denom = 0.0
    for t in range(k):
        i = sub[t]
        denom += 1.0 * sd[i] * sd[i]
        for u in range(t):
            j = sub[u]
            denom += 2.0 * sd[i] * sd[j] * np.float64(corr[i, j])
    if denom < 0.0:
        denom = -denom
    if denom == 0.0:
        return 0.0
    merit = num / math.sqrt(denom)
    if merit < 0.0:
        merit = -merit
    return merit


@numba.njit(cache=True)
def _children_merits_w(parent, cands, forward, corr, cls, sd):
    out = np.empty(cands.shape[0])
    buf = np.empty(parent.shape[0] + 1, dtype=np.int64)
    for u in range(cands.shape[0]):
        m = _child_subset(parent, cands[u], forward, buf)
        out[u] = _merit_w(buf, m, corr, cls, sd)
    return out


class NumericCFSMerit:
    """Lazily computed correlations of Weka's numeric-class CFS (the interface of
    :class:`~rankfusion.rankers.cfs.CFSMerit`, so its search runs unchanged)."""

    def __init__(self, values, nominal, n_values, target):
        n, p = values.shape
        self.p = p
        self.cls = p
        self.n = n
        self.cols = []  # per attribute (and the class): ("num", centred values) or ("nom", ind)
        self.sd = np.ones(p + 1)
        for j in range(p):
            col = values[:, j]
            miss = np.isnan(col)
            if nominal[j]:
                codes = col.copy()
                nv = int(n_values[j])
                counts = np.bincount(codes[~miss].astype(np.int64), minlength=nv)
                mode = int(np.argmax(counts)) if (~miss).any() else 0
                codes[miss] = mode
                codes = codes.astype(np.int64)
                self.cols.append(("nom", self._indicators(codes, nv)))
            else:
                obs = col[~miss]
                mean = _seq(obs) / obs.shape[0] if obs.shape[0] else np.nan
                d = np.where(miss, 0.0, col - mean)
                self.cols.append(("num", d))
        t = np.asarray(target, dtype=np.float64)
        self.cols.append(("num", t - _seq(t) / n))
        for j in range(p + 1):
            kind, d = self.cols[j]
            if kind == "num":
                s = _seq(d * d)
                if s != 0.0:
                    self.sd[j] = math.sqrt(s / n)
            else:
                prior, _, var, _ = d
                tot = 0.0
                for v in range(prior.shape[0]):
                    tot += (prior[v] / n) * (var[v] / n)
                if tot != 0.0:
                    self.sd[j] = math.sqrt(tot)
        self.corr = np.full((p + 1, p + 1), np.nan, dtype=np.float32)
        np.fill_diagonal(self.corr, 1.0)

    def _indicators(self, codes, nv):
        n = self.n
        prior = np.bincount(codes, minlength=nv).astype(np.float64)
        ind = (codes[:, None] == np.arange(nv)[None, :]).astype(np.float64)
        diffs = ind - prior[None, :] / n  # n × nv
        var = np.array([_seq(diffs[:, v] * diffs[:, v]) for v in range(nv)])
        return prior, diffs, var, codes

    def _correlate(self, a: int, b: int) -> float:
        ka, da = self.cols[a]
        kb, db = self.cols[b]
        with_class = self.cls in (a, b)
        n = self.n
        if ka == "num" and kb == "num":
            num = _seq(da * db)
            sx, sy = _seq(da * da), _seq(db * db)
            if sx * sy > 0.0:
                return abs(num / math.sqrt(sx * sy))
            return 0.0 if with_class else 1.0
        if ka == "num":  # num_nom2(nominal b, numeric a)
            ka, da, kb, db = kb, db, ka, da
        if kb == "num":  # da nominal, db numeric
            prior, diffs, var, _ = da
            stdv_num = _seq(db * db)
            r = 0.0
            for v in range(prior.shape[0]):
                cov = _seq(diffs[:, v] * db)
                if var[v] * stdv_num > 0.0:
                    r += (prior[v] / n) * abs(cov / math.sqrt(var[v] * stdv_num))
                elif not with_class:
                    r += (prior[v] / n) * 1.0
            if r == 0.0 and not with_class:
                r = 1.0
            return r
        px, dx, vx, cx = da
        py, dy, vy, cy = db
        r = 0.0
        for i in range(px.shape[0]):
            for j in range(py.shape[0]):
                pij = float(np.count_nonzero((cx == i) & (cy == j)))
                if vx[i] * vy[j] > 0.0:
                    cov = _seq(dx[:, i] * dy[:, j])
                    r += (pij / n) * abs(cov / math.sqrt(vx[i] * vy[j]))
                elif not with_class:
                    r += (pij / n) * 1.0
        if r == 0.0 and not with_class:
            r = 1.0
        return r

    def ensure(self, rows, cols) -> None:
        rows = np.asarray(rows, dtype=np.int64).reshape(-1)
        cols = np.asarray(cols, dtype=np.int64).reshape(-1)
        for a, b in zip(rows.tolist(), cols.tolist()):
            if np.isnan(self.corr[a, b]):
                c = np.float32(self._correlate(a, b))
                self.corr[a, b] = c
                self.corr[b, a] = c

    def class_corr(self, idx) -> np.ndarray:
        idx = np.asarray(idx, dtype=np.int64)
        self.ensure(idx, np.full(idx.shape, self.cls))
        return self.corr[idx, self.cls]

    def ensure_search_pairs(self, members, others) -> None:
        members = np.asarray(members, dtype=np.int64)
        others = np.asarray(others, dtype=np.int64)
        if members.size == 0 or others.size == 0:
            return
        a = np.repeat(others, members.size)
        b = np.tile(members, others.size)
        keep = a != b
        self.ensure(np.maximum(a, b)[keep], np.minimum(a, b)[keep])

    def merit(self, subset) -> float:
        sub = np.sort(np.asarray(subset, dtype=np.int64))
        self.class_corr(sub)
        self.ensure_search_pairs(sub, sub)
        return float(_merit_w(sub, sub.shape[0], self.corr, self.cls, self.sd))

    def children_merits(self, parent, cands, forward) -> np.ndarray:
        return _children_merits_w(parent, cands, forward, self.corr, self.cls, self.sd)


def cfs_subset_regression(X, y, direction: str = "forward", *, locally_predictive: bool = True,
                          max_stale: int = 5) -> np.ndarray:
    r"""The feature subset Weka's CfsSubsetEval + BestFirst selects for a numeric class.

    .. math:: M_S = \frac{\left|\sum_{i \in S} \sigma_i r_{ic}\right|}
              {\sqrt{\left|\sum_{i \in S} \left(\sigma_i^2 + 2 \sum_{j \in S, j < i}
              \sigma_i \sigma_j r_{ij}\right)\right|}}

    with Weka's correlations (see the module docstring; Hall 2000).

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Numeric and nominal attributes; NaN is missing (mean / mode).
    y : array-like of shape (n_samples,)
        The numeric target.
    direction : {"forward", "backward"}, default "forward"
        BestFirst ``-D 1`` or ``-D 0``.
    locally_predictive : bool, default True
        Weka's default; ``False`` is CfsSubsetEval ``-L``.
    max_stale : int, default 5
        BestFirst ``-N``.

    Returns
    -------
    ndarray of int64
        The selected feature indices, sorted.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(100, 5))
    >>> sel = cfs_subset_regression(X, X[:, 1] + 0.5 * X[:, 3] + 0.1 * rng.normal(size=100))
    >>> {1, 3} <= set(sel.tolist())
    True
    """
    locally_predictive = check_bool(locally_predictive, "locally_predictive")
    validate_params(_SEARCH_CONSTRAINTS, {"direction": direction, "max_stale": max_stale})
    values, nominal, categories, _, target = check_regression_data(
        X, y, allow_nominal=True, allow_missing=True)
    n_values = np.array([0 if c is None else len(c) for c in categories], dtype=np.int64)
    ev = NumericCFSMerit(values, nominal, n_values, target)
    group, _ = _best_first(ev, direction, int(max_stale))
    best = set(group)
    if locally_predictive:
        best = _add_locally_predictive(ev, best)
    return np.array(sorted(best), dtype=np.int64)


@register_ranker("cfs_regression", tags={"allow_nan": True, "tasks": ("regression",),
                                         "greedy": True},
                 constraints={})
def cfs_regression(X, y) -> np.ndarray:
    """Numeric-class CFS ranking: the order of greedy forward search on the merit of
    :func:`cfs_subset_regression` (ties to the lower index); score ``p − position``.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        As :func:`cfs_subset_regression`.
    y : array-like of shape (n_samples,)
        The numeric target.

    Returns
    -------
    ndarray of float64, shape (n_features,)
        The first feature added gets ``p − 1``, the last 0.
    """
    values, nominal, categories, _, target = check_regression_data(
        X, y, allow_nominal=True, allow_missing=True)
    n_values = np.array([0 if c is None else len(c) for c in categories], dtype=np.int64)
    ev = NumericCFSMerit(values, nominal, n_values, target)
    p = ev.p
    ev.class_corr(np.arange(p))
    chosen = np.empty(0, dtype=np.int64)
    left = np.arange(p, dtype=np.int64)
    scores = np.empty(p)
    for pos in range(p):
        ev.ensure_search_pairs(chosen, left)
        merits = ev.children_merits(np.sort(chosen), left, True)
        k = int(np.argmax(merits))  # the first maximum: the lower index
        scores[left[k]] = p - 1 - pos
        chosen = np.append(chosen, left[k])
        left = np.delete(left, k)
    return scores
