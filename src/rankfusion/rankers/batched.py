"""Batched rankers: every resample of one call scored at once, from weighted sums.

An ensemble ranks the same data on many resamples (bootstrap samples, half-samples, training
parts). For a ranker whose statistic is a function of per-class sums, all resamples are computed
at once from their **multiplicity matrix** ``W`` (``n_resamples × n_samples``; ``W[b, i]`` = how
many times row ``i`` is in resample ``b``, :func:`resample_counts`): for every class ``k``,

.. math::

    N_k = W_k \\mathbf 1, \\qquad S^{(1)}_k = W_k Z, \\qquad S^{(2)}_k = W_k (Z \\odot Z),

two matrix products over the rows of the class (``W_k``: the columns of ``W`` of class ``k``).
``Z`` is ``X`` centred on its column means over all the data (``z = x − x̄``), which keeps the
cancellation of the within-class sums small; integer-valued columns small enough that every sum
is exact (``n · max|x| ≤ 2³¹``) are summed uncentred instead, exactly. From these sums:

* ``f_classif`` — ANOVA ``F = (SSB/(K−1)) / (SSW/(N−K))``, ``SSW = Σ_k (S²_k − (S¹_k)²/N_k)``,
  ``SSB = Σ_k (S¹_k)²/N_k − (Σ_k S¹_k)²/N`` (over the classes present in the resample);
* ``chi2`` — scikit-learn's ``Σ_k (O_k − E_k)²/E_k`` with ``O_k = S¹_k`` of the raw
  (non-negative, uncentred: no cancellation in the sums) features and
  ``E_k = (N_k/N) Σ_k O_k``;
* ``welch_t`` — ``|t| = |x̄₁ − x̄₂| / sqrt(s₁²/N₁ + s₂²/N₂)``, ``x̄_k = S¹_k/N_k``,
  ``s_k² = (S²_k − (S¹_k)²/N_k)/(N_k − 1)``.

**The same positions as one call per resample.** The exact columns give bit-equal scores (the
same statements on the same exact sums). For the others each score carries a bound of the
rounding error of both computations (the one-at-a-time sums are uncentred: the bound grows with
``mean²/variance``); where two features' intervals overlap (a near-tie: an exact tie of the
one-at-a-time path that the sums might break, or the reverse), where a column is constant in the
resample, or where the bound is not small (``> 10⁻⁶`` relative to the within-class sum of
squares), those features are recomputed by the one-at-a-time kernel itself, so their scores, ties
and order are its own. Constant columns then come last exactly as the registered ranker puts
them (docs/design.md, 'Rankers'). The other scores differ from the one-at-a-time scores by at
most ``RTOL = 1e-9`` times the resample's largest score on data whose columns have
``|mean| ≲ 10·sd`` (measured: below 1e-11 on such data): both computations round sums of at
most n terms, and the one-at-a-time sums are uncentred, so their error bound,
``≈ 8·n·2⁻⁵³·(1 + mean²/var)`` of the within-class sum of squares, is 10⁻¹² for 500 rows and
reaches 10⁻⁹ near ``mean = 10·sd`` — the rest of the 1e-9 is the bound's ×(n − K)/F growth for
scores near 0. Beyond that, the one-at-a-time scores themselves lose those digits (where the
within-class sum of squares falls below 10⁻⁶ of the raw second moment the whole resample is
scored one at a time); the positions are equal in every case.

Resamples the sums cannot score as the ranker would (fewer than two classes; for ``welch_t`` a
class of fewer than 2 rows; a ``chi2`` beyond the float range) are left to the one-at-a-time
call, whose error is the ranker's own (``partial=True``).

The work is done in blocks of resamples and of features that fit a memory budget
(``max_memory``, docs/design.md, 'Sparse input': the argument, else ``RANKFUSION_MAX_MEMORY``,
else 75 % of the physical memory; at most 256 MiB, beyond which larger blocks gain nothing).
"""

