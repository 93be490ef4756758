"""Stability measures against their published definitions: hand-worked cases, direct
transcriptions of the formulas (loops over runs, pairs and features, Python sets) and scipy."""

from __future__ import annotations

import itertools
import math
import re
import statistics

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm, pearsonr

from rankfusion.stability import (
    NogueiraResult,
    ReducedSizeResult,
    apc,
    asd,
    jaccard,
    kuncheva,
    nogueira,
    reduced_size_correlation,
)


# --------------------------------------------------------------------------- oracles
def asd_oracle(rows, normalize=True):
    rows = [list(map(float, r)) for r in rows]
    if normalize:
        out = []
        for r in rows:
            lo, hi = min(r), max(r)
            out.append([0.0 if hi == lo else (v - lo) / (hi - lo) for v in r])
        rows = out
    p = len(rows[0])
    return sum(statistics.stdev([r[f] for r in rows]) for f in range(p)) / p


def apc_oracle(rows):
    pairs = list(itertools.combinations(range(len(rows)), 2))
    return sum(pearsonr(rows[a], rows[b])[0] for a, b in pairs) / len(pairs)


def kuncheva_oracle(subsets, p):
    vals = []
    for a, b in itertools.combinations(subsets, 2):
        k = len(a)
        r = len(set(a) & set(b))
        vals.append((r * p - k * k) / (k * (p - k)))
    return sum(vals) / len(vals)


def jaccard_oracle(subsets):
    vals = [len(set(a) & set(b)) / len(set(a) | set(b))
            for a, b in itertools.combinations(subsets, 2)]
    return sum(vals) / len(vals)


def nogueira_oracle(Z, alpha=0.05):
    """Nogueira et al. (2018) Definition 4 and Corollary 9, written loop by loop."""
    M, d = len(Z), len(Z[0])
    p_hat = [sum(Z[i][f] for i in range(M)) / M for f in range(d)]
    k = [sum(Z[i]) for i in range(M)]
    kbar = sum(k) / M
    denom = (kbar / d) * (1 - kbar / d)
    s2 = [M / (M - 1) * p_hat[f] * (1 - p_hat[f]) for f in range(d)]
    stab = 1 - (sum(s2) / d) / denom
    phi = []
    for i in range(M):
        t = sum(Z[i][f] * p_hat[f] for f in range(d)) / d
        t -= k[i] * kbar / d**2
        t += stab / 2 * (2 * k[i] * kbar / d**2 - k[i] / d - kbar / d + 1)
        phi.append(t / denom)
    phibar = sum(phi) / M
    var = 4 / M**2 * sum((v - phibar) ** 2 for v in phi)
    z = norm.ppf(1 - alpha / 2)
    return stab, var, stab - z * math.sqrt(var), stab + z * math.sqrt(var)


# --------------------------------------------------------------------------- ASD / APC
def test_asd_hand_worked():
    # normalised runs: (0, .5, 1) and (0, 1, 1) → SDs 0, .3536, 0 → mean .1179
    s = [[0.0, 1.0, 2.0], [10.0, 30.0, 30.0]]
    assert asd(s) == pytest.approx(math.sqrt(0.125) / 3)
    assert asd(s, normalize=False) == pytest.approx(
        (math.sqrt(50) + math.sqrt(420.5) + math.sqrt(392)) / 3)


def test_asd_constant_run_becomes_zero():
    s = [[5.0, 5.0, 5.0], [0.0, 1.0, 2.0]]
    # normalised: (0,0,0) and (0,.5,1): SDs 0, .3536, .7071
    assert asd(s) == pytest.approx((math.sqrt(0.125) + math.sqrt(0.5)) / 3)


def test_asd_scale_free_with_normalize():
    rng = np.random.default_rng(1)
    s = rng.normal(size=(4, 9))
    scaled = s * np.array([[1.0], [1000.0], [0.01], [3.0]]) + 7
    assert asd(scaled) == pytest.approx(asd(s))
    assert asd(scaled, normalize=False) != pytest.approx(asd(s, normalize=False))


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(1, 8), st.integers(0, 2**31), st.booleans())
def test_asd_matches_transcription(r, p, seed, normalize):
    rng = np.random.default_rng(seed)
    s = rng.integers(0, 4, size=(r, p)).astype(float)  # ties and constant runs happen
    assert asd(s, normalize=normalize) == pytest.approx(asd_oracle(s, normalize), abs=1e-12)


def test_apc_hand_worked():
    assert apc([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 2.0, 1.0]]) == pytest.approx(-1 / 3)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 6), st.integers(3, 10), st.integers(0, 2**31))
