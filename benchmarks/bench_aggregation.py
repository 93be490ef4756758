"""Benchmarks of the aggregation engine (issue: foundation and list-combination engine).

Every figure is a ratio measured in this one run, against a peer timed on the same input:

1. The statistics rules on p = 100,000 features × M = 100 lists of scores, each timed end to end
   (``aggregate(scores, rule)``: ranking every list, then the rule), against a stable
   ``np.argsort`` of the same matrix along the features — ranking each list is the floor.
2. ``schulze`` and ``copeland`` at p = 2,000 and 5,000, M = 28, against a straightforward numpy
   Floyd–Warshall (loop over k, vectorised min/max on int16 arrays) on the same pairwise matrix.

Run: ``python benchmarks/bench_aggregation.py [--quick] [--out benchmarks/results/aggregation.md]``.
Times are the best of ``repeat`` runs (the machine is shared and noisy).
"""

from __future__ import annotations

import argparse
import platform
import time
import tracemalloc

import numpy as np

from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import pairwise_matrix

STAT_RULES = ["mean_score", "borda", "median", "average_sd", "best_rank", "q3_sd", "kfirst",
              "rrf", "combmnz"]


def best_time(fn, repeat=3):
    best = np.inf
    out = None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
    return best, out


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


def bench_statistics(p, m, repeat, lines):
    rng = np.random.default_rng(0)
    scores = rng.normal(size=(p, m))
    floor, _ = best_time(lambda: np.argsort(scores, axis=0, kind="stable"), repeat)
    floor_t, _ = best_time(lambda: np.argsort(scores.T, axis=1, kind="stable"), repeat)
    lines.append(f"## Statistics rules, p = {p:,} × M = {m} (random normal scores)\n")
    lines.append(f"Floor: stable `np.argsort(scores, axis=0)` = {floor:.3f} s "
                 f"(on the transposed, contiguous matrix: {floor_t:.3f} s).\n")
    lines.append("| rule | time (s) | ratio to argsort |")
    lines.append("|---|---|---|")
    for rule in STAT_RULES:
        t, _ = best_time(lambda rule=rule: aggregate(scores, rule), repeat)
        lines.append(f"| `{rule}` | {t:.3f} | {t / floor:.2f}× |")
        print(lines[-1], flush=True)
    lines.append("")


def bench_pairwise(sizes, m, baseline_max_p, lines):
    lines.append(f"## Schulze and Copeland, M = {m} lists (uniformly random full lists)\n")
    lines.append("| p | `schulze` (s) | numpy Floyd–Warshall (s) | speed-up | `copeland` (s) | "
                 "pairwise matrix (s) | same strongest paths | `schulze` peak memory |")
    lines.append("|---|---|---|---|---|---|---|---|")
    # warm up the numba kernels (compiled once and cached on disk)
    aggregate(np.random.default_rng(1).normal(size=(50, 3)), "schulze")
    aggregate(np.random.default_rng(1).normal(size=(50, 3)), "copeland")
    for p in sizes:
        rng = np.random.default_rng(p)
        lists = RankedLists.from_scores(rng.normal(size=(p, m)))
        t_d, d = best_time(lambda lists=lists: pairwise_matrix(lists), 3)
        t_s, _ = best_time(lambda lists=lists: aggregate(lists, "schulze"), 3)
        t_c, _ = best_time(lambda lists=lists: aggregate(lists, "copeland"), 3)
        if p <= baseline_max_p:
            from rankfusion.aggregation import schulze_strengths

            t_b, P_ref = best_time(lambda d=d: numpy_floyd_warshall_schulze(d), 1)
            P = schulze_strengths(lists)
            off = ~np.eye(p, dtype=bool)
            same = bool(np.array_equal(P[off], P_ref[off]))
            ratio = f"{t_b / t_s:.0f}×"
            tb = f"{t_b:.1f}"
        else:
            tb, ratio, same = "not run", "—", "—"
        mem = peak_memory(lambda lists=lists: aggregate(lists, "schulze"))
        lines.append(f"| {p:,} | {t_s:.2f} | {tb} | {ratio} | {t_c:.3f} | {t_d:.3f} | {same} | "
                     f"{mem / p**2:.1f} p² bytes |")
        print(lines[-1], flush=True)
    lines.append("")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    lines = [f"# Aggregation engine ({platform.machine()}, numpy {np.__version__}, "
             f"{time.strftime('%Y-%m-%d')})\n"]
    if args.quick:
        bench_statistics(10_000, 20, 2, lines)
        bench_pairwise([500], 28, 500, lines)
    else:
        bench_statistics(100_000, 100, 3, lines)
        bench_pairwise([2_000, 5_000], 28, 5_000, lines)
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
