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
    search_size,
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


# ------------------------------------------------------------------ the one search, parsimony
# A hand-made fold × size matrix (4 folds): the best size is 8 (mean 0.95, sd = 0.1/√3, so
# SE = sd/2 = 0.0289 and the one-SE threshold 0.9211); 4 has mean 0.925, 2 has 0.90, 1 0.70.
_SIZES = [1, 2, 4, 8]
_SCORES = np.array([[0.7, 0.90, 0.90, 0.9],
                    [0.7, 0.85, 0.95, 1.0],
                    [0.7, 0.95, 0.90, 0.9],
                    [0.7, 0.90, 0.95, 1.0]])


def test_search_size_rules_pick_the_documented_sizes():
    best = search_size(_SIZES, _SCORES)
    assert (best.n_features, best.rule, best.best_n_features) == (8, "best", 8)
    assert best.accuracy == pytest.approx(0.95) and best.threshold == best.best_accuracy
    se = np.std(_SCORES[:, 3], ddof=1) / 2
    one = search_size(_SIZES, _SCORES, size_rule="one_se")
    assert (one.n_features, one.rule, one.best_n_features) == (4, "one_se", 8)
    assert one.threshold == pytest.approx(0.95 - se) and one.accuracy == pytest.approx(0.925)
    # tol: the smallest size within tol of the best mean, the bound included
    assert search_size(_SIZES, _SCORES, tol=0.05).n_features == 2
    assert search_size(_SIZES, _SCORES, tol=0.025).n_features == 4  # 0.95 - 0.025 = 0.925
    assert search_size(_SIZES, _SCORES, tol=0.024).n_features == 8
    assert search_size(_SIZES, _SCORES, tol=0.0).n_features == 8
    assert search_size(_SIZES, _SCORES, tol=1.0).n_features == 1
    tol = search_size(_SIZES, _SCORES, tol=0.05)
    assert (tol.rule, tol.tol, tol.best_n_features) == ("tol", 0.05, 8)


def test_search_size_curve_is_the_evaluate_prefixes_layout_sizes_ascending():
    res = search_size(_SIZES[::-1], _SCORES[:, ::-1], method="cv")
    assert list(res.curve.columns) == ["k", "estimator", "mean", "sd", "fold0", "fold1",
                                       "fold2", "fold3"]
    assert res.curve["k"].tolist() == _SIZES and res.method == "cv" and res.n_folds == 4
    np.testing.assert_allclose(res.curve["mean"], _SCORES.mean(axis=0), rtol=1e-15)
    np.testing.assert_allclose(res.curve["sd"], _SCORES.std(axis=0, ddof=1), rtol=1e-12)
    np.testing.assert_array_equal(res.curve[[f"fold{f}" for f in range(4)]].to_numpy(),
                                  _SCORES.T)
    view = res.by_size
    assert view.columns.tolist() == ["k", "estimator", "mean", "sd", "se", "chosen"]
    np.testing.assert_allclose(view["se"], view["sd"] / 2)
    assert view.loc[view["chosen"], "k"].tolist() == [8]


def test_search_size_ties_go_to_the_smaller_size_even_by_float_noise():
    scores = np.array([[0.9, 0.95, 0.95], [1.0, 0.95, 0.95]])
    for rule in ("best", "one_se"):
        assert search_size([3, 5, 9], scores, size_rule=rule).n_features == 3
    # 0.1 + 0.2 != 0.3 in floats; rounded to 12 decimals the two means tie: the smaller k
    curve = pd.DataFrame({"k": [2, 7], "estimator": ["a", "a"],
                          "mean": [0.3, 0.1 + 0.2]})
    assert choose_size(curve, "k-step").n_features == 2


def test_search_size_single_size():
    one = np.array([[0.5], [0.7], [0.6]])
    for kw in ({}, {"tol": 0.1}, {"size_rule": "one_se"}):
        res = search_size([12], one, **kw)
        assert (res.n_features, res.best_n_features) == (12, 12)
        assert res.accuracy == pytest.approx(0.6)


