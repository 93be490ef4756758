"""A numeric target in SVMRFE, StabilitySelector and BorutaSelector (docs/design.md, 'Tasks').

Oracles: scikit-learn's ``RFE`` / ``RFECV`` with the same ``LinearSVR``, schedule and folds
and its ``r2_score``; BorutaPy with a regressor on the same importances (where the algorithms
coincide, as the classification oracle of ``test_boruta.py``); data with known relevant
features (Friedman #1 with noise features; a linear model with 10 of 500 informative), with
the tolerances stated at each test."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.datasets import make_friedman1
from sklearn.feature_selection import RFE, RFECV
from sklearn.metrics import r2_score

from rankfusion import SVMRFE, BorutaSelector, StabilitySelector
from rankfusion.selection.regression import regression_folds
from rankfusion.selection.svm_rfe import C_GRID, linear_svr

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "boruta"
sys.path.insert(0, str(FIXTURES))
from provider import Provider, make_case  # noqa: E402


def _friedman(seed, n=200, p=20):
    """Friedman #1: y = 10 sin(π x0 x1) + 20 (x2 − ½)² + 10 x3 + 5 x4 + N(0, 1); the other
    p − 5 features are noise."""
    return make_friedman1(n, p, noise=1.0, random_state=seed)


def _linear(seed, n=400, p=500, k=10):
    """y = X β + N(0, 1) with the first k of p coefficients in ±[1, 2], the rest 0."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    beta = np.zeros(p)
    beta[:k] = rng.uniform(1, 2, k) * rng.choice([-1, 1], k)
    return X, X @ beta + rng.normal(0, 1, n)


# ------------------------------------------------------------------ SVMRFE
@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # liblinear's convergence warnings
        yield


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_svmrfe_regression_equals_sklearn_rfe_and_rfecv(seed):
    X, y = _friedman(seed, n=120, p=10)
    rs = 7 + seed
    sel = SVMRFE(step=1, n_features_to_select="cv", random_state=rs, task="regression").fit(
        X, y)
    # the fixed-size ranking: RFE(LinearSVR) with the same seed, one feature at a time
    ref = RFE(linear_svr(1.0, rs), n_features_to_select=1, step=1).fit(X, y)
    np.testing.assert_array_equal(sel.positions_, ref.ranking_)
    # the size search: RFECV with the same folds (the fold seed: random_state mod 2**31)
    folds = regression_folds(X.shape[0], 5, random_state=rs % 2 ** 31)
    cv = RFECV(linear_svr(1.0, rs), step=1, cv=folds, scoring="r2",
               min_features_to_select=1).fit(X, y)
    # ours lists the sizes as the elimination visits them (p … 1), RFECV ascending
    assert sel.cv_results_["n_features"].tolist() == list(range(10, 0, -1))
    np.testing.assert_allclose(sel.cv_results_["mean_test_score"][::-1],
                               cv.cv_results_["mean_test_score"], rtol=0, atol=1e-12)
    for f in range(5):
        np.testing.assert_allclose(sel.cv_results_[f"split{f}_test_score"][::-1],
                                   cv.cv_results_[f"split{f}_test_score"], atol=1e-12)
    assert sel.n_features_ == cv.n_features_
    assert sel.subset_curve_.estimator == "linear_svr"


def test_svmrfe_regression_C_by_cv_is_the_best_mean_r2():
    X, y = _friedman(0, n=100, p=8)
    sel = SVMRFE(C="cv", n_features_to_select=3, random_state=4, task="regression").fit(X, y)
    folds = regression_folds(X.shape[0], 5, random_state=4)
    means = [np.mean([r2_score(y[te], linear_svr(c, 4).fit(X[tr], y[tr]).predict(X[te]))
                      for tr, te in folds]) for c in C_GRID]
    np.testing.assert_allclose(sel.C_cv_results_["mean_test_score"], means, atol=1e-12)
    assert sel.C_ == C_GRID[int(np.argmax(np.round(means, 12)))]
    ref = RFE(linear_svr(sel.C_, 4), n_features_to_select=1, step=0.1).fit(X, y)
    # 8 features < step_until=20: one at a time, which RFE's float step does too here
    np.testing.assert_array_equal(sel.positions_, ref.ranking_)


def test_svmrfe_regression_size_rules():
    X, y = _friedman(3, n=120, p=12)
    best = SVMRFE(step=1, n_features_to_select="cv", random_state=0).fit(X, y)
    lax = SVMRFE(step=1, n_features_to_select="cv", size_rule="one_se", random_state=0).fit(
        X, y)
    assert best.task_ == "regression" and lax.n_features_ <= best.n_features_
    assert {3, 4} <= set(np.flatnonzero(best.support_).tolist())  # the linear terms


