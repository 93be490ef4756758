"""Per-gene tests as rankers: Welch's t, Mann–Whitney U, Kruskal–Wallis H; and the
Benjamini–Hochberg q-values of their p-values (docs/design.md, 'Rankers').

Each test is a public function returning ``(statistic, pvalue)`` per feature, checked against
scipy.stats (``ttest_ind(equal_var=False)``, ``mannwhitneyu``, ``kruskal``), and a registered
ranker whose score is a **statistic**, not ``−log10 p``: strongly differential genes have
p-values below the smallest double (``t > 38`` at 500 degrees of freedom), where ``−log10 p``
would tie them all at infinity; a statistic keeps them apart, and features with equal
statistics tie exactly (integer-valued features are summed exactly, below).

* ``welch_t`` (two classes): ``|t|``, Welch's ``t = (x̄₁ − x̄₂) / sqrt(s₁²/n₁ + s₂²/n₂)``
  (Welch 1947; ``s²`` with ``n − 1``). Its p-value uses the Welch–Satterthwaite degrees of
  freedom, which differ between features, so the order by ``|t|`` can differ from the order by
  p where two features' ``|t|`` are close and their degrees of freedom far apart.
* ``mann_whitney`` (two classes): ``z = (max(U₁, U₂) − n₁n₂/2 − ½) / σ``, the
  continuity-corrected normal score of Mann & Whitney (1947), ``σ² = n₁n₂/12 · ((n + 1) −
  Σ(t³ − t)/(n(n − 1)))`` corrected for ties (t: the sizes of the groups of equal values), as
  scipy's asymptotic test; the order by ``z`` is the order by its p-value.
* ``kruskal_wallis`` (two classes or more): the tie-corrected ``H = (12/(n(n+1)) Σ R_k²/n_k −
  3(n + 1)) / (1 − Σ(t³ − t)/(n³ − n))`` (Kruskal & Wallis 1952); the order by ``H`` is the
  order by its χ² p-value (``K − 1`` degrees of freedom).

Missing values are refused; nominal columns enter as their category codes. A constant feature
has no statistic (0/0): it scores 0 and, as in every ranker, comes last (its p-value is NaN in
the test functions, as scipy's).

:func:`benjamini_hochberg` turns p-values into q-values (Benjamini & Hochberg 1995); the size
rule ``"fdr:0.05"`` of the selectors keeps the features whose q-value is at most 0.05 under a
ranker that gives p-values (:data:`PVALUE_TESTS`, registry tag ``pvalues``).

References
----------
Welch, B. L. (1947). The generalization of 'Student's' problem when several different
population variances are involved. Biometrika 34, 28–35.
Mann, H. B. & Whitney, D. R. (1947). On a test of whether one of two random variables is
stochastically larger than the other. Ann. Math. Stat. 18, 50–60.
Kruskal, W. H. & Wallis, W. A. (1952). Use of ranks in one-criterion variance analysis. JASA
47, 583–621.
Benjamini, Y. & Hochberg, Y. (1995). Controlling the false discovery rate. JRSS B 57, 289–300.
"""

from __future__ import annotations

import numpy as np

from .._utils.data import check_classification_data, rescale_extreme_columns
from ._registry import ranker_info, register_ranker

__all__ = ["welch_t", "mann_whitney", "kruskal_wallis", "welch_t_test", "mann_whitney_test",
           "kruskal_wallis_test", "benjamini_hochberg", "ranker_pvalues", "PVALUE_TESTS"]

#: Integer-valued columns whose ``n · max|x|`` stays within this bound are summed exactly
#: (every partial sum and the products ``n·Σx²`` fit in 63 bits).
_EXACT_BOUND = 2.0 ** 31

_TAGS = {"allow_nan": False, "pvalues": True}


