"""Constant and all-missing columns come last in every ranker (docs/design.md, 'Rankers').

A column whose values are all equal (a constant, no value missing), or that has no observed
value at all (entirely NaN), carries no information about any target. (A column constant among
its observed values with some missing is left to the ranker: under Weka's ``-M``, missing as a
value of its own, it carries the pattern of the missing values.) Measures do not always say so:
a greedy redundancy criterion gives it a zero redundancy that beats every redundant informative
feature, ReliefF's 0 beats a noise feature's negative weight, a k-NN estimate adds jitter. So
every registered ranker is wrapped (:func:`rank_degenerate_last`, applied by
:func:`~rankfusion.rankers.register_ranker`): after the ranker has scored the data, such a
column's score is lowered, where it is above it, to the lowest score of the other columns (so
it is never ranked above any of them; a measure's natural 0 below every positive score stays
as it is), and one ``UserWarning`` names them. A ranker whose scores are positions of a
greedy order (registry tag ``greedy``) keeps its form ``p − position``: the other columns keep
their order and the degenerate ones follow.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np

__all__ = ["degenerate_columns", "column_names", "rank_degenerate_last", "greedy_scores",
           "demote_degenerate"]


def _dense_mask(a: np.ndarray) -> np.ndarray:
    missing = np.isnan(a)
    empty = missing.all(axis=0)
    with warnings.catch_warnings(), np.errstate(invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # the all-NaN columns
        lo = np.nanmin(a, axis=0)
        hi = np.nanmax(a, axis=0)
    return empty | ((lo == hi) & ~missing.any(axis=0))


def degenerate_columns(X) -> np.ndarray | None:
    """Which columns of ``X`` are constant (none missing) or entirely missing.

    Parameters
    ----------
    X : array-like, DataFrame or scipy.sparse matrix of shape (n, p)
        Data a ranker has accepted (so already checked).

    Returns
    -------
    ndarray of bool, shape (p,), or None
        None when ``X`` has no samples or is not two-dimensional.
    """
    from .._utils.lazy import is_pandas
    from .._utils.sparse import is_sparse

    if is_sparse(X) and not is_pandas(X):
        from .sparse_ridge import sparse_moments

        if X.shape[0] == 0:
            return None
        return sparse_moments(X)[2]
    if is_pandas(X):  # pandas is imported only for data that came as a frame (fast CLI start)
        if X.shape[0] == 0:
            return None
        return np.array([X.iloc[:, j].nunique(dropna=False) <= 1 for j in range(X.shape[1])],
                        dtype=bool)
    from .._utils.data import ClassificationData

    if isinstance(X, ClassificationData):  # prepared data: codes and values, NaN = missing
        return None if X.n_samples == 0 else _dense_mask(X.values)
    a = np.asarray(X)
    if a.ndim != 2 or a.shape[0] == 0:
        return None
    if a.dtype.kind in "biuf":
        return _dense_mask(a.astype(np.float64, copy=False))
    import pandas as pd

    return degenerate_columns(pd.DataFrame(a))


def column_names(X, columns) -> list[str]:
    """The names of ``columns`` of ``X`` as :func:`~rankfusion.rankers.rank_features` names
    features: a DataFrame's column names, a sparse reader's ``feature_names``, else
    ``x<index>``."""
    from .._utils.lazy import is_pandas

    if is_pandas(X):
        return [str(X.columns[j]) for j in columns]
    names = getattr(X, "feature_names", None)
    if names is not None and len(names) > max(columns, default=-1):
        return [str(names[j]) for j in columns]
    return [f"x{j}" for j in columns]


def greedy_scores(order: np.ndarray) -> np.ndarray:
    """``p − position`` of each feature of a greedy ``order`` (the first scores ``p − 1``)."""
    p = order.size
    scores = np.empty(p)
    scores[order] = p - np.arange(1, p + 1)
    return scores


def demote_degenerate(scores: np.ndarray, mask: np.ndarray, greedy: bool = False
                      ) -> np.ndarray:
    """``scores`` with the columns of ``mask`` at or below every other (module docstring); a
    greedy ranker's ``p − position`` stays a permutation, the masked columns last."""
    out = np.array(scores, dtype=np.float64, copy=True)
    p = out.shape[0]
    if greedy and np.array_equal(np.sort(out), np.arange(p)):
        # p − position (CFS's "merit" form is not): the others keep their order, the
        # degenerate columns follow them in index order
        keep = np.flatnonzero(~mask)
        kept = keep[np.argsort(-out[keep], kind="stable")]
        return greedy_scores(np.concatenate([kept, np.flatnonzero(mask)]))
    out[mask] = np.minimum(out[mask], out[~mask].min())
    return out


def rank_degenerate_last(func, name: str, greedy: bool = False):
    """Wrap ranker ``func`` so that constant and all-missing columns come last (module
    docstring); the wrapper keeps the function's name, signature and docstring.

    Parameters
    ----------
    func : callable
        ``f(X, y, **params) -> scores``.
    name : str
        The ranker's registered name (for the warning).
    greedy : bool, default False
        The scores are ``p − position`` of a greedy order.

    Returns
    -------
    callable
    """

    @functools.wraps(func)
    def ranker(X, y, *args, **params):
        scores = func(X, y, *args, **params)
        s = np.asarray(scores, dtype=np.float64)
        if s.ndim != 1:
            return scores
        try:
            mask = degenerate_columns(X)
        except (TypeError, ValueError):  # pragma: no cover - X was accepted by the ranker
            return scores
        if mask is None or mask.shape[0] != s.shape[0] or not mask.any():
            return scores
        cols = np.flatnonzero(mask)
        shown = ", ".join(repr(c) for c in column_names(X, cols[:10]))
        more = f" and {cols.size - 10} more" if cols.size > 10 else ""
        if mask.all():
            warnings.warn(f"{name}: every column is constant or entirely missing ({shown}"
                          f"{more}): no feature carries information, all are tied",
                          UserWarning, stacklevel=2)
            return greedy_scores(np.arange(s.shape[0])) if greedy else np.zeros_like(s)
        warnings.warn(f"{name}: column(s) {shown}{more} are constant or entirely missing and "
                      "carry no information: ranked last", UserWarning, stacklevel=2)
        return demote_degenerate(s, mask, greedy)

    return ranker
