"""The registered ranker ``"svm_rfe"`` (one list) and its several-lists producer.

The ranker gives one list per call: the binary SVM-RFE ranking for two classes; for more
classes the joint RFE ranking of ``criterion`` (:func:`~rankfusion.rankers.joint_rfe`). It never
aggregates: one list per binary problem comes from the producer :func:`svm_rfe_lists`
(:class:`~rankfusion.rankers.MultiListRanker`), and their consensus from
:class:`rankfusion.selection.SVMRFE`.
"""

from __future__ import annotations

import numpy as np

from ..._utils.constraints import Options
from ..._utils.data import check_classification_data
from ..._utils.seeding import seed_int
from ...lists import RankedLists
from .._registry import RANDOM_STATE, register_ranker
from ..multilist import register_list_producer
from .binary import rfe_lists, svm_rfe
from .joint import joint_rfe
from .params import SVM_CONSTRAINTS
from .problems import binary_problems

__all__ = ["svm_rfe_scores", "svm_rfe_lists", "SVM_CONSTRAINTS"]



@register_ranker("svm_rfe", tags={"allow_nan": False, "sparse": True}, constraints={
    "criterion": [Options("average", "crammer_singer", "weston_watkins")],
    "decomposition": [Options("ovo", "ova")], **SVM_CONSTRAINTS,
    "random_state": RANDOM_STATE})
def svm_rfe_scores(X, y, *, criterion: str = "average", decomposition: str = "ovo",
                   C: float = 1.0, step: int | float = 0.1, step_until: int = 20,
                   class_weight=None, tol: float = 1e-3, warm_start: bool = False,
                   random_state=None) -> np.ndarray:
    """Ranker form of SVM-RFE: ``p − position`` of one RFE ranking.

    Two classes: the binary SVM-RFE ranking (:func:`~rankfusion.rankers.svm_rfe`). More
    classes: the joint ranking of ``criterion`` (:func:`~rankfusion.rankers.joint_rfe`:
    ``"average"`` = mean ``|w_ij|`` over the binary problems of ``decomposition``,
    ``"crammer_singer"`` or ``"weston_watkins"`` = ``Σ_k w_ki²`` of a multiclass SVM). Never a
    consensus of lists: for one list per binary problem use :func:`svm_rfe_lists` (through
    :func:`rankfusion.rankers.ranker_lists`), for their consensus
    :class:`rankfusion.selection.SVMRFE`.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_samples, n_features)
        Numeric, complete.
    y : array-like of shape (n_samples,)
    criterion : {"average", "crammer_singer", "weston_watkins"}, default="average"
        The joint criterion for more than two classes (ignored for two).
    decomposition : {"ovo", "ova"}, default="ovo"
        The binary problems of ``criterion="average"``.
    C, step, step_until, class_weight, tol, warm_start
        As :func:`~rankfusion.rankers.rfe_lists`.
    random_state : None, int or Generator, default=None
        Seeds liblinear's Crammer–Singer solver, the only random step (None = fresh entropy;
        docs/design.md, 'Seeds').

    Returns
    -------
    ndarray of float, shape (n_features,)
        ``p − position``: higher = better, the best feature gets ``p − 1``.
    """
    data = check_classification_data(X, y, allow_nominal=False, allow_missing=False,
                                     accept_sparse="csr", who="svm_rfe")
    common = dict(C=C, step=step, step_until=step_until, class_weight=class_weight, tol=tol)
    if data.n_classes == 2:
        ranking = svm_rfe(data.values, data.y, keep_weights=False, **common).ranking
    else:
        seed = seed_int(random_state) if criterion == "crammer_singer" else 0
        ranking = joint_rfe(data.values, data.y, criterion=criterion,
                            decomposition=decomposition, warm_start=warm_start,
                            random_state=seed, **common).ranking
    return (data.n_features - ranking).astype(np.float64)


@register_list_producer("svm_rfe")
def svm_rfe_lists(X, y, *, decomposition: str = "ovo", C: float = 1.0,
                  step: int | float = 0.1, step_until: int = 20, class_weight=None,
                  tol: float = 1e-3, warm_start: bool = False,
                  n_jobs: int | None = None) -> RankedLists:
    """One SVM-RFE list per binary problem, named ``"svm_rfe[A vs B]"`` / ``"svm_rfe[A vs rest]"``.

    The :class:`~rankfusion.rankers.MultiListRanker` producer of the ranker ``"svm_rfe"``: the
    lists of :func:`~rankfusion.rankers.rfe_lists` (scores ``p − position``), renamed for an
    ensemble. Two classes give one list.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Numeric features, no missing values.
    y : array-like of shape (n_samples,)
        Class labels.
    decomposition : {"ovo", "ova"}, default "ovo"
        The binary problems: one-vs-one or one-vs-all.
    C : float, default 1.0
        The SVM's penalty (:func:`~rankfusion.rankers.rfe_lists`).
    step : int or float, default 0.1
        Features removed per iteration: a count, or a fraction of those remaining.
    step_until : int, default 20
        Below this many features, one at a time.
    class_weight : dict, "balanced" or None
        As scikit-learn's ``SVC``.
    tol : float, default 1e-3
        The SMO solver's tolerance.
    warm_start : bool, default False
        Start each fit from the previous iteration's dual solution.
    n_jobs : int or None
        Parallel binary problems (joblib).

    Returns
    -------
    RankedLists
        One list per binary problem (scores ``p − position``).
    """
    data = check_classification_data(X, y, allow_nominal=False, allow_missing=False,
                                     accept_sparse="csr", who="svm_rfe")
    lists, _ = rfe_lists(data.values, data.y, decomposition=decomposition, C=C, step=step,
                         step_until=step_until, class_weight=class_weight, tol=tol,
                         warm_start=warm_start, n_jobs=n_jobs,
                         feature_names=[str(f) for f in data.feature_names])
    names = [str(k) for k in data.classes]
    titles = [f"svm_rfe[{names[pb.positive]} vs "
              f"{'rest' if pb.negative < 0 else names[pb.negative]}]"
              for pb in binary_problems(data.y, data.classes, decomposition)]
    return RankedLists.from_scores(lists.scores, ties="ordinal", features=list(lists.features),
                                   list_names=titles)
