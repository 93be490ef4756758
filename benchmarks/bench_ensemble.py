"""EnsembleSelector speed: the fuzzy paper's setting, and n_jobs scaling on St. Jude.

1. The fuzzy paper's setting: 100 bootstrap samples × CFS, ILFS, ReliefF and MIFS on Parkinsons
   (195 × 22), combined by ``fuzzy:OW``. The peer is the bare loop of the same 400 ranker calls
   on the same samples (what any ensemble must at least spend), so the ratio is the selector's
   own overhead (sampling, list building, fuzzy combination, stability).
2. Parallel scaling: ReliefF, information gain and NLC on 12 bootstrap samples of St. Jude
   (248 × 985) with ``n_jobs=1`` and ``n_jobs=2``; the lists must be identical.

Medians of interleaved runs, load average recorded before each round.
Run: ``python benchmarks/bench_ensemble.py [--repeat 5] [--out benchmarks/results/ensemble.md]``
"""

from __future__ import annotations

import argparse
import platform
from pathlib import Path

import numpy as np
import pandas as pd

from _timing import interleaved
from rankfusion import EnsembleSelector
from rankfusion.rankers import get_ranker
from rankfusion.selection.resampling import bootstrap_indices

DATASETS = Path("/work/shared/datasets")


def parkinsons():
    df = pd.read_csv(DATASETS / "parkinsons" / "parkinsons.data")
    return df.drop(columns=["name", "status"]).to_numpy(float), df["status"].to_numpy()


def stjude():
    from rankfusion.datasets import load_stjude_leukemia

    X, y = load_stjude_leukemia(return_X_y=True)
    return np.asarray(X, dtype=float), np.asarray(y)


def fuzzy_setting(repeat):
    X, y = parkinsons()
    rankers = ("cfs", "ilfs", "relieff", "mifs")
    sel = EnsembleSelector(rankers=rankers, aggregation="fuzzy:OW", n_bootstraps=100,
                           random_state=0)

    def ours():
        return sel.fit(X, y)

    def bare_loop():
        seeds = np.random.SeedSequence(0).spawn(100)
        out = []
        for idx in bootstrap_indices(y, seeds):
            for r in rankers:
                out.append(get_ranker(r)(X[idx], y[idx]))
        return out

    ours(), bare_loop()  # compile and warm
    timings, loads, _ = interleaved({"EnsembleSelector": ours, "bare ranker loop": bare_loop},
                                    repeat)
    return timings, loads


def scaling(repeat):
    X, y = stjude()
    kw = dict(rankers=("relieff", "info_gain", "nlc"), n_bootstraps=12, random_state=0)
    one = EnsembleSelector(n_jobs=1, **kw)
    two = EnsembleSelector(n_jobs=2, **kw)
    a = one.fit(X, y).lists_.positions.copy()
    b = two.fit(X, y).lists_.positions.copy()
    assert np.array_equal(a, b), "n_jobs changed the lists"
    timings, loads, _ = interleaved({"n_jobs=1": lambda: one.fit(X, y),
                                     "n_jobs=2": lambda: two.fit(X, y)}, repeat)
    return timings, loads


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    lines = ["# EnsembleSelector", "",
             f"Machine: {platform.machine()}, {platform.python_version()}; medians of "
             f"{args.repeat} interleaved runs (min–max), load average before each round.", ""]
    t, loads = fuzzy_setting(args.repeat)
    ratio = t["EnsembleSelector"].median / t["bare ranker loop"].median
    lines += ["## Fuzzy paper setting: Parkinsons 195 × 22, 100 bootstraps × CFS, ILFS, "
              "ReliefF, MIFS, fuzzy:OW", "",
              "| contender | time |", "|---|---|"]
    lines += [f"| {k} | {v.cell()} |" for k, v in t.items()]
    lines += ["", f"Selector / bare loop: {ratio:.2f}×. Load: "
              f"{', '.join(f'{x:.1f}' for x in loads)}.", ""]
    t, loads = scaling(args.repeat)
    speedup = t["n_jobs=1"].median / t["n_jobs=2"].median
    lines += ["## n_jobs scaling: St. Jude 248 × 985, ReliefF + IG + NLC × 12 bootstraps", "",
              "| n_jobs | time |", "|---|---|"]
    lines += [f"| {k} | {v.cell()} |" for k, v in t.items()]
    lines += ["", f"Speed-up n_jobs=2 over n_jobs=1: {speedup:.2f}× (lists identical). Load: "
              f"{', '.join(f'{x:.1f}' for x in loads)}.", ""]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
