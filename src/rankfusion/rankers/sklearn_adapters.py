"""Adapters: scikit-learn score functions and fitted-model importances as rankers
(docs/design.md, 'Rankers').

:func:`score_func_ranker` wraps any ``score_func(X, y) -> scores`` or ``-> (scores, pvalues)``
(``f_classif``, ``chi2``, ``mutual_info_classif``, …); :func:`estimator_ranker` wraps any
estimator that exposes ``feature_importances_`` or ``coef_`` after ``fit``. Both return a
function ``f(X, y, **params) -> ndarray`` (one score per feature, higher = better) that takes
the same inputs as every rankfusion ranker. Registered here: ``f_classif`` (alias ``anova``),
``chi2``, ``mutual_info_classif`` (alias ``mutual_info``) and ``random_forest``.

Conventions: nominal columns (categorical / object) reach the scikit-learn function as their
category codes 0..c−1 (an ordinal encoding); missing values are refused unless
``allow_missing=True`` (for estimators that take NaN). NaN scores (e.g. ``f_classif`` of a
constant feature) become 0, the least relevant value of these non-negative scores. For
``coef_`` the importance is ``|w|`` for one row and the L1 norm over the rows (classes or
binary problems) otherwise, as scikit-learn's ``SelectFromModel``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

from .._utils.constraints import Interval, Jobs, Options
from .._utils.data import check_callable, check_classification_data, rescale_extreme_columns
from .._utils.sparse import issparse, rescale_sparse_columns
from .._utils.task import check_regression_data
from .._utils.validation import check_bool, check_n_jobs, check_positive_int
from ._degenerate import demote_degenerate
from ._registry import BOOL, RANDOM_STATE, register_ranker
from .sparse_ridge import sparse_moments, sparse_ridge_coef

__all__ = ["score_func_ranker", "estimator_ranker", "estimator_importances", "prepared_kernel"]


def _data(X, y, allow_missing, accept_sparse=False, who="this ranker",
          task="classification"):
    if task == "regression":
        _no_sparse_regression(X, who)
        values, _, _, _, target = check_regression_data(X, y, allow_nominal=True,
                                                        allow_missing=allow_missing)
        return values, target
    data = check_classification_data(X, y, allow_missing=allow_missing,
                                     accept_sparse="csr" if accept_sparse else False, who=who)
    return data.values, data.classes[data.y]


def _no_sparse_regression(X, who):
    from .._utils.sparse import is_sparse

    if is_sparse(X):
        raise TypeError(f"{who}: a sparse X is taken for classification only; for a "
                        "regression task densify it first (rankfusion.io.densify, within the "
                        "memory check)")


def _scaled_regression_data(X, y, who="this ranker", fmt=None):
    """As :func:`_scaled_data` for a numeric target (docs/design.md, 'Tasks'); a sparse X
    stays sparse when ``fmt`` (CSR or CSC) says the ranker takes it, else it is refused."""
    from .._utils.sparse import check_sparse_features, is_sparse
    from .._utils.task import check_regression_target

    if fmt is not None and is_sparse(X):
        M, _ = check_sparse_features(X, fmt=fmt, who=who)
        target = check_regression_target(y, M.shape[0], name="y")
        M, e = rescale_sparse_columns(M)
        return M, target, e
    _no_sparse_regression(X, who)
    values, nominal, _, _, target = check_regression_data(X, y, allow_nominal=True)
    values, e = rescale_extreme_columns(values, nominal)
    return values, target, e


def _takes_sparse(estimator) -> bool:
    """Whether scikit-learn's tags say ``estimator`` fits on sparse X (``input_tags.sparse``)."""
    try:
        from sklearn.utils import get_tags
    except ImportError:  # pragma: no cover - scikit-learn < 1.6
        return False
    try:
        return bool(get_tags(estimator).input_tags.sparse)
    except Exception:  # an estimator without tags: not known to take sparse input
        return False


def _scaled_data(X, y, who="this ranker", fmt="csc"):
    """Complete values with extreme-scale columns rescaled by powers of two (exact; see
    :func:`~rankfusion._utils.data.rescale_extreme_columns`), the labels, and the exponents.
    A sparse X stays sparse (``fmt``: CSC or CSR; docs/design.md, 'Sparse input')."""
    data = check_classification_data(X, y, allow_missing=False, accept_sparse=fmt, who=who)
    if issparse(data.values):
        values, e = rescale_sparse_columns(data.values)
    else:
        values, e = rescale_extreme_columns(data.values, data.nominal)
    return values, data.classes[data.y], e


