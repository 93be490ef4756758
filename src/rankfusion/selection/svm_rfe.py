"""Multiclass SVM-RFE with list combination (Izetta et al. 2017): the consensus layer.

The rankers layer gives the lists (:func:`rankfusion.rankers.rfe_lists`, one per binary
problem) and the joint baselines (:func:`rankfusion.rankers.joint_rfe`); this module combines
them. :func:`svm_rfe_rankings` is the one place that decides which run each method needs
(the per-problem lists and a rule, the joint Average RFE, or an MSVM-RFE run) and how seeds
reach every random step; :class:`SVMRFE` (the scikit-learn selector) and the ``svm-rfe``
command both call it. :func:`choose_C` is ``C="cv"``. The rules are stated in docs/design.md,
'SVM-RFE', 'Seeds' and 'Fractions'.
"""

from __future__ import annotations

import contextlib
import hashlib
import numbers
import warnings
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._utils.constraints import (
    Check,
    InstanceOf,
    Interval,
    Jobs,
    Options,
    Table,
    check_param,
    validate_params,
)
from .._utils.data import target_problem
from .._utils.registry import closest_name
from .._utils.seeding import seed_int, spawn
from .._utils.sparse import densify, is_sparse, sparse_refusal
from .._utils.task import TASKS, as_class_labels, check_regression_target, resolve_task
from .._utils.validation import check_bool, check_top_k, resolve_n_features
from ..aggregation import aggregate, available_rules, resolve, rule_info
from ..lists import RankedLists
from ..rankers import joint_rfe, rfe_lists, rfe_regression, rfe_schedule
from ..rankers.rfe import SVM_CONSTRAINTS
from .ranker_specs import ACCEPT_SPARSE_CONSTRAINTS, densify_asked
from .regression import regression_folds
from .subset_size import SIZE_CONSTRAINTS, search_size

__all__ = ["SVMRFE", "C_GRID", "SVMRFE_DECOMPOSITIONS", "SVMRFE_CRITERIA", "SVMRFERankings",
           "svm_rfe_rankings", "choose_C", "choose_C_regression", "linear_svr",
           "rfe_lists_memo", "resolve_criterion"]

#: The C values searched by ``C="cv"`` (Izetta et al. §3.1: 10^-3 … 10^3).
C_GRID = tuple(10.0 ** k for k in range(-3, 4))

#: The decompositions of :class:`SVMRFE` into binary problems (``ovo``, ``ova``), and the two
#: MSVM names it still takes there for one release (deprecated: ``criterion=``).
SVMRFE_DECOMPOSITIONS = ("ovo", "ova", "crammer_singer", "weston_watkins")
_MSVM = ("crammer_singer", "weston_watkins")

#: The criteria of :class:`SVMRFE`: ``"binary"`` = one RFE per binary problem of the
#: decomposition (then a rule combines the lists, or ``"average"`` runs the joint RFE on mean
#: ``|w|``); ``"crammer_singer"`` / ``"weston_watkins"`` = one MSVM-RFE on ``Σ_k w_ki²``.
SVMRFE_CRITERIA = ("binary", *_MSVM)

#: The constraints of the parameters :func:`svm_rfe_rankings` and :class:`SVMRFE` share
#: (docs/design.md, 'Parameters').
_SHARED = {
    "decomposition": [Options(*SVMRFE_DECOMPOSITIONS)],
    "criterion": [Options(*SVMRFE_CRITERIA)],
    **SVM_CONSTRAINTS,
    "C": [Interval("real", 0, None, closed="neither"), Options("cv")],
    "cv": [Interval("int", 2, None)],
    "n_jobs": [None, Jobs()],
    "aggregation_params": [Table(), None],
}


def resolve_criterion(decomposition, criterion, *, stacklevel: int = 3) -> tuple[str, str]:
    """``(decomposition, criterion)`` in the current spelling: ``decomposition="crammer_singer"``
    or ``"weston_watkins"`` (the spelling before ``criterion=``) becomes that criterion on the
    default ``"ovo"`` decomposition, with a ``FutureWarning``; the results are the same.

    Parameters
    ----------
    decomposition : str
        One of :data:`SVMRFE_DECOMPOSITIONS`.
    criterion : str
        One of :data:`SVMRFE_CRITERIA`.
    stacklevel : int, default=3
        Of the warning.

    Returns
    -------
    tuple of str
        ``("ovo" | "ova", "binary" | "crammer_singer" | "weston_watkins")``.

    Raises
    ------
    ValueError
        ``decomposition`` names an MSVM and ``criterion`` another one.
    """
    if decomposition in _MSVM:
        if criterion not in ("binary", decomposition):
            raise ValueError(f"decomposition={decomposition!r} (the former spelling of "
                             f"criterion={decomposition!r}) contradicts "
                             f"criterion={criterion!r}: give criterion only")
        warnings.warn(f"decomposition={decomposition!r} is deprecated and will be removed in "
                      f"the next release: use criterion={decomposition!r} (the decomposition "
                      "names the binary problems, ovo or ova)", FutureWarning,
                      stacklevel=stacklevel)
        return "ovo", decomposition
    return decomposition, criterion


# ---------------------------------------------------------------------------------- memo
_MEMO: OrderedDict | None = None
_MEMO_SIZE = 0


@contextlib.contextmanager
def rfe_lists_memo(maxsize: int = 16) -> Iterator[None]:
    """Reuse the per-problem SVM-RFE lists of identical runs inside the ``with`` block.

    The lists of :func:`svm_rfe_rankings` depend only on the training data, the decomposition
    and the SVM settings (C, step, step_until, class_weight, tol, warm_start), not on the rule
    that combines them; an experiment that compares rules on the same splits therefore repeats
    the same eliminations once per rule. Inside this context each run is keyed by the SHA-256 of
    ``X``, ``y`` and those settings and computed once; later calls with the same key get the
    same lists (the elimination is deterministic, so the numbers are unchanged). Only runs with
    the built-in SVM (``estimator=None``) are memoised. The ``maxsize`` most recent runs are
    kept (least recently used first out); the memo is dropped on exit.

    Parameters
    ----------
    maxsize : int, default 16
        How many runs are kept.

    Yields
    ------
    None
    """
    global _MEMO, _MEMO_SIZE
    check_param("maxsize", maxsize, [Interval("int", 1, None)])
    outer = (_MEMO, _MEMO_SIZE)
    _MEMO, _MEMO_SIZE = OrderedDict(), int(maxsize)
    try:
        yield
    finally:
        _MEMO, _MEMO_SIZE = outer


