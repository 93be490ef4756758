"""K-step and learning-curve subset sizes for a numeric target (docs/design.md, 'Tasks'):
``evaluate_prefixes(scoring=…)`` with regressors (R², −RMSE, −MAE on plain K-fold) and
``EnsembleSelector(n_features_to_select="k-step"|"learning-curve")`` under regression.
Oracles: scikit-learn's ``r2_score`` / ``mean_squared_error`` / ``mean_absolute_error`` on the
same folds, a linear model with known informative features; the classification call unchanged."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score
from sklearn.naive_bayes import GaussianNB

from rankfusion import EnsembleSelector
from rankfusion.selection.regression import regression_folds
from rankfusion.selection.subset_size import evaluate_prefixes


def _linear(n=90, p=12, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = 3 * X[:, 0] - 2 * X[:, 3] + 1.5 * X[:, 5] + 0.3 * rng.normal(size=n)
    return X, y


ORACLES = {"r2": r2_score,
           "neg_rmse": lambda a, b: -np.sqrt(mean_squared_error(a, b)),
           "neg_mae": lambda a, b: -mean_absolute_error(a, b)}


@pytest.mark.parametrize("scoring", list(ORACLES))
def test_prefix_scores_equal_scikit_learns(scoring):
    X, y = _linear()
    folds = regression_folds(len(y), 4, random_state=3)
    order = np.array([0, 3, 5, 1, 2, 4, 6, 7, 8, 9, 10, 11])
    curve = evaluate_prefixes(X, y, folds, [order] * 4, {"ridge": Ridge(1.0)}, [1, 3, 6],
                              scoring=scoring)
    for k in (1, 3, 6):
        cols = order[:k]
        ref = [ORACLES[scoring](y[te], clone(Ridge(1.0)).fit(X[np.ix_(tr, cols)], y[tr])
                                .predict(X[np.ix_(te, cols)])) for tr, te in folds]
        row = curve[curve["k"] == k].iloc[0]
        np.testing.assert_allclose([row[f"fold{f}"] for f in range(4)], ref, rtol=1e-12)
        assert row["mean"] == pytest.approx(np.mean(ref), rel=1e-12)


def test_classification_prefixes_unchanged():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 5))
    y = (X[:, 0] + 0.5 * rng.normal(size=60) > 0).astype(int)
    folds = regression_folds(60, 3, random_state=0)
    order = np.arange(5)
    a = evaluate_prefixes(X, y, folds, [order] * 3, {"nb": GaussianNB()}, [1, 2, 5])
    b = evaluate_prefixes(X, y, folds, [order] * 3, {"nb": GaussianNB()}, [1, 2, 5],
                          scoring="accuracy")
    assert a.equals(b)
    tr, te = folds[0]
    acc = np.mean(GaussianNB().fit(X[tr][:, :2], y[tr]).predict(X[te][:, :2]) == y[te])
    assert a.loc[a["k"] == 2, "fold0"].iloc[0] == acc


@pytest.mark.parametrize("method", ["k-step", "learning-curve"])
@pytest.mark.parametrize("subset_cv", ["nested", "ranked_once"])
def test_ensemble_size_search_under_regression(method, subset_cv):
    X, y = _linear()
    sel = EnsembleSelector(rankers=["pearson", "f_regression"], n_features_to_select=method,
                           subset_cv=subset_cv, size_rule="one_se", random_state=0).fit(X, y)
    assert sel.task_ == "regression"
    # tolerance stated in advance: the three informative features, at most two others
    chosen = set(np.flatnonzero(sel.support_).tolist())
    assert {0, 3, 5} <= chosen and len(chosen) <= 5
    sc = sel.subset_curve_
    assert sc.estimator == "ridge" and 0.9 < sc.accuracy <= 1.0  # an R²


def test_ranked_once_curve_rises_with_the_informative_features():
    X, y = _linear()
    sel = EnsembleSelector(rankers=["pearson"], n_features_to_select="k-step",
                           subset_grid=[1, 2, 3, 4], subset_cv="ranked_once",
                           random_state=5).fit(X, y)
    curve = sel.subset_curve_.curve
    order = np.argsort(sel.positions_, kind="stable")
    # the consensus puts the informative features first; each adds R² (weights 3, 2, 1.5
    # against noise SD 0.3), the fourth (noise) does not beat the third by much
    m = curve.set_index("k")["mean"]
    assert list(order[:3]) == [0, 3, 5]
    assert m[3] > m[2] > m[1] and m[3] > 0.95 and abs(m[4] - m[3]) < 0.01
    assert sel.n_features_ in (3, 4)


# (id, scoring or kwargs, exception, regex)
HOSTILE = [
    ("unknown-scoring", "rmse", ValueError,
     r"scoring must be 'accuracy', 'r2', 'neg_rmse' or 'neg_mae', got 'rmse'"),
    ("scoring-number", 0, TypeError, r"scoring must be .* got 0"),
    ("scoring-uppercase", "R2", ValueError, r"scoring"),
    ("scoring-list", ["r2"], (TypeError, ValueError), r"scoring"),
]


@pytest.mark.parametrize("scoring,exc,message", [h[1:] for h in HOSTILE],
                         ids=[h[0] for h in HOSTILE])
def test_hostile_scoring(scoring, exc, message):
    X, y = _linear(n=20, p=6)
    folds = regression_folds(20, 2, random_state=0)
    with pytest.raises(exc, match=message):
        evaluate_prefixes(X, y, folds, [np.arange(6)] * 2, {"ridge": Ridge()}, [1],
                          scoring=scoring)


@pytest.mark.parametrize("task, scoring, message", [
    ("regression", "accuracy", "scoring='accuracy' is a classification score, but the task "
                               "is regression"),
    ("classification", "r2", "scoring='r2' is a regression score, but the task is "
                             "classification"),
])
def test_scoring_of_the_other_task_is_refused(task, scoring, message):
    X, y = _linear(n=20, p=6)
    if task == "classification":
        y = (y > np.median(y)).astype(int)
    folds = regression_folds(20, 2, random_state=0)
    with pytest.raises(ValueError, match=message):
        evaluate_prefixes(X, y, folds, [np.arange(6)] * 2, {"ridge": Ridge()}, [1],
                          scoring=scoring, task=task)


def test_scoring_defaults_by_task():
    X, y = _linear(n=20, p=6)
    folds = regression_folds(20, 2, random_state=0)
    a = evaluate_prefixes(X, y, folds, [np.arange(6)] * 2, {"ridge": Ridge()}, [1, 3],
                          task="regression")
    b = evaluate_prefixes(X, y, folds, [np.arange(6)] * 2, {"ridge": Ridge()}, [1, 3],
                          scoring="r2")
    pd.testing.assert_frame_equal(a, b)
