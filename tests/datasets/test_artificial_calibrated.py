"""The calibrated artificial problems (``make_artificial``, ``version="v2"``) and the first
generator kept as ``version="v1"``.

Oracles: stored digests of the first generator's output (bit-for-bit compatibility); the
class-mean geometry checked pair by pair; the Bayes error recomputed with scipy's normal
densities on a fresh Monte-Carlo sample, independent of :func:`artificial_bayes_error`'s
nearest-mean form.
"""

import hashlib
import itertools

import numpy as np
import pytest
from scipy import stats

from rankfusion.datasets import (
    ARTIFICIAL_DATASETS,
    ARTIFICIAL_DIFFICULTY,
    artificial_bayes_error,
    load_artificial,
    make_artificial,
)
from rankfusion.datasets import artificial as artificial_module


def _digest(d):
    m = hashlib.sha256()
    for a in (d.data, d.target, d.relevant, d.means):
        m.update(np.ascontiguousarray(a).tobytes())
    return m.hexdigest()[:16]


# Digests of the first generator's output, computed before the calibrated version existed.
V1_DIGESTS = [
    ((1, 3), dict(random_state=5, n_samples=90), "5faf1b0077488653"),
    ((2, 8), dict(random_state=0, n_samples=200), "c6baafe4b42195e4"),
    ((3, 4), dict(random_state=1, n_samples=120, shuffle=True), "c936c2ef193af07e"),
    ((3, 8), dict(random_state=7, n_samples=100, n_noise=20), "afc3abbd25602b7f"),
]


@pytest.mark.parametrize("args,kw,digest", V1_DIGESTS)
def test_v1_is_bit_identical_to_the_first_generator(args, kw, digest):
    assert _digest(make_artificial(*args, version="v1", **kw)) == digest


def test_v1_with_a_generator_seed():
    d = make_artificial(1, 16, version="v1", random_state=np.random.default_rng(3),
                        n_samples=64, n_noise=5)
    assert _digest(d) == "7f8ea958c4de151f"


@pytest.mark.parametrize("c", [3, 4, 5, 8, 16])
def test_artificial_3_every_feature_separates_every_pair(c):
    d = make_artificial(3, c, n_samples=c, n_noise=0, random_state=0)
    sep = artificial_module._default_separation(3, c)
    mu = d.means
    assert mu.shape == (c, 5 * c)
    margin = sep - 1e-12  # stated margin: adjacent class levels are `separation` apart
    for f in range(mu.shape[1]):
        gaps = [abs(mu[k, f] - mu[m, f]) for k, m in itertools.combinations(range(c), 2)]
        assert len(gaps) == c * (c - 1) // 2
        assert min(gaps) >= margin, (f, min(gaps), sep)
    # the levels are equally spaced and centred on every feature
    np.testing.assert_allclose(np.sort(mu, axis=0),
                               np.tile(sep * (np.arange(c) - (c - 1) / 2)[:, None],
                                       (1, mu.shape[1])), atol=1e-12)
    # … in different class orders on different features
    assert len({tuple(np.argsort(mu[:, f])) for f in range(mu.shape[1])}) > 1


def test_v1_artificial_3_does_not_separate_every_pair():
    """The property above is not vacuous: the first generator's ± signs fail it."""
    mu = make_artificial(3, 8, version="v1", n_samples=8, n_noise=0, random_state=0).means
    pairs = [[abs(mu[k, f] - mu[m, f]) > 0 for k, m in itertools.combinations(range(8), 2)]
             for f in range(mu.shape[1])]
    assert max(sum(p) for p in pairs) < 28


def test_samples_follow_the_stated_means():
    d = make_artificial(3, 3, n_samples=30_000, n_noise=4, random_state=1)
    for k in range(3):
        rows = d.data[d.target == k]
        se = 0.5 / np.sqrt(rows.shape[0])
        assert np.all(np.abs(rows[:, :15].mean(0) - d.means[k]) < 5 * se)
        assert np.allclose(rows[:, :15].std(0), 0.5, atol=0.02)
        assert np.all(np.abs(rows[:, 15:].mean(0)) < 5 / np.sqrt(rows.shape[0]))


@pytest.mark.parametrize("name", list(ARTIFICIAL_DATASETS))
def test_shapes_and_determinism(name):
    kind, c = ARTIFICIAL_DATASETS[name]
    a = load_artificial(name, n_samples=2 * c + 1, random_state=3)
    b = load_artificial(name, n_samples=2 * c + 1, random_state=3)
    r = 25 if kind == 2 else 5 * c
    assert a.data.shape == (2 * c + 1, r + 500) and a.means.shape == (c, r)
    np.testing.assert_array_equal(a.data, b.data)
    # the v2 means are fixed: they do not depend on the seed
    np.testing.assert_array_equal(a.means, load_artificial(name, n_samples=c,
                                                           random_state=99).means)
    assert not np.array_equal(a.data, load_artificial(name, n_samples=2 * c + 1,
                                                      random_state=4).data)
    assert a.version == "v2" and np.isclose(a.priors.sum(), 1.0)


