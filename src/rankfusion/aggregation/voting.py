"""Pairwise voting rules: Copeland (Condorcet) and Schulze (Izetta et al. 2017, §2.2).

Both start from the pairwise matrix ``d[i, j] = Σ_l w_l [pos_il < pos_jl]``, the (weighted)
number of lists that put feature i above feature j; equal positions (ties, or two features a
top-k list did not rank) count for neither.

The kernels are compiled with numba and run over rows in parallel; the matrices are stored in
the narrowest integer type that holds them (uint8 up to 255 lists), so memory stays at a few
p² bytes.
"""

from __future__ import annotations

import numba
import numpy as np

from ._registry import register
from ._result import build_consensus
from .statistics import borda_key

__all__ = ["pairwise_matrix", "copeland", "schulze", "schulze_strengths"]


@numba.njit(parallel=True, cache=True, nogil=True)
def _pairwise_counts(pos2t, out):  # pragma: no cover - compiled
    m, p = pos2t.shape
    for i in numba.prange(p):
        row = out[i]
        for l in range(m):
            pi = pos2t[l, i]
            lrow = pos2t[l]
            for j in range(p):
                row[j] += lrow[j] > pi
    return out


@numba.njit(parallel=True, cache=True, nogil=True)
def _pairwise_weighted(pos2t, w, out):  # pragma: no cover - compiled
    m, p = pos2t.shape
    for i in numba.prange(p):
        row = out[i]
        for l in range(m):
            pi = pos2t[l, i]
            lrow = pos2t[l]
            wl = w[l]
            for j in range(p):
                if lrow[j] > pi:
                    row[j] += wl
    return out


def _count_dtype(total):
    for dt in (np.uint8, np.uint16, np.uint32):
        if total <= np.iinfo(dt).max:
            return dt
    return np.uint64


def pairwise_matrix(lists, weights=None) -> np.ndarray:
    """The pairwise preference matrix ``d`` (p × p): lists (or their weight) putting i above j.

    Unweighted counts come in the narrowest unsigned integer type that holds M; with weights
    the matrix is float64, each cell summed over the lists in ascending order of weight (so
    the sums do not depend on the order of the lists).
    """
    from .._utils.validation import check_weights
    from ..lists import as_ranked_lists

    lists = as_ranked_lists(lists)
    weights = check_weights(weights, lists.n_lists)
    pos2t = np.ascontiguousarray(lists.positions2.T, dtype=np.int32)
    p = lists.n_features
    if weights is None:
        out = np.zeros((p, p), dtype=_count_dtype(lists.n_lists))
        return _pairwise_counts(pos2t, out)
    order = np.argsort(weights, kind="stable")
    out = np.zeros((p, p), dtype=np.float64)
    return _pairwise_weighted(np.ascontiguousarray(pos2t[order]), weights[order], out)


@numba.njit(parallel=True, cache=True, nogil=True)
def _copeland_scores(d):  # pragma: no cover - compiled
    p = d.shape[0]
    out = np.zeros(p, dtype=np.int64)
    for i in numba.prange(p):
        s = 0
        for j in range(p):
            a = d[i, j]
            b = d[j, i]
            if a > b:
                s += 1
            elif a < b:
                s -= 1
        out[i] = s
    return out


@register("copeland", aliases=("condorcet",))
def copeland(lists, *, weights=None):
    """Copeland's rule: wins − defeats in pairwise majority contests; ties by the mean of r.

    Feature i beats j when more lists (more weight) put i above j than j above i:
    ``C_i = #{j : d_ij > d_ji} - #{j : d_ij < d_ji}``. Izetta et al. (2017, §2.2) describe
    "Condorcet" as confronting each pair on every list and counting wins minus defeats; read
    literally that is Borda, while their remark that it "produces a lot of ties" fits Copeland,
    which is what we implement (documented choice; docs/design.md, 'Departures from the papers
    and reference tools'). Alias ``condorcet``.
    """
    d = pairwise_matrix(lists, weights)
    score = _copeland_scores(d)
    bkey, mean_r = borda_key(lists, weights)
    return build_consensus(lists, keys=[-score, bkey], scores=score.astype(np.float64),
                           method="copeland", params={}, tiebreak=mean_r,
                           tiebreak_name="mean_relative")


