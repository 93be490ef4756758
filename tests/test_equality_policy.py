"""The equality policy with the oracles (docs/design.md, 'Equality with the oracles'): the
tests' ulps comparison, and positions and selected subsets that stay identical wherever the
scores' gaps exceed the tolerance."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import WEKA_FIXTURES, read_csv
from numeric_equality import assert_within_ulps, ulps_apart
from rankfusion import RankedLists

EPS = np.spacing(1.0)


def test_ulps_apart_counts_units_in_the_last_place():
    x = 0.1
    up = np.nextafter(np.nextafter(x, 1), 1)
    assert ulps_apart(x, up) == 2
    assert ulps_apart(-x, -up) == 2
    assert ulps_apart(1e-300, 1e-300) == 0
    assert ulps_apart([np.nan, np.inf], [np.nan, np.inf]).tolist() == [0, 0]
    assert ulps_apart([np.nan, np.inf, 1.0], [1.0, -np.inf, np.nan]).tolist() == [np.inf] * 3
    # a result near 0 summed from terms near 1: its errors are ulps of 1
    assert ulps_apart(1e-17, 1e-17 + 3 * EPS, scale=1.0) == pytest.approx(3.0)
    assert ulps_apart(1e-17, 1e-17 + 3 * EPS) > 1e10


def test_assert_within_ulps_fails_past_the_tolerance_and_says_why():
    a = np.array([1.0, 2.0, 3.0])
    b = a.copy()
    b[1] = np.nextafter(np.nextafter(np.nextafter(2.0, 3), 3), 3)
    assert_within_ulps(a, b, 3, why="libm")
    with pytest.raises(
        AssertionError,
        match=r"1 of 3 values more than 2 ulps apart \(at most "
        r"2 allowed because libm\).*index 1",
    ):
        assert_within_ulps(a, b, 2, why="libm")
    with pytest.raises(AssertionError, match="shapes"):
        assert_within_ulps(a, b[:2], 2, why="libm")
    with pytest.raises(TypeError, match="why="):
        assert_within_ulps(a, b, 3, why="")
    with pytest.raises(ValueError, match="ulps must be at least 0"):
        assert_within_ulps(a, b, -1, why="libm")


def _gapped(scores, tol):
    """Features whose score is more than 2·tol from every other feature's."""
    s = np.asarray(scores, dtype=float)
    gaps = np.abs(s[:, None] - s[None, :])
    np.fill_diagonal(gaps, np.inf)
    return gaps.min(axis=1) > 2 * tol


def _tolerance(scores, ulps, scale):
    return ulps * np.spacing(np.maximum(np.abs(scores), scale))


def _check_positions_and_subsets(a, b, tol):
    """Positions of features separated by more than 2·tol agree; so does every top-k subset
    whose k-th and (k+1)-th scores are more than 2·tol apart."""
    pa = RankedLists.from_scores(a[:, None]).positions[:, 0]
    pb = RankedLists.from_scores(b[:, None]).positions[:, 0]
    keep = _gapped(a, tol.max())
    np.testing.assert_array_equal(pa[keep], pb[keep])
    order_a, order_b = np.argsort(-a, kind="stable"), np.argsort(-b, kind="stable")
    sa = a[order_a]
    for k in range(1, a.shape[0]):
        if sa[k - 1] - sa[k] > 2 * tol.max():
            assert set(order_a[:k]) == set(order_b[:k]), k
    return int(keep.sum())


@given(
    st.lists(st.floats(-1, 1), min_size=2, max_size=40),
    st.integers(0, 2**32 - 1),
    st.sampled_from([1, 4, 64]),
)
def test_scores_within_the_tolerance_keep_positions_where_gaps_exceed_it(scores, seed, ulps):
    """Any perturbation within the tolerance leaves the positions (the library's own
    ``RankedLists.from_scores``) of well-separated features and the subsets cut at a wide gap
    unchanged."""
    a = np.array(scores)
    tol = _tolerance(a, ulps, 1.0)
    rng = np.random.default_rng(seed)
    b = a + rng.uniform(-1, 1, a.shape) * tol
    assert_within_ulps(b, a, ulps * 1.0001, why="the perturbation", scale=1.0)
    _check_positions_and_subsets(a, b, tol)


@pytest.mark.parametrize(
    "name", ["iris.K5W", "labor.K3W"] + [f"random/rand{i:02d}.K3W" for i in range(0, 40, 7)]
)
def test_weka_weighted_relieff_positions_hold_within_the_tolerance(name):
    """On Weka's own weighted-ReliefF scores, the tolerance of its comparison (4 ulps of 1,
    tests/rankers/test_rankers_weka.py) leaves nearly every feature's position determined:
    scores moved to either end of the tolerance keep the positions and subsets."""
    ref = read_csv(WEKA_FIXTURES / f"{name}.scores.csv")["ReliefF"].to_numpy()
    tol = _tolerance(ref, 4, 1.0)
    for sign in (
        np.ones_like(ref),
        -np.ones_like(ref),
        np.where(np.arange(ref.shape[0]) % 2, 1.0, -1.0),
    ):
        kept = _check_positions_and_subsets(ref, ref + sign * tol, tol)
    exact_ties = ref.shape[0] - np.unique(ref).shape[0]
    assert kept >= ref.shape[0] - 2 * exact_ties - 2
