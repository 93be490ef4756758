"""Validation at the public boundary (docs/design.md, "Validation").

Every public function checks its arguments here, once, and raises a ``ValueError`` or a
``TypeError`` that names the argument and the problem. Nothing here modifies the caller's data.
"""

from __future__ import annotations

import numbers
from collections.abc import Hashable, Sequence

import numpy as np

from .lazy import is_pandas, lazy_module
from .seeding import seed_int

pd = lazy_module("pandas")  # imported on first use (small commands start without it)

__all__ = [
    "check_names",
    "check_unique_columns",
    "check_score_matrix",
    "check_weights",
    "check_top_k",
    "resolve_n_features",
    "check_positive_int",
    "check_bool",
    "check_fraction",
    "check_seed",
    "check_choice",
    "check_real",
    "check_order",
    "tuple_in_order_message",
    "check_position_weights",
    "as_name_list",
]


def _is_real_dtype(dtype) -> bool:
    """Integers or floats (numpy or pandas extension dtypes), not bools or complex numbers."""
    if isinstance(dtype, np.dtype):  # the same answer as pandas' for numpy dtypes
        return dtype.kind in "iuf"
    return (pd.api.types.is_integer_dtype(dtype) or pd.api.types.is_float_dtype(dtype)) and not (
        pd.api.types.is_bool_dtype(dtype)
    )


def real_array(x, name: str, *, allow_bool: bool = False) -> np.ndarray:
    """``x`` as a float64 array when it holds real numbers; strings (even ``"1.5"``), bools
    (unless ``allow_bool``) and complex numbers are a ``TypeError``, never parsed or cast.
    ``None`` and ``pd.NA`` in an object array become NaN (the caller's finite check decides).
    Raises ``ValueError`` for ragged nested sequences."""
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError) as exc:  # ragged nested lists
        raise ValueError(f"{name} could not be read as an array: {exc}") from None
    kinds = "iuf" + ("b" if allow_bool else "")
    if arr.dtype == object:
        for v in arr.ravel().tolist():
            if v is None or v is pd.NA:
                continue
            if isinstance(v, (bool, np.bool_)) and allow_bool:
                continue
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
                raise TypeError(f"{name} must hold real numbers, got {v!r}")
        return np.array([np.nan if v is None or v is pd.NA else v for v in arr.ravel().tolist()],
                        dtype=np.float64).reshape(arr.shape)
    if arr.dtype.kind not in kinds:
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    return arr.astype(np.float64)


def object_vector(values: list, *, name: str) -> np.ndarray:
    """A 1-D object array holding ``values`` as they are (a tuple stays one name; numpy would
    make a 2-D array of a list of tuples). Every value must be a hashable name, not a list, an
    array, a set or a dict."""
    arr = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        if isinstance(v, (list, np.ndarray, set, dict)) or not isinstance(v, Hashable):
            raise TypeError(f"{name}[{i}] must be a name (a string, a number or a tuple), "
                            f"got {type(v).__name__} {v!r}")
        arr[i] = v
    return arr


def check_names(names, n: int, *, name: str, default_prefix: str) -> np.ndarray:
    """Return ``n`` unique names as an object array, or defaults ``prefix0 … prefix{n-1}``."""
    if names is None:
        return np.array([f"{default_prefix}{i}" for i in range(n)], dtype=object)
    if isinstance(names, str):
        raise TypeError(f"{name} must be a sequence of names, got a single string {names!r}")
    arr = object_vector(list(names), name=name)
    if arr.shape[0] != n:
        raise ValueError(f"{name} must hold {n} names, got {arr.shape[0]}")
    seen: dict = {}
    for i, v in enumerate(arr):
        if v in seen:
            raise ValueError(
                f"{name} must be unique: {v!r} appears at positions {seen[v]} and {i}"
            )
        seen[v] = i
    return arr


def check_unique_columns(frame: pd.DataFrame, *, name: str) -> None:
    """A ``ValueError`` naming the first column name ``frame`` holds twice (with positions)."""
    cols = list(frame.columns)
    if pd.Index(cols).is_unique:
        return
    seen: dict = {}
    for j, c in enumerate(cols):
        if c in seen:
            raise ValueError(f"{name} has the column name {c!r} twice (columns {seen[c]} and "
                             f"{j}, 0-based); column names must be unique")
        seen[c] = j


