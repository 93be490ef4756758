"""Features a consensus leaves tied, and a random order among them (docs/design.md, 'Ties and
determinism').

Every rule orders features with equal keys by the lower feature index, which is exact and
reproducible but lets column order decide. :func:`tied_blocks` numbers the blocks of features
the consensus does not tell apart (the same score and the same secondary key);
:func:`break_ties` returns the consensus with each block in a seeded random order instead.
"""

from __future__ import annotations

import numpy as np

from .._utils.validation import check_seed
from ._result import Consensus

__all__ = ["TIE_BREAKS", "tied_blocks", "break_ties"]

#: The tie breaks: by the lower feature index (exact, every rule's default) or at random.
TIE_BREAKS = ("index", "random")


def tied_blocks(consensus: Consensus) -> np.ndarray:
    """The block of each feature (in feature order): 0 for the best, equal numbers for
    features the consensus leaves tied (equal ``scores`` and equal ``tiebreak``).

    Parameters
    ----------
    consensus : Consensus
        A rule's result.

    Returns
    -------
    ndarray of int, shape (p,)
        Block numbers, 0 = the best block; within a block the order is the tie break's.

    Examples
    --------
    >>> from rankfusion import aggregate
    >>> tied_blocks(aggregate([[3.0, 3.0], [1.0, 1.0], [1.0, 1.0]], "borda")).tolist()
    [0, 1, 1]
    """
    c = consensus
    order = np.asarray(c.order)
    keys = [np.asarray(c.scores, dtype=np.float64)[order]]
    if c.tiebreak is not None:
        keys.append(np.asarray(c.tiebreak, dtype=np.float64)[order])
    same = np.ones(max(order.shape[0] - 1, 0), dtype=bool)
    for k in keys:
        same &= (k[1:] == k[:-1]) | (np.isnan(k[1:]) & np.isnan(k[:-1]))
    block = np.concatenate([[0], np.cumsum(~same)]).astype(np.int64)
    out = np.empty(order.shape[0], dtype=np.int64)
    out[order] = block
    return out


def break_ties(consensus: Consensus, tie_break: str = "index", random_state=None) -> Consensus:
    """The consensus with the features it leaves tied in a random order (``"random"``), or
    unchanged (``"index"``, the rules' lower-index order).

    Parameters
    ----------
    consensus : Consensus
        A rule's result.
    tie_break : {"index", "random"}, default "index"
        The order within each block of :func:`tied_blocks`.
    random_state : None, int, SeedSequence or Generator
        Seeds ``"random"``.

    Returns
    -------
    Consensus
        The same scores; ``order`` and ``positions`` reordered within blocks only;
        ``info["tie_break"]`` records the tie break and its seed.
    """
    if not isinstance(tie_break, str) or tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {list(TIE_BREAKS)}, got {tie_break!r}")
    if tie_break == "index":
        return consensus
    seed = check_seed(random_state)
    blocks = tied_blocks(consensus)
    shuffle = np.random.default_rng(seed).permutation(blocks.shape[0])
    order = np.lexsort((shuffle, blocks))
    positions = np.empty(order.shape[0], dtype=np.int64)
    positions[order] = np.arange(1, order.shape[0] + 1)
    c = consensus
    info = {**c.info, "tie_break": {"rule": "random", "seed": seed}}
    return Consensus(order=order, scores=c.scores, positions=positions, features=c.features,
                     method=c.method, params=c.params, tiebreak=c.tiebreak,
                     tiebreak_name=c.tiebreak_name, info=info)
