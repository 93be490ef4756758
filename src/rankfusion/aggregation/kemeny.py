"""Kemeny aggregation: the order closest to all lists in Kendall's tau.

See also docs/design.md, 'Aggregation rules'.

The Kemeny order minimises ``Φ(σ) = Σ_l w_l · K(σ, L_l)``, K Kendall's tau distance (pairs a
list leaves tied — average ties, or two features a top-k list did not rank — cost nothing).
With the pairwise matrix ``d[i, j] = Σ_l w_l [pos_il < pos_jl]``
(:func:`~rankfusion.aggregation.pairwise_matrix`), ``Φ(σ) = Σ_{i before j in σ} d[j, i]``:
a linear-ordering problem, NP-hard in general (Bartholdi, Tovey & Trick 1989; Dwork et al.
2001 for four lists), so we solve it exactly where we can and say so.

1. **Condorcet split** (extended Condorcet criterion; Truchon 1998, Betzler et al. 2009): draw
   an edge i → j whenever ``d[i, j] ≥ d[j, i]`` (tied pairs both ways; docs/design.md,
   'Aggregation rules') and split the features into the strongly connected parts of this graph.
   Between two parts every pair is a
   strict majority in the same direction, and every optimal order puts the parts in that order;
   each part is then solved on its own.
2. **Tied classes and tied parts**: features with the same position in every list are tied
   in every list (the pair costs nothing either way) and meet every other feature alike, so
   some optimal order keeps each such class together; a part is solved on its classes (the
   pair of classes A, B costing ``|A|·|B|·d[a, b]``). A part whose pairs are all tied
   (``d[i, j] = d[j, i]``, e.g. one class: the features every filter scores 0) costs the
   same in every order, the lower bound below, and is returned at once in index order.
3. **Exact parts**: a part of at most ``dp_max`` features (default 20) is solved by dynamic
   programming over subsets (O(2^s · s) with split-table sums); a larger part of at most
   ``ilp_max`` features (default 300) by integer programming with ``scipy.optimize.milp``
   (HiGHS): variables ``x_ij`` (i before j) for i < j and the 3-cycle (triangle) inequalities
   ``0 ≤ x_ij + x_jk − x_ik ≤ 1``, added lazily — solve, find the 3-cycles of the solution,
   add their inequalities, repeat; a tournament without 3-cycles is transitive, so the last
   solution is an optimal order of the full model. The ILP stops at ``node_limit`` branch
   nodes per solve (deterministic) or ``time_limit`` seconds per part (a safety net); a part
   it does not finish is handed to the heuristic, and so is a part whose majority tournament
   has more than 20 000 3-cycles (random-like lists, where the first relaxation alone would be
   too large to solve in time; each later round adds at most 20 000 inequalities).
4. **Heuristic parts**: start from the Borda and the Copeland orders restricted to the part,
   then ``restarts`` randomised KwikSort orders (Ailon, Charikar & Newman 2008), each improved by
   insertion local search (move one feature to its best position until no move helps); keep the
   best. The result is never worse than the better of Borda and Copeland (checked at the end).

The result's ``info`` holds ``objective`` (Φ of the returned order), ``optimal`` (True when Φ
is proven minimal: every part solved exactly, or a heuristic part whose objective equals its
lower bound), ``lower_bound`` (Φ of the proven parts plus a simple bound — Σ min(d[i, j],
d[j, i]) — for the others), ``parts`` (the part sizes, in order), ``part_methods``,
``part_classes``, ``part_reasons`` (why a part went to the heuristic) and the objectives of
the Borda and Copeland orders. ``scores`` are
``p − position`` (higher = better). Among several optimal orders the one returned is fixed by
the algorithm (deterministic for a given input and ``random_state``).

References
----------
Kemeny, J. G. (1959). Mathematics without numbers. Daedalus 88, 577-591.
Ailon, N., Charikar, M. & Newman, A. (2008). Aggregating inconsistent information: ranking and
clustering. J. ACM 55(5).
Betzler, N., Fellows, M. R., Guo, J., Niedermeier, R. & Rosamond, F. A. (2009).
Fixed-parameter algorithms for Kemeny rankings. Theor. Comput. Sci. 410, 4554-4570.
Conitzer, V., Davenport, A. & Kalagnanam, J. (2006). Improved bounds for computing Kemeny
rankings. AAAI 2006 (the ILP).
"Robust feature selection technique using rank aggregation" (the robust-FS paper;
Borda and Kemeny aggregation of IG, SU and chi-square rankings).
"""

