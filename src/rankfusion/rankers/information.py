"""Information-theoretic filters as Weka 3.6: information gain, gain ratio, symmetric
uncertainty and chi-square (docs/design.md, 'Rankers').

Each attribute becomes a contingency table against the class (rows = attribute values,
columns = classes). Numeric attributes are first discretised with Fayyad–Irani MDL
(:mod:`rankfusion.rankers.discretize`, Weka's supervised ``Discretize`` with better encoding),
or, with ``binarize=True`` (Weka's ``-B``), mapped to ``0`` (value == 0) / ``1`` (otherwise).
Nominal attributes (pandas categorical / object columns) are used as they are.

Missing values (Weka's default): the missing row of each table is spread over the observed
rows in proportion to their totals, class by class,
``T'[i, c] = T[i, c] + T[miss, c] · R_i / N_obs`` (``R_i`` the total of row ``i``, ``N_obs`` the
number of instances where the attribute is observed). With ``missing_as_value=True`` (Weka's
``-M``) missing is an extra value of its own. Class labels cannot be missing here.

With ``H`` the entropy in bits (base-2 logarithms),

* information gain ``IG = H(C) − H(C | A)``,
* gain ratio ``IG / H(A)`` (0 when ``H(A) = 0``),
* symmetric uncertainty ``2·IG / (H(C) + H(A))`` (0 when either entropy is 0),
* chi-square ``Σ (O − E)² / E`` over non-empty rows and columns, ``E = R_i·C_c / N``, no Yates
  correction.

An attribute with a single observed value (a numeric one without an accepted cut, a constant
or an all-missing one) scores 0, and so does one exactly independent of the class
(:func:`independent_tables`: exact integer test, not the entropies' rounding error).
Weka is the oracle: the tests compare these with Weka 3.6's
``InfoGainAttributeEval``, ``GainRatioAttributeEval``, ``SymmetricalUncertAttributeEval`` and
``ChiSquaredAttributeEval`` on numeric, nominal, mixed and missing-value data, within 4,096
ulps of ``max(|score|, 1)`` (about 1e-12): the entropies sum ``x·log x`` in another order than
Weka and through the platform's ``log``, so the last bits differ between machines; measured at
most 288 ulps (gain ratio). Positions stay Weka's wherever scores are further apart
(docs/design.md, 'Equality with the oracles').
(Weka offers ``-B`` for information gain and chi-square only; here all four accept it.)

References
----------
Quinlan, J. R. (1986). Induction of decision trees. Machine Learning 1, 81–106 (gain ratio).
Press, W. H. et al. (1988). Numerical Recipes in C, §14.7 (symmetric uncertainty).
Liu, H. & Setiono, R. (1995). Chi2: feature selection and discretization of numeric
attributes. Proc. IEEE ICTAI, 388–391.
Witten, I. H. & Frank, E. (2005). Data Mining, 2nd ed. (Weka 3.6).
"""

from __future__ import annotations

import math

import numpy as np

from .._utils.data import prepare_ranker_data as prepare
from .._utils.jit import kernel
from .._utils.sparse import check_sparse_features, is_sparse
from .._utils.validation import check_bool
from ._registry import BOOL, register_ranker
from .discretize import _PYTHON_BELOW, discretize_values, mdl_cuts_values

__all__ = [
    "info_gain",
    "gain_ratio",
    "symmetric_uncertainty",
    "chi_square",
    "contingency_tables",
    "distribute_missing",
    "table_entropies",
    "table_symmetric_uncertainty",
    "independent_tables",
]

_LN2 = math.log(2.0)
_SMALL = 1e-6  # Weka's Utils.SMALL


def lnf(x: np.ndarray) -> np.ndarray:
    """Weka 3.6.14's ``ContingencyTables.lnFunc``: ``x·ln x`` for ``x > 0``, else 0 (checked
    with ``javap``; later Weka versions cut at 1e-6 instead)."""
    x = np.asarray(x, dtype=np.float64)
    out = np.zeros_like(x)
    ok = x > 0.0
    out[ok] = x[ok] * np.log(x[ok])
    return out


