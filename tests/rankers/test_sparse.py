"""Sparse X (docs/design.md, 'Sparse input'): never densified without being asked; the
sparse-capable rankers give the dense rankings; the others refuse naming them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from rankfusion.rankers import available_rankers, get_ranker, rank_features, ranker_info
from rankfusion.rankers._registry import SPARSE_RANKERS


def _counts(n=40, p=120, density=0.15, seed=0, classes=2):
    rng = np.random.default_rng(seed)
    dense = np.where(rng.random((n, p)) < density, 1.0 + rng.poisson(2.0, (n, p)), 0.0)
    y = (dense[:, :4].sum(axis=1) + rng.normal(0, 0.5, n) > np.median(dense[:, :4].sum(
        axis=1))).astype(int)
    if classes == 3:
        y = y + (dense[:, 4] > 0)
    return dense, y


@pytest.fixture
def no_densify(monkeypatch):
    """Make ``toarray``/``todense`` of a sparse matrix of at least ``limit[0]`` cells raise:
    what reaches a ranker stays sparse (its small dense products — an n × n Gram matrix, a
    column block — are allowed below the limit)."""
    from rankfusion.rankers import information
    from rankfusion.rankers.rfe import engine

    monkeypatch.setattr(engine, "SPARSE_ROW_BLOCK_BYTES", 8 * 200)  # blocks of a few rows
    monkeypatch.setattr(information, "SPARSE_BLOCK_BYTES", 8 * 40 * 7)  # of 7 columns
    limit = [None]
    # every class defining toarray/todense above the public formats, whatever scipy's private
    # layout (scipy 1.10 has spmatrix/_cs_matrix, later ones _spbase/_coo_base)
    public = [sp.csr_matrix, sp.csc_matrix, sp.coo_matrix, sp.csr_array, sp.csc_array,
              sp.coo_array]
    owners = {}
    for kind in public:
        for cls in kind.__mro__:
            for meth in ("toarray", "todense"):
                if meth in vars(cls):
                    owners.setdefault((cls, meth), vars(cls)[meth])
    for (cls, meth), orig in owners.items():

        def guard(self, *a, _orig=orig, **k):
            if limit[0] is not None and self.shape[0] * self.shape[1] >= limit[0]:
                raise AssertionError(f"densified a {self.shape} sparse matrix")
            return _orig(self, *a, **k)

        monkeypatch.setattr(cls, meth, guard)
    return limit


def _zero_fill_frame(dense):
    """A DataFrame of sparse columns whose unstored entries are zeros on every pandas: fill
    value 0 said explicitly (``DataFrame.sparse.from_spmatrix`` gives fill value NaN on pandas
    3.0, ``pd.SparseDtype(float)`` and ``pd.arrays.SparseArray`` of floats everywhere)."""
    return pd.DataFrame(dense).astype(pd.SparseDtype(float, 0))


CASES = [  # (ranker, params for sparse, params for the dense equivalent, exact?)
    ("chi2", {}, {}, True),
    ("f_classif", {}, {}, False),
    ("mutual_info_classif", {"random_state": 0, "discrete_features": True},
     {"random_state": 0, "discrete_features": True}, False),
    ("random_forest", {"random_state": 0, "n_estimators": 15}, {"random_state": 0,
                                                                "n_estimators": 15}, True),
    ("info_gain", {"binarize": True}, {"binarize": True}, True),
    ("info_gain", {}, {}, True),
    ("gain_ratio", {}, {}, True),
    ("symmetric_uncertainty", {"binarize": True}, {"binarize": True}, True),
    ("chi_square", {"binarize": True}, {"binarize": True}, True),
    ("svm_rfe", {"step": 2}, {"step": 2}, True),
]


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "csr_array", "frame"])
@pytest.mark.parametrize("name,sparams,dparams,exact", CASES,
                         ids=[f"{c[0]}{'-' + str(c[1]) if c[1] else ''}" for c in CASES])
def test_sparse_equals_dense_and_stays_sparse(name, sparams, dparams, exact, fmt, no_densify,
                                              monkeypatch):

    dense, y = _counts(classes=3 if name == "svm_rfe" and fmt == "csc" else 2)
    X = {"csr": sp.csr_matrix, "csc": sp.csc_matrix, "coo": sp.coo_matrix,
         "csr_array": sp.csr_array,
         "frame": _zero_fill_frame}[fmt](dense)
    want = get_ranker(name)(dense, y, **dparams)
    no_densify[0] = dense.size // 2  # n × p never; a 7-column block or n × n Gram may
    got = get_ranker(name)(X, y, **sparams)
    if exact:
        np.testing.assert_array_equal(got, want)
    else:  # the same statistic summed in another order: 1e-12 relative
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
        assert np.array_equal(np.argsort(-got, kind="stable"),
                              np.argsort(-want, kind="stable"))


REGRESSION_CASES = [  # (ranker, params); the dense fit is the oracle, equal up to rounding
    ("f_regression", {}),
    ("ridge", {}),
    ("ridge", {"alpha": 10.0}),
    ("lasso_cv", {"cv": 3}),
    ("rfe_regression", {"step": 5}),
]


def _regression_counts(n, p, seed):
    """Counts with a constant non-zero column (3) and an all-zero one (4): both score 0."""
    dense, _ = _counts(n=n, p=p, seed=seed)
    dense[:, 3] = 2.0
    dense[:, 4] = 0.0
    rng = np.random.default_rng(seed)
    y = dense[:, :8] @ np.linspace(1.0, 3.0, 8) + rng.normal(0, 0.5, n)
    return dense, y


@pytest.mark.parametrize("shape", [(80, 20), (40, 120)], ids=["p<n", "p>n"])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
@pytest.mark.parametrize("name,params", REGRESSION_CASES,
                         ids=[f"{c[0]}{c[1] or ''}" for c in REGRESSION_CASES])
def test_sparse_regression_equals_dense_and_stays_sparse(name, params, fmt, shape, no_densify):
    for seed in range(3):
        dense, y = _regression_counts(*shape, seed)
        X = {"csr": sp.csr_matrix, "csc": sp.csc_matrix, "coo": sp.coo_matrix}[fmt](dense)
        want = get_ranker(name)(dense, y, **params)
        no_densify[0] = dense.size // 2  # n × p never; a min(n, p)² Gram matrix may
        got = get_ranker(name)(X, y, **params)
        no_densify[0] = None
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12 * np.abs(want).max())
        assert np.array_equal(np.argsort(-got, kind="stable"), np.argsort(-want, kind="stable"))
        if name in ("ridge", "lasso_cv", "f_regression"):
            assert got[3] == got[4] == 0.0  # constant columns


def test_sparse_ridge_gram_matrix_memory_checked(monkeypatch):
    dense, y = _regression_counts(40, 120, 0)
    monkeypatch.setenv("RANKFUSION_MAX_MEMORY", "1000")  # bytes: below a 40 × 40 Gram matrix
    with pytest.raises(MemoryError, match="Gram"):
        get_ranker("ridge")(sp.csr_matrix(dense), y)


@pytest.mark.parametrize("module,attr,name", [
    ("sklearn.feature_selection", "chi2", "chi2"),
    ("sklearn.feature_selection", "f_classif", "f_classif"),
    ("sklearn.feature_selection", "mutual_info_classif", "mutual_info_classif"),
])
def test_scoring_function_receives_sparse(module, attr, name, monkeypatch):
    import importlib

    mod = importlib.import_module(module)
    seen = []
    orig = getattr(mod, attr)

    def spy(X, y, **kw):
        seen.append(sp.issparse(X))
        return orig(X, y, **kw)

    monkeypatch.setattr(mod, attr, spy)
    dense, y = _counts()
    params = {"discrete_features": True} if name == "mutual_info_classif" else {}
    get_ranker(name)(sp.csr_matrix(dense), y, **params)
    assert seen == [True]


def test_forest_and_svm_rfe_receive_sparse(monkeypatch):
    from sklearn.ensemble import RandomForestClassifier

    from rankfusion.rankers.rfe import engine

    seen = []
    fit = RandomForestClassifier.fit
    monkeypatch.setattr(RandomForestClassifier, "fit",
                        lambda self, X, y, **k: (seen.append(("rf", sp.issparse(X))),
                                                 fit(self, X, y, **k))[1])
    w = engine._sv_weights
    monkeypatch.setattr(engine, "_sv_weights",
                        lambda Xt, *a: (seen.append(("rfe", sp.issparse(Xt))), w(Xt, *a))[1])
    dense, y = _counts()
    get_ranker("random_forest")(sp.csr_matrix(dense), y, n_estimators=3, random_state=0)
    get_ranker("svm_rfe")(sp.csr_matrix(dense), y, step=10)
    assert seen[0] == ("rf", True)
    assert seen[1:] and all(s == ("rfe", True) for s in seen[1:])


def test_linear_model_adapter_sparse():
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.utils import get_tags

    from rankfusion.rankers import estimator_ranker

    dense, y = _counts()
    rank = estimator_ranker(LogisticRegression(max_iter=2000))
    if get_tags(LogisticRegression()).input_tags.sparse:
        np.testing.assert_allclose(rank(sp.csr_matrix(dense), y), rank(dense, y), rtol=1e-6,
                                   atol=1e-8)
    else:  # scikit-learn 1.6 does not tag it sparse-capable: refused, never densified
        with pytest.raises(TypeError, match="LogisticRegression cannot take it"):
            rank(sp.csr_matrix(dense), y)
    with pytest.raises(TypeError, match="HistGradientBoostingClassifier cannot take it"):
        estimator_ranker(HistGradientBoostingClassifier())(sp.csr_matrix(dense), y)


def test_registry_tags_match_table():
    tagged = sorted(n for n in available_rankers() if ranker_info(n).tags.get("sparse"))
    assert tagged == sorted(SPARSE_RANKERS)


@pytest.mark.parametrize("name", ["relieff", "cfs", "nlc", "mifs", "ilfs"])
def test_dense_only_rankers_refuse_naming_alternatives(name):
    dense, y = _counts()
    with pytest.raises(TypeError) as err:
        get_ranker(name)(sp.csr_matrix(dense), y)
    msg = str(err.value)
    assert "sparse" in msg and "accept_sparse='densify'" in msg
    assert all(r in msg for r in ("chi2", "info_gain", "svm_rfe"))


def test_rank_features_refuses_then_densifies_on_request():
    dense, y = _counts()
    X = sp.csr_matrix(dense)
    with pytest.raises(TypeError, match=r"ranker\(s\) relieff cannot take it"):
        rank_features(X, y, ["chi2", "relieff"])
    got = rank_features(X, y, ["chi2", "relieff"], accept_sparse="densify")
    want = rank_features(dense, y, ["chi2", "relieff"])
    np.testing.assert_array_equal(got.scores, want.scores)
    assert sp.issparse(X) and X.nnz == np.count_nonzero(dense)  # the caller's matrix kept
    only_sparse = rank_features(X, y, ["chi2", "info_gain"])  # no densify needed
    np.testing.assert_array_equal(only_sparse.scores,
                                  rank_features(dense, y, ["chi2", "info_gain"]).scores)
    for bad in (True, "yes", 1, "csr"):
        with pytest.raises(ValueError, match="accept_sparse must be False or 'densify'"):
            rank_features(X, y, ["chi2"], accept_sparse=bad)


def test_densify_memory_check(monkeypatch):
    from rankfusion.io import densify

    dense, y = _counts()
    X = sp.csr_matrix(dense)
    np.testing.assert_array_equal(densify(X), dense)
    with pytest.raises(MemoryError, match=r"above the limit .*max_memory="):
        densify(X, max_memory=1000)
    monkeypatch.setenv("RANKFUSION_MAX_MEMORY", "1K")
    with pytest.raises(MemoryError, match="RANKFUSION_MAX_MEMORY=1K"):
        rank_features(X, y, ["relieff"], accept_sparse="densify")
    monkeypatch.setenv("RANKFUSION_MAX_MEMORY", "lots")
    with pytest.raises(ValueError, match="RANKFUSION_MAX_MEMORY"):
        densify(X)
    with pytest.raises(ValueError, match="max_memory must be a positive number"):
        densify(X, max_memory=-1)
    assert densify(dense) is dense


def _nan():
    return sp.csr_matrix(np.array([[np.nan, 1.0], [0.0, 2.0], [1.0, 0.0]]))


HOSTILE = [
    ("nan", _nan, ValueError, r"stores NaN at sample 0, feature 0"),
    ("inf", lambda: sp.csc_matrix(np.array([[0.0, 1.0], [0.0, np.inf], [1.0, 0.0]])),
     ValueError, r"stores inf at sample 1, feature 1"),
    ("complex", lambda: sp.csr_matrix(np.array([[1j, 0], [0, 1], [1, 0]])), TypeError,
     "complex"),
    ("empty", lambda: sp.csr_matrix((3, 0)), ValueError, "empty"),
    ("mixed-frame", lambda: pd.DataFrame({"a": pd.arrays.SparseArray([0.0, 1.0, 2.0]),
                                          "b": [1.0, 2.0, 3.0]}), TypeError,
     "mixes sparse and dense DataFrame columns"),
    ("fill-value", lambda: pd.DataFrame({"a": pd.arrays.SparseArray([1.0, 1.0, 2.0],
                                                                    fill_value=1.0)}),
     ValueError, r"column 'a' has fill value 1.0, so its unstored entries are 1.0, but a "
     r"sparse matrix's are 0; pass the dense X.sparse.to_dense\(\), or "
     r"X.sparse.to_dense\(\).astype\(pd.SparseDtype\(float, 0\)\)"),
    ("nan-fill-missing", lambda: pd.DataFrame({"a": pd.arrays.SparseArray([np.nan, 1.0, 0.0])}),
     ValueError, r"column 'a' has fill value NaN and 1 of its 3 entries unstored: pandas reads "
     r"them as missing values .*X.fillna\(0\) keeps X sparse.*X.sparse.to_dense\(\)"),
    ("nan-fill-second-column", lambda: pd.DataFrame(
        {"a": pd.arrays.SparseArray([0.0, 1.0, 0.0], fill_value=0.0),
         "b": pd.arrays.SparseArray([np.nan, 1.0, np.nan])}), ValueError,
     r"column 'b' has fill value NaN and 2 of its 3 entries unstored"),
]


@pytest.mark.parametrize("make,exc,match", [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
@pytest.mark.parametrize("name", ["chi2", "info_gain", "svm_rfe"])
def test_hostile_sparse_inputs(name, make, exc, match):
    with pytest.raises(exc, match=match):
        get_ranker(name)(make(), [0, 1, 0])


@pytest.mark.parametrize("make,exc,match", [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
@pytest.mark.parametrize("name", ["ridge", "lasso_cv", "f_regression", "rfe_regression"])
def test_hostile_sparse_inputs_numeric_target(name, make, exc, match):
    with pytest.raises(exc, match=match):
        get_ranker(name)(make(), [0.5, 1.5, 0.25])


def _columns(dense, **kw):
    return pd.DataFrame({j: pd.arrays.SparseArray(dense[:, j], **kw)
                         for j in range(dense.shape[1])})


PANDAS_SPARSE_FRAMES = {  # pandas' own constructors of a sparse DataFrame, on every version
    "from_spmatrix": lambda d: pd.DataFrame.sparse.from_spmatrix(sp.csr_matrix(d)),
    "from_spmatrix-csc": lambda d: pd.DataFrame.sparse.from_spmatrix(sp.csc_matrix(d)),
    "SparseArray": lambda d: _columns(d),  # fill value NaN, every value stored
    "SparseArray-fill-0": lambda d: _columns(d, fill_value=0.0),
    "astype-SparseDtype(float)": lambda d: pd.DataFrame(d).astype(pd.SparseDtype(float)),
    "astype-SparseDtype(float, 0)": lambda d: pd.DataFrame(d).astype(pd.SparseDtype(float, 0)),
    "astype-Sparse[float64]": lambda d: pd.DataFrame(d).astype("Sparse[float64]"),
    "astype-SparseDtype(int)": lambda d: pd.DataFrame(d.astype(np.int64)).astype(
        pd.SparseDtype(np.int64)),
}


@pytest.mark.parametrize("make", list(PANDAS_SPARSE_FRAMES.values()),
                         ids=list(PANDAS_SPARSE_FRAMES))
@pytest.mark.parametrize("name,params", [("chi2", {}), ("info_gain", {"binarize": True}),
                                         ("f_classif", {})])
def test_sparse_frames_of_every_pandas_constructor(make, name, params, no_densify):
    """What pandas says the frame holds (``X.sparse.to_dense()``) decides: zeros where nothing
    is stored → the dense scores, the matrix kept sparse; NaN there (a NaN fill value with
    unstored entries, as ``from_spmatrix`` gives on pandas 3.0) → refused with the ways out,
    and the first way out (``X.fillna(0)``) then gives the dense scores."""
    dense, y = _counts(p=30)
    want = get_ranker(name)(dense, y, **params)
    X = make(dense)
    assert all(isinstance(dt, pd.SparseDtype) for dt in X.dtypes)
    no_densify[0] = dense.size // 2
    if X.sparse.to_dense().isna().to_numpy().any():  # pandas: the unstored entries are NaN
        assert _nan_fill_with_gaps(X)
        with pytest.raises(ValueError, match=r"has fill value NaN and \d+ of its 40 entries "
                                             r"unstored.*X\.fillna\(0\) keeps X sparse"):
            get_ranker(name)(X, y, **params)
        X = X.fillna(0)
        assert all(dt.fill_value == 0 for dt in X.dtypes)
    else:
        assert not _nan_fill_with_gaps(X)
    np.testing.assert_array_equal(get_ranker(name)(X, y, **params), want)


def _nan_fill_with_gaps(X) -> bool:
    return any(np.isnan(X[c].dtype.fill_value) and X[c].sparse.npoints < X.shape[0]
               for c in X.columns)


def test_a_nan_fill_value_is_read_as_pandas_reads_it():
    """A NaN fill value with every value stored has no missing value: read as stored (zeros
    included); its densified form is pandas' own ``to_dense``."""
    dense = np.array([[0.0, 3.0], [1.0, 0.0], [0.0, 0.0], [2.0, 5.0]])
    X = pd.DataFrame({"a": pd.arrays.SparseArray(dense[:, 0]),
                      "b": pd.arrays.SparseArray(dense[:, 1])})
    assert np.isnan(X["a"].dtype.fill_value) and X["a"].sparse.npoints == 4
    from rankfusion.io import densify

    np.testing.assert_array_equal(densify(X).to_numpy(), dense)
    np.testing.assert_array_equal(get_ranker("chi2")(X, [0, 1, 0, 1]),
                                  get_ranker("chi2")(dense, [0, 1, 0, 1]))
    with pytest.raises(ValueError, match="fill value NaN and 1 of its 4 entries"):
        densify(pd.DataFrame({"a": pd.arrays.SparseArray([np.nan, 1.0, 0.0, 2.0])}))


