"""Stability of feature rankings and feature subsets across resamples.

Score-based measures work on a matrix of scores shaped *runs × features* (one row per resample,
fold or bootstrap, higher = better):

- :func:`asd` — average standard deviation of the (min–max normalised) scores, fuzzy paper
  eq. 14 [1]_;
- :func:`apc` — average pairwise Pearson correlation between runs, fuzzy paper eq. 15;
- :func:`reduced_size_correlation` — Pearson between scores on all the samples and on a random
  fraction of them, repeated (fuzzy paper §IV-D).

Subset-based measures work on the features each run selected:

- :func:`kuncheva` — Kuncheva's consistency index [2]_, mean over pairs of equal-size subsets;
- :func:`jaccard` — mean pairwise Jaccard index;
- :func:`nogueira` — the estimator Φ̂ of Nogueira, Sechidis & Brown (2018) [3]_ with its variance and
  asymptotic confidence interval, from a binary runs × features selection matrix.

This module sits below ``selection`` and ``evaluation`` so that both share it; it knows nothing
about rankers (a ranker is any callable ``f(X, y) -> scores``).

References
----------
.. [1] "A Novel Weighted Combination Method for Feature Selection using Fuzzy Sets" (the fuzzy
   paper), eqs. 14–15 and §IV-D.
.. [2] L. I. Kuncheva, "A stability index for feature selection", Proc. IASTED AIA, 2007.
.. [3] S. Nogueira, K. Sechidis, G. Brown, "On the stability of feature selection algorithms",
   JMLR 18(174):1–54, 2018 — Definition 4, Theorem 7, Corollary 9.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import norm

from ._utils.constraints import LEVEL, check_param
from ._utils.data import check_target
from ._utils.validation import (
    check_bool,
    check_fraction,
    check_positive_int,
    check_seed,
    real_array,
)

__all__ = [
    "asd",
    "apc",
    "reduced_size_correlation",
    "ReducedSizeResult",
    "kuncheva",
    "jaccard",
    "nogueira",
    "NogueiraResult",
]


# --------------------------------------------------------------------------- score matrices
def _check_runs(scores, *, name: str = "scores") -> np.ndarray:
    """A finite float64 copy of a runs × features matrix with at least 2 runs and 1 feature."""
    if isinstance(scores, pd.DataFrame):
        scores = scores.to_numpy()
    try:
        arr = np.asarray(scores)
    except Exception as exc:  # ragged nested lists
        raise ValueError(f"{name} could not be read as a 2-D array: {exc}") from None
    if arr.dtype == object:
        arr = real_array(arr, name)
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold real numbers; got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D (runs × features); got {arr.ndim}-D with shape {arr.shape}"
        )
    if arr.shape[0] < 2:
        raise ValueError(f"{name} needs at least 2 runs (rows); got {arr.shape[0]}")
    if arr.shape[1] < 1:
        raise ValueError(f"{name} needs at least 1 feature (column); got 0")
    arr = np.array(arr, dtype=np.float64, copy=True)
    bad = ~np.isfinite(arr)
    if bad.any():
        r, f = np.argwhere(bad)[0]
        raise ValueError(f"{name} must be finite; found {arr[r, f]} at run {r}, feature {f}")
    return arr


def _power_of_two(top: np.ndarray) -> np.ndarray:
    """The exponent e with ``top·2**-e`` in [0.5, 1) (0 where ``top`` is 0): dividing by an
    exact power of two changes no digit, and keeps sums and squares of values near the float
    limits (1e308, 1e-300) finite and non-zero."""
    return np.frexp(top)[1]


def _scaled_rows(a: np.ndarray) -> np.ndarray:
    """Each row divided by the power of two that brings its largest |value| into [0.5, 1)."""
    return np.ldexp(a, -_power_of_two(np.abs(a).max(axis=1, keepdims=True)))


def _minmax_rows(a: np.ndarray) -> np.ndarray:
    """Each row mapped to [0, 1] by ``(s - min) / (max - min)``; a constant row becomes 0."""
    a = _scaled_rows(a)  # min–max is scale invariant; the span of ±1e308 would overflow
    lo = a.min(axis=1, keepdims=True)
    span = a.max(axis=1, keepdims=True) - lo
    out = np.zeros_like(a)
    np.divide(a - lo, span, out=out, where=span > 0)
    return out


def asd(scores, *, normalize: bool = True) -> float:
    r"""Average standard deviation of feature scores across runs (fuzzy paper, eq. 14).

    .. math:: \mathrm{ASD} = \frac{1}{N}\sum_{i=1}^{N} \mathrm{SD}(c_i)

    where :math:`\mathrm{SD}(c_i)` is the sample standard deviation (``ddof=1``) of feature i's
    scores over the runs. Lower = more stable.

    Parameters
    ----------
    scores : array-like of shape (n_runs, n_features)
        One row of scores per run (fold, bootstrap …), higher = better; at least 2 runs.
    normalize : bool, default True
        Min–max normalise each run to [0, 1] first, ``(s - min) / (max - min)``, so that rankers
        on different scales are comparable; a constant run becomes all 0. ``False`` uses the raw
        scores.

    Returns
    -------
    float

    References
    ----------
    The fuzzy paper ("A Novel Weighted Combination Method for Feature Selection using Fuzzy
    Sets"), §IV-C, eq. 14.

    Examples
    --------
    >>> asd([[0.0, 0.5, 1.0], [0.0, 1.0, 2.0]])  # the same ranking on two scales
    0.0
    >>> round(asd([[0.0, 0.5, 1.0], [0.0, 1.0, 2.0]], normalize=False), 4)  # (0 + .3536 + .7071)/3
    0.3536
    """
    a = _check_runs(scores)
    normalize = check_bool(normalize, "normalize")
    if normalize:
        return float(np.mean(np.std(_minmax_rows(a), axis=0, ddof=1)))
    e = int(_power_of_two(np.abs(a).max()))  # one exact scale for every value, undone after
    return float(np.ldexp(np.mean(np.std(np.ldexp(a, -e), axis=0, ddof=1)), e))


def apc(scores, *, normalize: bool = True) -> float:
    r"""Average pairwise Pearson correlation between runs (fuzzy paper, eq. 15).

    .. math:: \mathrm{APC} = \frac{\sum_{x=1}^{K}\sum_{y=x+1}^{K} S_P(c^x, c^y)}{K(K-1)/2}

    with :math:`S_P` Pearson's correlation between the score vectors of runs x and y. Higher =
    more stable.

    Parameters
    ----------
    scores : array-like of shape (n_runs, n_features)
        One row of scores per run, at least 2 runs and 2 features.
    normalize : bool, default True
        Min–max normalise each run first (as :func:`asd`). Pearson's correlation is invariant
        to a positive affine map of either vector, so the value does not change; the parameter
        exists so that both measures take the same arguments.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        When a run is constant: its correlation with any other run is undefined (0/0). The
        offending run is named; no NaN is returned.

    Examples
    --------
    >>> round(apc([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [3.0, 2.0, 1.0]]), 4)  # (1 − 1 − 1) / 3
    -0.3333
    """
    a = _check_runs(scores)
    normalize = check_bool(normalize, "normalize")
    if a.shape[1] < 2:
        raise ValueError("apc needs at least 2 features: a correlation of 1 value is undefined")
    # Pearson's correlation is invariant to a positive scale of each run: scaled by powers of
    # two, runs near the float limits neither overflow nor underflow to "constant"
    a = _minmax_rows(a) if normalize else _scaled_rows(a)
    centred = a - a.mean(axis=1, keepdims=True)
    norms = np.sqrt(np.einsum("ij,ij->i", centred, centred))
    const = np.flatnonzero(norms == 0)
    if const.size:
        raise ValueError(
            f"scores: run {int(const[0])} is constant, so its Pearson correlation with the "
            "other runs is undefined"
        )
    z = centred / norms[:, None]
    corr = np.clip(z @ z.T, -1.0, 1.0)
    iu = np.triu_indices(a.shape[0], k=1)
    return float(np.mean(corr[iu]))


# --------------------------------------------------------------------------- reduced size
@dataclass(frozen=True)
class ReducedSizeResult:
    """Result of :func:`reduced_size_correlation`.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    values : ndarray of float, shape (n_repeats,)
        Pearson's correlation between the full-data scores and each repeat's scores.
    mean : float
        Mean of ``values`` (what the fuzzy paper's Fig. 4 plots).
    sd : float
        Sample standard deviation of ``values`` (``ddof=1``).
    fraction : float
        The fraction of the samples each repeat used.
    n_samples : int
        The number of samples each repeat used, ``max(1, floor(fraction·n + 0.5))``.
    """

    values: np.ndarray
    mean: float
    sd: float
    fraction: float
    n_samples: int


def _stratified_counts(codes: np.ndarray, n_sub: int) -> np.ndarray:
    """Per-class sample counts proportional to the class sizes (largest remainder).

    Each class present gets at least one sample when ``n_sub`` allows it (taken from the largest
    allocation), so the ranker still sees every class.
    """
    sizes = np.bincount(codes)
    exact = n_sub * sizes / sizes.sum()
    counts = np.floor(exact).astype(np.int64)
    rest = n_sub - int(counts.sum())
    if rest:
        # largest fractional part first; ties to the lower class code (stable sort)
        order = np.argsort(-(exact - counts), kind="stable")
        counts[order[:rest]] += 1
    if n_sub >= sizes.size:
        for c in np.flatnonzero(counts == 0):
            donor = int(np.argmax(counts))
            counts[donor] -= 1
            counts[c] += 1
    return counts


def _check_reduced_size(codes: np.ndarray, classes, n_sub: int, fraction: float, stratify: bool):
    """Refuse a reduced sample too small to rank on: fewer than 2 rows of a class (stratified;
    all its rows when it has fewer) or fewer than 2 per class in all. A ranker on one row per
    class gives tied scores, and a correlation near 1 or undefined that measures nothing."""
    sizes = np.bincount(codes)
    k = int((sizes > 0).sum())
    if stratify:
        counts = _stratified_counts(codes, n_sub)
        short = np.flatnonzero(counts < np.minimum(2, sizes))
        if short.size:
            c = int(short[0])
            label = classes[c].item() if isinstance(classes[c], np.generic) else classes[c]
            raise ValueError(
                f"fraction={fraction} keeps {n_sub} of the {codes.shape[0]} samples, "
                f"{int(counts[c])} of class {label!r} (of its {int(sizes[c])}); at least 2 of "
                f"every class are needed to rank features (at least {2 * k} samples): raise "
                "fraction")
        return
    need = min(2 * k, codes.shape[0])
    if n_sub < need:
        raise ValueError(
            f"fraction={fraction} keeps {n_sub} of the {codes.shape[0]} samples; at least "
            f"{need} (2 per class for {k} classes) are needed to rank features: raise fraction")


def _take_rows(X, idx: np.ndarray):
    if isinstance(X, pd.DataFrame):
        return X.iloc[idx]
    return np.asarray(X)[idx]


def _check_score_vector(s, p: int | None, what: str) -> np.ndarray:
    try:
        arr = np.asarray(s, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"ranker must return real scores; {what} returned {type(s).__name__}") \
            from None
    if arr.ndim != 1 or (p is not None and arr.shape[0] != p):
        raise ValueError(
            f"ranker must return one score per feature; {what} returned shape {arr.shape}"
            + (f", expected ({p},)" if p is not None else "")
        )
    if not np.isfinite(arr).all():
        raise ValueError(f"ranker returned non-finite scores on {what}")
    return arr


def reduced_size_correlation(
    ranker: Callable,
    X,
    y,
    *,
    fraction: float = 0.5,
    n_repeats: int = 5,
    random_state=None,
    stratify: bool = True,
) -> ReducedSizeResult:
    r"""Stability on a reduced number of samples (fuzzy paper, §IV-D).

    The ranker scores the features once on all n samples (:math:`c^{full}`), then ``n_repeats``
    times on ``m = max(1, floor(fraction·n + 0.5))`` samples drawn at random without
    replacement (:math:`c^{(r)}`); the result holds

    .. math:: \rho_r = S_P\bigl(c^{full}, c^{(r)}\bigr), \quad r = 1, …, n_{repeats},

    their mean (the paper's Fig. 4 plots the mean of 5 repeats for fractions 0.9 … 0.3) and
    their sample standard deviation.

    Parameters
    ----------
    ranker : callable
        ``ranker(X, y) -> scores``, one score per feature, higher = better (any rankfusion
        ranker, a scikit-learn score function wrapped to return scores, …).
    X : array-like or DataFrame of shape (n_samples, n_features)
        The data; rows are selected with ``X[idx]`` (``X.iloc[idx]`` for a DataFrame).
    y : array-like of shape (n_samples,)
        Class labels.
    fraction : float in (0, 1], default 0.5
        The fraction of the samples each repeat keeps.
    n_repeats : int ≥ 2, default 5
        Repeats (the paper: 5). Two at least, so that ``sd`` (``ddof=1``) is defined.
    random_state : None, int or numpy Generator
        ``None`` = fresh entropy; an int or a Generator = deterministic. Repeat r draws from the
        r-th child of ``SeedSequence(seed).spawn(n_repeats)``.
    stratify : bool, default True
        Keep the class proportions (largest-remainder allocation, at least one sample of every
        class when m allows); ``False`` draws plainly at random, as the paper.

    Returns
    -------
    ReducedSizeResult
        ``values``, ``mean``, ``sd``, ``fraction``, ``n_samples``.

    Raises
    ------
    ValueError
        Bad arguments; a fraction that keeps fewer than 2 samples of a class (stratified) or
        fewer than 2 per class (unstratified); scores of the wrong length or not finite;
        constant scores (on all the data or on a repeat), for which Pearson's correlation is
        undefined.
    """
    if not callable(ranker):
        raise TypeError(f"ranker must be a callable f(X, y) -> scores, got {type(ranker).__name__}")
    fraction = check_fraction(fraction, "fraction")
    n_repeats = check_positive_int(n_repeats, name="n_repeats", minimum=2)
    stratify = check_bool(stratify, "stratify")
    seed = check_seed(random_state)
    n = len(X)
    codes, classes = check_target(y, n)
    n_sub = max(1, int(np.floor(fraction * n + 0.5)))
    _check_reduced_size(codes, classes, n_sub, fraction, stratify)

    full = _check_score_vector(ranker(X, y), None, "all the samples")
    y_arr = y if isinstance(y, (pd.Series, pd.DataFrame)) else np.asarray(y)

    def centred_unit(v: np.ndarray, what: str) -> np.ndarray:
        # Pearson is scale invariant: divide by a power of two first (exact), so that scores
        # near the float limits (1e308, 5e-324) neither overflow nor vanish in the sums
        v = np.ldexp(v, -_power_of_two(np.abs(v).max()))
        c = v - v.mean()
        nrm = np.sqrt(c @ c)
        if nrm == 0:
            raise ValueError(
                f"ranker returned constant scores on {what}: Pearson's correlation is undefined"
            )
        return c / nrm

    zf = centred_unit(full, "all the samples")
    values = np.empty(n_repeats)
    for r, child in enumerate(np.random.SeedSequence(seed).spawn(n_repeats)):
        rng = np.random.default_rng(child)
        if stratify:
            counts = _stratified_counts(codes, n_sub)
            parts = [rng.choice(np.flatnonzero(codes == c), size=int(k), replace=False)
                     for c, k in enumerate(counts) if k > 0]
            idx = np.sort(np.concatenate(parts))
        else:
            idx = np.sort(rng.choice(n, size=n_sub, replace=False))
        what = f"repeat {r}"
        s = _check_score_vector(ranker(_take_rows(X, idx), _take_rows(y_arr, idx)),
                                full.shape[0], what)
        values[r] = float(np.clip(zf @ centred_unit(s, what), -1.0, 1.0))
    return ReducedSizeResult(values=values, mean=float(values.mean()),
                             sd=float(values.std(ddof=1)), fraction=fraction, n_samples=n_sub)


# --------------------------------------------------------------------------- subsets
def _check_subsets(subsets, n_features: int | None, *, name: str = "subsets") -> list[set]:
    """At least 2 subsets of distinct non-negative integer indices (< n_features if given)."""
    if isinstance(subsets, (str, bytes)) or not isinstance(subsets, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a sequence of index sequences, got "
                        f"{type(subsets).__name__}")
    if len(subsets) < 2:
        raise ValueError(f"{name} needs at least 2 subsets; got {len(subsets)}")
    out = []
    for s_i, sub in enumerate(subsets):
        if isinstance(sub, (str, bytes)):
            raise TypeError(f"{name}[{s_i}] must be a sequence of feature indices, got a string")
        items = list(np.asarray(sub).ravel()) if isinstance(sub, np.ndarray) else list(sub)
        for v in items:
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Integral):
                raise TypeError(
                    f"{name}[{s_i}] must hold integer feature indices; got {v!r}"
                )
            if v < 0 or (n_features is not None and v >= n_features):
                bound = f"[0, {n_features})" if n_features is not None else "≥ 0"
                raise ValueError(f"{name}[{s_i}] has index {int(v)} outside {bound}")
        as_set = {int(v) for v in items}
        if len(as_set) != len(items):
            dup = next(int(v) for i, v in enumerate(items) if int(v) in
                       {int(w) for w in items[:i]})
            raise ValueError(f"{name}[{s_i}] repeats index {dup}")
        out.append(as_set)
    return out


def kuncheva(subsets, n_features: int) -> float:
    r"""Kuncheva's consistency index, averaged over all pairs of subsets.

    For two subsets A, B of the same size k out of p features, with :math:`r = |A \cap B|`,

    .. math:: I_C(A, B) = \frac{r p - k^2}{k (p - k)},

    which is 1 for identical subsets, about 0 for independent random ones and −1 at worst; the
    result is the mean over the :math:`K(K-1)/2` pairs.

    Parameters
    ----------
    subsets : sequence of sequences of int
        At least 2 subsets of feature indices in ``[0, n_features)``, no index repeated within
        a subset, all of the same size k with ``0 < k < n_features`` (the index is undefined
        otherwise: its denominator vanishes).
    n_features : int
        p, the number of features.

    Returns
    -------
    float

    References
    ----------
    L. I. Kuncheva, "A stability index for feature selection", Proc. 25th IASTED International
    Multi-Conference on Artificial Intelligence and Applications, 2007, pp. 390–395.

    Examples
    --------
    >>> kuncheva([[0, 1], [0, 2]], n_features=4)  # r = 1: (1·4 − 4) / (2·2)
    0.0
    >>> round(kuncheva([[0, 1], [0, 1], [2, 3]], n_features=4), 4)  # pairs: 1, −1, −1
    -0.3333
    """
    p = check_positive_int(n_features, name="n_features")
    subs = _check_subsets(subsets, p)
    sizes = {len(s) for s in subs}
    if len(sizes) != 1:
        raise ValueError(
            f"kuncheva needs subsets of equal size; got sizes {[len(s) for s in subs]}"
        )
    k = sizes.pop()
    if not 0 < k < p:
        raise ValueError(
            f"kuncheva needs a subset size k with 0 < k < n_features ({p}); got k = {k}, for "
            "which the index is undefined (its denominator k(p − k) is 0)"
        )
    r = _pairwise_intersections(subs, p)
    vals = (r * p - k * k) / (k * (p - k))
    return float(np.mean(vals))


def _pairwise_intersections(subs: list[set], p: int | None = None) -> np.ndarray:
    """|A ∩ B| for every pair (upper triangle, row-major), through a binary matrix product."""
    universe = sorted(set().union(*subs)) if p is None else None
    col = {v: i for i, v in enumerate(universe)} if universe is not None else None
    width = len(universe) if universe is not None else p
    z = np.zeros((len(subs), width), dtype=np.float64)
    for i, s in enumerate(subs):
        if s:
            z[i, [col[v] for v in s] if col is not None else list(s)] = 1.0
    inter = z @ z.T
    iu = np.triu_indices(len(subs), k=1)
    return inter[iu]


def jaccard(subsets, n_features: int | None = None) -> float:
    r"""Mean pairwise Jaccard index of feature subsets.

    .. math:: J(A, B) = \frac{|A \cap B|}{|A \cup B|},

    averaged over the :math:`K(K-1)/2` pairs. Subsets may differ in size.

    Parameters
    ----------
    subsets : sequence of sequences of int
        At least 2 subsets of feature indices, no index repeated within a subset, none empty
        (J of two empty sets is 0/0).
    n_features : int, optional
        When given, indices must lie in ``[0, n_features)``.

    Returns
    -------
    float

    Examples
    --------
    >>> jaccard([[0, 1, 2], [1, 2, 3]])
    0.5
    """
    p = None if n_features is None else check_positive_int(n_features, name="n_features")
    subs = _check_subsets(subsets, p)
    empty = [i for i, s in enumerate(subs) if not s]
    if empty:
        raise ValueError(f"jaccard needs non-empty subsets; subsets[{empty[0]}] is empty")
    inter = _pairwise_intersections(subs)
    sizes = np.array([len(s) for s in subs], dtype=np.float64)
    iu = np.triu_indices(len(subs), k=1)
    union = sizes[iu[0]] + sizes[iu[1]] - inter
    return float(np.mean(inter / union))


# --------------------------------------------------------------------------- Nogueira
@dataclass(frozen=True)
class NogueiraResult:
    """Result of :func:`nogueira`.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    statistic : float
        The stability estimate Φ̂ (1 = every run selects the same features).
    variance : float
        The estimate of Var(Φ̂) of Corollary 9.
    low, high : float
        The asymptotic ``1 - alpha`` confidence interval ``Φ̂ ∓ z_{1-α/2} √variance``.
    alpha : float
        The level used.
    """

    statistic: float
    variance: float
    low: float
    high: float
    alpha: float


def _check_selection_matrix(Z) -> np.ndarray:
    if isinstance(Z, pd.DataFrame):
        Z = Z.to_numpy()
    try:
        arr = np.asarray(Z)
    except Exception as exc:
        raise ValueError(f"Z could not be read as a 2-D array: {exc}") from None
    if arr.dtype == object:
        try:
            arr = real_array(arr, "Z", allow_bool=True)
        except TypeError as exc:
            raise TypeError(f"Z must be a binary (0/1) matrix; {exc}") from None
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"Z must be a binary (0/1) matrix; got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(f"Z must be 2-D (runs × features); got shape {arr.shape}")
    m, d = arr.shape
    if m < 2:
        raise ValueError(f"Z needs at least 2 runs (rows); got {m}")
    if d < 1:
        raise ValueError("Z needs at least 1 feature (column); got 0")
    binary = (arr == 0) | (arr == 1)
    if not binary.all():
        r, f = np.argwhere(~binary)[0]
        raise ValueError(f"Z must be binary (0/1); found {arr[r, f].item()!r} at run {r}, "
                         f"feature {f}")
    z = arr.astype(np.float64)
    total = z.sum()
    if total == 0 or total == m * d:
        what = "no run selects any feature" if total == 0 else "every run selects every feature"
        raise ValueError(
            f"Z: {what}, so the stability is undefined (k̄/d·(1 − k̄/d) = 0 in the denominator "
            "of Nogueira et al.'s Definition 4)"
        )
    return z


def nogueira(Z, alpha: float = 0.05) -> NogueiraResult:
    r"""Stability estimator of Nogueira, Sechidis & Brown (2018), with its confidence interval.

    ``Z`` is a binary M × d matrix, ``Z[i, f] = 1`` when run i selected feature f. With
    :math:`\hat p_f` the fraction of runs selecting f, :math:`k_i = \sum_f z_{if}` and
    :math:`\bar k = \frac{1}{M}\sum_i k_i`, Definition 4 gives

    .. math::

        \hat\Phi(Z) = 1 - \frac{\frac{1}{d}\sum_{f=1}^{d} s_f^2}
                                {\frac{\bar k}{d}\left(1 - \frac{\bar k}{d}\right)},
        \qquad s_f^2 = \frac{M}{M-1}\,\hat p_f (1 - \hat p_f).

    Its variance (Theorem 7 / Corollary 9) is estimated from one term per run,

    .. math::

        \hat\Phi_i = \frac{1}{\frac{\bar k}{d}(1-\frac{\bar k}{d})}
            \Bigl[\frac{1}{d}\sum_f z_{if}\hat p_f - \frac{k_i \bar k}{d^2}
            + \frac{\hat\Phi}{2}\Bigl(\frac{2 k_i \bar k}{d^2} - \frac{k_i}{d}
            - \frac{\bar k}{d} + 1\Bigr)\Bigr],
        \qquad
        \widehat{\mathrm{Var}}(\hat\Phi) = \frac{4}{M^2}\sum_{i=1}^{M}
            \bigl(\hat\Phi_i - \bar{\hat\Phi}\bigr)^2,

    and the interval is :math:`\hat\Phi \mp z_{1-\alpha/2}\sqrt{\widehat{\mathrm{Var}}}` with
    :math:`z` the standard normal quantile — the formulas of the authors' reference code
    (``getStability``, ``getVarianceofStability``, ``confidenceIntervals``).

    Parameters
    ----------
    Z : array-like of shape (M, d)
        Binary selection matrix (0/1 or bool), at least 2 runs. Runs may select different
        numbers of features.
    alpha : float in (0, 1), default 0.05
        1 − the confidence level.

    Returns
    -------
    NogueiraResult
        ``statistic``, ``variance``, ``low``, ``high``, ``alpha``.

    Raises
    ------
    ValueError
        A non-binary Z, fewer than 2 runs, or Z all zeros or all ones: then
        :math:`\bar k \in \{0, d\}` and the denominator of Φ̂ vanishes, so the estimator is
        undefined (the reference code would return NaN; we refuse).

    References
    ----------
    S. Nogueira, K. Sechidis, G. Brown, "On the stability of feature selection algorithms",
    Journal of Machine Learning Research 18(174):1–54, 2018.

    Examples
    --------
    >>> res = nogueira([[1, 1, 0, 0], [1, 0, 1, 0]])
    >>> res.statistic  # p̂ = (1, .5, .5, 0), s² = (0, .5, .5, 0), k̄/d = 1/2
    0.0
    >>> nogueira([[1, 1, 0, 0], [1, 1, 0, 0]]).statistic
    1.0
    """
    z = _check_selection_matrix(Z)
    check_param("alpha", alpha, LEVEL)
    alpha = float(alpha)
    m, d = z.shape
    p_hat = z.mean(axis=0)
    k = z.sum(axis=1)
    kbar = float(p_hat.sum())
    denom = (kbar / d) * (1.0 - kbar / d)
    s2 = m / (m - 1) * p_hat * (1.0 - p_hat)
    stat = 1.0 - float(np.mean(s2)) / denom
    phi = ((z @ p_hat) / d - k * kbar / d**2
           + stat / 2.0 * (2.0 * k * kbar / d**2 - k / d - kbar / d + 1.0)) / denom
    variance = 4.0 / m**2 * float(np.sum((phi - phi.mean()) ** 2))
    half = float(norm.ppf(1.0 - alpha / 2.0)) * np.sqrt(variance)
    return NogueiraResult(statistic=stat, variance=variance, low=float(stat - half),
                          high=float(stat + half), alpha=alpha)