from __future__ import annotations

import warnings

import numpy as np

from .._utils.data import rescale_extreme_columns
from .._utils.memory import memory_limit
from ._degenerate import column_names, demote_degenerate
from ._registry import get_ranker, ranker_info

__all__ = ["BATCHED_RANKERS", "RTOL", "resample_counts", "batched_ranker", "batched_scores"]

#: The registered rankers computed by :func:`batched_scores`.
BATCHED_RANKERS = ("f_classif", "chi2", "welch_t")

#: The tolerance of the batched scores against one call per resample, relative to the
#: resample's largest score (module docstring); the positions are equal whatever the data.
RTOL = 1e-9

_U = 2.0 ** -53
_CAP = 256 * 2 ** 20
_ILL = 1e-6  # a relative error bound above this: recomputed one at a time
_FLAT = 1e-9  # candidate constant columns: within-class spread below this share


def resample_counts(samples, n: int) -> np.ndarray:
    """The multiplicity matrix of resamples given as row indices.

    Parameters
    ----------
    samples : sequence of array-like of int
        The rows of each resample (duplicates: a row drawn twice appears twice).
    n : int
        The number of rows of the data.

    Returns
    -------
    ndarray of float64, shape (len(samples), n)
        ``W[b, i]`` = how many times row ``i`` is in resample ``b``.

    Examples
    --------
    >>> resample_counts([[0, 0, 2], [1, 2]], 3)
    array([[2., 0., 1.],
           [0., 1., 1.]])
    """
    n = int(n)
    W = np.zeros((len(samples), n))
    for b, rows in enumerate(samples):
        rows = np.asarray(rows)
        if rows.size and (rows.dtype.kind not in "iu" or rows.min() < 0 or rows.max() >= n):
            raise ValueError(f"samples[{b}] must hold row indices 0..{n - 1}")
        W[b] = np.bincount(rows.astype(np.intp, copy=False), minlength=n)
    return W


def batched_ranker(ranker) -> str | None:
    """The name under which :func:`batched_scores` computes ``ranker``, or None.

    Parameters
    ----------
    ranker : str or callable
        A registered name or alias, or a registered ranker function
        (:func:`~rankfusion.rankers.get_ranker`).

    Returns
    -------
    str or None
        One of :data:`BATCHED_RANKERS`.
    """
    if isinstance(ranker, str):
        try:
            name = ranker_info(ranker).name
        except ValueError:
            return None
        return name if name in BATCHED_RANKERS else None
    for name in BATCHED_RANKERS:
        if ranker is get_ranker(name):
            return name
    return None


def _kernels():
    from .sklearn_adapters import _chi2_prepared, _f_classif_prepared
    from .stat_tests import _welch_kernel

    return {"f_classif": _f_classif_prepared, "chi2": _chi2_prepared, "welch_t": _welch_kernel}