def _clean(scores, p, who) -> np.ndarray:
    s = np.asarray(scores, dtype=np.float64).reshape(-1)
    if s.shape[0] != p:
        raise ValueError(f"{who} returned {s.shape[0]} scores for {p} features")
    if np.isinf(s).any():
        s = np.where(np.isposinf(s), np.finfo(np.float64).max, s)
        s = np.where(np.isneginf(s), -np.finfo(np.float64).max, s)
    return np.nan_to_num(s, nan=0.0)


def _fixed_task(task) -> str:
    if task not in ("classification", "regression"):
        raise ValueError(f"task must be 'classification' or 'regression', got {task!r}")
    return task


def score_func_ranker(score_func: Callable, *, allow_missing: bool = False,
                      accept_sparse: bool = False, task: str = "classification") -> Callable:
    """A ranker from a scikit-learn style score function.

    Parameters
    ----------
    score_func : callable
        ``score_func(X, y, **params)`` returning scores or ``(scores, pvalues)``; higher scores
        mean more relevant (as ``sklearn.feature_selection.SelectKBest`` assumes).
    allow_missing : bool, default False
        Pass NaN through (otherwise missing values raise a ``ValueError``).
    accept_sparse : bool, default False
        ``score_func`` takes a scipy.sparse X (as ``chi2`` and ``f_classif`` do): sparse X
        reaches it as a validated CSR matrix, never densified (docs/design.md, 'Sparse
        input'); otherwise sparse X is refused.
    task : {"classification", "regression"}, default "classification"
        What ``y`` is: class labels, or a numeric target passed on as float64
        (``f_regression``, ``mutual_info_regression``, …).

    Examples
    --------
    >>> from sklearn.feature_selection import f_classif
    >>> rank = score_func_ranker(f_classif)
    >>> rank([[1.0, 5.0], [2.0, 4.0], [8.0, 5.0], [9.0, 4.0]], [0, 0, 1, 1]).round(2)
    array([98.,  0.])
    """
    check_callable(score_func, name="score_func")
    task = _fixed_task(task)
    who = getattr(score_func, "__name__", repr(score_func))

    def ranker(X, y, **params) -> np.ndarray:
        values, labels = _data(X, y, allow_missing, accept_sparse, who, task)
        out = score_func(values, labels, **params)
        if isinstance(out, tuple):
            out = out[0]
        return _clean(out, values.shape[1], who)

    ranker.__name__ = f"score_func_ranker({who})"
    ranker.__doc__ = f"Ranker from the score function {who} (see score_func_ranker)."
    return ranker


def estimator_importances(estimator, *, norm_order: int = 1) -> np.ndarray:
    """Importances of a fitted estimator: ``feature_importances_``, else ``|coef_|`` (one row)
    or the ``norm_order`` norm of ``coef_`` over its rows."""
    # read once: a forest's feature_importances_ is a property that walks every tree, and
    # hasattr would evaluate it a first time
    importances = getattr(estimator, "feature_importances_", None)
    if importances is not None:
        return np.asarray(importances, dtype=np.float64)
    coef = getattr(estimator, "coef_", None)
    if coef is not None:
        coef = np.asarray(coef, dtype=np.float64)
        if coef.ndim == 1 or coef.shape[0] == 1:
            return np.abs(coef.reshape(-1))
        return np.linalg.norm(coef, axis=0, ord=norm_order)
    raise TypeError(f"{type(estimator).__name__} has neither feature_importances_ nor coef_ "
                    "after fit; it cannot rank features")


