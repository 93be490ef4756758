"""Unknown classifier names are named, with the closest known one; a value that is no name
and no classifier is shown as it was given, not by its type alone."""

from __future__ import annotations

import numpy as np
import pytest

from rankfusion import SVMRFE
from rankfusion.evaluation import error_curve, make_classifier


@pytest.mark.parametrize("value, kind, match", [
    ("Naive_Bayes", ValueError, r"^unknown classifier 'Naive_Bayes'; did you mean "
                                r"'naive_bayes'\? known classifiers: adaboost, "),
    ("j4", ValueError, r"^unknown classifier 'j4'; did you mean 'j48'\?"),
    ("linear-svm", ValueError, r"^unknown classifier 'linear-svm'; did you mean 'linear_svm'\?"),
    ("svm", ValueError, r"^unknown classifier 'svm'; did you mean '(smo|linear_svm)'\?"),
    (["svm"], TypeError, r"got \['svm'\] \(list\)$"),
    (3, TypeError, r"got 3 \(int\)$"),
    (None, TypeError, r"got None \(NoneType\)$"),
])
def test_unknown_classifier_is_named(value, kind, match):
    with pytest.raises(kind, match=match):
        make_classifier(value)


def test_protocols_name_the_unknown_classifier_before_any_work():
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(20, 3)), np.arange(20) % 2
    with pytest.raises(ValueError, match=r"unknown classifier 'naive_bayse'; did you mean "
                                         r"'naive_bayes'"):
        error_curve(SVMRFE(), X, y, n_features=[1], n_splits=2, classifier="naive_bayse")
