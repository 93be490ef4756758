"""Genetic-algorithm rank aggregation (Bouaguel et al. 2013; R RankAggreg 0.6.6 ``method="GA"``).

The ``ga`` rule searches the top-k list σ minimising the weighted mean distance
``Φ(σ) = Σ_l ŵ_l · D(σ, L_l)`` (``ŵ`` the list weights rescaled to sum 1, D the weighted
Spearman footrule or Kendall tau of :mod:`rankfusion.distances`) over the union of the lists'
top-k elements, with RankAggreg's operators (docs/design.md, 'Aggregation rules'):

* **population** of ``population`` random top-k lists;
* **roulette selection** with probabilities ∝ ``max Φ + 1 − Φ``;
* **partially matched crossover** (PMX, Goldberg & Lingle 1985) of ``⌊population · crossover/2⌋``
  random pairs: a cut point c ∈ {2, …, k}; the head 1..c is exchanged when c < k/2, the tail
  c..k otherwise, each exchanged position repaired so both children stay permutations.
  Bouaguel et al. describe a plain one-point exchange, which breaks permutations; PMX is its
  sound form (RankAggreg's choice);
* **mutation**: ``round(population · k · mutation)`` random (list, position) cells get a random
  item of the union (swapped with its old place if already in the list);
* **stop** when the population's best objective has stayed the same for ``conv_in``
  consecutive generations (RankAggreg's rule) or after ``max_iter`` generations.

The best list ever seen is kept (Bouaguel's GA; RankAggreg's ``bestevery``).

Departures, on by default and documented: ``init="informed"`` puts among the random initial
lists each input list's top-k, the Borda top-k and the exact footrule optimum (a linear
assignment; see :func:`rankfusion.aggregation._topk.spearman_optimum`); ``polish=True`` ends
with a first-improvement local search (swaps, replacements, insertions) on the best list.
With the footrule the returned list is then the proven optimum (``info["optimal"]``).
``init="random", polish=False`` is RankAggreg's GA exactly (up to the random numbers).

Result ``info``: ``top_k`` (names), ``top_k_indices``, ``objective`` (the weighted mean
distance, as RankAggreg's ``optimal.value``), ``n_generations``, ``trace`` (a DataFrame of
the population's min and median objective per generation, generation 0 the initial
population), ``optimal`` and ``ga_objective`` (before polishing). ``order`` covers all p
features: the best top-k list first, the rest by Borda; ``scores = p − position``.

References
----------
Bouaguel, W., Ben Brahim, A. & Limam, M. (2013). Feature selection by rank aggregation and
genetic algorithms. KDIR 2013, 74-81.
Pihur, V., Datta, S. & Datta, S. (2009). RankAggreg, an R package for weighted rank aggregation.
BMC Bioinformatics 10, 62.
"""

from __future__ import annotations

# ruff: noqa: NPY002 - np.random inside the numba kernels is numba's own per-thread generator,
# seeded from random_state at the start of each call (deterministic).
import numba
import numpy as np

from .._utils.constraints import Options
from . import _topk
from ._params import BOOL, FRACTION, count
from ._registry import register_rule
from ._topk import evaluate_fast

__all__ = ["ga"]


@numba.njit(cache=True, nogil=True)
def _ga_run(pop, n, use_costs, C, c0, lpos, litems, k, w, weighted, imp, kendall, penalty,
            crossover, mutation, max_iter, conv_in, seed):  # pragma: no cover - compiled
    np.random.seed(seed)
    P = pop.shape[0]
    f = np.zeros(P)
    evaluate_fast(pop, use_costs, C, c0, lpos, litems, k, w, weighted, imp, kendall, penalty,
                  f)
    trace = np.zeros((max_iter + 1, 2))
    trace[0, 0] = f.min()
    trace[0, 1] = np.median(f)
    bi = np.argmin(f)
    best = pop[bi].copy()
    bestval = f[bi]
    pairs = int(np.floor(P * crossover / 2.0))
    n_mut = int(np.round(P * k * mutation))
    cpy = np.empty(P)
    sel = np.empty(P, dtype=np.int64)
    new = np.empty_like(pop)
    t = 1
    it = 0
    while True:
        minf = f.min()
        fmax = f.max()
        tot = 0.0
        for i in range(P):
            tot += fmax + 1.0 - f[i]
        acc = 0.0
        for i in range(P):
            acc += (fmax + 1.0 - f[i]) / tot
            cpy[i] = acc
        for i in range(P):
            u = np.random.random()
            c = 0
            for j in range(P):
                if u > cpy[j]:
                    c += 1
            if c >= P:
                c = P - 1
            sel[i] = c
        for i in range(P):
            new[i] = pop[sel[i]]
        pop, new = new, pop
        # partially matched crossover
        if pairs > 0 and k > 1:
            samp = np.random.permutation(P)[: 2 * pairs]
            for q in range(pairs):
                a = samp[q]
                b = samp[q + pairs]
                point = 2 + np.random.randint(k - 1)  # 1-based cut in 2..k
                if point < k / 2.0:
                    lo, hi = 0, point
                else:
                    lo, hi = point - 1, k
                for j in range(lo, hi):
                    t1 = pop[a, j]
                    t2 = pop[b, j]
                    for z in range(k):
                        if pop[a, z] == t2:
                            pop[a, z] = t1
                            break
                    for z in range(k):
                        if pop[b, z] == t1:
                            pop[b, z] = t2
                            break
                    pop[a, j] = t2
                    pop[b, j] = t1
        # mutations
        for _ in range(n_mut):
            r = np.random.randint(P)
            c = np.random.randint(k)
            s = np.random.randint(n)
            tmp = pop[r, c]
            for z in range(k):
                if pop[r, z] == s:
                    pop[r, z] = tmp
                    break
            pop[r, c] = s
        evaluate_fast(pop, use_costs, C, c0, lpos, litems, k, w, weighted, imp, kendall, penalty,
                  f)
        trace[t, 0] = f.min()
        trace[t, 1] = np.median(f)
        if minf == f.min():
            it += 1
        else:
            it = 1
        if f.min() < bestval:
            bi = np.argmin(f)
            best = pop[bi].copy()
            bestval = f[bi]
        if it == conv_in:
            break
        t += 1
        if t > max_iter:
            t -= 1
            break
    return best, bestval, t, trace[: t + 1].copy()


