"""Correlation with a numeric target: Pearson's and Spearman's, as the absolute value
(docs/design.md, 'Tasks').

``pearson``: ``|r(x_j, y)|`` with ``r = Σ (x − x̄)(y − ȳ) / sqrt(Σ (x − x̄)² Σ (y − ȳ)²)``
(Pearson 1896). ``spearman``: the same of the average ranks of ``x_j`` and ``y`` (ties get the
mean of their ranks; Spearman 1904), i.e. ``|ρ|``. The absolute value is the score: a strong
negative correlation is as informative as a positive one. A constant feature scores 0.
Features must be numeric and complete (nominal columns and NaN are refused).

References
----------
Pearson, K. (1896). Mathematical contributions to the theory of evolution. III. Regression,
heredity and panmixia. Phil. Trans. R. Soc. A 187, 253–318.
Spearman, C. (1904). The proof and measurement of association between two things. Am. J.
Psychol. 15, 72–101.
"""

from __future__ import annotations

import numpy as np

from .._utils.task import check_regression_data
from ._registry import register_ranker

__all__ = ["pearson", "spearman"]

_TAGS = {"allow_nan": False, "tasks": ("regression",)}


def _abs_corr(values: np.ndarray, t: np.ndarray) -> np.ndarray:
    xc = values - values.mean(axis=0)
    tc = t - t.mean()
    num = tc @ xc
    den = np.sqrt((xc * xc).sum(axis=0) * (tc @ tc))
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.abs(num / den)
    r[~np.isfinite(r)] = 0.0
    return np.minimum(r, 1.0)


def _scaled(values: np.ndarray) -> np.ndarray:
    """Each column divided by its largest magnitude (correlation is scale-free; this keeps
    extreme scales from overflowing the sums of squares)."""
    m = np.abs(values).max(axis=0)
    m[m == 0] = 1.0
    return values / m


@register_ranker("pearson", tags=_TAGS, constraints={})
def pearson(X, y) -> np.ndarray:
    """Absolute Pearson correlation ``|r(x_j, y)|`` of each feature with a numeric target.

    Parameters
    ----------
    X : array-like or DataFrame, shape (n_samples, n_features)
        Numeric features without missing values.
    y : array-like, shape (n_samples,)
        The numeric target.

    Returns
    -------
    ndarray of float64, shape (n_features,)
        In [0, 1]; a constant feature scores 0.

    Examples
    --------
    >>> pearson([[1.0, 2.0], [2.0, 1.0], [3.0, 2.0], [4.0, 1.0]], [1.0, 2.0, 3.0, 4.0])
    array([1.       , 0.4472136])
    """
    values, _, _, _, t = check_regression_data(X, y)
    return _abs_corr(_scaled(values), t)


@register_ranker("spearman", tags=_TAGS, constraints={})
def spearman(X, y) -> np.ndarray:
    """Absolute Spearman rank correlation ``|ρ(x_j, y)|`` (Pearson's of the average ranks).

    Parameters
    ----------
    X : array-like or DataFrame, shape (n_samples, n_features)
        Numeric features without missing values.
    y : array-like, shape (n_samples,)
        The numeric target.

    Returns
    -------
    ndarray of float64, shape (n_features,)
        In [0, 1]; a constant feature scores 0.

    Examples
    --------
    >>> spearman([[1.0], [2.0], [30.0], [400.0]], [0.1, 0.2, 0.3, 0.4])
    array([1.])
    """
    from scipy.stats import rankdata

    values, _, _, _, t = check_regression_data(X, y)
    return _abs_corr(rankdata(values, axis=0), rankdata(t))
