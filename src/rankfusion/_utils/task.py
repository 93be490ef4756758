"""The learning task of a target: classification or regression, never guessed
(docs/design.md, 'Tasks').

:func:`resolve_task` decides the task of ``y`` from ``task="auto"|"classification"|"regression"``;
:func:`check_regression_target` validates a numeric target. The rule of ``task="auto"``, stated
once here:

* a bool, text, categorical or other non-numeric target is **classification**;
* a float target holding a non-integer value is **regression**;
* an integer-valued target (an integer dtype, or floats that are all whole numbers) with ``c``
  distinct values in ``n`` samples is **classification** when ``c ≤``
  :data:`AUTO_MAX_CLASSES` and it is class labels by the rule every classification entry
  already applies (``c ≤ 20`` or ``c ≤ 0.2·n``, and not a different value in every sample from
  6 samples on: :func:`~rankfusion._utils.data.target_problem`); otherwise it is **refused**
  with a ``ValueError`` naming both ``task="classification"`` and ``task="regression"``
  (scikit-learn's diabetes target, 214 distinct whole numbers in 442 samples, is refused).

An explicit task is honoured: ``"regression"`` with a text/bool/categorical target is a
``TypeError``; ``"classification"`` with non-integer floats is a ``ValueError``.
"""

from __future__ import annotations

import numpy as np

from .lazy import lazy_module

pd = lazy_module("pandas")  # imported on first use: check_task needs no pandas (small commands)

__all__ = ["TASKS", "AUTO_MAX_CLASSES", "resolve_task", "check_task", "check_regression_data",
           "as_class_labels", "class_codes",
           "check_regression_target", "target_kind"]

#: The values of every ``task`` argument.
TASKS = ("auto", "classification", "regression")

#: ``task="auto"`` never takes a whole-number target with more distinct values than this as
#: class labels, whatever the sample size.
AUTO_MAX_CLASSES = 100

_BOTH = ('say task="classification" (its values are class labels) or task="regression" '
         "(a numeric quantity)")


def check_task(task, *, name: str = "task") -> str:
    """``task`` if it is one of :data:`TASKS`; else a ``ValueError`` (``TypeError`` for a
    non-string) naming the argument and the choices."""
    if not isinstance(task, str):
        raise TypeError(f"{name} must be one of {', '.join(map(repr, TASKS))}, got "
                        f"{type(task).__name__} {task!r}")
    if task not in TASKS:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, TASKS))}, got {task!r}")
    return task


def _as_1d(y, name: str):
    if isinstance(y, pd.DataFrame):
        if y.shape[1] != 1:
            raise TypeError(f"{name} must be 1-D (one value per sample); got {y.shape[1]} "
                            "columns")
        y = y.iloc[:, 0]
    if isinstance(y, pd.Categorical):
        y = pd.Series(y)
    if isinstance(y, pd.Series):
        return y
    arr = np.asarray(y)
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise TypeError(f"{name} must be 1-D (one value per sample); got shape {arr.shape}")
    return arr


def target_kind(y, *, name: str = "y") -> str:
    """``"labels"`` (bool, text, categorical, mixed objects), ``"float"`` (a float holding a
    non-integer value), ``"integer"`` (integer dtype or whole-number floats) or ``"time"``."""
    y = _as_1d(y, name)
    if isinstance(y, pd.Series):
        if isinstance(y.dtype, pd.CategoricalDtype) or y.dtype.kind in "bOSU":
            dtype_kind = "labels" if isinstance(y.dtype, pd.CategoricalDtype) else None
        else:
            dtype_kind = None
        if dtype_kind:
            return dtype_kind
        arr = y.to_numpy(dtype=object) if y.dtype.kind not in "iuf" else y.to_numpy()
    else:
        arr = y
    if arr.dtype.kind in "mM":
        return "time"
    if arr.dtype.kind == "b":
        return "labels"
    if arr.dtype == object:
        vals = [v for v in arr if not (isinstance(v, float) and v != v) and v is not None]
        if vals and all(isinstance(v, (int, float, np.integer, np.floating))
                        and not isinstance(v, (bool, np.bool_)) for v in vals):
            arr = np.asarray(vals, dtype=np.float64)
        else:
            return "labels"
    if arr.dtype.kind in "iu":
        return "integer"
    if arr.dtype.kind == "f":
        finite = arr[np.isfinite(arr)]
        return "integer" if np.all(finite == np.round(finite)) else "float"
    return "labels"


