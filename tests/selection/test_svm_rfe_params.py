"""SVMRFE's parameter checks: each bad value is refused with its whole message, and the
boundary values that are allowed are accepted (docs/design.md, 'Validation')."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from rankfusion import SVMRFE


def _ids(cases):
    """Plain test ids (the argument names and the case's number)."""
    out = []
    for i, case in enumerate(cases):
        d = next(c for c in case if isinstance(c, dict)) if isinstance(case, tuple) else case
        out.append(f"{i}-" + "-".join(d) if d else f"{i}-defaults")
    return out


def _data():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 10)
    X = rng.normal(size=(30, 5)) + y[:, None] * np.array([1.0, 0.5, 0, 0, 0])
    return X, y


NFS = "n_features_to_select must be None, an int ≥ 1, a number in (0, 1] or 'cv', got "

# the messages of the constraint vocabulary (docs/design.md, 'Parameters'): a value of the
# wrong kind is a TypeError, one of the right kind out of range a ValueError
HOSTILE = [
    ({"aggregation": 3}, TypeError, "aggregation must be a rule spec (str) or 'average', got 3"),
    ({"aggregation_params": [("k", 2)]}, TypeError,
     "aggregation_params must be None or a dict, got [('k', 2)]"),
    ({"n_features_to_select": "all"}, ValueError, NFS + "'all'"),
    ({"n_features_to_select": True}, TypeError, NFS + "True"),
    ({"n_features_to_select": 0}, ValueError, NFS + "0"),
    ({"n_features_to_select": 0.0}, ValueError, NFS + "0.0"),
    ({"n_features_to_select": 1.5}, ValueError, NFS + "1.5"),
    ({"C": 0}, ValueError, "C must be a number > 0 or 'cv', got 0"),
    ({"C": -1.0}, ValueError, "C must be a number > 0 or 'cv', got -1.0"),
    ({"C": True}, TypeError, "C must be a number > 0 or 'cv', got True"),
    ({"C": "CV"}, ValueError, "C must be a number > 0 or 'cv', got 'CV'"),
    ({"C": "1"}, ValueError, "C must be a number > 0 or 'cv', got '1'"),
    ({"tol": 0}, ValueError, "tol must be a number > 0, got 0"),
    ({"tol": float("inf")}, ValueError, "tol must be a number > 0, got inf"),
    ({"tol": True}, TypeError, "tol must be a number > 0, got True"),
    ({"tol": "1e-3"}, TypeError, "tol must be a number > 0, got '1e-3'"),
    ({"decomposition": "joint"}, ValueError, "decomposition must be 'ovo', 'ova', "
     "'crammer_singer' or 'weston_watkins', got 'joint'"),
    ({"criterion": "msvm"}, ValueError,
     "criterion must be 'binary', 'crammer_singer' or 'weston_watkins', got 'msvm'"),
    ({"criterion": None}, TypeError,
     "criterion must be 'binary', 'crammer_singer' or 'weston_watkins', got None"),
    ({"criterion": "crammer_singer", "decomposition": "weston_watkins"}, ValueError,
     "decomposition='weston_watkins' (the former spelling of criterion='weston_watkins') "
     "contradicts criterion='crammer_singer': give criterion only"),
    ({"estimator": LogisticRegression(), "criterion": "weston_watkins"}, ValueError,
     "estimator= applies to the ovo and ova decompositions only (criterion='binary')"),
    ({"estimator": LogisticRegression(), "criterion": "crammer_singer"}, ValueError,
     "estimator= applies to the ovo and ova decompositions only (criterion='binary')"),
    ({"estimator": 3}, TypeError, "estimator must be None or a scikit-learn classifier with "
     "coef_ (e.g. LinearSVC()), got 3"),
    ({"verbose": 2}, TypeError, "verbose must be a bool, got 2"),
    ({"warm_start": "maybe"}, TypeError, "warm_start must be a bool, got 'maybe'"),
    ({"random_state": -3}, ValueError, "random_state must be None, an int in [0, 4294967295] "
     "or a SeedSequence or a Generator, got -3"),
    ({"class_weight": "even"}, ValueError,
     "class_weight must be None, a dict class → weight or 'balanced', got 'even'"),
    ({"step": 0}, ValueError, "step must be an int ≥ 1 or a number in (0, 1), got 0"),
    ({"step_until": 2.5}, TypeError, "step_until must be an int ≥ 1, got 2.5"),
    ({"n_jobs": 0}, ValueError, "n_jobs must be None or a non-zero int (-1 = every core), got 0"),
    ({"cv": 1}, ValueError, "cv must be an int ≥ 2, got 1"),
]


