"""Robust Rank Aggregation and its companions (Kolde et al. 2012; R RobustRankAggreg 1.2.1).

Every list gives each feature a *normalised rank* ``r_il = pos_il / N`` in [0, 1], N being the
size of the universe of rankable items; a feature a top-k list did not rank gets ``r = 1``
(RobustRankAggreg's ``rankMatrix`` default for partial lists). Under the null hypothesis of
uninformative lists the M normalised ranks of a feature are independent U(0, 1).

* ``rra`` — sort a feature's ranks ``r_(1) ≤ … ≤ r_(M)``; the j-th order statistic of M uniforms
  follows Beta(j, M − j + 1), so ``β_j = I_{r_(j)}(j, M − j + 1)`` (regularised incomplete beta,
  R's ``pbeta``); ``ρ = min_j β_j`` Bonferroni-corrected: ``ρ = min(M · min_j β_j, 1)``
  (``exact=True``: RobustRankAggreg's exact correction through Stuart's statistic,
  ``1 − Q(1 − q_j(ρ_min))``). Features are ordered by ascending ρ; ``scores = −ρ``.
* ``rra_min`` — ``min_l r_il``; ``rra_median`` — median; ``rra_geom_mean`` —
  ``exp(mean(log r))``; ``rra_mean`` — the normal approximation of the mean of M uniforms,
  ``Φ((mean r − 1/2) / sqrt(1/(12 M)))``; ``stuart`` — the Stuart–Aerts order-statistics
  p-value ``Q = M! · V_M`` with ``V_0 = 1``,
  ``V_k = Σ_{i=1..k} (−1)^{i−1} V_{k−i} r_(M−k+1)^i / i!``.

Every rule orders the features by ascending value (R's ``formatOutput``), ties by the lower
feature index — R keeps the order of first appearance, which is the feature order of
:meth:`RankedLists.from_orders` without a universe. ``scores`` hold −value and
``info["value"]`` the value itself (for ``rra`` also ``info["rho"]``), so results can be
compared with ``RobustRankAggreg::aggregateRanks`` directly.

Departures: structurally missing (NA) ranks of ``aggregateRanks(full = TRUE)`` are not
implemented; positions of tied scores (average ties)
are used as they are (R ranks lists without ties).

References
----------
Kolde, R., Laur, S., Adler, P. & Vilo, J. (2012). Robust rank aggregation for gene list
integration and meta-analysis. Bioinformatics 28(4), 573-580.
Stuart, J. M., Segal, E., Koller, D. & Kim, S. K. (2003). A gene-coexpression network for global
discovery of conserved genetic modules. Science 302, 249-255 (with Aerts et al. 2006).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping

import numpy as np
from scipy import special

from .._utils.constraints import Check
from .._utils.validation import check_bool, real_array
from ._params import BOOL
from ._registry import register_rule
from ._result import build_consensus

__all__ = [
    "normalized_ranks",
    "rho_scores",
    "stuart_scores",
    "rra",
    "rra_min",
    "rra_median",
    "rra_geom_mean",
    "rra_mean",
    "stuart",
]


def _real(v) -> bool:
    return not isinstance(v, (bool, np.bool_)) and isinstance(v, numbers.Real)


def _whole(v) -> bool:
    return _real(v) and math.isfinite(float(v)) and float(v) == int(v) and v >= 1


#: N, the number of rankable items: a whole number (10 or 10.0), checked against the longest
#: list when the lists are seen.
_UNIVERSE = {"universe_size": [None, Check(_whole, "a whole number ≥ 1", kind=_real,
                                           toml="int")]}
_RRA_PROMISES = ("permute_lists", "relabel", "unanimity")


def _numbers(v) -> bool:
    """A flat sequence of real numbers (a list, a tuple, a 1-D array)."""
    if isinstance(v, (str, bytes, Mapping, set, frozenset)) or not isinstance(v, Iterable):
        return False
    return all(_real(x) for x in v)


def _fractions(v) -> bool:
    return _numbers(v) and len(list(v)) > 0 and all(0 < float(x) <= 1 for x in v)


def _universe_size(lists, universe_size) -> int:
    # checked here too, not only by the declared constraint: normalized_ranks is public
    longest = int(lists.lengths.max())
    if universe_size is None:
        return lists.n_features
    if isinstance(universe_size, (bool, np.bool_)) or not isinstance(
        universe_size, (numbers.Integral, numbers.Real)
    ):
        raise TypeError(f"universe_size must be an int, got {type(universe_size).__name__}")
    if not math.isfinite(float(universe_size)):
        raise ValueError(f"universe_size must be a finite whole number, got {universe_size}")
    if float(universe_size) != int(universe_size):
        raise ValueError(f"universe_size must be a whole number, got {universe_size}")
    n = int(universe_size)
    if n < longest:
        raise ValueError(
            f"universe_size={n} is smaller than the longest list ({longest} ranked features); "
            "it is the number of all rankable items"
        )
    return n


def normalized_ranks(lists, universe_size: int | None = None) -> np.ndarray:
    """Normalised ranks ``pos / N`` (features × lists); 1 where a top-k list did not rank.

    ``N`` (``universe_size``) defaults to the number of features of ``lists`` (the union of the
    lists when they were built from orders), as RobustRankAggreg's ``rankMatrix``.
    """
    n = _universe_size(lists, universe_size)
    return _ranks_block(lists.positions2, None if lists.is_full else lists.ranked, n)


def _ranks_block(pos2: np.ndarray, ranked, n: int) -> np.ndarray:
    """``pos / N`` of these rows of doubled positions; 1 where ``ranked`` is False."""
    r = pos2 / (2.0 * n)
    if ranked is not None:
        r[~ranked] = 1.0
    return r


#: Row blocks of the ρ computation hold about this many ranks (their sort, Beta scores and
#: bounds stay a small fraction of a p × M problem).
_RHO_BLOCK = 1 << 20


def _needed_beta(r_sorted: np.ndarray) -> np.ndarray:
    """Where the Beta score ``β_j = I_{r_(j)}(j, M − j + 1)`` can change ``min(M·min_j β_j, 1)``.

    ``β_j = P(Bin(M, x) ≥ j)`` at ``x = r_(j)``. A term with ``M·β_j ≥ 1`` cannot lower ρ below
    1, so it need not be computed; it is skipped when a lower bound proves ``β_j ≥ 2/M`` (a
    factor 2 of margin over the rounding of the bound):

    * ``j ≤ M·x``: ``j`` is at most the binomial's median, so ``β_j ≥ 1/2`` (used for M ≥ 4);
    * ``j = M``: ``β_M = x^M`` exactly;
    * ``M·x < j < M``: ``β_j ≥ exp(−M·D(j/M ‖ x)) / sqrt(8 j (1 − j/M))``, ``D`` the binary
      relative entropy (Ash 1990, *Information Theory*, Lemma 4.7.2).

    On noise features almost every term is skipped; the computed ones are computed exactly as
    before, so ρ is bit-identical.
    """
    b, m = r_sorted.shape
    if m < 4:
        return np.ones((b, m), dtype=bool)
    j = np.arange(1, m + 1, dtype=np.float64)
    skip = j[None, :] <= m * r_sorted
    thresh = 2.0 / m
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        a = j[None, :-1] / m
        x = r_sorted[:, :-1]
        d = a * np.log(a / x) + (1.0 - a) * np.log((1.0 - a) / (1.0 - x))
        bound = np.exp(-m * d) / np.sqrt(8.0 * j[None, :-1] * (1.0 - a))
        skip[:, :-1] |= bound >= thresh  # NaN (x ≥ a, covered above) compares False
        skip[:, -1] |= m * np.log(r_sorted[:, -1]) >= math.log(thresh)
    return ~skip


def _rho_block(r: np.ndarray, *, exact: bool) -> np.ndarray:
    """ρ of the rows of ``r`` (normalised ranks); see :func:`rho_scores`."""
    r = np.sort(r, axis=1)
    m = r.shape[1]
    if exact:
        bmin = _beta_scores(r).min(axis=1)
        j = np.arange(1, m + 1, dtype=np.float64)
        q = special.betaincinv(j[None, :], (m - j + 1)[None, :], bmin[:, None])
        return 1.0 - stuart_scores(1.0 - q)
    need = _needed_beta(r)
    rows, cols = np.nonzero(need)
    beta = np.full(r.shape, np.inf)
    j = cols + 1.0
    beta[rows, cols] = special.betainc(j, m - j + 1.0, r[rows, cols])
    return np.minimum(beta.min(axis=1) * m, 1.0)


def _beta_scores(r_sorted: np.ndarray) -> np.ndarray:
    m = r_sorted.shape[1]
    j = np.arange(1, m + 1, dtype=np.float64)
    return special.betainc(j[None, :], (m - j + 1)[None, :], r_sorted)


def stuart_scores(r: np.ndarray) -> np.ndarray:
    """Stuart–Aerts Q statistic of each row of ``r`` (values in [0, 1]), as RobustRankAggreg.

    Rows are sorted; ``V_0 = 1``, ``V_k = Σ_{i=1..k} (−1)^{i+1} V_{k−i} · r_(M−k+1)^i / i!``,
    ``Q = M! · V_M``. The recursion cancels badly for large M (RobustRankAggreg warns about it
    too); the arithmetic follows R's order of operations so the two agree closely.
    """
    r = np.sort(np.asarray(r, dtype=np.float64), axis=1)
    p, m = r.shape
    v = np.ones((p, m + 1))
    fact = np.array([math.factorial(i) for i in range(1, m + 1)], dtype=np.float64)
    for k in range(1, m + 1):
        x = r[:, m - k]
        acc = np.zeros(p)
        for i in range(1, k + 1):
            term = v[:, k - i] * (x ** float(i)) / fact[i - 1]
            if i % 2 == 1:
                acc = acc + term
            else:
                acc = acc - term
        v[:, k] = acc
    q = float(math.factorial(m)) * v[:, m]
    tol = 1e-9
    if not (np.isfinite(q).all() and (q >= -tol).all() and (q <= 1.0 + tol).all()):
        raise ValueError(
            f"the Stuart–Aerts recursion lost its precision with {m} lists (it gave values "
            "outside [0, 1]; R's RobustRankAggreg returns them silently). Use the Bonferroni "
            "bound (rra with exact=False) or fewer lists"
        )
    return np.clip(q, 0.0, 1.0)


def rho_scores(r: np.ndarray, *, exact: bool = False) -> np.ndarray:
    """RRA's ρ of each row of normalised ranks ``r`` (features × lists).

    ``ρ = min(M · min_j I_{r_(j)}(j, M − j + 1), 1)``; with ``exact=True`` the exact
    correction ``1 − Q(1 − (q_1(ρ_min), …, q_M(ρ_min)))``, ``q_j`` the Beta(j, M − j + 1)
    quantile function and Q :func:`stuart_scores` (RobustRankAggreg's
    ``correctBetaPvaluesExact``).
    """
    r = np.asarray(r, dtype=np.float64)
    if r.ndim != 2:
        raise ValueError(f"r must be 2-D (features × lists), got shape {r.shape}")
    step = max(1, _RHO_BLOCK // max(r.shape[1], 1))
    out = np.empty(r.shape[0])
    for a in range(0, r.shape[0], step):
        out[a:a + step] = _rho_block(r[a:a + step], exact=exact)
    return out


def _threshold_beta_min(r: np.ndarray, sigma: np.ndarray) -> float:
    """min_j of RobustRankAggreg's ``thresholdBetaScore`` for one feature (``topCutoff``).

    ``r`` holds the feature's normalised ranks in the lists that ranked it (NaN elsewhere);
    ``sigma`` the lists' cut-offs (list l ranks only its top ``sigma_l · N`` items). The j-th
    order statistic's p-value accounts for lists that cannot rank beyond their cut-off: with
    ``n0`` cut-offs at least ``x_(j)``, start from the Beta scores of ``n0`` uniforms and fold
    in each shorter list with probability ``z = sigma_l`` (a dynamic programme over counts).
    """
    n = sigma.shape[0]
    x = np.sort(r[~np.isnan(r)])
    sig = np.sort(sigma)[::-1]
    best = np.inf
    for k in range(1, n + 1):
        if k > x.shape[0]:
            beta = 1.0
        elif sig[n - 1] >= x[k - 1]:
            beta = float(special.betainc(k, n + 1 - k, x[k - 1]))
        else:
            xk = x[k - 1]
            n0 = int(np.argmax(sig < xk))  # sigma sorted decreasing: first index below x_k
            B = np.zeros(k + 1)
            B[0] = 1.0
            if n0 > 0:
                if k > n0:
                    j = np.arange(1, n0 + 1, dtype=np.float64)
                    B[1:n0 + 1] = special.betainc(j, n0 + 1 - j, xk)
                else:
                    j = np.arange(1, k + 1, dtype=np.float64)
                    B[1:k + 1] = special.betainc(j, n0 + 1 - j, xk)
            for z in sig[n0:]:
                B[1:k + 1] = (1.0 - z) * B[1:k + 1] + z * B[0:k]
            beta = float(B[k])
        best = min(best, beta)
    return best


def _consensus(lists, value: np.ndarray, method: str, params: dict, info: dict | None = None):
    info = dict(info or {})
    info["value"] = value
    return build_consensus(lists, keys=[value], scores=-value, method=method, params=params,
                           info=info)


@register_rule("rra", weights=False, invariants=("permute_lists", "relabel"), constraints={
    **_UNIVERSE, "exact": BOOL,
    "top_cutoff": [None, Check(_fractions, "a sequence of fractions in (0, 1], one per list",
                               kind=_numbers, toml="list")]})
def rra(lists, *, universe_size=None, exact=False, top_cutoff=None, weights=None):
    """Robust Rank Aggregation (Kolde et al. 2012): ρ from the order statistics, ascending.

    ``r_il = pos_il / N`` (1 when a top-k list did not rank feature i);
    ``ρ_i = min(M · min_j I_{r_i(j)}(j, M − j + 1), 1)``, ``r_i(j)`` the j-th smallest of
    feature i's ranks. ``scores = −ρ``; ``info["rho"]`` holds ρ. ``exact=True`` replaces the
    Bonferroni correction by RobustRankAggreg's exact one; ``top_cutoff`` (one fraction per
    list, e.g. ``k_l / N``) uses its cut-off-aware scores (``topCutoff``: a rank of 1, i.e. an
    unranked feature, counts as missing). Ties: the lower feature index. Matches
    ``RobustRankAggreg::aggregateRanks(glist, N = N, exact = exact, topCutoff = top_cutoff)``.

    Parameters
    ----------
    universe_size : int, optional
        N, the number of rankable items (default: the number of features).
    exact : bool
        Exact p-value correction (RobustRankAggreg's ``exact = TRUE``).
    top_cutoff : sequence of float in (0, 1], optional
        The lists' cut-offs as fractions of N (RobustRankAggreg's ``topCutoff``).

    Examples
    --------
    >>> from rankfusion import RankedLists, aggregate
    >>> lists = RankedLists.from_orders([list("abcd"), list("bacd"), list("acbd")])
    >>> res = aggregate(lists, "rra")
    >>> res.top(2), res.info["rho"][:2].round(4).tolist()
    (['a', 'b'], [0.375, 1.0])
    """
    exact = check_bool(exact, "exact")
    n = _universe_size(lists, universe_size)
    m = lists.n_lists
    if top_cutoff is None:
        # row blocks from the positions: the normalised ranks never exist as a whole matrix
        pos2 = lists.positions2
        ranked = None if lists.is_full else lists.ranked
        step = max(1, _RHO_BLOCK // max(m, 1))
        rho = np.empty(lists.n_features)
        for a in range(0, lists.n_features, step):
            block = _ranks_block(pos2[a:a + step],
                                 None if ranked is None else ranked[a:a + step], n)
            rho[a:a + step] = _rho_block(block, exact=exact)
        cut = None
    else:
        r = normalized_ranks(lists, n)
        cut = real_array(np.asarray(top_cutoff, dtype=np.float64), "top_cutoff")
        if cut.shape[0] != m:  # the values are checked by the declared constraints
            raise ValueError(f"top_cutoff must hold one fraction per list ({m}); "
                             f"got {cut.shape[0]}")
        rr = np.where(r == 1.0, np.nan, r)
        if (np.nan_to_num(rr, nan=0.0) > cut[None, :]).any():
            raise ValueError("a list ranks a feature below its top_cutoff (r > cut-off)")
        bmin = np.array([_threshold_beta_min(row, cut) for row in rr])
        if exact:
            j = np.arange(1, m + 1, dtype=np.float64)
            q = special.betaincinv(j[None, :], (m - j + 1)[None, :], bmin[:, None])
            rho = 1.0 - stuart_scores(1.0 - q)
        else:
            rho = np.minimum(bmin * m, 1.0)
        cut = cut.tolist()
    return _consensus(lists, rho, "rra",
                      {"universe_size": n, "exact": exact, "top_cutoff": cut}, {"rho": rho})


@register_rule("rra_min", weights=False, invariants=_RRA_PROMISES, constraints=_UNIVERSE)
def rra_min(lists, *, universe_size=None, weights=None):
    """Minimum normalised rank over the lists (RobustRankAggreg ``method = "min"``)."""
    n = _universe_size(lists, universe_size)
    return _consensus(lists, normalized_ranks(lists, n).min(axis=1), "rra_min",
                      {"universe_size": n})


@register_rule("rra_median", weights=False, invariants=_RRA_PROMISES, constraints=_UNIVERSE)
def rra_median(lists, *, universe_size=None, weights=None):
    """Median normalised rank (RobustRankAggreg ``method = "median"``)."""
    n = _universe_size(lists, universe_size)
    return _consensus(lists, np.median(normalized_ranks(lists, n), axis=1), "rra_median",
                      {"universe_size": n})


@register_rule("rra_geom_mean", weights=False, invariants=_RRA_PROMISES, constraints=_UNIVERSE)
def rra_geom_mean(lists, *, universe_size=None, weights=None):
    """Geometric mean of the normalised ranks, ``exp(mean(log r))`` (``"geom.mean"``)."""
    n = _universe_size(lists, universe_size)
    logs = np.sort(np.log(normalized_ranks(lists, n)), axis=1)  # sorted: order-free sums
    val = np.exp(logs.mean(axis=1))
    return _consensus(lists, val, "rra_geom_mean", {"universe_size": n})


@register_rule("rra_mean", weights=False, invariants=_RRA_PROMISES, constraints=_UNIVERSE)
def rra_mean(lists, *, universe_size=None, weights=None):
    """Mean normalised rank as a p-value: ``Φ((r̄ − 1/2) · sqrt(12 M))`` (``method = "mean"``).

    The mean of M independent U(0, 1) has mean 1/2 and variance 1/(12 M); RobustRankAggreg
    reports its normal-approximation lower tail.
    """
    n = _universe_size(lists, universe_size)
    m = lists.n_lists
    # The mean from an exact integer sum (doubled positions, N for an unranked feature), so
    # equal sums give equal means, as R's long-double mean does.
    s2 = np.where(lists.ranked, lists.positions2, 2 * n).sum(axis=1)
    mean = s2 / (2.0 * n * m)
    val = special.ndtr((mean - 0.5) / math.sqrt(1.0 / 12.0 / m))
    return _consensus(lists, val, "rra_mean", {"universe_size": n})


@register_rule("stuart", weights=False, invariants=("permute_lists", "relabel"),
               constraints=_UNIVERSE)
def stuart(lists, *, universe_size=None, weights=None):
    """Stuart–Aerts order-statistics p-value Q of the normalised ranks (``"stuart"``).

    ``Q = M! · V_M``, ``V_0 = 1``, ``V_k = Σ_{i=1..k} (−1)^{i−1} V_{k−i} r_(M−k+1)^i / i!``
    (Aerts et al. 2006); smaller = better. Numerically unstable for many lists, as in R.
    """
    n = _universe_size(lists, universe_size)
    val = stuart_scores(normalized_ranks(lists, n))
    return _consensus(lists, val, "stuart", {"universe_size": n})