def check_score_matrix(
    X, *, name: str = "lists", features=None, list_names=None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validate a features × lists matrix of scores (higher = better).

    Returns a float64 copy of the values, the feature names and the list names. A DataFrame
    gives its index as feature names and its columns as list names.
    """
    if is_pandas(X, "Series"):
        raise ValueError(
            f"{name} must be 2-D (features × lists); got a Series. Use series.to_frame() "
            "for a single list"
        )
    if is_pandas(X, "DataFrame"):
        check_unique_columns(X, name=name)
        bad = [c for c in X.columns if not _is_real_dtype(X[c].dtype)]
        if bad:
            raise TypeError(
                f"{name} must hold real numbers (higher = better); column {bad[0]!r} has "
                f"dtype {X[bad[0]].dtype}"
            )
        if features is None:
            features = list(X.index)
        if list_names is None:
            list_names = list(X.columns)
        values = X.to_numpy(dtype=np.float64, copy=True)
    else:
        if hasattr(X, "toarray") or type(X).__module__.startswith("scipy.sparse"):
            raise TypeError(f"{name} must be a dense array or DataFrame, got a sparse matrix")
        try:
            arr = np.asarray(X)
        except Exception as exc:  # ragged nested lists
            raise ValueError(f"{name} could not be read as a 2-D array: {exc}") from None
        if arr.dtype == object:
            try:
                arr = real_array(arr, name)
            except TypeError as exc:
                raise TypeError(
                    f"{exc} (scores, higher = better). Orders of feature names go through "
                    "RankedLists.from_orders"
                ) from None
        if not _is_real_dtype(arr.dtype):
            raise TypeError(
                f"{name} must hold real numbers (scores, higher = better); got dtype "
                f"{arr.dtype}. Orders of feature names go through RankedLists.from_orders"
            )
        if arr.ndim != 2:
            raise ValueError(
                f"{name} must be 2-D (features × lists); got {arr.ndim}-D with shape {arr.shape}"
            )
        values = np.array(arr, dtype=np.float64, copy=True)
    p, m = values.shape
    if p < 1 or m < 1:
        raise ValueError(f"{name} must have at least one feature and one list; got shape {(p, m)}")
    finite = np.isfinite(values)
    if not finite.all():
        i, j = np.argwhere(~finite)[0]
        kind = "NaN" if np.isnan(values[i, j]) else "inf"
        raise ValueError(
            f"{name} must be finite; found {kind} at feature {i}, list {j} "
            f"({int((~finite).sum())} non-finite value(s) in all)"
        )
    features = check_names(features, p, name="features", default_prefix="f")
    list_names = check_names(list_names, m, name="list_names", default_prefix="L")
    return values, features, list_names


def check_weights(weights, n_lists: int, *, name: str = "weights",
                  list_names=None) -> np.ndarray | None:
    """Validate list weights: ``n_lists`` finite non-negative numbers, not all zero.

    A sequence gives the weights in the lists' order. A dict or a Series gives them by list
    name: with ``list_names`` its keys must be exactly those names, and the weights are put in
    the lists' order; without ``list_names`` a dict or Series is refused (its order would be a
    guess). Strings, bools and complex numbers are refused, not converted.

    Returns a float64 array (a copy) or ``None`` when ``weights`` is ``None``. Only the ratios
    of the weights matter to a rule's order; when the largest weight lies outside
    ``[2**-32, 2**32]`` all of them are multiplied by one exact power of two that brings it
    into ``[1, 2)``, so that ``[1e308, 1e308, 1]`` gives finite weighted sums
    (docs/design.md, 'Inputs').
    """
    if weights is None:
        return None
    if isinstance(weights, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of numbers, got a string")
    if isinstance(weights, (pd.Series, dict)):
        weights = _weights_by_name(weights, list_names, name)
    arr = np.asarray(weights)
    if arr.dtype == object:
        bad = [v for v in arr.ravel().tolist()
               if isinstance(v, bool) or not isinstance(v, numbers.Real)]
        if bad:
            raise TypeError(f"{name} must be numbers, got {bad[0]!r}")
        arr = arr.astype(np.float64)
    elif not _is_real_dtype(arr.dtype):
        raise TypeError(f"{name} must be numbers, got dtype {arr.dtype}")
    arr = np.array(arr, dtype=np.float64, copy=True)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one weight per list); got shape {arr.shape}")
    if arr.shape[0] != n_lists:
        raise ValueError(f"{name} must have one weight per list ({n_lists}); got {arr.shape[0]}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must be finite; got {arr.tolist()}")
    if (arr < 0).any():
        raise ValueError(f"{name} must be non-negative; got {arr.tolist()}")
    if not (arr > 0).any():
        raise ValueError(f"{name} must not all be zero")
    top = float(arr.max())
    if not _WEIGHT_LOW <= top <= _WEIGHT_HIGH:
        # only the ratios of the weights matter to every rule's order; an exact power of two
        # brings the largest weight into [1, 2) so no weighted sum overflows (or underflows)
        arr = np.ldexp(arr, 1 - int(np.frexp(top)[1]))
    return arr


def _weights_by_name(weights, list_names, name: str) -> list:
    """The values of a dict or Series of weights in the order of ``list_names``."""
    if list_names is None:
        raise TypeError(f"{name} by name (a dict or Series) needs named lists; give a sequence "
                        "in the lists' order")
    given = dict(weights.items())
    if len(given) != len(weights):
        raise ValueError(f"{name} names a list twice")
    names = list(list_names)
    missing = [n for n in names if n not in given]
    unknown = [k for k in given if k not in set(names)]
    if missing or unknown:
        raise ValueError(f"{name} must name each list once: missing {missing}, unknown "
                         f"{unknown}; the lists are {names}")
    return [given[n] for n in names]


#: Weights whose largest value lies outside this range are rescaled by a power of two.
_WEIGHT_LOW, _WEIGHT_HIGH = 2.0 ** -32, 2.0 ** 32


def resolve_n_features(value, p: int, *, name: str = "n_features") -> int:
    """The one fraction rule: a number of features from a count or a fraction of ``p``.

    An int ``≥ 1`` is a count (at most ``p``); a float ``f`` in ``(0, 1]`` is a fraction of the
    ``p`` features and becomes

    .. math:: \\max(1, \\lfloor f \\cdot p + 0.5 \\rfloor),

    i.e. ``f·p`` rounded half up, never below one feature, so ``1.0`` means ``p`` (docs/design.md,
    "Fractions"). scikit-learn's ``RFE`` truncates instead (``int(f·p)``): 0.1 of 985 features is
    99 here and 98 there.

    Raises
    ------
    TypeError
        For a bool or a non-number.
    ValueError
        For a count below 1 or above ``p``, or a float outside ``(0, 1]``.

    Examples
    --------
    >>> resolve_n_features(0.1, 985, name="k"), resolve_n_features(5, 985, name="k")
    (99, 5)
    """
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an int ≥ 1 or a float in (0, 1], got a bool")
    if isinstance(value, numbers.Integral):
        value = int(value)
        if value < 1:
            raise ValueError(f"{name} must be ≥ 1 when given as a count; got {value}")
        if value > p:
            raise ValueError(f"{name}={value} exceeds the number of features ({p})")
        return value
    if isinstance(value, numbers.Real):
        value = float(value)
        if not (0.0 < value <= 1.0):
            raise ValueError(
                f"{name} as a float is a fraction of the features and must lie in (0, 1]; "
                f"got {value}. Give an int for a count"
            )
        return max(1, int(np.floor(value * p + 0.5)))
    raise TypeError(
        f"{name} must be an int ≥ 1 or a float in (0, 1], got {type(value).__name__}"
    )


def check_top_k(k, p: int, *, name: str = "k") -> int:
    """``k`` of the top-k rules: :func:`resolve_n_features` under the name ``k``."""
    return resolve_n_features(k, p, name=name)


def check_bool(value, name: str) -> bool:
    """A bool; the command line's ``--param name=true|false|1|0`` is accepted too."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no"):
        return value.strip().lower() in ("true", "yes")
    raise TypeError(f"{name} must be a bool, got {value!r}")


