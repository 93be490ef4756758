"""The subset-size searches (K-step, learning curve) against transcriptions of their definitions.

Grids: the documented rule (every k up to ``dense_until``, then ``n_log`` log-spaced sizes up to
p, p always in). Curves: each fold's accuracy recomputed with scikit-learn (a fresh clone fitted
on the fold's training rows of the order's first k columns, scored by ``accuracy_score``).
Choice: hand-made curves with ties (robust-FS paper, Algorithm 2: the highest accuracy of the
best classifier, ties to the smaller k; Ruiz et al. 2003, §4: the shortest best prefix).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.metrics import accuracy_score
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier

from rankfusion.selection.subset_size import (
    SubsetCurve,
    choose_size,
    evaluate_prefixes,
    k_step_grid,
    learning_curve_grid,
)


def _grid_oracle(p, dense_until, n_log):
    if p <= dense_until:
        return list(range(1, p + 1))
    logs = {int(round(dense_until * (p / dense_until) ** (i / n_log))) for i in range(n_log + 1)}
    return sorted(set(range(1, dense_until + 1)) | {k for k in logs if k > dense_until} | {p})


@pytest.mark.parametrize("p", [1, 7, 49, 50, 51, 52, 80, 1000, 7129])
def test_k_step_grid_is_dense_then_log_spaced(p):
    got = k_step_grid(p)
    assert got.tolist() == _grid_oracle(p, 50, 20)
    assert got[-1] == p and got[0] == 1


@pytest.mark.parametrize("p", [1, 99, 100, 101, 150, 1000, 20000])
def test_learning_curve_grid_is_every_prefix_to_100_then_30_log_sizes(p):
    assert learning_curve_grid(p).tolist() == _grid_oracle(p, 100, 30)


def test_k_step_grid_arguments():
    assert k_step_grid(10, dense_until=3, n_log=2).tolist() == _grid_oracle(10, 3, 2)
    # 3 · (10/3)^(1/2) = 5.48 -> 5
    assert k_step_grid(10, dense_until=3, n_log=2).tolist() == [1, 2, 3, 5, 10]


def _data(seed=0, n=60, p=6):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2], n // 3)
    X = rng.normal(size=(n, p)) + 0.8 * y[:, None] * (np.arange(p) % 2)[None, :]
    rng.shuffle(y)  # labels partly informative: accuracies differ between k
    folds = []
    idx = rng.permutation(n)
    for f in range(3):
        test = np.sort(idx[f::3])
        folds.append((np.setdiff1d(np.arange(n), test), test))
    return X, y, folds


def _oracle_curve(X, y, folds, orders, estimators, grid):
    out = {}
    for name, est in estimators.items():
        for k in grid:
            accs = []
            for (train, test), order in zip(folds, orders):
                cols = list(order[:k])
                model = clone(est).fit(X[train][:, cols], y[train])
                accs.append(accuracy_score(y[test], model.predict(X[test][:, cols])))
            out[(k, name)] = accs
    return out


@pytest.mark.parametrize("as_frame", [False, True])
def test_evaluate_prefixes_equals_fold_by_fold_refits(as_frame):
    X, y, folds = _data()
    orders = [np.array([5, 0, 3, 1, 2, 4]), np.array([1, 3, 5, 0, 2, 4]),
              np.array([4, 2, 0, 1, 3, 5])]
    ests = {"nb": GaussianNB(), "knn": KNeighborsClassifier(n_neighbors=3)}
    grid = [1, 2, 4, 6]
    Xin = pd.DataFrame(X, columns=[f"c{j}" for j in range(X.shape[1])]) if as_frame else X
    curve = evaluate_prefixes(Xin, y, folds, orders, ests, grid)
    ref = _oracle_curve(X, y, folds, orders, ests, grid)
    assert list(curve.columns) == ["k", "estimator", "mean", "sd", "fold0", "fold1", "fold2"]
    assert list(zip(curve["k"], curve["estimator"])) == [(k, e) for k in grid for e in ests]
    for _, row in curve.iterrows():
        accs = ref[(row["k"], row["estimator"])]
        assert [row["fold0"], row["fold1"], row["fold2"]] == accs
        assert row["mean"] == pytest.approx(sum(accs) / 3, rel=1e-15)
        m = sum(accs) / 3
        assert row["sd"] == pytest.approx(np.sqrt(sum((a - m) ** 2 for a in accs) / 2),
                                          rel=1e-12, abs=1e-15)
    # the per-fold orders matter: the sd is not 0 everywhere and k = 1 columns differ per fold
    assert (curve["sd"] > 0).any()


def test_evaluate_prefixes_one_fold_has_sd_zero():
    X, y, folds = _data(seed=1)
    curve = evaluate_prefixes(X, y, folds[:1], [np.arange(6)], {"nb": GaussianNB()}, [2, 3])
    ref = _oracle_curve(X, y, folds[:1], [np.arange(6)], {"nb": GaussianNB()}, [2, 3])
    assert curve["sd"].tolist() == [0.0, 0.0]
    assert curve["fold0"].tolist() == [ref[(2, "nb")][0], ref[(3, "nb")][0]]
    assert list(curve.columns) == ["k", "estimator", "mean", "sd", "fold0"]


def _curve(rows):
    return pd.DataFrame(rows, columns=["k", "estimator", "mean"])


def test_choose_size_highest_mean_of_the_best_estimator():
    curve = _curve([(1, "a", 0.5), (1, "b", 0.6), (2, "a", 0.9), (2, "b", 0.7),
                    (3, "a", 0.8), (3, "b", 0.85)])
    res = choose_size(curve, "k-step")
    assert isinstance(res, SubsetCurve)
    assert (res.n_features, res.estimator, res.accuracy, res.method) == (2, "a", 0.9, "k-step")
    assert res.curve is curve
    assert type(res.n_features) is int and type(res.estimator) is str


def test_choose_size_ties_go_to_the_smaller_k_whatever_the_row_order():
    rows = [(7, "a", 0.75), (3, "a", 0.75), (5, "a", 0.7), (10, "a", 0.75)]
    res = choose_size(_curve(rows), "learning-curve")
    assert (res.n_features, res.accuracy, res.method) == (3, 0.75, "learning-curve")


def test_choose_size_ties_between_estimators_go_to_the_earlier_one():
    rows = [(4, "svm", 0.8), (4, "nb", 0.8), (2, "svm", 0.6), (2, "nb", 0.7)]
    res = choose_size(_curve(rows), "k-step")
    assert (res.n_features, res.estimator, res.accuracy) == (4, "svm", 0.8)


def test_choose_size_first_k_wins_when_later_ones_are_worse():
    res = choose_size(_curve([(1, "a", 0.9), (2, "a", 0.1), (3, "a", 0.0)]), "k-step")
    assert (res.n_features, res.accuracy) == (1, 0.9)


def test_choose_size_reads_the_best_estimator_not_the_first():
    rows = [(1, "a", 0.5), (1, "b", 0.95), (2, "a", 0.9), (2, "b", 0.6)]
    res = choose_size(_curve(rows), "k-step")
    assert (res.n_features, res.estimator, res.accuracy) == (1, "b", 0.95)


@pytest.mark.parametrize("p", [10, 51, 1000])
def test_grids_hold_integers(p):
    for grid in (k_step_grid(p), learning_curve_grid(p)):
        assert grid.dtype.kind == "i"
        assert (np.diff(grid) > 0).all()


def test_evaluate_prefixes_two_folds_sd_and_missing_values_imputed_inside_the_fold():
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline

    X, y, folds = _data(seed=2)
    X = X.copy()
    X[::7, 0] = np.nan  # the classifier sees missing values: mean imputation, fitted per fold
    X[3::11, 2] = np.nan
    folds = folds[:2]
    orders = [np.arange(6), np.arange(6)[::-1].copy()]
    curve = evaluate_prefixes(X, y, folds, orders, {"nb": GaussianNB()}, [3, 6])
    ref = _oracle_curve(X, y, folds, orders,
                        {"nb": make_pipeline(SimpleImputer(strategy="mean"), GaussianNB())},
                        [3, 6])
    for _, row in curve.iterrows():
        accs = ref[(row["k"], "nb")]
        assert [row["fold0"], row["fold1"]] == accs
        assert row["sd"] == pytest.approx(abs(accs[0] - accs[1]) / np.sqrt(2), abs=1e-15)
    assert (curve["sd"] > 0).any()
