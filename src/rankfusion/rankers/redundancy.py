r"""Redundancy-aware greedy filters: mRMR (MID, MIQ, FCQ), JMI, CMIM and DISR.

Every filter here is a greedy forward search over *all* features (the full order is kept, no
stopping rule): ``S`` is the selected set, ``f`` a candidate, ``c`` the class, mutual
information in bits.

============  ==============================================================================
name          criterion maximised at each step
============  ==============================================================================
``mrmr_mid``  :math:`I(f;c) - \frac{1}{|S|}\sum_{s\in S} I(f;s)` (Peng et al. 2005, eq. 8)
``mrmr_miq``  :math:`I(f;c) \,/\, \bigl(\frac{1}{|S|}\sum_{s\in S} I(f;s)\bigr)` (Peng 2005)
``jmi``       :math:`\sum_{s\in S} I(f,s;c)` (Yang & Moody 1999)
``cmim``      :math:`\min_{s\in S} I(f;c\mid s)` (Fleuret 2004)
``disr``      :math:`\sum_{s\in S} I(f,s;c) / H(f,s,c)` (Meyer, Schretter & Bontempi 2008)
``mrmr_fcq``  :math:`F(f) \,/\, \frac{1}{|S|}\sum_{s\in S} \max(|\rho(f,s)|, 0.001)`
              (Ding & Peng 2005, as ``mrmr_selection`` computes it)
============  ==============================================================================

The first pick is always the feature of largest relevance (:math:`I(f;c)`, or :math:`F(f)` for
FCQ); ties (within 1e-12, to absorb float rounding between equal quantities) go to the lower
feature index. The ranker's score is ``p - position``: the first feature selected scores
``p - 1``, the last 0 (docs/design.md, 'Redundancy-aware filters'). A column of one value — a
constant, or for the information filters a column whose discretisation has one symbol (an MDL
attribute with no accepted cut) — carries no information: it takes no part in the search and
joins the order after it, in index order. Its zero redundancy would otherwise beat every
redundant informative feature (under MID a constant came 2nd of 5 on iris), and in the sums of
JMI and DISR and the means of MID and MIQ it would change the criteria of the others (a
registered ranker also warns, naming a constant column).

Discretisation (the information filters): numeric features are discretised with Fayyad–Irani
MDL against the class (``discretizer="mdl"``, the default: Weka's supervised ``Discretize``, as
for the information rankers, :mod:`rankfusion.rankers.discretize`), or into ``n_bins``
equal-width bins (``"equal_width"``, MIFS's discretiser), or taken as they are
(``"none"``: every distinct value of a column is one symbol; for data already discrete).
Nominal features keep their categories. An MDL-discretised feature with no accepted cut has one
value and carries no information.

Each step costs O(n·p): one joint histogram (``numpy.bincount`` over combined codes) of the
newly selected feature with every remaining candidate (and the class, for JMI, CMIM and DISR)
updates a running sum (or minimum) per candidate, so the redundancy terms are never recomputed
over ``S``.

References
----------
H. Peng, F. Long, C. Ding. Feature selection based on mutual information: criteria of
max-dependency, max-relevance, and min-redundancy. IEEE TPAMI 27(8):1226-1238, 2005.
C. Ding, H. Peng. Minimum redundancy feature selection from microarray gene expression data.
J. Bioinformatics and Computational Biology 3(2):185-205, 2005.
H. H. Yang, J. Moody. Data visualization and feature selection: new algorithms for nongaussian
data. NIPS 12, 1999.
F. Fleuret. Fast binary feature selection with conditional mutual information. JMLR
5:1531-1555, 2004.
P. E. Meyer, C. Schretter, G. Bontempi. Information-theoretic feature selection in microarray
data using variable complementarity. IEEE J. Selected Topics in Signal Processing 2(3):261-274,
2008.
"""

from __future__ import annotations

import numpy as np

from .._utils.constraints import Interval, Options, validate_params
from .._utils.data import prepare_ranker_data
from ._registry import register_ranker
from .information import attribute_codes
from .mifs import _entropy_bits, _mi_bits, equal_width_codes

__all__ = ["redundancy_order", "mrmr_mid", "mrmr_miq", "mrmr_fcq", "jmi", "cmim", "disr",
           "DISCRETIZERS", "REDUNDANCY_CRITERIA"]

#: The discretisers of the information filters (docs/design.md, 'Redundancy-aware filters').
DISCRETIZERS = ("mdl", "equal_width", "none")

