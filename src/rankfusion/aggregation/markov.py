"""Markov-chain rules MC1–MC4 (Dwork, Kumar, Naor & Sivakumar 2001, §4.1).

The states are the features; a chain moves from feature i towards features the lists rank
higher, and the consensus orders the features by the chain's stationary probability (higher =
better), ties by the mean relative ranking, then the lower index. Notation: ``L_i`` the lists
that rank i, ``pos_l`` a list's positions (1 = best; average ties share their mean), ``|l|`` the
number of features list l ranks, n the number of states. A feature absent from a top-k list is
*unranked* by it (not placed at k + 1): the chains follow the paper's partial lists.

``variant="dwork"`` (default) — the paper's chains:

* MC1: from i, move to a feature drawn uniformly from the multiset
  ``⋃_{l ∈ L_i} {j : pos_l(j) ≤ pos_l(i)}``:
  ``T[i, j] = c_ij / Σ_k c_ik``, ``c_ij = #{l ∈ L_i ∩ L_j : pos_l(j) ≤ pos_l(i)}``;
* MC2: pick a list l ∈ L_i uniformly, then a feature uniformly from
  ``{j : pos_l(j) ≤ pos_l(i)}``;
* MC3: pick a list l ∈ L_i uniformly, then a feature j uniformly among the ``|l|`` it ranks;
  move to j if ``pos_l(j) < pos_l(i)``, else stay;
* MC4: pick a feature j uniformly among the n; move to j if a strict majority of the lists
  ranking both put j above i, else stay.

``variant="pyflagr"`` — the matrices of FLAGR/PyFLAGR 1.0.21 (``src/ram/MC.cpp``,
``compute_state_matrix``), which depart from the paper: with ``w_ij`` the lists ranking both i
and j that put i above j, ``b_ij`` the lists ranking both and M all lists, the off-diagonal
``T[i, j]`` is ``1/n`` unless ``w_ij = M`` (MC1), unless ``w_ij > M/2`` (MC2, and MC4 where
``B_ij > 0``; ``0.5/n`` where ``B_ij = 0``), and ``w_ij / (B_ij n)`` for MC3 (0 where
``B_ij = 0``) — a move towards features ranked *lower*, so PyFLAGR's MC3 order is close to
reversed; the diagonal takes the rest of the row. ``B_ij = Σ_{j' ≤ j} b_ij'`` is FLAGR's
``lists_with_both``, which its loop resets once per row and so sums over the columns up to j
in FLAGR's item order (the feature names sorted as strings); hence this variant depends on
the names, and is not invariant to relabelling.

Both variants then add PyFLAGR's teleport (ergodicity) term,
``T' = (1 − α) T + α / n`` (``ergodic_number`` α, default 0.15), and run PyFLAGR's power
iteration: ``π₀ = 1/n``, ``π ← π T'`` at most ``max_iter − 1`` times (``max_iter`` = 100, the
count of FLAGR's loop ``while (iteration < max_iterations)`` from 1), stopping early — and
keeping the previous π, as FLAGR does — once no entry changes by more than ``tol`` (0, as
PyFLAGR passes). The probabilities are rounded to 10 decimals of ``n·π`` (relative 1e-10), so
that features equal in exact arithmetic tie instead of differing in the last bit. The chains
take no list weights (PyFLAGR computes but does not use them).
docs/design.md, 'Markov-chain rules', states these choices and the measured agreement with
PyFLAGR.
"""

from __future__ import annotations

import numpy as np

from .._utils.constraints import Interval, Options
from .._utils.jit import kernel
from ._memory import memory_limit
from ._params import MAX_MEMORY, OPTIONAL_TOP_K, count
from ._registry import register_rule
from ._result import build_consensus
from .statistics import borda_key

__all__ = ["markov_chain", "transition_matrix", "stationary_distribution", "mc1", "mc2",
           "mc3", "mc4", "MARKOV_CONSTRAINTS"]

#: The parameters the four chains share.
MARKOV_CONSTRAINTS = {
    "variant": [Options("dwork", "pyflagr")],
    "ergodic_number": [Interval("real", 0, 1, closed="both")],
    "max_iter": count(1),
    "tol": [Interval("real", 0, None)],
    "candidates": OPTIONAL_TOP_K,
    "max_memory": MAX_MEMORY,
}

