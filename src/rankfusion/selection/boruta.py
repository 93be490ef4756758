"""Boruta: all-relevant feature selection with shadow features (Kursa & Rudnicki 2010).

Each iteration t extends the data with a *shadow* of every feature still in play (a copy
whose rows are permuted independently, column by column), computes importances on the extended
data with any importance-producing ranker (a random forest by default), and records a *hit*
for every real feature whose importance exceeds the largest shadow importance,

.. math:: h_k \\leftarrow h_k + [\\,I_k > \\max_j I_{\\text{shadow}_j}\\,].

Under the null hypothesis that feature k is no better than its shadows, h_k after t iterations
is Binomial(t, ½). After every iteration, each undecided feature is tested:

* ``test="two_sided"`` (default): the two-sided binomial p-value,
  :math:`p_k = \\min(1, 2\\min(P(X \\ge h_k), P(X \\le h_k)))`, X ~ Bin(t, ½) (scipy's
  ``binomtest``); the feature is *confirmed* when p_k is small and h_k > t/2, *rejected*
  when p_k is small and h_k < t/2;
* ``test="tails"``: the two one-sided tails separately, confirmed when
  :math:`P(X \\ge h_k)` is small, rejected when :math:`P(X \\le h_k)` is (R's ``Boruta`` and
  BorutaPy; each tail at level α is the two-sided test at level 2α).

"Small" is ``correction="bonferroni"`` (default): p ≤ α / m, m the number of features still
undecided before the tests of this iteration; or ``correction="two_step"`` (BorutaPy's default):
Benjamini–Hochberg at α over the features not yet rejected (confirmed ones included, as
BorutaPy does), each direction separately, *and* p ≤ α / t. A rejected feature leaves the data
(and its shadow with it), as in the paper. The search stops when every feature is decided or
after ``max_iter`` iterations; the features still undecided are reported as *tentative*.

What the tests control: the null hypothesis is "feature k beats the best shadow in half of the
iterations", given the data. A noise feature's hit probability is
:math:`G(I_k)^m`, G the distribution of a shadow's importance over the random shuffles (and
the ranker's own randomness) and m the shadows; it is confirmed when that probability is above
½, so the share of noise features confirmed is not α: with a deterministic importance such as
``f_classif`` it is the share whose in-sample importance exceeds the :math:`2^{-1/m}` quantile of
G (95.5 % for m = 15), about 10 % of them on the simulated data of
``tests/selection/test_boruta.py``; a random forest's own randomness lowers it (none confirmed
there). Bonferroni keeps the error of each round's tests, given the hit probabilities, at α.

Differences from BorutaPy 0.4 (measured in ``tests/fixtures/boruta/README.md``): BorutaPy runs
``max_iter − 1`` iterations (its loop tests ``_iter < max_iter``); its Bonferroni divides α by
all p features, not the undecided ones (its ``perc``, a percentile of the shadows instead of
their maximum, is ``perc`` here too); it pads the shadows to at least 5 columns by repeating
them; it shuffles the shadows with ``numpy.random.RandomState.shuffle`` column by column, so
its random numbers differ from ours; its ``support_weak_`` keeps only the tentative features
whose median importance beats the median shadow maximum (a "rough fix"), while ours reports
every tentative feature. With a deterministic importance provider, ``test="tails"``,
``correction="two_step"`` and ``max_iter`` one less than BorutaPy's, the decisions are the same.
"""

from __future__ import annotations

import numpy as np
from scipy import stats
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from .._utils.constraints import Boolean, Check, Interval, Options, validate_params
from .._utils.progress import progress_bar
from .._utils.seeding import spawn
from .._utils.sparse import check_dense_size, densify, is_sparse, sparse_refusal
from .._utils.task import TASKS, as_class_labels, check_regression_target, class_codes, resolve_task
from ..lists import RankedLists
from .ranker_specs import (
    ACCEPT_SPARSE_CONSTRAINTS,
    SEED_CONSTRAINTS,
    densify_asked,
    ranker_allows_nan,
    ranker_takes_sparse,
    resolve_rankers,
    run_ranker,
)
from .stability_selection import _fresh_seed, check_rankers_task

