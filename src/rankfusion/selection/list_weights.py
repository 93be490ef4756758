"""The weights of an ensemble's lists: given, per ranker, or from each list's accuracy.

A rule that takes list weights (``borda``, ``mean_score``, ``kemeny``, ``ga``, …) counts list
j with weight w_j. :class:`~rankfusion.EnsembleSelector`'s ``list_weights`` gives them as one
number per list, as one number per ranker (a dict: every list of the ranker gets it), or as a
named accuracy weighting, acc_j being the mean ``cv``-fold cross-validated accuracy of a
classifier trained on list j's top k features (:func:`list_accuracies`):

* ``"accuracy"`` — the weighting of Bouaguel, Ben Brahim & Limam (2013), in which a list
  counts as much as the features it ranks first classify, ``w_j = acc_j / Σ_m acc_m``.
  Bouaguel et al. state only that the lists' importance is "based on their corresponding
  classification accuracy" and enters the objective as ``Σ_i w_i D(σ, L_i)`` (their eq. 1);
  they give no formula for w_i, and normalised accuracies are its plain reading. Accuracies
  that all lie near each other (0.90–0.95 on breast cancer) give nearly uniform weights
  (0.199–0.203 for five lists), so the weighting then changes little;
* ``"accuracy_above_chance"`` — ``w_j ∝ max(acc_j − c, 0)``, c the chance accuracy, the
  majority-class rate ``max_k n_k / n`` of y: only what a list adds over always predicting
  the largest class counts. When no list beats chance the weights are uniform (a
  ``UserWarning`` says so);
* ``"accuracy_softmax"`` or ``"accuracy_softmax:T"`` — ``w_j ∝ exp(acc_j / T)``, temperature
  T > 0 in accuracy units (default 0.01: one point of accuracy multiplies the weight by e);
  T → ∞ gives uniform weights, T → 0 all the weight to the best list(s);
* ``"accuracy_rank"`` — ``w_j ∝ rank_j``, the rank of acc_j among the lists (1 = lowest; tied
  accuracies share their mean rank), i.e. ``w_j = 2 rank_j / (M (M + 1))``: the spread no
  longer depends on how close the accuracies are.

Whatever their source, the weights are normalised to sum 1 (docs/design.md, 'List weights').
"""

from __future__ import annotations

import numbers
import warnings

import numpy as np

from .._utils.constraints import Check
from .._utils.seeding import seed_int
from .._utils.validation import real_array
from .regression import list_r2, r2_weights
from .resampling import cv_folds
from .subset_size import evaluate_prefixes

__all__ = ["accuracy_weights", "list_accuracies", "weights_from_accuracies",
           "list_r2", "regression_list_weights",
           "chance_accuracy", "parse_weighting", "resolve_list_weights",
           "WEIGHTS_CONSTRAINT", "NAMED_WEIGHTS_CONSTRAINT", "ACCURACY_WEIGHTINGS"]

#: The named accuracy weightings of ``list_weights=`` (``"accuracy_softmax"`` also as
#: ``"accuracy_softmax:T"``).
ACCURACY_WEIGHTINGS = ("accuracy", "accuracy_above_chance", "accuracy_softmax", "accuracy_rank")

#: The softmax temperature when ``"accuracy_softmax"`` names none.
DEFAULT_TEMPERATURE = 0.01


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


def parse_weighting(value) -> tuple[str, float | None]:
    """``(name, temperature)`` of a named accuracy weighting; a clear error otherwise.

    Parameters
    ----------
    value : str
        One of :data:`ACCURACY_WEIGHTINGS`, or ``"accuracy_softmax:T"`` with T > 0.

    Returns
    -------
    tuple of (str, float or None)
        The weighting's name and, for the softmax, its temperature.
    """
    msg = ("list_weights must be None, one of 'accuracy', 'accuracy_above_chance', "
           "'accuracy_rank', 'accuracy_softmax', 'accuracy_softmax:T' (T > 0), a dict or one "
           f"number per list, got {value!r}")
    if not isinstance(value, str):
        raise TypeError(msg)
    name, sep, arg = value.partition(":")
    if name not in ACCURACY_WEIGHTINGS or (sep and name != "accuracy_softmax"):
        raise ValueError(msg)
    if name != "accuracy_softmax":
        return name, None
    if not sep:
        return name, DEFAULT_TEMPERATURE
    try:
        t = float(arg)
    except ValueError:
        raise ValueError(msg) from None
    if not (np.isfinite(t) and t > 0):
        raise ValueError(f"list_weights='accuracy_softmax:T' needs a temperature T > 0, got "
                         f"{arg!r}")
    return name, t


