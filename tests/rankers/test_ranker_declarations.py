"""Every ranker declares its parameters' constraints and whether it takes missing values on
its registry entry (docs/design.md, 'Parameters', 'Rankers'), and each claim holds."""

import numpy as np
import pytest

from rankfusion._utils.constraints import describe, validate_params
from rankfusion.rankers import available_rankers, get_ranker, ranker_info


def _nan_data(n_classes=2):
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(n_classes), 20)
    X = rng.normal(size=(y.size, 5))
    X[:, 0] += y
    X[3, 1] = X[7, 0] = X[11, 4] = np.nan
    return X, y


@pytest.mark.parametrize("name", available_rankers())
def test_every_ranker_declares_allow_nan_and_every_parameter(name):
    entry = ranker_info(name)
    assert isinstance(entry.tags.get("allow_nan"), bool), name
    assert set(entry.constraints) == set(entry.params), name
    for cs in entry.constraints.values():
        assert describe(cs)


@pytest.mark.parametrize("name", available_rankers())
def test_the_defaults_satisfy_the_declared_constraints(name):
    import inspect

    entry = ranker_info(name)
    sig = inspect.signature(entry.func)
    defaults = {k: p.default for k, p in sig.parameters.items() if k in entry.constraints}
    validate_params(entry.constraints, defaults)


@pytest.mark.parametrize("name", available_rankers())
def test_the_allow_nan_claim_holds(name):
    X, y = _nan_data()
    before = X.copy()
    f = get_ranker(name)
    if ranker_info(name).tags["allow_nan"]:
        scores = f(X, y)
        assert np.isfinite(scores).all() and scores.shape == (5,)
    else:
        with pytest.raises(ValueError, match="missing value"):
            f(X, y)
    np.testing.assert_array_equal(X, before)


@pytest.mark.parametrize("name, params, kind, message", [
    ("relieff", {"n_neighbors": 0}, ValueError, "n_neighbors must be an int ≥ 1, got 0"),
    ("relieff", {"sigma": 0}, ValueError, "sigma must be a number > 0, got 0"),
    ("relieff", {"n_samples": 2.5}, TypeError, "n_samples must be None or an int ≥ 1"),
    ("mifs", {"beta": -1}, ValueError, "beta must be a number ≥ 0, got -1"),
    ("mifs", {"beta": float("nan")}, ValueError, "beta must be a number ≥ 0, got nan"),
    ("ilfs", {"n_tokens": 2}, ValueError, "n_tokens must be an int ≥ 3, got 2"),
    ("ilfs", {"multiclass": "max"}, ValueError, "multiclass must be 'nearest' or 'sum'"),
    ("cfs", {"n_steps": 0}, ValueError, "n_steps must be None or an int ≥ 1, got 0"),
    ("info_gain", {"missing_as_value": "maybe"}, TypeError, "missing_as_value must be a bool"),
    ("info_gain", {"missing_as_value": 0.5}, TypeError, "missing_as_value must be a bool"),
    ("mutual_info_classif", {"n_neighbors": -3}, ValueError, "n_neighbors must be an int ≥ 1"),
    ("random_forest", {"n_jobs": 0}, ValueError, "n_jobs must be None or a non-zero int"),
    ("svm_rfe", {"criterion": "cs"}, ValueError,
     "criterion must be 'average', 'crammer_singer' or 'weston_watkins', got 'cs'"),
    ("svm_rfe", {"C": -1}, ValueError, "C must be a number > 0, got -1"),
    ("svm_rfe", {"random_state": "x"}, TypeError, "random_state must be None"),
])
def test_declared_constraints_name_the_parameter(name, params, kind, message):
    with pytest.raises(kind) as err:
        validate_params(ranker_info(name).constraints, params)
    assert message in str(err.value)
