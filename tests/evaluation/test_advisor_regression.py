"""The advisor for a numeric target (``advise(task="regression")``; docs/design.md, 'Tasks').

Oracles: data with known informative features (Friedman #1 plus noise features; a linear
model on 10 of 500 features), scikit-learn's ``r2_score`` / RMSE / MAE of the same regressor
refitted on each outer split and subset, scikit-learn's ``RepeatedKFold`` / ``KFold`` for the
splits, ``EnsembleSelector(task="regression")`` fitted on one outer training part, and a digest
of a classification result taken before regression existed (that path is bit-identical).
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_wine, make_friedman1
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from conftest import param_id
from rankfusion import EnsembleSelector, advise
from rankfusion.evaluation.advisor import (
    DEFAULT_REGRESSION_RANKERS,
    advice_frame,
    advice_plan,
    prepare_advice,
)

FAST = dict(rules=("borda",), cv=3, inner_cv=2, n_repeats=1, random_state=0)


def linear_10_of_500(seed: int, n: int = 200):
    """y = X β + N(0, 1), β = 2 … 3 on the first 10 of 500 standard-normal features."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 500))
    beta = np.zeros(500)
    beta[:10] = np.linspace(2, 3, 10)
    return X, X @ beta + rng.normal(size=n)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_friedman1_informative_features_recovered(seed):
    # y = 10 sin(π x0 x1) + 20 (x2 − ½)² + 10 x3 + 5 x4 + noise; x5 … x19 are noise. The
    # quadratic x2 is invisible to a linear score, so the tolerance: x0, x1, x3, x4 are all in
    # the recommended subset, which holds at most 10 features, and it beats the mean by far.
    X, y = make_friedman1(n_samples=150, n_features=20, noise=0.5, random_state=seed)
    adv = advise(X, y, rankers=("f_regression", "rrelieff"), sizes=[3, 5, 10], **FAST)
    assert adv.task == "regression" and adv.scoring == "r2"
    chosen = set(adv.ties["features"])
    assert {"x0", "x1", "x3", "x4"} <= chosen
    assert adv.recommended.size <= 10
    assert adv.combination_scores.mean() > 0.5
    assert adv.baseline["no_features"] < 0.01  # the training mean: R² ≈ 0, the chance level


@pytest.mark.parametrize("seed", [0, 1])
def test_linear_10_of_500_informative_features_recovered(seed):
    # tolerance: at least 9 of the 10 informative features in the recommended subset (of at
    # most 40), and its outer R² well above the ridge on all 500 features
    X, y = linear_10_of_500(seed)
    adv = advise(X, y, rankers=("f_regression", "spearman"), sizes=[5, 10, 20, 40], **FAST)
    chosen = set(adv.ties["features"])
    assert len(chosen & {f"x{i}" for i in range(10)}) >= 9
    assert adv.combination_scores.mean() > adv.baseline["all_features"] + 0.3
    assert "outer R² " in adv.verdict and "accuracy" not in adv.verdict


def _refit_scores(adv, X, y, config, metric):
    out = []
    for (train, test), subset in zip(adv.outer_splits, adv.outer_subsets[config]):
        est = make_pipeline(StandardScaler(), Ridge(alpha=1.0))
        est.fit(X[train][:, subset], y[train])
        out.append(metric(y[test], est.predict(X[test][:, subset])))
    return np.array(out)


@pytest.mark.parametrize("scoring, metric", [
    ("r2", r2_score),
    ("neg_rmse", lambda a, b: -np.sqrt(mean_squared_error(a, b))),
    ("neg_mae", lambda a, b: -mean_absolute_error(a, b)),
])
def test_outer_scores_are_scikit_learns_metric_of_the_default_ridge(scoring, metric):
    X, y = make_friedman1(n_samples=90, n_features=12, noise=1.0, random_state=3)
    adv = advise(X, y, rankers=("f_regression", "pearson", "spearman"), sizes=[2, 4],
                 scoring=scoring, **{**FAST, "n_repeats": 2})
    for config in adv.outer_scores:
        np.testing.assert_allclose(adv.outer_scores[config],
                                   _refit_scores(adv, X, y, config, metric), rtol=1e-10,
                                   atol=1e-12)
    full = [metric(y[te], make_pipeline(StandardScaler(), Ridge()).fit(X[tr], y[tr])
                   .predict(X[te])) for tr, te in adv.outer_splits]
    mean = [metric(y[te], np.full(te.shape[0], y[tr].mean())) for tr, te in adv.outer_splits]
    np.testing.assert_allclose(adv.baseline["all_features_scores"], full, rtol=1e-10)
    np.testing.assert_allclose(adv.baseline["no_features_scores"], mean, rtol=1e-10)
    if scoring != "r2":  # −RMSE, −MAE ≤ 0: the interval is clipped at 0, not at 1
        assert (adv.table["score_high"] <= 0).all()