def _memo_key(X, y, settings) -> str:
    h = hashlib.sha256()
    Xc = np.ascontiguousarray(X)
    h.update(str((Xc.shape, Xc.dtype.str, sorted(
        (k, repr(list(v) if k == "feature_names" and v is not None else v))
        for k, v in settings.items()))).encode())
    h.update(Xc.tobytes() if Xc.dtype != object else repr(Xc.tolist()).encode())
    h.update(repr(np.asarray(y).tolist()).encode())
    return h.hexdigest()


def _memo_rfe_lists(X, y, **settings):
    """:func:`~rankfusion.rankers.rfe_lists` with ``settings``, through the memo when one is
    open and the SVM is the built-in one; ``n_jobs`` and ``progress`` do not enter the key."""
    if _MEMO is None or settings["estimator"] is not None:
        return rfe_lists(X, y, **settings)
    key = _memo_key(X, y, {k: v for k, v in settings.items()
                           if k not in ("n_jobs", "progress")})
    if key in _MEMO:
        _MEMO.move_to_end(key)
        return _MEMO[key]
    out = _MEMO[key] = rfe_lists(X, y, **settings)
    while len(_MEMO) > _MEMO_SIZE:
        _MEMO.popitem(last=False)
    return out


# ---------------------------------------------------------------------------------- C by CV
def choose_C(X, y, *, cv: int = 5, class_weight=None,
             grid: Sequence[float] = C_GRID) -> tuple[float, dict]:
    """The C of a linear SVM by stratified ``cv``-fold cross-validated accuracy (Izetta §3.1).

    A linear ``SVC(C=c, class_weight=class_weight)`` is scored on unshuffled stratified folds
    for every ``c`` of ``grid`` (default 10^-3 … 10^3); the best mean accuracy wins, ties
    (to 12 decimals) to the smaller C.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The features.
    y : array-like of shape (n_samples,)
        Class labels.
    cv : int, default 5
        Number of stratified folds.
    class_weight : dict, "balanced" or None
        As :class:`sklearn.svm.SVC`.
    grid : sequence of float, default C_GRID
        The C values tried.

    Returns
    -------
    C : float
    results : dict
        ``C``, ``mean_test_score``, ``std_test_score`` (arrays over the grid).
    """
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.svm import SVC

    _check_cv(cv)
    folds = StratifiedKFold(n_splits=cv, shuffle=False)
    means, sds = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for c in grid:
            s = cross_val_score(SVC(kernel="linear", C=c, class_weight=class_weight), X, y,
                                cv=folds)
            means.append(s.mean())
            sds.append(s.std())
    best = int(np.argmax(np.round(means, 12)))  # first maximum = smallest C
    results = {"C": np.array(grid, dtype=np.float64), "mean_test_score": np.array(means),
               "std_test_score": np.array(sds)}
    return float(grid[best]), results


def linear_svr(C: float, seed: int):
    """The linear SVR of :class:`SVMRFE`'s regression: scikit-learn's ``LinearSVR(C=C,
    epsilon=0, max_iter=10000, random_state=seed mod 2**32, dual=True)``, the model of
    :func:`rankfusion.rankers.rfe_regression` with ``model="linear_svr"``.

    Parameters
    ----------
    C : float
        The penalty.
    seed : int
        liblinear's seed.

    Returns
    -------
    sklearn.svm.LinearSVR
    """
    from sklearn.svm import LinearSVR

    return LinearSVR(C=float(C), epsilon=0.0, max_iter=10000, random_state=int(seed) % 2 ** 32,
                     dual=True)


def choose_C_regression(X, y, folds, *, seed: int = 0,
                        grid: Sequence[float] = C_GRID) -> tuple[float, dict]:
    """The C of a linear SVR by cross-validated R² (:func:`choose_C` for a numeric target).

    :func:`linear_svr` ``(c, seed)`` is fitted on each training part of ``folds`` (plain
    shuffled K-fold: a numeric target has no strata) for every ``c`` of ``grid`` (default
    10^-3 … 10^3) and scored by ``R² = 1 − Σ(y − ŷ)² / Σ(y − ȳ)²`` on the test part
    (scikit-learn's ``r2_score``); the best mean R² wins, ties (to 12 decimals) to the smaller
    C.

    Parameters
    ----------
    X : ndarray or scipy.sparse matrix of shape (n_samples, n_features)
        The features.
    y : ndarray of shape (n_samples,)
        The numeric target.
    folds : list of (ndarray, ndarray)
        The (train, test) rows
        (:func:`rankfusion.selection.regression.regression_folds`).
    seed : int, default 0
        liblinear's seed.
    grid : sequence of float, default C_GRID
        The C values tried.

    Returns
    -------
    C : float
    results : dict
        ``C``, ``mean_test_score``, ``std_test_score`` (arrays over the grid; ddof = 0).
    """
    from sklearn.metrics import r2_score

    means, sds = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # liblinear's convergence warnings at large C
        for c in grid:
            s = np.array([r2_score(y[te], linear_svr(c, seed).fit(X[tr], y[tr]).predict(X[te]))
                          for tr, te in folds])
            means.append(s.mean())
            sds.append(s.std())
    best = int(np.argmax(np.round(means, 12)))  # first maximum = smallest C
    results = {"C": np.array(grid, dtype=np.float64), "mean_test_score": np.array(means),
               "std_test_score": np.array(sds)}
    return float(grid[best]), results


def _check_cv(cv) -> int:
    check_param("cv", cv, _SHARED["cv"])
    return int(cv)