def test_sparse_ridge_leaves_the_caller_matrix_untouched():
    dense, y = _regression_counts(40, 120, 1)
    X = sp.coo_matrix(dense)
    X = sp.coo_matrix((np.r_[X.data, 1.0], (np.r_[X.row, 0], np.r_[X.col, 0])), shape=X.shape)
    before = (X.data.copy(), X.row.copy(), X.col.copy())
    get_ranker("ridge")(X, y)
    get_ranker("lasso_cv")(X, y, cv=3)
    for a, b in zip(before, (X.data, X.row, X.col)):
        np.testing.assert_array_equal(a, b)


def test_chi2_negative_and_caller_untouched():
    coo = sp.coo_matrix((np.array([1.0, 2.0, -3.0]), (np.array([0, 0, 2]), np.array([1, 1, 0]))),
                        shape=(3, 2))  # a duplicate entry: summed, never changed in place
    before = (coo.data.copy(), coo.row.copy(), coo.col.copy())
    with pytest.raises(ValueError, match="chi2 needs non-negative features.*feature 0 has -3"):
        get_ranker("chi2")(coo, [0, 1, 0])
    for a, b in zip(before, (coo.data, coo.row, coo.col)):
        np.testing.assert_array_equal(a, b)
    coo.data[2] = 3.0
    s = get_ranker("chi2")(coo, [0, 1, 0])
    np.testing.assert_array_equal(s, get_ranker("chi2")(coo.toarray(), [0, 1, 0]))