def resolve_task(y, task: str = "auto", *, name: str = "y") -> str:
    """The task of target ``y``: ``"classification"`` or ``"regression"``.

    Parameters
    ----------
    y : array-like, Series or Categorical, shape (n,)
        The target.
    task : {"auto", "classification", "regression"}, default "auto"
        ``"auto"`` follows the rule of this module's docstring (docs/design.md, 'Tasks') and
        refuses an integer-valued target with many distinct values; an explicit task is
        checked against ``y`` and returned.
    name : str
        The argument named in errors.

    Returns
    -------
    str
        ``"classification"`` or ``"regression"``.

    Examples
    --------
    >>> resolve_task([0.5, 1.25, 3.0])
    'regression'
    >>> resolve_task(["a", "b", "a"])
    'classification'
    >>> resolve_task(list(range(50)) * 2, task="regression")
    'regression'
    """
    task = check_task(task)
    kind = target_kind(y, name=name)
    if kind == "time":
        raise ValueError(f"{name} holds dates or times: neither class labels nor a numeric "
                         "target; convert it first")
    if task == "regression":
        if kind == "labels":
            raise TypeError(f'{name} must be numeric for task="regression"; it holds class '
                            'labels (text, bool or categorical): use task="classification"')
        return "regression"
    if task == "classification":
        if kind == "float":
            raise ValueError(f'{name} holds non-integer numbers, not class labels, for '
                             'task="classification": use task="regression", or bin it '
                             "into classes first (e.g. pandas.cut)")
        return "classification"
    if kind == "labels":
        return "classification"
    if kind == "float":
        return "regression"
    from .data import target_problem

    arr = _as_1d(y, name)
    arr = np.asarray(arr.to_numpy() if isinstance(arr, pd.Series) else arr)
    if arr.dtype == object:
        arr = arr.astype(np.float64)
    arr = arr[~np.isnan(arr)] if arr.dtype.kind == "f" else arr
    from .data import NOT_CLASSES_ADVICE

    c = int(np.unique(arr).shape[0])
    problem = target_problem(arr)
    if problem is not None:
        why = problem.replace(f"; {NOT_CLASSES_ADVICE}", "")
        raise ValueError(f"{name} {why}; the task cannot be told from the values: {_BOTH}")
    if c > AUTO_MAX_CLASSES:
        raise ValueError(f"{name} holds {c} distinct whole numbers in {arr.shape[0]} samples "
                         f"(more than {AUTO_MAX_CLASSES}): the task cannot be told from the "
                         f"values; {_BOTH}")
    return "classification"


def check_regression_target(y, n_samples: int | None = None, *, name: str = "y") -> np.ndarray:
    """Validate a numeric target; return it as a new float64 array.

    Text, bool or categorical values are a ``TypeError``; a missing or infinite value, a
    length different from ``n_samples`` or a constant target (nothing to explain) a
    ``ValueError``.
    """
    kind = target_kind(y, name=name)
    if kind in ("labels", "time"):
        raise TypeError(f"{name} must be numeric for regression; it holds "
                        f"{'dates or times' if kind == 'time' else 'class labels'}: use "
                        'task="classification" or a classification ranker')
    arr = _as_1d(y, name)
    arr = arr.to_numpy(dtype=np.float64, na_value=np.nan) if isinstance(arr, pd.Series) \
        else np.asarray(arr, dtype=np.float64)
    arr = np.array(arr, dtype=np.float64, copy=True)
    if n_samples is not None and arr.shape[0] != n_samples:
        raise ValueError(f"{name} has {arr.shape[0]} values but X has {n_samples} samples")
    if arr.shape[0] == 0:
        raise ValueError(f"{name} is empty")
    bad = ~np.isfinite(arr)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name} has a missing or infinite value at sample {i} "
                         f"({arr[i]!r}); a regression target must be finite")
    if arr.shape[0] < 2 or np.all(arr == arr[0]):
        raise ValueError(f"{name} is constant ({arr[0]!r}): nothing to explain")
    return arr


def check_regression_data(X, y, *, allow_nominal: bool = False, allow_missing: bool = False):
    """Validate ``X`` and a numeric ``y`` for a regression ranker; return
    ``(values, nominal, categories, feature_names, target)`` (new arrays; the caller's data is
    not modified). Nominal features and missing values are refused unless allowed."""
    from .data import check_features

    values, nominal, categories, names = check_features(
        X, allow_nominal=allow_nominal, allow_missing=allow_missing)
    target = check_regression_target(y, values.shape[0], name="y")
    return values, nominal, categories, names, target


def as_class_labels(y):
    """A whole-number target taken as class labels although it has many distinct values (an
    explicit ``task="classification"``), as text labels every classification entry takes:
    ``"c007"``-style zero-padded codes in the numeric order of the values, so the class order
    (and every sum over classes) is that of the values. Any other target is returned as it is.
    """
    from .data import target_problem

    if target_kind(y) != "integer":
        return y
    arr = _as_1d(y, "y")
    arr = np.asarray(arr.to_numpy() if isinstance(arr, pd.Series) else arr)
    if arr.dtype == object:
        arr = arr.astype(np.float64)
    if target_problem(arr) is None:
        return y
    classes, codes = np.unique(arr, return_inverse=True)
    width = len(str(classes.shape[0]))
    return np.array([f"c{c:0{width}d}" for c in codes.reshape(-1)], dtype=object)


def class_codes(y, task: str):
    """The classes of a class-label target and each sample's integer code, for a selector
    that resolved its task to classification: a target that does not look like class labels
    (:func:`~rankfusion._utils.data.target_problem`) is refused unless ``task`` is the
    explicit ``"classification"``; one class is refused.

    Returns ``(classes, codes)`` as ``np.unique(y, return_inverse=True)`` (codes 1-D)."""
    from sklearn.utils.multiclass import check_classification_targets

    from .data import target_problem

    problem = target_problem(np.asarray(y))
    if problem and task != "classification":  # an explicit task is honoured
        raise ValueError(f"y {problem}")
    check_classification_targets(y)
    classes, codes = np.unique(y, return_inverse=True)
    if classes.shape[0] < 2:
        one = classes[0].item() if isinstance(classes[0], np.generic) else classes[0]
        raise ValueError(f"y has one class only ({one!r}); feature ranking needs at "
                         "least two")
    return classes, codes.reshape(-1)