def test_splits_are_plain_repeated_kfold():
    X, y = make_friedman1(n_samples=61, n_features=6, random_state=0)
    task = prepare_advice(X, y, rankers=("f_regression", "pearson"), sizes=[1, 2], cv=4,
                          inner_cv=2, n_repeats=3, random_state=5)
    assert len(task.splits) == 12
    for r in range(3):  # each repeat's test parts partition the rows, sizes 16/15/15/15
        tests = [task.splits[4 * r + f][1] for f in range(4)]
        assert sorted(np.concatenate(tests).tolist()) == list(range(61))
        assert sorted(len(t) for t in tests) == [15, 15, 15, 16]
    assert not np.array_equal(task.splits[0][1], task.splits[4][1])  # reshuffled per repeat


def test_cached_aggregation_equals_ensemble_selector_on_one_outer_part():
    X, y = make_friedman1(n_samples=80, n_features=10, noise=1.0, random_state=1)
    rankers = ("f_regression", "spearman", "rrelieff")
    adv = advise(X, y, rankers=rankers, rules=("borda", "mean_score", "kfirst:k=3"),
                 sizes=(2, 4), cv=3, inner_cv=2, n_repeats=1, tie_break="index",
                 random_state=2)
    train, _ = adv.outer_splits[0]
    checked = 0
    for config, subsets in adv.outer_subsets.items():
        sel = EnsembleSelector(rankers=list(config.rankers),
                               aggregation="borda" if config.is_single else config.rule,
                               aggregation_params=dict(config.params) or None,
                               n_features_to_select=config.size, task="regression")
        sel.fit(X[train], y[train])
        assert np.flatnonzero(sel.support_).tolist() == subsets[0].tolist(), config.label
        checked += 1
    assert checked == (3 + 4 * 3) * 2
    rec = adv.selector()
    assert rec.task == "regression"


def test_default_rankers_and_estimator_for_regression():
    X, y = make_friedman1(n_samples=60, n_features=6, random_state=0)
    adv = advise(X, y, sizes=[2], **FAST)
    assert adv.summary["rankers"] == list(DEFAULT_REGRESSION_RANKERS)
    assert "Ridge" in adv.summary["estimator"] and "StandardScaler" in adv.summary["estimator"]
    assert adv.summary["task"] == "regression" and adv.summary["scoring"] == "r2"
    assert advice_plan(X, y, sizes=[2], **FAST)["n_samples"] == 60


def test_named_regressor_is_used():
    X, y = make_friedman1(n_samples=60, n_features=6, random_state=0)
    adv = advise(X, y, rankers=("f_regression", "pearson"), sizes=[2], estimator="knn5_regressor",
                 **FAST)
    assert "KNeighborsRegressor" in adv.summary["estimator"]


def test_fuzzy_rule_draws_unstratified_bootstraps_as_the_ensemble():
    X, y = make_friedman1(n_samples=60, n_features=8, noise=1.0, random_state=4)
    adv = advise(X, y, rankers=("f_regression", "spearman"), rules=("fuzzy:OW",), sizes=[3],
                 n_bootstraps=3, cv=3, inner_cv=2, n_repeats=1, tie_break="index",
                 random_state=0)
    train, _ = adv.outer_splits[0]
    combo = next(c for c in adv.outer_subsets if not c.is_single)
    sel = EnsembleSelector(rankers=["f_regression", "spearman"], aggregation="fuzzy",
                           aggregation_params={"weighting": "OW"}, n_features_to_select=3,
                           n_bootstraps=3, random_state=adv.bootstrap_seeds[0],
                           task="regression").fit(X[train], y[train])
    assert np.flatnonzero(sel.support_).tolist() == adv.outer_subsets[combo][0].tolist()


# a whole-number target with a different value for (nearly) every sample, as scikit-learn's
# diabetes target: never read as classes nor as numbers without being told
_RNG = np.random.default_rng(0)
_X = _RNG.normal(size=(60, 5))
_Y_INT = _RNG.permutation(np.arange(25, 85))
_Y_FLOAT = _X[:, 0] + 0.1 * _RNG.normal(size=60)


def test_diabetes_like_target_refused_under_auto_and_honoured_when_told():
    with pytest.raises(ValueError, match='task="classification".*task="regression"'):
        advise(_X, _Y_INT, sizes=[2], **FAST)
    adv = advise(_X, _Y_INT, rankers=("f_regression", "pearson"), sizes=[2], task="regression",
                 **FAST)
    assert adv.task == "regression"


def _score_free(X, y):
    """A ranker function: it declares no task."""
    return np.ones(np.asarray(X).shape[1])


