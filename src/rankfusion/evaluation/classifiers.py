"""The papers' classifiers by name, and nominal-attribute encoding for the protocols.

A small registry maps names to factories ``f(random_state) -> estimator`` (unfitted
scikit-learn classifiers); the evaluation protocols accept a name or any classifier object.
The registry, its classifiers (the table of names: :mod:`rankfusion.selection.classifiers`)
and the Weka-like ones (``naive_bayes_weka``, ``j48``, ``knn1_weka``: :class:`WekaNaiveBayes`,
:class:`J48Like`, :class:`WekaIB1`) are defined in :mod:`rankfusion.selection`, which the
selectors' size search uses and which sits below evaluation (docs/design.md, 'Layers'); this
module re-exports them. Register more with :func:`register_classifier`. A classifier that
needs numbers gets nominal columns (pandas ``object`` / ``category`` / ``bool`` / ``string``)
one-hot encoded inside its pipeline by :func:`encode_nominal`, fitted on the training part only.
"""

from __future__ import annotations

from ..selection.classifiers import (
    CLASSIFIERS,
    NOMINAL_DTYPES,
    available_classifiers,
    classifier_accepts_nominal,
    classifier_info,
    classifier_task,
    default_estimator,
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
    "classifier_task",
    "default_estimator",
    "encode_nominal",
    "has_nominal_columns",
]
