"""The rule advisor's cost against the rankers alone over the same training parts.

``rankfusion.advise`` with its defaults on the bundled Golub set (72 × 7,129; 3 rankers, 4
rules, 9 sizes: 171 configurations, 144 of them combinations; 2 × 5 outer folds, 3 inner) against
the bare loop of the same rankers on training parts of the same sizes (the 10 outer training
parts, 3 inner training parts in each, and the 3 inner parts and the whole set for the
recommendation: 44 parts × 3 rankers = 132 ranker calls), which is what any nested protocol
must at least spend. The ratio advice / rankers is what the 171 configurations add (aggregation
and classifier fits); the target is ≤ ~3.

Medians of interleaved runs with the spread (min–max) and the load average before each round;
the advisor's own split of its time (rankers, aggregation, classifier, summed over the work) is
recorded from ``Advice.summary["seconds"]``.

Run: ``python benchmarks/bench_advisor.py [--repeat 3] [--out benchmarks/results/advisor.md]``
"""

from __future__ import annotations

import argparse
import os
import platform
from pathlib import Path

import numpy as np
from sklearn.model_selection import RepeatedStratifiedKFold, StratifiedKFold

from _timing import interleaved, load_average
from rankfusion import advise
from rankfusion.datasets import load
from rankfusion.evaluation.advisor import DEFAULT_RANKERS
from rankfusion.rankers import get_ranker

HERE = Path(__file__).resolve().parent


def training_parts(y, cv=5, inner_cv=3, n_repeats=2, seed=0):
    parts = []
    outer = RepeatedStratifiedKFold(n_splits=cv, n_repeats=n_repeats, random_state=seed)
    for train, _ in outer.split(np.zeros(len(y)), y):
        parts.append(train)
        inner = StratifiedKFold(inner_cv, shuffle=True, random_state=seed)
        parts += [train[tr] for tr, _ in inner.split(np.zeros(len(train)), y[train])]
    inner = StratifiedKFold(inner_cv, shuffle=True, random_state=seed)
    parts += [tr for tr, _ in inner.split(np.zeros(len(y)), y)]
    parts.append(np.arange(len(y)))
    return parts


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default=str(HERE / "results" / "advisor.md"))
    args = ap.parse_args()
    X, y = load("golub", return_X_y=True)
    Xv = np.asarray(X, dtype=np.float64)
    codes = np.unique(np.asarray(y), return_inverse=True)[1]
    parts = training_parts(codes)
    rankers = [get_ranker(r) for r in DEFAULT_RANKERS]
    summaries = []

    def ours():
        adv = advise(X, y, random_state=0)
        summaries.append(adv.summary)
        return adv

    def peer():
        for idx in parts:
            for r in rankers:
                r(Xv[idx], codes[idx])

    peer()  # warm-up: numba kernels compiled, caches loaded
    timings, loads, _ = interleaved({"advise": ours, "rankers alone": peer}, args.repeat)
    a, b = timings["advise"], timings["rankers alone"]
    ratios = [x / z for x, z in zip(a.seconds, b.seconds)]
    s = summaries[-1]
    sec = s["seconds"]
    lines = [
        "# Rule advisor: cost against the rankers alone",
        "",
        f"Golub 72 × 7,129, `advise(X, y, random_state=0)` defaults: {s['outer_folds']} outer "
        f"folds, {s['inner_cv']} inner, {len(parts)} training parts; 171 configurations. "
        f"Peer: the {len(parts) * len(rankers)} ranker calls on parts of the same sizes.",
        "",
        "| contender | median (min–max) |",
        "|---|---|",
        f"| advise | {a.cell()} |",
        f"| rankers alone | {b.cell()} |",
        "",
        f"**Median ratio advise / rankers alone: {np.median(ratios):.2f}** "
        f"(rounds: {', '.join(f'{r:.2f}' for r in ratios)}).",
        "",
        f"The advisor's own split (last run, summed over the work): rankers "
        f"{sec['rankers']:.1f} s, aggregation {sec['aggregation']:.1f} s, classifier "
        f"{sec['classifier']:.1f} s for {s['classifier_fits']} fits.",
        "",
        f"Load average before each round: {', '.join(f'{v:.2f}' for v in loads)}; after: "
        f"{load_average():.2f}. {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores.",
    ]
    text = "\n".join(lines) + "\n"
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
