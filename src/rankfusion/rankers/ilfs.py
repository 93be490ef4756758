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

import numbers

import numpy as np

from .._utils.data import check_classification_data, rescale_extreme_columns
from ._registry import register_ranker

__all__ = ["ilfs", "ilfs_tokens", "ilfs_relevance"]

_MULTICLASS = ("nearest", "sum")


def ilfs_tokens(values: np.ndarray, y: np.ndarray, n_classes: int, n_tokens: int = 4,
                multiclass: str = "nearest") -> np.ndarray:
    """Token-by-feature counts ``n(t, f)`` (shape ``(n_tokens, p)``) of step 1."""
    n, p = values.shape
    mu = np.empty((n_classes, p))
    for c in range(n_classes):
        rows = values[y == c]
        with np.errstate(invalid="ignore"):
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


def _plsa_relevance(tokens: np.ndarray, n_samples: int, *, max_iter: int = 1000,
                    tol: float = 1e-6, update_token_factor: bool = False) -> np.ndarray:
    """p(z1 | f) after FSLib's EM (step 2), vectorised over the features."""
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
    present = tokens > 0
    p_tf = p_tz @ p_zf
    ll_prev = -999.0
    for _ in range(max_iter):
        with np.errstate(divide="ignore", invalid="ignore"):
            # E-step: p(z | t, f) on the tokens present in f
            post = np.where(present[None], p_zf[:, None, :] * p_tz.T[:, :, None]
                            / p_tf[None], 0.0)  # (2, T, p)
        # M-step: p(z | f)
        new = (tokens[None] * post).sum(axis=1)
        nc = new.sum(axis=0)
        nc[nc == 0] = 0.00001
        p_zf = new / nc
        if update_token_factor:
            w = (tokens[None] * post).sum(axis=2).T  # (T, 2)
            ws = w.sum(axis=0, keepdims=True)
            p_tz = np.where(ws > 0, w / np.where(ws > 0, ws, 1.0), p_tz)  # no tokens: keep
        p_tf = p_tz @ p_zf
        with np.errstate(divide="ignore"):
            ll = float(np.sum(np.where(present, tokens * np.log(np.where(present, p_tf, 1.0)),
                                       0.0)))
        if abs(ll - ll_prev) < tol:
            break
        ll_prev = ll
    if update_token_factor and p_tz[0, 0] < p_tz[0, 1]:
        # the factors swapped roles during EM: z1 is the one favouring the first (best) token
        return p_zf[1]
    return p_zf[0]


def ilfs_relevance(X, y, *, n_tokens: int = 4, multiclass: str = "nearest",
                   update_token_factor: bool = True) -> np.ndarray:
    """p(z1 | f): the latent relevance of each feature after PLSA (steps 1-2)."""
    data = check_classification_data(X, y, allow_nominal=False)
    if isinstance(n_tokens, bool) or not isinstance(n_tokens, numbers.Integral) or n_tokens < 3:
        raise ValueError(f"n_tokens must be an integer >= 3, got {n_tokens!r}")
    if multiclass not in _MULTICLASS:
        raise ValueError(f"multiclass must be one of {_MULTICLASS}, got {multiclass!r}")
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


@register_ranker("ilfs")
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
