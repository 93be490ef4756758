"""A linear C-SVM solved in the dual on a precomputed Gram matrix (private).

The problem is libsvm's C-SVC with a linear kernel (what scikit-learn's
``SVC(kernel="linear")`` solves), with an unregularised intercept:

    min_α  ½ αᵀQα − eᵀα   s.t.  yᵀα = 0,  0 ≤ α_t ≤ C_t,     Q_st = y_s y_t K_st,  K = X Xᵀ,

``C_t = C · class_weight[y_t]``. The solver is sequential minimal optimisation with the
second-order working-set selection of Fan, Chen & Lin (2005, JMLR 6:1889–1918, "WSS 2") and
the shrinking heuristic of libsvm (Chang & Lin 2011, §5), with the same stopping rule
(maximal-violating-pair gap ``m(α) − M(α) < tol``) and the same floating-point data (kernel
values rounded to float32 as in libsvm's kernel cache, diagonal in float64, variables swapped
to the end of the active set when shrunk). libsvm's loose default ``tol = 1e-3`` leaves an
approximate solution that depends on the path; following the path makes that approximation —
and so every RFE decision — libsvm's: the tests check ``RFE(SVC(kernel="linear"))`` rankings
feature for feature. Written from the papers' descriptions of the algorithm (no libsvm code).
``w = Σ_t α_t y_t x_t``; ``b = −ρ`` with ρ the mean of ``y_t ∇_t`` over free support vectors
(the midpoint of the feasible interval when none is free), as libsvm reports it.

Speed comes from the data layout rather than from the algorithm: the Gram matrix is given (and
downdated by the RFE loop when features leave, ``K ← K − X_R X_Rᵀ``, instead of recomputed
kernel rows), the variables live in position order so that every loop is contiguous, the
gradient is kept as ``z = −y∘∇`` so that libsvm's sign-dependent branches become one
expression, and the arg-max/arg-min of the working-set selection are computed as vectorised
reductions (on order-preserving integer keys) followed by a vectorised search for the last
position attaining them — the same choice as libsvm's ``>=`` scan.

References: Fan, Chen & Lin (2005), Working set selection using second order information for
training support vector machines, JMLR 6; Chang & Lin (2011), LIBSVM: a library for support
vector machines, ACM TIST 2(3):27.
"""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["smo_gram", "DualSVMResult"]

_TAU = 1e-12
_SMALL = 40  # active sets up to this size use the single-pass selection


@numba.njit(cache=True, nogil=True, inline="always")
def _be_shrunk(a, y, C, al, z, g1, g2):  # pragma: no cover - compiled
    # libsvm's be_shrunk written with z = −y∘G.
    if al[a] >= C[a]:
        if y[a] > 0:
            return z[a] > g1
        return -z[a] > g2
    if al[a] <= 0.0:
        if y[a] > 0:
            return -z[a] > g2
        return z[a] > g1
    return False


@numba.njit(cache=True, nogil=True, inline="always")
def _set_masks(a, y, C, al, up, low):  # pragma: no cover - compiled
    if y[a] > 0:
        up[a] = al[a] < C[a]
        low[a] = al[a] > 0.0
    else:
        up[a] = al[a] > 0.0
        low[a] = al[a] < C[a]


@numba.njit(cache=True, nogil=True)
def _swap(a, b, Q, y, C, al, z, Gb, d, o, up, low):  # pragma: no cover - compiled
    """libsvm's swap_index: exchange positions a and b everywhere, Q's rows and columns too."""
    y[a], y[b] = y[b], y[a]
    C[a], C[b] = C[b], C[a]
    al[a], al[b] = al[b], al[a]
    z[a], z[b] = z[b], z[a]
    Gb[a], Gb[b] = Gb[b], Gb[a]
    d[a], d[b] = d[b], d[a]
    o[a], o[b] = o[b], o[a]
    up[a], up[b] = up[b], up[a]
    low[a], low[b] = low[b], low[a]
    n = y.shape[0]
    for t in range(n):
        tmp = Q[a, t]
        Q[a, t] = Q[b, t]
        Q[b, t] = tmp
    for t in range(n):
        tmp = Q[t, a]
        Q[t, a] = Q[t, b]
        Q[t, b] = tmp


