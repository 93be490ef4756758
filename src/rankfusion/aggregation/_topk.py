"""Shared machinery of the top-k optimisation rules ``ga`` and ``ce`` (RankAggreg's problem).

The problem (Bouaguel et al. 2013, eqs. 1-2; Pihur, Datta & Datta 2009): find the top-k list σ
over the union of the lists' top-k elements that minimises the weighted mean distance
``Φ(σ) = Σ_l ŵ_l · D(σ, L_l)``, ``ŵ = w / Σw`` (RankAggreg's ``importance`` rescaled), D the
(weighted) footrule or Kendall distance of :mod:`rankfusion.distances`.

This module prepares the input (top-k orders, item codes, score weights), evaluates candidates,
solves the footrule problem exactly, polishes a candidate by local search and builds the
:class:`Consensus` (best top-k first, the other features by Borda).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd

from .._utils.constraints import Interval, Options
from .._utils.validation import (  # noqa: F401  (re-exported for genetic and cross_entropy)
    check_bool,
    check_seed,
    check_top_k,
)
from ..distances import DISTANCES
from ..distances._kernels import kendall_one, objective_kernel, position_table, spearman_one
from ._params import OPTIONAL_TOP_K, SEED
from ._registry import get_rule
from ._result import build_consensus

SCORE_WEIGHTS = (None, "list", "feature")
DEFAULT_K_MAX = 50  # default k: the shortest list's length, at most this

#: The parameters ``ga`` and ``ce`` share (docs/design.md, 'Parameters'); ``k`` against the
#: shortest list is checked by :func:`prepare`, with the lists.
TOPK_CONSTRAINTS = {
    "k": OPTIONAL_TOP_K,
    "distance": [Options(*DISTANCES)],
    "score_weights": [Options(*SCORE_WEIGHTS)],
    "penalty": [Interval("real", 0, 1)],
    "random_state": SEED,
}


@dataclass
class TopKProblem:
    items: np.ndarray  # feature index of each item code (the union of the top-k lists)
    litems: np.ndarray  # M × k item codes of the lists, best first
    lpos: np.ndarray  # M × n 0-based positions (k where absent)
    w: np.ndarray  # M × k score weights by position (zeros when unweighted)
    weighted: bool
    imp: np.ndarray  # list weights rescaled to sum 1
    k: int
    kendall: bool
    penalty: float

    @property
    def n(self) -> int:
        return int(self.items.shape[0])

    def evaluate(self, cands: np.ndarray) -> np.ndarray:
        out = np.zeros(cands.shape[0])
        return objective_kernel(np.ascontiguousarray(cands, dtype=np.int64), self.lpos,
                                 self.litems, self.k, self.w, self.weighted, self.imp,
                                 self.kendall, self.penalty, out)


def prepare(lists, *, k, distance, score_weights, weights, penalty=0.0) -> TopKProblem:
    """Top-k orders, union codes, position table and score weights of ``lists`` (the values
    checked by :data:`TOPK_CONSTRAINTS`; ``k`` here against the lists)."""
    penalty = float(penalty)
    p, m = lists.shape
    shortest = int(lists.lengths.min())
    if k is None:
        k = min(shortest, DEFAULT_K_MAX)
    else:
        k = check_top_k(k, p)  # named k
        if k > shortest:
            raise ValueError(
                f"k={k} exceeds the length of the shortest list ({shortest} ranked features); "
                "every list must rank at least k features"
            )
    pos2 = lists.positions2
    pos2 = np.where(lists.ranked, pos2, np.iinfo(pos2.dtype).max)  # unranked: last
    top = np.argsort(pos2, axis=0, kind="stable")[:k].T  # M × k feature indices, best first
    items = np.unique(top)
    litems = np.ascontiguousarray(np.searchsorted(items, top))  # item codes: places in items
    lpos = position_table(litems, items.size, k)
    weighted = score_weights is not None
    w = np.zeros((m, k))
    if weighted:
        if not lists.has_scores:
            raise ValueError(
                f"score_weights={score_weights!r} needs raw scores; these lists were built from "
                "orders or positions"
            )
        sc = lists.scores
        if score_weights == "list":
            # RankAggreg: each list's top-k scores min-max standardised, 1 = best. Positions
            # follow the scores (higher = better), so a row runs from 1 at the top to 0 at
            # position k, the orientation RankAggreg flips ascending weights to
            s = np.take_along_axis(sc, top.T, axis=0).T
            lo = s.min(axis=1, keepdims=True)
            hi = s.max(axis=1, keepdims=True)
            span = hi - lo
            w = np.where(span > 0, (s - lo) / np.where(span > 0, span, 1.0), 0.0)
        else:
            # Bouaguel §3.2.3: the feature's mean normalised score over the lists
            lo = sc.min(axis=0)
            hi = sc.max(axis=0)
            span = hi - lo
            norm = np.where(span > 0, (sc - lo) / np.where(span > 0, span, 1.0), 0.0)
            feat = norm.mean(axis=1)
            w = feat[top]
        w = np.ascontiguousarray(w, dtype=np.float64)
    imp = np.full(m, 1.0 / m) if weights is None else weights / weights.sum()
    return TopKProblem(items=items, litems=litems, lpos=lpos, w=w, weighted=weighted,
                       imp=np.ascontiguousarray(imp, dtype=np.float64), k=k,
                       kendall=distance == "kendall", penalty=float(penalty))


def spearman_costs(prob: TopKProblem) -> tuple[np.ndarray, float]:
    """The footrule objective as a sum of per-item costs: ``Φ(σ) = c0 + Σ_i C[σ_i, i]``.

    Every term of the (weighted) footrule depends on one element only, through its positions
    in σ and in L (absent = k + 1): placing item f at position i costs
    ``Σ_l ŵ_l |i − r_l(f)| · g_l`` (g the weight gap ``|W_l(i) − W_l(r_l(f))|``, or 1) and
    leaving it out costs the same with i = k + 1. So ``C[f, i]`` = cost in − cost out and
    ``c0`` = Σ_f cost out.
    """
    k = prob.k
    r = prob.lpos.astype(np.float64)  # M × n, 0-based, k = absent
    i = np.arange(k, dtype=np.float64)
    dist_in = np.abs(i[None, None, :] - r[:, :, None])  # M × n × k
    dist_out = np.abs(k - r)  # M × n
    if prob.weighted:
        wext = np.concatenate([prob.w, np.zeros((prob.w.shape[0], 1))], axis=1)  # W(k+1) = 0
        wr = np.take_along_axis(wext, prob.lpos, axis=1)  # M × n: W_l(r_l(f))
        dist_in = dist_in * np.abs(prob.w[:, None, :] - wr[:, :, None])
        dist_out = dist_out * np.abs(wr)
    cost_in = np.tensordot(prob.imp, dist_in, axes=1)  # n × k
    cost_out = prob.imp @ dist_out  # n
    return np.ascontiguousarray(cost_in - cost_out[:, None]), float(cost_out.sum())


def spearman_optimum(prob: TopKProblem) -> np.ndarray:
    """The exact minimiser of the (weighted) footrule objective, by linear assignment.

    With :func:`spearman_costs`, choosing which items fill the k positions is a rectangular
    assignment problem (Dwork et al. 2001 for full lists), solved by
    ``scipy.optimize.linear_sum_assignment``.
    """
    C, _ = spearman_costs(prob)
    from scipy.optimize import linear_sum_assignment  # imported on use: slow to load

    rows, cols = linear_sum_assignment(C)
    cand = np.empty(prob.k, dtype=np.int64)
    cand[cols] = rows
    return cand


def cost_args(prob: TopKProblem) -> tuple[np.ndarray, float]:
    """(C, c0) for :func:`evaluate_fast`: the footrule costs, or a dummy for Kendall."""
    if prob.kendall:
        return np.zeros((1, 1)), 0.0
    return spearman_costs(prob)


@numba.njit(cache=True, nogil=True)
def evaluate_fast(cands, use_costs, C, c0, lpos, litems, k, w, weighted, imp, kendall, penalty,
                  out):  # pragma: no cover - compiled
    """Objective of each candidate: O(k) from the footrule costs, else the distance kernel."""
    if use_costs:
        for c in range(cands.shape[0]):
            s = c0
            for i in range(k):
                s += C[cands[c, i], i]
            out[c] = s
        return out
    return objective_kernel(cands, lpos, litems, k, w, weighted, imp, kendall, penalty, out)


@numba.njit(cache=True, nogil=True)
def _eval(cand, lpos, litems, k, w, weighted, imp, kendall, penalty, found, cpos, v, tree):
    # pragma: no cover - compiled
    tot = 0.0
    for l in range(lpos.shape[0]):
        if kendall:
            d = kendall_one(cand, lpos[l], litems[l], k, w[l], weighted, penalty, cpos, v, tree)
        else:
            d = spearman_one(cand, lpos[l], litems[l], k, w[l], weighted, found)
        tot += imp[l] * d
    return tot


@numba.njit(cache=True, nogil=True)
def _polish(cand, n, lpos, litems, k, w, weighted, imp, kendall, penalty, max_passes, pool,
            n_pool):  # pragma: no cover - compiled
    """First-improvement local search on a top-k list, in place; returns its objective.

    Moves: swap two positions; replace the element at a position by one of the ``n_pool``
    first items of ``pool`` (the union by mean position) not in the list; move one element to
    another position (insertion). A move is taken when it lowers the objective by more than
    1e-12 relative; at most ``max_passes`` passes over the neighbourhood.
    """
    found = np.zeros(k, dtype=np.bool_)
    cpos = np.full(n, k, dtype=np.int64)
    v = np.empty(2 * k, dtype=np.int64)
    tree = np.zeros(k + 2, dtype=np.int64)
    inlist = np.zeros(n, dtype=np.bool_)
    for i in range(k):
        inlist[cand[i]] = True
    cur = _eval(cand, lpos, litems, k, w, weighted, imp, kendall, penalty, found, cpos, v, tree)
    trial = cand.copy()
    for _ in range(max_passes):
        improved = False
        # swaps
        for i in range(k - 1):
            for j in range(i + 1, k):
                t = cand[i]
                cand[i] = cand[j]
                cand[j] = t
                val = _eval(cand, lpos, litems, k, w, weighted, imp, kendall, penalty, found,
                            cpos, v, tree)
                if val < cur - 1e-12 * (1.0 + abs(cur)):
                    cur = val
                    improved = True
                else:
                    cand[j] = cand[i]
                    cand[i] = t
        # replacements
        for i in range(k):
            tried = 0
            for q in range(pool.shape[0]):
                if tried >= n_pool:
                    break
                u = pool[q]
                if inlist[u]:
                    continue
                tried += 1
                old = cand[i]
                cand[i] = u
                val = _eval(cand, lpos, litems, k, w, weighted, imp, kendall, penalty, found,
                            cpos, v, tree)
                if val < cur - 1e-12 * (1.0 + abs(cur)):
                    cur = val
                    inlist[old] = False
                    inlist[u] = True
                    improved = True
                else:
                    cand[i] = old
        # insertions
        for i in range(k):
            for j in range(k):
                if j == i or j == i - 1:
                    continue
                x = cand[i]
                if j > i:
                    for t in range(i, j):
                        trial[t] = cand[t + 1]
                    trial[j] = x
                    for t in range(0, i):
                        trial[t] = cand[t]
                    for t in range(j + 1, k):
                        trial[t] = cand[t]
                else:
                    for t in range(0, j):
                        trial[t] = cand[t]
                    trial[j] = x
                    for t in range(j, i):
                        trial[t + 1] = cand[t]
                    for t in range(i + 1, k):
                        trial[t] = cand[t]
                val = _eval(trial, lpos, litems, k, w, weighted, imp, kendall, penalty, found,
                            cpos, v, tree)
                if val < cur - 1e-12 * (1.0 + abs(cur)):
                    cur = val
                    for t in range(k):
                        cand[t] = trial[t]
                    improved = True
        if not improved:
            break
    return cur


def polish(prob: TopKProblem, cand: np.ndarray, max_passes: int = 50) -> tuple[np.ndarray, float]:
    """Local search on ``cand`` (see ``_polish``); replacements draw on the ``max(2k, 20)``
    outside items of best weighted mean position (absent = k + 1), which bounds the work on
    large unions."""
    cand = np.array(cand, dtype=np.int64)
    pool = np.argsort(prob.imp @ prob.lpos, kind="stable").astype(np.int64)
    n_pool = max(2 * prob.k, 20)
    val = _polish(cand, prob.n, prob.lpos, prob.litems, prob.k, prob.w, prob.weighted, prob.imp,
                  prob.kendall, prob.penalty, max_passes, pool, n_pool)
    return cand, float(val)


def informed_starts(prob: TopKProblem) -> np.ndarray:
    """Seeds: each list's top-k, the Borda top-k over the union and the footrule optimum."""
    starts = [prob.litems[l].copy() for l in range(prob.litems.shape[0])]
    meanpos = prob.imp @ prob.lpos  # absent = k (position k + 1), weighted mean position
    starts.append(np.argsort(meanpos, kind="stable")[: prob.k].astype(np.int64))
    starts.append(spearman_optimum(prob))
    return np.array(starts, dtype=np.int64)


def finish(lists, prob: TopKProblem, best: np.ndarray, value: float, *, method: str,
           params: dict, weights, info: dict) -> object:
    """Consensus: the best top-k list first, then the other features in Borda order."""
    p = lists.n_features
    top = prob.items[best]
    borda = get_rule("borda").func(lists, weights=weights)
    rest = borda.order[~np.isin(borda.order, top)]
    order = np.concatenate([top, rest]).astype(np.intp)
    scores = np.empty(p)
    scores[order] = np.arange(p - 1, -1, -1)  # p − position
    feats = lists.features
    info = dict(info)
    info.update({
        "top_k": [feats[i] for i in top],
        "top_k_indices": top.astype(np.intp),
        "objective": float(value),
        "k": prob.k,
    })
    return build_consensus(lists, keys=[], scores=scores, method=method, params=params,
                           info=info, order=order)  # the order is given: no sort keys


def trace_frame(trace: np.ndarray) -> pd.DataFrame:
    return pd.DataFrame({"min": trace[:, 0], "median": trace[:, 1]},
                        index=pd.RangeIndex(trace.shape[0], name="generation"))
