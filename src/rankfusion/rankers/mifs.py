"""MIFS: mutual-information feature selection (Battiti 1994), greedy order as a ranking."""

from __future__ import annotations

import numpy as np

from .._utils.constraints import Interval, Options, validate_params
from .._utils.data import check_classification_data
from ._registry import register_ranker

__all__ = ["mifs", "mifs_order", "equal_width_codes", "MIFS_VARIANTS"]

#: MIFS's parameters (docs/design.md, 'Parameters'): declared on its registry entry and checked
#: on every call (how many bins the samples can fill is checked against the data).
MIFS_CONSTRAINTS = {"beta": [Interval("real", 0, None)], "n_bins": [Interval("int", 1, None)],
                    "variant": [Options("battiti", "mifs_u", "nmifs")]}

#: The MIFS variants: Battiti (1994), MIFS-U (Kwak & Choi 2002), NMIFS (Estévez et al. 2009).
MIFS_VARIANTS = ("battiti", "mifs_u", "nmifs")

_TIE_TOL = 1e-12


def equal_width_codes(values: np.ndarray, nominal: np.ndarray, n_bins: int = 10):
    """Discretise each numeric column into ``n_bins`` equal-width bins between its min and max.

    The edges are :func:`numpy.histogram_bin_edges` of the observed values; a value belongs to
    bin ``i`` when ``edge[i] <= v < edge[i + 1]``, the last bin closed (``numpy.histogram``'s
    rule). Nominal columns keep their category codes. Returns ``(codes, n_values)`` with ``-1``
    for a missing value.
    """
    n, p = values.shape
    codes = np.full((n, p), -1, dtype=np.int64)
    n_values = np.ones(p, dtype=np.int64)
    for j in range(p):
        col = values[:, j]
        ok = ~np.isnan(col)
        if not ok.any():
            continue
        if nominal[j]:
            codes[ok, j] = col[ok].astype(np.int64)
            n_values[j] = int(col[ok].max()) + 1
            continue
        edges = np.histogram_bin_edges(col[ok], bins=n_bins)
        b = np.searchsorted(edges, col[ok], side="right") - 1
        codes[ok, j] = np.clip(b, 0, n_bins - 1)
        n_values[j] = n_bins
    return codes, n_values


