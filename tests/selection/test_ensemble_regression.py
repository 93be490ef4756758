"""EnsembleSelector with a numeric target (docs/design.md, 'Tasks'): task resolution, plain
K-fold and bootstraps without strata, R² list weights, refusals."""

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, make_friedman1
from sklearn.linear_model import Ridge

from rankfusion import SVMRFE, EnsembleSelector
from rankfusion.selection.regression import r2_weights, regression_folds

RANKERS = ["rrelieff", "spearman", "f_regression"]


def _friedman(seed=0):
    return make_friedman1(200, 10, noise=0.5, random_state=seed)


def test_auto_regression_fit_selects_informative():
    X, y = _friedman()
    sel = EnsembleSelector(rankers=RANKERS, n_features_to_select=4, random_state=0).fit(X, y)
    assert sel.task_ == "regression" and sel.classes_ is None
    # x1, x2, x4 and x5 carry the linear and interaction signal (x3 enters quadratically)
    assert set(np.flatnonzero(sel.support_).tolist()) == {0, 1, 3, 4}


def test_r2_weights_and_bootstraps():
    X, y = _friedman(1)
    sel = EnsembleSelector(rankers=RANKERS + ["random_forest_regressor"],
                           n_features_to_select=5, list_weights="accuracy", n_bootstraps=2,
                           random_state=0).fit(X, y)
    w = sel.list_weights_
    assert w.shape == (8,) and np.isclose(w.sum(), 1.0) and (w > 0).all()
    assert sel.stability_ is not None
    again = EnsembleSelector(rankers=RANKERS + ["random_forest_regressor"],
                             n_features_to_select=5, list_weights="accuracy", n_bootstraps=2,
                             random_state=0).fit(X, y)
    np.testing.assert_array_equal(sel.scores_, again.scores_)


def test_r2_weights_by_hand():
    from sklearn.linear_model import LinearRegression
    from sklearn.metrics import r2_score

    from rankfusion import RankedLists

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = 2 * X[:, 0] + 0.1 * rng.normal(size=60)
    lists = RankedLists.from_scores(np.array([[3.0, 1.0], [2.0, 3.0], [1.0, 2.0]]))
    folds = regression_folds(60, 3, random_state=0)
    w = r2_weights(lists, X, y, LinearRegression(), 1, folds)
    r2 = []
    for col in (0, 1):
        vals = [r2_score(y[te], LinearRegression().fit(X[tr][:, [col]], y[tr])
                         .predict(X[te][:, [col]])) for tr, te in folds]
        r2.append(max(np.mean(vals), 0.0))
    np.testing.assert_allclose(w, np.array(r2) / sum(r2))
    with pytest.raises(ValueError, match="every R"):
        r2_weights(lists, X, rng.normal(size=60), LinearRegression(), 1, folds)


def test_diabetes_refused_under_auto_and_each_task_honoured():
    X, y = load_diabetes(return_X_y=True)
    with pytest.raises(ValueError, match='task="classification".*task="regression"'):
        EnsembleSelector(rankers=["pearson"], n_features_to_select=3).fit(X, y)
    reg = EnsembleSelector(rankers=["pearson"], n_features_to_select=3,
                           task="regression").fit(X, y)
    assert reg.task_ == "regression"
    assert set(np.flatnonzero(reg.support_).tolist()) == {2, 3, 8}  # bmi, bp, s5
    cls = EnsembleSelector(rankers=["info_gain"], n_features_to_select=3,
                           task="classification").fit(X, y)
    assert cls.task_ == "classification" and cls.classes_.shape[0] == 214


