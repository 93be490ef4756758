"""Pairwise voting rules: Copeland (Condorcet) and Schulze (Izetta et al. 2017, §2.2).

Both start from the pairwise matrix ``d[i, j] = Σ_l w_l [pos_il < pos_jl]``, the (weighted)
number of lists that put feature i above feature j; equal positions (ties, or two features a
top-k list did not rank) count for neither.

The kernels are compiled with numba and run over rows, in parallel only from a measured size
on and on the threads the policy of docs/design.md, 'Threads' allows; the matrices are stored in
the narrowest integer type that holds them (uint8 up to 255 lists), so memory stays at a few
p² bytes.
"""

from __future__ import annotations

import numpy as np

from .._utils.jit import NUMBA as numba  # the real numba once a kernel is compiled
from .._utils.jit import kernel
from .._utils.validation import check_top_k
from ._memory import check_memory
from ._pairwise_doc import pairwise_doc
from ._params import MAX_MEMORY, OPTIONAL_TOP_K
from ._registry import register_rule
from ._result import build_consensus
from .statistics import borda_key

#: Work from which each kernel runs in parallel (docs/design.md, 'Threads'): where the serial
#: kernel takes some 10–50 ms on this project's machine (benchmarks/bench_threads.py
#: --thresholds), so that starting threads (0.1 ms on idle cores, tens of ms on busy ones) is
#: small beside it. Work = p² × M for the pairwise counts, p² for the row kernels, p³ for the
#: widest-path closure. Schulze at p = 1,000, M ≤ 100 stays serial.
PARALLEL_FROM = {"pairwise": 10**8, "rows": 10**7, "widest_paths": 2 * 10**9}

#: Work below which a kernel not compiled yet runs as plain Python (a few ms), so that a
#: small file aggregates without importing numba (docs/design.md, 'Threads').
PYTHON_BELOW = 20_000

__all__ = ["pairwise_matrix", "candidate_set", "copeland", "schulze", "schulze_strengths",
           "PAIRWISE_CONSTRAINTS"]

#: The parameters every pairwise rule (Copeland, Schulze, Kemeny) shares.
PAIRWISE_CONSTRAINTS = {"candidates": OPTIONAL_TOP_K, "max_memory": MAX_MEMORY}
_PROMISES = ("permute_lists", "relabel", "unanimity", "condorcet")


@kernel(parallel=True, parallel_from=PARALLEL_FROM["pairwise"], python_below=PYTHON_BELOW,
        nogil=True)
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


@kernel(parallel=True, parallel_from=PARALLEL_FROM["pairwise"], python_below=PYTHON_BELOW,
        nogil=True)
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


def _pairwise(lists, weights, idx=None, *, rule="pairwise", max_memory=None, k=None):
    """``d`` on the features ``idx`` (all when None), compared by the full lists' positions.

    Checks the memory estimate of ``rule`` on an n × n problem before allocating anything
    (``k``: the ``candidates`` count that gave ``idx``, for the message).
    """
    p = lists.n_features
    n = p if idx is None else int(idx.size)
    # the count type's item size; the weighted estimates are fixed (float64 cells) and ignore it
    itemsize = np.dtype(_count_dtype(lists.n_lists)).itemsize
    check_memory(rule, n, p, weighted=weights is not None, itemsize=itemsize,
                 max_memory=max_memory, candidates=(k if k is not None else True)
                 if idx is not None else None, n_lists=lists.n_lists)
    pos2 = lists.positions2 if idx is None else lists.positions2[idx]
    pos2t = np.ascontiguousarray(pos2.T, dtype=np.int32)
    if weights is None:
        out = np.zeros((n, n), dtype=_count_dtype(lists.n_lists))
        return _pairwise_counts.run(pos2t, out, work=n * n * lists.n_lists)
    # equal weights add equal values, so any order among them gives the same partial sums
    order = np.argsort(weights)
    out = np.zeros((n, n))
    return _pairwise_weighted.run(np.ascontiguousarray(pos2t[order]), weights[order], out,
                                  work=n * n * lists.n_lists)