from __future__ import annotations

# ruff: noqa: NPY002 - np.random inside the numba kernels is numba's own per-thread generator,
# seeded from random_state at the start of each call (deterministic).
import numbers
import time

import numba
import numpy as np
from scipy import sparse

from .._utils.constraints import Check
from .._utils.seeding import seed_int
from .._utils.validation import check_bool, check_seed, check_top_k
from ._pairwise_doc import pairwise_doc
from ._params import BOOL, SEED, count
from ._registry import register_rule
from ._result import build_consensus
from .statistics import borda_key
from .voting import (
    PAIRWISE_CONSTRAINTS,
    _copeland_scores,
    _pairwise,
    candidate_set,
    pairwise_matrix,
)

__all__ = ["kemeny", "kemeny_objective", "condorcet_parts"]


# --------------------------------------------------------------------------- kernels
@numba.njit(cache=True, nogil=True)
def _objective(order, D):  # pragma: no cover - compiled
    """Σ_{a < b} D[order[b], order[a]] (cost of the pairs the order puts against the lists)."""
    n = order.shape[0]
    s = 0.0
    for a in range(n):
        ia = order[a]
        for b in range(a + 1, n):
            s += D[order[b], ia]
    return s


@numba.njit(cache=True, nogil=True)
def _subset_dp(D):  # pragma: no cover - compiled
    """Exact Kemeny order of a small part by dynamic programming over subsets.

    ``f(S)`` = least cost of ordering the set S as the top of the order; appending v below S
    adds ``Σ_{u∈S} D[v, u]``, read in O(1) from two split tables (low and high halves of the
    bits). Ties between equally good moves go to the lower v (deterministic).
    """
    s = D.shape[0]
    h = s // 2
    nlo = 1 << h
    nhi = 1 << (s - h)
    tlo = np.zeros((s, nlo))
    thi = np.zeros((s, nhi))
    for v in range(s):
        for m in range(1, nlo):
            low = m & (-m)
            b = 0
            while (1 << b) != low:
                b += 1
            tlo[v, m] = tlo[v, m ^ low] + D[v, b]
        for m in range(1, nhi):
            low = m & (-m)
            b = 0
            while (1 << b) != low:
                b += 1
            thi[v, m] = thi[v, m ^ low] + D[v, b + h]
    full = (1 << s) - 1
    f = np.full(1 << s, np.inf)
    last = np.zeros(1 << s, dtype=np.int8)
    f[0] = 0.0
    mlo = nlo - 1
    for S in range(full):
        fs = f[S]
        slo = S & mlo
        shi = S >> h
        for v in range(s):
            bit = 1 << v
            if S & bit:
                continue
            c = fs + tlo[v, slo] + thi[v, shi]
            T = S | bit
            if c < f[T]:
                f[T] = c
                last[T] = v
    order = np.empty(s, dtype=np.int64)
    S = full
    for pos in range(s - 1, -1, -1):
        v = last[S]
        order[pos] = v
        S ^= 1 << v
    return order, f[full]