def batched_scores(ranker, X, y, samples, *, max_memory=None, partial: bool = False):
    """Scores of ``ranker`` on every resample of ``X``, computed at once (module docstring).

    Parameters
    ----------
    ranker : str or callable
        ``"f_classif"``, ``"chi2"`` or ``"welch_t"`` (:data:`BATCHED_RANKERS`), or the
        registered function.
    X : ndarray of float64, shape (n_samples, n_features)
        Finite features (non-negative for ``chi2``).
    y : array-like of shape (n_samples,)
        The class labels.
    samples : sequence of array-like of int
        The rows of each resample, as the one-at-a-time call takes them (``X[rows]``).
    max_memory : float, optional
        The byte budget of the blocks (module docstring).
    partial : bool, default False
        Return ``(scores, done)``: the resamples the sums cannot score as the ranker would
        are marked False in ``done`` and left to the caller, instead of an error.

    Returns
    -------
    scores : ndarray of float64, shape (n_resamples, n_features)
        Row ``b``: the scores of ``ranker(X[samples[b]], y[samples[b]])``, with the same
        positions (ties included) and within :data:`RTOL` of the row's largest score
        (module docstring).
    done : ndarray of bool, shape (n_resamples,)
        Only with ``partial=True``.

    Raises
    ------
    ValueError
        A ranker that cannot be batched, X that is not finite (negative, for ``chi2``), y of
        another length, a resample of rows outside X, or (without ``partial``) a resample the
        ranker cannot score, named.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[1.0, 5.0], [2.0, 4.0], [8.0, 5.0], [9.0, 4.0], [3.0, 1.0]])
    >>> y = np.array([0, 0, 1, 1, 0])
    >>> batched_scores("f_classif", X, y, [[0, 1, 2, 3], [0, 1, 2, 3, 4]]).round(2)
    array([[98.  ,  0.  ],
           [60.84,  0.53]])
    """
    name = batched_ranker(ranker)
    if name is None:
        raise ValueError(f"ranker {ranker!r} cannot be batched; the batched rankers: "
                         f"{', '.join(BATCHED_RANKERS)}")
    if not isinstance(X, np.ndarray) or X.ndim != 2 or X.dtype.kind not in "iuf":
        raise TypeError("X must be a two-dimensional numeric ndarray")
    X = np.asarray(X, dtype=np.float64)
    if not np.isfinite(X).all():
        raise ValueError("X must be finite (no NaN or infinity) to be batched")
    if name == "chi2" and (X < 0).any():
        raise ValueError("chi2 needs non-negative features (counts, frequencies)")
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"y must be 1-D with one label per row of X ({X.shape[0]}); got "
                         f"shape {y.shape}")
    codes = np.unique(y, return_inverse=True)[1].reshape(-1).astype(np.int64)
    samples = [np.asarray(s) for s in samples]
    resample_counts(samples[:0], X.shape[0])
    for b, rows in enumerate(samples):
        if rows.ndim != 1 or (rows.size and (rows.dtype.kind not in "iu" or rows.min() < 0
                                             or rows.max() >= X.shape[0])):
            raise ValueError(f"samples[{b}] must hold row indices 0..{X.shape[0] - 1}")
    if max_memory is not None and (isinstance(max_memory, bool)
                                   or not isinstance(max_memory, (int, float))
                                   or not max_memory > 0):
        raise ValueError(f"max_memory must be a positive number of bytes (inf: no limit), "
                         f"got {max_memory!r}")
    budget = min(memory_limit(max_memory)[0], _CAP)
    scores, done = _batched(name, X, codes, samples, budget)
    if partial:
        return scores, done
    if not done.all():
        b = int(np.flatnonzero(~done)[0])
        raise ValueError(f"{name} cannot score samples[{b}] (fewer than two classes"
                         f"{', a class of fewer than 2 rows' if name == 'welch_t' else ''}"
                         f"{' or a score beyond the float range' if name == 'chi2' else ''});"
                         " call the ranker on it to see why")
    return scores


# ---------------------------------------------------------------- the statistics of a block
def _f_exact(S1, S2, Nk, present):
    """scikit-learn's ``f_oneway`` statements on exact sums (bit-equal to its own)."""
    Nf = Nk.sum(axis=1, keepdims=True)
    Kb = present.sum(axis=1, keepdims=True)
    ss_alldata = sum(S2)
    sq_all = sum(S1) ** 2
    sstot = ss_alldata - sq_all / Nf.astype(np.float64)
    ssbn = 0.0
    for k in range(len(S1)):
        nk = np.where(present[:, k:k + 1], Nk[:, k:k + 1], 1)
        ssbn = ssbn + np.where(present[:, k:k + 1], S1[k] ** 2 / nk, 0.0)
    ssbn = ssbn - sq_all / Nf.astype(np.float64)
    sswn = sstot - ssbn
    msb = ssbn / (Kb - 1).astype(np.float64)
    msw = sswn / (Nf - Kb).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = msb / msw
    T1 = sum(S1).astype(np.int64)
    flat = Nf * sum(S2).astype(np.int64) == T1 * T1
    return f, flat, _suspect(f, sswn, ss_alldata)


