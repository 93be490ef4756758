"""What an ensemble accepts as a ranker, and how each kind is called.

A ranker spec is one of

* a registered name (``"relieff"``, ``"info_gain"``, …;
  :func:`rankfusion.rankers.available_rankers`), or a pair ``(name, params)`` with the
  ranker's keyword parameters; a ranker that registered a list producer
  (:func:`rankfusion.rankers.available_list_producers`, e.g. ``"svm_rfe"``: one list per
  binary problem) contributes all the producer's lists;
* a scikit-learn style score function ``f(X, y) -> scores`` or ``-> (scores, pvalues)``
  (``f_classif``, ``mutual_info_classif``, any callable of that shape);
* an estimator that exposes ``coef_`` or ``feature_importances_`` after ``fit``;
* a producer of several lists: any callable returning a :class:`~rankfusion.RankedLists`
  (for instance one SVM-RFE list per binary problem); every list it returns joins the ensemble.

Every call returns either one score per feature (higher = better) or a ``RankedLists``. A
ranker whose signature takes ``random_state`` receives a seed spawned for that ranker and
resample, so the ensemble is reproducible whatever ``n_jobs`` (docs/design.md, 'Seeds').
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .._utils.constraints import Check, InstanceOf, Interval, Options, validate_params
from .._utils.digest import data_digest
from .._utils.seeding import seed_int
from ..lists import RankedLists

__all__ = ["RankerSpec", "resolve_rankers", "run_ranker", "ranker_cache", "set_ranker_cache",
           "check_ranker_params", "RANKERS_CONSTRAINT", "SEED_CONSTRAINTS", "rankers_allow_nan",
           "ranker_allows_nan", "ranker_items", "ranker_takes_sparse", "rankers_take_sparse",
           "ACCEPT_SPARSE_CONSTRAINTS", "densify_asked"]

# Memo of registered rankers' scores, active only inside ``ranker_cache()``.
_MEMO: dict = {"on": 0, "global": False, "store": OrderedDict(), "max": 512, "hits": 0,
               "misses": 0}
#: Upper bound on the bytes of score vectors the ranker memo keeps.
MEMO_MAX_BYTES = 256 * 2**20


@dataclass(frozen=True)
class RankerSpec:
    """A resolved ranker: its display name, the function to call, whether it takes a seed and
    whether it takes a scipy.sparse X (:func:`ranker_takes_sparse`)."""

    name: str
    func: Callable
    params: dict = field(default_factory=dict)
    takes_seed: bool = False
    takes_sparse: bool = False


def _is_ranker_list(value) -> bool:
    if isinstance(value, (str, bytes, dict)) or callable(value) or hasattr(value, "fit"):
        return True  # one ranker: resolve_rankers takes it as a list of one
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], str):
        return True  # one (name, params) pair
    try:
        iter(value)
    except TypeError:
        return False
    return not isinstance(value, (set, frozenset))


#: What a ``random_state`` of an ensemble accepts (docs/design.md, 'Seeds'): any int ≥ 0 is
#: one seed (the entropy of a SeedSequence: a fit's 128-bit ``seed_entropy_`` repeats it), a
#: SeedSequence or a Generator; the rankers declare the same.
SEED_CONSTRAINTS = [None, Interval("int", 0, None),
                    InstanceOf((np.random.SeedSequence, np.random.Generator),
                               "a SeedSequence or a Generator")]

_NO_DENSIFY = Options(False)
_NO_DENSIFY.toml = "bool"

#: What ``accept_sparse`` of a selector accepts (docs/design.md, 'Sparse input'): ``False``
#: (a sparse X reaches only the rankers that take it; any other ranker refuses it) or
#: ``"densify"`` (each dense-only ranker gets a dense copy, within the memory check). ``True``,
#: ``0``, ``None`` and other strings are refused: only these two say what happens.
ACCEPT_SPARSE_CONSTRAINTS = [_NO_DENSIFY, Options("densify")]


def densify_asked(accept_sparse) -> bool:
    """Whether ``accept_sparse`` (validated by :data:`ACCEPT_SPARSE_CONSTRAINTS`) asks to
    densify for the dense-only rankers.

    Parameters
    ----------
    accept_sparse : object
        The selector's parameter.

    Returns
    -------
    bool
    """
    return isinstance(accept_sparse, str) and accept_sparse == "densify"


#: What ``rankers=`` accepts, in the constraint vocabulary (docs/design.md, 'Parameters'); each
#: item is then resolved by :func:`resolve_rankers`, which names the item at fault.
RANKERS_CONSTRAINT = Check(
    _is_ranker_list, "a list of rankers (names, (name, params) pairs, score functions or "
    "estimators)", toml="list")


def ranker_allows_nan(spec) -> bool:
    """Whether one ranker spec takes missing values (NaN) in X.

    A registered name (or ``(name, params)`` pair): the ``allow_nan`` tag of its registry
    entry; an estimator: its own ``input_tags.allow_nan`` (scikit-learn's tags); a score
    function: its attribute ``allow_nan`` (``f.allow_nan = True`` declares that it takes NaN).
    Anything else, an unknown name too: False.

    Parameters
    ----------
    spec : object
        One item of ``rankers=``.

    Returns
    -------
    bool
    """
    from ..rankers import ranker_info

    name = spec[0] if isinstance(spec, tuple) and len(spec) == 2 else spec
    if isinstance(name, str):
        try:
            return bool(ranker_info(name).tags.get("allow_nan", False))
        except ValueError:  # an unknown name: fit says so
            return False
    if hasattr(spec, "fit") and hasattr(spec, "get_params"):
        try:
            from sklearn.utils import get_tags

            return bool(get_tags(spec).input_tags.allow_nan)
        except Exception:  # pragma: no cover - an estimator without scikit-learn's tags
            return False
    return callable(spec) and getattr(spec, "allow_nan", False) is True


def ranker_takes_sparse(spec) -> bool:
    """Whether one ranker spec takes a scipy.sparse X without densifying it
    (docs/design.md, 'Sparse input'): a registered name's ``sparse`` tag; an estimator's
    ``input_tags.sparse``; a score function's attribute ``accept_sparse is True``. Else False.

    Parameters
    ----------
    spec : object
        One item of ``rankers=``.

    Returns
    -------
    bool
    """
    from ..rankers import ranker_info

    name = spec[0] if isinstance(spec, tuple) and len(spec) == 2 else spec
    if isinstance(name, str):
        try:
            return bool(ranker_info(name).tags.get("sparse", False))
        except ValueError:
            return False
    if hasattr(spec, "fit") and hasattr(spec, "get_params"):
        try:
            from sklearn.utils import get_tags

            return bool(get_tags(spec).input_tags.sparse)
        except Exception:  # pragma: no cover - an estimator without scikit-learn's tags
            return False
    return callable(spec) and getattr(spec, "accept_sparse", False) is True


def rankers_take_sparse(rankers) -> bool:
    """Whether every ranker of ``rankers=`` takes sparse X (:func:`ranker_takes_sparse`).

    Parameters
    ----------
    rankers : object
        The ``rankers`` parameter of a selector.

    Returns
    -------
    bool
    """
    items = ranker_items(rankers)
    return bool(items) and all(ranker_takes_sparse(r) for r in items)


def ranker_items(rankers) -> list:
    """The items of ``rankers=`` as :func:`resolve_rankers` reads them (one ranker, a
    ``(name, params)`` pair or a callable alone is a list of one); [] for no sequence.

    Parameters
    ----------
    rankers : object
        The ``rankers`` parameter of a selector.

    Returns
    -------
    list
    """
    single_pair = (isinstance(rankers, tuple) and len(rankers) == 2
                   and isinstance(rankers[0], str) and isinstance(rankers[1], dict))
    if isinstance(rankers, str) or single_pair or callable(rankers) or hasattr(rankers, "fit"):
        return [rankers]
    try:
        return list(rankers)
    except TypeError:
        return []


def rankers_allow_nan(rankers) -> bool:
    """Whether every ranker of ``rankers=`` takes missing values (:func:`ranker_allows_nan`);
    False for a value that is no list of rankers.

    Parameters
    ----------
    rankers : object
        The ``rankers`` parameter of a selector.

    Returns
    -------
    bool
    """
    items = ranker_items(rankers)
    return bool(items) and all(ranker_allows_nan(r) for r in items)


def _takes_seed(func) -> bool:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return False
    return "random_state" in sig.parameters


def _resolve_one(spec, i: int) -> RankerSpec:
    from ..rankers import estimator_ranker, get_ranker, list_producer, ranker_info

    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        name, params = spec
        if not isinstance(params, dict):
            raise TypeError(f"rankers[{i}]: the parameters of {name!r} must be a dict, "
                            f"got {type(params).__name__}")
        func = list_producer(name) or get_ranker(name)
        try:  # the ranker's declared constraints (docs/design.md, 'Parameters')
            validate_params(ranker_info(name).constraints, params)
        except (TypeError, ValueError) as err:
            raise type(err)(f"rankers[{i}] ({name!r}): {err}") from None
        return RankerSpec(name, func, dict(params), _takes_seed(func))
    if isinstance(spec, str):
        func = list_producer(spec) or get_ranker(spec)
        return RankerSpec(spec, func, {}, _takes_seed(func))
    if hasattr(spec, "fit") and hasattr(spec, "get_params"):
        takes = "random_state" in spec.get_params()
        return RankerSpec(type(spec).__name__, estimator_ranker(spec, allow_missing=True), {},
                          takes)
    if callable(spec):
        name = getattr(spec, "__name__", None)
        if not name or name == "<lambda>":
            name = f"ranker{i}"
        return RankerSpec(name, spec, {}, _takes_seed(spec))
    raise TypeError(
        f"rankers[{i}] must be a registered ranker name, a (name, params) pair, a score "
        f"function f(X, y) or an estimator with coef_ / feature_importances_; got "
        f"{type(spec).__name__}"
    )


def resolve_rankers(rankers) -> list[RankerSpec]:
    """Resolve the ``rankers`` parameter; names repeated get ``#2``, ``#3`` suffixes."""
    single_pair = (isinstance(rankers, tuple) and len(rankers) == 2
                   and isinstance(rankers[0], str) and isinstance(rankers[1], dict))
    if isinstance(rankers, str) or single_pair or callable(rankers) or hasattr(rankers, "fit"):
        rankers = [rankers]
    try:
        items = list(rankers)
    except TypeError:
        raise TypeError(f"rankers must be a sequence of rankers, got {type(rankers).__name__}"
                        ) from None
    if not items:
        raise ValueError("rankers must hold at least one ranker")
    out, seen = [], {}
    for i, spec in enumerate(items):
        r = dataclasses.replace(_resolve_one(spec, i), takes_sparse=ranker_takes_sparse(spec))
        seen[r.name] = seen.get(r.name, 0) + 1
        if seen[r.name] > 1:
            r = dataclasses.replace(r, name=f"{r.name}#{seen[r.name]}")
        out.append(r)
    return out


def set_ranker_cache(max_entries: int | None = 512) -> None:
    """Switch the process-wide ranker memo on (``max_entries`` score vectors, at most
    :data:`MEMO_MAX_BYTES` in all) or off and empty (None); see :func:`ranker_cache`."""
    if max_entries is None:
        _MEMO["global"] = False
        if not _MEMO["on"]:
            _MEMO["store"].clear()
        return
    if isinstance(max_entries, bool) or not isinstance(max_entries, int) or max_entries < 1:
        raise ValueError(f"max_entries must be an int >= 1 or None, got {max_entries!r}")
    _MEMO["global"] = True
    _MEMO["max"] = max_entries


@contextlib.contextmanager
def ranker_cache(max_entries: int = 512):
    """Inside this block, a registered ranker called again with the same parameters (seed
    included) on equal data returns its earlier scores instead of recomputing them.

    Rankers are deterministic functions of their parameters, seed and data (docs/design.md,
    'Seeds'), so the numbers do not change; only the time does. The experiment runner switches
    it on for its whole process (:func:`set_ranker_cache`): every method of a grid ranks the
    same training parts with the same rankers. Only registered rankers (functions of
    :mod:`rankfusion.rankers`) returning one score vector are cached; user callables,
    estimators and list producers never are. Yields a dict whose ``hits`` and ``misses`` are
    filled when the block ends. The memo is emptied when the last user lets go of it.
    """
    if isinstance(max_entries, bool) or not isinstance(max_entries, int) or max_entries < 1:
        raise ValueError(f"max_entries must be an int >= 1, got {max_entries!r}")
    _MEMO["on"] += 1
    _MEMO["max"] = max_entries
    stats = {"hits": 0, "misses": 0}
    h0, m0 = _MEMO["hits"], _MEMO["misses"]
    try:
        yield stats
    finally:
        stats.update(hits=_MEMO["hits"] - h0, misses=_MEMO["misses"] - m0)
        _MEMO["on"] -= 1
        if _MEMO["on"] == 0 and not _MEMO["global"]:
            _MEMO["store"].clear()


def _memo_key(spec: RankerSpec, params: dict, X, y):
    func = spec.func
    module = getattr(func, "__module__", "") or ""
    if not (_MEMO["on"] or _MEMO["global"]) or not module.startswith("rankfusion.rankers"):
        return None
    if type(X).__module__.startswith("scipy.sparse"):  # data_digest hashes dense arrays only
        return None
    try:
        ptxt = repr(sorted(params.items()))
    except TypeError:
        return None
    return (module, getattr(func, "__qualname__", repr(func)), ptxt, data_digest(X, y))


def run_ranker(spec: RankerSpec, X, y, seed, p: int, list_name: str, *, kernel=None):
    """Call one ranker; return a float array of p scores or a ``RankedLists`` of p features.

    ``kernel``: the ranker's prepared kernel (:func:`rankfusion.rankers.prepared_kernel`, the
    same scores without the per-call validation), used when the memo is off; where it returns
    None the ranker itself is called. Errors name the ranker and the list (``relieff@b17``)."""
    params = dict(spec.params)
    if spec.takes_seed and "random_state" not in params:
        params["random_state"] = seed_int(np.random.default_rng(seed), bits=31)
    key = _memo_key(spec, params, X, y)
    if key is not None and key in _MEMO["store"]:
        _MEMO["hits"] += 1
        _MEMO["store"].move_to_end(key)
        return _MEMO["store"][key].copy()
    out = None
    if kernel is not None and key is None and not params:
        out = kernel(X, y)
    try:
        if out is None:
            out = spec.func(X, y, **params)
    except (ValueError, TypeError, ArithmeticError, IndexError, KeyError) as exc:
        raise ValueError(f"ranker {spec.name!r} failed on list {list_name!r}: {exc}") from exc
    if isinstance(out, tuple):
        out = out[0]
    if isinstance(out, RankedLists):
        if out.n_features != p:
            raise ValueError(f"ranker {spec.name!r} returned lists of {out.n_features} features "
                             f"for {p} on list {list_name!r}")
        return out
    try:
        scores = np.asarray(out, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"ranker {spec.name!r} returned {type(out).__name__}, not scores, on "
                        f"list {list_name!r}") from exc
    if scores.shape[0] != p:
        raise ValueError(f"ranker {spec.name!r} returned {scores.shape[0]} scores for {p} "
                         f"features on list {list_name!r}")
    if not np.isfinite(scores).all():
        bad = int(np.flatnonzero(~np.isfinite(scores))[0])
        raise ValueError(f"ranker {spec.name!r} returned a non-finite score ({scores[bad]}) for "
                         f"feature {bad} on list {list_name!r}")
    if key is not None:
        _MEMO["misses"] += 1
        _MEMO["store"][key] = scores.copy()
        while len(_MEMO["store"]) > _MEMO["max"] or (
                len(_MEMO["store"]) > 1
                and sum(v.nbytes for v in _MEMO["store"].values()) > MEMO_MAX_BYTES):
            _MEMO["store"].popitem(last=False)
    return scores


def _probe_data(n_per_class: int):
    """A small two-class data set for :func:`check_ranker_params`: three non-negative features
    (``chi2`` needs counts), the first informative, the others uniform noise."""
    rng = np.random.default_rng(12345)
    y = np.repeat([0, 1], n_per_class)
    X = rng.uniform(size=(y.shape[0], 3))
    X[:, 0] += y
    return X, y


def _names_a_parameter(message: str, params) -> bool:
    import re

    return any(re.search(rf"(?<![\w]){re.escape(str(k))}(?![\w])", message) for k in params)


def check_ranker_params(name: str, params: dict | None = None) -> None:
    """Check a registered ranker's parameter values by the ranker's own checks, before any
    real work (an experiment's ``--dry-run``).

    The ranker runs once on a small made-up data set (2 classes × 20 rows, 3 features), which
    costs milliseconds and reaches every check the ranker makes of its parameters, wherever
    it makes them. A failure counts only if its message names one of ``params``, and only if
    the ranker also fails on a ten times larger made-up set: a limit that depends on the data
    (more neighbours than rows) is left to the real data.

    Parameters
    ----------
    name : str
        A registered ranker or list producer (:func:`rankfusion.rankers.available_rankers`).
    params : dict, optional
        Its keyword parameters.

    Raises
    ------
    ValueError, TypeError
        The declared constraints' error (docs/design.md, 'Parameters'), else the ranker's own
        error for a value it refuses.

    Examples
    --------
    >>> check_ranker_params("relieff", {"n_neighbors": 5})
    >>> check_ranker_params("relieff", {"n_neighbors": -3})
    Traceback (most recent call last):
    ...
    ValueError: n_neighbors must be an int ≥ 1, got -3
    """
    from ..rankers import ranker_info

    params = dict(params or {})
    if not params:
        return
    validate_params(ranker_info(name).constraints, params)
    spec = _resolve_one((name, params), 0)
    if spec.takes_seed and "random_state" not in params:
        params["random_state"] = 0
    first = None
    for n_per_class in (20, 200):
        X, y = _probe_data(n_per_class)
        try:
            spec.func(X, y, **params)
            return
        except (ValueError, TypeError) as exc:
            if not _names_a_parameter(str(exc), spec.params):
                return  # about the made-up data, not the parameters
            first = first or exc
        except Exception:  # noqa: BLE001 - anything else is the real data's business
            return
    raise first
