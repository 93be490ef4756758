"""Small calls on a busy machine: each case idle and beside two CPU-bound background processes.

Cases (docs/design.md, 'Threads'): ``kemeny`` at p = 9 (M = 10 random lists), ``schulze`` at
p = 1,000 (M = 10), and ``SVMRFE(n_jobs=2)`` on St. Jude (248 × 985, 6 classes, 15 OVO
problems; z-scored as in the demo). Each case is run in rounds, each round one idle run then
one loaded run (the two busy processes — plain Python ``while True`` loops — are started
before and stopped after the loaded run), ``--repeat`` rounds, the 1-minute load average
recorded before each round. The table gives medians with the spread (min–max) and the
loaded / idle ratio; the target is ≤ 2.5.
A third column re-runs the loaded case with the parallel variants forced on every core (the
behaviour before the thread policy), to show what the policy saves.

"Idle" means without *our* background processes: on a shared machine other work may run too;
the load averages say how much.

Usage::

    python benchmarks/bench_threads.py            # writes benchmarks/results/threads.md (+ .json)
    python benchmarks/bench_threads.py --quick    # 5 rounds, fewer cases' warm-ups
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

from _timing import Timing, load_average
from rankfusion import SVMRFE, RankedLists, aggregate
from rankfusion._utils import jit
from rankfusion.aggregation import voting
from rankfusion.datasets import load_stjude_leukemia
from rankfusion.rankers.rfe import engine

HERE = os.path.dirname(os.path.abspath(__file__))
BUSY = "while True:\n    pass\n"


def random_lists(p, m, seed):
    rng = np.random.default_rng(seed)
    return RankedLists.from_scores(rng.random((p, m)))


def cases():
    kem = random_lists(9, 10, 0)
    sch = random_lists(1000, 10, 1)
    data = load_stjude_leukemia()
    X = (data.data - data.data.mean(0)) / data.data.std(0)  # z-scored, as the demo
    y = data.target
    return {
        "kemeny p = 9, M = 10": lambda: aggregate(kem, "kemeny", random_state=0).order,
        "schulze p = 1,000, M = 10": lambda: aggregate(sch, "schulze").order,
        "SVMRFE(n_jobs=2), St. Jude 248 × 985 (z-scored)": lambda: SVMRFE(n_jobs=2, random_state=0)
        .fit(X, y).positions_,
    }


class Busy:
    """Two CPU-bound Python processes, started and stopped by us (by their pids)."""

    def __init__(self, n=2):
        self.n = n
        self.procs = []

    def __enter__(self):
        self.procs = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(self.n)]
        time.sleep(0.3)  # let them reach their loops
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            p.kill()
        for p in self.procs:
            p.wait()
        self.procs = []


class AllThreads:
    """The behaviour before the thread policy: parallel variants from any size, every core."""

    def __enter__(self):
        self.saved = (dict(voting.PARALLEL_FROM), engine.PARALLEL_FROM, jit.free_cores)
        for k in voting.PARALLEL_FROM:
            voting.PARALLEL_FROM[k] = 0
        for name in ("_pairwise_counts", "_pairwise_weighted", "_copeland_scores", "_links",
                     "_widest_paths", "_beats_count"):
            getattr(voting, name).parallel_from = 0
        engine.PARALLEL_FROM = 0
        jit.free_cores = lambda: os.cpu_count() or 1
        return self

    def __exit__(self, *exc):
        pf, engine.PARALLEL_FROM, jit.free_cores = self.saved
        voting.PARALLEL_FROM.update(pf)
        for name, key in (("_pairwise_counts", "pairwise"), ("_pairwise_weighted", "pairwise"),
                          ("_copeland_scores", "rows"), ("_links", "rows"),
                          ("_widest_paths", "widest_paths"), ("_beats_count", "rows")):
            getattr(voting, name).parallel_from = pf[key]


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def run(repeat, on_row=None):
    rows = {}
    for name, fn in cases().items():
        ref = fn()  # warm-up: compile, load data
        with AllThreads():
            fn()
        idle, loaded, forced = Timing("idle"), Timing("loaded"), Timing("loaded, all threads")
        loads = []
        same = True
        for _ in range(repeat):
            loads.append(load_average())
            t, out = timed(fn)
            idle.seconds.append(t)
            same &= bool(np.array_equal(out, ref))
            with Busy():
                t, out = timed(fn)
                loaded.seconds.append(t)
                same &= bool(np.array_equal(out, ref))
                with AllThreads():
                    t, out = timed(fn)
                    forced.seconds.append(t)
                    same &= bool(np.array_equal(out, ref))
        rows[name] = {"idle": idle.seconds, "loaded": loaded.seconds,
                      "loaded_all_threads": forced.seconds, "loads": loads, "same": same}
        print(f"{name}: idle {idle.cell()}, loaded {loaded.cell()}, all threads "
              f"{forced.cell()}; loaded/idle {loaded.median / idle.median:.2f}", flush=True)
        if on_row is not None:
            on_row(rows)
    return rows


def write(rows, repeat):
    lines = [
        "# Small calls on a busy machine (thread policy)",
        "",
        f"`python benchmarks/bench_threads.py`; {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}. Medians of {repeat} "
        "rounds (each round: idle run, then loaded run beside two CPU-bound Python processes, "
        "then the loaded run again with the parallel variants forced on every core — the "
        "behaviour before the thread policy); spread (min–max) in brackets; load = 1-minute "
        "load average before each round (other work shares this machine).",
        "",
        "| case | idle | loaded | loaded / idle (target ≤ 2.5) | loaded, all threads | "
        "same result | load before rounds |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, r in rows.items():
        t = {k: Timing(k, r[k]) for k in ("idle", "loaded", "loaded_all_threads")}
        ratio = t["loaded"].median / t["idle"].median
        lines.append(
            f"| {name} | {t['idle'].cell()} | {t['loaded'].cell()} | {ratio:.2f}"
            f"{'' if ratio <= 2.5 else ' (missed)'} | {t['loaded_all_threads'].cell()} | "
            f"{'yes' if r['same'] else 'NO'} | "
            f"{', '.join(f'{x:.1f}' for x in r['loads'])} |")
    lines.append("")
    path = os.path.join(HERE, "results", "threads.md")
    with open(path, "w") as fh:
        fh.write("\n".join(lines))
    with open(os.path.join(HERE, "results", "threads.json"), "w") as fh:
        json.dump(rows, fh, indent=1)
    print(f"written {path}")


def _kernel_args(p, m):
    lists = random_lists(p, m, p)
    pos2t = np.ascontiguousarray(lists.positions2.T, dtype=np.int32)
    d = voting._pairwise_counts.serial()(pos2t, np.zeros((p, p), np.uint8))
    links = voting._links.serial()(d, np.empty_like(d))
    return {
        "_pairwise_counts": (lambda: (pos2t, np.zeros((p, p), np.uint8)), p * p * m),
        "_links": (lambda: (d, np.empty_like(d)), p * p),
        "_widest_paths": (lambda: (links.copy(), 64), p * p),
        "_beats_count": (lambda: (links,), p * p),
        "_copeland_scores": (lambda: (d,), p * p),
    }


def _time_kernels(p, m, repeat):
    lines = []
    for name, (make, work) in _kernel_args(p, m).items():
        k = getattr(voting, name)
        ser, par = k.serial(), k.parallel()
        par(*make())
        ts, tp = Timing("s"), Timing("p")
        load = load_average()
        for _ in range(repeat):
            a = make()
            t0 = time.perf_counter()
            ser(*a)
            ts.seconds.append(time.perf_counter() - t0)
            a = make()
            t0 = time.perf_counter()
            par(*a)
            tp.seconds.append(time.perf_counter() - t0)
        lines.append(f"| {name} | {p} | {work:,} | {ts.cell()} | {tp.cell()} | "
                     f"{tp.median / ts.median:.2f} | {load:.1f} |")
        print(lines[-1], flush=True)
    return lines


def thresholds(repeat):
    """Serial against parallel (every core) variant of each voting kernel over sizes: the
    smallest work where the parallel one is faster is the kernel's threshold."""
    sizes = (100, 300, 1000, 2000, 3000)
    m = 10
    lines = ["", "## Serial / parallel crossing of each kernel", "",
             f"Medians of {repeat} interleaved runs (serial, parallel on {os.cpu_count()} "
             "threads); work = p² (× M for the pairwise counts); load before the first run.",
             "", "| kernel | p | work | serial | parallel | parallel / serial | load |",
             "|---|---|---|---|---|---|---|"]
    for p in sizes:
        lines += _time_kernels(p, m, repeat)
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="5 rounds")
    ap.add_argument("--thresholds", action="store_true",
                    help="only time serial against parallel variants of each kernel by size")
    ap.add_argument("--repeat", type=int, default=None, help="rounds (default 7; 5 quick)")
    args = ap.parse_args()
    repeat = args.repeat or (5 if args.quick else 7)
    if args.thresholds:
        lines = thresholds(repeat)
        with open(os.path.join(HERE, "results", "threads_thresholds.md"), "w") as fh:
            fh.write("# Thread thresholds of the voting kernels\n" + "\n".join(lines) + "\n")
        return
    write(run(repeat, on_row=lambda rows: write(rows, repeat)), repeat)


if __name__ == "__main__":
    main()
