"""Sparse X in the four selectors (docs/design.md, 'Sparse input'): ``accept_sparse`` is False
or "densify" and nothing else; a sparse X reaches the sparse-capable rankers sparse and a
dense-only ranker dense only when densifying was asked, within the memory check; a densified
fit equals the dense fit exactly; sparse and dense inputs give the same rankings; the
scikit-learn tag ``input_tags.sparse`` says what ``fit`` does."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.feature_selection import chi2 as sk_chi2
from sklearn.feature_selection import f_classif as sk_f_classif
from sklearn.svm import LinearSVC

from rankfusion import SVMRFE, BorutaSelector, EnsembleSelector, StabilitySelector


def _counts(n=40, p=30, density=0.2, seed=0):
    rng = np.random.default_rng(seed)
    dense = np.where(rng.random((n, p)) < density, 1.0 + rng.poisson(2.0, (n, p)), 0.0)
    y = np.repeat([0, 1], n // 2)
    dense[y == 1, :3] += 2.0  # three relevant count features
    return dense, y


def _dense_only(X, y):
    """sklearn's f_classif as a user function: it declares no sparse support."""
    return np.nan_to_num(sk_f_classif(np.asarray(X), y)[0])


# one cheap fit per selector with a dense-only ranker (docs/design.md, 'Sparse input')
DENSE_ONLY = {
    "ensemble": lambda **kw: EnsembleSelector(rankers=["chi2", "relieff"],
                                              n_features_to_select=5, **kw),
    "svm_rfe": lambda **kw: SVMRFE(criterion="weston_watkins", n_features_to_select=5, **kw),
    "stability": lambda **kw: StabilitySelector(rankers=["relieff"], q=4, threshold=0.6,
                                                n_subsamples=4, random_state=0, **kw),
    "boruta": lambda **kw: BorutaSelector(_dense_only, max_iter=4, random_state=0, **kw),
}


def _y3(y):
    return np.arange(y.shape[0]) % 3  # three classes, for Weston–Watkins


def _fit(name, X, y, **kw):
    return DENSE_ONLY[name](**kw).fit(X, _y3(y) if name == "svm_rfe" else y)


BAD_VALUES = [(True, ValueError), ("yes", ValueError), ("csr", ValueError),
              ("Densify", ValueError), (1, TypeError), (0, TypeError), (None, TypeError),
              (np.False_, TypeError), (["densify"], TypeError)]


@pytest.mark.parametrize("value, exc", BAD_VALUES, ids=[repr(v) for v, _ in BAD_VALUES])
@pytest.mark.parametrize("name", list(DENSE_ONLY))
def test_hostile_accept_sparse_values(name, value, exc):
    dense, y = _counts()
    with pytest.raises(exc, match=r"accept_sparse must be False or 'densify', got"):
        _fit(name, sp.csr_matrix(dense), y, accept_sparse=value)


@pytest.mark.parametrize("name", list(DENSE_ONLY))
def test_refusal_names_the_option_and_densify_equals_dense(name):
    dense, y = _counts()
    X = sp.csr_matrix(dense)
    before = (X.data.copy(), X.indices.copy(), X.indptr.copy())
    with pytest.raises(TypeError, match=r"cannot take it .*accept_sparse='densify'"):
        _fit(name, X, y)
    got = _fit(name, X, y, accept_sparse="densify")
    want = _fit(name, dense, y)
    np.testing.assert_array_equal(got.get_support(), want.get_support())
    np.testing.assert_array_equal(got.ranking_, want.ranking_)
    for attr in ("positions_", "scores_", "selection_probabilities_", "hits_",
                 "importance_history_"):
        if hasattr(want, attr):
            np.testing.assert_array_equal(getattr(got, attr), getattr(want, attr))
    for a, b in zip(before, (X.data, X.indices, X.indptr)):  # the caller's matrix kept
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("how", ["env", "tiny"])
@pytest.mark.parametrize("name", list(DENSE_ONLY))
def test_memory_check_refuses_an_oversize_dense_copy(name, how, monkeypatch):
    dense, y = _counts()
    monkeypatch.setenv("RANKFUSION_MAX_MEMORY", "1K" if how == "env" else "9000")
    # 40 × 30 × 8 = 9600 bytes dense: above both limits (Boruta's shadows double it)
    with pytest.raises(MemoryError, match=r"above the limit .*RANKFUSION_MAX_MEMORY"):
        _fit(name, sp.csr_matrix(dense), y, accept_sparse="densify")


