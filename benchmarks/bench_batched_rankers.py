"""Batched rankers: B bootstraps × ANOVA F and χ² at once against one call per bootstrap.

The ensemble's ranking step (:func:`rankfusion.selection.ranking_jobs.run_ranking_jobs`, what
``EnsembleSelector(rankers=("f_classif", "chi2"), n_bootstraps=B)`` spends in its rankers)
timed on a random two-class data set, non-negative (χ² needs counts or frequencies) with 50
informative features: the batched path (all bootstraps from the multiplicity matrix,
:func:`rankfusion.rankers.batched_scores`) against the path of one prepared-kernel call per
bootstrap and ranker (``ranking_jobs._BATCHED["on"] = False``), the same bootstrap samples. The
whole ``EnsembleSelector.fit`` (Borda over the 2·B lists, the stability table) is timed too,
both ways. Every round checks that the two paths give the same positions in every list, the
same consensus and the same subset (top 50), and the largest relative score difference.

Medians of interleaved rounds, spread (min–max), the 1-minute load average before each round.
Run: ``python benchmarks/bench_batched_rankers.py`` (20,000 × 500, 100 bootstraps, ranking
step only: a few minutes on a loaded 2-core machine) or ``--full`` (1,000 bootstraps and the
whole fit too; not run on the shared 2-core machine, where the one-at-a-time path alone takes
about 25 minutes a round at a load of 10); results go to ``benchmarks/results/batched.md``
(``--out``), then ``python benchmarks/collect_results.py``.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import load_average  # noqa: E402
from rankfusion import EnsembleSelector  # noqa: E402
from rankfusion.selection import ranking_jobs  # noqa: E402
from rankfusion.selection.ranker_specs import resolve_rankers  # noqa: E402

HERE = Path(__file__).resolve().parent


def make_data(n: int, p: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], [n // 2, n - n // 2])
    X = rng.gamma(2.0, 1.0, size=(n, p))
    X[:, :50] += 0.6 * y[:, None]
    return X, y


def ranking_step(X, y, B, batched: bool):
    ranking_jobs._BATCHED["on"] = batched
    try:
        plan = ranking_jobs.plan_ranking_jobs(resolve_rankers(["f_classif", "chi2"]), y, 0,
                                              n_bootstraps=B)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ranking_jobs.run_ranking_jobs(plan, X, y, X.shape[1])[0]
    finally:
        ranking_jobs._BATCHED["on"] = True


def whole_fit(X, y, B, batched: bool):
    ranking_jobs._BATCHED["on"] = batched
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return EnsembleSelector(rankers=["f_classif", "chi2"], n_bootstraps=B,
                                    n_features_to_select=50, random_state=0).fit(X, y)
    finally:
        ranking_jobs._BATCHED["on"] = True


def _positions(scores):
    return np.argsort(np.argsort(-scores, axis=0, kind="stable"), axis=0, kind="stable")


def _cell(ts):
    return f"{np.median(ts):.3g} s ({min(ts):.3g}–{max(ts):.3g})"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="1,000 bootstraps and the whole fit")
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--p", type=int, default=20000)
    ap.add_argument("--bootstraps", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=HERE / "results" / "batched.md")
    a = ap.parse_args(argv)
    B = a.bootstraps or (1000 if a.full else 100)
    X, y = make_data(a.n, a.p)
    lines = ["# Batched rankers: all bootstraps at once", "",
             f"Machine: {os.cpu_count()} cores shared with other jobs; numpy {np.__version__}, "
             f"Python {platform.python_version()}. Run: `python benchmarks/"
             f"bench_batched_rankers.py{' --full' if a.full else ''}`. Random two-class "
             f"data {a.n} × {a.p} (gamma, 50 informative features), {B} bootstraps × "
             "`f_classif` and `chi2`. Medians of "
             f"{a.repeat} interleaved rounds, spread (min–max) in brackets.", ""]
    sections = [("ranking step (run_ranking_jobs)", ranking_step)]
    if a.full:
        sections.append(("whole EnsembleSelector.fit (Borda, top 50, stability)", whole_fit))
    summary = []
    for title, func in sections:
        old, new, loads, ratios = [], [], [], []
        worst, same = 0.0, True
        for _ in range(a.repeat):
            loads.append(load_average())
            t0 = time.perf_counter()
            ref = func(X, y, B, False)
            t1 = time.perf_counter()
            got = func(X, y, B, True)
            t2 = time.perf_counter()
            old.append(t1 - t0)
            new.append(t2 - t1)
            ratios.append((t1 - t0) / (t2 - t1))
            if func is ranking_step:
                same &= bool(np.array_equal(_positions(ref), _positions(got)))
                big = np.abs(ref) > 1e-6 * np.abs(ref).max(axis=0)
                rel = np.abs(got - ref)[big] / np.abs(ref)[big]
                worst = max(worst, float(rel.max()) if rel.size else 0.0)
            else:
                same &= bool(np.array_equal(ref.lists_.positions, got.lists_.positions)
                             and np.array_equal(ref.positions_, got.positions_)
                             and np.array_equal(ref.support_, got.support_))
            print(f"{title}: one at a time {t1 - t0:.2f} s, batched {t2 - t1:.2f} s, "
                  f"same={same}", flush=True)
        ratio = np.median(old) / np.median(new)
        lines += [f"## {title}", "",
                  "Load before each round: " + ", ".join(f"{v:.1f}" for v in loads) + ".", "",
                  "| path | seconds |", "|---|---|",
                  f"| one call per bootstrap and ranker | {_cell(old)} |",
                  f"| batched | {_cell(new)} |", "",
                  f"Ratio one-at-a-time / batched: **{ratio:.1f}×** (per round "
                  f"{min(ratios):.1f}–{max(ratios):.1f}×). Identical positions"
                  f"{' in every list, consensus and subset' if func is whole_fit else ''}: "
                  f"**{'yes' if same else 'NO'}**"
                  + (f"; largest relative score difference {worst:.1e} (scores above 1e-6 "
                     "of their list's largest)" if func is ranking_step else "") + ".", ""]
        summary.append(same)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text("\n".join(lines))
    print("\n".join(lines))
    return 0 if all(summary) else 1


if __name__ == "__main__":
    raise SystemExit(main())
