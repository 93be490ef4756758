"""The best size among tied maxima (``SubsetCurve.best_n_features``).

:func:`rankfusion.selection.choose_size` documents the *best* k as "the one with the highest
score, ties to the smaller k" (robust-FS paper, Algorithm 2; Ruiz et al. 2003, §4), scores
compared rounded to 12 decimals, and the one-standard-error rule (Hastie, Tibshirani &
Friedman, *The Elements of Statistical Learning*, §7.10) takes its margin from that best k's
folds. Oracle: the tied sizes are known by construction (fold scores that are dyadic
fractions, so every mean is exact), and the expected size, threshold and choice are
recomputed here from those definitions, with the tied maxima at several positions of the
grid and the sizes given out of order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rankfusion.selection.subset_size import choose_size, search_size

#: Four folds' scores of equal mean 0.75 and different spreads (sd 0, 0.204, 0.289), and two
#: lower curves (means 0.5 and 0.625); every value is a dyadic fraction, so the means are
#: exact and the maxima tie exactly.
_TOP = {
    "flat": [0.75, 0.75, 0.75, 0.75],
    "mid": [0.5, 1.0, 0.75, 0.75],
    "wide": [0.5, 1.0, 0.5, 1.0],
}
_LOW = {"low": [0.5, 0.5, 0.5, 0.5], "near": [0.5, 0.75, 0.5, 0.75]}
_SIZES = [1, 2, 4, 8, 16]


def _matrix(columns):
    """The fold × size matrix with ``columns[i]`` (a key of _TOP or _LOW) at size i."""
    table = {**_TOP, **_LOW}
    return np.array([table[c] for c in columns], dtype=np.float64).T


@pytest.mark.parametrize(
    "columns",
    [
        ("low", "wide", "near", "flat", "low"),  # maxima at the 2nd and 4th size
        ("wide", "low", "near", "low", "flat"),  # at the first and the last
        ("low", "near", "wide", "mid", "flat"),  # at the last three
        ("near", "mid", "wide", "low", "low"),  # at two neighbours
        ("mid", "flat", "wide", "mid", "flat"),  # everywhere
        ("low", "near", "low", "flat", "wide"),  # at the two largest, the flat one first
    ],
    ids=["2nd-4th", "first-last", "last-three", "neighbours", "all", "two-largest"],
)
@pytest.mark.parametrize("shuffled", [False, True], ids=["ascending", "shuffled"])
def test_best_n_features_is_the_smallest_of_the_tied_maxima(columns, shuffled):
    scores = _matrix(columns)
    sizes = np.array(_SIZES)
    if shuffled:  # the sizes given out of order: "smaller" is by k, not by position
        order = np.array([3, 0, 4, 2, 1])
        sizes, scores = sizes[order], scores[:, order]
    means = scores.mean(axis=0)
    tied = sorted(int(k) for k, m in zip(sizes, means) if m == means.max())
    assert len(tied) >= 2  # the fixture: the maximum is reached at several sizes
    best_k = tied[0]
    best_col = scores[:, list(sizes).index(best_k)]
    # the best size and its score, whatever the rule
    for kw in ({}, {"tol": 0.1}, {"size_rule": "one_se"}):
        res = search_size(sizes, scores, **kw)
        assert res.best_n_features == best_k, (kw, tied)
        assert res.best_accuracy == 0.75
    # the one-SE margin is the standard error of that smallest best size's folds
    se = np.std(best_col, ddof=1) / np.sqrt(scores.shape[0])
    res = search_size(sizes, scores, size_rule="one_se")
    assert res.threshold == pytest.approx(0.75 - se, rel=1e-15, abs=1e-15)
    ok = sorted(int(k) for k, m in zip(sizes, means) if m >= 0.75 - se - 1e-12)
    assert res.n_features == ok[0]
    # "best": the chosen size is the best size itself
    assert search_size(sizes, scores).n_features == best_k


def test_the_tied_maxima_carry_different_standard_errors():
    # what makes the one-SE assertions above able to tell the tied sizes apart
    ses = {name: np.std(v, ddof=1) / 2 for name, v in _TOP.items()}
    assert len(set(ses.values())) == 3


@pytest.mark.parametrize(
    "means, best",
    [
        ([0.3, 0.1 + 0.2, 0.2], 3),  # the later maximum larger by float noise only
        ([0.2, 0.3, 0.1 + 0.2], 5),
        ([0.1 + 0.2, 0.3, 0.3], 3),
    ],
)
def test_best_n_features_ties_by_float_noise_go_to_the_smaller_k(means, best):
    # 0.1 + 0.2 = 0.30000000000000004 ≠ 0.3; rounded to 12 decimals they tie
    curve = pd.DataFrame({"k": [3, 5, 9], "estimator": ["a"] * 3, "mean": means})
    res = choose_size(curve, "k-step")
    assert res.best_n_features == best
    assert res.n_features == best


def test_best_n_features_tied_across_estimators_is_the_smaller_k():
    # the deciding score at a size is its best estimator's; the maxima tie between sizes
    # decided by different estimators
    a = _matrix(("low", "low", "near", "flat", "low"))
    b = _matrix(("low", "wide", "low", "low", "mid"))
    res = search_size(_SIZES, {"a": a, "b": b}, size_rule="one_se")
    assert (res.best_n_features, res.best_accuracy) == (2, 0.75)
    se = np.std(_TOP["wide"], ddof=1) / 2  # size 2's deciding estimator is b ("wide")
    assert res.threshold == pytest.approx(0.75 - se, rel=1e-15)
    assert (res.n_features, res.estimator) == (2, "b")