def _suspect(f, within, second):
    """Where the registered ``f_classif`` may replace scikit-learn's one-pass F by its
    two-pass one (a negative or non-finite F, or a within sum of squares below ``1e-8`` of the
    raw second moment), with a margin of 100: those resamples are scored one at a time."""
    with np.errstate(invalid="ignore"):
        return ~np.isfinite(f) | (f < 0) | ~(within >= 1e-6 * second)


def _f_approx(S1, S2, Nk, present, m):
    Nf = Nk.sum(axis=1, keepdims=True).astype(np.float64)
    Kb = present.sum(axis=1, keepdims=True).astype(np.float64)
    T1, T2 = sum(S1), sum(S2)
    between_k = np.zeros_like(T1)
    for k in range(len(S1)):
        nk = np.where(present[:, k:k + 1], Nk[:, k:k + 1], 1).astype(np.float64)
        term = np.square(S1[k])
        term /= nk
        if not present[:, k].all():
            term *= present[:, k:k + 1]
        between_k += term
    within = T2 - between_k
    between = between_k
    between -= np.square(T1) / Nf
    with np.errstate(divide="ignore", invalid="ignore"):
        f = between / (Kb - 1)
        f /= within / (Nf - Kb)
        a_unc = 2.0 * T1
        a_unc += Nf * m
        a_unc *= m
        a_unc += T2
        np.abs(a_unc, out=a_unc)
        rel = a_unc + T2
        rel *= 8.0 * (Nf + len(S1) + 2) * _U
        rel /= within
        af = np.abs(f)
        err = 2.0 * af
        err += (Nf - Kb) / (Kb - 1)
        err *= rel
        err += 8.0 * _U * af
    ill = ~((within > 0) & (rel <= _ILL)) | ~np.isfinite(f)
    cand = (within <= _FLAT * T2) | (T2 == 0)
    return f, err, ill, cand, _suspect(f, within, a_unc)


def _welch_exact(S1, S2, Nk):
    from .stat_tests import _welch_from_exact_sums

    t = np.abs(_welch_from_exact_sums(Nk[:, :1], S1[0], S2[0], Nk[:, 1:2], S1[1], S2[1]))
    N = Nk.sum(axis=1, keepdims=True)
    T1 = (S1[0] + S1[1]).astype(np.int64)
    flat = N * (S2[0] + S2[1]).astype(np.int64) == T1 * T1
    return t, flat


def _welch_approx(S1, S2, Nk, m):
    n1 = Nk[:, :1].astype(np.float64)
    n2 = Nk[:, 1:2].astype(np.float64)
    N = n1 + n2
    with np.errstate(divide="ignore", invalid="ignore"):
        w1 = S2[0] - S1[0] ** 2 / n1
        w2 = S2[1] - S1[1] ** 2 / n2
        u1 = w1 / (n1 - 1) / n1
        u2 = w2 / (n2 - 1) / n2
        se = np.sqrt(u1 + u2)
        t = np.abs((S1[0] / n1 - S1[1] / n2) / se)
        a1 = np.abs(S2[0] + m * (2.0 * S1[0] + n1 * m))
        a2 = np.abs(S2[1] + m * (2.0 * S1[1] + n2 * m))
        c = 8.0 * (N + 4) * _U
        rel = np.maximum(c * (a1 + S2[0]) / w1, c * (a2 + S2[1]) / w2)
        err_d = c * (np.sqrt(a1 / n1) + np.sqrt(a2 / n2))
        err = err_d / se + t * rel + 8.0 * _U * t
    T1, T2 = S1[0] + S1[1], S2[0] + S2[1]
    ill = ~((w1 > 0) & (w2 > 0) & (rel <= _ILL)) | ~np.isfinite(t)
    cand = (T2 - T1 ** 2 / N <= _FLAT * T2) | (T2 == 0)
    return t, err, ill, cand


