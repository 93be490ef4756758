"""``EnsembleSelector``: rankers × resamples → consensus → subset, as a scikit-learn selector.

One estimator covers the ensemble feature-selection systems of three papers:

* the bootstrap ensembles of filters combined through fuzzy sets of the fuzzy paper (CFS, ILFS,
  ReliefF and MIFS over 100 bootstrap samples, ``aggregation="fuzzy:OW"``);
* the accuracy-weighted rank aggregation of Bouaguel et al. (2013): a ranker whose list
  classifies better counts more (``list_weights="accuracy"``, ``aggregation="ga"`` or
  ``"mean_score"``);
* the filter ensembles of the robust-FS paper (IG, SU and χ² combined by Borda or Kemeny, the
  subset size chosen by K-step: ``n_features_to_select="k-step"``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._utils.columns import check_observed_columns, plain_value
from .._utils.constraints import (
    Boolean,
    Check,
    Function,
    InstanceOf,
    Interval,
    Jobs,
    Options,
    SequenceOf,
    Table,
    validate_params,
)
from .._utils.data import target_problem
from .._utils.progress import progress_bar
from .._utils.seeding import seed_int, spawn
from .._utils.sparse import check_dense_size, is_sparse, sparse_refusal
from .._utils.task import TASKS, as_class_labels, check_regression_target, resolve_task
from .._utils.ties import cutoff_ties
from .._utils.validation import resolve_n_features
from ..aggregation import TIE_BREAKS, break_ties, tied_blocks
from ..lists import RankedLists
from ..rankers import check_ranker_task
from .estimators import ESTIMATORS_CONSTRAINT, default_estimators, estimator_by_name
from .list_weights import (
    NAMED_WEIGHTS_CONSTRAINT,
    WEIGHTS_CONSTRAINT,
    regression_list_weights,
    resolve_list_weights,
)
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
from .ranking_jobs import plan_ranking_jobs, run_ranking_jobs
from .regression import default_regressor, regression_folds
from .resampling import check_sample_size, cv_folds
from .subset_size import (
    SIZE_CONSTRAINTS,
    check_size_rule,
    choose_size,
    evaluate_prefixes,
    is_fdr_rule,
    k_step_grid,
    learning_curve_grid,
    parse_fdr_rule,
    parse_stability_rule,
)

__all__ = ["EnsembleSelector"]

_SEARCHES = ("k-step", "learning-curve")


def _searched(n) -> bool:
    """Whether ``n_features_to_select`` searches the size by CV (not the stability or the FDR
    rule)."""
    return isinstance(n, str) and parse_stability_rule(n) is None and not is_fdr_rule(n)


def _fdr_ranker(rankers) -> str:
    """The one registered ranker with p-values that ``n_features_to_select="fdr:…"`` needs."""
    from ..rankers import PVALUE_TESTS, ranker_info

    items = ranker_items(rankers)
    name = items[0][0] if len(items) == 1 and isinstance(items[0], tuple) else (
        items[0] if len(items) == 1 else None)
    ok = isinstance(name, str) and ranker_info(name).tags.get("pvalues", False)
    if not ok:
        raise ValueError(f"n_features_to_select='fdr:…' keeps the features whose "
                         "Benjamini–Hochberg q-value is within the level under one ranker's "
                         f"test: give one ranker that gives p-values ({', '.join(PVALUE_TESTS)}"
                         f"), got rankers={rankers!r}")
    return name


def _root_children(random_state, n: int) -> list[np.random.SeedSequence]:
    """The child streams of one fit (docs/design.md, 'Seeds'); they share the root's entropy."""
    return spawn(random_state, n)


def _normalise(scores: np.ndarray, how) -> np.ndarray:
    """Per-list normalisation of a p × M score matrix (``"minmax"``: (s − min)/(max − min), a
    constant list becomes all 0; ``"rank"``: the relative ranking 1 − pos/p)."""
    if how is None:
        return scores
    if how == "minmax":
        # min–max is scale invariant: each list divided by a power of two first (exact), so
        # that the span of scores near ±1.8e308 stays finite (docs/design.md, 'Inputs')
        top = np.abs(scores).max(axis=0, keepdims=True)
        scores = np.ldexp(scores, -np.frexp(top)[1])
        lo = scores.min(axis=0, keepdims=True)
        span = scores.max(axis=0, keepdims=True) - lo
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(span > 0, (scores - lo) / np.where(span > 0, span, 1.0), 0.0)
        return out
    return RankedLists.from_scores(scores).relative.copy()


def _fuzzy_bootstrap_scores(scores: np.ndarray, groups: dict, consensus) -> list:
    """The fuzzy consensus of each bootstrap on its own (the consensus row of ``stability_``).

    On one sample b, method j's fuzzy set is a single point, its discretised score x^i_jb
    (eqs. 1–4 with L = 1, :func:`rankfusion.aggregate_fuzzy` of that one list), and the centre
    of average of eq. 5 combined with the fit's weights w^i_j is c^i_b = Σ_j w^i_j x^i_jb
    (eq. 13). The weights are the fit's because RW and OW need every bootstrap to estimate
    them (the SD of a method's L scores); the other rules' rows likewise reuse the fit's list
    weights. With EW the sum is taken in integers, c^i_b = Σ_j g^i_jb / (100 M), which is
    :func:`~rankfusion.aggregate_fuzzy` of sample b's lists itself.
    """
    from ..aggregation import aggregate_fuzzy

    column = {str(m): j for j, m in enumerate(consensus.methods)}
    w = np.asarray(consensus.weights, dtype=np.float64)[:, [column[g] for g in groups]]
    equal = consensus.params.get("weighting") == "EW"
    L = len(next(iter(groups.values())))
    out = []
    for b in range(L):
        cols = [c[b] for c in groups.values()]
        # the grid value g/100 of each list: aggregate_fuzzy of one list with one bootstrap
        g = np.column_stack([
            np.rint(100.0 * aggregate_fuzzy(scores[:, [c]][:, :, None], "EW").scores)
            for c in cols]).astype(np.int64)
        if equal:
            out.append(g.sum(axis=1) / float(100 * g.shape[1]))
        else:
            terms = w * (g / 100.0)
            terms.sort(axis=1)  # the order of the methods changes nothing
            out.append(terms.sum(axis=1))
    return out


