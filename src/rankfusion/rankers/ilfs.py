"""ILFS: Infinite Latent Feature Selection (Roffo et al. 2017), as FSLib's ``ILFS.m``, any number
of classes.

The method in four steps (FSLib v5.2 ``ILFS.m``, the code the fuzzy-combination paper ran):

1. **Tokens.** For sample :math:`s` of class :math:`c_s` and feature :math:`f`, the squared
   distances to the class means :math:`d_c = (x_{sf} - \\mu_{cf})^2` give the class-conditional
   distance ratio :math:`\\rho_{sf} = d_{c_s} / (d_{c_s} + d_{\\text{other}})` (small = the sample
   sits near its own class mean). Its histogram over ``n_tokens`` bins with edges
   ``linspace(0, 1, n_tokens)`` (MATLAB ``histc``: half-open bins, the last one holding exactly
   1) is the feature's token count vector :math:`n(t, f)`.
2. **PLSA** with two latent factors (:math:`z_1` relevant, :math:`z_2` not): :math:`p(t \\mid z)`
   starts at ``linspace(5000, 1)`` / ``linspace(1, 5000)`` normalised, :math:`p(z_1 \\mid f)` at
   the fraction of samples in the last three token bins, and EM (at most 1000 iterations, stopped
   when the total log-likelihood changes by less than 1e-6) re-estimates :math:`p(z \\mid f)`.
3. **Graph.** :math:`A_{ij} = p(z_1 \\mid f_i)\\, p(z_1 \\mid f_j)`.
4. **Infinite path sum** (Inf-FS): :math:`S = (I - rA)^{-1} - I` with :math:`r = \\phi / \\rho(A)`,
   :math:`\\phi` = ``ceil(max_i Σ_j A_ij) / p``; the score of :math:`f_i` is :math:`\\sum_j S_ij`.

**Generalisation to any number of classes.** FSLib normalises the distances with
``repmat(sum(abs(d), 2), [1, 2])``, which only works for two classes. We define the ratio with
the nearest competing class, :math:`d_{\\text{other}} = \\min_{c \\ne c_s} d_c`
(``multiclass="nearest"``, default: :math:`\\rho < 1/2` exactly when the own class mean is the
nearest one, the two-class meaning), or with all classes,
:math:`\\rho = d_{c_s} / \\sum_c d_c` (``multiclass="sum"``). Both equal FSLib on two classes.

**The rank-one graph.** :math:`A = v v^\\top` with :math:`v_i = p(z_1 \\mid f_i)`, so
:math:`A^k = \\lVert v \\rVert^{2(k-1)} A`, :math:`\\rho(A) = \\lVert v \\rVert^2` and the path sum
has the closed form :math:`\\sum_j S_{ij} = \\frac{\\phi}{\\lVert v\\rVert^2 (1 - \\phi)}\\, v_i
\\sum_j v_j`: whenever the series converges (:math:`\\phi < 1`) the ILFS ranking is exactly the
order of :math:`p(z_1 \\mid f)` -- the "infinite latent" graph adds nothing to the ranking. We
compute the closed form (no :math:`p \\times p` matrix, no inverse); the test suite checks it
against the explicit inverse and against FSLib run in GNU Octave.

**FSLib quirks deliberately not reproduced** (each changes FSLib's output only where FSLib is
wrong):

* its M-step for :math:`p(t \\mid z)` writes to a misspelt variable (``prob_tokens_factor``) that
  is never read, so :math:`p(t \\mid z)` stays at its initial value and EM only re-weights each
  feature's two-component mixture. With the initial :math:`p(t \\mid z)` that mixture weight
  saturates at :math:`p(z_1 \\mid f) = 1` for almost every feature, pure noise included (e.g.
  all four iris features, 11 of wine's 13 to three decimals), so FSLib's ranking is
  mostly a tie broken by EM's convergence speed. By default (``update_token_factor=True``) we run
  the M-step PLSA intends, :math:`p(t \\mid z) \\propto \\sum_f n(t, f)\\, p(z \\mid t, f)`,
  and, since PLSA's factors are only defined up to a swap, call :math:`z_1` the factor that ends
  with the larger probability of the first (best) token. ``update_token_factor=False`` is FSLib's
  computation exactly: on two-class data it reproduces FSLib's :math:`p(z_1 \\mid f)` to 1e-12
  and, where FSLib's series converges, its weights (``tests/fixtures/ilfs``, FSLib run in GNU
  Octave).
* :math:`\\phi \\ge 1` (when :math:`\\max_i v_i \\sum_j v_j > p - 1`, e.g. one or two features):
  FSLib's series diverges and ``inv`` returns a singular or sign-flipped result (reversing the
  ranking); we use :math:`\\phi = 0.99` there (the value of FSLib's other Inf-FS variants).
* FSLib's initial :math:`p(z_1 \\mid f)` is the fraction of samples in the last three token
  bins (the *worse* ratios, although :math:`z_1` is meant as the relevant factor and
  :math:`p(t \\mid z_1)` favours the first bin). A feature with no sample there starts at exactly
  0 (all samples there: exactly 1), a fixed point of EM, and keeps it: FSLib then ranks the
  cleanest features last. We start such features at 1/2, so EM finds their estimate; features
  with an initial value strictly inside (0, 1) are treated exactly as FSLib does.
* FSLib divides each distance by :math:`\\sum_c \\sigma_{cf}^4` (the squared class variances),
  which cancels in the ratio but turns a feature with zero within-class variance into NaN tokens
  and a score of 0 even when it separates the classes perfectly; we leave the factor out.
* missing values (FSLib cannot take them): class means and variances use the observed values, and
  a sample whose value is missing (or whose ratio is 0/0: equal to every class mean) adds no
  token, as NaN adds none in ``histc``.

References
----------
G. Roffo, S. Melzi, U. Castellani, A. Vinciarelli. Infinite Latent Feature Selection: a
probabilistic latent graph-based ranking approach. ICCV 2017. G. Roffo, Feature Selection Library
(FSLib, MATLAB File Exchange), ``ILFS.m`` (v5.2, 2017).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np

from .._utils.constraints import Interval, Options, validate_params
from .._utils.data import check_classification_data, rescale_extreme_columns
from .._utils.jit import kernel
from .._utils.validation import check_bool
from ._registry import BOOL, register_ranker

__all__ = ["ilfs", "ilfs_tokens", "ilfs_relevance"]

_MULTICLASS = ("nearest", "sum")

#: ILFS's parameters (docs/design.md, 'Parameters'): declared on its registry entry and
#: checked on every call.
ILFS_CONSTRAINTS = {"n_tokens": [Interval("int", 3, None)], "multiclass": [Options(*_MULTICLASS)],
                    "update_token_factor": [BOOL]}


def ilfs_tokens(values: np.ndarray, y: np.ndarray, n_classes: int, n_tokens: int = 4,
                multiclass: str = "nearest") -> np.ndarray:
    """Token-by-feature counts ``n(t, f)`` (shape ``(n_tokens, p)``) of step 1."""
    n, p = values.shape
    mu = np.empty((n_classes, p))
    for c in range(n_classes):
        rows = values[y == c]
        with np.errstate(invalid="ignore"), warnings.catch_warnings():
            # an all-missing column: its mean is NaN, no "Mean of empty slice" for the user
            warnings.simplefilter("ignore", RuntimeWarning)
            mu[c] = np.nanmean(rows, axis=0) if rows.size else np.nan
    d = (values[:, None, :] - mu[None, :, :]) ** 2  # (n, C, p)
    own = d[np.arange(n), y, :]  # (n, p)
    if multiclass == "sum":
        denom = d.sum(axis=1)
    else:
        other = d.copy()
        other[np.arange(n), y, :] = np.inf
        denom = own + other.min(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = own / denom
    edges = np.linspace(0.0, 1.0, n_tokens)
    counts = np.zeros((n_tokens, p))
    ok = np.isfinite(ratio) & (ratio >= 0) & (ratio <= 1)
    # MATLAB histc: bin k holds edges[k] <= v < edges[k+1]; the last bin holds v == edges[-1]
    b = np.searchsorted(edges, ratio, side="right") - 1
    cols = np.broadcast_to(np.arange(p), ratio.shape)
    np.add.at(counts, (b[ok], cols[ok]), 1.0)
    return counts


def _fma_exact(a, b, c):
    """``a * b + c`` rounded once, in exact rationals (the interpreted kernel's ``_fma``; the
    compiled one uses LLVM's ``fma``, see :func:`_bind_fma`)."""
    return float(Fraction(a) * Fraction(b) + Fraction(c))


_fma = _fma_exact


@kernel(python_below=0)
def _pairwise_sum(a, n):
    """``numpy.add.reduce`` of the contiguous ``a[:n]``, bit for bit: numpy's pairwise
    summation (8 accumulators on blocks of at most 128 values, halves split at a multiple of 8
    above that), so the kernel below adds in numpy's order."""
    # explicit stack instead of recursion (the depth is at most log2(n / 128) + 1)
    starts = np.empty(64, dtype=np.int64)
    sizes = np.empty(64, dtype=np.int64)
    stage = np.zeros(64, dtype=np.int64)
    vals = np.empty(64)
    top = 0
    nv = 0
    starts[0] = 0
    sizes[0] = n
    stage[0] = 0
    top = 1
    while top > 0:
        s = starts[top - 1]
        m = sizes[top - 1]
        if m <= 128:
            top -= 1
            if m < 8:
                res = 0.0
                if m > 0:
                    res = a[s]
                for i in range(1, m):
                    res += a[s + i]
            else:
                r0 = a[s]
                r1 = a[s + 1]
                r2 = a[s + 2]
                r3 = a[s + 3]
                r4 = a[s + 4]
                r5 = a[s + 5]
                r6 = a[s + 6]
                r7 = a[s + 7]
                i = 8
                while i < m - (m % 8):
                    r0 += a[s + i]
                    r1 += a[s + i + 1]
                    r2 += a[s + i + 2]
                    r3 += a[s + i + 3]
                    r4 += a[s + i + 4]
                    r5 += a[s + i + 5]
                    r6 += a[s + i + 6]
                    r7 += a[s + i + 7]
                    i += 8
                res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
                while i < m:
                    res += a[s + i]
                    i += 1
            vals[nv] = res
            nv += 1
            continue
        half = m // 2
        half -= half % 8
        if stage[top - 1] == 0:
            stage[top - 1] = 1
            starts[top] = s
            sizes[top] = half
            stage[top] = 0
            top += 1
        elif stage[top - 1] == 1:
            stage[top - 1] = 2
            starts[top] = s + half
            sizes[top] = m - half
            stage[top] = 0
            top += 1
        else:
            top -= 1
            nv -= 1
            vals[nv - 1] = vals[nv - 1] + vals[nv]
    return vals[0]


_FMA_BOUND = []


def _bind_fma() -> None:
    """Rebind :func:`_fma` to an intrinsic calling LLVM's ``llvm.fma.f64`` (one rounding, on
    any CPU) before :func:`_plsa_em` is compiled or loaded from numba's cache. An intrinsic
    compiles nothing by itself (a jitted wrapper would cost a compilation per process); it is
    callable from compiled code only, so the interpreted ``_plsa_em.py_func`` runs only before
    this binding (the compiled kernel is the one in use: ``python_below=0``)."""
    if _FMA_BOUND:
        return
    import numba
    from llvmlite import ir
    from numba.extending import intrinsic

    @intrinsic
    def fma(typingctx, a, b, c):
        sig = numba.types.float64(numba.types.float64, numba.types.float64,
                                  numba.types.float64)

        def codegen(context, builder, signature, args):
            d = ir.DoubleType()
            fn = builder.module.declare_intrinsic("llvm.fma", [d], ir.FunctionType(d, [d] * 3))
            return builder.call(fn, args)

        return sig, codegen

    globals()["_fma"] = fma
    _FMA_BOUND.append(True)


@kernel(python_below=0, error_model="numpy")
def _plsa_em(tokens, present, p_tz, p_zf, max_iter, tol, update_token_factor):
    """FSLib's EM loop (step 2) in place on ``p_tz`` (T, 2) and ``p_zf`` (2, p).

    The arithmetic is that of the numpy transcription it replaces, operation for operation:
    products before quotients, sums over tokens in token order, sums over features and the
    log-likelihood in numpy's pairwise order (:func:`_pairwise_sum`), and ``p(t|z) @ p(z|f)``
    as the BLAS kernel computes it, ``fma(a_t1, b_1f, a_t0 * b_0f)``; so the iterations, and
    the stop, are the same."""
    tt, p = tokens.shape
    p_tf = np.empty((tt, p))
    post = np.empty((2, tt, p))
    new = np.empty((2, p))
    row = np.empty(p)
    col = np.empty(tt)
    flat = np.empty(tt * p)
    w = np.empty((tt, 2))
    for t in range(tt):
        for f in range(p):
            p_tf[t, f] = _fma(p_tz[t, 1], p_zf[1, f], p_tz[t, 0] * p_zf[0, f])
    ll_prev = -999.0
    for _ in range(max_iter):
        # E-step: p(z | t, f) on the tokens present in f
        for z in range(2):
            for t in range(tt):
                for f in range(p):
                    if present[t, f]:
                        post[z, t, f] = p_zf[z, f] * p_tz[t, z] / p_tf[t, f]
                    else:
                        post[z, t, f] = 0.0
        # M-step: p(z | f)
        for z in range(2):
            for f in range(p):
                acc = tokens[0, f] * post[z, 0, f]
                for t in range(1, tt):
                    acc += tokens[t, f] * post[z, t, f]
                new[z, f] = acc
        for f in range(p):
            nc = new[0, f] + new[1, f]
            if nc == 0.0:
                nc = 0.00001
            p_zf[0, f] = new[0, f] / nc
            p_zf[1, f] = new[1, f] / nc
        if update_token_factor:
            for z in range(2):
                for t in range(tt):
                    for f in range(p):
                        row[f] = tokens[t, f] * post[z, t, f]
                    w[t, z] = _pairwise_sum(row, p)
            for z in range(2):
                for t in range(tt):
                    col[t] = w[t, z]
                ws = _pairwise_sum(col, tt)
                if ws > 0:
                    for t in range(tt):
                        p_tz[t, z] = w[t, z] / ws
        for t in range(tt):
            for f in range(p):
                p_tf[t, f] = _fma(p_tz[t, 1], p_zf[1, f], p_tz[t, 0] * p_zf[0, f])
        for t in range(tt):
            for f in range(p):
                if present[t, f]:
                    flat[t * p + f] = tokens[t, f] * math.log(p_tf[t, f])
                else:
                    flat[t * p + f] = 0.0
        ll = _pairwise_sum(flat, tt * p)
        if abs(ll - ll_prev) < tol:
            break
        ll_prev = ll


def _plsa_relevance(tokens: np.ndarray, n_samples: int, *, max_iter: int = 1000,
                    tol: float = 1e-6, update_token_factor: bool = False) -> np.ndarray:
    """p(z1 | f) after FSLib's EM (step 2); the loop is the compiled :func:`_plsa_em`."""
    tt, p = tokens.shape
    p_tz = np.column_stack([np.linspace(5000.0, 1.0, tt), np.linspace(1.0, 5000.0, tt)])
    p_tz /= p_tz.sum(axis=0, keepdims=True)
    prior = 100.0 * tokens[max(tt - 3, 0):].sum(axis=0) / n_samples
    prior[~np.isfinite(prior)] = 1.0
    # FSLib starts a feature with no (or only) tokens in the last three bins at p(z1|f) = 0 (1),
    # a fixed point of EM: it stays there and the feature ranks last (first) whatever its
    # tokens say. We start those features at 1/2 instead (documented departure).
    prior[(prior <= 0.0) | (prior >= 100.0)] = 50.0
    p_zf = np.vstack([prior, 100.0 - prior])
    p_zf /= p_zf.sum(axis=0, keepdims=True)
    tokens = np.ascontiguousarray(tokens, dtype=np.float64)
    p_tz = np.ascontiguousarray(p_tz)
    p_zf = np.ascontiguousarray(p_zf)
    _bind_fma()
    _plsa_em.run(tokens, tokens > 0, p_tz, p_zf, int(max_iter), float(tol),
                 bool(update_token_factor), work=tokens.size)
    if update_token_factor and p_tz[0, 0] < p_tz[0, 1]:
        # the factors swapped roles during EM: z1 is the one favouring the first (best) token
        return p_zf[1]
    return p_zf[0]


def ilfs_relevance(X, y, *, n_tokens: int = 4, multiclass: str = "nearest",
                   update_token_factor: bool = True) -> np.ndarray:
    """p(z1 | f): the latent relevance of each feature after PLSA (steps 1-2)."""
    update_token_factor = check_bool(update_token_factor, "update_token_factor")
    data = check_classification_data(X, y, allow_nominal=False)
    validate_params(ILFS_CONSTRAINTS, {"n_tokens": n_tokens, "multiclass": multiclass})
    values, _ = rescale_extreme_columns(data.values)  # the ratio is scale invariant
    tokens = ilfs_tokens(values, data.y, data.n_classes, int(n_tokens), multiclass)
    return _plsa_relevance(tokens, data.n_samples, update_token_factor=update_token_factor)


def _path_sum(v: np.ndarray) -> np.ndarray:
    """Row sums of (I - rA)^-1 - I for A = v v', r = phi / rho(A) (closed form, step 4)."""
    p = v.size
    norm2 = float(v @ v)
    total = float(v.sum())
    if norm2 == 0.0:
        return np.zeros(p)
    phi = np.ceil((v * total).max()) / p
    if not phi < 1.0:
        phi = 0.99
    r = phi / norm2
    return (r / (1.0 - r * norm2)) * v * total


@register_ranker("ilfs", tags={"allow_nan": True}, constraints=ILFS_CONSTRAINTS)
def ilfs(X, y, *, n_tokens: int = 4, multiclass: str = "nearest",
         update_token_factor: bool = True) -> np.ndarray:
    """ILFS ranker (Roffo et al. 2017, FSLib ``ILFS.m``): the infinite path-sum score.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Numeric features (NaN = missing).
    y : array-like of shape (n_samples,)
        Class labels, two or more classes.
    n_tokens : int, default 4
        FSLib's ``TT``: number of token bins of the distance ratio.
    multiclass : {"nearest", "sum"}, default "nearest"
        How the ratio generalises beyond two classes (see the module docstring).
    update_token_factor : bool, default True
        Re-estimate p(token | factor) in the M-step, as PLSA does; ``False`` reproduces FSLib,
        whose M-step leaves it at its initial value (see the module docstring).

    Returns
    -------
    ndarray of float64, shape (n_features,)
        ``Σ_j S_ij``, higher = more relevant; the order is that of p(z1 | f).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 50)
    >>> X = np.column_stack([y + rng.normal(0, 0.3, 100), rng.normal(size=100)])
    >>> s = ilfs(X, y)
    >>> bool(s[0] > s[1])
    True
    """
    v = ilfs_relevance(X, y, n_tokens=n_tokens, multiclass=multiclass,
                       update_token_factor=update_token_factor)
    return _path_sum(v)
