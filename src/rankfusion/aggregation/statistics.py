"""Statistical aggregation rules on positions and scores (Izetta et al. 2017, §2.1).

Every rule returns a :class:`~rankfusion.aggregation.Consensus` whose order is decided by exact
keys computed from the doubled integer positions ``P2 = 2·pos`` of
:attr:`RankedLists.positions2` (docs/design.md, 'Exact keys'), then by the lower feature index.
Notation: p features, M lists, ``pos[i, l]`` the position of feature i in list l (1 = best),
``r[i, l] = 1 - pos[i, l] / p`` the relative ranking.
"""

from __future__ import annotations

import numpy as np

from .._utils.constraints import Interval, Options
from .._utils.validation import check_top_k
from ._exact import list_sum
from ._params import TOP_K
from ._registry import register_rule
from ._result import build_consensus

__all__ = [
    "mean_score",
    "borda",
    "median",
    "average_sd",
    "best_rank",
    "q3_sd",
    "kfirst",
    "rrf",
    "combmnz",
]


def _total_weight(lists, weights) -> float:
    return float(lists.n_lists if weights is None else weights.sum())


def borda_key(lists, weights):
    """Σ_l w_l · P2 (lower = better) and the weighted mean relative ranking."""
    s = list_sum(lists.positions2, weights)
    mean_r = 1.0 - s / (2.0 * _total_weight(lists, weights) * lists.n_features)
    return s, mean_r


def _no_weights(method: str, weights) -> None:
    if weights is not None:
        what = "a maximum" if method == "best_rank" else "a quantile"
        raise ValueError(
            f"{method} takes no list weights: {what} has no weighted form in the papers "
            "(no weighted quantile is defined); drop weights= or choose a mean-based rule"
        )


_BLOCK = 1 << 16  # rows per block of the row-wise passes that would otherwise copy p × M


def _sd_relative(lists, weights) -> np.ndarray:
    """(Weighted) population standard deviation of r per feature, for reporting.

    Computed in blocks of rows, so the temporaries stay small next to the p × M input.
    """
    p, m = lists.n_features, lists.n_lists
    w = np.ones(m) if weights is None else weights
    tw = w.sum()
    pos2 = lists.positions2
    out = np.empty(p)
    for a in range(0, p, _BLOCK):
        r = 1.0 - pos2[a:a + _BLOCK] / (2.0 * p)
        mu = r @ w / tw
        r -= mu[:, None]
        r *= r
        out[a:a + _BLOCK] = r @ w / tw
    return np.sqrt(np.maximum(out, 0.0))


#: The invariants of the statistics rules (docs/design.md, 'Aggregation rules').
_PROMISES = ("permute_lists", "relabel", "unanimity")


def _power_of_two_scale(values: np.ndarray, axis=None) -> np.ndarray:
    """Exponents ``e`` (per ``axis`` slice, or one) such that ``values · 2^-e`` stays far from
    overflow: 0 unless the largest finite ``|value|`` reaches ``2**500``. Multiplying by a power
    of two is exact, so sums and differences keep their order (docs/design.md, 'Inputs')."""
    with np.errstate(invalid="ignore"):
        top = np.nanmax(np.abs(values), axis=axis, keepdims=axis is not None, initial=0.0)
    e = np.frexp(top)[1]
    return np.where(top >= 2.0 ** 500, e, 0)


def _minmax_columns(values: np.ndarray) -> np.ndarray:
    """Each list (column) mapped to [0, 1] by ``(s − min) / (max − min)``; a constant one to 0."""
    values = np.ldexp(values, -_power_of_two_scale(values, axis=0))
    lo = values.min(axis=0, keepdims=True)
    span = values.max(axis=0, keepdims=True) - lo
    return (values - lo) / np.where(span > 0, span, 1.0)


@register_rule("mean_score", needs_scores=True, invariants=_PROMISES,
               constraints={"normalize": [None, Options("minmax", "rank")]})
