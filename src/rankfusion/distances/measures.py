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

import numpy as np

from .._utils.validation import (
    check_bool,
    check_choice,
    check_order,
    check_position_weights,
    check_positive_int,
    check_real,
    tuple_in_order_message,
)
from ._kernels import full_matrix_kernel, matrix_kernel, position_table

__all__ = ["spearman_footrule", "kendall_distance", "kendall_tau", "distance_matrix",
           "max_distance", "DISTANCES"]

DISTANCES = ("spearman", "kendall")


def _check_k(k, la: int, lb: int) -> int:
    k = check_positive_int(k, name="k")
    if la < k or lb < k:
        raise ValueError(
            f"k={k} exceeds the length of an order (a has {la}, b has {lb}); top-k lists "
            "must hold at least k elements"
        )
    return k


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


def _pair_distance(a, b, k, scores, kendall: bool, penalty: float, normalize=False) -> float:
    normalize = check_bool(normalize, "normalize")
    if normalize and scores is not None:
        raise ValueError("normalize=True applies to unweighted distances only; drop scores= or "
                         "normalize=")
    a = check_order(a, name="a")
    b = check_order(b, name="b")
    if k is not None:
        k = _check_k(k, len(a), len(b))
    ca, cb, kk, n = _encode_pair(a, b, k)
    weighted = scores is not None
    w = check_position_weights(scores, kk)[None, :] if weighted else np.zeros((1, kk))
    lpos = position_table(cb[None, :], n, kk)
    out = np.zeros((1, 1))
    if k is None:
        full_matrix_kernel(ca[None, :], lpos, w, weighted, kendall, out)
    else:
        matrix_kernel(ca[None, :], lpos, cb[None, :], kk, w, weighted, kendall, penalty, out)
    d = float(out[0, 0])
    if normalize:
        top = max_distance(kk, kendall=kendall, top_k=k is not None, penalty=penalty)
        d = d / top if top > 0 else 0.0
    return d


