"""A content hash of a data set, for the in-process memos (rankings, fitted selectors)."""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd

__all__ = ["data_digest"]


def data_digest(X, y) -> str:
    """SHA-256 hex digest of ``(X, y)``: equal for equal data, whatever the memory layout.

    Covers the values, the shape, the dtypes and (for a DataFrame) the column names, so a
    renamed or retyped column is different data; the row index is left out (two equal training
    parts taken from different rows hash the same).
    """
    h = hashlib.sha256()
    if isinstance(X, pd.DataFrame):
        h.update(repr([(str(c), str(t)) for c, t in X.dtypes.items()]).encode())
        h.update(pd.util.hash_pandas_object(X, index=False).to_numpy().tobytes())
    else:
        a = np.asarray(X)
        h.update(repr((a.shape, str(a.dtype))).encode())
        if a.dtype == object:
            h.update(pd.util.hash_pandas_object(pd.DataFrame(a), index=False)
                     .to_numpy().tobytes())
        else:
            h.update(np.ascontiguousarray(a).tobytes())
    yv = np.asarray(y)
    h.update(repr((yv.shape, str(yv.dtype))).encode())
    h.update(pd.util.hash_pandas_object(pd.Series(yv.reshape(-1)), index=False)
             .to_numpy().tobytes())
    return h.hexdigest()