def test_apc_matches_scipy(r, p, seed):
    rng = np.random.default_rng(seed)
    s = rng.normal(size=(r, p))
    assert apc(s) == pytest.approx(apc_oracle(s), abs=1e-12)
    assert apc(s, normalize=False) == pytest.approx(apc_oracle(s), abs=1e-12)


def test_inputs_not_modified():
    s = np.array([[3.0, 1.0, 2.0], [1.0, 2.0, 5.0]])
    before = s.copy()
    asd(s)
    apc(s)
    np.testing.assert_array_equal(s, before)


@pytest.mark.parametrize("func", [asd, apc])
@pytest.mark.parametrize(
    "scores, exc, match",
    [
        ([[1.0, 2.0, 3.0]], ValueError, "at least 2 runs"),
        ([1.0, 2.0, 3.0], ValueError, "2-D"),
        (np.zeros((2, 2, 2)), ValueError, "2-D"),
        ([[1.0, np.nan], [1.0, 2.0]], ValueError, "finite"),
        ([[1.0, np.inf], [1.0, 2.0]], ValueError, "finite"),
        ([["a", "b"], ["c", "d"]], TypeError, "real numbers"),
        (np.array([[1 + 1j, 2], [3, 4]]), TypeError, "real numbers"),
        ([[1.0, 2.0], [1.0]], ValueError, "2-D array"),
        (np.zeros((2, 0)), ValueError, "at least 1 feature"),
    ],
)
def test_score_matrix_hostile(func, scores, exc, match):
    with pytest.raises(exc, match=match):
        func(scores)


@pytest.mark.parametrize("func", [asd, apc])
def test_normalize_must_be_bool(func):
    with pytest.raises(TypeError, match="normalize"):
        func([[1.0, 2.0], [2.0, 1.0]], normalize="minmax")


def test_apc_constant_run_is_a_clear_error():
    with pytest.raises(ValueError, match="run 1 is constant"):
        apc([[1.0, 2.0, 3.0], [4.0, 4.0, 4.0]])
    with pytest.raises(ValueError, match="at least 2 features"):
        apc([[1.0], [2.0]])


# --------------------------------------------------------------------------- reduced size
class RecordingRanker:
    """Scores = class-mean difference; remembers the sample ids (column 0) it was given."""

    def __init__(self):
        self.seen = []

    def __call__(self, X, y):
        X = np.asarray(X, dtype=float)
        y = np.asarray(y)
        self.seen.append(X[:, 0].astype(int))
        a, b = X[y == 0, 1:], X[y == 1, 1:]
        return np.abs(a.mean(axis=0) - b.mean(axis=0)) + 0.01 * X[:, 1:].std(axis=0)


def _data(n=40, p=6, seed=0):
    rng = np.random.default_rng(seed)
    y = np.array([0] * (n // 4) + [1] * (n - n // 4))
    X = rng.normal(size=(n, p)) + y[:, None] * np.linspace(0, 2, p)
    return np.column_stack([np.arange(n), X]), y


def test_reduced_size_matches_scipy_on_the_samples_drawn():
    X, y = _data()
    ranker = RecordingRanker()
    res = reduced_size_correlation(ranker, X, y, fraction=0.6, n_repeats=4, random_state=3)
    assert isinstance(res, ReducedSizeResult)
    assert res.n_samples == 24 and res.fraction == 0.6
    full = ranker(X, y)
    expected = []
    for ids in ranker.seen[1:5]:
        assert len(ids) == 24 and len(set(ids)) == 24  # without replacement
        expected.append(pearsonr(full, ranker(X[ids], y[ids]))[0])
    np.testing.assert_allclose(res.values, expected, atol=1e-12)
    assert res.mean == pytest.approx(np.mean(expected))
    assert res.sd == pytest.approx(np.std(expected, ddof=1))


def test_reduced_size_stratified_keeps_proportions_and_is_seeded():
    X, y = _data(n=40)
    r1, r2 = RecordingRanker(), RecordingRanker()
    a = reduced_size_correlation(r1, X, y, fraction=0.5, n_repeats=3, random_state=7)
    b = reduced_size_correlation(r2, X, y, fraction=0.5, n_repeats=3, random_state=7)
    np.testing.assert_array_equal(a.values, b.values)
    for ids in r1.seen[1:]:
        assert (y[ids] == 0).sum() == 5 and (y[ids] == 1).sum() == 15
    c = reduced_size_correlation(RecordingRanker(), X, y, fraction=0.5, n_repeats=3,
                                 random_state=8)
    assert not np.array_equal(a.values, c.values)


def test_reduced_size_plain_sampling_and_dataframe():
    X, y = _data(n=41)
    df = pd.DataFrame(X)
    ranker = RecordingRanker()
    res = reduced_size_correlation(ranker, df, pd.Series(y), fraction=0.3, n_repeats=2,
                                   random_state=0, stratify=False)
    assert res.n_samples == 12  # floor(0.3·41 + 0.5)
    assert all(len(ids) == 12 for ids in ranker.seen[1:])


def test_reduced_size_full_fraction_gives_one():
    X, y = _data()
    res = reduced_size_correlation(RecordingRanker(), X, y, fraction=1.0, n_repeats=2,
                                   random_state=0)
    np.testing.assert_allclose(res.values, 1.0)


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"fraction": 0.0}, ValueError, "fraction"),
        ({"fraction": 1.5}, ValueError, "fraction"),
        ({"fraction": "half"}, TypeError, "fraction"),
        ({"n_repeats": 1}, ValueError, "n_repeats"),
        ({"n_repeats": 2.5}, TypeError, "n_repeats"),
        ({"random_state": "x"}, TypeError, "random_state"),
        ({"stratify": "maybe"}, TypeError, "stratify"),
    ],
)
def test_reduced_size_hostile_arguments(kwargs, exc, match):
    X, y = _data()
    with pytest.raises(exc, match=match):
        reduced_size_correlation(RecordingRanker(), X, y, **kwargs)


