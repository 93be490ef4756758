"""The elimination engine: the RFE loop of one binary problem (private to this package).

:func:`_eliminate` is the one elimination step every loop shares: the ``r`` remaining features
with the smallest criterion leave, ties by the lower index first (a stable sort). The built-in
loop (:func:`_rfe_svm_gram`) fits libsvm's C-SVC in the dual on a Gram matrix that is computed
once per problem and downdated as features leave (:class:`_Gram`); following libsvm's path
exactly, it reproduces ``RFE(SVC(kernel="linear"))`` feature for feature. Any linear estimator
exposing ``coef_`` can replace the SVM (:func:`_rfe_estimator`, refitted from scratch on each
iteration).
"""

from __future__ import annotations

import numpy as np
from joblib import Parallel, delayed

from ..._utils.jit import thread_budget
from ._linear_svm import smo_gram
from .problems import _binary_class_weight, _sample_C
from .result import _finish


def _leaving(crit: np.ndarray, r: int) -> np.ndarray:
    """Positions (into the remaining set) of the r smallest criteria, ascending, ties by index."""
    return np.argsort(crit, kind="stable")[:r]


def _eliminate(rem, criterion, r, elim, n_feats):
    """One RFE step: the ``r`` features of ``rem`` with the smallest ``criterion`` leave (in
    :func:`_leaving`'s order) and are appended to ``elim``; ``n_feats`` records how many were
    left. Returns (the remaining features, the leaving ones)."""
    out = _leaving(criterion, int(r))
    leaving = rem[out]
    elim.extend(leaving.tolist())
    n_feats.append(int(rem.shape[0]))
    keep = np.ones(rem.shape[0], dtype=bool)
    keep[out] = False
    return rem[keep], leaving


# --------------------------------------------------------------------------- engines
class _Gram:
    """K = X_S X_Sᵀ for the rows S of one problem, kept for the remaining features.

    Downdated when features leave; recomputed from the remaining columns when that is cheaper
    or when the remaining set has halved since the last recomputation (bounds the rounding
    error that repeated subtraction accumulates).
    """

    def __init__(self, Xt_rows: np.ndarray):
        self.Xt = Xt_rows  # p × n_S, C-contiguous (or scipy.sparse CSR: docs/design.md,
        self.K = _gram(Xt_rows)  # 'Sparse input')
        self.base = Xt_rows.shape[0]

    def remove(self, removed: np.ndarray, remaining: np.ndarray) -> None:
        m = remaining.shape[0]
        if removed.shape[0] >= m or 2 * m <= self.base:
            self.K = _gram(self.Xt[remaining])
            self.base = m
        else:
            self.K -= _gram(self.Xt[removed])


def _gram(Xt_rows) -> np.ndarray:
    """``Xᵀ X`` of a p × n block as a dense n × n array (a sparse block multiplies sparsely:
    only the n × n result is dense)."""
    K = Xt_rows.T @ Xt_rows
    return np.ascontiguousarray(K.toarray() if hasattr(K, "toarray") else K)


def _columns(Xt, samples):
    """The columns ``samples`` of Xᵀ (a problem's samples), C-contiguous or CSR."""
    if hasattr(Xt, "tocsr"):
        return Xt[:, samples].tocsr()
    return np.ascontiguousarray(Xt[:, samples])


