"""The registered ranker "svm_rfe" (one list, never a consensus) and the several-lists form
(MultiListRanker, ranker_lists)."""

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_selection import RFE
from sklearn.svm import SVC

from rankfusion import aggregate
from rankfusion.lists import RankedLists
from rankfusion.rankers import (
    MultiListRanker,
    available_list_producers,
    get_ranker,
    joint_rfe,
    list_producer,
    ranker_lists,
    rfe_lists,
    svm_rfe_lists,
)


def data(seed=0, n=90, p=10, labels=("ALL", "AML", "MLL")):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.array(labels), n // len(labels))
    X = rng.normal(size=(y.shape[0], p))
    for k, lab in enumerate(labels):
        X[y == lab, k] += 2.0
    return X, y


def test_binary_ranker_is_sklearn_rfe():
    X, y = data(1, n=60, labels=("ALL", "AML"))
    ref = RFE(SVC(kernel="linear"), n_features_to_select=1, step=1).fit(X, y).ranking_
    np.testing.assert_array_equal(get_ranker("svm_rfe")(X, y, step=1), 10 - ref)


@pytest.mark.parametrize("criterion", ["average", "weston_watkins"])
def test_multiclass_ranker_is_the_joint_ranking_not_a_consensus(criterion):
    X, y = data(2)
    scores = get_ranker("svm_rfe")(X, y, criterion=criterion)
    joint = joint_rfe(X, y, criterion=criterion).ranking
    np.testing.assert_array_equal(scores, 10 - joint)
    if criterion == "average":
        # the joint Average RFE is scikit-learn's RFE on an OVO SVC ranked by mean |w|
        ref = RFE(SVC(kernel="linear"), n_features_to_select=1, step=1,
                  importance_getter=lambda e: np.abs(e.coef_).mean(axis=0)).fit(X, y).ranking_
        np.testing.assert_array_equal(get_ranker("svm_rfe")(X, y, step=1), 10 - ref)


def test_crammer_singer_ranker_is_deterministic_with_a_seed():
    X, y = data(3)
    f = get_ranker("svm_rfe")
    a = f(X, y, criterion="crammer_singer", random_state=4)
    np.testing.assert_array_equal(a, f(X, y, criterion="crammer_singer", random_state=4))
    np.testing.assert_array_equal(
        a, 10 - joint_rfe(X, y, criterion="crammer_singer", random_state=4).ranking)


def test_producer_gives_one_list_per_problem_named_for_an_ensemble():
    X, y = data(4)
    lists = ranker_lists("svm_rfe", X, y)
    assert lists.list_names.tolist() == ["svm_rfe[ALL vs AML]", "svm_rfe[ALL vs MLL]",
                                         "svm_rfe[AML vs MLL]"]
    ref, results = rfe_lists(X, y)
    np.testing.assert_array_equal(lists.positions, ref.positions)
    for j, res in enumerate(results):  # each list is that problem's RFE ranking
        np.testing.assert_array_equal(lists.positions[:, j], res.ranking)
    ova = ranker_lists("svm_rfe", X, y, decomposition="ova")
    assert ova.list_names.tolist() == ["svm_rfe[ALL vs rest]", "svm_rfe[AML vs rest]",
                                       "svm_rfe[MLL vs rest]"]
    # the ensemble selector combines them; the ranker itself never does
    assert aggregate(lists, "borda").ranks.shape == (10,)


def test_single_list_form_and_feature_names():
    X, y = data(5)
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(10)])
    one = ranker_lists("svm_rfe", frame, y, expand=False)
    assert one.list_names.tolist() == ["svm_rfe"] and one.features[0] == "g0"
    np.testing.assert_array_equal(one.positions[:, 0], joint_rfe(X, y).ranking)
    info = ranker_lists("info_gain", frame, y)  # a one-list ranker: its list, named after it
    assert info.list_names.tolist() == ["info_gain"] and info.n_features == 10
    assert ranker_lists("svm_rfe", frame, y).features.tolist() == list(frame.columns)


def test_registry_of_producers():
    assert "svm_rfe" in available_list_producers()
    assert list_producer("svm_rfe") is svm_rfe_lists
    assert isinstance(svm_rfe_lists, MultiListRanker)
    assert list_producer("relieff") is None
    assert isinstance(svm_rfe_lists(*data(6), step=3), RankedLists)


@pytest.mark.parametrize("call, exc, match", [
    (lambda X, y: ranker_lists("nope", X, y), ValueError, "unknown ranker"),
    (lambda X, y: ranker_lists(3, X, y), TypeError, "ranker"),
    (lambda X, y: list_producer("nope"), ValueError, "unknown ranker"),
    (lambda X, y: ranker_lists("svm_rfe", X, y, decomposition="ecoc"), ValueError,
     "decomposition"),
    (lambda X, y: get_ranker("svm_rfe")(X, y, criterion="median"), ValueError, "criterion"),
    (lambda X, y: get_ranker("svm_rfe")(X, y, C=0), ValueError, "C must"),
    (lambda X, y: get_ranker("svm_rfe")(X, y, step=0), ValueError, "step"),
    (lambda X, y: get_ranker("svm_rfe")(X, y, random_state=-1, criterion="crammer_singer"),
     ValueError, "random_state"),
    (lambda X, y: get_ranker("svm_rfe")(X[:, :0], y), ValueError, "empty"),
    (lambda X, y: ranker_lists("svm_rfe", X, y[:-1]), ValueError, "sample|label|length"),
    (lambda X, y: ranker_lists("svm_rfe", np.where(X > 2, np.nan, X), y), ValueError,
     "missing|NaN"),
    (lambda X, y: ranker_lists("svm_rfe", X, y, kk=1), TypeError, "kk"),
])
def test_hostile_inputs(call, exc, match):
    X, y = data(7)
    X_before = X.copy()
    with pytest.raises(exc, match=match):
        call(X, y)
    np.testing.assert_array_equal(X, X_before)
