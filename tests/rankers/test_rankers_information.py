"""Information gain, gain ratio, symmetric uncertainty, chi-square and the MDL discretisation:
invariants, edge cases and bad input (the Weka equality is in test_rankers_weka.py)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankfusion.rankers import (
    chi_square,
    gain_ratio,
    get_ranker,
    info_gain,
    mdl_cut_points,
    symmetric_uncertainty,
)
from rankfusion.rankers.discretize import discretize
from rankfusion.rankers.information import (
    contingency_tables,
    distribute_missing,
    table_symmetric_uncertainty,
)

MEASURES = [info_gain, gain_ratio, symmetric_uncertainty, chi_square]


def _toy(seed=0, n=120, p=6):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = rng.normal(size=(n, p))
    X[:, 0] += 2.0 * y  # relevant
    X[:, 1] = np.round(X[:, 1])  # ties
    return X, y


def test_mdl_splits_two_separated_blocks_once():
    X = np.arange(1.0, 9.0)[:, None]
    assert [c.tolist() for c in mdl_cut_points(X, [0, 0, 0, 0, 1, 1, 1, 1])] == [[4.5]]


def test_mdl_accepts_no_cut_on_noise_and_constant():
    rng = np.random.default_rng(3)
    X = np.column_stack([rng.normal(size=40), np.ones(40)])
    y = np.tile([0, 1], 20)
    cuts = mdl_cut_points(X, y)
    assert cuts[1].size == 0
    assert cuts[0].size == 0


def test_mdl_cuts_lie_between_distinct_values_and_ignore_missing():
    X, y = _toy(1)
    X[::7, 0] = np.nan
    cuts = mdl_cut_points(X, y)
    assert cuts[0].size >= 1
    vals = np.unique(X[:, 0][~np.isnan(X[:, 0])])
    for c in cuts[0]:
        i = np.searchsorted(vals, c)
        assert vals[i - 1] < c < vals[i]
    assert np.all(np.diff(cuts[0]) > 0)


def test_mdl_better_encoding_never_accepts_fewer_cuts():
    X, y = _toy(2, n=300)
    better = mdl_cut_points(X, y)
    plain = mdl_cut_points(X, y, better_encoding=False)
    for b, p in zip(better, plain):
        assert b.size >= p.size


def test_discretize_codes_and_missing_marker():
    X = np.array([[1.0], [4.5], [5.0], [np.nan], [9.0]])
    codes = discretize(X, [np.array([4.5, 8.0])])
    assert codes[:, 0].tolist() == [0, 0, 1, -1, 2]
    with pytest.raises(ValueError, match="cut_points"):
        discretize(X, [])


def test_mdl_nominal_columns_get_none():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": pd.Categorical(["u", "v", "u", "v"])})
    cuts = mdl_cut_points(X, [0, 0, 1, 1])
    assert cuts[1] is None and cuts[0].tolist() == [2.5]
    assert discretize(X, cuts)[:, 1].tolist() == [0, 1, 0, 1]


def test_information_gain_of_a_perfect_nominal_predictor_is_class_entropy():
    y = np.array([0, 0, 1, 1, 2, 2, 2, 2])
    X = pd.DataFrame({"a": pd.Categorical(y.astype(str)), "noise": list("xyxyxyxy")})
    ig = info_gain(X, y)
    h = -sum(p * np.log2(p) for p in [0.25, 0.25, 0.5])
    assert ig[0] == pytest.approx(h)
    assert symmetric_uncertainty(X, y)[0] == pytest.approx(1.0)
    assert gain_ratio(X, y)[0] == pytest.approx(1.0)
    # chi-square of a perfect predictor: N * (min(r, c) - 1)
    assert chi_square(X, y)[0] == pytest.approx(8 * 2)


@pytest.mark.parametrize("func", MEASURES)
def test_constant_and_all_missing_features_score_zero(func):
    X, y = _toy(4)
    X[:, 2] = 3.0
    X[:, 3] = np.nan
    s = func(X, y)
    assert s[2] == 0.0 and s[3] == 0.0
    assert s[0] > 0
    assert np.all(np.isfinite(s))


@pytest.mark.parametrize("func", MEASURES)
def test_string_categorical_and_integer_labels_agree(func):
    X, y = _toy(5)
    names = np.array(["a", "b", "c"])[y]
    base = func(X, y)
    np.testing.assert_allclose(func(X, names), base, rtol=1e-12)
    np.testing.assert_allclose(func(X, pd.Series(pd.Categorical(names))), base, rtol=1e-12)


@pytest.mark.parametrize("func", MEASURES)
def test_scores_do_not_depend_on_sample_order(func):
    X, y = _toy(6)
    perm = np.random.default_rng(0).permutation(len(y))
    np.testing.assert_allclose(func(X[perm], y[perm]), func(X, y), rtol=1e-12, atol=1e-15)


def test_missing_as_value_equals_default_without_missing_values():
    X, y = _toy(7)
    for func in MEASURES:
        np.testing.assert_array_equal(func(X, y, missing_as_value=True), func(X, y))


def test_missing_values_are_spread_in_proportion():
    # a: value u for class 0, v for class 1, one missing in each class
    X = pd.DataFrame({"a": pd.Categorical(["u", "u", "u", None, "v", "v", "v", None])})
    y = [0, 0, 0, 0, 1, 1, 1, 1]
    codes = np.array([[0], [0], [0], [-1], [1], [1], [1], [-1]])
    t = contingency_tables(codes, np.array([2]), np.array(y), 2)
    assert t[0].tolist() == [[3, 0], [0, 3], [1, 1]]
    d = distribute_missing(t)
    np.testing.assert_allclose(d[0], [[3.5, 0.5], [0.5, 3.5]])
    np.testing.assert_allclose(symmetric_uncertainty(X, y), table_symmetric_uncertainty(d))
    assert info_gain(X, y, missing_as_value=True)[0] > info_gain(X, y)[0]


def test_binarize_maps_zero_and_nonzero():
    X = np.array([[0.0], [0.0], [2.0], [-1.0]])
    y = [0, 0, 1, 1]
    assert info_gain(X, y, binarize=True)[0] == pytest.approx(1.0)


def test_mixed_frame_keeps_order_of_features():
    X, y = _toy(8, p=3)
    frame = pd.DataFrame(X, columns=["n0", "n1", "n2"])
    frame["nom"] = pd.Categorical(np.where(y == 0, "a", "b"))
    s = info_gain(frame, y)
    assert s.shape == (4,)
    np.testing.assert_allclose(s[:3], info_gain(X, y))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 4), st.integers(8, 60))
def test_ranges_of_the_measures(seed, c, n):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    X[:, 1] = rng.integers(0, 3, n)
    X[rng.random((n, 3)) < 0.1] = np.nan
    y = np.arange(n) % c
    ig, gr, su, chi = (f(X, y) for f in MEASURES)
    hc = -sum(p * np.log2(p) for p in np.bincount(y) / n)
    assert np.all(ig >= -1e-12) and np.all(ig <= hc + 1e-9)
    assert np.all(su >= -1e-12) and np.all(su <= 1 + 1e-9)
    assert np.all(gr >= -1e-12)
    assert np.all(chi >= -1e-9)
    assert np.all((ig > 1e-12) == (su > 1e-12))


@pytest.mark.parametrize("name", ["info_gain", "ig", "gain_ratio", "su", "chi_square"])
def test_registered_by_name(name):
    X, y = _toy(9)
    assert get_ranker(name)(X, y).shape == (X.shape[1],)


def test_bad_input_gives_clear_errors():
    X, y = _toy(10)
    with pytest.raises(ValueError, match="class"):
        info_gain(X, np.zeros(len(y)))
    yn = y.astype(float)
    yn[3] = np.nan
    with pytest.raises(ValueError, match="missing label"):
        info_gain(X, yn)
    with pytest.raises(ValueError, match="labels but X has"):
        info_gain(X, y[:-1])
    with pytest.raises(ValueError, match="empty"):
        info_gain(np.empty((0, 3)), [])
    with pytest.raises(ValueError, match="regression"):
        gain_ratio(X, np.linspace(0, 1, len(y)))
    with pytest.raises(ValueError, match="unknown ranker"):
        get_ranker("information")
    import scipy.sparse as sp  # sparse X is taken (tests/rankers/test_sparse.py), not NaN

    with pytest.raises(ValueError, match="stores NaN"):
        chi_square(sp.csr_matrix(np.array([[np.nan, 1.0], [1.0, 0.0]])), [0, 1])


@pytest.mark.parametrize("func", MEASURES)
def test_all_missing_nominal_columns_score_zero(func):
    X = pd.DataFrame({"a": [None] * 6, "b": [1, 2, 3, 4, 5, 6.0],
                      "c": pd.Categorical([None] * 6, categories=["u", "v"])})
    y = [0, 0, 0, 1, 1, 1]
    for missing_as_value in (False, True):
        s = func(X, y, missing_as_value=missing_as_value)
        assert s[0] == 0.0 and s[2] == 0.0 and s[1] > 0


def test_distribute_missing_worked_by_hand():
    # feature 0: observed rows total 3 and 3 -> the missing (1, 2) split half and half;
    # feature 1: nothing observed -> the missing counts stay in row 0 (Weka: total <= SMALL)
    t = np.array([[[2.0, 1.0], [0.0, 3.0], [1.0, 2.0]],
                  [[0.0, 0.0], [0.0, 0.0], [4.0, 1.0]]])
    expected = np.array([[[2.5, 2.0], [0.5, 4.0]], [[4.0, 1.0], [0.0, 0.0]]])
    np.testing.assert_array_equal(distribute_missing(t), expected)
    np.testing.assert_array_equal(distribute_missing(t[1:]), expected[1:])
    # an observed total of exactly Weka's SMALL (1e-6) is not "observed": kept in row 0
    tiny = np.array([[[5e-7, 0.0], [5e-7, 0.0], [1.0, 0.0]]])
    np.testing.assert_array_equal(distribute_missing(tiny), [[[1.0 + 5e-7, 0.0], [5e-7, 0.0]]])