@dataclass
class SVMRFERankings:
    """What :func:`svm_rfe_rankings` computed.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    positions : dict of str → ndarray of int
        Method → position of each feature (1 = best, a full ranking without ties). For the MSVM
        decompositions on more than two classes the one key is the decomposition.
    consensus : dict of str → Consensus or None
        Method → the rule's :class:`~rankfusion.Consensus` (None where no rule was applied:
        ``"average"``, MSVM-RFE, or a single list).
    lists : RankedLists or None
        The per-problem lists (``"A_vs_B"`` / ``"A_vs_rest"``), when computed.
    results : list of RFEResult
        The runs behind :attr:`lists`.
    joint : dict of str → RFEResult
        The joint runs (``"average"``, ``"crammer_singer"``, ``"weston_watkins"``).
    C : float
        The C used.
    C_cv_results : dict or None
        With ``C="cv"``: :func:`choose_C`'s results.
    """

    positions: dict = field(repr=False)
    consensus: dict = field(repr=False)
    lists: RankedLists | None = field(repr=False)
    results: list = field(default_factory=list, repr=False)
    joint: dict = field(default_factory=dict, repr=False)
    C: float = 1.0
    C_cv_results: dict | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        n_lists = 0 if self.lists is None else self.lists.n_lists
        p = next((len(v) for v in self.positions.values()), 0)
        return (f"SVMRFERankings(methods={list(self.positions)}, {p} features, {n_lists} "
                f"per-problem lists, joint={list(self.joint)}, C={self.C:g})")

    @property
    def n_lists(self) -> int:
        """The number of per-problem lists (1 for a joint run alone)."""
        return 1 if self.lists is None else self.lists.n_lists


def check_C(C, cv: int = 5) -> None:
    """Raise unless ``C`` is a positive finite number, or ``"cv"`` with a valid number of
    folds ``cv`` (the declared constraints of both)."""
    check_param("C", C, _SHARED["C"])
    if isinstance(C, str):
        _check_cv(cv)


def _check_methods(methods) -> list[str]:
    if isinstance(methods, str):
        methods = [methods]
    methods = list(dict.fromkeys(methods))  # each method once, in the order given
    if not methods:
        raise ValueError("methods must name at least one aggregation rule or 'average'")
    # the rules that apply: not those combining each method's bootstrap lists (fuzzy)
    known = [m for m in available_rules() if not rule_info(m).tags.get("groups")]
    for m in methods:
        if not isinstance(m, str):
            raise TypeError(f"aggregation must be a rule name, got {m!r}")
        if m == "average":
            continue
        name = m.partition(":")[0].strip()
        if name not in available_rules(aliases=True):
            close = closest_name(name, ["average", *available_rules(aliases=True)])
            hint = f"; did you mean {close!r}?" if close else ";"
            raise ValueError(f"unknown aggregation {m!r}{hint} known: average, "
                             f"{', '.join(known)}")
        if resolve(m).groups:
            raise ValueError(f"aggregation {m!r} combines each ranker's bootstrap lists; "
                             "SVM-RFE gives one list per binary problem: choose one of "
                             f"average, {', '.join(known)}")
    return methods


def _rule_params(methods, p, aggregation_params, rule_params) -> dict[str, dict]:
    """Per rule, the parameters it takes: the shared ``aggregation_params`` it accepts, under
    those of its spec (``"kfirst:k=5"``), under ``rule_params``; unknown names and bad ``k``
    fail here, before any elimination."""
    rules = [m for m in methods if m != "average"]
    shared = dict(aggregation_params or {})
    specs = {m: resolve(m) for m in rules}
    per = {m: dict(specs[m].params) for m in rules}
    if rule_params:
        for m, params in rule_params.items():
            if m not in per:
                raise ValueError(f"rule_params names {m!r}, not among the rules {rules}")
            per[m].update(params)
    if rules and shared:
        entries = {m: specs[m].entry for m in rules}
        unknown = [k for k in shared if not any(e.accepts(k) for e in entries.values())]
        if unknown:
            known = sorted({q for e in entries.values() for q in e.params})
            raise TypeError(
                f"unknown parameter(s) {unknown} for aggregation rule(s) {', '.join(rules)}; "
                f"they take: {', '.join(known) or 'no parameters'}")
        for m, e in entries.items():
            per[m] = {**{k: v for k, v in shared.items() if e.accepts(k)}, **per[m]}
    for params in per.values():
        if "k" in params:
            check_top_k(params["k"], p)
    return per