@pytest.mark.parametrize("kw, y_kind, exc, words", [
    ({"rankers": ["info_gain", "pearson"]}, "float", ValueError,
     "y looks continuous.*ranker 'info_gain' supports classification only"),
    ({"rankers": ["nlc"], "task": "regression"}, "float", ValueError,
     "ranker 'nlc' supports classification only.*rrelieff"),
    ({"rankers": ["pearson"], "n_features_to_select": "k-step", "subset_grid": [2, 99]},
     "float", ValueError, "subset_grid must hold counts from 1 to"),
    ({"rankers": ["pearson"], "estimators": "smo", "list_weights": "accuracy"}, "float",
     TypeError, "regressor"),
    ({"rankers": ["pearson"], "task": "regression"}, "text", TypeError, "numeric"),
    ({"rankers": ["pearson"], "task": "classification"}, "float", ValueError, "non-integer"),
    ({"rankers": ["pearson"], "task": "Regression"}, "float", ValueError, "task"),
    ({"rankers": [lambda X, y: np.ones(X.shape[1])]}, "float", ValueError,
     "declare no task"),
])
def test_hostile(kw, y_kind, exc, words):
    X, y = _friedman()
    if y_kind == "text":
        y = np.where(y > np.median(y), "hi", "lo")
    with pytest.raises(exc, match=words):
        EnsembleSelector(**kw).fit(X, y)


def test_callable_ranker_with_explicit_regression():
    X, y = _friedman()

    def corr(X, y):
        return np.abs([np.corrcoef(X[:, j], y)[0, 1] for j in range(X.shape[1])])

    sel = EnsembleSelector(rankers=[corr], n_features_to_select=2, task="regression").fit(X, y)
    assert set(np.flatnonzero(sel.support_).tolist()) == {3, 1}


def test_caller_data_unchanged():
    X, y = _friedman()
    X0, y0 = X.copy(), y.copy()
    EnsembleSelector(rankers=RANKERS, n_features_to_select=3, n_bootstraps=2,
                     random_state=0).fit(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


# --- SVMRFE with a numeric target: RFE with a linear SVR ------------------------------------
@pytest.mark.parametrize("y", [np.linspace(20, 60, 40),
                               np.random.default_rng(1).normal(size=40)])
def test_svmrfe_continuous_target_is_regression(y):
    X = np.random.default_rng(0).normal(size=(40, 5))
    sel = SVMRFE(n_features_to_select=2, random_state=0).fit(X, y)
    assert sel.task_ == "regression" and sel.classes_ is None
    assert sel.support_.sum() == 2


def test_svmrfe_regression_equals_rfe_regression():
    from sklearn.preprocessing import StandardScaler

    from rankfusion.rankers import rfe_regression

    X, y = make_friedman1(150, 30, random_state=0)
    X = StandardScaler().fit_transform(X)
    sel = SVMRFE(n_features_to_select=5, random_state=3, C=0.5).fit(X, y)
    ref = rfe_regression(X, y, model="linear_svr", C=0.5, random_state=3)
    np.testing.assert_array_equal(sel.positions_, ref.ranking)
    assert sel.lists_.list_names.tolist() == ["rfe(linear_svr)"]
    assert set(np.flatnonzero(sel.support_).tolist()) >= {0, 1, 3}


@pytest.mark.parametrize("kw, exc, words", [
    ({"criterion": "crammer_singer"}, ValueError, "criterion='crammer_singer' needs classes"),
    ({"decomposition": "ova"}, ValueError, "decomposition='ova' needs classes"),
    ({"C": "cv", "estimator": Ridge()}, ValueError, "C='cv' chooses the C of the built-in"),
    ({"class_weight": "balanced"}, ValueError, "needs classes"),
    ({"task": "classification"}, ValueError, "non-integer"),
    ({"task": "sideways"}, ValueError, "task"),
])
def test_svmrfe_regression_hostile(kw, exc, words):
    X, y = make_friedman1(60, 8, random_state=0)
    with pytest.raises(exc, match=words):
        SVMRFE(**kw).fit(X, y)


def test_svmrfe_diabetes_refused_under_auto():
    X, y = load_diabetes(return_X_y=True)
    with pytest.raises(ValueError, match='task="classification".*task="regression"'):
        SVMRFE().fit(X, y)
    assert SVMRFE(task="regression", n_features_to_select=3).fit(X, y).task_ == "regression"
