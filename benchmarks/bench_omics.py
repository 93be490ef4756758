"""Aggregation at omics size: ``python benchmarks/bench_omics.py``.

1. Every statistics rule at p = 1,000,000 × M = 100 (normal scores) against a stable
   ``np.argsort(scores, axis=0, kind="stable")`` of the same matrix, measured in the same run
   and interleaved (argsort, then every rule, repeated ``RUNS`` times; the rules run on a
   prebuilt :class:`~rankfusion.RankedLists`, whose construction is timed separately). Peak
   memory of each rule: the peak of ``tracemalloc`` (numpy reports its buffers to it) during a
   separate call, divided by the score matrix's bytes. Targets: ≤ 3× the argsort time and
   ≤ 3× the input's memory.
2. ``schulze`` and ``kemeny`` with ``candidates=2000`` on p = 1,000,000 × M = 28: 28 noisy
   copies of one signal (3,000 informative features with graded effects, the rest noise), as
   filters that agree on the strong features. Target < 60 s per call.

Medians over the runs with the 1-minute load average recorded before each run; every case runs
``RUNS`` (default 5) times. Rewrites ``benchmarks/results/omics.md``.
``P``/``M``/``P2``/``M2``/``RUNS`` override the sizes (environment variables).
"""

from __future__ import annotations

import datetime
import gc
import os
import platform
import sys
import time
import tracemalloc

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))

from rankfusion import RankedLists, aggregate  # noqa: E402

P = int(os.environ.get("P", "1000000"))
M = int(os.environ.get("M", "100"))
P2 = int(os.environ.get("P2", "1000000"))
M2 = int(os.environ.get("M2", "28"))
RUNS = int(os.environ.get("RUNS", "5"))
STATS = ["mean_score", "borda", "median", "average_sd", "best_rank", "q3_sd", "kfirst", "rrf",
         "combmnz", "rra"]
#: (time, memory) targets as multiples of the argsort and of the input
TARGETS = {"from_scores": (1.2, 2.0), "rra": (1.5, 3.0)}


def timed(f, *a, **k):
    t = time.perf_counter()
    out = f(*a, **k)
    return time.perf_counter() - t, out


def peak_bytes(f, *a, **k):
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    out = f(*a, **k)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del out
    return peak


def spread(xs):
    return f"{min(xs):.2f}–{max(xs):.2f}"