def attribute_codes(values: np.ndarray, nominal: np.ndarray, n_values: np.ndarray,
                    y: np.ndarray, n_classes: int, *, binarize: bool = False):
    """Nominal codes of every attribute (``-1`` = missing) and its number of values.

    Numeric attributes are MDL-discretised against ``y`` (or binarised); nominal ones keep
    their codes and declared number of values.
    """
    numeric = ~nominal
    if binarize:
        cuts: list = [None] * values.shape[1]
        codes = discretize_values(values, cuts)  # nominal codes pass through
        num = values[:, numeric]
        bin_codes = np.where(np.isnan(num), -1, (num != 0).astype(np.int64))
        codes[:, numeric] = bin_codes
        nv = np.where(numeric, 2, n_values)
    else:
        cuts = mdl_cuts_values(values, y, n_classes, numeric)
        codes = discretize_values(values, cuts)
        nv = np.array([len(c) + 1 if c is not None else n_values[j]
                       for j, c in enumerate(cuts)], dtype=np.int64)
    return codes, np.maximum(nv, 1).astype(np.int64)  # an all-missing nominal: 1 value


def contingency_tables(codes: np.ndarray, n_values: np.ndarray, y: np.ndarray,
                       n_classes: int) -> np.ndarray:
    """Attribute × class counts for every attribute at once.

    Parameters
    ----------
    codes : ndarray of int, shape (n, p)
        Value codes, ``-1`` = missing.
    n_values : ndarray of int, shape (p,)
    y : ndarray of int, shape (n,)
        Class codes ``0 .. n_classes-1``.

    Returns
    -------
    ndarray of float64, shape (p, V + 1, n_classes)
        ``V = max(n_values)``; row ``V`` (the last) counts the missing values; rows
        ``n_values[j] .. V-1`` of attribute ``j`` are empty padding.
    """
    n, p = codes.shape
    v = int(n_values.max()) if p else 0
    out = np.zeros((p, v + 1, n_classes))
    _count_tables.run(np.ascontiguousarray(codes, dtype=np.int64),
                      np.ascontiguousarray(y, dtype=np.int64), v, out, work=codes.size)
    return out


@kernel(python_below=_PYTHON_BELOW)
def _count_tables(codes, y, v, out):
    n, p = codes.shape
    for i in range(n):
        c = y[i]
        for j in range(p):
            k = codes[i, j]
            if k < 0:
                k = v
            out[j, k, c] += 1.0


def distribute_missing(tables: np.ndarray) -> np.ndarray:
    """Spread each table's missing row (the last) over the observed rows in proportion to
    the row totals, class by class (Weka's default); returns tables without that row.

    A table with no observed value keeps its missing counts in row 0 (it scores 0 anyway).
    """
    obs = tables[:, :-1, :]
    miss = tables[:, -1, :]
    rows = obs.sum(axis=2)
    total = rows.sum(axis=1)
    ok = total > _SMALL
    out = obs.copy()
    share = np.divide(rows, total[:, None], out=np.zeros_like(rows), where=ok[:, None])
    out += share[:, :, None] * miss[:, None, :]
    if (~ok).any():
        out[~ok, 0, :] += miss[~ok]
    return out


def table_entropies(tables: np.ndarray):
    """``(H_C, H_A, H_CA, N)`` of each table: class, attribute and joint entropies in nats
    times the table total (Weka's un-normalised sums), and the totals."""
    col = tables.sum(axis=1)
    row = tables.sum(axis=2)
    n = row.sum(axis=1)
    ln_n = lnf(n)
    h_c = ln_n - lnf(col).sum(axis=1)
    h_a = ln_n - lnf(row).sum(axis=1)
    h_ca = ln_n - lnf(tables).sum(axis=(1, 2))
    return h_c, h_a, h_ca, n


def _single_valued(tables: np.ndarray) -> np.ndarray:
    return (tables.sum(axis=2) > _SMALL).sum(axis=1) <= 1


