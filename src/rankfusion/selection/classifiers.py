"""The papers' classifiers by name (the one classifier registry), and nominal-attribute encoding.

A small registry maps names to factories ``f(random_state) -> estimator`` (unfitted
scikit-learn classifiers). The evaluation protocols accept a name or any classifier object.

========================  =====================================================================
name                      estimator
========================  =====================================================================
``linear_svm``            ``SVC(kernel="linear", C=1)`` — the linear SVM of Izetta et al. (2017)
``smo``                   Weka's ``SMO`` defaults: attributes min–max normalised to [0, 1] on
                          the training part (Weka's ``Normalize``), then ``SVC(kernel="linear",
                          C=1)``; on unnormalised data with large values (gene expression,
                          credit amounts) ``linear_svm``'s solver can take hours
``naive_bayes``           ``GaussianNB()`` (differs from Weka's NaiveBayes on zero-variance
                          attributes)
``tree``                  ``DecisionTreeClassifier(criterion="entropy")`` — unpruned,
                          C4.5-like splits
``knn1``, ``knn3``        ``KNeighborsClassifier(n_neighbors=1 | 3)``
``adaboost``              ``AdaBoostClassifier`` of 10 decision stumps (Weka's AdaBoostM1
                          defaults, robust-FS Table 4)
``knn3_impute``,          ``knn3`` / ``adaboost`` behind Weka's ``ReplaceMissingValues``
``adaboost_impute``       (:class:`~rankfusion.selection.weka_like.ReplaceMissingValues`:
                          training means, modes), fitted on the training part; for data with
                          missing values, which ``knn3`` and ``adaboost`` refuse; on complete
                          data they predict exactly as ``knn3`` and ``adaboost``
``bagging``               ``BaggingClassifier`` of 10 unpruned trees (Weka's Bagging defaults)
``random_forest``         ``RandomForestClassifier(n_estimators=100)``
========================  =====================================================================

Regressors, for a numeric target (``task="regression"``; tag ``task`` of each entry):

============================  =================================================================
name                          estimator
============================  =================================================================
``linear_svr``                ``SVR(kernel="linear", C=1)`` — ``linear_svm``'s counterpart
``ridge``                     ``Ridge(alpha=1)``
``knn5_regressor``            ``KNeighborsRegressor(n_neighbors=5)``
``tree_regressor``            ``DecisionTreeRegressor()`` (squared error, unpruned)
``random_forest_regressor``   ``RandomForestRegressor(n_estimators=100)``
============================  =================================================================

The registry lives in :mod:`rankfusion.selection` because the selectors' size searches and
accuracy weights take these names too (``EnsembleSelector(estimators=["smo", "naive_bayes"])``),
and selection sits below evaluation (docs/design.md, 'Layers'); :mod:`rankfusion.evaluation`
re-exports it and registers its Weka-like classifiers (``naive_bayes_weka``, ``j48``,
``knn1_weka``) on it. Register more with :func:`register_classifier`. A classifier that
needs numbers gets nominal
columns (pandas ``object`` / ``category`` / ``bool`` / ``string``) one-hot encoded inside its
pipeline by :func:`encode_nominal`, fitted on the training part only.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin, clone, is_classifier, is_regressor
from sklearn.compose import ColumnTransformer, make_column_selector
from sklearn.ensemble import (
    AdaBoostClassifier,
    BaggingClassifier,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import Ridge
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import OneHotEncoder
from sklearn.svm import SVC, SVR
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from .._utils.registry import Entry, Registry, closest_name

__all__ = [
    "CLASSIFIERS",
    "register_classifier",
    "classifier_task",
    "default_estimator",
    "ESTIMATOR_TASKS",
    "available_classifiers",
    "classifier_info",
    "make_classifier",
    "classifier_accepts_nominal",
    "encode_nominal",
    "has_nominal_columns",
]

NOMINAL_DTYPES = ["object", "category", "bool", "string"]


#: The registered classifiers: name → ``factory(random_state) -> classifier``, one instance of
#: the registry class of the rules and rankers (tags ``accepts_nominal``, ``description``).
CLASSIFIERS = Registry("classifier", positional=0, data=())


#: The tasks a registered estimator serves (its ``task`` tag).
ESTIMATOR_TASKS = ("classification", "regression")

#: The estimator the protocols use when none is named: the papers' linear SVM; for regression
#: ridge regression, whose solver, unlike ``linear_svr``'s, takes unscaled attributes (CPU
#: speeds in the tens of thousands) in milliseconds (docs/design.md, 'Tasks').
_DEFAULTS = {"classification": "linear_svm", "regression": "ridge"}


def register_classifier(name: str, *, accepts_nominal: bool = False,
                        description: str = "",
                        task: str = "classification") -> Callable[[Callable], Callable]:
    """Decorator registering ``factory(random_state) -> classifier`` under ``name``.

    ``accepts_nominal=True`` declares that the classifier takes pandas categorical/object
    columns itself (the protocols then pass them through unencoded); ``task="regression"``
    registers a regressor (the registry holds both; :func:`make_classifier` with ``task=``
    refuses the other kind).

    Parameters
    ----------
    name : str
        The name :func:`make_classifier`, the protocols and experiment configs use.
    accepts_nominal : bool, default False
        Whether the classifier takes nominal columns itself.
    description : str, default ""
        One line shown by :func:`available_classifiers`.
    task : {"classification", "regression"}, default "classification"
        What the estimator predicts.

    Returns
    -------
    callable
        The decorator; it returns the factory unchanged.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty str, got {name!r}")
    if task not in ESTIMATOR_TASKS:
        raise ValueError(f"task must be one of {ESTIMATOR_TASKS}, got {task!r}")
    return CLASSIFIERS.register(name, weights=False, tags={
        "accepts_nominal": bool(accepts_nominal), "description": description, "task": task})