_CHAINS = ("mc1", "mc2", "mc3", "mc4")
#: Peak bytes per cell of the n × n problem (the float64 matrix, its teleported copy, the
#: int64 pairwise counts and a boolean temporary), rounded up.
_BYTES_PER_CELL = 40


def _canonical(pos2, ranked):
    """Orders of the lists and of the features that do not depend on how either is labelled.

    The matrices are built with lists and features in these orders and mapped back, so
    permuting the lists or renaming the features gives bit-identical probabilities.
    """
    key = np.concatenate([pos2, ranked.astype(pos2.dtype)], axis=0)
    list_order = np.lexsort(key[::-1])
    rows = np.concatenate([pos2[:, list_order], ranked[:, list_order].astype(pos2.dtype)],
                          axis=1)
    feat_order = np.lexsort(rows.T[::-1])
    return list_order, feat_order


def _pair_counts(pos2, ranked):
    """``(w, b)``: ``w[i, j]`` lists ranking both with i strictly above j, ``b`` ranking both."""
    m = pos2.shape[1]
    n = pos2.shape[0]
    w = np.zeros((n, n), dtype=np.int64)
    for l in range(m):  # one vectorised p × p comparison per list
        col = pos2[:, l]
        r = ranked[:, l]
        above = np.less.outer(col, col)
        above &= r[:, None]
        above &= r[None, :]
        w += above
    rk = ranked.astype(np.int64)
    b = rk @ rk.T
    return w, b


def _dwork_matrix(chain, pos2, ranked):
    n, m = pos2.shape
    if chain == "mc4":
        w, b = _pair_counts(pos2, ranked)
        move = 2 * w.T > b  # a strict majority of the lists ranking both put j above i
        np.fill_diagonal(move, False)
        T = move / float(n)
    else:
        lengths = ranked.sum(axis=0)
        n_lists_i = ranked.sum(axis=1)  # |L_i|
        T = np.zeros((n, n))
        for l in range(m):
            col = pos2[:, l]
            r = ranked[:, l]
            if chain == "mc3":
                hit = np.greater.outer(col, col)  # pos_l(j) < pos_l(i)
            else:
                hit = np.greater_equal.outer(col, col)  # pos_l(j) ≤ pos_l(i)
            hit &= r[:, None]
            hit &= r[None, :]
            if chain == "mc1":
                T += hit
                continue
            if chain == "mc2":
                size = hit.sum(axis=1)  # |{j : pos_l(j) ≤ pos_l(i)}|, 0 where l lacks i
            else:
                size = np.where(r, lengths[l], 0)
            with np.errstate(divide="ignore", invalid="ignore"):
                row_w = np.where(r, 1.0 / (np.maximum(size, 1) * np.maximum(n_lists_i, 1)),
                                 0.0)
            T += hit * row_w[:, None]
        if chain == "mc1":
            tot = T.sum(axis=1)
            T = T / np.where(tot > 0, tot, 1.0)[:, None]
        np.fill_diagonal(T, 0.0)
    np.fill_diagonal(T, 1.0 - T.sum(axis=1))
    return T


def _pyflagr_matrix(chain, pos2, ranked):
    n, m = pos2.shape
    w, b = _pair_counts(pos2, ranked)
    # FLAGR resets its ``lists_with_both`` once per row, not per pair: it is the running sum
    # of b over the row's columns (features in FLAGR's order, by name), i itself included
    b = np.cumsum(b, axis=1)
    if chain == "mc1":
        T = np.where(w == m, 0.0, 1.0 / n)
    elif chain == "mc2":
        T = np.where(2 * w > m, 0.0, 1.0 / n)
    elif chain == "mc3":
        with np.errstate(divide="ignore", invalid="ignore"):
            T = np.where(b == 0, 0.0, w / (np.maximum(b, 1) * float(n)))
    else:
        T = np.where(b == 0, 0.5 / n, np.where(2 * w > m, 0.0, 1.0 / n))
    np.fill_diagonal(T, 0.0)
    np.fill_diagonal(T, 1.0 - T.sum(axis=1))
    return T


