"""Stability selection: features chosen with a bound on the expected number of false selections.

Meinshausen & Bühlmann (2010): draw B subsamples of ⌊n/2⌋ rows without replacement, rank the
features on each (one ranker, or several combined by an aggregation rule, exactly as
:class:`~rankfusion.EnsembleSelector` ranks), and count how often each feature is among the top
q. The *selection probability* of feature k is

.. math:: \\hat\\Pi_k = \\frac{1}{B} \\#\\{b : k \\in \\text{top}_q(b)\\},

and the stable set is :math:`\\{k : \\hat\\Pi_k \\ge \\pi\\}` for a threshold
:math:`\\pi \\in (1/2, 1]`. Under their exchangeability assumption (the noise features are
selected alike, and the selection is no worse than random guessing) the expected number of
false selections V obeys (Theorem 1)

.. math:: E[V] \\le \\frac{q^2}{(2\\pi - 1)\\, p}.

*Complementary pairs* (Shah & Samworth 2013): B/2 pairs of disjoint halves
:math:`(A_{2j-1}, A_{2j})`; the same bound then holds without the exchangeability assumption
for the low-selection-probability features, and under a *unimodality* assumption on the
distribution of :math:`\\hat\\Pi` a tighter one (their §3; the constants as the R package
``stabs`` writes them, ``um_const``), with θ = q/p and B the number of pairs:

.. math::

    E[V] \\le \\frac{q^2}{p\\, C(\\pi, B)}, \\qquad
    C(\\pi, B) = \\begin{cases}
        2\\,(2\\pi - 1 - \\frac{1}{2B}) & \\pi \\le \\frac34, \\text{ valid when }
            \\pi \\ge \\frac12 + \\min(\\theta^2, \\frac{1}{2B} + \\frac34\\theta^2),\\\\
        \\dfrac{1 + 1/B}{4\\,(1 - \\pi + \\frac{1}{2B})} & \\frac34 < \\pi \\le 1.
    \\end{cases}

Their bound under r-concavity needs a numerical optimisation over r-concave tail
probabilities; it is **not provided** here.

Of q, π and the PFER target two determine the third (docs/design.md, 'Stability selection'):
given q and a PFER target, :math:`\\pi = \\tfrac12 (1 + q^2 / (p \\cdot \\text{PFER}))`, refused
when it exceeds 1; given π and a PFER target, q is the largest count whose bound stays within
the target (:func:`stability_parameters`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .._utils.columns import check_observed_columns, plain_value
from .._utils.constraints import (
    Boolean,
    Function,
    InstanceOf,
    Interval,
    Jobs,
    Options,
    Table,
    validate_params,
)
from .._utils.seeding import seed_int, spawn
from .._utils.sparse import check_dense_size, is_sparse, sparse_refusal
from .._utils.task import TASKS, as_class_labels, check_regression_target, class_codes, resolve_task
from .._utils.validation import resolve_n_features
from ..aggregation import TIE_BREAKS, break_ties
from ..lists import RankedLists
from .ranker_specs import (
    ACCEPT_SPARSE_CONSTRAINTS,
    RANKERS_CONSTRAINT,
    SEED_CONSTRAINTS,
    densify_asked,
    ranker_allows_nan,
    ranker_items,
    ranker_takes_sparse,
    rankers_allow_nan,
    rankers_take_sparse,
    resolve_rankers,
)
from .ranking_jobs import RankingJob, RankingPlan, run_ranking_jobs

__all__ = ["StabilitySelector", "StabilityParameters", "stability_parameters", "pfer_bound",
           "subsample_halves", "STABILITY_BOUNDS", "DEFAULT_STABILITY_RANKERS",
           "check_rankers_task", "check_stability_rule"]

#: The rankers of :class:`StabilitySelector` with ``rankers=None``, per task: the ANOVA F test
#: for class labels, the univariate regression F test for a numeric target.
DEFAULT_STABILITY_RANKERS = {"classification": ("f_classif",),
                             "regression": ("f_regression",)}


def check_rankers_task(rankers, task: str, asked: str, *, who: str = "this selector") -> None:
    """Every registered ranker of ``rankers=`` supports the resolved ``task``, else a
    ``ValueError`` naming it and the rankers for the task
    (:func:`rankfusion.rankers.check_ranker_task`); under regression a function or estimator,
    which declares no task, needs ``asked == "regression"`` (an explicit task: never guessed).

    Parameters
    ----------
    rankers : object
        The ``rankers`` parameter.
    task : {"classification", "regression"}
        The resolved task.
    asked : {"auto", "classification", "regression"}
        The task the caller gave.
    who : str
        The selector, for the messages.
    """
    from ..rankers import check_ranker_task

    undeclared = []
    for item, spec in zip(ranker_items(rankers), resolve_rankers(rankers)):
        name = item if isinstance(item, str) else (
            item[0] if isinstance(item, tuple) and item and isinstance(item[0], str) else None)
        if name is not None:
            try:
                check_ranker_task(name, task)
            except ValueError as e:
                if asked != "auto" or task != "regression":
                    raise ValueError(f"{who}: {e}") from None
                raise ValueError(f"y looks continuous (a regression target, task='auto'), "
                                 f"but {e}; give class labels or regression rankers") from None
        else:
            undeclared.append(spec.name)
    if task == "regression" and undeclared and asked == "auto":
        raise ValueError(f"y looks continuous (a regression target) and the ranker(s) "
                         f"{', '.join(map(str, undeclared))} declare no task: say "
                         "task='regression' to rank a numeric target with them, or give "
                         "class labels")

#: The error bounds of :func:`pfer_bound`: ``"mb"`` (Meinshausen & Bühlmann 2010, Theorem 1;
#: also Shah & Samworth's complementary-pairs bound) and ``"unimodal"`` (Shah & Samworth 2013,
#: complementary pairs only).
STABILITY_BOUNDS = ("mb", "unimodal")


def _fresh_seed(random_state):
    """A SeedSequence given as ``random_state`` rebuilt unspawned (the same entropy and spawn
    key), so that a second fit spawns the same children as the first (``SeedSequence.spawn``
    counts the children it has given); any other value as it is."""
    if isinstance(random_state, np.random.SeedSequence):
        return np.random.SeedSequence(random_state.entropy, spawn_key=random_state.spawn_key,
                                      pool_size=random_state.pool_size)
    return random_state


def _unimodal_constant(threshold: float, n_pairs: int, theta: float) -> float:
    """C(π, B) of the unimodal bound (module docstring); ``nan`` where it does not apply."""
    B = float(n_pairs)
    if threshold <= 0.75:
        if threshold < 0.5 + min(theta ** 2, 1.0 / (2 * B) + 0.75 * theta ** 2):
            return math.nan
        return 2.0 * (2.0 * threshold - 1.0 - 1.0 / (2 * B))
    if threshold > 1.0:
        return math.nan
    return (1.0 + 1.0 / B) / (4.0 * (1.0 - threshold + 1.0 / (2 * B)))


def pfer_bound(q: int, p: int, threshold: float, *, bound: str = "mb",
               n_pairs: int | None = None) -> float:
    """The bound on the expected number of false selections E[V] (module docstring).

    ``"mb"``: :math:`q^2 / ((2\\pi - 1) p)` (Meinshausen & Bühlmann 2010, Theorem 1; Shah &
    Samworth 2013, Theorem 1, for complementary pairs). ``"unimodal"``: :math:`q^2 / (p\\,
    C(\\pi, B))` (Shah & Samworth 2013, §3, under unimodality; B the number of complementary
    pairs).

    Parameters
    ----------
    q : int
        Features kept from each subsample's ranking (1 ≤ q ≤ p).
    p : int
        Number of features.
    threshold : float
        π, in (0.5, 1].
    bound : {"mb", "unimodal"}, default "mb"
        Which bound.
    n_pairs : int, optional
        B, the number of complementary pairs (``"unimodal"`` only).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For a q outside 1…p, a threshold outside (0.5, 1], an unknown bound, ``"unimodal"``
        without ``n_pairs`` or with a threshold its formula does not cover.

    Examples
    --------
    >>> pfer_bound(10, 100, 0.9)
    1.25
    >>> round(pfer_bound(10, 100, 0.9, bound="unimodal", n_pairs=50), 4)
    0.4314
    """
    validate_params({"p": [Interval("int", 1, None)],
                     "threshold": [Interval("real", 0.5, 1, closed="right")],
                     "bound": [Options(*STABILITY_BOUNDS)],
                     "n_pairs": [None, Interval("int", 1, None)]},
                    {"p": p, "threshold": threshold, "bound": bound, "n_pairs": n_pairs})
    if isinstance(q, (bool, np.bool_)) or not isinstance(q, (int, np.integer)) or not (
            1 <= q <= p):
        raise ValueError(f"q must be an int from 1 to p={p}, got {q!r}")
    q, p, threshold = int(q), int(p), float(threshold)
    if bound == "mb":
        return q * q / ((2.0 * threshold - 1.0) * p)
    if n_pairs is None:
        raise ValueError("bound='unimodal' needs n_pairs, the number of complementary pairs")
    c = _unimodal_constant(threshold, int(n_pairs), q / p)
    if not c > 0:
        theta = q / p
        low = 0.5 + min(theta ** 2, 1.0 / (2 * n_pairs) + 0.75 * theta ** 2)
        raise ValueError(f"threshold={threshold} lies outside the unimodal bound's range for "
                         f"q={q}, p={p}, B={n_pairs} pairs: it needs threshold ≥ {low:.4g} "
                         "(Shah & Samworth 2013); use a higher threshold or bound='mb'")
    return q * q / (p * c)


@dataclass(frozen=True)
class StabilityParameters:
    """The q, threshold π and PFER bound of a stability selection (:func:`stability_parameters`).

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    q : int
        Features kept from each subsample's ranking.
    threshold : float
        π: a feature is selected when its selection probability is at least π.
    pfer_bound : float
        The bound on E[V] at (q, π) (:func:`pfer_bound`).
    pfer : float or None
        The PFER target asked for, if any.
    bound : str
        ``"mb"`` or ``"unimodal"``.
    """

    q: int
    threshold: float
    pfer_bound: float
    pfer: float | None
    bound: str


def stability_parameters(p: int, *, q=None, threshold=None, pfer=None, bound: str = "mb",
                         n_pairs: int | None = None) -> StabilityParameters:
    """Two of (q, threshold π, PFER target) fix the third.

    * q and π: the bound at (q, π) is reported.
    * q and PFER: ``"mb"``: :math:`\\pi = \\tfrac12 (1 + q^2/(p\\cdot\\text{PFER}))`, refused
      when above 1; ``"unimodal"``: the smallest π on the grid of attainable selection
      probabilities, j / (2B) (B pairs, 2B halves), whose bound is within the target.
    * π and PFER: the largest q whose bound is within the target (``"mb"``:
      :math:`\\lfloor\\sqrt{\\text{PFER}\\,(2\\pi-1)\\,p}\\rfloor`), refused when it is below 1.

    Fewer than two given: π defaults to 0.9, then the PFER target to 1 (with π = 0.9 and
    PFER = 1 the MB rule gives :math:`q = \\lfloor\\sqrt{0.8 p}\\rfloor`, the choice
    Meinshausen & Bühlmann illustrate); all three given is an error.

    Parameters
    ----------
    p : int
        Number of features.
    q : int or float, optional
        A count 1…p or a fraction of p in (0, 1] (docs/design.md, 'Fractions').
    threshold : float, optional
        π in (0.5, 1].
    pfer : float, optional
        The target bound on E[V], > 0.
    bound : {"mb", "unimodal"}, default "mb"
        As :func:`pfer_bound`.
    n_pairs : int, optional
        Complementary pairs (``"unimodal"``).

    Returns
    -------
    StabilityParameters

    Raises
    ------
    ValueError
        All three given; a value out of range; a target that no parameter reaches (the
        message says which, e.g. π would exceed 1).

    Examples
    --------
    >>> stability_parameters(100, q=10, pfer=1.0).threshold
    1.0
    >>> stability_parameters(100, threshold=0.9, pfer=1.0).q
    8
    >>> stability_parameters(100, q=12, pfer=1.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: pfer=1.0 with q=12 of p=100 features needs threshold π = ½(1 + q²/(p·PFER)) = ...
    """
    validate_params({"p": [Interval("int", 1, None)],
                     "q": [None, Interval("int", 1, None), Interval("real", 0, 1, closed="right")],
                     "threshold": [None, Interval("real", 0.5, 1, closed="right")],
                     "pfer": [None, Interval("real", 0, None, closed="neither")],
                     "bound": [Options(*STABILITY_BOUNDS)],
                     "n_pairs": [None, Interval("int", 1, None)]},
                    {"p": p, "q": q, "threshold": threshold, "pfer": pfer, "bound": bound,
                     "n_pairs": n_pairs})
    if pfer is not None and not math.isfinite(float(pfer)):
        raise ValueError(f"pfer must be a finite number > 0, got {pfer!r}")
    given = sum(v is not None for v in (q, threshold, pfer))
    _three_given(q, threshold, pfer)
    if bound == "unimodal" and n_pairs is None:
        raise ValueError("bound='unimodal' needs n_pairs, the number of complementary pairs")
    if threshold is None and given < 2:
        threshold = 0.9
    if q is None and pfer is None:
        pfer = 1.0
    p = int(p)
    if q is not None:
        q = resolve_n_features(q, p, name="q")
    if threshold is not None:
        threshold = float(threshold)
    if q is not None and threshold is not None:
        return StabilityParameters(q, threshold, pfer_bound(q, p, threshold, bound=bound,
                                                            n_pairs=n_pairs), None, bound)
    pfer = float(pfer)
    if q is not None:  # q and PFER → π
        if bound == "mb":
            t = 0.5 * (1.0 + q * q / (p * pfer))
            if t > 1.0:
                raise ValueError(f"pfer={pfer} with q={q} of p={p} features needs threshold "
                                 f"π = ½(1 + q²/(p·PFER)) = {t:.3g} > 1: lower q or raise pfer")
            return StabilityParameters(q, t, pfer_bound(q, p, t), pfer, bound)
        grid = np.arange(n_pairs + 1, 2 * n_pairs + 1) / (2.0 * n_pairs)
        for t in grid:
            c = _unimodal_constant(float(t), n_pairs, q / p)
            if c > 0 and q * q / (p * c) <= pfer:
                return StabilityParameters(q, float(t), q * q / (p * c), pfer, bound)
        raise ValueError(f"pfer={pfer} with q={q} of p={p} features is not reached by the "
                         f"unimodal bound at any threshold π ≤ 1 ({n_pairs} pairs): lower q "
                         "or raise pfer")
    # π and PFER → q
    qs = np.arange(1, p + 1)
    if bound == "mb":
        ok = qs.astype(np.float64) ** 2 / ((2.0 * threshold - 1.0) * p) <= pfer
    else:
        c = np.array([_unimodal_constant(threshold, n_pairs, k / p) for k in qs])
        with np.errstate(invalid="ignore", divide="ignore"):
            ok = (c > 0) & (qs.astype(np.float64) ** 2 / (p * c) <= pfer)
    if not ok.any():
        raise ValueError(f"pfer={pfer} with threshold={threshold} and p={p} features allows no "
                         f"q ≥ 1 (the {bound} bound at q=1 is above the target): raise pfer "
                         "or the threshold")
    q = int(qs[ok].max())
    return StabilityParameters(q, threshold, pfer_bound(q, p, threshold, bound=bound,
                                                        n_pairs=n_pairs), pfer, bound)


def check_stability_rule(params: dict, p: int) -> StabilityParameters:
    """The parameters of a stability rule (``n_features_to_select="stability:…"``, the
    advisor's ``sizes``) checked against p features before any work, as
    :meth:`StabilitySelector.fit` checks them: each value in its range, ``n_subsamples``
    even with complementary pairs, at most two of q, threshold and pfer, q ≤ p, and a target
    that the bound reaches (:func:`stability_parameters`).

    Parameters
    ----------
    params : dict
        Keyword arguments of :class:`StabilitySelector` (``q``, ``threshold``, ``pfer``,
        ``bound``, ``n_subsamples``, ``complementary_pairs``, …).
    p : int
        The number of features.

    Returns
    -------
    StabilityParameters

    Raises
    ------
    TypeError, ValueError
        The first parameter out of its range, or a combination no stable set can meet.

    Examples
    --------
    >>> check_stability_rule({"pfer": 1}, 100).q
    8
    >>> check_stability_rule({"q": 10}, 5)
    Traceback (most recent call last):
    ...
    ValueError: q=10 exceeds the number of features (5)
    """
    constraints = StabilitySelector._parameter_constraints
    unknown = sorted(set(params) - set(constraints))
    if unknown:
        raise TypeError(f"unknown stability parameter(s) {', '.join(unknown)}; parameters: "
                        f"{', '.join(constraints)}")
    validate_params({k: constraints[k] for k in params}, params)
    n_sub = params.get("n_subsamples", 100)
    pairs = params.get("complementary_pairs", True)
    if pairs and n_sub % 2:
        raise ValueError(f"n_subsamples must be even with complementary_pairs=True, got "
                         f"{n_sub}")
    if params.get("bound", "mb") == "unimodal" and not pairs:
        raise ValueError("bound='unimodal' needs complementary_pairs=True")
    _three_given(params.get("q"), params.get("threshold"), params.get("pfer"))
    return stability_parameters(p, q=params.get("q"), threshold=params.get("threshold"),
                                pfer=params.get("pfer"), bound=params.get("bound", "mb"),
                                n_pairs=n_sub // 2 if pairs else None)


def _three_given(q, threshold, pfer) -> None:
    """All three of q, threshold and pfer given: a ``ValueError`` before any data is seen."""
    if q is not None and threshold is not None and pfer is not None:
        raise ValueError("give two of q, threshold and pfer (the third follows from them), "
                         f"not all three: got q={plain_value(q)!r}, "
                         f"threshold={plain_value(threshold)!r}, pfer={plain_value(pfer)!r}")


def _check_missing_for(X, rankers) -> None:
    """A ``ValueError`` naming the rankers when ``X`` holds NaN and one of ``rankers`` does
    not take missing values (scikit-learn's own message points elsewhere)."""
    if rankers_allow_nan(rankers):
        return
    if isinstance(X, pd.DataFrame):
        nan = bool(X.isna().to_numpy().any())
    else:
        try:
            arr = np.asarray(X)
            nan = bool(pd.isna(arr).any()) if arr.dtype.kind in "fO" else False
        except (TypeError, ValueError):
            return  # validate_data says what is wrong
    if nan:
        refuse = [str(r.name) for r, given in zip(resolve_rankers(rankers),
                                                   ranker_items(rankers))
                  if not ranker_allows_nan(given)]
        raise ValueError(f"X holds missing values (NaN), which the ranker(s) "
                         f"{', '.join(refuse)} cannot take: impute them first, or choose "
                         "rankers that take missing values (e.g. rankers=['info_gain', "
                         "'relieff'])")


def _halves(codes: np.ndarray, rng, stratify: bool, pair: bool) -> list:
    """One subsample of ⌊n/2⌋ rows (or, ``pair``, two disjoint ones), sorted."""
    if not stratify:
        n = codes.shape[0]
        h = n // 2
        perm = rng.permutation(n)
        parts = [perm[:h], perm[h:2 * h]] if pair else [perm[:h]]
        return [np.sort(a) for a in parts]
    first, second = [], []
    for c in range(int(codes.max()) + 1):
        rows = np.flatnonzero(codes == c)
        h = rows.shape[0] // 2
        perm = rng.permutation(rows)
        first.append(perm[:h])
        second.append(perm[h:2 * h])
    parts = [np.concatenate(first)] + ([np.concatenate(second)] if pair else [])
    return [np.sort(a) for a in parts]


def subsample_halves(y, n_subsamples: int, *, complementary_pairs: bool = True,
                     stratify: bool = True, random_state=None) -> list:
    """The half-samples of a stability selection, drawn without replacement.

    Without complementary pairs, ``n_subsamples`` independent subsamples of ⌊n/2⌋ rows
    (Meinshausen & Bühlmann 2010); with them, ``n_subsamples / 2`` pairs of disjoint halves
    of ⌊n/2⌋ rows each, subsamples ``2j`` and ``2j + 1`` (Shah & Samworth 2013). Stratified:
    ⌊n_c/2⌋ rows of every class c (the pairs disjoint within each class), so every half keeps
    every class; a class of odd size leaves one row out of each pair. Subsample (or pair) j
    draws from its own child stream of ``random_state`` (docs/design.md, 'Seeds').

    Parameters
    ----------
    y : array-like of shape (n,)
        Class labels.
    n_subsamples : int
        The number of subsamples (even with complementary pairs).
    complementary_pairs : bool, default True
        Draw disjoint pairs.
    stratify : bool, default True
        Draw within classes.
    random_state : None, int, SeedSequence or Generator
        The root stream.

    Returns
    -------
    list of ndarray of int
        The sorted rows of each subsample.

    Raises
    ------
    ValueError
        An odd ``n_subsamples`` with complementary pairs, or a class with fewer than 2 rows
        (stratified) / fewer than 4 rows in all (unstratified): a half would be empty.

    Examples
    --------
    >>> halves = subsample_halves([0, 0, 0, 0, 1, 1, 1, 1], 2, random_state=0)
    >>> [h.shape[0] for h in halves], bool(set(halves[0]) & set(halves[1]))
    ([4, 4], False)
    """
    validate_params({"n_subsamples": [Interval("int", 1, None)],
                     "complementary_pairs": [Boolean()], "stratify": [Boolean()]},
                    {"n_subsamples": n_subsamples, "complementary_pairs": complementary_pairs,
                     "stratify": stratify})
    if complementary_pairs and n_subsamples % 2:
        raise ValueError(f"n_subsamples must be even with complementary_pairs=True (B/2 pairs "
                         f"of disjoint halves), got {n_subsamples}")
    y = np.asarray(y)
    labels, codes = np.unique(y, return_inverse=True)
    codes = codes.reshape(-1)
    counts = np.bincount(codes)
    if stratify and (counts < 2).any():
        bad = plain_value(labels[int(np.argmin(counts))])
        raise ValueError(f"y: class {bad!r} has {int(counts.min())} row; stratified halves "
                         "need at least 2 rows of every class")
    if not stratify and codes.shape[0] < 4:
        raise ValueError(f"y has {codes.shape[0]} rows; halves need at least 4")
    n_draws = n_subsamples // 2 if complementary_pairs else n_subsamples
    out = []
    for seq in spawn(random_state, n_draws):
        out += _halves(codes, np.random.default_rng(seq), bool(stratify),
                       bool(complementary_pairs))
    return out


def _positions_of(consensus) -> np.ndarray:
    return np.asarray(consensus.positions, dtype=np.int64)


class StabilitySelector(SelectorMixin, BaseEstimator):
    """Stability selection over any ranker or ensemble of rankers (Meinshausen & Bühlmann
    2010; complementary pairs, Shah & Samworth 2013).

    Every subsample of ⌊n/2⌋ rows is ranked by each of ``rankers`` (the ranker calls of
    :class:`~rankfusion.EnsembleSelector`, :mod:`rankfusion.selection.ranking_jobs`), the lists
    are combined by ``aggregation`` (one ranker: its own order), and the top ``q_`` features
    of the subsample are "selected" there. The selection probability of a feature is the
    fraction of subsamples that select it; the features whose probability reaches
    ``threshold_`` are kept, with the bound :attr:`pfer_bound_` on the expected number of
    false selections (formulas in :mod:`rankfusion.selection.stability_selection`).

    Parameters
    ----------
    rankers : sequence or None, default=None
        As :class:`~rankfusion.EnsembleSelector`: registered ranker names, ``(name, params)``
        pairs, score functions, estimators with ``coef_`` / ``feature_importances_``, list
        producers. None: the task's default (:data:`DEFAULT_STABILITY_RANKERS`),
        ``("f_classif",)`` for class labels, ``("f_regression",)`` for a numeric target.
    aggregation : str, tuple or callable, default="borda"
        The rule combining the rankers' lists on each subsample (a rule of
        :func:`rankfusion.aggregation.available_rules` or a callable); the fuzzy rules, which
        combine bootstrap lists, are refused.
    aggregation_params : dict, default=None
        The rule's parameters, as :class:`~rankfusion.EnsembleSelector`.
    normalize : {"minmax", "rank", None}, default="minmax"
        Per-list normalisation before a score-based rule, as
        :class:`~rankfusion.EnsembleSelector`.
    q : int or float, default=None
        Features selected on each subsample: a count or a fraction of p.
    threshold : float in (0.5, 1], default=None
        π.
    pfer : float > 0, default=None
        The target bound on E[V]. Two of ``q``, ``threshold``, ``pfer`` fix the third; fewer
        than two: π = 0.9, then PFER = 1 (:func:`stability_parameters`).
    bound : {"mb", "unimodal"}, default="mb"
        The error bound: Meinshausen & Bühlmann's, or Shah & Samworth's under unimodality
        (complementary pairs only). The r-concave bound is not provided.
    n_subsamples : int, default=100
        B, the number of half-samples (even with complementary pairs: B/2 pairs).
    complementary_pairs : bool, default=True
        Disjoint pairs of halves (Shah & Samworth 2013) or independent halves (Meinshausen &
        Bühlmann 2010).
    stratify : bool, default=True
        Halves drawn within classes (⌊n_c/2⌋ rows of each class c), so every half keeps
        every class. A departure from both papers, which subsample all rows alike; the
        bounds' arguments hold conditionally on the class counts. A numeric target has no
        classes: its halves are drawn from all rows alike (the papers' draw) whatever
        ``stratify`` says.
    tie_break : {"random", "index"}, default="random"
        The order of features a subsample's consensus leaves tied
        (:func:`rankfusion.aggregation.break_ties`), seeded per subsample: with ``"index"``,
        tied features at the q-th place would always go to the lower index, which favours
        the first columns and breaks the exchangeability the bound assumes.
    path_max : int, default=None
        The largest q of :attr:`selection_path_` (default ``min(p, max(2·q_, 20))``).
    n_jobs : int, default=None
        Ranker × subsample jobs in parallel (joblib; the result does not depend on it).
    random_state : None, int, SeedSequence or Generator, default=None
        Root of the subsamples', rankers' and tie breaks' child streams (docs/design.md,
        'Seeds').
    progress : bool, default=False
        Progress of the ranker calls on standard error.
    task : {"auto", "classification", "regression"}, default="auto"
        What ``y`` is (docs/design.md, 'Tasks'): ``"auto"`` takes a non-integer float target
        as regression and refuses a whole-number one with many distinct values; an explicit
        task is honoured. With regression every registered ranker must support it (a
        classification-only ranker is refused naming it and the regression rankers; a
        function or estimator, which declares no task, needs ``task="regression"``
        explicitly) and the halves are drawn without strata.
    accept_sparse : {False, "densify"}, default=False
        A scipy.sparse ``X`` is never densified without being asked (docs/design.md,
        'Sparse input'): the rankers that take it get CSR rows; a ranker that cannot take it
        makes ``fit`` raise a ``TypeError`` naming it and this option (``False``), or gets a
        dense copy of each half (``"densify"``, after a memory check of the dense
        ``n × p × 8`` bytes before any work; a ``MemoryError`` above the limit).

    Attributes
    ----------
    task_ : str
        The resolved task (``classes_`` is None for regression).
    rankers_ : tuple
        The rankers used (``rankers``, or the task's default).
    selection_probabilities_ : ndarray of shape (n_features,)
        Π̂ of each feature at ``q_``.
    threshold_ : float
        π.
    q_ : int
        q.
    pfer_bound_ : float
        The bound on E[V] at (``q_``, ``threshold_``).
    pfer_ : float or None
        The PFER target asked for, if any.
    n_subsamples_ : int
        B.
    subsamples_ : list of ndarray
        The rows of each half-sample.
    positions_ : ndarray of shape (n_subsamples, n_features)
        Each subsample's consensus position of each feature (1 = best, no ties).
    selection_path_ : DataFrame
        Π̂ for every q from 1 to ``path_max`` (index ``q``; one column per feature).
    support_ : ndarray of bool
        The stable set {Π̂ ≥ π}.
    n_features_ : int
        Its size.
    ranking_ : ndarray of int
        1 for the selected features, then 2, 3, … by decreasing Π̂ (ties: the mean
        subsample position, then the lower index).
    classes_, n_features_in_, feature_names_in_ : as in scikit-learn

    References
    ----------
    Meinshausen, N. & Bühlmann, P. (2010), Stability selection, JRSS B 72(4), 417–473.
    Shah, R. D. & Samworth, R. J. (2013), Variable selection with error control: another look
    at stability selection, JRSS B 75(1), 55–80.

    Examples
    --------
    >>> import numpy as np
    >>> from rankfusion.selection import StabilitySelector
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 50)
    >>> X = rng.normal(size=(100, 30)); X[:, :3] += 1.5 * y[:, None]
    >>> sel = StabilitySelector(q=5, threshold=0.8, n_subsamples=20, random_state=0).fit(X, y)
    >>> np.flatnonzero(sel.get_support()).tolist(), round(sel.pfer_bound_, 3)
    ([0, 1, 2], 1.389)
    """

    def __init__(self, rankers=None, aggregation="borda", aggregation_params=None,
                 normalize="minmax", q=None, threshold=None, pfer=None, bound="mb",
                 n_subsamples=100, complementary_pairs=True, stratify=True,
                 tie_break="random", path_max=None, n_jobs=None, random_state=None,
                 progress=False, task="auto", accept_sparse=False):
        self.rankers = rankers
        self.aggregation = aggregation
        self.aggregation_params = aggregation_params
        self.normalize = normalize
        self.q = q
        self.threshold = threshold
        self.pfer = pfer
        self.bound = bound
        self.n_subsamples = n_subsamples
        self.complementary_pairs = complementary_pairs
        self.stratify = stratify
        self.tie_break = tie_break
        self.path_max = path_max
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.progress = progress
        self.task = task
        self.accept_sparse = accept_sparse

    #: Every parameter's accepted values (docs/design.md, 'Parameters').
    _parameter_constraints = {
        "rankers": [None, RANKERS_CONSTRAINT],
        "aggregation": [InstanceOf(str, "a rule spec (str)", toml="str"),
                        InstanceOf(tuple, "a (rule, params) pair"), Function()],
        "aggregation_params": [Table(), None],
        "normalize": [Options("minmax", "rank"), None],
        "q": [None, Interval("int", 1, None), Interval("real", 0, 1, closed="right")],
        "threshold": [None, Interval("real", 0.5, 1, closed="right")],
        "pfer": [None, Interval("real", 0, None, closed="neither")],
        "bound": [Options(*STABILITY_BOUNDS)],
        "n_subsamples": [Interval("int", 2, None)],
        "complementary_pairs": [Boolean()],
        "stratify": [Boolean()],
        "tie_break": [Options(*TIE_BREAKS)],
        "path_max": [None, Interval("int", 1, None)],
        "n_jobs": [None, Jobs()],
        "random_state": SEED_CONSTRAINTS,
        "progress": [Boolean()],
        "task": [Options(*TASKS)],
        "accept_sparse": ACCEPT_SPARSE_CONSTRAINTS,
    }

    def _rankers_for(self, task: str | None = None):
        """``rankers``, or the default of ``task`` (both defaults when it is unknown)."""
        if self.rankers is not None:
            return self.rankers
        if task in DEFAULT_STABILITY_RANKERS:
            return DEFAULT_STABILITY_RANKERS[task]
        return tuple(r for t in ("classification", "regression")
                     for r in DEFAULT_STABILITY_RANKERS[t])

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        task = self.task if self.task in DEFAULT_STABILITY_RANKERS else None
        # with rankers=None and task="auto" both defaults must take it (the task is the data's)
        tags.input_tags.allow_nan = rankers_allow_nan(self._rankers_for(task))
        tags.input_tags.sparse = (rankers_take_sparse(self._rankers_for(task))
                                  or densify_asked(self.accept_sparse))
        return tags

    def _check_params(self):
        validate_params(self._parameter_constraints, self.get_params(deep=False))
        if self.complementary_pairs and self.n_subsamples % 2:
            raise ValueError(f"n_subsamples must be even with complementary_pairs=True (B/2 "
                             f"pairs of disjoint halves), got {self.n_subsamples}")
        if self.bound == "unimodal" and not self.complementary_pairs:
            raise ValueError("bound='unimodal' is Shah & Samworth's bound for complementary "
                             "pairs: set complementary_pairs=True or bound='mb'")
        _three_given(self.q, self.threshold, self.pfer)  # before the data are read

    def _resolve(self, rankers):
        from .ensemble import _aggregation_kind

        rankers = resolve_rankers(rankers)
        kind = _aggregation_kind(self.aggregation, self.aggregation_params)
        if kind[0] == "grouped":
            raise ValueError(f"aggregation {self.aggregation!r} combines each ranker's "
                             "bootstrap lists; stability selection ranks each half once per "
                             "ranker: choose a rule such as 'borda'")
        return rankers, kind

    def fit(self, X, y):
        """Rank every half-sample, count the top-q selections and keep the stable features.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The features (nominal columns and NaN pass to rankers that take them).
        y : array-like of shape (n_samples,)
            Class labels (at least two classes), or a numeric target (``task``).

        Returns
        -------
        StabilitySelector
        """
        self._check_params()
        sparse = is_sparse(X)
        # before any work: a column with no value is named (docs/design.md, 'Validation'),
        # and missing values a chosen ranker cannot take are refused with the way out
        check_observed_columns(X)
        if not sparse:
            _check_missing_for(X, self._rankers_for(self.task if self.task != "auto"
                                                    else None))
        nominal = not sparse and isinstance(X, pd.DataFrame) and any(
            isinstance(X[c].dtype, pd.CategoricalDtype)
            or not pd.api.types.is_numeric_dtype(X[c].dtype) for c in X.columns)
        if sparse:  # kept sparse (CSR: the halves index its rows); checked finite
            Xw, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64,
                                  ensure_min_samples=2)
        elif nominal:
            validate_data(self, X, y, skip_check_array=True)
            y = np.asarray(y)
            if y.ndim != 1 or y.shape[0] != X.shape[0]:
                raise ValueError(f"y must be 1-D with one label per row of X ({X.shape[0]}); "
                                 f"got shape {y.shape}")
            Xw = X
        else:
            Xw, y = validate_data(self, X, y, dtype=np.float64,
                                  ensure_all_finite="allow-nan" if rankers_allow_nan(
                                      self._rankers_for(self.task if self.task != "auto"
                                                        else None)) else True,
                                  ensure_min_samples=2)
        self.task_ = resolve_task(y, self.task)
        chosen = self._rankers_for(self.task_)
        self.rankers_ = tuple(ranker_items(chosen))
        rankers, kind = self._resolve(chosen)
        check_rankers_task(chosen, self.task_, self.task, who="StabilitySelector")
        densify = sparse and not rankers_take_sparse(chosen)
        if densify:
            if not densify_asked(self.accept_sparse):
                dense_only = [str(r.name) for r, given in zip(rankers, ranker_items(chosen))
                              if not ranker_takes_sparse(given)]
                raise sparse_refusal(f"StabilitySelector's ranker(s) {', '.join(dense_only)}")
            check_dense_size(Xw.shape)  # before any work (docs/design.md, 'Sparse input')
        self._densify = densify
        if self.task_ == "regression":
            codes = check_regression_target(y, name="y")
            self.classes_ = None
            strata = np.zeros(codes.shape[0], dtype=np.int64)  # no classes: all rows alike
            stratify = False
        else:
            self.classes_, codes = class_codes(y, self.task)
            strata, stratify = codes, bool(self.stratify)
            # many classes (asked for, or text labels whose codes look like numbers): labels
            # the rankers take, in code order (a no-op for the usual few classes)
            codes = as_class_labels(codes)
        p = Xw.shape[1]
        B = int(self.n_subsamples)
        params = stability_parameters(p, q=self.q, threshold=self.threshold, pfer=self.pfer,
                                      bound=self.bound,
                                      n_pairs=B // 2 if self.complementary_pairs else None)
        sub_seq, rank_seq, agg_seq, tie_seq = spawn(_fresh_seed(self.random_state), 4)
        halves = subsample_halves(strata, B, complementary_pairs=bool(self.complementary_pairs),
                                  stratify=stratify, random_state=sub_seq)
        names = (np.asarray(self.feature_names_in_, dtype=object)
                 if hasattr(self, "feature_names_in_")
                 else np.array([f"x{i}" for i in range(p)], dtype=object))
        positions = self._rank_halves(Xw, codes, rankers, kind, halves, p, names,
                                      (rank_seq, agg_seq, tie_seq))
        q = params.q
        selected = positions <= q
        prob = selected.mean(axis=0)
        self.q_ = int(q)
        self.threshold_ = float(params.threshold)
        self.pfer_bound_ = float(params.pfer_bound)
        self.pfer_ = params.pfer
        self.n_subsamples_ = B
        self.subsamples_ = halves
        self.positions_ = positions
        self.selection_probabilities_ = prob
        # Π̂ takes values j / B: compare counts, exactly
        self.support_ = selected.sum(axis=0) >= math.ceil(self.threshold_ * B - 1e-9)
        self.n_features_ = int(self.support_.sum())
        q_max = self.path_max if self.path_max is not None else max(2 * self.q_, 20)
        q_max = int(min(p, q_max))
        # counts[k, j]: subsamples placing feature k at position j + 1 (within path_max)
        counts = np.zeros((p, q_max + 1), dtype=np.int64)
        np.add.at(counts, (np.broadcast_to(np.arange(p), positions.shape),
                           np.minimum(positions, q_max + 1) - 1), 1)
        path = np.cumsum(counts[:, :q_max], axis=1).T / float(B)
        self.selection_path_ = pd.DataFrame(path, index=pd.RangeIndex(1, q_max + 1, name="q"),
                                            columns=pd.Index(names, name="feature"))
        mean_pos = positions.mean(axis=0)
        order = np.lexsort((np.arange(p), mean_pos, -prob))
        order = np.concatenate([order[self.support_[order]], order[~self.support_[order]]])
        ranking = np.ones(p, dtype=np.int64)
        rest = order[self.n_features_:]
        ranking[rest] = np.arange(2, rest.shape[0] + 2)
        self.ranking_ = ranking
        return self

    def _rank_halves(self, X, y, rankers, kind, halves, p, names, seqs) -> np.ndarray:
        """Positions (n_subsamples × p) of every half's consensus."""
        from .ensemble import _normalise

        rank_seq, agg_seq, tie_seq = seqs
        B = len(halves)
        parents = rank_seq.spawn(len(rankers))
        jobs = [RankingJob(r, halves[b], child, f"{r.name}@h{b}", b)
                for r, parent in zip(rankers, parents)
                for b, child in enumerate(parent.spawn(B))]
        plan = RankingPlan(jobs=jobs, samples=list(halves), n_rankers=len(rankers))
        scores, list_names, groups = run_ranking_jobs(plan, X, y, p, n_jobs=self.n_jobs,
                                                      progress=bool(self.progress),
                                                      densify=getattr(self, "_densify", False))
        mode, spec = kind
        agg_seqs, tie_seqs = agg_seq.spawn(B), tie_seq.spawn(B)
        out = np.empty((B, p), dtype=np.int64)
        for b in range(B):
            cols = [c[b] for c in groups.values()]
            block = _normalise(scores[:, cols], self.normalize)
            lists = RankedLists.from_scores(block, features=names,
                                            list_names=[list_names[c] for c in cols])
            if mode == "callable":
                cons = spec(lists)
            else:
                extra = {}
                if spec.accepts("random_state") and "random_state" not in spec.params:
                    extra["random_state"] = seed_int(agg_seqs[b], bits=31)
                cons = spec(lists, None, **extra)
            cons = break_ties(cons, self.tie_break, seed_int(tie_seqs[b]))
            out[b] = _positions_of(cons)
        return out

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_