@numba.njit(cache=True, nogil=True)
def _insertion_local_search(order, G, tol):  # pragma: no cover - compiled
    """Best-insertion local search on an order, in place; G = D − Dᵀ (the margins).

    Moving the feature v at position a down to b > a changes the cost by Σ_{t=a+1..b}
    G[v, order[t]]; moving it up to b < a by −Σ_{t=b..a−1} G[v, order[t]]. Each pass tries
    every feature once (in the current order) and applies its best strictly improving move;
    passes repeat until none improves by more than ``tol``. Returns the total change.
    """
    n = order.shape[0]
    total = 0.0
    improved = True
    while improved:
        improved = False
        a = 0
        while a < n:
            v = order[a]
            best = -tol
            bpos = a
            acc = 0.0
            for b in range(a + 1, n):
                acc += G[v, order[b]]
                if acc < best:
                    best = acc
                    bpos = b
            acc = 0.0
            for b in range(a - 1, -1, -1):
                acc -= G[v, order[b]]
                if acc < best:
                    best = acc
                    bpos = b
            if bpos != a:
                if bpos > a:
                    for t in range(a, bpos):
                        order[t] = order[t + 1]
                else:
                    for t in range(a, bpos, -1):
                        order[t] = order[t - 1]
                order[bpos] = v
                total += best
                improved = True
                if bpos < a:
                    a += 1  # the feature now at a was at a - 1: already tried this pass
                continue
            a += 1
    return total


@numba.njit(cache=True, nogil=True)
def _kwiksort(G, seed):  # pragma: no cover - compiled
    """Randomised KwikSort (Ailon et al. 2008): pivot, split by majority, recurse.

    u goes before the pivot when G[u, pivot] > 0 (a majority puts u above it), after when < 0;
    a tied pair goes after. Iterative, with an explicit stack of segments.
    """
    np.random.seed(seed)
    n = G.shape[0]
    arr = np.arange(n)
    buf = np.empty(n, dtype=np.int64)
    stack = np.empty((2 * n + 2, 2), dtype=np.int64)
    top = 0
    stack[0, 0] = 0
    stack[0, 1] = n
    top = 1
    while top > 0:
        top -= 1
        lo = stack[top, 0]
        hi = stack[top, 1]
        if hi - lo <= 1:
            continue
        pi = lo + np.random.randint(hi - lo)
        pv = arr[pi]
        nb = 0
        for t in range(lo, hi):
            u = arr[t]
            if u != pv and G[u, pv] > 0:
                buf[nb] = u
                nb += 1
        mid = lo + nb
        buf[nb] = pv
        nb += 1
        for t in range(lo, hi):
            u = arr[t]
            if u != pv and not G[u, pv] > 0:
                buf[nb] = u
                nb += 1
        for t in range(hi - lo):
            arr[lo + t] = buf[t]
        stack[top, 0] = lo
        stack[top, 1] = mid
        top += 1
        stack[top, 0] = mid + 1
        stack[top, 1] = hi
        top += 1
    return arr


# --------------------------------------------------------------------------- parts
@numba.njit(cache=True, nogil=True)
def _semicomplete_components(d):  # pragma: no cover - compiled
    """Strong components of ``i → j iff d[i, j] ≥ d[j, i]`` in O(p²) time and O(p) memory.

    The graph is semicomplete (every pair has an arc, a tied pair both), so its condensation
    is a transitive tournament: each feature of a higher part has a strictly larger out-degree
    than each feature of a lower one. Sorted by out-degree (descending, stable), the parts are
    consecutive runs; a run ends where no arc enters the features taken so far from the
    others (``into`` counts those arcs while the prefix grows).
    """
    p = d.shape[0]
    out = np.zeros(p, dtype=np.int64)
    for i in range(p):
        s = 0
        for j in range(p):
            if j != i and d[i, j] >= d[j, i]:
                s += 1
        out[i] = s
    order = np.argsort(-out, kind="mergesort")
    inside = np.zeros(p, dtype=np.bool_)
    labels = np.empty(p, dtype=np.int64)
    into = 0
    comp = 0
    start = 0
    for m in range(p):
        v = order[m]
        # arcs from the others into v join; arcs from v into the prefix leave
        for u in range(p):
            if u != v:
                if inside[u]:
                    if d[v, u] >= d[u, v]:
                        into -= 1
                elif d[u, v] >= d[v, u]:
                    into += 1
        inside[v] = True
        if into == 0:
            for t in range(start, m + 1):
                labels[order[t]] = comp
            comp += 1
            start = m + 1
    return labels, comp