def pairwise_matrix(lists, weights=None, *, max_memory=None) -> np.ndarray:
    """The pairwise preference matrix ``d`` (p × p): lists (or their weight) putting i above j.

    Unweighted counts come in the narrowest unsigned integer type that holds M; with weights
    the matrix is float64, each cell summed over the lists in ascending order of weight (so
    the sums do not depend on the order of the lists). A p whose matrix would not fit in
    memory is refused up front (``max_memory``: see :func:`copeland`).

    Parameters
    ----------
    lists : RankedLists
        The lists.
    weights : array-like of shape (M,), optional
        List weights.
    max_memory : float, optional
        Bytes the matrices may take (see :func:`copeland`; ``float("inf")`` disables the check).

    Returns
    -------
    ndarray of shape (p, p)
    """
    from .._utils.validation import check_weights
    from ..lists import as_ranked_lists

    lists = as_ranked_lists(lists)
    weights = check_weights(weights, lists.n_lists, list_names=lists.list_names)
    return _pairwise(lists, weights, max_memory=max_memory)


def candidate_set(lists, candidates) -> np.ndarray | None:
    """Indices of the features some list places at position ≤ k (``candidates=k``), sorted.

    ``k`` is an int ≥ 1 (a count) or a float in (0, 1] (a fraction of p, rounded as
    ``max(1, ⌊k·p + 0.5⌋)``); ``None`` gives ``None`` (every feature takes part). Positions
    are the lists' own (average ties: a tied group shares its mean position; a feature a top-k
    list did not rank sits at that list's length + 1).
    """
    return _candidates(lists, candidates)[0]


def _candidates(lists, candidates):
    """``(candidate_set(lists, candidates), k)``, k the validated count (None without)."""
    if candidates is None:
        return None, None
    k = check_top_k(candidates, lists.n_features, name="candidates")
    return np.flatnonzero((lists.positions2 <= 2 * k).any(axis=1)), k


def _with_tail(p, idx, cand_score, tail_score):
    """Per-feature primary score: the candidates' own, ``tail_score`` for the others."""
    if idx is None:
        return cand_score
    score = np.full(p, tail_score, dtype=np.int64)
    score[idx] = cand_score
    return score


@kernel(parallel=True, parallel_from=PARALLEL_FROM["rows"], python_below=PYTHON_BELOW,
        nogil=True)
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


def _params_info(idx, k):
    if idx is None:
        return {}, {}
    return {"candidates": k}, {"n_candidates": int(idx.size)}


@register_rule("copeland", aliases=("condorcet",), invariants=_PROMISES,
               constraints=PAIRWISE_CONSTRAINTS)
@pairwise_doc
def copeland(lists, *, candidates=None, max_memory=None, weights=None):
    """Copeland's rule: wins − defeats in pairwise majority contests; ties by the mean of r.

    Feature i beats j when more lists (more weight) put i above j than j above i:
    ``C_i = #{j : d_ij > d_ji} - #{j : d_ij < d_ji}``. Izetta et al. (2017, §2.2) describe
    "Condorcet" as confronting each pair on every list and counting wins minus defeats; read
    literally that is Borda, while their remark that it "produces a lot of ties" fits Copeland,
    which is what we implement (documented choice; docs/design.md, 'Departures from the papers
    and reference tools'). Alias ``condorcet``.

    Parameters
    ----------
    %(pairwise_params)s

    Notes
    -----
    With ``candidates``, ``C_i`` counts contests among the n candidates only (the full rule's
    score minus ``p − n`` under the guarantee's condition) and every other feature scores
    ``−n``, below any candidate; ``info["n_candidates"]`` is n.
    """
    idx, k = _candidates(lists, candidates)
    d = _pairwise(lists, weights, idx, rule="copeland", max_memory=max_memory, k=k)
    cand = _copeland_scores.run(d, work=d.size)
    del d
    n = lists.n_features if idx is None else idx.size
    score = _with_tail(lists.n_features, idx, cand, -n)
    bkey, mean_r = borda_key(lists, weights)
    params, info = _params_info(idx, k)
    return build_consensus(lists, keys=[-score, bkey], scores=score.astype(np.float64),
                           method="copeland", params=params, tiebreak=mean_r,
                           tiebreak_name="mean_relative", info=info)


@kernel(parallel=True, parallel_from=PARALLEL_FROM["rows"], python_below=PYTHON_BELOW,
        nogil=True)
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


