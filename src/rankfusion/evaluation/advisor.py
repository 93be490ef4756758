"""The rule advisor: does combining rankings pay on *this* data set?

:func:`advise` answers, for one data set, "which rankers × rule × subset size should I use, how
sure is that, and does any combination beat the best single ranker?" without selection bias:

* **Nested resampling.** Repeated stratified k-fold outer splits (``cv`` folds × ``n_repeats``).
  Inside every outer training part an inner stratified ``inner_cv``-fold CV chooses two
  procedures: the best *combination* (subset of rankers × rule × size) and the best *single
  ranker* (× size). Both chosen configurations are refit on the outer training part and scored
  on the outer test part, so every reported accuracy and every gain is an outer estimate of the
  procedure "pick the best combination" against the procedure "pick the best single ranker" —
  never the maximum over configurations.
* **Cached scores.** Each ranker runs once per training part (every inner and every outer
  training part); every subset × rule is aggregated from those cached score vectors with
  :func:`rankfusion.aggregate` on a :class:`~rankfusion.RankedLists` built from the score matrix
  (min–max normalised per list, as ``EnsembleSelector(normalize="minmax")``); every size is a
  prefix of the consensus order; a classifier is fitted once per distinct feature subset and
  split. So 100+ configurations cost little more than the rankers.
* **The fuzzy weightings** (``"fuzzy:EW"``, ``"fuzzy:RW"``, ``"fuzzy:OW"``, ``"fuzzy:MW"``; the
  fuzzy paper, eqs. 1–13) combine each ranker's *bootstrap* lists. With one of them among the
  rules, every training part is also ranked by each ranker on ``n_bootstraps`` stratified
  bootstrap samples of that part, drawn from a seed of the part exactly as
  ``EnsembleSelector(random_state=seed, n_bootstraps=…, sample_fraction=…)`` draws its samples
  and ranker seeds (:func:`rankfusion.selection.ranking_jobs.plan_ranking_jobs`); those scores
  are cached too, each list min–max normalised, and every subset × weighting is the fuzzy
  combination of the subset's rankers' cached lists. On one outer part it therefore selects
  what that ``EnsembleSelector`` selects on the part (tested; exact for any rankers when all
  of them are combined, and for subsets of rankers that draw no random numbers: a seeded
  ranker's stream follows its place among all the rankers, as in the ensemble of all of
  them). The seeds are :attr:`Advice.bootstrap_seeds`.
* **A numeric target** (``task="regression"``, never guessed: docs/design.md, 'Tasks'): the
  outer and inner splits are plain shuffled (repeated) k-fold, seeded from the same streams
  as the stratified ones; the rankers must support regression (their registry tag); the
  score is R² = 1 − Σ(y − ŷ)² / Σ(y − ȳ)² on each test part (ȳ its mean), or −RMSE / −MAE
  (``scoring``), of ``Ridge(alpha=1)`` on z-scored features unless another regressor is
  given. The statistics below are the same with "accuracy" read as that score.
* **Scores of class labels** (``scoring``): accuracy by default, or balanced accuracy, ROC
  AUC (one-vs-rest macro mean for more than two classes), −log-loss or Matthews'
  correlation — scikit-learn's scorers, named once in ``rankfusion.evaluation.scores``.
  A score the estimator cannot give is refused before any work; the verdict, the report and
  its figures name the score, and say that the log-loss is shown negated.
* **Baselines.** On every outer split the estimator on all the features and the predictor
  that sees none (the training part's mean, whose R² is the chance level ≈ 0; its most
  frequent class) are scored too (:attr:`Advice.baseline`).
* **The stability rule as a size** (``sizes=["stability:pfer=1"]``): the subset of a
  configuration is the stable set of :class:`~rankfusion.selection.StabilitySelector` with
  its rankers and rule, fitted on each training part with one seed per part (every
  configuration sees the same half-samples; the ranker memo ranks each half once per ranker),
  so its size is chosen inside the training part as every other choice is.
* **Ties decided by column order.** A ranker that gives many features the same score (the
  Weka-exact information measures give 0 to most features of a wide data set) leaves their
  order to the tie break. ``tie_break="random"`` (the default here) permutes the feature indices
  once per training part, from a seed spawned from ``random_state``, before ranking and
  aggregating, so the lower index of a column can favour no ranker; ``"index"`` keeps the
  library's rule (docs/design.md, 'Ties and determinism').

Statistics
----------
With J = ``cv · n_repeats`` outer folds, ``a_j`` and ``b_j`` the outer scores of the two
procedures on fold j, ``d_j = a_j − b_j``, ``d̄`` their mean and ``σ̂²`` their variance:

* ``gain = d̄``; ``pvalue`` is the two-sided **Nadeau–Bengio corrected resampled t-test**
  (:func:`rankfusion.paired_ttest` with ``corrected=True``; Nadeau & Bengio 2003) with the outer
  folds paired: ``t = d̄ / sqrt((1/J + n_test/n_train) · σ̂²)`` on J − 1 degrees of freedom,
  valid for repeated resampling, whose overlapping training parts make the plain paired t-test
  too liberal; ``gain_ci = d̄ ∓ t_{J−1, 1−α/2} · sqrt((1/J + n_test/n_train) · σ̂²)``. The
  per-configuration intervals of :attr:`Advice.table` use the same corrected variance.
* Stability is Nogueira et al.'s Φ̂ (2018) of the subsets selected on the J outer training
  parts, with its asymptotic interval (:func:`rankfusion.stability.nogueira`). ``stability_gain``
  is Φ̂ of the combination procedure − Φ̂ of the single procedure, with the normal interval
  ``∓ z_{1−α/2} · sqrt(V̂_c + V̂_s)`` (the two variances added as if independent; both
  procedures run on the same splits, so the interval is conservative when their stabilities
  are positively correlated).

References
----------
Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine Learning 52,
239-281. Nogueira, S., Sechidis, K. & Brown, G. (2018). On the stability of feature selection
algorithms. JMLR 18(174). Varma, S. & Simon, R. (2006). Bias in error estimation when using
cross-validation for model selection. BMC Bioinformatics 7:91 (why the choice must be nested).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from .._utils.columns import check_observed_columns, constant_columns, plain_value
from .._utils.constraints import LEVEL, check_param
from .._utils.data import check_features, check_target
from .._utils.seeding import seed_int, spawn
from .._utils.ties import cutoff_ties
from .._utils.validation import check_choice, check_n_jobs, check_positive_int
from ..aggregation import TIE_BREAKS, aggregate, get_rule, resolve
from ..lists import RankedLists
from ..stability import nogueira
from .classifiers import make_classifier
from .scores import (
    CLASSIFICATION_SCORES,
    REGRESSION_SCORES,
    SCORES,
    check_score_estimator,
    check_scoring,
    score_estimator,
)
from .statistics import paired_ttest

__all__ = [
    "Advice",
    "Configuration",
    "AdviceTask",
    "advise",
    "advice_part",
    "advice_plan",
    "finish_advice",
    "prepare_advice",
    "cutoff_ties",
    "default_sizes",
    "parse_rule",
    "parse_sizes",
    "split_rules",
    "write_advice",
    "DEFAULT_RANKERS",
    "DEFAULT_REGRESSION_RANKERS",
    "DEFAULT_RULES",
    "SCORINGS",
    "SCORE_NAMES",
]

DEFAULT_RANKERS = ("info_gain", "relieff", "nlc")
#: The rankers of a regression target when none are given: the linear F test, RReliefF
#: (local, sees interactions) and the k-NN mutual information (any monotone or not relation).
DEFAULT_REGRESSION_RANKERS = ("f_regression", "rrelieff", "mutual_info_regression")
DEFAULT_RULES = ("borda", "mean_score", "kfirst", "rrf")
#: The scores of each task (the first is the default); higher is better for each (the
#: log-loss, RMSE and MAE negated: ``rankfusion.evaluation.scores``).
SCORINGS = {"classification": CLASSIFICATION_SCORES, "regression": REGRESSION_SCORES}
_COMBINE = ("subsets", "all")


# --------------------------------------------------------------------------- specs
@dataclass(frozen=True)
class Configuration:
    """One configuration of the advisor: a set of rankers, a rule (None for a ranker alone)
    with its parameters, and a subset size (a count, or the text of a stability rule such as
    ``"stability:pfer=1"``, whose subset is the stable set of each training part)."""

    rankers: tuple
    rule: str | None
    params: tuple
    size: int | str

    @property
    def is_single(self) -> bool:
        return self.rule is None

    @property
    def rule_label(self) -> str:
        if self.rule is None:
            return "alone"
        if not self.params:
            return self.rule
        if self.rule == "fuzzy" and len(self.params) == 1:  # as written: "fuzzy:OW"
            return f"fuzzy:{self.params[0][1]}"
        return self.rule + ":" + ",".join(f"{k}={v}" for k, v in self.params)

    @property
    def label(self) -> str:
        return f"{'+'.join(self.rankers)} | {self.rule_label} | {self.size}"


def parse_rule(spec, *, name: str = "rules") -> tuple[str, dict]:
    """One rule spec → ``(rule name, params)``.

    ``"borda"``, ``"kfirst:k=0.05"`` (``name:param=value,param=value``; values read as int,
    float, bool or text, so ``k=5`` is a count and ``k=0.05`` a fraction, docs/design.md,
    'Fractions') or a pair ``("kfirst", {"k": 0.05})``. The name must be a rule of
    :func:`rankfusion.aggregation.available_rules` and each parameter one it takes.

    Parameters
    ----------
    spec : str or (str, dict)
        The rule: ``"name"`` or ``"name:param=value,param=value"`` text, or a
        ``(name, params)`` pair whose params is a mapping. A fuzzy weighting (``"fuzzy:OW"``,
        ``"fuzzy"`` meaning ``"fuzzy:OW"``) comes back as ``("fuzzy", {"weighting": "OW"})``.
    name : str, default="rules"
        The argument's name in error messages.

    Returns
    -------
    (str, dict)
        The rule's registered name and a new dict of its parameters.

    Raises
    ------
    TypeError
        If ``spec`` is neither text nor a ``(name, params)`` pair, or params is not a mapping.
    ValueError
        If the text is malformed, repeats a parameter, names no or an unknown rule (or fuzzy
        weighting: the closest one is suggested), or gives a parameter the rule does not take.

    Examples
    --------
    >>> parse_rule("kfirst:k=0.05")
    ('kfirst', {'k': 0.05})
    >>> parse_rule(("rrf", {"k_rrf": 30}))
    ('rrf', {'k_rrf': 30})
    >>> parse_rule("fuzzy:ew")
    ('fuzzy', {'weighting': 'EW'})
    """
    if not isinstance(spec, (str, tuple)) or (isinstance(spec, tuple) and not (
            len(spec) == 2 and isinstance(spec[0], str))):
        raise TypeError(f"{name} must hold rule names ('borda', 'kfirst:k=0.05') or "
                        f"(name, params) pairs; got {type(spec).__name__}")
    if isinstance(spec, tuple) and not isinstance(spec[1], Mapping):
        raise TypeError(f"{name}: the parameters of {spec[0]!r} must be a dict, got "
                        f"{type(spec[1]).__name__}")
    try:
        rule = resolve(spec, argument=name)
    except ValueError as exc:
        msg = exc.args[0] if exc.args else exc
        raise ValueError(f"{name}: {msg}{_weighting_hint(spec)}") from None
    if rule.groups:
        # the fuzzy weightings: one canonical form ("fuzzy" is "fuzzy:OW"), so that a rule
        # given twice in two spellings is found repeated
        return rule.name, {"weighting": str(rule.params.get("weighting", "OW")).upper()}
    return rule.name, dict(rule.params)


def _weighting_hint(spec) -> str:
    """For a fuzzy spec with an unknown weighting: the closest known one (``"fuzzy:OX"`` →
    ``'fuzzy:OW'``: the same case-blind name, difflib's match, else the weightings one letter
    away) and the spec of each."""
    from .._utils.registry import closest_name
    from ..aggregation import FUZZY_WEIGHTINGS

    if not isinstance(spec, str) or ":" not in spec:
        return ""
    head, _, tail = spec.partition(":")
    if head.strip().lower() != "fuzzy":
        return ""
    value = tail.split("=", 1)[-1].strip().upper()
    if value in FUZZY_WEIGHTINGS:
        return ""
    close = closest_name(value, list(FUZZY_WEIGHTINGS))
    near = [close] if close else [w for w in FUZZY_WEIGHTINGS if len(value) == len(w) and sum(
        a != b for a, b in zip(value, w)) == 1]
    known = ", ".join(f"fuzzy:{w}" for w in FUZZY_WEIGHTINGS)
    hint = f"; did you mean {' or '.join(repr('fuzzy:' + w) for w in near)}?" if near else ""
    return f"{hint} (the fuzzy weightings: {known})"


def default_sizes(p: int) -> np.ndarray:
    """Subset sizes for p features: about nine counts on a log grid from 1 to ``min(p, 256)``
    (1, 2, 4, … 256 for a gene-expression set), never "half the features", which on p ≫ n data
    keeps thousands of noise features.

    Parameters
    ----------
    p : int ≥ 1
        The number of features.

    Returns
    -------
    ndarray of int64
        The distinct sizes, increasing.

    Examples
    --------
    >>> default_sizes(7129).tolist()
    [1, 2, 4, 8, 16, 32, 64, 128, 256]
    >>> default_sizes(13).tolist()
    [1, 2, 3, 4, 5, 7, 9, 13]
    """
    p = check_positive_int(p, name="p")
    top = min(p, 256)
    return np.unique(np.rint(np.geomspace(1, top, num=min(9, top))).astype(np.int64))


def _stability_size(spec, i: int, p: int):
    """One ``"stability…"`` size → ``(label, params)``, its parameters checked against p
    before any work (as :class:`~rankfusion.selection.StabilitySelector` checks them)."""
    from ..selection.stability_selection import check_stability_rule
    from ..selection.subset_size import parse_stability_rule

    try:
        params = parse_stability_rule(spec)
    except ValueError as exc:
        raise ValueError(f"sizes[{i}]: {str(exc).replace('n_features_to_select ', '')}"
                         ) from None
    if params is None:
        import difflib

        head = spec.split(":", 1)[0].strip().lower()
        close = head == "stability" or difflib.get_close_matches(head, ["stability"], 1, 0.8)
        hint = f"; did you mean 'stability{spec[len(spec.split(':', 1)[0]):]}'?" if close else ""
        raise ValueError(f"sizes[{i}] = {spec!r}: a size is a count, a fraction, 'k-step' or "
                         "the stability rule ('stability' or 'stability:pfer=1,threshold=0.9')"
                         + hint)
    try:
        check_stability_rule(params, p)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"sizes[{i}] ({spec!r}): {exc}") from None
    label = "stability" if not params else "stability:" + ",".join(
        f"{k}={v}" for k, v in params.items())
    return label, params


def _check_sizes(sizes, p: int) -> tuple[np.ndarray, list]:
    """``(counts, stability sizes)``: the distinct counts, increasing, and the stability rules
    ``(label, params)`` in the given order."""
    from ..selection.subset_size import k_step_grid

    if sizes is None:
        return default_sizes(p), []
    if isinstance(sizes, str):
        if sizes.split(":", 1)[0].strip() == "stability":
            sizes = [sizes]
        elif sizes != "k-step":
            raise ValueError(f"sizes must be a list of counts / fractions, 'k-step' or the "
                             f"stability rule ('stability:pfer=1'), got {sizes!r}")
        else:
            return np.asarray(k_step_grid(p), dtype=np.int64), []
    if isinstance(sizes, (bytes, Mapping)) or not hasattr(sizes, "__iter__"):
        raise TypeError(f"sizes must be a list of ints (counts) or floats in (0, 1] (fractions) "
                        f"or 'k-step'; got {type(sizes).__name__}")
    from .._utils.validation import resolve_n_features

    out, stab, seen = [], [], {}
    for i, s in enumerate(sizes):
        if isinstance(s, str):
            label, params = _stability_size(s, i, p)
            key = tuple(sorted(params.items()))
            if key in seen:
                raise ValueError(f"sizes[{i}] repeats sizes[{seen[key]}] ({label})")
            seen[key] = i
            stab.append((label, params))
        else:
            out.append(resolve_n_features(s, p, name="sizes"))
    if not out and not stab:
        raise ValueError("sizes is empty; give at least one subset size")
    return np.unique(np.asarray(out, dtype=np.int64)), stab


# --------------------------------------------------------------------------- the work
def _rows(X, idx):
    return X.iloc[idx] if isinstance(X, pd.DataFrame) else X[idx]


def _minmax(scores: np.ndarray) -> np.ndarray:
    """Per-list min–max normalisation, as ``EnsembleSelector(normalize="minmax")``: (s − min) /
    (max − min); a constant list becomes all 0."""
    lo = scores.min(axis=0, keepdims=True)
    span = scores.max(axis=0, keepdims=True) - lo
    safe = np.where(span > 0, span, 1.0)
    return np.where(span > 0, (scores - lo) / safe, 0.0)


@dataclass
class _Plan:
    X: object
    y: np.ndarray
    names: np.ndarray
    rankers: list           # RankerSpec
    ranker_specs: list      # the user's specs, for selector()
    rules: list             # (name, params)
    subsets: list           # tuples of ranker indices, each ≥ 2 rankers
    sizes: np.ndarray
    estimator: object
    cv: int
    inner_cv: int
    n_repeats: int
    tie_break: str
    alpha: float
    n_jobs: object
    seed: np.random.SeedSequence
    combine: str
    n_bootstraps: int = 10
    sample_fraction: float = 1.0
    orders_meta: list = field(default_factory=list)  # (subset, rule index or -1)
    task: str = "classification"
    scoring: str = "accuracy"
    stab: list = field(default_factory=list)  # the stability sizes: (label, params)
    # the target as the rankers take it: the class codes, or for many whole-number classes
    # (an explicit task="classification") the codes as text labels (as_class_labels)
    y_rank: object = None

    @property
    def n_orders(self) -> int:
        return len(self.orders_meta)

    @property
    def n_sizes(self) -> int:
        """The counts, then the stability sizes."""
        return self.sizes.shape[0] + len(self.stab)

    def size_of(self, s: int):
        """Size s as a :class:`Configuration` holds it: the count, or the stability rule's
        text."""
        m = self.sizes.shape[0]
        return int(self.sizes[s]) if s < m else self.stab[s - m][0]

    @property
    def regression(self) -> bool:
        return self.task == "regression"

    @property
    def fuzzy(self) -> bool:
        """Whether a fuzzy weighting is asked for (then every training part is also ranked on
        ``n_bootstraps`` bootstrap samples)."""
        return any(get_rule(rn).tags.get("groups") for rn, _ in self.rules)


def _fresh(seq: np.random.SeedSequence) -> np.random.SeedSequence:
    """A copy of ``seq`` that has spawned no child: its children are ``seq``'s first ones
    however often the same part is computed in one process (``SeedSequence.spawn`` counts)."""
    return np.random.SeedSequence(seq.entropy, spawn_key=seq.spawn_key,
                                  pool_size=seq.pool_size)


def _bootstrap_lists(plan: _Plan, Xt, yt, part_seed: int, p: int):
    """Every ranker on ``n_bootstraps`` bootstrap samples of one training part, drawn exactly
    as ``EnsembleSelector(random_state=part_seed, n_bootstraps=B, sample_fraction=f)`` draws
    them on that part (its first child stream, then the ranking stream of its consensus:
    :func:`rankfusion.selection.ranking_jobs.plan_ranking_jobs`). Returns the raw scores, p ×
    (rankers · B), ranker-major, and their list names (``relieff@b3``)."""
    from ..selection.ranking_jobs import plan_ranking_jobs, run_ranking_jobs

    main_seq = spawn(part_seed, 4)[0]
    rank_seq = main_seq.spawn(3)[0]
    jobs = plan_ranking_jobs(plan.rankers, yt, rank_seq, n_bootstraps=plan.n_bootstraps,
                             sample_fraction=plan.sample_fraction,
                             stratify=not plan.regression)
    scores, names, _ = run_ranking_jobs(jobs, Xt, yt, p)
    return scores, names


def _part_orders(plan: _Plan, idx, seq: np.random.SeedSequence, timing: dict):
    """Rank one training part once per ranker (and, with a fuzzy rule, on each of its
    bootstrap samples) and derive every configuration's order.

    Returns ``(orders, keys, raw, boot, stable)``: ``orders[o]`` is order o's feature indices
    best first, ``keys[o]`` the key it was sorted by (the ranker's scores or the consensus
    scores), ``raw`` the p × rankers scores; ``boot`` None, or with a fuzzy rule ``(seed,
    scores)``: the ``random_state`` of the equivalent ``EnsembleSelector`` on this part and
    the p × rankers × B bootstrap scores; ``stable`` None, or with stability sizes ``(seed,
    masks)``: the ``random_state`` of every ``StabilitySelector`` on this part and the orders
    × stability sizes × p masks of the stable sets (:func:`_stable_sets`)."""
    from ..selection.ranker_specs import run_ranker

    X, y = plan.X, plan.y_rank
    Xt, yt = (X, y) if idx is None else (_rows(X, idx), y[idx])
    p = plan.names.shape[0]
    # child i depends on i only: the fourth stream (the bootstraps) and the fifth (the
    # stability sizes' half-samples) leave the others unchanged
    rank_seq, perm_seq, agg_seq, boot_seq, stab_seq = _fresh(seq).spawn(5)
    rseqs = rank_seq.spawn(len(plan.rankers))
    t0 = time.perf_counter()
    cols = []
    for r, rs in zip(plan.rankers, rseqs):
        out = run_ranker(r, Xt, yt, rs, p, r.name)
        if isinstance(out, RankedLists):
            raise ValueError(f"rankers: {r.name!r} returns several lists; the advisor takes "
                             "rankers giving one score per feature")
        cols.append(out)
    raw = np.column_stack(cols)
    boot = None
    if plan.fuzzy:
        part_seed = seed_int(boot_seq)
        braw, bnames = _bootstrap_lists(plan, Xt, yt, part_seed, p)
        boot = (part_seed, braw.reshape(p, len(plan.rankers), plan.n_bootstraps))
    t1 = time.perf_counter()
    timing["rankers"] += t1 - t0
    norm = _minmax(raw)
    if plan.tie_break == "random":
        perm = np.random.default_rng(perm_seq).permutation(p)
    else:
        perm = np.arange(p)
    inv_idx = np.arange(p)
    orders, keys = [], []
    aseeds = agg_seq.spawn(len(plan.orders_meta))
    full = RankedLists.from_scores(norm[perm], features=plan.names[perm],
                                   list_names=[r.name for r in plan.rankers])
    full_boot = None
    if boot is not None:
        # each (ranker, bootstrap) list min–max normalised, as EnsembleSelector's default
        full_boot = RankedLists.from_scores(_minmax(braw)[perm], features=plan.names[perm],
                                            list_names=bnames)
    B = plan.n_bootstraps
    by_subset: dict = {}
    for o, (subset, ri) in enumerate(plan.orders_meta):
        if ri < 0:  # a ranker alone: its scores, ties by the (permuted) index
            s = raw[:, subset[0]]
            order_perm = np.lexsort((inv_idx, -s[perm]))
            orders.append(perm[order_perm])
            keys.append(s)
            continue
        rname, params = plan.rules[ri]
        params = dict(params)
        if get_rule(rname).tags.get("groups"):
            # the fuzzy combination of the subset's rankers, each with its B bootstrap lists
            groups = {plan.rankers[i].name: bnames[i * B:(i + 1) * B] for i in subset}
            lists = full_boot.select_lists([n for g in groups.values() for n in g])
            cons = aggregate(lists, rname, groups=groups, **params)
        else:
            lists = by_subset.get(subset)
            if lists is None:  # one RankedLists per subset, shared by its rules
                lists = by_subset[subset] = full.select_lists(
                    [plan.rankers[i].name for i in subset])
            if get_rule(rname).accepts("random_state") and "random_state" not in params:
                params["random_state"] = seed_int(aseeds[o], bits=31)
            cons = aggregate(lists, rname, **params)
        orders.append(perm[np.asarray(cons.order)])
        sc = np.empty(p)
        sc[perm] = np.asarray(cons.scores, dtype=np.float64)
        keys.append(sc)
    timing["aggregation"] += time.perf_counter() - t1
    stable = None
    if plan.stab:
        stab_seed = seed_int(stab_seq, bits=31)
        stable = (stab_seed, _stable_sets(plan, Xt, yt, stab_seed, timing))
    return np.vstack(orders), np.vstack(keys), raw, boot, stable


def _stable_sets(plan: _Plan, Xt, yt, seed: int, timing: dict) -> np.ndarray:
    """The stable set of every configuration and stability size on one training part:
    :class:`~rankfusion.selection.StabilitySelector` with the configuration's rankers and rule
    (a ranker alone: its own order), lists min–max normalised, the size's parameters and one
    seed per part (so every configuration ranks the same half-samples, each ranker once per
    half: the ranker memo, :func:`rankfusion.selection.ranker_specs.ranker_cache`). Returns an
    orders × stability sizes × p bool array."""
    from ..selection import StabilitySelector
    from ..selection.ranker_specs import ranker_cache

    t0 = time.perf_counter()
    p = plan.names.shape[0]
    out = np.zeros((plan.n_orders, len(plan.stab), p), dtype=bool)
    halves = sum(int(sp.get("n_subsamples", 100)) for _, sp in plan.stab)
    with ranker_cache(max_entries=max(512, 2 * halves * len(plan.rankers))):
        for o, (subset, ri) in enumerate(plan.orders_meta):
            rule, params = ("borda", {}) if ri < 0 else plan.rules[ri]
            specs = [plan.ranker_specs[i] for i in subset]
            for t, (_, sp) in enumerate(plan.stab):
                sel = StabilitySelector(rankers=specs, aggregation=rule,
                                        aggregation_params=dict(params) or None,
                                        normalize="minmax", tie_break=plan.tie_break,
                                        task=plan.task, random_state=seed,
                                        **sp).fit(Xt, yt)
                out[o, t] = sel.support_
    timing["rankers"] += time.perf_counter() - t0
    return out


def _subset(plan: _Plan, orders: np.ndarray, stable, o: int, s: int) -> np.ndarray:
    """The sorted feature indices of configuration (order o, size s) on a training part: the
    top k of its order, or its stable set for a stability size."""
    m = plan.sizes.shape[0]
    if s < m:
        return np.sort(orders[o, :plan.sizes[s]])
    return np.flatnonzero(stable[o, s - m])


def _score(scoring: str, y_true, y_pred) -> float:
    """Accuracy, or a regressor's R², −RMSE or −MAE: higher is better for each
    (:func:`rankfusion.selection.subset_size.prediction_score`)."""
    from ..selection.subset_size import prediction_score

    return prediction_score(scoring, y_true, y_pred)


def _score_fitted(plan: _Plan, est, X, y) -> float:
    """``plan.scoring`` of the fitted ``est`` on the test part ``X``, ``y``: accuracy and the
    regression scores from ``predict`` as before; the other classification scores from
    scikit-learn's scorers (:func:`rankfusion.evaluation.scores.score_estimator`)."""
    if plan.scoring == "accuracy" or plan.regression:
        return _score(plan.scoring, y, est.predict(X))
    return score_estimator(plan.scoring, est, X, y)