def independent_tables(tables: np.ndarray) -> np.ndarray:
    """Which tables show an attribute independent of the class, so that every measure is
    exactly 0 (information gain, gain ratio, symmetric uncertainty, chi-square).

    Independence is ``T[i, c] · N = R_i · C_c`` for every cell (``R_i`` the row total,
    ``C_c`` the column total, ``N`` the table total). For tables of whole counts (no missing
    value spread, ``N ≤ 2²⁶``) it is tested exactly, in integers held exactly by float64, so
    an exactly independent attribute scores 0 and not the rounding error of the entropies
    (``4e-16``), which would rank it above a tie. Tables with spread (fractional) counts are
    independent when the un-normalised information gain ``H_C + H_A − H_CA`` is within the
    rounding bound of its own sum, ``k·ε·Σ|terms|`` (``k`` the number of ``x·ln x`` terms,
    ``ε`` the machine epsilon; Higham 2002, *Accuracy and Stability of Numerical
    Algorithms*, §4.2): below that bound a gain cannot be told from 0. Weka computes the same
    sums without this step; its rankings print 4 decimals, where the two agree.
    """
    tables = np.asarray(tables, dtype=np.float64)
    row = tables.sum(axis=2)
    col = tables.sum(axis=1)
    n = row.sum(axis=1)
    whole = np.all(tables == np.round(tables), axis=(1, 2)) & (n <= 2.0 ** 26)
    exact = np.all(tables * n[:, None, None] == row[:, :, None] * col[:, None, :],
                   axis=(1, 2))
    out = whole & exact
    frac = ~whole
    if frac.any():
        t = tables[frac]
        terms = (np.abs(lnf(t)).sum(axis=(1, 2)) + np.abs(lnf(row[frac])).sum(axis=1)
                 + np.abs(lnf(col[frac])).sum(axis=1) + np.abs(lnf(n[frac])))
        k = t.shape[1] * t.shape[2] + t.shape[1] + t.shape[2] + 1
        h_c, h_a, h_ca, _ = table_entropies(t)
        out[frac] = np.abs(h_c + h_a - h_ca) <= k * np.finfo(np.float64).eps * terms
    return out


def _info_gain_tables(tables):
    # n is the number of instances (spreading the missing row keeps it), never 0
    h_c, h_a, h_ca, n = table_entropies(tables)
    ig = (h_c + h_a - h_ca) / (n * _LN2)
    ig[_single_valued(tables) | independent_tables(tables)] = 0.0
    return ig


def _gain_ratio_tables(tables):
    h_c, h_a, h_ca, n = table_entropies(tables)
    ok = np.abs(h_a) >= _SMALL
    gr = np.divide(h_c + h_a - h_ca, h_a, out=np.zeros_like(n), where=ok)
    gr[_single_valued(tables) | independent_tables(tables)] = 0.0
    return gr


def table_symmetric_uncertainty(tables: np.ndarray) -> np.ndarray:
    """Symmetric uncertainty ``2·IG / (H(C) + H(A))`` of each table (0 when an entropy is
    below Weka's 1e-6 in its un-normalised form)."""
    h_c, h_a, h_ca, n = table_entropies(tables)
    ok = (np.abs(h_c) >= _SMALL) & (np.abs(h_a) >= _SMALL)
    su = np.divide(2.0 * (h_c + h_a - h_ca), h_c + h_a, out=np.zeros_like(n), where=ok)
    su[_single_valued(tables) | independent_tables(tables)] = 0.0
    return su


def _chi_square_tables(tables):
    col = tables.sum(axis=1)
    row = tables.sum(axis=2)
    n = row.sum(axis=1)
    expect = row[:, :, None] * col[:, None, :] / n[:, None, None]  # n instances, never 0
    use = (row > _SMALL)[:, :, None] & (col > _SMALL)[:, None, :] & (expect > 0)
    cell = np.divide((tables - expect) ** 2, expect, out=np.zeros_like(expect), where=use)
    chi = cell.sum(axis=(1, 2))
    chi[_single_valued(tables) | independent_tables(tables)] = 0.0
    return chi