@pytest.mark.parametrize("params", [{}, {"discrete_features": False},
                                    {"discrete_features": "auto"}])
def test_mutual_info_sparse_follows_the_dense_rule(params):
    """scikit-learn's "auto" reads a sparse X as discrete (other values than the same matrix
    dense); here the k-NN estimate of dense X for both, the sparse X densified for it."""
    dense, y = _counts(p=30)
    X = sp.csr_matrix(dense)
    want = get_ranker("mutual_info_classif")(dense, y, random_state=0, **params)
    np.testing.assert_array_equal(
        get_ranker("mutual_info_classif")(X, y, random_state=0, **params), want)
    # the oracle: scikit-learn's continuous estimate on the dense matrix
    from sklearn.feature_selection import mutual_info_classif

    np.testing.assert_array_equal(want, mutual_info_classif(dense, y, random_state=0,
                                                            discrete_features=False))


def test_mutual_info_sparse_knn_is_memory_checked(monkeypatch):
    dense, y = _counts()
    monkeypatch.setenv("RANKFUSION_MAX_MEMORY", "1000")  # bytes: below the dense 40 × 120
    with pytest.raises(MemoryError, match="discrete_features=True keeps it sparse"):
        get_ranker("mutual_info_classif")(sp.csr_matrix(dense), y)
    get_ranker("mutual_info_classif")(sp.csr_matrix(dense), y, discrete_features=True)


