"""Ties at a top-k cut-off: report them, and break them by column order or at random.

Weka-exact information measures give exactly 0 to most features of a wide data set, and the
lower column index then decides their order (docs/design.md, 'Ties and determinism'). A top-k
that cuts through such a block keeps features chosen by the tie break, not by the data; the
commands say so, and offer ``tie_break="random"`` (seeded) beside the exact default
``"index"``.
"""

from __future__ import annotations

import numpy as np

from .._utils.ties import cutoff_ties
from .._utils.validation import check_seed
from ..aggregation import TIE_BREAKS

__all__ = ["TIE_BREAKS", "check_tie_break", "tie_order", "tie_note"]


def check_tie_break(tie_break, random_state=None) -> str:
    """``tie_break`` checked; ``random_state`` must be given (an int) with ``"random"``.

    Parameters
    ----------
    tie_break : {"index", "random"}
        The tie break.
    random_state : int, optional
        The seed of ``"random"``.

    Returns
    -------
    str
    """
    if not isinstance(tie_break, str) or tie_break not in TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {list(TIE_BREAKS)}, got {tie_break!r}")
    if random_state is not None:
        check_seed(random_state)
    return tie_break


def tie_order(keys, tie_break: str = "index", random_state=None) -> np.ndarray:
    """Indices sorted by ``keys`` (lower = better, last key primary, as :func:`numpy.lexsort`),
    equal keys ordered by column index or at random.

    Parameters
    ----------
    keys : sequence of array-like
        The sort keys, the primary last.
    tie_break : {"index", "random"}, default "index"
        ``"index"``: equal keys keep the lower index first (exact, reproducible by
        anyone); ``"random"``: a random order drawn from ``random_state``.
    random_state : None, int or Generator
        Seeds ``"random"``.

    Returns
    -------
    ndarray of int
    """
    keys = [np.asarray(k) for k in keys]
    p = keys[0].shape[0]
    if check_tie_break(tie_break) == "random":
        secondary = np.random.default_rng(check_seed(random_state)).permutation(p)
    else:
        secondary = np.arange(p)
    return np.lexsort((secondary, *keys))


def tie_note(values, k: int, *, what: str, tie_break: str, random_state=None,
             at=None) -> str | None:
    """A sentence when the top ``k`` by ``values`` (higher = better) cut a block of ties.

    Parameters
    ----------
    values : array-like of float
        One value per feature (higher = better).
    k : int
        The cut-off; no note when it is 0 or keeps every feature.
    what : str
        What the values are, for the sentence (e.g. ``"info_gain"``).
    tie_break : {"index", "random"}
        How the tied features were ordered.
    random_state : int, optional
        The seed of ``"random"``, for the sentence.
    at : float, optional
        The value printed for the tied block (default: the k-th best of ``values``).

    Returns
    -------
    str or None
        None when the cut-off falls between two different values.
    """
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    if not k or k >= v.shape[0]:
        return None
    tied, kept = cutoff_ties(v, k)
    if kept >= tied:
        return None
    if at is None:
        at = np.sort(v)[::-1][k - 1]
    how = ("by column order (tie_break='index'; 'random' draws them at random)"
           if tie_break == "index" else f"at random (tie_break='random', random_state="
           f"{random_state})")
    return (f"the top {k} cut through {tied} features tied at {what} = {at:.6g}: the {kept} "
            f"of them shown were chosen {how}, not by the data")
