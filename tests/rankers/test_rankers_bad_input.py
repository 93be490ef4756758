"""Every registered ranker refuses bad input with a clear error and handles labels alike
(docs/design.md, 'Validation' and 'Inputs')."""

import inspect

import numpy as np
import pandas as pd
import pytest

from rankfusion.rankers import available_rankers, get_ranker, ranker_tasks

# the classification rankers (the regression ones have their table in test_regression_rankers)
RANKERS = [n for n in available_rankers() if "classification" in ranker_tasks(n)]


def _data(seed=0, n=40, p=5):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    X = rng.uniform(0, 1, size=(n, p))  # non-negative: scikit-learn's chi2 needs that
    X[:, 0] += 2 * y  # one informative feature
    return X, y


def _seeded(name):
    """The ranker, with random_state fixed where it has one (same input → same output)."""
    ranker = get_ranker(name)
    if "random_state" in inspect.signature(ranker).parameters:
        return lambda X, y: ranker(X, y, random_state=0)
    return ranker


@pytest.mark.parametrize("name", RANKERS)
@pytest.mark.parametrize(
    "X, y, exc, match",
    [
        (np.ones((4, 2)), [1, 1, 1, 1], ValueError, "at least 2"),
        (np.ones((4, 2)), [0, 1, np.nan, 1], ValueError, "missing label"),
        (np.ones((4, 2)), [0, 1, 1], ValueError, "labels but X has"),
        (np.ones((0, 2)), [], ValueError, "empty"),
        (np.ones((4, 2)), [0.5, 1.25, 0.1, 2.7], ValueError, "regression"),
        (np.ones((4, 2)), np.zeros((4, 2)), TypeError, "1-D"),
    ],
)
def test_bad_input_gives_clear_errors(name, X, y, exc, match):
    with pytest.raises(exc, match=match):
        get_ranker(name)(X, y)


def test_unknown_ranker_lists_the_known_ones():
    with pytest.raises(ValueError, match="known rankers: .*info_gain"):
        get_ranker("no_such_ranker")


@pytest.mark.parametrize("name", RANKERS)
def test_string_and_categorical_labels_work_like_integers(name):
    X, y = _data()
    ranker = _seeded(name)
    base = ranker(X, y)
    as_str = ranker(X, np.where(y == 1, "tumour", "normal"))
    as_cat = ranker(X, pd.Series(pd.Categorical(np.where(y == 1, "b", "a"))))
    assert base.shape == (X.shape[1],) and np.isfinite(base).all()
    np.testing.assert_allclose(as_str, base, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(as_cat, base, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", RANKERS)
def test_caller_data_is_not_modified(name):
    X, y = _data(1)
    frame = pd.DataFrame(X, columns=[f"g{i}" for i in range(X.shape[1])])
    X0, y0, f0 = X.copy(), y.copy(), frame.copy()
    _seeded(name)(X, y)
    _seeded(name)(frame, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    pd.testing.assert_frame_equal(frame, f0)