def test_search_size_several_estimators_one_se_uses_the_best_pair():
    # at every size the better estimator decides; the SE is that of the best (size, estimator)
    a = np.array([[0.80, 0.90, 0.95], [0.80, 0.90, 0.95]])  # sd 0 everywhere
    b = np.array([[0.70, 0.93, 0.92], [0.70, 0.91, 1.00]])  # best: size 30, mean 0.96
    res = search_size([10, 20, 30], {"a": a, "b": b}, size_rule="one_se")
    se = np.std(b[:, 2], ddof=1) / np.sqrt(2)  # 0.04: the threshold is 0.92
    assert (res.best_n_features, res.best_accuracy) == (30, pytest.approx(0.96))
    assert res.threshold == pytest.approx(0.96 - se)
    assert (res.n_features, res.estimator, res.accuracy) == (20, "b", pytest.approx(0.92))
    best = search_size([10, 20, 30], {"a": a, "b": b})
    assert (best.n_features, best.estimator) == (30, "b")
    # a tie between estimators at a size: the earlier one decides
    tie = search_size([10, 20], {"a": a[:, [0, 2]], "b": a[:, [0, 2]]})
    assert (tie.n_features, tie.estimator) == (20, "a")


@pytest.mark.parametrize("scores, match", [
    (np.array([[0.9, np.nan], [0.8, 0.7]]), "NaN"),
    (np.array([[0.9, 0.8, 0.7]]), r"\(n_folds, 2\)"),
    (np.zeros((0, 2)), r"\(n_folds, 2\)"),
])
def test_search_size_refuses_nan_folds_and_wrong_shapes(scores, match):
    with pytest.raises(ValueError, match=match):
        search_size([1, 2], scores)


def test_choose_size_refuses_a_nan_fold_and_an_empty_curve():
    curve = pd.DataFrame({"k": [1, 2], "estimator": ["a", "a"], "mean": [0.5, 0.6],
                          "sd": [0.1, 0.1], "fold0": [0.4, np.nan], "fold1": [0.6, 0.6]})
    with pytest.raises(ValueError, match=r"NaN score \(k=2, estimator 'a'\)"):
        choose_size(curve, "k-step")
    with pytest.raises(ValueError, match="no sizes"):
        choose_size(curve.iloc[:0], "k-step")


@pytest.mark.parametrize("sizes", [[1, 1], [0, 2], [1.0, 2.0], []])
def test_search_size_refuses_sizes_that_are_not_distinct_counts(sizes):
    with pytest.raises(ValueError, match="sizes must be distinct counts"):
        search_size(sizes, np.zeros((2, len(sizes))))


@pytest.mark.parametrize("kw, exc, match", [
    ({"tol": -0.1}, ValueError, r"tol must be None or a number ≥ 0, got -0.1"),
    ({"tol": "0.1"}, TypeError, "tol must be"),
    ({"tol": float("nan")}, ValueError, "tol must be"),
    ({"size_rule": "1se"}, ValueError, "size_rule must be 'best' or 'one_se', got '1se'"),
    ({"size_rule": None}, TypeError, "size_rule must be"),
    ({"tol": 0.01, "size_rule": "one_se"}, ValueError, "two parsimony rules"),
])
def test_search_size_refuses_bad_rules(kw, exc, match):
    with pytest.raises(exc, match=match):
        search_size(_SIZES, _SCORES, **kw)


def test_one_se_needs_two_folds():
    with pytest.raises(ValueError, match="at least 2 folds"):
        search_size([1, 2], np.array([[0.5, 0.6]]), size_rule="one_se")
    with pytest.raises(ValueError, match="at least 2 folds"):
        choose_size(_curve([(1, "a", 0.5)]), "k-step", size_rule="one_se")