def _coded(chain, variant, pos2, ranked):
    """``(codes, vals)`` with ``T[i, j] = vals[codes[i, j]]`` off the diagonal, for the chains
    whose moves take two or three values (MC4; PyFLAGR's MC1, MC2, MC4); None for the others.

    The uint8 codes take an eighth of the float matrix's memory traffic in the power
    iteration (:func:`_power_codes`).
    """
    n, m = pos2.shape
    if chain == "mc4" and variant == "dwork":
        w, b = _pair_counts(pos2, ranked)
        return (2 * w.T > b).astype(np.uint8), np.array([0.0, 1.0 / n])
    if variant != "pyflagr" or chain == "mc3":
        return None
    w, b = _pair_counts(pos2, ranked)
    if chain == "mc1":
        return (w != m).astype(np.uint8), np.array([0.0, 1.0 / n])
    if chain == "mc2":
        return (2 * w <= m).astype(np.uint8), np.array([0.0, 1.0 / n])
    b = np.cumsum(b, axis=1)  # FLAGR's running lists_with_both (see _pyflagr_matrix)
    codes = np.where(b == 0, 2, np.where(2 * w > m, 0, 1)).astype(np.uint8)
    return codes, np.array([0.0, 1.0 / n, 0.5 / n])


def _coded_diagonal(codes, vals):
    """Set the diagonal code to a zero value; return the diagonal ``1 − Σ_{j≠i} T[i, j]``."""
    np.fill_diagonal(codes, len(vals))
    off = np.zeros(codes.shape[0])
    for c, v in enumerate(vals):
        if v:
            off += (codes == c).sum(axis=1) * v
    return np.append(vals, 0.0), 1.0 - off


@kernel(python_below=20_000, nogil=True)
def _power_dense(Tt, alpha, max_iter, tol):  # pragma: no cover - compiled
    """PyFLAGR's power iteration on ``T' = (1 − α) T + α/n``, ``Tt`` = Tᵀ; ``(π, products)``."""
    n = Tt.shape[0]
    pi = np.full(n, 1.0 / n)
    nxt = np.empty(n)
    done = 0
    for _ in range(max_iter - 1):
        total = 0.0
        for i in range(n):
            total += pi[i]
        jump = alpha / n * total
        change = 0.0
        for j in range(n):
            row = Tt[j]
            acc = 0.0
            for i in range(n):
                acc += pi[i] * row[i]
            v = (1.0 - alpha) * acc + jump
            nxt[j] = v
            d = abs(v - pi[j])
            if d > change:
                change = d
        done += 1
        if change <= tol:
            break
        for j in range(n):
            pi[j] = nxt[j]
    return pi, done


@kernel(python_below=20_000, nogil=True)
def _power_codes(codes_t, vals, diag, alpha, max_iter, tol):  # pragma: no cover - compiled
    """PyFLAGR's power iteration on ``T' = (1 − α) T + α/n`` with T given by codes (transposed:
    ``codes_t[j, i]`` codes ``T[i, j]``); returns ``(π, products)``."""
    n = codes_t.shape[0]
    pi = np.full(n, 1.0 / n)
    nxt = np.empty(n)
    done = 0
    for _ in range(max_iter - 1):
        total = 0.0
        for i in range(n):
            total += pi[i]
        jump = alpha / n * total
        change = 0.0
        for j in range(n):
            row = codes_t[j]
            acc = pi[j] * diag[j]
            for i in range(n):
                acc += pi[i] * vals[row[i]]
            v = (1.0 - alpha) * acc + jump
            nxt[j] = v
            d = abs(v - pi[j])
            if d > change:
                change = d
        done += 1
        if change <= tol:
            break
        for j in range(n):
            pi[j] = nxt[j]
    return pi, done


def _check_chain(chain):
    if chain not in _CHAINS:
        raise ValueError(f"chain must be one of {', '.join(_CHAINS)}, got {chain!r}")