__all__ = ["BorutaSelector", "BORUTA_TESTS", "BORUTA_CORRECTIONS", "boruta_decide",
           "DEFAULT_BORUTA_RANKERS", "sparse_shadows"]

#: The ranker of :class:`BorutaSelector` with ``ranker=None``, per task: a random forest's
#: impurity importances, a classifier for class labels, a regressor for a numeric target
#: (the paper's random forest in either mode).
DEFAULT_BORUTA_RANKERS = {"classification": "random_forest",
                          "regression": "random_forest_regressor"}

#: The hit tests of :func:`boruta_decide`.
BORUTA_TESTS = ("two_sided", "tails")
#: The multiple-testing corrections of :func:`boruta_decide`.
BORUTA_CORRECTIONS = ("bonferroni", "two_step")


def _bh(pvals: np.ndarray, alpha: float) -> np.ndarray:
    """Benjamini–Hochberg: which p-values are rejected at FDR ``alpha``."""
    m = pvals.shape[0]
    if m == 0:
        return np.zeros(0, dtype=bool)
    order = np.argsort(pvals, kind="stable")
    below = pvals[order] <= alpha * np.arange(1, m + 1) / m
    out = np.zeros(m, dtype=bool)
    if below.any():
        out[order[: int(np.flatnonzero(below).max()) + 1]] = True
    return out


def boruta_decide(decision: np.ndarray, hits: np.ndarray, n_iter: int, *, alpha: float = 0.05,
                  test: str = "two_sided", correction: str = "bonferroni") -> np.ndarray:
    """One round of Boruta's tests: the new decisions after ``n_iter`` iterations.

    Parameters
    ----------
    decision : ndarray of int
        Per feature: 1 confirmed, −1 rejected, 0 undecided (not modified).
    hits : ndarray of int
        Hits of each feature so far.
    n_iter : int
        Iterations so far (the binomial's number of trials).
    alpha : float, default 0.05
        The level.
    test : {"two_sided", "tails"}, default "two_sided"
        As the module docstring.
    correction : {"bonferroni", "two_step"}, default "bonferroni"
        As the module docstring.

    Returns
    -------
    ndarray of int
        The decisions after the tests (only undecided features change).

    Examples
    --------
    >>> import numpy as np
    >>> boruta_decide(np.zeros(3, int), np.array([10, 5, 0]), 10).tolist()
    [1, 0, -1]
    """
    validate_params({"alpha": [Interval("real", 0, 1, closed="right")],
                     "test": [Options(*BORUTA_TESTS)],
                     "correction": [Options(*BORUTA_CORRECTIONS)],
                     "n_iter": [Interval("int", 1, None)]},
                    {"alpha": alpha, "test": test, "correction": correction, "n_iter": n_iter})
    decision = np.asarray(decision, dtype=np.int64)
    hits = np.asarray(hits, dtype=np.int64)
    if decision.shape != hits.shape or decision.ndim != 1:
        raise ValueError(f"decision and hits must be 1-D of one length, got shapes "
                         f"{decision.shape} and {hits.shape}")
    if ((hits < 0) | (hits > n_iter)).any():
        raise ValueError(f"hits must lie in 0…n_iter={n_iter}")
    out = decision.copy()
    active = np.flatnonzero(decision >= 0)
    h = hits[active]
    upper = stats.binom.sf(h - 1, n_iter, 0.5)  # P(X ≥ h)
    lower = stats.binom.cdf(h, n_iter, 0.5)  # P(X ≤ h)
    if test == "two_sided":
        two = np.minimum(1.0, 2.0 * np.minimum(upper, lower))
        accept_p = np.where(2 * h > n_iter, two, 1.0)
        reject_p = np.where(2 * h < n_iter, two, 1.0)
    else:
        accept_p, reject_p = upper, lower
    undecided = decision[active] == 0
    if correction == "bonferroni":
        level = alpha / max(1, int(undecided.sum()))
        accept = accept_p <= level
        reject = reject_p <= level
    else:
        accept = _bh(accept_p, alpha) & (accept_p <= alpha / n_iter)
        reject = _bh(reject_p, alpha) & (reject_p <= alpha / n_iter)
    out[active[undecided & accept]] = 1
    out[active[undecided & reject & ~accept]] = -1
    return out


