"""ILFS (Roffo et al. 2017) as FSLib's ILFS.m, generalised to any number of classes."""

import os

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine

from conftest import CFS_DATA, ILFS_FIXTURES
from rankfusion.io import load_data
from rankfusion.rankers import get_ranker
from rankfusion.rankers.ilfs import _path_sum, ilfs, ilfs_relevance, ilfs_tokens

FIX = ILFS_FIXTURES
NAMES = ["synthetic", "diabetes", "parkinsons", "sonar", "ionosphere", "breast-w",
         "credit-g-numeric"]


def _load(name):
    """The data FSLib was run on (tests/fixtures/ilfs/make_fixtures.py)."""
    if name == "synthetic":
        d = np.loadtxt(os.path.join(FIX, "synthetic.data.csv"), delimiter=",")
        return d[:, :-1], d[:, -1].astype(int)
    if name == "credit-g-numeric":
        X, y = load_data(os.path.join(CFS_DATA, "credit-g.arff.gz"))
        X = X.select_dtypes("number")
    else:
        X, y = load_data(os.path.join(CFS_DATA, f"{name}.arff.gz"))
    Xv = X.to_numpy(dtype=float)
    keep = ~np.isnan(Xv).any(axis=1)
    codes = np.unique(y.astype(str).to_numpy(), return_inverse=True)[1] + 1
    return Xv[keep], codes[keep]


def _fslib(name):
    return np.genfromtxt(os.path.join(FIX, f"{name}.fslib.csv"), delimiter=",", names=True)


def _stuck(X, y):
    """Features FSLib starts at p(z1|f) = 0 or 1 (EM fixed point; documented departure)."""
    t = ilfs_tokens(X, np.unique(y, return_inverse=True)[1], 2, 4)
    prior = t[1:].sum(0) / len(y)
    return (prior == 0) | (prior == 1)


@pytest.mark.parametrize("name", NAMES)
def test_latent_relevance_equals_fslib_on_two_class_data(name):
    X, y = _load(name)
    fs = _fslib(name)
    v = ilfs_relevance(X, y, update_token_factor=False)
    ok = ~_stuck(X, y) | np.isin(fs["relevance"], [0.0, 1.0]) & (v == fs["relevance"])
    np.testing.assert_allclose(v[ok], fs["relevance"][ok], rtol=0, atol=1e-12)
    assert ok.sum() >= len(v) - 4


@pytest.mark.parametrize("name", NAMES)
def test_weights_equal_fslib_where_its_series_converges(name):
    """phi < 1: FSLib's weights are ours. phi = 1 (FSLib's inverse is singular, its weights
    rounding noise): our order is the order of FSLib's own p(z1|f), which its path sum would give
    if computed exactly."""
    X, y = _load(name)
    fs = _fslib(name)
    w = ilfs(X, y, update_token_factor=False)
    v = fs["relevance"]
    phi = np.ceil((v * v.sum()).max()) / v.size
    stuck = _stuck(X, y)
    same_v = np.array_equal(ilfs_relevance(X, y, update_token_factor=False)[stuck], v[stuck])
    if phi < 1 and same_v:  # ionosphere (its stuck feature is constant: 0 in both)
        np.testing.assert_allclose(w, fs["weight"], rtol=1e-10, atol=0)
    if phi >= 1:
        assert phi == 1.0
        ok = ~stuck
        i, j = np.nonzero(ok[:, None] & ok[None, :] & (v[:, None] > v[None, :]))
        assert np.all(w[i] > w[j])


def test_fslib_ranks_perfect_separators_last_we_rank_them_first():
    X, y = _load("synthetic")
    fs = _fslib("synthetic")
    stuck = _stuck(X, y)
    assert set(np.flatnonzero(stuck)) == {0, 8}
    assert set(np.argsort(fs["position"])[-2:]) == {0, 8}  # FSLib: last
    w = ilfs(X, y, update_token_factor=False)  # FSLib's model: they tie with the best
    assert w[0] == w[8] == w.max()
    order = np.argsort(-ilfs(X, y), kind="stable")
    assert set(order[:2]) == {0, 8}


def test_closed_form_path_sum_equals_matrix_inverse():
    rng = np.random.default_rng(0)
    for p in (3, 7, 20):
        v = rng.uniform(0.05, 0.6, p)
        A = np.outer(v, v)
        phi = np.ceil(A.sum(1).max()) / p
        assert phi < 1
        r = phi / np.linalg.eigvalsh(A).max()
        S = np.linalg.inv(np.eye(p) - r * A) - np.eye(p)
        np.testing.assert_allclose(_path_sum(v), S.sum(1), rtol=1e-10)


def test_rank_one_graph_orders_features_like_latent_relevance():
    X, y = load_wine(return_X_y=True)
    v = ilfs_relevance(X, y)
    w = ilfs(X, y)
    assert np.array_equal(np.argsort(-w, kind="stable"), np.argsort(-v, kind="stable"))


@pytest.mark.parametrize("multiclass", ["nearest", "sum"])
def test_multiclass_runs_and_two_class_modes_agree(multiclass):
    X, y = load_wine(return_X_y=True)
    s = get_ranker("ilfs")(X, y, multiclass=multiclass)
    assert s.shape == (13,) and np.isfinite(s).all() and (s >= 0).all()
    X2, y2 = _load("diabetes")
    np.testing.assert_array_equal(ilfs(X2, y2, multiclass="nearest"),
                                  ilfs(X2, y2, multiclass="sum"))


def test_tokens_are_matlab_histc_of_distance_ratio():
    X = np.array([[0.0], [1.0], [0.2], [3.0], [4.0], [2.9]])
    y = np.array([0, 0, 0, 1, 1, 1])
    t = ilfs_tokens(X, y, 2, 4)
    mu = np.array([0.4, 3.3])
    d = (X[:, 0, None] - mu) ** 2
    ratio = d[np.arange(6), y] / d.sum(1)
    expected = [np.sum((ratio >= a) & (ratio < b)) for a, b in
                [(0, 1 / 3), (1 / 3, 2 / 3), (2 / 3, 1)]] + [np.sum(ratio == 1)]
    assert t[:, 0].tolist() == expected
    assert t.sum() == 6


def test_informative_feature_beats_noise_and_missing_values_are_tolerated():
    rng = np.random.default_rng(5)
    y = np.repeat([0, 1, 2], 40)
    X = np.column_stack([y + rng.normal(0, 0.4, 120), rng.normal(size=120),
                         rng.normal(size=120)])
    X[[3, 50], 0] = np.nan
    s = ilfs(X, y)
    assert s[0] > s[1] and s[0] > s[2]


def test_fslib_m_step_saturates_ours_separates():
    # FSLib's untouched p(token|factor): every iris feature ends at p(z1|f) = 1 (a tie);
    # with the M-step the petal features come first, as every filter ranks them
    X, y = load_iris(return_X_y=True)
    fslib_like = ilfs_relevance(X, y, update_token_factor=False)
    assert np.all(fslib_like > 0.99999)
    v = ilfs_relevance(X, y)
    assert set(np.argsort(-v)[:2]) == {2, 3}



def test_constant_features_get_finite_zero_scores():
    import warnings

    X = np.ones((6, 2))
    y = [0, 1, 0, 1, 0, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", "ilfs: every column is constant", UserWarning)
        for update in (True, False):
            assert ilfs(X, y, update_token_factor=update).tolist() == [0.0, 0.0]


def test_bad_parameters():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="multiclass"):
        ilfs(X, y, multiclass="max")
    with pytest.raises(ValueError, match="n_tokens"):
        ilfs(X, y, n_tokens=2)