def _sparse_case_params(name):
    """Small settings and fixed seeds; the dense and the sparse call take the same ones."""
    params = {}
    info = ranker_info(name)
    if info.accepts("random_state"):
        params["random_state"] = 0
    if info.accepts("n_estimators"):
        params["n_estimators"] = 10
    if info.accepts("cv"):
        params["cv"] = 3
    if info.accepts("step"):
        params["step"] = 5
    return params


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("name", sorted(SPARSE_RANKERS))
def test_every_sparse_ranker_equals_its_dense_copy(name):
    """Every ranker on the sparse list, with its default parameters, gives the scores of the
    same matrix dense: exactly, or within 1e-9 relative where the sparse path sums in another
    order (f_classif and f_regression through the column means, ridge's Gram matrix, lasso's
    implicit centring; docs/design.md, 'Sparse input'); no warning (warnings are errors)."""
    from rankfusion.rankers import ranker_tasks

    if "regression" in ranker_tasks(name):  # no constant column: no warning is due
        dense, _ = _counts(n=60, p=25, seed=1)
        y = dense[:, :8] @ np.linspace(1.0, 3.0, 8) + np.random.default_rng(1).normal(0, .5, 60)
    else:
        dense, y = _counts(p=25)
    params = _sparse_case_params(name)
    want = get_ranker(name)(dense, y, **params)
    got = get_ranker(name)(sp.csr_matrix(dense), y, **params)
    if name in ("f_classif", "f_regression", "ridge", "lasso_cv", "rfe_regression"):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12 * np.abs(want).max())
        assert np.array_equal(np.argsort(-got, kind="stable"), np.argsort(-want, kind="stable"))
    else:
        np.testing.assert_array_equal(got, want)