@numba.njit(parallel=True, cache=True, nogil=True)
def _links(d, out):  # pragma: no cover - compiled
    """out[i, j] = d[i, j] where d[i, j] > d[j, i], else 0: Schulze's winning-votes links."""
    p = d.shape[0]
    for i in numba.prange(p):
        for j in range(p):
            if d[i, j] > d[j, i]:
                out[i, j] = d[i, j]
            else:
                out[i, j] = 0
    return out


@numba.njit(cache=True, nogil=True, inline="always")
def _relax_row(rowi, rowk, c):  # pragma: no cover - compiled
    for j in range(rowi.shape[0]):
        v = rowk[j]
        if c < v:
            v = c
        if rowi[j] < v:
            rowi[j] = v


@numba.njit(parallel=True, cache=True, nogil=True)
def _widest_paths(P, block):  # pragma: no cover - compiled
    """Strongest paths in place: P[i, j] = max over paths of the weakest link (Schulze 2011).

    Floyd–Warshall over the (max, min) semiring, blocked for the cache: for each block K of
    ``block`` intermediate nodes, first the rows in K run the steps k ∈ K among themselves, then
    every other row runs the steps k ∈ K against the finished rows of K (in parallel). Using
    the finished rows of K instead of FW's intermediate ones is safe: every entry always holds
    the strength of a real path and never falls below FW's value at the same stage, and the
    relaxation is monotone (the classic blocked Floyd–Warshall argument).
    """
    p = P.shape[0]
    for k0 in range(0, p, block):
        k1 = min(k0 + block, p)
        for k in range(k0, k1):
            for i in range(k0, k1):
                c = P[i, k]
                if c != 0:
                    _relax_row(P[i], P[k], c)
        for i in numba.prange(p):
            if k0 <= i < k1:
                continue
            rowi = P[i]
            for k in range(k0, k1):
                c = rowi[k]
                if c != 0:
                    _relax_row(rowi, P[k], c)
    return P


@numba.njit(parallel=True, cache=True, nogil=True)
def _beats_count(P):  # pragma: no cover - compiled
    p = P.shape[0]
    out = np.zeros(p, dtype=np.int64)
    for i in numba.prange(p):
        s = 0
        for j in range(p):
            if j != i and P[i, j] > P[j, i]:
                s += 1
        out[i] = s
    return out


def schulze_strengths(lists, weights=None) -> np.ndarray:
    """Schulze's strongest-path matrix P (p × p), winning-votes link strengths.

    Links ``d[i, j]`` exist only where ``d[i, j] > d[j, i]``; the strength of a path is its
    weakest link and ``P[i, j]`` the strength of the strongest path from i to j. Unweighted the
    strengths are the vote counts themselves; with weights they are returned as the rank codes
    (1 = weakest link value) of the distinct weighted counts, which is all the rule compares.
    """
    d = pairwise_matrix(lists, weights)
    p = d.shape[0]
    if np.issubdtype(d.dtype, np.floating):
        vals = np.unique(d)
        codes = np.searchsorted(vals, d).astype(np.int64) + 1  # 1..K, order kept
        dt = _count_dtype(codes.max(initial=0))
        d = codes.astype(dt)
    P = np.empty((p, p), dtype=d.dtype)
    _links(d, P)
    return _widest_paths(P, 64)


@register("schulze")
def schulze(lists, *, weights=None):
    """Schulze's method (Schulze 2011; Izetta et al. 2017, §2.2): strongest paths, winning votes.

    ``d[i, j]`` = lists putting i above j; a link i → j of strength ``d[i, j]`` exists only
    when ``d[i, j] > d[j, i]``; the strength of a path is its weakest link and ``P[i, j]`` the
    strongest path from i to j (Floyd–Warshall over (max, min)). i beats j when
    ``P[i, j] > P[j, i]``. The primary key is the number of features each one beats; ties by
    the mean of r, then the lower index.
    """
    P = schulze_strengths(lists, weights)
    wins = _beats_count(P)
    bkey, mean_r = borda_key(lists, weights)
    return build_consensus(lists, keys=[-wins, bkey], scores=wins.astype(np.float64),
                           method="schulze", params={}, tiebreak=mean_r,
                           tiebreak_name="mean_relative")
