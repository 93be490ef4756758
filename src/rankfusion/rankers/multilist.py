"""Rankers that give several lists: the :class:`MultiListRanker` protocol.

A registered ranker gives one list per call: ``ranker(X, y, **params)`` returns one score per
feature (higher = better). Some rankers are built from several binary problems and can also
give *one list per problem* — SVM-RFE on a multiclass problem gives one ranking per
one-vs-one (or one-vs-all) problem. Such a ranker registers a *list producer* next to its
scores function: a callable of the :class:`MultiListRanker` protocol,
``producer(X, y, **params) -> RankedLists``, whose lists are named ``"<ranker>[<problem>]"``
(e.g. ``"svm_rfe[ALL vs AML]"``).

An ensemble selector asks :func:`ranker_lists` for the lists of a ranker: the producer's
lists when the ranker has one (and ``expand=True``), otherwise the ranker's single list named
after it. Combining the lists is the selection layer's job; rankers never aggregate.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np

from .._utils.validation import check_bool
from ..lists import RankedLists
from ._registry import RANKERS, ranker_info

__all__ = ["MultiListRanker", "register_list_producer", "list_producer",
           "available_list_producers", "ranker_lists"]


@runtime_checkable
class MultiListRanker(Protocol):
    """A producer of several lists: ``producer(X, y, **params) -> RankedLists``.

    The returned lists cover every feature of ``X`` (in column order) and are named
    ``"<ranker>[<problem>]"``; their scores are higher = better.

    Parameters
    ----------
    *args
        ``X, y``: the features and the class labels, as a ranker takes them.
    **kwargs
        The producer's own parameters (those of the ranker it belongs to).
    """

    def __call__(self, X, y, **params) -> RankedLists: ...


def register_list_producer(name: str) -> Callable[[Callable], Callable]:
    """Decorator registering the list producer of the ranker registered as ``name``.

    The producer is kept on the ranker's registry entry (tags ``multilist=True`` and ``lists``,
    the producer), so that the ranker's aliases find it too.

    Parameters
    ----------
    name : str
        A registered ranker's name.

    Returns
    -------
    callable
        The decorator; it returns the producer unchanged.
    """

    def deco(func: Callable) -> Callable:
        if not isinstance(name, str):
            raise TypeError(f"name must be a ranker name (str), got {type(name).__name__}")
        if ranker_info(name).tags.get("multilist"):
            raise ValueError(f"ranker {name!r} already has a list producer")
        RANKERS.tag(name, multilist=True, lists=func)
        return func

    return deco


def available_list_producers() -> list[str]:
    """Names of the rankers that can give several lists."""
    return [n for n in RANKERS.available() if RANKERS.get(n).tags.get("multilist")]


def list_producer(name: str) -> MultiListRanker | None:
    """The list producer of ranker ``name``, or None when it gives one list only.

    An unknown ranker name raises ``ValueError`` listing the known ones.

    Parameters
    ----------
    name : str
        A registered ranker's name.

    Returns
    -------
    MultiListRanker or None
    """
    return ranker_info(name).tags.get("lists")  # an unknown name lists the known ones


def ranker_lists(name: str, X, y, *, expand: bool = True, **params) -> RankedLists:
    """The lists ranker ``name`` gives on ``X, y``.

    Parameters
    ----------
    name : str
        A registered ranker (:func:`rankfusion.rankers.available_rankers`).
    X, y
        The data, as the ranker takes them.
    expand : bool, default=True
        Ask a multi-list ranker (:func:`available_list_producers`) for its several lists. With
        False, or for a single-list ranker, the result is the ranker's one list, named ``name``.
    **params
        The ranker's (or its producer's) parameters.

    Returns
    -------
    RankedLists
        Features × lists; the features are ``X``'s column names (a DataFrame) or
        ``x0 … x{p-1}``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True)
    >>> ranker_lists("svm_rfe", X, y).list_names.tolist()
    ['svm_rfe[0 vs 1]', 'svm_rfe[0 vs 2]', 'svm_rfe[1 vs 2]']
    >>> ranker_lists("svm_rfe", X, y, expand=False).list_names.tolist()
    ['svm_rfe']
    """
    expand = check_bool(expand, "expand")
    entry = ranker_info(name)
    ranker, producer = entry.func, entry.tags.get("lists")
    if expand and producer is not None:
        return producer(X, y, **params)
    scores = np.asarray(ranker(X, y, **params), dtype=np.float64)
    columns = getattr(X, "columns", None)
    features = ([str(c) for c in columns] if columns is not None
                else [f"x{j}" for j in range(scores.shape[0])])
    return RankedLists.from_scores(scores[:, None], features=features, list_names=[name])