def _chi2_block(S1, Nk, present, cp, exact_cols):
    """scikit-learn's ``chi2`` statements on the class sums ``S1`` (exact sums: bit-equal),
    with an error bound for inexact ones."""
    fc = sum(S1)
    raw = None
    err = 0.0
    extra = 0.0
    for k in range(len(S1)):
        here = present[:, k:k + 1]
        exp = cp[:, k:k + 1] * fc
        chisq = S1[k] - exp
        d = chisq
        chisq = chisq ** 2
        with np.errstate(divide="ignore", invalid="ignore"):
            chisq = chisq / exp
            e = 4.0 * (Nk.sum(axis=1, keepdims=True) + 4) * _U * (S1[k] + exp)
            err = err + np.where(here, (2.0 * np.abs(d) * e + e * e) / exp, 0.0)
            extra = extra + np.where(here, chisq, 0.0)
        raw = np.where(here, chisq, 0.0) if raw is None else raw + np.where(here, chisq, 0.0)
    N = Nk.sum(axis=1, keepdims=True)
    if exact_cols:
        ok = np.ones(fc.shape, dtype=bool)
        Ti = fc.astype(np.int64)
        for k in range(len(S1)):
            ok &= ~present[:, k:k + 1] | (S1[k].astype(np.int64) * N == Nk[:, k:k + 1] * Ti)
        return raw, None, None, ok
    err = err + extra * 8.0 * (N + 4) * _U + 8.0 * _U * np.abs(raw)
    ill = ~np.isfinite(raw) | ~np.isfinite(err) | (fc <= 0)
    cand = (fc <= 0) | np.logical_and.reduce(
        [~present[:, k:k + 1] | (np.abs(S1[k] - cp[:, k:k + 1] * fc)
                                 <= _FLAT * (S1[k] + cp[:, k:k + 1] * fc))
         for k in range(len(S1))])
    return raw, err, ill, cand


# ---------------------------------------------------------------- the driver
def _uncertain(s, err):
    """Features of a row block whose error intervals overlap another's (a connected group of
    two or more, in the order of the intervals' low ends)."""
    lo, hi = s - err, s + err
    order = np.argsort(lo, axis=1, kind="stable")
    lo_s = np.take_along_axis(lo, order, axis=1)
    hi_s = np.maximum.accumulate(np.take_along_axis(hi, order, axis=1), axis=1)
    start = np.ones(lo.shape, dtype=bool)
    start[:, 1:] = lo_s[:, 1:] > hi_s[:, :-1]
    nxt = np.ones(lo.shape, dtype=bool)
    nxt[:, :-1] = start[:, 1:]
    out = np.zeros(lo.shape, dtype=bool)
    np.put_along_axis(out, order, ~(start & nxt), axis=1)
    return out


def _near_ties(s, err):
    """:func:`_uncertain` of a row block, cheaply: the sorted scores (values only) find the
    runs of gaps within twice the row's largest error, and only the features of those runs are
    compared interval by interval."""
    out = np.zeros(s.shape, dtype=bool)
    srt = np.sort(s, axis=1)
    window = 2.0 * err.max(axis=1, keepdims=True)
    close = np.diff(srt, axis=1) <= window
    for i in np.flatnonzero(close.any(axis=1)):
        ends = np.zeros(s.shape[1], dtype=bool)
        ends[:-1] |= close[i]
        ends[1:] |= close[i]
        vals = srt[i, ends]
        at = np.minimum(np.searchsorted(vals, s[i]), vals.shape[0] - 1)
        cand = np.flatnonzero(vals[at] == s[i])
        out[i, cand] = _uncertain(s[i:i + 1, cand], err[i:i + 1, cand])[0]
    return out


