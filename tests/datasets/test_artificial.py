"""Izetta et al.'s artificial problems (rankfusion.datasets.artificial) and what they show:
K-First ranks class-specific features above flat ones (Tables 4–5)."""

import numpy as np
import pytest

from rankfusion import aggregate
from rankfusion.datasets import ARTIFICIAL_DATASETS, load_artificial, make_artificial
from rankfusion.rankers import joint_rfe, rfe_lists


def test_table_3_shapes():
    expected = {"Artificial-1-3C": 15, "Artificial-1-4C": 20, "Artificial-1-5C": 25,
                "Artificial-1-8C": 40, "Artificial-1-16C": 80, "Artificial-2-8C": 25,
                "Artificial-3-3C": 15, "Artificial-3-8C": 40, "Artificial-3-16C": 80}
    assert set(ARTIFICIAL_DATASETS) == set(expected)
    for name, r in expected.items():
        d = load_artificial(name, random_state=0, n_samples=160)
        assert d.data.shape == (160, r + 500), name
        assert d.relevant.tolist() == list(range(r))
        assert (d.relevance[:r] > 0).all() and (d.relevance[r:] == 0).all()
        c = ARTIFICIAL_DATASETS[name][1]
        assert np.bincount(d.target).tolist() == [160 // c + (k < 160 % c) for k in range(c)]


def test_defaults_are_the_papers():
    d = make_artificial(1, 3, random_state=1)
    assert d.data.shape == (3000, 515) and d.name == "Artificial-1-3C"
    noise = d.data[:, 15:]
    assert abs(noise.mean()) < 0.01 and abs(noise.std() - 1.0) < 0.01
    # relevant SD 0.5 within each class; class k shifted on its own five features only
    rel = d.data[d.target == 1][:, :15]
    assert np.allclose(rel.std(axis=0), 0.5, atol=0.05)
    assert np.allclose(rel.mean(axis=0)[5:10], d.means[1, 5], atol=0.06) and d.means[1, 5] > 0
    assert np.allclose(rel.mean(axis=0)[[0, 1, 2, 3, 4, 10, 11, 12, 13, 14]], 0.0, atol=0.06)


def test_artificial_2_structure():
    d = make_artificial(2, 8, random_state=0, n_samples=800)
    mu = d.means
    assert d.relevance[:25].tolist() == [1] * 5 + [2] * 5 + [3] * 15
    # features 0-4: classes 0, 1, 2 only; 5-9: classes 3, 4; then one class per group
    assert (np.abs(mu[:, :5]).sum(axis=1) > 0).tolist() == [True] * 3 + [False] * 5
    assert (np.abs(mu[:, 5:10]).sum(axis=1) > 0).tolist() == [False] * 3 + [True] * 2 + [False] * 3
    for g, k in ((2, 5), (3, 6), (4, 7)):
        assert np.flatnonzero(np.abs(mu[:, 5 * g:5 * g + 5]).sum(axis=1)).tolist() == [k]
    # three levels of relevance, decreasing
    assert np.abs(mu[0, 0]) > np.abs(mu[3, 5]) > np.abs(mu[5, 10])
    with pytest.raises(ValueError, match="8 classes"):
        make_artificial(2, 5)


def test_artificial_3_every_relevant_feature_moves_every_class():
    d = make_artificial(3, 4, random_state=0, n_samples=400)
    assert (d.means != 0).all() and d.means.shape == (4, 20)


def test_seeded_shuffled_and_frames():
    a = make_artificial(1, 3, random_state=5, n_samples=90)
    b = make_artificial(1, 3, random_state=5, n_samples=90)
    np.testing.assert_array_equal(a.data, b.data)
    c = make_artificial(1, 3, random_state=6, n_samples=90)
    assert not np.array_equal(a.data, c.data)
    s = make_artificial(1, 3, random_state=5, n_samples=90, shuffle=True)
    assert sorted(s.relevant.tolist()) != list(range(15))
    assert (s.relevance[s.relevant] > 0).all()
    assert all(s.feature_names[j].startswith("rel_") for j in s.relevant)
    f = make_artificial(1, 3, random_state=5, n_samples=90, as_frame=True)
    assert list(f.data.columns[:2]) == ["rel_0", "rel_1"] and f.target.name == "class"
    with pytest.raises(ValueError, match="kind"):
        make_artificial(4)
    with pytest.raises(ValueError, match="n_samples"):
        make_artificial(1, 3, n_samples=2)


def _positions(name, seed, n_samples):
    # the first generator's (easier) problems: K-First's lead there is large and stable; on
    # the calibrated ones see benchmarks/results/artificial_rules.md
    d = load_artificial(name, random_state=seed, n_samples=n_samples, version="v1")
    lists, _ = rfe_lists(d.data, d.target, decomposition="ovo")
    mean = {m: aggregate(lists, m).ranks[d.relevant].mean()
            for m in ("kfirst", "average_sd", "copeland")}
    mean["average"] = joint_rfe(d.data, d.target, criterion="average").ranking[d.relevant].mean()
    return mean


def _check_kfirst(mean):
    # Izetta Tables 4–5: K-First far ahead of Average-SD and Condorcet (Copeland) …
    assert mean["kfirst"] < mean["average_sd"] / 2, mean
    assert mean["kfirst"] < mean["copeland"] / 2, mean
    # … and not behind the usual joint weight average by more than 5 positions
    assert mean["kfirst"] <= mean["average"] + 5, mean


@pytest.mark.parametrize("name,seed", [("Artificial-1-8C", 0), ("Artificial-2-8C", 1)])
def test_kfirst_ranks_class_specific_features_first(name, seed):
    """K-First ranks class-specific features above flat ones (CI size: 1000 samples)."""
    _check_kfirst(_positions(name, seed, 1000))


@pytest.mark.full
@pytest.mark.parametrize("name", ["Artificial-1-8C", "Artificial-2-8C"])
def test_kfirst_on_the_papers_datasets(name):
    """The same at the paper's size (3000 samples, 500 noise features), over seeds 0–2.

    At this size K-First (and the joint average) reach the floor — every relevant feature
    first — while Average-SD and Copeland vary much from seed to seed (benchmarks notes), so
    the claim is checked on the mean over the three seeds.
    """
    runs = [_positions(name, seed, 3000) for seed in (0, 1, 2)]
    _check_kfirst({m: np.mean([r[m] for r in runs]) for m in runs[0]})
