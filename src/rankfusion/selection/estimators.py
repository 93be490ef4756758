"""The classifiers that judge a subset, and the pipeline that lets them read any data set.

The papers judge a subset with a few standard classifiers: a linear SVM (Izetta et al. 2017;
Bouaguel et al. 2013; the robust-FS paper), naive Bayes, the 1-nearest neighbour and a C4.5
tree (Ruiz et al. 2003; the robust-FS paper). :func:`default_estimators` gives their
scikit-learn forms; :func:`classifier_pipeline` wraps any classifier so that it accepts the data
as :func:`rankfusion.io.load_data` returns it: nominal columns (pandas categorical / object) are
one-hot encoded and missing values imputed (mean for numeric, most frequent for nominal) *inside*
the pipeline, so cross-validation learns the encoding on the training part only.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._utils.constraints import Check
from .._utils.registry import closest_name

__all__ = ["default_estimators", "estimator_by_name", "classifier_pipeline",
           "DEFAULT_ESTIMATOR_NAMES", "ESTIMATORS_CONSTRAINT"]

def _is_estimators(value) -> bool:
    if isinstance(value, (str, dict)) or hasattr(value, "fit"):
        return True
    if isinstance(value, (bytes, set, frozenset)):
        return False
    try:
        iter(value)
    except TypeError:
        return False
    return True


#: What ``estimators=`` of the selectors accepts (the constraint vocabulary, docs/design.md,
#: 'Parameters'): a name, a classifier, a list of them or a dict name → classifier; each item
#: is then resolved by the selector (:func:`estimator_by_name`), naming the item at fault.
ESTIMATORS_CONSTRAINT = Check(
    _is_estimators, "a classifier name, a classifier, a list of them or a dict of them",
    toml="list")

#: Names of :func:`default_estimators`, in order.
DEFAULT_ESTIMATOR_NAMES = ("linear_svm", "naive_bayes", "knn1", "tree")


def default_estimators(random_state=None) -> dict:
    """The papers' classifiers: ``{"linear_svm", "naive_bayes", "knn1", "tree"}``.

    ``linear_svm`` is ``SVC(kernel="linear", C=1)`` on z-scored features (the papers' linear
    SVM); ``naive_bayes`` is ``GaussianNB``; ``knn1`` the 1-nearest neighbour on features scaled
    to [0, 1] (as Weka's IBk normalises); ``tree`` an entropy decision tree with at least two
    samples per leaf (C4.5's ``-M 2``; unpruned, unlike J48).
    """
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MinMaxScaler, StandardScaler
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier

    return {
        "linear_svm": make_pipeline(StandardScaler(), SVC(kernel="linear", C=1.0)),
        "naive_bayes": GaussianNB(),
        "knn1": make_pipeline(MinMaxScaler(), KNeighborsClassifier(n_neighbors=1)),
        "tree": DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2,
                                       random_state=random_state),
    }


def estimator_by_name(name, *, argument: str = "estimators", random_state=None,
                      objects: bool = True):
    """The classifier called ``name``: one of :func:`default_estimators` (the papers' forms the
    selectors use by default), else one of the classifier registry
    (:func:`rankfusion.selection.classifiers.available_classifiers`: ``smo``, ``knn3``,
    ``random_forest`` …, the names the command line and experiment configs accept).

    The four default names keep their :func:`default_estimators` form here (``linear_svm`` on
    z-scored features, ``knn1`` on [0, 1]-scaled ones, ``tree`` with two samples per leaf), so
    a selector given ``"tree"`` fits what it fits with ``estimators=None``.

    Parameters
    ----------
    name : str
        One of :data:`DEFAULT_ESTIMATOR_NAMES` or a registered classifier name.
    argument : str, default="estimators"
        The argument named in the messages (``"estimators[0]"``).
    random_state : None or int
        As :func:`default_estimators`; passed to a registered classifier's factory.
    objects : bool, default=True
        Whether the caller also takes classifier objects (the message then says so).

    Raises
    ------
    TypeError
        ``name`` is not a string.
    ValueError
        An unknown name: the message gives the name itself, the closest known name (by case,
        spelling or as a part of it: ``svm`` → ``linear_svm``) and all known names.

    Examples
    --------
    >>> estimator_by_name("svm")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: estimators: unknown classifier 'svm'; did you mean 'linear_svm'? known names:
    linear_svm, naive_bayes, knn1, tree (the papers' classifiers), ...
    """
    from .classifiers import CLASSIFIERS, available_classifiers, make_classifier

    if not isinstance(name, str):
        raise TypeError(f"{argument} must be a classifier name (str) or a classifier, got "
                        f"{name!r} of type {type(name).__name__}")
    known = default_estimators(random_state)
    if name in known:
        return known[name]
    if name in CLASSIFIERS:  # a regressor is refused, naming the classifiers
        return make_classifier(name, random_state=random_state, task="classification")
    registered = [k for k in available_classifiers("classification") if k not in known]
    every = [*known, *registered]
    # the same name in another case, then a name holding it (svm → linear_svm), then spelling
    close = ({k.lower(): k for k in every}.get(name.strip().lower()) or next(
        (k for k in every if name.strip() and name.strip().lower() in k.lower()), None)
        or closest_name(name, every))
    hint = f"; did you mean {close!r}?" if close else ";"
    tail = ", or give a scikit-learn classifier object" if objects else ""
    raise ValueError(f"{argument}: unknown classifier {name!r}{hint} known names: "
                     f"{', '.join(known)} (the papers' classifiers), "
                     f"{', '.join(registered)} (the classifier registry){tail}")


def _nominal_columns(X) -> list:
    if not isinstance(X, pd.DataFrame):
        return []
    return [c for c in X.columns
            if isinstance(X[c].dtype, pd.CategoricalDtype)
            or not pd.api.types.is_numeric_dtype(X[c].dtype)]


def _has_missing(X) -> bool:
    if isinstance(X, pd.DataFrame):
        return bool(X.isna().to_numpy().any())
    arr = np.asarray(X)
    return arr.dtype.kind == "f" and bool(np.isnan(arr).any())


def classifier_pipeline(estimator, X):
    """``estimator`` behind the encoding ``X`` needs: itself when X is all numeric and complete,
    else a ``Pipeline`` (one-hot encoding of nominal columns, imputation of missing values).

    Parameters
    ----------
    estimator : classifier
        Cloned, never modified.
    X : array-like or DataFrame
        The data the pipeline will see (only its column kinds and missingness are read).
    """
    from sklearn.base import clone

    est = clone(estimator)
    nominal = _nominal_columns(X)
    missing = _has_missing(X)
    if not nominal and not missing:
        return est
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import Pipeline, make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    if not nominal:
        return Pipeline([("impute", SimpleImputer(strategy="mean")), ("model", est)])
    numeric = [c for c in X.columns if c not in set(nominal)]
    enc = make_pipeline(SimpleImputer(strategy="most_frequent"),
                        OneHotEncoder(handle_unknown="ignore"))
    parts = [("nominal", enc, nominal)]
    if numeric:
        parts.append(("numeric", SimpleImputer(strategy="mean"), numeric))
    return Pipeline([("encode", ColumnTransformer(parts, sparse_threshold=0.0)), ("model", est)])