def _score_orders(plan: _Plan, orders: np.ndarray, train, test, est_seed: int,
                  timing: dict, stable=None) -> np.ndarray:
    """The score (``plan.scoring``: accuracy, R², −RMSE or −MAE) on ``test`` of the estimator
    fitted on ``train`` with the top-k features of every order (or its stable set), for every
    size; one fit per distinct subset."""
    from ..selection.estimators import classifier_pipeline

    t0 = time.perf_counter()
    X, y = plan.X, plan.y
    Xtr, Xte = _rows(X, train), _rows(X, test)
    ytr, yte = y[train], y[test]
    frame = isinstance(X, pd.DataFrame)
    acc = np.empty((orders.shape[0], plan.n_sizes))
    memo: dict = {}
    for o in range(orders.shape[0]):
        for s in range(plan.n_sizes):
            key = tuple(_subset(plan, orders, stable, o, s).tolist())
            if key not in memo and not key:  # an empty stable set: the training mean / mode
                memo[key] = _baseline_score(plan, ytr, yte)
            if key not in memo:
                cols = list(key)
                a = Xtr.iloc[:, cols] if frame else Xtr[:, cols]
                b = Xte.iloc[:, cols] if frame else Xte[:, cols]
                # a clone, behind one-hot encoding / imputation where these columns need it
                est = classifier_pipeline(plan.estimator, a)
                _seed(est, est_seed)
                est.fit(a, ytr)
                memo[key] = _score_fitted(plan, est, b, yte)
            acc[o, s] = memo[key]
    timing["classifier"] += time.perf_counter() - t0
    timing["classifier_fits"] += len(memo)
    return acc


