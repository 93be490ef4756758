"""Benchmark of ``aggregate_fuzzy`` in the fuzzy paper's setting, at gene-expression size.

p = 7,129 features (Golub's size), M = 4 methods, L = 100 bootstraps, random scores. The peer is
the direct, loop-by-loop transcription of eqs. 1–13 (Python loops over features and methods,
numpy only inside one feature), the same algorithm a reader of the paper would write first.
Both are timed in this one run, interleaved, and the median of ``repeat`` runs is reported with
the load average. The peer runs on a slice of the features and is scaled up linearly (it is a
loop over features), which is stated in the output.

Run: ``python benchmarks/bench_fuzzy.py [--repeat 5] [--out benchmarks/results/fuzzy.md]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

import numpy as np

from rankfusion import aggregate_fuzzy

WEIGHTINGS = ("EW", "RW", "OW", "MW")


def loop_transcription(S, weighting):
    """Eqs. 1–13 feature by feature (normalisation and rounding per list first)."""
    p, m, n_boot = S.shape
    lo = S.min(axis=0)
    hi = S.max(axis=0)
    g = np.zeros(S.shape, dtype=np.int64)
    for j in range(m):
        for b in range(n_boot):
            span = hi[j, b] - lo[j, b]
            if span > 0:
                g[:, j, b] = np.floor(100 * (S[:, j, b] - lo[j, b]) / span + 0.5 + 1e-9)
    U = np.arange(101) / 100
    c = np.empty(p)
    for i in range(p):
        mu = np.zeros((m, 101))
        for j in range(m):
            mu[j] = np.bincount(g[i, j], minlength=101) / n_boot
        if weighting == "EW":
            w = np.full(m, 1 / m)
        elif weighting in ("RW", "OW"):
            sd = np.array([np.std(g[i, j] / 100, ddof=1) for j in range(m)])
            if weighting == "OW":
                w = (1 - sd) / (1 - sd).sum()
            elif (sd == 0).any():
                w = (sd == 0) / (sd == 0).sum()
            else:
                w = (1 / sd) / (1 / sd).sum()
        else:
            rows = np.arange(1, n_boot + 1)[:, None] / n_boot
            B = [(rows <= mu[j][None, :]).astype(int) for j in range(m)]
            C = sum(B)
            v = np.array([(B[j] * C).sum() / C.sum() for j in range(m)])
            w = v / v.sum()
        mu_com = (w[:, None] * mu).sum(axis=0)
        c[i] = (U * mu_com).sum() / mu_com.sum()
    return c


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--p", type=int, default=7129)
    ap.add_argument("--m", type=int, default=4)
    ap.add_argument("--bootstraps", type=int, default=100)
    ap.add_argument("--peer-features", type=int, default=500,
                    help="features the loop peer runs on (its time is scaled to p)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)

    rng = np.random.default_rng(0)
    S = rng.gamma(2.0, size=(args.p, args.m, args.bootstraps)) * rng.uniform(
        0.01, 1000, size=(1, args.m, 1))
    peer_S = S[: args.peer_features]
    scale = args.p / peer_S.shape[0]
    load_before = os.getloadavg()
    lines = [
        f"# aggregate_fuzzy, p = {args.p:,}, M = {args.m}, L = {args.bootstraps}\n",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, numpy {np.__version__}. Load average before: "
        f"{', '.join(f'{x:.2f}' for x in load_before)}.\n",
        f"Median of {args.repeat} interleaved runs. The loop peer ran on the first "
        f"{peer_S.shape[0]:,} features; its time is scaled ×{scale:.2f} to p.\n",
        "| weighting | aggregate_fuzzy (s) | loop transcription, scaled (s) | speed-up | "
        "same scores on the slice |",
        "|---|---|---|---|---|",
    ]
    for weighting in WEIGHTINGS:
        ours, peer = [], []
        for _ in range(args.repeat):
            t = time.perf_counter()
            res = aggregate_fuzzy(S, weighting)
            ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            c_peer = loop_transcription(peer_S, weighting)
            peer.append((time.perf_counter() - t) * scale)
        same = np.allclose(aggregate_fuzzy(peer_S, weighting).scores, c_peer, atol=1e-12)
        assert res.scores.shape == (args.p,)
        mo, mp = statistics.median(ours), statistics.median(peer)
        lines.append(f"| {weighting} | {mo:.3f} | {mp:.2f} | {mp / mo:.0f}× | {same} |")
        print(lines[-1], flush=True)
    load_after = os.getloadavg()
    lines.append(f"\nLoad average after: {', '.join(f'{x:.2f}' for x in load_after)}.")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