def estimator_ranker(estimator, *, norm_order: int = 1, allow_missing: bool = False,
                     task: str = "classification") -> Callable:
    """A ranker from an estimator with ``feature_importances_`` or ``coef_``.

    Each call fits a clone of ``estimator`` (``**params`` are set on the clone with
    ``set_params``) and returns :func:`estimator_importances`. A scipy.sparse X is passed on as a
    CSR matrix, never densified, when scikit-learn's tags say the estimator fits on sparse
    input (``input_tags.sparse``: linear models, linear SVMs, forests); otherwise it is
    refused (docs/design.md, 'Sparse input').

    Parameters
    ----------
    estimator : scikit-learn estimator
        A classifier (or, with ``task="regression"``, a regressor) that exposes
        ``feature_importances_`` or ``coef_`` once fitted.
    norm_order : int, default 1
        With ``coef_`` of several rows (one per class), the order of the norm taken over the
        rows for each feature.
    allow_missing : bool, default False
        Pass NaN through to an estimator that handles missing values itself.
    task : {"classification", "regression"}, default "classification"
        A classifier fitted on class labels, or a regressor fitted on a numeric target.

    Returns
    -------
    callable
        The ranker ``f(X, y, **params) -> scores``.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> rank = estimator_ranker(LogisticRegression())
    >>> s = rank([[1.0, 5.0], [2.0, 4.0], [8.0, 5.0], [9.0, 4.0]], [0, 0, 1, 1])
    >>> bool(s[0] > s[1])
    True
    """
    from sklearn.base import clone

    check_callable(estimator, name="estimator", needs="fit")
    task = _fixed_task(task)
    name = type(estimator).__name__

    def ranker(X, y, **params) -> np.ndarray:
        values, labels = _data(X, y, allow_missing, _takes_sparse(estimator), name, task)
        est = clone(estimator)
        if params:
            est.set_params(**params)
        est.fit(values, labels)
        return _clean(estimator_importances(est, norm_order=norm_order), values.shape[1], name)

    ranker.__name__ = f"estimator_ranker({name})"
    ranker.__doc__ = f"Ranker from the importances of {name} (see estimator_ranker)."
    return ranker


#: scikit-learn's score functions and forests do not take missing values: X with NaN is
#: refused (``allow_nan`` False), naming the sample and the feature.
@register_ranker("f_classif", aliases=("anova",), constraints={},
                 tags={"allow_nan": False, "sparse": True, "pvalues": True})
def f_classif(X, y) -> np.ndarray:
    """ANOVA F statistic of each feature (scikit-learn's ``f_classif``); NaN (a constant
    feature) → 0. Invariant to a feature's scale: features of extreme scale (beyond
    ``2**±64``) are rescaled exactly first.

    scikit-learn's one-pass sums (``within = total − between``) lose a feature whose values
    are constant within every class, or whose spread is tiny next to its mean: the within
    sum of squares rounds to a small number of either sign, and ``F = msb / msw`` flips to
    about −1e17, ranking the perfect separator last. Such columns (a within sum of squares
    below ``1e-8`` of the raw second moment) are recomputed from the two-pass sums, which
    cannot be negative; a feature constant within every class but not overall has an
    infinite F, scored as the largest float, with a warning naming it (often a copy of the
    class); a constant feature scores exactly 0. Elsewhere the scores are scikit-learn's."""
    from sklearn.feature_selection import f_classif as _f

    values, labels, _ = _scaled_data(X, y, "f_classif", "csr")
    with warnings.catch_warnings():  # constant features: scored 0 below, named by the registry
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.filterwarnings("ignore", message="Features .* are constant", category=UserWarning)
        raw = _f(values, labels)[0]
    codes = np.unique(labels, return_inverse=True)[1].reshape(-1)
    f, exact = _anova_guard(raw, values, codes)
    if exact.any():
        warnings.warn(_separates_message(X, exact), UserWarning, stacklevel=3)
    return _clean(f, values.shape[1], "f_classif")


@register_ranker("chi2", constraints={}, tags={"allow_nan": False, "sparse": True})
def chi2(X, y) -> np.ndarray:
    """scikit-learn's ``chi2`` statistic (non-negative features, e.g. counts); compare Weka's
    :func:`~rankfusion.rankers.information.chi_square` on discretised data (``chi_square``).

    The statistic of a feature scales with it (``chi2(c·x) = c·chi2(x)``): a feature of
    extreme scale is computed at a power-of-two rescaled copy and its score scaled back
    exactly; a score beyond the float range is an error."""
    from sklearn.feature_selection import chi2 as _f

    values, labels, e = _scaled_data(X, y, "chi2", "csr")
    negative = np.flatnonzero(np.asarray((values < 0).sum(axis=0)).reshape(-1) if issparse(
        values) else (values < 0).any(axis=0))
    if negative.size:
        j = int(negative[0])
        low = values[:, [j]].min() if issparse(values) else values[:, j].min()
        raise ValueError(f"chi2 needs non-negative features (counts, frequencies); feature {j} "
                         f"has {np.ldexp(float(low), int(e[j])):g}: use "
                         "chi_square (Weka's, on discretised values), or shift the feature")
    raw = np.asarray(_f(values, labels)[0], dtype=np.float64)
    with np.errstate(over="ignore"):
        out = np.ldexp(raw, e)
    if np.isinf(out).any():
        j = int(np.flatnonzero(np.isinf(out))[0])
        raise ValueError(f"chi2: the score of feature {j} exceeds the float range at the "
                         "scale of its values; rescale the features (e.g. divide by their "
                         "maximum)")
    return _clean(out, values.shape[1], "chi2")


