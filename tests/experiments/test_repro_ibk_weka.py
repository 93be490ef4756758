"""The Weka-like 1-NN (``knn1_weka``, :class:`rankfusion.selection.weka_like.WekaIB1`) against
Weka 3.6's own ``IBk -K 1`` predictions on a fixture whose attributes have very different
scales (``data/ibk/README.md`` says how it was made): Weka normalises the attributes, and so
does ours; scikit-learn's plain 1-NN (the ``knn1`` of the Bouaguel configurations) does not,
and predicts differently here. Its class distribution (``predict_proba``, what the Bouaguel AUCs
are computed from) is checked against Weka's ``-distribution`` output and its ROC areas on a
second fixture full of equally near neighbours of both classes."""

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.io import arff
from sklearn.metrics import roc_auc_score
from sklearn.neighbors import KNeighborsClassifier

from rankfusion.selection.weka_like import WekaIB1

DATA = Path(__file__).parent / "data" / "ibk"


def _load(name):
    d, _ = arff.loadarff(DATA / name)
    return np.c_[d["a0"], d["a1"], d["a2"]], d["class"].astype(str)


def _weka_predictions():
    out = []
    for line in (DATA / "weka_ibk_predictions.txt").read_text().splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0].isdigit():
            out.append(parts[2].split(":")[1])
    return np.array(out)


def test_weka_like_1nn_predicts_as_weka_ibk():
    Xtr, ytr = _load("train.arff")
    Xte, _ = _load("test.arff")
    weka = _weka_predictions()
    assert weka.shape == (10,)
    np.testing.assert_array_equal(WekaIB1().fit(Xtr, ytr).predict(Xte), weka)


def test_unnormalised_1nn_differs_from_weka_on_the_fixture():
    # the fixture separates the two: a plain Euclidean 1-NN disagrees with IBk
    Xtr, ytr = _load("train.arff")
    Xte, _ = _load("test.arff")
    plain = KNeighborsClassifier(n_neighbors=1).fit(Xtr, ytr).predict(Xte)
    assert (plain != _weka_predictions()).sum() >= 2


def _load_ties(name):
    d, _ = arff.loadarff(DATA / name)
    X = pd.DataFrame({"n0": pd.Categorical(d["n0"].astype(str), categories=["x", "y", "z"]),
                      "a1": d["a1"], "a2": d["a2"]})
    return X, d["class"].astype(str)


def _weka_distribution(name):
    """(predicted labels, distribution rows) from ``-p 0 -distribution`` output."""
    pred, dist = [], []
    for line in (DATA / name).read_text().splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[0].isdigit():
            pred.append(parts[2].split(":")[1])
            dist.append([float(v) for v in parts[-1].replace("*", "").split(",")])
    return np.array(pred), np.array(dist)


def _weka_roc_areas(name):
    """Per-class ROC area from ``-i`` output, by class label."""
    out = {}
    text = (DATA / name).read_text()
    block = text.split("Detailed Accuracy By Class")[1].split("Weighted Avg.")[0]
    for line in block.splitlines():
        parts = line.split()
        if len(parts) == 7 and re.fullmatch(r"[ab]", parts[-1]):
            out[parts[-1]] = float(parts[-2])
    return out


def test_weka_like_1nn_class_distribution_is_ibks_with_ties():
    Xtr, ytr = _load_ties("ties_train.arff")
    Xte, yte = _load_ties("ties_test.arff")
    pred, dist = _weka_distribution("ties_weka_distribution.txt")
    assert dist.shape == (20, 2)
    # the fixture exercises ties: several rows are not a single neighbour's 0.988 / 0.012
    assert np.sum(np.isclose(dist.max(axis=1), 0.5)) >= 3
    assert np.sum(np.isclose(dist.max(axis=1), 0.747)) >= 2
    model = WekaIB1().fit(Xtr, ytr)
    proba = model.predict_proba(Xte)
    np.testing.assert_allclose(proba, dist, atol=5e-4)  # Weka prints 3 decimals
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    np.testing.assert_array_equal(model.predict(Xte), pred)
    areas = _weka_roc_areas("ties_weka_evaluation.txt")
    for c, cls in enumerate(model.classes_):
        assert roc_auc_score(yte == cls, proba[:, c]) == pytest.approx(areas[cls], abs=5e-4)


def test_weka_like_1nn_auc_as_weka_on_the_scales_fixture():
    Xtr, ytr = _load("train.arff")
    Xte, yte = _load("test.arff")
    proba = WekaIB1().fit(Xtr, ytr).predict_proba(Xte)
    # one neighbour among 30 training rows of two classes: 31/32 and 1/32
    np.testing.assert_allclose(np.sort(np.unique(np.round(proba, 12))), [1 / 32, 31 / 32])
    areas = _weka_roc_areas("weka_ibk_evaluation.txt")
    assert areas == {"a": 0.833, "b": 0.833}
    for c, cls in enumerate(["a", "b"]):
        assert roc_auc_score(yte == cls, proba[:, c]) == pytest.approx(areas[cls], abs=5e-4)


@pytest.mark.parametrize("bad, exc, match", [
    (np.zeros((2, 2)), ValueError, "2 features, expected 3"),
    ("not an array", TypeError, "X must be numeric"),
    ([[1.0, 2.0, "x"]], TypeError, "X must be numeric"),
    (np.array([[0.0, np.inf, 5.0]]), ValueError, "infinite"),
    (np.array([[0.0, -np.inf, 5.0]]), ValueError, "infinite"),
])
def test_weka_like_1nn_predict_proba_hostile_inputs(bad, exc, match):
    Xtr, ytr = _load("train.arff")
    model = WekaIB1().fit(Xtr, ytr)
    with pytest.raises(exc, match=match):
        model.predict_proba(bad)


def test_weka_like_1nn_predict_proba_needs_fit_and_keeps_input():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        WekaIB1().predict_proba(np.zeros((1, 3)))
    Xtr, ytr = _load("train.arff")
    Xte, _ = _load("test.arff")
    before = Xte.copy()
    WekaIB1().fit(Xtr, ytr).predict_proba(Xte)
    np.testing.assert_array_equal(Xte, before)
