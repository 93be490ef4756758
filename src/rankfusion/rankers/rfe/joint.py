"""Joint criteria: one RFE over all classes (Izetta et al. 2017, §4 baselines).

``"average"`` ranks by the mean ``|w_ij|`` over the binary problems (Zhou & Tuck's OVO,
Izetta's "Average"); ``"crammer_singer"`` and ``"weston_watkins"`` by ``Σ_k w_ki²`` of a
multiclass linear SVM (MSVM-RFE, Zhou & Tuck 2007).
"""

from __future__ import annotations

import numpy as np

from ..._utils.validation import check_bool
from ._checks import _prepare
from ._linear_svm import smo_gram
from .engine import _columns, _eliminate, _estimator_for, _Gram, _single_threaded_blas, _sv_weights
from .problems import DECOMPOSITIONS, _binary_class_weight, _sample_C, binary_problems
from .result import RFEResult, _finish

__all__ = ["joint_rfe", "JOINT_CRITERIA"]

JOINT_CRITERIA = ("average", "crammer_singer", "weston_watkins")


def _joint_average(Xt, codes, classes, decomposition, C, cw, chunks, tol, keep_weights,
                   estimator, X, progress, warm_start=False):
    """Joint RFE on mean |w_ij| over the binary problems (Zhou & Tuck's OVO; Izetta's Average)."""
    problems = binary_problems(codes, classes, decomposition)
    p = Xt.shape[0]
    rem = np.arange(p)
    state = []
    shared = None
    for pb in problems:
        if estimator is not None:
            state.append(None)
            continue
        if pb.samples is None:
            if shared is None:
                shared = _Gram(Xt)
            gram = shared
        else:
            gram = _Gram(_columns(Xt, pb.samples))
        state.append([gram, _sample_C(pb, codes, C, cw, len(classes)), None])
    elim, n_feats, weights, n_iter = [], [], [] if keep_weights else None, []
    for r in chunks:
        crit = np.zeros(rem.shape[0])
        steps = 0
        for pb, st in zip(problems, state):
            if estimator is not None:
                Xs = X if pb.samples is None else X[pb.samples]
                est = _estimator_for(estimator, _binary_class_weight(pb, cw)).fit(
                    Xs[:, rem], pb.y)
                coef = np.asarray(est.coef_, dtype=np.float64)
                crit += np.abs(coef).sum(axis=0) if coef.ndim == 2 else np.abs(coef)
                continue
            gram, Cvec, alpha = st
            res = smo_gram(gram.K, pb.y, Cvec, alpha0=alpha if warm_start else None, tol=tol)
            st[2] = res.alpha
            steps += res.n_iter
            sv = np.flatnonzero(res.alpha > 0)
            cols = sv if pb.samples is None else pb.samples[sv]
            w = _sv_weights(Xt, rem, cols, res.alpha[sv] * pb.y[sv])
            crit += np.abs(w)
        crit /= len(problems)
        n_iter.append(steps)
        if keep_weights:
            weights.append(crit)
        rem, leaving = _eliminate(rem, crit, r, elim, n_feats)
        if estimator is None and rem.shape[0] > 1:
            done = set()
            for st in state:
                if id(st[0]) not in done:
                    st[0].remove(leaving, rem)
                    done.add(id(st[0]))
        if progress is not None:
            progress(int(r))
    elim.extend(rem.tolist())
    return _finish("average", elim, n_feats, [int(r) for r in chunks], weights, n_iter, p)


def _joint_msvm(X, codes, n_classes, criterion, C, chunks, tol, keep_weights, random_state,
                progress, class_weight):
    """MSVM-RFE (Zhou & Tuck 2007): joint RFE on Σ_k w_ki² of a multiclass linear SVM."""
    p = X.shape[1]
    rem = np.arange(p)
    elim, n_feats, weights, n_iter = [], [], [] if keep_weights else None, []
    if criterion == "weston_watkins":
        from ._weston_watkins import weston_watkins_fit

        alpha = None
        Cvec = None
        if class_weight is not None:
            if isinstance(class_weight, str):
                counts = np.bincount(codes, minlength=n_classes).astype(np.float64)
                cwv = codes.shape[0] / (n_classes * counts)
            else:
                cwv = np.asarray([class_weight.get(k, 1.0) for k in range(n_classes)])
            Cvec = C * cwv[codes]
    for r in chunks:
        Xr = X[:, rem]
        if criterion == "crammer_singer":
            from sklearn.svm import LinearSVC

            cw = class_weight
            est = LinearSVC(multi_class="crammer_singer", C=C, class_weight=cw,
                            random_state=random_state, max_iter=10000, tol=1e-4)
            import warnings

            from sklearn.exceptions import ConvergenceWarning

            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                est.fit(Xr, codes)
            W = np.asarray(est.coef_)
            steps = int(np.max(est.n_iter_)) if hasattr(est, "n_iter_") else 0
        else:
            res = weston_watkins_fit(Xr, codes, n_classes, C=C if Cvec is None else Cvec,
                                     alpha0=alpha, tol=tol)
            if not res.converged:
                import warnings

                from sklearn.exceptions import ConvergenceWarning

                warnings.warn(
                    f"Weston–Watkins solver stopped at its epoch limit with "
                    f"{Xr.shape[1]} features left (tol={tol:g}); the ranking may be off",
                    ConvergenceWarning, stacklevel=2)
            alpha = res.alpha
            W = res.coef
            steps = res.n_iter
        crit = (W * W).sum(axis=0)
        n_iter.append(steps)
        if keep_weights:
            weights.append(crit)
        rem, _ = _eliminate(rem, crit, r, elim, n_feats)
        if progress is not None:
            progress(int(r))
    elim.extend(rem.tolist())
    return _finish(criterion, elim, n_feats, [int(r) for r in chunks], weights, n_iter, p)