@register_ranker("mutual_info_classif", aliases=("mutual_info",),
                 tags={"allow_nan": False, "sparse": True},
                 constraints={"n_neighbors": [Interval("int", 1, None)],
                              "random_state": RANDOM_STATE,
                              "discrete_features": [Options("auto"), BOOL]})
def mutual_info_classif(X, y, *, n_neighbors: int = 3, random_state=None,
                        discrete_features="auto") -> np.ndarray:
    """scikit-learn's k-nearest-neighbour mutual information estimate (nats); seeded by
    ``random_state``. Features of extreme scale are rescaled exactly first (scikit-learn
    scales each feature by its standard deviation anyway). ``discrete_features``:
    ``"auto"`` or False = continuous (the k-NN estimate, Kraskov et al. 2004 as scikit-learn
    computes it), True = discrete (the plug-in estimate of the value × class table, zeros a
    value). The rule is the dense one for every X: scikit-learn's own ``"auto"`` reads a
    sparse X as discrete, which gave a CSR matrix other scores than the same matrix dense.
    A sparse X stays sparse with ``discrete_features=True``; the k-NN estimate jitters every
    entry, so for it a sparse X is made dense within the memory check of
    :func:`rankfusion.io.densify` (docs/design.md, 'Sparse input'), and the scores equal the
    dense ones exactly."""
    from sklearn.feature_selection import mutual_info_classif as _f

    values, labels, _ = _scaled_data(X, y, "mutual_info_classif", "csc")
    n_neighbors = check_positive_int(n_neighbors, name="n_neighbors")
    # the dense rule for every X: "auto" is the k-NN estimate (scikit-learn's "auto" would
    # read a sparse X as discrete, another estimate of other values)
    discrete = False if discrete_features == "auto" else check_bool(discrete_features,
                                                                    "discrete_features")
    if issparse(values) and not discrete:
        from .._utils.sparse import densify

        # the k-NN estimate jitters every entry: it needs the dense matrix (memory-checked)
        values = densify(values, name="X (mutual_info_classif's k-NN estimate; "
                                      "discrete_features=True keeps it sparse)")
    out = _f(values, labels, n_neighbors=n_neighbors, random_state=random_state,
             discrete_features=discrete)
    return _clean(out, values.shape[1], "mutual_info_classif")


@register_ranker("random_forest", aliases=("rf_importance",),
                 tags={"allow_nan": False, "sparse": True},
                 constraints={"n_estimators": [Interval("int", 1, None)],
                              "random_state": RANDOM_STATE, "n_jobs": [None, Jobs()]})
def random_forest(X, y, *, n_estimators: int = 100, random_state=None,
                  n_jobs: int | None = None) -> np.ndarray:
    """Impurity-based importances of a ``RandomForestClassifier`` (``feature_importances_``).
    Trees are invariant to a feature's scale; features of extreme scale are rescaled exactly
    first (scikit-learn's trees work in float32)."""
    from sklearn.ensemble import RandomForestClassifier

    est = RandomForestClassifier(n_estimators=check_positive_int(n_estimators,
                                                                 name="n_estimators"),
                                 random_state=random_state, n_jobs=check_n_jobs(n_jobs))
    values, labels, _ = _scaled_data(X, y, "random_forest", "csc")
    est.fit(values, labels)
    return _clean(estimator_importances(est), values.shape[1], "random_forest")


def _column_label(X, j) -> str:
    import pandas as pd

    if isinstance(X, pd.DataFrame):
        return repr(str(X.columns[j]))
    names = getattr(X, "feature_names", None)
    return repr(str(names[j])) if names is not None and len(names) > j else repr(f"x{j}")


def _separates_message(X, exact) -> str:
    cols = np.flatnonzero(exact)
    shown = ", ".join(_column_label(X, int(j)) for j in cols[:10])
    more = f" and {cols.size - 10} more" if cols.size > 10 else ""
    return (f"f_classif: feature(s) {shown}{more} are constant within every class (they "
            "separate the classes exactly): F is infinite, scored as the largest float; such "
            "a column is often the class itself or a copy of it")


def _dense_columns(values, cols):
    """Columns ``cols`` of ``values`` (dense or sparse) as a dense float64 array."""
    if issparse(values):
        return np.asarray(values.tocsc()[:, cols].toarray(), dtype=np.float64)
    return np.asarray(values[:, cols], dtype=np.float64)


