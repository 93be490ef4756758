"""The result of an aggregation: :class:`Consensus`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._utils.lazy import lazy_module

pd = lazy_module("pandas")  # imported on first use (a small aggregate starts without it)

__all__ = ["Consensus", "build_consensus"]


@dataclass(frozen=True, eq=False, init=False)
class Consensus:
    """A consensus ranking of p features.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    order : ndarray of int, shape (p,)
        Feature indices, best first.
    scores : ndarray of float, shape (p,)
        The rule's primary key per feature (in feature order), higher = better.
    positions : ndarray of int, shape (p,)
        Consensus position of each feature (in feature order), 1 = best, no ties
        (docs/design.md, 'Scores and positions'). ``ranks`` is the same array, by its former
        name (also accepted by the constructor).
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
    ranks : ndarray of int, shape (p,), optional
        The former name of ``positions``, accepted by the constructor (keyword only).
    """

    order: np.ndarray
    scores: np.ndarray
    positions: np.ndarray
    features: np.ndarray
    method: str
    params: dict = field(default_factory=dict)
    tiebreak: np.ndarray | None = None
    tiebreak_name: str | None = None
    info: dict[str, Any] = field(default_factory=dict)

    def __init__(self, order, scores, positions=None, features=None, method=None, params=None,
                 tiebreak=None, tiebreak_name=None, info=None, *, ranks=None):
        if ranks is not None:
            if positions is not None:
                raise TypeError("give positions or ranks (its former name), not both")
            positions = ranks
        missing = [n for n, v in (("positions", positions), ("features", features),
                                  ("method", method)) if v is None]
        if missing:
            raise TypeError(f"Consensus() missing required argument(s): {', '.join(missing)}")
        values = {"order": order, "scores": scores, "positions": positions,
                  "features": features, "method": method,
                  "params": {} if params is None else params, "tiebreak": tiebreak,
                  "tiebreak_name": tiebreak_name, "info": {} if info is None else info}
        for name, value in values.items():
            object.__setattr__(self, name, value)

    @property
    def ranks(self) -> np.ndarray:
        """:attr:`positions`, by its former name."""
        return self.positions

    @property
    def n_features(self) -> int:
        return int(self.order.shape[0])

    def top(self, n: int | None = None) -> list:
        """Names of the ``n`` best features (all when ``None``; at most all when ``n`` exceeds
        them, as :meth:`pandas.DataFrame.head`), best first.

        Parameters
        ----------
        n : int ≥ 0 or None, default None
            How many features.

        Returns
        -------
        list
            Feature names, best first.
        """
        if n is not None and (isinstance(n, (bool, np.bool_))
                              or not isinstance(n, (int, np.integer)) or n < 0):
            raise TypeError(f"n must be None or an int ≥ 0, got {n!r}")
        idx = self.order if n is None else self.order[:int(n)]
        return [self.features[i] for i in idx]

    def tied_ranks(self, method: str = "min") -> np.ndarray:
        """Consensus positions that let features with equal :attr:`scores` share a rank.

        :attr:`positions` never ties (the rule's tie breaks decide); tables that print ties, such
        as the robust-FS paper's Table 5 (two techniques ranked 1, the next 2), use these
        instead. Ranks follow :func:`scipy.stats.rankdata` on ``-scores`` (1 = best):

        * ``"min"``: tied features get the best position of their group (1, 1, 3);
        * ``"dense"``: the next group follows without a gap (1, 1, 2);
        * ``"average"``: the mean position of the group (1.5, 1.5, 3);
        * ``"max"``: the worst position of the group (2, 2, 3).

        Parameters
        ----------
        method : {"min", "dense", "average", "max"}

        Returns
        -------
        ndarray of shape (p,), in feature order
            int64 for ``min``, ``dense`` and ``max``, float64 for ``average``.

        Examples
        --------
        >>> from rankfusion import aggregate
        >>> c = aggregate([[3.0, 3.0], [3.0, 3.0], [1.0, 1.0]], "mean_score")
        >>> c.positions.tolist(), c.tied_ranks("min").tolist(), c.tied_ranks("dense").tolist()
        ([1, 2, 3], [1, 1, 3], [1, 1, 2])
        """
        from scipy.stats import rankdata

        allowed = ("min", "dense", "average", "max")
        if method not in allowed:
            raise ValueError(f"method must be one of {list(allowed)}, got {method!r}")
        ranks = rankdata(-np.asarray(self.scores, dtype=np.float64), method=method)
        return ranks if method == "average" else ranks.astype(np.int64)

    def to_frame(self) -> pd.DataFrame:
        """One row per feature in consensus order: ``rank``, ``score`` (and ``tiebreak``)."""
        data = {"rank": self.positions[self.order], "score": self.scores[self.order]}
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
    positions = np.empty(order.shape[0], dtype=np.int64)
    positions[order] = np.arange(1, order.shape[0] + 1)
    return Consensus(
        order=order,
        scores=np.asarray(scores, dtype=np.float64),
        positions=positions,
        features=lists.features,
        method=method,
        params=dict(params),
        tiebreak=None if tiebreak is None else np.asarray(tiebreak, dtype=np.float64),
        tiebreak_name=tiebreak_name,
        info=dict(info or {}),
    )