# (arguments, exception, message)
HOSTILE = [
    ({"task": "Regression"}, ValueError, "task must be one of"),
    ({"task": None}, TypeError, "task must be one of"),
    ({"scoring": "accuracy"}, ValueError, r"scoring='accuracy' is not a score of a regression "
                                          r"task \('accuracy' scores a classification task\)"),
    ({"scoring": "rmse"}, ValueError, "regression scores: 'r2', 'neg_rmse', 'neg_mae'"),
    ({"scoring": 2}, TypeError, "scoring must be one of"),
    ({"scoring": "mcc"}, ValueError, r"scoring='mcc' is not a score of a regression task "
                                     r"\('mcc' scores a classification task\)"),
    ({"scoring": "neg_rsme"}, ValueError, "did you mean 'neg_rmse'"),
    ({"rankers": ("info_gain", "pearson")}, ValueError,
     r"rankers\[0\]: ranker 'info_gain' supports classification only.*rankers for regression: "
     r".*f_regression"),
    ({"rankers": ("pearson", "relieff")}, ValueError, r"rankers\[1\]: ranker 'relieff'.*rrelieff"),
    ({"rankers": ("pearson", ("nlc", {}))}, ValueError, r"rankers\[1\]: ranker 'nlc'"),
    ({"rankers": ("pearson", _score_free)}, ValueError,
     r"declare no task: say task='regression'"),
    ({"estimator": "naive_bayes"}, ValueError,
     "'naive_bayes' is a classifier, not for a regression task; regression estimators: .*ridge"),
    ({"estimator": __import__("sklearn.svm", fromlist=["SVC"]).SVC()}, TypeError,
     "must be a regressor for a regression task"),
    ({"sizes": ["stability:pfer=0"]}, ValueError, "pfer"),
    ({"cv": 31}, ValueError, "too few for cv=31"),
    ({"cv": 2, "inner_cv": 16}, ValueError, "inner_cv=16 inner folds .*lower cv or inner_cv"),
    ({"rules": ("fuzzy:OW",), "sample_fraction": 0.05}, ValueError,
     "fewer than 2 rows from the smallest inner training part"),
]


@pytest.mark.parametrize("bad, exc, match", HOSTILE, ids=[param_id(h[0]) for h in HOSTILE])
def test_hostile_regression_arguments(bad, exc, match):
    kw = {"rankers": ("f_regression", "pearson"), "sizes": [2], **FAST, **bad}
    with pytest.raises(exc, match=match):
        prepare_advice(_X, _Y_FLOAT, **kw)


class _PredictOnly(ClassifierMixin, BaseEstimator):
    """A classifier with predict only: no scores for a ROC curve."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(np.asarray(X).shape[0], self.classes_[0])


@pytest.mark.parametrize("bad, exc, match", [
    ({"scoring": "r2"}, ValueError, r"scoring='r2' is not a score of a classification task "
                                    r"\('r2' scores a regression task\)"),
    ({"rankers": ("f_classif", "f_regression")}, ValueError,
     r"rankers\[1\]: ranker 'f_regression' supports regression only.*rankers for "
     r"classification: .*f_classif"),
    ({"estimator": "ridge"}, ValueError, "'ridge' is a regressor, not for a classification"),
    ({"scoring": "balanced_acuracy"}, ValueError,
     r"scoring='balanced_acuracy' is not a score of a classification task; did you mean "
     r"'balanced_accuracy'\?"),
    ({"scoring": "neg_log_loss"}, ValueError,
     r"scoring='neg_log_loss' \(−log-loss\) needs an estimator with predict_proba; the "
     r"estimator 'linear_svm' has none"),
    ({"scoring": "roc_auc", "estimator": _PredictOnly()}, ValueError,
     r"scoring='roc_auc' \(ROC AUC\) needs an estimator with decision_function or "
     r"predict_proba; the estimator '_PredictOnly' has none"),
])
def test_hostile_classification_arguments(bad, exc, match):
    y = np.repeat([0, 1], 30)
    kw = {"rankers": ("f_classif", "chi2"), "sizes": [2], **FAST, **bad}
    with pytest.raises(exc, match=match):
        prepare_advice(np.abs(_X), y, **kw)


def test_classification_is_bit_identical_to_before_regression():
    # the digest of this call's table, outer scores, choices and ties, taken before the
    # advisor knew regression (commit b5d54f0), fuzzy bootstraps included. The interval
    # bounds enter rounded to 9 decimals: they hold a Student t quantile, which scipy 1.10
    # (the lowest supported) and later releases compute 2e-11 apart.
    X, y = load_wine(return_X_y=True)
    adv = advise(X, y, rankers=("f_classif", "chi2", "relieff"),
                 rules=("borda", "kfirst:k=0.3", "fuzzy:OW"), sizes=[1, 3, 6], cv=3,
                 inner_cv=2, n_repeats=2, random_state=7, n_bootstraps=3)
    frame = advice_frame(adv)
    frame[["score_low", "score_high"]] = frame[["score_low", "score_high"]].round(9)
    h = hashlib.sha256()
    h.update(frame.to_csv(index=False).encode())
    h.update(adv.combination_scores.tobytes())
    h.update(adv.single_scores.tobytes())
    h.update(adv.recommended.label.encode())
    h.update(adv.best_single.label.encode())
    h.update(repr(adv.ties).encode())
    assert h.hexdigest() == "193029112ab6313bc74884ce3ce9c06e8aa4521d1ac66172120d0745d29e8691"
    assert adv.task == "classification" and adv.scoring == "accuracy"
    assert "outer accuracy" in adv.verdict
