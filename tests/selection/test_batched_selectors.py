"""The selectors score batchable rankers on all resamples at once: the same resamples, lists'
positions, consensus and subset as one ranker call per resample (``ranking_jobs._BATCHED``),
on random and tie-heavy data; and the FDR size rule ``"fdr:<level>"``."""

import warnings

import numpy as np
import pytest
from scipy import stats

from rankfusion import EnsembleSelector, StabilitySelector
from rankfusion.rankers import benjamini_hochberg
from rankfusion.rankers.batched import RTOL
from rankfusion.selection import ranking_jobs


def _data(kind, seed, n=70, p=60, n_classes=2):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    if kind == "ints":
        X = rng.integers(0, 3, size=(n, p)).astype(float)
    elif kind == "tenths":
        X = rng.integers(0, 4, size=(n, p)) * 0.1 + 0.05
    else:
        X = rng.gamma(2.0, 1.0, size=(n, p))
    X[:, :3] += y[:, None]
    X[:, 5] = X[:, 6]  # duplicated
    X[:, 7] = 1.0  # constant
    X[:, 8] = np.where(np.arange(n) < 2, 2.0, 1.0)  # constant inside most bootstraps
    return X, y


def _both(make, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ranking_jobs._BATCHED["on"] = False
        try:
            old = make().fit(X, y)
        finally:
            ranking_jobs._BATCHED["on"] = True
        new = make().fit(X, y)
    return old, new


@pytest.mark.parametrize("kind", ["gamma", "ints", "tenths"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_ensemble_equal_to_one_call_per_bootstrap(kind, seed):
    X, y = _data(kind, seed, n_classes=2 if seed != 2 else 3)
    rankers = ["f_classif", "chi2", "info_gain"] + (["welch_t"] if seed != 2 else [])
    old, new = _both(lambda: EnsembleSelector(rankers=rankers, n_bootstraps=12,
                                              n_features_to_select=8, random_state=seed),
                     X, y)
    assert all(np.array_equal(a, b) for a, b in zip(old.bootstrap_indices_,
                                                     new.bootstrap_indices_))
    assert np.array_equal(old.lists_.positions, new.lists_.positions)
    assert np.array_equal(old.positions_, new.positions_)
    assert np.array_equal(old.support_, new.support_)
    ref = old.lists_.scores
    np.testing.assert_allclose(new.lists_.scores, ref, rtol=RTOL,
                               atol=RTOL * np.abs(ref).max())


@pytest.mark.parametrize("kind", ["gamma", "tenths"])
@pytest.mark.parametrize("seed", [0, 1])
def test_stability_selector_equal(kind, seed):
    X, y = _data(kind, seed)
    old, new = _both(lambda: StabilitySelector(rankers=["f_classif", "welch_t"], q=8,
                                               n_subsamples=12, threshold=0.6,
                                               random_state=seed), X, y)
    assert all(np.array_equal(a, b) for a, b in zip(old.subsamples_, new.subsamples_))
    assert np.array_equal(old.positions_, new.positions_)
    assert np.array_equal(old.support_, new.support_)


def test_fdr_rule_keeps_the_discoveries():
    X, y = _data("gamma", 4)
    X[:, :3] += 3.0 * y[:, None]
    sel = EnsembleSelector(rankers=["welch_t"], n_features_to_select="fdr:0.05",
                           random_state=0).fit(X, y)
    p = np.array([stats.ttest_ind(X[y == 0, j], X[y == 1, j], equal_var=False).pvalue
                  for j in range(X.shape[1])])
    p = np.where(np.isnan(p), 1.0, p)
    q = benjamini_hochberg(p)
    np.testing.assert_allclose(sel.fdr_qvalues_, q, rtol=1e-9)
    assert np.array_equal(sel.support_, q <= 0.05)
    assert sel.n_features_ == int((q <= 0.05).sum()) >= 3


@pytest.mark.parametrize("rankers,value,match", [
    (["info_gain"], "fdr:0.05", "gives p-values"),
    (["welch_t", "f_classif"], "fdr:0.05", "one ranker"),
    (["welch_t"], "fdr:1.5", "fdr:<level>"),
    (["welch_t"], "fdr:", "fdr:<level>"),
    (["welch_t"], "fdr:nan", "fdr:<level>"),
])
def test_fdr_rule_refusals(rankers, value, match):
    X, y = _data("gamma", 0)
    with pytest.raises(ValueError, match=match):
        EnsembleSelector(rankers=rankers, n_features_to_select=value).fit(X, y)
