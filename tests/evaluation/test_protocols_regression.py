"""The evaluation protocols on a regression target: the task stated, regressors, R²/RMSE/MAE,
binned stratification; and the classification path unchanged (docs/design.md, 'Tasks')."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.feature_selection import SelectKBest, f_classif, f_regression
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import mean_absolute_error, r2_score
from sklearn.model_selection import KFold

from rankfusion.datasets import load
from rankfusion.evaluation import (
    available_classifiers,
    classifier_task,
    cross_validate_selection,
    default_estimator,
    error_curve,
    make_classifier,
)
from rankfusion.evaluation.protocols import (
    REGRESSION_SCORINGS,
    regression_strata,
)


@pytest.fixture(scope="module")
def diabetes():
    b = load("diabetes_lars")
    return b.data, b.target


def _friedman(seed=0, n=120):
    from sklearn.datasets import make_friedman1

    return make_friedman1(n_samples=n, n_features=10, noise=0.5, random_state=seed)


def test_integer_target_with_many_values_is_refused_under_auto(diabetes):
    X, y = diabetes
    for call in (lambda: error_curve(SelectKBest(f_regression, k=3), X, y, n_splits=2),
                 lambda: cross_validate_selection(SelectKBest(f_regression, k=3), X, y, cv=3)):
        with pytest.raises(ValueError, match='task="classification".*task="regression"'):
            call()


def test_float_target_is_regression_under_auto():
    X, y = _friedman()
    res = cross_validate_selection(SelectKBest(f_regression, k=5), X, y, cv=3, random_state=0)
    assert res.task == "regression" and list(res.scores.columns) == list(REGRESSION_SCORINGS)
    curve = error_curve(SelectKBest(f_regression, k=5), X, y, n_splits=3, random_state=0)
    assert curve.metric == "rmse"


def test_cross_validation_metrics_equal_a_manual_computation(diabetes):
    X, y = diabetes
    sel = SelectKBest(f_regression, k=4)
    res = cross_validate_selection(sel, X, y, task="regression", cv=4, random_state=3)
    folds = list(KFold(4, shuffle=True, random_state=3).split(X))
    for i, (tr, te) in enumerate(folds):
        assert np.array_equal(res.test_indices[i], te)
        s = SelectKBest(f_regression, k=4).fit(X[tr], y[tr])
        pred = Ridge().fit(s.transform(X[tr]), y[tr]).predict(s.transform(X[te]))
        row = res.scores.iloc[i]
        assert row["r2"] == pytest.approx(r2_score(y[te], pred), rel=1e-12)
        assert row["rmse"] == pytest.approx(np.sqrt(np.mean((pred - y[te]) ** 2)), rel=1e-12)
        assert row["mae"] == pytest.approx(mean_absolute_error(y[te], pred), rel=1e-12)
        assert res.support.iloc[i].to_numpy().tolist() == s.get_support().tolist()
    assert res.average == "none" and res.pos_label is None


def test_error_curve_is_the_test_rmse_of_each_split(diabetes):
    X, y = diabetes
    curve = error_curve(SelectKBest(f_regression, k=10), X, y, n_features=[1, 3, 10],
                        n_splits=3, task="regression", classifier="ridge", random_state=1)
    for i, te in enumerate(curve.test_indices):
        tr = np.setdiff1d(np.arange(y.shape[0]), te)
        order = np.argsort(curve.positions.iloc[i].to_numpy(), kind="stable")
        for k in (1, 3, 10):
            top = order[:k]
            pred = Ridge().fit(X[np.ix_(tr, top)], y[tr]).predict(X[np.ix_(te, top)])
            want = np.sqrt(np.mean((pred - y[te]) ** 2))
            assert curve.errors.iloc[i][k] == pytest.approx(want, rel=1e-12)
    assert curve.metric == "rmse"


def test_stratified_regression_splits_cover_every_quantile_bin(diabetes):
    X, y = diabetes
    curve = error_curve(SelectKBest(f_regression, k=3), X, y, n_features=[3], n_splits=4,
                        task="regression", random_state=0)
    strata = regression_strata(y)
    for te in curve.test_indices:
        share = np.bincount(strata[te], minlength=strata.max() + 1) / te.shape[0]
        assert np.all(np.abs(share - np.bincount(strata) / y.shape[0]) < 0.02)


def test_informative_features_lower_the_error_on_friedman():
    """Friedman #1: features 0-4 informative; the curve at 5 features beats 1 feature
    (stated in advance: by at least 10 %, on each of three seeds)."""
    for seed in range(3):
        X, y = _friedman(seed, n=300)
        curve = error_curve(SelectKBest(f_regression, k=10), X, y, n_features=[1, 5],
                            n_splits=5, random_state=seed)
        mean = curve.summary()["mean"]
        assert mean[5] < 0.9 * mean[1]


def test_the_classification_path_is_unchanged():
    b = load("iris")
    X, y = b.data, b.target
    a = cross_validate_selection(SelectKBest(f_classif, k=2), X, y, cv=5, random_state=0)
    e = cross_validate_selection(SelectKBest(f_classif, k=2), X, y, cv=5, random_state=0,
                                 classifier="linear_svm",
                                 scoring=("accuracy", "error", "precision", "recall", "f1",
                                          "roc_auc"))
    pd.testing.assert_frame_equal(a.scores, e.scores)
    assert a.task == "classification"
    c1 = error_curve(SelectKBest(f_classif, k=4), X, y, n_splits=3, random_state=0)
    c2 = error_curve(SelectKBest(f_classif, k=4), X, y, n_splits=3, random_state=0,
                     classifier="linear_svm", task="classification")
    pd.testing.assert_frame_equal(c1.errors, c2.errors)
    assert c1.metric == "error"


def test_estimator_registry_knows_the_task():
    assert set(available_classifiers("regression")) == {
        "linear_svr", "ridge", "knn5_regressor", "tree_regressor", "random_forest_regressor"}
    assert not set(available_classifiers("regression")) & set(
        available_classifiers("classification"))
    assert default_estimator("regression") == "ridge"
    assert default_estimator("classification") == "linear_svm"
    assert classifier_task("ridge") == "regression" and classifier_task(Ridge()) == "regression"
    assert classifier_task("j48") == "classification"
    for name in available_classifiers("regression"):
        est = make_classifier(name, random_state=0, task="regression")
        assert hasattr(est, "predict")


X0, Y0 = _friedman()
Y_INT = np.round(Y0 * 10)  # whole numbers, 100+ distinct
HOSTILE = [
    # (what, call kwargs, error, message fragment)
    ("task misspelt", dict(task="reg"), ValueError, "task must be one of"),
    ("task not a str", dict(task=1), TypeError, "task must be one of"),
    ("classifier for regression (name)", dict(task="regression", classifier="linear_svm"),
     ValueError, "is a classifier, not for a regression task"),
    ("classifier for regression (object)", dict(task="regression",
                                                classifier=LogisticRegression()),
     TypeError, "must be a regressor"),
    ("regressor for classification", dict(task="classification", y=Y0 > np.median(Y0),
                                          classifier="ridge"),
     ValueError, "is a regressor, not for a classification task"),
    ("classification metric for regression", dict(task="regression", scoring=["accuracy"]),
     ValueError, "scoring must be a non-empty subset of \\['r2', 'rmse', 'mae'\\]"),
    ("regression metric for classification", dict(y=Y0 > np.median(Y0), scoring=["r2"]),
     ValueError, "for a classification task"),
    ("balanced accuracy for regression", dict(task="regression",
                                              scoring=["balanced_accuracy"]),
     ValueError, "scoring must be a non-empty subset of \\['r2', 'rmse', 'mae'\\]"),
    ("pos_label with regression", dict(task="regression", pos_label=1), ValueError,
     "regression task"),
    ("text target as regression", dict(task="regression", y=np.array(["a", "b"] * 60)),
     TypeError, 'must be numeric for task="regression"'),
    ("non-integer floats as classes", dict(task="classification"), ValueError,
     "non-integer numbers"),
    ("NaN in a regression target", dict(task="regression", y=np.r_[np.nan, Y0[1:]]),
     ValueError, "missing or infinite value at sample 0"),
    ("inf in a regression target", dict(task="regression", y=np.r_[Y0[:-1], np.inf]),
     ValueError, "missing or infinite value at sample 119"),
    ("constant regression target", dict(task="regression", y=np.ones(120)), ValueError,
     "constant"),
    ("too few samples for the folds", dict(task="regression", cv=500), ValueError,
     "cv=500 folds need at least 500 samples"),
    ("integer target under auto", dict(y=Y_INT), ValueError, "distinct whole numbers"),
    ("2-D target", dict(task="regression", y=np.c_[Y0, Y0]), TypeError, "1-D"),
]


@pytest.mark.parametrize("what, kw, err, match", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_inputs_of_cross_validation(what, kw, err, match):
    kw = dict(kw)
    y = kw.pop("y", Y0)
    before = np.array(y, copy=True)
    with pytest.raises(err, match=match):
        cross_validate_selection(SelectKBest(f_regression, k=3), X0, y, cv=kw.pop("cv", 3),
                                 **kw)
    np.testing.assert_array_equal(np.asarray(y), before)  # the caller's target untouched


@pytest.mark.parametrize("what, kw, err, match",
                         [h for h in HOSTILE if "scoring" not in h[1] and "pos_label" not in
                          h[1] and "cv" not in h[1]], ids=lambda v: v if isinstance(v, str)
                         else "")
def test_hostile_inputs_of_the_error_curve(what, kw, err, match):
    kw = dict(kw)
    y = kw.pop("y", Y0)
    with pytest.raises(err, match=match):
        error_curve(SelectKBest(f_regression, k=3), X0, y, n_splits=2, **kw)


@pytest.mark.parametrize("scoring, match", [
    ("mcc", r"scoring='mcc' is not a score of a regression task \('mcc' scores a "
            r"classification task\)"),
    ("neg_rsme", "did you mean 'neg_rmse'"),
])
def test_error_curve_refuses_a_score_of_the_other_task(scoring, match):
    with pytest.raises(ValueError, match=match):
        error_curve(SelectKBest(f_regression, k=3), X0, Y0, n_splits=2, task="regression",
                    scoring=scoring)


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=60),
       st.integers(1, 8))
def test_regression_strata_are_ordered_quantile_bins(values, n_bins):
    y = np.asarray(values)
    codes = regression_strata(y, n_bins)
    assert codes.shape == y.shape and codes.min() == 0
    assert codes.max() < n_bins
    counts = np.bincount(codes)
    assert counts.min() >= 2 or codes.max() == 0
    order = np.argsort(y, kind="stable")
    assert np.all(np.diff(codes[order]) >= 0)  # bins follow the target's order