def test_reduced_size_hostile_rankers_and_data():
    X, y = _data()
    with pytest.raises(TypeError, match="callable"):
        reduced_size_correlation("relieff", X, y)
    with pytest.raises(ValueError, match="constant scores on all the samples"):
        reduced_size_correlation(lambda X, y: np.ones(6), X, y, random_state=0)
    with pytest.raises(ValueError, match="repeat 0"):
        reduced_size_correlation(lambda X, y: np.arange(len(y) % 7 + 3), X, y, fraction=0.5,
                                 random_state=0)
    with pytest.raises(ValueError, match="non-finite"):
        reduced_size_correlation(lambda X, y: np.full(6, np.nan), X, y, random_state=0)
    with pytest.raises(ValueError, match="labels but X has"):
        reduced_size_correlation(RecordingRanker(), X, y[:-1], random_state=0)
    with pytest.raises(ValueError, match="class"):
        reduced_size_correlation(RecordingRanker(), X, np.zeros(len(y)), random_state=0)


# --------------------------------------------------------------------------- Kuncheva / Jaccard
def test_kuncheva_hand_worked():
    assert kuncheva([[0, 1], [0, 2]], 4) == 0.0
    assert kuncheva([[0, 1], [0, 1]], 4) == 1.0
    assert kuncheva([[0, 1], [2, 3]], 4) == -1.0
    # r = 2, k = 3, p = 10: (20 − 9) / (3·7)
    assert kuncheva([[0, 1, 2], [2, 1, 9]], 10) == pytest.approx(11 / 21)


@settings(max_examples=80, deadline=None)
@given(st.integers(3, 12), st.integers(2, 6), st.data())
def test_kuncheva_and_jaccard_match_transcription(p, n_sub, data):
    k = data.draw(st.integers(1, p - 1))
    subsets = [data.draw(st.permutations(range(p)))[:k] for _ in range(n_sub)]
    assert kuncheva(subsets, p) == pytest.approx(kuncheva_oracle(subsets, p), abs=1e-12)
    assert jaccard(subsets) == pytest.approx(jaccard_oracle(subsets), abs=1e-12)


def test_jaccard_hand_worked_and_unequal_sizes():
    assert jaccard([[0, 1, 2], [1, 2, 3]]) == 0.5
    # pairs: {0}/{0,1,2} = 1/3, {0}/{0,5} = 1/2, {0}/{0,1,2,5} = 1/4
    assert jaccard([[0], [0, 1, 2], [5, 0]]) == pytest.approx((1 / 3 + 1 / 2 + 1 / 4) / 3)
    assert jaccard(np.array([[3, 4], [4, 3]]), n_features=5) == 1.0


@pytest.mark.parametrize(
    "subsets, p, exc, match",
    [
        ([[0, 1], [0, 1, 2]], 5, ValueError, "equal size"),
        ([[], []], 5, ValueError, "0 < k < n_features"),
        ([[0, 1, 2], [2, 1, 0]], 3, ValueError, "0 < k < n_features"),
        ([[0, 5], [0, 1]], 5, ValueError, "index 5 outside"),
        ([[0, -1], [0, 1]], 5, ValueError, "index -1 outside"),
        ([[0, 0], [0, 1]], 5, ValueError, "repeats index 0"),
        ([[0, 1]], 5, ValueError, "at least 2 subsets"),
        ([[0, 1.5], [0, 1]], 5, TypeError, "integer feature indices"),
        ([[0, True], [0, 1]], 5, TypeError, "integer feature indices"),
        ([["a", "b"], [0, 1]], 5, TypeError, "integer feature indices"),
        (["ab", [0, 1]], 5, TypeError, "string"),
        ("ab", 5, TypeError, "sequence of index sequences"),
        ([[0, 1], [0, 2]], 0, ValueError, "n_features"),
        ([[0, 1], [0, 2]], 4.0, TypeError, "n_features"),
    ],
)
def test_kuncheva_hostile(subsets, p, exc, match):
    with pytest.raises(exc, match=match):
        kuncheva(subsets, p)


