"""The accuracy-style list weights under ``task="regression"`` (docs/design.md, 'Tasks'): each
named option computed from the lists' cross-validated R². Oracles: scikit-learn's
``r2_score`` on the same folds and the formulas of each option written out here."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import rankdata
from sklearn.base import clone
from sklearn.linear_model import Ridge
from sklearn.metrics import r2_score

from rankfusion import EnsembleSelector, RankedLists
from rankfusion.selection.list_weights import DEFAULT_TEMPERATURE, list_r2, regression_list_weights
from rankfusion.selection.regression import r2_weights, regression_folds


def _data(seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(70, 6))
    y = 2 * X[:, 0] + X[:, 1] + 0.5 * rng.normal(size=70)
    # list 0 ranks the informative features first, list 1 half right, list 2 noise first
    scores = np.array([[6, 5, 4, 3, 2, 1], [6, 1, 5, 4, 3, 2], [1, 2, 6, 5, 4, 3]],
                      dtype=float).T
    lists = RankedLists.from_scores(scores, features=[f"x{j}" for j in range(6)],
                                    list_names=["good", "half", "noise"])
    return X, y, lists, regression_folds(70, 4, random_state=1)


def _r2_by_hand(X, y, lists, folds, k=2):
    out = []
    for j in range(lists.n_lists):
        cols = np.argsort(lists.positions[:, j], kind="stable")[:k]
        out.append(np.mean([r2_score(y[te], clone(Ridge()).fit(X[np.ix_(tr, cols)], y[tr])
                                     .predict(X[np.ix_(te, cols)])) for tr, te in folds]))
    return np.array(out)


def test_list_r2_is_scikit_learns():
    X, y, lists, folds = _data()
    np.testing.assert_allclose(list_r2(lists, X, y, Ridge(), 2, folds),
                               _r2_by_hand(X, y, lists, folds), rtol=1e-12)


@pytest.mark.parametrize("option", ["accuracy", "accuracy_above_chance", "accuracy_softmax",
                                    "accuracy_softmax:0.05", "accuracy_rank"])
def test_each_option_under_regression(option):
    X, y, lists, folds = _data()
    r2 = _r2_by_hand(X, y, lists, folds)
    w = regression_list_weights(option, lists, X, y, Ridge(), 2, folds)
    if option in ("accuracy", "accuracy_above_chance"):
        ref = np.maximum(r2, 0) / np.maximum(r2, 0).sum()
    elif option.startswith("accuracy_softmax"):
        t = 0.05 if ":" in option else DEFAULT_TEMPERATURE
        ref = np.exp(r2 / t) / np.exp(r2 / t).sum()
    else:
        ref = rankdata(r2) / rankdata(r2).sum()
    np.testing.assert_allclose(w, ref, rtol=1e-10)
    assert w.sum() == pytest.approx(1.0) and w[0] > w[2]  # the good list weighs more


def test_accuracy_is_the_r2_weights_unchanged():
    X, y, lists, folds = _data()
    np.testing.assert_array_equal(regression_list_weights("accuracy", lists, X, y, Ridge(), 2,
                                                          folds),
                                  r2_weights(lists, X, y, Ridge(), 2, folds))


def test_above_chance_uniform_when_no_list_beats_the_mean():
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(40, 4)), rng.normal(size=40)  # nothing to explain
    lists = RankedLists.from_scores(rng.random((4, 3)), features=list("abcd"))
    folds = regression_folds(40, 4, random_state=0)
    r2 = list_r2(lists, X, y, Ridge(), 1, folds)
    if (r2 > 0).any():
        pytest.fail(f"the fixture's lists should not beat the mean: {r2}")
    with pytest.warns(UserWarning, match="no list's R² is above 0"):
        w = regression_list_weights("accuracy_above_chance", lists, X, y, Ridge(), 1, folds)
    np.testing.assert_array_equal(w, np.full(3, 1 / 3))
    with pytest.raises(ValueError, match="every R² ≤ 0"):
        regression_list_weights("accuracy", lists, X, y, Ridge(), 1, folds)


def test_selector_passes_the_named_option():
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(40, 4)), rng.normal(size=40)  # nothing to explain
    kw = dict(rankers=["pearson", "f_regression"], weight_k=1, n_features_to_select=2,
              random_state=0, task="regression")
    with pytest.raises(ValueError, match="every R² ≤ 0"):
        EnsembleSelector(list_weights="accuracy", **kw).fit(X, y)
    with pytest.warns(UserWarning, match="no list's R² is above 0"):
        sel = EnsembleSelector(list_weights="accuracy_above_chance", **kw).fit(X, y)
    np.testing.assert_array_equal(sel.list_weights_, [0.5, 0.5])


@pytest.mark.parametrize("option,exc,message", [
    ("accuracy_softmax:0", ValueError, "temperature T > 0"),
    ("accuracy_softmax:-1", ValueError, "temperature T > 0"),
    ("accuracy_ranks", ValueError, "list_weights must be None, one of"),
    ("r2", ValueError, "list_weights must be None, one of"),
    (3, (TypeError, ValueError), "list_weights"),
])
def test_hostile_options(option, exc, message):
    X, y, lists, folds = _data()
    with pytest.raises(exc, match=message):
        regression_list_weights(option, lists, X, y, Ridge(), 2, folds)
