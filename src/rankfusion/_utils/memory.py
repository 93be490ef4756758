"""The memory limit every guarded allocation checks against (docs/design.md, 'Sparse input'
and the pairwise rules' memory guard): one rule, used by the pairwise aggregation rules
(``rankfusion.aggregation``) and by densifying sparse data (:mod:`rankfusion._utils.sparse`).

The limit, in this order of precedence:

1. a ``max_memory=`` argument (bytes; ``float("inf")`` disables the check), validated by the
   caller with its own message;
2. the environment variable ``RANKFUSION_MAX_MEMORY`` (bytes, optionally with a binary suffix
   ``K``, ``M``, ``G`` or ``T``, e.g. ``"8G"``; ``"inf"`` disables the check);
3. 75 % of the machine's physical memory, ``os.sysconf("SC_PHYS_PAGES") ·
   os.sysconf("SC_PAGE_SIZE")`` (no check where the platform does not report it).
"""

from __future__ import annotations

import math
import os

__all__ = ["ENV_VAR", "DEFAULT_FRACTION", "parse_memory", "memory_limit", "RAISE_LIMIT",
           "bytes_text"]

#: The environment variable of the limit.
ENV_VAR = "RANKFUSION_MAX_MEMORY"
#: The share of the physical memory used when nothing else sets the limit.
DEFAULT_FRACTION = 0.75

#: How every refusal over the limit says to raise it, with the units spelled out.
RAISE_LIMIT = (f"raise the limit with max_memory= in Python (a number of bytes, e.g. "
               f"max_memory=16e9; float('inf'): no limit) or the environment variable "
               f"{ENV_VAR} (bytes, or with a binary suffix K, M, G or T: "
               f"{ENV_VAR}=16G; inf: no limit)")

_SUFFIX = {"": 1, "B": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def bytes_text(x: float) -> str:
    """A byte count as messages say it: ``1.5 GiB``, ``12.0 MiB``, ``800.0 KiB``, ``512
    bytes`` (binary units, so that it matches :data:`ENV_VAR`'s suffixes)."""
    for unit, size in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if x >= size:
            return f"{x / size:,.1f} {unit}"
    return f"{x:,.0f} bytes"


def parse_memory(text: str) -> float:
    """Bytes from the text of :data:`ENV_VAR` (``"8G"``, ``"512M"``, ``"1e9"``; ``"inf"``,
    ``"none"`` or ``"0"``: no limit); a ``ValueError`` naming the variable otherwise."""
    t = text.strip().upper().removesuffix("IB").removesuffix("B")
    if t in ("INF", "INFINITY", "NONE", "0"):
        return math.inf
    unit = t[-1:] if t[-1:] in _SUFFIX else ""
    try:
        value = float(t[: len(t) - len(unit)] if unit else t)
    except ValueError:
        value = -1.0
    if not value > 0 or not math.isfinite(value):
        raise ValueError(
            f"environment variable {ENV_VAR}={text!r} must be a positive number of bytes, "
            "optionally with a suffix K, M, G or T (e.g. '8G'), or 'inf'")
    return value * _SUFFIX[unit]


def memory_limit(max_memory=None) -> tuple[float, str]:
    """The byte limit in force and where it comes from (``math.inf`` when unknown or
    disabled). ``max_memory``, when given, must already be validated (a positive number)."""
    if max_memory is not None:
        return float(max_memory), f"max_memory={float(max_memory):,.0f} bytes"
    env = os.environ.get(ENV_VAR)
    if env:
        return parse_memory(env), f"{ENV_VAR}={env}"
    try:
        phys = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # pragma: no cover - non-POSIX
        return math.inf, "unknown physical memory"
    if phys <= 0:  # pragma: no cover
        return math.inf, "unknown physical memory"
    return DEFAULT_FRACTION * phys, f"{DEFAULT_FRACTION:.0%} of physical memory"