@pytest.mark.parametrize(
    "subsets, p, exc, match",
    [
        ([[0, 1], []], None, ValueError, "non-empty"),
        ([[0, 0], [1]], None, ValueError, "repeats index 0"),
        ([[0, 9], [1]], 5, ValueError, "index 9 outside"),
        ([[0]], None, ValueError, "at least 2 subsets"),
        ([[0, "x"], [1]], None, TypeError, "integer feature indices"),
    ],
)
def test_jaccard_hostile(subsets, p, exc, match):
    with pytest.raises(exc, match=match):
        jaccard(subsets, p)


# --------------------------------------------------------------------------- Nogueira
def test_nogueira_hand_worked():
    # p̂ = (1, 3/4, 1/4), k̄ = 2, d = 3: Φ̂ = 1 − (1/6)/(2/9) = 1/4;
    # φ = (15/16, 15/16, 15/16, 3/16), Var = 4/16 · 27/64 = 27/256
    Z = [[1, 1, 0], [1, 1, 0], [1, 1, 0], [1, 0, 1]]
    res = nogueira(Z)
    assert isinstance(res, NogueiraResult)
    assert res.statistic == pytest.approx(0.25)
    assert res.variance == pytest.approx(27 / 256)
    half = norm.ppf(0.975) * math.sqrt(27 / 256)
    assert (res.low, res.high) == pytest.approx((0.25 - half, 0.25 + half))
    res90 = nogueira(Z, alpha=0.1)
    assert res90.high - res90.low == pytest.approx(2 * norm.ppf(0.95) * math.sqrt(27 / 256))


def test_nogueira_identical_and_disjoint():
    same = nogueira([[1, 0, 1, 0]] * 5)
    assert (same.statistic, same.variance, same.low, same.high) == (1.0, 0.0, 1.0, 1.0)
    assert nogueira([[1, 1, 0, 0], [1, 0, 1, 0]]).statistic == 0.0
    # two disjoint halves: p̂ = 1/2 everywhere, s² = 1/2, k̄/d = 1/2 → 1 − 2 = −1
    assert nogueira([[1, 1, 0, 0], [0, 0, 1, 1]]).statistic == pytest.approx(-1.0)


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 8), st.integers(1, 10), st.integers(0, 2**31), st.floats(0.01, 0.5))
def test_nogueira_matches_transcription(m, d, seed, alpha):
    rng = np.random.default_rng(seed)
    Z = (rng.random((m, d)) < rng.uniform(0.1, 0.9)).astype(int)
    if Z.sum() in (0, m * d):
        Z[0, 0] = 1 - Z[0, 0]
        if Z.sum() in (0, m * d):  # m·d == 1 impossible since m ≥ 2
            Z[1, 0] = 1 - Z[1, 0]
    res = nogueira(Z, alpha=alpha)
    stab, var, lo, hi = nogueira_oracle(Z.tolist(), alpha)
    assert res.statistic == pytest.approx(stab, abs=1e-12)
    assert res.variance == pytest.approx(var, abs=1e-12)
    assert res.low == pytest.approx(lo, abs=1e-9)
    assert res.high == pytest.approx(hi, abs=1e-9)


def test_nogueira_accepts_bool_and_dataframe_and_keeps_input():
    Z = np.array([[True, False, True], [True, True, False]])
    before = Z.copy()
    a = nogueira(Z)
    b = nogueira(pd.DataFrame(Z.astype(int)))
    assert a == b
    np.testing.assert_array_equal(Z, before)


@pytest.mark.parametrize(
    "Z, alpha, exc, match",
    [
        ([[1, 0, 2], [0, 1, 0]], 0.05, ValueError, "binary"),
        ([[1, 0, 0.5], [0, 1, 0]], 0.05, ValueError, "binary"),
        ([[1, 0, np.nan], [0, 1, 0]], 0.05, ValueError, "binary"),
        ([[1, 0, 1]], 0.05, ValueError, "at least 2 runs"),
        ([1, 0, 1], 0.05, ValueError, "2-D"),
        ([[0, 0], [0, 0]], 0.05, ValueError, "no run selects any feature"),
        ([[1, 1], [1, 1]], 0.05, ValueError, "every run selects every feature"),
        ([["a", "b"], ["c", "d"]], 0.05, TypeError, "binary"),
        ([[1, 0], [0, 1]], 0.0, ValueError, "alpha"),
        ([[1, 0], [0, 1]], 1.0, ValueError, "alpha"),
        ([[1, 0], [0, 1]], "0.05", TypeError, "alpha"),
        (np.zeros((2, 0)), 0.05, ValueError, "at least 1 feature"),
    ],
)
def test_nogueira_hostile(Z, alpha, exc, match):
    with pytest.raises(exc, match=match):
        nogueira(Z, alpha=alpha)


