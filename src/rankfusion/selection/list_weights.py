"""The weights of an ensemble's lists: given, per ranker, or from each list's accuracy.

A rule that takes list weights (``borda``, ``mean_score``, ``kemeny``, ``ga``, …) counts list
j with weight w_j. :class:`~rankfusion.EnsembleSelector`'s ``list_weights`` gives them as one
number per list, as one number per ranker (a dict: every list of the ranker gets it), or as
``"accuracy"``: the weighting of Bouaguel, Ben Brahim & Limam (2013), in which a list counts as
much as the features it ranks first classify,

    w_j = acc_j / Σ_m acc_m,

acc_j the mean ``cv``-fold cross-validated accuracy of a classifier trained on list j's top k
features (:func:`accuracy_weights`). Whatever their source, the weights are normalised to sum 1.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._utils.constraints import Check
from .._utils.seeding import seed_int
from .._utils.validation import real_array
from .resampling import cv_folds
from .subset_size import evaluate_prefixes

__all__ = ["accuracy_weights", "resolve_list_weights", "WEIGHTS_CONSTRAINT"]


def _is_weight_array(value) -> bool:
    if isinstance(value, (str, bytes, dict, set, frozenset)):
        return False
    try:
        iter(value)
    except TypeError:
        return False
    return True


#: ``list_weights=`` as numbers, one per list (the constraint vocabulary, docs/design.md,
#: 'Parameters'); the numbers themselves are checked by :func:`resolve_list_weights`, which
#: knows how many lists there are.
WEIGHTS_CONSTRAINT = Check(_is_weight_array, "one weight per list (a list of numbers)",
                           toml="list")


def accuracy_weights(lists, X, y, estimator, k: int, folds) -> np.ndarray:
    """Bouaguel et al.'s (2013) accuracy weights: ``w_j = acc_j / Σ_m acc_m``.

    ``acc_j`` is the mean accuracy over ``folds`` of ``estimator`` fitted on each fold's
    training rows restricted to list j's top ``k`` features (ties in a list's positions by the
    lower feature index) and scored on its test rows
    (``rankfusion.selection.subset_size.evaluate_prefixes``).

    Parameters
    ----------
    lists : RankedLists
        The lists to weigh.
    X : ndarray or DataFrame of shape (n_samples, n_features)
        The features the lists rank.
    y : ndarray of shape (n_samples,)
        The class labels.
    estimator : classifier
        The classifier scored (wrapped for nominal columns and missing values as in the size
        search).
    k : int
        How many of each list's first features it sees.
    folds : list of (ndarray, ndarray)
        The (train, test) rows of each fold (``rankfusion.selection.resampling.cv_folds``).

    Returns
    -------
    ndarray of shape (n_lists,)
        The weights, summing to 1.

    Raises
    ------
    ValueError
        When every list's accuracy is 0.

    References
    ----------
    Bouaguel, Ben Brahim & Limam (2013), Feature selection by rank aggregation and genetic
    algorithms, KDIR 2013, 74–81.
    """
    acc = np.empty(lists.n_lists)
    pos = lists.positions
    for j in range(lists.n_lists):
        order = np.lexsort((np.arange(pos.shape[0]), pos[:, j]))
        curve = evaluate_prefixes(X, y, folds, [order] * len(folds), {"estimator": estimator},
                                  [k])
        acc[j] = float(curve["mean"].iloc[0])
    if not (acc > 0).any():
        raise ValueError("list_weights='accuracy': every list's accuracy is 0")
    return acc / acc.sum()


def resolve_list_weights(list_weights, lists, groups: dict, X, y, estimators: dict, k: int, *,
                         cv: int = 5, stratify: bool = True, random_state=None):
    """The normalised weights of ``lists`` from an :class:`~rankfusion.EnsembleSelector`'s
    ``list_weights``.

    Parameters
    ----------
    list_weights : None, "accuracy", array-like or dict
        None: no weights; ``"accuracy"``: :func:`accuracy_weights` with the first of
        ``estimators`` on ``cv`` shuffled folds; an array: one weight per list; a dict: ranker
        name → the weight of each of its lists (every ranker of ``groups`` needs one).
    lists : RankedLists
        The ensemble's lists.
    groups : dict of str → list of int
        The lists (columns) of each ranker.
    X : ndarray or DataFrame of shape (n_samples, n_features)
        The features (``"accuracy"`` only).
    y : ndarray of shape (n_samples,)
        The class labels (``"accuracy"`` only).
    estimators : dict of str → classifier
        The selector's classifiers; ``"accuracy"`` uses the first.
    k : int
        The top-k size of ``"accuracy"``.
    cv : int, default 5
        Folds of ``"accuracy"``.
    stratify : bool, default True
        Stratified folds.
    random_state : None, int or SeedSequence, default None
        The folds' shuffle (its 31-bit seed, ``rankfusion._utils.seeding.seed_int``).

    Returns
    -------
    ndarray of shape (n_lists,) or None
        Weights summing to 1, or None without weights.

    Raises
    ------
    ValueError, TypeError
        Unknown or missing rankers in a dict, a wrong number of weights, weights that are not
        finite and non-negative with one at least positive.
    """
    lw = list_weights
    M = lists.n_lists
    if lw is None:
        return None
    if isinstance(lw, str):  # "accuracy"
        folds = cv_folds(y, cv, stratify=stratify, random_state=seed_int(random_state, bits=31))
        return accuracy_weights(lists, X, y, next(iter(estimators.values())), k, folds)
    if isinstance(lw, dict):
        unknown = sorted(set(lw) - set(groups))
        if unknown:
            raise ValueError(f"list_weights names unknown ranker(s) {unknown}; rankers: "
                             f"{sorted(groups)}")
        w = np.zeros(M)
        for g, cols in groups.items():
            if g not in lw:
                raise ValueError(f"list_weights gives no weight for ranker {g!r}")
            v = lw[g]
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
                raise TypeError(f"list_weights must be numbers, got {v!r} for ranker {g!r}")
            w[cols] = float(v)
    else:
        w = real_array(np.asarray(lw, dtype=object), "list_weights")
        if w.ndim != 1:
            raise TypeError("list_weights must be None, 'accuracy', a dict or one number "
                            f"per list (1-D), got shape {w.shape}")
        if w.shape[0] != M:
            raise ValueError(f"list_weights has {w.shape[0]} weights for {M} lists "
                             f"({', '.join(lists.list_names[:4])}, …)")
    if not np.isfinite(w).all() or (w < 0).any() or not (w > 0).any():
        raise ValueError("list_weights must be finite, non-negative and not all zero")
    return w / w.sum()