def test_memory_check_comes_before_any_ranker_call(monkeypatch):
    calls = []

    def spy(X, y):
        calls.append(type(X))
        return sk_chi2(X, y)[0]

    spy.accept_sparse = True
    dense, y = _counts()
    monkeypatch.setenv("RANKFUSION_MAX_MEMORY", "1K")
    with pytest.raises(MemoryError):
        EnsembleSelector(rankers=[spy, _dense_only], n_features_to_select=3,
                         accept_sparse="densify").fit(sp.csr_matrix(dense), y)
    assert calls == []


# ------------------------------------------------------------------ the type each ranker gets
class _Spies:
    def __init__(self):
        self.seen = {"sparse_ranker": set(), "dense_ranker": set()}

        def sparse_ranker(X, y):
            self.seen["sparse_ranker"].add("sparse" if sp.issparse(X) else type(X).__name__)
            return np.nan_to_num(sk_chi2(X, y)[0])  # an empty column of a half: 0

        def dense_ranker(X, y):
            self.seen["dense_ranker"].add("sparse" if sp.issparse(X) else type(X).__name__)
            return np.nan_to_num(sk_f_classif(np.asarray(X), y)[0])

        sparse_ranker.accept_sparse = True
        self.sparse_ranker, self.dense_ranker = sparse_ranker, dense_ranker


SPY_SELECTORS = {
    "ensemble": lambda s, **kw: EnsembleSelector(rankers=[s.sparse_ranker, s.dense_ranker],
                                                 n_bootstraps=2, random_state=0,
                                                 n_features_to_select=4, **kw),
    "ensemble_nested": lambda s, **kw: EnsembleSelector(
        rankers=[s.sparse_ranker, s.dense_ranker], n_features_to_select="k-step",
        estimators=[LinearSVC()], subset_grid=[2, 4], cv=2, random_state=0, **kw),
    "stability": lambda s, **kw: StabilitySelector(rankers=[s.sparse_ranker, s.dense_ranker],
                                                   q=4, threshold=0.6, n_subsamples=4,
                                                   random_state=0, **kw),
}


@pytest.mark.parametrize("name", list(SPY_SELECTORS))
def test_type_reaching_each_ranker(name):
    dense, y = _counts()
    spies = _Spies()
    with pytest.raises(TypeError, match="dense_ranker cannot take it"):
        SPY_SELECTORS[name](spies).fit(sp.csr_matrix(dense), y)
    assert spies.seen == {"sparse_ranker": set(), "dense_ranker": set()}  # refused first
    SPY_SELECTORS[name](spies, accept_sparse="densify").fit(sp.csr_matrix(dense), y)
    assert spies.seen == {"sparse_ranker": {"sparse"}, "dense_ranker": {"ndarray"}}
    spies = _Spies()
    SPY_SELECTORS[name](spies, accept_sparse="densify").fit(dense, y)  # dense stays dense
    assert spies.seen == {"sparse_ranker": {"ndarray"}, "dense_ranker": {"ndarray"}}


