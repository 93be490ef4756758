"""The task is never guessed: resolve_task's table (docs/design.md, 'Tasks')."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankfusion._utils.task import (
    AUTO_MAX_CLASSES,
    check_regression_target,
    resolve_task,
)

rng = np.random.default_rng(0)
DIABETES_LIKE = rng.integers(25, 347, size=442).astype(np.int64)  # ~200 whole numbers / 442
assert 150 < np.unique(DIABETES_LIKE).shape[0] < 300

# (target, what auto decides: "classification", "regression" or an error message fragment)
AUTO = [
    (["a", "b", "a"], "classification"),
    (pd.Series(["x", "y"] * 5), "classification"),
    (np.array([True, False, True]), "classification"),
    (pd.Categorical([1, 2, 1, 2]), "classification"),
    (pd.Series(pd.Categorical([3.5, 1.5, 3.5])), "classification"),
    (np.array([0, 1, 2] * 10), "classification"),
    (np.array([0.0, 1.0, 2.0] * 10), "classification"),
    (np.arange(40) % 20, "classification"),  # 20 distinct (50 %): ≤ 20 distinct is labels
    (np.arange(500) % 100, "classification"),  # 100 ≤ 20 % of 500 and ≤ the cap
    ([0.5, 1.5, 2.25], "regression"),
    (pd.Series([1.0, 2.5, 3.0]), "regression"),
    (DIABETES_LIKE, 'looks continuous.*task="classification"'),
    (DIABETES_LIKE.astype(float), 'task="regression"'),
    (np.arange(1000) % 150, "cannot be told"),  # 150 > AUTO_MAX_CLASSES even at 15 %
    (np.arange(30), "a different whole number in every sample"),  # an identifier
]


@pytest.mark.parametrize("y, expect", AUTO)
def test_auto(y, expect):
    if expect in ("classification", "regression"):
        assert resolve_task(y) == expect
    else:
        with pytest.raises(ValueError, match=expect) as e:
            resolve_task(y)
        assert 'task="classification"' in str(e.value) and 'task="regression"' in str(e.value)


def test_cap_is_the_documented_one():
    ok = np.arange(AUTO_MAX_CLASSES * 10) % AUTO_MAX_CLASSES
    assert resolve_task(ok) == "classification"
    with pytest.raises(ValueError):
        resolve_task(np.arange((AUTO_MAX_CLASSES + 1) * 10) % (AUTO_MAX_CLASSES + 1))


@pytest.mark.parametrize("y", [DIABETES_LIKE, [0, 1, 2] * 4, ["a", "b"], [True, False],
                               pd.Categorical(["u", "v"])])
def test_explicit_classification_honoured(y):
    assert resolve_task(y, "classification") == "classification"


@pytest.mark.parametrize("y", [DIABETES_LIKE, [0.5, 1.5], [0, 1, 2] * 4, np.arange(30)])
def test_explicit_regression_honoured(y):
    assert resolve_task(y, "regression") == "regression"


@pytest.mark.parametrize("y, task, exc, words", [
    (["a", "b"], "regression", TypeError, "numeric"),
    ([True, False], "regression", TypeError, "numeric"),
    (pd.Categorical(["a", "b"]), "regression", TypeError, "class labels"),
    (np.array(["2020-01-01", "2020-01-02"], dtype="datetime64[D]"), "regression", ValueError,
     "dates"),
    (np.array(["2020-01-01", "2020-01-02"], dtype="datetime64[D]"), "auto", ValueError,
     "dates"),
    ([0.5, 1.25], "classification", ValueError, "non-integer"),
    ([1, 2], "Regression", ValueError, "task must be one of"),
    ([1, 2], None, TypeError, "task must be one of"),
    ([1, 2], 1, TypeError, "task must be one of"),
    (np.zeros((3, 2)), "auto", TypeError, "1-D"),
    (pd.DataFrame({"a": [1, 2], "b": [1, 2]}), "auto", TypeError, "1-D"),
])
def test_hostile(y, task, exc, words):
    with pytest.raises(exc, match=words):
        resolve_task(y, task)


@pytest.mark.parametrize("y, exc, words", [
    ([1.0, np.nan, 2.0], ValueError, "missing or infinite value at sample 1"),
    ([1.0, np.inf, 2.0], ValueError, "at sample 1"),
    ([2.0, 2.0, 2.0], ValueError, "constant"),
    ([], ValueError, "empty"),
    (["1", "2"], TypeError, "numeric"),
])
def test_regression_target_hostile(y, exc, words):
    with pytest.raises(exc, match=words):
        check_regression_target(y)


def test_regression_target_copies():
    y = np.array([1.0, 2.0, 3.0])
    out = check_regression_target(pd.Series(y))
    out[0] = 99.0
    assert y[0] == 1.0
    assert check_regression_target([1, 2, 3]).dtype == np.float64


@given(st.lists(st.integers(-1000, 1000), min_size=2, max_size=200))
def test_explicit_task_always_honoured_and_auto_never_guesses_many_integers(values):
    y = np.array(values)
    assert resolve_task(y, "classification") == "classification"
    assert resolve_task(y, "regression") == "regression"
    c, n = np.unique(y).shape[0], y.shape[0]
    try:
        got = resolve_task(y)
    except ValueError as e:
        assert 'task="classification"' in str(e) and 'task="regression"' in str(e)
        assert c > 20 or (n >= 6 and c == n)
    else:
        assert got == "classification"
        assert c <= AUTO_MAX_CLASSES and (c <= 20 or c <= 0.2 * n)


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=50))
def test_a_non_integer_float_is_regression_under_auto(values):
    y = np.array(values)
    if np.all(y == np.round(y)):
        y = y + 0.5
    assert resolve_task(y) == "regression"
