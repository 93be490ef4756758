"""mean_score's normalize= against direct formulas: raw, per-list min–max, relative ranking."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import rankdata

from rankfusion import RankedLists, aggregate


def _scores():
    rng = np.random.default_rng(0)
    s = rng.random((9, 3))
    s[:, 1] *= 7000.0  # a ranker on a large scale (CFS's p − position reaches 7,128)
    s[:, 2] = 2.5  # a constant list
    return s


def test_raw_mean_stays_the_default():
    s = _scores()
    res = aggregate(s, "mean_score")
    np.testing.assert_allclose(res.scores, s.mean(axis=1))
    assert res.params == {"normalize": None}
    np.testing.assert_array_equal(res.order, aggregate(s, "mean_score", normalize=None).order)
    np.testing.assert_array_equal(res.order, aggregate(s, "mean_score", normalize="none").order)


@pytest.mark.parametrize("weights", [None, [1.0, 2.0, 0.5]])
def test_minmax_is_the_mean_of_normalised_scores(weights):
    s = _scores()
    norm = np.zeros_like(s)
    for j in range(3):
        lo, hi = s[:, j].min(), s[:, j].max()
        norm[:, j] = 0.0 if hi == lo else (s[:, j] - lo) / (hi - lo)
    w = np.ones(3) if weights is None else np.asarray(weights)
    expected = norm @ w / w.sum()
    res = aggregate(s, "mean_score", normalize="minmax", weights=weights)
    np.testing.assert_allclose(res.scores, expected, atol=1e-12)
    np.testing.assert_array_equal(res.order, np.argsort(-expected, kind="stable"))


def test_a_large_scale_no_longer_dominates():
    s = np.column_stack([[0.9, 0.8, 0.7, 0.1], [3.0, 2.0, 1.0, 7128.0]])
    assert aggregate(s, "mean_score").order[0] == 3  # raw: the large scale decides alone
    res = aggregate(s, "mean_score", normalize="minmax")
    # normalised: (1, .0003), (.875, .0001), (.75, 0), (0, 1) → means .50, .44, .375, .5
    assert res.order.tolist() == [0, 3, 1, 2]


def test_rank_is_borda():
    s = _scores()
    res = aggregate(s, "mean_score", normalize="rank")
    r = 1.0 - rankdata(-s, axis=0) / s.shape[0]
    np.testing.assert_allclose(res.scores, r.mean(axis=1), atol=1e-12)
    np.testing.assert_array_equal(res.order, aggregate(s, "borda").order)


@pytest.mark.parametrize(
    "normalize, exc, match",
    [("zscore", ValueError, "normalize must be None, 'minmax' or 'rank', got 'zscore'"),
     (1, TypeError, "normalize must be None"),
     (True, TypeError, "normalize must be None")],
)
def test_hostile_normalize(normalize, exc, match):
    with pytest.raises(exc, match=match):
        aggregate(_scores(), "mean_score", normalize=normalize)


def test_orders_still_refused():
    with pytest.raises(ValueError, match="raw scores"):
        aggregate(RankedLists.from_orders([["a", "b"]]), "mean_score", normalize="minmax")