# --------------------------------------------------------------------------- whole messages
def _exactly(msg):
    import re

    return "^" + re.escape(msg) + "$"


@pytest.mark.parametrize("call, exc, msg", [
    (lambda: apc([[1.0], [2.0]]), ValueError,
     "apc needs at least 2 features: a correlation of 1 value is undefined"),
    (lambda: apc([[1.0, 2.0, 3.0], [4.0, 4.0, 4.0]]), ValueError,
     "scores: run 1 is constant, so its Pearson correlation with the other runs is undefined"),
    (lambda: asd([[1.0, 2.0, 3.0]]), ValueError, "scores needs at least 2 runs (rows); got 1"),
    (lambda: asd(np.zeros((2, 0))), ValueError,
     "scores needs at least 1 feature (column); got 0"),
    (lambda: asd([1.0, 2.0]), ValueError,
     "scores must be 2-D (runs × features); got 1-D with shape (2,)"),
    (lambda: asd([[1.0, 2.0], [np.inf, 1.0]]), ValueError,
     "scores must be finite; found inf at run 1, feature 0"),
    (lambda: asd(np.array([[1.0, {}], [1.0, 2.0]], dtype=object)), TypeError,
     "scores must hold real numbers, got {}"),
    (lambda: asd(np.array([[1.0, "2"], [1.0, 2.0]], dtype=object)), TypeError,
     "scores must hold real numbers, got '2'"),
    (lambda: apc(np.array([[1.0, True], [1.0, 2.0]], dtype=object)), TypeError,
     "scores must hold real numbers, got True"),
    (lambda: kuncheva([[0, 1, 2], [2, 1, 0]], 3), ValueError,
     "kuncheva needs a subset size k with 0 < k < n_features (3); got k = 3, for which the "
     "index is undefined (its denominator k(p − k) is 0)"),
    (lambda: kuncheva([[0, 1], [0, 1, 2]], 5), ValueError,
     "kuncheva needs subsets of equal size; got sizes [2, 3]"),
    (lambda: kuncheva([[0, 1]], 5), ValueError, "subsets needs at least 2 subsets; got 1"),
    (lambda: kuncheva("ab", 5), TypeError,
     "subsets must be a sequence of index sequences, got str"),
    (lambda: kuncheva(["ab", [0, 1]], 5), TypeError,
     "subsets[0] must be a sequence of feature indices, got a string"),
    (lambda: kuncheva([[0, 1.5], [0, 1]], 5), TypeError,
     "subsets[0] must hold integer feature indices; got 1.5"),
    (lambda: kuncheva([[0, 1], [0, 5]], 5), ValueError,
     "subsets[1] has index 5 outside [0, 5)"),
    (lambda: jaccard([[0, -1], [0, 1]]), ValueError, "subsets[0] has index -1 outside ≥ 0"),
    (lambda: jaccard([[0, 1, 0], [0, 1]]), ValueError, "subsets[0] repeats index 0"),
    (lambda: jaccard([[0, 1], []]), ValueError,
     "jaccard needs non-empty subsets; subsets[1] is empty"),
    (lambda: nogueira([["a", "b"], ["c", "d"]]), TypeError,
     "Z must be a binary (0/1) matrix; got dtype <U1"),
    (lambda: nogueira(np.array([[1, {}], [0, 1]], dtype=object)), TypeError,
     "Z must be a binary (0/1) matrix; Z must hold real numbers, got {}"),
    (lambda: nogueira(np.array([[1, "0"], [0, 1]], dtype=object)), TypeError,
     "Z must be a binary (0/1) matrix; Z must hold real numbers, got '0'"),
    (lambda: nogueira(np.zeros((2, 0))), ValueError,
     "Z needs at least 1 feature (column); got 0"),
    (lambda: nogueira([[1, 0]]), ValueError, "Z needs at least 2 runs (rows); got 1"),
    (lambda: nogueira([1, 0]), ValueError, "Z must be 2-D (runs × features); got shape (2,)"),
    (lambda: nogueira([[1, 0], [0, 2]]), ValueError,
     "Z must be binary (0/1); found 2 at run 1, feature 1"),
    (lambda: nogueira([[0, 0], [0, 0]]), ValueError,
     "Z: no run selects any feature, so the stability is undefined (k̄/d·(1 − k̄/d) = 0 in "
     "the denominator of Nogueira et al.'s Definition 4)"),
    (lambda: nogueira([[1, 1], [1, 1]]), ValueError,
     "Z: every run selects every feature, so the stability is undefined (k̄/d·(1 − k̄/d) = 0 "
     "in the denominator of Nogueira et al.'s Definition 4)"),
    (lambda: nogueira([[1, 0], [0, 1]], alpha="0.05"), TypeError,
     "alpha must be a number in (0, 1), got '0.05'"),
    (lambda: nogueira([[1, 0], [0, 1]], alpha=True), TypeError,
     "alpha must be a number in (0, 1), got True"),
    (lambda: nogueira([[1, 0], [0, 1]], alpha=1), ValueError,
     "alpha must be a number in (0, 1), got 1"),
    (lambda: apc([[1.0, 2.0], [2.0, 1.0]], normalize="y"), TypeError,
     "normalize must be a bool, got 'y'"),
    (lambda: asd([[1.0, 2.0], [2.0, 1.0]], normalize="y"), TypeError,
     "normalize must be a bool, got 'y'"),
    (lambda: kuncheva([[0], [1]], 0), ValueError, "n_features must be ≥ 1, got 0"),
    (lambda: jaccard([[0], [1]], n_features=0), ValueError, "n_features must be ≥ 1, got 0"),
    (lambda: jaccard([[1, 0, 0], [0, 1]]), ValueError, "subsets[0] repeats index 0"),
])
def test_stability_messages_are_whole(call, exc, msg):
    with pytest.raises(exc, match=_exactly(msg)):
        call()