def _is_named_weighting(value) -> bool:
    try:
        parse_weighting(value)
    except (TypeError, ValueError):
        return False
    return True


#: ``list_weights=`` as a named accuracy weighting (:data:`ACCURACY_WEIGHTINGS`, or
#: ``"accuracy_softmax:T"``).
NAMED_WEIGHTS_CONSTRAINT = Check(
    _is_named_weighting, "'accuracy', 'accuracy_above_chance', 'accuracy_rank', "
    "'accuracy_softmax' or 'accuracy_softmax:T' (T > 0)",
    kind=lambda v: isinstance(v, str), toml="str")


def weights_from_accuracies(acc, weighting: str = "accuracy", *, chance=None) -> np.ndarray:
    """List weights (summing to 1) from the lists' accuracies, by a named weighting.

    Parameters
    ----------
    acc : array-like of shape (M,)
        Each list's accuracy, in [0, 1].
    weighting : str, default "accuracy"
        ``"accuracy"`` (``acc / Σ acc``), ``"accuracy_above_chance"`` (``∝ max(acc − chance,
        0)``, uniform when no list beats chance), ``"accuracy_softmax[:T]"``
        (``∝ exp(acc / T)``) or ``"accuracy_rank"`` (``∝`` the rank of acc, 1 = lowest,
        average ranks for ties); module docstring.
    chance : float, optional
        The chance accuracy (``"accuracy_above_chance"`` only, where it is required).

    Returns
    -------
    ndarray of shape (M,)

    Raises
    ------
    ValueError
        An unknown weighting, accuracies outside [0, 1] or not finite, every accuracy 0 with
        ``"accuracy"``, a missing or invalid ``chance``.
    """
    name, temperature = parse_weighting(weighting)
    acc = real_array(np.asarray(acc, dtype=object), "acc")
    if acc.ndim != 1 or acc.size == 0:
        raise ValueError(f"acc must be one accuracy per list (1-D, non-empty), got shape "
                         f"{acc.shape}")
    if not np.isfinite(acc).all() or (acc < 0).any() or (acc > 1).any():
        raise ValueError(f"acc must be accuracies in [0, 1], got {acc.tolist()}")
    if name == "accuracy":
        if not (acc > 0).any():
            raise ValueError("list_weights='accuracy': every list's accuracy is 0")
        return acc / acc.sum()
    if name == "accuracy_above_chance":
        if chance is None or isinstance(chance, (bool, np.bool_)) or not isinstance(
                chance, numbers.Real) or not 0 <= float(chance) <= 1:
            raise ValueError(f"chance must be a number in [0, 1], got {chance!r}")
        gain = np.maximum(acc - float(chance), 0.0)
        if not (gain > 0).any():
            warnings.warn("list_weights='accuracy_above_chance': no list's accuracy is above "
                          f"chance ({float(chance):.4g}); the weights are uniform",
                          UserWarning, stacklevel=2)
            return np.full(acc.size, 1.0 / acc.size)
        return gain / gain.sum()
    if name == "accuracy_softmax":
        z = np.exp((acc - acc.max()) / temperature)  # shifted: the same weights, no overflow
        return z / z.sum()
    from scipy.stats import rankdata

    r = rankdata(acc, method="average")
    return r / r.sum()


def chance_accuracy(y) -> float:
    """The majority-class rate ``max_k n_k / n`` of ``y``: the accuracy of always predicting
    the largest class.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels.

    Returns
    -------
    float
    """
    _, counts = np.unique(np.asarray(y), return_counts=True)
    return float(counts.max() / counts.sum())


def list_accuracies(lists, X, y, estimator, k: int, folds) -> np.ndarray:
    """Each list's accuracy ``acc_j``: the mean over ``folds`` of ``estimator`` fitted on the
    fold's training rows restricted to list j's top ``k`` features (ties in a list's positions
    by the lower feature index) and scored on its test rows
    (``rankfusion.selection.subset_size.evaluate_prefixes``).

    Parameters
    ----------
    lists : RankedLists
        The lists.
    X : ndarray or DataFrame of shape (n_samples, n_features)
        The features the lists rank.
    y : ndarray of shape (n_samples,)
        The class labels.
    estimator : classifier
        The classifier scored.
    k : int
        How many of each list's first features it sees.
    folds : list of (ndarray, ndarray)
        The (train, test) rows of each fold.

    Returns
    -------
    ndarray of shape (n_lists,)
    """
    acc = np.empty(lists.n_lists)
    pos = lists.positions
    for j in range(lists.n_lists):
        order = np.lexsort((np.arange(pos.shape[0]), pos[:, j]))
        curve = evaluate_prefixes(X, y, folds, [order] * len(folds), {"estimator": estimator},
                                  [k])
        acc[j] = float(curve["mean"].iloc[0])
    return acc


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
    acc = list_accuracies(lists, X, y, estimator, k, folds)
    if not (acc > 0).any():
        raise ValueError("list_weights='accuracy': every list's accuracy is 0")
    return acc / acc.sum()