def _baseline_score(plan: _Plan, ytr, yte) -> float:
    """The score of the predictor that sees no feature: the training part's mean (regression)
    or its most frequent class (classification; ties to the lower class code), whose
    probabilities are the training part's class frequencies (``DummyClassifier(strategy=
    "prior")``: ROC AUC 0.5, MCC 0, balanced accuracy 1 / K, the log-loss of the priors)."""
    if not plan.regression and plan.scoring != "accuracy":
        from sklearn.dummy import DummyClassifier

        dummy = DummyClassifier(strategy="prior").fit(np.zeros((ytr.shape[0], 1)), ytr)
        return score_estimator(plan.scoring, dummy, np.zeros((yte.shape[0], 1)), yte)
    if plan.regression:
        pred = np.full(yte.shape[0], float(np.mean(ytr)))
    else:
        pred = np.full(yte.shape[0], int(np.argmax(np.bincount(ytr))))
    return _score(plan.scoring, yte, pred)


def _baselines(plan: _Plan, train, test, est_seed: int, timing: dict) -> tuple[float, float]:
    """On one outer split: the estimator on all the features, and the featureless predictor
    (:func:`_baseline_score`, the chance level: R² ≈ 0 for the mean)."""
    from ..selection.estimators import classifier_pipeline

    t0 = time.perf_counter()
    X, y = plan.X, plan.y
    Xtr, Xte = _rows(X, train), _rows(X, test)
    est = classifier_pipeline(plan.estimator, Xtr)
    _seed(est, est_seed)
    est.fit(Xtr, y[train])
    full = _score_fitted(plan, est, Xte, y[test])
    timing["classifier"] += time.perf_counter() - t0
    timing["classifier_fits"] += 1
    return full, _baseline_score(plan, y[train], y[test])


def _seed(est, seed: int) -> None:
    try:
        params = est.get_params(deep=True)
    except Exception:  # pragma: no cover - not a scikit-learn estimator
        return
    todo = {k: seed for k, v in params.items()
            if (k == "random_state" or k.endswith("__random_state")) and v is None}
    if todo:
        est.set_params(**todo)


def _choose(plan: _Plan, mean_acc: np.ndarray) -> tuple[tuple[int, int], tuple[int, int]]:
    """The inner choice: the best (order, size) among combinations and among single rankers;
    ties go to the smaller size, then to the earlier configuration."""
    picks = []
    for single in (False, True):
        best, where = -np.inf, None
        for o, (_, ri) in enumerate(plan.orders_meta):
            if (ri < 0) != single:
                continue
            for s in range(plan.n_sizes):
                v = mean_acc[o, s]
                if v > best + 1e-12 or (abs(v - best) <= 1e-12 and s < where[1]):
                    best, where = v, (o, s)
        picks.append(where)
    return picks[0], picks[1]


def _inner_choice(plan: _Plan, idx, seq, est_seed, timing):
    from sklearn.model_selection import KFold, StratifiedKFold

    fold_seq, part_seq = _fresh(seq).spawn(2)
    rows = np.arange(plan.y.shape[0]) if idx is None else idx
    # class labels: stratified; a numeric target: plain shuffled K-fold, seeded alike
    splitter = KFold if plan.regression else StratifiedKFold
    skf = splitter(plan.inner_cv, shuffle=True, random_state=seed_int(fold_seq, bits=31))
    pseqs = part_seq.spawn(plan.inner_cv)
    accs, raws, boots = [], [], []
    for f, (tr, te) in enumerate(skf.split(np.zeros(rows.shape[0]), plan.y[rows])):
        orders, _, raw, boot, stable = _part_orders(plan, rows[tr], pseqs[f], timing)
        raws.append(raw)
        boots.append(boot)
        accs.append(_score_orders(plan, orders, rows[tr], rows[te], est_seed, timing,
                                  None if stable is None else stable[1]))
    accs = np.stack(accs)
    combo, single = _choose(plan, accs.mean(axis=0))
    return combo, single, accs, raws, boots


def _timing() -> dict:
    return {"rankers": 0.0, "aggregation": 0.0, "classifier": 0.0, "classifier_fits": 0}


# --------------------------------------------------------------------------- checks
def _check_scoring(scoring, task: str) -> str:
    return check_scoring(scoring, task)


def _check_ranker_tasks(rankers, resolved, task: str, auto: bool) -> None:
    """Each registered ranker supports the task (its registry tag): else a ValueError naming
    it and the rankers that do; a function or estimator declares nothing, so under
    ``task="auto"`` a numeric target with one is refused (never guessed)."""
    from ..rankers import check_ranker_task, list_producer
    from ..selection.ranker_specs import ranker_items

    undeclared = []
    for i, (item, spec) in enumerate(zip(ranker_items(rankers), resolved)):
        name = item if isinstance(item, str) else (
            item[0] if isinstance(item, tuple) and item and isinstance(item[0], str) else None)
        if name is None:
            undeclared.append(spec.name)
            continue
        try:
            check_ranker_task(name, task)
        except ValueError as exc:
            why = ""
            if auto and task == "regression":  # the way out, in the caller's vocabulary
                why = ("; y is a numeric target (regression under task='auto'): name rankers "
                       "for regression, or leave out rankers= (--rankers) for the regression "
                       f"default {','.join(DEFAULT_REGRESSION_RANKERS)}")
            raise ValueError(f"rankers[{i}]: {exc}{why}") from None
        if list_producer(name) is not None:  # refused before any work, not on the first part
            raise ValueError(f"rankers[{i}]: {name!r} gives several lists (one per binary "
                             "problem); the advisor compares rankers that give one score per "
                             "feature: combine its lists with "
                             f"EnsembleSelector(rankers=[{name!r}]) instead")
    if undeclared and auto and task == "regression":
        raise ValueError(f"y is a numeric target (task='auto') and the ranker(s) "
                         f"{', '.join(map(str, undeclared))} declare no task: say "
                         "task='regression' to rank it with them")


