"""Ranking time of NLC, ReliefF and IG on the NLC paper's data sets we have (§5, timing).

    python experiments/nlc/timing.py

Each ranker scores every data set (all rows) once to warm up (numba compilation, caches),
then ``REPEATS`` interleaved rounds (NLC, ReliefF, IG on one set, then the next set …); the
median of each ranker's rounds is reported, with the load average at the start and end (the
machine is shared). Paper: NLC 792 ms, ReliefF 566 s, IG 2189 ms over its 18 sets (Weka, 2003).
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from rankfusion.datasets import load
from rankfusion.rankers import get_ranker

ROOT = Path(__file__).resolve().parents[2]
SETS = ("german_credit", "pima", "glass", "ionosphere", "iris", "segment", "sonar", "splice",
        "vehicle", "vowel", "zoo")
RANKERS = ("nlc", "relieff", "info_gain")
REPEATS = 5


def main(out: Path) -> None:
    data = {}
    for s in SETS:
        b = load(s, as_frame=True)
        data[s] = (b.data, np.asarray(b.target))
    load0 = os.getloadavg()
    for X, y in data.values():  # warm-up
        for r in RANKERS:
            get_ranker(r)(X, y)
    times = {(s, r): [] for s in SETS for r in RANKERS}
    for _ in range(REPEATS):
        for s, (X, y) in data.items():
            for r in RANKERS:
                t = time.perf_counter()
                get_ranker(r)(X, y)
                times[s, r].append(time.perf_counter() - t)
    rows = [{"dataset": s, "n": data[s][0].shape[0], "p": data[s][0].shape[1], "ranker": r,
             "median_ms": 1000 * float(np.median(v))} for (s, r), v in times.items()]
    df = pd.DataFrame(rows)
    wide = df.pivot_table(index=["dataset", "n", "p"], columns="ranker", values="median_ms")
    wide = wide[list(RANKERS)]
    total = wide.sum()
    red = {f"nlc_vs_{r}": float((1 - wide["nlc"] / wide[r]).mean()) for r in RANKERS[1:]}
    meta = {"total_ms": total.round(1).to_dict(), "mean_time_reduction": red,
            "loadavg_start": load0, "loadavg_end": os.getloadavg(), "repeats": REPEATS,
            "machine": platform.platform(), "cpus": os.cpu_count()}
    out.mkdir(parents=True, exist_ok=True)
    wide.round(2).to_csv(out / "timing.csv")
    (out / "timing.json").write_text(json.dumps(meta, indent=1))
    md = ["| dataset | n | p | NLC ms | ReliefF ms | IG ms |\n|---|---|---|---|---|---|\n"]
    for (s, n, p), r in wide.iterrows():
        md.append(f"| {s} | {n} | {p} | {r['nlc']:.1f} | {r['relieff']:.1f} | "
                  f"{r['info_gain']:.1f} |\n")
    md.append(f"| **total** | | | {total['nlc']:.0f} | {total['relieff']:.0f} | "
              f"{total['info_gain']:.0f} |\n")
    md.append(f"\nMean per-set time reduction of NLC: {100 * red['nlc_vs_relieff']:.0f} % vs "
              f"ReliefF, {100 * red['nlc_vs_info_gain']:.0f} % vs IG (paper: 99 % and 50 %). "
              f"Load average {load0[0]:.1f} → {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
              "cores.\n")
    (out / "timing.md").write_text("".join(md))
    print("".join(md))


if __name__ == "__main__":
    main(ROOT / "experiments" / "results" / "nlc" / (sys.argv[1] if len(sys.argv) > 1 else "full"))