def _scores(X, y, missing_as_value, binarize, measure) -> np.ndarray:
    """``measure(tables)`` for every attribute; attributes are grouped by their number of
    values so that one attribute with many categories does not pad every table."""
    missing_as_value = check_bool(missing_as_value, "missing_as_value")
    binarize = check_bool(binarize, "binarize")
    if is_sparse(X):
        return _sparse_scores(X, y, missing_as_value, binarize, measure)
    data, yc, n_classes, n_values = prepare(X, y)
    codes, nv = attribute_codes(data.values, data.nominal, n_values, yc, n_classes,
                                binarize=bool(binarize))
    out = np.zeros(codes.shape[1])
    groups = np.flatnonzero(np.bincount(nv))  # the distinct counts, sorted (np.unique loads np.ma)
    for v in groups:
        cols = nv == v
        tables = contingency_tables(codes[:, cols], nv[cols], yc, n_classes)
        if not missing_as_value:
            tables = distribute_missing(tables)
        out[cols] = measure(tables)
    return out


#: Columns of a sparse X made dense at a time by the MDL path of :func:`_sparse_scores`
#: (their bytes: ``n × 8 ×`` this, at most :data:`SPARSE_BLOCK_BYTES`).
SPARSE_BLOCK_BYTES = 64 * 2**20


