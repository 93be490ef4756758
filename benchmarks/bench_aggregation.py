"""Benchmarks of the aggregation engine (issue: foundation and list-combination engine).

Every figure is a ratio measured in this one run, against a peer timed on the same input:

1. The statistics rules on p = 100,000 features × M = 100 lists of scores, each timed end to end
   (``aggregate(scores, rule)``: ranking every list, then the rule), against a stable
   ``np.argsort`` of the same matrix along the features — ranking each list is the floor.
2. ``schulze`` and ``copeland`` at p = 2,000 and 5,000, M = 28, against a straightforward numpy
   Floyd–Warshall (loop over k, vectorised min/max on int16 arrays) on the same pairwise matrix.

Run: ``python benchmarks/bench_aggregation.py [--quick] [--out benchmarks/results/aggregation.md]``.
Every time is the median of ``--repeat`` (default 5) interleaved runs — ours and the peer in
turn — with the spread (min–max) and the 1-minute load average before each round; never a
best-of (the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import platform
import time
import tracemalloc

import numpy as np

from _timing import interleaved
from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import pairwise_matrix, schulze_strengths

STAT_RULES = ["mean_score", "borda", "median", "average_sd", "best_rank", "q3_sd", "kfirst",
              "rrf", "combmnz"]


def peak_memory(fn):
    """Peak bytes numpy allocates while ``fn`` runs (tracemalloc sees numpy's buffers)."""
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def numpy_floyd_warshall_schulze(d: np.ndarray) -> np.ndarray:
    """The baseline: strongest paths by a plain numpy Floyd–Warshall on int16 arrays."""
    d = d.astype(np.int16)
    P = np.where(d > d.T, d, 0).astype(np.int16)
    for k in range(P.shape[0]):
        np.maximum(P, np.minimum(P[:, k : k + 1], P[k : k + 1, :]), out=P)
    return P


def _loads(loads) -> str:
    return ", ".join(f"{x:.1f}" for x in loads)


def bench_statistics(p, m, repeat, lines):
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(p, m))
    contenders = {"argsort": lambda: np.argsort(scores, axis=0, kind="stable"),
                  "argsort_T": lambda: np.argsort(scores.T, axis=1, kind="stable")}
    for rule in STAT_RULES:
        contenders[rule] = lambda rule=rule: aggregate(scores, rule)
    aggregate(scores[:100], "borda")  # warm-up
    t, loads, _ = interleaved(contenders, repeat)
    floor = t["argsort"].median
    lines.append(f"## Statistics rules, p = {p:,} × M = {m} (random normal scores)\n")
    lines.append(f"Medians of {repeat} interleaved rounds (argsort, argsort of the transpose, "
                 f"then every rule), spread in brackets; load before each round: "
                 f"{_loads(loads)}.\n")
    lines.append(f"Floor: stable `np.argsort(scores, axis=0)` = {t['argsort'].cell()} "
                 f"(on the transposed, contiguous matrix: {t['argsort_T'].cell()}).\n")
    lines.append("| rule | time | ratio to argsort (median; spread of per-round ratios) |")
    lines.append("|---|---|---|")
    for rule in STAT_RULES:
        per = np.array(t[rule].seconds) / np.array(t["argsort"].seconds)
        lines.append(f"| `{rule}` | {t[rule].cell()} | {t[rule].median / floor:.2f}× "
                     f"({per.min():.2f}–{per.max():.2f}) |")
        print(lines[-1], flush=True)
    lines.append("")


def bench_pairwise(sizes, m, baseline_max_p, repeat, lines):
    lines.append(f"## Schulze and Copeland, M = {m} lists (uniformly random full lists)\n")
    lines.append(f"Medians of {repeat} interleaved rounds (`schulze`, the numpy Floyd–Warshall "
                 "on the same pairwise matrix, `copeland`, the pairwise matrix alone), spread in "
                 "brackets, load before the rounds.\n")
    lines.append("| p | `schulze` | numpy Floyd–Warshall | speed-up | `copeland` | "
                 "pairwise matrix | same strongest paths | `schulze` peak memory | load |")
    lines.append("|---|---|---|---|---|---|---|---|---|")
    # warm up the numba kernels (compiled once and cached on disk)
    aggregate(np.random.default_rng(1).normal(size=(50, 3)), "schulze")
    aggregate(np.random.default_rng(1).normal(size=(50, 3)), "copeland")
    for p in sizes:
        rng = np.random.default_rng(p)
        lists = RankedLists.from_scores(rng.normal(size=(p, m)))
        d = pairwise_matrix(lists)
        contenders = {"schulze": lambda lists=lists: aggregate(lists, "schulze")}
        if p <= baseline_max_p:
            contenders["fw"] = lambda d=d: numpy_floyd_warshall_schulze(d)
        contenders["copeland"] = lambda lists=lists: aggregate(lists, "copeland")
        contenders["pairwise"] = lambda lists=lists: pairwise_matrix(lists)
        t, loads, out = interleaved(contenders, repeat)
        if "fw" in t:
            P = schulze_strengths(lists)
            off = ~np.eye(p, dtype=bool)
            same = bool(np.array_equal(P[off], out["fw"][off]))
            ratio = f"{t['fw'].median / t['schulze'].median:.0f}×"
            tb = t["fw"].cell()
        else:
            tb, ratio, same = "not run", "—", "—"
        mem = peak_memory(lambda lists=lists: aggregate(lists, "schulze"))
        lines.append(f"| {p:,} | {t['schulze'].cell()} | {tb} | {ratio} | "
                     f"{t['copeland'].cell()} | {t['pairwise'].cell()} | {same} | "
                     f"{mem / p**2:.1f} p² bytes | {_loads(loads)} |")
        print(lines[-1], flush=True)
    lines.append("")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    ap.add_argument("--out", default=None)
    ap.add_argument("--repeat", type=int, default=5, help="interleaved rounds (default 5)")
    ap.add_argument("--baseline-max-p", type=int, default=5_000,
                    help="largest p where the numpy Floyd–Warshall runs (≈ 90 s a run at 5,000)")
    args = ap.parse_args()
    lines = [f"# Aggregation engine ({platform.machine()}, numpy {np.__version__}, "
             f"{time.strftime('%Y-%m-%d')})\n"]
    if args.quick:
        bench_statistics(10_000, 20, args.repeat, lines)
        bench_pairwise([500, 2_000], 28, 2_000, args.repeat, lines)
    else:
        bench_statistics(100_000, 100, args.repeat, lines)
        bench_pairwise([2_000, 5_000], 28, args.baseline_max_p, args.repeat, lines)
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