def svm_rfe_rankings(X, y, methods: str | Sequence[str] = ("kfirst",), *,
                     decomposition: str = "ovo", criterion: str = "binary",
                     C: float | str = 1.0,
                     step: int | float = 0.1, step_until: int = 20, estimator=None,
                     class_weight=None, tol: float = 1e-3, warm_start: bool = False,
                     n_jobs: int | None = None, aggregation_params: Mapping | None = None,
                     rule_params: Mapping[str, Mapping] | None = None, random_state=None,
                     feature_names=None, problem_lists: bool = False, cv: int = 5,
                     progress: Callable | None = None) -> SVMRFERankings:
    """Multiclass SVM-RFE rankings for one or several combination methods.

    Which runs are made (Izetta et al. 2017):

    * ``criterion`` ``"crammer_singer"`` / ``"weston_watkins"`` on more than two classes:
      one MSVM-RFE run (:func:`~rankfusion.rankers.joint_rfe`); ``methods`` do not apply and
      the result has the one key ``criterion``.
    * otherwise (``criterion="binary"``; two classes are always one binary problem): the
      per-problem lists (:func:`~rankfusion.rankers.rfe_lists`) when a rule needs them or
      ``problem_lists`` asks, combined by each rule of ``methods``; ``"average"`` is the joint
      RFE on mean ``|w_ij|``. A single list (two classes) is every method's ranking as it is.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)
    methods : str or sequence of str
        Rule specs of :func:`rankfusion.aggregation.resolve` (``"kfirst:k=5"``) and/or
        ``"average"``; a method named twice is run once.
    decomposition : {"ovo", "ova"}
        The binary problems (``"crammer_singer"`` / ``"weston_watkins"`` here are the
        deprecated spelling of ``criterion``: a ``FutureWarning``, the same results).
    criterion : {"binary", "crammer_singer", "weston_watkins"}
        ``"binary"``: one RFE per binary problem of ``decomposition`` (and the joint
        ``"average"``); an MSVM name: one MSVM-RFE run on ``Σ_k w_ki²``.
    C : float or "cv"
        The SVM's C; ``"cv"`` = :func:`choose_C` (``cv`` folds), after every other check.
    step, step_until, estimator, class_weight, tol, warm_start, n_jobs
        As :func:`~rankfusion.rankers.rfe_lists`.
    aggregation_params : dict, optional
        Parameters for the rules: each rule gets the ones it takes; a name no rule of
        ``methods`` takes is a ``TypeError``. A ``k`` is checked against the number of features
        (docs/design.md, 'Fractions') before any elimination.
    rule_params : dict of rule → dict, optional
        Parameters for one rule only (e.g. ``{"kfirst": {"k": 5}}``); they win over
        ``aggregation_params``.
    random_state : None, int, SeedSequence or Generator
        None = fresh entropy, otherwise deterministic (docs/design.md, 'Seeds'). Two child
        streams are spawned: the first seeds liblinear's Crammer–Singer solver, the second every
        rule that takes a ``random_state`` (unless the parameters give one).
    feature_names : sequence, optional
    problem_lists : bool
        Compute the per-problem lists even when no rule needs them.
    cv : int
        Folds of ``C="cv"``.
    progress : callable, optional
        Called with each finished per-problem :class:`~rankfusion.rankers.RFEResult`.

    Returns
    -------
    SVMRFERankings
    """
    warm_start = check_bool(warm_start, "warm_start")
    problem_lists = check_bool(problem_lists, "problem_lists")
    methods = _check_methods(methods)
    validate_params(_SHARED, {"decomposition": decomposition, "criterion": criterion,
                              "step": step, "step_until": step_until, "n_jobs": n_jobs})
    decomposition, criterion = resolve_criterion(decomposition, criterion)
    if not is_sparse(X):  # a sparse X stays sparse (docs/design.md, 'Sparse input')
        X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (samples × features); got shape {X.shape}")
    p = X.shape[1]
    per_rule = _rule_params(methods, p, aggregation_params, rule_params)
    validate_params(_SHARED, {"C": C, "cv": cv, "tol": tol, "class_weight": class_weight,
                              "aggregation_params": aggregation_params})
    liblinear_seed, rule_seed = spawn(random_state, 2)
    C_cv = None
    if isinstance(C, str):
        C, C_cv = choose_C(X, y, cv=cv, class_weight=class_weight)
    n_classes = np.unique(y).shape[0]
    common = dict(C=C, step=step, step_until=step_until, class_weight=class_weight, tol=tol,
                  keep_weights=True)
    if criterion in _MSVM and n_classes > 2:
        res = joint_rfe(X, y, criterion=criterion, random_state=seed_int(liblinear_seed),
                        **common)
        return SVMRFERankings({criterion: res.ranking}, {criterion: None}, None, [],
                              {criterion: res}, float(C), C_cv)
    binary = decomposition  # two-class MSVM: one binary SVM
    lists, results = None, []
    if problem_lists or n_classes == 2 or any(m != "average" for m in methods):
        lists, results = _memo_rfe_lists(X, y, decomposition=binary, estimator=estimator,
                                         n_jobs=n_jobs, feature_names=feature_names,
                                         warm_start=warm_start, progress=progress, **common)
    positions, consensus, joint = {}, {}, {}
    for m in methods:
        consensus[m] = None
        if lists is not None and lists.n_lists == 1:
            positions[m] = results[0].ranking.copy()
        elif m == "average":
            joint[m] = joint_rfe(X, y, criterion="average", decomposition=binary,
                                 estimator=estimator, warm_start=warm_start, **common)
            positions[m] = joint[m].ranking
        else:
            params = dict(per_rule[m])
            name = resolve(m).name
            if rule_info(name).accepts("random_state") and "random_state" not in params:
                params["random_state"] = seed_int(rule_seed)
            consensus[m] = aggregate(lists, name, **params)
            positions[m] = consensus[m].positions.astype(np.int64)
    return SVMRFERankings(positions, consensus, lists, results, joint, float(C), C_cv)


