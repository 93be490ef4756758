"""The selectors declare every parameter as data (docs/design.md, 'Parameters'): one
``_parameter_constraints`` entry per ``__init__`` parameter, checked once at fit; missing values
pass exactly when every chosen ranker takes them; ``criterion=`` spells the MSVM-RFE runs."""

import inspect
import warnings

import numpy as np
import pytest
from sklearn.utils.estimator_checks import check_estimator

from rankfusion import SVMRFE, EnsembleSelector
from rankfusion._utils.constraints import describe, toml_types


def _data(seed=0, n=30, p=6):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2], n // 3)
    X = rng.normal(size=(n, p)) + y[:, None] * np.linspace(1.0, 0.0, p)
    return X, y


# ---------------------------------------------------------------------------- declarations
@pytest.mark.parametrize("cls", [EnsembleSelector, SVMRFE])
def test_every_parameter_is_declared(cls):
    params = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
    assert list(cls._parameter_constraints) == params or set(cls._parameter_constraints) == set(
        params)
    for name, cs in cls._parameter_constraints.items():
        assert describe(cs), name  # each has a phrase for messages and the schema


@pytest.mark.parametrize("cls", [EnsembleSelector, SVMRFE])
def test_every_default_satisfies_its_constraints(cls):
    from rankfusion._utils.constraints import validate_params

    validate_params(cls._parameter_constraints, cls().get_params(deep=False))


def test_toml_types_of_a_few_parameters():
    c = EnsembleSelector._parameter_constraints
    assert toml_types(c["n_bootstraps"]) == ["int"]
    assert toml_types(c["n_features_to_select"]) == ["int", "float", "str"]
    assert toml_types(SVMRFE._parameter_constraints["C"]) == ["float", "str"]


# a new user's mistakes: each one clear error naming the argument
ENSEMBLE_HOSTILE = [
    ({"n_bootstraps": True}, TypeError, "n_bootstraps must be an int ≥ 0, got True"),
    ({"n_bootstraps": float("nan")}, TypeError, "n_bootstraps must be an int ≥ 0, got nan"),
    ({"n_bootstraps": "10"}, TypeError, "n_bootstraps must be an int ≥ 0, got '10'"),
    ({"sample_fraction": float("nan"), "n_bootstraps": 2}, ValueError,
     "sample_fraction must be a number in (0, 1], got nan"),
    ({"sample_fraction": -0.5, "n_bootstraps": 2}, ValueError,
     "sample_fraction must be a number in (0, 1], got -0.5"),
    ({"cv": 2.0}, TypeError, "cv must be an int ≥ 2, got 2.0"),
    ({"weight_k": 0}, ValueError, "weight_k must be None, an int ≥ 1 or a number in (0, 1], "
     "got 0"),
    ({"normalize": "MinMax"}, ValueError, "normalize must be None, 'minmax' or 'rank', got "
     "'MinMax'"),
    ({"progress": 1}, TypeError, "progress must be a bool, got 1"),
    ({"n_jobs": 0}, ValueError, "n_jobs must be None or a non-zero int (-1 = every core), got 0"),
    ({"n_jobs": 1.5}, TypeError, "n_jobs must be None or a non-zero int (-1 = every core), got "
     "1.5"),
    ({"tol": -0.1, "n_features_to_select": "k-step"}, ValueError,
     "tol must be None or a number ≥ 0, got -0.1"),
    ({"size_rule": "1se", "n_features_to_select": "k-step"}, ValueError,
     "size_rule must be 'best' or 'one_se', got '1se'"),
    ({"aggregation_params": {1: 2}}, ValueError, "aggregation_params must be None or a dict"),
    ({"estimators": 3}, TypeError, "estimators must be None or a classifier name, a "
     "classifier, a list of them or a dict of them, got 3"),
    ({"rankers": 3}, TypeError, "rankers must be a list of rankers"),
    ({"rankers": [("relieff", {"n_neighbors": 0})]}, ValueError,
     "rankers[0] ('relieff'): n_neighbors must be an int ≥ 1, got 0"),
    ({"rankers": [("relieff", {"n_neighbors": True})]}, TypeError,
     "rankers[0] ('relieff'): n_neighbors must be an int ≥ 1, got True"),
    ({"rankers": ["f_classif", ("mifs", {"n_bins": 2.5})]}, TypeError,
     "rankers[1] ('mifs'): n_bins must be an int ≥ 1, got 2.5"),
    ({"rankers": [("cfs", {"score": "merrit"})]}, ValueError,
     "rankers[0] ('cfs'): score must be 'order' or 'merit', got 'merrit'"),
    ({"rankers": [("info_gain", {"binarize": "maybe"})]}, TypeError,
     "rankers[0] ('info_gain'): binarize must be a bool, got 'maybe'"),
    # cross-parameter checks, each documented in _check_params
    ({"sample_fraction": 0.5}, ValueError, "sample_fraction=0.5 applies to bootstrap samples"),
    ({"tol": 0.01}, ValueError, "tol and size_rule apply to a searched size"),
    ({"aggregation": "fuzzy:EW", "n_bootstraps": 1}, ValueError, "set n_bootstraps ≥ 2"),
    ({"aggregation": "q3_sd", "list_weights": [1, 1]}, ValueError, "takes no list weights"),
]


