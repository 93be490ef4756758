"""Benchmark the ``cfs`` ranker on Golub (72 × 7,129): ``python benchmarks/bench_cfs_golub.py``.

Ours (:func:`rankfusion.rankers.cfs.cfs`, one compiled greedy loop computing each pair's
symmetric uncertainty once) against the previous implementation, copied below as the peer
(``previous_cfs``: the same greedy search in numpy, one batch of correlations per step through
the lazy :class:`~rankfusion.rankers.cfs.CFSMerit` table). Both run single-threaded
(``NUMBA_NUM_THREADS=1``, set before numba loads) in this process, interleaved (ours, peer,
ours, peer, …), medians of ``RUNS`` pairs with the 1-minute load average recorded before each
pair. Both rankings are checked identical. Appends to ``benchmarks/results/cfs_golub.md``.
"""

from __future__ import annotations

import os

os.environ["NUMBA_NUM_THREADS"] = "1"  # single-threaded, before numba is imported

import datetime  # noqa: E402
import importlib  # noqa: E402
import platform  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "src"))
GOLUB = "/work/shared/datasets/golub_leukemia/golub_merge_72x7129.csv.gz"
RUNS = int(os.environ.get("RUNS", "5"))

cfs_mod = importlib.import_module("rankfusion.rankers.cfs")


def previous_cfs(X, y, *, missing_separate=False):
    """The ``cfs`` ranker before this change (kept verbatim as the benchmark's peer)."""
    ev = cfs_mod._prepare_cfs(X, y, missing_separate)
    p = ev.p
    rcf = ev.class_corr(np.arange(p)).astype(np.float64)
    remaining = np.ones(p, dtype=bool)
    red = np.zeros(p)
    num = 0.0
    pair_sum = 0.0
    scores = np.empty(p)
    for k in range(p):
        cand = np.flatnonzero(remaining)
        denom = (k + 1) + 2.0 * (pair_sum + red[cand])
        merit = np.abs((num + rcf[cand]) / np.sqrt(denom))
        f = int(cand[int(np.argmax(merit))])
        scores[f] = p - (k + 1)
        remaining[f] = False
        num += rcf[f]
        pair_sum += red[f]
        rest = np.flatnonzero(remaining)
        if rest.size:
            ev.ensure(np.maximum(rest, f), np.minimum(rest, f))
            red[rest] += ev.corr[rest, f].astype(np.float64)
    return scores


def timed(f, *a):
    """Wall time, CPU time of this process (= idle wall time when single-threaded), result."""
    c = time.process_time()
    t = time.perf_counter()
    out = f(*a)
    return time.perf_counter() - t, time.process_time() - c, out


def main() -> None:
    df = pd.read_csv(GOLUB)
    y = df["ALL.AML"].to_numpy()
    X = df.iloc[:, 6:].to_numpy(float)  # the 7,129 probes
    small = X[:, :200]
    cfs_mod.cfs(small, y)  # compile / load the numba cache outside the timings
    previous_cfs(small, y)
    ours, peer, ours_cpu, peer_cpu, loads = [], [], [], [], []
    for _ in range(RUNS):
        loads.append(os.getloadavg()[0])
        t, c, a = timed(cfs_mod.cfs, X, y)
        ours.append(t)
        ours_cpu.append(c)
        t, c, b = timed(previous_cfs, X, y)
        peer.append(t)
        peer_cpu.append(c)
        assert np.array_equal(a, b), "rankings differ"
    mo, mp = float(np.median(ours)), float(np.median(peer))
    co, cp = float(np.median(ours_cpu)), float(np.median(peer_cpu))
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"## cfs ranker on Golub 72 × 7,129, single-threaded ({stamp})",
        "",
        f"{platform.machine()}, {os.cpu_count()} cores, numpy {np.__version__}; {RUNS} "
        "interleaved pairs (ours, previous), 1-min load average before each pair: "
        + ", ".join(f"{x:.2f}" for x in loads) + ". Rankings identical in every run.",
        "",
        "| implementation | wall median (s) | wall min–max (s) | CPU median (s) |",
        "|---|---|---|---|",
        f"| ours (`cfs`) | {mo:.2f} | {min(ours):.2f}–{max(ours):.2f} | {co:.2f} |",
        f"| previous (numpy loop + lazy table) | {mp:.2f} | {min(peer):.2f}–{max(peer):.2f} "
        f"| {cp:.2f} |",
        "",
        f"Ratio previous / ours: **{mp / mo:.1f}×** wall, {cp / co:.1f}× CPU. Target < 5 s "
        f"single-threaded: {'met' if mo < 5 else 'MISSED'} on wall time ({mo:.2f} s), "
        f"{'met' if co < 5 else 'MISSED'} on CPU time ({co:.2f} s; one thread, so the CPU "
        "time is the wall time of an idle core).",
        "",
    ]
    path = os.path.join(HERE, "results", "cfs_golub.md")
    new = not os.path.exists(path)
    with open(path, "a") as fh:
        if new:
            fh.write("# CFS ranker speed\n\n")
        fh.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
