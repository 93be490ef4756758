"""SVM recursive feature elimination (Guyon et al. 2002) and its multiclass forms (Izetta et al.
2017); the rules are stated in docs/design.md, 'SVM-RFE'.

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
aggregation rule). The baselines run *one joint* RFE (:func:`joint_rfe`): ``"average"`` ranks by the
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

Modules (one concept each)
--------------------------
``schedule``
    :func:`rfe_schedule` and :func:`check_step`: how many features each iteration removes.
``problems``
    The binary decomposition: :class:`BinaryProblem`, :func:`binary_problems` (OVO / OVA).
``engine``
    The elimination loop of one binary problem (downdated Gram matrix, libsvm-exact dual
    solver, or a replacement ``estimator``) and the one elimination step all loops share.
``joint``
    The joint criteria over all classes: :func:`joint_rfe` (average |w|, Crammer–Singer,
    Weston–Watkins).
``_linear_svm``, ``_weston_watkins``
    The solvers: libsvm's C-SVC in the dual on a Gram matrix; Weston–Watkins by dual coordinate
    descent.
``result``
    :class:`RFEResult`, the outcome of one run.
``binary``
    The public entry points :func:`svm_rfe` (two classes) and :func:`rfe_lists` (one list per
    binary problem).
``ranker``
    The registered ranker ``"svm_rfe"`` and its several-lists form.
``regression``
    RFE with a numeric target (linear SVR or ridge): :func:`rfe_regression`, the ranker
    ``"rfe_regression"``.

One list or several
-------------------
Registered rankers give one list per call. The ranker ``"svm_rfe"``
(:func:`svm_rfe_scores`) gives the binary RFE ranking for two classes and, for more, the joint
ranking of ``criterion`` (default ``"average"``); it never aggregates. A ranker that can also
give *several* lists — one per binary problem — registers a producer of the
:class:`~rankfusion.rankers.MultiListRanker` protocol (``producer(X, y, **params) ->
RankedLists``); :func:`rankfusion.rankers.ranker_lists` returns those lists for an ensemble
selector to combine (names such as ``"svm_rfe[ALL vs AML]"``). :func:`svm_rfe_lists` is that
producer for SVM-RFE (built on :func:`rfe_lists`). Combining the binary lists into a consensus
is the selection layer's job (:class:`rankfusion.selection.SVMRFE`).

References
----------
Guyon, Weston, Barnhill & Vapnik (2002), Gene selection for cancer classification using support
vector machines, Machine Learning 46:389–422.
Izetta, Verdes & Granitto (2017), Improved multiclass feature selection via list combination,
Expert Systems with Applications 88:205–216.
Zhou & Tuck (2007), MSVM-RFE: extensions of SVM-RFE for multiclass gene selection on DNA
microarray data, Bioinformatics 23:1106–1114.
"""

from .binary import rfe_lists, svm_rfe
from .joint import JOINT_CRITERIA, joint_rfe
from .problems import DECOMPOSITIONS, BinaryProblem, binary_problems
from .ranker import SVM_CONSTRAINTS, svm_rfe_lists, svm_rfe_scores
from .regression import REGRESSION_MODELS, rfe_regression, rfe_regression_scores
from .result import RFEResult
from .schedule import check_step, rfe_schedule

__all__ = [
    "rfe_schedule",
    "rfe_regression",
    "rfe_regression_scores",
    "REGRESSION_MODELS",
    "check_step",
    "BinaryProblem",
    "binary_problems",
    "RFEResult",
    "svm_rfe",
    "rfe_lists",
    "joint_rfe",
    "svm_rfe_scores",
    "SVM_CONSTRAINTS",
    "svm_rfe_lists",
    "JOINT_CRITERIA",
    "DECOMPOSITIONS",
]