@pytest.mark.parametrize("params, kind, message", ENSEMBLE_HOSTILE)
def test_ensemble_hostile_parameters(params, kind, message):
    X, y = _data()
    kw = {"rankers": ("f_classif", "info_gain"), **params}
    with pytest.raises(kind) as err:
        EnsembleSelector(**kw).fit(X, y)
    assert message in str(err.value), str(err.value)


def test_a_bad_value_never_reaches_the_caller_data():
    X, y = _data()
    before = X.copy()
    with pytest.raises(TypeError):
        EnsembleSelector(rankers=("f_classif",), n_bootstraps="3").fit(X, y)
    np.testing.assert_array_equal(X, before)


# ---------------------------------------------------------------------------- missing values
def test_allow_nan_follows_the_chosen_rankers():
    def score(X, y):
        return np.nan_to_num(np.nanvar(X, axis=0))

    def tolerant(X, y):
        return np.nan_to_num(np.nanvar(X, axis=0))

    tolerant.allow_nan = True
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.tree import DecisionTreeClassifier

    cases = [
        (("info_gain", "relieff", "nlc"), True),
        (("info_gain", "f_classif"), False),
        (("f_classif",), False),
        ((("relieff", {"n_neighbors": 3}), "mifs", "cfs", "ilfs"), True),
        (("svm_rfe",), False),
        ((score,), False),               # a user callable: False unless it says otherwise
        ((tolerant,), True),             # ... by an attribute allow_nan = True
        ((tolerant, "mutual_info_classif"), False),
        ((DecisionTreeClassifier(),), True),   # an estimator: its own tag
        ((HistGradientBoostingClassifier(),), True),
        (("no_such_ranker",), False),
    ]
    for rankers, allowed in cases:
        tags = EnsembleSelector(rankers=rankers).__sklearn_tags__()
        assert tags.input_tags.allow_nan is allowed, rankers


def test_nan_is_refused_naming_the_rankers_that_cannot_take_it():
    X, y = _data()
    X[2, 1] = np.nan
    before = X.copy()
    with pytest.raises(ValueError, match=r"Input X contains NaN .* ranker\(s\) f_classif "
                                         r"cannot take"):
        EnsembleSelector(rankers=("info_gain", "f_classif")).fit(X, y)
    np.testing.assert_array_equal(X, before)
    sel = EnsembleSelector(rankers=("info_gain", "relieff"), n_features_to_select=2).fit(X, y)
    assert np.isfinite(sel.scores_).all()


