"""rank_features: one list per registered ranker; oracle = each ranker called directly and
scipy.stats.rankdata for the positions."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata
from sklearn.datasets import load_iris

from rankfusion.rankers import get_ranker, rank_features


@pytest.fixture(scope="module")
def iris():
    return load_iris(return_X_y=True, as_frame=True)


def test_each_list_is_its_ranker_called_directly(iris):
    X, y = iris
    lists = rank_features(X, y, ["info_gain", ("relieff", {"n_neighbors": 5}), "chi_square"])
    assert lists.list_names.tolist() == ["info_gain", "relieff", "chi_square"]
    assert lists.features.tolist() == list(X.columns)
    np.testing.assert_array_equal(lists.scores[:, 0], get_ranker("info_gain")(X, y))
    np.testing.assert_array_equal(lists.scores[:, 1], get_ranker("relieff")(X, y, n_neighbors=5))
    for j in range(3):
        np.testing.assert_array_equal(lists.positions[:, j],
                                      rankdata(-lists.scores[:, j], method="average"))


def test_shared_params_reach_only_the_rankers_that_take_them(iris):
    X, y = iris
    lists = rank_features(X, y, ["info_gain", "relieff"], params={"n_neighbors": 3})
    np.testing.assert_array_equal(lists.scores[:, 1], get_ranker("relieff")(X, y, n_neighbors=3))


def test_a_ranker_twice_is_named_by_its_params(iris):
    X, y = iris
    lists = rank_features(X, y, [("relieff", {"n_neighbors": 3}), ("relieff", {"n_neighbors": 7})])
    assert lists.list_names.tolist() == ["relieff(n_neighbors=3)", "relieff(n_neighbors=7)"]


def test_arrays_get_default_names():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    y = np.repeat([0, 1], 15)
    assert rank_features(X, y, "info_gain").features.tolist() == ["x0", "x1", "x2"]


@pytest.mark.parametrize(("rankers", "params", "exc", "match"), [
    ("info_gian", None, ValueError, "did you mean 'info_gain'"),
    ([], None, ValueError, "at least one"),
    (5, None, TypeError, "rankers must be"),
    ([("relieff", 5)], None, TypeError, "names or"),
    ([("info_gain", {"n_neighbors": 3})], None, TypeError, "unknown parameter"),
    (["info_gain"], {"nope": 1}, ValueError, "none of the rankers"),
    (["info_gain", "info_gain"], None, ValueError, "twice"),
    ([3], None, TypeError, "names or"),
])
def test_hostile_arguments(iris, rankers, params, exc, match):
    X, y = iris
    with pytest.raises(exc, match=match):
        rank_features(X, y, rankers, params=params)


def test_bad_data_is_refused_by_the_ranker():
    with pytest.raises(ValueError):
        rank_features(pd.DataFrame({"a": [1.0, 2.0]}), [0, 0], "info_gain")
