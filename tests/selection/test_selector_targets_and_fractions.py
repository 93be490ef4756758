"""The selectors refuse targets that are not class labels before any work, with the shared
message (docs/design.md, 'Validation'), instead of scikit-learn's warning or its "Unknown label
type": an identifier, an age, a measurement, dates."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from rankfusion import SVMRFE, EnsembleSelector

X = np.random.default_rng(0).normal(size=(40, 5))

NOT_CLASSES = [
    (np.arange(40), "a different whole number in every sample"),
    (np.arange(100, 140), "a different whole number in every sample"),
    (np.linspace(20, 60, 40), "looks continuous"),
    (np.random.default_rng(1).normal(size=40), "looks continuous"),
    (pd.Series(np.arange(40) * 1.0), "a different whole number in every sample"),
    (pd.date_range("2024-01-01", periods=40).to_numpy(), "dates or times"),
    (np.array(pd.date_range("2024-01-01", periods=40).to_pydatetime(), dtype=object),
     "dates or times"),
]


CONTINUOUS = [row for row in NOT_CLASSES if row[1] == "looks continuous"]


@pytest.mark.parametrize("make", [lambda: EnsembleSelector(rankers=["f_classif"]),
                                  lambda: SVMRFE()], ids=["ensemble", "svm_rfe"])
@pytest.mark.parametrize("y, message", [r for r in NOT_CLASSES if r[1] != "looks continuous"])
def test_targets_that_are_not_classes_are_refused(make, y, message):
    est = make()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no scikit-learn warning first
        with pytest.raises(ValueError, match=r"^y .*" + message):
            est.fit(X, y)
    assert not hasattr(est, "classes_")


@pytest.mark.parametrize("y, message", CONTINUOUS)
def test_continuous_target_with_a_classification_ranker_is_refused(y, message):
    # task="auto" takes it as regression (docs/design.md, 'Tasks'); f_classif cannot
    est = EnsembleSelector(rankers=["f_classif"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no scikit-learn warning first
        with pytest.raises(ValueError, match=r"^y .*" + message):
            est.fit(X, y)
    assert not hasattr(est, "classes_")


@pytest.mark.parametrize("y", [np.arange(40) % 3, np.repeat(["a", "b"], 20),
                               np.repeat([0.0, 1.0], 20), np.repeat([True, False], 20)])
def test_class_labels_still_fit(y):
    for est in (EnsembleSelector(rankers=["f_classif"], n_features_to_select=2),
                SVMRFE(n_features_to_select=2)):
        est.fit(X, y)
        assert len(est.classes_) == len(np.unique(y))


@pytest.mark.parametrize("fraction", [0.5, 0.001, 0.999])
def test_sample_fraction_without_bootstraps_is_refused(fraction):
    # it would do nothing: every ranker runs once on all the data
    with pytest.raises(ValueError, match=rf"sample_fraction={fraction} applies to bootstrap "
                                         r"samples, but n_bootstraps=0"):
        EnsembleSelector(rankers=["f_classif"], sample_fraction=fraction).fit(
            X, np.repeat([0, 1], 20))