def test_artificial_1_and_2_structure_scaled_by_separation():
    d = make_artificial(1, 4, n_samples=4, n_noise=0, separation=0.7)
    expected = np.zeros((4, 20))
    for k in range(4):
        expected[k, 5 * k:5 * k + 5] = 0.7
    np.testing.assert_array_equal(d.means, expected)
    e = make_artificial(2, 8, n_samples=8, n_noise=0, separation=0.9)
    assert np.isclose(e.means[0, 0], 0.9) and np.isclose(e.means[3, 5], 0.6)
    assert np.isclose(e.means[5, 10], 0.9 * 8 / 15)
    assert np.isclose(e.means[1, 0], -0.9) and e.means[2, :5].tolist() == pytest.approx(
        [0.9, -0.9, 0.9, -0.9, 0.9])


def test_default_separation_interpolates_in_log_classes():
    s5, s8 = (artificial_module._default_separation(1, c) for c in (5, 8))
    s6 = make_artificial(1, 6, n_samples=6, n_noise=0).means.max()
    assert min(s5, s8) <= s6 <= max(s5, s8)
    default = artificial_module._default_separation
    assert default(3, 16) == default(3, 8) and default(1, 2) == default(1, 3)


def _bayes_scipy(d, n, seed):
    """Independent oracle: classify fresh points by the largest log posterior, with scipy's
    normal log densities summed over the relevant features."""
    rng = np.random.default_rng(seed)
    c, r = d.means.shape
    y = rng.choice(c, size=n, p=d.priors)
    x = d.means[y] + d.sd * rng.normal(size=(n, r))
    logpost = np.stack([np.log(d.priors[k]) + stats.norm.logpdf(x, d.means[k], d.sd).sum(1)
                        for k in range(c)], axis=1)
    return np.mean(logpost.argmax(1) != y)


@pytest.mark.parametrize("name", list(ARTIFICIAL_DATASETS))
def test_stated_bayes_errors(name):
    stated = ARTIFICIAL_DIFFICULTY[name]["bayes"]
    d = load_artificial(name, n_noise=0, random_state=0)
    n = 10_000 if ARTIFICIAL_DATASETS[name][1] < 16 else 5_000
    tol = 4 * np.sqrt(stated * (1 - stated) / n) + 0.002
    assert abs(_bayes_scipy(d, n, seed=12345) - stated) < tol
    e, se = artificial_bayes_error(d, n_samples=n, random_state=7)
    assert abs(e - stated) < tol and np.isclose(se, np.sqrt(e * (1 - e) / n))


def test_documented_table_is_consistent():
    doc = artificial_module.__doc__ + make_artificial.__doc__
    for name, row in ARTIFICIAL_DIFFICULTY.items():
        assert f"{row['bayes']:.3f}" in doc and f"{row['svm']:.3f}" in doc, name
        chance = 1 - 1 / ARTIFICIAL_DATASETS[name][1]
        assert row["bayes"] < row["svm"] < chance
        if row["paper"] is not None:  # calibrated: the SVM error lies in the plotted range
            lo, hi = row["paper"]
            assert lo - 0.02 <= row["svm"] <= hi and abs(row["svm"] - row["target"]) < 0.03


@pytest.mark.parametrize("kwargs,match", [
    (dict(version="v3"), "version"),
    (dict(separation=-1.0), "separation"),
    (dict(separation=0.0), "separation"),
    (dict(separation=float("nan")), "separation"),
    (dict(separation="1"), "separation"),
    (dict(separation=True), "separation"),
    (dict(shift=0.5), "shift"),
    (dict(version="v1", separation=0.5), "separation"),
    (dict(version="v1", shift=-0.5), "shift"),
    (dict(levels=(1.0, 0.5)), "levels"),
    (dict(levels="abc"), "levels"),
    (dict(levels=(1.0, -0.5, 0.2)), "levels"),
    (dict(relevant_sd=0.0), "relevant_sd"),
    (dict(relevant_sd=float("inf")), "relevant_sd"),
    (dict(n_classes=1), "n_classes"),
    (dict(n_noise=-1), "n_noise"),
])
def test_hostile_inputs(kwargs, match):
    # a value of the wrong kind (a string, a bool for a number) is a TypeError, one out of
    # range a ValueError; both name the argument
    args = dict(kind=1, n_classes=3, n_samples=30)
    args.update(kwargs)
    with pytest.raises((ValueError, TypeError), match=match):
        make_artificial(**args)


@pytest.mark.parametrize("kwargs", [dict(n_samples=0), dict(n_samples=1.5), dict(chunk=0),
                                    dict(n_samples=True)])
def test_bayes_error_hostile_inputs(kwargs):
    d = make_artificial(1, 3, n_samples=3, n_noise=0)
    name = next(iter(kwargs))
    with pytest.raises((ValueError, TypeError), match=f"^{name} must be an int ≥ 1"):
        artificial_bayes_error(d, **kwargs)
