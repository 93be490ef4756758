"""SVM-RFE engine (rankfusion.rankers.rfe): schedule, exactness against scikit-learn,
decompositions, the joint Average baseline."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_selection import RFE
from sklearn.linear_model import LogisticRegression
from sklearn.svm import SVC

from rankfusion import aggregate
from rankfusion.rankers import (
    binary_problems,
    get_ranker,
    joint_rfe,
    rfe_lists,
    rfe_schedule,
    svm_rfe,
)
from rankfusion.rankers.rfe._linear_svm import smo_gram


def pair_agreement(a, b):
    iu = np.triu_indices(a.shape[0], 1)
    A = np.sign(a[:, None] - a[None, :])[iu]
    B = np.sign(b[:, None] - b[None, :])[iu]
    return (A == B).mean()


def binary_data(seed, n=70, p=60, labels=("a", "b")):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p)) * rng.uniform(0.5, 2.0, size=p)
    score = X[:, :4].sum(axis=1) + 1.5 * rng.normal(size=n)
    y = np.where(score > 0, labels[0], labels[1])
    return X, y


# ----------------------------------------------------------------------------- schedule
def test_schedule_izetta_ten_percent_then_one_at_a_time():
    s = rfe_schedule(100)
    n = 100
    for r in s:
        assert r == (max(1, int(0.1 * n)) if n >= 20 else 1)
        n -= r
    assert n == 1 and s.sum() == 99
    # a chunk may cross below 20: 21 → 19
    assert rfe_schedule(21).tolist()[:2] == [2, 1]


def test_schedule_integer_step_and_parameters():
    assert rfe_schedule(10, step=3).tolist() == [3, 3, 3]
    assert rfe_schedule(10, step=4).tolist() == [4, 4, 1]
    assert rfe_schedule(50, step=0.5, step_until=10).tolist()[:3] == [25, 12, 6]
    assert rfe_schedule(1).tolist() == []
    with pytest.raises(ValueError, match="step"):
        rfe_schedule(10, step=1.5)
    with pytest.raises(ValueError, match="step"):
        rfe_schedule(10, step=0)
    with pytest.raises(TypeError, match="step_until"):
        rfe_schedule(10, step_until=2.5)


@given(st.integers(1, 400), st.floats(0.01, 0.99), st.integers(1, 60))
@settings(max_examples=60, deadline=None)
def test_schedule_removes_everything_but_one(p, step, until):
    s = rfe_schedule(p, step, until)
    assert s.sum() == p - 1 and (s >= 1).all()


# ----------------------------------------------------------------------------- solver
@pytest.mark.parametrize("C", [0.05, 1.0, 20.0])
def test_dual_solver_matches_svc(C):
    X, y = binary_data(3, n=90, p=15)
    yb = np.where(y == "a", 1.0, -1.0)
    order = np.concatenate([np.flatnonzero(yb > 0), np.flatnonzero(yb < 0)])
    Xo, yo = X[order], yb[order]
    res = smo_gram(Xo @ Xo.T, yo, np.full(yo.shape[0], C))
    svc = SVC(kernel="linear", C=C).fit(X, y)
    w = Xo.T @ (res.alpha * yo)
    # SVC's coef_ sign convention: positive = the second class
    np.testing.assert_allclose(-w, svc.coef_[0], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(res.rho, svc.intercept_[0], rtol=1e-9, atol=1e-10)
    assert res.converged


# ----------------------------------------------------------------------------- vs sklearn
@pytest.mark.parametrize("seed,C", [(0, 1.0), (1, 0.1), (2, 5.0), (3, 0.02), (4, 1.0)])
def test_binary_rfe_equals_sklearn_rfe_step_1(seed, C):
    X, y = binary_data(seed)
    ours = svm_rfe(X, y, C=C, step=1)
    ref = RFE(SVC(kernel="linear", C=C), n_features_to_select=1, step=1).fit(X, y).ranking_
    # same solver path as libsvm: the rankings are identical, not just close
    np.testing.assert_array_equal(ours.ranking, ref)


def test_binary_rfe_agrees_with_sklearn_on_wide_data():
    X, y = binary_data(7, n=40, p=150)
    ours = svm_rfe(X, y, step=1).ranking
    ref = RFE(SVC(kernel="linear"), n_features_to_select=1, step=1).fit(X, y).ranking_
    np.testing.assert_array_equal(np.argsort(ours)[:5], np.argsort(ref)[:5])
    assert pair_agreement(ours, ref) >= 0.99


def test_integer_step_matches_sklearn_chunks():
    X, y = binary_data(5, n=60, p=40)
    ours = svm_rfe(X, y, step=4).ranking
    ref = RFE(SVC(kernel="linear"), n_features_to_select=1, step=4).fit(X, y).ranking_
    # sklearn ranks a whole removed chunk alike; inside a chunk we order by w² (documented)
    for r in np.unique(ref):
        members = np.flatnonzero(ref == r)
        assert set(ours[members]) == set(range(ours[members].min(), ours[members].max() + 1))
    assert (np.argsort(ours, kind="stable")[:1] == np.flatnonzero(ref == 1)).all()


def test_float_schedule_equals_sklearn_loop():
    X, y = binary_data(11, n=50, p=120)
    ours = svm_rfe(X, y)
    rem = np.arange(X.shape[1])
    elim = []
    for t, r in enumerate(rfe_schedule(X.shape[1])):
        w = SVC(kernel="linear").fit(X[:, rem], y).coef_[0]
        np.testing.assert_allclose(np.abs(ours.weights[t]), np.abs(w), rtol=1e-9, atol=1e-12)
        out = np.argsort(w * w, kind="stable")[:r]
        elim += rem[out].tolist()
        rem = np.delete(rem, out)
    elim += rem.tolist()
    np.testing.assert_array_equal(ours.elimination_order, elim)


def test_class_weight_passes_through():
    X, y = binary_data(2, n=80, p=30)
    for cw in ("balanced", {"a": 3.0, "b": 0.5}):
        ours = svm_rfe(X, y, step=1, class_weight=cw).ranking
        ref = RFE(SVC(kernel="linear", class_weight=cw), n_features_to_select=1,
                  step=1).fit(X, y).ranking_
        np.testing.assert_array_equal(ours, ref)


def test_any_linear_estimator_with_coef():
    X, y = binary_data(4, n=80, p=25)
    est = LogisticRegression(C=0.5, max_iter=2000)
    ours = svm_rfe(X, y, step=1, estimator=est).ranking
    ref = RFE(est, n_features_to_select=1, step=1).fit(X, y).ranking_
    np.testing.assert_array_equal(ours, ref)
    from sklearn.ensemble import RandomForestClassifier

    with pytest.raises(TypeError, match="coef_"):
        svm_rfe(X, y, estimator=RandomForestClassifier(n_estimators=3, random_state=0))


def test_result_exposes_iterations():
    X, y = binary_data(6, n=50, p=45)
    res = svm_rfe(X, y)
    assert sorted(res.ranking.tolist()) == list(range(1, 46))
    assert res.elimination_order[-1] == res.order[0] == int(np.argmin(res.ranking))
    assert len(res.weights) == len(res.n_features) == len(res.removed)
    assert res.n_features[0] == 45 and sum(res.removed) == 44
    W = res.weights_matrix()
    assert W.shape == (45, len(res.weights))
    assert not np.isnan(W[:, 0]).any()
    assert np.isnan(W[res.elimination_order[0], 1])
    np.testing.assert_array_equal(res.features_at(0), np.arange(45))
    assert svm_rfe(X, y, keep_weights=False).weights is None


def test_warm_start_reaches_the_same_optimum():
    X, y = binary_data(8, n=60, p=40)
    cold = svm_rfe(X, y, step=1, tol=1e-9)
    lists, res = rfe_lists(X, y, step=1, tol=1e-9, warm_start=True, keep_weights=True)
    np.testing.assert_array_equal(cold.ranking, res[0].ranking)
    np.testing.assert_allclose(cold.weights[0], res[0].weights[0], rtol=1e-6, atol=1e-8)


def test_gram_downdating_stays_accurate_on_large_values():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 300)) * 1e4 + 5e4
    y = (X[:, 0] + X[:, 1] > 1e5).astype(int)
    lists, res = rfe_lists(X, y, tol=1e-6, keep_weights=True)
    r = res[0]
    t = len(r.weights) - 5
    feats = r.features_at(t)
    w = SVC(kernel="linear", tol=1e-6).fit(X[:, feats], y).coef_[0]
    np.testing.assert_allclose(np.abs(r.weights[t]), np.abs(w), rtol=1e-4)


# ----------------------------------------------------------------------------- decompositions
def multiclass_data(seed=0, n=120, p=30, c=4):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.array(["w", "x", "y", "z"][:c]), n // c)
    X = rng.normal(size=(y.shape[0], p))
    for k in range(c):
        X[y == y[k * (n // c)], 2 * k] += 2.0
    return X, y


def test_ovo_and_ova_problems():
    codes = np.array([0, 1, 2, 0, 1, 2, 2])
    ovo = binary_problems(codes, ["a", "b", "c"], "ovo")
    assert [pb.name for pb in ovo] == ["a_vs_b", "a_vs_c", "b_vs_c"]
    assert ovo[0].samples.tolist() == [0, 3, 1, 4] and ovo[0].y.tolist() == [1, 1, -1, -1]
    ova = binary_problems(codes, ["a", "b", "c"], "ova")
    assert [pb.name for pb in ova] == ["a_vs_rest", "b_vs_rest", "c_vs_rest"]
    assert sorted(ova[2].samples.tolist()) == list(range(7))
    assert (ova[2].y < 0).sum() == 3
    two = binary_problems(np.array([0, 1, 1]), ["u", "v"], "ova")
    assert [pb.name for pb in two] == ["u_vs_v"]


def test_ovo_lists_are_per_problem_sklearn_rankings():
    X, y = multiclass_data()
    lists, res = rfe_lists(X, y, decomposition="ovo", step=1)
    assert lists.shape == (30, 6) and list(lists.list_names)[0] == "w_vs_x"
    for j, (a, b) in enumerate([("w", "x"), ("w", "y"), ("w", "z"), ("x", "y"), ("x", "z"),
                                ("y", "z")]):
        m = (y == a) | (y == b)
        ref = RFE(SVC(kernel="linear"), n_features_to_select=1, step=1).fit(X[m], y[m]).ranking_
        np.testing.assert_array_equal(lists.positions[:, j], ref)
    # combinable with any rule
    for rule in ("kfirst", "schulze", "borda", "mean_score", "average_sd"):
        assert aggregate(lists, rule).n_features == 30


def test_ova_lists_are_sklearn_rankings_on_y_eq_class():
    X, y = multiclass_data(1, c=3, n=90)
    lists, res = rfe_lists(X, y, decomposition="ova", step=1)
    for j, k in enumerate(["w", "x", "y"]):
        ref = RFE(SVC(kernel="linear"), n_features_to_select=1, step=1).fit(X, y == k).ranking_
        np.testing.assert_array_equal(lists.positions[:, j], ref)


def test_parallel_problems_give_the_same_lists():
    X, y = multiclass_data(2)
    a, _ = rfe_lists(X, y, n_jobs=1)
    b, _ = rfe_lists(X, y, n_jobs=2)
    assert a == b


def test_joint_average_is_mean_abs_weight():
    X, y = multiclass_data(3, c=3, n=90, p=12)
    res = joint_rfe(X, y, criterion="average", step=1, keep_weights=True)
    w = []
    for a, b in [("w", "x"), ("w", "y"), ("x", "y")]:
        m = (y == a) | (y == b)
        w.append(np.abs(SVC(kernel="linear").fit(X[m], y[m]).coef_[0]))
    np.testing.assert_allclose(res.weights[0], np.mean(w, axis=0), rtol=1e-8)
    first_out = int(np.argmin(np.mean(w, axis=0)))
    assert res.elimination_order[0] == first_out
    ova = joint_rfe(X, y, criterion="average", decomposition="ova")
    assert sorted(ova.ranking) == list(range(1, 13))


def test_bad_input():
    X, y = binary_data(0, n=20, p=5)
    with pytest.raises(ValueError, match="binary"):
        svm_rfe(*multiclass_data())
    X2 = X.copy()
    X2[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        svm_rfe(X2, y)
    with pytest.raises(ValueError, match="C must"):
        svm_rfe(X, y, C=-1)
    with pytest.raises(ValueError, match="decomposition"):
        rfe_lists(X, y, decomposition="ecoc")
    with pytest.raises(ValueError, match="class_weight"):
        svm_rfe(X, y, class_weight={"nope": 2.0})
    with pytest.raises(ValueError, match="criterion"):
        joint_rfe(X, y, criterion="median")
    X_before = X.copy()
    svm_rfe(X, y)
    np.testing.assert_array_equal(X, X_before)


def test_registered_ranker_scores():
    X, y = binary_data(1, n=50, p=12)
    scores = get_ranker("svm_rfe")(X, y)
    ranking = svm_rfe(X, y).ranking
    np.testing.assert_array_equal(scores, 12 - ranking)


def test_joint_average_equals_sklearn_rfe_on_ovo_svc_with_mean_abs_weights():
    """Zhou's OVO / Izetta's Average is RFE on scikit-learn's OVO SVC ranked by mean |w|."""
    X, y = multiclass_data(4, c=3, n=90, p=15)
    ref = RFE(SVC(kernel="linear"), n_features_to_select=1, step=1,
              importance_getter=lambda est: np.abs(est.coef_).mean(axis=0)).fit(X, y)
    ours = joint_rfe(X, y, criterion="average", step=1)
    np.testing.assert_array_equal(ours.ranking, ref.ranking_)


def test_ova_class_weight_goes_to_the_class_with_a_replacement_estimator():
    from sklearn.svm import SVC

    from rankfusion.rankers import rfe_lists

    rng = np.random.default_rng(0)
    y = np.repeat(np.array(["a", "b", "c"]), 30)
    X = rng.normal(size=(90, 15))
    for k, c in enumerate("abc"):
        X[y == c, k] += 1.0
    kw = dict(decomposition="ova", step=1, class_weight={"a": 5.0})
    built_in, _ = rfe_lists(X, y, **kw)
    with_estimator, _ = rfe_lists(X, y, estimator=SVC(kernel="linear"), **kw)
    np.testing.assert_array_equal(with_estimator.positions[:, 0], built_in.positions[:, 0])


def test_identical_features_tie_and_the_lower_index_leaves_first():
    from rankfusion.rankers import svm_rfe

    for seed in range(15):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(40, 14))
        X[:, 11] = X[:, 3]
        y = (X[:, 3] + 0.5 * X[:, 0] + rng.normal(size=40) > 0).astype(int)
        res = svm_rfe(X, y, step=1, C=0.05)
        assert res.ranking[3] > res.ranking[11], seed  # 3 left first: the worse position