def mean_score(lists, *, weights=None, normalize=None):
    """Mean of the scores, raw or normalised per list (Izetta et al. 2017 "Average").

    ``R_i = Σ_l w_l ŝ_il / Σ_l w_l`` with, by ``normalize``:

    - ``None`` (default): ``ŝ = s``, the raw scores — Izetta et al.'s "Average" when the scores
      are |w| of SVMs on one scale. Rankers on different scales do not mix well this way: the
      one with the largest scores dominates.
    - ``"minmax"``: each list min–max normalised over the features,
      ``ŝ_il = (s_il − min_l) / (max_l − min_l)`` (a constant list gives 0) — the papers'
      "average of the normalised scores", which puts every ranker on [0, 1].
    - ``"rank"``: the relative ranking ``ŝ_il = r_il = 1 − pos_il / p`` (average positions for
      ties); the mean is then Borda's score and the key the exact integer ``Σ_l w_l · 2·pos``.

    Ties: the lower feature index. Needs lists built from scores; the weighted sum is taken
    over each feature's sorted terms, so permuting the lists changes nothing.

    Examples
    --------
    >>> import numpy as np
    >>> from rankfusion import aggregate
    >>> s = np.array([[0.9, 10.0], [0.5, 7000.0], [0.1, 3000.0]])  # two scales
    >>> aggregate(s, "mean_score").order  # the large scale decides alone
    array([1, 2, 0])
    >>> aggregate(s, "mean_score", normalize="minmax").scores.round(4)
    array([0.5   , 0.75  , 0.2139])
    """
    if not lists.has_scores:
        raise ValueError(
            "mean_score needs raw scores; these lists were built from orders or positions. "
            "Use borda for positions"
        )
    params = {"normalize": normalize}
    if normalize == "rank":
        key, mean_r = borda_key(lists, weights)
        return build_consensus(lists, keys=[key], scores=mean_r, method="mean_score",
                               params=params)
    values = lists.scores if normalize is None else _minmax_columns(lists.scores)
    e = int(_power_of_two_scale(values))  # scores near the float limit: sum them scaled
    total = list_sum(np.ldexp(values, -e) if e else values, weights)
    mean = total / _total_weight(lists, weights)
    if e:
        mean = np.ldexp(mean, e)  # a mean lies between the scores: finite
    return build_consensus(lists, keys=[-total], scores=mean, method="mean_score",
                           params=params)


@register_rule("borda", invariants=_PROMISES)
def borda(lists, *, weights=None):
    """Borda count: the mean relative ranking (equivalently the lowest mean position).

    ``R_i = Σ_l w_l r_il / Σ_l w_l`` with ``r = 1 - pos/p``; the key is the exact integer
    ``Σ_l w_l · 2·pos_il`` (lower = better). Ties: the lower feature index.
    """
    key, mean_r = borda_key(lists, weights)
    return build_consensus(lists, keys=[key], scores=mean_r, method="borda", params={})


def _sorted_pos2(lists) -> np.ndarray:
    return np.sort(lists.positions2, axis=1)


@register_rule("median", weights=False, invariants=_PROMISES)
def median(lists, *, weights=None):
    """Median of the relative rankings r over the lists; ties by the mean of r.

    The key is the sum of the one or two middle doubled positions (exact). Lists cannot be
    weighted (docs/design.md, 'Aggregation rules').
    """
    _no_weights("median", weights)
    m, p = lists.n_lists, lists.n_features
    sp = _sorted_pos2(lists)
    lo, hi = (m - 1) // 2, m // 2
    key = sp[:, lo].astype(np.int64) + sp[:, hi]
    med_r = 1.0 - key / (4.0 * p)
    bkey, mean_r = borda_key(lists, None)
    return build_consensus(lists, keys=[key, bkey], scores=med_r, method="median", params={},
                           tiebreak=mean_r, tiebreak_name="mean_relative")


#: The tie breaks of Average-SD and 3Q-SD: ``"max"`` (the paper's choice, §2.1.1, §2.1.3)
#: puts the larger SD of r first, ``"min"`` the smaller (the comparison of its Fig. 2).
_SD_TIE_BREAKS = ("max", "min")
_SD_TIE_BREAK = {"sd_tie_break": [Options(*_SD_TIE_BREAKS)]}


def _signed_spread(spread, sd_tie_break: str):
    """The secondary key (lower = better) of a spread key that grows with the SD of r."""
    return -spread if sd_tie_break == "max" else spread