@pytest.mark.parametrize("kw", [{"n_features_to_select": 4}, {"n_features_to_select": "cv"},
                                {"C": "cv", "n_features_to_select": 3}])
def test_svmrfe_regression_sparse_equals_dense(kw):
    rng = np.random.default_rng(0)
    dense = np.where(rng.random((90, 25)) < 0.3, rng.random((90, 25)) * 2, 0.0)
    y = dense[:, :4] @ np.array([3.0, -2.0, 1.5, 1.0]) + 0.1 * rng.normal(size=90)
    want = SVMRFE(random_state=0, step=2, **kw).fit(dense, y)
    for fmt in (sp.csr_matrix, sp.csc_matrix):
        got = SVMRFE(random_state=0, step=2, **kw).fit(fmt(dense), y)
        np.testing.assert_array_equal(got.positions_, want.positions_)
        assert got.n_features_ == want.n_features_ and got.C_ == want.C_
    assert set(np.flatnonzero(want.positions_ <= 4).tolist()) == {0, 1, 2, 3}


# ------------------------------------------------------------------ StabilitySelector
@pytest.mark.parametrize("seed", range(5))
def test_stability_regression_friedman(seed):
    """f_regression (the regression default) ranks by linear correlation: the linear terms
    x3, x4 and the monotone sin(π x0 x1) terms x0, x1 are stable; x2, which enters as
    (x2 − ½)², has no linear correlation with y and is not; no noise feature is."""
    X, y = _friedman(seed)
    sel = StabilitySelector(q=6, threshold=0.8, n_subsamples=40, random_state=seed).fit(X, y)
    assert sel.task_ == "regression" and sel.classes_ is None
    assert sel.rankers_ == ("f_regression",)
    assert np.flatnonzero(sel.support_).tolist() == [0, 1, 3, 4]


@pytest.mark.parametrize("seed", range(4))
def test_stability_regression_linear_10_of_500(seed):
    """q = 15, π = 0.9, p = 500: the bound on the expected false selections is
    15² / ((2·0.9 − 1)·500) = 0.56; tolerance: no noise feature selected and at least 7 of
    the 10 informative ones in every seed (observed: 7–9)."""
    X, y = _linear(seed)
    sel = StabilitySelector(q=15, threshold=0.9, n_subsamples=40, random_state=seed).fit(X, y)
    assert sel.pfer_bound_ == pytest.approx(225 / 400)
    found = np.flatnonzero(sel.support_)
    assert (found < 10).all() and found.shape[0] >= 7


def test_stability_regression_halves_without_strata():
    X, y = _friedman(0, n=61, p=8)
    a = StabilitySelector(q=2, n_subsamples=6, random_state=3, stratify=True).fit(X, y)
    b = StabilitySelector(q=2, n_subsamples=6, random_state=3, stratify=False).fit(X, y)
    for h, g in zip(a.subsamples_, b.subsamples_):
        np.testing.assert_array_equal(h, g)  # no classes: stratify changes nothing
        assert h.shape[0] == 30
    pair = np.concatenate(a.subsamples_[:2])
    assert np.unique(pair).shape[0] == 60  # a complementary pair: disjoint halves


@pytest.mark.parametrize("kw, exc, words", [
    ({"rankers": ["relieff"], "task": "regression"}, ValueError,
     r"ranker 'relieff' supports classification only.*rankers for regression: .*f_regression"),
    ({"rankers": ["relieff"]}, ValueError,
     r"y looks continuous.*ranker 'relieff' supports classification only.*rrelieff"),
    ({"rankers": [lambda X, y: np.abs(X[0])]}, ValueError, "declare no task"),
    ({"task": "classification"}, ValueError, "non-integer"),
    ({"task": "Regression"}, ValueError, "task must be"),
    ({"task": None}, TypeError, "task must be"),
])
def test_stability_regression_refusals(kw, exc, words):
    X, y = _friedman(0, n=40, p=6)
    with pytest.raises(exc, match=words):
        StabilitySelector(n_subsamples=4, q=2, **kw).fit(X, y)


def test_stability_explicit_regression_with_a_function():
    X, y = _friedman(0, n=80, p=8)
    sel = StabilitySelector(rankers=[lambda X, y: np.abs(np.corrcoef(X.T, y)[-1, :-1])],
                            q=3, threshold=0.7, n_subsamples=10, random_state=0,
                            task="regression").fit(X, y)
    assert sel.task_ == "regression" and {3} <= set(np.flatnonzero(sel.support_).tolist())


