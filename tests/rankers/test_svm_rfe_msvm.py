"""MSVM-RFE baselines: the Weston–Watkins solver against a convex-solver reference, and the
Crammer–Singer criterion."""

import json
import os

import numpy as np
import pytest
from scipy.optimize import minimize
from sklearn.svm import LinearSVC

from conftest import SVM_FIXTURES
from rankfusion.rankers import joint_rfe, rfe_schedule
from rankfusion.rankers.rfe._weston_watkins import weston_watkins_fit

FIXTURE = os.path.join(SVM_FIXTURES, "ww_reference.json")


def _cases():
    with open(FIXTURE) as fh:
        return json.load(fh)


@pytest.mark.parametrize("case", _cases(), ids=lambda c: f"seed{c['seed']}")
def test_weston_watkins_equals_convex_reference(case):
    """The stored cvxpy/Clarabel solution of the primal (fixtures/svm/README.md)."""
    X, y = np.array(case["X"]), np.array(case["y"])
    C = case["C"]
    if case["class_weight"]:
        C = C * np.array([case["class_weight"].get(str(k), 1.0) for k in y])
    res = weston_watkins_fit(X, y, case["n_classes"], C=C, tol=1e-8)
    assert res.converged
    np.testing.assert_allclose(res.coef, np.array(case["coef"]), atol=1e-4)
    np.testing.assert_allclose(res.intercept, np.array(case["intercept"]), atol=1e-4)


def test_weston_watkins_equals_generic_bound_constrained_dual():
    """An independent route: the dual as a box-constrained QP solved by L-BFGS-B."""
    rng = np.random.default_rng(5)
    n, p, c, C = 36, 4, 3, 0.8
    X = rng.normal(size=(n, p))
    y = np.arange(n) % c
    X[np.arange(n), y] += 1.2
    Xa = np.hstack([X, np.ones((n, 1))])
    mask = np.ones((n, c), dtype=bool)
    mask[np.arange(n), y] = False

    def weights(a):
        A = np.zeros((n, c))
        A[mask] = a
        B = -A
        B[np.arange(n), y] = A.sum(axis=1)
        return B.T @ Xa

    def neg_dual(a):
        W = weights(a)
        M = Xa @ W.T
        g = (M[np.arange(n), y][:, None] - M)[mask]
        return -(2 * a.sum() - 0.5 * (W * W).sum()), -(2 - g)

    opt = minimize(neg_dual, np.zeros(mask.sum()), jac=True, method="L-BFGS-B",
                   bounds=[(0, C)] * int(mask.sum()),
                   options={"ftol": 1e-15, "gtol": 1e-12, "maxiter": 50000})
    W = weights(opt.x)
    res = weston_watkins_fit(X, y, c, C=C, tol=1e-9)
    np.testing.assert_allclose(res.coef, W[:, :p], atol=1e-5)
    np.testing.assert_allclose(res.intercept, W[:, p], atol=1e-5)


def test_weston_watkins_warm_start_same_solution():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(50, 6))
    y = np.arange(50) % 3
    full = weston_watkins_fit(X, y, 3, C=1.0, tol=1e-9)
    sub = weston_watkins_fit(X[:, :4], y, 3, C=1.0, tol=1e-9)
    warm = weston_watkins_fit(X[:, :4], y, 3, C=1.0, tol=1e-9, alpha0=full.alpha)
    np.testing.assert_allclose(warm.coef, sub.coef, atol=1e-6)


def _plain_cd(X, y, c, C, tol, max_epochs=100000):
    """Direct transcription of the plain method (no shrinking): sweeps over i, then k, each
    coordinate minimised exactly, stop after a sweep with max projected-gradient violation
    < tol."""
    n = X.shape[0]
    Xa = np.hstack([X, np.ones((n, 1))])
    q = (Xa * Xa).sum(axis=1)
    A = np.zeros((n, c))
    W = np.zeros((c, Xa.shape[1]))
    for _ in range(max_epochs):
        viol = 0.0
        for i in range(n):
            for k in range(c):
                if k == y[i]:
                    continue
                g = 2.0 - (W[y[i]] - W[k]) @ Xa[i]
                a = A[i, k]
                pg = max(g, 0.0) if a <= 0 else (min(g, 0.0) if a >= C else g)
                viol = max(viol, abs(pg))
                na = min(max(a + g / (2 * q[i]), 0.0), C)
                A[i, k] = na
                W[y[i]] += (na - a) * Xa[i]
                W[k] -= (na - a) * Xa[i]
        if viol < tol:
            return W
    raise AssertionError("plain coordinate descent did not converge")