@numba.njit(cache=True, nogil=True)
def _reconstruct(Q, y, C, al, z, Gb, active):  # pragma: no cover - compiled
    """Rebuild the shrunk positions' gradients: G = Ḡ − e + Σ_{free b} α_b Q_{·b}."""
    n = y.shape[0]
    for a in range(active, n):
        ya = y[a]
        acc = Gb[a] - 1.0
        for b in range(active):
            if 0.0 < al[b] < C[b]:
                acc += al[b] * (ya * y[b] * np.float64(Q[a, b]))
        z[a] = -ya * acc


_SIGN_OFF = np.int64(0x7FFFFFFFFFFFFFFF)
_KEY_MIN = np.int64(-0x7FFFFFFFFFFFFFFF) - np.int64(1)


@numba.njit(cache=True, nogil=True, inline="always")
def _max8(vi, n, kb, kbf):  # pragma: no cover - compiled
    """max of v[:n] (float64, no NaN, no −0.0), reduced on order-preserving integer keys.

    ``vi`` is ``v`` viewed as int64 (the result comes back through ``kb`` / ``kbf``, one
    int64 and its float64 view): for IEEE doubles ``k ^ ((k >> 63) & 0x7FF…F)`` is
    monotone, and an integer max reduction vectorises where a float one (without fast-math)
    does not. Exact: the key of the maximum is the maximum of the keys.
    """
    m = _KEY_MIN
    for a in range(n):
        k = vi[a]
        k = k ^ ((k >> 63) & _SIGN_OFF)
        m = k if k > m else m
    kb[0] = m ^ ((m >> 63) & _SIGN_OFF)
    return kbf[0]


@numba.njit(cache=True, nogil=True, inline="always")
def _fill_up(z, up, t1, active):  # pragma: no cover - compiled
    """t1 = z on I_up, −∞ elsewhere (+ 0.0 turns −0.0 into +0.0 for the integer keys)."""
    for a in range(active):
        t1[a] = (z[a] if up[a] else -np.inf) + 0.0


@numba.njit(cache=True, nogil=True, inline="always")
def _last_index(v, n, x):  # pragma: no cover - compiled
    """The last position a < n with v[a] == x (−1 if none): a max-reduction over the
    positions that match, which vectorises, unlike a backward scan with an early exit."""
    m = -1
    for a in range(n):
        c = a if v[a] == x else -1
        m = c if c > m else m
    return m


@numba.njit(cache=True, nogil=True, inline="always")
def _max2(ai, bi, n, kb, kbf):  # pragma: no cover - compiled
    """(max a[:n], max b[:n]) in one pass, on the integer keys of ``_max8``."""
    ma = _KEY_MIN
    mb = _KEY_MIN
    for t in range(n):
        k = ai[t]
        k = k ^ ((k >> 63) & _SIGN_OFF)
        ma = k if k > ma else ma
        h = bi[t]
        h = h ^ ((h >> 63) & _SIGN_OFF)
        mb = h if h > mb else mb
    kb[0] = ma ^ ((ma >> 63) & _SIGN_OFF)
    va = kbf[0]
    kb[0] = mb ^ ((mb >> 63) & _SIGN_OFF)
    return va, kbf[0]