def _exact_columns(values: np.ndarray, n: int | None = None) -> np.ndarray:
    """Which columns hold whole numbers small enough for exact sums: ``n · max|x| ≤ 2³¹``
    (``n`` the rows summed, default the rows of ``values``), so that ``Σx``, ``Σx²`` and the
    products ``n·Σx² − (Σx)²`` are exact in float64 and int64 whatever the order of the
    additions."""
    n = values.shape[0] if n is None else int(n)
    if values.shape[0] == 0:
        return np.zeros(values.shape[1], dtype=bool)
    top = np.abs(values).max(axis=0)
    return (np.floor(values) == values).all(axis=0) & (top * max(n, 1) <= _EXACT_BOUND)


def _welch_from_exact_sums(n1, s1, q1, n2, s2, q2) -> np.ndarray:
    """Welch's ``t`` from exact sums ``s = Σx``, ``q = Σx²`` of each class (whole numbers in
    float64, :func:`_exact_columns`) and the class sizes, by one fixed sequence of operations:
    the numerators ``n₂s₁ − n₁s₂`` and ``n·q − s²`` in int64 (exact), then
    ``t = (n₂s₁ − n₁s₂)/(n₁n₂) / sqrt(Σ (n_k q_k − s_k²)/(n_k²(n_k − 1)))``. Equal sums give
    bit-equal statistics, whichever computation (one sample, or many at once) produced them."""
    n1 = np.asarray(n1, dtype=np.int64)
    n2 = np.asarray(n2, dtype=np.int64)
    a1 = np.asarray(s1).astype(np.int64)
    a2 = np.asarray(s2).astype(np.int64)
    d = n2 * a1 - n1 * a2
    v1 = (n1 * np.asarray(q1).astype(np.int64) - a1 * a1).astype(np.float64)
    v2 = (n2 * np.asarray(q2).astype(np.int64) - a2 * a2).astype(np.float64)
    den = (v1 / (n1 * n1 * (n1 - 1)).astype(np.float64)
           + v2 / (n2 * n2 * (n2 - 1)).astype(np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        return (d.astype(np.float64) / (n1 * n2).astype(np.float64)) / np.sqrt(den)


def _welch_parts(values: np.ndarray, codes: np.ndarray):
    """``(t, u1, u2, n1, n2)``: Welch's signed t of the two classes present (the first in code
    order minus the second) and ``s_k²/n_k``; integer-valued columns from exact sums, the others
    by two passes (the mean, then the squared deviations), as numpy's ``var``."""
    present = np.unique(codes)
    a = values[codes == present[0]]
    b = values[codes == present[1]]
    n1, n2 = a.shape[0], b.shape[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        m1, m2 = a.mean(axis=0), b.mean(axis=0)
        u1 = ((a - m1) ** 2).sum(axis=0) / (n1 - 1) / n1
        u2 = ((b - m2) ** 2).sum(axis=0) / (n2 - 1) / n2
        t = (m1 - m2) / np.sqrt(u1 + u2)
    exact = _exact_columns(values)
    if exact.any():
        A, B = a[:, exact], b[:, exact]
        t[exact] = _welch_from_exact_sums(n1, A.sum(axis=0), (A * A).sum(axis=0),
                                         n2, B.sum(axis=0), (B * B).sum(axis=0))
    return t, u1, u2, n1, n2


def _welch_kernel(values: np.ndarray, codes: np.ndarray) -> np.ndarray | None:
    """``|t|`` of :func:`welch_t` on validated finite data and integer class codes (NaN → 0,
    ±inf → the largest double), or None unless exactly two classes of at least two rows each
    are present. Per column, so a subset of two or more columns gives the same bits."""
    present, counts = np.unique(codes, return_counts=True)
    if present.shape[0] != 2 or counts.min() < 2:
        return None
    values, _ = rescale_extreme_columns(values)  # exact; t does not depend on the scale
    t = np.abs(_welch_parts(values, codes)[0])
    return np.nan_to_num(t, nan=0.0, posinf=np.finfo(np.float64).max)


def _data(X, y, who, two: bool):
    data = check_classification_data(X, y, allow_missing=False, who=who)
    present, counts = np.unique(data.y, return_counts=True)
    if two and present.shape[0] != 2:
        raise ValueError(f"{who} compares two classes; y has {present.shape[0]}: use "
                         "kruskal_wallis (or f_classif) for more classes")
    if two and counts.min() < 2:
        small = data.classes[present[np.argmin(counts)]]
        small = small.item() if isinstance(small, np.generic) else small
        raise ValueError(f"{who} needs at least 2 rows of each class; class {small!r} has "
                         f"{int(counts.min())}")
    return data.values, data.y


def _clean(s: np.ndarray) -> np.ndarray:
    return np.nan_to_num(np.asarray(s, dtype=np.float64), nan=0.0,
                         posinf=np.finfo(np.float64).max, neginf=-np.finfo(np.float64).max)


def welch_t_test(X, y) -> tuple[np.ndarray, np.ndarray]:
    """Welch's two-sample t test of every feature (scipy's ``ttest_ind(equal_var=False)``).

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Complete features.
    y : array-like of shape (n_samples,)
        Two classes, of at least 2 rows each.

    Returns
    -------
    statistic : ndarray of shape (n_features,)
        ``t`` of the first class (in sorted label order) against the second; NaN for a
        constant feature.
    pvalue : ndarray of shape (n_features,)
        Two-sided, ``2·F_t(−|t|; ν)`` with the Welch–Satterthwaite
        ``ν = (u₁ + u₂)² / (u₁²/(n₁ − 1) + u₂²/(n₂ − 1))``, ``u_k = s_k²/n_k``.

    Examples
    --------
    >>> t, p = welch_t_test([[1.0], [2.0], [3.0], [7.0], [8.0], [10.0]], [0, 0, 0, 1, 1, 1])
    >>> round(float(t[0]), 4), round(float(p[0]), 4)
    (-6.0083, 0.0061)
    """
    from scipy.special import stdtr

    values, codes = _data(X, y, "welch_t", True)
    t, u1, u2, n1, n2 = _welch_parts(rescale_extreme_columns(values)[0], codes)
    with np.errstate(divide="ignore", invalid="ignore"):
        df = (u1 + u2) ** 2 / (u1 ** 2 / (n1 - 1) + u2 ** 2 / (n2 - 1))
        p = 2.0 * stdtr(df, -np.abs(t))
    return t, np.minimum(p, 1.0)


def _tie_terms(values: np.ndarray) -> np.ndarray:
    """``Σ (t³ − t)`` over the groups of equal values of each column."""
    n, p = values.shape
    s = np.sort(values, axis=0).T.ravel()
    new = np.ones(s.shape[0], dtype=bool)
    new[1:] = s[1:] != s[:-1]
    new[::n] = True  # every column starts a group
    starts = np.flatnonzero(new)
    size = np.diff(np.append(starts, s.shape[0])).astype(np.float64)
    return np.bincount(starts // n, weights=size ** 3 - size, minlength=p)


def _rank_sums(values, codes, present):
    from scipy.stats import rankdata

    ranks = rankdata(values, axis=0)
    return [ranks[codes == k].sum(axis=0) for k in present]


def _mw_z(values, codes):
    present = np.unique(codes)
    n1 = int((codes == present[0]).sum())
    n2 = codes.shape[0] - n1
    n = n1 + n2
    r1 = _rank_sums(values, codes, present[:1])[0]
    u1 = r1 - n1 * (n1 + 1) / 2.0
    u = np.maximum(u1, n1 * n2 - u1)
    sigma = np.sqrt(n1 * n2 / 12.0 * ((n + 1) - _tie_terms(values) / (n * (n - 1))))
    with np.errstate(divide="ignore", invalid="ignore"):
        return (u - n1 * n2 / 2.0 - 0.5) / sigma


def mann_whitney_test(X, y) -> tuple[np.ndarray, np.ndarray]:
    """The Mann–Whitney U test of every feature, two-sided (scipy's ``mannwhitneyu`` with its
    defaults: ``method="auto"``, continuity correction).

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Complete features.
    y : array-like of shape (n_samples,)
        Two classes, of at least 2 rows each.

    Returns
    -------
    statistic : ndarray of shape (n_features,)
        ``U₁``, of the first class (in sorted label order).
    pvalue : ndarray of shape (n_features,)
        Two-sided.

    Examples
    --------
    >>> U, p = mann_whitney_test([[1.0], [2.0], [3.0], [7.0], [8.0], [10.0]], [0, 0, 0, 1, 1, 1])
    >>> float(U[0]), round(float(p[0]), 4)
    (0.0, 0.1)
    """
    from scipy.stats import mannwhitneyu

    values, codes = _data(X, y, "mann_whitney", True)
    present = np.unique(codes)
    with np.errstate(divide="ignore", invalid="ignore"):
        res = mannwhitneyu(values[codes == present[0]], values[codes == present[1]], axis=0)
    return np.asarray(res.statistic, dtype=np.float64), np.asarray(res.pvalue, dtype=np.float64)


def _kw_h(values, codes):
    present = np.unique(codes)
    n = codes.shape[0]
    sums = _rank_sums(values, codes, present)
    sizes = [int((codes == k).sum()) for k in present]
    ssbn = sum(r ** 2 / m for r, m in zip(sums, sizes))
    h = 12.0 / (n * (n + 1)) * ssbn - 3 * (n + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return h / (1.0 - _tie_terms(values) / (n ** 3 - n))


def kruskal_wallis_test(X, y) -> tuple[np.ndarray, np.ndarray]:
    """The Kruskal–Wallis H test of every feature across the classes (scipy's ``kruskal``).

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Complete features.
    y : array-like of shape (n_samples,)
        Two classes or more.

    Returns
    -------
    statistic : ndarray of shape (n_features,)
        The tie-corrected H; NaN for a constant feature.
    pvalue : ndarray of shape (n_features,)
        ``P(χ²_{K−1} ≥ H)``.

    Examples
    --------
    >>> H, p = kruskal_wallis_test([[1.0], [2.0], [3.0], [7.0], [8.0], [10.0]],
    ...                            [0, 0, 1, 1, 2, 2])
    >>> round(float(H[0]), 4), round(float(p[0]), 4)
    (4.5714, 0.1017)
    """
    from scipy.stats import chi2

    values, codes = _data(X, y, "kruskal_wallis", False)
    h = _kw_h(values, codes)
    df = np.unique(codes).shape[0] - 1
    return h, chi2.sf(h, df)


@register_ranker("welch_t", aliases=("welch", "t_test"), constraints={}, tags=_TAGS)
def welch_t(X, y) -> np.ndarray:
    """``|t|`` of Welch's two-sample t test (module docstring; p-values:
    :func:`welch_t_test`). Two classes; integer-valued features are summed exactly, so equal
    sums tie exactly.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Complete features (nominal columns as their codes).
    y : array-like of shape (n_samples,)
        Two classes, of at least 2 rows each.

    Returns
    -------
    ndarray of shape (n_features,)

    Examples
    --------
    >>> welch_t([[1.0, 5.0], [2.0, 4.0], [8.0, 5.0], [9.0, 4.0]], [0, 0, 1, 1]).round(2)
    array([9.9, 0. ])
    """
    values, codes = _data(X, y, "welch_t", True)
    return _welch_kernel(values, codes)


@register_ranker("mann_whitney", aliases=("mannwhitney", "wilcoxon_rank_sum"), constraints={},
                 tags=_TAGS)
def mann_whitney(X, y) -> np.ndarray:
    """The continuity-corrected, tie-corrected normal score ``z`` of the Mann–Whitney U test
    (module docstring; p-values: :func:`mann_whitney_test`). Two classes.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Complete features.
    y : array-like of shape (n_samples,)
        Two classes, of at least 2 rows each.

    Returns
    -------
    ndarray of shape (n_features,)

    Examples
    --------
    >>> mann_whitney([[1.0, 5.0], [2.0, 4.0], [8.0, 5.0], [9.0, 4.0]], [0, 0, 1, 1]).round(3)
    array([ 1.162, -0.433])
    """
    values, codes = _data(X, y, "mann_whitney", True)
    return _clean(_mw_z(values, codes))


@register_ranker("kruskal_wallis", aliases=("kruskal",), constraints={}, tags=_TAGS)
def kruskal_wallis(X, y) -> np.ndarray:
    """The tie-corrected Kruskal–Wallis ``H`` (module docstring; p-values:
    :func:`kruskal_wallis_test`). Two classes or more.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Complete features.
    y : array-like of shape (n_samples,)
        The classes.

    Returns
    -------
    ndarray of shape (n_features,)

    Examples
    --------
    >>> kruskal_wallis([[1.0, 5.0], [2.0, 4.0], [8.0, 5.0], [9.0, 4.0]], [0, 0, 1, 1]).round(3)
    array([2.4, 0. ])
    """
    values, codes = _data(X, y, "kruskal_wallis", False)
    return _clean(_kw_h(values, codes))


def _f_classif_test(X, y):
    from sklearn.feature_selection import f_classif

    data = check_classification_data(X, y, allow_missing=False, who="f_classif")
    with np.errstate(divide="ignore", invalid="ignore"):
        return f_classif(data.values, data.y)


#: The rankers that give p-values (registry tag ``pvalues``): name → ``test(X, y) ->
#: (statistic, pvalue)``.
PVALUE_TESTS = {"welch_t": welch_t_test, "mann_whitney": mann_whitney_test,
                "kruskal_wallis": kruskal_wallis_test, "f_classif": _f_classif_test}


def ranker_pvalues(ranker: str, X, y) -> np.ndarray:
    """The p-value of every feature under the test behind a registered ranker.

    Parameters
    ----------
    ranker : str
        A registered name or alias whose entry carries the tag ``pvalues``
        (:data:`PVALUE_TESTS`).
    X : array-like or DataFrame of shape (n_samples, n_features)
        The features.
    y : array-like of shape (n_samples,)
        The classes.

    Returns
    -------
    ndarray of shape (n_features,)
        The p-values; NaN (a constant feature) becomes 1, never a discovery.

    Raises
    ------
    ValueError
        A ranker that gives no p-values, naming those that do.
    """
    name = ranker_info(ranker).name
    if name not in PVALUE_TESTS:
        raise ValueError(f"ranker {ranker!r} gives no p-values; the rankers that do: "
                         f"{', '.join(PVALUE_TESTS)}")
    p = np.asarray(PVALUE_TESTS[name](X, y)[1], dtype=np.float64)
    return np.where(np.isnan(p), 1.0, p)


def benjamini_hochberg(pvalues) -> np.ndarray:
    """Benjamini–Hochberg q-values (adjusted p-values) of ``m`` p-values.

    ``q_(i) = min_{j ≥ i} min(1, m · p_(j) / j)`` for the p-values in increasing order
    ``p_(1) ≤ … ≤ p_(m)`` (Benjamini & Hochberg 1995, step-up procedure): the features with
    ``q ≤ α`` are those the procedure rejects at false discovery rate ``α``. Equal p-values get
    equal q-values. As scipy's ``false_discovery_control(p, method="bh")``.

    Parameters
    ----------
    pvalues : array-like of shape (m,)
        P-values in [0, 1], no NaN.

    Returns
    -------
    ndarray of shape (m,)
        The q-values, in the order given.

    Examples
    --------
    >>> benjamini_hochberg([0.01, 0.04, 0.03, 0.5]).round(4)
    array([0.04    , 0.0533, 0.0533, 0.5   ])
    """
    try:
        p = np.asarray(pvalues, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("pvalues must be numbers in [0, 1], got "
                        f"{type(pvalues).__name__}") from None
    if p.ndim != 1:
        raise ValueError(f"pvalues must be one-dimensional, got {p.ndim} dimensions")
    bad = np.flatnonzero(~((p >= 0) & (p <= 1)))
    if bad.size:
        raise ValueError(f"pvalues must lie in [0, 1] (no NaN); pvalues[{int(bad[0])}] is "
                         f"{float(p[bad[0]])!r}")
    m = p.shape[0]
    if m == 0:
        return p.copy()
    order = np.argsort(p, kind="stable")
    scaled = p[order] * m / np.arange(1, m + 1)
    q = np.minimum.accumulate(scaled[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(q, 1.0)
    return out