def available_classifiers(task: str | None = None) -> list[str]:
    """Names of the registered estimators (classifiers and regressors).

    Parameters
    ----------
    task : {"classification", "regression"}, optional
        Only the estimators of that task; default all.

    Returns
    -------
    list of str

    Examples
    --------
    >>> available_classifiers("regression")
    ['knn5_regressor', 'linear_svr', 'random_forest_regressor', 'ridge', 'tree_regressor']
    """
    names = CLASSIFIERS.available()
    if task is None:
        return names
    if task not in ESTIMATOR_TASKS:
        raise ValueError(f"task must be one of {ESTIMATOR_TASKS} or None, got {task!r}")
    return [n for n in names if CLASSIFIERS.get(n).tags.get("task") == task]


def classifier_task(classifier) -> str:
    """What an estimator predicts: the ``task`` tag of a registered name, or what
    scikit-learn says of an estimator object (``is_regressor``; a Pipeline by its last step).

    Parameters
    ----------
    classifier : str or estimator
        A registered name or a scikit-learn estimator.

    Returns
    -------
    str
        ``"classification"`` or ``"regression"``.
    """
    if isinstance(classifier, str):
        return classifier_info(classifier).tags.get("task", "classification")
    last = classifier.steps[-1][1] if isinstance(classifier, Pipeline) else classifier
    return "regression" if is_regressor(last) else "classification"


def default_estimator(task: str) -> str:
    """The registered estimator the protocols use when none is named.

    Parameters
    ----------
    task : {"classification", "regression"}

    Returns
    -------
    str
        ``"linear_svm"`` for classification, ``"ridge"`` for regression.
    """
    if task not in _DEFAULTS:
        raise ValueError(f"task must be one of {ESTIMATOR_TASKS}, got {task!r}")
    return _DEFAULTS[task]


def classifier_info(name: str) -> Entry:
    """The registry entry of classifier ``name``: ``func`` (the factory), ``tags``
    (``accepts_nominal``, ``description``), …

    Parameters
    ----------
    name : str
        A registered name; an unknown name suggests and lists the known ones.

    Returns
    -------
    Entry
        The registry entry.
    """
    return CLASSIFIERS.get(name, argument="classifier")


def _check_estimator(est, name: str = "classifier", task: str = "classification"):
    if not (hasattr(est, "fit") and hasattr(est, "predict")):
        shown = repr(est) if len(repr(est)) <= 60 else repr(est)[:57] + "..."
        raise TypeError(f"{name} must be a registered name "
                        f"({', '.join(available_classifiers(task))}) or a scikit-learn "
                        f"{'regressor' if task == 'regression' else 'classifier'}; got {shown} "
                        f"({type(est).__name__})")
    if isinstance(est, Pipeline):
        return est
    if task == "regression" and not is_regressor(est):
        raise TypeError(f"{name} must be a regressor for a regression task (a "
                        f"{'classifier' if is_classifier(est) else 'transformer'} was given: "
                        f"{type(est).__name__}); registered regressors: "
                        f"{', '.join(available_classifiers('regression'))}")
    if task == "classification" and not is_classifier(est):
        raise TypeError(f"{name} must be a classifier (a regressor or transformer was given: "
                        f"{type(est).__name__})")
    return est


