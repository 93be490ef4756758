"""The prepared kernels of f_classif and chi2 (an ensemble's many bootstrap calls) give the
registered rankers' scores bit for bit, and decline every input they are not made for."""

import warnings

import numpy as np
import pytest
from sklearn.feature_selection import chi2 as sk_chi2
from sklearn.feature_selection import f_classif as sk_f_classif

from rankfusion.rankers import get_ranker, prepared_kernel


def _data(seed, n_classes, constant=False, extreme=False):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 60))
    p = int(rng.integers(1, 40))
    y = rng.integers(0, n_classes, size=n)
    y[:n_classes] = np.arange(n_classes)  # every class present
    X = rng.gamma(2.0, 1.0, size=(n, p)) * 10.0 ** rng.integers(-3, 4, size=p)
    X[:, 0] += y  # one informative feature
    if constant and p > 1:
        X[:, 1] = 3.0
    if extreme and p > 2:
        X[:, 2] *= 2.0 ** 300
    return X, y


CASES = [(seed, c, seed % 3 == 0, seed % 5 == 0) for seed in range(60) for c in (2, 3, 5)]


@pytest.mark.parametrize("name,sk", [("f_classif", sk_f_classif), ("chi2", sk_chi2)])
@pytest.mark.parametrize("seed,n_classes,constant,extreme", CASES)
def test_bit_equal_to_the_registered_ranker(name, sk, seed, n_classes, constant, extreme):
    X, y = _data(seed, n_classes, constant, extreme)
    func = get_ranker(name)
    kernel = prepared_kernel(func, X)
    assert kernel is not None
    rows = np.random.default_rng(seed + 1000).integers(0, X.shape[0], size=X.shape[0])
    rows[:n_classes] = np.flatnonzero(np.isin(y, np.arange(n_classes)))[:n_classes]
    Xb, yb = X[rows], y[rows]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = kernel(Xb, yb)
        theirs = func(Xb, yb)
        if not extreme:  # scikit-learn itself, on data of ordinary scale
            raw = np.nan_to_num(np.asarray(sk(Xb, yb)[0], dtype=np.float64), nan=0.0)
            assert np.array_equal(ours, raw)
    assert ours.dtype == np.float64
    assert np.array_equal(ours, theirs)  # bit for bit, NaN → 0 included


@pytest.mark.parametrize("name", ["f_classif", "chi2"])
def test_absent_class_codes_as_scikit_learn(name):
    # a sample that misses class 1 of 0..2: scikit-learn's groups are the classes present
    X, y = _data(7, 3)
    keep = y != 1
    func = get_ranker(name)
    kernel = prepared_kernel(func, X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.array_equal(kernel(X[keep], y[keep]), func(X[keep], y[keep]))


def test_constant_feature_scores_zero_without_a_warning_per_sample():
    # the registered ranker names constant columns once; the kernel runs on many samples
    X, y = _data(3, 2, constant=True)
    kernel = prepared_kernel(get_ranker("f_classif"), X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = kernel(X, y)
    assert out[1] == 0.0


X_OK, Y_OK = _data(1, 2)
HOSTILE = [
    ("a list, not an array", X_OK.tolist(), "f_classif"),
    ("float32", X_OK.astype(np.float32), "f_classif"),
    ("int", X_OK.astype(np.int64), "chi2"),
    ("1-D", X_OK[:, 0].copy(), "f_classif"),
    ("one row", X_OK[:1].copy(), "f_classif"),
    ("no feature", X_OK[:, :0].copy(), "chi2"),
    ("NaN", np.where(np.eye(*X_OK.shape, dtype=bool), np.nan, X_OK), "f_classif"),
    ("inf", np.where(np.eye(*X_OK.shape, dtype=bool), np.inf, X_OK), "chi2"),
    ("negative, for chi2", X_OK - 100.0, "chi2"),
    ("a DataFrame", __import__("pandas").DataFrame(X_OK), "f_classif"),
]


@pytest.mark.parametrize("what,X,name", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_declines_what_it_is_not_made_for(what, X, name):
    assert prepared_kernel(get_ranker(name), X) is None


@pytest.mark.parametrize("name", ["relieff", "info_gain", "mutual_info_classif"])
def test_rankers_without_a_kernel(name):
    assert prepared_kernel(get_ranker(name), X_OK) is None


@pytest.mark.parametrize("name", ["f_classif", "chi2"])
def test_one_class_left_to_the_ranker(name):
    kernel = prepared_kernel(get_ranker(name), X_OK)
    assert kernel(X_OK, np.zeros(X_OK.shape[0], dtype=np.int64)) is None


def test_chi2_overflow_left_to_the_ranker():
    X = np.array([[1e308, 0.0], [0.0, 1.0], [1e308, 1.0], [0.0, 0.0]])
    y = np.array([0, 1, 0, 1])
    kernel = prepared_kernel(get_ranker("chi2"), X)
    assert kernel(X, y) is None
    with pytest.raises(ValueError, match="exceeds the float range"):
        get_ranker("chi2")(X, y)


def test_caller_array_untouched():
    X, y = _data(11, 3, extreme=True)
    before = X.copy()
    prepared_kernel(get_ranker("chi2"), X)(X, y)
    prepared_kernel(get_ranker("f_classif"), X)(X, y)
    assert np.array_equal(X, before)