# ------------------------------------------------------------------ BorutaSelector
def test_boruta_regression_default_is_a_forest_regressor():
    X, y = _friedman(0, n=60, p=6)
    sel = BorutaSelector(max_iter=2, random_state=0).fit(X, y)
    assert sel.task_ == "regression" and sel.ranker_ == "random_forest_regressor"
    assert sel.classes_ is None
    cls = BorutaSelector(max_iter=2, random_state=0).fit(X, (y > np.median(y)).astype(int))
    assert cls.task_ == "classification" and cls.ranker_ == "random_forest"


@pytest.mark.parametrize("seed", range(3))
def test_boruta_regression_friedman_forest(seed):
    """A forest sees all five relevant features, x2's quadratic term too: all confirmed in
    every seed, and no noise feature confirmed (observed: at most one tentative)."""
    X, y = _friedman(seed, n=200, p=15)
    sel = BorutaSelector(("random_forest_regressor", {"n_estimators": 30}), max_iter=30,
                         random_state=seed).fit(X, y)
    assert np.flatnonzero(sel.support_).tolist() == [0, 1, 2, 3, 4]


@pytest.mark.parametrize("seed", range(6))
def test_boruta_regression_linear_10_of_500(seed):
    """With the deterministic f_regression importance, a noise feature is confirmed when its
    in-sample F beats the 2^(−1/m) quantile of its shadows' (module docstring of
    rankfusion.selection.boruta): tolerance, all 10 informative confirmed and at most 1 % of
    the 490 noise features (observed 0–3)."""
    X, y = _linear(seed)
    sel = BorutaSelector("f_regression", max_iter=30, random_state=seed).fit(X, y)
    confirmed = np.flatnonzero(sel.support_)
    assert set(range(10)) <= set(confirmed.tolist())
    assert (confirmed >= 10).sum() <= 4


class _ProviderRegressor(RegressorMixin, BaseEstimator):
    """The fixture's deterministic importance provider as a regressor (for BorutaPy)."""

    def __init__(self, provider=None, n_estimators=10, random_state=None):
        self.provider = provider
        self.n_estimators = n_estimators
        self.random_state = random_state

    def fit(self, X, y):
        self.feature_importances_ = self.provider(np.asarray(X, dtype=np.float64))
        return self

    def predict(self, X):  # pragma: no cover - BorutaPy never predicts
        return np.zeros(np.asarray(X).shape[0])


@pytest.mark.parametrize("seed", [3, 7, 11])
def test_borutapy_regressor_matches_on_the_provider(seed):
    """BorutaPy with a regressor and a numeric target; the same importances reach both, so
    the decisions coincide with ``test="tails"``, ``correction="two_step"`` and one
    iteration fewer (the differences listed in rankfusion.selection.boruta)."""
    boruta = pytest.importorskip("boruta")
    X, _, base, sd = make_case(seed)
    y = X[:, -1] * 2.0 + np.random.default_rng(seed).normal(size=X.shape[0])
    bp = boruta.BorutaPy(_ProviderRegressor(Provider(X, base, seed, sd)), n_estimators=10,
                         alpha=0.05, two_step=True, max_iter=30, random_state=seed).fit(X, y)
    prov = Provider(X, base, seed, sd)
    sel = BorutaSelector(lambda X, y: prov(X), max_iter=29, test="tails",
                         correction="two_step", task="regression").fit(X, y)
    assert sel.task_ == "regression"
    np.testing.assert_array_equal(sel.support_, bp.support_)
    assert not (bp.support_weak_ & ~sel.support_weak_).any()


@pytest.mark.parametrize("kw, exc, words", [
    ({"ranker": "relieff", "task": "regression"}, ValueError,
     r"BorutaSelector: ranker 'relieff' supports classification only.*"
     r"rankers for regression: .*random_forest_regressor"),
    ({"ranker": "random_forest"}, ValueError,
     r"y looks continuous.*'random_forest' supports classification only"),
    ({"ranker": lambda X, y: np.ones(X.shape[1])}, ValueError, "declare no task"),
    ({"task": "classification"}, ValueError, "non-integer"),
    ({"task": "sideways"}, ValueError, "task must be"),
    ({"task": 1}, TypeError, "task must be"),
])
def test_boruta_regression_refusals(kw, exc, words):
    X, y = _friedman(0, n=40, p=6)
    with pytest.raises(exc, match=words):
        BorutaSelector(max_iter=2, **kw).fit(X, y)
