"""Memory guard of the pairwise rules: estimate the p × p matrices before allocating them.

``copeland``, ``schulze``, ``kemeny`` (and :func:`~rankfusion.aggregation.pairwise_matrix`,
:func:`~rankfusion.aggregation.schulze_strengths`) hold matrices of n² cells, n the number of
features they compare (p, or the candidates' count with ``candidates=``). Before allocating,
they estimate their peak memory as ``bytes_per_cell · n²`` (coefficients measured with
``tracemalloc``, rounded up; see :data:`BYTES_PER_CELL`) and refuse with a ``ValueError`` naming
the estimate and the way out when it exceeds the limit.

The limit (one rule for the package, :mod:`rankfusion._utils.memory`), in this order of
precedence:

1. the rule's ``max_memory=`` argument (bytes; ``float("inf")`` disables the check);
2. the environment variable ``RANKFUSION_MAX_MEMORY`` (bytes, optionally with a binary suffix
   ``K``, ``M``, ``G`` or ``T``, e.g. ``"8G"``; ``"inf"`` disables the check);
3. 75 % of the machine's physical memory, ``os.sysconf("SC_PHYS_PAGES") ·
   os.sysconf("SC_PAGE_SIZE")`` (no check where the platform does not report it).
"""

from __future__ import annotations

import math

from .._utils.constraints import check_param
from .._utils.memory import DEFAULT_FRACTION, ENV_VAR, RAISE_LIMIT
from .._utils.memory import memory_limit as shared_memory_limit
from ._params import MAX_MEMORY

__all__ = ["ENV_VAR", "DEFAULT_FRACTION", "BYTES_PER_CELL", "memory_limit", "check_memory"]


# Peak bytes per cell of the n × n problem, measured with tracemalloc at n = 1,500, M = 10
# (unweighted / weighted: copeland 1.03 / 8.06, schulze 2.0 / 18.0, kemeny 16.3 / 16.3) and
# rounded up; ``b`` is the item size of the count matrix (1 byte up to 255 lists, 8 with
# weights). Keys: (rule, weighted).
BYTES_PER_CELL = {
    ("pairwise", False): lambda b: b,
    ("pairwise", True): lambda b: 8,
    ("copeland", False): lambda b: b,
    ("copeland", True): lambda b: 8,
    ("schulze", False): lambda b: 2 * b,
    ("schulze", True): lambda b: 24,
    ("kemeny", False): lambda b: 17 + b,
    ("kemeny", True): lambda b: 18,
}

def memory_limit(max_memory=None) -> tuple[float, str]:
    """The byte limit in force and where it comes from (``math.inf`` when unknown/disabled):
    :func:`rankfusion._utils.memory.memory_limit`, ``max_memory`` checked by the rules'
    declared constraint."""
    if max_memory is not None:
        check_param("max_memory", max_memory, MAX_MEMORY)
    return shared_memory_limit(max_memory)


def _gib(x: float) -> str:
    return f"{x / 2**30:,.1f} GiB" if x >= 2**30 else f"{x / 2**20:,.1f} MiB"


def estimate(rule: str, n: int, weighted: bool, itemsize: int) -> float:
    """Estimated peak bytes of ``rule`` on an n × n problem."""
    return float(BYTES_PER_CELL[(rule, weighted)](itemsize)) * float(n) * float(n)


def _sure_k(fits: int, n_lists: int | None) -> int:
    """A top-k whose union over ``n_lists`` lists surely holds at most ``fits`` features."""
    return max(1, fits // max(int(n_lists or 2), 1))


def check_memory(rule: str, n: int, p: int, *, weighted: bool, itemsize: int,
                 max_memory=None, candidates=None, n_lists: int | None = None) -> None:
    """Refuse (``ValueError``) an n × n problem whose estimated peak exceeds the limit.

    ``candidates`` is the ``candidates=k`` of the call (``True`` when k is unknown, None or
    False without candidates): the message then suggests a smaller k, not the one given. The
    suggested k is one that surely fits: the union of M lists' top k holds at most M·k
    features (``n_lists`` = M).
    """
    limit, source = memory_limit(max_memory)
    need = estimate(rule, n, weighted, itemsize)
    if need <= limit:
        return
    fits = max(1, int(math.sqrt(limit / max(need / (n * n), 1.0))))  # the n that would fit
    tail = f"or use a statistics rule such as borda; or {RAISE_LIMIT}"
    head = f"{rule} on "
    if candidates is not None and candidates is not False:
        k = None if candidates is True else int(candidates)
        given = "" if k is None else f"candidates={k} gave "
        k_hint = _sure_k(fits, n_lists)
        advice = (f"pass a smaller candidates (e.g. candidates={k_hint}), "
                  if k is None or k_hint < k else "no smaller candidates surely fits: ")
        raise ValueError(
            f"{head}{given}{n:,} candidates (the union of the lists' top k, of p = {p:,} "
            f"features), which need about {_gib(need)} for the {n:,} × {n:,} pairwise "
            f"matrices (estimate), more than the limit of {_gib(limit)} ({source}); about "
            f"{fits:,} candidates fit: " + advice + tail)
    k_hint = min(2000, _sure_k(fits, n_lists))
    raise ValueError(
        f"{head}p = {p:,} features needs about {_gib(need)} for its {n:,} × {n:,} pairwise "
        f"matrices (estimate), more than the limit of {_gib(limit)} ({source}): pass "
        f"candidates={k_hint} (the rule then runs on the union of every list's top "
        f"{k_hint}), " + tail
    )
