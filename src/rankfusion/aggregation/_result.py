"""The result of an aggregation: :class:`Consensus`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["Consensus", "build_consensus"]


@dataclass(frozen=True, eq=False)
class Consensus:
    """A consensus ranking of p features.

    Attributes
    ----------
    order : ndarray of int, shape (p,)
        Feature indices, best first.
    scores : ndarray of float, shape (p,)
        The rule's primary key per feature (in feature order), higher = better.
    ranks : ndarray of int, shape (p,)
        Consensus position of each feature (in feature order), 1 = best, no ties.
    features : ndarray of object, shape (p,)
        Feature names, in feature order.
    method : str
        The rule's registered name.
    params : dict
        The rule's parameters as resolved (for instance ``k`` as a count).
    tiebreak : ndarray of float or None
        The rule's secondary key per feature, when it has one.
    tiebreak_name : str or None
        What :attr:`tiebreak` holds.
    info : dict
        Anything else the rule reports (objective, optimality, traces, p-values …).
    """

    order: np.ndarray
    scores: np.ndarray
    ranks: np.ndarray
    features: np.ndarray
    method: str
    params: dict = field(default_factory=dict)
    tiebreak: np.ndarray | None = None
    tiebreak_name: str | None = None
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def n_features(self) -> int:
        return int(self.order.shape[0])

    def top(self, n: int | None = None) -> list:
        """Names of the ``n`` best features (all when ``None``), best first."""
        idx = self.order if n is None else self.order[:n]
        return [self.features[i] for i in idx]

    def to_frame(self) -> pd.DataFrame:
        """One row per feature in consensus order: ``rank``, ``score`` (and ``tiebreak``)."""
        data = {"rank": self.ranks[self.order], "score": self.scores[self.order]}
        if self.tiebreak is not None:
            data[self.tiebreak_name or "tiebreak"] = self.tiebreak[self.order]
        return pd.DataFrame(data, index=pd.Index(self.features[self.order], name="feature"))

    def __repr__(self) -> str:
        head = ", ".join(str(f) for f in self.top(5))
        more = ", …" if self.n_features > 5 else ""
        return f"Consensus(method={self.method!r}, {self.n_features} features: {head}{more})"


def order_from_keys(keys: list[np.ndarray]) -> np.ndarray:
    """Indices sorted by ``keys`` (each lower = better, first key primary), then by index."""
    # np.lexsort is stable and uses its *last* key as the primary one.
    return np.lexsort(tuple(reversed(keys))).astype(np.intp)


def build_consensus(
    lists,
    *,
    keys: list[np.ndarray],
    scores: np.ndarray,
    method: str,
    params: dict,
    tiebreak: np.ndarray | None = None,
    tiebreak_name: str | None = None,
    info: dict | None = None,
    order: np.ndarray | None = None,
) -> Consensus:
    """Assemble a :class:`Consensus` from exact sort keys (lower = better)."""
    if order is None:
        order = order_from_keys(keys)
    ranks = np.empty(order.shape[0], dtype=np.int64)
    ranks[order] = np.arange(1, order.shape[0] + 1)
    return Consensus(
        order=order,
        scores=np.asarray(scores, dtype=np.float64),
        ranks=ranks,
        features=lists.features,
        method=method,
        params=dict(params),
        tiebreak=None if tiebreak is None else np.asarray(tiebreak, dtype=np.float64),
        tiebreak_name=tiebreak_name,
        info=dict(info or {}),
    )
