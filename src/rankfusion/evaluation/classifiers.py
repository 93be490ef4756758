"""The papers' classifiers by name, and nominal-attribute encoding for the protocols.

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
``bagging``               ``BaggingClassifier`` of 10 unpruned trees (Weka's Bagging defaults)
``random_forest``         ``RandomForestClassifier(n_estimators=100)``
========================  =====================================================================

The registry and the scikit-learn classifiers are defined in
:mod:`rankfusion.selection.classifiers` (the selectors take the same names, and selection sits
below evaluation: docs/design.md, 'Layers'); this module re-exports them and registers the
Weka-like classifiers of :mod:`rankfusion.evaluation.weka_like` (``naive_bayes_weka``, ``j48``,
``knn1_weka``) on the same registry. Register more with :func:`register_classifier`.
A classifier that needs numbers gets nominal
columns (pandas ``object`` / ``category`` / ``bool`` / ``string``) one-hot encoded inside its
pipeline by :func:`encode_nominal`, fitted on the training part only.
"""

from __future__ import annotations

from ..selection.classifiers import (
    CLASSIFIERS,
    NOMINAL_DTYPES,
    available_classifiers,
    classifier_accepts_nominal,
    classifier_info,
    encode_nominal,
    has_nominal_columns,
    make_classifier,
    register_classifier,
)

__all__ = [
    "CLASSIFIERS",
    "NOMINAL_DTYPES",
    "register_classifier",
    "available_classifiers",
    "classifier_info",
    "make_classifier",
    "classifier_accepts_nominal",
    "encode_nominal",
    "has_nominal_columns",
]


# --------------------------------------------------------------------------- Weka's ones
@register_classifier("naive_bayes_weka", accepts_nominal=True,
                     description="Weka's NaiveBayes (precision rounding, SD floor, Laplace "
                                 "counts for nominal attributes)")
def _naive_bayes_weka(random_state=None):
    from .weka_like import WekaNaiveBayes

    return WekaNaiveBayes()


@register_classifier("j48", description="J48-like pruned C4.5 tree (binary splits; see "
                                        "rankfusion.evaluation.weka_like.J48Like)")
def _j48(random_state=None):
    from .weka_like import J48Like

    return J48Like()


@register_classifier("knn1_weka", accepts_nominal=True,
                     description="Weka's IBk: 1-NN on min–max scaled attributes")
def _knn1_weka(random_state=None):
    from .weka_like import WekaIB1

    return WekaIB1()
