"""Timing helpers shared by the benchmarks: medians of interleaved runs, load recorded.

Every figure on the benchmark pages is the median of ``repeat`` runs taken in turn (ours, peer,
ours, peer, …), with the 1-minute load average read before each round and the spread (min–max)
shown beside the median, never a best-of.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Timing", "interleaved", "load_average"]


def load_average() -> float:
    """The 1-minute load average (NaN where the platform has none)."""
    try:
        return float(os.getloadavg()[0])
    except (AttributeError, OSError):
        return float("nan")


@dataclass
class Timing:
    """Seconds of each run of one contender."""

    name: str
    seconds: list = field(default_factory=list)

    @property
    def median(self) -> float:
        return float(np.median(self.seconds))

    @property
    def spread(self) -> tuple[float, float]:
        return float(np.min(self.seconds)), float(np.max(self.seconds))

    def cell(self) -> str:
        lo, hi = self.spread
        return f"{self.median:.3g} s ({lo:.3g}–{hi:.3g})"


def interleaved(contenders: dict[str, Callable[[], object]], repeat: int = 5
                ) -> tuple[dict[str, Timing], list[float], dict[str, object]]:
    """Run each contender once per round, ``repeat`` rounds; return the timings, the load
    average before each round, and each contender's last output."""
    timings = {name: Timing(name) for name in contenders}
    loads, outputs = [], {}
    for _ in range(repeat):
        loads.append(load_average())
        for name, func in contenders.items():
            t0 = time.perf_counter()
            outputs[name] = func()
            timings[name].seconds.append(time.perf_counter() - t0)
    return timings, loads, outputs
