"""Classification data at the public boundary (docs/design.md, 'Inputs' and 'Validation').

:func:`check_classification_data` turns ``X`` (array or DataFrame; pandas categorical/object
columns are nominal attributes, NaN is a missing value) and ``y`` (any labels: ints, strings,
categoricals) into a :class:`ClassificationData` without touching the caller's objects.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace

import numpy as np

from .columns import plain_value
from .lazy import lazy_module
from .validation import check_unique_columns, real_array

pd = lazy_module("pandas")  # imported on first use (small commands start without it)

__all__ = ["ClassificationData", "check_classification_data", "check_features", "check_target",
           "weka_classes", "prepare_ranker_data", "check_callable", "target_problem",
           "ID_TARGET_MIN_SAMPLES", "ID_TARGET_MIN_ROWS_OF_FILE", "NOT_CLASSES_ADVICE",
           "rescale_extreme_columns", "EXTREME_SCALE", "default_feature_names"]


@dataclass(frozen=True)
class ClassificationData:
    """Validated data.

    Attributes
    ----------
    values : ndarray of float64, shape (n, p)
        Numeric values; nominal attributes hold their category codes 0..c-1; NaN = missing.
    nominal : ndarray of bool, shape (p,)
        Which attributes are nominal.
    categories : list
        Per attribute, the category labels of a nominal attribute (in code order) or None.
    feature_names : ndarray of object, shape (p,)
    y : ndarray of int64, shape (n,)
        Class codes 0..c-1.
    classes : ndarray, shape (c,)
        The class labels, in code order (sorted, as scikit-learn's ``np.unique``).
    """

    values: np.ndarray
    nominal: np.ndarray
    categories: list
    feature_names: np.ndarray
    y: np.ndarray
    classes: np.ndarray

    @property
    def n_samples(self) -> int:
        return int(self.values.shape[0])

    @property
    def n_features(self) -> int:
        return int(self.values.shape[1])

    @property
    def n_classes(self) -> int:
        return int(self.classes.shape[0])


#: A whole-number target with a different value in every sample is an identifier (or a
#: count, an age) from this many samples on; with fewer, one sample per class is too common
#: in small examples to be told from a mistake.
ID_TARGET_MIN_SAMPLES = 6

#: A whole-number target with more distinct values than this many *and* more than
#: :data:`CONTINUOUS_TARGET_FRACTION` of the samples looks continuous (an age, a price in
#: whole units): classes of one or two samples each.
CONTINUOUS_TARGET_MIN_CLASSES = 20
CONTINUOUS_TARGET_FRACTION = 0.2

#: From this many samples on, a whole-number target *read from a file* whose classes hold
#: fewer than two samples on average (more distinct values than half the samples: an age on
#: a small file) looks continuous too.
SPARSE_TARGET_MIN_SAMPLES = 10

#: The identifier threshold of :func:`target_problem` for a target read from a file
#: (``rankfusion.io.load_data``, the command line): a file's author never means one class per
#: row, even on four rows; arrays given to estimators keep :data:`ID_TARGET_MIN_SAMPLES`.
ID_TARGET_MIN_ROWS_OF_FILE = 4

#: The way out said by every refusal of a target that is not class labels.
NOT_CLASSES_ADVICE = ("this classification method takes class labels (regression is not "
                "supported here): bin the target into classes first (e.g. pandas.cut), "
                "choose the class column with target=, or rank with a regression ranker "
                "(rrelieff, pearson, spearman, f_regression, "
                "mutual_info_regression, random_forest_regressor, ridge, lasso_cv)")


def target_problem(arr: np.ndarray, *, min_id_samples: int = ID_TARGET_MIN_SAMPLES,
                   sparse: bool = False) -> str | None:
    """Why a 1-D target without missing labels is not class labels, or None
    (docs/design.md, 'Validation': regression targets are refused).

    A target is refused when it holds dates or times (``datetime64``, ``timedelta64``,
    ``datetime``/``date`` objects), non-integer floats (continuous), or whole numbers that
    are an identifier — a different value in every sample, from
    ``min_id_samples`` samples (:data:`ID_TARGET_MIN_SAMPLES`) — or continuous — more than
    :data:`CONTINUOUS_TARGET_MIN_CLASSES` distinct values and more than
    :data:`CONTINUOUS_TARGET_FRACTION` of the samples, or, with ``sparse`` (a target read
    from a file), from :data:`SPARSE_TARGET_MIN_SAMPLES` samples on, more distinct values
    than half the samples (arrays given to estimators may hold many small classes on
    purpose, e.g. to test stratified sampling). Each would make classes of one sample that
    every feature separates perfectly. Text labels are never refused here (a name per
    sample is caught by the file reader, which knows the column).
    """
    import datetime as _dt

    n = arr.shape[0]
    if arr.dtype.kind in "mM" or (arr.dtype == object and n and any(
            isinstance(v, (_dt.date, _dt.timedelta, np.datetime64, np.timedelta64))
            or type(v).__name__ in ("Timestamp", "Timedelta") for v in arr)):
        return f"holds dates or times, not class labels; {NOT_CLASSES_ADVICE}"
    if arr.dtype.kind in "iu":
        values = arr
    elif arr.dtype.kind == "f":
        values = arr
    elif arr.dtype == object and n and all(
            isinstance(v, (int, float, np.integer, np.floating))
            and not isinstance(v, (bool, np.bool_)) for v in arr):
        values = arr.astype(np.float64)
    else:
        return None
    if values.dtype.kind == "f" and not np.all(values == np.round(values)):
        return ("looks continuous (non-integer numbers, e.g. "
                f"{float(values[values != np.round(values)][0])!r}), not class labels; "
                f"{NOT_CLASSES_ADVICE}")
    c = np.unique(values).shape[0]
    if n >= min_id_samples and c == n:
        return (f"has a different whole number in every sample ({n} samples, {c} values): an "
                f"identifier or a continuous quantity (an age, a count), not class labels; "
                f"{NOT_CLASSES_ADVICE}")
    if (c > CONTINUOUS_TARGET_MIN_CLASSES and c > CONTINUOUS_TARGET_FRACTION * n) or (
            sparse and n >= SPARSE_TARGET_MIN_SAMPLES and 2 * c > n):
        why = (f"more than {CONTINUOUS_TARGET_MIN_CLASSES} and "
               f"{CONTINUOUS_TARGET_FRACTION:.0%} of the samples" if c > max(
                   CONTINUOUS_TARGET_MIN_CLASSES, CONTINUOUS_TARGET_FRACTION * n)
               else "fewer than two samples per class")
        return (f"looks continuous: {c} distinct whole numbers in {n} samples ({why}), "
                f"not class labels; {NOT_CLASSES_ADVICE}")
    return None


def check_target(y, n_samples: int | None = None, *, name: str = "y", min_classes: int = 2):
    """Validate classification labels; return ``(codes, classes)``.

    Raises a ``ValueError`` for a missing label, a length mismatch, fewer than ``min_classes``
    classes or a target that is not class labels (:func:`target_problem`: dates, continuous
    numbers, a whole-number identifier); a ``TypeError`` for a 2-D target.
    """
    if isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            raise TypeError(f"{name} must be 1-D (one label per sample); got {y.shape[1]} columns")
        y = y.iloc[:, 0]
    if isinstance(y, pd.Series):
        missing = y.isna().to_numpy()
        arr = y.to_numpy(dtype=object) if y.dtype.kind not in "iufb" else y.to_numpy()
    else:
        arr = np.asarray(y)
        if arr.ndim == 2 and arr.shape[1] == 1:
            arr = arr[:, 0]
        missing = pd.isna(arr) if arr.dtype == object or arr.dtype.kind == "f" else np.zeros(
            arr.shape, dtype=bool
        )
    if arr.ndim != 1:
        raise TypeError(f"{name} must be 1-D (one label per sample); got shape {arr.shape}")
    if n_samples is not None and arr.shape[0] != n_samples:
        raise ValueError(f"{name} has {arr.shape[0]} labels but X has {n_samples} samples")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty")
    if np.asarray(missing).any():
        i = int(np.flatnonzero(missing)[0])
        raise ValueError(f"{name} has a missing label (NaN/None) at sample {i}")
    infinite = (np.isinf(arr) if arr.dtype.kind == "f" else
                np.array([isinstance(v, (float, np.floating)) and bool(np.isinf(v)) for v in arr])
                if arr.dtype == object else np.zeros(arr.shape, dtype=bool))
    if infinite.any():
        i = int(np.flatnonzero(infinite)[0])
        raise ValueError(f"{name} has an infinite label at sample {i}; labels name classes")
    problem = target_problem(arr)
    if problem:
        raise ValueError(f"{name} {problem}")
    try:
        classes, codes = np.unique(arr, return_inverse=True)
    except TypeError:
        raise TypeError(f"{name} mixes label types that cannot be ordered") from None
    if classes.shape[0] < min_classes:
        shown = [c.item() if isinstance(c, np.generic) else c for c in classes[:3]]  # no np.
        raise ValueError(
            f"{name} has {classes.shape[0]} class(es) ({shown}); at least "
            f"{min_classes} are needed"
        )
    return codes.astype(np.int64).reshape(-1), classes


def without_attrs(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` itself, or a shallow copy without ``attrs`` when it has any.

    pandas deep-copies ``attrs`` into every column taken out of a frame; with the ARFF
    header's type table (one entry per column) reading p columns one by one cost p² steps
    (load_data took 47 s on Golub's 7,129 columns).
    """
    if not frame.attrs:
        return frame
    out = frame.copy(deep=False)
    out.attrs = {}
    return out


@functools.lru_cache(maxsize=8)
def _default_names(p: int) -> np.ndarray:
    names = np.array([f"x{j}" for j in range(p)], dtype=object)
    names.flags.writeable = False
    return names


def default_feature_names(p: int) -> np.ndarray:
    """``x0 … x{p-1}``, the names of an array's columns (made once per width: a wide data
    set's bootstrap samples all share them)."""
    return _default_names(int(p))


def check_features(X, *, allow_nominal: bool = True, allow_missing: bool = True,
                   feature_names=None, accept_sparse=False, who: str = "this ranker"):
    """Validate a feature matrix alone; return ``(values, nominal, categories, feature_names)``
    as in :class:`ClassificationData` (no copy of the caller's data is modified).

    A sparse ``X`` (docs/design.md, 'Sparse input') is refused (``accept_sparse=False``, a
    ``TypeError`` naming the sparse-capable rankers), kept sparse as a validated float64 CSR
    or CSC copy (``"csr"``/``"csc"``: ``values`` is then that matrix) or densified within
    the memory check (``"densify"``)."""
    from .sparse import check_sparse_features, densify, is_sparse, sparse_refusal

    if is_sparse(X) or hasattr(X, "toarray"):
        if accept_sparse in ("csr", "csc"):
            M, sp_names = check_sparse_features(X, fmt=accept_sparse, who=who)
            p = M.shape[1]
            names = (np.asarray(feature_names, dtype=object) if feature_names is not None
                     else sp_names if sp_names is not None else default_feature_names(p).copy())
            return M, np.zeros(p, dtype=bool), [None] * p, names
        if accept_sparse != "densify":
            raise sparse_refusal(who)
        X = densify(X)
    if isinstance(X, pd.DataFrame):
        check_unique_columns(X, name="X")
        X = without_attrs(X)
        n, p = X.shape
        names = np.array([str(c) if not isinstance(c, str) else c for c in X.columns],
                         dtype=object) if feature_names is None else np.asarray(
                             feature_names, dtype=object)
        values = np.empty((n, p), dtype=np.float64)
        nominal = np.zeros(p, dtype=bool)
        categories: list = [None] * p
        plain = [j for j, dt in enumerate(X.dtypes)
                 if dt.kind in "iuf" and not isinstance(dt, pd.CategoricalDtype)]
        if plain:  # numeric columns in one block (fast for wide frames)
            values[:, plain] = X.iloc[:, plain].to_numpy(dtype=np.float64, na_value=np.nan)
        done = set(plain)
        for j, col in enumerate(X.columns):
            if j in done:
                continue
            s = X.iloc[:, j]
            if isinstance(s.dtype, pd.CategoricalDtype):
                cats = s.cat.categories
                codes = s.cat.codes.to_numpy().astype(np.float64)
                codes[codes < 0] = np.nan
                values[:, j] = codes
                nominal[j] = True
                categories[j] = list(cats)
            elif s.dtype == object or pd.api.types.is_string_dtype(s.dtype) or s.dtype == bool:
                na = s.isna().to_numpy()
                obs = s[~na]
                _check_not_mixed(obs, col)
                try:
                    cats = sorted(pd.unique(obs))
                except TypeError:
                    cats = sorted(pd.unique(obs), key=str)
                lut = {c: i for i, c in enumerate(cats)}
                col_vals = np.full(n, np.nan)
                col_vals[~na] = [lut[v] for v in obs]
                values[:, j] = col_vals
                nominal[j] = True
                categories[j] = cats
            elif pd.api.types.is_complex_dtype(s.dtype):
                raise TypeError(f"X column {col!r} holds complex numbers; features must be real")
            elif pd.api.types.is_numeric_dtype(s.dtype):
                values[:, j] = s.to_numpy(dtype=np.float64, na_value=np.nan)
            else:
                raise TypeError(f"X column {col!r} has unsupported dtype {s.dtype}")
        if nominal.any() and not allow_nominal:
            j = int(np.flatnonzero(nominal)[0])
            raise TypeError(f"X column {X.columns[j]!r} is nominal; this method needs numbers")
    else:
        arr = np.asarray(X)
        if arr.ndim != 2:
            raise ValueError(f"X must be 2-D (samples × features); got shape {arr.shape}")
        if arr.dtype == object:
            try:
                arr = real_array(arr, "X")
            except TypeError as exc:
                raise TypeError(
                    f"{exc}; pass a DataFrame with categorical columns for nominal attributes"
                ) from None
        if arr.dtype.kind not in "iuf":
            raise TypeError(f"X must be numeric, got dtype {arr.dtype}")
        values = np.array(arr, dtype=np.float64, copy=True)
        n, p = values.shape
        nominal = np.zeros(p, dtype=bool)
        categories = [None] * p
        names = (default_feature_names(p).copy() if feature_names is None
                 else np.asarray(feature_names, dtype=object))
    if values.shape[0] == 0 or values.shape[1] == 0:
        raise ValueError(f"X is empty (shape {values.shape})")
    finite = bool(np.isfinite(values).all())  # one pass when every value is a number
    if not finite and np.isinf(values).any():
        raise ValueError("X contains inf; use NaN for missing values")
    if not finite and not allow_missing and np.isnan(values).any():
        i, j = (int(v) for v in np.argwhere(np.isnan(values))[0])
        raise ValueError(f"X has a missing value (NaN) in column {str(names[j])!r} (first in "
                         f"row {i + 1} of {values.shape[0]}); this method cannot take missing "
                         "values: impute them, or choose a method that takes them")
    return values, nominal, categories, names


def _check_not_mixed(obs: pd.Series, col) -> None:
    """A nominal (object) column must not mix numbers with text: ``[1.5, "x", 2.0]`` is a
    numeric column with a bad cell, not three categories."""
    if obs.dtype != object or obs.empty:
        return
    is_num = np.fromiter((isinstance(v, (int, float, np.integer, np.floating))
                          and not isinstance(v, (bool, np.bool_)) for v in obs),
                         dtype=bool, count=obs.shape[0])
    if is_num.any() and not is_num.all():
        i = int(np.flatnonzero(~is_num)[0])
        row, cell = plain_value(obs.index[i]), plain_value(obs.iloc[i])
        raise TypeError(
            f"X column {col!r} mixes numbers and other values (row {row!r} holds {cell!r}); "
            "make it numeric (NaN for a missing value) or nominal (a categorical or all-text "
            "column)")


#: A numeric column whose largest ``|x|`` lies outside ``[1/EXTREME_SCALE, EXTREME_SCALE]`` is
#: rescaled by :func:`rescale_extreme_columns` (``2**64`` ≈ 1.8e19).
EXTREME_SCALE = 2.0 ** 64


def rescale_extreme_columns(values: np.ndarray, nominal: np.ndarray | None = None):
    """Bring numeric columns of extreme scale (e.g. 1e-200 or 1e160) near 1, exactly.

    A numeric column whose largest finite ``|x|`` is above ``EXTREME_SCALE`` or below its
    inverse (and not 0) is multiplied by the power of two ``2^-e`` that puts that largest value
    in ``[0.5, 1)``; other columns (and nominal codes, NaN) are untouched, so ordinary data stay
    bit for bit the same. A power of two is exact, so every method that is invariant to the
    scale of a feature (information measures, ReliefF, ILFS, F test, trees, …) gives the same
    scores as on the unscaled data, without squares overflowing or underflowing
    (docs/design.md, 'Inputs').

    Returns
    -------
    values : ndarray
        A rescaled copy, or ``values`` itself when no column needed it.
    exponents : ndarray of int, shape (p,)
        ``e`` per column (0 = unchanged): the original is ``values · 2^e``.
    """
    n, p = values.shape
    num = np.ones(p, dtype=bool) if nominal is None else ~np.asarray(nominal, dtype=bool)
    if n == 0:
        return values, np.zeros(p, dtype=np.int64)
    # max |x| per column, NaN left out, without a p × n temporary: max(|max|, |min|)
    with np.errstate(invalid="ignore"):
        top = np.fmax(np.abs(np.fmax.reduce(values, axis=0)),
                      np.abs(np.fmin.reduce(values, axis=0)))
    top = np.nan_to_num(top, nan=0.0)  # an all-missing column
    need = num & (top > 0) & ((top > EXTREME_SCALE) | (top < 1.0 / EXTREME_SCALE))
    e = np.where(need, np.frexp(top)[1], 0).astype(np.int64)
    if not need.any():
        return values, e
    return np.ldexp(values, -e[None, :]), e


def check_classification_data(X, y, *, allow_nominal: bool = True,
                              allow_missing: bool = True, min_classes: int = 2,
                              feature_names=None, accept_sparse=False,
                              who: str = "this ranker") -> ClassificationData:
    """Validate ``X`` and ``y`` for a ranker or a selector (no copy of the caller's data is
    modified); ``accept_sparse`` and ``who`` as :func:`check_features`."""
    values, nominal, categories, names = check_features(
        X, allow_nominal=allow_nominal, allow_missing=allow_missing, feature_names=feature_names,
        accept_sparse=accept_sparse, who=who)
    codes, classes = check_target(y, values.shape[0], min_classes=min_classes)
    return ClassificationData(values, nominal, categories, names, codes, classes)


def check_callable(value, *, name: str, needs: str | None = None):
    """``value`` if it is callable (or, with ``needs``, has that method); else a ``TypeError``."""
    ok = hasattr(value, needs) if needs else callable(value)
    if not ok:
        what = f"have a {needs} method" if needs else "be callable"
        raise TypeError(f"{name} must {what}, got {type(value).__name__}")
    return value


def weka_classes(y, n_samples: int | None = None):
    """Class codes ``0..c-1`` and ``c``, validated by :func:`check_target`.

    The codes follow the category order of a pandas categorical ``y`` (Weka numbers classes in
    the order of the ARFF declaration, which decides float summation order and hence exact ties);
    other labels are sorted, as scikit-learn does. Categories that never occur are dropped.
    """
    if isinstance(y, pd.Categorical):
        y = pd.Series(y)
    codes, classes = check_target(y, n_samples)
    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
        order = [c for c in y.cat.categories if c in set(classes.tolist())]
        if len(order) == len(classes):
            rank = {c: i for i, c in enumerate(order)}
            lut = np.array([rank[c] for c in classes.tolist()], dtype=np.int64)
            codes = lut[codes]
    return codes, int(classes.shape[0])


def prepare_ranker_data(X, y) -> tuple[ClassificationData, np.ndarray, int, np.ndarray]:
    """Validate ``X, y`` for a ranker.

    ``X`` may also be a :class:`ClassificationData` already validated, with ``y=None``; its
    class codes are then taken as they are (in Weka's class order).

    Returns ``(data, y_codes, n_classes, n_values)`` where ``y_codes`` are in Weka's class
    order, ``data.values`` has its extreme-scale numeric columns rescaled
    (:func:`rescale_extreme_columns`; every such ranker is invariant to a feature's scale)
    and ``n_values[j]`` is the number of declared categories of a nominal feature
    (0 for a numeric one).
    """
    if isinstance(X, ClassificationData) and y is None:
        # already validated (``rankfusion.io.read_small``): its class codes are in Weka's order
        data = X
        yc, n_classes = data.y, data.n_classes
    else:
        data = check_classification_data(X, y)
        yc, n_classes = weka_classes(y, data.n_samples)
    scaled, _ = rescale_extreme_columns(data.values, data.nominal)
    if scaled is not data.values:
        data = replace(data, values=scaled)
    n_values = np.array([0 if c is None else len(c) for c in data.categories], dtype=np.int64)
    return data, yc, n_classes, n_values
