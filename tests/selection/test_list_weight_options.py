"""Accuracy-based list weights that separate the lists (above chance, softmax, rank), beside
the unchanged weights of Bouaguel et al. (2013)."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB

from rankfusion import EnsembleSelector, RankedLists
from rankfusion.selection.list_weights import (
    ACCURACY_WEIGHTINGS,
    accuracy_weights,
    chance_accuracy,
    list_accuracies,
    parse_weighting,
    resolve_list_weights,
    weights_from_accuracies,
)
from rankfusion.selection.resampling import cv_folds

ACC = np.array([0.9, 0.8, 0.6, 0.5])


def test_formulas_on_a_fixed_case():
    np.testing.assert_allclose(weights_from_accuracies(ACC, "accuracy"), ACC / 2.8)
    np.testing.assert_allclose(weights_from_accuracies(ACC, "accuracy_above_chance",
                                                       chance=0.6), [0.6, 0.4, 0.0, 0.0])
    z = np.exp(ACC / 0.1)
    np.testing.assert_allclose(weights_from_accuracies(ACC, "accuracy_softmax:0.1"),
                               z / z.sum())
    z = np.exp(ACC / 0.01)
    np.testing.assert_allclose(weights_from_accuracies(ACC, "accuracy_softmax"), z / z.sum())
    np.testing.assert_allclose(weights_from_accuracies(ACC, "accuracy_rank"),
                               [0.4, 0.3, 0.2, 0.1])
    # tied accuracies share their mean rank
    np.testing.assert_allclose(weights_from_accuracies([0.7, 0.7, 0.5], "accuracy_rank"),
                               [2.5, 2.5, 1.0] / np.float64(6.0))


def test_softmax_limits_and_no_overflow():
    flat = weights_from_accuracies(ACC, "accuracy_softmax:1e6")
    np.testing.assert_allclose(flat, 0.25, atol=1e-6)
    sharp = weights_from_accuracies(ACC, "accuracy_softmax:1e-6")
    np.testing.assert_allclose(sharp, [1.0, 0.0, 0.0, 0.0])
    assert np.isfinite(sharp).all()


def test_nobody_above_chance_gives_uniform_weights_with_a_warning():
    with pytest.warns(UserWarning, match="no list's accuracy is above chance"):
        w = weights_from_accuracies([0.5, 0.6], "accuracy_above_chance", chance=0.6)
    np.testing.assert_allclose(w, [0.5, 0.5])


def test_chance_is_the_majority_class_rate():
    assert chance_accuracy([0, 0, 0, 1]) == 0.75
    assert chance_accuracy(np.array(["a", "b", "b", "c", "c", "c"])) == 0.5


def test_parse_weighting():
    assert parse_weighting("accuracy") == ("accuracy", None)
    assert parse_weighting("accuracy_softmax") == ("accuracy_softmax", 0.01)
    assert parse_weighting("accuracy_softmax:0.5") == ("accuracy_softmax", 0.5)
    assert set(ACCURACY_WEIGHTINGS) == {"accuracy", "accuracy_above_chance",
                                        "accuracy_softmax", "accuracy_rank"}


@pytest.mark.parametrize("value, exc, match", [
    ("nope", ValueError, "list_weights must be None, one of 'accuracy'"),
    ("accuracy:2", ValueError, "list_weights must be"),
    ("accuracy_rank:2", ValueError, "list_weights must be"),
    ("accuracy_softmax:", ValueError, "list_weights must be"),
    ("accuracy_softmax:abc", ValueError, "list_weights must be"),
    ("accuracy_softmax:0", ValueError, "temperature T > 0"),
    ("accuracy_softmax:-1", ValueError, "temperature T > 0"),
    ("accuracy_softmax:inf", ValueError, "temperature T > 0"),
    ("accuracy_softmax:nan", ValueError, "temperature T > 0"),
    (3, TypeError, "list_weights must be"),
])
def test_hostile_weighting_names(value, exc, match):
    with pytest.raises(exc, match=match):
        parse_weighting(value)


@pytest.mark.parametrize("acc, kw, match", [
    ([1.2, 0.5], {}, r"accuracies in \[0, 1\]"),
    ([np.nan, 0.5], {}, r"accuracies in \[0, 1\]"),
    ([-0.1, 0.5], {}, r"accuracies in \[0, 1\]"),
    ([], {}, "one accuracy per list"),
    ([[0.5, 0.5]], {}, "one accuracy per list"),
    ([0.5, 0.6], {"weighting": "accuracy_above_chance"}, "chance must be"),
    ([0.5, 0.6], {"weighting": "accuracy_above_chance", "chance": 1.5}, "chance must be"),
    ([0.5, 0.6], {"weighting": "accuracy_above_chance", "chance": True}, "chance must be"),
    ([0.0, 0.0], {"weighting": "accuracy"}, "every list's accuracy is 0"),
])
def test_hostile_accuracies(acc, kw, match):
    acc_before = np.array(acc, dtype=float).copy() if len(acc) else None
    arr = np.array(acc, dtype=float)
    with pytest.raises(ValueError, match=match):
        weights_from_accuracies(arr, **kw)
    if acc_before is not None:
        np.testing.assert_array_equal(arr, acc_before)


def test_weights_from_accuracies_refuses_text():
    with pytest.raises(TypeError, match="acc"):
        weights_from_accuracies(["a", "b"])


def _bc():
    return load_breast_cancer(return_X_y=True)


RANKERS = ("f_classif", "chi2", "info_gain", "symmetric_uncertainty", "gain_ratio")


def test_default_stays_the_papers_bit_for_bit():
    X, y = _bc()
    lists = RankedLists.from_scores(np.column_stack(
        [np.abs(np.corrcoef(X.T, y)[-1, :-1]), X.var(axis=0), X.mean(axis=0)]))
    groups = {"a": [0], "b": [1], "c": [2]}
    seq = np.random.SeedSequence(3)
    folds = cv_folds(y, 5, random_state=int(seq.generate_state(1)[0] >> 1))
    acc = list_accuracies(lists, X, y, GaussianNB(), 4, folds)
    w = resolve_list_weights("accuracy", lists, groups, X, y, {"nb": GaussianNB()}, 4,
                             random_state=seq)
    np.testing.assert_array_equal(w, acc / acc.sum())
    np.testing.assert_array_equal(w, accuracy_weights(lists, X, y, GaussianNB(), 4, folds))
    for name in ("accuracy_above_chance", "accuracy_softmax:0.05", "accuracy_rank"):
        got = resolve_list_weights(name, lists, groups, X, y, {"nb": GaussianNB()}, 4,
                                   random_state=np.random.SeedSequence(3))
        np.testing.assert_array_equal(
            got, weights_from_accuracies(acc, name, chance=chance_accuracy(y)))


def test_the_new_weightings_spread_the_breast_cancer_weights():
    X, y = _bc()
    spread = {}
    for lw in ("accuracy", "accuracy_above_chance", "accuracy_softmax", "accuracy_rank"):
        sel = EnsembleSelector(rankers=RANKERS, list_weights=lw, aggregation="borda",
                               n_features_to_select=5, random_state=0).fit(X, y)
        w = sel.list_weights_
        assert w.sum() == pytest.approx(1.0)
        spread[lw] = w.max() - w.min()
    # the paper's weights are nearly uniform (max − min below 0.01 for five lists)
    assert spread["accuracy"] < 0.01
    # measured (max − min): accuracy 0.0048 (0.1975–0.2023), above chance 0.0144 (3×),
    # softmax (T = 0.01) 0.419 (87×), rank 0.267 (56×)
    assert spread["accuracy_above_chance"] > 2 * spread["accuracy"]
    assert spread["accuracy_softmax"] > 20 * spread["accuracy"]
    assert spread["accuracy_rank"] > 20 * spread["accuracy"]


@pytest.mark.parametrize("bad", ["accuracy_softmax:0", "weights", "accuracy:1"])
def test_the_selector_refuses_bad_names_up_front(bad):
    X, y = _bc()
    with pytest.raises(ValueError, match="list_weights"):
        EnsembleSelector(rankers=("f_classif", "chi2"), list_weights=bad).fit(X, y)


def test_the_selector_accepts_every_name():
    from rankfusion._utils.constraints import check_param

    constraint = EnsembleSelector._parameter_constraints["list_weights"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in (*ACCURACY_WEIGHTINGS, "accuracy_softmax:0.2"):
            check_param("list_weights", name, constraint)