def test_reduced_size_messages_are_whole():
    X, y = _data()
    with pytest.raises(TypeError, match=_exactly(
            "ranker must be a callable f(X, y) -> scores, got str")):
        reduced_size_correlation("relieff", X, y)
    with pytest.raises(ValueError, match=_exactly(
            "ranker returned constant scores on all the samples: Pearson's correlation is "
            "undefined")):
        reduced_size_correlation(lambda X, y: np.ones(6), X, y, random_state=0)
    with pytest.raises(ValueError, match=_exactly(
            "ranker must return one score per feature; repeat 0 returned shape (3,), "
            "expected (5,)")):
        reduced_size_correlation(lambda X, y: np.arange(5 if len(y) == 40 else 3), X, y,
                                 random_state=0)
    with pytest.raises(ValueError, match=_exactly(
            "ranker must return one score per feature; all the samples returned shape (2, 2)")):
        reduced_size_correlation(lambda X, y: np.ones((2, 2)), X, y, random_state=0)
    with pytest.raises(TypeError, match=_exactly(
            "ranker must return real scores; all the samples returned dict")):
        reduced_size_correlation(lambda X, y: {"a": 1}, X, y, random_state=0)
    with pytest.raises(ValueError, match=_exactly(
            "ranker returned non-finite scores on repeat 0")):
        reduced_size_correlation(
            lambda X, y: np.arange(5.0) if len(y) == 40 else np.full(5, np.nan), X, y,
            random_state=0)


class _ClassCounter:
    """Records the class counts of every call; scores = a fixed non-constant vector."""

    def __init__(self):
        self.counts = []

    def __call__(self, X, y):
        self.counts.append(np.bincount(np.asarray(y), minlength=3).tolist())
        return np.arange(4.0) + 1e-3 * np.asarray(X, dtype=float)[:, :4].mean(axis=0)


@pytest.mark.parametrize("sizes, fraction, expected", [
    # largest remainder by hand: 10·(3, 5, 12)/20 = (1.5, 2.5, 6) -> (1, 2, 6) + 1 to the
    # largest fractional part, tied between classes 0 and 1 -> the lower code
    ((3, 5, 12), 0.5, [2, 2, 6]),
    # 3·(1, 1, 18)/20 = (.15, .15, 2.7) -> (0, 0, 3); m = 3 >= 3 classes, so each empty class
    # takes one sample from the largest allocation -> (1, 1, 1)
    ((1, 1, 18), 0.15, [1, 1, 1]),
    # m = 2 < 3 classes: (.1, .1, 1.8) -> (0, 0, 2), no class can be guaranteed
    ((1, 1, 18), 0.1, [0, 0, 2]),
    # 4·(1, 1, 38)/40 = (.1, .1, 3.8) -> (0, 0, 4) -> the two empty classes each take one
    # from the largest -> (1, 1, 2)
    ((1, 1, 38), 0.1, [1, 1, 2]),
    # 7·(4, 4, 12)/20 = (1.4, 1.4, 4.2) -> (1, 1, 4) + 1 -> the larger remainders .4, .4 tie ->
    # class 0
    ((4, 4, 12), 0.35, [2, 1, 4]),
])
def test_reduced_size_stratified_allocation_is_largest_remainder(sizes, fraction, expected):
    from rankfusion.stability import _stratified_counts

    y = np.repeat([0, 1, 2], sizes)
    assert _stratified_counts(y, sum(expected)).tolist() == expected
    X = np.random.default_rng(0).normal(size=(len(y), 4))
    ranker = _ClassCounter()
    if any(e < min(2, s) for e, s in zip(expected, sizes)):
        # fewer than 2 rows of a class (that has 2 or more) is too small to rank on: refused
        # before the ranker runs
        with pytest.raises(ValueError, match=rf"fraction={fraction} keeps {sum(expected)} of "
                                             rf"the {len(y)} samples.*at least 2 of every class"):
            reduced_size_correlation(ranker, X, y, fraction=fraction, n_repeats=3,
                                     random_state=1)
        assert ranker.counts == []
        return
    res = reduced_size_correlation(ranker, X, y, fraction=fraction, n_repeats=3, random_state=1)
    assert res.n_samples == sum(expected)
    assert ranker.counts[0] == list(np.bincount(y))  # all the samples first
    assert ranker.counts[1:] == [expected] * 3


