"""SVM recursive feature elimination (Guyon et al. 2002) and its multiclass forms (Izetta et al.
2017; GUIDE §5).

Binary SVM-RFE: fit a linear SVM on the remaining features, remove the features with the
smallest criterion ``w_i²``, repeat. The *schedule* follows Izetta et al. §3.1: while
``n ≥ step_until`` (20) features remain, remove ``max(1, ⌊step·n⌋)`` of them (``step=0.1``; a
chunk may take n below 20), then one at a time; an integer ``step`` removes that many each time.
Features leave in ascending order of ``w²`` (ties: the lower index leaves first, a stable sort),
so inside a removed chunk the smaller ``w²`` ranks lower. The reverse elimination order is the
ranking: a full ranking without ties, position 1 = the last surviving feature.

Multiclass (Izetta et al. §2): the problem is decomposed into binary ones — one-vs-one (OVO,
c(c−1)/2 problems, each on its two classes' samples) or one-vs-all (OVA, c problems) — and each
gets its own full RFE ranking (:func:`rfe_lists`, a :class:`~rankfusion.RankedLists` for any
§4 rule). The baselines run *one joint* RFE (:func:`joint_rfe`): ``"average"`` ranks by the
mean ``|w_ij|`` over the binary problems (Zhou & Tuck 2007's OVO, Izetta's "Average"),
``"crammer_singer"`` and ``"weston_watkins"`` by ``Σ_k w_ki²`` of a multiclass linear SVM
(MSVM-RFE, Zhou & Tuck 2007).

The linear SVM is libsvm's C-SVC (scikit-learn's ``SVC(kernel="linear")``), solved in the dual
on the Gram matrix by :mod:`._linear_svm`, which follows libsvm's own path (working-set
selection, shrinking, float32 kernel values), so that at libsvm's loose default tolerance the
rankings are exactly those of ``RFE(SVC(kernel="linear"))``. The Gram matrix is computed once per
problem and downdated as features leave (``K ← K − X_R X_Rᵀ``); α can be carried over between
iterations (``warm_start=True``: the same optimum, another approximate point at a loose
tolerance, so off by default). Any linear estimator exposing ``coef_`` can replace the SVM
(``estimator=``); it is then refitted from scratch on each iteration's features.

References
----------
Guyon, Weston, Barnhill & Vapnik (2002), Gene selection for cancer classification using support
vector machines, Machine Learning 46:389–422.
Izetta, Verdes & Granitto (2017), Improved multiclass feature selection via list combination,
Expert Systems with Applications 88:205–216.
Zhou & Tuck (2007), MSVM-RFE: extensions of SVM-RFE for multiclass gene selection on DNA
microarray data, Bioinformatics 23:1106–1114.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np
from joblib import Parallel, delayed

from ..lists import RankedLists
from ._linear_svm import smo_gram
from ._registry import register_ranker

__all__ = [
    "rfe_schedule",
    "BinaryProblem",
    "binary_problems",
    "RFEResult",
    "svm_rfe",
    "rfe_lists",
    "joint_rfe",
    "JOINT_CRITERIA",
    "DECOMPOSITIONS",
]

DECOMPOSITIONS = ("ovo", "ova")
JOINT_CRITERIA = ("average", "crammer_singer", "weston_watkins")


# --------------------------------------------------------------------------- schedule
def _check_step(step, step_until) -> tuple[int | float, int]:
    if isinstance(step, bool) or not isinstance(step, numbers.Real):
        raise TypeError(f"step must be an int ≥ 1 or a float in (0, 1), got {step!r}")
    if isinstance(step, numbers.Integral):
        if step < 1:
            raise ValueError(f"step must be an int ≥ 1 or a float in (0, 1), got {step!r}")
        step = int(step)
    else:
        step = float(step)
        if not 0.0 < step < 1.0:
            raise ValueError(f"step must be an int ≥ 1 or a float in (0, 1), got {step!r}")
    if isinstance(step_until, bool) or not isinstance(step_until, numbers.Integral):
        raise TypeError(f"step_until must be an int ≥ 1, got {step_until!r}")
    if step_until < 1:
        raise ValueError(f"step_until must be an int ≥ 1, got {step_until!r}")
    return step, int(step_until)


def rfe_schedule(n_features: int, step: int | float = 0.1, step_until: int = 20,
                 n_final: int = 1) -> np.ndarray:
    """How many features each RFE iteration removes, until ``n_final`` remain.

    Float ``step`` (Izetta et al. §3.1, GUIDE §5): with n features left, remove
    ``max(1, ⌊step·n⌋)`` while ``n ≥ step_until``, else 1 (a chunk may cross below
    ``step_until``). Integer ``step``: remove ``step`` each time (the last chunk stops at
    ``n_final``), as scikit-learn's ``RFE(step=int)``.

    Examples
    --------
    >>> rfe_schedule(30).tolist()
    [3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    >>> rfe_schedule(10, step=4).tolist()
    [4, 4, 1]
    """
    step, step_until = _check_step(step, step_until)
    n = int(n_features)
    chunks = []
    while n > n_final:
        if isinstance(step, int):
            r = step
        else:
            r = max(1, int(np.floor(step * n))) if n >= step_until else 1
        r = min(r, n - n_final)
        chunks.append(r)
        n -= r
    return np.asarray(chunks, dtype=np.int64)


# --------------------------------------------------------------------------- problems
@dataclass(frozen=True)
class BinaryProblem:
    """One binary problem of a decomposition.

    ``samples`` are row indices into X (None = all rows); ``y`` holds +1 / −1 for them;
    ``positive`` and ``negative`` are the class codes on each side (``negative`` is -1 for
    "the rest").
    """

    name: str
    samples: np.ndarray | None
    y: np.ndarray
    positive: int
    negative: int


def binary_problems(y_codes: np.ndarray, classes,
                    decomposition: str = "ovo") -> list[BinaryProblem]:
    """The binary problems of ``decomposition`` ("ovo" or "ova") for class codes ``y_codes``.

    OVO problems come in class order (0 vs 1, 0 vs 2, …, 1 vs 2, …) and are named
    ``"A_vs_B"``; OVA problems are named ``"A_vs_rest"``. Two classes give one problem,
    ``"A_vs_B"``, whatever the decomposition. In each problem the second class (the rest) is
    −1 and the first +1.
    """
    if decomposition not in DECOMPOSITIONS:
        raise ValueError(
            f"decomposition must be one of {list(DECOMPOSITIONS)}, got {decomposition!r}")
    y_codes = np.asarray(y_codes)
    c = len(classes)
    names = [str(k) for k in classes]
    out = []
    if c == 2 or decomposition == "ovo":
        for a in range(c):
            for b in range(a + 1, c):
                # Samples grouped by class, first class first, as libsvm orders them: the
                # solver's ties (and so its path at a loose tolerance) then follow SVC's.
                idx = np.concatenate([np.flatnonzero(y_codes == a), np.flatnonzero(y_codes == b)])
                yb = np.where(y_codes[idx] == a, 1.0, -1.0)
                out.append(BinaryProblem(f"{names[a]}_vs_{names[b]}", idx, yb, a, b))
    else:
        for a in range(c):
            # As SVC sees ``y == a``: the rest (False, the first class) is +1 and comes first.
            idx = np.concatenate([np.flatnonzero(y_codes != a), np.flatnonzero(y_codes == a)])
            yb = np.where(y_codes[idx] == a, -1.0, 1.0)
            out.append(BinaryProblem(f"{names[a]}_vs_rest", idx, yb, a, -1))
    return out


def _sample_C(problem: BinaryProblem, y_codes, C: float, class_weight, n_classes) -> np.ndarray:
    """Per-sample box bounds ``C_t = C · weight``; ``class_weight`` None, dict by class code
    (already translated) or "balanced" (computed on the binary labels, as SVC on that problem).
    """
    yb = problem.y
    if class_weight is None:
        return np.full(yb.shape[0], float(C))
    if isinstance(class_weight, str):  # "balanced"
        n = yb.shape[0]
        n_pos = float((yb > 0).sum())
        n_neg = n - n_pos
        return np.where(yb > 0, C * n / (2.0 * n_pos), C * n / (2.0 * n_neg))
    codes = y_codes if problem.samples is None else y_codes[problem.samples]
    w = np.asarray([class_weight.get(k, 1.0) for k in range(n_classes)], dtype=np.float64)
    return C * w[codes]


# --------------------------------------------------------------------------- results
@dataclass
class RFEResult:
    """The outcome of one RFE run.

    Attributes
    ----------
    name : str
        The binary problem (``"A_vs_B"``), or the joint criterion.
    ranking : ndarray of int, shape (p,)
        Position of each feature, 1 = best (the last survivor); a full ranking without ties.
    elimination_order : ndarray of int, shape (p,)
        Feature indices in the order they left; the last one is the best.
    n_features : list of int
        Number of features fitted at each iteration.
    removed : list of int
        Number removed at each iteration.
    weights : list of ndarray or None
        Per iteration, the criterion's weights on the remaining features (in ascending feature
        index order, :meth:`features_at`): ``w`` of the binary SVM, or the joint criterion
        (mean ``|w_ij|``, ``Σ_k w_ki²``). None when not kept.
    n_iter : list of int
        Solver iterations per RFE iteration (SMO steps or CD epochs; empty for ``estimator=``).
    """

    name: str
    ranking: np.ndarray
    elimination_order: np.ndarray
    n_features: list = field(default_factory=list)
    removed: list = field(default_factory=list)
    weights: list | None = None
    n_iter: list = field(default_factory=list)

    @property
    def order(self) -> np.ndarray:
        """Feature indices best first."""
        return self.elimination_order[::-1].copy()

    def features_at(self, iteration: int) -> np.ndarray:
        """The (sorted) feature indices fitted at ``iteration``."""
        start = int(np.sum(self.removed[:iteration]))
        return np.sort(self.elimination_order[start:])

    def weights_matrix(self) -> np.ndarray:
        """p × iterations matrix of the weights, NaN where a feature had already left."""
        if self.weights is None:
            raise ValueError("weights were not kept (keep_weights=False)")
        p = self.ranking.shape[0]
        out = np.full((p, len(self.weights)), np.nan)
        for t, w in enumerate(self.weights):
            out[self.features_at(t), t] = w
        return out


def _finish(name, elim, n_feats, removed, weights, n_iter, p) -> RFEResult:
    elim = np.asarray(elim, dtype=np.int64)
    ranking = np.empty(p, dtype=np.int64)
    ranking[elim] = np.arange(p, 0, -1)
    return RFEResult(name, ranking, elim, n_feats, removed, weights, n_iter)


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
        self.Xt = Xt_rows  # p × n_S, C-contiguous
        self.K = np.ascontiguousarray(Xt_rows.T @ Xt_rows)
        self.base = Xt_rows.shape[0]

    def remove(self, removed: np.ndarray, remaining: np.ndarray) -> None:
        m = remaining.shape[0]
        if removed.shape[0] >= m or 2 * m <= self.base:
            Xm = self.Xt[remaining]
            self.K = np.ascontiguousarray(Xm.T @ Xm)
            self.base = m
        else:
            Xr = self.Xt[removed]
            self.K -= Xr.T @ Xr


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
        # row by row (not BLAS): identical features get bit-identical weights wherever they
        # sit, so exact ties leave in index order (GUIDE §5)
        w = (Xt[np.ix_(rem, sv)] * ay).sum(axis=1)
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


def _binary_class_weight(problem, class_weight):
    """The binary labels' weights for a replacement ``estimator``.

    OVO: class ``positive`` is +1, class ``negative`` −1. OVA: the class itself is −1 and the
    rest +1 (as SVC sees ``y == a``); the rest gets weight 1 here, whereas the built-in solver
    weights each "rest" sample by its own class's weight (a per-class dict cannot say that).
    """
    if class_weight is None or isinstance(class_weight, str):
        return class_weight
    if problem.negative < 0:  # OVA
        return {-1.0: class_weight.get(problem.positive, 1.0), 1.0: 1.0}
    return {1.0: class_weight.get(problem.positive, 1.0),
            -1.0: class_weight.get(problem.negative, 1.0)}


def _run_problem(X, Xt, y_codes, n_classes, problem, *, C, chunks, estimator, class_weight,
                 tol, keep_weights, warm_start=False):
    if estimator is not None:
        Xs = X if problem.samples is None else X[problem.samples]
        est = _estimator_for(estimator, _binary_class_weight(problem, class_weight))
        return _rfe_estimator(Xs, problem.y, est, chunks, keep_weights, problem.name)
    Xts = Xt if problem.samples is None else np.ascontiguousarray(Xt[:, problem.samples])
    Cvec = _sample_C(problem, y_codes, C, class_weight, n_classes)
    return _rfe_svm_gram(Xts, problem.y, Cvec, chunks, tol, keep_weights, problem.name,
                         warm_start)


# --------------------------------------------------------------------------- validation
def _check_X(X) -> tuple[np.ndarray, np.ndarray]:
    """float64 X (n × p) and its transpose p × n, both C-contiguous; finite values only."""
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (samples × features); got shape {X.shape}")
    if not np.isfinite(X).all():
        raise ValueError("X contains NaN or inf; SVM-RFE needs finite numeric values")
    return np.ascontiguousarray(X), np.ascontiguousarray(X.T)


def _prepare(X, y, C, tol, class_weight, step, step_until):
    """The checks every public entry shares: (C, tol, X, Xᵀ, class codes, classes, class
    weights, elimination chunks)."""
    C = _check_C(C)
    tol = _check_tol(tol)
    Xa, Xt = _check_X(X)
    codes, classes = _codes(y)
    if codes.shape[0] != Xa.shape[0]:
        raise ValueError(f"y has {codes.shape[0]} labels but X has {Xa.shape[0]} samples")
    cw = _check_class_weight(class_weight, classes)
    chunks = rfe_schedule(Xa.shape[1], step, step_until)
    return C, tol, Xa, Xt, codes, classes, cw, chunks


def _check_tol(tol) -> float:
    if isinstance(tol, bool) or not isinstance(tol, (int, float, np.integer, np.floating)):
        raise TypeError(f"tol must be a positive number, got {tol!r}")
    if not (np.isfinite(tol) and tol > 0):
        raise ValueError(f"tol must be a positive finite number, got {tol!r}")
    return float(tol)


def _check_C(C) -> float:
    if isinstance(C, bool) or not isinstance(C, numbers.Real) or not np.isfinite(C) or C <= 0:
        raise ValueError(f"C must be a positive finite number, got {C!r}")
    return float(C)


def _check_class_weight(class_weight, classes):
    """None, "balanced" or a dict by class label → dict by class code."""
    if class_weight is None or (isinstance(class_weight, str) and class_weight == "balanced"):
        return class_weight
    if not isinstance(class_weight, dict):
        raise ValueError(f"class_weight must be None, 'balanced' or a dict, got {class_weight!r}")
    lut = {k: i for i, k in enumerate(list(classes))}
    out = {}
    for k, v in class_weight.items():
        if k not in lut:
            raise ValueError(f"class_weight names class {k!r}, not among {list(classes)}")
        if not np.isfinite(v) or v <= 0:
            raise ValueError(f"class_weight[{k!r}] must be positive, got {v!r}")
        out[lut[k]] = float(v)
    return out


def _codes(y):
    from .._utils.data import check_target

    return check_target(y)


# --------------------------------------------------------------------------- public API
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
    X, y, C, step, step_until, estimator, class_weight, tol, keep_weights
        As :func:`svm_rfe`.
    decomposition : {"ovo", "ova"}
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


def _run_all(Xa, Xt, codes, classes, problems, kw, n_jobs, progress):
    if n_jobs in (None, 1) or len(problems) == 1:
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


# --------------------------------------------------------------------------- joint RFE
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
            gram = _Gram(np.ascontiguousarray(Xt[:, pb.samples]))
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
            w = (Xt[np.ix_(rem, cols)] * (res.alpha[sv] * pb.y[sv])).sum(axis=1)
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
    ``"weston_watkins"``: our Weston–Watkins solver (:mod:`._weston_watkins`). For both
    multiclass SVMs the criterion is ``Σ_k w_ki²`` (MSVM-RFE). ``tol`` is the solver's
    tolerance (SMO gap for the binary SVMs, projected-gradient for Weston–Watkins);
    ``random_state`` seeds liblinear (Crammer–Singer) only. ``warm_start`` as in
    :func:`rfe_lists` (the binary SVMs of ``"average"``; Weston–Watkins always warm-starts its
    dual, which has a unique optimum in w).
    """
    if criterion not in JOINT_CRITERIA:
        raise ValueError(f"criterion must be one of {list(JOINT_CRITERIA)}, got {criterion!r}")
    if decomposition not in DECOMPOSITIONS:
        raise ValueError(
            f"decomposition must be one of {list(DECOMPOSITIONS)}, got {decomposition!r}")
    C, tol, Xa, Xt, codes, classes, cw, chunks = _prepare(X, y, C, tol, class_weight, step,
                                                         step_until)
    if criterion != "average" and estimator is not None:
        raise ValueError(f"estimator= does not apply to criterion {criterion!r}")
    with _single_threaded_blas():
        if criterion == "average":
            return _joint_average(Xt, codes, classes, decomposition, C, cw, chunks, tol,
                                  keep_weights, estimator, Xa, progress, warm_start)
        # The multiclass SVMs see class codes, so class weights go by code (``cw``).
        return _joint_msvm(Xa, codes, len(classes), criterion, C, chunks, tol, keep_weights,
                           random_state, progress, cw)


@register_ranker("svm_rfe")
def svm_rfe_scores(X, y, **params) -> np.ndarray:
    """Ranker form: ``p − position`` of :class:`rankfusion.SVMRFE`'s consensus ranking
    (OVO + K-First by default; binary data: the single SVM-RFE ranking)."""
    from .._utils.data import check_classification_data
    from ..selection.svm_rfe import SVMRFE

    data = check_classification_data(X, y, allow_nominal=False, allow_missing=False)
    sel = SVMRFE(**params).fit(data.values, data.y)
    return (sel.n_features_in_ - sel.ranking_).astype(np.float64)