def test_weston_watkins_refuses_sparse():
    from rankfusion.rankers import joint_rfe

    dense, y = _counts(classes=3)
    with pytest.raises(TypeError, match="weston_watkins' needs dense X"):
        joint_rfe(sp.csr_matrix(dense), y, criterion="weston_watkins")
    np.testing.assert_array_equal(
        joint_rfe(sp.csr_matrix(dense), y, criterion="crammer_singer", step=5).ranking,
        joint_rfe(dense, y, criterion="crammer_singer", step=5).ranking)


def test_extreme_scale_sparse_columns_rescaled_exactly():
    dense, y = _counts()
    big = dense.copy()
    big[:, 3] *= 2.0 ** 80
    np.testing.assert_array_equal(get_ranker("f_classif")(sp.csr_matrix(big), y),
                                  get_ranker("f_classif")(big, y))
    np.testing.assert_array_equal(get_ranker("chi2")(sp.csc_matrix(big), y),
                                  get_ranker("chi2")(big, y))


@pytest.mark.parametrize("kw", [
    {"rankers": ["chi2", "info_gain"], "n_features_to_select": 5},
    {"rankers": ["chi2", "info_gain", "svm_rfe"], "n_features_to_select": 5,
     "n_bootstraps": 3, "random_state": 0},
])
def test_ensemble_selector_sparse(kw, no_densify):
    from rankfusion import EnsembleSelector

    dense, y = _counts()
    want = EnsembleSelector(**kw).fit(dense, y)
    no_densify[0] = dense.size // 2
    got = EnsembleSelector(**kw).fit(sp.csr_matrix(dense), y)
    np.testing.assert_array_equal(got.get_support(), want.get_support())
    assert sp.issparse(got.transform(sp.csr_matrix(dense)))
    with pytest.raises(TypeError, match=r"EnsembleSelector's ranker\(s\) relieff cannot take"):
        EnsembleSelector(rankers=["chi2", "relieff"], n_features_to_select=5).fit(
            sp.csr_matrix(dense), y)


@pytest.mark.parametrize("kw", [{}, {"decomposition": "ova"},
                                {"criterion": "crammer_singer", "random_state": 0}])
def test_svmrfe_selector_sparse(kw, no_densify):
    from rankfusion import SVMRFE

    dense, y = _counts(classes=3)
    real = dense * np.random.default_rng(1).random(dense.shape)
    for X in (dense, real):
        want = SVMRFE(n_features_to_select=5, **kw).fit(X, y)
        no_densify[0] = X.size // 2
        got = SVMRFE(n_features_to_select=5, **kw).fit(sp.csr_matrix(X), y)
        no_densify[0] = None
        np.testing.assert_array_equal(got.positions_, want.positions_)
    with pytest.raises(TypeError, match="SVMRFE with this estimator/criterion"):
        SVMRFE(n_features_to_select=5, criterion="weston_watkins").fit(sp.csr_matrix(dense), y)