@pytest.mark.parametrize("kwargs, exc, start", [
    ({"fraction": 1.5}, ValueError, "fraction must lie in (0, 1], got 1.5"),
    ({"fraction": "half"}, TypeError, "fraction must be a number in (0, 1], got str"),
    ({"n_repeats": 1}, ValueError, "n_repeats "),
    ({"n_repeats": 2.5}, TypeError, "n_repeats "),
    ({"stratify": "maybe"}, TypeError, "stratify must be a bool, got 'maybe'"),
])
def test_reduced_size_argument_messages_start_with_the_name(kwargs, exc, start):
    X, y = _data()
    with pytest.raises(exc, match="^" + re.escape(start)):
        reduced_size_correlation(RecordingRanker(), X, y, **kwargs)


def test_reduced_size_defaults_are_the_papers_five_repeats_of_half():
    X, y = _data()
    res = reduced_size_correlation(RecordingRanker(), X, y, random_state=0)
    assert res.values.shape == (5,) and res.fraction == 0.5 and res.n_samples == 20


def test_reduced_size_stratified_ties_go_to_the_lower_class_with_many_classes():
    # 17 classes (numpy's default sort is not stable from 17 elements on, so this is where the
    # tie rule shows): classes 0, 2, …, 16 hold 1 sample, classes 1, 3, …, 15 hold 2; n = 25.
    # m = ⌊0.8·25 + 0.5⌋ = 20: exact shares 20·1/25 = 0.8 and 20·2/25 = 1.6 -> floors 0 and 1,
    # 8 allocated, 12 left. The nine remainders 0.8 come first (every one-sample class gets 1),
    # then three of the eight tied remainders 0.6, to the lowest codes 1, 3, 5.
    # The labels are text ("c00" … "c16", sorted as the codes): 17 whole-number classes in 25
    # samples would be refused as a continuous target.
    sizes = [1 if c % 2 == 0 else 2 for c in range(17)]
    y = np.repeat(np.array([f"c{c:02d}" for c in range(17)]), sizes)
    X = np.random.default_rng(0).normal(size=(len(y), 4))
    seen = []

    def ranker(X, y):
        seen.append(np.unique(np.asarray(y), return_counts=True)[1].tolist())
        return np.arange(4.0) + 1e-3 * np.asarray(X, dtype=float)[:, :4].mean(axis=0)

    from rankfusion.stability import _stratified_counts

    expected = [1] * 17
    for c in (1, 3, 5):
        expected[c] = 2
    assert _stratified_counts(np.unique(y, return_inverse=True)[1], 20).tolist() == expected
    # classes 7, 9, …, 15 keep 1 of their 2 samples: too few to rank on, refused before work
    with pytest.raises(ValueError, match=r"fraction=0.8 keeps 20 of the 25 samples, 1 of class "
                                         r"'?c07'? \(of its 2\)"):
        reduced_size_correlation(ranker, X, y, fraction=0.8, n_repeats=2, random_state=0)
    assert seen == []


def test_apc_two_features_is_plus_or_minus_one():
    # two features: every run is increasing or decreasing, so Pearson's r is ±1 (eq. 15 by
    # hand: pairs (+1, −1, −1) over three runs -> −1/3)
    assert apc([[1.0, 2.0], [3.0, 5.0]]) == pytest.approx(1.0)
    assert apc([[1.0, 2.0], [2.0, 1.0]]) == pytest.approx(-1.0)
    assert apc([[1.0, 2.0], [3.0, 5.0], [2.0, 1.0]]) == pytest.approx(-1.0 / 3.0)