def _violation(X, y, c, C, res):
    """Largest projected-gradient violation of the returned dual, from numpy alone."""
    n = X.shape[0]
    Xa = np.hstack([X, np.ones((n, 1))])
    W = np.hstack([res.coef, res.intercept[:, None]])
    M = Xa @ W.T
    g = 2.0 - (M[np.arange(n), y][:, None] - M)
    a = res.alpha
    pg = np.where(a <= 0, np.maximum(g, 0), np.where(a >= C, np.minimum(g, 0), g))
    pg[np.arange(n), y] = 0.0
    return np.abs(pg).max(), W


@pytest.mark.parametrize("seed, C", [(0, 1.0), (1, 0.1), (2, 3.0)])
def test_weston_watkins_shrinking_equals_plain_descent(seed, C):
    """Shrinking and the deferred class-weight update change the path, not the solution: the
    plain coordinate descent (transcribed above) reaches the same w at a tight tolerance."""
    rng = np.random.default_rng(seed)
    n, c = 60, 4
    X = rng.normal(size=(n, 5))
    y = np.arange(n) % c
    X[np.arange(n), y] += 1.0  # overlapping classes: many bounded and free variables
    res = weston_watkins_fit(X, y, c, C=C, tol=1e-9, max_epochs=100_000)
    assert res.converged
    W = _plain_cd(X, y, c, C, 1e-9)
    np.testing.assert_allclose(res.coef, W[:, :-1], atol=1e-7)
    np.testing.assert_allclose(res.intercept, W[:, -1], atol=1e-7)


@pytest.mark.parametrize("tol", [1e-1, 1e-3])
def test_weston_watkins_loose_tolerance_holds_on_every_variable(tol):
    """At a loose tolerance (where shrinking leaves variables out), the returned dual still
    meets the stopping rule on *all* variables, and the weights are those of the dual."""
    rng = np.random.default_rng(3)
    n, c, C = 120, 5, 1.0
    X = rng.normal(size=(n, 8))
    y = np.arange(n) % c
    X[np.arange(n), y] += 0.8
    res = weston_watkins_fit(X, y, c, C=C, tol=tol)
    assert res.converged
    viol, W = _violation(X, y, c, C, res)
    assert viol < tol
    B = -res.alpha.copy()
    B[np.arange(n), y] = res.alpha.sum(axis=1)
    np.testing.assert_allclose(W, B.T @ np.hstack([X, np.ones((n, 1))]), atol=1e-9)


def _data(seed=0, n=90, p=14, c=3):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % c
    X = rng.normal(size=(n, p))
    X[np.arange(n), y] += 2.5
    return X, y


def test_msvm_rfe_weston_watkins_criterion_is_sum_of_squares():
    X, y = _data()
    res = joint_rfe(X, y, criterion="weston_watkins", step=1, keep_weights=True, tol=1e-8)
    W = weston_watkins_fit(X, y, 3, C=1.0, tol=1e-8).coef
    np.testing.assert_allclose(res.weights[0], (W * W).sum(axis=0), rtol=1e-5)
    assert sorted(res.ranking) == list(range(1, 15))
    # the three informative features survive longest
    assert set(res.order[:3]) == {0, 1, 2}


def test_msvm_rfe_crammer_singer_follows_linearsvc():
    X, y = _data(1)
    res = joint_rfe(X, y, criterion="crammer_singer", keep_weights=True)
    rem = np.arange(X.shape[1])
    elim = []
    for r in rfe_schedule(X.shape[1]):
        W = LinearSVC(multi_class="crammer_singer", C=1.0, random_state=0, max_iter=10000,
                      tol=1e-4).fit(X[:, rem], y).coef_
        crit = (W * W).sum(axis=0)
        out = np.argsort(crit, kind="stable")[:r]
        elim += rem[out].tolist()
        rem = np.delete(rem, out)
    elim += rem.tolist()
    np.testing.assert_array_equal(res.elimination_order, elim)
    assert set(res.order[:3]) == {0, 1, 2}
