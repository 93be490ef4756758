"""Cross-entropy Monte Carlo rank aggregation (R RankAggreg 0.6.6 ``method="CE"``).

The ``ce`` rule minimises the same objective as ``ga`` — the weighted mean (weighted) footrule
or Kendall distance of a top-k list σ to the input lists, ``Φ(σ) = Σ_l ŵ_l · D(σ, L_l)`` — by the
cross-entropy method of Rubinstein (1999) as Pihur, Datta & Datta (2007) apply it:

1. ``V`` is an n × k matrix of probabilities, ``V[i, j]`` the chance that item i fills
   position j, starting uniform (1/n). Each iteration draws ``n_samples`` top-k lists position
   by position, item i for position j with probability ∝ ``V[i, j]`` among the items not yet
   used;
2. the lists whose objective is at most the ``round(rho · n_samples)``-th smallest are the elite;
   ``V ← (1 − weight) · V + weight · F``, F the elite's frequency of item i at position j;
3. stop when the sample's best objective has stayed the same for ``conv_in`` consecutive
   iterations, or after ``max_iter``.

Defaults as RankAggreg: ``rho = 0.1``, ``weight = 0.25``, ``n_samples = 10 k²``, ``conv_in = 7``.

Departures: RankAggreg returns the best list of the *last* sample; we keep the best list ever
drawn (never worse). Sampling a position uses Walker's alias table of the column with
rejection of used items (falling back to RankAggreg's linear scan after 16 rejections): the
same distribution in O(1) per draw. The random numbers come from a xoshiro256+ generator
(Blackman & Vigna 2018) seeded by splitmix64 from ``random_state``. The footrule objective
is evaluated in O(k) from per-item costs (see
:func:`rankfusion.aggregation._topk.spearman_costs`); reported objectives are recomputed term
by term as RankAggreg sums them. ``polish=True`` (default) ends with the
local search of ``ga``; with the footrule the exact optimum (a linear assignment) is also
computed and returned when better, and ``info["optimal"]`` says whether the answer
is proven optimal.
``polish=False`` is RankAggreg's CE (up to the random numbers).

Result ``info``: ``top_k``, ``top_k_indices``, ``objective``, ``n_generations`` (iterations),
``trace`` (min and median objective of each sample), ``ce_objective`` (before polishing),
``optimal``. ``order`` covers all p features: the best top-k list first, the rest by Borda.

References
----------
Rubinstein, R. Y. (1999). The cross-entropy method for combinatorial and continuous
optimization. Methodol. Comput. Appl. Probab. 1, 127-190.
Pihur, V., Datta, S. & Datta, S. (2007). Weighted rank aggregation of cluster validation
measures: a Monte Carlo cross-entropy approach. Bioinformatics 23(13), 1607-1615.
Pihur, V., Datta, S. & Datta, S. (2009). RankAggreg, an R package for weighted rank aggregation.
BMC Bioinformatics 10, 62.
"""

from __future__ import annotations

import numba
import numpy as np

from . import _topk
from ._params import BOOL, FRACTION, count
from ._registry import register_rule
from ._topk import evaluate_fast

__all__ = ["ce"]


@numba.njit(cache=True, nogil=True)
def _splitmix64(x):  # pragma: no cover - compiled
    x = x + np.uint64(0x9E3779B97F4A7C15)
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x, z ^ (z >> np.uint64(31))


@numba.njit(cache=True, nogil=True)
def _rng_init(seed):  # pragma: no cover - compiled
    """State of a xoshiro256+ generator (Blackman & Vigna 2018), seeded by splitmix64."""
    st = np.empty(4, dtype=np.uint64)
    x = np.uint64(seed)
    for i in range(4):
        x, z = _splitmix64(x)
        st[i] = z
    return st


@numba.njit(cache=True, nogil=True)
def _rng_random(st):  # pragma: no cover - compiled
    """A uniform double in [0, 1) from xoshiro256+ (the top 53 bits)."""
    result = st[0] + st[3]
    t = st[1] << np.uint64(17)
    st[2] ^= st[0]
    st[3] ^= st[1]
    st[1] ^= st[2]
    st[0] ^= st[3]
    st[2] ^= t
    st[3] = (st[3] << np.uint64(45)) | (st[3] >> np.uint64(19))
    return float(result >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True, nogil=True)