def transition_matrix(lists, chain: str = "mc4", *, variant: str = "dwork") -> np.ndarray:
    """The transition matrix T (p × p, rows sum to 1) of a Markov-chain rule, before teleport.

    ``T[i, j]`` is the probability of moving from feature i to feature j; the chains are those
    of the module docstring (Dwork et al. 2001, §4.1, or PyFLAGR's with ``variant="pyflagr"``,
    built as FLAGR does with the features sorted by name and returned in feature order).

    Parameters
    ----------
    lists : RankedLists or array-like of shape (p, M)
        The lists (a bare array is scores, higher = better).
    chain : {"mc1", "mc2", "mc3", "mc4"}, default "mc4"
        Which chain.
    variant : {"dwork", "pyflagr"}, default "dwork"
        The paper's chains or PyFLAGR 1.0.21's matrices.

    Returns
    -------
    ndarray of shape (p, p)
    """
    from .._utils.constraints import check_param
    from ..lists import as_ranked_lists

    _check_chain(chain)
    check_param("variant", variant, MARKOV_CONSTRAINTS["variant"])
    lists = as_ranked_lists(lists)
    pos2, ranked = np.asarray(lists.positions2), lists.ranked
    if variant == "dwork":
        return _dwork_matrix(chain, pos2, ranked)
    # FLAGR builds its matrix with the items sorted by name; map it back to feature order
    o = np.argsort(np.array([str(f) for f in lists.features]), kind="stable")
    T = np.empty((o.size, o.size))
    T[np.ix_(o, o)] = _pyflagr_matrix(chain, pos2[o], ranked[o])
    return T


def stationary_distribution(T, *, ergodic_number: float = 0.15, max_iter: int = 100,
                            tol: float = 0.0) -> tuple[np.ndarray, int]:
    """PyFLAGR's power iteration on ``T' = (1 − α) T + α / n`` from the uniform vector.

    ``π ← π T'`` at most ``max_iter − 1`` times; it stops once ``max_k |π_new − π| ≤ tol`` and
    then returns the previous π (as FLAGR's ``compute_state_matrix``).

    Parameters
    ----------
    T : ndarray of shape (n, n)
        A row-stochastic matrix.
    ergodic_number : float in [0, 1], default 0.15
        The teleport probability α.
    max_iter : int ≥ 1, default 100
        FLAGR's ``max_iterations``.
    tol : float ≥ 0, default 0.0
        FLAGR's convergence precision.

    Returns
    -------
    pi : ndarray of shape (n,)
        The state vector.
    n_iter : int
        Products computed.
    """
    n = T.shape[0]
    # the transpose, contiguous, so that each product reads rows; a serial compiled loop: on
    # a busy machine a threaded BLAS gemv was 10-30× slower (benchmarks/bench_markov.py)
    Tt = np.ascontiguousarray(T.T, dtype=np.float64)
    pi, done = _power_dense.run(Tt, float(ergodic_number), int(max_iter), float(tol),
                                work=n * n * max(int(max_iter) - 1, 1))
    return pi, int(done)


def _check_memory(n, p, max_memory, candidates):
    limit, source = memory_limit(max_memory)
    need = float(_BYTES_PER_CELL) * n * n
    if need > limit:
        what = f"{n:,} candidates" if candidates is not None else f"p = {p:,} features"
        raise ValueError(
            f"a Markov-chain rule on {what} needs about {need / 2**20:,.1f} MiB for its "
            f"{n:,} × {n:,} transition matrices (estimate), more than the limit of "
            f"{limit / 2**20:,.1f} MiB ({source}): pass a smaller candidates= or use borda")