@register_rule("ga", invariants=("relabel_objective", "unanimity", "seeded"), constraints={
    **_topk.TOPK_CONSTRAINTS, "population": count(2), "crossover": FRACTION,
    "mutation": FRACTION, "max_iter": count(1), "conv_in": count(1),
    "init": [Options("informed", "random")], "polish": BOOL})
def ga(lists, *, k=None, distance="spearman", score_weights=None, population=100,
       crossover=0.4, mutation=0.01, max_iter=1000, conv_in=30, penalty=0.0, init="informed",
       polish=True, random_state=None, weights=None):
    """Genetic algorithm for the top-k list closest to all lists (Bouaguel et al. 2013).

    Minimises ``Σ_l ŵ_l · D(σ, L_l)`` (D the weighted Spearman footrule or Kendall tau,
    RankAggreg 0.6.6) with roulette selection, partially matched crossover and mutation,
    keeping the best list ever seen. ``order``: the best top-k list, then the rest by Borda.

    Parameters
    ----------
    k : int or float, optional
        Length of the consensus top-k list (a float in (0, 1] is a fraction of the features);
        default: the length of the shortest list, at most 50 (the search is meant for top-k
        lists; give k explicitly for longer ones). Every list must rank at least k features.
    distance : {"spearman", "kendall"}
    score_weights : {None, "list", "feature"}
        Weighted distances: each list's own top-k scores min–max standardised (RankAggreg), or
        each feature's mean normalised score (Bouaguel §3.2.3). Needs lists built from scores.
    population, crossover, mutation, max_iter, conv_in
        RankAggreg's ``popSize``, ``CP``, ``MP``, ``maxIter``, ``convIn``.
    penalty : float in [0, 1]
        Kendall's term for pairs both absent from one list (RankAggreg: 0).
    init : {"informed", "random"}
        Seed the initial population with the lists' top-k, the Borda top-k and the footrule
        optimum (default), or draw it all at random (RankAggreg).
    polish : bool
        Finish with local search on the best list.
    random_state : None, int or Generator
        Seed; a fixed value gives identical results.

    Examples
    --------
    >>> from rankfusion import RankedLists, aggregate
    >>> lists = RankedLists.from_orders([list("abcd"), list("bacd"), list("acbd")])
    >>> res = aggregate(lists, "ga", k=2, random_state=0)
    >>> res.info["top_k"], round(res.info["objective"], 4), res.info["optimal"]
    (['a', 'b'], 1.3333, True)
    """
    k_arg = k
    prob = _topk.prepare(lists, k=k, distance=distance, score_weights=score_weights,
                         weights=weights, penalty=penalty)
    # the values are checked by the declared constraints (docs/design.md, 'Parameters')
    population, max_iter, conv_in = int(population), int(max_iter), int(conv_in)
    crossover, mutation = float(crossover), float(mutation)
    polish = _topk.check_bool(polish, "polish")
    seed = _topk.check_seed(random_state)
    rng = np.random.default_rng(seed)
    n, kk = prob.n, prob.k
    pop = np.empty((population, kk), dtype=np.int64)
    for i in range(population):
        pop[i] = rng.permutation(n)[:kk]
    optimum = None
    if init == "informed":
        starts = _topk.informed_starts(prob)
        if not prob.kendall:
            optimum = starts[-1]
        m = min(len(starts), population)
        pop[:m] = starts[-m:]
    C, c0 = _topk.cost_args(prob)
    best, val, n_gen, trace = _ga_run(pop, n, not prob.kendall, C, c0, prob.lpos, prob.litems,
                                      kk, prob.w, prob.weighted, prob.imp, prob.kendall,
                                      prob.penalty, crossover, mutation, max_iter, conv_in, seed)
    val = float(prob.evaluate(best[None, :])[0])  # the direct (RankAggreg) summation
    ga_val = val
    if polish:
        best, val = _topk.polish(prob, best)
    optimal = False
    if not prob.kendall:
        if optimum is None:
            optimum = _topk.spearman_optimum(prob)
        opt_val = float(prob.evaluate(optimum[None, :])[0])
        optimal = bool(val <= opt_val + 1e-12 * (1.0 + abs(opt_val)))
    params = {"k": kk if k_arg is None else k_arg, "distance": distance,
              "score_weights": score_weights, "population": population,
              "crossover": crossover, "mutation": mutation, "max_iter": max_iter,
              "conv_in": conv_in, "penalty": float(penalty), "init": init,
              "polish": bool(polish), "random_state": random_state}
    info = {"n_generations": int(n_gen), "trace": _topk.trace_frame(trace),
            "ga_objective": ga_val, "optimal": optimal}
    return _topk.finish(lists, prob, np.asarray(best), float(val), method="ga", params=params,
                        weights=weights, info=info)