def _check_columns(X, values: np.ndarray, names) -> None:
    """What the features' shape already decides, before any work: a column with no value
    (named), a single feature or only constant ones (nothing to choose among)."""
    check_observed_columns(X, names=names)
    p = values.shape[1]
    if p == 1:
        raise ValueError(f"X has one feature ({str(names[0])!r}): nothing to choose among; "
                         "the advisor compares subsets of two or more features")
    if constant_columns(values).shape[0] == p:
        raise ValueError(f"all features are constant (each of the {p} columns holds one "
                         "value in every row): nothing to select")


def _check(X, y, rankers, rules, sizes, estimator, cv, inner_cv, n_repeats, combine, alpha,
           tie_break, random_state, n_jobs, n_bootstraps, sample_fraction,
           task="auto", scoring=None) -> _Plan:
    from .._utils.task import as_class_labels, check_regression_target, resolve_task
    from ..selection.ranker_specs import resolve_rankers

    # The task is never guessed (docs/design.md, 'Tasks'): an integer target with many
    # distinct values is refused under "auto" naming both choices.
    asked = task
    task = resolve_task(y, task)
    regression = task == "regression"
    scoring = _check_scoring(scoring, task)

    values, _, _, names = check_features(X)
    Xv = X if isinstance(X, pd.DataFrame) else values
    _check_columns(Xv, values, names)
    if regression:
        codes, classes = check_regression_target(y, Xv.shape[0], name="y"), None
    else:
        codes, classes = check_target(as_class_labels(y) if asked == "classification" else y,
                                      Xv.shape[0])
        codes = np.asarray(codes)
    p = names.shape[0]
    if rankers is None:
        rankers = DEFAULT_REGRESSION_RANKERS if regression else DEFAULT_RANKERS
    single = (isinstance(rankers, (str, bytes)) or callable(rankers) or hasattr(rankers, "fit")
              or (isinstance(rankers, tuple) and len(rankers) == 2
                  and isinstance(rankers[0], str) and isinstance(rankers[1], Mapping)))
    if not single and hasattr(rankers, "__iter__"):
        rankers = list(rankers)  # a generator is read once
    resolved = resolve_rankers(rankers)
    if len(resolved) < 2:
        raise ValueError(f"rankers must hold at least 2 rankers (the advisor compares their "
                         f"combinations with each alone); got {len(resolved)}")
    _check_ranker_tasks(rankers, resolved, task, asked == "auto")
    specs = list(rankers)
    if isinstance(rules, str) or (isinstance(rules, tuple) and len(rules) == 2
                                  and isinstance(rules[0], str)
                                  and isinstance(rules[1], Mapping)):
        rules = [rules]
    if isinstance(rules, (bytes, Mapping)) or not hasattr(rules, "__iter__"):
        raise TypeError(f"rules must be a list of rule specs ('borda', 'kfirst:k=0.05'), got "
                        f"{type(rules).__name__}")
    rules = list(rules)
    parsed = [parse_rule(r, name=f"rules[{i}]") for i, r in enumerate(rules)]
    if not parsed:
        raise ValueError("rules is empty; give at least one rule (e.g. 'borda')")
    seen = {}
    for i, (rn, pr) in enumerate(parsed):
        key = (rn, tuple(sorted(pr.items(), key=lambda kv: kv[0])))
        if key in seen:
            raise ValueError(f"rules[{i}] repeats rules[{seen[key]}] ({rn})")
        seen[key] = i
    grid, stab = _check_sizes(sizes, p)
    cv = check_positive_int(cv, name="cv", minimum=2)
    inner_cv = check_positive_int(inner_cv, name="inner_cv", minimum=2)
    n_repeats = check_positive_int(n_repeats, name="n_repeats", minimum=1)
    combine = check_choice(combine, _COMBINE, name="combine")
    tie_break = check_choice(tie_break, TIE_BREAKS, name="tie_break")
    check_param("alpha", alpha, LEVEL)
    alpha = float(alpha)
    check_n_jobs(n_jobs)
    fuzzy = [i for i, (rn, _) in enumerate(parsed) if get_rule(rn).tags.get("groups")]
    n_bootstraps = check_positive_int(n_bootstraps, name="n_bootstraps", minimum=0)
    if fuzzy and n_bootstraps < 2:
        raise ValueError(f"rules[{fuzzy[0]}] (fuzzy) combines each ranker's bootstrap lists: "
                         f"set n_bootstraps ≥ 2 (got {n_bootstraps})")
    if isinstance(sample_fraction, (bool, np.bool_)) or not isinstance(
            sample_fraction, (int, float, np.integer, np.floating)):
        raise TypeError(f"sample_fraction must be a number in (0, 1], got "
                        f"{type(sample_fraction).__name__}")
    sample_fraction = float(sample_fraction)
    if not 0.0 < sample_fraction <= 1.0:  # NaN fails too
        raise ValueError(f"sample_fraction must lie in (0, 1], got {sample_fraction}")
    if stab and fuzzy:
        raise ValueError(f"sizes: the stability rule ({stab[0][0]!r}) ranks each half-sample "
                         f"once per ranker, and rules[{fuzzy[0]}] (fuzzy) combines bootstrap "
                         "lists: drop one of them")
    seed = spawn(random_state, 1)[0]
    if regression:
        n = codes.shape[0]
        inner_rows = n - -(-n // cv)  # the smallest outer training part
        if n < 2 * cv or inner_rows < 2 * inner_cv:
            raise ValueError(f"y: {n} samples are too few for cv={cv} outer folds with "
                             f"inner_cv={inner_cv} inner folds (every test part needs at "
                             f"least 2 rows for a score): lower cv or inner_cv")
        smallest = inner_rows - -(-inner_rows // inner_cv)
        if fuzzy and int(round(sample_fraction * smallest)) < 2:
            raise ValueError(f"sample_fraction={sample_fraction} draws fewer than 2 rows from "
                             f"the smallest inner training part ({smallest} rows) of the "
                             "fuzzy rules: raise it")
    counts = np.bincount(codes) if not regression else np.array([codes.shape[0]])
    need = cv + inner_cv  # every inner training part of every outer one holds each class
    # (a numeric target's sample count is checked above, without classes)
    if not regression and (counts.min() < max(cv, inner_cv)
                           or counts.min() * (cv - 1) / cv < inner_cv):
        small = plain_value(classes[int(np.argmin(counts))])
        raise ValueError(f"y: the smallest class ({small!r}) has {counts.min()} samples; "
                         f"cv={cv} outer folds with inner_cv={inner_cv} inner folds need about "
                         f"{need}: lower cv or inner_cv")
    if fuzzy and not regression:
        # before any work: the bootstrap samples of the smallest inner training part must
        # still rank (docs/design.md, 'Ensembles, subsets and evaluation'); stratified k-fold
        # leaves a class of n_c rows n_c − ⌈n_c / k⌉ of them in a training part
        from ..selection.resampling import check_sample_size

        outer = counts - -(-counts // cv)
        inner = outer - -(-outer // inner_cv)
        check_sample_size(np.repeat(classes, inner), sample_fraction,
                          where=f" in the smallest inner training part (cv={cv}, "
                                f"inner_cv={inner_cv}) of the fuzzy rules")
    if estimator is None and regression:
        # ridge (alpha = 1) on features z-scored on the training part: deterministic, one
        # linear solve per fit, and it compares features of any units (docs/design.md,
        # 'Tasks'); the regressor of the ensemble's R² list weights too
        from ..selection.regression import default_regressor

        est = default_regressor()
    elif estimator is None:
        from ..selection.estimators import default_estimators

        est = default_estimators()["linear_svm"]
    else:
        est = make_classifier(estimator, task=task)
    if not regression:  # AUC or log-loss without the estimator's probabilities: refused now
        check_score_estimator(scoring, est, len(classes), estimator_name=(
            "linear_svm" if estimator is None else
            estimator if isinstance(estimator, str) else type(est).__name__))
    R = len(resolved)
    if combine == "all":
        subsets = [tuple(range(R))]
    else:
        subsets = [c for m in range(2, R + 1) for c in itertools.combinations(range(R), m)]
    plan = _Plan(Xv, codes, np.asarray(names, dtype=object), resolved, specs, parsed, subsets,
                 grid, est, cv, inner_cv, n_repeats, tie_break, alpha, n_jobs, seed, combine,
                 n_bootstraps, sample_fraction, task=task, scoring=scoring, stab=stab,
                 y_rank=codes if regression else as_class_labels(codes))
    plan.orders_meta = [((i,), -1) for i in range(R)] + [
        (s, ri) for s in subsets for ri in range(len(parsed))]
    # every rule parameter checked against p before any work (k of kfirst as count or fraction)
    probe = RankedLists.from_scores(np.tile(np.arange(p, dtype=np.float64)[:, None], (1, 2)))
    for i, (rn, pr) in enumerate(parsed):
        if p > 2000:
            break  # a probe on a wide set costs a real aggregation; errors then name the rule
        if i in fuzzy:
            continue  # a weighting only, checked by parse_rule
        try:
            aggregate(probe, rn, **pr)
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"rules[{i}] ({rn}): {exc}") from None
    return plan


def advice_plan(X, y, **kwargs) -> dict:
    """The work :func:`advise` would do with the same arguments, counted before any is done:
    ranker fits, aggregations and (at most) classifier fits.

    The classifier count is an upper bound: one fit per distinct subset and split, and many
    configurations share their top k.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n, p)
        Features, as for :func:`advise`.
    y : array-like of shape (n,)
        Class labels, as for :func:`advise`.
    **kwargs
        The keyword arguments of :func:`advise` (``rankers``, ``rules``, ``sizes``,
        ``estimator``, ``cv``, ``inner_cv``, ``n_repeats``, ``combine``, ``alpha``,
        ``tie_break``, ``random_state``, ``n_jobs``, ``n_bootstraps``, ``sample_fraction``),
        with its defaults; all are checked as
        :func:`advise` checks them. Any other name raises TypeError.

    Returns
    -------
    dict
        ``n_samples``, ``n_features``, ``outer_folds``, ``inner_folds``, ``training_parts``,
        ``configurations``, ``combinations``, ``ranker_fits`` (all of them, the bootstrap
        ones included), ``bootstrap_ranker_fits`` (with a fuzzy rule: every ranker on
        ``n_bootstraps`` samples of every training part; else 0), ``aggregations`` and
        ``classifier_fits_at_most``.
    """
    plan = _check(X, y, **_defaults(kwargs))
    J = plan.cv * plan.n_repeats
    parts = J * (plan.inner_cv + 1) + plan.inner_cv + 1
    scored = J * (plan.inner_cv + 1) + plan.inner_cv
    n_combo = len(plan.subsets) * len(plan.rules)
    n_configs = plan.n_orders * plan.n_sizes
    boots = plan.n_bootstraps if plan.fuzzy else 0
    halves = sum(int(sp.get("n_subsamples", 100)) for _, sp in plan.stab)
    return {
        "n_samples": int(plan.y.shape[0]), "n_features": int(plan.names.shape[0]),
        "outer_folds": J, "inner_folds": plan.inner_cv, "training_parts": parts,
        "configurations": n_configs,
        "combinations": n_combo * plan.n_sizes,
        "ranker_fits": parts * len(plan.rankers) * (1 + boots + halves),
        "bootstrap_ranker_fits": parts * len(plan.rankers) * boots,
        # each ranker once per half-sample and training part (the memo shares them)
        "stability_ranker_fits": parts * len(plan.rankers) * halves,
        "stability_aggregations": parts * plan.n_orders * halves,
        "aggregations": parts * n_combo,
        "classifier_fits_at_most": scored * n_configs + J,
    }


def _defaults(kw: dict) -> dict:
    out = {"rankers": None, "rules": DEFAULT_RULES, "sizes": None,
           "estimator": None, "cv": 5, "inner_cv": 3, "n_repeats": 2,
           "combine": "subsets", "alpha": 0.05, "tie_break": "random", "random_state": None,
           "n_jobs": None, "n_bootstraps": 10, "sample_fraction": 1.0, "task": "auto",
           "scoring": None}
    unknown = sorted(set(kw) - set(out))
    if unknown:
        raise TypeError(f"unknown argument(s) {unknown}; arguments: {', '.join(out)}")
    out.update(kw)
    return out


# --------------------------------------------------------------------------- result
@dataclass
class Advice:
    """Result of :func:`advise`.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    table : DataFrame
        One row per configuration (best outer score first): ``rankers``, ``n_rankers``,
        ``rule`` (``alone`` for a single ranker), ``size`` (a stability size: the mean size of
        its stable sets over the outer folds), ``score`` (mean outer score, :attr:`scoring`,
        over the J outer folds) with ``score_low`` / ``score_high`` (the Nadeau–Bengio
        corrected ``1 − alpha`` interval, clipped to the score's range: [0, 1] for accuracy,
        at most 1 for R², at most 0 for −RMSE and −MAE), ``phi`` / ``phi_low`` / ``phi_high``
        (Nogueira's Φ̂ of its J outer top-k subsets with the interval; NaN where undefined, e.g.
        size = p), ``chosen`` (the fraction of outer folds whose inner CV picked it),
        ``tied_at_cutoff`` (on all the data: the number of features tied at the k-th score when
        the top k cuts through that block, so the tie break chose among them; else 0); with a
        stability size also ``size_rule`` (``count`` or the rule's text) and ``fold_sizes``
        (the size chosen on each outer fold, ``3/4/3…``).
    recommended : Configuration
        The combination the inner procedure chooses on all the data.
    best_single : Configuration
        The single ranker (× size) the inner procedure chooses on all the data.
    combination_scores, single_scores : ndarray of shape (J,)
        Outer score (accuracy, R², …) of each procedure on each outer fold (the paired samples
        of the test).
    gain, gain_ci, pvalue
        Mean of ``combination_scores − single_scores``, its interval and the two-sided
        Nadeau–Bengio corrected resampled t-test's p-value, the outer folds paired.
    stability, single_stability : NogueiraResult or None
        Φ̂ of the subsets each procedure selected on the outer training parts.
    stability_gain, stability_gain_ci
        Φ̂ combination − Φ̂ single, with the normal interval (module docstring).
    pareto : DataFrame
        The rows of ``table`` that no other row beats on score, size and Φ̂ together (at least
        as good on all three, better on one).
    one_se : Configuration
        The smallest size whose score is within one (corrected) standard error of the best
        configuration's, ties to the higher score.
    ties : dict
        For the recommended configuration on all the data: ``n_tied`` features score as the
        k-th, ``n_kept`` of them are in the top k; ``cuts_ties`` whether the cut-off goes
        through the block.
    verdict : str
        One plain sentence (two with a tie note).
    summary : dict
        Everything needed to repeat the call: parameters, the seed's entropy, versions; and
        ``seconds`` (total, and summed over the work: rankers, aggregation, classifier; with
        ``n_jobs`` the sums are over the workers) and ``classifier_fits``.
    outer_splits : list of (train, test) index arrays
    outer_subsets : dict
        ``Configuration → list`` of the J selected feature-index arrays (one per outer part).
    outer_scores : dict
        ``Configuration → ndarray`` of its J outer accuracies.
    outer_choices : list of (Configuration, Configuration)
        Per outer fold, the combination and the single ranker its inner CV chose;
        ``combination_scores[j]`` is ``outer_scores[outer_choices[j][0]][j]``.
    alpha : float
        The level of the intervals and of the test.
    bootstrap_seeds : list of int or None
        With a fuzzy rule: per outer fold j, the ``random_state`` with which
        ``EnsembleSelector(n_bootstraps=…, sample_fraction=…)`` fitted on outer training part
        j draws the bootstrap samples (and ranker seeds) the advisor used there, so that its
        fuzzy configurations can be repeated exactly; None without a fuzzy rule.
    task : {"classification", "regression"}
        The resolved task.
    scoring : str
        The score of every ``score`` column and of the test (higher is better; a name of
        :data:`rankfusion.evaluation.scores.SCORES`: ``"accuracy"``,
        ``"balanced_accuracy"``, ``"roc_auc"``, ``"neg_log_loss"``, ``"mcc"``, ``"r2"``,
        ``"neg_rmse"``, ``"neg_mae"``).
    baseline : dict or None
        The references, scored on the same outer folds: ``all_features`` (the estimator on
        every feature) and ``no_features`` (the training part's mean for regression, whose R²
        is the chance level ≈ 0; its most frequent class for classification), the means and
        the per-fold ``…_scores``. None for parts filed before the baseline existed.
    stability_seeds : list of int or None
        With a stability size: per outer fold j, the ``random_state`` of the
        :class:`~rankfusion.selection.StabilitySelector` whose stable set is each
        configuration's subset on outer training part j (fitted with the configuration's
        rankers and rule, ``normalize="minmax"``, the advisor's ``tie_break`` and the size's
        parameters), so that it can be repeated exactly; the last entry is the choice on all
        the data's. None without one.
    _ranker_specs, _ranker_names, _n_bootstraps, _sample_fraction, _all_seed
        Internal: what :meth:`selector` needs to rebuild the recommended selector.
    """

    table: pd.DataFrame
    recommended: Configuration
    best_single: Configuration
    combination_scores: np.ndarray
    single_scores: np.ndarray
    gain: float
    gain_ci: tuple
    pvalue: float
    stability: object
    single_stability: object
    stability_gain: float
    stability_gain_ci: tuple
    pareto: pd.DataFrame
    one_se: Configuration
    ties: dict
    verdict: str
    summary: dict
    outer_splits: list
    outer_subsets: dict
    outer_scores: dict
    outer_choices: list
    alpha: float
    bootstrap_seeds: list | None = None
    task: str = "classification"
    scoring: str = "accuracy"
    baseline: dict | None = None
    stability_seeds: list | None = None
    _ranker_specs: list = field(default_factory=list, repr=False)
    _ranker_names: list = field(default_factory=list, repr=False)
    _n_bootstraps: int = field(default=10, repr=False)
    _sample_fraction: float = field(default=1.0, repr=False)
    _all_seed: int | None = field(default=None, repr=False)

    @property
    def significant(self) -> bool:
        """Whether the combination procedure beats the single one at level ``alpha``."""
        return bool(self.pvalue < self.alpha and self.gain > 0)

    def selector(self, configuration: Configuration | None = None, **params):
        """An unfitted :class:`~rankfusion.EnsembleSelector` for ``configuration`` (default
        :attr:`recommended`): its rankers, its rule and parameters, its size, lists min–max
        normalised. ``params`` go to the selector (``random_state=…``). The selector breaks
        ties by the lower feature index, where the advisor drew them at random. A fuzzy
        configuration gets the advisor's ``n_bootstraps`` and ``sample_fraction`` and, unless
        ``params`` give one, the ``random_state`` of the advisor's choice on all the data, so
        that its fit on all the data draws the same bootstrap samples (with
        ``tie_break="index"`` it then selects :attr:`ties` ``["features"]``).

        Parameters
        ----------
        configuration : Configuration, default=None
            The configuration to build, e.g. a row's ``configuration`` of :attr:`table`,
            :attr:`best_single` or :attr:`one_se`; None: :attr:`recommended`. A single ranker
            (rule None) gets the rule ``"borda"`` over its one list.
        **params
            Further keyword arguments of :class:`~rankfusion.EnsembleSelector`
            (``random_state=…``); not ``rankers``, ``aggregation``, ``aggregation_params``,
            ``n_features_to_select`` or ``normalize``, which the configuration sets
            (``n_bootstraps`` and ``sample_fraction`` given here override the advisor's for a
            fuzzy configuration).

        Returns
        -------
        EnsembleSelector
            Unfitted.

        Raises
        ------
        TypeError
            If ``configuration`` is not a :class:`Configuration`.
        """
        from ..selection import EnsembleSelector

        c = self.recommended if configuration is None else configuration
        if not isinstance(c, Configuration):
            raise TypeError(f"configuration must be a Configuration, got {type(c).__name__}")
        if self.task == "regression":
            params.setdefault("task", "regression")
        specs = [self._ranker_specs[self._ranker_names.index(n)] for n in c.rankers]
        rule = "borda" if c.rule is None else c.rule
        agg_params = dict(c.params) or None
        if c.rule is not None and get_rule(c.rule).tags.get("groups"):
            # the fuzzy weightings: each ranker on the advisor's bootstrap samples
            params = {"random_state": self._all_seed, **params}
            params.setdefault("n_bootstraps", self._n_bootstraps)
            params.setdefault("sample_fraction", self._sample_fraction)
        size = c.size if isinstance(c.size, str) else int(c.size)
        return EnsembleSelector(rankers=specs, aggregation=rule, aggregation_params=agg_params,
                                n_features_to_select=size, normalize="minmax", **params)


#: How the report and the verdict name each score.
SCORE_NAMES = {name: s.label for name, s in SCORES.items()}


def _fmt(v: float) -> str:
    return f"{v:+.3f}".replace("-", "−")


def _size_text(size) -> str:
    return f"top {size}" if not isinstance(size, str) else f"the stable set of {size}"


def _verdict(adv_kw: dict) -> str:
    c, s = adv_kw["recommended"], adv_kw["best_single"]
    single = f"{s.rankers[0]} alone"
    lo, hi = adv_kw["gain_ci"]
    level = round(100 * (1 - adv_kw["alpha"]))
    stat = (f"gain {_fmt(adv_kw['gain'])}, {level} % CI {_fmt(lo)}…{_fmt(hi)}, "
            f"p = {adv_kw['pvalue']:.3g}")
    combo = f"{c.rule_label} of {'+'.join(c.rankers)} ({_size_text(c.size)})"
    if adv_kw["pvalue"] < adv_kw["alpha"] and adv_kw["gain"] > 0:
        text = f"{combo} beats {single} ({_size_text(s.size)}) ({stat})"
    elif adv_kw["pvalue"] < adv_kw["alpha"]:
        text = f"No combination beats {single}: the best single ranker is better ({stat})"
    else:
        text = f"No combination beats {single} ({stat})"
    name = SCORE_NAMES[adv_kw.get("scoring", "accuracy")]
    acc = (f"; outer {name} {adv_kw['combination_scores'].mean():.3f} (combination) vs "
           f"{adv_kw['single_scores'].mean():.3f} ({s.rankers[0]})")
    b = adv_kw.get("baseline")
    if b is not None:
        none = "the training mean" if adv_kw.get("task") == "regression" else \
            "the majority class"
        if "predict" not in SCORES[adv_kw.get("scoring", "accuracy")].needs:
            none = "the training class frequencies"
        acc += (f", {b['all_features']:.3f} with all features, {b['no_features']:.3f} with "
                f"none ({none})")
    note = SCORES[adv_kw.get("scoring", "accuracy")].note
    if note:  # how a negated score is shown
        acc += f" ({note})"
    sg, (slo, shi) = adv_kw["stability_gain"], adv_kw["stability_gain_ci"]
    st, ss = adv_kw["stability"], adv_kw["single_stability"]
    if st is None or ss is None or not np.isfinite(sg):
        stab = ""
    else:
        phis = f"Φ {st.statistic:.2f} vs {ss.statistic:.2f}"
        if slo > 0:
            stab = f"; the consensus is more stable ({phis})"
        elif shi < 0:
            stab = f"; the consensus is less stable ({phis})"
        else:
            stab = f"; stability does not differ clearly ({phis})"
    text += acc + stab + "."
    t = adv_kw["ties"]
    if t["cuts_ties"]:
        text += (f" Note: the top {c.size} cut through {t['n_tied']} features tied at the "
                 f"cut-off score ({t['n_kept']} kept): the tie break, not the data, chose "
                 "among them.")
    return text


def _nogueira_or_none(subsets: list, p: int, alpha: float):
    Z = np.zeros((len(subsets), p), dtype=np.int8)
    for i, s in enumerate(subsets):
        Z[i, s] = 1
    total = Z.sum()
    if total == 0 or total == Z.size:
        return None
    return nogueira(Z, alpha=alpha)


def advise(X, y, *, rankers=None, rules=DEFAULT_RULES, sizes=None,
           estimator=None, cv=5, inner_cv=3, n_repeats=2, combine="subsets",
           alpha=0.05, tie_break="random", random_state=None, n_jobs=None,
           n_bootstraps=10, sample_fraction=1.0, task="auto", scoring=None) -> Advice:
    """Does combining rankings beat the best single ranker on this data set?

    Nested resampling (module docstring): ``n_repeats`` × stratified ``cv``-fold outer splits
    (plain shuffled k-fold for a regression target); inside every outer training part an
    ``inner_cv``-fold CV of the same kind chooses the best combination (subset of rankers ×
    rule × size) and, separately, the best single ranker (× size), by the mean inner score
    (``scoring``: accuracy, or R² for regression) of ``estimator`` on the top-k features (ties
    to the smaller size, then to the earlier configuration); both are refit on the outer
    training part and scored on its test part. The gain is the mean paired difference of the
    two procedures' outer scores, tested with the **Nadeau–Bengio corrected resampled t-test**
    (Nadeau & Bengio 2003; :func:`rankfusion.paired_ttest`, ``corrected=True``,
    ``n_test/n_train`` of the outer folds), which allows for the overlap of the outer training
    parts. :attr:`Advice.baseline` scores the estimator on all the features and the predictor
    that sees none (the training mean: R² ≈ 0, the chance level) on the same outer folds.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n, p)
        Features (numeric or nominal, NaN for missing values, as the rankers take them).
    y : array-like of shape (n,)
        Class labels, or a numeric target (``task``).
    rankers : sequence, default=None
        At least two rankers, as ``EnsembleSelector``'s ``rankers``: registered names,
        ``(name, params)`` pairs or callables ``f(X, y) -> scores`` (higher = better). Each
        registered one must support the task (its registry tag,
        :func:`rankfusion.rankers.check_ranker_task`: else a ValueError naming it and the
        rankers that do). None: ``DEFAULT_RANKERS`` (``info_gain``, ``relieff``, ``nlc``)
        for classification, ``DEFAULT_REGRESSION_RANKERS`` (``f_regression``,
        ``rrelieff``, ``mutual_info_regression``) for regression.
    rules : sequence, default=("borda", "mean_score", "kfirst", "rrf")
        Rules of :func:`rankfusion.aggregate` with parameters: ``"kfirst:k=0.05"`` or
        ``("kfirst", {"k": 0.05})`` (:func:`parse_rule`), and the fuzzy weightings
        ``"fuzzy:EW"``, ``"fuzzy:RW"``, ``"fuzzy:OW"``, ``"fuzzy:MW"`` (the fuzzy paper,
        eqs. 1–13; see ``n_bootstraps``). Like every rule, a fuzzy weighting combines subsets
        of at least two rankers: the fuzzy combination of one ranker's bootstrap lists (a
        bagged ranker, which ``EnsembleSelector`` allows) is not a configuration here, so
        the single procedure stays "one ranker alone on the training part".
    sizes : None, sequence of int / float / str, "k-step" or "stability…", default=None
        Subset sizes: counts, fractions (docs/design.md, 'Fractions') or the K-step grid of
        :func:`rankfusion.selection.subset_size.k_step_grid`. None: :func:`default_sizes`, a log
        grid 1, 2, 4 … up to 256. The stability rule of ``EnsembleSelector``'s
        ``n_features_to_select`` (``"stability"``, ``"stability:pfer=1,threshold=0.9"``;
        parameters ``q``, ``threshold``, ``pfer``, ``bound``, ``n_subsamples``,
        ``complementary_pairs``: :func:`rankfusion.selection.subset_size.parse_stability_rule`)
        is a size too, alone or among counts: each configuration's subset is then the stable
        set of :class:`~rankfusion.selection.StabilitySelector` (its rankers and rule) fitted
        on each training part, inner and outer, so the size is chosen inside the training
        part only; ``Advice.table`` gives its mean size over the outer folds in ``size`` and
        the size on each fold in ``fold_sizes``. Not with a fuzzy rule; for a numeric target the
        half-samples are drawn without strata (``StabilitySelector(task="regression")``).
        Its cost: every ranker on ``n_subsamples`` half-samples of every training part.
    estimator : None, str, classifier or regressor, default=None
        The estimator scoring a subset: a name of
        :func:`rankfusion.evaluation.available_classifiers` of the task (regressors such as
        ``"ridge"`` or ``"knn5_regressor"`` for regression) or a scikit-learn estimator (a
        clone is fitted on each training part, behind one-hot encoding of nominal columns and
        mean imputation of missing values where the subset has them,
        :func:`rankfusion.selection.estimators.classifier_pipeline`). None: the linear SVM
        (C = 1) on features z-scored on the training part, as ``EnsembleSelector``'s
        (``make_pipeline(StandardScaler(), SVC(kernel="linear"))``); on raw gene-expression
        values the unscaled SVM of the papers took
        about 1.7 s per fit on 48 samples, the z-scored one milliseconds. For regression:
        ``Ridge(alpha=1)`` on features z-scored on the training part
        (``make_pipeline(StandardScaler(), Ridge())``, the regressor of ``EnsembleSelector``'s
        R² list weights): deterministic, one linear solve per fit, and the penalty treats
        features of any units alike.
    cv : int ≥ 2, default=5
        Outer folds per repeat.
    inner_cv : int ≥ 2, default=3
        Inner folds of the choice.
    n_repeats : int ≥ 1, default=2
        Repeats of the outer k-fold (J = cv · n_repeats paired outer folds).
    combine : {"subsets", "all"}, default="subsets"
        ``"subsets"``: every subset of at least two rankers; ``"all"``: all rankers together.
    alpha : float in (0, 1), default=0.05
        Level of the test and of every interval.
    tie_break : {"random", "index"}, default="random"
        How features of equal score are ordered inside the resampling: a random permutation
        per training part (seeded from ``random_state``) or the lower feature index.
    random_state : None, int, SeedSequence or Generator
        docs/design.md, 'Seeds': every split, ranker, rule and tie break gets a child stream;
        the result does not depend on ``n_jobs``.
    n_jobs : int, default=None
        Outer folds run in parallel (joblib).
    n_bootstraps : int, default=10
        Used only with a fuzzy rule (then ≥ 2): every ranker also runs on ``n_bootstraps``
        stratified bootstrap samples of every training part (inner and outer), drawn exactly
        as ``EnsembleSelector(n_bootstraps=…, sample_fraction=…)`` draws them from a seed of
        the part (:attr:`Advice.bootstrap_seeds`); their scores are cached like the plain
        ones, and every fuzzy configuration is aggregated from that cache. The cost: the
        ranker fits grow from ``T · R`` to ``T · R · (1 + n_bootstraps)`` for T training
        parts and R rankers (:func:`advice_plan` counts them), and each part file of
        :func:`rankfusion.experiments.advice.advise_in_folder` holds ``p · R ·
        n_bootstraps`` more floats per training part. The fuzzy paper used 100 samples.
    sample_fraction : float in (0, 1], default=1.0
        Rows drawn with replacement per bootstrap sample, as a fraction of the training part
        (per class), as ``EnsembleSelector``'s; with a fuzzy rule, a fraction too small for
        the smallest inner training part is refused before any work
        (:func:`rankfusion.selection.resampling.check_sample_size`).
    task : {"auto", "classification", "regression"}, default="auto"
        The learning task of ``y``, never guessed (docs/design.md, 'Tasks'):
        ``"auto"`` follows the rule of that section and refuses an
        integer-valued target with many distinct values, naming both choices; an explicit
        task is honoured. Regression: plain shuffled (repeated) k-fold splits, seeded as the
        stratified ones, regression rankers, a regressor, R² by default; the bootstrap samples
        of a fuzzy rule are drawn without strata, as ``EnsembleSelector(task="regression")``
        draws them.
    scoring : None or str, default=None
        The score, higher = better (``rankfusion.evaluation.scores``, scikit-learn's
        scorers): for classification ``"accuracy"`` (default), ``"balanced_accuracy"``,
        ``"roc_auc"`` (binary; the one-vs-rest macro mean for more classes),
        ``"neg_log_loss"`` (the log-loss negated, as scikit-learn's ``neg_log_loss``) or
        ``"mcc"`` (Matthews' correlation); ``"r2"`` (default), ``"neg_rmse"`` or
        ``"neg_mae"`` for regression. A score of the other task, an unknown name (with the
        closest known one) and a score the estimator cannot give (AUC without
        ``decision_function`` or ``predict_proba`` — ``predict_proba`` for more than two
        classes —, log-loss without ``predict_proba``) are refused before any work.

    Returns
    -------
    Advice

    Examples
    --------
    >>> import numpy as np
    >>> from rankfusion import advise
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(40, 12)); y = np.repeat([0, 1], 20); X[:, 0] += 2 * y
    >>> adv = advise(X, y, rankers=("f_classif", "relieff"), rules=("borda",), sizes=(1, 4),
    ...              cv=3, inner_cv=2, n_repeats=1, random_state=0)
    >>> adv.recommended.size, adv.best_single.size
    (1, 1)
    """
    t_start = time.perf_counter()
    task = prepare_advice(X, y, rankers=rankers, rules=rules, sizes=sizes,
                          estimator=estimator, cv=cv, inner_cv=inner_cv, n_repeats=n_repeats,
                          combine=combine, alpha=alpha, tie_break=tie_break,
                          random_state=random_state, n_jobs=n_jobs,
                          n_bootstraps=n_bootstraps, sample_fraction=sample_fraction,
                          task=task, scoring=scoring)
    from joblib import Parallel, delayed

    parts = Parallel(n_jobs=task.plan.n_jobs)(
        delayed(advice_part)(task, j) for j in range(task.n_parts))
    return finish_advice(task, parts, seconds=time.perf_counter() - t_start)


@dataclass
class AdviceTask:
    """The work of one :func:`advise` call, checked and split into independent parts, before
    any is done (:func:`prepare_advice`).

    Part ``j < J`` is outer fold j (its inner choice, its rankers' scores on every inner and
    on the outer training part, every configuration scored on its test part); part ``J`` is
    the choice on all the data (the recommendation). Each part depends only on the data, the
    arguments and its own seed streams, so the parts may run in any order, in any process,
    and :func:`finish_advice` gives the same :class:`Advice` from their results
    (:func:`advice_part`). ``rankfusion.experiments`` runs them resumably and on Dask.

    Attributes
    ----------
    splits : list of (train, test) index arrays
        The J outer splits.
    random_state : object
        As given to :func:`prepare_advice`.
    """

    plan: _Plan
    splits: list
    outer_seqs: list
    all_seqs: tuple
    est_seed: int
    random_state: object = None

    @property
    def n_parts(self) -> int:
        """J outer parts and the choice on all the data."""
        return len(self.splits) + 1

    def identity(self) -> dict:
        """What the results depend on, as JSON-able values: a digest of the data, every
        argument (as checked) and the seed; not ``n_jobs``, on which they do not depend;
        ``n_bootstraps`` and ``sample_fraction`` when a fuzzy rule uses them.

        Returns
        -------
        dict
        """
        from .._utils.digest import data_digest

        plan = self.plan
        return {
            "data_sha256": data_digest(plan.X, plan.y),
            "feature_names": [str(n) for n in plan.names],
            "rankers": [_spec_text(r) for r in plan.ranker_specs],
            "rules": [[rn, sorted((str(k), repr(v)) for k, v in pr.items())]
                      for rn, pr in plan.rules],
            "sizes": plan.sizes.tolist(), "estimator": repr(plan.estimator),
            "cv": plan.cv, "inner_cv": plan.inner_cv, "n_repeats": plan.n_repeats,
            "combine": plan.combine, "alpha": plan.alpha, "tie_break": plan.tie_break,
            "seed_entropy": _entropy(plan.seed),
            "seed_spawn_key": [int(k) for k in plan.seed.spawn_key],
            # the bootstrap settings only where they change the numbers (a fuzzy rule), so
            # that a folder of other rules keeps its identity
            **({"n_bootstraps": plan.n_bootstraps, "sample_fraction": plan.sample_fraction}
               if plan.fuzzy else {}),
            # the task, the score and the stability sizes only where they are not the
            # classification defaults, so that a classification folder keeps its identity
            **({"task": plan.task, "scoring": plan.scoring}
               if (plan.task, plan.scoring) != ("classification", "accuracy") else {}),
            **({"stability_sizes": [[label, sorted((str(k), repr(v)) for k, v in sp.items())]
                                    for label, sp in plan.stab]} if plan.stab else {}),
        }


def _entropy(seq):
    e = seq.entropy
    return int(e) if isinstance(e, (int, np.integer)) else [int(v) for v in e]


def _spec_text(spec) -> str:
    """A ranker spec as stable text (a callable by its module and name, not its address)."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        return f"{spec[0]}:{sorted((str(k), repr(v)) for k, v in dict(spec[1]).items())}"
    if callable(spec) and hasattr(spec, "__qualname__"):
        return f"{getattr(spec, '__module__', '')}.{spec.__qualname__}"
    return repr(spec)


def prepare_advice(X, y, **kwargs) -> AdviceTask:
    """Check the arguments of :func:`advise` and plan its work: the outer splits and the seed
    of every part, before any part runs.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n, p)
        Features, as for :func:`advise`.
    y : array-like of shape (n,)
        Class labels, as for :func:`advise`.
    **kwargs
        The keyword arguments of :func:`advise`, with its defaults; any other name raises
        TypeError.

    Returns
    -------
    AdviceTask
    """
    kw = _defaults(kwargs)
    plan = _check(X, y, **kw)
    from sklearn.model_selection import RepeatedKFold, RepeatedStratifiedKFold

    split_seq, outer_seq, all_seq, est_seq = plan.seed.spawn(4)
    est_seed = seed_int(est_seq, bits=31)
    n = plan.y.shape[0]
    # class labels: stratified; a numeric target: plain shuffled K-fold, the same seed
    splitter = RepeatedKFold if plan.regression else RepeatedStratifiedKFold
    rskf = splitter(n_splits=plan.cv, n_repeats=plan.n_repeats,
                    random_state=seed_int(split_seq, bits=31))
    splits = list(rskf.split(np.zeros(n), plan.y))
    oseqs = outer_seq.spawn(len(splits))
    return AdviceTask(plan, splits, oseqs, tuple(all_seq.spawn(2)), est_seed,
                      kw["random_state"])


def advice_part(task: AdviceTask, j: int) -> dict:
    """Compute part ``j`` of ``task`` (:class:`AdviceTask`): a dict of arrays and a
    ``timing`` dict, everything :func:`finish_advice` needs.

    Outer part ``j < J``: ``combo`` and ``single`` (the (order, size) indices its inner CV
    chose), ``acc`` (orders × sizes accuracies on its test part), ``orders`` (every
    configuration's order on its training part), ``inner_acc`` (inner folds × orders × sizes)
    and ``ranker_scores`` (training parts × p × rankers: the cached raw scores of each inner
    training part, then of the outer one). Part ``J``: ``combo``, ``single``, ``orders`` and
    ``keys`` on all the data. With a fuzzy rule also ``bootstrap_scores`` (training parts × p ×
    rankers × ``n_bootstraps``, the same parts in the same order) and ``bootstrap_seeds`` (per
    training part, the ``random_state`` with which ``EnsembleSelector`` draws the same
    bootstrap samples and ranker seeds on it; the last is the outer / all-data part's).

    Parameters
    ----------
    task : AdviceTask
    j : int in [0, task.n_parts)

    Returns
    -------
    dict
    """
    plan = task.plan
    J = len(task.splits)
    if isinstance(j, bool) or not isinstance(j, (int, np.integer)) or not 0 <= j <= J:
        raise ValueError(f"j must be an int in [0, {J}], got {j!r}")
    timing = _timing()
    if j == J:
        all_inner, all_part = task.all_seqs
        combo, single, inner_acc, inner_raw, inner_boot = _inner_choice(
            plan, None, all_inner, task.est_seed, timing)
        orders, keys, raw, boot, stable = _part_orders(plan, None, all_part, timing)
        out = {"combo": np.asarray(combo), "single": np.asarray(single), "orders": orders,
               "keys": keys, "inner_acc": inner_acc,
               "ranker_scores": np.stack([*inner_raw, raw]), "timing": timing}
    else:
        train, test = task.splits[j]
        inner_seq, outer_seq = _fresh(task.outer_seqs[j]).spawn(2)
        combo, single, inner_acc, inner_raw, inner_boot = _inner_choice(
            plan, train, inner_seq, task.est_seed, timing)
        orders, _, raw, boot, stable = _part_orders(plan, train, outer_seq, timing)
        acc = _score_orders(plan, orders, train, test, task.est_seed, timing,
                            None if stable is None else stable[1])
        out = {"combo": np.asarray(combo), "single": np.asarray(single), "acc": acc,
               "orders": orders, "inner_acc": inner_acc,
               "ranker_scores": np.stack([*inner_raw, raw]), "timing": timing,
               "baseline": np.asarray(_baselines(plan, train, test, task.est_seed, timing))}
    if stable is not None:  # the stable sets of the outer (or all-data) training part
        out["stability_seed"] = np.int64(stable[0])
        out["stable"] = stable[1]
    if boot is not None:  # the fuzzy rules' cache: every training part's bootstrap scores
        out["bootstrap_scores"] = np.stack([b[1] for b in (*inner_boot, boot)])
        out["bootstrap_seeds"] = np.array([b[0] for b in (*inner_boot, boot)], dtype=np.int64)
    return out


def finish_advice(task: AdviceTask, parts, *, seconds: float | None = None) -> Advice:
    """The :class:`Advice` from the results of every part of ``task`` (:func:`advice_part`,
    in part order).

    Parameters
    ----------
    task : AdviceTask
    parts : sequence of dict
        ``task.n_parts`` results, part j at position j.
    seconds : float, optional
        The wall-clock time to record as ``summary["seconds"]["total"]``.

    Returns
    -------
    Advice
    """
    plan = task.plan
    parts = list(parts)
    if len(parts) != task.n_parts:
        raise ValueError(f"parts must hold {task.n_parts} results, got {len(parts)}")
    splits = task.splits
    J = len(splits)
    n = plan.y.shape[0]
    random_state = task.random_state
    folds = [{"combo": tuple(int(v) for v in f["combo"]),
              "single": tuple(int(v) for v in f["single"]),
              "acc": f["acc"], "orders": f["orders"], "timing": f["timing"],
              "stable": f.get("stable")}
             for f in parts[:J]]
    last = parts[J]
    rec = tuple(int(v) for v in last["combo"])
    rec_single = tuple(int(v) for v in last["single"])
    all_orders, all_keys = last["orders"], last["keys"]
    timing = _timing()
    for f in parts:
        for key, value in f["timing"].items():
            timing[key] += value

    names = [r.name for r in plan.rankers]
    p = plan.names.shape[0]
    n_test = int(round(n / plan.cv))
    n_train = n - n_test
    factor = 1.0 / J + n_test / n_train
    tq = float(stats.t.ppf(1 - plan.alpha / 2, J - 1))
    zq = float(stats.norm.ppf(1 - plan.alpha / 2))

    def config(o, s) -> Configuration:
        subset, ri = plan.orders_meta[o]
        rule, params = (None, ()) if ri < 0 else (
            plan.rules[ri][0], tuple(sorted(plan.rules[ri][1].items(), key=lambda kv: kv[0])))
        return Configuration(tuple(names[i] for i in subset), rule, params, plan.size_of(s))

    # the scale of the score: accuracy in [0, 1], MCC in [−1, 1], R² ≤ 1, −RMSE, −MAE,
    # −log-loss ≤ 0 (rankfusion.evaluation.scores)
    lo_clip, hi_clip = SCORES[plan.scoring].bounds
    m = plan.sizes.shape[0]
    rows, subsets_by_config, scores_by_config = [], {}, {}
    chosen = np.zeros((plan.n_orders, plan.n_sizes))
    for f in folds:
        chosen[f["combo"]] += 1
        chosen[f["single"]] += 1
    for o in range(plan.n_orders):
        for s in range(plan.n_sizes):
            c = config(o, s)
            acc = np.array([f["acc"][o, s] for f in folds])
            subs = [_subset(plan, f["orders"], f["stable"], o, s) for f in folds]
            subsets_by_config[c] = subs
            scores_by_config[c] = acc
            half = tq * np.sqrt(factor * acc.var(ddof=1))
            phi = _nogueira_or_none(subs, p, plan.alpha)
            if s < m:
                tied, kept = cutoff_ties(all_keys[o], int(plan.sizes[s]))
            else:
                tied = kept = 0  # a stable set is no top k: no cut-off to tie at
            nan = float("nan")
            row = {
                "rankers": "+".join(c.rankers), "n_rankers": len(c.rankers),
                "rule": c.rule_label,
                "size": c.size if s < m else float(np.mean([len(x) for x in subs])),
                "score": acc.mean(),
                "score_low": max(lo_clip, acc.mean() - half),
                "score_high": min(hi_clip, acc.mean() + half),
                "score_se": np.sqrt(factor * acc.var(ddof=1)),
                "phi": nan if phi is None else phi.statistic,
                "phi_low": nan if phi is None else phi.low,
                "phi_high": nan if phi is None else phi.high,
                "chosen": chosen[o, s] / J, "tied_at_cutoff": tied if kept < tied else 0,
                "configuration": c,
            }
            if plan.stab:  # which rule chose the size, and the size it chose on each fold
                row["size_rule"] = "count" if s < m else c.size
                row["fold_sizes"] = "/".join(str(len(x)) for x in subs)
            rows.append(row)
    table = pd.DataFrame(rows)
    table = table.sort_values("score", ascending=False, kind="stable").reset_index(drop=True)

    combo_scores = np.array([f["acc"][f["combo"]] for f in folds])
    single_scores = np.array([f["acc"][f["single"]] for f in folds])
    tt = paired_ttest(combo_scores, single_scores, corrected=True, n_train=n_train,
                      n_test=n_test)
    gain = float(tt.mean_difference)
    gain_ci = (gain - tq * tt.std_error, gain + tq * tt.std_error)
    combo_subs = [_subset(plan, f["orders"], f["stable"], *f["combo"]) for f in folds]
    single_subs = [_subset(plan, f["orders"], f["stable"], *f["single"]) for f in folds]
    st = _nogueira_or_none(combo_subs, p, plan.alpha)
    ss = _nogueira_or_none(single_subs, p, plan.alpha)
    if st is None or ss is None:
        sg, sg_ci = float("nan"), (float("nan"), float("nan"))
    else:
        sg = st.statistic - ss.statistic
        h = zq * np.sqrt(st.variance + ss.variance)
        sg_ci = (sg - h, sg + h)

    recommended, best_single = config(*rec), config(*rec_single)
    boot_seeds = None
    if plan.fuzzy:
        boot_seeds = [int(f["bootstrap_seeds"][-1]) for f in parts]
    choices = [(config(*f["combo"]), config(*f["single"])) for f in folds]
    if rec[1] < plan.sizes.shape[0]:
        tied, kept = cutoff_ties(all_keys[rec[0]], recommended.size)
    else:
        tied = kept = 0
    ties = {"n_tied": tied, "n_kept": kept, "cuts_ties": kept < tied,
            "features": plan.names[_subset(plan, all_orders, last.get("stable"),
                                           *rec)].tolist()}
    base = [f.get("baseline") for f in parts[:J]]
    if all(b is not None for b in base):  # parts filed before the baseline existed lack it
        base = np.asarray(base, dtype=np.float64).reshape(J, 2)
        baseline = {"all_features": float(base[:, 0].mean()),
                    "no_features": float(base[:, 1].mean()),
                    "all_features_scores": base[:, 0].tolist(),
                    "no_features_scores": base[:, 1].tolist()}
    else:
        baseline = None

    # Pareto front on (score ↑, size ↓, Φ ↑); NaN Φ counts as the worst
    sc = table["score"].to_numpy()
    sz = table["size"].to_numpy()
    ph = np.nan_to_num(table["phi"].to_numpy(), nan=-np.inf)
    front = [i for i in range(len(table))
             if not ((sc >= sc[i]) & (sz <= sz[i]) & (ph >= ph[i])
                     & ((sc > sc[i]) | (sz < sz[i]) | (ph > ph[i]))).any()]
    pareto = table.iloc[front].reset_index(drop=True)
    best = table.iloc[0]
    near = table[table["score"] >= best["score"] - best["score_se"]]
    near = near.sort_values(["size", "score"], ascending=[True, False], kind="stable")
    one_se = near.iloc[0]["configuration"]

    import joblib
    import scipy
    import sklearn

    from .._utils.version import __version__

    summary = {
        "rankfusion": __version__, "numpy": np.__version__, "scipy": scipy.__version__,
        "scikit-learn": sklearn.__version__, "pandas": pd.__version__,
        "joblib": joblib.__version__,
        "seed_entropy": int(plan.seed.entropy) if isinstance(plan.seed.entropy, int)
        else [int(e) for e in plan.seed.entropy],
        "seed_spawn_key": list(plan.seed.spawn_key),
        "random_state": random_state if isinstance(random_state, (int, type(None))) else
        repr(random_state),
        "rankers": names, "rules": [c for c in dict.fromkeys(
            config(o, 0).rule_label for o in range(plan.n_orders) if plan.orders_meta[o][1] >= 0)],
        "sizes": plan.sizes.tolist() + [label for label, _ in plan.stab],
        "task": plan.task, "scoring": plan.scoring, "baseline": baseline,
        "estimator": repr(plan.estimator), "cv": plan.cv,
        "inner_cv": plan.inner_cv, "n_repeats": plan.n_repeats, "combine": plan.combine,
        "alpha": plan.alpha, "tie_break": plan.tie_break,
        **({"n_bootstraps": plan.n_bootstraps, "sample_fraction": plan.sample_fraction}
           if plan.fuzzy else {}),
        "n_samples": int(n),
        "n_features": int(p), "outer_folds": J, "n_train": n_train, "n_test": n_test,
        "test": "Nadeau-Bengio corrected resampled t-test, outer folds paired",
        "seconds": {"total": float(timing["rankers"] + timing["aggregation"]
                                   + timing["classifier"]) if seconds is None else seconds,
                    **{k: v for k, v in timing.items() if k != "classifier_fits"}},
        "classifier_fits": int(timing["classifier_fits"]),
    }
    kw = dict(recommended=recommended, best_single=best_single,
              combination_scores=combo_scores, single_scores=single_scores, gain=gain,
              gain_ci=gain_ci, pvalue=float(tt.pvalue), stability=st, single_stability=ss,
              stability_gain=sg, stability_gain_ci=sg_ci, ties=ties, alpha=plan.alpha,
              task=plan.task, scoring=plan.scoring, baseline=baseline,
              stability_seeds=[int(f["stability_seed"]) for f in parts] if plan.stab
              else None)
    verdict = _verdict(kw)
    summary.update({"recommended": recommended.label, "best_single": best_single.label,
                    "gain": gain, "gain_ci": list(gain_ci), "pvalue": float(tt.pvalue),
                    "stability_gain": sg, "stability_gain_ci": list(sg_ci),
                    "one_se": one_se.label, "verdict": verdict,
                    "recommended_features": ties["features"]})
    return Advice(table=table, pareto=pareto, one_se=one_se, verdict=verdict, summary=summary,
                  outer_splits=splits, outer_subsets=subsets_by_config,
                  outer_scores=scores_by_config, outer_choices=choices,
                  bootstrap_seeds=None if boot_seeds is None else boot_seeds[:J],
                  _ranker_specs=plan.ranker_specs, _ranker_names=names,
                  _n_bootstraps=plan.n_bootstraps, _sample_fraction=plan.sample_fraction,
                  _all_seed=None if boot_seeds is None else boot_seeds[J], **kw)


# --------------------------------------------------------------------------- text forms
def split_rules(text: str) -> list[str]:
    """A comma-separated list of rule specs → the specs: ``"borda,kfirst:k=0.05"`` →
    ``["borda", "kfirst:k=0.05"]``. A piece holding ``=`` but no ``:`` is a further parameter of
    the rule before it (rule names hold no ``=``), so ``"ga:k=5,distance=kendall,borda"`` →
    ``["ga:k=5,distance=kendall", "borda"]``.

    Parameters
    ----------
    text : str
        Comma-separated rule specs (e.g. the command line's ``--rules``).

    Returns
    -------
    list of str
        The rule specs, each for :func:`parse_rule`.

    Raises
    ------
    TypeError
        If ``text`` is not a str.
    ValueError
        If an item is empty or the first item is a parameter.

    Examples
    --------
    >>> split_rules("ga:k=5,distance=kendall,borda")
    ['ga:k=5,distance=kendall', 'borda']
    """
    if not isinstance(text, str):
        raise TypeError(f"rules must be text, got {type(text).__name__}")
    out: list[str] = []
    for piece in (t.strip() for t in text.split(",")):
        if not piece:
            raise ValueError(f"rules {text!r} has an empty item (two commas or a trailing "
                             "comma)")
        if "=" in piece and ":" not in piece:
            if not out:
                raise ValueError(f"rules {text!r} starts with a parameter ({piece!r}); write "
                                 "RULE:NAME=VALUE, e.g. kfirst:k=0.05")
            out[-1] += "," + piece
        else:
            out.append(piece)
    return out


def parse_sizes(text: str):
    """``"1,2,4,0.1"`` → ``[1, 2, 4, 0.1]`` (ints are counts, decimals fractions), ``"k-step"``
    → ``"k-step"``, and the stability rule: ``"5,stability:pfer=1,threshold=0.9"`` → ``[5,
    "stability:pfer=1,threshold=0.9"]`` (a piece holding ``=`` is a further parameter of the
    rule before it); checked against p by :func:`advise`.

    Parameters
    ----------
    text : str
        Comma-separated counts (ints), fractions (decimals) and stability rules, or
        ``"k-step"``.

    Returns
    -------
    list of int, float and str, or str
        The sizes, in the given order, or ``"k-step"``.

    Raises
    ------
    TypeError
        If ``text`` is not a str.
    ValueError
        If an item is neither an int, a finite number nor a stability rule.

    Examples
    --------
    >>> parse_sizes("1,5,0.1")
    [1, 5, 0.1]
    >>> parse_sizes("5,stability:pfer=1,threshold=0.9")
    [5, 'stability:pfer=1,threshold=0.9']
    """
    if not isinstance(text, str):
        raise TypeError(f"sizes must be text, got {type(text).__name__}")
    if text.strip() == "k-step":
        return "k-step"
    out: list = []
    for piece in (t.strip() for t in text.split(",")):
        if piece.split(":", 1)[0].strip() == "stability":
            out.append(piece)
            continue
        if "=" in piece and ":" not in piece and out and isinstance(out[-1], str):
            out[-1] += "," + piece  # a further parameter of the stability rule
            continue
        try:
            out.append(int(piece))
            continue
        except ValueError:
            pass
        try:
            v = float(piece)
        except ValueError:
            raise ValueError(f"sizes: {piece!r} is not a count, a fraction or the stability "
                             "rule (e.g. '1,2,4,8' or '0.01,0.05' or 'k-step' or "
                             "'stability:pfer=1')") from None
        if not np.isfinite(v):
            raise ValueError(f"sizes: {piece!r} is not a finite number")
        out.append(v)
    return out


def advice_frame(advice: Advice) -> pd.DataFrame:
    """:attr:`Advice.table` without the ``configuration`` objects (for printing and CSV).

    Parameters
    ----------
    advice : Advice
        A result of :func:`advise`.

    Returns
    -------
    DataFrame
        A new frame; ``advice.table`` is left unchanged.
    """
    return advice.table.drop(columns=["configuration"])


def write_advice(advice: Advice, out, *, overwrite: bool = False, inputs=(),
                 extra: Mapping | None = None) -> list:
    """Save ``advice`` into the new folder ``out``: ``advice.csv`` (the table) and
    ``summary.json`` (:attr:`Advice.summary`, everything needed to repeat the call, plus
    ``extra``), each written atomically. An existing folder is refused unless ``overwrite``;
    ``out`` may not be one of ``inputs``. Returns the paths written.

    Parameters
    ----------
    advice : Advice
        A result of :func:`advise`.
    out : str or path-like
        The results folder; its parent must exist.
    overwrite : bool, default=False
        Write into an existing folder (replacing ``advice.csv`` and ``summary.json``).
    inputs : iterable of path-like, default=()
        The files the run read; ``out`` may not be one of them.
    extra : Mapping, default=None
        Further entries added to the summary (overriding those of the same key).

    Returns
    -------
    list of pathlib.Path
        The paths of ``advice.csv`` and ``summary.json``.

    Raises
    ------
    ValueError
        If ``out`` is one of ``inputs``, an existing file, an existing folder without
        ``overwrite``, or its parent does not exist.
    """
    import json

    from .._utils.atomic import atomic_write_text, check_output_dir

    folder = check_output_dir(out, overwrite=overwrite, inputs=inputs)
    folder.mkdir(exist_ok=True)
    csv = atomic_write_text(folder / "advice.csv", advice_frame(advice).to_csv(index=False))
    summary = dict(advice.summary)
    if extra:
        summary.update(extra)
    js = atomic_write_text(folder / "summary.json",
                           json.dumps(summary, indent=2, ensure_ascii=False, default=str) + "\n")
    return [csv, js]
