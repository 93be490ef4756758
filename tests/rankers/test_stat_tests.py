"""Per-gene tests (rankfusion.rankers.stat_tests) against scipy.stats, and Benjamini–Hochberg
q-values against scipy and against the procedure worked by hand."""

import warnings

import numpy as np
import pytest
from scipy import stats

from rankfusion.rankers import (
    benjamini_hochberg,
    get_ranker,
    kruskal_wallis_test,
    mann_whitney_test,
    ranker_info,
    ranker_pvalues,
    welch_t_test,
)


def _data(kind, seed, n_classes=2, n=40, p=25):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    if kind == "ties":
        X = rng.integers(0, 4, size=(n, p)).astype(float)
    else:
        X = rng.normal(size=(n, p)) * rng.uniform(0.5, 3, p)
    X[:, 0] += y * 1.5
    return X, y


@pytest.mark.parametrize("kind", ["random", "ties"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_welch_against_scipy(kind, seed):
    X, y = _data(kind, seed)
    t, p = welch_t_test(X, y)
    for j in range(X.shape[1]):
        ref = stats.ttest_ind(X[y == 0, j], X[y == 1, j], equal_var=False)
        np.testing.assert_allclose(t[j], ref.statistic, rtol=1e-10)
        np.testing.assert_allclose(p[j], ref.pvalue, rtol=1e-9)
    np.testing.assert_allclose(get_ranker("welch_t")(X, y), np.abs(t), rtol=1e-12)


@pytest.mark.parametrize("kind", ["random", "ties"])
@pytest.mark.parametrize("seed", [0, 1])
def test_mann_whitney_against_scipy(kind, seed):
    X, y = _data(kind, seed)
    U, p = mann_whitney_test(X, y)
    z = get_ranker("mann_whitney")(X, y)
    for j in range(X.shape[1]):
        ref = stats.mannwhitneyu(X[y == 0, j], X[y == 1, j])
        assert U[j] == ref.statistic
        np.testing.assert_allclose(p[j], ref.pvalue, rtol=1e-12)
        # the ranker's score is the asymptotic test's z: its p-value is scipy's
        asym = stats.mannwhitneyu(X[y == 0, j], X[y == 1, j], method="asymptotic")
        np.testing.assert_allclose(min(1.0, 2 * stats.norm.sf(z[j])), asym.pvalue,
                                   rtol=1e-10)


@pytest.mark.parametrize("kind", ["random", "ties"])
@pytest.mark.parametrize("n_classes", [2, 3, 4])
def test_kruskal_against_scipy(kind, n_classes):
    X, y = _data(kind, n_classes, n_classes)
    H, p = kruskal_wallis_test(X, y)
    np.testing.assert_allclose(get_ranker("kruskal_wallis")(X, y), H, rtol=1e-12)
    for j in range(X.shape[1]):
        ref = stats.kruskal(*[X[y == k, j] for k in range(n_classes)])
        np.testing.assert_allclose(H[j], ref.statistic, rtol=1e-12)
        np.testing.assert_allclose(p[j], ref.pvalue, rtol=1e-10)


def test_equal_value_multisets_tie_exactly():
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 15)
    X = rng.integers(0, 5, size=(30, 2)).astype(float)
    X[:, 1] = X[np.r_[rng.permutation(15), 15 + rng.permutation(15)], 0]
    for name in ("welch_t", "mann_whitney", "kruskal_wallis"):
        s = get_ranker(name)(X, y)
        assert s[0] == s[1], name


def test_constant_feature_scores_zero_and_last():
    X, y = _data("random", 0)
    X[:, 3] = 2.0
    for name in ("welch_t", "mann_whitney", "kruskal_wallis"):
        with pytest.warns(UserWarning, match="constant"):
            s = get_ranker(name)(X, y)
        assert s[3] <= np.delete(s, 3).min()


def _bh_by_hand(p):
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    rank = {i: r + 1 for r, i in enumerate(order)}
    return np.array([min(1.0, min(m * p[j] / rank[j] for j in range(m) if p[j] >= p[i]))
                     for i in range(m)])


@pytest.mark.parametrize("seed", range(5))
def test_bh_against_hand_and_scipy(seed):
    rng = np.random.default_rng(seed)
    p = np.concatenate([rng.uniform(size=30), rng.uniform(0, 1e-3, 8), [0.02, 0.02, 1.0]])
    q = benjamini_hochberg(p)
    np.testing.assert_allclose(q, _bh_by_hand(list(p)), rtol=1e-12)
    if hasattr(stats, "false_discovery_control"):  # scipy >= 1.11
        np.testing.assert_allclose(q, stats.false_discovery_control(p, method="bh"),
                                   rtol=1e-12)


def test_bh_worked_example():
    # Benjamini & Hochberg's step-up on four p-values: 0.01·4/1, 0.03·4/2, 0.04·4/3, 0.5
    assert np.allclose(benjamini_hochberg([0.01, 0.04, 0.03, 0.5]),
                       [0.04, 0.04 * 4 / 3, 0.04 * 4 / 3, 0.5])


def test_pvalue_tags_and_refusal():
    for name in ("welch_t", "mann_whitney", "kruskal_wallis", "f_classif"):
        assert ranker_info(name).tags.get("pvalues") is True
    X, y = _data("random", 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(ranker_pvalues("anova", X, y),
                                   stats.f_oneway(X[y == 0], X[y == 1]).pvalue, rtol=1e-9)
    with pytest.raises(ValueError, match="gives no p-values.*welch_t"):
        ranker_pvalues("info_gain", X, y)


X_OK, Y_OK = _data("random", 0)
HOSTILE = [
    (welch_t_test, X_OK, np.arange(40) % 3, ValueError, "two classes"),
    (mann_whitney_test, X_OK, np.arange(40) % 3, ValueError, "kruskal_wallis"),
    (welch_t_test, X_OK, np.r_[np.zeros(39), 1], ValueError, "at least 2 rows"),
    (kruskal_wallis_test, X_OK, np.zeros(40), ValueError, "class"),
    (welch_t_test, np.where(np.eye(40, 25, dtype=bool), np.nan, X_OK), Y_OK, ValueError,
     "missing"),
    (benjamini_hochberg, [0.1, 1.5], None, ValueError, "pvalues"),
    (benjamini_hochberg, [0.1, np.nan], None, ValueError, "pvalues"),
    (benjamini_hochberg, [[0.1]], None, ValueError, "pvalues"),
    (benjamini_hochberg, ["a"], None, TypeError, "pvalues"),
]


@pytest.mark.parametrize("func,X,y,exc,match", HOSTILE)
def test_hostile_input(func, X, y, exc, match):
    with pytest.raises(exc, match=match):
        func(X) if y is None else func(X, y)
