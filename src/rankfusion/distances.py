"""Distances between ranked lists: Spearman's footrule and Kendall's tau, full, top-k, weighted.

These are the distances of Bouaguel et al. (2013, eqs. 3-7) behind the ``ga`` and ``ce``
aggregation rules, and Kendall's tau is the objective of ``kemeny``. The paper's eq. 6 is
garbled, so we follow the code of R's RankAggreg 0.6.6 (Pihur, Datta & Datta), ``spearmanW`` in
``src/RankAggreg.c`` and ``kendall.dist.w`` in ``R/kendall.R`` (docs/design.md, 'Distances').

Notation. ``a`` (the candidate σ) and ``b`` (the input list L) are orders, best first. With ``k``
given they are top-k lists: their first k elements are used, and an element of the union
``U = a ∪ b`` absent from one of them takes position ``k + 1`` in it. Without ``k`` both are full
orders of the same elements (then ``k`` is their length and nothing is absent). ``r_a(f)`` and
``r_b(f)`` are the positions (1 = best).

* **Spearman's footrule**: ``F(a, b) = Σ_{f∈U} |r_a(f) − r_b(f)|``.
* **Kendall's tau**: ``K(a, b) = Σ_{{i, j} ⊂ U} K_ij``, with ``K_ij = 1`` when the two lists order
  i and j in strictly opposite ways, ``K_ij = penalty`` when i and j are *both absent* from one
  of the lists (their order there is unknown; Fagin, Kumar & Sivakumar 2003, Bouaguel eq. 5),
  and 0 otherwise. RankAggreg uses ``penalty = 0``.
* **Weighted forms** (``scores`` given): ``scores[t]`` is the score weight ``W_b(t + 1)`` of the
  element at position ``t + 1`` of ``b`` — the input list's own (standardised) scores in
  RankAggreg, or per-feature weights (Bouaguel §3.2.3) laid out in ``b``'s order. Each term is
  multiplied by the gap of ``b``'s weights:

  - footrule: ``Σ_{f∈U} |r_a(f) − r_b(f)| · |W_b(r_a(f)) − W_b(r_b(f))|`` with ``W_b(k+1) = 0``
    (``spearmanW``: an element absent from one list contributes ``|i − (k+1)| · W_b(i)``);
  - Kendall: ``Σ K_ij · |W_b(r̃_b(i)) − W_b(r̃_b(j))|`` with ``r̃_b = min(r_b, k)``
    (``kendall.dist.w`` clips the position of an absent element to k).

  With RankAggreg's standardised weights ``W_b(k) = 0``, so both conventions agree; with raw
  or per-feature weights they differ, and we keep each as RankAggreg's code has it.

Complexity: the full-list Kendall distance counts inversions with a Fenwick tree,
O(p log p); the weighted full-list form uses a divide-and-conquer over a Fenwick tree,
O(p log² p). Top-k distances are O(k log k) unweighted, O(k²) weighted.
:func:`distance_matrix` evaluates many candidates against many lists with compiled kernels.

References
----------
Bouaguel, W., Ben Brahim, A. & Limam, M. (2013). Feature selection by rank aggregation and
genetic algorithms. KDIR 2013, 74-81.
Pihur, V., Datta, S. & Datta, S. (2009). RankAggreg, an R package for weighted rank
aggregation. BMC Bioinformatics 10, 62 (package version 0.6.6).
Fagin, R., Kumar, R. & Sivakumar, D. (2003). Comparing top k lists. SIAM J. Discrete Math. 17.
"""

from __future__ import annotations

import numbers

import numba
import numpy as np

__all__ = ["spearman_footrule", "kendall_tau", "distance_matrix", "DISTANCES"]

DISTANCES = ("spearman", "kendall")


