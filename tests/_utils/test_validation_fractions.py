"""The one fraction rule max(1, floor(f·p + 0.5)) and its hostile inputs."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rankfusion import aggregate
from rankfusion._utils.validation import check_real, resolve_n_features


def test_the_example_of_985_features():
    assert resolve_n_features(0.1, 985) == 99  # scikit-learn's int(0.1 * 985) is 98
    assert int(0.1 * 985) == 98


@given(st.floats(min_value=1e-9, max_value=1.0), st.integers(min_value=1, max_value=10**6))
def test_fraction_is_rounded_half_up_and_never_zero(f, p):
    assert resolve_n_features(f, p) == max(1, math.floor(f * p + 0.5))


def test_kfirst_uses_it():
    import numpy as np

    scores = np.random.default_rng(0).random((985, 3))
    assert aggregate(scores, "kfirst", k=0.1).params["k"] == 99


@pytest.mark.parametrize(("value", "exc", "match"), [
    (0, ValueError, "≥ 1"),
    (11, ValueError, "exceeds"),
    (0.0, ValueError, r"\(0, 1\]"),
    (1.5, ValueError, r"\(0, 1\]"),
    (float("nan"), ValueError, r"\(0, 1\]"),
    (True, TypeError, "bool"),
    ("0.1", TypeError, "str"),
    (None, TypeError, "NoneType"),
])
def test_hostile_fractions(value, exc, match):
    with pytest.raises(exc, match=match):
        resolve_n_features(value, 10, name="n_features")


@pytest.mark.parametrize(("value", "kw", "exc"), [
    (True, {}, TypeError), ("1", {}, TypeError), (float("nan"), {}, ValueError),
    (float("inf"), {}, ValueError), (-1.0, {"low": 0.0}, ValueError),
    (2.0, {"high": 1.0}, ValueError),
])
def test_hostile_reals(value, kw, exc):
    with pytest.raises(exc, match="x"):
        check_real(value, name="x", **kw)
    assert check_real(float("inf"), name="x", allow_inf=True) == float("inf")