def joint_rfe(X, y, *, criterion: str = "average", decomposition: str = "ovo", C: float = 1.0,
              step: int | float = 0.1, step_until: int = 20, estimator=None, class_weight=None,
              tol: float = 1e-3, keep_weights: bool = False, random_state=0,
              progress=None, warm_start: bool = False) -> RFEResult:
    """One joint RFE over all classes: the baselines of Izetta et al. (2017) §4.

    ``criterion="average"``: at each iteration every binary problem of ``decomposition`` is
    refitted on the remaining features and the criterion is ``mean_j |w_ij|`` (Zhou & Tuck's
    "OVO", Izetta's "Average"). ``"crammer_singer"``: scikit-learn's
    ``LinearSVC(multi_class="crammer_singer")`` (liblinear; its intercept is regularised).
    ``"weston_watkins"``: our Weston–Watkins solver
    (``rankfusion.rankers.rfe._weston_watkins``). For both
    multiclass SVMs the criterion is ``Σ_k w_ki²`` (MSVM-RFE). ``tol`` is the solver's
    tolerance (SMO gap for the binary SVMs, projected-gradient for Weston–Watkins);
    ``random_state`` seeds liblinear (Crammer–Singer) only. ``warm_start`` as in
    :func:`rfe_lists` (the binary SVMs of ``"average"``; Weston–Watkins always warm-starts its
    dual, which has a unique optimum in w).

    Parameters
    ----------
    X, y
        As :func:`svm_rfe`.
    criterion : {"average", "crammer_singer", "weston_watkins"}, default "average"
        The elimination criterion (above).
    decomposition : {"ovo", "ova"}, default "ovo"
        The binary problems of ``"average"``.
    C, step, step_until, estimator, class_weight, tol, keep_weights
        As :func:`svm_rfe` (``estimator`` with ``"average"`` only).
    random_state : int, Generator or None, default 0
        Seeds liblinear (Crammer–Singer).
    progress : callable, optional
        Called with the number of features removed by each iteration (for a progress bar).
    warm_start : bool, default False
        As :func:`rfe_lists`.

    Returns
    -------
    RFEResult
        The joint ranking.
    """
    keep_weights = check_bool(keep_weights, "keep_weights")
    warm_start = check_bool(warm_start, "warm_start")
    if criterion not in JOINT_CRITERIA:
        raise ValueError(f"criterion must be one of {list(JOINT_CRITERIA)}, got {criterion!r}")
    if decomposition not in DECOMPOSITIONS:
        raise ValueError(
            f"decomposition must be one of {list(DECOMPOSITIONS)}, got {decomposition!r}")
    C, tol, Xa, Xt, codes, classes, cw, chunks = _prepare(X, y, C, tol, class_weight, step,
                                                         step_until)
    if criterion != "average" and estimator is not None:
        raise ValueError(f"estimator= does not apply to criterion {criterion!r}")
    if criterion == "weston_watkins" and hasattr(Xa, "tocsr"):
        raise TypeError("criterion='weston_watkins' needs dense X (its solver is a dense "
                        "kernel); with sparse X use criterion 'average' or 'crammer_singer'")
    with _single_threaded_blas():
        if criterion == "average":
            return _joint_average(Xt, codes, classes, decomposition, C, cw, chunks, tol,
                                  keep_weights, estimator, Xa, progress, warm_start)
        # The multiclass SVMs see class codes, so class weights go by code (``cw``).
        return _joint_msvm(Xa, codes, len(classes), criterion, C, chunks, tol, keep_weights,
                           random_state, progress, cw)

