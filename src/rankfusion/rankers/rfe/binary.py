"""Binary SVM-RFE and its per-problem lists: :func:`svm_rfe`, :func:`rfe_lists`."""

from __future__ import annotations

import numpy as np

from ..._utils.validation import check_bool, check_n_jobs
from ...lists import RankedLists
from ._checks import _codes, _prepare
from .engine import _run_all, _single_threaded_blas
from .problems import binary_problems
from .result import RFEResult

__all__ = ["svm_rfe", "rfe_lists"]


def svm_rfe(X, y, *, C: float = 1.0, step: int | float = 0.1, step_until: int = 20,
            estimator=None, class_weight=None, tol: float = 1e-3,
            keep_weights: bool = True) -> RFEResult:
    """Binary SVM-RFE (Guyon et al. 2002) with Izetta et al.'s schedule.

    At each iteration a linear SVM is fitted on the remaining features and the
    ``rfe_schedule(...)`` chunk with the smallest ``w_i²`` leaves; the reverse elimination
    order is the ranking (position 1 = the last survivor).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Finite numbers.
    y : array-like of shape (n_samples,)
        Two classes.
    C : float
        The SVM's C (libsvm's C-SVC, as ``SVC(kernel="linear", C=C)``).
    step, step_until : see :func:`rfe_schedule`.
    estimator : estimator with ``coef_``, optional
        Replaces the built-in SVM (refitted on each iteration's features).
    class_weight : None, "balanced" or dict
        Per-class multipliers of C, as ``SVC(class_weight=...)``.
    tol : float
        Stopping tolerance of the dual solver (libsvm's ``eps``, default 1e-3 as ``SVC``).
    keep_weights : bool
        Keep each iteration's weight vector in :attr:`RFEResult.weights`.

    Returns
    -------
    RFEResult
    """
    codes, classes = _codes(y)
    if classes.shape[0] != 2:
        raise ValueError(
            f"svm_rfe is binary; y has {classes.shape[0]} classes — use rfe_lists() or "
            "rankfusion.SVMRFE for a multiclass decomposition"
        )
    lists, results = rfe_lists(X, y, decomposition="ovo", C=C, step=step, step_until=step_until,
                               estimator=estimator, class_weight=class_weight, tol=tol,
                               keep_weights=keep_weights)
    return results[0]


def rfe_lists(X, y, *, decomposition: str = "ovo", C: float = 1.0, step: int | float = 0.1,
              step_until: int = 20, estimator=None, class_weight=None, tol: float = 1e-3,
              keep_weights: bool = False, n_jobs: int | None = None, feature_names=None,
              progress=None, warm_start: bool = False) -> tuple[RankedLists, list[RFEResult]]:
    """One full SVM-RFE ranking per binary problem of an OVO or OVA decomposition.

    Izetta et al. (2017) §2: the multiclass problem becomes M binary ones (OVO: c(c−1)/2, each
    on its two classes' samples; OVA: c, each class against the rest); SVM-RFE ranks the
    features on each. Two classes give one problem.

    Parameters
    ----------
    X, y
        As :func:`svm_rfe`.
    decomposition : {"ovo", "ova"}
        One-vs-one or one-vs-all binary problems.
    C, step, step_until, estimator, class_weight, tol, keep_weights
        As :func:`svm_rfe`.
    n_jobs : int, optional
        Binary problems run in parallel through joblib (threads: the solver releases the GIL).
    feature_names : sequence, optional
        Names for the lists' features (default ``x0 … x{p-1}``).
    progress : callable, optional
        Called with each finished :class:`RFEResult` (for a progress bar).
    warm_start : bool
        Start each iteration's dual from the previous α. Off by default: cold starts follow
        libsvm's path exactly, so that at its loose default ``tol`` the rankings are
        ``RFE(SVC(kernel="linear"))``'s; on this path the speed comes from the downdated Gram
        matrix. Warm starts reach the same optimum (exactly so as ``tol → 0``).

    Returns
    -------
    lists : RankedLists
        p features × M lists, one per problem (``"A_vs_B"`` or ``"A_vs_rest"``), built from
        scores ``p − position`` so every rule (``mean_score`` included) can use them.
    results : list of RFEResult
        The runs, in list order (weights per iteration when ``keep_weights``).
    """
    keep_weights = check_bool(keep_weights, "keep_weights")
    warm_start = check_bool(warm_start, "warm_start")
    n_jobs = check_n_jobs(n_jobs)
    C, tol, Xa, Xt, codes, classes, cw, chunks = _prepare(X, y, C, tol, class_weight, step,
                                                         step_until)
    problems = binary_problems(codes, classes, decomposition)
    kw = dict(C=C, chunks=chunks, estimator=estimator, class_weight=cw, tol=tol,
              keep_weights=keep_weights, warm_start=warm_start)
    with _single_threaded_blas():
        results = _run_all(Xa, Xt, codes, classes, problems, kw, n_jobs, progress)
    p = Xa.shape[1]
    scores = np.column_stack([p - r.ranking for r in results]).astype(np.float64)
    names = feature_names if feature_names is not None else [f"x{j}" for j in range(p)]
    lists = RankedLists.from_scores(scores, ties="ordinal", features=list(names),
                                    list_names=[r.name for r in results])
    return lists, results

