"""The scores of a fitted estimator on a test part, by name: one mapping shared by every surface.

The advisor (:func:`rankfusion.advise`), the command line (``--scoring``) and the reports read
the names, their labels and their checks from here, so a score means the same thing wherever
it is named (docs/design.md, 'Ensembles, subsets and evaluation').

Every score is "higher is better" (scikit-learn's convention): the log-loss is shown negated,
``neg_log_loss`` = −log-loss (as scikit-learn's ``neg_log_loss`` scorer), and so are RMSE and
MAE. The classification scores are scikit-learn's scorers (:func:`sklearn.metrics.get_scorer`):

* ``accuracy`` — scorer ``accuracy``, from ``predict``;
* ``balanced_accuracy`` — ``balanced_accuracy`` (the mean recall of the classes), from
  ``predict``;
* ``roc_auc`` — ``roc_auc`` for two classes (from ``decision_function`` or
  ``predict_proba``), ``roc_auc_ovr`` for more (one-vs-rest, macro mean; from
  ``predict_proba``);
* ``neg_log_loss`` — ``neg_log_loss``, from ``predict_proba``;
* ``mcc`` — ``matthews_corrcoef`` (Matthews' correlation coefficient), from ``predict``.

A class absent from a test part: the log-loss is computed with ``labels=`` the estimator's
classes (the columns of its ``predict_proba``), so it is defined; the one-vs-rest AUC of an
absent class has no positive case and is undefined, so the macro mean is over the classes
present in the test part (scikit-learn would give NaN); a binary test part holding one class
has no AUC at all and is refused with a ``ValueError`` naming the class.

The regression scores (``r2``, ``neg_rmse``, ``neg_mae``) are those of
``rankfusion.selection.subset_size.prediction_score`` (scikit-learn's ``r2``,
``neg_root_mean_squared_error`` and ``neg_mean_absolute_error``).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .._utils.registry import closest_name

__all__ = [
    "Score",
    "SCORES",
    "CLASSIFICATION_SCORES",
    "REGRESSION_SCORES",
    "check_scoring",
    "check_score_estimator",
    "score_estimator",
    "score_label",
]


@dataclass(frozen=True)
class Score:
    """One score: its name, task, label in texts and what the estimator must give.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    name : str
        The name users give (``scoring=``, ``--scoring``, the TOML key ``scoring``).
    task : str
        ``"classification"`` or ``"regression"``.
    label : str
        How texts, figures and reports name it ("balanced accuracy", "−log-loss").
    sklearn : str
        The :func:`sklearn.metrics.get_scorer` name (binary problems for ``roc_auc``).
    needs : tuple of str
        The methods the estimator needs, any one of them (binary problems).
    needs_multiclass : tuple of str
        The same for more than two classes.
    note : str
        How the value is shown, where the label alone does not say it (texts print it).
    bounds : tuple of float
        The range of the score (its intervals are clipped to it).
    """

    name: str
    task: str
    label: str
    sklearn: str
    needs: tuple = ("predict",)
    needs_multiclass: tuple = ("predict",)
    note: str = ""
    bounds: tuple = (0.0, 1.0)


#: Every score by name.
SCORES = {
    s.name: s
    for s in (
        Score("accuracy", "classification", "accuracy", "accuracy"),
        Score("balanced_accuracy", "classification", "balanced accuracy", "balanced_accuracy"),
        Score(
            "roc_auc",
            "classification",
            "ROC AUC",
            "roc_auc",
            needs=("decision_function", "predict_proba"),
            needs_multiclass=("predict_proba",),
        ),
        Score(
            "neg_log_loss",
            "classification",
            "−log-loss",
            "neg_log_loss",
            needs=("predict_proba",),
            needs_multiclass=("predict_proba",),
            note="−log-loss is the log-loss negated, so that higher is better",
            bounds=(-np.inf, 0.0),
        ),
        Score("mcc", "classification", "MCC", "matthews_corrcoef", bounds=(-1.0, 1.0)),
        Score("r2", "regression", "R²", "r2", bounds=(-np.inf, 1.0)),
        Score(
            "neg_rmse", "regression", "−RMSE", "neg_root_mean_squared_error", bounds=(-np.inf, 0.0)
        ),
        Score("neg_mae", "regression", "−MAE", "neg_mean_absolute_error", bounds=(-np.inf, 0.0)),
    )
}
#: The classification scores (the first is the default).
CLASSIFICATION_SCORES = tuple(n for n, s in SCORES.items() if s.task == "classification")
#: The regression scores (the first is the default).
REGRESSION_SCORES = tuple(n for n, s in SCORES.items() if s.task == "regression")
_BY_TASK = {"classification": CLASSIFICATION_SCORES, "regression": REGRESSION_SCORES}


def score_label(scoring: str) -> str:
    """How texts name ``scoring`` ("balanced accuracy", "−log-loss"); an unknown name is
    returned as given.

    Parameters
    ----------
    scoring : str

    Returns
    -------
    str
    """
    s = SCORES.get(scoring)
    return s.label if s is not None else str(scoring)


def check_scoring(scoring, task: str, *, argument: str = "scoring") -> str:
    """``scoring`` checked for ``task``: the task's default (accuracy, R²) for None.

    Parameters
    ----------
    scoring : str or None
    task : {"classification", "regression"}
    argument : str, default "scoring"
        How the error messages name the argument (``--scoring``, ``[advise] scoring``).

    Returns
    -------
    str

    Raises
    ------
    TypeError
        ``scoring`` is not a str.
    ValueError
        An unknown name (with the closest known one), or a score of the other task.
    """
    own = _BY_TASK[task]
    if scoring is None:
        return own[0]
    if not isinstance(scoring, str):
        raise TypeError(
            f"{argument} must be one of {', '.join(map(repr, own))} (or left "
            f"out), got {type(scoring).__name__}"
        )
    if scoring in own:
        return scoring
    listed = f"{task} scores: {', '.join(map(repr, own))}"
    other = SCORES.get(scoring)
    if other is not None:
        raise ValueError(
            f"{argument}={scoring!r} is not a score of a {task} task ({scoring!r} "
            f"scores a {other.task} task); {listed}"
        )
    close = closest_name(scoring, own)
    hint = f" did you mean {close!r}?" if close else ""
    raise ValueError(f"{argument}={scoring!r} is not a score of a {task} task;{hint} {listed}")


def check_score_estimator(
    scoring: str,
    estimator,
    n_classes: int,
    *,
    estimator_name: str | None = None,
    argument: str = "scoring",
) -> None:
    """Refuse, before any work, a score that ``estimator`` cannot give.

    ROC AUC needs ``decision_function`` or ``predict_proba`` (``predict_proba`` for more than
    two classes: the one-vs-rest mean needs probabilities); the log-loss needs
    ``predict_proba``.

    Parameters
    ----------
    scoring : str
        A name of :data:`SCORES`.
    estimator : estimator
        The unfitted estimator (a pipeline offers its last step's methods).
    n_classes : int
        The classes of the target (0 for a regression target).
    estimator_name : str, optional
        How the message names the estimator; default its class name.
    argument : str, default "scoring"

    Raises
    ------
    ValueError
        The estimator lacks every method the score needs.
    """
    s = SCORES[scoring]
    needs = s.needs if n_classes <= 2 else s.needs_multiclass
    if "predict" in needs or any(hasattr(estimator, m) for m in needs):
        return
    what = estimator_name or type(estimator).__name__
    kind = "" if n_classes <= 2 else f" with {n_classes} classes"
    raise ValueError(
        f"{argument}={scoring!r} ({s.label}{kind}) needs an estimator with "
        f"{' or '.join(needs)}; the estimator {what!r} has none: choose "
        "another score, or an estimator giving probabilities (e.g. "
        "'naive_bayes' or 'random_forest')"
    )


def score_estimator(scoring: str, estimator, X, y) -> float:
    """The classification score ``scoring`` of the fitted ``estimator`` on ``X``, ``y``:
    scikit-learn's scorer (:func:`sklearn.metrics.get_scorer`) where every class of the
    estimator occurs in ``y``; otherwise the log-loss with ``labels=`` the estimator's classes
    and the AUC's macro mean over the classes present (module docstring).

    Parameters
    ----------
    scoring : str
        A classification name of :data:`SCORES`.
    estimator : fitted classifier
    X : array-like or DataFrame
        The test part.
    y : array-like of shape (n,)
        Its labels.

    Returns
    -------
    float
    """
    from sklearn.metrics import get_scorer, log_loss, roc_auc_score

    s = SCORES[scoring]
    y = np.asarray(y)
    classes = np.asarray(getattr(estimator, "classes_", np.unique(y)))
    present = np.isin(classes, y)
    if scoring == "neg_log_loss":
        return -float(log_loss(y, estimator.predict_proba(X), labels=classes))
    if scoring != "roc_auc":
        return float(get_scorer(s.sklearn)(estimator, X, y))
    if present.all():
        name = s.sklearn if classes.shape[0] == 2 else "roc_auc_ovr"
        return float(get_scorer(name)(estimator, X, y))
    if classes.shape[0] == 2 or present.sum() < 2:
        only = classes[present].tolist()
        raise ValueError(
            f"scoring='roc_auc' is undefined on a test part holding only the "
            f"class {only[0] if only else None!r}: use stratified folds"
        )
    proba = estimator.predict_proba(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        aucs = [roc_auc_score(y == c, proba[:, j]) for j, c in enumerate(classes) if present[j]]
    return float(np.mean(aucs))
