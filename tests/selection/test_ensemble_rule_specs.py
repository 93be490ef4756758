"""EnsembleSelector with rule specs: the rule's parameters travel with it, so a grid search
over rules fits every candidate (docs/design.md, 'Aggregation rules')."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline

from rankfusion import EnsembleSelector

RULES = ["borda", "kfirst:k=0.05", "schulze", "fuzzy:OW"]


def _data(n=60, p=10, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    X = np.abs(rng.normal(size=(n, p)))  # non-negative: chi2 takes it
    X[:, 0] += 2.0 * y
    X[:, 3] += 1.0 * y
    return X, y


def _selector(**kw):
    return EnsembleSelector(rankers=("f_classif", "chi2"), n_bootstraps=2,
                            n_features_to_select=5, random_state=0, **kw)


def test_a_grid_over_rules_fits_every_candidate():
    X, y = _data()
    pipe = Pipeline([("select", _selector()), ("clf", GaussianNB())])
    grid = GridSearchCV(pipe, {"select__aggregation": RULES}, cv=3, error_score="raise")
    grid.fit(X, y)
    scores = grid.cv_results_["mean_test_score"]
    assert len(scores) == len(RULES) and not np.isnan(scores).any()
    assert list(grid.cv_results_["param_select__aggregation"]) == RULES


def test_a_shared_aggregation_params_a_rule_does_not_take_is_still_refused():
    # the spec carries each rule's own parameters; a shared key is an error, with the way out
    X, y = _data()
    with pytest.raises(ValueError, match=r"'borda' got unknown parameter\(s\) \['k'\].*"
                                         r"'kfirst:k=0.05'"):
        _selector(aggregation="borda", aggregation_params={"k": 3}).fit(X, y)


def test_the_spec_is_kept_as_given_and_its_parameters_win():
    X, y = _data()
    sel = _selector(aggregation="kfirst:k=3")
    assert sel.get_params()["aggregation"] == "kfirst:k=3"
    assert clone(sel).aggregation == "kfirst:k=3"
    sel.set_params(aggregation=" fuzzy:ow ")
    assert sel.get_params()["aggregation"] == " fuzzy:ow "
    assert sel.fit(X, y).consensus_.params["weighting"] == "OW"
    # aggregation_params are defaults under the spec's own
    sel = _selector(aggregation="kfirst:k=3", aggregation_params={"k": 5}).fit(X, y)
    assert sel.consensus_.params == {"k": 3}
    sel = _selector(aggregation="kfirst", aggregation_params={"k": 5}).fit(X, y)
    assert sel.consensus_.params == {"k": 5}


def test_a_spec_equals_the_name_with_aggregation_params():
    X, y = _data()
    a = _selector(aggregation="kfirst:k=0.2").fit(X, y)
    b = _selector(aggregation="kfirst", aggregation_params={"k": 0.2}).fit(X, y)
    np.testing.assert_array_equal(a.scores_, b.scores_)
    np.testing.assert_array_equal(a.support_, b.support_)


def test_fuzzy_by_its_plain_name_is_the_default_weighting():
    X, y = _data()
    a = _selector(aggregation="fuzzy").fit(X, y)
    b = _selector(aggregation="fuzzy:OW").fit(X, y)
    np.testing.assert_array_equal(a.scores_, b.scores_)
    assert a.stability_ is not None and "consensus" in a.stability_.index