def _sv_weights(Xt, rem, cols, ay) -> np.ndarray:
    """``w_j = Σ_t ay_t x_{t,j}`` for the remaining features ``rem`` over the support vectors
    ``cols``, row by row (not BLAS): identical features get bit-identical weights wherever
    they sit, so exact ties leave in index order (docs/design.md, 'Ties and determinism').
    A sparse Xᵀ is summed the same way, a block of rows made dense at a time
    (:data:`SPARSE_ROW_BLOCK_BYTES`), so its weights are bit for bit the dense path's."""
    if hasattr(Xt, "tocsr"):
        sub = Xt[rem][:, cols]
        step = max(1, int(SPARSE_ROW_BLOCK_BYTES // (8 * max(len(cols), 1))))
        out = np.empty(sub.shape[0])
        for start in range(0, sub.shape[0], step):
            block = sub[start:start + step].toarray()
            out[start:start + step] = (block * ay).sum(axis=1)
        return out
    return (Xt[np.ix_(rem, cols)] * ay).sum(axis=1)


#: Bytes of the dense row blocks of :func:`_sv_weights` on a sparse Xᵀ (a few rows of
#: |support vectors| values each; never the whole matrix).
SPARSE_ROW_BLOCK_BYTES = 16 * 2**20


def _rfe_svm_gram(Xt, yb, Cvec, chunks, tol, keep_weights, name, warm_start=False):
    """Binary RFE with the dual SVM on a downdated Gram matrix. ``Xt`` is p × n (C order).

    Cold starts (``warm_start=False``) follow libsvm's path exactly, so at libsvm's loose
    default tolerance the rankings are ``RFE(SVC(kernel="linear"))``'s; warm starts reuse the
    previous α (faster; the same optimum, a different approximate one at a loose ``tol``).
    """
    p = Xt.shape[0]
    gram = _Gram(Xt)
    rem = np.arange(p)
    alpha = None
    elim, n_feats, weights, n_iter = [], [], [] if keep_weights else None, []
    ay = None
    for r in chunks:
        res = smo_gram(gram.K, yb, Cvec, alpha0=alpha if warm_start else None, tol=tol)
        alpha = res.alpha
        sv = np.flatnonzero(alpha > 0)
        ay = alpha[sv] * yb[sv]
        w = _sv_weights(Xt, rem, sv, ay)
        n_iter.append(res.n_iter)
        if keep_weights:
            weights.append(w)
        rem, leaving = _eliminate(rem, w * w, r, elim, n_feats)
        if rem.shape[0] > 1:
            gram.remove(leaving, rem)
    elim.extend(rem.tolist())
    return _finish(name, elim, n_feats, [int(r) for r in chunks], weights, n_iter, p)


def _coef_criterion(est) -> np.ndarray:
    coef = getattr(est, "coef_", None)
    if coef is None:
        raise TypeError(
            f"estimator {type(est).__name__} has no coef_ after fit; SVM-RFE needs a linear "
            "estimator exposing coef_"
        )
    coef = np.asarray(coef, dtype=np.float64)
    if coef.ndim == 1:
        return coef * coef
    return (coef * coef).sum(axis=0)


def _rfe_estimator(X, yb, estimator, chunks, keep_weights, name):
    """Binary RFE refitting a clone of ``estimator`` on each iteration's features."""
    from sklearn.base import clone

    p = X.shape[1]
    rem = np.arange(p)
    elim, n_feats, weights = [], [], [] if keep_weights else None
    for r in chunks:
        est = clone(estimator).fit(X[:, rem], yb)
        crit = _coef_criterion(est)
        if crit.shape[0] != rem.shape[0]:
            raise ValueError(
                f"estimator coef_ has {crit.shape[0]} columns for {rem.shape[0]} features")
        if keep_weights:
            coef = np.asarray(est.coef_, dtype=np.float64)
            weights.append(coef.ravel().copy() if coef.ndim == 1 or coef.shape[0] == 1 else crit)
        rem, _ = _eliminate(rem, crit, r, elim, n_feats)
    elim.extend(rem.tolist())
    return _finish(name, elim, n_feats, [int(r) for r in chunks], weights, [], p)


def _estimator_for(estimator, class_weight_bin):
    from sklearn.base import clone

    est = clone(estimator)
    if class_weight_bin is not None:
        if "class_weight" not in est.get_params():
            raise ValueError(
                f"class_weight was given but estimator {type(est).__name__} has no class_weight"
            )
        est.set_params(class_weight=class_weight_bin)
    return est



def _run_problem(X, Xt, y_codes, n_classes, problem, *, C, chunks, estimator, class_weight,
                 tol, keep_weights, warm_start=False):
    if estimator is not None:
        Xs = X if problem.samples is None else X[problem.samples]
        est = _estimator_for(estimator, _binary_class_weight(problem, class_weight))
        return _rfe_estimator(Xs, problem.y, est, chunks, keep_weights, problem.name)
    Xts = Xt if problem.samples is None else _columns(Xt, problem.samples)
    Cvec = _sample_C(problem, y_codes, C, class_weight, n_classes)
    return _rfe_svm_gram(Xts, problem.y, Cvec, chunks, tol, keep_weights, problem.name,
                         warm_start)



_CONTROLLER = []


def _single_threaded_blas():
    """BLAS on one thread: the Gram updates are small, and multi-threaded BLAS on small
    matrices spends its time synchronising (7× slower on a loaded 2-core machine); the
    parallelism is across binary problems (``n_jobs``). The thread-pool controller is built
    once (finding the BLAS libraries reads the process's memory map)."""
    from threadpoolctl import ThreadpoolController

    if not _CONTROLLER:
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1, user_api="blas")


#: Work (Σ over the binary problems of samples² × features, the Gram matrices' cost) from
#: which problems run on several threads: below it starting the threads costs more than they
#: save (St. Jude, 15 OVO problems ≈ 0.15 × 10⁹, took 0.12–0.15 s on 2 threads against 0.10 s
#: on one; docs/design.md, 'Threads').
PARALLEL_FROM = 10**9


def _problem_jobs(n_jobs, problems, n_samples: int, n_features: int) -> int:
    """Threads for the binary problems: 1 below :data:`PARALLEL_FROM`, else the thread budget
    of ``n_jobs`` (never more than the problems or the free cores)."""
    if n_jobs in (None, 1) or len(problems) == 1:
        return 1
    work = sum((n_samples if pb.samples is None else len(pb.samples)) ** 2
               for pb in problems) * n_features
    if work < PARALLEL_FROM:
        return 1
    return min(thread_budget(n_jobs), len(problems))


def _run_all(Xa, Xt, codes, classes, problems, kw, n_jobs, progress):
    n_jobs = _problem_jobs(n_jobs, problems, Xa.shape[0], Xa.shape[1])
    if n_jobs == 1:
        results = []
        for pb in problems:
            results.append(_run_problem(Xa, Xt, codes, len(classes), pb, **kw))
            if progress is not None:
                progress(results[-1])
    else:
        gen = Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")(
            delayed(_run_problem)(Xa, Xt, codes, len(classes), pb, **kw) for pb in problems
        )
        results = []
        for r in gen:
            results.append(r)
            if progress is not None:
                progress(r)
    return results

