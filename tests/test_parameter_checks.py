"""Parameters checked where they enter, with messages that name them: job counts, sizes and
counts that must be ints (never bools or truncated floats), seeds that are checked even when
unused, estimators and class weights of SVMRFE, and arguments of the helper functions
(docs/design.md, 'Validation')."""

import numpy as np
import pandas as pd
import pytest

from rankfusion import SVMRFE, RankedLists, rankers
from rankfusion.datasets import artificial_bayes_error, make_artificial
from rankfusion.distances import max_distance
from rankfusion.evaluation import error_curve
from rankfusion.io import load_data
from rankfusion.rankers import rank_features, rfe_lists
from rankfusion.selection import EnsembleSelector


def _data():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 10)
    return rng.normal(size=(30, 4)) + y[:, None] * np.array([1.0, 0.5, 0.0, 0.0]), y


def _n_jobs_calls():
    X, y = _data()
    return [
        ("SVMRFE", lambda n: SVMRFE(n_jobs=n).fit(X, y)),
        ("EnsembleSelector", lambda n: EnsembleSelector(rankers=["relieff"], n_jobs=n).fit(X, y)),
        ("rfe_lists", lambda n: rfe_lists(X, y, n_jobs=n)),
        ("random_forest", lambda n: rank_features(X, y, [("random_forest", {"n_jobs": n})])),
        ("error_curve", lambda n: error_curve(SVMRFE(), X, y, n_features=[1], n_splits=2,
                                              n_jobs=n)),
    ]


@pytest.mark.parametrize("which", range(5))
@pytest.mark.parametrize("bad, kind, message", [
    ("2", TypeError, "n_jobs must be None or an int (-1 = every core), got '2'"),
    (1.5, TypeError, "n_jobs must be None or an int (-1 = every core), got 1.5"),
    (True, TypeError, "n_jobs must be None or an int (-1 = every core), got True"),
    (0, ValueError, "n_jobs must not be 0 (None or 1 = one job, -1 = every core)"),
])
def test_job_counts_are_ints_other_than_zero(which, bad, kind, message):
    what, call = _n_jobs_calls()[which]
    with pytest.raises(kind) as err:
        call(bad)
    if what in ("SVMRFE", "EnsembleSelector"):
        # the estimators' declared constraint (docs/design.md, 'Parameters'): the vocabulary's
        # message, the same content
        message = f"n_jobs must be None or a non-zero int (-1 = every core), got {bad!r}"
    assert message in str(err.value), what


@pytest.mark.parametrize("args, kind, message", [
    ({"k": 4.7}, TypeError, "k must be an int, got float"),
    ({"k": True}, TypeError, "k must be an int, got bool"),
    ({"k": -3}, ValueError, "k must be ≥ 1, got -3"),
    ({"k": "4"}, TypeError, "k must be an int, got str"),
    ({"penalty": float("nan")}, ValueError, "penalty must be finite, got nan"),
    ({"kendall": "maybe"}, TypeError, "kendall must be a bool, got 'maybe'"),
])
def test_max_distance_arguments(args, kind, message):
    full = {"k": 4, "kendall": True, "top_k": True, **args}
    with pytest.raises(kind) as err:
        max_distance(**full)
    assert str(err.value) == message


def test_max_distance_values():
    assert max_distance(4, kendall=False, top_k=False) == 8.0
    assert max_distance(4, kendall=True, top_k=False) == 6.0
    assert max_distance(3, kendall=True, top_k=True, penalty=0.5) == 12.0
    assert max_distance(np.int64(3), kendall="no", top_k="yes") == 12.0


@pytest.mark.parametrize("name, params, kind, message", [
    ("relieff", {"sigma": True}, TypeError, "sigma must be a number > 0, got True"),
    ("relieff", {"random_state": "a"}, TypeError,
     "random_state must be None, an int ≥ 0, a numpy SeedSequence or a numpy Generator; got "
     "str"),
    ("random_forest", {"n_estimators": True}, TypeError, "n_estimators must be an int, got bool"),
    ("mutual_info_classif", {"n_neighbors": True}, TypeError,
     "n_neighbors must be an int, got bool"),
    ("mifs", {"n_bins": 10 ** 6}, ValueError,
     "n_bins=1000000 exceeds the 30 samples: most bins would be empty, and the joint tables "
     "grow as n_bins² (the paper's setting is 10)"),
])
def test_ranker_parameters(name, params, kind, message):
    X, y = _data()
    with pytest.raises(kind) as err:
        rank_features(X, y, [(name, params)])
    assert message in str(err.value)


