"""The Weston–Watkins multiclass linear SVM, by dual coordinate descent (private).

Weston & Watkins (1999), "Support vector machines for multi-class pattern recognition",
ESANN: one weight vector per class and, for every sample i and every wrong class k, the
constraint that the true class wins by a margin of 2,

    min_W  ½ Σ_k ‖w_k‖² + C Σ_i Σ_{k≠y_i} ξ_ik
    s.t.   (w_{y_i} − w_k)ᵀ x̃_i ≥ 2 − ξ_ik,  ξ_ik ≥ 0,

with ``x̃_i = (x_i, 1)``: the biases are the weights of a constant feature, so they are
regularised. (Weston & Watkins keep them free, which adds c − 1 equality constraints to the
dual; like liblinear's ``intercept_scaling`` we regularise them so that the dual has box
constraints only — a documented departure that changes the biases, not the method.)

Dual (α_ik for k ≠ y_i, ``A_i = Σ_k α_ik``): maximise ``2 Σ α_ik − ½ Σ_k ‖w_k‖²`` over
``0 ≤ α_ik ≤ C_i`` with ``w_k = Σ_i (δ_{k y_i} A_i − α_ik) x̃_i``. Coordinate descent
(Hsieh et al. 2008's scheme, one α_ik at a time, exact on each coordinate):
``g = 2 − (w_{y_i} − w_k)ᵀ x̃_i``, ``α_ik ← clip(α_ik + g / (2‖x̃_i‖²), 0, C_i)``, then
``w_{y_i} += δ x̃_i``, ``w_k −= δ x̃_i``. Sweeps go over i, then k, in index order
(deterministic), with liblinear's shrinking of variables stuck at a bound; they stop when the
largest projected-gradient violation of a full sweep is below ``tol``.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["weston_watkins_fit", "WWResult"]


@numba.njit(cache=True, nogil=True)
def _ww_cd(Xa, y, Cvec, alpha, W, tol, max_epochs):  # pragma: no cover - compiled
    """Dual coordinate descent with shrinking; returns the epochs (negative at the limit).

    For sample i the margin of class k is ``s_{y_i} − s_k`` with ``s_k = w_kᵀx̃_i``:
    ``s_{y_i}`` is computed once per sample and moved by ``δ‖x̃_i‖²`` after each update
    (``w_{y_i}`` gets the sample's summed step at its end), so a coordinate costs one dot
    product instead of two plus an update of ``w_{y_i}``. Shrinking (Hsieh et al. 2008, §3.2):
    a variable at a bound whose gradient points outside the box by more than the previous
    sweep's largest violation ``M`` is left out of the next sweeps; when a sweep over the
    remaining ones has violation < ``tol``, every variable is put back, and the solver stops
    only after a full sweep whose largest projected-gradient violation is < ``tol`` — the
    stopping rule of the plain method, so the solution satisfies the same condition.
    """
    n, d = Xa.shape
    c = W.shape[0]
    q = np.empty(n)
    for i in range(n):
        s = 0.0
        for f in range(d):
            s += Xa[i, f] * Xa[i, f]
        q[i] = s
    act = np.ones((n, c), dtype=np.bool_)
    n_shrunk = 0
    m_old = np.inf
    epoch = 0
    while epoch < max_epochs:
        epoch += 1
        full = n_shrunk == 0  # no variable left out at the start of this sweep
        viol = 0.0
        for i in range(n):
            yi = y[i]
            if q[i] <= 0.0:
                continue
            syi = 0.0
            have = False
            dyi = 0.0
            ci = Cvec[i]
            for k in range(c):
                if k == yi or not act[i, k]:
                    continue
                if not have:
                    for f in range(d):
                        syi += W[yi, f] * Xa[i, f]
                    have = True
                sk = 0.0
                for f in range(d):
                    sk += W[k, f] * Xa[i, f]
                g = 2.0 - (syi - sk)
                a = alpha[i, k]
                if a <= 0.0:
                    if g < -m_old:
                        act[i, k] = False
                        n_shrunk += 1
                        continue
                    pg = max(g, 0.0)
                elif a >= ci:
                    if g > m_old:
                        act[i, k] = False
                        n_shrunk += 1
                        continue
                    pg = min(g, 0.0)
                else:
                    pg = g
                if abs(pg) > viol:
                    viol = abs(pg)
                if pg == 0.0:
                    continue
                na = a + g / (2.0 * q[i])
                if na < 0.0:
                    na = 0.0
                elif na > ci:
                    na = ci
                delta = na - a
                if delta == 0.0:
                    continue
                alpha[i, k] = na
                syi += delta * q[i]
                dyi += delta
                for f in range(d):
                    W[k, f] -= delta * Xa[i, f]
            if dyi != 0.0:
                for f in range(d):
                    W[yi, f] += dyi * Xa[i, f]
        if viol < tol:
            if full:
                return epoch
            # converged on the active variables: put every variable back and check them all
            act[:, :] = True
            n_shrunk = 0
            m_old = np.inf
            continue
        m_old = viol
    return -epoch


class WWResult:
    """coef (c × p), intercept (c), the dual α (n × c, zero at the true class), epochs."""

    __slots__ = ("coef", "intercept", "alpha", "n_iter", "converged")

    def __init__(self, coef, intercept, alpha, n_iter, converged):
        self.coef = coef
        self.intercept = intercept
        self.alpha = alpha
        self.n_iter = n_iter
        self.converged = converged


def weston_watkins_fit(X, y_codes, n_classes: int, *, C=1.0, alpha0=None, tol: float = 1e-3,
                       max_epochs: int = 10_000) -> WWResult:
    """Fit the Weston–Watkins linear SVM; ``C`` a float or per-sample bounds (class weights).

    ``alpha0`` (n × c) warm-starts the dual (any point of the box is feasible).
    """
    X = np.asarray(X, dtype=np.float64)
    n, p = X.shape
    Xa = np.empty((n, p + 1))
    Xa[:, :p] = X
    Xa[:, p] = 1.0
    y = np.asarray(y_codes, dtype=np.int64)
    Cvec = np.broadcast_to(np.asarray(C, dtype=np.float64), (n,)).copy()
    if alpha0 is None:
        alpha = np.zeros((n, n_classes))
    else:
        alpha = np.minimum(np.array(alpha0, dtype=np.float64), Cvec[:, None])
        alpha[np.arange(n), y] = 0.0
    B = -alpha.copy()
    B[np.arange(n), y] = alpha.sum(axis=1)
    W = np.ascontiguousarray(B.T @ Xa)
    ep = _ww_cd(Xa, y, Cvec, alpha, W, float(tol), int(max_epochs))
    return WWResult(W[:, :p].copy(), W[:, p].copy(), alpha, abs(ep), ep > 0)
