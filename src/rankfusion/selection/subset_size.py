"""How many features to keep: a fixed count, K-step, the learning curve, or SVM-RFE's CV.

* **K-step** (robust-FS paper, Algorithm 2): for every k of a grid, the cross-validated accuracy
  of each classifier on the top k features; the k with the highest accuracy of the best
  classifier wins, ties to the smaller k.
* **Learning curve** (Ruiz et al. 2003, §4): features are added in rank order and the prefix with
  the best cross-validated accuracy of the classifier is kept, ties to the shorter prefix.
* **SVM-RFE's CV** (``SVMRFE(n_features_to_select="cv")``, as scikit-learn's ``RFECV``): the
  sizes the elimination visits, a linear SVM's accuracy on each fold.

All three end in one search, :func:`choose_size` (:func:`search_size` from a fold × size score
matrix), which returns a :class:`SubsetCurve`; parsimony is optional there: ``tol`` (the
smallest size within ``tol`` of the best mean) or ``size_rule="one_se"`` (within one standard
error of it, Hastie, Tibshirani & Friedman, *Elements of Statistical Learning*, §7.10).

For a numeric target (``task="regression"``; docs/design.md, 'Tasks') the score of a prefix is a
regressor's: ``scoring="r2"`` (the coefficient of determination ``1 − Σ(y − ŷ)² / Σ(y − ȳ)²``,
the regression analogue of accuracy, what :class:`~rankfusion.EnsembleSelector` uses),
``"neg_rmse"`` (``−√(mean (y − ŷ)²)``) or ``"neg_mae"`` (``−mean |y − ŷ|``), each negated where
lower is better so that every search maximises; the folds are then plain shuffled K-fold (no
strata: every value is its own "class").

The selectors' searches are computed on the data given to ``fit`` only. By default the ranking
behind each fold's top k is recomputed on that fold's training part (``"nested"``), so the
held-out part never reaches the ranking; ``"ranked_once"`` ranks once on all the fit data and
cross-validates the classifiers on its prefixes, the papers' reading, which is cheaper but
optimistic (the held-out rows took part in the ranking).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._utils.constraints import Interval, Options, validate_params

__all__ = ["SubsetCurve", "SIZE_RULES", "SIZE_CONSTRAINTS", "PREFIX_SCORINGS", "k_step_grid",
           "learning_curve_grid", "evaluate_prefixes", "choose_size", "search_size",
           "check_size_rule", "STABILITY_RULE_PARAMS", "parse_stability_rule", "parse_fdr_rule"]


def k_step_grid(p: int, *, dense_until: int = 50, n_log: int = 20) -> np.ndarray:
    """The default K-step grid: every k from 1 to ``min(p, dense_until)``, then ``n_log``
    log-spaced sizes up to p (rounded, duplicates dropped, p always included)."""
    dense = np.arange(1, min(p, dense_until) + 1)
    if p <= dense_until:
        return dense
    logs = np.unique(np.round(np.geomspace(dense_until, p, n_log + 1)).astype(int))
    return np.unique(np.concatenate([dense, logs[logs > dense_until], [p]]))


def learning_curve_grid(p: int) -> np.ndarray:
    """The default learning-curve grid: every prefix 1…p up to p = 100 (Ruiz et al. add the
    features one at a time); beyond 100 features, every prefix up to 100 and then 30
    log-spaced sizes up to p, so a wide data set does not cost p fits per fold."""
    return k_step_grid(p, dense_until=100, n_log=30)


#: The size rules of :func:`choose_size` (and ``size_rule=`` of the selectors).
SIZE_RULES = ("best", "one_se")

#: The declared constraints of ``tol`` and ``size_rule`` (docs/design.md, 'Parameters'); the
#: selectors declare the same lists under their own names.
SIZE_CONSTRAINTS = {"tol": [Interval("real", 0, None), None],
                    "size_rule": [Options(*SIZE_RULES)]}


#: The scores :func:`evaluate_prefixes` computes: a classifier's accuracy, or a regressor's R²,
#: −RMSE or −MAE (higher is better for each).
PREFIX_SCORINGS = ("accuracy", "r2", "neg_rmse", "neg_mae")


def prediction_score(scoring: str, y_true, y_pred) -> float:
    """One of :data:`PREFIX_SCORINGS` of predictions ``y_pred`` of ``y_true``, higher is
    better: accuracy, R² ``1 − Σ(y − ŷ)² / Σ(y − ȳ)²`` (ȳ the test part's mean; a constant
    test part gives 1 if perfect, else 0, as scikit-learn's ``r2_score``), −RMSE or −MAE.

    Parameters
    ----------
    scoring : {"accuracy", "r2", "neg_rmse", "neg_mae"}
    y_true, y_pred : array-like of shape (n,)

    Returns
    -------
    float
    """
    if scoring == "accuracy":
        return float(np.mean(y_pred == y_true))
    y_true = np.asarray(y_true, dtype=np.float64)
    resid = y_true - np.asarray(y_pred, dtype=np.float64)
    if scoring == "neg_rmse":
        return -float(np.sqrt(np.mean(resid ** 2)))
    if scoring == "neg_mae":
        return -float(np.mean(np.abs(resid)))
    tot = float(np.sum((y_true - y_true.mean()) ** 2))
    ss = float(np.sum(resid ** 2))
    # scikit-learn's r2_score convention for a constant test part: 1 if perfect, else 0
    return (1.0 if ss == 0 else 0.0) if tot == 0 else 1.0 - ss / tot


@dataclass(frozen=True)
class SubsetCurve:
    """Cross-validated accuracy of each classifier on each candidate subset size, and the size
    chosen from it.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    curve : DataFrame
        One row per (k, estimator), k ascending: ``k``, ``estimator``, ``mean``, ``sd``
        (ddof = 1 over the folds, 0 with one fold) and ``fold0 …`` accuracies.
    n_features : int
        The chosen k: the smallest k whose score reaches :attr:`threshold`.
    estimator : str
        The estimator whose accuracy decided at the chosen k (the best one there).
    accuracy : float
        Its mean accuracy at the chosen k.
    method : str
        The search: ``"k-step"``, ``"learning-curve"`` (:class:`EnsembleSelector`) or ``"cv"``
        (:class:`SVMRFE`, ``n_features_to_select="cv"``).
    rule : str
        How k was chosen from the scores: ``"best"`` (the highest mean), ``"tol"`` (the
        smallest k within :attr:`tol` of the highest mean) or ``"one_se"`` (the smallest k
        within one standard error of it).
    tol : float or None
        The tolerance of ``rule="tol"``.
    best_n_features : int or None
        The k with the highest mean (what ``rule="best"`` chooses).
    best_accuracy : float or None
        That highest mean.
    threshold : float or None
        The lowest score accepted: the highest mean, minus :attr:`tol` (``"tol"``) or minus
        the standard error of the best k (``"one_se"``).
    """

    curve: pd.DataFrame
    n_features: int
    estimator: str
    accuracy: float
    method: str
    rule: str = "best"
    tol: float | None = None
    best_n_features: int | None = None
    best_accuracy: float | None = None
    threshold: float | None = None

    @property
    def n_folds(self) -> int:
        """The number of folds behind each mean (the ``fold`` columns of :attr:`curve`)."""
        return len(_fold_columns(self.curve))

    @property
    def by_size(self) -> pd.DataFrame:
        """One row per k: the deciding estimator (the best at that k, ties to the earlier one),
        its ``mean``, ``sd`` and ``se`` = sd / √n_folds, and ``chosen`` (True at
        :attr:`n_features`)."""
        return _per_size(self.curve).assign(chosen=lambda d: d["k"] == self.n_features)


def _fold_columns(curve: pd.DataFrame) -> list[str]:
    return [c for c in curve.columns if isinstance(c, str) and c.startswith("fold")
            and c[4:].isdigit()]


def _per_size(curve: pd.DataFrame) -> pd.DataFrame:
    """The deciding estimator of every k (its first maximum of ``mean``), k ascending."""
    n_folds = len(_fold_columns(curve))
    rows = []
    for k, part in curve.groupby("k", sort=True):
        i = int(np.argmax(part["mean"].to_numpy()))  # first maximum: earlier estimator
        sd = float(part["sd"].iloc[i]) if "sd" in part else float("nan")
        rows.append({"k": int(k), "estimator": str(part["estimator"].iloc[i]),
                     "mean": float(part["mean"].iloc[i]), "sd": sd,
                     "se": sd / np.sqrt(n_folds) if n_folds else float("nan")})
    return pd.DataFrame(rows, columns=["k", "estimator", "mean", "sd", "se"])


def _curve_frame(grid, names, acc: np.ndarray) -> pd.DataFrame:
    """The curve of :class:`SubsetCurve` from accuracies ``acc[size, estimator, fold]``."""
    rows = []
    for g, k in enumerate(grid):
        for e, name in enumerate(names):
            a = acc[g, e]
            row = {"k": int(k), "estimator": name, "mean": float(a.mean()),
                   "sd": float(a.std(ddof=1)) if a.shape[0] > 1 else 0.0}
            row.update({f"fold{f}": float(a[f]) for f in range(a.shape[0])})
            rows.append(row)
    return pd.DataFrame(rows)


def evaluate_prefixes(X, y, folds, orders, estimators: dict, grid, *,
                      scoring: str | None = None, task: str | None = None) -> pd.DataFrame:
    """Accuracy (or a regression score) of every estimator on every prefix of the grid, fold by
    fold.

    Parameters
    ----------
    X : ndarray or DataFrame, y : ndarray
    folds : list of (train, test) index arrays
    orders : list of ndarray
        For each fold, the feature indices best first, ranked on that fold's training part (or
        the same order for every fold).
    estimators : dict name → classifier
        Each is wrapped by :func:`~rankfusion.selection.estimators.classifier_pipeline` for
        the encoding its columns need (nominal columns, missing values).
    grid : sequence of int
    scoring : {"accuracy", "r2", "neg_rmse", "neg_mae"}, optional
        The score of a prefix on a test part (:data:`PREFIX_SCORINGS`; higher is better):
        the classifiers' accuracy, or for regressors and a numeric ``y`` the R²
        (``1 − Σ(y − ŷ)² / Σ(y − ȳ)²``; scikit-learn's ``r2_score``), −RMSE or −MAE.
        Default: ``"r2"`` when the task is regression, else ``"accuracy"``.
    task : {None, "auto", "classification", "regression"}, default None
        What ``y`` is (docs/design.md, 'Tasks'). None: the task of ``scoring`` (accuracy:
        classification; the others: regression), ``y`` taken as given. A task is resolved
        from ``y`` by :func:`~rankfusion._utils.task.resolve_task` (``"auto"`` refuses a
        whole-number target with many distinct values; an explicit task is honoured) and
        must agree with ``scoring``: a ``ValueError`` names both otherwise.

    Returns
    -------
    DataFrame with ``k``, ``estimator``, ``mean``, ``sd``, ``fold0 …``.
    """
    from .estimators import classifier_pipeline

    if task is not None:
        from .._utils.task import as_class_labels, check_regression_target, resolve_task

        task = resolve_task(y, task)
        y = (np.asarray(as_class_labels(y)) if task == "classification"
             else check_regression_target(y, name="y"))
    if scoring is None:
        scoring = "r2" if task == "regression" else "accuracy"
    validate_params({"scoring": [Options(*PREFIX_SCORINGS)]}, {"scoring": scoring})
    if task is not None and (scoring == "accuracy") != (task == "classification"):
        kind = "a classification" if scoring == "accuracy" else "a regression"
        raise ValueError(f"scoring={scoring!r} is {kind} score, but the task is {task}: "
                         + ("give scoring='accuracy'" if task == "classification" else
                            "give scoring='r2', 'neg_rmse' or 'neg_mae'"))
    frame = isinstance(X, pd.DataFrame)
    grid = [int(k) for k in grid]
    acc = np.zeros((len(grid), len(estimators), len(folds)))
    for f, ((train, test), order) in enumerate(zip(folds, orders)):
        for g, k in enumerate(grid):
            cols = np.asarray(order[:k])
            if frame:
                Xtr, Xte = X.iloc[train, cols], X.iloc[test, cols]
            else:
                Xtr, Xte = X[np.ix_(train, cols)], X[np.ix_(test, cols)]
            for e, est in enumerate(estimators.values()):
                model = classifier_pipeline(est, Xtr).fit(Xtr, y[train])
                acc[g, e, f] = prediction_score(scoring, y[test], model.predict(Xte))
    return _curve_frame(grid, list(estimators), acc)


def check_size_rule(tol, size_rule) -> None:
    """A ``ValueError`` unless ``tol`` and ``size_rule`` make one rule of :func:`choose_size`:
    ``tol`` None or a finite number ≥ 0, ``size_rule`` one of :data:`SIZE_RULES`, and not a
    ``tol`` together with ``size_rule="one_se"`` (two margins for one choice).

    Parameters
    ----------
    tol : float or None
        The tolerance.
    size_rule : str
        The rule.
    """
    validate_params(SIZE_CONSTRAINTS, {"tol": tol, "size_rule": size_rule})
    if tol is not None and size_rule == "one_se":
        raise ValueError("tol and size_rule='one_se' are two parsimony rules for one size: "
                         "give tol (with size_rule='best') or size_rule='one_se', not both")




#: The parameters a ``"stability:…"`` subset rule may set (those of
#: :class:`~rankfusion.selection.StabilitySelector` that choose the subset).
STABILITY_RULE_PARAMS = ("q", "threshold", "pfer", "bound", "n_subsamples",
                         "complementary_pairs")


def parse_stability_rule(value) -> dict | None:
    """The parameters of a stability-selection subset rule, or None for any other value.

    ``"stability"`` (the defaults of :class:`~rankfusion.selection.StabilitySelector`) or
    ``"stability:pfer=1,threshold=0.8"`` with parameters of :data:`STABILITY_RULE_PARAMS`;
    their values are checked when the selector is fitted.

    Parameters
    ----------
    value : object
        An ``n_features_to_select``.

    Returns
    -------
    dict or None

    Raises
    ------
    ValueError
        A ``"stability:"`` text with a parameter outside :data:`STABILITY_RULE_PARAMS`, a
        parameter without a value, or one given twice.

    Examples
    --------
    >>> parse_stability_rule("stability:pfer=1,threshold=0.8")
    {'pfer': 1, 'threshold': 0.8}
    >>> parse_stability_rule("k-step") is None
    True
    """
    from .._utils.spec_text import split_spec

    if not isinstance(value, str) or value.split(":", 1)[0].strip() != "stability":
        return None
    _, items = split_spec(value)
    out: dict = {}
    for key, val in items:
        if key is None or key not in STABILITY_RULE_PARAMS:
            raise ValueError(f"n_features_to_select {value!r}: the stability rule takes "
                             f"{', '.join(STABILITY_RULE_PARAMS)} as name=value, got "
                             f"{key if key is not None else val!r}")
        if key in out:
            raise ValueError(f"n_features_to_select {value!r} gives {key} twice")
        out[key] = val
    return out


def parse_fdr_rule(value) -> float | None:
    """The level of a false-discovery-rate subset rule, or None for any other value.

    ``"fdr:0.05"`` keeps the features whose Benjamini–Hochberg q-value
    (:func:`rankfusion.rankers.benjamini_hochberg`) under the ranker's test is at most 0.05,
    for a ranker that gives p-values (:data:`rankfusion.rankers.PVALUE_TESTS`).

    Parameters
    ----------
    value : object
        An ``n_features_to_select``.

    Returns
    -------
    float or None
        The level, in (0, 1).

    Raises
    ------
    ValueError
        An ``"fdr"`` text without a level in (0, 1).

    Examples
    --------
    >>> parse_fdr_rule("fdr:0.05")
    0.05
    >>> parse_fdr_rule("k-step") is None
    True
    """
    if not isinstance(value, str) or value.split(":", 1)[0].strip() != "fdr":
        return None
    text = value.split(":", 1)[1].strip() if ":" in value else ""
    try:
        level = float(text)
    except ValueError:
        level = float("nan")
    if not 0 < level < 1:
        raise ValueError(f"n_features_to_select {value!r}: the FDR rule is 'fdr:<level>' with a "
                         "level in (0, 1), e.g. 'fdr:0.05'")
    return level


def is_fdr_rule(value) -> bool:
    """Whether ``value`` is a valid ``"fdr:<level>"`` rule (:func:`parse_fdr_rule`)."""
    try:
        return parse_fdr_rule(value) is not None
    except ValueError:
        return False


def choose_size(curve: pd.DataFrame, method: str, *, tol=None,
                size_rule: str = "best") -> SubsetCurve:
    """Pick k from a curve: the one subset-size rule of :class:`~rankfusion.SVMRFE` and
    :class:`~rankfusion.EnsembleSelector`.

    At every k the deciding score is the highest mean accuracy over the estimators (ties to
    the earlier estimator; with one estimator, its mean). The *best* k is the one with the
    highest score, ties to the smaller k (robust-FS paper, Algorithm 2; Ruiz et al. 2003,
    §4). The chosen k is the smallest whose score reaches a threshold:

    * ``size_rule="best"``, ``tol=None``: the best score itself, so the chosen k is the best k;
    * ``tol=t``: the best score minus ``t`` (scikit-learn's ``SequentialFeatureSelector``
      calls its margin ``tol`` too), the smallest k within ``t`` of the best;
    * ``size_rule="one_se"``: the best score minus its standard error, sd / √n_folds of the
      best k's folds (sd with ddof = 1), the one-standard-error rule of Hastie, Tibshirani &
      Friedman, *The Elements of Statistical Learning*, §7.10: the most parsimonious k whose
      accuracy is within one standard error of the best.

    Scores are compared rounded to 12 decimals, so means that differ by float noise only tie.

    Parameters
    ----------
    curve : DataFrame
        ``k``, ``estimator``, ``mean`` per row; ``sd`` and ``fold0 …`` columns as
        ``evaluate_prefixes`` gives them (``size_rule="one_se"`` needs them and at least 2
        folds).
    method : str
        The search's name, recorded in the result.
    tol : float or None, default None
        The margin below the best score (≥ 0).
    size_rule : {"best", "one_se"}, default "best"
        ``"one_se"``: the margin is one standard error. Not together with ``tol``.

    Returns
    -------
    SubsetCurve

    Raises
    ------
    ValueError
        On an empty curve, a NaN mean or fold score, ``one_se`` without folds, or an invalid
        ``tol`` / ``size_rule``.
    """
    check_size_rule(tol, size_rule)
    if curve.shape[0] == 0:
        raise ValueError("the curve holds no sizes")
    folds = _fold_columns(curve)
    values = curve[["mean", *folds]].to_numpy(dtype=np.float64)
    if np.isnan(values).any():
        r = int(np.flatnonzero(np.isnan(values).any(axis=1))[0])
        raise ValueError(f"the curve holds a NaN score (k={curve['k'].iloc[r]}, estimator "
                         f"{curve['estimator'].iloc[r]!r}): every fold must be scored")
    if size_rule == "one_se" and (len(folds) < 2 or "sd" not in curve):
        raise ValueError("size_rule='one_se' needs the fold scores of at least 2 folds (its "
                         f"standard error is sd / √n_folds); the curve has {len(folds)}")
    per = _per_size(curve)
    mean = per["mean"].to_numpy()
    key = np.round(mean, 12)
    b = int(np.flatnonzero(key == key.max())[0])  # the smallest best k
    margin = 0.0
    rule = "best"
    if tol is not None:
        margin, rule = float(tol), "tol"
    elif size_rule == "one_se":
        margin, rule = float(per["se"].iloc[b]), "one_se"
    threshold = float(mean[b]) - margin
    c = int(np.flatnonzero(key >= np.round(threshold, 12))[0])
    return SubsetCurve(curve=curve, n_features=int(per["k"].iloc[c]),
                       estimator=str(per["estimator"].iloc[c]), accuracy=float(mean[c]),
                       method=method, rule=rule, tol=None if tol is None else float(tol),
                       best_n_features=int(per["k"].iloc[b]), best_accuracy=float(mean[b]),
                       threshold=threshold)


def search_size(sizes, scores, *, method: str = "cv", tol=None,
                size_rule: str = "best") -> SubsetCurve:
    """Choose a subset size from per-fold scores: the curve of ``evaluate_prefixes``
    built from a fold × size score matrix, then :func:`choose_size`.

    Parameters
    ----------
    sizes : sequence of int
        The candidate sizes (distinct counts ≥ 1, any order; the curve lists them ascending).
    scores : array-like of shape (n_folds, n_sizes), or dict of str → such arrays
        The score of each size on each fold (higher = better); a dict gives one matrix per
        estimator (the first estimator wins ties at a size).
    method : str, default "cv"
        The search's name, recorded in the result.
    tol : float or None, default None
        As :func:`choose_size`.
    size_rule : {"best", "one_se"}, default "best"
        As :func:`choose_size`.

    Returns
    -------
    SubsetCurve

    Raises
    ------
    ValueError
        On sizes that are not distinct counts ≥ 1, scores of another shape, NaN scores, and
        as :func:`choose_size`.

    Examples
    --------
    >>> import numpy as np
    >>> scores = np.array([[0.80, 0.90, 0.92], [0.78, 0.88, 0.93], [0.82, 0.89, 0.91]])
    >>> search_size([1, 5, 20], scores).n_features
    20
    >>> search_size([1, 5, 20], scores, tol=0.05).n_features
    5
    """
    sizes = np.asarray(sizes)
    if sizes.ndim != 1 or sizes.shape[0] == 0 or sizes.dtype.kind not in "iu" or (
            sizes < 1).any() or np.unique(sizes).shape[0] != sizes.shape[0]:
        raise ValueError(f"sizes must be distinct counts ≥ 1, got {sizes.tolist()!r}")
    named = dict(scores) if isinstance(scores, dict) else {"estimator": scores}
    if not named:
        raise ValueError("scores must hold at least one estimator's matrix")
    mats = []
    for name, m in named.items():
        m = np.asarray(m, dtype=np.float64)
        if m.ndim != 2 or m.shape[1] != sizes.shape[0] or m.shape[0] < 1:
            raise ValueError(f"scores of {name!r} must be (n_folds, {sizes.shape[0]}) for "
                             f"{sizes.shape[0]} sizes, got shape {m.shape}")
        if np.isnan(m).any():
            f, s = np.argwhere(np.isnan(m))[0]
            raise ValueError(f"scores of {name!r} hold NaN (fold {f}, size {sizes[s]}): every "
                             "fold must be scored")
        mats.append(m)
    if len({m.shape[0] for m in mats}) != 1:
        raise ValueError("every estimator's scores must have the same number of folds")
    order = np.argsort(sizes, kind="stable")
    acc = np.stack([m[:, order].T for m in mats], axis=1)  # (size, estimator, fold)
    curve = _curve_frame(sizes[order], [str(n) for n in named], np.ascontiguousarray(acc))
    return choose_size(curve, method, tol=tol, size_rule=size_rule)