def check_fraction(value, name: str) -> float:
    """A number in (0, 1]."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number in (0, 1], got {type(value).__name__}")
    value = float(value)
    if not (0.0 < value <= 1.0):
        raise ValueError(f"{name} must lie in (0, 1], got {value}")
    return value


def check_seed(random_state, *, name: str = "random_state") -> int:
    """A uint32 seed from ``random_state`` (see :func:`rankfusion._utils.seeding.seed_int`)."""
    return seed_int(random_state, name=name)


def check_n_jobs(n_jobs, *, name: str = "n_jobs") -> int | None:
    """``None`` or a non-zero int, as scikit-learn and joblib read it (``-1`` = every core,
    ``-2`` = all but one); 0, bools, floats and strings are refused."""
    if n_jobs is None:
        return None
    if isinstance(n_jobs, (bool, np.bool_)) or not isinstance(n_jobs, numbers.Integral):
        raise TypeError(f"{name} must be None or an int (-1 = every core), got {n_jobs!r}")
    if n_jobs == 0:
        raise ValueError(f"{name} must not be 0 (None or 1 = one job, -1 = every core)")
    return int(n_jobs)


def check_positive_int(value, *, name: str, minimum: int = 1) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be ≥ {minimum}, got {value}")
    return int(value)


def as_name_list(values: Sequence, *, name: str) -> list:
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of feature names, got a single string")
    return list(values)


def check_choice(value, choices, *, name: str) -> str:
    """One of ``choices`` (strings); anything else is a ``ValueError`` listing them."""
    if value not in tuple(choices):
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {listed}; got {value!r}")
    return value


def check_real(value, *, name: str, low: float | None = None, high: float | None = None,
               allow_inf: bool = False) -> float:
    """A real number (not a bool) in ``[low, high]``: ``TypeError`` for the type,
    ``ValueError`` for the range, NaN, or an infinity unless ``allow_inf``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        span = f" in [{low:g}, {high:g}]" if low is not None and high is not None else ""
        raise TypeError(f"{name} must be a number{span}, got {type(value).__name__}")
    value = float(value)
    if np.isnan(value) or (np.isinf(value) and not allow_inf):
        raise ValueError(f"{name} must be finite, got {value}")
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "-inf" if low is None else f"{low:g}"
        hi = "inf" if high is None else f"{high:g}"
        raise ValueError(f"{name} must lie in [{lo}, {hi}], got {value}")
    return value


