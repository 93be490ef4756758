"""Rank one data set with several registered rankers: ``rank_features(X, y, rankers)``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .._utils.sparse import ACCEPT_SPARSE, densify, is_sparse, sparse_refusal
from .._utils.task import as_class_labels, resolve_task
from .._utils.validation import check_positive_int
from ..lists import RankedLists
from ._registry import check_ranker_task, ranker_info

__all__ = ["rank_features"]


def _specs(rankers) -> list[tuple[str, dict]]:
    if isinstance(rankers, (str, tuple)):
        rankers = [rankers]
    if not isinstance(rankers, Sequence) or isinstance(rankers, (bytes, Mapping)):
        raise TypeError("rankers must be a ranker name, a (name, params) pair, or a list of "
                        f"them; got {type(rankers).__name__}")
    out = []
    for item in rankers:
        if isinstance(item, str):
            name, params = item, {}
        elif isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], Mapping):
            name, params = item[0], dict(item[1])
        else:
            raise TypeError(f"rankers must hold names or (name, params) pairs; got {item!r}")
        out.append((name, params))
    if not out:
        raise ValueError("rankers must name at least one ranker")
    return out


def rank_features(X, y, rankers, *, params: Mapping | None = None,
                  ties: str = "average", accept_sparse=False,
                  task: str = "auto") -> RankedLists:
    """Score the features of ``(X, y)`` with several registered rankers: one list per ranker.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n, p)
        The data (a DataFrame's categorical or text columns are nominal attributes).
    y : array-like of shape (n,)
        Class labels, or a numeric target for regression.
    rankers : str, (str, dict) or list of them
        Names from :func:`available_rankers` (aliases accepted), each optionally with its own
        parameters: ``["info_gain", ("relieff", {"n_neighbors": 5})]``.
    params : dict, optional
        Parameters shared by every ranker that takes them (a ranker's own parameters win).
        A parameter no ranker takes is an error.
    ties : {"average", "ordinal", "min"}
        Positions of tied scores (see :class:`~rankfusion.RankedLists`).
    accept_sparse : {False, "densify"}, default False
        A scipy.sparse ``X`` reaches the rankers tagged ``sparse`` as it is; for any other
        ranker it is refused (``False``, a ``TypeError`` naming the sparse-capable rankers)
        or densified once, within the memory check (``"densify"``; docs/design.md, 'Sparse
        input').
    task : {"auto", "classification", "regression"}, default "auto"
        What ``y`` is (:func:`~rankfusion._utils.task.resolve_task`, docs/design.md, 'Tasks'):
        ``"auto"`` refuses a whole-number target with many distinct values. Every ranker must
        support the task (a classification-only ranker asked for regression is a
        ``ValueError`` naming the regression rankers).

    Returns
    -------
    RankedLists
        Features × rankers, with the scores (higher = more relevant). A list is named as its
        ranker was given; a ranker given twice is named ``name(k=v, …)`` after its own
        parameters.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> X, y = load_iris(return_X_y=True, as_frame=True)
    >>> lists = rank_features(X, y, ["info_gain", "chi_square"])
    >>> lists.list_names.tolist(), lists.ranked_features("info_gain")[0]
    (['info_gain', 'chi_square'], 'petal length (cm)')
    """
    specs = _specs(rankers)
    shared = dict(params or {})
    entries = [ranker_info(name) for name, _ in specs]  # unknown names fail before any work
    task = resolve_task(y, task)
    for entry in entries:
        check_ranker_task(entry.name, task)
    if task == "classification":
        y = as_class_labels(y)
    for (_, own), entry in zip(specs, entries):
        bad = [k for k in own if not entry.accepts(k)]
        if bad:
            raise TypeError(f"ranker {entry.name!r} got unknown parameter(s) {bad}; its "
                            f"parameters: {', '.join(entry.params) or 'none'}")
    for key in shared:
        if not any(e.accepts(key) for e in entries):
            raise ValueError(f"parameter {key!r}: none of the rankers "
                             f"{', '.join(e.name for e in entries)} takes it")
    given = [name for name, _ in specs]
    names = list(given)
    for i, (name, own) in enumerate(specs):
        if given.count(name) > 1:
            names[i] = f"{name}({', '.join(f'{k}={v!r}' for k, v in own.items())})"
    if len(set(names)) < len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"rankers lists {dup!r} twice with the same parameters")
    if not any(accept_sparse is a or (isinstance(accept_sparse, str) and accept_sparse == a)
               for a in ACCEPT_SPARSE):
        raise ValueError(f"accept_sparse must be False or 'densify', got {accept_sparse!r}")
    sparse = is_sparse(X)
    if sparse and accept_sparse is False:
        dense_only = [e.name for e in entries if not e.tags.get("sparse", False)]
        if dense_only:
            raise sparse_refusal(f"ranker(s) {', '.join(dense_only)}")
    dense = None
    columns = []
    for (_, own), entry in zip(specs, entries):
        kw = {k: v for k, v in shared.items() if entry.accepts(k)}
        kw.update(own)
        data = X
        if sparse and not entry.tags.get("sparse", False):
            if dense is None:
                dense = densify(X)
            data = dense
        scores = np.asarray(entry.func(data, y, **kw), dtype=np.float64)
        columns.append(scores)
    p = columns[0].shape[0]
    check_positive_int(p, name="number of features")
    if isinstance(X, pd.DataFrame):
        features = [str(c) for c in X.columns]
    elif getattr(X, "feature_names", None) is not None:  # a sparse reader's matrix
        features = [str(c) for c in X.feature_names]
    else:
        features = [f"x{j}" for j in range(p)]
    return RankedLists.from_scores(np.column_stack(columns), ties, features=features,
                                   list_names=names)
