"""Scores near the float limits (documented-safe input, docs/design.md, 'Inputs'): the ensemble's
min–max normalisation, its stability table and the reduced-size protocol give the results of
the same scores rescaled, without a numpy warning."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.stats import pearsonr

from rankfusion import EnsembleSelector
from rankfusion.stability import reduced_size_correlation

BASE = np.array([0.75, -0.5, 0.125, 1.0, -1.0, 0.0])
SCALES = [2.0**1023, 2.0**-1000, 2.0**1000, 1.0]


def _data():
    rng = np.random.default_rng(0)
    y = np.arange(40) % 2
    return rng.normal(size=(40, BASE.shape[0])), y


def _ranker(scale):
    def ranker(X, y):
        # a data-dependent perturbation in the low bits, so that bootstraps differ
        s = BASE + 1e-3 * np.asarray(X)[: BASE.shape[0], 0]
        return s * scale

    return ranker


@pytest.mark.parametrize("scale", SCALES, ids=["2^1023", "2^-1000", "2^1000", "1"])
@pytest.mark.parametrize("normalize", ["minmax", "rank", None])
@pytest.mark.parametrize("aggregation", ["borda", "mean_score", "combmnz"])
def test_ensemble_on_extreme_scores_equals_the_rescaled_ensemble(scale, normalize, aggregation):
    X, y = _data()
    kw = dict(normalize=normalize, aggregation=aggregation, n_bootstraps=3,
              n_features_to_select=2, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        big = EnsembleSelector(rankers=(_ranker(scale), _ranker(-scale)), **kw).fit(X, y)
    ref = EnsembleSelector(rankers=(_ranker(1.0), _ranker(-1.0)), **kw).fit(X, y)
    np.testing.assert_array_equal(big.positions_, ref.positions_)
    if normalize is not None:  # the normalised lists are scale free: equal to the last bit
        np.testing.assert_array_equal(big.lists_.scores, ref.lists_.scores)
    np.testing.assert_array_equal(big.stability_["nogueira"], ref.stability_["nogueira"])
    assert np.isfinite(big.stability_["asd"]).all()


@pytest.mark.parametrize("aggregation", ["borda", "mean_score"])
def test_subnormal_scores_give_no_warning(aggregation):
    """Scores of 2^-1070 keep a few bits only (the data's loss, not ours): no warning, finite
    results."""
    X, y = _data()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sel = EnsembleSelector(rankers=(_ranker(2.0**-1070), _ranker(-(2.0**-1070))),
                               aggregation=aggregation, n_bootstraps=3, n_features_to_select=2,
                               random_state=0).fit(X, y)
    assert np.isfinite(sel.lists_.scores).all() and np.isfinite(sel.scores_).all()


def test_minmax_of_scores_spanning_the_float_range():
    """(s − min)/(max − min) by hand on the halved scores; the span 2·1.7e308 itself would
    overflow."""
    X, y = _data()
    s = np.array([1.7e308, -1.7e308, 0.0, 8.5e307, -1e-300, 1.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sel = EnsembleSelector(rankers=(lambda X, y: s.copy(),), n_features_to_select=2).fit(X, y)
    h = s / 2
    np.testing.assert_allclose(sel.lists_.scores[:, 0], (h - h.min()) / (h.max() - h.min()),
                               rtol=1e-15)


@pytest.mark.parametrize("scale", [2.0**1020, 2.0**-1060, 1e-310, 1e300])
def test_reduced_size_correlation_on_extreme_scores_is_pearson_of_the_rescaled(scale):
    X, y = _data()

    def ranker(Xs, ys):
        return (BASE + 0.1 * np.asarray(Xs)[: BASE.shape[0], 1]) * scale

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = reduced_size_correlation(ranker, X, y, fraction=0.5, n_repeats=3,
                                       random_state=1)
    unit = reduced_size_correlation(lambda Xs, ys: ranker(Xs, ys) / scale, X, y, fraction=0.5,
                                    n_repeats=3, random_state=1)
    np.testing.assert_allclose(res.values, unit.values, rtol=1e-12)
    full = BASE + 0.1 * X[: BASE.shape[0], 1]
    assert np.isfinite(res.values).all() and pearsonr(full, full)[0] == pytest.approx(1.0)