@pytest.mark.parametrize("params, kind, message", HOSTILE,
                         ids=_ids(HOSTILE))
def test_bad_parameters_are_refused_with_their_message(params, kind, message):
    X, y = _data()
    with pytest.raises(kind) as err:
        SVMRFE(**params).fit(X, y)
    assert str(err.value) == message


@pytest.mark.parametrize("params, n_selected", [
    ({"n_features_to_select": 1.0}, 5),     # the upper end of (0, 1] is allowed: every feature
    ({"n_features_to_select": 0.2}, 1),
    ({"n_features_to_select": 1}, 1),
    ({"C": 1e-3}, 2),                       # any positive C
    ({"tol": 1e-9}, 2),
    ({"estimator": LogisticRegression(max_iter=1000), "decomposition": "ova"}, 2),
    ({"estimator": LogisticRegression(max_iter=1000), "decomposition": "ovo"}, 2),
    ({"aggregation_params": {}}, 2),
])
def test_boundary_values_are_accepted(params, n_selected):
    X, y = _data()
    sel = SVMRFE(**params).fit(X, y)
    assert sel.get_support().sum() == n_selected


def _wide_frame():
    import pandas as pd

    rng = np.random.default_rng(1)
    y = np.repeat([0, 1, 2], [8, 12, 20])
    X = rng.normal(size=(40, 24)) + np.outer(y, np.linspace(1.0, 0.0, 24)) * 0.6
    return pd.DataFrame(X, columns=[f"g{j}" for j in range(24)]), y


# each setting changes the ranking (checked below), so a selector that dropped it on the way
# to the ranking functions would fail the comparison
PASSED_ON = [  # (the setting, the selector it must differ from)
    ({"step": 3, "step_until": 6}, {}),
    ({"step": 0.5, "step_until": 3}, {"step": 0.5}),
    ({"class_weight": "balanced"}, {}),
    ({"C": 0.01}, {}),
    ({"decomposition": "weston_watkins", "tol": 0.5}, {"decomposition": "weston_watkins"}),
    ({"decomposition": "weston_watkins", "C": 0.05}, {"decomposition": "weston_watkins"}),
    ({"aggregation": "schulze"}, {}),
    ({"aggregation_params": {"k": 3}}, {}),
]


@pytest.mark.parametrize("params, other", PASSED_ON, ids=_ids(PASSED_ON))
def test_the_selector_ranks_as_svm_rfe_rankings_with_its_parameters(params, other):
    from rankfusion.selection import svm_rfe_rankings

    X, y = _wide_frame()
    agg = params.get("aggregation", "kfirst")
    sel = SVMRFE(**params).fit(X, y)
    direct_args = {k: v for k, v in params.items() if k != "aggregation"}
    direct = svm_rfe_rankings(X, y, [agg], **direct_args)
    expected = next(iter(direct.positions.values()))
    np.testing.assert_array_equal(sel.positions_, expected)
    assert not np.array_equal(sel.positions_, SVMRFE(**other).fit(X, y).positions_), \
        "the setting has no effect on these data"
    assert list(sel.lists_.features) == list(X.columns)
    if params.get("decomposition") == "weston_watkins":  # one joint run: score = p − position
        (res,) = sel.rfe_results_
        np.testing.assert_array_equal(sel.lists_.scores[:, 0], X.shape[1] - res.ranking)


def test_every_constructor_argument_is_kept_as_given():
    # scikit-learn's contract (clone, GridSearchCV): __init__ stores each argument unchanged
    import inspect

    names = [n for n in inspect.signature(SVMRFE).parameters]
    given = {n: object() for n in names}
    params = SVMRFE(**given).get_params(deep=False)
    assert set(params) == set(names)
    for n in names:
        assert params[n] is given[n], n


def test_the_selector_requires_a_target():
    assert SVMRFE().__sklearn_tags__().target_tags.required is True


