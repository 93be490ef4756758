"""Compiled kernels of the list distances, shared with the aggregation rules that optimise them.

A private module meant for sharing (docs/design.md, "Layers"): its public names are used by
:mod:`rankfusion.distances` and by the top-k aggregation rules (``ga``, ``ce``); they take
encoded arrays and check nothing. The formulas are those of :mod:`rankfusion.distances`.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["inversions_into", "fenwick_inversions", "weighted_inversions_full", "spearman_one",
           "kendall_one", "objective_kernel", "matrix_kernel", "full_matrix_kernel",
           "position_table"]


# --------------------------------------------------------------------------- kernels
@numba.njit(cache=True, nogil=True)
def inversions_into(v, m, tree, size):  # pragma: no cover - compiled
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
def fenwick_inversions(v, size):  # pragma: no cover - compiled
    """Number of pairs s < t with v[s] > v[t] (strict); values in [0, size)."""
    return inversions_into(v, v.shape[0], np.zeros(size + 1, dtype=np.int64), size)


@numba.njit(cache=True, nogil=True)
def weighted_inversions_full(v, wv):  # pragma: no cover - compiled
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
def spearman_one(cand, lpos_l, litems_l, k, w_l, weighted, found):  # pragma: no cover
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
def kendall_one(cand, lpos_l, litems_l, k, w_l, weighted, penalty, cpos, v, tree):
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
        out = float(inversions_into(v, m, tree, k + 1))
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
def objective_kernel(cands, lpos, litems, k, w, weighted, imp, kendall, penalty, out):
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
                d = kendall_one(cand, lpos[l], litems[l], k, w[l], weighted, penalty, cpos, v,
                                 tree)
            else:
                d = spearman_one(cand, lpos[l], litems[l], k, w[l], weighted, found)
            tot += imp[l] * d
        out[c] = tot
    return out


@numba.njit(cache=True, nogil=True)
def matrix_kernel(cands, lpos, litems, k, w, weighted, kendall, penalty, out):
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
                out[c, l] = kendall_one(cands[c], lpos[l], litems[l], k, w[l], weighted,
                                         penalty, cpos, v, tree)
            else:
                out[c, l] = spearman_one(cands[c], lpos[l], litems[l], k, w[l], weighted,
                                          found)
    return out


@numba.njit(cache=True, nogil=True)
def full_matrix_kernel(cands, lpos, w, weighted, kendall, out):  # pragma: no cover
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
                    out[c, l] = weighted_inversions_full(v, w[l])
                else:
                    out[c, l] = fenwick_inversions(v, p)
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
def position_table(litems: np.ndarray, n: int, k: int) -> np.ndarray:
    """M × n table of 0-based positions of each item in each list (k where absent)."""
    m = litems.shape[0]
    lpos = np.full((m, n), k, dtype=np.int64)
    rows = np.repeat(np.arange(m), k)
    lpos[rows, litems[:, :k].ravel()] = np.tile(np.arange(k), m)
    return lpos