def bench_statistics(lines):
    rng = np.random.default_rng(0)
    S = rng.standard_normal((P, M))
    small = RankedLists.from_scores(S[:1000])
    for r in STATS:  # warm-up (numba caches, imports)
        aggregate(small, r)
    RankedLists.from_scores(S[:1000])
    St = np.ascontiguousarray(S.T)  # lists × features, each list contiguous
    times = {r: [] for r in ["argsort", "argsort_t", "from_scores", *STATS]}
    loads = []
    L = None
    for _ in range(RUNS):
        loads.append(os.getloadavg()[0])
        t, o = timed(np.argsort, S, axis=0, kind="stable")
        del o
        times["argsort"].append(t)
        t, o = timed(np.argsort, St, axis=1, kind="stable")
        del o
        times["argsort_t"].append(t)
        del L
        gc.collect()
        t, L = timed(RankedLists.from_scores, S)
        times["from_scores"].append(t)
        for r in STATS:
            t, o = timed(aggregate, L, r)
            del o
            times[r].append(t)
    mem = {r: peak_bytes(aggregate, L, r) / S.nbytes for r in STATS}
    del L
    gc.collect()
    mem["argsort"] = peak_bytes(np.argsort, S, axis=0, kind="stable") / S.nbytes
    mem["from_scores"] = peak_bytes(RankedLists.from_scores, S) / S.nbytes
    base = float(np.median(times["argsort"]))
    lines += [
        f"## Statistics rules, p = {P:,} × M = {M} ({RUNS} interleaved runs)",
        "",
        f"Input: {S.nbytes / 2**20:,.0f} MiB of float64 scores; `from_scores` builds the "
        "`RankedLists` (ranking every list; the rules run on it). 1-min load average before "
        "each run: " + ", ".join(f"{x:.2f}" for x in loads) + f" ({os.cpu_count()} cores).",
        "",
        "| step | median (s) | min–max (s) | time / argsort | peak memory / input | "
        "targets (time, memory) |",
        "|---|---|---|---|---|---|",
    ]
    del St
    mem["argsort_t"] = float("nan")
    base_t = float(np.median(times["argsort_t"]))
    for r in ["argsort", "argsort_t", "from_scores", *STATS]:
        med = float(np.median(times[r]))
        tt, tm = TARGETS.get(r, (3.0, 3.0))
        ok = "peer" if r.startswith("argsort") else (
            f"≤ {tt:g}×, ≤ {tm:g}×: " + ("met" if med <= tt * base else "MISSED time") + ", "
            + ("met" if mem[r] <= tm else "MISSED memory"))
        name = {"argsort": "stable `np.argsort(S, axis=0)` (peer)",
                "argsort_t": "same on the transposed contiguous copy",
                "from_scores": "`RankedLists.from_scores(S)`"}.get(r, f"`{r}`")
        lines.append(f"| {name} | {med:.2f} | {spread(times[r])} | {med / base:.2f}× | "
                     f"{mem[r]:.2f}× | {ok} |")
    lines += ["", "Against the faster contiguous argsort (" + f"{base_t:.2f} s): "
              + ", ".join(f"`{r}` {float(np.median(times[r])) / base_t:.2f}×"
                          for r in ["from_scores", *STATS])
              + ".", ""]
    del S
    gc.collect()


def bench_pairwise(lines):
    rng = np.random.default_rng(1)
    signal = np.zeros(P2)
    signal[:3000] = 3.0 + 5.0 * np.linspace(1.0, 0.0, 3000)
    S = signal[:, None] + rng.standard_normal((P2, M2))
    t_build, L = timed(RankedLists.from_scores, S)
    del S
    small = RankedLists.from_scores(rng.random((300, 5)))
    for r in ("schulze", "kemeny"):
        aggregate(small, r, candidates=50)
    times = {"schulze": [], "kemeny": []}
    loads, info = [], {}
    for _ in range(RUNS):
        loads.append(os.getloadavg()[0])
        for r in times:
            t, res = timed(aggregate, L, r, candidates=2000)
            times[r].append(t)
            info[r] = res.info
    lines += [
        f"## Schulze and Kemeny with candidates=2000, p = {P2:,} × M = {M2} "
        f"({RUNS} interleaved runs)",
        "",
        f"Building the `RankedLists`: {t_build:.2f} s, once. Candidates (union of the lists' "
        f"top 2,000): {info['schulze']['n_candidates']:,}. 1-min load average before each "
        "run: " + ", ".join(f"{x:.2f}" for x in loads) + ".",
        "",
        "| rule | median (s) | min–max (s) | target < 60 s |",
        "|---|---|---|---|",
    ]
    for r in times:
        med = float(np.median(times[r]))
        lines.append(f"| `{r}` | {med:.2f} | {spread(times[r])} | "
                     f"{'met' if med < 60 else 'MISSED'} |")
    k = info["kemeny"]
    lines += ["", f"Kemeny on the candidates: optimal={k['optimal']}, objective "
              f"{k['objective']:,.0f}, lower bound {k['lower_bound']:,.0f}, "
              f"{len(k['parts'])} Condorcet parts (largest {max(k['parts'])}).", ""]


def main() -> None:
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [f"# Omics-size aggregation ({platform.machine()}, {os.cpu_count()} cores, "
             f"numpy {np.__version__}, {stamp})", ""]
    if "--pairwise-only" not in sys.argv:
        bench_statistics(lines)
    if "--statistics-only" not in sys.argv:
        bench_pairwise(lines)
    path = os.path.join(HERE, "results", "omics.md")
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
