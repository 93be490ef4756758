"""Parameter constraints shared by several rules, in the vocabulary of
:mod:`rankfusion._utils.constraints` (docs/design.md, 'Parameters').

What depends on the data (a count ``k`` above the number of features, a universe smaller than
the longest list) is not here: the rules check it when they see the lists.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from .._utils.constraints import Check, Interval

__all__ = ["TOP_K", "OPTIONAL_TOP_K", "BOOL", "SEED", "MAX_MEMORY", "FRACTION", "count"]


def _is_bool(v) -> bool:
    return isinstance(v, (bool, np.bool_))


def _is_real(v) -> bool:
    return not _is_bool(v) and isinstance(v, numbers.Real)


def _is_int(v) -> bool:
    return not _is_bool(v) and isinstance(v, numbers.Integral)


def _boolish(v) -> bool:
    """What ``check_bool`` reads as a bool: a bool, 0 or 1, or true/false/yes/no."""
    if _is_bool(v):
        return True
    if _is_int(v):
        return v in (0, 1)
    return isinstance(v, str) and v.strip().lower() in ("true", "false", "yes", "no")


def _seed(v) -> bool:
    if _is_int(v):
        return 0 <= int(v) < 2 ** 32
    return isinstance(v, (np.random.SeedSequence, np.random.Generator))


def _seed_kind(v) -> bool:
    return _is_int(v) or isinstance(v, (np.random.SeedSequence, np.random.Generator))


def _positive_or_inf(v) -> bool:
    return _is_real(v) and not math.isnan(float(v)) and float(v) > 0


#: A top-k count or fraction (docs/design.md, 'Fractions'): an int ≥ 1 or a float in (0, 1].
TOP_K = [Interval("int", 1, None), Interval("real", 0, 1, closed="right")]
#: The same, or None.
OPTIONAL_TOP_K = [None, *TOP_K]
#: A bool (0/1 and the text true/false/yes/no as the command line writes them, too).
BOOL = [Check(_boolish, "a bool")]
#: A seed (docs/design.md, 'Seeds'): None, an int in [0, 2**32), a SeedSequence or a Generator.
SEED = [None, Check(_seed, "an int in [0, 2**32), a SeedSequence or a Generator",
                    kind=_seed_kind, toml="int")]
#: A byte limit of the pairwise rules: None (the default limit) or a positive number (inf: no
#: check).
MAX_MEMORY = [None, Check(_positive_or_inf, "a positive number of bytes (inf: no limit)",
                          kind=lambda v: True, toml="float")]  # a ValueError, as memory_limit
#: A fraction in (0, 1].
FRACTION = [Interval("real", 0, 1, closed="right")]


def count(minimum: int = 1, maximum: int | None = None) -> list:
    """An int in ``[minimum, maximum]``.

    Parameters
    ----------
    minimum : int, default 1
        The lowest value.
    maximum : int, optional
        The highest value (None: unbounded).

    Returns
    -------
    list
        The constraint list.
    """
    return [Interval("int", minimum, maximum)]
