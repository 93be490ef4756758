"""RFE with a numeric target: a linear SVR or a ridge regression in the SVM-RFE engine
(docs/design.md, 'Tasks').

The loop is SVM-RFE's (:func:`~rankfusion.rankers.svm_rfe`: the same schedule, the same
elimination step, ``w_i²`` as the criterion, ties leaving lower index first); only the model
fitted on each iteration's features changes: scikit-learn's ``LinearSVR`` (Drucker et al.
1997, ε-insensitive loss, liblinear; seeded) or ``Ridge`` (Hoerl & Kennard 1970), refitted from
scratch. The rankings equal scikit-learn's ``RFE(estimator=LinearSVR(...)/Ridge(...),
step=...)`` driven with the same schedule. The features are used as given: z-score them first
when their units differ (a linear model's weights are not scale invariant).

References
----------
Guyon, I., Weston, J., Barnhill, S. & Vapnik, V. (2002). Gene selection for cancer
classification using support vector machines. Machine Learning 46, 389–422.
Drucker, H., Burges, C. J. C., Kaufman, L., Smola, A. & Vapnik, V. (1997). Support vector
regression machines. NIPS 9, 155–161.
"""

from __future__ import annotations

import numpy as np

from ..._utils.constraints import Interval, Options, validate_params
from ..._utils.data import check_features
from ..._utils.seeding import seed_int
from ..._utils.sparse import issparse
from ..._utils.task import check_regression_target
from .._registry import RANDOM_STATE, register_ranker
from ..sparse_ridge import SparseRidge
from ._checks import _check_X
from .engine import _rfe_estimator
from .result import RFEResult
from .schedule import check_step, rfe_schedule

__all__ = ["rfe_regression", "rfe_regression_scores", "REGRESSION_MODELS"]

#: The built-in models of :func:`rfe_regression`.
REGRESSION_MODELS = ("linear_svr", "ridge")

RFE_REGRESSION_CONSTRAINTS = {
    "model": [Options(*REGRESSION_MODELS)],
    "C": [Interval("real", 0, None, closed="neither")],
    "alpha": [Interval("real", 0, None, closed="neither")],
    "epsilon": [Interval("real", 0, None, closed="left")],
    "step": [Interval("int", 1, None), Interval("real", 0, 1, closed="neither")],
    "step_until": [Interval("int", 1, None)],
    "max_iter": [Interval("int", 1, None)],
    "random_state": RANDOM_STATE,
}


def _model(model, C, alpha, epsilon, max_iter, random_state):
    if model == "ridge":
        from sklearn.linear_model import Ridge

        return Ridge(alpha=float(alpha))
    from sklearn.svm import LinearSVR

    return LinearSVR(C=float(C), epsilon=float(epsilon), max_iter=int(max_iter),
                     random_state=seed_int(random_state) % (2 ** 32), dual=True)


def rfe_regression(X, y, *, model: str = "ridge", C: float = 1.0, alpha: float = 1.0,
                   epsilon: float = 0.0, step: int | float = 0.1, step_until: int = 20,
                   max_iter: int = 10000, random_state=0, estimator=None,
                   keep_weights: bool = True) -> RFEResult:
    """Recursive feature elimination with a linear regression model (Guyon et al. 2002's
    loop with Izetta et al.'s schedule, :func:`~rankfusion.rankers.rfe_schedule`).

    Parameters
    ----------
    X : array-like or scipy.sparse matrix of shape (n_samples, n_features)
        Finite numbers (used as given). A sparse X stays sparse (CSR), each iteration's
        columns taken from it; a replacement ``estimator`` must then fit on sparse input.
    y : array-like of shape (n_samples,)
        The numeric target.
    model : {"ridge", "linear_svr"}, default "ridge"
        ``Ridge(alpha=alpha)`` or ``LinearSVR(C=C, epsilon=epsilon, max_iter=max_iter,
        random_state=random_state, dual=True)``.
    C : float, default 1.0
        LinearSVR's C.
    alpha : float, default 1.0
        Ridge's penalty.
    epsilon : float, default 0.0
        LinearSVR's ε (the insensitive zone).
    step, step_until : see :func:`~rankfusion.rankers.rfe_schedule`.
    max_iter : int, default 10000
        LinearSVR's iteration limit.
    random_state : int, Generator or None, default 0
        Seeds liblinear's coordinate descent (LinearSVR only).
    estimator : regressor with ``coef_``, optional
        Replaces ``model`` (refitted on each iteration's features).
    keep_weights : bool, default True
        Keep each iteration's ``coef_``.

    Returns
    -------
    RFEResult
        ``ranking``: position 1 = the last survivor.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(50, 4))
    >>> rfe_regression(X, 3 * X[:, 2] - X[:, 0] + 0.1 * rng.normal(size=50), step=1).ranking
    array([2, 4, 1, 3])
    """
    validate_params(RFE_REGRESSION_CONSTRAINTS, {
        "model": model, "C": C, "alpha": alpha, "epsilon": epsilon, "max_iter": max_iter,
        "random_state": random_state})
    step, step_until = check_step(step, step_until)
    # a sparse X stays sparse (CSR; LinearSVR and Ridge fit on it): docs/design.md,
    # 'Sparse input'
    Xa, _ = _check_X(check_features(X, allow_nominal=False, allow_missing=False,
                                    accept_sparse="csr", who="rfe_regression")[0])
    t = check_regression_target(y, Xa.shape[0], name="y")
    est = estimator if estimator is not None else _model(model, C, alpha, epsilon, max_iter,
                                                         random_state)
    if estimator is None and model == "ridge" and issparse(Xa):
        # scikit-learn's sparse ridge solvers are iterative (stopped at tol): the exact
        # solve of the dense fit's equations instead, so sparse and dense rank alike
        est = SparseRidge(alpha=float(alpha))
    chunks = rfe_schedule(Xa.shape[1], step, step_until)
    return _rfe_estimator(Xa, t, est, chunks, bool(keep_weights), f"rfe({model})")


@register_ranker("rfe_regression", aliases=("svr_rfe",),
                 tags={"allow_nan": False, "tasks": ("regression",), "sparse": True},
                 constraints=RFE_REGRESSION_CONSTRAINTS)
def rfe_regression_scores(X, y, *, model: str = "ridge", C: float = 1.0, alpha: float = 1.0,
                          epsilon: float = 0.0, step: int | float = 0.1, step_until: int = 20,
                          max_iter: int = 10000, random_state=0) -> np.ndarray:
    """Ranker form of :func:`rfe_regression`: ``p − position`` (the best feature gets
    ``p − 1``).

    Parameters
    ----------
    X, y, model, C, alpha, epsilon, step, step_until, max_iter, random_state
        As :func:`rfe_regression`.

    Returns
    -------
    ndarray of float, shape (n_features,)
    """
    res = rfe_regression(X, y, model=model, C=C, alpha=alpha, epsilon=epsilon, step=step,
                         step_until=step_until, max_iter=max_iter, random_state=random_state,
                         keep_weights=False)
    return (res.ranking.shape[0] - res.ranking).astype(np.float64)