@pytest.mark.parametrize("normalize", [True, False])
def test_correlations_stay_within_minus_one_and_one(normalize):
    # Pearson's r lies in [-1, 1]; for identical (reversed) runs the float dot product of the
    # unit vectors can land one ulp outside, which must not reach the result
    rng = np.random.default_rng(0)
    for _ in range(50):
        v = rng.normal(size=7)
        assert apc([v, v], normalize=normalize) <= 1.0
        assert apc([v, -v], normalize=normalize) >= -1.0


def test_reduced_size_correlation_stays_within_minus_one_and_one():
    X, y = _data()
    rng = np.random.default_rng(0)
    for _ in range(20):
        v = rng.normal(size=X.shape[1])
        same = reduced_size_correlation(lambda X, y, v=v: v, X, y, n_repeats=2, random_state=0)
        assert np.all(same.values <= 1.0)
        calls = []

        def flip(X, y, v=v, calls=calls):
            calls.append(1)
            return v if len(calls) == 1 else -v  # all the samples first, then the subsamples

        rev = reduced_size_correlation(flip, X, y, n_repeats=2, random_state=0)
        assert np.all(rev.values >= -1.0)


def test_scores_as_integers_or_dataframe_give_the_float_array_values():
    a = [[1, 2, 3, 7], [3, 1, 2, 2], [2, 2, 5, 1]]
    f = np.array(a, dtype=np.float64)
    for measure in (apc, asd):
        for normalize in (True, False):
            want = measure(f, normalize=normalize)
            assert measure(a, normalize=normalize) == pytest.approx(want)
            assert measure(pd.DataFrame(a), normalize=normalize) == pytest.approx(want)


def test_nogueira_reports_its_alpha():
    assert nogueira([[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 0]], alpha=0.1).alpha == 0.1


def test_reduced_size_plain_sampling_draws_distinct_samples():
    X, y = _data()  # column 0 of X is the sample's index
    seen = []

    def ranker(X, y):
        seen.append(np.asarray(X)[:, 0])
        return np.arange(X.shape[1], dtype=float) + np.asarray(X, dtype=float).mean(axis=0)

    reduced_size_correlation(ranker, X, y, fraction=0.9, n_repeats=5, stratify=False,
                             random_state=0)
    for rows in seen[1:]:
        assert rows.shape == (36,) and np.unique(rows).shape == (36,)


def test_reduced_size_names_the_repeat_with_constant_scores():
    X, y = _data()
    calls = []

    def ranker(X, y):
        calls.append(1)
        return np.arange(X.shape[1], dtype=float) * (len(calls) == 1)

    with pytest.raises(ValueError, match=_exactly(
            "ranker returned constant scores on repeat 0: Pearson's correlation is undefined")):
        reduced_size_correlation(ranker, X, y, random_state=0)


@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e200, 1e300, 2.0 ** 1000])
def test_asd_and_apc_of_runs_near_the_float_limits_equal_the_same_runs_at_unit_scale(scale):
    # each measure's value is computed on runs divided by exact powers of two: no overflow to
    # inf or nan near 1e308, no underflow to a "constant" run near 1e-300
    runs = np.array([[1.0, 2.0, 0.0, -0.5], [1.0, 3.0, 0.0, 0.25], [-1.0, 0.5, 2.0, 1.0]])
    with np.errstate(all="raise"):
        for normalize in (True, False):
            assert apc(runs * scale, normalize=normalize) == pytest.approx(
                apc(runs, normalize=normalize), rel=1e-12)
        assert asd(runs * scale) == pytest.approx(asd(runs), rel=1e-12)
        assert asd(runs * scale, normalize=False) == pytest.approx(
            asd(runs, normalize=False) * scale, rel=1e-12)


def test_asd_and_apc_of_opposite_runs_at_the_float_limit():
    runs = [[-1e308, 1e308, 0.0], [1e308, -1e308, 0.0]]
    assert apc(runs) == pytest.approx(-1.0)
    assert asd(runs) == pytest.approx(np.mean([np.sqrt(0.5), np.sqrt(0.5), 0.0]))
    assert asd(runs, normalize=False) == pytest.approx(np.sqrt(2.0) * (2 / 3) * 1e308)


def test_apc_scales_each_run_by_itself():
    # one run near 1e300 and one near 1e-300: a common scale would flush the small one to 0
    runs = np.array([[1.0, 2.0, 0.0, 0.5], [1.0, 3.0, 0.0, 0.25]])
    mixed = runs * np.array([[1e300], [1e-300]])
    with np.errstate(all="raise"):
        assert apc(mixed, normalize=False) == pytest.approx(apc(runs), rel=1e-12)
        assert apc(mixed) == pytest.approx(apc(runs), rel=1e-12)