def _alias_tables(V, q, alias, small, large):  # pragma: no cover - compiled
    """Walker/Vose alias tables of each column of V (n × k): O(1) draws from V[:, j]."""
    n, k = V.shape
    for j in range(k):
        tot = 0.0
        for i in range(n):
            tot += V[i, j]
        ns = 0
        nl = 0
        for i in range(n):
            q[j, i] = V[i, j] * n / tot
            alias[j, i] = i
            if q[j, i] < 1.0:
                small[ns] = i
                ns += 1
            else:
                large[nl] = i
                nl += 1
        while ns > 0 and nl > 0:
            ns -= 1
            s = small[ns]
            g = large[nl - 1]
            alias[j, s] = g
            q[j, g] = (q[j, g] + q[j, s]) - 1.0
            if q[j, g] < 1.0:
                nl -= 1
                small[ns] = g
                ns += 1
        for t in range(nl):
            q[j, large[t]] = 1.0
        for t in range(ns):
            q[j, small[t]] = 1.0


@numba.njit(cache=True, nogil=True)
def _sample(V, N, k, out, used, q, alias, small, large, ok, st):  # pragma: no cover - compiled
    """Draw N top-k lists from the position-wise probabilities V (n × k) into ``out``.

    Position j takes item i with probability ∝ V[i, j] among the unused items: an alias-table
    draw from the whole column, rejected while it hits a used (or impossible) item; after 16
    rejections RankAggreg's linear scan over the unused items.
    """
    n = V.shape[0]
    _alias_tables(V, q, alias, small, large)
    for j in range(k):
        for i in range(n):
            ok[j, i] = V[i, j] > 0
    for r in range(N):
        for j in range(k):
            pick = -1
            for _ in range(16):
                x = _rng_random(st) * n
                i = int(x)
                if i >= n:
                    i = n - 1
                if x - i >= q[j, i]:
                    i = alias[j, i]
                if not used[i] and ok[j, i]:
                    pick = i
                    break
            if pick < 0:
                tot = 0.0
                for i in range(n):
                    if not used[i]:
                        tot += V[i, j]
                u = _rng_random(st) * tot
                acc = 0.0
                last = -1
                for i in range(n):
                    if used[i]:
                        continue
                    last = i
                    acc += V[i, j]
                    if u < acc:
                        pick = i
                        break
                if pick < 0:
                    pick = last
            out[r, j] = pick
            used[pick] = True
        for j in range(k):
            used[out[r, j]] = False
    return out


