"""Evaluation protocols: error curves over repeated random splits, k-fold cross-validation of a
selector with a classifier, and statistics of the positions given to relevant features.

Every protocol fits the selector (and tunes anything) on the training part of each split only:
the test rows reach nothing but ``predict`` (docs/design.md, 'Ensembles, subsets and evaluation').

Tasks (docs/design.md, 'Tasks'): every protocol takes ``task="auto"|"classification"|
"regression"`` (:func:`rankfusion._utils.task.resolve_task`; never guessed from an
integer-valued target with many values). A regression target is scored by a regressor
(default ``ridge``): the error curve's error is the test RMSE, cross-validation reports
``r2``, ``rmse`` and ``mae``; stratification becomes quantile-binned stratification of the
error curve's splits (:func:`regression_strata`) and plain shuffled ``KFold`` in
cross-validation.

Seeds (docs/design.md, 'Seeds'): one ``numpy.random.SeedSequence`` from ``random_state`` is
spawned into one child per split; each child seeds that split's partition, the selector and the
classifier (where their ``random_state`` is left at ``None``), so the results do not depend on
``n_jobs`` or on the order in which the splits run.

References
----------
Izetta, J., Verdes, P. F. & Granitto, P. M. (2017). Improved multiclass feature selection via
list combination. Expert Systems with Applications 88, 205-216 (§3: 100 random 75/25 splits,
error against the number of features; Tables 4-6: positions of the relevant features).
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import clone
from sklearn.metrics import (
    accuracy_score,
    f1_score,
    mean_absolute_error,
    precision_score,
    r2_score,
    recall_score,
    roc_auc_score,
)
from sklearn.model_selection import (
    KFold,
    ShuffleSplit,
    StratifiedKFold,
    StratifiedShuffleSplit,
)
from sklearn.pipeline import Pipeline

from .._utils.constraints import (
    Boolean,
    Check,
    InstanceOf,
    Interval,
    Jobs,
    Options,
    Seed,
    SequenceOf,
)
from .._utils.data import check_features, check_target
from .._utils.seeding import seed_int
from .._utils.task import TASKS, as_class_labels, check_regression_target, resolve_task
from .._utils.validation import check_bool, check_n_jobs, check_positive_int, check_seed
from ..aggregation import Consensus
from .classifiers import (
    classifier_accepts_nominal,
    default_estimator,
    encode_nominal,
    has_nominal_columns,
    make_classifier,
)
from .scores import (
    CLASSIFICATION_SCORES,
    REGRESSION_SCORES,
    check_score_estimator,
    check_scoring,
    score_estimator,
    score_label,
)

__all__ = [
    "ERROR_CURVE_CONSTRAINTS",
    "CROSS_VALIDATION_CONSTRAINTS",
    "ErrorCurveResult",
    "CrossValidationResult",
    "error_curve",
    "cross_validate_selection",
    "relevant_rank_stats",
    "selector_positions",
    "log_grid",
    "SCORINGS",
    "EXTRA_SCORINGS",
    "REGRESSION_SCORINGS",
    "REGRESSION_STRATA",
    "regression_strata",
]

#: The metrics of a classification task (the default of :func:`cross_validate_selection`).
SCORINGS = ("accuracy", "error", "precision", "recall", "f1", "roc_auc")
#: The further classification scores :func:`cross_validate_selection` computes when asked, from
#: scikit-learn's scorers (``rankfusion.evaluation.scores``): balanced accuracy, Matthews'
#: correlation, the log-loss negated and the one-vs-rest macro AUC (the advisor's ``roc_auc``).
EXTRA_SCORINGS = ("balanced_accuracy", "mcc", "neg_log_loss", "roc_auc_ovr")
#: The metrics of a regression task: R², root mean squared error, mean absolute error.
REGRESSION_SCORINGS = ("r2", "rmse", "mae")
#: The quantile bins of a numeric target that stratified splits keep balanced.
REGRESSION_STRATA = 5

_TASK = [Options(*TASKS)]
_CLASSIFIER = [InstanceOf(str, "a classifier name", toml="str"),
               Check(lambda c: hasattr(c, "fit") and hasattr(c, "predict"), "a classifier")]
_SEED = [None, Seed(), InstanceOf(np.random.SeedSequence, "a SeedSequence")]

#: The parameters of :func:`error_curve` (after the selector and the data), as data
#: (docs/design.md, 'Parameters'); the experiment config reads them for the keys of a
#: ``[protocols.X]`` table of kind ``"error_curve"``.
ERROR_CURVE_CONSTRAINTS = {
    "n_features": [None, SequenceOf(Interval("int", 1, None),
                                    description="a list of counts (ints ≥ 1)")],
    "classifier": _CLASSIFIER,
    "n_splits": [Interval("int", 2, None)],
    "test_size": [None, Interval("real", 0, 1, closed="neither"), Interval("int", 1, None)],
    "stratify": [Boolean()],
    "splits": [Options("random", "kfold")],
    "task": _TASK,
    "n_jobs": [None, Jobs()],
    "random_state": _SEED,
    "progress": [Boolean()],
    "scoring": [None, Options(*CLASSIFICATION_SCORES, *REGRESSION_SCORES)],
}

#: The parameters of :func:`cross_validate_selection` (after the selector and the data), as
#: data (docs/design.md, 'Parameters'); the experiment config reads them for the keys of a
#: ``[protocols.X]`` table of kind ``"cross_validation"``.
CROSS_VALIDATION_CONSTRAINTS = {
    "classifier": _CLASSIFIER,
    "cv": [Interval("int", 2, None)],
    "scoring": [SequenceOf(Options(*SCORINGS, *EXTRA_SCORINGS, *REGRESSION_SCORINGS),
                           description="a list of metrics (" + ", ".join(SCORINGS + EXTRA_SCORINGS)
                           + "; for regression " + ", ".join(REGRESSION_SCORINGS) + ")")],
    "pos_label": [None, InstanceOf(str, "a class label (str)", toml="str"),
                  InstanceOf(numbers.Integral, "a class label (int)", toml="int")],
    "task": _TASK,
    "n_jobs": [None, Jobs()],
    "random_state": _SEED,
    "progress": [Boolean()],
}


# --------------------------------------------------------------------------- helpers
def selector_positions(selector, n_features: int | None = None) -> np.ndarray:
    """The ranking of a fitted selector as positions (1 = best, no ties).

    Read from the first of these fitted attributes the selector has:

    1. ``positions_`` — positions, 1 = best (rankfusion's selectors);
    2. ``scores_`` — scores, higher = better (``SelectKBest``; NaN counts as worst);
    3. ``ranking_`` — RFE-style ranks, 1 = best (``RFE``, ``SVMRFE``);
    4. ``feature_importances_`` — higher = better;
    5. ``coef_`` — ``Σ_c |coef_[c, j]|`` over the rows, higher = better (as
       ``SelectFromModel``'s default norm).

    Ties (for instance the features that ``RFE`` keeps, all ranked 1) go to the lower feature
    index, so the result is a permutation of 1…p.

    Parameters
    ----------
    selector : fitted estimator
    n_features : int, optional
        The number of features it must rank (checked when given).

    Returns
    -------
    ndarray of int64, shape (p,)
    """
    for attr, higher_better in (("positions_", False), ("scores_", True), ("ranking_", False),
                                ("feature_importances_", True), ("coef_", True)):
        value = getattr(selector, attr, None)
        if value is None:
            continue
        key = np.asarray(value, dtype=np.float64)
        if attr == "coef_":
            key = np.abs(key).reshape(-1, key.shape[-1]).sum(axis=0)
        if key.ndim != 1:
            raise ValueError(f"{type(selector).__name__}.{attr} must be 1-D (one value per "
                             f"feature); got shape {key.shape}")
        key = -key if higher_better else key
        key = np.where(np.isnan(key), np.inf, key)
        break
    else:
        raise TypeError(
            f"cannot read a ranking from {type(selector).__name__}: a fitted selector needs "
            "positions_, scores_, ranking_, feature_importances_ or coef_")
    if n_features is not None and key.shape[0] != n_features:
        raise ValueError(f"{type(selector).__name__}.{attr} ranks {key.shape[0]} features, but "
                         f"X has {n_features}")
    order = np.argsort(key, kind="stable")
    pos = np.empty(key.shape[0], dtype=np.int64)
    pos[order] = np.arange(1, key.shape[0] + 1)
    return pos


def log_grid(p: int, num: int = 20) -> np.ndarray:
    """About ``num`` feature counts from 1 to p, evenly spaced on a log axis (as the papers'
    error curves), rounded to integers and deduplicated.

    Parameters
    ----------
    p : int
        The largest count (the number of features), ≥ 1.
    num : int, default 20
        How many counts to aim for (at most p).

    Returns
    -------
    ndarray of int64
        Increasing counts from 1 to p.

    Examples
    --------
    >>> log_grid(500, 10).tolist()
    [1, 2, 4, 8, 16, 32, 63, 126, 251, 500]
    """
    p = check_positive_int(p, name="p")
    num = check_positive_int(num, name="num")
    return np.unique(np.rint(np.geomspace(1, p, num=min(num, p))).astype(np.int64))


def _check_grid(n_features, p: int) -> np.ndarray:
    if n_features is None:
        return log_grid(p)
    if isinstance(n_features, (str, bytes)):
        raise TypeError("n_features must be a sequence of feature counts")
    if isinstance(n_features, numbers.Number):
        n_features = [n_features]
    grid = []
    for k in n_features:
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
            raise TypeError(f"n_features must hold ints (feature counts), got {k!r}")
        if not 1 <= k <= p:
            raise ValueError(f"n_features must lie in [1, {p}] (the number of features); "
                             f"got {k}")
        grid.append(int(k))
    if not grid:
        raise ValueError("n_features is empty")
    return np.unique(np.array(grid, dtype=np.int64))


def _check_test_size(test_size, n: int):
    if isinstance(test_size, (bool, np.bool_)) or not isinstance(test_size, numbers.Real):
        raise TypeError(f"test_size must be a float in (0, 1) or an int, got {test_size!r}")
    if isinstance(test_size, numbers.Integral):
        if not 1 <= test_size < n:
            raise ValueError(f"test_size as a count must lie in [1, {n - 1}], got {test_size}")
        return int(test_size)
    if not 0.0 < test_size < 1.0:
        raise ValueError(f"test_size as a fraction must lie in (0, 1), got {test_size}")
    return float(test_size)


def _rows(X, idx):
    return X.iloc[idx] if isinstance(X, pd.DataFrame) else X[idx]


def _cols(X, idx):
    return X.iloc[:, idx] if isinstance(X, pd.DataFrame) else X[:, idx]


def _seeded(est, seed: int):
    """A clone of ``est`` whose every ``random_state`` left at None is ``seed``.

    Nested ones too (``get_params(deep=True)``): a selector wrapped in a
    :class:`ZScoredSelector` or a classifier in a ``Pipeline`` is seeded like a bare one, so a
    wrapped estimator's randomness (liblinear's, a forest's) is fixed by the protocol's seed as
    well (docs/design.md, 'Seeds').
    """
    est = clone(est)
    try:
        params = est.get_params(deep=True)
    except Exception:  # pragma: no cover - not a scikit-learn estimator
        return est
    unset = {key: seed for key, value in params.items()
             if value is None and (key == "random_state" or key.endswith("__random_state"))}
    if unset:
        est.set_params(**unset)
    return est


def regression_strata(y, n_bins: int = REGRESSION_STRATA) -> np.ndarray:
    """Quantile-bin codes of a numeric target, for stratified splits of a regression task.

    The cut points are the ``j/n_bins`` quantiles of ``y`` (``j = 1 … n_bins − 1``, numpy's
    linear interpolation); a value equal to a cut point falls in the upper bin; bins left
    empty by tied values are dropped and the codes renumbered 0, 1, … in order of the target.
    Fewer bins are used when a bin would hold fewer than two samples, so that every stratum
    can be split.

    Parameters
    ----------
    y : array-like of float, shape (n,)
    n_bins : int, default :data:`REGRESSION_STRATA`

    Returns
    -------
    ndarray of int64, shape (n,)

    Examples
    --------
    >>> regression_strata([0.1, 0.5, 0.2, 0.9, 0.3, 0.7, 0.4, 0.8, 0.6, 1.0], n_bins=2)
    array([0, 0, 0, 1, 0, 1, 0, 1, 1, 1])
    """
    y = np.asarray(y, dtype=np.float64)
    n_bins = check_positive_int(n_bins, name="n_bins")
    for b in range(min(n_bins, max(y.shape[0] // 2, 1)), 0, -1):
        cuts = np.quantile(y, np.arange(1, b) / b)
        codes = np.unique(np.searchsorted(cuts, y, side="right"), return_inverse=True)[1]
        if np.bincount(codes).min() >= 2 or b == 1:
            return codes.astype(np.int64).reshape(-1)
    return np.zeros(y.shape[0], dtype=np.int64)  # pragma: no cover - loop returns at b = 1


def _check_inputs(X, y, task: str = "classification"):
    if isinstance(X, pd.DataFrame):
        check_features(X)
        Xv = X
        names = np.array([str(c) for c in X.columns], dtype=object)
    else:
        values, _, _, names = check_features(X)
        Xv = np.asarray(X)
        if Xv.dtype == object:
            Xv = values
    if task == "regression":
        yv = check_regression_target(y, Xv.shape[0])
        return Xv, yv, regression_strata(yv), None, names
    # many whole numbers taken as classes, as an explicit task="classification" asked: the
    # labels every classification step takes, in the values' order (docs/design.md, 'Tasks')
    y = as_class_labels(y)
    codes, classes = check_target(y, Xv.shape[0])
    yv = y.to_numpy() if isinstance(y, (pd.Series, pd.DataFrame)) else np.asarray(y)
    yv = yv.reshape(-1)
    return Xv, yv, codes, classes, names


def _estimator_for_task(classifier, task: str):
    """The estimator named or given for ``task`` (default :func:`default_estimator`),
    checked to serve that task before any work."""
    if classifier is None:
        return default_estimator(task)
    make_classifier(classifier, task=task)  # unknown names, the wrong kind: fail now
    return classifier


def _classifier_for(classifier, X, seed):
    est = make_classifier(classifier, random_state=seed)
    if not isinstance(classifier, str):
        est = _seeded(est, seed)
    if has_nominal_columns(X) and not classifier_accepts_nominal(classifier):
        est = encode_nominal(est)
    return est


def _check_selector(selector, *, needs_transform: bool = False):
    if not hasattr(selector, "fit"):
        raise TypeError(f"selector must be a scikit-learn style estimator with fit(); got "
                        f"{type(selector).__name__}")
    if needs_transform and not hasattr(selector, "transform"):
        raise TypeError(f"selector must have transform() (a SelectorMixin) to sit in a "
                        f"Pipeline; got {type(selector).__name__}")
    try:
        clone(selector)
    except Exception as exc:
        raise TypeError(f"selector cannot be cloned by scikit-learn: {exc}") from None


def _progress(iterable, total, enabled, desc):
    if not enabled:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, total=total, desc=desc)


# --------------------------------------------------------------------------- error curve
@dataclass(frozen=True)
class ErrorCurveResult:
    """Result of :func:`error_curve`.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    errors : DataFrame, splits × feature counts
        Test error of the classifier on the top-k features of each split's ranking (the
        RMSE of the regressor for a regression task), or the score asked for
        (``error_curve(scoring=…)``, higher is better): :attr:`metric` says which.
    positions : DataFrame, splits × features
        The ranking of each split's selector (1 = best), fitted on that split's training part.
    test_indices : list of ndarray
        The test rows of each split.
    n_train : int
        Rows of each split's training part (for the corrected t-test).
    n_test : int
        Rows of each split's test part.
    metric : str, default "error"
        What ``errors`` holds: ``"error"`` (the classification error rate), ``"rmse"``
        (the test root mean squared error of a regression task) or the name of a score of
        ``rankfusion.evaluation.scores`` (``"balanced_accuracy"``, ``"neg_log_loss"`` …).
    """

    errors: pd.DataFrame
    positions: pd.DataFrame
    test_indices: list = field(repr=False)
    n_train: int
    n_test: int
    metric: str = "error"

    @property
    def n_features(self) -> np.ndarray:
        return self.errors.columns.to_numpy()

    def summary(self) -> pd.DataFrame:
        """Mean and standard deviation (ddof = 1) of the error at each feature count."""
        return pd.DataFrame({"mean": self.errors.mean(axis=0),
                             "sd": self.errors.std(axis=0, ddof=1)})

    def plot(self, ax=None, *, label: str | None = None):
        """The mean error with SD bars on a log feature axis; returns the Figure.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Axes to draw on; default a new figure.
        label : str, optional
            The curve's legend label (default :attr:`metric`: "error" or "rmse").

        Returns
        -------
        matplotlib.figure.Figure
        """
        from .plots import plot_error_curves

        ylabel = {"rmse": "Test RMSE", "error": "Error rate"}.get(
            self.metric, f"Test {score_label(self.metric)} (higher is better)")
        return plot_error_curves({label or self.metric: self}, ax=ax, ylabel=ylabel)


def _one_split(selector, classifier, X, y, train, test, grid, seeds, regression=False,
               scoring=None):
    sel = _seeded(selector, int(seeds[1]))
    Xtr = _rows(X, train)
    sel.fit(Xtr, y[train])
    pos = selector_positions(sel, X.shape[1])
    order = np.argsort(pos, kind="stable")
    Xte = _rows(X, test)
    errs = np.empty(grid.shape[0])
    for i, k in enumerate(grid):
        top = order[:k]
        clf = _classifier_for(classifier, X, int(seeds[2]))
        clf.fit(_cols(Xtr, top), y[train])
        if scoring is not None:  # a named score, higher is better (rankfusion.evaluation.scores)
            if regression:
                from ..selection.subset_size import prediction_score

                errs[i] = prediction_score(scoring, y[test], clf.predict(_cols(Xte, top)))
            else:
                errs[i] = score_estimator(scoring, clf, _cols(Xte, top), y[test])
            continue
        pred = clf.predict(_cols(Xte, top))
        if regression:
            errs[i] = float(np.sqrt(np.mean((np.asarray(pred, dtype=np.float64)
                                             - y[test]) ** 2)))
        else:
            errs[i] = float(np.mean(pred != y[test]))
    return errs, pos


def error_curve(selector, X, y, *, n_features=None, classifier=None,
                n_splits: int = 100, test_size: float | int | None = None,
                stratify: bool = True, splits: str = "random", task: str = "auto",
                n_jobs: int | None = None, random_state=None,
                progress: bool = False, scoring: str | None = None) -> ErrorCurveResult:
    """Test error against the number of selected features over repeated random splits (or
    the folds of one K-fold partition).

    The protocol of Izetta et al. (2017, §3): for each of ``n_splits`` random partitions into
    training and test parts (stratified by default; the paper used plain random 75/25 splits,
    ``stratify=False``), ONE clone of ``selector`` is fitted on the training part and its
    ranking read with :func:`selector_positions`; then, for every k of the grid, a clone of the
    classifier is fitted on the training rows' top-k columns and its error measured on the test
    rows. Nothing about the test rows reaches the selector or the classifier's fit.

    Parameters
    ----------
    selector : estimator
        Any scikit-learn style selector exposing a ranking after ``fit`` (``positions_``,
        ``scores_``, ``ranking_``, ``feature_importances_`` or ``coef_``).
    X : array-like or DataFrame of shape (n, p)
        A DataFrame may hold nominal columns; they are one-hot encoded inside the classifier's
        pipeline for classifiers that need numbers.
    y : array-like of shape (n,)
    n_features : sequence of int, optional
        The feature counts k; default :func:`log_grid` (about 20 counts, log-spaced 1…p).
    classifier : str or estimator, optional
        A name of :func:`~rankfusion.evaluation.available_classifiers` or a classifier (a
        regressor for a regression task); default ``"linear_svm"`` (``"ridge"`` for
        regression).
    n_splits : int, default 100
        The random splits, or with ``splits="kfold"`` the number K of folds.
    test_size : float or int, optional
        The test part of each random split: a fraction or a count; default 0.25. Not given
        with ``splits="kfold"`` (each fold's test part is the fold, about n / K rows).
    stratify : bool, default True
        Stratified splits: by class, or for a regression task by the
        :data:`REGRESSION_STRATA` quantile bins of the target (:func:`regression_strata`).
    splits : {"random", "kfold"}, default "random"
        ``"random"``: ``n_splits`` independent random partitions (Izetta et al. 2017, §3).
        ``"kfold"``: one shuffled (stratified) K-fold partition, K = ``n_splits``: every row
        is tested exactly once, and split i of the curve is fold i (the K-fold
        cross-validated curve of e.g. the fuzzy-combination paper's Table III). The folds
        are drawn with the first split's seed; each fold's selector and classifier get the
        seeds the random splits would.
    task : {"auto", "classification", "regression"}, default "auto"
        What ``y`` is (:func:`rankfusion._utils.task.resolve_task`): ``"auto"`` takes text,
        bool and categorical targets and few whole numbers as classes and non-integer floats
        as a regression target, and refuses an integer-valued target with many values.
        For regression the curve's error is the test RMSE.
    n_jobs : int, optional
        Splits run in parallel through joblib; the result does not depend on it.
    random_state : None, int or Generator
    progress : bool, default False
        Show a progress bar (tqdm).
    scoring : str, optional
        None: the curve is the error rate (the RMSE for regression). A score of
        ``rankfusion.evaluation.scores`` (``"balanced_accuracy"``, ``"roc_auc"``,
        ``"neg_log_loss"``, ``"mcc"``, ``"accuracy"``; ``"r2"``, ``"neg_rmse"``,
        ``"neg_mae"`` for regression): the curve is that score, higher is better
        (the result's ``metric`` names it). A score the classifier cannot give is
        refused before any split runs.

    Returns
    -------
    ErrorCurveResult
    """
    progress = check_bool(progress, "progress")
    n_jobs = check_n_jobs(n_jobs)
    _check_selector(selector)
    task = resolve_task(y, task)
    Xv, yv, codes, _, names = _check_inputs(X, y, task)
    n, p = Xv.shape
    grid = _check_grid(n_features, p)
    n_splits = check_positive_int(n_splits, name="n_splits")
    if not isinstance(splits, str) or splits not in ("random", "kfold"):
        raise ValueError(f'splits must be "random" or "kfold", got {splits!r}')
    if splits == "kfold":
        if test_size is not None:
            raise ValueError(f'test_size is not used with splits="kfold" (each fold is a test '
                             f'part of about n / n_splits rows); leave it out, got {test_size!r}')
        if n_splits < 2 or n_splits > n:
            raise ValueError(f'n_splits (the folds of splits="kfold") must lie in [2, {n}], '
                             f'got {n_splits}')
    else:
        test_size = _check_test_size(0.25 if test_size is None else test_size, n)
    if not isinstance(stratify, (bool, np.bool_)):
        raise TypeError(f"stratify must be a bool, got {stratify!r}")
    classifier = _estimator_for_task(classifier, task)
    if scoring is not None:
        scoring = check_scoring(scoring, task)
        if task != "regression":
            check_score_estimator(scoring, make_classifier(classifier, task=task),
                                  len(np.unique(codes)), estimator_name=classifier
                                  if isinstance(classifier, str) else type(classifier).__name__)
    seed = check_seed(random_state)
    children = np.random.SeedSequence(seed).spawn(n_splits)
    seeds = [seed_int(c, size=3) for c in children]
    if splits == "kfold":
        kfold_cls = StratifiedKFold if stratify else KFold
        try:
            with warnings.catch_warnings():  # a class smaller than K: sklearn warns, we raise
                warnings.simplefilter("error", UserWarning)
                parts = list(kfold_cls(n_splits=n_splits, shuffle=True,
                                       random_state=int(seeds[0][0])).split(np.zeros(n), codes))
        except (ValueError, UserWarning) as exc:
            raise ValueError(f'cannot split the data into {n_splits} folds '
                             f'(splits="kfold", stratify={stratify}): {exc}') from None
    else:
        splitter_cls = StratifiedShuffleSplit if stratify else ShuffleSplit
        parts = []
        for s in seeds:
            try:
                parts.append(next(splitter_cls(n_splits=1, test_size=test_size,
                                               random_state=int(s[0])).split(np.zeros(n),
                                                                             codes)))
            except ValueError as exc:
                raise ValueError(f"cannot split the data (test_size={test_size}, "
                                 f"stratify={stratify}): {exc}") from None
    splits = parts
    jobs = (delayed(_one_split)(selector, classifier, Xv, yv, tr, te, grid, s,
                                task == "regression", scoring)
            for (tr, te), s in zip(splits, seeds))
    out = Parallel(n_jobs=n_jobs, return_as="generator")(jobs)
    results = list(_progress(out, n_splits, progress, "splits"))
    errors = pd.DataFrame(np.vstack([r[0] for r in results]),
                          index=pd.RangeIndex(n_splits, name="split"),
                          columns=pd.Index(grid, name="n_features"))
    positions = pd.DataFrame(np.vstack([r[1] for r in results]),
                             index=pd.RangeIndex(n_splits, name="split"),
                             columns=pd.Index(names, name="feature"))
    return ErrorCurveResult(errors=errors, positions=positions,
                            test_indices=[te for _, te in splits],
                            n_train=int(splits[0][0].shape[0]), n_test=int(splits[0][1].shape[0]),
                            metric=scoring or ("rmse" if task == "regression" else "error"))


# --------------------------------------------------------------------------- cross-validation
@dataclass(frozen=True)
class CrossValidationResult:
    """Result of :func:`cross_validate_selection`.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    scores : DataFrame, folds × metrics
        The metrics of each fold.
    pos_label : object or None
        The positive class of a binary problem (None for multiclass).
    average : str
        ``"binary"`` or ``"weighted"`` (``"none"`` for a regression task).
    test_indices : list of ndarray
        The test rows of each fold.
    support : DataFrame of bool, folds × features, or None
        The features each fold's selector selected (fitted on that fold's training part):
        the subsets whose stability Nogueira's Φ measures
        (:func:`rankfusion.stability.nogueira`); None in a result built without it.
    positions : DataFrame of int, folds × features, or None
        The ranking of each fold's selector (1 = best, :func:`selector_positions`), as
        :attr:`ErrorCurveResult.positions`; None when the selector exposes no ranking.
    task : str, default "classification"
        ``"classification"`` or ``"regression"``: the task the folds were scored for.
    """

    scores: pd.DataFrame
    pos_label: object
    average: str
    test_indices: list = field(repr=False)
    support: pd.DataFrame | None = field(default=None, repr=False)
    positions: pd.DataFrame | None = field(default=None, repr=False)
    task: str = "classification"

    def summary(self) -> pd.DataFrame:
        """Mean and standard deviation (ddof = 1) of each metric over the folds."""
        return pd.DataFrame({"mean": self.scores.mean(axis=0),
                             "sd": self.scores.std(axis=0, ddof=1)})


def _continuous_scores(model, X):
    if hasattr(model, "predict_proba"):
        return model.predict_proba(X)
    if hasattr(model, "decision_function"):
        return model.decision_function(X)
    return None


def _roc_auc(y_true, s, classes, pos_label):
    """Binary: AUC of ``pos_label``; multiclass: one-vs-rest AUC of each class present with
    both outcomes in the test part, weighted by its support (sklearn's ``ovr``/``weighted``
    for probabilities; also defined for decision values)."""
    s = np.asarray(s, dtype=np.float64)
    if len(classes) == 2:
        if s.ndim == 2:
            col = s[:, list(classes).index(pos_label)]
        else:  # decision_function: positive for classes[1]
            col = s if pos_label == classes[1] else -s
        yb = y_true == pos_label
        return float(roc_auc_score(yb, col)) if 0 < yb.sum() < yb.shape[0] else np.nan
    total, acc = 0, 0.0
    for c, cls in enumerate(classes):
        yb = y_true == cls
        if 0 < yb.sum() < yb.shape[0]:
            acc += yb.sum() * roc_auc_score(yb, s[:, c])
            total += yb.sum()
    return acc / total if total else np.nan


def _regression_metric(m, yt, pred):
    pred = np.asarray(pred, dtype=np.float64)
    if m == "r2":
        return float(r2_score(yt, pred)) if yt.shape[0] > 1 else np.nan
    if m == "rmse":
        return float(np.sqrt(np.mean((pred - yt) ** 2)))
    return float(mean_absolute_error(yt, pred))


def _one_fold(pipe, X, y, train, test, seeds, scoring, classes, pos_label, average):
    model = clone(pipe)
    model.set_params(select=_seeded(model.named_steps["select"], int(seeds[1])))
    model.fit(_rows(X, train), y[train])
    Xte = _rows(X, test)
    yt = y[test]
    pred = model.predict(Xte)
    kw = dict(average=average, zero_division=0)
    if average == "binary":
        kw["pos_label"] = pos_label
    else:
        kw["labels"] = classes
    # the fold's subset and ranking, for the stability (not a metric: taken out of the row)
    step = model.named_steps["select"]
    out = {"__support__": np.asarray(step.get_support(), dtype=bool), "__positions__": None}
    for ranked in (step, getattr(step, "selector_", None)):  # a wrapper's fitted selector
        try:
            out["__positions__"] = selector_positions(ranked, X.shape[1])
            break
        except (TypeError, ValueError, AttributeError):
            continue
    for m in scoring:
        if m in REGRESSION_SCORINGS:
            out[m] = _regression_metric(m, yt, pred)
        elif m == "accuracy":
            out[m] = accuracy_score(yt, pred)
        elif m == "error":
            out[m] = 1.0 - accuracy_score(yt, pred)
        elif m == "precision":
            out[m] = precision_score(yt, pred, **kw)
        elif m == "recall":
            out[m] = recall_score(yt, pred, **kw)
        elif m == "f1":
            out[m] = f1_score(yt, pred, **kw)
        elif m == "roc_auc":
            s = _continuous_scores(model, Xte)
            if s is None:
                raise TypeError("roc_auc needs a classifier with predict_proba or "
                                "decision_function")
            out[m] = _roc_auc(yt, s, model.classes_, pos_label)
        elif m in EXTRA_SCORINGS:  # scikit-learn's scorers (rankfusion.evaluation.scores)
            out[m] = score_estimator("roc_auc" if m == "roc_auc_ovr" else m, model, Xte, yt)
    return out


def cross_validate_selection(selector, X, y, *, classifier=None, cv=10,
                             scoring: Sequence[str] | None = None, pos_label=None,
                             task: str = "auto", n_jobs: int | None = None, random_state=None,
                             progress: bool = False) -> CrossValidationResult:
    """k-fold cross-validation of ``Pipeline([selector, classifier])``.

    The selector is refitted inside each training part (never on test rows). Metrics:

    * ``accuracy``, ``error = 1 − accuracy``;
    * ``precision``, ``recall``, ``f1``: binary — of the positive class, the minority class
      unless ``pos_label`` is given (the later label in sorted order when the two classes are
      equally frequent); multiclass — per class, averaged with weights equal to the class
      supports (Weka's "weighted avg." report);
    * ``roc_auc``: binary — AUC of the positive class from ``predict_proba`` or
      ``decision_function``; multiclass — one-vs-rest AUC per class weighted by support (as
      scikit-learn's ``multi_class="ovr", average="weighted"``; decision values are accepted
      as well as probabilities, AUC being a rank statistic);
    * asked for by name only (``EXTRA_SCORINGS``, scikit-learn's scorers through
      :func:`rankfusion.evaluation.scores.score_estimator`): ``balanced_accuracy``, ``mcc``
      (Matthews' correlation coefficient), ``neg_log_loss`` (the log-loss negated, higher is
      better; needs ``predict_proba``) and ``roc_auc_ovr`` (binary — the AUC; multiclass — the
      one-vs-rest macro mean from ``predict_proba``: the advisor's ``roc_auc``). A classifier
      that cannot give one is refused before any fold runs;
    * for a regression task: ``r2`` (the coefficient of determination on the test part),
      ``rmse`` (root mean squared error) and ``mae`` (mean absolute error).

    Parameters
    ----------
    selector : SelectorMixin
        A selector with ``fit`` and ``transform``.
    X, y : as in :func:`error_curve`
    classifier : str or estimator, optional
        Default ``"linear_svm"`` (``"ridge"`` for a regression task).
    cv : int or CV splitter, default 10
        An int gives ``StratifiedKFold(cv, shuffle=True)`` seeded from ``random_state``
        (``KFold(cv, shuffle=True)`` for a regression task).
    scoring : sequence of str, optional
        A subset of ``("accuracy", "error", "precision", "recall", "f1", "roc_auc")`` (all
        of them by default) and of ``EXTRA_SCORINGS``; for a regression task a subset of
        ``("r2", "rmse", "mae")``.
    pos_label : label, optional
        Positive class of a binary problem.
    task : {"auto", "classification", "regression"}, default "auto"
        What ``y`` is, as in :func:`error_curve`.
    n_jobs : int, optional
    random_state : None, int or Generator
    progress : bool, default False

    Returns
    -------
    CrossValidationResult
    """
    progress = check_bool(progress, "progress")
    n_jobs = check_n_jobs(n_jobs)
    _check_selector(selector, needs_transform=True)
    task = resolve_task(y, task)
    Xv, yv, codes, classes, _ = _check_inputs(X, y, task)
    allowed = REGRESSION_SCORINGS if task == "regression" else SCORINGS + EXTRA_SCORINGS
    if scoring is None:
        scoring = REGRESSION_SCORINGS if task == "regression" else SCORINGS
    if isinstance(scoring, str):
        scoring = (scoring,)
    scoring = tuple(scoring)
    bad = [s for s in scoring if s not in allowed]
    if bad or not scoring:
        hint = ""
        if bad and isinstance(bad[0], str):
            from .._utils.registry import closest_name

            close = closest_name(bad[0], allowed)
            hint = f" (did you mean {close!r}?)" if close else ""
        raise ValueError(f"scoring must be a non-empty subset of {list(allowed)} for a {task} "
                         f"task; got {bad or list(scoring)}{hint}")
    classifier = _estimator_for_task(classifier, task)
    if task == "regression":
        if pos_label is not None:
            raise ValueError("pos_label applies to binary classification only; this is a "
                             "regression task")
        average = "none"
    elif len(classes) == 2:
        average = "binary"
        if pos_label is None:
            counts = np.bincount(codes, minlength=2)
            pos_label = classes[0] if counts[0] < counts[1] else classes[1]
        elif pos_label not in set(classes.tolist()):
            raise ValueError(f"pos_label {pos_label!r} is not a class of y ({list(classes)})")
    else:
        if pos_label is not None:
            raise ValueError("pos_label applies to binary problems only; y has "
                             f"{len(classes)} classes (metrics are support-weighted)")
        average = "weighted"
    seed = check_seed(random_state)
    if isinstance(cv, (bool, np.bool_, str, bytes)):
        raise TypeError(f"cv must be an int or a CV splitter, got {cv!r}")
    if isinstance(cv, numbers.Integral):
        cv = check_positive_int(cv, name="cv", minimum=2)
        if task == "regression":
            if cv > yv.shape[0]:
                raise ValueError(f"cv={cv} folds need at least {cv} samples; y has "
                                 f"{yv.shape[0]}")
            splitter = KFold(cv, shuffle=True, random_state=seed)
        elif np.bincount(codes).min() >= cv:
            splitter = StratifiedKFold(cv, shuffle=True, random_state=seed)
        else:
            raise ValueError(f"cv={cv} folds need at least {cv} samples of every class; the "
                             f"smallest class has {np.bincount(codes).min()}")
    elif hasattr(cv, "split"):
        splitter = cv
    else:
        raise TypeError(f"cv must be an int or a CV splitter, got {type(cv).__name__}")
    folds = list(splitter.split(np.zeros(len(yv)), codes))
    seeds = [seed_int(c, size=3) for c in np.random.SeedSequence(seed).spawn(len(folds))]
    clf = _classifier_for(classifier, X, int(seeds[0][2]))
    for m in scoring:  # a score the classifier cannot give: refused before any fold runs
        if m in EXTRA_SCORINGS:
            check_score_estimator("roc_auc" if m == "roc_auc_ovr" else m, clf, len(classes),
                                  estimator_name=classifier if isinstance(classifier, str)
                                  else type(classifier).__name__)
    sel = clone(selector)
    if has_nominal_columns(X) and hasattr(sel, "set_output"):
        sel.set_output(transform="pandas")
    pipe = Pipeline([("select", sel), ("classify", clf)])
    jobs = (delayed(_one_fold)(pipe, Xv, yv, tr, te, s, scoring, classes, pos_label, average)
            for (tr, te), s in zip(folds, seeds))
    out = Parallel(n_jobs=n_jobs, return_as="generator")(jobs)
    rows = list(_progress(out, len(folds), progress, "folds"))
    # each fold's selected subset and ranking (for the stability of the selection)
    support = [r.pop("__support__") for r in rows]
    ranked = [r.pop("__positions__") for r in rows]
    scores = pd.DataFrame(rows, index=pd.RangeIndex(len(folds), name="fold"),
                          columns=list(scoring))
    frame = isinstance(X, pd.DataFrame)
    names = np.array([str(c) for c in X.columns] if frame else
                     [f"x{i}" for i in range(Xv.shape[1])], dtype=object)
    fold_index = pd.RangeIndex(len(folds), name="fold")
    feature_index = pd.Index(names, name="feature")
    support_frame = pd.DataFrame(np.vstack(support), index=fold_index, columns=feature_index)
    positions = (None if any(r is None for r in ranked) else
                 pd.DataFrame(np.vstack(ranked).astype(np.int64), index=fold_index,
                              columns=feature_index))
    return CrossValidationResult(scores=scores, pos_label=pos_label if average == "binary"
                                 else None, average=average, task=task,
                                 test_indices=[te for _, te in folds], support=support_frame,
                                 positions=positions)


# --------------------------------------------------------------------------- relevant ranks
def relevant_rank_stats(positions, relevant) -> pd.Series:
    """Best, first quartile, median, mean, third quartile and worst position of the relevant
    features (Izetta et al. 2017, Tables 4-6).

    The positions of the relevant features are pooled over all rankings given (one per split
    for an :class:`ErrorCurveResult`); quartiles use linear interpolation between order
    statistics (Hyndman & Fan's type 7, numpy's and R's default).

    Parameters
    ----------
    positions : Consensus, ErrorCurveResult, Series, DataFrame or array-like
        Positions (1 = best): 1-D for one ranking (a Series indexed by feature name), 2-D
        rankings × features (a DataFrame whose columns name the features), a
        :class:`~rankfusion.Consensus` (its ``ranks``) or an :class:`ErrorCurveResult` (its
        per-split ``positions``).
    relevant : sequence
        Feature names (when ``positions`` carries names) or integer column indices.

    Returns
    -------
    Series with index ``best, q1, median, mean, q3, worst``

    Examples
    --------
    >>> relevant_rank_stats([1, 5, 2, 9, 3], relevant=[0, 2, 4]).tolist()
    [1.0, 1.5, 2.0, 2.0, 2.5, 3.0]
    """
    if isinstance(positions, ErrorCurveResult):
        positions = positions.positions
    if isinstance(positions, Consensus):
        positions = pd.Series(positions.positions, index=positions.features)
    if isinstance(positions, pd.Series):
        names = list(positions.index)
        values = positions.to_numpy()[None, :]
    elif isinstance(positions, pd.DataFrame):
        names = list(positions.columns)
        values = positions.to_numpy()
    else:
        if isinstance(positions, (str, bytes)) or isinstance(positions, numbers.Number):
            raise TypeError("positions must be an array of positions (1 = best), a Series, a "
                            "DataFrame, a Consensus or an ErrorCurveResult")
        values = np.asarray(positions)
        if values.ndim == 1:
            values = values[None, :]
        names = None
    try:
        values = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("positions must hold numbers (1 = best)") from None
    if values.ndim != 2 or values.shape[1] == 0 or values.shape[0] == 0:
        raise ValueError(f"positions must be 1-D or 2-D (rankings × features) and non-empty; "
                         f"got shape {values.shape}")
    if not np.isfinite(values).all() or (values < 1).any():
        raise ValueError("positions must be finite and ≥ 1 (1 = best)")
    if isinstance(relevant, (str, bytes)) or isinstance(relevant, numbers.Number):
        raise TypeError("relevant must be a sequence of feature names or indices")
    relevant = list(relevant)
    if not relevant:
        raise ValueError("relevant is empty")
    p = values.shape[1]
    idx = []
    lookup = {f: i for i, f in enumerate(names)} if names is not None else {}
    for r in relevant:
        if r in lookup:
            idx.append(lookup[r])
        elif isinstance(r, numbers.Integral) and not isinstance(r, (bool, np.bool_)):
            if not 0 <= r < p:
                raise ValueError(f"relevant index {r} is out of range for {p} features")
            idx.append(int(r))
        else:
            raise ValueError(f"relevant feature {r!r} is not among the positions' features")
    if len(set(idx)) != len(idx):
        raise ValueError("relevant repeats a feature")
    pooled = values[:, idx].ravel()
    q1, med, q3 = np.quantile(pooled, [0.25, 0.5, 0.75])
    return pd.Series([pooled.min(), q1, med, pooled.mean(), q3, pooled.max()],
                     index=["best", "q1", "median", "mean", "q3", "worst"], dtype=np.float64,
                     name="position")