RANKINGS_HOSTILE = [
    ({"decomposition": "ovr"}, "decomposition must be 'ovo', 'ova', 'crammer_singer' or "
     "'weston_watkins', got 'ovr'"),
    ({"criterion": "cs"}, "criterion must be 'binary', 'crammer_singer' or 'weston_watkins', "
     "got 'cs'"),
    ({"X": np.zeros(12)}, "X must be 2-D (samples × features); got shape (12,)"),
    ({"C": "CV"}, "C must be a number > 0 or 'cv', got 'CV'"),
    ({"C": "cv", "cv": 1}, "cv must be an int ≥ 2, got 1"),
    ({"C": 0.0}, "C must be a number > 0 or 'cv', got 0.0"),
    ({"C": float("inf")}, "C must be a number > 0 or 'cv', got inf"),
    ({"C": True}, "C must be a number > 0 or 'cv', got True"),
    ({"C": "1"}, "C must be a number > 0 or 'cv', got '1'"),
    ({"tol": 0.0}, "tol must be a number > 0, got 0.0"),
    ({"tol": float("nan")}, "tol must be a number > 0, got nan"),
    ({"tol": False}, "tol must be a number > 0, got False"),
]


@pytest.mark.parametrize("args, message", RANKINGS_HOSTILE, ids=_ids(RANKINGS_HOSTILE))
def test_svm_rfe_rankings_refuses_bad_arguments_with_their_message(args, message):
    from rankfusion.selection import svm_rfe_rankings

    X, y = _data()
    args = {"X": X, **args}
    with pytest.raises((TypeError, ValueError)) as err:
        svm_rfe_rankings(args.pop("X"), y, ["kfirst"], **args)
    assert str(err.value) == message


@pytest.mark.parametrize("cv, class_weight", [(3, None), (4, "balanced")])
def test_svm_rfe_rankings_C_cv_is_choose_C_with_the_same_folds(cv, class_weight):
    from rankfusion.selection import choose_C, svm_rfe_rankings

    X, y = _wide_frame()
    y = np.repeat([0, 1, 2], [8, 12, 20])
    out = svm_rfe_rankings(X, y, ["kfirst"], C="cv", cv=cv, class_weight=class_weight)
    C, results = choose_C(np.asarray(X), y, cv=cv, class_weight=class_weight)
    assert out.C == C
    np.testing.assert_array_equal(out.C_cv_results["mean_test_score"],
                                  results["mean_test_score"])
    fixed = svm_rfe_rankings(X, y, ["kfirst"], C=C, class_weight=class_weight)
    np.testing.assert_array_equal(out.positions["kfirst"], fixed.positions["kfirst"])
    assert fixed.C_cv_results is None


RULE_PARAMS_HOSTILE = [
    (["kfirst"], {"aggregation_params": {"k": 99}}, ValueError,
     "k=99 exceeds the number of features (5)"),
    (["kfirst"], {"rule_params": {"kfirst": {"k": 6}}}, ValueError,
     "k=6 exceeds the number of features (5)"),
    (["borda"], {"aggregation_params": {"zz": 1}}, TypeError,
     "unknown parameter(s) ['zz'] for aggregation rule(s) borda; they take: no parameters"),
    (["kfirst", "schulze"], {"aggregation_params": {"zz": 1}}, TypeError,
     "unknown parameter(s) ['zz'] for aggregation rule(s) kfirst, schulze; they take: "
     "candidates, k, max_memory"),
    (["kfirst"], {"rule_params": {"schulze": {}}}, ValueError,
     "rule_params names 'schulze', not among the rules ['kfirst']"),
]


@pytest.mark.parametrize("methods, args, kind, message", RULE_PARAMS_HOSTILE,
                         ids=_ids(RULE_PARAMS_HOSTILE))
def test_rule_parameters_are_checked_before_any_elimination(methods, args, kind, message):
    from rankfusion.selection import svm_rfe_rankings

    X, y = _data()
    with pytest.raises(kind) as err:
        svm_rfe_rankings(X, y, methods, **args)
    assert str(err.value) == message


def test_rule_parameters_reach_their_rule_and_average_takes_none():
    from rankfusion.selection import svm_rfe_rankings

    X, y = _wide_frame()
    base = svm_rfe_rankings(X, y, ["kfirst"])
    shared = svm_rfe_rankings(X, y, ["average", "kfirst"], aggregation_params={"k": 5})
    own = svm_rfe_rankings(X, y, ["average", "kfirst"], rule_params={"kfirst": {"k": 5}})
    both = svm_rfe_rankings(X, y, ["kfirst"], aggregation_params={"k": 20},
                            rule_params={"kfirst": {"k": 5}})  # the rule's own wins
    assert not np.array_equal(shared.positions["kfirst"], base.positions["kfirst"])
    for out in (own, both):
        np.testing.assert_array_equal(out.positions["kfirst"], shared.positions["kfirst"])
    np.testing.assert_array_equal(shared.positions["average"], own.positions["average"])
