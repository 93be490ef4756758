"""Approval-based votes over subsets: AV, SAV, sequential PAV, sequential Phragmén.

Each list approves a subset of the features: ``S_l`` = the features it places in its top
``k`` (positions ≤ k, average ties sharing their mean position; a tied group reaching past k
is left out whole), or — with ``k=None``, the default — every feature the list ranks, so a
top-k list (an ensemble member that returns a subset, :meth:`RankedLists.from_orders`)
approves exactly its subset. Full lists with ``k=None`` approve everything and every feature
ties: give ``k`` for them. ``A_f = #{l : f ∈ S_l}`` is the approval (AV) score; every tie is
broken by the higher ``A_f``, then the lower feature index.

* ``approval`` (AV): ``A_f``.
* ``sav`` (satisfaction approval voting; Brams & Kilgour 2014): ``Σ_{l : f ∈ S_l} 1/|S_l|``.
* ``seq_pav`` (sequential proportional approval voting, Thiele's greedy rule; Brill et al.
  2017): start from W = ∅ and add, one at a time, the feature maximising
  ``Σ_l H(|S_l ∩ (W ∪ {f})|)``, H the harmonic number — equivalently the marginal gain
  ``Σ_{l : f ∈ S_l} 1 / (|S_l ∩ W| + 1)``.
* ``seq_phragmen`` (sequential Phragmén; Brill, Freeman, Janson & Lackner 2017, §4): every
  list carries a load ``ℓ_l`` (0 at first); electing f costs one unit spread over its
  supporters so that their loads equalise at ``t_f = (1 + Σ_{l : f ∈ S_l} ℓ_l) / A_f``; the
  feature of lowest ``t_f`` is elected and its supporters' loads set to ``t_f``.

The sequential rules run until every feature is placed, so the first k of the order are the
size-k committee for every k (the rules are greedy, so committees are nested). Features no
list approves come last (gain 0, load ∞), by index. Their ``scores`` are ``p − step`` (p for
the first elected); ``info["gains"]`` holds each feature's PAV gain or Phragmén load at its
election. Gains and loads are floats: two within a relative 1e-12 count as tied (their
exact values, rationals, then go to the tie breaks). Lists are processed in a canonical order
(by their subsets), so permuting them changes nothing. docs/design.md, 'Approval-based votes'.
"""

from __future__ import annotations

import numpy as np

from .._utils.validation import check_top_k
from ._params import TOP_K
from ._registry import register_rule
from ._result import build_consensus

__all__ = ["approval_sets", "approval", "sav", "seq_pav", "seq_phragmen",
           "APPROVAL_CONSTRAINTS"]

#: The parameter the four rules share.
APPROVAL_CONSTRAINTS = {"k": [None, *TOP_K]}

_RTOL = 1e-12


def approval_sets(lists, k=None) -> np.ndarray:
    """The approval matrix ``S`` (p × M, bool): ``S[f, l]`` = list l approves feature f.

    Parameters
    ----------
    lists : RankedLists
        The lists.
    k : int or float, optional
        Each list approves its top k (an int ≥ 1, or a float in (0, 1]: a fraction of p,
        ``max(1, ⌊k·p + 0.5⌋)``); None: every feature it ranks.

    Returns
    -------
    ndarray of bool, shape (p, M)
    """
    from ..lists import as_ranked_lists

    lists = as_ranked_lists(lists)
    ranked = lists.ranked
    if k is None:
        return ranked
    kk = check_top_k(k, lists.n_features, name="k")
    return ranked & (np.asarray(lists.positions2) <= 2 * kk)


def _canonical_lists(S):
    """S with its columns in an order that does not depend on how the lists are ordered."""
    return S[:, np.lexsort(S[::-1])]


def _finish(lists, method, k, score, av, *, order=None, info=None):
    return build_consensus(lists, keys=[-score, -av], scores=score, method=method,
                           params={"k": k}, tiebreak=av, tiebreak_name="approval",
                           info=info, order=order)


def _resolved_k(lists, k):
    return None if k is None else check_top_k(k, lists.n_features, name="k")


@register_rule("approval", aliases=("av",), weights=False,
               invariants=("permute_lists", "relabel"), constraints=APPROVAL_CONSTRAINTS)
def approval(lists, *, k=None, weights=None):
    """Approval voting: ``A_f = #{l : f ∈ S_l}``, the lists approving f; ties by index.

    Parameters
    ----------
    k : int or float, optional
        Each list approves its top k (module docstring); None: the features it ranks.
    weights : None
        Not accepted.

    Returns
    -------
    Consensus
        ``scores`` = ``A_f``.

    References
    ----------
    Brams & Fishburn (1978), Approval voting, American Political Science Review 72(3).
    """
    S = approval_sets(lists, k)
    av = S.sum(axis=1).astype(np.float64)
    return _finish(lists, "approval", _resolved_k(lists, k), av, av)


@register_rule("sav", weights=False, invariants=("permute_lists", "relabel"),
               constraints=APPROVAL_CONSTRAINTS)