def _anova_two_pass(values: np.ndarray, codes: np.ndarray):
    """One-way ANOVA of dense columns from centred (two-pass) sums: ``(F, exact)``, F ≥ 0
    (inf where every class is constant but the column is not, 0 for a constant column) and
    ``exact`` marking those infinite ones."""
    n, p = values.shape
    k = int(codes.max()) + 1 if n else 0
    counts = np.bincount(codes, minlength=k).astype(np.float64)
    present = counts > 0
    g = int(present.sum())
    order = np.argsort(codes, kind="stable")
    srt = values[order]
    starts = np.concatenate([[0], np.cumsum(counts[present]).astype(np.int64)[:-1]])
    lo = np.minimum.reduceat(srt, starts, axis=0)
    hi = np.maximum.reduceat(srt, starts, axis=0)
    within_constant = (lo == hi).all(axis=0)
    constant = values.min(axis=0) == values.max(axis=0)
    d = values - values.mean(axis=0)
    sums = np.add.reduceat(d[order], starts, axis=0)
    means = sums / counts[present][:, None]
    grand = d.mean(axis=0)
    between = (counts[present][:, None] * (means - grand) ** 2).sum(axis=0)
    dense_codes = np.cumsum(present)[codes] - 1
    within = ((d - means[dense_codes]) ** 2).sum(axis=0)
    within[within_constant] = 0.0
    between[constant] = 0.0
    dfb, dfw = g - 1, n - g
    exact = within_constant & ~constant & (dfw > 0) & (dfb > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = (between / dfb) / (within / dfw)
    f = np.where(exact, np.inf, f)
    f = np.where(constant | ~np.isfinite(f) & ~exact, 0.0, f)
    return f, exact


def _anova_guard(raw, values, codes):
    """scikit-learn's F where its one-pass sums hold, the two-pass F elsewhere (see
    :func:`f_classif`): ``(F, exact)``, ``exact`` marking the columns constant within every
    class but not overall (F infinite)."""
    raw = np.asarray(raw, dtype=np.float64).reshape(-1)
    p = raw.shape[0]
    n = codes.shape[0]
    if issparse(values):
        sq = np.asarray(values.multiply(values).sum(axis=0)).reshape(-1)
        sstot = n * sparse_moments(values)[1] ** 2
    else:
        sq = np.einsum("ij,ij->j", values, values)
        sstot = n * values.var(axis=0)
    # scikit-learn's F implies the within share of the total, dfw / (F·dfb + dfw); where that
    # within sum of squares is below 1e-8 of the raw second moment, it is rounding
    g = np.unique(codes).shape[0]
    dfb, dfw = max(g - 1, 1), max(n - g, 1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        within = sstot * (dfw / (raw * dfb + dfw))
        suspect = ~np.isfinite(raw) | (raw < 0) | ~(within >= 1e-8 * sq)
    f = raw.copy()
    exact = np.zeros(p, dtype=bool)
    cols = np.flatnonzero(suspect)
    for start in range(0, cols.size, 256):
        block = cols[start:start + 256]
        fb, eb = _anova_two_pass(_dense_columns(values, block), codes)
        f[block] = fb
        exact[block] = eb
    return f, exact


def _groups(codes):
    """The present classes of ``codes`` in sorted order (None: fewer than two)."""
    present = np.unique(codes)
    return None if present.shape[0] < 2 else present


def _f_classif_prepared(values, codes):
    """``f_classif`` on validated data: the statements of scikit-learn's ``f_classif`` and
    ``f_oneway`` (Heiman 2002, pp. 394–7) in the same order, so the scores are bit-equal,
    without re-validating the array and the labels on every call."""
    present = _groups(codes)
    if present is None:
        return None
    values, _ = rescale_extreme_columns(values)
    args = [values[codes == k] for k in present]
    n_classes = len(args)
    n_samples_per_class = np.array([a.shape[0] for a in args])
    n_samples = np.sum(n_samples_per_class)
    ss_alldata = sum((a ** 2).sum(axis=0) for a in args)
    sums_args = [np.asarray(a.sum(axis=0)) for a in args]
    square_of_sums_alldata = sum(sums_args) ** 2
    square_of_sums_args = [s ** 2 for s in sums_args]
    sstot = ss_alldata - square_of_sums_alldata / float(n_samples)
    ssbn = 0.0
    for k in range(n_classes):
        ssbn += square_of_sums_args[k] / n_samples_per_class[k]
    ssbn -= square_of_sums_alldata / float(n_samples)
    sswn = sstot - ssbn
    msb = ssbn / float(n_classes - 1)
    msw = sswn / float(n_samples - n_classes)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.asarray(msb / msw).ravel()
    # the registered ranker's guard and order: scikit-learn's F where it holds, constant
    # columns last (docs/design.md, 'Rankers'), without the warnings of many samples
    f, _ = _anova_guard(f, values, np.unique(codes, return_inverse=True)[1].reshape(-1))
    return _last(_clean(f, values.shape[1], "f_classif"), values)


def _last(scores, values):
    """Constant columns below every other, as the registered rankers give them."""
    mask = values.min(axis=0) == values.max(axis=0)
    if not mask.any() or mask.all():
        return np.zeros_like(scores) if mask.all() else scores
    return demote_degenerate(scores, mask)


def _class_indicator(codes, present):
    """The class indicator matrix of scikit-learn's ``chi2`` (``LabelBinarizer``'s): dense
    ``[1 − y, y]`` for two classes, a CSR matrix for more."""
    n = codes.shape[0]
    if present.shape[0] == 2:
        Y = (codes == present[1]).astype(int).reshape(-1, 1)
        return np.append(1 - Y, Y, axis=1)
    from scipy import sparse

    return sparse.csr_matrix((np.ones(n, dtype=int), np.searchsorted(present, codes),
                              np.arange(n + 1)), shape=(n, present.shape[0]))


def _chi2_class_prob(codes, present) -> np.ndarray:
    """The class frequencies of scikit-learn's ``chi2`` for class codes ``codes`` of the
    classes ``present``, computed by its statements (the mean of the indicator matrix), so that
    the expected counts built from them are bit-equal to its own."""
    return np.asarray(_class_indicator(codes, present).mean(axis=0)).reshape(-1)


def _chi2_prepared(values, codes):
    """``chi2`` on validated non-negative data: the statements of scikit-learn's ``chi2``
    (the class indicator matrix built directly from the codes, as ``LabelBinarizer`` builds it)
    in the same order, so the scores are bit-equal."""
    present = _groups(codes)
    if present is None:
        return None
    values, e = rescale_extreme_columns(values)
    Y = _class_indicator(codes, present)
    observed = Y.T @ values if present.shape[0] == 2 else np.asarray(Y.T @ values)
    feature_count = values.sum(axis=0).reshape(1, -1)
    class_prob = np.asarray(Y.mean(axis=0)).reshape(1, -1)
    expected = np.dot(class_prob.T, feature_count)
    chisq = np.asarray(observed, dtype=np.float64)
    chisq -= expected
    chisq **= 2
    with np.errstate(invalid="ignore"):
        chisq /= expected
    raw = chisq.sum(axis=0)
    with np.errstate(over="ignore"):
        out = np.ldexp(raw, e)
    if np.isinf(out).any():
        return None  # the registered ranker says which feature
    return _last(_clean(out, values.shape[1], "chi2"), values)


def prepared_kernel(func, X):
    """A faster equivalent of a registered ranker for many calls on row subsets of one
    validated array, or None.

    An ensemble ranks the same ``X`` on many bootstrap samples; ``f_classif`` and
    ``chi2`` then validate the array and re-encode the labels on every call.
    ``prepared_kernel(func, X)`` returns ``kernel(X[rows], codes[rows])`` computing the same
    statistic with scikit-learn's statements in the same order (bit-equal scores; tested
    against scikit-learn), or None when ``func`` has no such kernel or ``X`` is not a finite
    dense float64 array (non-negative, for ``chi2``). The kernel returns None where the
    registered ranker must be called instead (fewer than two classes in the sample, a score
    beyond the float range), so every error stays the ranker's own.

    Parameters
    ----------
    func : callable
        A ranker (:func:`~rankfusion.rankers.get_ranker`).
    X : object
        The whole data the row subsets are taken from.

    Returns
    -------
    callable or None
    """
    kernel = {f_classif: _f_classif_prepared, chi2: _chi2_prepared}.get(func)
    if kernel is None or not isinstance(X, np.ndarray) or X.dtype != np.float64 \
            or X.ndim != 2 or X.shape[0] < 2 or X.shape[1] < 1 or not np.isfinite(X).all():
        return None
    if kernel is _chi2_prepared and (X < 0).any():
        return None
    return kernel


# Regression (docs/design.md, 'Tasks'): the same adapters with a numeric target.
_REGRESSION = {"allow_nan": False, "tasks": ("regression",)}


@register_ranker("f_regression", constraints={}, tags={**_REGRESSION, "sparse": True})
def f_regression(X, y) -> np.ndarray:
    """Univariate linear-regression F statistic of each feature (scikit-learn's
    ``f_regression``: ``F = r² / (1 − r²) · (n − 2)``, ``r`` Pearson's correlation with ``y``,
    scikit-learn's ``r_regression``); a constant feature (or a constant target) → 0. Features
    of extreme scale are rescaled exactly first. A sparse X stays sparse (CSR; scikit-learn
    centres through the column means, the same moments as on dense data: equal up to
    rounding, a constant column exactly 0; docs/design.md, 'Sparse input').

    A perfect predictor ranks first: for a feature equal to the target up to an affine map,
    ``r²`` rounds to either side of 1 and the raw formula flips sign (about −1e17, last of all
    features). Here ``r`` within 1e-6 of ±1 is recomputed from centred (two-pass) sums,
    ``r²`` is clipped to [0, 1], and ``1 − r² ≤ 2**-44`` counts as a perfect fit: F is
    infinite, scored as the largest float (so all such features tie, lower index first), with
    a warning naming them. Elsewhere the scores are scikit-learn's ``f_regression``."""
    from sklearn.feature_selection import r_regression

    values, target, _ = _scaled_regression_data(X, y, "f_regression", fmt="csr")
    n, p = values.shape
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # a constant column: 0 below
        r = np.asarray(r_regression(values, target), dtype=np.float64)
    constant = (sparse_moments(values)[2] if issparse(values)
                else values.min(axis=0) == values.max(axis=0))
    if n and np.ptp(target) == 0:  # a constant target: no feature explains it
        constant = np.ones(p, dtype=bool)
    # where |r| is within 1e-6 of 1, scikit-learn's moments (Σx² − n·x̄²) may have rounded
    # it: the centred two-pass correlation decides
    near = np.flatnonzero(~constant & ~(np.abs(r) < 1 - 1e-6))
    if near.size:
        r[near] = _two_pass_r(_dense_columns(values, near), target)
    r2 = np.clip(np.where(constant | ~np.isfinite(r), 0.0, r * r), 0.0, 1.0)
    perfect = r2 >= 1.0 - _PERFECT_R2
    dof = n - 2
    with np.errstate(divide="ignore", invalid="ignore"):
        scores = r2 / (1 - r2) * dof
    scores = np.where(perfect, np.inf, np.where(constant | (dof <= 0), 0.0, scores))
    if perfect.any() and dof > 0:
        cols = np.flatnonzero(perfect)
        shown = ", ".join(_column_label(X, int(j)) for j in cols[:10])
        more = f" and {cols.size - 10} more" if cols.size > 10 else ""
        warnings.warn(f"f_regression: feature(s) {shown}{more} equal the target up to an "
                      "affine map (|r| = 1): F is infinite, scored as the largest float; such "
                      "a column is usually the target itself or a copy of it", UserWarning,
                      stacklevel=3)
    return _clean(scores, p, "f_regression")


#: ``1 − r²`` at or below this is a perfect linear fit (a few units of rounding of the
#: two-pass correlation; docs/design.md, 'Rankers').
_PERFECT_R2 = 2.0 ** -44


def _two_pass_r(cols: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Pearson's r of each dense column with ``target`` from centred (two-pass) sums,
    columns scaled by their largest magnitude first (r is scale-free)."""
    xc = cols - cols.mean(axis=0)
    m = np.abs(xc).max(axis=0)
    m[m == 0] = 1.0
    xc = xc / m
    tc = target - target.mean()
    tc = tc / (np.abs(tc).max() or 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (tc @ xc) / np.sqrt((xc * xc).sum(axis=0) * (tc @ tc))


@register_ranker("mutual_info_regression", tags=_REGRESSION,
                 constraints={"n_neighbors": [Interval("int", 1, None)],
                              "random_state": RANDOM_STATE})
def mutual_info_regression(X, y, *, n_neighbors: int = 3, random_state=None) -> np.ndarray:
    """scikit-learn's k-nearest-neighbour mutual information between each feature and a
    numeric target (Kraskov et al. 2004; nats), seeded by ``random_state``."""
    from sklearn.feature_selection import mutual_info_regression as _f

    values, target, _ = _scaled_regression_data(X, y)
    out = _f(values, target, n_neighbors=check_positive_int(n_neighbors, name="n_neighbors"),
             random_state=random_state)
    return _clean(out, values.shape[1], "mutual_info_regression")


@register_ranker("random_forest_regressor", aliases=("rf_regressor",), tags=_REGRESSION,
                 constraints={"n_estimators": [Interval("int", 1, None)],
                              "random_state": RANDOM_STATE, "n_jobs": [None, Jobs()]})
def random_forest_regressor(X, y, *, n_estimators: int = 100, random_state=None,
                            n_jobs: int | None = None) -> np.ndarray:
    """Impurity-based importances (mean decrease of squared error) of a
    ``RandomForestRegressor`` (Breiman 2001), ``feature_importances_``. Dense X only:
    scikit-learn's regression trees on sparse input may take another of two equally good
    splits (the squared errors summed in another order), so their importances are not the
    dense ones (docs/design.md, 'Sparse input')."""
    from sklearn.ensemble import RandomForestRegressor

    est = RandomForestRegressor(n_estimators=check_positive_int(n_estimators,
                                                                name="n_estimators"),
                                random_state=random_state, n_jobs=check_n_jobs(n_jobs))
    values, target, _ = _scaled_regression_data(X, y, "random_forest_regressor")
    est.fit(values, target)
    return _clean(estimator_importances(est), values.shape[1], "random_forest_regressor")


def _standardised(values: np.ndarray) -> np.ndarray:
    """Columns centred and divided by their standard deviation (a constant column → 0), so
    that ``|coef_|`` compares features of different units."""
    sd = values.std(axis=0)
    sd[sd == 0] = 1.0
    return (values - values.mean(axis=0)) / sd


@register_ranker("ridge", tags={**_REGRESSION, "sparse": True},
                 constraints={"alpha": [Interval("real", 0, None, closed="neither")]})
def ridge(X, y, *, alpha: float = 1.0) -> np.ndarray:
    """``|coef_|`` of scikit-learn's ``Ridge(alpha)`` (Hoerl & Kennard 1970) fitted on the
    standardised features (each centred, divided by its standard deviation): minimises
    ``‖y − Zw − b‖² + alpha·‖w‖²``; a constant feature scores 0.

    A sparse X stays sparse (docs/design.md, 'Sparse input'): the same normal equations are
    solved from ``XᵀX`` (``p ≤ n``) or ``XXᵀ`` (``p > n``) with the centring folded in
    (:func:`rankfusion.rankers.sparse_ridge.sparse_ridge_coef`), equal to the dense fit up
    to rounding."""
    from sklearn.linear_model import Ridge

    values, target, _ = _scaled_regression_data(X, y, "ridge", fmt="csr")
    if issparse(values):
        return _clean(np.abs(sparse_ridge_coef(values, target, float(alpha))), values.shape[1],
                      "ridge")
    est = Ridge(alpha=float(alpha)).fit(_standardised(values), target)
    return _clean(estimator_importances(est), values.shape[1], "ridge")


@register_ranker("lasso_cv", tags={**_REGRESSION, "sparse": True},
                 constraints={"cv": [Interval("int", 2, None)], "random_state": RANDOM_STATE})
def lasso_cv(X, y, *, cv: int = 5, random_state=None) -> np.ndarray:
    """``|coef_|`` of scikit-learn's ``LassoCV(cv=cv)`` (Tibshirani 1996; the penalty chosen
    by ``cv``-fold cross-validation, unshuffled folds) fitted on the standardised features;
    features the lasso drops score 0 (ties broken downstream).

    A sparse X stays sparse (docs/design.md, 'Sparse input'): its columns are divided by
    their standard deviations but not centred (a constant column set to 0), and scikit-learn's
    sparse coordinate descent centres implicitly through the column means — the same problem,
    equal to the dense fit up to rounding."""
    from sklearn.linear_model import LassoCV

    values, target, _ = _scaled_regression_data(X, y, "lasso_cv", fmt="csr")
    est = LassoCV(cv=check_positive_int(cv, name="cv", minimum=2), random_state=random_state)
    if issparse(values):
        from scipy.sparse import diags

        _, sd, const = sparse_moments(values)
        Z = (values.tocsr() @ diags(np.where(const, 0.0, 1.0 / sd))).tocsc()
        Z.eliminate_zeros()
        est.fit(Z, target)
    else:
        est.fit(_standardised(values), target)
    return _clean(estimator_importances(est), values.shape[1], "lasso_cv")