#: The criteria of :func:`redundancy_order`.
REDUNDANCY_CRITERIA = ("mrmr_mid", "mrmr_miq", "mrmr_fcq", "jmi", "cmim", "disr")

#: The parameters of the information filters (docs/design.md, 'Parameters'); ``n_bins`` is
#: used by ``discretizer="equal_width"`` only.
REDUNDANCY_CONSTRAINTS = {"discretizer": [Options(*DISCRETIZERS)],
                          "n_bins": [Interval("int", 2, None)]}

#: ``mrmr_selection``'s floor of an absolute correlation (its ``FLOOR``).
FCQ_FLOOR = 0.001

_TIE_TOL = 1e-12


def _first_best(crit: np.ndarray) -> int:
    """Position of the largest value (ties within ``_TIE_TOL`` → the first)."""
    best = crit.max()
    return int(np.flatnonzero(crit >= best - _TIE_TOL)[0])


def _symbols(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct value of a column is one symbol: codes 0..V-1 in increasing value."""
    n, p = values.shape
    codes = np.empty((n, p), dtype=np.int64)
    n_values = np.ones(p, dtype=np.int64)
    if n == 0 or p == 0:
        return codes, n_values
    order = np.argsort(values, axis=0, kind="stable")
    srt = np.take_along_axis(values, order, axis=0)
    new = np.vstack([np.zeros((1, p), dtype=bool), srt[1:] != srt[:-1]])
    ranks = np.cumsum(new, axis=0)
    np.put_along_axis(codes, order, ranks, axis=0)
    n_values[:] = ranks[-1] + 1
    return codes, n_values


def _prepare(X, y, discretizer, n_bins, name, *, discretise=True):
    validate_params(REDUNDANCY_CONSTRAINTS, {"discretizer": discretizer, "n_bins": n_bins})
    data, yc, n_classes, n_values = prepare_ranker_data(X, y)
    bad = np.isnan(data.values)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(f"X has a missing value (NaN) at sample {i}, feature {j}: {name} "
                         "cannot take missing values")
    if not discretise:
        return data, None, None, yc, n_classes
    if discretizer == "mdl":
        codes, nv = attribute_codes(data.values, data.nominal, n_values, yc, n_classes)
    elif discretizer == "equal_width":
        if n_bins > max(data.n_samples, 10):
            raise ValueError(f"n_bins={n_bins} exceeds the {data.n_samples} samples: most bins "
                             "would be empty")
        codes, nv = equal_width_codes(data.values, data.nominal, int(n_bins))
    else:
        codes, nv = _symbols(data.values)
    return data, np.ascontiguousarray(codes), np.maximum(nv, 1), yc, n_classes


def _pair_counts(codes, nv, cols, s, y=None, n_classes=1):
    """Counts of (f, s[, c]) for every column f in ``cols``: shape (|cols|, A, B[·C])."""
    a = int(nv[cols].max())
    b = int(nv[s])
    sub = codes[:, cols]
    k = b * n_classes
    inner = codes[:, s] * n_classes + (0 if y is None else y)
    idx = (np.arange(cols.size) * (a * k))[None, :] + sub * k + inner[:, None]
    counts = np.bincount(idx.ravel(), minlength=cols.size * a * k)
    return counts.reshape(cols.size, a, b, n_classes)


def _relevance(codes, nv, yc, n_classes):
    p = codes.shape[1]
    a = int(nv.max()) if p else 1
    idx = (np.arange(p) * (a * n_classes))[None, :] + codes * n_classes + yc[:, None]
    counts = np.bincount(idx.ravel(), minlength=p * a * n_classes)
    return _mi_bits(counts.reshape(p, a, n_classes))


def _information_order(codes, nv, yc, n_classes, criterion, n_select) -> np.ndarray:
    n, p = codes.shape
    order = np.empty(min(p, n_select), dtype=np.int64)
    if p == 0:
        return order
    relevance = _relevance(codes, nv, yc, n_classes)
    acc = np.zeros(p)  # running sum of the redundancy / joint terms (or running minimum)
    if criterion == "cmim":
        acc[:] = np.inf
    remaining = np.ones(p, dtype=bool)
    f = _first_best(relevance)
    order[0] = f
    remaining[f] = False
    for k in range(1, order.size):
        rest = np.flatnonzero(remaining)
        if criterion in ("mrmr_mid", "mrmr_miq"):
            counts = _pair_counts(codes, nv, rest, f)[..., 0]
            acc[rest] += _mi_bits(counts)
            red = acc[rest] / k
            if criterion == "mrmr_mid":
                crit = relevance[rest] - red
            else:
                rel = relevance[rest]
                with np.errstate(divide="ignore", invalid="ignore"):
                    crit = np.where(red > 0, rel / red, np.where(rel > 0, np.inf, 0.0))
                inf = np.isinf(crit)
                if inf.any():  # independent of every selected feature: by relevance
                    crit = np.where(inf, rel, -np.inf)
        else:
            counts = _pair_counts(codes, nv, rest, f, yc, n_classes)
            m = counts.shape[0]
            joint = _mi_bits(counts.reshape(m, -1, n_classes))  # I(f, s; c)
            if criterion == "jmi":
                acc[rest] += joint
            elif criterion == "cmim":
                acc[rest] = np.minimum(acc[rest], joint - relevance[f])  # I(f; c | s)
            else:  # disr
                h = _entropy_bits(counts.reshape(m, -1))
                acc[rest] += np.divide(joint, h, out=np.zeros(m), where=h > 0)
            crit = acc[rest]
        f = int(rest[_first_best(crit)])
        order[k] = f
        remaining[f] = False
    return order


def _f_statistic(values, yc, n_classes):
    """One-way ANOVA F of every column (scikit-learn's ``f_classif``): ``inf`` for a feature
    constant within every class but not overall, 0 where undefined (a constant feature)."""
    n = values.shape[0]
    counts = np.bincount(yc, minlength=n_classes).astype(np.float64)
    sums = np.zeros((n_classes, values.shape[1]))
    np.add.at(sums, yc, values)
    means = sums / counts[:, None]
    grand = values.mean(axis=0)
    between = (counts[:, None] * (means - grand) ** 2).sum(axis=0)
    within = ((values - means[yc]) ** 2).sum(axis=0)
    dfb, dfw = n_classes - 1, n - n_classes
    with np.errstate(divide="ignore", invalid="ignore"):
        f = (between / dfb) / (within / dfw)
    return np.where(np.isnan(f), 0.0, f)


def _fcq_order(values, yc, n_classes, n_select) -> np.ndarray:
    n, p = values.shape
    order = np.empty(min(p, n_select), dtype=np.int64)
    if p == 0:
        return order
    relevance = _f_statistic(values, yc, n_classes)
    centred = values - values.mean(axis=0)
    norms = np.sqrt((centred ** 2).sum(axis=0))
    acc = np.zeros(p)
    remaining = np.ones(p, dtype=bool)
    f = _first_best(relevance)
    order[0] = f
    remaining[f] = False
    for k in range(1, order.size):
        rest = np.flatnonzero(remaining)
        with np.errstate(divide="ignore", invalid="ignore"):
            rho = (centred[:, rest].T @ centred[:, f]) / (norms[rest] * norms[f])
        rho = np.where(np.isfinite(rho), np.abs(rho), 0.0)
        acc[rest] += np.maximum(rho, FCQ_FLOOR)
        red = acc[rest] / k
        with np.errstate(invalid="ignore"):
            crit = relevance[rest] / np.where(red >= 1.0, np.inf, red)
        crit[np.isnan(crit)] = -np.inf  # inf / inf: pandas' argmax skips it
        f = int(rest[_first_best(crit)])
        order[k] = f
        remaining[f] = False
    return order


def redundancy_order(X, y, criterion: str = "mrmr_mid", *, discretizer: str = "mdl",
                     n_bins: int = 10, n_select: int | None = None) -> np.ndarray:
    r"""Greedy forward selection order of all features under a redundancy-aware criterion.

    See the module docstring for the criteria; ``S`` is the selected set, ``f`` a candidate.

    * ``"mrmr_mid"``: :math:`I(f;c) - \frac{1}{|S|}\sum_{s\in S} I(f;s)` (Peng et al. 2005).
    * ``"mrmr_miq"``: :math:`I(f;c) / \frac{1}{|S|}\sum_{s\in S} I(f;s)`; a candidate with
      redundancy exactly 0 and relevance > 0 has an infinite quotient: such candidates come
      first, by relevance; relevance and redundancy both 0 give 0.
    * ``"jmi"``: :math:`\sum_{s\in S} I(f,s;c)`.
    * ``"cmim"``: :math:`\min_{s\in S} I(f;c\mid s)`, with
      :math:`I(f;c\mid s) = I(f,s;c) - I(s;c)`.
    * ``"disr"``: :math:`\sum_{s\in S} I(f,s;c) / H(f,s,c)` (a term with
      :math:`H(f,s,c) = 0` counts 0).
    * ``"mrmr_fcq"``: relevance the one-way ANOVA F statistic (scikit-learn's ``f_classif``; 0
      where it is undefined, e.g. a constant feature; infinite for a feature constant within
      each class), redundancy the mean over ``S`` of
      :math:`\max(|\rho(f,s)|, 0.001)` (Pearson; an undefined ρ counts 0 before the floor), score
      relevance / redundancy, and a mean redundancy of exactly 1 scores 0 — all as
      ``mrmr_selection`` 0.2.8 (``mrmr_classif(relevance="f", redundancy="c")``) computes it.
      It works on the raw numeric values (nominal columns as their codes); no discretisation.
      ``mrmr_selection`` drops features whose F is 0 before selecting; here they stay and are
      ranked (they score 0, so they come last, in index order).

    The first pick is the feature of largest relevance; ties (within 1e-12) go to the lower
    index. Columns of one value (constant; for the information criteria, one symbol after
    discretisation) are left out of the search and follow it, in index order.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Features, numeric or nominal; no missing values.
    y : array-like of shape (n_samples,)
        Class labels.
    criterion : str, default "mrmr_mid"
        One of :data:`REDUNDANCY_CRITERIA`.
    discretizer : {"mdl", "equal_width", "none"}, default "mdl"
        How numeric features are discretised for the information criteria (ignored by
        ``"mrmr_fcq"``): Fayyad–Irani MDL against the class (Weka's), ``n_bins`` equal-width
        bins, or every distinct value as one symbol.
    n_bins : int, default 10
        Number of bins of ``discretizer="equal_width"``.
    n_select : int or None, default None
        Stop after this many features (None: the full order). The first ``n_select`` of the
        full order, computed in ``n_select`` steps.

    Returns
    -------
    ndarray of int64, shape (n_select or n_features,)
        Feature indices in the order selected.
    """
    if not isinstance(criterion, str) or criterion not in REDUNDANCY_CRITERIA:
        raise ValueError(f"criterion must be one of {', '.join(map(repr, REDUNDANCY_CRITERIA))}"
                         f", got {criterion!r}")
    validate_params({"n_select": [None, Interval("int", 1, None)]}, {"n_select": n_select})
    n_select = np.iinfo(np.int64).max if n_select is None else int(n_select)
    if criterion == "mrmr_fcq":
        data, _, _, yc, n_classes = _prepare(X, y, discretizer, n_bins, criterion,
                                             discretise=False)
        values = np.asarray(data.values, dtype=np.float64)
        keep = _informative(values)
        order = _fcq_order(values[:, keep], yc, n_classes, n_select)
    else:
        data, codes, nv, yc, n_classes = _prepare(X, y, discretizer, n_bins, criterion)
        keep = _informative(codes)  # a constant, or an MDL column with no cut: one symbol
        order = _information_order(np.ascontiguousarray(codes[:, keep]), nv[keep],
                                   np.asarray(yc, dtype=np.int64), n_classes, criterion,
                                   n_select)
    # columns of one value carry no information: they follow the search, in index order
    p = data.values.shape[1]
    rest = np.setdiff1d(np.arange(p), keep)
    return np.concatenate([keep[order], rest]).astype(np.int64)[:min(p, n_select)]


def _informative(values: np.ndarray) -> np.ndarray:
    """Indices of the columns holding two values or more (the others join the order last)."""
    if values.shape[0] == 0:
        return np.arange(values.shape[1])
    return np.flatnonzero(values.min(axis=0) != values.max(axis=0))


def _scores(order: np.ndarray) -> np.ndarray:
    p = order.size
    scores = np.empty(p)
    scores[order] = p - np.arange(1, p + 1)
    return scores


_RANKER_DOC = """
    The ranker's score is ``p - position`` in the greedy order of :func:`redundancy_order`:
    the first feature selected scores ``p - 1``, the last 0.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Features, numeric or nominal; no missing values.
    y : array-like of shape (n_samples,)
        Class labels.
    discretizer : {"mdl", "equal_width", "none"}, default "mdl"
        Discretisation of numeric features (see :func:`redundancy_order`).
    n_bins : int, default 10
        Bins of ``discretizer="equal_width"``.

    Returns
    -------
    ndarray of float64, shape (n_features,)
        ``p - 1`` for the first feature selected down to 0 for the last.
"""

_TAGS = {"allow_nan": False, "greedy": True}


@register_ranker("mrmr_mid", tags=_TAGS, constraints=REDUNDANCY_CONSTRAINTS)
def mrmr_mid(X, y, *, discretizer: str = "mdl", n_bins: int = 10) -> np.ndarray:
    return _scores(redundancy_order(X, y, "mrmr_mid", discretizer=discretizer, n_bins=n_bins))


@register_ranker("mrmr_miq", tags=_TAGS, constraints=REDUNDANCY_CONSTRAINTS)
def mrmr_miq(X, y, *, discretizer: str = "mdl", n_bins: int = 10) -> np.ndarray:
    return _scores(redundancy_order(X, y, "mrmr_miq", discretizer=discretizer, n_bins=n_bins))


@register_ranker("jmi", tags=_TAGS, constraints=REDUNDANCY_CONSTRAINTS)
def jmi(X, y, *, discretizer: str = "mdl", n_bins: int = 10) -> np.ndarray:
    return _scores(redundancy_order(X, y, "jmi", discretizer=discretizer, n_bins=n_bins))


@register_ranker("cmim", tags=_TAGS, constraints=REDUNDANCY_CONSTRAINTS)
def cmim(X, y, *, discretizer: str = "mdl", n_bins: int = 10) -> np.ndarray:
    return _scores(redundancy_order(X, y, "cmim", discretizer=discretizer, n_bins=n_bins))


@register_ranker("disr", tags=_TAGS, constraints=REDUNDANCY_CONSTRAINTS)
def disr(X, y, *, discretizer: str = "mdl", n_bins: int = 10) -> np.ndarray:
    return _scores(redundancy_order(X, y, "disr", discretizer=discretizer, n_bins=n_bins))


@register_ranker("mrmr_fcq", tags=_TAGS, constraints={})
def mrmr_fcq(X, y) -> np.ndarray:
    """mRMR with F-statistic relevance and correlation redundancy, quotient form (FCQ; Ding &
    Peng 2005, as ``mrmr_selection``): score = p - position in :func:`redundancy_order` with
    ``criterion="mrmr_fcq"``; the first feature selected scores ``p - 1``, the last 0.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Numeric features (nominal ones as their codes); no missing values.
    y : array-like of shape (n_samples,)
        Class labels.

    Returns
    -------
    ndarray of float64, shape (n_features,)
        ``p - 1`` for the first feature selected down to 0 for the last.

    References
    ----------
    C. Ding, H. Peng. Minimum redundancy feature selection from microarray gene expression
    data. J. Bioinformatics and Computational Biology 3(2):185-205, 2005.
    """
    return _scores(redundancy_order(X, y, "mrmr_fcq"))


mrmr_mid.__doc__ = ("mRMR, difference form (MID; Peng et al. 2005): "
                    r":math:`\max_f I(f;c) - \frac{1}{|S|}\sum_{s\in S} I(f;s)`." "\n"
                    + _RANKER_DOC + """
    References
    ----------
    H. Peng, F. Long, C. Ding. Feature selection based on mutual information. IEEE TPAMI
    27(8):1226-1238, 2005.
""")
mrmr_miq.__doc__ = ("mRMR, quotient form (MIQ; Peng et al. 2005): "
                    r":math:`\max_f I(f;c) / \frac{1}{|S|}\sum_{s\in S} I(f;s)`." "\n"
                    + _RANKER_DOC + """
    References
    ----------
    H. Peng, F. Long, C. Ding. Feature selection based on mutual information. IEEE TPAMI
    27(8):1226-1238, 2005.
""")
jmi.__doc__ = ("Joint mutual information (JMI; Yang & Moody 1999): "
               r":math:`\max_f \sum_{s\in S} I(f,s;c)`." "\n" + _RANKER_DOC + """
    References
    ----------
    H. H. Yang, J. Moody. Data visualization and feature selection: new algorithms for
    nongaussian data. NIPS 12, 1999.
""")
cmim.__doc__ = ("Conditional mutual information maximisation (CMIM; Fleuret 2004): "
                r":math:`\max_f \min_{s\in S} I(f;c\mid s)`." "\n" + _RANKER_DOC + """
    References
    ----------
    F. Fleuret. Fast binary feature selection with conditional mutual information. JMLR
    5:1531-1555, 2004.
""")
disr.__doc__ = ("Double input symmetrical relevance (DISR; Meyer et al. 2008): "
                r":math:`\max_f \sum_{s\in S} I(f,s;c)/H(f,s,c)`." "\n" + _RANKER_DOC + """
    References
    ----------
    P. E. Meyer, C. Schretter, G. Bontempi. Information-theoretic feature selection in
    microarray data using variable complementarity. IEEE J. Selected Topics in Signal
    Processing 2(3):261-274, 2008.
""")