def test_check_estimator_on_a_ranker_without_missing_values():
    check_estimator(EnsembleSelector(rankers=["f_classif"], n_features_to_select=1))


def test_check_estimator_on_rankers_that_take_missing_values():
    sel = EnsembleSelector(rankers=["info_gain", "mifs"], n_bootstraps=2,
                           n_features_to_select=1, random_state=0)
    assert sel.__sklearn_tags__().input_tags.allow_nan is True
    check_estimator(sel)


# ---------------------------------------------------------------------------- criterion
@pytest.mark.parametrize("criterion", ["crammer_singer", "weston_watkins"])
def test_criterion_and_the_old_decomposition_spelling_give_the_same_fit(criterion):
    X, y = _data(3, n=45, p=8)
    new = SVMRFE(criterion=criterion, n_features_to_select=3, random_state=1).fit(X, y)
    with pytest.warns(FutureWarning, match=f"use criterion='{criterion}'"):
        old = SVMRFE(decomposition=criterion, n_features_to_select=3, random_state=1).fit(X, y)
    np.testing.assert_array_equal(new.positions_, old.positions_)
    np.testing.assert_array_equal(new.ranking_, old.ranking_)
    assert new.lists_.list_names.tolist() == old.lists_.list_names.tolist() == [criterion]
    for a, b in zip(new.rfe_results_, old.rfe_results_):
        np.testing.assert_array_equal(a.ranking, b.ranking)


def test_binary_criterion_is_the_default_and_changes_nothing():
    X, y = _data(4, n=45, p=8)
    a = SVMRFE(n_features_to_select=3).fit(X, y)
    b = SVMRFE(criterion="binary", decomposition="ovo", n_features_to_select=3).fit(X, y)
    np.testing.assert_array_equal(a.positions_, b.positions_)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        SVMRFE(criterion="binary", decomposition="ova").fit(X, y)


@pytest.mark.parametrize("criterion", ["crammer_singer", "weston_watkins"])
def test_svm_rfe_rankings_criterion(criterion):
    from rankfusion.selection import svm_rfe_rankings

    X, y = _data(5, n=45, p=8)
    new = svm_rfe_rankings(X, y, ["kfirst"], criterion=criterion, random_state=2)
    with pytest.warns(FutureWarning):
        old = svm_rfe_rankings(X, y, ["kfirst"], decomposition=criterion, random_state=2)
    assert list(new.positions) == list(old.positions) == [criterion]
    np.testing.assert_array_equal(new.positions[criterion], old.positions[criterion])


def test_svm_rfe_work_takes_the_criterion():
    from rankfusion.selection import svm_rfe_work

    new = svm_rfe_work(30, 25, 3, criterion="crammer_singer", C="cv", cv=3)
    with pytest.warns(FutureWarning):
        old = svm_rfe_work(30, 25, 3, decomposition="crammer_singer", C="cv", cv=3)
    assert new.counts == old.counts and "multiclass SVM fits" in new.counts


def test_a_fits_seed_entropy_is_a_valid_random_state():
    # seed_entropy_ is 128 bits: it must repeat the fit (docs/design.md, 'Seeds')
    X, y = _data()
    first = EnsembleSelector(rankers=("f_classif",), n_bootstraps=2, n_features_to_select=2
                             ).fit(X, y)
    again = EnsembleSelector(rankers=("f_classif",), n_bootstraps=2, n_features_to_select=2,
                             random_state=int(first.seed_entropy_)).fit(X, y)
    np.testing.assert_array_equal(first.scores_, again.scores_)


def test_nan_with_a_single_callable_ranker_names_it():
    def plain(X, y):
        return np.nan_to_num(np.nanvar(X, axis=0))

    X, y = _data()
    X[0, 0] = np.nan
    with pytest.raises(ValueError, match=r"ranker\(s\) plain cannot take"):
        EnsembleSelector(rankers=plain).fit(X, y)
