"""Batched rankers (rankfusion.rankers.batched): every resample at once gives the positions of
one registered-ranker call per resample, ties included, on random and tie-heavy data; scores
within RTOL (relative to the list's largest score for the near-zero ones)."""

import warnings

import numpy as np
import pytest

from rankfusion.rankers import batched_ranker, batched_scores, get_ranker, resample_counts
from rankfusion.rankers.batched import RTOL


def _positions(s):
    return np.argsort(-np.asarray(s), kind="stable")


def _data(kind, seed, n_classes=2, n=90, p=120):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    if kind == "normal":
        X = rng.normal(size=(n, p))
    elif kind == "offset":  # |mean| = 100 sd: the one-pass sums lose digits
        X = rng.normal(size=(n, p)) + 100.0
    elif kind == "gamma":
        X = rng.gamma(2.0, 1.0, size=(n, p))
    elif kind == "ints":  # few levels: many exact ties
        X = rng.integers(0, 3, size=(n, p)).astype(float)
    else:  # "tenths": few levels, not whole numbers (inexact sums, exact ties)
        X = rng.integers(0, 4, size=(n, p)) * 0.1 + 0.05
    X[:, :4] += y[:, None] * (1.0 if kind != "ints" else 1)
    X[:, 10] = X[:, 11]  # duplicated columns
    X[:, 20] = X[0, 20]  # constant everywhere
    X[:, 30] = np.where(np.arange(n) < 3, X[0, 30] + 1, X[0, 30])  # constant in most samples
    X[:, 40] = y * 2.0 + X[0, 40]  # constant within every class
    return np.abs(X) if kind == "gamma" else X, y


def _samples(y, seed, B=25, replace=True):
    rng = np.random.default_rng(seed)
    n = y.shape[0]
    if replace:
        return [np.sort(rng.integers(0, n, n)) for _ in range(B)]
    return [np.sort(rng.choice(n, n // 2, replace=False)) for _ in range(B)]


CASES = [(name, kind, seed, k) for name in ("f_classif", "chi2", "welch_t")
         for kind in ("normal", "offset", "gamma", "ints", "tenths") for seed in (0, 1)
         for k in ((2,) if name == "welch_t" else (2, 3))
         if not (name == "chi2" and kind in ("normal", "offset"))]


@pytest.mark.parametrize("name,kind,seed,n_classes", CASES)
def test_positions_equal_one_call_per_resample(name, kind, seed, n_classes):
    X, y = _data(kind, seed, n_classes)
    samples = _samples(y, seed + 10, replace=seed == 0)
    func = get_ranker(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = batched_scores(name, X, y, samples)
        for b, rows in enumerate(samples):
            ref = func(X[rows], y[rows])
            assert np.array_equal(_positions(got[b]), _positions(ref)), (b, name, kind)
            if kind != "offset":  # the one-pass reference itself is off there
                np.testing.assert_allclose(got[b], ref, rtol=RTOL,
                                           atol=RTOL * np.abs(ref).max())


def test_whole_numbers_are_bit_equal():
    X, y = _data("ints", 3)
    samples = _samples(y, 4)
    for name in ("f_classif", "welch_t"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = batched_scores(name, X, y, samples)
            for b, rows in enumerate(samples):
                assert np.array_equal(got[b], get_ranker(name)(X[rows], y[rows]))


def test_resample_counts_are_bincounts():
    W = resample_counts([np.array([0, 0, 3]), np.array([], dtype=int)], 4)
    assert np.array_equal(W, [[2, 0, 0, 1], [0, 0, 0, 0]])


def test_names_and_functions():
    assert batched_ranker("anova") == "f_classif"
    assert batched_ranker(get_ranker("chi2")) == "chi2"
    assert batched_ranker("welch") == "welch_t"
    assert batched_ranker("info_gain") is None
    assert batched_ranker("no such ranker") is None


def test_partial_leaves_one_class_resamples():
    X, y = _data("normal", 0)
    one = np.flatnonzero(y == 0)[:10]
    scores, done = batched_scores("f_classif", X, y, [np.arange(20), one], partial=True)
    assert done.tolist() == [True, False]
    with pytest.raises(ValueError, match=r"samples\[1\]"):
        batched_scores("f_classif", X, y, [np.arange(20), one])


def test_caller_arrays_untouched():
    X, y = _data("gamma", 2)
    X0, y0 = X.copy(), y.copy()
    samples = _samples(y, 1, B=3)
    s0 = [s.copy() for s in samples]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        batched_scores("chi2", X, y, samples, max_memory=2**16)
    assert np.array_equal(X, X0) and np.array_equal(y, y0)
    assert all(np.array_equal(a, b) for a, b in zip(samples, s0))


def test_small_memory_budget_same_scores():
    X, y = _data("normal", 5)
    samples = _samples(y, 6, B=7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a = batched_scores("f_classif", X, y, samples)
        b = batched_scores("f_classif", X, y, samples, max_memory=3 * 2**12)
    for r, s in zip(a, b):
        assert np.array_equal(_positions(r), _positions(s))


X_OK, Y_OK = _data("gamma", 0)
HOSTILE = [
    ("unknown ranker", "info_gain", X_OK, Y_OK, [np.arange(5)], {}, ValueError, "ranker"),
    ("list X", "f_classif", X_OK.tolist(), Y_OK, [np.arange(5)], {}, TypeError, "X"),
    ("NaN", "f_classif", np.where(np.eye(*X_OK.shape, dtype=bool), np.nan, X_OK), Y_OK,
     [np.arange(5)], {}, ValueError, "finite"),
    ("negative chi2", "chi2", X_OK - 10, Y_OK, [np.arange(5)], {}, ValueError, "non-negative"),
    ("short y", "f_classif", X_OK, Y_OK[:-1], [np.arange(5)], {}, ValueError, "y"),
    ("row out of range", "f_classif", X_OK, Y_OK, [np.array([0, 999])], {}, ValueError,
     r"samples\[0\]"),
    ("float rows", "f_classif", X_OK, Y_OK, [np.array([0.5, 1.0])], {}, ValueError,
     r"samples\[0\]"),
    ("bad max_memory", "f_classif", X_OK, Y_OK, [np.arange(5)], {"max_memory": -1},
     ValueError, "max_memory"),
]


@pytest.mark.parametrize("what,name,X,y,samples,kw,exc,match", HOSTILE,
                         ids=[h[0] for h in HOSTILE])
def test_hostile_input(what, name, X, y, samples, kw, exc, match):
    with pytest.raises(exc, match=match):
        batched_scores(name, X, y, samples, **kw)