# --------------------------------------------------------------------------- kernels
@numba.njit(cache=True, nogil=True)
def _inversions_into(v, m, tree, size):  # pragma: no cover - compiled
    """Pairs s < t < m with v[s] > v[t] (strict), values in [0, size), by a Fenwick tree.

    ``tree`` (length ≥ size + 1) is scratch space, cleared here, so hot loops reuse one buffer.
    """
    for q in range(size + 1):
        tree[q] = 0
    inv = 0
    for t in range(m):
        x = v[t] + 1
        # count of previous values <= v[t]
        c = 0
        i = x
        while i > 0:
            c += tree[i]
            i -= i & (-i)
        inv += t - c
        i = x
        while i <= size:
            tree[i] += 1
            i += i & (-i)
    return inv


@numba.njit(cache=True, nogil=True)
def _fenwick_inversions(v, size):  # pragma: no cover - compiled
    """Number of pairs s < t with v[s] > v[t] (strict); values in [0, size)."""
    return _inversions_into(v, v.shape[0], np.zeros(size + 1, dtype=np.int64), size)


@numba.njit(cache=True, nogil=True)
def _weighted_inversions_full(v, wv):  # pragma: no cover - compiled
    """Σ over pairs s < t with v[s] > v[t] of |w[s] − w[t]|; v a permutation of 0..n-1.

    ``wv[x]`` is the weight of value x. Divide and conquer on the index (CDQ): cross pairs of
    two halves are counted by sweeping the values downwards with a Fenwick tree keyed by the
    rank of the weight, holding counts and sums. O(n log² n).
    """
    n = v.shape[0]
    w = np.empty(n)
    for s in range(n):
        w[s] = wv[v[s]]
    # ranks of the weights (ties share a rank)
    order = np.argsort(w, kind="mergesort")
    rank = np.empty(n, dtype=np.int64)
    nr = 0
    for t in range(n):
        if t > 0 and w[order[t]] != w[order[t - 1]]:
            nr += 1
        rank[order[t]] = nr
    nr += 1
    cnt = np.zeros(nr + 1, dtype=np.int64)
    sm = np.zeros(nr + 1)
    total = 0.0
    # iterative bottom-up merge over blocks; idx holds indices sorted by v inside each block
    idx = np.arange(n)
    tmp = np.empty(n, dtype=np.int64)
    width = 1
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            if mid < hi:
                # sweep right-half elements by decreasing v; insert left elements with larger v
                li = mid - 1
                inserted_lo = mid
                for rt in range(hi - 1, mid - 1, -1):
                    t = idx[rt]
                    while li >= lo and v[idx[li]] > v[t]:
                        s = idx[li]
                        x = rank[s] + 1
                        while x <= nr:
                            cnt[x] += 1
                            sm[x] += w[s]
                            x += x & (-x)
                        li -= 1
                        inserted_lo = li + 1
                    # query: elements with rank <= rank[t] and > rank[t]
                    x = rank[t] + 1
                    c_le = 0
                    s_le = 0.0
                    while x > 0:
                        c_le += cnt[x]
                        s_le += sm[x]
                        x -= x & (-x)
                    c_all = (mid - 1) - li
                    x = nr
                    s_all = 0.0
                    while x > 0:
                        s_all += sm[x]
                        x -= x & (-x)
                    wt = w[t]
                    total += (wt * c_le - s_le) + ((s_all - s_le) - wt * (c_all - c_le))
                # clear the tree
                for q in range(inserted_lo, mid):
                    s = idx[q]
                    x = rank[s] + 1
                    while x <= nr:
                        cnt[x] = 0
                        sm[x] = 0.0
                        x += x & (-x)
                # merge by v
                a = lo
                b = mid
                o = lo
                while a < mid and b < hi:
                    if v[idx[a]] <= v[idx[b]]:
                        tmp[o] = idx[a]
                        a += 1
                    else:
                        tmp[o] = idx[b]
                        b += 1
                    o += 1
                while a < mid:
                    tmp[o] = idx[a]
                    a += 1
                    o += 1
                while b < hi:
                    tmp[o] = idx[b]
                    b += 1
                    o += 1
                for q in range(lo, hi):
                    idx[q] = tmp[q]
            lo += 2 * width
        width *= 2
    return total


