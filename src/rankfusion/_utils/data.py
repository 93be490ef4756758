"""Classification data at the public boundary (docs/design.md, 'Inputs' and 'Validation').

:func:`check_classification_data` turns ``X`` (array or DataFrame; pandas categorical/object
columns are nominal attributes, NaN is a missing value) and ``y`` (any labels: ints, strings,
categoricals) into a :class:`ClassificationData` without touching the caller's objects.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["ClassificationData", "check_classification_data", "check_features", "check_target",
           "weka_classes", "prepare_ranker_data", "check_callable"]


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


def check_target(y, n_samples: int | None = None, *, name: str = "y", min_classes: int = 2):
    """Validate classification labels; return ``(codes, classes)``.

    Raises a ``ValueError`` for a missing label, a length mismatch, fewer than ``min_classes``
    classes or a continuous (regression) target; a ``TypeError`` for a 2-D target.
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
    if arr.dtype.kind == "f":
        if not np.all(arr == np.round(arr)):
            raise ValueError(
                f"{name} looks continuous (non-integer floats): rankfusion handles "
                "classification targets only, not regression"
            )
    if arr.dtype == object:
        kinds = {type(v) for v in arr}
        if any(issubclass(k, float) for k in kinds) and all(
            issubclass(k, (int, float, np.number)) for k in kinds
        ):
            f = arr.astype(np.float64)
            if not np.all(f == np.round(f)):
                raise ValueError(
                    f"{name} looks continuous (non-integer floats): rankfusion handles "
                    "classification targets only, not regression"
                )
    try:
        classes, codes = np.unique(arr, return_inverse=True)
    except TypeError:
        raise TypeError(f"{name} mixes label types that cannot be ordered") from None
    if classes.shape[0] < min_classes:
        raise ValueError(
            f"{name} has {classes.shape[0]} class(es) ({list(classes)[:3]}); at least "
            f"{min_classes} are needed"
        )
    return codes.astype(np.int64).reshape(-1), classes


def check_features(X, *, allow_nominal: bool = True, allow_missing: bool = True,
                   feature_names=None):
    """Validate a feature matrix alone; return ``(values, nominal, categories, feature_names)``
    as in :class:`ClassificationData` (no copy of the caller's data is modified)."""
    if hasattr(X, "toarray") or type(X).__module__.startswith("scipy.sparse"):
        raise TypeError("X must be a dense array or DataFrame; sparse matrices are not supported")
    if isinstance(X, pd.DataFrame):
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
                arr = arr.astype(np.float64)
            except (TypeError, ValueError):
                raise TypeError(
                    "X has non-numeric entries; pass a DataFrame with categorical columns "
                    "for nominal attributes"
                ) from None
        if arr.dtype.kind not in "iuf":
            raise TypeError(f"X must be numeric, got dtype {arr.dtype}")
        values = np.array(arr, dtype=np.float64, copy=True)
        n, p = values.shape
        nominal = np.zeros(p, dtype=bool)
        categories = [None] * p
        names = (np.array([f"x{j}" for j in range(p)], dtype=object) if feature_names is None
                 else np.asarray(feature_names, dtype=object))
    if values.shape[0] == 0 or values.shape[1] == 0:
        raise ValueError(f"X is empty (shape {values.shape})")
    if np.isinf(values).any():
        raise ValueError("X contains inf; use NaN for missing values")
    if not allow_missing and np.isnan(values).any():
        i, j = np.argwhere(np.isnan(values))[0]
        raise ValueError(f"X has a missing value (NaN) at sample {i}, feature {j}; "
                         "this method cannot take missing values")
    return values, nominal, categories, names


def check_classification_data(X, y, *, allow_nominal: bool = True,
                              allow_missing: bool = True, min_classes: int = 2,
                              feature_names=None) -> ClassificationData:
    """Validate ``X`` and ``y`` for a ranker or a selector (no copy of the caller's data is
    modified)."""
    values, nominal, categories, names = check_features(
        X, allow_nominal=allow_nominal, allow_missing=allow_missing, feature_names=feature_names)
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

    Returns ``(data, y_codes, n_classes, n_values)`` where ``y_codes`` are in Weka's class
    order and ``n_values[j]`` is the number of declared categories of a nominal feature
    (0 for a numeric one).
    """
    data = check_classification_data(X, y)
    yc, n_classes = weka_classes(y, data.n_samples)
    n_values = np.array([0 if c is None else len(c) for c in data.categories], dtype=np.int64)
    return data, yc, n_classes, n_values