@kernel(nogil=True, inline="always", python_below=1)  # plain inside plain callers
def _relax_row(rowi, rowk, c):  # pragma: no cover - compiled
    # branch-free (unconditional store of max(rowi, min(rowk, c))) so that LLVM vectorises it
    for j in range(rowi.shape[0]):
        rowi[j] = max(rowi[j], min(rowk[j], c))


@kernel(parallel=True, parallel_from=PARALLEL_FROM["widest_paths"], python_below=PYTHON_BELOW,
        nogil=True)
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


@kernel(parallel=True, parallel_from=PARALLEL_FROM["rows"], python_below=PYTHON_BELOW,
        nogil=True)
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


def _strengths(d):
    """Strongest paths from ``d`` (consumed: freed as soon as the links are built)."""
    n = d.shape[0]
    if np.issubdtype(d.dtype, np.floating):
        vals = np.unique(d)
        codes = np.searchsorted(vals, d)  # 0..K-1, order kept
        del d, vals
        codes += 1
        dt = _count_dtype(codes.max())  # d is never empty
        d = codes.astype(dt)
        del codes
    P = np.empty((n, n), dtype=d.dtype)
    _links.run(d, P, work=P.size)
    del d
    return _widest_paths.run(P, 64, work=P.shape[0] ** 3)


def schulze_strengths(lists, weights=None, *, max_memory=None) -> np.ndarray:
    """Schulze's strongest-path matrix P (p × p), winning-votes link strengths.

    Links ``d[i, j]`` exist only where ``d[i, j] > d[j, i]``; the strength of a path is its
    weakest link and ``P[i, j]`` the strength of the strongest path from i to j. Unweighted the
    strengths are the vote counts themselves; with weights they are returned as the rank codes
    (1 = weakest link value) of the distinct weighted counts, which is all the rule compares.
    A p whose matrices would not fit in memory is refused up front (``max_memory``: see
    :func:`schulze`).

    Parameters
    ----------
    lists : RankedLists
        The lists.
    weights : array-like of shape (M,), optional
        List weights.
    max_memory : float, optional
        Bytes the matrices may take (see :func:`schulze`; ``float("inf")`` disables the check).

    Returns
    -------
    ndarray of shape (p, p)
    """
    from .._utils.validation import check_weights
    from ..lists import as_ranked_lists

    lists = as_ranked_lists(lists)
    weights = check_weights(weights, lists.n_lists, list_names=lists.list_names)
    return _strengths(_pairwise(lists, weights, rule="schulze", max_memory=max_memory))


@register_rule("schulze", invariants=_PROMISES, constraints=PAIRWISE_CONSTRAINTS)
@pairwise_doc
def schulze(lists, *, candidates=None, max_memory=None, weights=None):
    """Schulze's method (Schulze 2011; Izetta et al. 2017, §2.2): strongest paths, winning votes.

    ``d[i, j]`` = lists putting i above j; a link i → j of strength ``d[i, j]`` exists only
    when ``d[i, j] > d[j, i]``; the strength of a path is its weakest link and ``P[i, j]`` the
    strongest path from i to j (Floyd–Warshall over (max, min)). i beats j when
    ``P[i, j] > P[j, i]``. The primary key is the number of features each one beats; ties by
    the mean of r, then the lower index.

    Parameters
    ----------
    %(pairwise_params)s

    Notes
    -----
    With ``candidates``, paths run through candidates only and the score is the number of
    candidates beaten (the full rule's minus ``p − n`` under the guarantee's condition, where
    no path leads from another feature back to a candidate); every other feature scores −1,
    below any candidate; ``info["n_candidates"]`` is n.
    """
    idx, k = _candidates(lists, candidates)
    P = _strengths(_pairwise(lists, weights, idx, rule="schulze", max_memory=max_memory,
                             k=k))
    wins = _beats_count.run(P, work=P.size)
    del P
    score = _with_tail(lists.n_features, idx, wins, -1)
    bkey, mean_r = borda_key(lists, weights)
    params, info = _params_info(idx, k)
    return build_consensus(lists, keys=[-score, bkey], scores=score.astype(np.float64),
                           method="schulze", params=params, tiebreak=mean_r,
                           tiebreak_name="mean_relative", info=info)