def test_mifs_keeps_its_ten_bins_on_small_data():
    X, y = _data()
    rows = [0, 1, 10, 11, 20, 21]
    assert rankers.mifs(X[rows], y[rows]).shape == (4,)


@pytest.mark.parametrize("params, kind, message", [
    ({"estimator": "svc"}, TypeError, "estimator must be None or a scikit-learn classifier "
     "with coef_ (e.g. LinearSVC()), got 'svc'"),
    ({"class_weight": {0: "a"}}, TypeError, "class_weight[0] must be a positive number, got 'a'"),
    ({"class_weight": {0: True}}, TypeError,
     "class_weight[0] must be a positive number, got True"),
])
def test_svmrfe_estimator_and_class_weights(params, kind, message):
    X, y = _data()
    with pytest.raises(kind) as err:
        SVMRFE(**params).fit(X, y)
    assert str(err.value) == message


class _FitOnly:
    """Has fit but is no scikit-learn estimator (no get_params: clone would fail)."""

    def fit(self, X, y):
        return self


class _ParamsOnly:
    def get_params(self, deep=True):
        return {}


@pytest.mark.parametrize("estimator", [_FitOnly(), _ParamsOnly()])
def test_svmrfe_estimator_needs_fit_and_get_params(estimator):
    X, y = _data()
    with pytest.raises(TypeError, match=r"^estimator must be None or a scikit-learn "
                                        r"classifier with coef_ \(e.g. LinearSVC\(\)\), got "):
        SVMRFE(estimator=estimator).fit(X, y)


@pytest.mark.parametrize("params", [{"n_jobs": 0}, {"n_jobs": "2"}])
def test_svmrfe_checks_n_jobs_before_choosing_C(monkeypatch, params):
    import rankfusion.selection.svm_rfe as module

    def never(*a, **k):  # pragma: no cover - must not be reached
        raise AssertionError("C was chosen before the parameters were checked")

    monkeypatch.setattr(module, "choose_C", never)
    X, y = _data()
    with pytest.raises((TypeError, ValueError), match="n_jobs"):
        SVMRFE(C="cv", **params).fit(X, y)


@pytest.mark.parametrize("column", [pd.Categorical(list("uv") * 15), ["1.5"] * 30,
                                    pd.array(["a"] * 30, dtype="string")])
def test_svmrfe_refuses_columns_that_are_not_numbers(column):
    X, y = _data()
    frame = pd.DataFrame({"a": column, "b": X[:, 1]})
    with pytest.raises(TypeError) as err:
        SVMRFE().fit(frame, y)
    assert str(err.value) == (f"X column 'a' is not numeric ({frame['a'].dtype}); SVM-RFE needs "
                              "numbers: encode nominal columns first (e.g. OneHotEncoder)")
    frame["a"] = X[:, 0] > 0        # bools and numbers are fine
    assert SVMRFE().fit(frame, y).n_features_ == 1


def test_positions_frame_with_a_repeated_list_name():
    with pytest.raises(ValueError) as err:
        RankedLists.from_positions(pd.DataFrame([[1, 2], [2, 1]], columns=["a", "a"]))
    assert str(err.value) == ("positions has the column name 'a' twice (columns 0 and 1, "
                              "0-based); column names must be unique")


@pytest.mark.parametrize("call, kind, message", [
    (lambda: artificial_bayes_error({}), TypeError,
     "dataset must be what make_artificial returns (a Bunch with means, sd and priors), got "
     "dict"),
    (lambda: load_data(None), TypeError,
     "source must be a path, '-' for standard input, or a DataFrame; got NoneType"),
    (lambda: load_data(3), TypeError,
     "source must be a path, '-' for standard input, or a DataFrame; got int"),
    (lambda: make_artificial(kind=True, n_classes=4, n_samples=40), TypeError,
     "kind must be an int in [1, 3], got True"),
    (lambda: make_artificial(kind=1.0, n_classes=4, n_samples=40), TypeError,
     "kind must be an int in [1, 3], got 1.0"),
    (lambda: make_artificial(kind=4, n_classes=4, n_samples=40), ValueError,
     "kind must be an int in [1, 3], got 4"),
])
def test_helper_arguments(call, kind, message):
    with pytest.raises(kind) as err:
        call()
    assert str(err.value) == message
