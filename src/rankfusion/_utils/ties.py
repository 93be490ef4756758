"""How a top-k cut-off meets a block of tied scores (docs/design.md, 'Ties and determinism')."""

from __future__ import annotations

import numpy as np

__all__ = ["cutoff_ties"]


def cutoff_ties(scores, k: int) -> tuple[int, int]:
    """How a top-``k`` cut-off meets the block of features tied with the k-th best score.

    With ``s`` sorted best first, ``t = s[k−1]`` the score at the cut-off: returns ``(n_tied,
    n_kept)``, the number of features scoring exactly ``t`` and how many of them the top k keep.
    The cut goes through a block of ties when ``n_kept < n_tied``: which of the tied features
    are kept was then decided by the tie break, not by the data.

    Parameters
    ----------
    scores : array-like of float
        One score per feature (higher = better), in any order; flattened.
    k : int
        The cut-off, in [1, number of scores].

    Returns
    -------
    (int, int)
        ``(n_tied, n_kept)``.

    Raises
    ------
    ValueError
        If ``k`` lies outside [1, number of scores].

    Examples
    --------
    >>> cutoff_ties([3.0, 2.0, 0.0, 0.0, 0.0, 0.0], 3)
    (4, 1)
    >>> cutoff_ties([3.0, 2.0, 1.0, 0.0], 2)
    (1, 1)
    """
    s = np.asarray(scores, dtype=np.float64).reshape(-1)
    k = int(k)
    if not 1 <= k <= s.shape[0]:
        raise ValueError(f"k must lie in [1, {s.shape[0]}], got {k}")
    t = np.sort(s)[::-1][k - 1]
    tied = int(np.count_nonzero(s == t))
    above = int(np.count_nonzero(s > t))
    return tied, k - above