def sav(lists, *, k=None, weights=None):
    """Satisfaction approval voting: ``Σ_{l : f ∈ S_l} 1 / |S_l|``; ties by ``A_f``, index.

    Each list spreads one vote equally over the features it approves (Brams & Kilgour 2014,
    "Satisfaction approval voting"). The sum is taken per subset size, smallest first,
    ``Σ_s n_f(s) / s`` with ``n_f(s)`` the approving lists of size s, so it does not depend
    on the order of the lists or the names of the features.

    Parameters
    ----------
    k : int or float, optional
        Each list approves its top k (module docstring); None: the features it ranks.
    weights : None
        Not accepted.

    Returns
    -------
    Consensus
        ``scores`` the SAV scores, ``tiebreak`` ``A_f``.
    """
    S = approval_sets(lists, k)
    sizes = S.sum(axis=0)
    score = np.zeros(S.shape[0])
    for s in np.unique(sizes[sizes > 0]):
        score += S[:, sizes == s].sum(axis=1) / float(s)
    av = S.sum(axis=1).astype(np.float64)
    return _finish(lists, "sav", _resolved_k(lists, k), score, av)


def _pick(values, av, alive, best_is_max):
    """Index of the best value among ``alive`` (ties within _RTOL → higher av → lower index)."""
    v = np.where(alive, values, -np.inf if best_is_max else np.inf)
    top = v.max() if best_is_max else v.min()
    if np.isfinite(top):
        tied = alive & (np.abs(v - top) <= _RTOL * abs(top))
    else:
        tied = alive & (v == top)
    cand = np.flatnonzero(tied)
    return int(cand[np.lexsort((cand, -av[cand]))[0]])


def _sequential(lists, k, method):
    S = _canonical_lists(approval_sets(lists, k))
    p, m = S.shape
    av = S.sum(axis=1).astype(np.float64)
    Sf = S.astype(np.float64)
    alive = np.ones(p, dtype=bool)
    order = np.empty(p, dtype=np.intp)
    gains = np.empty(p)
    if method == "seq_pav":
        covered = np.zeros(m)  # |S_l ∩ W|
        for step in range(p):
            g = Sf @ (1.0 / (covered + 1.0))
            f = _pick(g, av, alive, True)
            order[step], gains[f] = f, g[f]
            alive[f] = False
            covered += Sf[f]
    else:
        load = np.zeros(m)
        for step in range(p):
            with np.errstate(divide="ignore"):
                t = np.where(av > 0, (1.0 + Sf @ load) / np.maximum(av, 1.0), np.inf)
            f = _pick(t, av, alive, False)
            order[step], gains[f] = f, t[f]
            alive[f] = False
            if av[f] > 0:
                load[S[f]] = t[f]
    score = np.empty(p)
    score[order] = p - np.arange(p, dtype=np.float64)
    return _finish(lists, method, _resolved_k(lists, k), score, av, order=order,
                   info={"gains": gains})


@register_rule("seq_pav", weights=False, invariants=("permute_lists",),
               constraints=APPROVAL_CONSTRAINTS)
def seq_pav(lists, *, k=None, weights=None):
    """Sequential PAV: add the feature of largest gain ``Σ_{l : f ∈ S_l} 1/(|S_l ∩ W| + 1)``.

    The greedy form of Thiele's proportional approval voting (Brill et al. 2017): each step
    adds the feature maximising ``Σ_l H(|S_l ∩ (W ∪ {f})|)``; ties by ``A_f``, then index.

    Parameters
    ----------
    k : int or float, optional
        Each list approves its top k (module docstring); None: the features it ranks.
    weights : None
        Not accepted.

    Returns
    -------
    Consensus
        ``order`` the election order; ``scores`` ``p − step``; ``info["gains"]`` the gain of
        each feature when elected.

    References
    ----------
    Brill, Freeman, Janson & Lackner (2017), Phragmén's voting methods and justified
    representation, AAAI 2017.
    """
    return _sequential(lists, k, "seq_pav")


@register_rule("seq_phragmen", weights=False, invariants=("permute_lists",),
               constraints=APPROVAL_CONSTRAINTS)
def seq_phragmen(lists, *, k=None, weights=None):
    """Sequential Phragmén (Brill et al. 2017, §4): elect the feature of least new max load.

    Loads ``ℓ_l`` start at 0; electing f sets the loads of its supporters to
    ``t_f = (1 + Σ_{l : f ∈ S_l} ℓ_l) / A_f``; each step elects the least ``t_f``; ties by
    ``A_f``, then index. Features no list approves come last.

    Parameters
    ----------
    k : int or float, optional
        Each list approves its top k (module docstring); None: the features it ranks.
    weights : None
        Not accepted.

    Returns
    -------
    Consensus
        ``order`` the election order; ``scores`` ``p − step``; ``info["gains"]`` the load
        ``t_f`` of each feature when elected (∞ for features nobody approves).

    References
    ----------
    Brill, Freeman, Janson & Lackner (2017), Phragmén's voting methods and justified
    representation, AAAI 2017.
    """
    return _sequential(lists, k, "seq_phragmen")