def max_distance(k: int, *, kendall: bool, top_k: bool, penalty: float = 0.0) -> float:
    """The largest unweighted distance between two orders of length ``k`` (the normaliser).

    Full orders of ``k`` elements: the footrule's maximum is ``⌊k²/2⌋`` (Diaconis & Graham
    1977), reached by the reversed order; Kendall's is ``k(k − 1)/2``. Top-k lists: both are
    largest for disjoint lists, ``k(k + 1)`` for the footrule and ``k² + penalty·k(k − 1)`` for
    Kendall's K^(p) (Fagin, Kumar & Sivakumar 2003).

    Parameters
    ----------
    k : int
        Length of the orders, ≥ 1.
    kendall : bool
        Kendall distance (True) or Spearman footrule (False).
    top_k : bool
        Top-k lists (True) or full orders of ``k`` elements (False).
    penalty : float, default 0.0
        Kendall's K^(p) penalty for a pair absent from both lists, in [0, 1] (top-k only).

    Returns
    -------
    float
        The maximum distance.

    Examples
    --------
    >>> max_distance(4, kendall=False, top_k=False), max_distance(4, kendall=True, top_k=False)
    (8.0, 6.0)
    """
    k = check_positive_int(k, name="k")
    kendall = check_bool(kendall, "kendall")
    top_k = check_bool(top_k, "top_k")
    penalty = check_real(penalty, name="penalty", low=0.0, high=1.0)
    if top_k:
        return float(k * k + penalty * k * (k - 1)) if kendall else float(k * (k + 1))
    return float(k * (k - 1) // 2) if kendall else float(k * k // 2)





def _id_matrix(x, name: str) -> np.ndarray:
    """Orders as a 2-D array of feature ids: ints or strings (an object array only when every
    id has the same type), one order per row, all rows of one length. A tuple inside a row
    (a tie, to its author) is refused by name, before numpy would read it as a third axis."""
    if isinstance(x, (list, tuple)):
        for r, row in enumerate(x):
            if isinstance(row, (list, tuple)):
                for i, v in enumerate(row):
                    if isinstance(v, (tuple, list, set, frozenset)):
                        raise TypeError(tuple_in_order_message(
                            f"{name}[{r}]", i + 1, v,
                            tail="; name the features by strings or integers"))
    try:
        arr = np.asarray(x)
    except ValueError:
        raise ValueError(f"{name} must be 2-D with one order per row, every row of the same "
                         "length") from None
    if arr.ndim != 2 or arr.shape[0] < 1 or arr.shape[1] < 1:
        raise ValueError(f"{name} must be 2-D with one order per row; got shape {arr.shape}")
    if arr.dtype == object:
        types = {type(v) for v in arr.ravel()}
        if len(types) > 1:
            raise TypeError(f"{name} must name the features in one type; got "
                            f"{sorted(t.__name__ for t in types)}")
    elif arr.dtype.kind not in "iuUS":
        raise TypeError(f"{name} must hold feature ids (ints or strings), got dtype {arr.dtype}")
    return arr


def _id_kind(arr: np.ndarray) -> str:
    """'numbers' or 'strings' for an id matrix (an object array by the type of its ids)."""
    first = arr.flat[0]
    if arr.dtype.kind in "iu" or (arr.dtype == object and isinstance(first, numbers.Integral)
                                   and not isinstance(first, bool)):
        return "numbers"
    if arr.dtype.kind in "US" or isinstance(first, (str, bytes)):
        return "strings"
    return type(first).__name__


# --------------------------------------------------------------------------- public API
def spearman_footrule(a, b, *, k: int | None = None, scores=None,
                      normalize: bool = False) -> float:
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
    normalize : bool
        Divide by the largest possible value (:func:`max_distance`: ``⌊p²/2⌋`` for full orders
        of p elements, ``k(k + 1)`` for top-k lists), so 0 = same order and 1 = reversed (full)
        or disjoint (top-k). Unweighted distances only.

    Returns
    -------
    float

    Examples
    --------
    >>> spearman_footrule(["a", "b", "c"], ["c", "b", "a"])
    4.0
    >>> spearman_footrule(["a", "b"], ["c", "d"], k=2)   # disjoint top-k lists: k(k + 1)
    6.0
    >>> spearman_footrule(["a", "b", "c"], ["c", "b", "a"], normalize=True)
    1.0
    """
    return _pair_distance(a, b, k, scores, False, 0.0, normalize)


def kendall_distance(a, b, *, k: int | None = None, penalty: float = 0.0, scores=None,
                     normalize: bool = False) -> float:
    """Kendall's tau distance between two orders (Bouaguel et al. 2013, eqs. 4-5, 7).

    The number of pairs of ``a ∪ b`` that the two lists order in strictly opposite ways; a pair
    whose two elements are both absent from one top-k list counts ``penalty`` (Fagin et al.'s
    K^(p); RankAggreg uses 0). Weighted (``scores`` given, RankAggreg's ``kendall.dist.w``),
    each pair counts ``|W_b(min(r_b(i), k)) − W_b(min(r_b(j), k))|`` times its term.

    Full orders: O(p log p) (Fenwick-tree inversion count); weighted O(p log² p).
    ``kendall_tau`` is the same function by its former name (a distance, not Kendall's
    correlation coefficient τ).

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
    normalize : bool
        Divide by the largest possible value (:func:`max_distance`: ``p(p − 1)/2`` for full
        orders, ``k² + penalty·k(k − 1)`` for top-k lists), so the result lies in [0, 1].
        Unweighted distances only.

    Examples
    --------
    >>> kendall_distance([1, 2, 3, 4], [4, 3, 2, 1])
    6.0
    >>> kendall_distance(["a", "b"], ["c", "d"], k=2)   # 4 cross pairs disagree
    4.0
    >>> kendall_distance(["a", "b"], ["c", "d"], k=2, penalty=0.5)
    5.0
    >>> kendall_distance([1, 2, 3, 4], [2, 1, 3, 4], normalize=True)   # 1 of 6 pairs
    0.16666666666666666
    """
    penalty = check_real(penalty, name="penalty", low=0.0, high=1.0)
    return _pair_distance(a, b, k, scores, True, penalty, normalize)


#: :func:`kendall_distance` by its former name (the same function).
kendall_tau = kendall_distance


def distance_matrix(candidates, lists, *, distance: str = "spearman", k: int | None = None,
                    penalty: float = 0.0, scores=None) -> np.ndarray:
    """Distances of many candidate orders to many input lists, shape (N, M).

    ``out[c, l] = D(candidates[c], lists[l])`` with D the footrule or Kendall's tau of
    :func:`spearman_footrule` / :func:`kendall_distance` (top-k when ``k`` is given).

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
    check_choice(distance, DISTANCES, name="distance")
    cands = _id_matrix(candidates, "candidates")
    lsts = _id_matrix(lists, "lists")
    kinds = {_id_kind(a) for a in (cands, lsts)}
    if len(kinds) > 1:
        raise TypeError(f"candidates and lists must name the features in one type; got "
                        f"{cands.dtype} and {lsts.dtype} (1 and '1' are different features)")
    kendall = distance == "kendall"
    penalty = check_real(penalty, name="penalty", low=0.0, high=1.0)
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
        w = np.asarray(scores)
        if w.dtype.kind not in "iuf":
            raise TypeError(f"scores must be real numbers, got dtype {w.dtype}")
        w = w.astype(np.float64)
        if w.ndim != 2 or w.shape[0] != lsts.shape[0] or w.shape[1] < kk:
            raise ValueError(f"scores must have shape (M, ≥{kk}) = one weight per position of "
                             f"each list; got {w.shape}")
        w = np.ascontiguousarray(w[:, :kk])
        if not np.isfinite(w).all():
            raise ValueError("scores must be finite")
    else:
        w = np.zeros((lsts.shape[0], kk))
    lpos = position_table(lc, n, kk)
    out = np.zeros((cc.shape[0], lc.shape[0]))
    if k is None:
        return full_matrix_kernel(cc, lpos, w, weighted, kendall, out)
    return matrix_kernel(cc, lpos, lc, kk, w, weighted, kendall, penalty, out)