def markov_chain(lists, chain: str = "mc4", *, variant: str = "dwork",
                 ergodic_number: float = 0.15, max_iter: int = 100, tol: float = 0.0,
                 candidates=None, max_memory=None):
    """A Markov-chain consensus (Dwork et al. 2001): the registered ``mc1`` … ``mc4``.

    Parameters
    ----------
    lists : RankedLists
        The lists.
    chain : {"mc1", "mc2", "mc3", "mc4"}, default "mc4"
        Which chain (module docstring).
    variant, ergodic_number, max_iter, tol, candidates, max_memory
        As :func:`mc4`.

    Returns
    -------
    Consensus
        ``scores`` the stationary probabilities (0 for features outside ``candidates``),
        ``tiebreak`` the mean relative ranking; ``info["n_iter"]`` the products computed.
    """
    _check_chain(chain)
    idx, k = None, None
    if candidates is not None:
        from .voting import _candidates  # the pairwise rules' candidate set (same meaning)

        idx, k = _candidates(lists, candidates)
    p = lists.n_features
    pos2 = np.asarray(lists.positions2)
    ranked = lists.ranked
    if idx is not None:
        pos2, ranked = pos2[idx], ranked[idx]
    n = pos2.shape[0]
    _check_memory(n, p, max_memory, candidates)
    list_order, feat_order = _canonical(pos2, ranked)
    if variant == "pyflagr":  # FLAGR's matrix depends on its item order: names, as strcmp
        names = lists.features if idx is None else lists.features[idx]
        feat_order = np.argsort(np.array([str(f) for f in names]), kind="stable")
    pos2c = pos2[feat_order][:, list_order]
    rankedc = ranked[feat_order][:, list_order]
    coded = _coded(chain, variant, pos2c, rankedc)
    if coded is not None:
        codes, vals = coded
        vals, diag = _coded_diagonal(codes, vals)
        codes_t = np.ascontiguousarray(codes.T)
        del codes
        pi_c, n_iter = _power_codes.run(codes_t, vals, diag, float(ergodic_number),
                                        int(max_iter), float(tol),
                                        work=n * n * max(int(max_iter) - 1, 1))
        del codes_t
    else:
        build = _dwork_matrix if variant == "dwork" else _pyflagr_matrix
        T = build(chain, pos2c, rankedc)
        pi_c, n_iter = stationary_distribution(T, ergodic_number=float(ergodic_number),
                                               max_iter=int(max_iter), tol=float(tol))
        del T
    n_iter = int(n_iter)
    # states equal in exact arithmetic (exchangeable features) differ by rounding only:
    # keep 10 decimals of n·π (relative 1e-10, far above the rounding error, far below
    # PyFLAGR's printed 1e-6), so that they tie and the tie breaks decide
    pi_c = np.round(pi_c * n, 10) / n
    pi = np.empty(n)
    pi[feat_order] = pi_c
    score = np.full(p, 0.0) if idx is not None else pi
    if idx is not None:
        score[idx] = pi
    member = np.zeros(p, dtype=np.int8)
    if idx is not None:
        member[idx] = 1
    bkey, mean_r = borda_key(lists, None)
    params = {"variant": variant, "ergodic_number": float(ergodic_number),
              "max_iter": int(max_iter), "tol": float(tol)}
    info = {"n_iter": n_iter}
    if idx is not None:
        params["candidates"] = k
        info["n_candidates"] = int(idx.size)
    keys = [-score, bkey] if idx is None else [-member, -score, bkey]
    return build_consensus(lists, keys=keys, scores=score, method=chain, params=params,
                           tiebreak=mean_r, tiebreak_name="mean_relative", info=info)


_PARAMS_DOC = """
    Parameters
    ----------
    variant : {"dwork", "pyflagr"}, default "dwork"
        ``"dwork"``: the chain of Dwork et al. (2001, §4.1); ``"pyflagr"``: the matrix of
        PyFLAGR 1.0.21 (module docstring; equal to PyFLAGR's output, tests/fixtures/markov).
    ergodic_number : float in [0, 1], default 0.15
        Teleport probability α: ``T' = (1 − α) T + α / n`` (PyFLAGR's default).
    max_iter : int ≥ 1, default 100
        PyFLAGR's ``max_iterations``: at most ``max_iter − 1`` products ``π T'``.
    tol : float ≥ 0, default 0.0
        Stop once no probability changes by more than ``tol`` (PyFLAGR passes 0).
    candidates : int or float, optional
        Run the chain on the union of every list's top-k features only (an int ≥ 1 is k, a
        float in (0, 1] a fraction of p); the other features follow all the candidates in
        Borda's order with score 0.
    max_memory : float, optional
        Byte limit for the n × n matrices (about 40 bytes a cell), checked before allocating
        (default: ``RANKFUSION_MAX_MEMORY``, else 75 % of physical memory).
    weights : None
        Not accepted (the chains have no weighted form in the paper; PyFLAGR ignores them).

    Returns
    -------
    Consensus
        ``scores`` the stationary probabilities; ties by the mean relative ranking
        (``tiebreak``), then the lower index; ``info["n_iter"]`` the products computed.
"""