def _mi_bits(joint: np.ndarray) -> np.ndarray:
    """Mutual information (bits) of a stack of contingency tables ``(..., a, b)``.

    I = Σ p_xy log2(p_xy / (p_x p_y)); the terms are summed after sorting so that a table and any
    permutation of its rows or columns give the very same float (ties stay ties).
    """
    joint = np.asarray(joint, dtype=np.float64)
    n = joint.sum(axis=(-2, -1), keepdims=True)
    px = joint.sum(axis=-1, keepdims=True)
    py = joint.sum(axis=-2, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(joint > 0, joint / n * np.log2(joint * n / (px * py)), 0.0)
    flat = np.sort(terms.reshape(terms.shape[:-2] + (-1,)), axis=-1)
    return flat.sum(axis=-1)


def _mi_with(codes: np.ndarray, n_values: np.ndarray, target: np.ndarray, n_target: int,
             cols: np.ndarray) -> np.ndarray:
    """I(f; target) for the columns ``cols``, each on the rows where both are observed."""
    out = np.zeros(cols.size)
    if cols.size == 0:
        return out
    a = int(n_values[cols].max())
    sub = codes[:, cols]
    ok = (sub >= 0) & (target[:, None] >= 0)
    idx = (np.arange(cols.size)[None, :] * (a * n_target) + sub * n_target + target[:, None])
    counts = np.bincount(idx[ok], minlength=cols.size * a * n_target)
    return _mi_bits(counts.reshape(cols.size, a, n_target))


def _pair_tables(codes, n_values, target, n_target, cols):
    """Contingency tables of (f, target) for the columns ``cols`` (rows where both are
    observed), shape (|cols|, a, n_target)."""
    a = int(n_values[cols].max())
    sub = codes[:, cols]
    ok = (sub >= 0) & (target[:, None] >= 0)
    idx = (np.arange(cols.size)[None, :] * (a * n_target) + sub * n_target + target[:, None])
    counts = np.bincount(idx[ok], minlength=cols.size * a * n_target)
    return counts.reshape(cols.size, a, n_target).astype(np.float64)


def _entropy_bits(counts: np.ndarray) -> np.ndarray:
    """Entropy (bits) of the count vectors on the last axis (terms summed after sorting)."""
    n = counts.sum(axis=-1, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(counts > 0, -(counts / n) * np.log2(counts / n), 0.0)
    return np.sort(terms, axis=-1).sum(axis=-1)


def mifs_order(X, y, *, beta: float = 0.5, n_bins: int = 10,
               variant: str = "battiti") -> np.ndarray:
    r"""MIFS greedy selection order of all features (Battiti's, MIFS-U or NMIFS).

    Start from :math:`\arg\max_f I(C; f)`; then repeatedly add

    .. math:: \arg\max_{f \notin S} \Bigl[ I(C; f) - \beta \sum_{s \in S} I(f; s) \Bigr]

    (Battiti 1994, §III, the "MIFS" algorithm, with the whole order kept instead of stopping at
    ``k`` features). ``variant="mifs_u"`` is Kwak & Choi's (2002, eq. 12) MIFS-U,

    .. math:: \arg\max_{f \notin S} \Bigl[ I(C; f) - \beta \sum_{s \in S}
              \frac{I(C; s)}{H(s)} I(f; s) \Bigr]

    (a term with :math:`H(s) = 0` counts 0); ``variant="nmifs"`` is Estévez et al.'s (2009,
    eq. 11) NMIFS, which has no β:

    .. math:: \arg\max_{f \notin S} \Bigl[ I(C; f) - \frac{1}{|S|} \sum_{s \in S}
              \frac{I(f; s)}{\min(H(f), H(s))} \Bigr]

    (a term with :math:`\min(H(f), H(s)) = 0` counts 0; the entropies are those of the rows
    where both are observed). All variants start from the feature of largest
    :math:`I(C; f)`. Numeric features are discretised into ``n_bins`` equal-width bins between
    their min and max (:func:`equal_width_codes`); mutual information in bits. Ties (within
    1e-12 bits, to absorb float rounding between equal quantities) go to the lower index.

    Missing values are not in Battiti's paper: each mutual information is computed on the rows
    where both variables are observed (pairwise deletion). A column constant among its
    observed values, or with none observed, carries no information: it takes no part in the
    search and follows it, in index order (its zero redundancy would otherwise place it early).

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Features, numeric or nominal; NaN for missing values.
    y : array-like of shape (n_samples,)
        Class labels.
    beta : float, default 0.5
        Weight of the redundancy term (Battiti's β; the paper's setting is 0.5).
    n_bins : int, default 10
        Number of equal-width bins for numeric features.
    variant : {"battiti", "mifs_u", "nmifs"}, default "battiti"
        Battiti's MIFS, MIFS-U (Kwak & Choi 2002) or NMIFS (Estévez et al. 2009; ignores
        ``beta``).

    Returns
    -------
    ndarray of int64, shape (n_features,)
        Feature indices in the order selected.
    """
    data = check_classification_data(X, y)
    validate_params(MIFS_CONSTRAINTS, {"beta": beta, "n_bins": n_bins, "variant": variant})
    if n_bins > max(data.n_samples, 10):
        raise ValueError(f"n_bins={n_bins} exceeds the {data.n_samples} samples: most bins "
                         "would be empty, and the joint tables grow as n_bins² (the paper's "
                         "setting is 10)")
    codes, n_values = equal_width_codes(data.values, data.nominal, int(n_bins))
    p = data.n_features
    all_cols = np.arange(p)
    relevance = _mi_with(codes, n_values, data.y, data.n_classes, all_cols)
    redundancy = np.zeros(p)
    # constant or entirely missing columns carry no information: they take no part in the
    # search and follow it in index order
    vacant = _vacant(data.values)
    remaining = ~vacant
    order = np.empty(p, dtype=np.int64)
    n_search = int(remaining.sum())
    order[n_search:] = np.flatnonzero(vacant)
    for k in range(n_search):
        cand = np.flatnonzero(remaining)
        if variant == "nmifs":
            crit = relevance[cand] - redundancy[cand] / max(k, 1)
        else:
            crit = relevance[cand] - beta * redundancy[cand]
        best = crit.max()
        f = int(cand[np.flatnonzero(crit >= best - _TIE_TOL)[0]])
        order[k] = f
        remaining[f] = False
        rest = np.flatnonzero(remaining)
        if not rest.size:
            continue
        if variant == "battiti":
            redundancy[rest] += _mi_with(codes, n_values, codes[:, f], int(n_values[f]), rest)
            continue
        tables = _pair_tables(codes, n_values, codes[:, f], int(n_values[f]), rest)
        mi = _mi_bits(tables)
        if variant == "mifs_u":
            h_s = float(_entropy_bits(np.bincount(codes[codes[:, f] >= 0, f]).astype(float)))
            redundancy[rest] += (relevance[f] / h_s) * mi if h_s > 0 else 0.0
        else:  # nmifs: the mean normalised MI, kept as a sum and divided by |S| = k + 1
            h = np.minimum(_entropy_bits(tables.sum(axis=2)), _entropy_bits(tables.sum(axis=1)))
            redundancy[rest] += np.divide(mi, h, out=np.zeros_like(mi), where=h > 0)
    return order


def _vacant(values: np.ndarray) -> np.ndarray:
    """The columns constant (none missing), or with no value observed."""
    seen = ~np.isnan(values)
    lo = np.where(seen, values, np.inf).min(axis=0, initial=np.inf)
    hi = np.where(seen, values, -np.inf).max(axis=0, initial=-np.inf)
    return ~seen.any(axis=0) | ((lo == hi) & seen.all(axis=0))


@register_ranker("mifs", tags={"allow_nan": True, "greedy": True}, constraints=MIFS_CONSTRAINTS)
def mifs(X, y, *, beta: float = 0.5, n_bins: int = 10, variant: str = "battiti") -> np.ndarray:
    """MIFS ranker (Battiti 1994): score = p - position in the greedy order (:func:`mifs_order`).

    The first feature selected scores ``p - 1``, the last 0. See :func:`mifs_order`.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Features, numeric or nominal; NaN for missing values.
    y : array-like of shape (n_samples,)
        Class labels.
    beta : float, default 0.5
        Weight of the redundancy term (Battiti's β; the paper's setting is 0.5).
    n_bins : int, default 10
        Number of equal-width bins for numeric features.
    variant : {"battiti", "mifs_u", "nmifs"}, default "battiti"
        Battiti's MIFS, MIFS-U (Kwak & Choi 2002) or NMIFS (Estévez et al. 2009).

    Returns
    -------
    ndarray of float64, shape (n_features,)
        ``p - 1`` for the first feature selected down to 0 for the last.

    References
    ----------
    R. Battiti. Using mutual information for selecting features in supervised neural net
    learning. IEEE Transactions on Neural Networks 5(4):537-550, 1994.
    N. Kwak, C.-H. Choi. Input feature selection for classification problems. IEEE
    Transactions on Neural Networks 13(1):143-159, 2002.
    P. A. Estévez, M. Tesmer, C. A. Perez, J. M. Zurada. Normalized mutual information feature
    selection. IEEE Transactions on Neural Networks 20(2):189-201, 2009.
    """
    order = mifs_order(X, y, beta=beta, n_bins=n_bins, variant=variant)
    p = order.size
    scores = np.empty(p)
    scores[order] = p - np.arange(1, p + 1)
    return scores