@pytest.mark.parametrize("densify", [False, True])
def test_type_reaching_boruta_ranker(densify):
    dense, y = _counts()
    spies = _Spies()
    kw = {"accept_sparse": "densify"} if densify else {}
    BorutaSelector(spies.sparse_ranker, max_iter=3, random_state=0, **kw).fit(
        sp.csr_matrix(dense), y)
    assert spies.seen["sparse_ranker"] == {"sparse"}  # never densified, asked or not
    if densify:
        BorutaSelector(spies.dense_ranker, max_iter=3, random_state=0, **kw).fit(
            sp.csr_matrix(dense), y)
        assert spies.seen["dense_ranker"] == {"ndarray"}
    else:
        with pytest.raises(TypeError, match="ranker dense_ranker cannot take it"):
            BorutaSelector(spies.dense_ranker, max_iter=3).fit(sp.csr_matrix(dense), y)
        assert spies.seen["dense_ranker"] == set()


class _SpyLinearSVC(LinearSVC):
    """A linear SVM that records the type of X it is fitted on; ``dense_only`` makes its
    scikit-learn tags say it takes dense X only."""

    seen: set = set()

    def __init__(self, C=1.0, dense_only=False):
        super().__init__(C=C)
        self.dense_only = dense_only

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = not self.dense_only
        return tags

    def fit(self, X, y, sample_weight=None):
        type(self).seen.add("sparse" if sp.issparse(X) else type(X).__name__)
        return super().fit(X, y, sample_weight)


@pytest.mark.parametrize("dense_only", [False, True])
def test_type_reaching_svmrfe_estimator(dense_only):
    dense, y = _counts()
    _SpyLinearSVC.seen = set()
    sel = SVMRFE(estimator=_SpyLinearSVC(dense_only=dense_only), n_features_to_select=4)
    if dense_only:
        with pytest.raises(TypeError, match="accept_sparse='densify'"):
            sel.fit(sp.csr_matrix(dense), y)
        assert _SpyLinearSVC.seen == set()
        sel.set_params(accept_sparse="densify").fit(sp.csr_matrix(dense), y)
        assert _SpyLinearSVC.seen == {"ndarray"}
    else:
        sel.fit(sp.csr_matrix(dense), y)
        assert _SpyLinearSVC.seen == {"sparse"}
    np.testing.assert_array_equal(
        sel.positions_, SVMRFE(estimator=LinearSVC(), n_features_to_select=4).fit(
            dense, y).positions_)


# ------------------------------------------------------------------ sparse = dense rankings
def test_stability_and_boruta_sparse_equal_dense():
    dense, y = _counts(n=60, p=25, seed=3)
    for fmt in (sp.csr_matrix, sp.csc_matrix, sp.coo_matrix):
        got = StabilitySelector(rankers=["chi2"], q=4, threshold=0.6, n_subsamples=6,
                                random_state=1).fit(fmt(dense), y)
        want = StabilitySelector(rankers=["chi2"], q=4, threshold=0.6, n_subsamples=6,
                                 random_state=1).fit(dense, y)
        np.testing.assert_array_equal(got.positions_, want.positions_)
        np.testing.assert_array_equal(got.support_, want.support_)
        # the forest grows the same trees on CSC as on dense data; the shadows shuffle alike
        got = BorutaSelector(("random_forest", {"n_estimators": 10}), max_iter=6,
                             random_state=2).fit(fmt(dense), y)
        want = BorutaSelector(("random_forest", {"n_estimators": 10}), max_iter=6,
                              random_state=2).fit(dense, y)
        np.testing.assert_array_equal(got.importance_history_, want.importance_history_)
        np.testing.assert_array_equal(got.shadow_max_history_, want.shadow_max_history_)
        np.testing.assert_array_equal(got.ranking_, want.ranking_)


def test_sparse_shadows_are_the_dense_shuffle():
    from rankfusion.selection.boruta import sparse_shadows

    dense, _ = _counts(n=18, p=9, seed=4)
    got = sparse_shadows(sp.csc_matrix(dense), np.random.default_rng(5))
    want = np.random.default_rng(5).permuted(dense, axis=0)
    assert sp.issparse(got)
    np.testing.assert_array_equal(got.toarray(), want)