@numba.njit(cache=True, nogil=True, inline="always")
def _select_small(Q, z, d, up, low, active, tol):  # pragma: no cover - compiled
    """WSS 2 in libsvm's single pass (for small active sets, where the vectorised passes'
    fixed costs dominate); the same choices as :func:`_select`."""
    gmax = -np.inf
    i = -1
    for a in range(active):
        if up[a] and z[a] >= gmax:
            gmax = z[a]
            i = a
    if i < 0:
        return -1, -1, True
    gmax2 = -np.inf
    j = -1
    best = np.inf
    di = d[i]
    for a in range(active):
        if low[a]:
            za = z[a]
            if -za >= gmax2:
                gmax2 = -za
            diff = gmax - za
            if diff > 0.0:
                q = di + d[a] - 2.0 * np.float64(Q[i, a])
                q = q if q > 0.0 else _TAU
                obj = -(diff * diff) / q
                if obj <= best:
                    best = obj
                    j = a
    return i, j, (gmax + gmax2 < tol) or j < 0


@numba.njit(cache=True, nogil=True, inline="always")
def _select(Q, z, d, up, low, active, tol, t1, t2, t1i, t2i, kb, kbf,
            filled):  # pragma: no cover - compiled
    """WSS 2 over positions [0, active); ties go to the later position (libsvm's ``>=``).

    Written with z = −y∘G and the I_up / I_low masks (libsvm's two branches on y_t are the
    same expressions in z). Each candidate value is first written to a scratch array (``t1``,
    ``t2``: a loop the compiler vectorises), the maxima / minimum are reduced in eight lanes,
    and the *last* position attaining them is found by a backward scan: the same choice as
    libsvm's single pass with ``>=`` / ``<=``, several times faster.
    """
    ninf = -np.inf
    if not filled:
        _fill_up(z, up, t1, active)
    gmax = _max8(t1i, active, kb, kbf)
    if gmax == ninf:
        return -1, -1, True
    i = _last_index(t1, active, gmax)
    di = d[i]
    for a in range(active):
        za = z[a]
        t2[a] = (-za if low[a] else ninf) + 0.0
        diff = gmax - za
        q = di + d[a] - 2.0 * np.float64(Q[i, a])
        q = q if q > 0.0 else _TAU
        obj = -(diff * diff) / q
        # stored negated, so that the best (smallest) objective is a maximum
        t1[a] = (-obj if (low[a] and diff > 0.0) else ninf) + 0.0
    best, gmax2 = _max2(t1i, t2i, active, kb, kbf)
    if best == ninf:
        return i, -1, True
    j = _last_index(t1, active, best)
    return i, j, gmax + gmax2 < tol


