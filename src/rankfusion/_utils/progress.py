"""Progress on standard error for long runs, on a terminal or not (docs/design.md,
'Ensembles, subsets and evaluation', long runs).

On an interactive terminal a tqdm bar (when tqdm is installed); anywhere else (a log file, a
pipe, a batch job) one line at most every :data:`DEFAULT_INTERVAL` seconds, with the count done,
the elapsed time and the estimated time left, e.g.::

    rankfusion: ranking: 3,000 of 30,000 lists (10 %), 10 s elapsed, about 1 min 30 s left

A run shorter than the interval prints no progress line at all. The time left is the mean
rate since the first piece finished applied to the rest (the pieces of one run cost alike:
ranker calls on bootstrap samples of one size, binary SVM-RFE problems, experiment cells; the
first one also pays for imports and compiling, so it is left out of the rate once others
have finished).

The interval can be set by the environment variable ``RANKFUSION_PROGRESS_INTERVAL`` (seconds;
the tests set it low to see the lines of a short run) or by ``interval=``.
"""

from __future__ import annotations

import math
import os
import sys
import time

__all__ = ["DEFAULT_INTERVAL", "LineProgress", "progress_bar", "format_seconds",
           "progress_interval"]

#: Seconds between two progress lines off a terminal.
DEFAULT_INTERVAL = 10.0


def progress_interval() -> float:
    """The interval between progress lines: ``RANKFUSION_PROGRESS_INTERVAL`` when it is a
    number ≥ 0, else :data:`DEFAULT_INTERVAL`."""
    text = os.environ.get("RANKFUSION_PROGRESS_INTERVAL")
    if text is not None:
        try:
            value = float(text)
        except ValueError:
            value = -1.0
        if math.isfinite(value) and value >= 0:
            return value
    return DEFAULT_INTERVAL


def format_seconds(seconds: float) -> str:
    """``4.2`` → ``'4 s'``, ``75`` → ``'1 min 15 s'``, ``7300`` → ``'2 h 1 min'``,
    ``200000`` → ``'2 d 7 h'``."""
    s = max(0, int(round(seconds)))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    if s < 86400:
        return f"{s // 3600} h {s % 3600 // 60} min"
    return f"{s // 86400:,} d {s % 86400 // 3600} h"


class LineProgress:
    """Progress as lines: ``update(n)`` after each finished piece of work, ``close()`` at the
    end (a last line, only when an earlier one was printed).

    Parameters
    ----------
    total : int
        The pieces of work.
    desc, unit : str
        What is done and what is counted: ``ranking``, ``lists``.
    initial : int
        Pieces already done (a resumed run); the rate counts only the new ones.
    file : text stream, default ``sys.stderr``
    interval : float, optional
        Seconds between two lines (default :func:`progress_interval`).
    clock : callable
        The time in seconds (``time.monotonic``); replaceable for tests.
    """

    def __init__(self, total: int, desc: str, unit: str, *, initial: int = 0, file=None,
                 interval: float | None = None, clock=time.monotonic):
        self.total = int(total)
        self.desc, self.unit = desc, unit
        self.n = self.start_n = int(initial)
        self.file = file
        self.interval = progress_interval() if interval is None else float(interval)
        self.clock = clock
        self.start = self.last = clock()
        self.first = None  # (time, count) of the first update
        self.printed = 0

    def update(self, n: int = 1) -> None:
        self.n += int(n)
        now = self.clock()
        if self.first is None:
            self.first = (now, self.n)
        if now - self.last >= self.interval and self.n < self.total:
            self._line(now)

    def close(self) -> None:
        if self.printed:
            self._line(self.clock())

    def close_after(self, seconds: float) -> None:
        """Close with the run's own duration (measured once by the caller, shown as the
        command line shows it, ``27.0 s``) instead of this reporter's clock, so the last line
        and the run's other reports give one number; a last line only when an earlier one
        was printed, as :meth:`close`."""
        if not self.printed:
            return
        pct = 100.0 * self.n / self.total if self.total else 100.0
        end = "done" if self.n >= self.total else "stopped"
        print(f"rankfusion: {self.desc}: {self.n:,} of {self.total:,} {self.unit} "
              f"({pct:.0f} %), {seconds:.1f} s elapsed, {end}", file=self.file or sys.stderr,
              flush=True)
        self.printed += 1

    def line(self, now: float) -> str:
        """The progress line at time ``now``."""
        elapsed = now - self.start
        done = self.n - self.start_n
        pct = 100.0 * self.n / self.total if self.total else 100.0
        text = (f"rankfusion: {self.desc}: {self.n:,} of {self.total:,} {self.unit} "
                f"({pct:.0f} %), {format_seconds(elapsed)} elapsed")
        if self.n >= self.total:
            return text + ", done"
        if self.first is not None and self.n > self.first[1] and now > self.first[0]:
            rate = (now - self.first[0]) / (self.n - self.first[1])
        elif done > 0:
            rate = elapsed / done
        else:
            rate = None
        if rate is not None:
            return text + f", about {format_seconds(rate * (self.total - self.n))} left"
        return text + ", time left unknown"

    def _line(self, now: float) -> None:
        print(self.line(now), file=self.file or sys.stderr, flush=True)
        self.last = now
        self.printed += 1


def progress_bar(total: int, desc: str, unit: str, *, enabled: bool = True,
                 initial: int = 0, file=None):
    """A progress reporter with ``update(n)`` and ``close()``, or None when not ``enabled``:
    a tqdm bar when standard error is an interactive terminal and tqdm is installed, else a
    ``LineProgress`` (one line at most every ``DEFAULT_INTERVAL`` seconds).

    Parameters
    ----------
    total : int
        The pieces of work.
    desc : str
        What is done (``ranking``), at the start of each line or bar.
    unit : str
        What is counted (``lists``).
    enabled : bool, default True
        False = no progress: None is returned.
    initial : int, default 0
        Pieces already done (a resumed run).
    file : text stream, optional
        Where progress goes; None = ``sys.stderr``. A bar only when it is an interactive
        terminal.

    Returns
    -------
    object or None
        The reporter (a ``tqdm`` bar or a ``LineProgress``); None when not ``enabled``.
    """
    if not enabled:
        return None
    stream = file or sys.stderr
    isatty = getattr(stream, "isatty", None)
    if isatty is not None and isatty():
        try:
            from tqdm import tqdm
        except ImportError:  # pragma: no cover - tqdm is a dependency
            pass
        else:
            return tqdm(total=total, initial=initial, desc=desc, unit=unit,
                        file=stream, dynamic_ncols=True, leave=False)
    return LineProgress(total, desc, unit, initial=initial, file=file)
