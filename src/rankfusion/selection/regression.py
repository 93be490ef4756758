"""What an ensemble needs for a numeric target (docs/design.md, 'Tasks'): plain shuffled K-fold
folds and the list weights from a regression score.

``r2_weights`` is Bouaguel et al.'s (2013) accuracy weighting with the cross-validated
coefficient of determination in place of the accuracy: ``w_j = max(R²_j, 0) / Σ_m max(R²_m, 0)``,
``R²_j`` the mean over the folds of ``1 − Σ (y − ŷ)² / Σ (y − ȳ)²`` on each test part of a
regressor fitted on the training part restricted to list j's top ``k`` features (a list worse
than predicting the mean gets weight 0).
"""

from __future__ import annotations

import numpy as np

__all__ = ["regression_folds", "r2_weights", "list_r2", "default_regressor"]


def default_regressor():
    """The regressor of the R² list weights when none is given: ``Ridge(alpha=1.0)`` on
    z-scored features (a scikit-learn pipeline)."""
    from sklearn.linear_model import Ridge
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return make_pipeline(StandardScaler(), Ridge(alpha=1.0))


def regression_folds(n_samples: int, cv: int, *, random_state: int = 0) -> list:
    """Shuffled ``KFold`` (train, test) rows for a numeric target (no strata: every value is
    its own "class").

    Parameters
    ----------
    n_samples : int
        The number of rows.
    cv : int
        The number of folds (≥ 2, at most ``n_samples``).
    random_state : int, default 0
        The shuffle's seed.

    Returns
    -------
    list of (ndarray, ndarray)
    """
    from sklearn.model_selection import KFold

    if int(cv) > int(n_samples):
        raise ValueError(f"cv={cv} folds need at least {cv} samples, got {n_samples}")
    kf = KFold(n_splits=int(cv), shuffle=True, random_state=int(random_state))
    return list(kf.split(np.zeros((int(n_samples), 1))))


def r2_weights(lists, X, y, estimator, k: int, folds) -> np.ndarray:
    """R² list weights ``w_j = max(R²_j, 0) / Σ_m max(R²_m, 0)`` (see the module docstring).

    Parameters
    ----------
    lists : RankedLists
        The lists to weigh.
    X : ndarray or DataFrame of shape (n_samples, n_features)
        Numeric features.
    y : ndarray of shape (n_samples,)
        The numeric target.
    estimator : regressor
        Cloned and fitted on each fold's training rows and list j's top ``k`` features.
    k : int
        How many of each list's first features it sees (ties by the lower feature index).
    folds : list of (ndarray, ndarray)
        The (train, test) rows (:func:`regression_folds`).

    Returns
    -------
    ndarray of shape (n_lists,)
        Weights summing to 1.

    Raises
    ------
    ValueError
        When no list's R² is positive.

    References
    ----------
    Bouaguel, Ben Brahim & Limam (2013), Feature selection by rank aggregation and genetic
    algorithms, KDIR 2013, 74–81 (the weighting, with the accuracy).
    """
    r2 = list_r2(lists, X, y, estimator, k, folds)
    w = np.maximum(r2, 0.0)
    if not (w > 0).any():
        raise ValueError("list_weights='accuracy' with task='regression': no list's top "
                         f"{k} features predict better than the mean (every R² ≤ 0)")
    return w / w.sum()


def list_r2(lists, X, y, estimator, k: int, folds) -> np.ndarray:
    """Each list's cross-validated R² for a numeric target: the mean over ``folds`` of
    ``1 − Σ(y − ŷ)² / Σ(y − ȳ)²`` (scikit-learn's ``r2_score``) on each test part, of
    ``estimator`` (a regressor) fitted on the training part restricted to the list's top ``k``
    features (ties by the lower feature index), as
    :func:`r2_weights`.

    Returns
    -------
    ndarray of shape (n_lists,)
    """
    from sklearn.base import clone
    from sklearn.metrics import r2_score

    Xa = X.to_numpy(dtype=np.float64) if hasattr(X, "to_numpy") else np.asarray(
        X, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    pos = lists.positions
    out = np.empty(lists.n_lists)
    for j in range(lists.n_lists):
        cols = np.lexsort((np.arange(pos.shape[0]), pos[:, j]))[:int(k)]
        vals = [r2_score(y[te], clone(estimator).fit(Xa[np.ix_(tr, cols)], y[tr])
                         .predict(Xa[np.ix_(te, cols)])) for tr, te in folds]
        out[j] = float(np.mean(vals))
    return out