@numba.njit(cache=True, nogil=True)
def _smo(Q, y, C, al, z, Gb, d, o, tol, max_iter, shrinking,
         small):  # pragma: no cover - compiled
    """SMO with WSS 2 and libsvm's shrinking, on arrays kept in *position* order.

    ``z = −y∘G`` (G = Qα − e is libsvm's gradient; the sign flip is exact, so every value is
    libsvm's). Like libsvm, variables are physically reordered when shrunk (``_swap``), so the
    loops run over a contiguous range; ``o`` maps positions to the original indices. ``Q``
    holds K rounded to float32 (libsvm's kernel cache is float32; the diagonal ``d`` is
    float64), so the selection, the updates and the ties — hence the path at libsvm's loose
    tolerance — are libsvm's. Returns the iteration count (negative when ``max_iter`` was hit).
    """
    n = y.shape[0]
    up = np.empty(n, dtype=np.bool_)
    low = np.empty(n, dtype=np.bool_)
    t1 = np.empty(n)
    t2 = np.empty(n)
    t1i = t1.view(np.int64)
    t2i = t2.view(np.int64)
    kb = np.empty(1, dtype=np.int64)
    kbf = kb.view(np.float64)
    for a in range(n):
        _set_masks(a, y, C, al, up, low)
    active = n
    unshrink = False
    it = 0
    counter = min(n, 1000) + 1
    filled = False  # whether t1 holds the I_up values of the current z
    while it < max_iter:
        counter -= 1
        if counter == 0:
            counter = min(n, 1000)
            if shrinking:
                g1 = -np.inf
                g2 = -np.inf
                for a in range(active):
                    if up[a] and z[a] >= g1:
                        g1 = z[a]
                    if low[a] and -z[a] >= g2:
                        g2 = -z[a]
                if (not unshrink) and g1 + g2 <= tol * 10.0:
                    unshrink = True
                    _reconstruct(Q, y, C, al, z, Gb, active)
                    active = n
                a = 0
                while a < active:
                    if _be_shrunk(a, y, C, al, z, g1, g2):
                        active -= 1
                        while active > a:
                            if not _be_shrunk(active, y, C, al, z, g1, g2):
                                _swap(a, active, Q, y, C, al, z, Gb, d, o, up, low)
                                break
                            active -= 1
                    a += 1
                filled = False
        if active <= small:
            i, j, done = _select_small(Q, z, d, up, low, active, tol)
        else:
            i, j, done = _select(Q, z, d, up, low, active, tol, t1, t2, t1i, t2i, kb, kbf,
                                 filled)
        if done:
            _reconstruct(Q, y, C, al, z, Gb, active)
            active = n
            if active <= small:
                i, j, done = _select_small(Q, z, d, up, low, active, tol)
            else:
                i, j, done = _select(Q, z, d, up, low, active, tol, t1, t2, t1i, t2i, kb,
                                     kbf, False)
            if done:
                return it
            counter = 1
        it += 1
        ci = C[i]
        cj = C[j]
        ai_old = al[i]
        aj_old = al[j]
        yi = y[i]
        yj = y[j]
        Gi = -yi * z[i]
        Gj = -yj * z[j]
        qij = yi * yj * np.float64(Q[i, j])
        if yi != yj:
            q = d[i] + d[j] + 2.0 * qij
            if q <= 0.0:
                q = _TAU
            # α_i − α_j is conserved.
            delta = (-Gi - Gj) / q
            diff = ai_old - aj_old
            ai = ai_old + delta
            aj = aj_old + delta
            if diff > 0.0:
                if aj < 0.0:
                    aj = 0.0
                    ai = diff
            else:
                if ai < 0.0:
                    ai = 0.0
                    aj = -diff
            if diff > ci - cj:
                if ai > ci:
                    ai = ci
                    aj = ci - diff
            else:
                if aj > cj:
                    aj = cj
                    ai = cj + diff
        else:
            q = d[i] + d[j] - 2.0 * qij
            if q <= 0.0:
                q = _TAU
            # α_i + α_j is conserved.
            delta = (Gi - Gj) / q
            sm = ai_old + aj_old
            ai = ai_old - delta
            aj = aj_old + delta
            if sm > ci:
                if ai > ci:
                    ai = ci
                    aj = sm - ci
            else:
                if aj < 0.0:
                    aj = 0.0
                    ai = sm
            if sm > cj:
                if aj > cj:
                    aj = cj
                    ai = sm - cj
            else:
                if ai < 0.0:
                    ai = 0.0
                    aj = sm
        al[i] = ai
        al[j] = aj
        _set_masks(i, y, C, al, up, low)
        _set_masks(j, y, C, al, up, low)
        dai = ai - ai_old
        daj = aj - aj_old
        # libsvm: G_a += Q_ia Δα_i + Q_ja Δα_j, Q_ia = y_i y_a K_ia. In z = −y∘G this is
        # z_a += K_ia (−y_i Δα_i) + K_ja (−y_j Δα_j), the same floating-point values.
        ci_ = -yi * dai
        cj_ = -yj * daj
        if active <= small:
            for a in range(active):
                z[a] += np.float64(Q[i, a]) * ci_ + np.float64(Q[j, a]) * cj_
            filled = False
        else:
            # fused with the next selection's first pass (t1 = z on I_up)
            for a in range(active):
                za = z[a] + (np.float64(Q[i, a]) * ci_ + np.float64(Q[j, a]) * cj_)
                z[a] = za
                t1[a] = (za if up[a] else -np.inf) + 0.0
            filled = True
        ui = ai_old >= ci
        if ui != (ai >= ci):
            sg = -ci if ui else ci
            for a in range(n):
                Gb[a] += sg * ((yi * y[a]) * np.float64(Q[i, a]))
        uj = aj_old >= cj
        if uj != (aj >= cj):
            sg = -cj if uj else cj
            for a in range(n):
                Gb[a] += sg * ((yj * y[a]) * np.float64(Q[j, a]))
    return -it


