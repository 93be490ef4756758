"""ReliefF and Relief: behaviour, Weka's bookkeeping details and bad input (the Weka equality
is in test_rankers_weka.py)."""

import numpy as np
import pandas as pd
import pytest

from rankfusion.rankers import get_ranker, relief, relieff
from rankfusion.rankers.relief import _weka_sort


def _toy(seed=0, n=90, c=3):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % c
    X = rng.normal(size=(n, 5))
    X[:, 0] += 3 * y
    return X, y


def test_relevant_feature_ranks_first_and_noise_near_zero():
    X, y = _toy()
    w = relieff(X, y)
    assert np.argmax(w) == 0
    assert np.all(np.abs(w[1:]) < 0.1)


def test_two_identical_columns_get_identical_weights():
    X, y = _toy(1)
    X = np.column_stack([X, X[:, 0]])
    w = relieff(X, y)
    assert w[0] == w[-1]


def test_constant_and_all_missing_features_score_zero():
    X, y = _toy(2)
    X[:, 3] = 7.0
    X[:, 4] = np.nan
    w = relieff(X, y)
    assert w[3] == 0.0 and w[4] == 0.0
    assert relief(X[y < 2], y[y < 2])[4] == 0.0


def test_weights_lie_in_minus_one_one():
    X, y = _toy(3)
    X[::5, 1] = np.nan
    w = relieff(X, y, n_neighbors=3)
    assert np.all(w >= -1) and np.all(w <= 1)


def test_labels_as_strings_and_categoricals():
    X, y = _toy(4)
    s = np.array(["lo", "mid", "hi"])[y]
    base = relieff(X, pd.Series(pd.Categorical(s, categories=["lo", "mid", "hi"])))
    np.testing.assert_allclose(relieff(X, y), base, rtol=1e-12)
    np.testing.assert_allclose(relieff(X, s), base, rtol=1e-12, atol=1e-15)


def test_nominal_missing_diff_uses_declared_number_of_values():
    # one nominal attribute with 4 declared values, a missing value in one reference
    X = pd.DataFrame({"a": pd.Categorical(["x", "x", None, "y"], categories=list("wxyz"))})
    y = [0, 0, 0, 1]
    w = relieff(X, y, n_neighbors=1)
    # diff with a missing value: 1 - 1/4 = 0.75 (4 declared values, not the 2 observed)
    # ref 0: hit 1 (diff 0), miss 3 (diff 1)                 -> +1
    # ref 1: hit 0 (0), miss 3 (1)                           -> +1
    # ref 2 (missing): all at 0.75, hit = 0 (first scanned) -> -0.75 + 0.75 = 0
    # ref 3: no hit; misses 0 (1), 1 (1), then 2 (0.75) replaces 0: strictly closer -> +0.75
    assert w[0] == pytest.approx((1 + 1 + 0 + 0.75) / 4)


def test_neighbour_ties_keep_the_first_scanned_instances():
    # all of class 1 are at the same distance from each class-0 reference: the first k
    # scanned are kept, later equal ones never replace them (strictly closer only)
    X = np.array([[0.0, 0], [0, 0], [1, 0], [1, 1], [1, 1], [1, 1]])
    y = np.array([0, 0, 1, 1, 1, 1])
    w1 = relieff(X, y, n_neighbors=1)
    # reference 0: hit 1 (diff 0, 0); miss = instance 2 (first scanned among the nearest)
    # with k=1 instance 2 (distance 1) is nearer than 3..5 (distance 2)
    assert w1[1] < w1[0]


def test_n_samples_is_seeded_and_all_instances_by_default():
    X, y = _toy(5)
    a = relieff(X, y, n_samples=30, random_state=1)
    np.testing.assert_array_equal(a, relieff(X, y, n_samples=30, random_state=1))
    assert not np.array_equal(a, relieff(X, y, n_samples=30, random_state=2))
    np.testing.assert_array_equal(relieff(X, y, n_samples=10_000), relieff(X, y))


def test_weka_quicksort_sorts():
    rng = np.random.default_rng(0)
    for n in range(1, 30):
        a = rng.integers(0, 4, n).astype(float)
        idx = _weka_sort(a.copy())
        assert np.all(np.diff(a[idx]) >= 0)
        assert sorted(idx.tolist()) == list(range(n))


def test_relief_binary_kira_rendell():
    X, y = _toy(6, c=2)
    w = relief(X, y)
    assert np.argmax(w) == 0
    # hand check on a tiny set: nearest hit and miss per reference, squared diffs
    X = np.array([[0.0, 0.0], [0.1, 1.0], [1.0, 0.0], [0.9, 1.0]])
    yy = [0, 0, 1, 1]
    w = relief(X, yy)
    # squared distances; ref 0: hit 1, miss 2 -> (-0.01 + 1, -1 + 0); ref 1: hit 0, miss 3
    # (0.64 vs 1.81 for 2) -> (-0.01 + 0.64, -1); refs 2 and 3 mirror 0 and 1
    np.testing.assert_allclose(w, [(0.99 + 0.63 + 0.99 + 0.63) / 4, -1.0])
    with pytest.raises(ValueError, match="exactly 2 classes"):
        relief(*_toy(7, c=3))


def test_registry_and_bad_parameters():
    X, y = _toy(8)
    np.testing.assert_array_equal(get_ranker("relieff")(X, y), relieff(X, y))
    with pytest.raises(ValueError, match="n_neighbors"):
        relieff(X, y, n_neighbors=0)
    with pytest.raises(ValueError, match="sigma"):
        relieff(X, y, sigma=0)
    with pytest.raises(ValueError, match="n_samples"):
        relieff(X, y, n_samples=0)
    with pytest.raises(ValueError, match="class"):
        relieff(X, np.ones(len(y)))
    with pytest.raises(ValueError, match="regression"):
        relieff(X, np.linspace(0, 1, len(y)))
