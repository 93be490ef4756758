"""The RFE schedule: how many features each iteration removes (Izetta et al. 2017, §3.1).

See docs/design.md, 'SVM-RFE'.
"""

from __future__ import annotations

import numpy as np

from ..._utils.constraints import check_param
from .params import SVM_CONSTRAINTS

__all__ = ["rfe_schedule", "check_step"]


def check_step(step, step_until) -> tuple[int | float, int]:
    """Validate an RFE ``step`` (int ≥ 1 or float in (0, 1)) and ``step_until`` (int ≥ 1).

    Returns them normalised (``int``/``float``, ``int``); a wrong type raises ``TypeError``, a
    wrong value ``ValueError``, naming the argument.
    """
    check_param("step", step, SVM_CONSTRAINTS["step"])
    check_param("step_until", step_until, SVM_CONSTRAINTS["step_until"])
    step = int(step) if float(step) >= 1 else float(step)
    return step, int(step_until)


def rfe_schedule(n_features: int, step: int | float = 0.1, step_until: int = 20,
                 n_final: int = 1) -> np.ndarray:
    """How many features each RFE iteration removes, until ``n_final`` remain.

    Float ``step`` (Izetta et al. §3.1; docs/design.md, 'SVM-RFE'): with n features left, remove
    ``max(1, ⌊step·n⌋)`` while ``n ≥ step_until``, else 1 (a chunk may cross below
    ``step_until``). Integer ``step``: remove ``step`` each time (the last chunk stops at
    ``n_final``), as scikit-learn's ``RFE(step=int)``.

    Parameters
    ----------
    n_features : int
        Features at the start.
    step : int or float, default 0.1
        A fraction of the remaining features, or a fixed count, removed per iteration.
    step_until : int, default 20
        With a float ``step``: below this many features, one at a time.
    n_final : int, default 1
        Features left at the end.

    Returns
    -------
    ndarray of int
        The number removed at each iteration.

    Examples
    --------
    >>> rfe_schedule(30).tolist()
    [3, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    >>> rfe_schedule(10, step=4).tolist()
    [4, 4, 1]
    """
    step, step_until = check_step(step, step_until)
    n = int(n_features)
    chunks = []
    while n > n_final:
        if isinstance(step, int):
            r = step
        else:
            r = max(1, int(np.floor(step * n))) if n >= step_until else 1
        r = min(r, n - n_final)
        chunks.append(r)
        n -= r
    return np.asarray(chunks, dtype=np.int64)