def _top_orders(block: np.ndarray, m: int) -> list:
    """The first ``m`` features of each row's order, descending scores and ties by feature
    index (the first ``m`` of ``np.argsort(-row, kind="stable")``), without sorting the whole
    row: the features scored above the m-th best score, then those equal to it, lowest
    indices first, and only these m sorted (O(p + m log m) per row instead of O(p log p))."""
    p = block.shape[1]
    if m >= p:
        return list(np.argsort(-block, axis=1, kind="stable"))
    out = []
    for row in block:
        t = -row
        cut = np.partition(t, m - 1)[m - 1]
        above = np.flatnonzero(t < cut)
        top = np.concatenate([above, np.flatnonzero(t == cut)[: m - above.shape[0]]])
        out.append(top[np.lexsort((top, t[top]))])
    return out


def _smallest_training_part(y, cv: int, stratify) -> np.ndarray:
    """Labels of a training part as small as a ``cv``-fold split can leave (per class when
    stratified: n_c − ⌈n_c / cv⌉ rows; else n − ⌈n / cv⌉ rows of the classes in turn)."""
    labels, counts = np.unique(y, return_counts=True)
    if stratify:
        keep = counts - -(-counts // cv)
        return np.repeat(labels, keep)
    n = int(counts.sum())
    return np.resize(labels, n - -(-n // cv))


def _short_repr(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _seed_estimators(estimators: dict, seed: int) -> dict:
    """Clones of the classifiers whose ``random_state`` parameters (nested ones too, e.g. in a
    Pipeline) left at None get ``seed``, so a fit with a fixed ``random_state`` is repeatable
    (an entropy tree breaks ties between equally good splits at random)."""
    from sklearn.base import clone

    out = {}
    for name, est in estimators.items():
        est = clone(est)
        try:
            params = est.get_params(deep=True)
        except Exception:  # pragma: no cover - not a scikit-learn estimator
            out[name] = est
            continue
        todo = {k: seed for k, v in params.items()
                if (k == "random_state" or k.endswith("__random_state")) and v is None}
        if todo:
            est.set_params(**todo)
        out[name] = est
    return out


def _aggregation_kind(agg, aggregation_params) -> tuple:
    """``(mode, RuleSpec)`` of the ``aggregation`` parameter (:func:`rankfusion.aggregation.
    resolve`): mode ``"rule"``, ``"grouped"`` (a rule combining each ranker's bootstrap lists,
    the fuzzy combination) or ``"callable"``. ``aggregation_params`` are defaults under the
    spec's own parameters; a key the rule does not take is an error."""
    from ..aggregation import resolve

    spec = resolve(agg, argument="aggregation")
    params = aggregation_params
    if params is not None and not isinstance(params, dict):
        raise TypeError(f"aggregation_params must be a dict or None, got "
                        f"{type(params).__name__}")
    if spec.entry is None:
        if params:
            raise ValueError("aggregation_params applies to the rules of aggregate() only")
        return "callable", spec
    if params:
        unknown = sorted(k for k in params if not spec.accepts(k))
        if unknown:
            raise ValueError(f"aggregation method {spec.name!r} got unknown parameter(s) "
                             f"{unknown}; its parameters: "
                             f"{', '.join(spec.entry.params) or 'none'} (a grid over rules "
                             "gives each rule its own in the spec, e.g. 'kfirst:k=0.05')")
        spec = spec.with_params(defaults=params)
    return ("grouped" if spec.groups else "rule"), spec


class EnsembleSelector(SelectorMixin, BaseEstimator):
    """Ensemble feature selection: several rankers, optionally on bootstrap samples, combined
    into one consensus ranking, from which a subset is kept.

    Function perturbation (several rankers on the same data) and data perturbation (each
    ranker on ``n_bootstraps`` bootstrap samples) give ``M × L`` ranked lists
    (:attr:`lists_`), which an aggregation rule combines (:attr:`consensus_`). The subset is the
    consensus's top ``n_features_`` features, a fixed number or one chosen by K-step (robust-FS
    paper, Alg. 2) or by the learning curve (Ruiz et al. 2003).

    Parameters
    ----------
    rankers : sequence, default=("info_gain", "relieff", "nlc")
        Registered ranker names (:func:`rankfusion.rankers.available_rankers`), ``(name,
        params)`` pairs, score functions ``f(X, y) -> scores``, estimators with ``coef_`` /
        ``feature_importances_``, or callables returning a :class:`~rankfusion.RankedLists` of
        several lists (all of which join the ensemble).
    aggregation : str, tuple or callable, default="borda"
        A rule spec for :func:`rankfusion.aggregation.resolve`: a rule of
        :func:`rankfusion.aggregation.available_rules`, with its parameters if any
        (``"kfirst:k=0.05"``, ``"rrf:k_rrf=30"``, ``("kfirst", {"k": 0.05})``);
        ``"fuzzy:EW"``, ``"fuzzy:RW"``, ``"fuzzy:OW"`` or ``"fuzzy:MW"`` for the fuzzy
        combination of :func:`rankfusion.aggregate_fuzzy` (every ranker is one method, its
        bootstrap lists its samples; needs ``n_bootstraps ≥ 2``); or a callable taking the
        :class:`~rankfusion.RankedLists` and returning a :class:`~rankfusion.Consensus` or one
        score per feature (higher = better). Kept as given (``get_params``, ``clone``); a grid
        search over rules gives each its own parameters in the spec.
    aggregation_params : dict, default=None
        The rule's parameters (``{"k": 0.1}`` for K-First …), defaults under those written in
        the spec (the spec's win); a key the rule does not take is an error. A rule that takes
        ``random_state`` receives one spawned from :attr:`random_state` unless given here or
        in the spec.
    list_weights : None, str, array-like or dict, default=None
        Weights of the lists for rules that take them. ``"accuracy"`` (Bouaguel et al. 2013):
        each list's top ``weight_k`` features are scored by the stratified ``cv``-fold accuracy
        of the first of ``estimators`` on the fit data, and the accuracies, normalised to sum 1,
        are the weights (nearly uniform when the accuracies are close). Weightings of the same
        accuracies that separate the lists: ``"accuracy_above_chance"`` (∝ accuracy minus the
        majority-class rate, floored at 0; uniform when no list beats it),
        ``"accuracy_softmax"`` / ``"accuracy_softmax:T"`` (∝ exp(accuracy / T), T = 0.01 by
        default) and ``"accuracy_rank"`` (∝ the accuracy's rank among the lists);
        :mod:`rankfusion.selection.list_weights`. An array gives one weight per list of
        :attr:`lists_`; a dict maps a ranker's name to the weight of each of its lists.
    n_bootstraps : int, default=0
        0: every ranker once on all the data (function perturbation). L > 0: every ranker on
        each of L bootstrap samples (data perturbation).
    sample_fraction : float in (0, 1], default=1.0
        Rows drawn with replacement per bootstrap sample, as a fraction of n
        (:func:`rankfusion.selection.resampling.bootstrap_indices`). Checked at fit, when n is
        known: a fraction that draws fewer than 2 rows of a class (stratified) or fewer than 2
        per class in all (unstratified) is refused, also for the training parts of a nested
        size search (:func:`~rankfusion.selection.resampling.check_sample_size`). A fraction
        other than 1 with ``n_bootstraps=0`` (no bootstrap samples) is refused: it would do
        nothing.
    stratify : bool, default=True
        Draw every bootstrap sample (and the CV folds) within classes.
    n_features_to_select : None, int, float, "k-step", "learning-curve" or "stability", default=None
        None keeps half the features (as scikit-learn's ``RFE``); an int is a count (≤ p); a
        float in (0, 1] a fraction, ``max(1, ⌊f·p + 0.5⌋)`` (docs/design.md, 'Fractions');
        ``"k-step"`` or ``"learning-curve"`` search the size by cross-validation
        (:mod:`rankfusion.selection.subset_size`, :attr:`subset_curve_`). ``"stability"`` or
        ``"stability:pfer=1,threshold=0.9"`` (parameters ``q``, ``threshold``, ``pfer``,
        ``bound``, ``n_subsamples``, ``complementary_pairs``) keeps the stable set of a
        :class:`~rankfusion.selection.StabilitySelector` with the same rankers, rule,
        ``aggregation_params``, ``normalize``, ``stratify``, ``tie_break`` and ``n_jobs``
        (each half ranked once per ranker; no list weights), fitted on the same data:
        :attr:`support_` is that set (not necessarily the consensus's top
        :attr:`n_features_`), :attr:`stability_selection_` the fitted selector.
        ``"fdr:0.05"`` keeps the features whose Benjamini–Hochberg q-value
        (:func:`rankfusion.rankers.benjamini_hochberg`) of the test behind the one ranker is
        at most 0.05 on the fit data (a ranker that gives p-values: ``welch_t``,
        ``mann_whitney``, ``kruskal_wallis``, ``f_classif``; others are refused):
        :attr:`support_` is that set, :attr:`fdr_qvalues_` the q-values.
    estimators : dict or list of classifiers, default=None
        The classifiers of the size search and of the accuracy weights. None: the papers'
        linear SVM, naive Bayes, 1-NN and entropy tree
        (:func:`~rankfusion.selection.estimators.default_estimators`); their names
        (``"linear_svm"``, ``"naive_bayes"``, ``"knn1"``, ``"tree"``) and those of the
        classifier registry (``"smo"``, ``"knn3"``, ``"random_forest"`` …,
        :func:`rankfusion.selection.classifiers.available_classifiers`, the names of the
        command line and the experiment configs) may stand for them in the list or the dict
        (an unknown name is an error naming it and the closest known one).
        The learning curve uses the first only; K-step all of them. Nominal columns and
        missing values are encoded inside each classifier's pipeline.
    cv : int, default=5
        Folds of the size search and of the accuracy weights (stratified, shuffled).
    subset_cv : {"nested", "ranked_once"}, default="nested"
        ``"nested"``: each fold's ranking is recomputed on the fold's training part, so no
        held-out row reaches the ranking; ``"ranked_once"``: rank once on all the fit data (the
        papers' reading; cheaper, optimistic).
    subset_grid : sequence of int, default=None
        The sizes the search tries (default: :func:`~rankfusion.selection.subset_size.
        k_step_grid` or :func:`~rankfusion.selection.subset_size.learning_curve_grid`).
    tol : float, default=None
        Parsimony of a searched size: keep the smallest k whose score (the deciding
        classifier's mean accuracy) is within ``tol`` of the best score, as scikit-learn's
        ``SequentialFeatureSelector`` names its margin; None keeps the best k. The same
        rule is ``size_tol`` of :class:`~rankfusion.SVMRFE`, where ``tol`` is the SVM solver's
        tolerance (as in scikit-learn's ``LinearSVC``).
    size_rule : {"best", "one_se"}, default="best"
        ``"one_se"``: keep the smallest k whose score is within one standard error of the best
        (the best k's sd over the ``cv`` folds, ddof = 1, / √cv; Hastie, Tibshirani &
        Friedman, *Elements of Statistical Learning*, §7.10); not together with ``tol``. The
        best k is the highest score, ties (to 12 decimals) to the smaller k
        (:func:`rankfusion.selection.choose_size`, shared with
        :class:`~rankfusion.SVMRFE`).
    weight_k : int or float, default=None
        Subset size of the accuracy weights (default: the fixed subset size, or half the
        features when the size is searched).
    normalize : {"minmax", "rank", None}, default="minmax"
        How each list's scores are put on one scale before aggregation (only score-based rules,
        ``mean_score`` and ``combmnz``, see the difference): ``"minmax"`` per list (the papers'
        "average of normalised scores"), ``"rank"`` the relative ranking 1 − pos/p, None the raw
        scores (a ranker on a large scale then dominates).
    n_jobs : int, default=None
        Ranker × bootstrap jobs in parallel (joblib; any backend, Dask included). The results
        do not depend on it.
    random_state : None, int, SeedSequence or Generator, default=None
        None draws fresh entropy. Every random step (bootstrap samples, seeded rankers, the
        rule, the CV folds, the classifiers of ``estimators`` whose ``random_state`` is None)
        gets its own child stream spawned from it.
    progress : bool, default=False
        Progress of the ranker calls and of the stability's consensus rankings on standard
        error: a tqdm bar on an interactive terminal, else a line every 10 s with the
        elapsed and estimated remaining time (``rankfusion._utils.progress``).
    tie_break : {"index", "random"}, default="index"
        The order of features the consensus leaves tied (equal score and secondary key,
        :func:`rankfusion.aggregation.tied_blocks`): the lower feature index (every rule's
        exact default) or a random order from its own child stream of ``random_state``
        (:func:`rankfusion.aggregation.break_ties`), in the fit and in each fold of a nested
        size search, so that column order cannot decide which tied features the top k keeps.
        :attr:`cutoff_ties_` reports whether it did.
    task : {"auto", "classification", "regression"}, default="auto"
        What ``y`` is (docs/design.md, 'Tasks'): ``"auto"`` takes a non-integer float target
        as regression and refuses a whole-number one with many distinct values. With
        regression every ranker must support it (registered regression rankers, or functions
        with ``task="regression"`` given explicitly), bootstraps are drawn without strata,
        ``list_weights="accuracy"`` becomes the R² weights
        (:func:`rankfusion.selection.regression.r2_weights`: plain shuffled K-fold, the first
        of ``estimators`` — regressor objects — or a ridge on z-scored features), and the
        size search (``"k-step"``, ``"learning-curve"``) scores each prefix by the
        regressors' cross-validated R² on plain shuffled K-fold folds
        (:func:`rankfusion.selection.subset_size.evaluate_prefixes`, ``scoring="r2"``).
    accept_sparse : {False, "densify"}, default=False
        A scipy.sparse ``X`` (or a DataFrame of sparse columns) is never densified without
        being asked (docs/design.md, 'Sparse input'): the rankers that take it get it as a
        CSR matrix; with ``False`` a ranker that cannot take it makes ``fit`` raise a
        ``TypeError`` naming it and this option; with ``"densify"`` each such ranker gets a
        dense copy of its sample (made once per sample, after a memory check of the dense
        ``n × p × 8`` bytes before any work: ``RANKFUSION_MAX_MEMORY``, else 75 % of the
        physical memory; a ``MemoryError`` above it), the sparse-capable rankers still the
        sparse rows. The classifiers of the size search and of the accuracy weights get
        ``X`` as given.

    Attributes
    ----------
    task_ : str
        The resolved task, ``"classification"`` or ``"regression"`` (``classes_`` is None
        for regression).
    lists_ : RankedLists
        Every ranker × bootstrap list; names ``relieff`` (no bootstraps) or ``relieff@b17``;
        a producer of several lists gives ``name[list]@b17``.
    consensus_ : Consensus
    scores_ : ndarray of shape (n_features,)
        The consensus score of each feature (higher = better).
    positions_ : ndarray of int
        Consensus position of each feature, 1 = best, no ties.
    ranking_ : ndarray of int
        scikit-learn ``RFE``'s meaning: the selected features 1, the others 2, 3, … in
        consensus order.
    support_ : ndarray of bool
    n_features_ : int
    list_weights_ : ndarray or None
        The weights given to the rule.
    subset_curve_ : SubsetCurve or None
        With a searched size: the curve (mean and SD of accuracy per k per estimator), the
        chosen k and the deciding estimator, the best k, the rule (``"best"``, ``"tol"`` or
        ``"one_se"``) and its threshold
        (:class:`~rankfusion.selection.SubsetCurve`).
    cutoff_ties_ : dict
        ``n_tied`` features the consensus leaves tied with the last one kept, ``n_kept`` of
        them kept, ``cuts_ties`` (True when the top ``n_features_`` cut through that block,
        so that ``tie_break`` chose among them) and ``tie_break``.
    stability_ : DataFrame or None
        With ``n_bootstraps ≥ 2``: per ranker and for the consensus, Nogueira et al.'s
        stability of the bootstrap top-``n_features_`` subsets with its 95 % interval
        (``nogueira``, ``nogueira_low``, ``nogueira_high``, ``nogueira_variance``), and ASD and
        APC of the bootstrap score vectors (:mod:`rankfusion.stability`; APC and the Nogueira
        columns are NaN when a ranker gives one bootstrap constant scores: the correlation is
        undefined, and a top-k taken from tied scores is the lowest feature indices on every
        sample, a perfect stability that measures nothing. For the same reason a ranker's
        Nogueira columns are NaN when on some bootstrap its k-th and (k+1)-th scores tie, so
        that the index, not the score, decides the subset). The
        consensus row aggregates each bootstrap's lists with the same rule (and the fit's list
        weights); for the fuzzy rules, whose weights need all bootstraps at once, with the
        fit's fuzzy weights w^i_j: c^i_b = Σ_j w^i_j x^i_jb, x^i_jb method j's discretised
        score on bootstrap b (eqs. 5 and 13 on one sample; with EW exactly
        :func:`rankfusion.aggregate_fuzzy` of that bootstrap's lists).
    bootstrap_indices_ : list of ndarray
        The rows of each bootstrap sample (empty without bootstraps).
    seed_entropy_ : int
        The entropy of the root seed, to reproduce a fit made with ``random_state=None``.
    stability_selection_ : StabilitySelector or None
        With ``n_features_to_select="stability…"``: the fitted selector behind the subset.
    fdr_qvalues_ : ndarray of shape (n_features,) or None
        With ``n_features_to_select="fdr:…"``: each feature's Benjamini–Hochberg q-value.
    classes_, n_features_in_, feature_names_in_ : as in scikit-learn

    References
    ----------
    Bouaguel, Ben Brahim & Limam (2013), Feature selection by rank aggregation and genetic
    algorithms, KDIR 2013, 74–81 (the accuracy list weights). A novel weighted combination
    method for feature selection using fuzzy sets (the fuzzy rules). Robust feature selection
    technique using rank aggregation, Algorithm 2 (the bootstrap ensemble). Ruiz, Riquelme &
    Aguilar-Ruiz (2003), §4. Nogueira, Sechidis & Brown (2018), JMLR 18(174).

    Examples
    --------
    >>> from sklearn.datasets import load_wine
    >>> from rankfusion import EnsembleSelector
    >>> X, y = load_wine(return_X_y=True, as_frame=True)
    >>> sel = EnsembleSelector(rankers=("info_gain", "relieff"), n_features_to_select=3)
    >>> sel.fit(X, y).get_feature_names_out().tolist()
    ['flavanoids', 'od280/od315_of_diluted_wines', 'proline']
    """

    def __init__(self, rankers=("info_gain", "relieff", "nlc"), aggregation="borda",
                 aggregation_params=None, list_weights=None, n_bootstraps=0, sample_fraction=1.0,
                 stratify=True, n_features_to_select=None, estimators=None, cv=5,
                 subset_cv="nested", subset_grid=None, tol=None, size_rule="best",
                 weight_k=None, normalize="minmax", n_jobs=None, random_state=None,
                 progress=False, tie_break="index", task="auto", accept_sparse=False):
        self.rankers = rankers
        self.aggregation = aggregation
        self.aggregation_params = aggregation_params
        self.list_weights = list_weights
        self.n_bootstraps = n_bootstraps
        self.sample_fraction = sample_fraction
        self.stratify = stratify
        self.n_features_to_select = n_features_to_select
        self.estimators = estimators
        self.cv = cv
        self.subset_cv = subset_cv
        self.subset_grid = subset_grid
        self.tol = tol
        self.size_rule = size_rule
        self.weight_k = weight_k
        self.normalize = normalize
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.progress = progress
        self.tie_break = tie_break
        self.task = task
        self.accept_sparse = accept_sparse

    #: Every parameter's accepted values, as data (docs/design.md, 'Parameters'): checked
    #: once by :func:`~rankfusion._utils.constraints.validate_params` at fit, and read by the
    #: experiment config for the keys, TOML types and values of a ``[selectors.X]`` table.
    #: What one parameter cannot say alone is checked by :meth:`_check_params`.
    _parameter_constraints = {
        "rankers": [RANKERS_CONSTRAINT],
        "aggregation": [InstanceOf(str, "a rule spec (str)", toml="str"),
                        InstanceOf(tuple, "a (rule, params) pair"), Function()],
        "aggregation_params": [Table(), None],
        "list_weights": [None, NAMED_WEIGHTS_CONSTRAINT, Table(), WEIGHTS_CONSTRAINT],
        "n_bootstraps": [Interval("int", 0, None)],
        "sample_fraction": [Interval("real", 0, 1, closed="right")],
        "stratify": [Boolean()],
        "n_features_to_select": [None, Interval("int", 1, None),
                                 Interval("real", 0, 1, closed="right"), Options(*_SEARCHES),
                                 Check(lambda v: parse_stability_rule(v) is not None,
                                       "'stability' or 'stability:pfer=…,threshold=…'",
                                       toml="str"),
                                 Check(is_fdr_rule, "'fdr:<level>' with a level in (0, 1)",
                                       toml="str")],
        "estimators": [None, ESTIMATORS_CONSTRAINT],
        "cv": [Interval("int", 2, None)],
        "subset_cv": [Options("nested", "ranked_once")],
        "subset_grid": [None, SequenceOf(Interval("int", 1, None),
                                         description="a list of counts (ints ≥ 1)")],
        **SIZE_CONSTRAINTS,
        "weight_k": [None, Interval("int", 1, None), Interval("real", 0, 1, closed="right")],
        "normalize": [Options("minmax", "rank"), None],
        "n_jobs": [None, Jobs()],
        "random_state": SEED_CONSTRAINTS,
        "progress": [Boolean()],
        "tie_break": [Options(*TIE_BREAKS)],
        "task": [Options(*TASKS)],
        "accept_sparse": ACCEPT_SPARSE_CONSTRAINTS,
    }

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        # missing values pass when every chosen ranker takes them (docs/design.md,
        # 'Parameters'): a registered ranker's ``allow_nan`` tag; a score function's
        # ``allow_nan`` attribute; an estimator's own input tag; else False
        tags.input_tags.allow_nan = rankers_allow_nan(self.rankers)
        # sparse X is fitted when every ranker takes it, or when asked to densify for the
        # others (docs/design.md, 'Sparse input')
        tags.input_tags.sparse = (rankers_take_sparse(self.rankers)
                                  or densify_asked(self.accept_sparse))
        return tags

    def _check_size_search(self):
        """What the size-search parameters need together (their values are checked by
        :meth:`_check_params`)."""
        check_size_rule(self.tol, self.size_rule)
        if (self.tol is not None or self.size_rule != "best") and not _searched(
                self.n_features_to_select):
            raise ValueError("tol and size_rule apply to a searched size; set "
                             "n_features_to_select='k-step' or 'learning-curve'")

    # ------------------------------------------------------------------ parameters
    def _check_params(self):
        """Every parameter against :attr:`_parameter_constraints`, then what they need
        together; returns the resolved rankers, rule and classifiers."""
        validate_params(self._parameter_constraints, self.get_params(deep=False))
        rankers = resolve_rankers(self.rankers)
        agg = self.aggregation
        kind = _aggregation_kind(agg, self.aggregation_params)
        spec = kind[1]
        nb = self.n_bootstraps
        # list weights need a rule that takes them (the fuzzy rules weigh the methods
        # themselves, eqs. 5–13)
        if self.list_weights is not None and not spec.weights and kind[0] != "callable":
            if spec.groups:
                raise ValueError(f"aggregation {agg!r} weighs the methods itself (eqs. 5–13); "
                                 "drop list_weights")
            raise ValueError(f"aggregation method {spec.name!r} takes no list weights; "
                             "drop list_weights or choose a rule that takes them, e.g. "
                             "borda, mean_score, kemeny or ga")
        # a grouped rule combines each ranker's bootstrap lists: it needs two of them
        if kind[0] == "grouped" and nb < 2:
            raise ValueError(f"aggregation {agg!r} combines each ranker's bootstrap lists: "
                             f"set n_bootstraps ≥ 2 (got {nb})")
        # as scikit-learn's forests refuse max_samples without bootstrap: it would do nothing
        if nb == 0 and float(self.sample_fraction) != 1.0:
            raise ValueError(f"sample_fraction={self.sample_fraction} applies to bootstrap "
                             "samples, but n_bootstraps=0 ranks on all the data once: set "
                             "n_bootstraps ≥ 1 or leave sample_fraction at 1.0")
        # a grid of sizes needs a size search to try them
        if self.subset_grid is not None and not _searched(self.n_features_to_select):
            raise ValueError("subset_grid applies to a searched size; set "
                             "n_features_to_select='k-step' or 'learning-curve'")
        estimators = self._estimators()
        return rankers, kind, estimators

    def _estimators(self) -> dict:
        est = self.estimators
        if est is None:
            return default_estimators()
        if isinstance(est, (str, bytes)):
            items = [(est, est)]
        elif isinstance(est, dict):
            items = list(est.items())
        elif hasattr(est, "fit"):
            items = [(type(est).__name__, est)]
        else:
            try:
                items = [(e if isinstance(e, str)
                          else type(e).__name__ + (f"#{i}" if i else ""), e)
                         for i, e in enumerate(est)]
            except TypeError:
                raise TypeError("estimators must be None, a classifier, a list or a dict of "
                                f"classifiers; got {type(est).__name__}") from None
        if not items:
            raise ValueError("estimators must hold at least one classifier")
        out = {}
        for i, (name, e) in enumerate(items):
            where = f"estimators[{name!r}]" if isinstance(est, dict) else f"estimators[{i}]"
            if isinstance(e, str):
                e = estimator_by_name(e, argument=where)
            elif not (hasattr(e, "fit") and hasattr(e, "predict")):
                raise TypeError(f"{where} is not a classifier (needs fit and predict): got "
                                f"{_short_repr(e)} of type {type(e).__name__}")
            out[name] = e
        return out

    def _check_missing(self, X) -> None:
        """A ``ValueError`` when X holds NaN and a chosen ranker does not take missing values
        (:func:`~rankfusion.selection.ranker_specs.ranker_allows_nan`; the estimator's
        ``input_tags.allow_nan`` says the same)."""
        if rankers_allow_nan(self.rankers):
            return
        if isinstance(X, pd.DataFrame):
            missing = bool(X.isna().to_numpy().any())
        else:
            missing = bool(np.isnan(X).any())
        if missing:
            refuse = [r.name for r, given in zip(resolve_rankers(self.rankers),
                                                 ranker_items(self.rankers))
                      if not ranker_allows_nan(given)]
            raise ValueError(f"Input X contains NaN (missing values), which the ranker(s) "
                             f"{', '.join(map(str, refuse))} cannot take: impute them first, "
                             "or choose rankers that take missing values (info_gain, relieff, "
                             "nlc, cfs, …)")

    # ------------------------------------------------------------------ ensemble
    def _rank_all(self, X, y, rankers, seq, p, names):
        """Every ranker × resample (:mod:`rankfusion.selection.ranking_jobs`); returns (score
        matrix, list names, groups, sample indices)."""
        plan = plan_ranking_jobs(rankers, y, seq, n_bootstraps=int(self.n_bootstraps),
                                 sample_fraction=float(self.sample_fraction),
                                 stratify=self._stratified(), progress=bool(self.progress))
        scores, list_names, groups = run_ranking_jobs(plan, X, y, p, n_jobs=self.n_jobs,
                                                      progress=bool(self.progress),
                                                      densify=getattr(self, "_densify", False))
        return scores, list_names, groups, plan.samples

    def _combine(self, lists, groups, weights, kind, seq):
        mode, spec = kind
        if mode == "callable":
            return spec(lists)
        extra = {}
        if spec.accepts("random_state") and "random_state" not in spec.params:
            extra["random_state"] = seed_int(seq, bits=31)
        if mode == "grouped":
            names = lists.list_names
            by_method = {g: [names[c] for c in cols] for g, cols in groups.items()}
            return spec(lists, groups=by_method, **extra)
        return spec(lists, weights, **extra)

    def _consensus(self, X, y, rankers, kind, estimators, seq, p, names, k_fixed):
        """Rank, weigh and combine on (X, y): the whole ensemble on one training set."""
        rank_seq, weight_seq, agg_seq = seq.spawn(3)
        scores, list_names, groups, samples = self._rank_all(X, y, rankers, rank_seq, p, names)
        scores = _normalise(scores, self.normalize)
        lists = RankedLists.from_scores(scores, features=names, list_names=list_names)
        wk = self.weight_k if self.weight_k is not None else k_fixed
        wk = resolve_n_features(wk, p, name="weight_k")
        if self._regression() and isinstance(self.list_weights, str):
            # the R² weights (docs/design.md, 'Tasks'): plain K-fold, the first regressor
            folds = regression_folds(len(y), int(self.cv),
                                     random_state=seed_int(weight_seq, bits=31))
            weights = regression_list_weights(self.list_weights, lists, X, y,
                                              next(iter(estimators.values())), wk, folds)
        else:
            weights = resolve_list_weights(self.list_weights, lists, groups, X, y, estimators,
                                           wk, cv=int(self.cv), stratify=bool(self.stratify),
                                           random_state=weight_seq)
        consensus = self._combine(lists, groups, weights, kind, agg_seq)
        return lists, consensus, weights, groups, samples, scores, agg_seq

    # ------------------------------------------------------------------ fit
    def fit(self, X, y):
        """Rank, combine and select on ``X`` (array or DataFrame; nominal columns and NaN are
        passed to the rankers) and the class labels ``y``.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The features.
        y : array-like of shape (n_samples,)
            Class labels, at least two classes.

        Returns
        -------
        EnsembleSelector
            The fitted selector.
        """
        rankers, kind, estimators = self._check_params()
        self._check_size_search()
        sparse = is_sparse(X)
        densify = sparse and not rankers_take_sparse(self.rankers)
        if densify:
            if not densify_asked(self.accept_sparse):
                dense_only = [str(r.name) for r, given in zip(resolve_rankers(self.rankers),
                                                              ranker_items(self.rankers))
                              if not ranker_takes_sparse(given)]
                raise sparse_refusal(f"EnsembleSelector's ranker(s) {', '.join(dense_only)}")
            check_dense_size(X.shape)  # before any work (docs/design.md, 'Sparse input')
        self._densify = densify
        nominal = not sparse and isinstance(X, pd.DataFrame) and any(
            isinstance(X[c].dtype, pd.CategoricalDtype)
            or not pd.api.types.is_numeric_dtype(X[c].dtype) for c in X.columns)
        if sparse:  # kept sparse (CSR: bootstraps index its rows)
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
            Xw, y = validate_data(self, X, y, dtype=np.float64, ensure_all_finite="allow-nan",
                                  ensure_min_samples=2)
        # a column with no value, named before any work (docs/design.md, 'Validation')
        check_observed_columns(X if isinstance(X, pd.DataFrame) else Xw)
        if not sparse:  # a sparse X was checked finite
            self._check_missing(Xw)
        self.task_ = resolve_task(y, self.task)
        if self.task_ == "regression":
            y_codes = self._regression_target(y)
            estimators = self._regressors()
        else:
            problem = target_problem(np.asarray(y))
            if problem and self.task != "classification":  # an explicit task is honoured
                raise ValueError(f"y {problem}")
            check_classification_targets(y)
            self.classes_, y_codes = np.unique(y, return_inverse=True)
            if self.classes_.shape[0] < 2:
                one = plain_value(self.classes_[0])
                raise ValueError(f"y has one class only ({one!r}); feature "
                                 "ranking needs at least two")
            # many classes (asked for, or text labels whose codes look like numbers): labels
            # the rankers take, in code order (a no-op for the usual few classes)
            y_codes = as_class_labels(y_codes)
        if self.n_bootstraps > 0:
            # before any work: a near-empty bootstrap ranks nothing (docs/design.md,
            # 'Ensembles, subsets and evaluation')
            check_sample_size(y, self.sample_fraction, stratify=self._stratified())
            if _searched(self.n_features_to_select) and self.subset_cv == "nested":
                check_sample_size(_smallest_training_part(y, int(self.cv),
                                                          self._stratified()),
                                  self.sample_fraction, stratify=self._stratified(),
                                  where=f" in the training part of a {int(self.cv)}-fold "
                                        "size search (subset_cv='nested')")
        p = Xw.shape[1]
        names = (np.asarray(self.feature_names_in_, dtype=object)
                 if hasattr(self, "feature_names_in_")
                 else np.array([f"x{i}" for i in range(p)], dtype=object))
        n = self.n_features_to_select
        stab = parse_stability_rule(n)
        fdr = parse_fdr_rule(n)
        searched = isinstance(n, str) and fdr is None
        fdr_name = None
        if fdr is not None:
            if self._regression():
                raise ValueError("n_features_to_select='fdr:…' needs class labels (the tests "
                                 "of the rankers with p-values compare classes)")
            fdr_name = _fdr_ranker(self.rankers)
        if stab is not None and self.list_weights is not None:
            raise ValueError("list_weights do not apply to n_features_to_select='stability' "
                             "(each half is ranked once per ranker, unweighted): drop one")
        if n is None or fdr is not None:
            k_fixed = max(1, p // 2)
        elif searched:
            k_fixed = max(1, p // 2)  # default of the accuracy weights only
        else:
            k_fixed = resolve_n_features(n, p, name="n_features_to_select")
        if stab is not None:  # q ≤ p, two of q/threshold/pfer: before any work
            from .stability_selection import check_stability_rule

            try:
                check_stability_rule(stab, p)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"n_features_to_select={n!r}: {exc}") from None
        elif searched and not self._regression():  # every class in every fold, before work
            cv_folds(y_codes, int(self.cv), stratify=bool(self.stratify))
        # child i depends on i only, so the fourth stream leaves the first three unchanged
        main_seq, cv_seq, stab_seq, est_seq, tie_seq = _root_children(self.random_state, 5)
        estimators = _seed_estimators(estimators, seed_int(est_seq, bits=31))
        self.seed_entropy_ = main_seq.entropy
        lists, consensus, weights, groups, samples, scores, agg_seq = self._consensus(
            Xw, y_codes, rankers, kind, estimators, main_seq, p, names, k_fixed)
        fit_ties, fold_ties = tie_seq.spawn(2)
        consensus = break_ties(consensus, self.tie_break, seed_int(fit_ties))
        self.lists_ = lists
        self.consensus_ = consensus
        self.list_weights_ = weights
        self.bootstrap_indices_ = samples
        self.subset_curve_ = None
        self.stability_selection_ = None
        self.fdr_qvalues_ = None
        if stab is not None:
            from .stability_selection import StabilitySelector

            self.stability_selection_ = StabilitySelector(
                rankers=self.rankers, aggregation=self.aggregation,
                aggregation_params=self.aggregation_params, normalize=self.normalize,
                stratify=self.stratify, tie_break=self.tie_break, n_jobs=self.n_jobs,
                random_state=cv_seq, task=self.task_, accept_sparse=self.accept_sparse,
                **stab).fit(X, y)
            k = self.stability_selection_.n_features_
        elif fdr is not None:
            from ..rankers import benjamini_hochberg, ranker_pvalues

            self.fdr_qvalues_ = benjamini_hochberg(ranker_pvalues(fdr_name, Xw, y_codes))
            k = int((self.fdr_qvalues_ <= fdr).sum())
        elif searched:
            self.subset_curve_ = self._search(Xw, y_codes, rankers, kind, estimators, cv_seq, p,
                                              names, k_fixed, consensus, fold_ties)
            k = self.subset_curve_.n_features
        else:
            k = k_fixed
        self.n_features_ = int(k)
        self.scores_ = np.asarray(consensus.scores, dtype=np.float64)
        self.positions_ = np.asarray(consensus.positions, dtype=np.int64)
        ranking = np.ones(p, dtype=np.int64)
        self.support_ = self.positions_ <= k
        if stab is not None:
            self.support_ = self.stability_selection_.support_.copy()
        elif fdr is not None:
            self.support_ = self.fdr_qvalues_ <= fdr
        rest = np.asarray(consensus.order)[~self.support_[consensus.order]]
        ranking[rest] = np.arange(2, rest.shape[0] + 2)
        self.ranking_ = ranking
        n_tied, n_kept = cutoff_ties(-tied_blocks(consensus), k) if 0 < k <= p else (0, 0)
        self.cutoff_ties_ = {"n_tied": n_tied, "n_kept": n_kept,
                             "cuts_ties": bool(k < p and n_kept < n_tied),
                             "tie_break": self.tie_break}
        self.stability_ = None
        if len(samples) >= 2:
            self.stability_ = self._stability(lists, scores, groups, weights, kind, agg_seq, k,
                                              consensus)
        return self

    # ------------------------------------------------------------------ tasks
    def _regression(self) -> bool:
        return getattr(self, "task_", "classification") == "regression"

    def _stratified(self) -> bool:
        """Stratified resampling: asked for, and the target is class labels."""
        return bool(self.stratify) and not self._regression()

    def _regression_target(self, y) -> np.ndarray:
        """The numeric target, once every registered ranker is checked for regression and the
        parameters that need classes are refused (docs/design.md, 'Tasks')."""
        undeclared = []
        for item, spec in zip(ranker_items(self.rankers), resolve_rankers(self.rankers)):
            name = item if isinstance(item, str) else (
                item[0] if isinstance(item, tuple) and item and isinstance(item[0], str)
                else None)
            if name is not None:
                try:
                    check_ranker_task(name, "regression")
                except ValueError as e:
                    if self.task != "auto":
                        raise
                    raise ValueError(f"y looks continuous (a regression target, task='auto'), "
                                     f"but {e}; give class labels or regression rankers"
                                     ) from None
            else:
                undeclared.append(spec.name)
        if undeclared and self.task == "auto":
            # a function or estimator says nothing about its task: never guessed
            raise ValueError(f"y looks continuous (a regression target) and the ranker(s) "
                             f"{', '.join(map(str, undeclared))} declare no task: say "
                             "task='regression' to rank a numeric target with them, or give "
                             "class labels")
        self.classes_ = None
        return check_regression_target(y, name="y")

    def _regressors(self) -> dict:
        """The regressor of the R² list weights: the first of ``estimators`` (a regressor
        object), else :func:`~rankfusion.selection.regression.default_regressor`."""
        est = self.estimators
        if est is None:
            return {"ridge": default_regressor()}
        items = list(est.items()) if isinstance(est, dict) else (
            [(type(est).__name__, est)] if hasattr(est, "fit") else
            [(str(e), e) for e in (est if not isinstance(est, str) else [est])])
        out = {}
        for name, e in items:
            if not (hasattr(e, "fit") and hasattr(e, "predict")):
                raise TypeError("estimators with task='regression' must be regressor objects "
                                f"(fit and predict), got {e!r}: the named estimators are "
                                "classifiers")
            out[name] = e
        return out

    def _search(self, X, y, rankers, kind, estimators, seq, p, names, k_fixed, consensus,
                tie_seq):
        method = self.n_features_to_select
        grid = self.subset_grid
        if grid is None:
            grid = k_step_grid(p) if method == "k-step" else learning_curve_grid(p)
        else:
            big = [int(k) for k in grid if k > p]
            if big:
                raise ValueError(f"subset_grid must hold counts from 1 to {p} (the number of "
                                 f"features), got {big}")
            grid = np.unique(np.asarray(list(grid), dtype=np.int64))
        fold_seq, rank_seq = seq.spawn(2)
        if self._regression():  # plain K-fold, the regressors' R² (docs/design.md, 'Tasks')
            folds = regression_folds(len(y), int(self.cv),
                                     random_state=seed_int(fold_seq, bits=31))
        else:
            folds = cv_folds(y, int(self.cv), stratify=bool(self.stratify),
                             random_state=seed_int(fold_seq, bits=31))
        if self.subset_cv == "nested":
            orders = []
            fold_ties = tie_seq.spawn(len(folds))
            for f, (train, _) in enumerate(folds):
                Xtr = X.iloc[train] if isinstance(X, pd.DataFrame) else X[train]
                _, cons, *_ = self._consensus(Xtr, y[train], rankers, kind, estimators,
                                              rank_seq.spawn(len(folds))[f], p, names, k_fixed)
                cons = break_ties(cons, self.tie_break, seed_int(fold_ties[f]))
                orders.append(np.asarray(cons.order))
        else:
            orders = [np.asarray(consensus.order)] * len(folds)
        models = dict(estimators)
        if method == "learning-curve":
            first = next(iter(models))
            models = {first: models[first]}
        curve = evaluate_prefixes(X, y, folds, orders, models, grid,
                                  scoring="r2" if self._regression() else "accuracy")
        return choose_size(curve, method, tol=self.tol, size_rule=self.size_rule)

    def _stability(self, lists, scores, groups, weights, kind, seq, k,
                   consensus) -> pd.DataFrame:
        from ..stability import apc, asd, nogueira

        p = scores.shape[0]

        def stats(score_rows, orders, cut_ties: bool):
            Z = np.zeros(score_rows.shape, dtype=np.int8)
            for i, order in enumerate(orders):
                Z[i, order[:k]] = 1
            # a constant run's top k is the lowest indices on every sample: Φ would be 1 from
            # the tie break alone, so it is undefined there, as APC
            # (max == min, not ptp: the span of ±1e308 overflows)
            constant = bool((score_rows.max(axis=1) == score_rows.min(axis=1)).any())
            undefined = constant
            if cut_ties and 0 < k < p:
                # a ranker's run whose k-th and (k+1)-th scores tie selects by feature index:
                # the same lowest indices on every sample, a stability the scores do not have
                kth = np.array([row[o[k - 1]] for row, o in zip(score_rows, orders)])
                nxt = np.array([row[o[k]] for row, o in zip(score_rows, orders)])
                undefined |= bool((kth == nxt).any())
            res = nogueira(Z) if 0 < k < p and not undefined else None
            nan = float("nan")
            return {
                "nogueira": nan if res is None else res.statistic,
                "nogueira_variance": nan if res is None else res.variance,
                "nogueira_low": nan if res is None else res.low,
                "nogueira_high": nan if res is None else res.high,
                "asd": asd(score_rows),
                # a constant run (e.g. every gain 0 on a bootstrap) has no correlation: NaN
                "apc": nan if constant else apc(score_rows),
            }

        rows = {}
        idx = np.arange(p)
        for g, cols in groups.items():
            block = scores[:, cols].T
            # descending scores, ties by feature index: the first k + 1 of lexsort((idx, -s))
            # per row, all that the table reads (the scores are finite)
            rows[g] = stats(block, _top_orders(block, min(k + 1, p)), True)
        L = len(next(iter(groups.values())))
        if kind[0] == "grouped":  # the fuzzy combination: eqs. 5 and 13 per bootstrap
            cons_scores = _fuzzy_bootstrap_scores(lists.scores, groups, consensus)
            cons_orders = [np.lexsort((idx, -c)) for c in cons_scores]
        else:
            seqs = seq.spawn(L)
            cons_scores, cons_orders = [], []
            bar = progress_bar(L, "stability", "consensus rankings",
                               enabled=bool(self.progress))
            for b in range(L):
                cols = [c[b] for c in groups.values()]
                sub = lists.select_lists([lists.list_names[c] for c in cols])
                w = None if weights is None else weights[cols] / weights[cols].sum()
                cons = self._combine(sub, None, w, kind, seqs[b])
                cons_scores.append(np.asarray(cons.scores, dtype=np.float64))
                cons_orders.append(np.asarray(cons.order))
                if bar is not None:
                    bar.update(1)
            if bar is not None:
                bar.close()
        # the consensus order is the rule's (its own tie break): only a constant run is
        # undefined there
        rows["consensus"] = stats(np.vstack(cons_scores), cons_orders, False)
        frame = pd.DataFrame.from_dict(rows, orient="index")
        frame.index.name = "ranker"
        frame.attrs["n_features"] = int(k)
        return frame

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_
