"""Reuse of fitted selectors between the cells of one process (cross-validation cells).

Cells that differ only in their classifier fit the same selector, with the same seed, on the
same training parts (docs/experiments.md, 'Seeds': a cell's seed leaves out the method and the
classifier). :class:`CachedSelector` wraps a cell's selector so that the second such fit in the
same process takes the fitted selector of the first: the key is the cell's spec without its
classifier, the selector's ``random_state`` and a digest of the training data. The numbers are
those of a fresh fit (a selector is a deterministic function of its parameters, seed and data);
only the time changes. The cache lives in the process (a Dask worker has its own) and holds at
most :data:`MAX_ENTRIES` fitted selectors, the oldest dropped first.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, clone
from sklearn.feature_selection import SelectorMixin

__all__ = ["CachedSelector", "clear_selector_cache", "selector_cache_info", "MAX_ENTRIES"]

#: Fitted selectors kept per process.
MAX_ENTRIES = 256

_CACHE: OrderedDict = OrderedDict()
_STATS = {"hits": 0, "misses": 0}


def clear_selector_cache() -> None:
    """Forget every cached fit (and reset the hit/miss counts)."""
    _CACHE.clear()
    _STATS.update(hits=0, misses=0)


def selector_cache_info() -> dict:
    """``{"hits", "misses", "size"}`` of this process's cache."""
    return {**_STATS, "size": len(_CACHE)}


def _digest(X, y) -> str:
    h = hashlib.sha256()
    if isinstance(X, pd.DataFrame):
        h.update(repr(list(map(str, X.columns))).encode())
        h.update(repr([str(t) for t in X.dtypes]).encode())
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


class CachedSelector(SelectorMixin, BaseEstimator):
    """A selector whose fits are shared by equal (``key``, seed, data) in one process.

    Parameters
    ----------
    selector : selector estimator
        The wrapped (unfitted) selector; its ``random_state``, if None, is set to
        :attr:`random_state` before fitting.
    key : str
        What identifies the selector's settings (the runner passes the cell's spec without the
        classifier, as canonical JSON).
    random_state : int or None
        Set by the protocol (one seed per fold).
    """

    def __init__(self, selector=None, key: str = "", random_state=None):
        self.selector = selector
        self.key = key
        self.random_state = random_state

    def fit(self, X, y):
        if not isinstance(self.key, str) or not self.key:
            raise ValueError("key must be a non-empty string")
        k = (self.key, repr(self.random_state), _digest(X, y))
        hit = _CACHE.get(k)
        if hit is not None:
            _STATS["hits"] += 1
            _CACHE.move_to_end(k)
            self.selector_ = hit
        else:
            _STATS["misses"] += 1
            sel = clone(self.selector)
            params = sel.get_params(deep=False)
            if "random_state" in params and params["random_state"] is None:
                sel.set_params(random_state=self.random_state)
            sel.fit(X, y)
            _CACHE[k] = sel
            while len(_CACHE) > MAX_ENTRIES:
                _CACHE.popitem(last=False)
            self.selector_ = sel
        self.n_features_in_ = self.selector_.n_features_in_
        if hasattr(self.selector_, "feature_names_in_"):
            self.feature_names_in_ = self.selector_.feature_names_in_
        return self

    def _get_support_mask(self):
        return self.selector_.get_support()