def test_stability_regression_sparse_equals_dense():
    rng = np.random.default_rng(0)
    dense = np.where(rng.random((80, 30)) < 0.3, rng.random((80, 30)) * 3, 0.0)
    y = dense[:, :3] @ np.array([2.0, -1.5, 1.0]) + 0.1 * rng.normal(size=80)
    got = StabilitySelector(q=4, threshold=0.7, n_subsamples=6, random_state=0).fit(
        sp.csr_matrix(dense), y)
    want = StabilitySelector(q=4, threshold=0.7, n_subsamples=6, random_state=0).fit(dense, y)
    assert got.task_ == want.task_ == "regression" and got.rankers_ == ("f_regression",)
    np.testing.assert_array_equal(got.positions_, want.positions_)
    assert np.flatnonzero(got.support_).tolist() == [0, 1, 2]


# ------------------------------------------------------------------ the scikit-learn tag
TAGS = [  # (selector, tag, target of the fit that shows it)
    (EnsembleSelector(rankers=["chi2", "info_gain"]), True, "classes"),
    (EnsembleSelector(rankers=["chi2", "relieff"]), False, "classes"),
    (EnsembleSelector(rankers=["chi2", "relieff"], accept_sparse="densify"), True, "classes"),
    (SVMRFE(), True, "classes"),
    (SVMRFE(), True, "numbers"),  # the linear SVR takes CSR
    (SVMRFE(criterion="weston_watkins"), False, "classes"),
    (SVMRFE(criterion="weston_watkins", accept_sparse="densify"), True, "classes"),
    (StabilitySelector(), True, "classes"),  # f_classif and f_regression both take it
    (StabilitySelector(), True, "numbers"),
    (StabilitySelector(rankers=["relieff"]), False, "classes"),
    (StabilitySelector(rankers=["relieff"], accept_sparse="densify"), True, "classes"),
    # task="auto", ranker=None: True only if both defaults take it, and the regressor's
    # forest does not (class labels would fit: the tag errs on the safe side)
    (BorutaSelector(), False, "numbers"),
    (BorutaSelector(task="classification"), True, "classes"),
    (BorutaSelector(task="regression"), False, "numbers"),
    (BorutaSelector(task="regression", accept_sparse="densify"), True, "numbers"),
    (BorutaSelector("f_classif"), True, "classes"),
]


@pytest.mark.parametrize("selector, sparse, target", TAGS,
                         ids=[f"{t[0]!r}-{t[2]}" for t in TAGS])
def test_sparse_tag_says_what_fit_does(selector, sparse, target):
    assert selector.__sklearn_tags__().input_tags.sparse is sparse
    dense, y = _counts()
    if target == "numbers":
        y = dense[:, :3].sum(axis=1) + np.random.default_rng(0).normal(0, 0.3, y.shape[0])
    elif getattr(selector, "criterion", None) == "weston_watkins":
        y = _y3(y)
    selector = selector.set_params(**{k: v for k, v in {
        "n_features_to_select": 4, "max_iter": 3, "n_subsamples": 4, "q": 3,
        "threshold": 0.6}.items() if k in selector.get_params()})
    if sparse:
        selector.fit(sp.csr_matrix(dense), y)
    else:
        with pytest.raises(TypeError, match="accept_sparse='densify'"):
            selector.fit(sp.csr_matrix(dense), y)


def test_ranker_memo_leaves_sparse_data_alone():
    """Inside ranker_cache() (the experiment runner's memo) a sparse X is ranked, not hashed:
    the memo's digest is of dense arrays only."""
    from rankfusion.selection.ranker_specs import ranker_cache

    dense, y = _counts()
    want = EnsembleSelector(rankers=["chi2"], n_features_to_select=4).fit(dense, y)
    with ranker_cache() as stats:
        got = EnsembleSelector(rankers=["chi2"], n_features_to_select=4).fit(
            sp.csr_matrix(dense), y)
    np.testing.assert_array_equal(got.positions_, want.positions_)
    assert stats["hits"] == 0 and stats["misses"] == 0