# ---------------------------------------------------------------------------------- selector
class SVMRFE(SelectorMixin, BaseEstimator):
    """Multiclass SVM-RFE with list combination as a scikit-learn selector (Izetta et al. 2017).

    The multiclass problem is decomposed into binary ones — one-vs-one (``"ovo"``, c(c−1)/2
    problems, each on its two classes' samples) or one-vs-all (``"ova"``, c problems) — SVM-RFE
    (Guyon et al. 2002) ranks all features on each, and an aggregation rule of
    :func:`rankfusion.aggregate` combines the lists (K-First by default, the paper's best).
    ``aggregation="average"`` is the usual baseline instead: *one joint* RFE whose criterion is
    the mean ``|w_ij|`` over the binary problems (Zhou & Tuck 2007's OVO). The MSVM-RFE
    baselines run one joint RFE on a multiclass linear SVM with criterion ``Σ_k w_ki²``:
    ``criterion="crammer_singer"`` (scikit-learn's ``LinearSVC``) or
    ``"weston_watkins"`` (our solver). Two classes give one binary problem whose ranking is used
    as it is, whatever ``aggregation`` says (with the MSVM decompositions too: two classes are
    one binary SVM). The runs are those of :func:`svm_rfe_rankings`.

    RFE schedule (Izetta §3.1): while ``n ≥ step_until`` features remain remove
    ``max(1, ⌊step·n⌋)``, then one at a time; an integer ``step`` removes that many each time.
    Features leave in ascending order of the criterion (ties: the lower index first); the reverse
    elimination order is each list's full ranking.

    Parameters
    ----------
    decomposition : {"ovo", "ova"}, default="ovo"
        The binary problems of ``criterion="binary"``: one-vs-one or one-vs-all.
        ``"crammer_singer"`` and ``"weston_watkins"`` are still accepted here for one release,
        with a ``FutureWarning``: they are ``criterion=`` values (the same results).
    aggregation : str, default="kfirst"
        Any rule spec of :func:`rankfusion.aggregation.resolve` (``"kfirst:k=0.05"``), or
        ``"average"`` (joint RFE on mean ``|w|``). Ignored for the MSVM decompositions and for
        binary data.
    n_features_to_select : None, int, float or "cv", default=None
        None keeps half (as scikit-learn's ``RFE``); an int is a count (capped at the number of
        features); a float ``f`` in (0, 1] a fraction of the p features, ``max(1, ⌊f·p + 0.5⌋)``
        — rounded half up, the one fraction rule of the package (docs/design.md, 'Fractions';
        K-First's ``k`` follows it too). This differs from scikit-learn's ``RFE``, which
        truncates (``int(f·p)``): 0.1 of 985 features keeps 99 here, 98 in scikit-learn.
        ``"cv"`` chooses the size by cross-validation like ``RFECV``: on each of ``cv``
        stratified folds the ranking is recomputed on the training part and a linear ``SVC``
        (same C) is scored on the top-k features of the held-out part, for every size the RFE
        schedule visits; the best mean accuracy wins, ties (to 12 decimals) to the smaller
        size, unless ``size_tol`` or ``size_rule`` ask for a smaller one
        (:attr:`subset_curve_`, :attr:`cv_results_`).
    C : float or "cv", default=1.0
        The SVM's C. ``"cv"``: stratified 5-fold CV accuracy of a linear ``SVC`` on the training
        data over 10^-3 … 10^3 (Izetta §3.1), ties to the smaller C (:attr:`C_`).
    step : int or float, default=0.1
        Features removed per iteration: a float in (0, 1) is a fraction of those left,
        ``max(1, ⌊step·n⌋)``; an int a fixed count.
    step_until : int, default=20
        With a float ``step``: below this many features, one at a time.
    estimator : estimator with ``coef_``, default=None
        Replaces the built-in binary SVM (OVO/OVA), refitted on each iteration's features.
    n_jobs : int, default=None
        Binary problems in parallel (joblib).
    aggregation_params : dict, default=None
        Parameters of the rule (e.g. ``{"k": 0.1}`` for K-First); a name the rule does not take
        is a ``TypeError``. Ignored for ``"average"`` and the MSVM decompositions.
    class_weight : None, "balanced" or dict, default=None
        Passed to the SVM(s), as ``SVC(class_weight=...)``.
    cv : int, default=5
        Folds of ``n_features_to_select="cv"`` and ``C="cv"``.
    size_tol : float, default=None
        With ``n_features_to_select="cv"``: keep the smallest size whose mean accuracy is
        within ``size_tol`` of the best mean (parsimony; None = the best size). This is
        ``tol`` of :class:`~rankfusion.EnsembleSelector` and of scikit-learn's
        ``SequentialFeatureSelector``; here ``tol`` is the SVM solver's tolerance, as in
        scikit-learn's ``LinearSVC``.
    size_rule : {"best", "one_se"}, default="best"
        With ``n_features_to_select="cv"``: ``"one_se"`` keeps the smallest size whose mean
        accuracy is within one standard error (sd over the folds, ddof = 1, / √cv) of the best
        (Hastie, Tibshirani & Friedman, *Elements of Statistical Learning*, §7.10); not
        together with ``size_tol``. ``size_rule`` of :class:`~rankfusion.EnsembleSelector`
        (:func:`rankfusion.selection.choose_size`, the one rule of both).
    tol : float, default=1e-3
        Tolerance of the dual SVM solver (libsvm's default); of Weston–Watkins' coordinate
        descent (there 1e-3 too).
    warm_start : bool, default=False
        Warm-start each RFE iteration's dual from the previous one (faster; cold starts
        reproduce ``RFE(SVC(kernel="linear"))`` exactly).
    random_state : None, int or Generator, default=None
        None = fresh entropy (each fit may differ where a step is random); an int or a
        Generator = deterministic. The seed reaches every random step through independent child
        streams (:func:`svm_rfe_rankings`): liblinear's Crammer–Singer solver and any rule that
        takes a ``random_state`` (``ce``, ``ga``, ``kemeny``, …) unless ``aggregation_params``
        gives one (docs/design.md, 'Seeds').
    verbose : bool, default=False
        A tqdm progress bar over the binary problems (OVO/OVA lists).
    criterion : {"binary", "crammer_singer", "weston_watkins"}, default="binary"
        What the elimination ranks by. ``"binary"``: ``w_i²`` of each binary problem of
        ``decomposition``, one RFE list per problem, combined by ``aggregation`` (or the joint
        ``"average"``); ``"crammer_singer"`` / ``"weston_watkins"``: MSVM-RFE, one joint RFE
        on ``Σ_k w_ki²`` of that multiclass linear SVM (``aggregation`` and ``decomposition``
        then do not apply; two classes are one binary SVM).
    task : {"auto", "classification", "regression"}, default="auto"
        What ``y`` is (docs/design.md, 'Tasks'): ``"auto"`` takes a non-integer float target
        as regression and refuses a whole-number one with many distinct values. Regression is
        RFE with scikit-learn's ``LinearSVR(C=C, epsilon=0)`` (:func:`linear_svr`, or
        ``estimator``, a regressor with ``coef_``) on the same schedule, one list
        (:func:`rankfusion.rankers.rfe_regression`). Its searches score by the coefficient of
        determination ``R² = 1 − Σ(y − ŷ)² / Σ(y − ȳ)²`` on ``cv`` plain shuffled K-fold
        folds (no strata; seeded by ``random_state``): ``C="cv"`` takes the C of the best mean
        R² over 10^-3 … 10^3 (:func:`choose_C_regression`; not with ``estimator``), and
        ``n_features_to_select="cv"`` reranks each fold's training part and scores the same
        model refitted on its top k for every size the schedule visits, as
        ``RFECV(scoring="r2")`` with the same folds (with an integer ``step``; a float step
        follows Izetta's schedule, which RFECV cannot). ``class_weight``, the MSVM criteria
        and ``decomposition="ova"`` need classes and are refused.
    accept_sparse : {False, "densify"}, default=False
        A scipy.sparse ``X`` is kept sparse (CSR) for the built-in SVM and SVR and for an
        ``estimator`` whose scikit-learn tags say it fits on sparse input; otherwise (the
        Weston–Watkins criterion, a dense-only ``estimator``) it is refused with a
        ``TypeError`` naming this option (``False``), or densified once, within the memory
        check of :func:`rankfusion.io.densify` (``"densify"``: ``RANKFUSION_MAX_MEMORY``, else
        75 % of the physical memory; a ``MemoryError`` above it). docs/design.md, 'Sparse
        input'.

    Attributes
    ----------
    task_ : str
        The resolved task (``classes_`` is None for regression).
    ranking_ : ndarray of int, shape (n_features,)
        As scikit-learn's ``RFE.ranking_``: 1 for every selected feature, then 2, 3, … for the
        others in consensus order (``X[:, sel.ranking_ == 1]`` keeps the selection).
    positions_ : ndarray of int, shape (n_features,)
        The full consensus position of each feature, 1 = best (no ties).
    support_ : ndarray of bool
        The ``n_features_`` best features (``positions_ <= n_features_``).
    n_features_ : int
    lists_ : RankedLists
        One full ranking per binary problem (``"A_vs_B"``, ``"A_vs_rest"``); for the joint
        baselines the single joint ranking.
    rfe_results_ : list of RFEResult
        The runs behind :attr:`lists_`, with each iteration's weights (``weights``,
        ``weights_matrix()``) and the numbers of features fitted and removed.
    consensus_ : Consensus or None
        The aggregation's result, the full consensus (None when no rule was applied: binary
        data, ``"average"``, MSVM-RFE).
    classes_ : ndarray
    C_ : float
        The C used.
    subset_curve_ : SubsetCurve or None
        With ``n_features_to_select="cv"``: the size search
        (:class:`~rankfusion.selection.SubsetCurve`, the same result as
        :class:`~rankfusion.EnsembleSelector`'s): the curve (``k`` ascending, the estimator
        ``"linear_svm"``, ``mean``, ``sd`` ddof = 1, ``fold{i}``), the chosen size, the best
        size and the rule; None with a fixed size.
    cv_results_ : dict
        With ``n_features_to_select="cv"``, scikit-learn's view of the same fold scores:
        ``n_features`` (in the order the elimination visits them, largest first),
        ``mean_test_score``, ``std_test_score`` (ddof = 0, as scikit-learn),
        ``split{i}_test_score``.
    C_cv_results_ : dict
        With ``C="cv"``: ``C``, ``mean_test_score``, ``std_test_score`` (accuracy; R² for
        regression).

    References
    ----------
    Izetta, Verdes & Granitto (2017), Improved multiclass feature selection via list
    combination, Expert Systems with Applications 88:205–216. Guyon, Weston, Barnhill & Vapnik
    (2002), Machine Learning 46:389–422. Zhou & Tuck (2007), Bioinformatics 23:1106–1114.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from rankfusion.selection import SVMRFE
    >>> X, y = load_iris(return_X_y=True)
    >>> sel = SVMRFE(n_features_to_select=2).fit(X, y)
    >>> sel.lists_.list_names.tolist()
    ['0_vs_1', '0_vs_2', '1_vs_2']
    >>> sel.positions_
    array([4, 3, 1, 2])
    >>> sel.ranking_
    array([3, 2, 1, 1])
    """

    def __init__(self, decomposition="ovo", aggregation="kfirst", n_features_to_select=None,
                 C=1.0, step=0.1, step_until=20, estimator=None, n_jobs=None,
                 aggregation_params=None, class_weight=None, cv=5, size_tol=None,
                 size_rule="best", tol=1e-3, warm_start=False, random_state=None,
                 verbose=False, criterion="binary", task="auto", accept_sparse=False):
        self.decomposition = decomposition
        self.task = task
        self.accept_sparse = accept_sparse
        self.criterion = criterion
        self.aggregation = aggregation
        self.n_features_to_select = n_features_to_select
        self.C = C
        self.step = step
        self.step_until = step_until
        self.estimator = estimator
        self.n_jobs = n_jobs
        self.aggregation_params = aggregation_params
        self.class_weight = class_weight
        self.cv = cv
        self.size_tol = size_tol
        self.size_rule = size_rule
        self.tol = tol
        self.warm_start = warm_start
        self.random_state = random_state
        self.verbose = verbose

    #: Every parameter's accepted values, as data (docs/design.md, 'Parameters'): checked
    #: once by :func:`~rankfusion._utils.constraints.validate_params` at fit, and read by the
    #: experiment config for the keys, TOML types and values of a ``[selectors.X]`` table
    #: (``kind = "svm_rfe"``). What one parameter cannot say alone is checked by
    #: :meth:`_check_params`.
    _parameter_constraints = {
        "decomposition": _SHARED["decomposition"],
        "aggregation": [InstanceOf(str, "a rule spec (str) or 'average'", toml="str")],
        "n_features_to_select": [None, Interval("int", 1, None),
                                 Interval("real", 0, 1, closed="right"), Options("cv")],
        "C": _SHARED["C"],
        "step": _SHARED["step"],
        "step_until": _SHARED["step_until"],
        "estimator": [None, Check(lambda e: hasattr(e, "fit") and hasattr(e, "get_params"),
                                  "a scikit-learn classifier with coef_ (e.g. LinearSVC())")],
        "n_jobs": _SHARED["n_jobs"],
        "aggregation_params": _SHARED["aggregation_params"],
        "class_weight": _SHARED["class_weight"],
        "cv": _SHARED["cv"],
        "size_tol": SIZE_CONSTRAINTS["tol"],
        "size_rule": SIZE_CONSTRAINTS["size_rule"],
        "tol": _SHARED["tol"],
        "warm_start": _SHARED["warm_start"],
        # one seed per fit (seed_int): an int of 32 bits
        "random_state": [None, Interval("int", 0, 2 ** 32 - 1),
                         InstanceOf((np.random.SeedSequence, np.random.Generator),
                                    "a SeedSequence or a Generator")],
        "verbose": SVM_CONSTRAINTS["warm_start"],  # a bool as check_bool reads it
        "criterion": _SHARED["criterion"],
        "task": [Options(*TASKS)],
        "accept_sparse": ACCEPT_SPARSE_CONSTRAINTS,
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.allow_nan = False
        # docs/design.md, 'Sparse input': fitted sparse, or densified when asked
        tags.input_tags.sparse = _takes_sparse(self) or densify_asked(self.accept_sparse)
        return tags

    def _check_size_search(self):
        """What the size-search parameters need together (their values are checked by
        :meth:`_check_params`)."""
        if self.size_tol is not None and self.size_rule == "one_se":
            raise ValueError("size_tol and size_rule='one_se' are two parsimony rules for one "
                             "size: give one of them")
        if (self.size_tol is not None or self.size_rule != "best") and not (
                isinstance(self.n_features_to_select, str)):
            raise ValueError("size_tol and size_rule apply to a searched size; set "
                             "n_features_to_select='cv'")

    # ------------------------------------------------------------------ checks
    def _check_params(self):
        """Every parameter against :attr:`_parameter_constraints`, then what they need
        together; returns ``(decomposition, criterion)`` in the current spelling."""
        validate_params(self._parameter_constraints, self.get_params(deep=False))
        # a rule name the registry knows, and one that combines per-problem lists
        _check_methods([self.aggregation])
        decomposition, criterion = resolve_criterion(self.decomposition, self.criterion,
                                                     stacklevel=4)
        # a replacement estimator is the binary problems' SVM: MSVM-RFE has none
        if self.estimator is not None and criterion != "binary":
            raise ValueError("estimator= applies to the ovo and ova decompositions only "
                             "(criterion='binary')")
        return decomposition, criterion

    # ------------------------------------------------------------------ core
    def _rank(self, X, y, C, feature_names, seed):
        """(positions, lists, results, consensus) for data X, y at this C and seed."""
        n_classes = np.unique(y).shape[0]
        decomposition, criterion = self._spelling
        bar = None
        if check_bool(self.verbose, "verbose") and criterion == "binary":
            from tqdm.auto import tqdm

            m = (n_classes * (n_classes - 1) // 2 if decomposition == "ovo"
                 else n_classes)
            bar = tqdm(total=1 if n_classes == 2 else m, desc="SVM-RFE", unit="problem")
        out = svm_rfe_rankings(
            X, y, [self.aggregation], decomposition=decomposition, criterion=criterion,
            C=C, step=self.step,
            step_until=self.step_until, estimator=self.estimator,
            class_weight=self.class_weight, tol=self.tol, warm_start=self.warm_start,
            n_jobs=self.n_jobs, aggregation_params=self.aggregation_params, random_state=seed,
            feature_names=feature_names,
            progress=None if bar is None else (lambda r: bar.update(1)))
        if bar is not None:
            bar.close()
        p = X.shape[1]
        positions = next(iter(out.positions.values()))
        if out.lists is not None:
            return positions, out.lists, out.results, next(iter(out.consensus.values()))
        (name, res), = out.joint.items()
        lists = RankedLists.from_scores((p - res.ranking)[:, None], ties="ordinal",
                                        features=feature_names, list_names=[name])
        return positions, lists, [res], None

    def _n_select(self, p):
        n = self.n_features_to_select
        if n is None:
            return max(1, p // 2)
        if isinstance(n, numbers.Integral):
            return int(min(n, p))
        return resolve_n_features(n, p)  # a float in (0, 1], checked by _check_params

    def _scorer_model(self, C):
        from sklearn.svm import SVC

        return SVC(kernel="linear", C=C, class_weight=self.class_weight)

    def _choose_size(self, X, y, C, seed):
        from sklearn.model_selection import StratifiedKFold

        p = X.shape[1]
        chunks = rfe_schedule(p, self.step, self.step_until)
        sizes = np.concatenate([[p], p - np.cumsum(chunks)]).astype(np.int64)
        cv = StratifiedKFold(n_splits=self.cv, shuffle=False)
        scores = np.zeros((self.cv, sizes.shape[0]))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            for f, (tr, te) in enumerate(cv.split(X, y)):
                positions = self._rank(X[tr], y[tr], C, None, seed)[0]
                order = np.argsort(positions)  # a permutation of 1..p: no ties
                for s, k in enumerate(sizes):
                    cols = order[:k]
                    model = clone(self._scorer_model(C)).fit(X[tr][:, cols], y[tr])
                    scores[f, s] = model.score(X[te][:, cols], y[te])
        self.subset_curve_ = search_size(sizes, {"linear_svm": scores}, method="cv",
                                         tol=self.size_tol, size_rule=self.size_rule)
        res = {"n_features": sizes, "mean_test_score": scores.mean(axis=0),
               "std_test_score": scores.std(axis=0)}
        for f in range(self.cv):
            res[f"split{f}_test_score"] = scores[f]
        self.cv_results_ = res
        return self.subset_curve_.n_features

    def fit(self, X, y):
        """Rank the features of ``X`` for the classes ``y`` and select the best ones.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Numeric features (encode nominal columns first).
        y : array-like of shape (n_samples,)
            Class labels, at least two classes.

        Returns
        -------
        SVMRFE
            The fitted selector.
        """
        self._spelling = self._check_params()
        self._check_size_search()
        for stale in ("cv_results_", "C_cv_results_"):  # from an earlier fit
            self.__dict__.pop(stale, None)
        for col, dt in zip(getattr(X, "columns", ()), getattr(X, "dtypes", ())):
            if getattr(dt, "kind", "O") not in "iufb":
                raise TypeError(f"X column {col!r} is not numeric ({dt}); SVM-RFE needs numbers: "
                                "encode nominal columns first (e.g. OneHotEncoder)")
        sparse = is_sparse(X)  # kept sparse: the SVM engine takes CSR (docs/design.md,
        if sparse and not _takes_sparse(self):  # 'Sparse input')
            if not densify_asked(self.accept_sparse):
                raise sparse_refusal("SVMRFE with this estimator/criterion ('weston_watkins' "
                                     "or an estimator without sparse support)")
            if not hasattr(X, "toarray"):  # a DataFrame of sparse columns: keep its names
                X = densify(X)
                sparse = False
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2,
                             accept_sparse="csr" if sparse else False)
        if sparse and not _takes_sparse(self):  # asked: one dense copy, within the check
            X = densify(X)
        self.task_ = resolve_task(y, self.task)
        if self.task_ == "regression":
            return self._fit_regression(X, y)
        problem = target_problem(np.asarray(y))
        if problem and self.task != "classification":  # an explicit task is honoured
            raise ValueError(f"y {problem}")
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.shape[0] < 2:
            raise ValueError(
                f"y has 1 class ({self.classes_[0]!r}); SVM-RFE needs at least 2 classes")
        if problem:  # many classes, as asked: labels the engine takes, in the values' order
            y = np.asarray(as_class_labels(y))
        names = (list(self.feature_names_in_) if hasattr(self, "feature_names_in_")
                 else [f"x{j}" for j in range(X.shape[1])])
        # one seed per fit: the full fit and every CV fold see the same child streams
        seed = seed_int(self.random_state)
        if isinstance(self.C, str):
            self.C_, self.C_cv_results_ = choose_C(X, y, cv=self.cv,
                                                   class_weight=self.class_weight)
        else:
            self.C_ = float(self.C)
        positions, lists, results, cons = self._rank(X, y, self.C_, names, seed)
        self.positions_ = positions
        self.lists_ = lists
        self.rfe_results_ = results
        self.consensus_ = cons
        self.subset_curve_ = None
        if isinstance(self.n_features_to_select, str):
            self.n_features_ = self._choose_size(X, y, self.C_, seed)
        else:
            self.n_features_ = self._n_select(X.shape[1])
        self.support_ = self.positions_ <= self.n_features_
        k = self.n_features_
        self.ranking_ = np.where(self.support_, 1, self.positions_ - k + 1).astype(np.int64)
        return self

    def _fit_regression(self, X, y):
        """RFE with a linear SVR (docs/design.md, 'Tasks'): one list, no decomposition; C and
        the size searched by cross-validated R² on plain shuffled K-fold folds."""
        decomposition, criterion = self._spelling
        refused = {"class_weight": self.class_weight is not None,
                   "criterion": criterion != "binary",
                   "decomposition": decomposition != "ovo"}
        bad = [k for k, v in refused.items() if v]
        if bad:
            raise ValueError(f"{bad[0]}={getattr(self, bad[0])!r} needs classes; a "
                             "regression task is ranked by one RFE run with a linear SVR "
                             "(or estimator=): leave it out, or say task='classification'")
        if isinstance(self.C, str) and self.estimator is not None:
            raise ValueError("C='cv' chooses the C of the built-in linear SVR; with "
                             "estimator= set the estimator's own parameters instead")
        t = check_regression_target(y, X.shape[0], name="y")
        names = (list(self.feature_names_in_) if hasattr(self, "feature_names_in_")
                 else [f"x{j}" for j in range(X.shape[1])])
        self.classes_ = None
        seed = seed_int(self.random_state)
        searched = isinstance(self.C, str) or isinstance(self.n_features_to_select, str)
        folds = (regression_folds(X.shape[0], int(self.cv), random_state=seed % 2 ** 31)
                 if searched else None)
        if isinstance(self.C, str):
            self.C_, self.C_cv_results_ = choose_C_regression(X, t, folds, seed=seed)
        else:
            self.C_ = float(self.C)
        res = self._rank_regression(X, t, self.C_, seed)
        p = X.shape[1]
        self.positions_ = res.ranking.astype(np.int64)
        self.lists_ = RankedLists.from_scores((p - res.ranking)[:, None], ties="ordinal",
                                              features=names, list_names=[res.name])
        self.rfe_results_ = [res]
        self.consensus_ = None
        self.subset_curve_ = None
        if isinstance(self.n_features_to_select, str):
            self.n_features_ = self._choose_size_regression(X, t, self.C_, seed, folds)
        else:
            self.n_features_ = self._n_select(p)
        self.support_ = self.positions_ <= self.n_features_
        k = self.n_features_
        self.ranking_ = np.where(self.support_, 1, self.positions_ - k + 1).astype(np.int64)
        return self

    def _regressor(self, C, seed):
        return clone(self.estimator) if self.estimator is not None else linear_svr(C, seed)

    def _rank_regression(self, X, t, C, seed):
        return rfe_regression(X, t, model="linear_svr", step=self.step,
                              step_until=self.step_until, estimator=self._regressor(C, seed),
                              keep_weights=True)

    def _choose_size_regression(self, X, t, C, seed, folds):
        """``n_features_to_select="cv"`` for a numeric target: each fold's training part is
        reranked, the same regressor refitted on its top k and scored by R² on the test part,
        for every size the schedule visits (as ``RFECV(scoring="r2")``)."""
        from sklearn.metrics import r2_score

        p = X.shape[1]
        chunks = rfe_schedule(p, self.step, self.step_until)
        sizes = np.concatenate([[p], p - np.cumsum(chunks)]).astype(np.int64)
        scores = np.zeros((len(folds), sizes.shape[0]))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            for f, (tr, te) in enumerate(folds):
                order = np.argsort(self._rank_regression(X[tr], t[tr], C, seed).ranking)
                for s, k in enumerate(sizes):
                    cols = order[:k]
                    model = self._regressor(C, seed).fit(X[tr][:, cols], t[tr])
                    scores[f, s] = r2_score(t[te], model.predict(X[te][:, cols]))
        name = "linear_svr" if self.estimator is None else type(self.estimator).__name__
        self.subset_curve_ = search_size(sizes, {name: scores}, method="cv",
                                         tol=self.size_tol, size_rule=self.size_rule)
        res = {"n_features": sizes, "mean_test_score": scores.mean(axis=0),
               "std_test_score": scores.std(axis=0)}
        for f in range(len(folds)):
            res[f"split{f}_test_score"] = scores[f]
        self.cv_results_ = res
        return self.subset_curve_.n_features

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_


def _takes_sparse(selector) -> bool:
    """Whether an :class:`SVMRFE` fits on sparse X: the built-in SVM (or an estimator whose
    scikit-learn tags say sparse) and any criterion but Weston–Watkins (a dense kernel)."""
    names = (getattr(selector, "criterion", None), getattr(selector, "decomposition", None))
    if "weston_watkins" in names:
        return False
    est = getattr(selector, "estimator", None)
    if est is None:
        return True
    try:
        from sklearn.utils import get_tags

        return bool(get_tags(est).input_tags.sparse)
    except Exception:  # pragma: no cover - an estimator without scikit-learn's tags
        return False