def _warn(name, X, mask):
    cols = np.flatnonzero(mask)
    shown = ", ".join(repr(c) for c in column_names(X, cols[:10]))
    more = f" and {cols.size - 10} more" if cols.size > 10 else ""
    if mask.all():
        msg = (f"{name}: every column is constant or entirely missing ({shown}{more}): no "
               "feature carries information, all are tied")
    else:
        msg = (f"{name}: column(s) {shown}{more} are constant or entirely missing and carry "
               "no information: ranked last")
    warnings.warn(msg, UserWarning, stacklevel=4)


def _batched(name, X, codes, samples, budget):
    n, p = X.shape
    B = len(samples)
    K = int(codes.max()) + 1 if codes.size else 0
    out = np.zeros((B, p))
    done = np.zeros(B, dtype=bool)
    if B == 0 or p == 0 or n == 0:
        return out, done
    Nk = np.stack([np.bincount(codes[s], minlength=K) for s in samples]).astype(np.int64)
    present = Nk > 0
    done = present.sum(axis=1) >= 2
    if name == "welch_t":
        done &= (K == 2) & ((Nk >= 2) | (Nk == 0)).all(axis=1)
    if not done.any():
        return out, done
    Xs, e = rescale_extreme_columns(X)
    exact = _rank_exact(Xs, n) & (e == 0)
    order = np.argsort(codes, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(np.bincount(codes, minlength=K))])
    pos = np.empty(n, dtype=np.intp)
    pos[order] = np.arange(n)
    m = np.where(exact | (name == "chi2"), 0.0, Xs.mean(axis=0))
    Z = Xs[order] - m
    kernel = _kernels()[name]
    sorted_samples = [pos[s] for s in samples]
    Bb = int(max(1, min(B, budget // (8 * p * 14))))
    pb = int(max(1, min(p, budget // (8 * (3 * n + Bb * (2 * K + 16))))))
    for b0 in range(0, B, Bb):
        bs = np.arange(b0, min(B, b0 + Bb))
        W = resample_counts([sorted_samples[b] for b in bs], n)
        Wk = [np.ascontiguousarray(W[:, bounds[k]:bounds[k + 1]]) for k in range(K)]
        nk, pr = Nk[bs], present[bs]
        cp = None
        if name == "chi2":
            from .sklearn_adapters import _chi2_class_prob

            cp = np.zeros((bs.shape[0], K))
            for i, b in enumerate(bs):
                here = np.flatnonzero(pr[i])
                if here.shape[0] >= 2:
                    cp[i, here] = _chi2_class_prob(codes[samples[b]], here)
        s = np.zeros((bs.shape[0], p))
        err = np.zeros((bs.shape[0], p))
        ill = np.zeros((bs.shape[0], p), dtype=bool)
        cand = np.zeros((bs.shape[0], p), dtype=bool)
        flat = np.zeros((bs.shape[0], p), dtype=bool)
        sus = np.zeros((bs.shape[0], p), dtype=bool)
        for j0 in range(0, p, pb):
            cols = np.arange(j0, min(p, j0 + pb))
            for sel in (cols[exact[cols]], cols[~exact[cols]]):
                if sel.size == 0:
                    continue
                ex = bool(exact[sel[0]])
                Zb = Z[:, sel]
                S1 = [Wk[k] @ Zb[bounds[k]:bounds[k + 1]] for k in range(K)]
                if name != "chi2":
                    Zb = Zb * Zb
                    S2 = [Wk[k] @ Zb[bounds[k]:bounds[k + 1]] for k in range(K)]
                with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                    if name == "f_classif" and ex:
                        v, fl, su = _f_exact(S1, S2, nk, pr)
                        flat[:, sel] = fl
                        sus[:, sel] = su
                    elif name == "f_classif":
                        v, er, il, ca, su = _f_approx(S1, S2, nk, pr, m[sel])
                        sus[:, sel] = su
                    elif name == "welch_t" and ex:
                        v, fl = _welch_exact(S1, S2, nk)
                        flat[:, sel] = fl
                    elif name == "welch_t":
                        v, er, il, ca = _welch_approx(S1, S2, nk, m[sel])
                    elif ex:
                        v, _, _, ca = _chi2_block(S1, nk, pr, cp, True)
                    else:
                        v, er, il, ca = _chi2_block(S1, nk, pr, cp, False)
                        v = np.ldexp(v, e[sel])
                        er = np.ldexp(er, e[sel])
                        il = il | ~np.isfinite(v)  # beyond the float range: the ranker's
                    if not np.isfinite(v).all():
                        v = np.nan_to_num(v, nan=0.0, posinf=np.finfo(np.float64).max,
                                          neginf=-np.finfo(np.float64).max)
                if sel.shape[0] == sel[-1] - sel[0] + 1:  # a range: a view, not a gather
                    sel = slice(int(sel[0]), int(sel[-1]) + 1)
                s[:, sel] = v
                if not ex:
                    err[:, sel] = er
                    ill[:, sel] = il
                if not ex or name == "chi2":
                    cand[:, sel] = ca
        unc = ill.copy()
        if not exact.all():
            unc |= _near_ties(s, np.where(ill, 0.0, err)) & ~exact
        for i, b in enumerate(bs):
            if not done[b]:
                continue
            if sus[i].any():  # the registered ranker's own guard decides: one at a time
                full = kernel(X[samples[b]], codes[samples[b]])
                row = None if full is None else np.array(full, dtype=np.float64)
            else:
                row = _finish(name, X, codes, samples[b], s[i], err[i], unc[i], cand[i],
                              flat[i], exact, kernel, present[b].sum())
            if row is None:
                done[b] = False
            else:
                out[b] = row
    return out, done


def _rank_exact(Xs, n):
    from .stat_tests import _exact_columns

    return _exact_columns(Xs, n)


def _finish(name, X, codes, rows, s, err, unc, cand, flat, exact, kernel, n_present):
    """One resample: constant columns found exactly, near-ties and the lowest scores
    recomputed one at a time where needed, constant columns last (as the registered ranker)."""
    p = s.shape[0]
    degen = flat.copy()
    c = np.flatnonzero(cand & ~flat)
    if c.size:
        vals = X[np.ix_(rows, c)]
        degen[c] = vals.min(axis=0) == vals.max(axis=0)
    redo = unc & ~exact
    if degen.any() and not degen.all():
        keep = ~degen
        top = np.min(np.where(keep, s + np.where(exact, 0.0, err), np.inf))
        redo |= keep & ~exact & (s - np.where(exact, 0.0, err) <= top)
        redo |= degen & ~exact
    known = exact.copy()
    yb = codes[rows]
    s = s.copy()
    while redo.any():
        if p == 1 or (name == "chi2" and n_present == 2) or (redo | known).sum() * 3 > p * 2:
            # scikit-learn's two-class chi2 sums through BLAS, whose rounding depends on the
            # other columns: the whole resample, one at a time
            full = kernel(X[rows], yb)
            if full is None:
                return None
            s = np.array(full, dtype=np.float64)
            break
        cols = np.flatnonzero(redo)
        if cols.size < 2:  # a single column sums in another order (numpy's pairwise)
            cols = np.union1d(cols, [0 if cols[0] != 0 else 1])
        if degen[cols].all():  # the kernel ranks its constant columns below the others
            cols = np.union1d(cols, np.flatnonzero(~degen)[:1])
        vals = kernel(X[np.ix_(rows, cols)], yb)
        if vals is None:
            return None
        s[cols] = vals
        known[cols] = True
        # a recomputed score may now fall within another's interval: recompute that one too
        e = np.where(known, 0.0, err)
        redo = np.zeros(p, dtype=bool)
        for v in s[cols]:
            redo |= np.abs(s - v) <= e
        redo &= ~known
    if degen.any():
        _warn(name, X, degen)
        if degen.all():
            return np.zeros(p)
        return demote_degenerate(s, degen, False)
    return s
