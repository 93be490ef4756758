"""How many features to keep: a fixed count, K-step, or the learning curve.

* **K-step** (robust-FS paper, Algorithm 2): for every k of a grid, the cross-validated accuracy
  of each classifier on the top k features; the k with the highest accuracy of the best
  classifier wins, ties to the smaller k.
* **Learning curve** (Ruiz et al. 2003, §4): features are added in rank order and the prefix with
  the best cross-validated accuracy of the classifier is kept, ties to the shorter prefix.

Both are computed on the data given to ``fit`` only. By default the ranking behind each fold's
top k is recomputed on that fold's training part (``"nested"``), so the held-out part never
reaches the ranking; ``"ranked_once"`` ranks once on all the fit data and cross-validates the
classifiers on its prefixes, the papers' reading, which is cheaper but optimistic (the held-out
rows took part in the ranking).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["SubsetCurve", "k_step_grid", "learning_curve_grid", "evaluate_prefixes",
           "choose_size"]


def k_step_grid(p: int, *, dense_until: int = 50, n_log: int = 20) -> np.ndarray:
    """The default K-step grid: every k from 1 to ``min(p, dense_until)``, then ``n_log``
    log-spaced sizes up to p (rounded, duplicates dropped, p always included)."""
    dense = np.arange(1, min(p, dense_until) + 1)
    if p <= dense_until:
        return dense
    logs = np.unique(np.round(np.geomspace(dense_until, p, n_log + 1)).astype(int))
    return np.unique(np.concatenate([dense, logs[logs > dense_until], [p]]))


def learning_curve_grid(p: int) -> np.ndarray:
    """The default learning-curve grid: every prefix 1…p up to p = 100 (Ruiz et al. add the
    features one at a time); beyond 100 features, every prefix up to 100 and then 30
    log-spaced sizes up to p, so a wide data set does not cost p fits per fold."""
    return k_step_grid(p, dense_until=100, n_log=30)


@dataclass(frozen=True)
class SubsetCurve:
    """Cross-validated accuracy of each classifier on each prefix of the ranking.

    Attributes
    ----------
    curve : DataFrame
        One row per (k, estimator): ``k``, ``estimator``, ``mean``, ``sd`` (ddof = 1 over the
        folds) and ``fold0 …`` accuracies.
    n_features : int
        The chosen k.
    estimator : str
        The estimator whose accuracy decided.
    accuracy : float
        Its mean accuracy at the chosen k.
    method : str
        ``"k-step"`` or ``"learning-curve"``.
    """

    curve: pd.DataFrame
    n_features: int
    estimator: str
    accuracy: float
    method: str


def evaluate_prefixes(X, y, folds, orders, estimators: dict, grid) -> pd.DataFrame:
    """Accuracy of every estimator on every prefix of the grid, fold by fold.

    Parameters
    ----------
    X : ndarray or DataFrame, y : ndarray
    folds : list of (train, test) index arrays
    orders : list of ndarray
        For each fold, the feature indices best first, ranked on that fold's training part (or
        the same order for every fold).
    estimators : dict name → classifier
        Each is wrapped by :func:`~rankfusion.selection.estimators.classifier_pipeline` for
        the encoding its columns need (nominal columns, missing values).
    grid : sequence of int

    Returns
    -------
    DataFrame with ``k``, ``estimator``, ``mean``, ``sd``, ``fold0 …``.
    """
    from .estimators import classifier_pipeline

    frame = isinstance(X, pd.DataFrame)
    grid = [int(k) for k in grid]
    acc = np.zeros((len(grid), len(estimators), len(folds)))
    for f, ((train, test), order) in enumerate(zip(folds, orders)):
        for g, k in enumerate(grid):
            cols = np.asarray(order[:k])
            if frame:
                Xtr, Xte = X.iloc[train, cols], X.iloc[test, cols]
            else:
                Xtr, Xte = X[np.ix_(train, cols)], X[np.ix_(test, cols)]
            for e, est in enumerate(estimators.values()):
                model = classifier_pipeline(est, Xtr).fit(Xtr, y[train])
                acc[g, e, f] = float(np.mean(model.predict(Xte) == y[test]))
    rows = []
    names = list(estimators)
    for g, k in enumerate(grid):
        for e, name in enumerate(names):
            a = acc[g, e]
            row = {"k": k, "estimator": name, "mean": float(a.mean()),
                   "sd": float(a.std(ddof=1)) if a.shape[0] > 1 else 0.0}
            row.update({f"fold{f}": float(a[f]) for f in range(a.shape[0])})
            rows.append(row)
    return pd.DataFrame(rows)


def choose_size(curve: pd.DataFrame, method: str) -> SubsetCurve:
    """Pick k from a curve: the highest mean accuracy (of the best estimator for K-step, of the
    only estimator for the learning curve), ties to the smaller k (then the earlier
    estimator)."""
    best = None
    for k, part in curve.groupby("k", sort=True):
        i = int(np.argmax(part["mean"].to_numpy()))  # first maximum: earlier estimator
        acc = float(part["mean"].iloc[i])
        if best is None or acc > best[1]:
            best = (int(k), acc, str(part["estimator"].iloc[i]))
    return SubsetCurve(curve=curve, n_features=best[0], estimator=best[2], accuracy=best[1],
                       method=method)
