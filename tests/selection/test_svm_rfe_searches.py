"""SVMRFE's two searches recomputed independently with scikit-learn.

* ``C="cv"``: the first argmax (the smallest C among equal best means) of scikit-learn's own
  ``cross_val_score`` over the grid, with the same unshuffled stratified folds.
* ``n_features_to_select="cv"``: on every fold the ranking is recomputed on the training part
  only (here by scikit-learn's ``RFE(SVC(kernel="linear"), step=1)``, which binary SVM-RFE
  reproduces), a linear SVC is fitted on the top-k training columns and scored on the held-out
  part; the fold scores, their mean and the smallest best size must match.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.feature_selection import RFE
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.svm import SVC

from rankfusion.selection import C_GRID, SVMRFE, choose_C


def _data(seed, n=40, p=8, informative=2, noise=1.0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.normal(size=(n, p))
    X[:, :informative] += noise * (2 * y[:, None] - 1) * np.linspace(1, 0.4, informative)
    return X, y


def _first_best_C(X, y, cv=5, grid=C_GRID):
    folds = StratifiedKFold(n_splits=cv)
    means = [cross_val_score(SVC(kernel="linear", C=c), X, y, cv=folds).mean() for c in grid]
    means = np.round(means, 12)
    return grid[int(np.flatnonzero(means == means.max())[0])], means


@pytest.mark.parametrize("seed", [0, 3])
def test_C_cv_is_the_first_argmax_of_cross_val_score(seed):
    X, y = _data(seed, n=30, p=6, noise=0.6)
    expected, means = _first_best_C(X, y)
    # the case must discriminate: the best C is neither the largest nor unique to the top
    assert expected != max(C_GRID)
    sel = SVMRFE(C="cv", n_features_to_select=2).fit(X, y)
    assert sel.C_ == expected
    np.testing.assert_allclose(sel.C_cv_results_["mean_test_score"], means, atol=1e-12)
    assert choose_C(X, y)[0] == expected


def test_C_cv_ties_go_to_the_smallest_C():
    # separable data: every C from some value on reaches accuracy 1
    X, y = _data(1, n=30, p=4, noise=4.0)
    expected, means = _first_best_C(X, y)
    assert (means == means.max()).sum() > 1
    assert SVMRFE(C="cv", n_features_to_select=1).fit(X, y).C_ == expected


def _size_search_by_hand(X, y, C=1.0, cv=5):
    p = X.shape[1]
    sizes = np.arange(p, 0, -1)
    scores = np.zeros((cv, p))
    for f, (tr, te) in enumerate(StratifiedKFold(n_splits=cv).split(X, y)):
        rfe = RFE(SVC(kernel="linear", C=C), n_features_to_select=1, step=1).fit(X[tr], y[tr])
        order = np.argsort(rfe.ranking_, kind="stable")
        for s, k in enumerate(sizes):
            cols = order[:k]
            model = SVC(kernel="linear", C=C).fit(X[tr][:, cols], y[tr])
            scores[f, s] = model.score(X[te][:, cols], y[te])
    mean = np.round(scores.mean(axis=0), 12)
    best = int(sizes[mean == mean.max()].min())
    return sizes, scores, best


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_size_cv_ranks_on_the_training_part_only(seed):
    X, y = _data(seed, n=40, p=8, informative=3, noise=0.5)
    sizes, scores, best = _size_search_by_hand(X, y)
    sel = SVMRFE(n_features_to_select="cv", step=1, step_until=1).fit(X, y)
    np.testing.assert_array_equal(sel.cv_results_["n_features"], sizes)
    for f in range(5):
        np.testing.assert_array_equal(sel.cv_results_[f"split{f}_test_score"], scores[f])
    np.testing.assert_allclose(sel.cv_results_["mean_test_score"], scores.mean(axis=0))
    assert sel.n_features_ == best


def test_size_cv_differs_from_ranking_on_all_the_data():
    """The case above discriminates: ranking once on all rows gives other fold scores."""
    X, y = _data(0, n=40, p=8, informative=3, noise=0.5)
    _, scores, _ = _size_search_by_hand(X, y)
    order = np.argsort(RFE(SVC(kernel="linear"), n_features_to_select=1, step=1)
                       .fit(X, y).ranking_, kind="stable")
    leaked = np.zeros_like(scores)
    for f, (tr, te) in enumerate(StratifiedKFold(n_splits=5).split(X, y)):
        for s, k in enumerate(range(8, 0, -1)):
            cols = order[:k]
            leaked[f, s] = SVC(kernel="linear").fit(X[tr][:, cols], y[tr]).score(
                X[te][:, cols], y[te])
    assert not np.array_equal(leaked, scores)


def test_choose_C_passes_cv_and_class_weight_and_reports_the_spread():
    X, y = _data(4, n=36, p=5, noise=0.5)
    X, y = X[:30], y[:30]  # 18 of class 0, 12 of class 1: "balanced" weights matter
    folds = StratifiedKFold(n_splits=3)
    scores = [cross_val_score(SVC(kernel="linear", C=c, class_weight="balanced"), X, y,
                              cv=folds) for c in C_GRID]
    means = np.round([s.mean() for s in scores], 12)
    C, res = choose_C(X, y, cv=3, class_weight="balanced")
    assert C == C_GRID[int(np.flatnonzero(means == means.max())[0])]
    np.testing.assert_allclose(res["mean_test_score"], [s.mean() for s in scores], atol=1e-12)
    np.testing.assert_allclose(res["std_test_score"], [s.std() for s in scores], atol=1e-12)
    np.testing.assert_array_equal(res["C"], np.array(C_GRID))
    unweighted = [cross_val_score(SVC(kernel="linear", C=c), X, y, cv=folds).mean()
                  for c in C_GRID]
    assert not np.allclose(unweighted, res["mean_test_score"])  # the weights are used
    five = [cross_val_score(SVC(kernel="linear", C=c, class_weight="balanced"), X, y,
                            cv=StratifiedKFold(5)).mean() for c in C_GRID]
    assert not np.allclose(five, res["mean_test_score"])  # and the 3 folds


def _size_search_weighted(X, y, C, class_weight, cv=5):
    p = X.shape[1]
    sizes = np.arange(p, 0, -1)
    scores = np.zeros((cv, p))
    for f, (tr, te) in enumerate(StratifiedKFold(n_splits=cv).split(X, y)):
        svc = SVC(kernel="linear", C=C, class_weight=class_weight)
        order = np.argsort(RFE(svc, n_features_to_select=1, step=1).fit(X[tr], y[tr]).ranking_,
                           kind="stable")
        for s, k in enumerate(sizes):
            cols = order[:k]
            scores[f, s] = SVC(kernel="linear", C=C, class_weight=class_weight).fit(
                X[tr][:, cols], y[tr]).score(X[te][:, cols], y[te])
    return sizes, scores


def test_size_cv_scores_with_the_selectors_C_and_class_weight():
    # unbalanced classes (28 / 12) and a small C: both change the fold scores
    X, y = _data(5, n=56, p=6, informative=3, noise=0.7)
    X, y = X[:40], y[:40]
    sizes, scores = _size_search_weighted(X, y, 0.05, "balanced")
    sel = SVMRFE(n_features_to_select="cv", step=1, step_until=1, C=0.05,
                 class_weight="balanced").fit(X, y)
    for f in range(5):
        np.testing.assert_array_equal(sel.cv_results_[f"split{f}_test_score"], scores[f])
    # RFECV's spread: the population sd over the folds, per size
    np.testing.assert_allclose(sel.cv_results_["std_test_score"], scores.std(axis=0))
    _, plain = _size_search_weighted(X, y, 1.0, None)
    assert not np.array_equal(plain, scores)  # the case discriminates


def test_size_cv_visits_the_sizes_of_the_rfe_schedule():
    # p = 10, step = 0.25, step_until = 4 (docs/design.md, 'SVM-RFE'): while n ≥ 4 remove
    # max(1, ⌊0.25·n⌋): 10 -> 8 -> 6 -> 5 -> 4 -> 3, then one at a time: 2, 1
    X, y = _data(2, n=30, p=10, informative=3)
    sel = SVMRFE(n_features_to_select="cv", step=0.25, step_until=4).fit(X, y)
    np.testing.assert_array_equal(sel.cv_results_["n_features"], [10, 8, 6, 5, 4, 3, 2, 1])


@pytest.mark.parametrize("p", [3, 5])
def test_default_size_is_half_like_rfe(p):
    # n_features_to_select=None keeps half, as scikit-learn's RFE: p // 2 (3 -> 1, 5 -> 2)
    X, y = _data(0, n=30, p=p)
    sel = SVMRFE().fit(X, y)
    rfe = RFE(SVC(kernel="linear")).fit(X, y)
    assert type(sel.n_features_) is int and sel.n_features_ == rfe.n_features_ == p // 2
    np.testing.assert_array_equal(sel.support_, rfe.support_)