def condorcet_parts(d: np.ndarray) -> list[np.ndarray]:
    """The finest Condorcet partition: strongly connected parts of ``i → j iff d[i,j] ≥ d[j,i]``.

    Returned in the order every optimal Kemeny order places them (features in each part in
    ascending index).
    """
    p = d.shape[0]
    if p == 1:
        return [np.array([0])]
    labels, n_comp = _semicomplete_components(np.ascontiguousarray(d))
    if n_comp == 1:
        return [np.arange(p)]
    by = np.argsort(labels, kind="stable")
    bounds = np.flatnonzero(np.diff(labels[by])) + 1
    return np.split(by, bounds)


@numba.njit(cache=True, nogil=True)
def _pair_bound(D):  # pragma: no cover - compiled
    """Σ_{i<j} min(D[i, j], D[j, i]) and whether D is symmetric."""
    s = D.shape[0]
    tot = 0.0
    sym = True
    for i in range(s):
        for j in range(i + 1, s):
            a = D[i, j]
            b = D[j, i]
            if a != b:
                sym = False
            tot += a if a < b else b
    return tot, sym


def _three_cycles(A: np.ndarray) -> np.ndarray:
    """Triples (i < j < k) forming a directed 3-cycle in tournament A (A[i, j]: i before j)."""
    s = A.shape[0]
    out = []
    for i in range(s - 2):
        Aij = A[i, i + 1:]  # over j > i
        Aki = A[i + 1:, i]  # k -> i
        sub = A[i + 1:, i + 1:]
        # cycle i->j->k->i (j<k or j>k both appear; keep j<k orientation-free below)
        c1 = Aij[:, None] & sub & Aki[None, :]
        c2 = (~Aij)[:, None] & (~sub) & (~Aki)[None, :]
        cyc = c1 | c2
        jj, kk = np.nonzero(np.triu(cyc, 1))
        if jj.size:
            out.append(np.column_stack([np.full(jj.size, i), jj + i + 1, kk + i + 1]))
    if not out:
        return np.empty((0, 3), dtype=np.int64)
    return np.concatenate(out)


_MAX_CYCLES = 20_000  # 3-cycles of a part's majority tournament beyond which the ILP is skipped


def _majority_tournament(D: np.ndarray) -> np.ndarray:
    """A[i, j] (i before j): strict majorities, a tied pair i < j as i before j."""
    s = D.shape[0]
    A = D > D.T
    tie = D == D.T
    A |= tie & np.triu(np.ones((s, s), dtype=bool), 1)
    np.fill_diagonal(A, False)
    return A