def tuple_in_order_message(where: str, position: int, value, *, tail: str) -> str:
    """The message for a tuple (or list, set) found inside an order: to its author a tie, to an
    order one feature named by the tuple (docs/design.md, 'Inputs'). ``tail`` ends it."""
    return (f"{where} holds a {type(value).__name__} at position {position} ({value!r}): an "
            "order names one "
            "feature per position, so it cannot hold a tie; give tied features equal scores "
            "(RankedLists.from_scores) or equal positions (RankedLists.from_positions, e.g. "
            f"1, 2.5, 2.5 for two features tied after the first){tail}")


def check_order(x, *, name: str) -> list:
    """An order: a non-empty sequence of distinct feature ids, best first (returned as a list).

    A tuple inside the order is refused (a tie, to its author; one feature named by the tuple,
    to a list): ties are written as scores or positions (docs/design.md, 'Inputs')."""
    if isinstance(x, (str, bytes)) or not hasattr(x, "__iter__"):
        raise TypeError(f"{name} must be a sequence of feature ids (an order, best first)")
    if isinstance(x, (set, frozenset, dict)):
        raise TypeError(f"{name} is a {type(x).__name__}, which has no order; give the feature "
                        "ids as a list, best first")
    if isinstance(x, np.ndarray) and x.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one order); got shape {x.shape}")
    out = list(x.tolist() if isinstance(x, np.ndarray) else x)
    if not out:
        raise ValueError(f"{name} must not be empty")
    for i, v in enumerate(out):
        if isinstance(v, (tuple, list, set, frozenset, np.ndarray)):
            raise TypeError(tuple_in_order_message(
                name, i + 1, v, tail="; name the features by strings or integers"))
    object_vector(out, name=name)  # every id a hashable name
    seen = set()
    for v in out:
        if v in seen:
            raise ValueError(f"{name} names {v!r} twice; an order lists each element once")
        seen.add(v)
    return out


def check_position_weights(scores, k: int, *, name: str = "scores") -> np.ndarray:
    """The first ``k`` of a 1-D array of finite real weights, one per position (a copy)."""
    arr = np.asarray(scores)
    if arr.dtype == bool or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise TypeError(f"{name} must be real numbers, got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D: one score weight per position of b")
    if arr.shape[0] < k:
        raise ValueError(f"{name} must hold a weight for each of the first {k} positions of b; "
                         f"got {arr.shape[0]}")
    arr = np.array(arr[:k], dtype=np.float64)
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must be finite")
    return np.ascontiguousarray(arr)