def make_classifier(classifier, *, random_state: int | None = None, task: str | None = None):
    """A fresh unfitted classifier (or regressor) from a registered name or an estimator
    (cloned).

    Parameters
    ----------
    classifier : str or estimator
        A name of :func:`available_classifiers` or a scikit-learn classifier (never modified:
        a clone is returned).
    random_state : int, optional
        Seed for a registered classifier that draws random numbers.
    task : {"classification", "regression"}, optional
        The task the estimator must serve: a registered name or an object of the other kind
        is refused, naming the estimators of this task. Default: any registered name, and a
        classifier object.

    Examples
    --------
    >>> make_classifier("linear_svm")
    SVC(kernel='linear')
    """
    if isinstance(classifier, str):
        if classifier not in CLASSIFIERS:
            known = available_classifiers()
            close = closest_name(classifier, known) or next(
                (k for k in known if classifier.strip() and classifier.strip().lower() in k), None)
            hint = f"; did you mean {close!r}?" if close else ";"
            raise ValueError(f"unknown classifier {classifier!r}{hint} known classifiers: "
                             f"{', '.join(known)}")
        entry = CLASSIFIERS.get(classifier)
        own = entry.tags.get("task", "classification")
        if task is not None and own != task:
            kind = "regressor" if own == "regression" else "classifier"
            raise ValueError(f"{classifier!r} is a {kind}, not for a {task} task; {task} "
                             f"estimators: "
                             f"{', '.join(available_classifiers(task))}")
        return entry.func(random_state)
    return clone(_check_estimator(classifier, task=task or "classification"))


def classifier_accepts_nominal(classifier) -> bool:
    """Whether a registered name declared ``accepts_nominal`` (estimator objects: False)."""
    if isinstance(classifier, str) and classifier in CLASSIFIERS:
        return CLASSIFIERS.get(classifier).tags["accepts_nominal"]
    return False


def has_nominal_columns(X) -> bool:
    """Whether ``X`` is a DataFrame with a nominal (object/category/bool/string) column."""
    if not isinstance(X, pd.DataFrame):
        return False
    return any(isinstance(dt, pd.CategoricalDtype) or pd.api.types.is_object_dtype(dt)
               or pd.api.types.is_bool_dtype(dt) or pd.api.types.is_string_dtype(dt)
               for dt in X.dtypes)


def encode_nominal(estimator) -> Pipeline:
    """``estimator`` behind a one-hot encoding of the nominal columns of a DataFrame.

    ``Pipeline([("encode", ColumnTransformer(OneHotEncoder on object/category/bool/string
    columns, numeric columns passed through)), ("classifier", estimator)])``. The encoder is
    fitted with the classifier, on the training part only; a category first seen at test time
    encodes as all zeros (``handle_unknown="ignore"``).

    Parameters
    ----------
    estimator : scikit-learn classifier
        The classifier behind the encoder.

    Returns
    -------
    Pipeline
    """
    return Pipeline([("encode", _nominal_encoder()), ("classifier", estimator)])


def _nominal_encoder() -> ColumnTransformer:
    return ColumnTransformer(
        [("onehot", OneHotEncoder(handle_unknown="ignore", sparse_output=False),
          make_column_selector(dtype_include=NOMINAL_DTYPES))],
        remainder="passthrough",
    )


class _EncodeNominalIfAny(TransformerMixin, BaseEstimator):
    """The encoder of :func:`encode_nominal` when the training ``X`` has nominal columns, else
    nothing (arrays and all-numeric frames pass unchanged): the step after the missing-value
    replacement of the ``*_impute`` classifiers, which take nominal columns themselves so that
    their missing values are replaced by the mode before one-hot encoding."""

    def fit(self, X, y=None):
        self.encoder_ = _nominal_encoder().fit(X) if has_nominal_columns(X) else None
        return self

    def transform(self, X):
        return X if self.encoder_ is None else self.encoder_.transform(X)


def _replace_missing_then(estimator) -> Pipeline:
    """``estimator`` behind Weka's ``ReplaceMissingValues`` and the nominal encoding."""
    from .weka_like import ReplaceMissingValues

    return Pipeline([("replace_missing", ReplaceMissingValues()),
                     ("encode", _EncodeNominalIfAny()), ("classifier", estimator)])


# --------------------------------------------------------------------------- the papers' ones
@register_classifier("linear_svm", description="SVC(kernel='linear', C=1)")
def _linear_svm(random_state=None):
    return SVC(kernel="linear", C=1.0)


@register_classifier("smo", description="Weka's SMO defaults: min–max normalised attributes, "
                                        "linear SVC(C=1)")
def _smo(random_state=None):
    from sklearn.preprocessing import MinMaxScaler

    return Pipeline([("normalize", MinMaxScaler()), ("svm", SVC(kernel="linear", C=1.0))])