@numba.njit(cache=True, nogil=True)
def _spearman_one(cand, lpos_l, litems_l, k, w_l, weighted, found):  # pragma: no cover
    """Footrule of one top-k candidate against one list (RankAggreg ``spearman[W]``).

    ``lpos_l[f]`` is the 0-based position of item f in the list (k if absent); ``found`` is a
    scratch boolean array of length k, left all False.
    """
    s = 0.0
    for i in range(k):
        j = lpos_l[cand[i]]
        if j < k:
            found[j] = True
            d = i - j if i > j else j - i
            if weighted:
                g = w_l[i] - w_l[j]
                if g < 0:
                    g = -g
                s += d * g
            else:
                s += d
        else:
            if weighted:
                s += (k - i) * w_l[i]
            else:
                s += k - i
    for j in range(k):
        if found[j]:
            found[j] = False
        else:
            if weighted:
                s += (k - j) * w_l[j]
            else:
                s += k - j
    return s


@numba.njit(cache=True, nogil=True)
def _kendall_one(cand, lpos_l, litems_l, k, w_l, weighted, penalty, cpos, v, tree):
    # pragma: no cover - compiled
    """Kendall distance of one top-k candidate against one list (RankAggreg ``kendall[.w]``).

    The union is laid out as RankAggreg does — the candidate's elements in order, then the
    list's elements the candidate lacks, in the list's order — and ``v`` holds each one's
    0-based position in the list (k if absent). Discordant pairs are the strict inversions of
    ``v`` (pairs inside the second block are tied in the candidate and never inverted).
    ``cpos`` (length n, all k) marks the candidate's elements and is restored on return.
    """
    for i in range(k):
        cpos[cand[i]] = i
    m = 0
    n_abs = 0
    for i in range(k):
        x = lpos_l[cand[i]]
        v[m] = x
        if x == k:
            n_abs += 1
        m += 1
    for j in range(k):
        if cpos[litems_l[j]] == k:
            v[m] = j
            m += 1
    g2 = m - k
    for i in range(k):
        cpos[cand[i]] = k
    if not weighted:
        out = float(_inversions_into(v, m, tree, k + 1))
        if penalty != 0.0:
            out += penalty * (n_abs * (n_abs - 1) // 2 + g2 * (g2 - 1) // 2)
        return out
    s = 0.0
    for a in range(m - 1):
        va = v[a]
        wa = w_l[va if va < k else k - 1]
        for b in range(a + 1, m):
            vb = v[b]
            if va > vb:
                wb = w_l[vb if vb < k else k - 1]
                g = wa - wb
                if g < 0:
                    g = -g
                s += g
            elif penalty != 0.0 and a >= k:
                # both absent from the candidate: order unknown there
                wb = w_l[vb]
                g = wa - wb
                if g < 0:
                    g = -g
                s += penalty * g
    return s


@numba.njit(cache=True, nogil=True)
def _objective_kernel(cands, lpos, litems, k, w, weighted, imp, kendall, penalty, out):
    # pragma: no cover - compiled
    """out[c] = Σ_l imp[l] · D(cands[c], list l), summed over the lists in order."""
    n_c = cands.shape[0]
    m = lpos.shape[0]
    n = lpos.shape[1]
    found = np.zeros(k, dtype=np.bool_)
    cpos = np.full(n, k, dtype=np.int64)
    v = np.empty(2 * k, dtype=np.int64)
    tree = np.zeros(k + 2, dtype=np.int64)
    for c in range(n_c):
        cand = cands[c]
        tot = 0.0
        for l in range(m):
            if kendall:
                d = _kendall_one(cand, lpos[l], litems[l], k, w[l], weighted, penalty, cpos, v,
                                 tree)
            else:
                d = _spearman_one(cand, lpos[l], litems[l], k, w[l], weighted, found)
            tot += imp[l] * d
        out[c] = tot
    return out


@numba.njit(cache=True, nogil=True)
def _matrix_kernel(cands, lpos, litems, k, w, weighted, kendall, penalty, out):
    # pragma: no cover - compiled
    n_c = cands.shape[0]
    m = lpos.shape[0]
    n = lpos.shape[1]
    found = np.zeros(k, dtype=np.bool_)
    cpos = np.full(n, k, dtype=np.int64)
    v = np.empty(2 * k, dtype=np.int64)
    tree = np.zeros(k + 2, dtype=np.int64)
    for c in range(n_c):
        for l in range(m):
            if kendall:
                out[c, l] = _kendall_one(cands[c], lpos[l], litems[l], k, w[l], weighted,
                                         penalty, cpos, v, tree)
            else:
                out[c, l] = _spearman_one(cands[c], lpos[l], litems[l], k, w[l], weighted,
                                          found)
    return out


@numba.njit(cache=True, nogil=True)
def _full_matrix_kernel(cands, lpos, w, weighted, kendall, out):  # pragma: no cover
    """Full orders (all p elements): O(p log p) Kendall, O(p) footrule per pair."""
    n_c, p = cands.shape
    m = lpos.shape[0]
    v = np.empty(p, dtype=np.int64)
    for c in range(n_c):
        for l in range(m):
            for i in range(p):
                v[i] = lpos[l, cands[c, i]]
            if kendall:
                if weighted:
                    out[c, l] = _weighted_inversions_full(v, w[l])
                else:
                    out[c, l] = _fenwick_inversions(v, p)
            else:
                s = 0.0
                for i in range(p):
                    j = v[i]
                    d = i - j if i > j else j - i
                    if weighted:
                        g = w[l, i] - w[l, j]
                        if g < 0:
                            g = -g
                        s += d * g
                    else:
                        s += d
                out[c, l] = s
    return out


# --------------------------------------------------------------------------- helpers
def _position_table(litems: np.ndarray, n: int, k: int) -> np.ndarray:
    """M × n table of 0-based positions of each item in each list (k where absent)."""
    m = litems.shape[0]
    lpos = np.full((m, n), k, dtype=np.int64)
    rows = np.repeat(np.arange(m), k)
    lpos[rows, litems[:, :k].ravel()] = np.tile(np.arange(k), m)
    return lpos


def _check_order(x, name: str) -> list:
    if isinstance(x, (str, bytes)) or not hasattr(x, "__iter__"):
        raise TypeError(f"{name} must be a sequence of feature ids (an order, best first)")
    out = list(x.tolist() if isinstance(x, np.ndarray) else x)
    if not out:
        raise ValueError(f"{name} must not be empty")
    seen = set()
    for v in out:
        if v in seen:
            raise ValueError(f"{name} names {v!r} twice; an order lists each element once")
        seen.add(v)
    return out


def _check_k(k, la: int, lb: int) -> int:
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise TypeError(f"k must be an int ≥ 1, got {type(k).__name__}")
    k = int(k)
    if k < 1:
        raise ValueError(f"k must be ≥ 1, got {k}")
    if la < k or lb < k:
        raise ValueError(
            f"k={k} exceeds the length of an order (a has {la}, b has {lb}); top-k lists "
            "must hold at least k elements"
        )
    return k


def _check_penalty(penalty) -> float:
    if isinstance(penalty, (bool, np.bool_)) or not isinstance(penalty, numbers.Real):
        raise TypeError(f"penalty must be a number in [0, 1], got {type(penalty).__name__}")
    penalty = float(penalty)
    if not 0.0 <= penalty <= 1.0:
        raise ValueError(f"penalty must lie in [0, 1], got {penalty}")
    return penalty


def _check_scores_1d(scores, k: int) -> np.ndarray:
    arr = np.asarray(scores)
    if arr.dtype == bool or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise TypeError(f"scores must be real numbers, got dtype {arr.dtype}")
    arr = np.array(arr, dtype=np.float64).reshape(-1) if arr.ndim == 1 else None
    if arr is None:
        raise ValueError("scores must be 1-D: one score weight per position of b")
    if arr.shape[0] < k:
        raise ValueError(f"scores must hold a weight for each of the first {k} positions of b; "
                         f"got {arr.shape[0]}")
    arr = arr[:k]
    if not np.isfinite(arr).all():
        raise ValueError("scores must be finite")
    return np.ascontiguousarray(arr)


def _encode_pair(a: list, b: list, k: int | None):
    if k is None:
        if len(a) != len(b) or set(a) != set(b):
            raise ValueError(
                "without k, a and b must be full orders of the same elements; give k for "
                "top-k lists"
            )
        k = len(a)
    a, b = a[:k], b[:k]
    codes: dict = {}
    for v in a + b:
        codes.setdefault(v, len(codes))
    ca = np.array([codes[v] for v in a], dtype=np.int64)
    cb = np.array([codes[v] for v in b], dtype=np.int64)
    return ca, cb, k, len(codes)


def _pair_distance(a, b, k, scores, kendall: bool, penalty: float) -> float:
    a = _check_order(a, "a")
    b = _check_order(b, "b")
    if k is not None:
        k = _check_k(k, len(a), len(b))
    ca, cb, kk, n = _encode_pair(a, b, k)
    weighted = scores is not None
    w = _check_scores_1d(scores, kk)[None, :] if weighted else np.zeros((1, kk))
    lpos = _position_table(cb[None, :], n, kk)
    out = np.zeros((1, 1))
    if k is None:
        _full_matrix_kernel(ca[None, :], lpos, w, weighted, kendall, out)
    else:
        _matrix_kernel(ca[None, :], lpos, cb[None, :], kk, w, weighted, kendall, penalty, out)
    return float(out[0, 0])


# --------------------------------------------------------------------------- public API
def spearman_footrule(a, b, *, k: int | None = None, scores=None) -> float:
    """Spearman's footrule distance between two orders (Bouaguel et al. 2013, eq. 3).

    ``F(a, b) = Σ_{f ∈ a ∪ b} |r_a(f) − r_b(f)|``, an element absent from a top-k list taking
    position ``k + 1`` in it. Weighted (``scores`` given, RankAggreg's ``spearmanW``)::

        Σ_f |r_a(f) − r_b(f)| · |W_b(r_a(f)) − W_b(r_b(f))|,   W_b(k + 1) = 0.

    Parameters
    ----------
    a, b : sequence
        Orders of feature ids, best first. ``b`` is the input list whose score weights are used.
    k : int, optional
        Compare the top-k lists (the first k elements of each; both must hold at least k).
        Without it ``a`` and ``b`` must be full orders of the same elements.
    scores : array-like of float, optional
        ``scores[t]`` = weight of position ``t + 1`` of ``b`` (for instance ``b``'s own scores
        min–max standardised so that 1 is best, as RankAggreg does). Used as given.

    Returns
    -------
    float

    Examples
    --------
    >>> spearman_footrule(["a", "b", "c"], ["c", "b", "a"])
    4.0
    >>> spearman_footrule(["a", "b"], ["c", "d"], k=2)   # disjoint top-k lists: k(k + 1)
    6.0
    """
    return _pair_distance(a, b, k, scores, False, 0.0)


def kendall_tau(a, b, *, k: int | None = None, penalty: float = 0.0, scores=None) -> float:
    """Kendall's tau distance between two orders (Bouaguel et al. 2013, eqs. 4-5, 7).

    The number of pairs of ``a ∪ b`` that the two lists order in strictly opposite ways; a pair
    whose two elements are both absent from one top-k list counts ``penalty`` (Fagin et al.'s
    K^(p); RankAggreg uses 0). Weighted (``scores`` given, RankAggreg's ``kendall.dist.w``),
    each pair counts ``|W_b(min(r_b(i), k)) − W_b(min(r_b(j), k))|`` times its term.

    Full orders: O(p log p) (Fenwick-tree inversion count); weighted O(p log² p).

    Parameters
    ----------
    a, b : sequence
        Orders of feature ids, best first. ``b`` is the input list whose score weights are used.
    k : int, optional
        Compare top-k lists; without it, full orders of the same elements.
    penalty : float in [0, 1]
        Term for a pair both absent from one list.
    scores : array-like of float, optional
        ``scores[t]`` = weight of position ``t + 1`` of ``b``.

    Examples
    --------
    >>> kendall_tau([1, 2, 3, 4], [4, 3, 2, 1])
    6.0
    >>> kendall_tau(["a", "b"], ["c", "d"], k=2)   # 4 cross pairs disagree
    4.0
    >>> kendall_tau(["a", "b"], ["c", "d"], k=2, penalty=0.5)
    5.0
    """
    return _pair_distance(a, b, k, scores, True, _check_penalty(penalty))


def distance_matrix(candidates, lists, *, distance: str = "spearman", k: int | None = None,
                    penalty: float = 0.0, scores=None) -> np.ndarray:
    """Distances of many candidate orders to many input lists, shape (N, M).

    ``out[c, l] = D(candidates[c], lists[l])`` with D the footrule or Kendall's tau of
    :func:`spearman_footrule` / :func:`kendall_tau` (top-k when ``k`` is given).

    Parameters
    ----------
    candidates : array-like, shape (N, ≥k)
        One order per row (feature ids, best first).
    lists : array-like, shape (M, ≥k)
        The input lists, one order per row.
    distance : {"spearman", "kendall"}
    k : int, optional
        Top-k length; without it every row must be a full order of the same elements.
    penalty : float in [0, 1]
        Kendall's term for pairs both absent from one list.
    scores : array-like, shape (M, ≥k), optional
        Score weights by position of each input list (weighted distances).

    Examples
    --------
    >>> distance_matrix([[0, 1, 2], [2, 1, 0]], [[0, 1, 2]], distance="kendall")
    array([[0.],
           [3.]])
    """
    if distance not in DISTANCES:
        raise ValueError(f"distance must be one of {list(DISTANCES)}, got {distance!r}")
    cands = np.asarray(candidates)
    lsts = np.asarray(lists)
    for name, arr in (("candidates", cands), ("lists", lsts)):
        if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
            raise ValueError(f"{name} must be 2-D with one order per row; got shape {arr.shape}")
    kendall = distance == "kendall"
    penalty = _check_penalty(penalty)
    if k is None:
        if cands.shape[1] != lsts.shape[1]:
            raise ValueError("without k, candidates and lists must be full orders of the same "
                             "length")
        kk = lsts.shape[1]
    else:
        kk = _check_k(k, cands.shape[1], lsts.shape[1])
    cands = cands[:, :kk]
    lsts = lsts[:, :kk]
    uniq, inv = np.unique(np.concatenate([cands.ravel(), lsts.ravel()]), return_inverse=True)
    n = uniq.shape[0]
    cc = inv[: cands.size].reshape(cands.shape).astype(np.int64)
    lc = inv[cands.size:].reshape(lsts.shape).astype(np.int64)
    for name, arr in (("candidates", cc), ("lists", lc)):
        srt = np.sort(arr, axis=1)
        if (srt[:, 1:] == srt[:, :-1]).any():
            raise ValueError(f"every row of {name} must list distinct elements")
    if k is None:
        ref = np.sort(lc[0])
        if not (np.sort(lc, axis=1) == ref).all() or not (np.sort(cc, axis=1) == ref).all():
            raise ValueError("without k, every row must order the same elements; give k for "
                             "top-k lists")
    weighted = scores is not None
    if weighted:
        w = np.asarray(scores, dtype=np.float64)
        if w.ndim != 2 or w.shape[0] != lsts.shape[0] or w.shape[1] < kk:
            raise ValueError(f"scores must have shape (M, ≥{kk}) = one weight per position of "
                             f"each list; got {w.shape}")
        w = np.ascontiguousarray(w[:, :kk])
        if not np.isfinite(w).all():
            raise ValueError("scores must be finite")
    else:
        w = np.zeros((lsts.shape[0], kk))
    lpos = _position_table(lc, n, kk)
    out = np.zeros((cc.shape[0], lc.shape[0]))
    if k is None:
        return _full_matrix_kernel(cc, lpos, w, weighted, kendall, out)
    return _matrix_kernel(cc, lpos, lc, kk, w, weighted, kendall, penalty, out)
