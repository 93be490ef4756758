"""Input preparation shared by the rankers: validated data with Weka's class order."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._utils.data import ClassificationData, check_classification_data, check_target

__all__ = ["weka_classes", "prepare"]


def weka_classes(y, n_samples: int | None = None):
    """Class codes ``0..c-1`` and ``c``, validated by :func:`check_target`.

    The codes follow the category order of a pandas categorical ``y`` (Weka numbers classes in
    the order of the ARFF declaration, which decides float summation order and hence exact ties);
    other labels are sorted, as scikit-learn does. Categories that never occur are dropped.
    """
    if isinstance(y, pd.Categorical):
        y = pd.Series(y)
    codes, classes = check_target(y, n_samples)
    if isinstance(y, pd.Series) and isinstance(y.dtype, pd.CategoricalDtype):
        order = [c for c in y.cat.categories if c in set(classes.tolist())]
        if len(order) == len(classes):
            rank = {c: i for i, c in enumerate(order)}
            lut = np.array([rank[c] for c in classes.tolist()], dtype=np.int64)
            codes = lut[codes]
    return codes, int(classes.shape[0])


def prepare(X, y) -> tuple[ClassificationData, np.ndarray, int, np.ndarray]:
    """Validate ``X, y`` for a ranker.

    Returns ``(data, y_codes, n_classes, n_values)`` where ``y_codes`` are in Weka's class
    order and ``n_values[j]`` is the number of declared categories of a nominal feature
    (0 for a numeric one).
    """
    data = check_classification_data(X, y)
    yc, n_classes = weka_classes(y, data.n_samples)
    n_values = np.array([0 if c is None else len(c) for c in data.categories], dtype=np.int64)
    return data, yc, n_classes, n_values