def _check_ranker(ranker):
    items = resolve_rankers([ranker])
    return items[0]


def _greedy_name(ranker) -> str | None:
    """The registered name of ``ranker`` when its scores are greedy selection positions
    (registry tag ``greedy``), else None."""
    from ..rankers import available_rankers, ranker_info

    name = None
    if isinstance(ranker, str):
        name = ranker
    elif isinstance(ranker, tuple) and len(ranker) == 2 and isinstance(ranker[0], str):
        name = ranker[0]
    elif callable(ranker) and not hasattr(ranker, "fit"):
        for n in available_rankers():  # the registered function itself
            if ranker_info(n).func is ranker:
                name = n
                break
    if name is None:
        return None
    try:
        entry = ranker_info(name)
    except ValueError:  # an unknown name: resolve_rankers says so
        return None
    return entry.name if entry.tags.get("greedy", False) else None


def _refuse_greedy(ranker, task: str) -> None:
    """Refuse a ranker whose scores are positions of a greedy selection order: ties (every
    uninformative column, real or shadow) go to the lower index, so the real columns, which
    come first, always outrank their shadows and every feature would be confirmed."""
    name = _greedy_name(ranker)
    if name is None:
        return
    from ..rankers import available_rankers, ranker_info, ranker_tasks

    able = [n for n in available_rankers() if task in ranker_tasks(n)
            and not ranker_info(n).tags.get("greedy", False)
            and not ranker_info(n).tags.get("multilist", False)]
    raise ValueError(
        f"BorutaSelector: ranker {name!r} cannot be used: its scores are positions in a "
        "greedy selection order (p − position, ties to the lower column), so the real "
        "features, which come before their shadows, always outrank them and every feature "
        "would be confirmed; use a ranker that gives a relevance score, e.g. "
        f"{', '.join(able)} (ranker=None: the random forest)")


def sparse_shadows(real, rng):
    """The shadows of a sparse ``real`` (CSC): every column's rows permuted independently,
    the permutations those of ``rng.permuted(real.toarray(), axis=0)`` (one
    ``rng.permutation(n)`` per column, in column order: Fisher–Yates draws do not depend on
    the values), so a sparse fit shuffles exactly as the dense one; never made dense.

    Parameters
    ----------
    real : scipy.sparse.csc_matrix of shape (n, m)
        The features in play.
    rng : numpy.random.Generator
        The iteration's stream.

    Returns
    -------
    scipy.sparse.csc_matrix of shape (n, m)
        ``shadow[i, j] = real[perm_j[i], j]``.
    """
    import scipy.sparse as sp

    n, m = real.shape
    indices = np.empty_like(real.indices)
    for j in range(m):
        perm = rng.permutation(n)
        inverse = np.empty(n, dtype=np.int64)
        inverse[perm] = np.arange(n)
        lo, hi = real.indptr[j], real.indptr[j + 1]
        indices[lo:hi] = inverse[real.indices[lo:hi]]
    out = sp.csc_matrix((real.data.copy(), indices, real.indptr.copy()), shape=(n, m))
    out.sort_indices()
    return out


