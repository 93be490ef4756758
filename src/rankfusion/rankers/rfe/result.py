"""The outcome of one RFE run: :class:`RFEResult`."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["RFEResult"]


@dataclass
class RFEResult:
    """The outcome of one RFE run.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    name : str
        The binary problem (``"A_vs_B"``), or the joint criterion.
    ranking : ndarray of int, shape (p,)
        Position of each feature, 1 = best (the last survivor); a full ranking without ties.
    elimination_order : ndarray of int, shape (p,)
        Feature indices in the order they left; the last one is the best.
    n_features : list of int
        Number of features fitted at each iteration.
    removed : list of int
        Number removed at each iteration.
    weights : list of ndarray or None
        Per iteration, the criterion's weights on the remaining features (in ascending feature
        index order, :meth:`features_at`): ``w`` of the binary SVM, or the joint criterion
        (mean ``|w_ij|``, ``Σ_k w_ki²``). None when not kept.
    n_iter : list of int
        Solver iterations per RFE iteration (SMO steps or CD epochs; empty for ``estimator=``).
    """

    name: str
    ranking: np.ndarray
    elimination_order: np.ndarray
    n_features: list = field(default_factory=list)
    removed: list = field(default_factory=list)
    weights: list | None = None
    n_iter: list = field(default_factory=list)

    @property
    def order(self) -> np.ndarray:
        """Feature indices best first."""
        return self.elimination_order[::-1].copy()

    def features_at(self, iteration: int) -> np.ndarray:
        """The (sorted) feature indices fitted at ``iteration``.

        Parameters
        ----------
        iteration : int
            An RFE iteration, 0 = the first fit on all the features.

        Returns
        -------
        ndarray of int
        """
        start = int(np.sum(self.removed[:iteration]))
        return np.sort(self.elimination_order[start:])

    def weights_matrix(self) -> np.ndarray:
        """p × iterations matrix of the weights, NaN where a feature had already left."""
        if self.weights is None:
            raise ValueError("weights were not kept (keep_weights=False)")
        p = self.ranking.shape[0]
        out = np.full((p, len(self.weights)), np.nan)
        for t, w in enumerate(self.weights):
            out[self.features_at(t), t] = w
        return out


def _finish(name, elim, n_feats, removed, weights, n_iter, p) -> RFEResult:
    elim = np.asarray(elim, dtype=np.int64)
    ranking = np.empty(p, dtype=np.int64)
    ranking[elim] = np.arange(p, 0, -1)
    return RFEResult(name, ranking, elim, n_feats, removed, weights, n_iter)