@numba.njit(cache=True, nogil=True)
def _rho(y, Cvec, alpha, G):  # pragma: no cover - compiled
    """libsvm's ρ: mean of y_t G_t over free α, else the midpoint of the feasible bounds."""
    ub = np.inf
    lb = -np.inf
    s = 0.0
    nfree = 0
    for t in range(y.shape[0]):
        yg = y[t] * G[t]
        at_upper = alpha[t] >= Cvec[t]
        at_lower = alpha[t] <= 0.0
        if at_upper:
            if y[t] < 0:
                ub = min(ub, yg)
            else:
                lb = max(lb, yg)
        elif at_lower:
            if y[t] > 0:
                ub = min(ub, yg)
            else:
                lb = max(lb, yg)
        else:
            nfree += 1
            s += yg
    if nfree > 0:
        return s / nfree
    return (ub + lb) / 2.0


class DualSVMResult:
    """α, the gradient, ρ and the iteration count of one dual fit."""

    __slots__ = ("alpha", "grad", "rho", "n_iter", "converged")

    def __init__(self, alpha, grad, rho, n_iter, converged):
        self.alpha = alpha
        self.grad = grad
        self.rho = rho
        self.n_iter = n_iter
        self.converged = converged


def smo_gram(K: np.ndarray, y: np.ndarray, Cvec: np.ndarray, *, alpha0: np.ndarray | None = None,
             tol: float = 1e-3, max_iter: int | None = None, shrinking: bool = True,
             Q: np.ndarray | None = None) -> DualSVMResult:
    """Solve the C-SVC dual on the Gram matrix ``K`` (float64, n × n).

    ``y`` holds ±1 (float64), ``Cvec`` the per-sample upper bounds, ``alpha0`` a feasible warm
    start (``yᵀα = 0``, inside the box), zero by default. ``max_iter`` defaults to libsvm's
    ``max(10⁷, 100 n)``. ``Q`` is ``K`` as float32 (computed when not given; it is reordered
    in place by the solver, so pass a scratch copy).
    """
    n = y.shape[0]
    if Q is None:
        Q = K.astype(np.float32)
    alpha = np.zeros(n) if alpha0 is None else np.array(alpha0, dtype=np.float64)
    Gbar = np.zeros(n)
    if alpha0 is None or not alpha.any():
        G = -np.ones(n)
    else:
        G = y * (K @ (alpha * y)) - 1.0
        at_c = alpha >= Cvec
        if at_c.any():
            Gbar = y * (K[:, at_c] @ (Cvec[at_c] * y[at_c]))
    if max_iter is None:
        max_iter = max(10_000_000, 100 * n)
    yP = np.array(y, dtype=np.float64)
    CP = np.array(Cvec, dtype=np.float64)
    d = np.ascontiguousarray(np.diagonal(K), dtype=np.float64).copy()
    o = np.arange(n)
    z = -yP * G
    it = _smo(Q, yP, CP, alpha, z, Gbar, d, o, float(tol), int(max_iter), bool(shrinking),
              _SMALL)
    # Back to the original order.
    a_out = np.empty(n)
    g_out = np.empty(n)
    a_out[o] = alpha
    g_out[o] = -yP * z
    rho = _rho(y, Cvec, a_out, g_out)
    return DualSVMResult(a_out, g_out, rho, abs(it), it >= 0)