def _count_three_cycles(A: np.ndarray) -> int:
    """3-cycles of a tournament: C(s, 3) − Σ_i C(out_i, 2) (Kendall & Babington Smith 1940)."""
    s = A.shape[0]
    out = A.sum(axis=1).astype(np.int64)
    return int(s * (s - 1) * (s - 2) // 6 - int((out * (out - 1) // 2).sum()))


def _ilp_part(D: np.ndarray, time_limit: float, node_limit: int | None):
    """Exact Kemeny order of one part by ILP with lazily added triangle inequalities.

    Returns (order, proven, reason): order None and a reason when the part goes to the
    heuristic (too many 3-cycles, a time or node limit, a solver failure).
    """
    from scipy.optimize import Bounds, LinearConstraint, milp  # imported on use: slow to load

    s = D.shape[0]
    A = _majority_tournament(D)
    n_cyc = _count_three_cycles(A)
    if n_cyc > _MAX_CYCLES:  # a random-like part: the relaxation alone would be huge
        return None, False, (f"{s} features, {n_cyc:,} 3-cycles in the majority tournament "
                             f"> {_MAX_CYCLES:,}")
    iu, ju = np.triu_indices(s, 1)
    nvar = iu.size
    var = -np.ones((s, s), dtype=np.int64)
    var[iu, ju] = np.arange(nvar)
    c = D[ju, iu] - D[iu, ju]  # x_ij = 1 (i before j) costs D[j, i] instead of D[i, j]
    triples = np.empty((0, 3), dtype=np.int64)
    start = time.perf_counter()
    opts = {"mip_rel_gap": 0.0, "presolve": True}
    if node_limit is not None:
        opts["node_limit"] = int(node_limit)
    # The majority tournament (ties i < j as i before j) is optimal without the triangle
    # inequalities; each round adds the inequalities of the current solution's 3-cycles (the
    # solution satisfies all earlier ones, so the cycles are always new) and solves again.
    while not _is_transitive(A):
        cycles = _three_cycles(A)
        triples = np.concatenate([triples, cycles[:_MAX_CYCLES]])
        remaining = time_limit - (time.perf_counter() - start)
        if remaining <= 0:
            return None, False, (f"{s} features, {n_cyc:,} 3-cycles: ILP time limit "
                                 f"{time_limit:g} s reached")
        opts["time_limit"] = remaining
        i, j, k = triples[:, 0], triples[:, 1], triples[:, 2]
        nt = triples.shape[0]
        rows = np.repeat(np.arange(nt), 3)
        cols = np.column_stack([var[i, j], var[j, k], var[i, k]]).ravel()
        vals = np.tile(np.array([1.0, 1.0, -1.0]), nt)
        cons = LinearConstraint(sparse.csr_matrix((vals, (rows, cols)), shape=(nt, nvar)),
                                0.0, 1.0)
        res = milp(c, integrality=np.ones(nvar), bounds=Bounds(0, 1), constraints=[cons],
                   options=opts)
        if res.status != 0 or res.x is None:
            why = {1: f"ILP time or node limit reached ({time_limit:g} s, "
                      f"node_limit={node_limit})"}.get(res.status, f"ILP status {res.status}")
            return None, False, f"{s} features, {n_cyc:,} 3-cycles: {why}"
        x = res.x > 0.5
        A = np.zeros((s, s), dtype=bool)
        A[iu, ju] = x
        A[ju, iu] = ~x
    order = np.argsort(-A.sum(axis=1), kind="stable")
    return order, True, ""


def _is_transitive(A: np.ndarray) -> bool:
    """A tournament is transitive iff its out-degrees are 0, 1, …, s − 1."""
    s = A.shape[0]
    return bool(np.array_equal(np.sort(A.sum(axis=1)), np.arange(s)))


def _heuristic_part(D, starts, restarts, seed):
    G = D - D.T
    scale = float(D.max(initial=0.0))  # D ≥ 0
    tol = 1e-9 * max(scale, 1.0)
    best = None
    best_val = np.inf
    cands = [np.array(o, dtype=np.int64) for o in starts]
    rng = np.random.default_rng(seed)
    seeds = seed_int(rng, bits=31, size=restarts)
    for r in range(len(cands) + restarts):
        o = cands[r] if r < len(cands) else _kwiksort(G, int(seeds[r - len(cands)]))
        o = o.copy()
        _insertion_local_search(o, G, tol)
        val = _objective(o, D)
        if val < best_val - tol:
            best, best_val = o, val
    return best


def kemeny_objective(lists, order, weights=None) -> float:
    """Φ(σ) = Σ_l w_l · Kendall(σ, L_l) for a full order ``σ`` of feature indices."""
    from .._utils.validation import check_weights
    from ..lists import as_ranked_lists

    lists = as_ranked_lists(lists)
    weights = check_weights(weights, lists.n_lists, list_names=lists.list_names)
    D = np.asarray(pairwise_matrix(lists, weights), dtype=np.float64)
    order = np.asarray(order, dtype=np.int64)
    if np.sort(order).tolist() != list(range(lists.n_features)):
        raise ValueError("order must be a permutation of the feature indices")
    return float(_objective(order, D))


def _clone_classes(pos_rows: np.ndarray):
    """Features of a part with the same position in every list, as classes.

    Returns (reps, members): ``reps`` the lowest index of each class, ascending, and
    ``members[c]`` the class's indices, ascending (indices into the part).
    """
    _, first, inv = np.unique(pos_rows, axis=0, return_index=True, return_inverse=True)
    inv = inv.ravel()
    cls_order = np.argsort(first, kind="stable")
    relabel = np.empty_like(cls_order)
    relabel[cls_order] = np.arange(cls_order.size)
    lab = relabel[inv]
    by = np.argsort(lab, kind="stable")
    bounds = np.flatnonzero(np.diff(lab[by])) + 1
    members = np.split(by, bounds)
    return first[cls_order], members


def _solve_part(Dp, pos_rows, starts, *, exact, dp_max, ilp_max, time_limit, node_limit,
                restarts, seed):
    """One Condorcet part: (order, method, proven, reason, gap, n_classes).

    Features with the same position in every list (*clones*) are tied with each other in
    every list, so the pair costs nothing either way, and they meet every other feature
    alike; some optimal order keeps each class of clones together (move every clone to the
    best of their places: the cost cannot rise), so the part is solved on its classes, the
    cost of a pair of classes being ``|A|·|B|·d[a, b]``. A part whose (contracted) pairs are
    all tied in the majority sense (``d[a, b] = d[b, a]``) costs the same in any order, the
    lower bound ``Σ min(d[a, b], d[b, a])``: it is returned in index order, proven.
    """
    s = Dp.shape[0]
    reps, members = _clone_classes(pos_rows)
    u = reps.size
    if u == s:
        Dc = Dp
    else:
        sizes = np.array([m.size for m in members], dtype=np.float64)
        Dc = np.ascontiguousarray(Dp[np.ix_(reps, reps)]) * sizes[:, None] * sizes[None, :]

    def expand(corder):
        return np.concatenate([members[c] for c in corder])

    bound, symmetric = _pair_bound(Dc)
    if u == 1 or symmetric:
        return np.arange(s), "tied", True, "", 0.0, u
    reason = ""
    sub = None
    method = "heuristic"
    if not exact:
        reason = "exact=False"
    elif u <= dp_max:
        sub, _ = _subset_dp(Dc)
        method = "dp"
    elif u <= ilp_max:
        sub, _, reason = _ilp_part(Dc, time_limit, node_limit)
        if sub is not None:
            method = "ilp"
    else:
        reason = f"{u} features (clone classes) > ilp_max={ilp_max}"
    if sub is not None:
        return expand(np.asarray(sub)), method, True, "", 0.0, u
    rank_of = np.empty(s, dtype=np.int64)
    cstarts = []
    for st in starts:
        rank_of[st] = np.arange(s)
        cstarts.append(np.argsort(rank_of[reps], kind="stable"))
    sub = np.asarray(_heuristic_part(Dc, cstarts, restarts, seed), dtype=np.int64)
    val = float(_objective(sub, Dc))
    scale = float(Dc.max(initial=0.0))  # Dc ≥ 0
    proven = val <= bound + 1e-9 * max(scale, 1.0)
    if proven:
        reason += "; the objective equals the lower bound: proven optimal"
    return expand(sub), method, proven, reason, (0.0 if proven else val - bound), u


def _seconds(v) -> bool:
    return (not isinstance(v, (bool, np.bool_)) and isinstance(v, numbers.Real)
            and float(v) > 0)  # inf: no limit; NaN fails the comparison


def _real(v) -> bool:
    return not isinstance(v, (bool, np.bool_)) and isinstance(v, numbers.Real)


@register_rule("kemeny", invariants=("permute_lists", "relabel_objective", "unanimity",
                                     "condorcet", "seeded"), constraints={
    "exact": BOOL, "dp_max": count(1, 25), "ilp_max": count(1), "restarts": count(0),
    "node_limit": [None, *count(1)], "random_state": SEED,
    "time_limit": [Check(_seconds, "a positive number of seconds (inf: no limit)",
                         kind=_real, toml="float")],
    **PAIRWISE_CONSTRAINTS})
@pairwise_doc
def kemeny(lists, *, exact=True, dp_max=20, ilp_max=300, time_limit=10.0, node_limit=None,
           restarts=10, random_state=0, candidates=None, max_memory=None, weights=None):
    """Kemeny–Young consensus: the order minimising Σ_l w_l · Kendall(σ, L_l).

    Exact by the Condorcet split, classes of features tied in every list (solved as one),
    subset dynamic programming (parts ≤ ``dp_max``) and integer programming with lazy
    triangle inequalities (parts ≤ ``ilp_max``); beyond, Borda/Copeland starts and randomised
    KwikSort restarts improved by insertion local search, never worse than the better of Borda
    and Copeland. ``scores`` are ``p − position``.

    Parameters
    ----------
    exact : bool
        Try the exact solvers (False: heuristic on every part that is not solved directly).
    dp_max : int
        Largest part (counted in classes of features tied in every list) solved by dynamic
        programming (memory 9·2^s bytes; at most 25).
    ilp_max : int
        Largest part (in classes) given to the ILP. The ILP is skipped first, whatever
        ``ilp_max``, for a part whose majority tournament has more than 20,000 3-cycles
        (counted in O(s²) as C(s, 3) − Σ_i C(out_i, 2)); a random-like part has about s³/24
        of them, over the limit from s ≈ 80 on, so raising ``ilp_max`` cannot change the
        outcome for such parts: it only matters for large parts with few 3-cycles (lists
        that mostly agree).
    time_limit : float
        Seconds allowed to the ILP on one part before it falls back to the heuristic. A
        safety net for parts too hard to prove: it is the one choice that can depend on the
        machine's speed (a part that times out here may be proven elsewhere, and its order,
        though never worse than Borda's or Copeland's, may then differ). Parts whose majority
        tournament has more than 20,000 3-cycles skip the ILP deterministically; for strictly
        machine-independent output on borderline parts, set ``exact=False`` or a generous
        ``time_limit``.
    node_limit : int, optional
        Branch-and-bound nodes per ILP solve (a deterministic limit).
    restarts : int
        KwikSort restarts of the heuristic (each improved by local search).
    random_state : None, int or Generator
        Seed of the KwikSort pivots (docs/design.md, "Seeds"): the default 0 is deterministic;
        ``None`` draws fresh entropy, so two calls may differ when the heuristic decides.
    %(pairwise_params)s

    Returns
    -------
    Consensus
        ``info`` holds ``objective`` (Φ of the returned order), ``optimal`` (True when Φ is
        proven minimal: every part solved exactly, or a heuristic part whose objective equals
        its lower bound), ``lower_bound`` (Φ of the proven parts plus Σ min(d[i, j], d[j, i])
        over the pairs of the others), ``parts`` (part sizes, in order), ``part_methods``
        (``"single"``, ``"tied"`` — every pair of the part tied, any order optimal —,
        ``"dp"``, ``"ilp"`` or ``"heuristic"``), ``part_classes`` (classes of features tied
        in every list, per part), ``part_reasons`` (why a part went to the heuristic: its size,
        its 3-cycle count, the ILP's time or node limit, ``exact=False``; empty for exact
        parts), ``borda_objective`` and ``copeland_objective``. With ``candidates``, all of
        these refer to the candidates' sub-problem (pairs among candidates) and
        ``n_candidates`` is their number; the other features follow in Borda's order.

    Examples
    --------
    >>> from rankfusion import RankedLists, aggregate
    >>> lists = RankedLists.from_orders([list("abcd"), list("bacd"), list("acbd")])
    >>> res = aggregate(lists, "kemeny")
    >>> res.top(), res.info["objective"], res.info["optimal"]
    (['a', 'b', 'c', 'd'], 2.0, True)
    """
    # the values are checked by the declared constraints (docs/design.md, 'Parameters')
    exact = check_bool(exact, "exact")
    dp_max, ilp_max, restarts = int(dp_max), int(ilp_max), int(restarts)
    node_limit = None if node_limit is None else int(node_limit)
    time_limit = float(time_limit)
    seed = check_seed(random_state)
    p = lists.n_features
    idx = candidate_set(lists, candidates)
    sel = np.arange(p) if idx is None else idx
    n = sel.size
    k = None if idx is None else check_top_k(candidates, p, name="candidates")
    d = _pairwise(lists, weights, idx, rule="kemeny", max_memory=max_memory, k=k)
    D = np.asarray(d, dtype=np.float64)
    bkey, _ = borda_key(lists, weights)
    bsub = bkey[sel]
    b_order = np.argsort(bsub, kind="stable").astype(np.int64)
    cscore = _copeland_scores.run(d, work=d.size)
    c_order = np.lexsort((bsub, -cscore)).astype(np.int64)
    b_obj = float(_objective(b_order, D))
    c_obj = float(_objective(c_order, D))
    parts = condorcet_parts(d)
    del d
    pos_sel = lists.positions2[sel]
    rank_b = np.empty(n, dtype=np.int64)
    rank_b[b_order] = np.arange(n)
    rank_c = np.empty(n, dtype=np.int64)
    rank_c[c_order] = np.arange(n)
    order_parts, methods, reasons, classes = [], [], [], []
    all_proven = True
    gap = 0.0  # Σ over unproven parts of (their objective − a lower bound)
    for pi, part in enumerate(parts):
        if part.size == 1:
            order_parts.append(part)
            methods.append("single")
            reasons.append("")
            classes.append(1)
            continue
        Dp = D if part.size == n else np.ascontiguousarray(D[np.ix_(part, part)])
        starts = [np.argsort(rank_b[part], kind="stable"),
                  np.argsort(rank_c[part], kind="stable")]
        sub, method, proven, reason, g, u = _solve_part(
            Dp, pos_sel[part], starts, exact=exact, dp_max=dp_max, ilp_max=ilp_max,
            time_limit=float(time_limit), node_limit=node_limit, restarts=restarts,
            seed=seed + pi)
        all_proven &= proven
        gap += g
        order_parts.append(part[sub])
        methods.append(method)
        reasons.append(reason)
        classes.append(int(u))
    order_sub = np.concatenate(order_parts).astype(np.int64)
    obj = float(_objective(order_sub, D))
    # pairs across parts follow the strict majority in every optimal order, so only the
    # unproven parts leave a gap between the objective and the optimum
    lower = obj - gap
    best_ref = min(b_obj, c_obj)
    if obj > best_ref:  # pragma: no cover - the local search cannot lose to its starts
        order_sub = b_order if b_obj <= c_obj else c_order
        obj = best_ref
    order = sel[order_sub]
    if idx is not None:
        rest = np.ones(p, dtype=bool)
        rest[idx] = False
        tail = np.flatnonzero(rest)
        tail = tail[np.argsort(bkey[tail], kind="stable")]
        order = np.concatenate([order, tail])
    order = order.astype(np.intp)
    ranks = np.empty(p, dtype=np.int64)
    ranks[order] = np.arange(1, p + 1)
    info = {
        "objective": obj,
        "optimal": bool(all_proven),
        "lower_bound": float(min(lower, obj)),
        "parts": [int(x.size) for x in parts],
        "part_methods": methods,
        "part_classes": classes,
        "part_reasons": reasons,
        "borda_objective": b_obj,
        "copeland_objective": c_obj,
    }
    params = {"exact": bool(exact), "dp_max": dp_max, "ilp_max": ilp_max,
              "time_limit": float(time_limit), "node_limit": node_limit, "restarts": restarts,
              "random_state": random_state}
    if idx is not None:
        params["candidates"] = check_top_k(candidates, p, name="candidates")
        info["n_candidates"] = int(n)
    return build_consensus(lists, keys=[ranks], scores=(p - ranks).astype(np.float64),
                           method="kemeny", params=params, info=info, order=order)