_PROMISES = ("permute_lists", "relabel", "unanimity")


def _doc(func):
    func.__doc__ = func.__doc__.rstrip() + "\n" + _PARAMS_DOC
    return func


@register_rule("mc1", weights=False, invariants=_PROMISES, constraints=MARKOV_CONSTRAINTS)
@_doc
def mc1(lists, *, variant="dwork", ergodic_number=0.15, max_iter=100, tol=0.0,
        candidates=None, max_memory=None, weights=None):
    """MC1 (Dwork et al. 2001, §4.1): move uniformly within the multiset of better features.

    From feature i the chain moves to a feature drawn uniformly from the multiset
    ``⋃_{l ∈ L_i} {j : pos_l(j) ≤ pos_l(i)}`` (the paper: "the multiset of all pages that were
    ranked higher than or equal to P by some search engine that ranked P"):
    ``T[i, j] = c_ij / Σ_k c_ik`` with ``c_ij = #{l ranking i and j : pos_l(j) ≤ pos_l(i)}``.
    """
    return markov_chain(lists, "mc1", variant=variant, ergodic_number=ergodic_number,
                        max_iter=max_iter, tol=tol, candidates=candidates,
                        max_memory=max_memory)


@register_rule("mc2", weights=False, invariants=_PROMISES, constraints=MARKOV_CONSTRAINTS)
@_doc
def mc2(lists, *, variant="dwork", ergodic_number=0.15, max_iter=100, tol=0.0,
        candidates=None, max_memory=None, weights=None):
    """MC2 (Dwork et al. 2001, §4.1): a random list, then a random feature it ranks as high.

    ``T[i, j] = (1/|L_i|) Σ_{l ∈ L_i, j ∈ l} [pos_l(j) ≤ pos_l(i)] / #{k : pos_l(k) ≤
    pos_l(i)}`` — the list l is drawn uniformly among those ranking i, then j uniformly among
    the features l ranks at least as high as i (i itself included).
    """
    return markov_chain(lists, "mc2", variant=variant, ergodic_number=ergodic_number,
                        max_iter=max_iter, tol=tol, candidates=candidates,
                        max_memory=max_memory)


@register_rule("mc3", weights=False, invariants=_PROMISES, constraints=MARKOV_CONSTRAINTS)
@_doc
def mc3(lists, *, variant="dwork", ergodic_number=0.15, max_iter=100, tol=0.0,
        candidates=None, max_memory=None, weights=None):
    """MC3 (Dwork et al. 2001, §4.1): a random list and a random feature; move if it is higher.

    ``T[i, j] = (1/|L_i|) Σ_{l ∈ L_i, j ∈ l} [pos_l(j) < pos_l(i)] / |l|``, the rest of the
    row staying at i. With ``variant="pyflagr"`` PyFLAGR's matrix moves towards *lower*
    features (module docstring), so its order is close to reversed.
    """
    return markov_chain(lists, "mc3", variant=variant, ergodic_number=ergodic_number,
                        max_iter=max_iter, tol=tol, candidates=candidates,
                        max_memory=max_memory)


@register_rule("mc4", weights=False, invariants=(*_PROMISES, "condorcet"),
               constraints=MARKOV_CONSTRAINTS)
@_doc
def mc4(lists, *, variant="dwork", ergodic_number=0.15, max_iter=100, tol=0.0,
        candidates=None, max_memory=None, weights=None):
    """MC4 (Dwork et al. 2001, §4.1): a random feature; move to it if a majority prefers it.

    ``T[i, j] = (1/n) [#{l : pos_l(j) < pos_l(i)} > b_ij / 2]`` with ``b_ij`` the lists
    ranking both; the rest of the row stays at i. On full lists without ties and an odd
    number of lists it equals PyFLAGR's MC4; with an even number, a pair split evenly moves
    in PyFLAGR and stays here (the paper's strict majority).
    """
    return markov_chain(lists, "mc4", variant=variant, ergodic_number=ergodic_number,
                        max_iter=max_iter, tol=tol, candidates=candidates,
                        max_memory=max_memory)