def _sparse_scores(X, y, missing_as_value, binarize, measure) -> np.ndarray:
    """:func:`_scores` of a scipy.sparse X, never densified (docs/design.md, 'Sparse input').

    With ``binarize`` the table of feature ``j`` comes from the sparse structure alone: the
    value-1 row counts, class by class, the samples that store a non-zero value in column
    ``j``, the value-0 row the rest of the class (implicit zeros are the value 0), so the
    tables — whole counts — and every measure equal the dense ones exactly. Without
    ``binarize`` each numeric feature is MDL-discretised as a dense one is; that needs the
    column's sorted values, so columns are made dense a block at a time
    (:data:`SPARSE_BLOCK_BYTES`), per-column work identical to the dense path. A sparse X has
    no missing values (``missing_as_value`` changes nothing)."""
    from .._utils.data import rescale_extreme_columns, weka_classes

    M, _ = check_sparse_features(X, fmt="csc", who="the information rankers")
    n, p = M.shape
    yc, n_classes = weka_classes(y, n)
    out = np.zeros(p)
    if binarize:
        onehot = np.zeros((n, n_classes))
        onehot[np.arange(n), yc] = 1.0
        ones = (M != 0).astype(np.float64).T @ onehot  # p × c: non-zero counts per class
        class_n = onehot.sum(axis=0)
        tables = np.zeros((p, 3, n_classes))  # rows: value 0, value 1, missing (empty)
        tables[:, 1, :] = ones
        tables[:, 0, :] = class_n[None, :] - ones
        if not missing_as_value:
            tables = distribute_missing(tables)
        return measure(tables)
    block = max(1, int(SPARSE_BLOCK_BYTES // (8 * n)))
    nominal = np.zeros(min(block, p), dtype=bool)
    for start in range(0, p, block):
        stop = min(p, start + block)
        values, _ = rescale_extreme_columns(M[:, start:stop].toarray(), nominal[:stop - start])
        codes, nv = attribute_codes(values, nominal[:stop - start],
                                    np.zeros(stop - start, dtype=np.int64), yc, n_classes)
        sub = np.zeros(stop - start)
        for v in np.flatnonzero(np.bincount(nv)):
            cols = nv == v
            tables = contingency_tables(codes[:, cols], nv[cols], yc, n_classes)
            if not missing_as_value:
                tables = distribute_missing(tables)
            sub[cols] = measure(tables)
        out[start:stop] = sub
    return out


_PARAMS_DOC = """
    Parameters
    ----------
    X : array-like, DataFrame or scipy.sparse matrix, shape (n_samples, n_features)
        Numeric and/or nominal (categorical / object columns) features; NaN = missing. A
        sparse X (counts, binary indicators) is never densified (docs/design.md, 'Sparse
        input'): with ``binarize=True`` the tables come from its non-zero structure.
    y : array-like, shape (n_samples,)
        Class labels (a regression target is refused).
    missing_as_value : bool, default False
        Weka's ``-M``: missing is a value of its own instead of being spread over the observed
        values in proportion to their frequencies.
    binarize : bool, default False
        Weka's ``-B``: numeric attributes become ``value != 0`` instead of MDL intervals.

    Returns
    -------
    ndarray of float64, shape (n_features,)
        Higher = more relevant.
"""


#: The parameters of the four information rankers (docs/design.md, 'Parameters'); missing
#: values are spread over the observed ones (Weka's default), so they allow NaN.
INFO_CONSTRAINTS = {"missing_as_value": [BOOL], "binarize": [BOOL]}


@register_ranker("info_gain", aliases=("ig", "infogain"), constraints=INFO_CONSTRAINTS,
                 tags={"allow_nan": True, "sparse": True})
def info_gain(X, y, *, missing_as_value: bool = False, binarize: bool = False) -> np.ndarray:
    """Information gain ``IG(C; A) = H(C) − H(C | A)`` in bits (Weka's
    ``InfoGainAttributeEval``)."""
    return _scores(X, y, missing_as_value, binarize, _info_gain_tables)


@register_ranker("gain_ratio", aliases=("gr", "gainratio"), constraints=INFO_CONSTRAINTS,
                 tags={"allow_nan": True, "sparse": True})
def gain_ratio(X, y, *, missing_as_value: bool = False, binarize: bool = False) -> np.ndarray:
    """Gain ratio ``IG(C; A) / H(A)`` (Quinlan 1986; Weka's ``GainRatioAttributeEval``)."""
    return _scores(X, y, missing_as_value, binarize, _gain_ratio_tables)


@register_ranker("symmetric_uncertainty", aliases=("su", "symmetrical_uncertainty"),
                 constraints=INFO_CONSTRAINTS, tags={"allow_nan": True, "sparse": True})
def symmetric_uncertainty(X, y, *, missing_as_value: bool = False,
                          binarize: bool = False) -> np.ndarray:
    """Symmetric uncertainty ``2·IG(C; A) / (H(C) + H(A))`` (Weka's
    ``SymmetricalUncertAttributeEval``)."""
    return _scores(X, y, missing_as_value, binarize, table_symmetric_uncertainty)


@register_ranker("chi_square", aliases=("chi2_weka", "chisquare"), constraints=INFO_CONSTRAINTS,
                 tags={"allow_nan": True, "sparse": True})
def chi_square(X, y, *, missing_as_value: bool = False, binarize: bool = False) -> np.ndarray:
    """Pearson's chi-square statistic of the attribute × class table, ``Σ (O − E)² / E``
    without Yates' correction (Weka's ``ChiSquaredAttributeEval``)."""
    return _scores(X, y, missing_as_value, binarize, _chi_square_tables)


_EXAMPLE = """
    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({{"size": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
    ...                   "colour": ["red", "red", "blue", "blue", "red", None]}})
    >>> y = ["a", "a", "a", "b", "b", "b"]
    >>> {name}(X, y).round(4)
    array({out})
"""

# the same values as Weka 3.6 on this data (colour's missing value spread over red and blue)
for _f, _out in ((info_gain, "[1.    , 0.0134]"), (gain_ratio, "[1.    , 0.0138]"),
                 (symmetric_uncertainty, "[1.    , 0.0136]"), (chi_square, "[6.    , 0.1111]")):
    _f.__doc__ = (_f.__doc__ or "") + "\n" + _PARAMS_DOC + _EXAMPLE.format(name=_f.__name__,
                                                                           out=_out)
del _f, _out