def resolve_list_weights(list_weights, lists, groups: dict, X, y, estimators: dict, k: int, *,
                         cv: int = 5, stratify: bool = True, random_state=None):
    """The normalised weights of ``lists`` from an :class:`~rankfusion.EnsembleSelector`'s
    ``list_weights``.

    Parameters
    ----------
    list_weights : None, str, array-like or dict
        None: no weights; ``"accuracy"``: :func:`accuracy_weights` with the first of
        ``estimators`` on ``cv`` shuffled folds; another named weighting
        (:data:`ACCURACY_WEIGHTINGS`, ``"accuracy_softmax:T"``): the same accuracies through
        :func:`weights_from_accuracies` (chance = the majority-class rate of ``y``); an array:
        one weight per list; a dict: ranker name → the weight of each of its lists (every
        ranker of ``groups`` needs one).
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
    if isinstance(lw, str):  # a named accuracy weighting
        name, _ = parse_weighting(lw)
        folds = cv_folds(y, cv, stratify=stratify, random_state=seed_int(random_state, bits=31))
        est = next(iter(estimators.values()))
        if name == "accuracy":  # the paper's, unchanged
            return accuracy_weights(lists, X, y, est, k, folds)
        acc = list_accuracies(lists, X, y, est, k, folds)
        return weights_from_accuracies(acc, lw, chance=chance_accuracy(y))
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


def regression_list_weights(list_weights: str, lists, X, y, estimator, k: int,
                            folds) -> np.ndarray:
    """The named accuracy weightings for a numeric target (docs/design.md, 'Tasks'), from each
    list's cross-validated R² (:func:`list_r2`), the regression analogue of its accuracy:

    * ``"accuracy"`` — ``w_j = max(R²_j, 0) / Σ max(R²_m, 0)``
      (:func:`rankfusion.selection.regression.r2_weights`, Bouaguel et al.'s weighting with
      R² for the accuracy);
    * ``"accuracy_above_chance"`` — the chance level of R² is 0 (predicting the training
      mean), so ``w_j ∝ max(R²_j − 0, 0)``: the same weights as ``"accuracy"``, except that
      when no list beats the mean the weights are uniform (with a warning) instead of an
      error;
    * ``"accuracy_softmax[:T]"`` — ``w_j ∝ exp(R²_j / T)`` (R² may be negative);
    * ``"accuracy_rank"`` — ``w_j ∝ rank_j`` of R²_j among the lists (1 = lowest, ties
      share their mean rank).

    Parameters
    ----------
    list_weights : str
        One of :data:`ACCURACY_WEIGHTINGS` or ``"accuracy_softmax:T"``.
    lists : RankedLists
    X : ndarray or DataFrame, numeric
    y : ndarray, the numeric target
    estimator : regressor
    k : int
        The top-k size each list is scored on.
    folds : list of (train, test)
        Plain K-fold rows (:func:`rankfusion.selection.regression.regression_folds`).

    Returns
    -------
    ndarray of shape (n_lists,)
        Weights summing to 1.
    """
    name, temperature = parse_weighting(list_weights)
    if name == "accuracy":

        return r2_weights(lists, X, y, estimator, k, folds)
    r2 = list_r2(lists, X, y, estimator, k, folds)
    if name == "accuracy_above_chance":
        gain = np.maximum(r2, 0.0)
        if not (gain > 0).any():
            warnings.warn("list_weights='accuracy_above_chance' with task='regression': no "
                          "list's R² is above 0 (the mean's); the weights are uniform",
                          UserWarning, stacklevel=2)
            return np.full(r2.size, 1.0 / r2.size)
        return gain / gain.sum()
    if name == "accuracy_softmax":
        z = np.exp((r2 - r2.max()) / temperature)
        return z / z.sum()
    from scipy.stats import rankdata

    r = rankdata(r2, method="average")
    return r / r.sum()