class BorutaSelector(SelectorMixin, BaseEstimator):
    """Boruta all-relevant feature selection (Kursa & Rudnicki 2010) over any importance
    ranker.

    The algorithm, its tests and its departures from BorutaPy are in
    :mod:`rankfusion.selection.boruta`.

    Parameters
    ----------
    ranker : None, str, (name, params) pair, score function or estimator, default=None
        One ranker giving one importance per column (higher = more important): a registered
        name of :func:`rankfusion.rankers.available_rankers` (``"random_forest"``, 100 trees
        by default; ``("random_forest", {"n_estimators": 500})``), a score function
        ``f(X, y)``, or an estimator with ``feature_importances_`` / ``coef_``. A ranker taking
        ``random_state`` gets a seed of its own every iteration. None: the task's random
        forest (:data:`DEFAULT_BORUTA_RANKERS`), ``"random_forest"`` for class labels,
        ``"random_forest_regressor"`` for a numeric target. A ranker whose scores are
        positions of a greedy selection order (registry tag ``greedy``: ``mifs``, ``cfs``,
        ``mrmr_mid``, ``cmim``, …) is refused with a ``ValueError``: its ties go to the lower
        column, so the real features always precede their shadows and all would be
        confirmed.
    max_iter : int, default=100
        Iterations at most.
    alpha : float in (0, 1], default=0.05
        Level of the tests.
    test : {"two_sided", "tails"}, default="two_sided"
        The binomial test of the hit counts.
    correction : {"bonferroni", "two_step"}, default="bonferroni"
        Bonferroni over the undecided features, or BorutaPy's two-step correction.
    perc : float in (0, 100], default=100
        A hit beats this percentile of the shadow importances (numpy's linear
        interpolation, as BorutaPy's ``perc``): 100 is the maximum, the paper's rule; a lower
        one is more liberal.
    random_state : None, int, SeedSequence or Generator, default=None
        Root of the shadows' and the ranker's child streams (docs/design.md, 'Seeds').
    progress : bool, default=False
        A progress bar of the iterations on standard error.
    task : {"auto", "classification", "regression"}, default="auto"
        What ``y`` is (docs/design.md, 'Tasks'): ``"auto"`` takes a non-integer float target
        as regression and refuses a whole-number one with many distinct values; an explicit
        task is honoured. With regression a registered ranker must support it (a
        classification-only one is refused naming it and the regression rankers; a function
        or estimator needs ``task="regression"`` explicitly); the shadows and tests are the
        same.
    accept_sparse : {False, "densify"}, default=False
        A scipy.sparse ``X`` is never densified without being asked (docs/design.md,
        'Sparse input'): a ranker that takes it (``random_forest``, ``f_classif``, …) gets
        the real and shadow columns as one sparse CSC matrix (the shadows permute the stored
        rows, :func:`sparse_shadows`, as the dense shuffle does); any other ranker refuses it
        with a ``TypeError`` naming this option (``False``), or gets a dense copy
        (``"densify"``, after a memory check of the real and shadow columns, ``n × 2p × 8``
        bytes, before any work; a ``MemoryError`` above the limit).

    Attributes
    ----------
    task_ : str
        The resolved task (``classes_`` is None for regression).
    ranker_ : object
        The ranker used (``ranker``, or the task's default).
    support_ : ndarray of bool
        The confirmed features.
    support_weak_ : ndarray of bool
        The tentative features (undecided when the search stopped).
    decision_ : ndarray of str
        ``"confirmed"``, ``"tentative"`` or ``"rejected"`` per feature.
    decision_iteration_ : ndarray of int
        The iteration at which each feature was decided (0: tentative).
    hits_ : ndarray of int
        Hits of each feature (over the iterations it took part in).
    n_iter_ : int
        Iterations run.
    importance_history_ : ndarray of shape (n_iterations, n_features)
        The importances of each iteration (NaN once a feature is rejected).
    shadow_max_history_ : ndarray of shape (n_iterations,)
        The largest shadow importance of each iteration (the ``perc`` percentile).
    ranking_ : ndarray of int
        1 confirmed, 2 tentative, then 3, 4, … for the rejected features: rejected later
        first, then by higher median importance, then the lower index.
    n_features_ : int
        The number confirmed.
    classes_, n_features_in_, feature_names_in_ : as in scikit-learn

    References
    ----------
    Kursa, M. B. & Rudnicki, W. R. (2010), Feature selection with the Boruta package, Journal
    of Statistical Software 36(11), 1–13.

    Examples
    --------
    >>> import numpy as np
    >>> from rankfusion.selection import BorutaSelector
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 60)
    >>> X = rng.normal(size=(120, 8)); X[:, :2] += 2.0 * y[:, None]
    >>> sel = BorutaSelector(("random_forest", {"n_estimators": 20}), max_iter=20,
    ...                      random_state=0).fit(X, y)
    >>> np.flatnonzero(sel.support_).tolist()
    [0, 1]
    """

    def __init__(self, ranker=None, max_iter=100, alpha=0.05, test="two_sided",
                 correction="bonferroni", perc=100, random_state=None, progress=False,
                 task="auto", accept_sparse=False):
        self.ranker = ranker
        self.task = task
        self.accept_sparse = accept_sparse
        self.max_iter = max_iter
        self.alpha = alpha
        self.test = test
        self.correction = correction
        self.perc = perc
        self.random_state = random_state
        self.progress = progress

    #: Every parameter's accepted values (docs/design.md, 'Parameters').
    _parameter_constraints = {
        "ranker": [None, Check(lambda v: isinstance(v, str) or callable(v) or hasattr(v, "fit")
                         or (isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], str)),
                         "a ranker (a registered name, a (name, params) pair, a score "
                         "function or an estimator)", toml="str")],
        "max_iter": [Interval("int", 1, None)],
        "alpha": [Interval("real", 0, 1, closed="right")],
        "test": [Options(*BORUTA_TESTS)],
        "correction": [Options(*BORUTA_CORRECTIONS)],
        "perc": [Interval("real", 0, 100, closed="right")],
        "random_state": SEED_CONSTRAINTS,
        "progress": [Boolean()],
        "task": [Options(*TASKS)],
        "accept_sparse": ACCEPT_SPARSE_CONSTRAINTS,
    }

    def _rankers_for(self, task=None) -> list:
        """``[ranker]``, or the default of ``task`` (both defaults when it is unknown)."""
        if self.ranker is not None:
            return [self.ranker]
        if task in DEFAULT_BORUTA_RANKERS:
            return [DEFAULT_BORUTA_RANKERS[task]]
        return list(DEFAULT_BORUTA_RANKERS.values())

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        # with ranker=None and task="auto" both defaults must take it (the task is the data's)
        task = self.task if self.task in DEFAULT_BORUTA_RANKERS else None
        chosen = self._rankers_for(task)
        tags.input_tags.allow_nan = all(ranker_allows_nan(r) for r in chosen)
        tags.input_tags.sparse = (all(ranker_takes_sparse(r) for r in chosen)
                                  or densify_asked(self.accept_sparse))
        return tags

    def fit(self, X, y):
        """Run Boruta on ``X`` (numeric) and the target ``y``.

        Parameters
        ----------
        X : array-like or scipy.sparse matrix of shape (n_samples, n_features)
            Numeric features (NaN only for a ranker that takes it).
        y : array-like of shape (n_samples,)
            Class labels (at least two classes), or a numeric target (``task``).

        Returns
        -------
        BorutaSelector
        """
        validate_params(self._parameter_constraints, self.get_params(deep=False))
        sparse = is_sparse(X)
        known = self.task if self.task != "auto" else None
        allow_nan = all(ranker_allows_nan(r) for r in self._rankers_for(known))
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2,
                             accept_sparse="csc" if sparse else False,
                             ensure_all_finite="allow-nan" if allow_nan else True)
        self.task_ = resolve_task(y, self.task)
        self.ranker_ = self._rankers_for(self.task_)[0]
        _refuse_greedy(self.ranker_, self.task_)
        spec = _check_ranker(self.ranker_)
        check_rankers_task([self.ranker_], self.task_, self.task, who="BorutaSelector")
        if sparse and not spec.takes_sparse:
            if not densify_asked(self.accept_sparse):
                raise sparse_refusal(f"BorutaSelector's ranker {spec.name}")
            # the real and the shadow columns, dense, before any work
            check_dense_size((X.shape[0], 2 * X.shape[1]), what="dense with its shadows")
            X = densify(X)
            sparse = False
        if self.task_ == "regression":
            codes = check_regression_target(y, name="y")
            self.classes_ = None
        else:
            self.classes_, codes = class_codes(y, self.task)
            # many classes (asked for, or text labels whose codes look like numbers): labels
            # the rankers take, in code order (a no-op for the usual few classes)
            codes = as_class_labels(codes)
        n, p = X.shape
        T = int(self.max_iter)
        shuffle_seq, rank_seq = spawn(_fresh_seed(self.random_state), 2)
        shuffle_seqs, rank_seqs = shuffle_seq.spawn(T), rank_seq.spawn(T)
        decision = np.zeros(p, dtype=np.int64)
        decided_at = np.zeros(p, dtype=np.int64)
        hits = np.zeros(p, dtype=np.int64)
        history = np.full((T, p), np.nan)
        shadow_max = np.empty(T)
        bar = progress_bar(T, "Boruta", "iterations", enabled=bool(self.progress))
        t = 0
        while t < T and (decision == 0).any():
            active = np.flatnonzero(decision >= 0)
            real = X[:, active]
            rng = np.random.default_rng(shuffle_seqs[t])
            if sparse:  # the same permutations as the dense shuffle, kept sparse
                import scipy.sparse as sp

                extended = sp.hstack([real, sparse_shadows(real, rng)], format="csc")
            else:
                extended = np.hstack([real, rng.permuted(real, axis=0)])
            m = active.shape[0]
            imp = run_ranker(spec, extended, codes, rank_seqs[t], 2 * m,
                             f"{spec.name}@it{t + 1}")
            if isinstance(imp, RankedLists):
                raise TypeError(f"ranker {spec.name!r} returned several lists; Boruta needs one "
                                "importance per column")
            top = float(imp[m:].max() if self.perc == 100 else np.percentile(imp[m:],
                                                                             self.perc))
            history[t, active] = imp[:m]
            shadow_max[t] = top
            hits[active[imp[:m] > top]] += 1
            t += 1
            new = boruta_decide(decision, hits, t, alpha=float(self.alpha), test=self.test,
                                correction=self.correction)
            decided_at[(new != 0) & (decision == 0)] = t
            decision = new
            if bar is not None:
                bar.update(1)
        if bar is not None:
            bar.close()
        self.n_iter_ = t
        self.importance_history_ = history[:t]
        self.shadow_max_history_ = shadow_max[:t]
        self.hits_ = hits
        self.decision_iteration_ = np.where(decision == 0, 0, decided_at)
        self.decision_ = np.array(["rejected", "tentative", "confirmed"],
                                  dtype=object)[decision + 1]
        self.support_ = decision == 1
        self.support_weak_ = decision == 0
        self.n_features_ = int(self.support_.sum())
        ranking = np.where(decision == 1, 1, 2).astype(np.int64)
        rejected = np.flatnonzero(decision == -1)
        if rejected.shape[0]:
            med = np.nanmedian(self.importance_history_[:, rejected], axis=0)
            order = rejected[np.lexsort((rejected, -med, -decided_at[rejected]))]
            ranking[order] = np.arange(3, 3 + order.shape[0])
        self.ranking_ = ranking
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_