@numba.njit(cache=True, nogil=True)
def _ce_run(n, use_costs, C, c0, lpos, litems, k, w, weighted, imp, kendall, penalty, N, rho,
            weight, max_iter, conv_in, seed):  # pragma: no cover - compiled
    st = _rng_init(seed)
    V = np.full((n, k), 1.0 / n)
    nhat = int(np.round(rho * N))
    cands = np.empty((N, k), dtype=np.int64)
    used = np.zeros(n, dtype=np.bool_)
    q = np.empty((k, n))
    alias = np.empty((k, n), dtype=np.int64)
    small = np.empty(n, dtype=np.int64)
    large = np.empty(n, dtype=np.int64)
    ok = np.empty((k, n), dtype=np.bool_)
    f = np.zeros(N)
    freq = np.zeros((n, k))
    trace = np.zeros((max_iter, 2))
    best = np.zeros(k, dtype=np.int64)
    bestval = np.inf
    t = 0
    it = 0
    minf = 0.0
    while True:
        _sample(V, N, k, cands, used, q, alias, small, large, ok, st)
        evaluate_fast(cands, use_costs, C, c0, lpos, litems, k, w, weighted, imp, kendall,
                      penalty, f)
        srt = np.sort(f)
        y = srt[nhat - 1]
        fmin = srt[0]
        trace[t, 0] = fmin
        trace[t, 1] = 0.5 * (srt[(N - 1) // 2] + srt[N // 2])
        freq[:, :] = 0.0
        s = 0
        for r in range(N):
            if f[r] <= y:
                s += 1
                for j in range(k):
                    freq[cands[r, j], j] += 1.0
        for i in range(n):
            for j in range(k):
                V[i, j] = (1.0 - weight) * V[i, j] + weight * (freq[i, j] / s)
        if fmin < bestval:
            bi = np.argmin(f)
            bestval = f[bi]
            best[:] = cands[bi]
        if t > 0 and minf == fmin:
            it += 1
        else:
            it = 1
        minf = fmin
        t += 1
        if it == conv_in or t >= max_iter:
            break
    return best, bestval, t, trace[:t].copy()


@register_rule("ce", invariants=("relabel_objective", "unanimity", "seeded"), constraints={
    **_topk.TOPK_CONSTRAINTS, "rho": FRACTION, "weight": FRACTION,
    "n_samples": [None, *count(1)], "max_iter": count(1), "conv_in": count(1),
    "polish": BOOL})
def ce(lists, *, k=None, distance="spearman", score_weights=None, rho=0.1, weight=0.25,
       n_samples=None, max_iter=1000, conv_in=7, penalty=0.0, polish=True, random_state=None,
       weights=None):
    """Cross-entropy Monte Carlo for the top-k list closest to all lists (RankAggreg's CE).

    Same objective as ``ga``: ``Σ_l ŵ_l · D(σ, L_l)``, D the (weighted) Spearman footrule or
    Kendall tau. Position-wise probabilities updated from the elite ``rho`` fraction of each
    sample with smoothing ``weight``; the best list ever drawn is kept. ``order``: the best
    top-k list, then the rest by Borda.

    Parameters
    ----------
    k, distance, score_weights, penalty, random_state
        As ``ga``.
    rho : float in (0, 1]
        Elite fraction (RankAggreg ``rho``); ``round(rho · n_samples)`` must be ≥ 5.
    weight : float in (0, 1]
        Smoothing of the probability update (RankAggreg ``weight``).
    n_samples : int, optional
        Lists drawn per iteration (RankAggreg ``N``), default ``10 k²`` — raised to
        ``⌈5 / rho⌉`` when that is smaller, so that short consensus lists (k ≤ 2) work where
        RankAggreg stops with "rho is too small" (documented departure).
    max_iter, conv_in : int
        At most ``max_iter`` iterations; stop after ``conv_in`` with the same best sample value.
    polish : bool
        Finish with local search (and, for the footrule, the exact assignment optimum).

    Examples
    --------
    >>> from rankfusion import RankedLists, aggregate
    >>> lists = RankedLists.from_orders([list("abcde"), list("bacde"), list("acbed")])
    >>> res = aggregate(lists, "ce", k=3, distance="kendall", random_state=0)
    >>> res.info["top_k"], round(res.info["objective"], 4)
    (['a', 'b', 'c'], 0.6667)
    """
    k_arg = k
    prob = _topk.prepare(lists, k=k, distance=distance, score_weights=score_weights,
                         weights=weights, penalty=penalty)
    kk = prob.k
    # the values are checked by the declared constraints (docs/design.md, 'Parameters')
    rho, weight = float(rho), float(weight)
    if n_samples is None:
        # RankAggreg's 10·k², raised where needed so that the elite holds at least 5 lists
        # (for k ≤ 2 and rho = 0.1 RankAggreg stops with "rho is too small" instead)
        n_samples = max(10 * kk * kk, int(np.ceil(5.0 / rho)))
    else:
        n_samples = int(n_samples)
    if int(np.round(rho * n_samples)) < 5:
        raise ValueError(
            f"rho · n_samples = {rho * n_samples:g} is too small: the elite needs at least 5 "
            "lists (RankAggreg: 'rho is too small')"
        )
    max_iter, conv_in = int(max_iter), int(conv_in)
    polish = _topk.check_bool(polish, "polish")
    seed = _topk.check_seed(random_state)
    C, c0 = _topk.cost_args(prob)
    best, val, n_it, trace = _ce_run(prob.n, not prob.kendall, C, c0, prob.lpos, prob.litems,
                                     kk, prob.w, prob.weighted, prob.imp, prob.kendall,
                                     prob.penalty, n_samples, rho, weight, max_iter, conv_in,
                                     seed)
    val = float(prob.evaluate(best[None, :])[0])  # the direct (RankAggreg) summation
    ce_val = val
    optimal = False
    if polish:
        best, val = _topk.polish(prob, best)
        if not prob.kendall:
            opt = _topk.spearman_optimum(prob)
            opt_val = float(prob.evaluate(opt[None, :])[0])
            if opt_val < val:
                best, val = opt, opt_val
            optimal = True
    elif not prob.kendall:
        opt = _topk.spearman_optimum(prob)
        opt_val = float(prob.evaluate(opt[None, :])[0])
        optimal = bool(val <= opt_val + 1e-12 * (1.0 + abs(opt_val)))
    params = {"k": kk if k_arg is None else k_arg, "distance": distance,
              "score_weights": score_weights, "rho": rho, "weight": weight,
              "n_samples": n_samples, "max_iter": max_iter, "conv_in": conv_in,
              "penalty": float(penalty), "polish": bool(polish), "random_state": random_state}
    info = {"n_generations": int(n_it), "trace": _topk.trace_frame(trace),
            "ce_objective": ce_val, "optimal": optimal}
    return _topk.finish(lists, prob, np.asarray(best), float(val), method="ce", params=params,
                        weights=weights, info=info)
