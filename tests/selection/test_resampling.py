"""Bootstrap samples: their size, their duplicates, and the fractions too small to rank on.

The documented sampling (docs/design.md, 'Ensembles, subsets and evaluation';
:mod:`rankfusion.selection.resampling`): ``m = max(1, ⌊f·n_c + 0.5⌋)`` rows of every class c
drawn *with replacement* (stratified), or m of all n rows with replacement.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn.feature_selection import f_classif

from rankfusion import EnsembleSelector
from rankfusion.selection.resampling import bootstrap_indices, check_sample_size
from rankfusion.stability import reduced_size_correlation


def anova(X, y):
    return f_classif(X, y)[0]


def _data(n=40, p=6, classes=2, seed=0, labels=None):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % classes
    X = rng.normal(size=(n, p))
    X[:, 0] += 2.0 * y
    if labels is not None:
        y = np.asarray(labels, dtype=object)[y]
    return X, y


# ---------------------------------------------------------------------------- drawn indices
@pytest.mark.parametrize("fraction, sizes", [
    (1.0, (30, 10)), (0.5, (30, 10)), (0.632, (30, 10)), (0.25, (17, 9)), (0.3, (12, 12, 7)),
])
def test_stratified_sample_size_is_rounded_fraction_of_each_class(fraction, sizes):
    y = np.repeat(np.arange(len(sizes)), sizes)
    samples = bootstrap_indices(y, np.random.SeedSequence(1).spawn(5), sample_fraction=fraction)
    for idx in samples:
        counts = np.bincount(y[idx], minlength=len(sizes))
        # ⌊f·n_c + 0.5⌋ by hand (round half up), e.g. 0.25·10 = 2.5 → 3, not Python's round → 2
        assert counts.tolist() == [max(1, math.floor(fraction * s + 0.5)) for s in sizes]
        assert np.all(np.diff(idx) >= 0)  # sorted, as documented


@pytest.mark.parametrize("fraction, n", [(1.0, 40), (0.5, 40), (0.3, 50)])
def test_unstratified_sample_size_is_rounded_fraction_of_n(fraction, n):
    y = np.arange(n) % 2
    for idx in bootstrap_indices(y, np.random.SeedSequence(2).spawn(4),
                                 sample_fraction=fraction, stratify=False):
        assert idx.shape == (max(1, math.floor(fraction * n + 0.5)),)
        assert idx.min() >= 0 and idx.max() < n


@pytest.mark.parametrize("fraction, stratify", [(1.0, True), (0.5, True), (0.5, False),
                                                (0.8, False)])
def test_samples_are_drawn_with_replacement(fraction, stratify):
    """Drawing m of N rows with replacement keeps on average N·(1 − (1 − 1/N)^m) distinct rows
    (without replacement: all m). Over 200 samples the mean lies within a few standard errors
    of that expectation and clearly below m, so a switch to ``replace=False`` fails here."""
    N = 30
    y = np.zeros(2 * N, dtype=int)
    y[N:] = 1
    samples = bootstrap_indices(y, np.random.SeedSequence(3).spawn(200),
                                sample_fraction=fraction, stratify=stratify)
    if stratify:
        m = math.floor(fraction * N + 0.5)
        distinct = np.array([[np.unique(idx[y[idx] == c]).size for c in (0, 1)]
                             for idx in samples]).ravel()
        pool = N
    else:
        m = math.floor(fraction * 2 * N + 0.5)
        distinct = np.array([np.unique(idx).size for idx in samples])
        pool = 2 * N
    expected = pool * (1.0 - (1.0 - 1.0 / pool) ** m)
    assert abs(distinct.mean() - expected) < 0.5
    assert distinct.mean() < m - 2
    assert any(np.unique(idx).size < idx.size for idx in samples)  # duplicates kept


def test_selector_bootstraps_follow_sample_fraction():
    X, y = _data(n=40)
    sel = EnsembleSelector(rankers=(anova,), n_bootstraps=30, sample_fraction=0.5,
                           random_state=4).fit(X, y)
    assert len(sel.bootstrap_indices_) == 30
    for idx in sel.bootstrap_indices_:
        assert np.bincount(y[idx]).tolist() == [10, 10]
    assert any(np.unique(idx).size < idx.size for idx in sel.bootstrap_indices_)
    b = sel.bootstrap_indices_[7]
    s = anova(X[b], y[b])
    np.testing.assert_allclose(sel.lists_.scores[:, 7], (s - s.min()) / (s.max() - s.min()))


# ---------------------------------------------------------------------------- too small
@pytest.mark.parametrize("kw, data, match", [
    # the case: 0.1 % of 40 rows → one row of each class
    ({"sample_fraction": 0.001}, {}, r"sample_fraction=0.001 draws 1 row of class 0 \(of its "
                                     r"20\).*at least 2 rows of every class.*≥ 0.075"),
    ({"sample_fraction": 0.01}, {"labels": ["tumour", "normal"]},
     r"draws 1 row of class 'normal'.*sample_fraction ≥ 0.075"),
    ({"sample_fraction": 1e-9}, {}, r"sample_fraction=1e-09 draws 1 row"),
    ({"sample_fraction": 0.05}, {"classes": 4, "n": 40},
     r"draws 1 row of class 0 \(of its 10\).*≥ 0.15"),
    ({"sample_fraction": 0.05, "stratify": False}, {},
     r"sample_fraction=0.05 draws 2 rows \(of 40\).*at least 4 \(2 per class for 2 classes\)"
     r".*≥ 0.0875"),
    ({"sample_fraction": 0.08, "stratify": False}, {"classes": 3, "n": 60},
     r"draws 5 rows \(of 60\).*at least 6"),
    ({"sample_fraction": 0.08, "n_features_to_select": "k-step"}, {},
     r"draws 1 row of class 0 \(of its 16\).*in the training part of a 5-fold size search"),
    ({"sample_fraction": 0.001, "aggregation": "fuzzy:OW"}, {}, "sample_fraction=0.001"),
])
def test_selector_refuses_near_empty_bootstraps(kw, data, match):
    X, y = _data(**data)
    calls = []

    def counted(X, y):
        calls.append(1)
        return anova(X, y)

    with pytest.raises(ValueError, match=match):
        EnsembleSelector(rankers=(counted,), n_bootstraps=5, random_state=0, **kw).fit(X, y)
    assert calls == []  # refused before any ranking


@pytest.mark.parametrize("fraction, stratify", [(0.075, True), (0.0875, False), (0.15, True)])
def test_suggested_minimum_fraction_is_enough(fraction, stratify):
    def spread(X, y):  # defined on any sample, even one missing a class
        return np.ptp(X, axis=0)

    X, y = _data(n=40, classes=2 if fraction < 0.15 else 4)
    check_sample_size(y, fraction, stratify=stratify)
    EnsembleSelector(rankers=(spread,), n_bootstraps=2, sample_fraction=fraction,
                     stratify=stratify, random_state=0).fit(X, y)


def test_small_fraction_without_bootstraps_is_refused_as_doing_nothing():
    X, y = _data()
    with pytest.raises(ValueError, match=r"n_bootstraps=0 ranks on all the data once"):
        EnsembleSelector(rankers=(anova,), sample_fraction=0.001).fit(X, y)
    EnsembleSelector(rankers=(anova,), sample_fraction=1.0).fit(X, y)


def test_a_class_smaller_than_two_rows_is_drawn_whole():
    y = np.array([0] * 10 + [1])
    check_sample_size(y, 1.0)
    with pytest.raises(ValueError, match=r"1 row of class 0 \(of its 10\)"):
        check_sample_size(y, 0.1)


def test_constant_bootstrap_scores_give_no_perfect_stability():
    """Constant scores on every bootstrap put the lowest indices on top every time: Φ would be
    1.0 from the tie break alone; it is NaN, as APC."""
    def flat(X, y):
        return np.zeros(X.shape[1])

    X, y = _data()
    sel = EnsembleSelector(rankers=(flat, anova), n_bootstraps=4,
                           n_features_to_select=2, random_state=0).fit(X, y)
    row = sel.stability_.loc["flat"]
    assert np.isnan(row["nogueira"]) and np.isnan(row["nogueira_low"]) and np.isnan(row["apc"])
    assert np.isfinite(sel.stability_.loc["anova", "nogueira"])
    Xc = np.zeros_like(X)
    sel = EnsembleSelector(rankers=("info_gain",), n_bootstraps=3, n_features_to_select=2,
                           random_state=0).fit(Xc, y)
    assert sel.stability_["nogueira"].isna().all()


# ---------------------------------------------------------------------------- reduced size
@pytest.mark.parametrize("kw, match", [
    ({"fraction": 0.01}, r"fraction=0.01 keeps 1 of the 40 samples, 1 of class 0 .*at least 2 "
                         r"of every class"),
    ({"fraction": 0.05}, r"fraction=0.05 keeps 2 of the 40 samples"),
    ({"fraction": 0.05, "stratify": False}, r"keeps 2 of the 40 samples; at least 4"),
    ({"fraction": 1e-6, "stratify": False}, r"keeps 1 of the 40 samples"),
])
def test_reduced_size_refuses_near_empty_samples(kw, match):
    X, y = _data()
    calls = []

    def counted(X, y):
        calls.append(1)
        return anova(X, y)

    with pytest.raises(ValueError, match=match):
        reduced_size_correlation(counted, X, y, random_state=0, **kw)
    assert calls == []


def test_reduced_size_smallest_allowed_fraction_runs():
    X, y = _data()
    res = reduced_size_correlation(anova, X, y, fraction=0.1, random_state=0)
    assert res.n_samples == 4 and np.isfinite(res.mean)


def test_a_tie_across_the_cut_gives_no_stability():
    """One informative feature, the rest tied at 0: a top-3 would take features 1 and 2 by
    index on every bootstrap, Φ = 1 from the tie break. It is NaN; a top-1 (no tie at the cut)
    is measured."""
    def one_signal(X, y):
        s = np.zeros(X.shape[1])
        s[0] = 1.0 + abs(float(np.asarray(X)[0, 0]))
        return s

    X, y = _data()
    top3 = EnsembleSelector(rankers=(one_signal, anova), n_bootstraps=4, n_features_to_select=3,
                            random_state=0).fit(X, y)
    assert np.isnan(top3.stability_.loc["one_signal", "nogueira"])
    assert np.isfinite(top3.stability_.loc["one_signal", "asd"])
    assert np.isfinite(top3.stability_.loc["anova", "nogueira"])
    top1 = EnsembleSelector(rankers=(one_signal, anova), n_bootstraps=4, n_features_to_select=1,
                            random_state=0).fit(X, y)
    assert top1.stability_.loc["one_signal", "nogueira"] == 1.0  # feature 0 always on top