@register_rule("average_sd", invariants=_PROMISES, constraints=_SD_TIE_BREAK)
def average_sd(lists, *, sd_tie_break="max", weights=None):
    """Average-SD (Izetta et al. 2017, §2.1.1): mean of r, ties by the SD of r, higher first.

    ``R_i = Σ_l w_l r_il / Σ_l w_l`` with ``r_il = 1 − pos_il / p``. Features with the same
    mean are ordered by their spread: among equal (weighted) sums of positions a larger
    ``Σ_l w_l · pos_il²`` means a larger SD, so that exact sum is the secondary key
    (docs/design.md, 'Exact keys'). ``tiebreak`` reports the (weighted, population) SD of r.

    Parameters
    ----------
    lists : RankedLists
        The lists to combine.
    sd_tie_break : {"max", "min"}, default "max"
        How features with the same mean are ordered: ``"max"`` puts the larger SD of r
        first — the paper's choice ("higher is better", §2.1.1: a larger SD means some
        better-than-average rankings); ``"min"`` puts the smaller SD first, the
        alternative the paper compares it with in §3.3.2 (Fig. 2).
    weights : ndarray, optional
        One non-negative weight per list.

    Returns
    -------
    Consensus
        ``scores`` the mean of r, ``tiebreak`` the SD of r, ``params`` the tie break.
    """
    key, mean_r = borda_key(lists, weights)
    p2 = lists.positions2
    sq = list_sum(np.square(p2, dtype=np.int64), weights)  # int64: 4·p² overflows int32
    return build_consensus(lists, keys=[key, _signed_spread(sq, sd_tie_break)], scores=mean_r,
                           method="average_sd", params={"sd_tie_break": sd_tie_break},
                           tiebreak=_sd_relative(lists, weights), tiebreak_name="sd_relative")


@register_rule("best_rank", weights=False, invariants=_PROMISES)
def best_rank(lists, *, weights=None):
    """Best Ranking (Izetta et al. 2017, §2.1.2): max over lists of r; ties by the mean of r."""
    _no_weights("best_rank", weights)
    p = lists.n_features
    best2 = lists.positions2.min(axis=1)
    bkey, mean_r = borda_key(lists, None)
    return build_consensus(lists, keys=[best2, bkey], scores=1.0 - best2 / (2.0 * p),
                           method="best_rank", params={}, tiebreak=mean_r,
                           tiebreak_name="mean_relative")


@register_rule("q3_sd", weights=False, invariants=_PROMISES, constraints=_SD_TIE_BREAK)
def q3_sd(lists, *, sd_tie_break="max", weights=None):
    """3Q-SD (Izetta et al. 2017, §2.1.3): 75th percentile of r; ties by the SD of r, higher first.

    ``R_i = Q_0.75(r_i1, …, r_iM)``, numpy's default linear interpolation. With
    ``r = 1 - pos/p`` decreasing in pos, ``Q_0.75(r) = 1 - Q_0.25(pos)/p``; with
    ``h = (M-1)/4 = j + f/4`` the key ``4·Q_0.25(2·pos) = 4·P2_(j) + f·(P2_(j+1) - P2_(j))``
    is an exact integer (lower = better). The SD key is the exact integer
    ``M·ΣP2² - (ΣP2)²`` (docs/design.md, 'Exact keys'). Lists cannot be weighted
    (docs/design.md, 'Aggregation rules').

    Parameters
    ----------
    lists : RankedLists
        The lists to combine.
    sd_tie_break : {"max", "min"}, default "max"
        How features with the same quartile are ordered: ``"max"`` puts the larger SD of r
        first — the paper's choice ("as in Average-SD", §2.1.3); ``"min"`` the smaller SD
        first, the alternative the paper compares it with in §3.3.2 (Fig. 2).
    weights : None
        Refused: a quantile has no weighted form in the papers.

    Returns
    -------
    Consensus
        ``scores`` the third quartile of r, ``tiebreak`` the SD of r, ``params`` the tie break.
    """
    _no_weights("q3_sd", weights)
    m, p = lists.n_lists, lists.n_features
    sp = _sorted_pos2(lists)
    j, f = divmod(m - 1, 4)
    key = 4 * sp[:, j].astype(np.int64)
    if f:
        key = key + f * (sp[:, j + 1] - sp[:, j])
    del sp  # a p × M copy: free it before the squares
    q3 = 1.0 - key / (8.0 * p)
    p2 = lists.positions2
    s = list_sum(p2, None)
    sq = list_sum(np.square(p2, dtype=np.int64), None)  # int64: 4·p² overflows int32
    if 4 * p * p * m * m < 2**62:
        spread = m * sq - s * s
    else:  # exact with Python integers, turned into ranks of the same order
        from ._exact import exact_int

        spread = exact_int([m * int(a) - int(b) * int(b) for a, b in zip(sq, s)])
    return build_consensus(lists, keys=[key, _signed_spread(spread, sd_tie_break)], scores=q3,
                           method="q3_sd", params={"sd_tie_break": sd_tie_break},
                           tiebreak=_sd_relative(lists, None), tiebreak_name="sd_relative")


