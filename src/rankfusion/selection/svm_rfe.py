"""``SVMRFE``: multiclass SVM-RFE with list combination as a scikit-learn selector
(Izetta et al. 2017; GUIDE §5)."""

from __future__ import annotations

import numbers
import warnings

import numpy as np
from sklearn.base import BaseEstimator, clone
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from ..aggregation import aggregate, available_methods
from ..aggregation._registry import get_rule
from ..lists import RankedLists
from ..rankers import joint_rfe, rfe_lists, rfe_schedule
from ..rankers.rfe import check_step

__all__ = ["SVMRFE", "C_GRID"]

#: The C values searched by ``C="cv"`` (Izetta et al. §3.1: 10^-3 … 10^3).
C_GRID = tuple(10.0 ** k for k in range(-3, 4))

_DECOMPOSITIONS = ("ovo", "ova", "crammer_singer", "weston_watkins")


class SVMRFE(SelectorMixin, BaseEstimator):
    """Multiclass SVM-RFE with list combination (Izetta, Verdes & Granitto 2017).

    The multiclass problem is decomposed into binary ones — one-vs-one (``"ovo"``, c(c−1)/2
    problems, each on its two classes' samples) or one-vs-all (``"ova"``, c problems) — SVM-RFE
    (Guyon et al. 2002) ranks all features on each, and an aggregation rule of
    :func:`rankfusion.aggregate` combines the lists (K-First by default, the paper's best).
    ``aggregation="average"`` is the usual baseline instead: *one joint* RFE whose criterion is
    the mean ``|w_ij|`` over the binary problems (Zhou & Tuck 2007's OVO). The MSVM-RFE
    baselines run one joint RFE on a multiclass linear SVM with criterion ``Σ_k w_ki²``:
    ``decomposition="crammer_singer"`` (scikit-learn's ``LinearSVC``) or
    ``"weston_watkins"`` (our solver). Two classes give one binary problem whose ranking is used
    as it is, whatever ``aggregation`` says (with the MSVM decompositions too: two classes are
    one binary SVM).

    RFE schedule (Izetta §3.1): while ``n ≥ step_until`` features remain remove
    ``max(1, ⌊step·n⌋)``, then one at a time; an integer ``step`` removes that many each time.
    Features leave in ascending order of the criterion (ties: the lower index first); the reverse
    elimination order is each list's full ranking.

    Parameters
    ----------
    decomposition : {"ovo", "ova", "crammer_singer", "weston_watkins"}, default="ovo"
    aggregation : str, default="kfirst"
        Any rule of :func:`rankfusion.available_methods`, or ``"average"`` (joint RFE on mean
        ``|w|``). Ignored for the MSVM decompositions and for binary data.
    n_features_to_select : None, int, float or "cv", default=None
        None keeps half (as scikit-learn's ``RFE``); an int is a count (capped at the number of
        features); a float in (0, 1] a fraction (``max(1, int(f·p))``); ``"cv"`` chooses the
        size by cross-validation like ``RFECV``: on each of ``cv`` stratified folds the ranking
        is recomputed on the training part and a linear ``SVC`` (same C) is scored on the top-k
        features of the held-out part, for every size the RFE schedule visits; the best mean
        accuracy wins, ties to the smaller size (:attr:`cv_results_`).
    C : float or "cv", default=1.0
        The SVM's C. ``"cv"``: stratified 5-fold CV accuracy of a linear ``SVC`` on the training
        data over 10^-3 … 10^3 (Izetta §3.1), ties to the smaller C (:attr:`C_`).
    step : int or float, default=0.1
    step_until : int, default=20
    estimator : estimator with ``coef_``, default=None
        Replaces the built-in binary SVM (OVO/OVA), refitted on each iteration's features.
    n_jobs : int, default=None
        Binary problems in parallel (joblib).
    aggregation_params : dict, default=None
        Parameters of the rule (e.g. ``{"k": 0.1}`` for K-First).
    class_weight : None, "balanced" or dict, default=None
        Passed to the SVM(s), as ``SVC(class_weight=...)``.
    cv : int, default=5
        Folds of ``n_features_to_select="cv"`` and ``C="cv"``.
    tol : float, default=1e-3
        Tolerance of the dual SVM solver (libsvm's default); of Weston–Watkins' coordinate
        descent (there 1e-3 too).
    warm_start : bool, default=False
        Warm-start each RFE iteration's dual from the previous one (faster; cold starts
        reproduce ``RFE(SVC(kernel="linear"))`` exactly).
    random_state : int or None, default=None
        Seeds the only randomness: liblinear's Crammer–Singer solver (None → 0).
    verbose : bool, default=False
        A tqdm progress bar over the binary problems (OVO/OVA lists).

    Attributes
    ----------
    ranking_ : ndarray of int, shape (n_features,)
        Consensus position of each feature, 1 = best (full, no ties).
    support_ : ndarray of bool
        The ``n_features_`` best features.
    n_features_ : int
    lists_ : RankedLists
        One full ranking per binary problem (``"A_vs_B"``, ``"A_vs_rest"``); for the joint
        baselines the single joint ranking.
    rfe_results_ : list of RFEResult
        The runs behind :attr:`lists_`, with each iteration's weights (``weights``,
        ``weights_matrix()``) and the numbers of features fitted and removed.
    consensus_ : Consensus or None
        The aggregation's result (None when no rule was applied).
    classes_ : ndarray
    C_ : float
        The C used.
    cv_results_ : dict
        With ``n_features_to_select="cv"``: ``n_features``, ``mean_test_score``,
        ``std_test_score``, ``split{i}_test_score``.
    C_cv_results_ : dict
        With ``C="cv"``: ``C``, ``mean_test_score``, ``std_test_score``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from rankfusion.selection import SVMRFE
    >>> X, y = load_iris(return_X_y=True)
    >>> sel = SVMRFE(n_features_to_select=2).fit(X, y)
    >>> sel.lists_.list_names.tolist()
    ['0_vs_1', '0_vs_2', '1_vs_2']
    >>> sel.ranking_
    array([4, 3, 1, 2])

    References
    ----------
    Izetta, Verdes & Granitto (2017), Improved multiclass feature selection via list
    combination, Expert Systems with Applications 88:205–216. Guyon, Weston, Barnhill & Vapnik
    (2002), Machine Learning 46:389–422. Zhou & Tuck (2007), Bioinformatics 23:1106–1114.
    """

    def __init__(self, decomposition="ovo", aggregation="kfirst", n_features_to_select=None,
                 C=1.0, step=0.1, step_until=20, estimator=None, n_jobs=None,
                 aggregation_params=None, class_weight=None, cv=5, tol=1e-3,
                 warm_start=False, random_state=None, verbose=False):
        self.decomposition = decomposition
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
        self.tol = tol
        self.warm_start = warm_start
        self.random_state = random_state
        self.verbose = verbose

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.allow_nan = False
        return tags

    # ------------------------------------------------------------------ checks
    def _check_params(self):
        if self.decomposition not in _DECOMPOSITIONS:
            raise ValueError(
                f"decomposition must be one of {list(_DECOMPOSITIONS)}, got {self.decomposition!r}"
            )
        if not isinstance(self.aggregation, str):
            raise TypeError(f"aggregation must be a rule name, got {self.aggregation!r}")
        if self.aggregation != "average":
            get_rule(self.aggregation)  # unknown names list the known ones
        if self.aggregation_params is not None and not isinstance(self.aggregation_params, dict):
            raise TypeError("aggregation_params must be a dict or None")
        check_step(self.step, self.step_until)
        n = self.n_features_to_select
        if n is not None and not (isinstance(n, str) and n == "cv"):
            if isinstance(n, bool) or not isinstance(n, numbers.Real):
                raise TypeError(
                    f"n_features_to_select must be None, an int, a float or 'cv', got {n!r}")
            if isinstance(n, numbers.Integral):
                if n < 1:
                    raise ValueError(f"n_features_to_select must be ≥ 1, got {n}")
            elif not 0.0 < n <= 1.0:
                raise ValueError(f"a float n_features_to_select must lie in (0, 1], got {n}")
        if not (isinstance(self.C, str) and self.C == "cv"):
            if isinstance(self.C, bool) or not isinstance(self.C, numbers.Real) or self.C <= 0:
                raise ValueError(f"C must be a positive number or 'cv', got {self.C!r}")
        if isinstance(self.tol, bool) or not isinstance(self.tol, numbers.Real) or not (
                np.isfinite(self.tol) and self.tol > 0):
            raise ValueError(f"tol must be a positive finite number, got {self.tol!r}")
        if isinstance(self.cv, bool) or not isinstance(self.cv, numbers.Integral) or self.cv < 2:
            raise ValueError(f"cv must be an int ≥ 2, got {self.cv!r}")
        if self.estimator is not None and self.decomposition not in ("ovo", "ova"):
            raise ValueError("estimator= applies to the ovo and ova decompositions only")

    # ------------------------------------------------------------------ core
    def _rank(self, X, y, C, feature_names):
        """(ranking, lists, results, consensus) for data X, y at this C."""
        rs = 0 if self.random_state is None else self.random_state
        n_classes = np.unique(y).shape[0]
        common = dict(C=C, step=self.step, step_until=self.step_until,
                      class_weight=self.class_weight, tol=self.tol, keep_weights=True)
        p = X.shape[1]
        if self.decomposition in ("crammer_singer", "weston_watkins") and n_classes > 2:
            res = joint_rfe(X, y, criterion=self.decomposition, random_state=rs, **common)
            lists = RankedLists.from_scores((p - res.ranking)[:, None].astype(np.float64),
                                            ties="ordinal", features=feature_names,
                                            list_names=[res.name])
            return res.ranking, lists, [res], None
        decomposition = self.decomposition if self.decomposition in ("ovo", "ova") else "ovo"
        if self.aggregation == "average" and n_classes > 2:
            res = joint_rfe(X, y, criterion="average", decomposition=decomposition,
                            estimator=self.estimator, warm_start=self.warm_start, **common)
            lists = RankedLists.from_scores((p - res.ranking)[:, None].astype(np.float64),
                                            ties="ordinal", features=feature_names,
                                            list_names=["average"])
            return res.ranking, lists, [res], None
        bar = None
        if self.verbose:
            from tqdm.auto import tqdm

            m = n_classes * (n_classes - 1) // 2 if decomposition == "ovo" else n_classes
            bar = tqdm(total=1 if n_classes == 2 else m, desc="SVM-RFE", unit="problem")
        lists, results = rfe_lists(X, y, decomposition=decomposition, estimator=self.estimator,
                                   n_jobs=self.n_jobs, feature_names=feature_names,
                                   warm_start=self.warm_start,
                                   progress=None if bar is None else (lambda r: bar.update(1)),
                                   **common)
        if bar is not None:
            bar.close()
        if len(results) == 1:
            return results[0].ranking.copy(), lists, results, None
        cons = aggregate(lists, self.aggregation, **(self.aggregation_params or {}))
        return cons.ranks.astype(np.int64), lists, results, cons

    def _n_select(self, p):
        n = self.n_features_to_select
        if n is None:
            return max(1, p // 2)
        if isinstance(n, numbers.Integral):
            return int(min(n, p))
        return max(1, int(n * p))

    def _scorer_model(self, C):
        from sklearn.svm import SVC

        return SVC(kernel="linear", C=C, class_weight=self.class_weight)

    def _choose_C(self, X, y):
        from sklearn.model_selection import StratifiedKFold, cross_val_score

        cv = StratifiedKFold(n_splits=self.cv, shuffle=False)
        means, sds = [], []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            for c in C_GRID:
                s = cross_val_score(self._scorer_model(c), X, y, cv=cv)
                means.append(s.mean())
                sds.append(s.std())
        best = int(np.argmax(np.round(means, 12)))  # first maximum = smallest C
        self.C_cv_results_ = {"C": np.array(C_GRID), "mean_test_score": np.array(means),
                              "std_test_score": np.array(sds)}
        return float(C_GRID[best])

    def _choose_size(self, X, y, C, feature_names):
        from sklearn.model_selection import StratifiedKFold

        p = X.shape[1]
        chunks = rfe_schedule(p, self.step, self.step_until)
        sizes = np.concatenate([[p], p - np.cumsum(chunks)]).astype(np.int64)
        cv = StratifiedKFold(n_splits=self.cv, shuffle=False)
        scores = np.zeros((self.cv, sizes.shape[0]))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            for f, (tr, te) in enumerate(cv.split(X, y)):
                ranking = self._rank(X[tr], y[tr], C, feature_names)[0]
                order = np.argsort(ranking, kind="stable")
                for s, k in enumerate(sizes):
                    cols = order[:k]
                    model = clone(self._scorer_model(C)).fit(X[tr][:, cols], y[tr])
                    scores[f, s] = model.score(X[te][:, cols], y[te])
        mean = scores.mean(axis=0)
        res = {"n_features": sizes, "mean_test_score": mean, "std_test_score": scores.std(axis=0)}
        for f in range(self.cv):
            res[f"split{f}_test_score"] = scores[f]
        self.cv_results_ = res
        best = np.flatnonzero(np.round(mean, 12) == np.round(mean, 12).max())
        return int(sizes[best].min())

    def fit(self, X, y):
        """Rank the features of ``X`` for the classes ``y`` and select the best ones."""
        self._check_params()
        for stale in ("cv_results_", "C_cv_results_"):  # from an earlier fit
            self.__dict__.pop(stale, None)
        X, y = validate_data(self, X, y, dtype=np.float64, ensure_min_samples=2)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        if self.classes_.shape[0] < 2:
            raise ValueError(
                f"y has 1 class ({self.classes_[0]!r}); SVM-RFE needs at least 2 classes")
        names = (list(self.feature_names_in_) if hasattr(self, "feature_names_in_")
                 else [f"x{j}" for j in range(X.shape[1])])
        self.C_ = self._choose_C(X, y) if isinstance(self.C, str) else float(self.C)
        ranking, lists, results, cons = self._rank(X, y, self.C_, names)
        self.ranking_ = ranking
        self.lists_ = lists
        self.rfe_results_ = results
        self.consensus_ = cons
        if isinstance(self.n_features_to_select, str):
            self.n_features_ = self._choose_size(X, y, self.C_, names)
        else:
            self.n_features_ = self._n_select(X.shape[1])
        self.support_ = self.ranking_ <= self.n_features_
        return self

    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_


def _rules_help() -> str:  # used by the CLI
    return ", ".join(["average", *available_methods()])