@register_classifier("naive_bayes", description="GaussianNB()")
def _naive_bayes(random_state=None):
    return GaussianNB()


@register_classifier("tree", description="unpruned entropy decision tree (C4.5-like splits)")
def _tree(random_state=None):
    return DecisionTreeClassifier(criterion="entropy", random_state=random_state)


@register_classifier("knn1", description="1-nearest neighbour, Euclidean")
def _knn1(random_state=None):
    return KNeighborsClassifier(n_neighbors=1)


@register_classifier("knn3", description="3-nearest neighbours, Euclidean")
def _knn3(random_state=None):
    return KNeighborsClassifier(n_neighbors=3)


@register_classifier("adaboost", description="AdaBoost of 10 decision stumps")
def _adaboost(random_state=None):
    return AdaBoostClassifier(estimator=DecisionTreeClassifier(max_depth=1), n_estimators=10,
                              random_state=random_state)


@register_classifier("knn3_impute", accepts_nominal=True,
                     description="knn3 behind Weka's ReplaceMissingValues (training means and "
                                 "modes; for data with missing values)")
def _knn3_impute(random_state=None):
    """``knn3`` for data with missing values (Arrhythmia in robust-FS, Table 1).

    The paper's Weka IBk handles a missing value inside its distance and AdaBoostM1's
    DecisionStump in a third branch; scikit-learn's ``KNeighborsClassifier`` and
    ``AdaBoostClassifier`` refuse NaN. Rather than change the distance (``knn3`` is plain
    Euclidean on unscaled attributes, not IBk), the values are replaced first by Weka's own
    ``ReplaceMissingValues`` (mean ``x̄_a`` of the observed training values of a numeric
    attribute, mode of a nominal one), learned on the training part inside the pipeline, so
    nothing leaks from the test rows; observed values are kept, so on complete data the
    predictions are exactly ``knn3``'s (docs/design.md, 'Departures from the papers and
    reference tools').
    """
    return _replace_missing_then(_knn3(random_state))


@register_classifier("adaboost_impute", accepts_nominal=True,
                     description="adaboost behind Weka's ReplaceMissingValues (training means "
                                 "and modes; for data with missing values)")
def _adaboost_impute(random_state=None):
    """``adaboost`` for data with missing values: the reasons and the rule of
    ``knn3_impute``; on complete data exactly ``adaboost``'s predictions (the same seed)."""
    return _replace_missing_then(_adaboost(random_state))


@register_classifier("bagging", description="bagging of 10 unpruned trees")
def _bagging(random_state=None):
    return BaggingClassifier(estimator=DecisionTreeClassifier(), n_estimators=10,
                             random_state=random_state)


@register_classifier("random_forest", description="random forest of 100 trees")
def _random_forest(random_state=None):
    return RandomForestClassifier(n_estimators=100, random_state=random_state)


# --------------------------------------------------------------------------- regressors
@register_classifier("linear_svr", description="SVR(kernel='linear', C=1)", task="regression")
def _linear_svr(random_state=None):
    return SVR(kernel="linear", C=1.0)


@register_classifier("ridge", description="Ridge(alpha=1)", task="regression")
def _ridge(random_state=None):
    return Ridge(alpha=1.0)


@register_classifier("knn5_regressor", description="5-nearest-neighbour regression, Euclidean",
                     task="regression")
def _knn5_regressor(random_state=None):
    return KNeighborsRegressor(n_neighbors=5)


@register_classifier("tree_regressor", description="unpruned regression tree (squared error)",
                     task="regression")
def _tree_regressor(random_state=None):
    return DecisionTreeRegressor(random_state=random_state)


@register_classifier("random_forest_regressor", description="random forest of 100 regression "
                     "trees", task="regression")
def _random_forest_regressor(random_state=None):
    return RandomForestRegressor(n_estimators=100, random_state=random_state)


# --------------------------------------------------------------------------- Weka's ones
@register_classifier("naive_bayes_weka", accepts_nominal=True,
                     description="Weka's NaiveBayes (precision rounding, SD floor, Laplace "
                                 "counts for nominal attributes)")
def _naive_bayes_weka(random_state=None):
    from .weka_like import WekaNaiveBayes

    return WekaNaiveBayes()


@register_classifier("j48", description="J48-like pruned C4.5 tree (binary splits; see "
                                        "rankfusion.evaluation.J48Like)")
def _j48(random_state=None):
    from .weka_like import J48Like

    return J48Like()


@register_classifier("knn1_weka", accepts_nominal=True,
                     description="Weka's IBk: 1-NN on min–max scaled attributes")
def _knn1_weka(random_state=None):
    from .weka_like import WekaIB1

    return WekaIB1()