@register_rule("kfirst", invariants=_PROMISES, constraints={"k": TOP_K})
def kfirst(lists, *, k=0.1, weights=None):
    """K-First (Izetta et al. 2017, §2.1.4): credit only the k best positions of each list.

    ``r'_il = max(1 - (pos_il - 1)/k, 0)``, so positions 1, 2, …, k get 1, (k-1)/k, …, 1/k and
    position k + 1 gets 0; ``R_i = Σ_l w_l r'_il / Σ_l w_l``. ``k`` is an int ≥ 1 (a count) or
    a float in (0, 1] (a fraction: ``max(1, ⌊k·p + 0.5⌋)``); default 0.1.

    The paper prints ``max(1 - pos/k, 0)`` but says the credit reaches 0 "for the k+1 feature"
    and keeps "the top k positions": we follow the text (documented departure: docs/design.md,
    'Departures from the papers and reference tools'). The key is the exact integer ``Σ_l w_l ·
    max(2k + 2 - 2·pos_il, 0)``. Ties: the mean of r.
    """
    p = lists.n_features
    kk = check_top_k(k, p, name="k")
    credit2 = np.maximum(2 * kk + 2 - lists.positions2, 0)
    total = list_sum(credit2, weights)
    score = total / (2.0 * kk * _total_weight(lists, weights))
    bkey, mean_r = borda_key(lists, weights)
    return build_consensus(lists, keys=[-total, bkey], scores=score, method="kfirst",
                           params={"k": kk}, tiebreak=mean_r, tiebreak_name="mean_relative")


@register_rule("rrf", invariants=_PROMISES,
               constraints={"k_rrf": [Interval("real", 0, None)]})
def rrf(lists, *, k_rrf=60, weights=None):
    """Reciprocal rank fusion (Cormack et al. 2009): ``R_i = Σ_l w_l / (k_rrf + pos_il)``.

    ``k_rrf = 60`` as the paper and ranx. Each feature's terms are summed in sorted order
    (permutation-invariant). Ties: the mean of r.
    """
    terms = 1.0 / (k_rrf + lists.positions2 / 2.0)
    total = list_sum(terms, weights)
    bkey, mean_r = borda_key(lists, weights)
    return build_consensus(lists, keys=[-total, bkey], scores=total, method="rrf",
                           params={"k_rrf": k_rrf}, tiebreak=mean_r,
                           tiebreak_name="mean_relative")


@register_rule("combmnz", invariants=_PROMISES)
def combmnz(lists, *, weights=None):
    """CombMNZ (Fox & Shaw 1994): Σ_l w_l · ŝ_il × (number of lists that rank feature i).

    ``ŝ`` is each list's scores min–max normalised over the features it ranks (a constant list
    gives 0); a feature a top-k list did not rank contributes 0 and is not counted. Lists built
    from orders or positions have no scores: ``-pos`` stands in for them (normalised the same
    way). Ties: the mean of r.
    """
    # row blocks: the normalised values never exist as a whole p × M matrix
    ranked = lists.ranked  # copies: p × M bools and (with scores) floats
    src = lists.scores
    pos2 = lists.positions2
    m = lists.n_lists
    lo = np.full(m, np.inf)
    hi = np.full(m, -np.inf)
    blocks = range(0, lists.n_features, _BLOCK)

    def values(a):
        v = src[a:a + _BLOCK] if src is not None else pos2[a:a + _BLOCK] * -0.5
        return np.where(ranked[a:a + _BLOCK], v, np.nan)

    with np.errstate(invalid="ignore"):
        for a in blocks:
            v = values(a)
            lo = np.fmin(lo, np.nanmin(v, axis=0, initial=np.inf))
            hi = np.fmax(hi, np.nanmax(v, axis=0, initial=-np.inf))
    # scores near the float limit: work at an exact power-of-two scale so spans stay finite
    ex = np.where(np.fmax(np.abs(lo), np.abs(hi)) >= 2.0 ** 500,
                  np.frexp(np.fmax(np.abs(lo), np.abs(hi)))[1], 0)
    lo, hi = np.ldexp(lo, -ex), np.ldexp(hi, -ex)
    span = hi - lo
    pos_span = span > 0
    total = np.empty(lists.n_features)
    for a in blocks:
        v = np.ldexp(values(a), -ex) if ex.any() else values(a)
        v -= lo
        v /= np.where(pos_span, span, 1.0)
        v[:, ~pos_span] = 0.0
        v[~ranked[a:a + _BLOCK]] = 0.0
        total[a:a + _BLOCK] = list_sum(v, weights)
    hits = ranked.sum(axis=1)
    key = total * hits
    bkey, mean_r = borda_key(lists, weights)
    return build_consensus(lists, keys=[-key, bkey], scores=key, method="combmnz", params={},
                           tiebreak=mean_r, tiebreak_name="mean_relative")
