"""EnsembleSelector speed: the fuzzy paper's setting, and n_jobs scaling on St. Jude.

1. The fuzzy paper's setting: 100 bootstrap samples (63.2 % of the rows, drawn with
   replacement, as ``experiments/fuzzy/full.toml``) × CFS, ILFS, ReliefF and MIFS on Parkinsons
   (195 × 22), combined by ``fuzzy:MW``. The peer is the bare loop of the same 400 ranker calls
   on the same samples (what any ensemble must at least spend), so the ratio is the selector's
   own overhead (sampling, list building, fuzzy combination, stability). ``n_jobs=1`` and
   ``n_jobs=2`` are timed in the same rounds, and the CPU seconds of the ``n_jobs=1`` fit are
   recorded beside its wall time (on a shared machine wall time is CPU time divided by the share
   of a core the process gets).
2. Parallel scaling: ReliefF, information gain and NLC on ``--stjude-bootstraps`` bootstrap
   samples of St. Jude (248 × 985), ``n_jobs=1`` against ``n_jobs=2``, in interleaved pairs;
   the fitted lists, consensus and stability must be identical. The CPU seconds of every process
   (the parent and joblib's workers) are recorded too: they show whether two workers do more
   work than one.

Medians of interleaved runs, spread (min–max) and the load average before each round.
Run: ``python benchmarks/bench_ensemble.py [--repeat 5] [--out benchmarks/results/ensemble.md]``
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np

from _timing import Timing, interleaved, load_average
from rankfusion import EnsembleSelector
from rankfusion.datasets import load, load_stjude_leukemia
from rankfusion.rankers import get_ranker

FUZZY = dict(rankers=("cfs", "ilfs", "relieff", "mifs"), aggregation="fuzzy:MW",
             n_bootstraps=100, sample_fraction=0.632, stratify=False, random_state=0)
SCALING_RANKERS = ("relieff", "info_gain", "nlc")


def _cpu_of_tree() -> float:
    """CPU seconds (user + system) of this process and its live children (joblib workers)."""
    import psutil

    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.Error:  # pragma: no cover - a worker that just exited
            pass
    return total


def _same(a: EnsembleSelector, b: EnsembleSelector) -> bool:
    return (np.array_equal(a.lists_.positions, b.lists_.positions)
            and np.array_equal(a.scores_, b.scores_)
            and np.array_equal(a.positions_, b.positions_)
            and a.stability_.equals(b.stability_))


def fuzzy_setting(repeat: int):
    X, y = load("parkinsons", return_X_y=True)
    X = np.asarray(X, dtype=float)
    one = EnsembleSelector(n_jobs=1, **FUZZY)
    two = EnsembleSelector(n_jobs=2, **FUZZY)
    rankers = FUZZY["rankers"]
    _, codes = np.unique(y, return_inverse=True)
    cpu = []

    def fit_one():
        c0 = time.process_time()
        one.fit(X, y)
        cpu.append(time.process_time() - c0)
        return one

    def bare_loop():
        out = []
        for idx in one.bootstrap_indices_:  # the selector's own samples
            for r in rankers:
                out.append(get_ranker(r)(X[idx], codes[idx]))
        return out

    # compile and warm (numba kernels, joblib's workers)
    fit_one(), two.fit(X, y), bare_loop()
    assert _same(one, two), "n_jobs changed the fuzzy ensemble"
    cpu.clear()
    timings, loads, _ = interleaved({"EnsembleSelector n_jobs=1": fit_one,
                                     "EnsembleSelector n_jobs=2": lambda: two.fit(X, y),
                                     "bare ranker loop (400 calls)": bare_loop}, repeat)
    assert _same(one, two), "n_jobs changed the fuzzy ensemble"
    return timings, loads, Timing("cpu", cpu)


def scaling(repeat: int, n_bootstraps: int):
    X, y = load_stjude_leukemia(return_X_y=True)
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    kw = dict(rankers=SCALING_RANKERS, n_bootstraps=n_bootstraps, random_state=0)
    one = EnsembleSelector(n_jobs=1, **kw)
    two = EnsembleSelector(n_jobs=2, **kw)
    one.fit(X, y)
    two.fit(X, y)  # starts joblib's workers and compiles their kernels
    assert _same(one, two), "n_jobs changed the lists"
    wall = {"n_jobs=1": Timing("n_jobs=1"), "n_jobs=2": Timing("n_jobs=2")}
    cpu = {"n_jobs=1": Timing("n_jobs=1"), "n_jobs=2": Timing("n_jobs=2")}
    loads = []
    for _ in range(repeat):
        loads.append(load_average())
        for name, sel in (("n_jobs=1", one), ("n_jobs=2", two)):
            c0, t0 = _cpu_of_tree(), time.perf_counter()
            sel.fit(X, y)
            wall[name].seconds.append(time.perf_counter() - t0)
            cpu[name].seconds.append(_cpu_of_tree() - c0)
        assert _same(one, two), "n_jobs changed the lists"
    return wall, cpu, loads


def _autogroup_note() -> str:
    try:
        on = Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        on = False
    if not on:
        return ""
    return ("The kernel schedules by autogroup (one group per session): the other sessions' "
            "`nice` does not lower their weight against this one, and this session's "
            "processes, joblib's workers included, share one group's CPU. With more busy "
            "sessions than cores, the group gets less than one core whatever n_jobs is, so "
            "the wall-time speed-up of n_jobs=2 can only be measured on a machine with two "
            "free cores; the CPU seconds of all processes show what two workers cost beside "
            "one.")


def _loads(loads) -> str:
    return ", ".join(f"{x:.1f}" for x in loads)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--stjude-bootstraps", type=int, default=48)
    ap.add_argument("--skip-fuzzy", action="store_true")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    lines = ["# Ensemble selector", "",
             f"`python benchmarks/bench_ensemble.py --repeat {args.repeat} --stjude-bootstraps "
             f"{args.stjude_bootstraps}` — {platform.machine()}, {os.cpu_count()} CPUs, Python "
             f"{platform.python_version()}, numpy {np.__version__}, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; medians of "
             f"{args.repeat} interleaved runs (min–max), load average before each round.", ""]
    if not args.skip_fuzzy:
        t, loads, cpu = fuzzy_setting(args.repeat)
        base = t["bare ranker loop (400 calls)"].median
        lines += ["## Fuzzy paper setting: Parkinsons 195 × 22, 100 bootstraps × CFS, ILFS, "
                  "ReliefF, MIFS, fuzzy:MW", "",
                  "| contender | wall time | ratio to the bare loop |", "|---|---|---|"]
        lines += [f"| {k} | {v.cell()} | {v.median / base:.2f} |" for k, v in t.items()]
        lines += ["", f"CPU seconds of the `n_jobs=1` fit: {cpu.cell()}. Results of `n_jobs=1` "
                  f"and `n_jobs=2` identical (lists, consensus, stability). Load: "
                  f"{_loads(loads)}.", ""]
    wall, cpu, loads = scaling(args.repeat, args.stjude_bootstraps)
    ratios = [a / b for a, b in zip(wall["n_jobs=1"].seconds, wall["n_jobs=2"].seconds)]
    speedup = wall["n_jobs=1"].median / wall["n_jobs=2"].median
    lines += [f"## n_jobs scaling: St. Jude 248 × 985, ReliefF + IG + NLC × "
              f"{args.stjude_bootstraps} bootstraps", "",
              "| n_jobs | wall time | CPU seconds, all processes |", "|---|---|---|"]
    lines += [f"| {k} | {wall[k].cell()} | {cpu[k].cell()} |" for k in wall]
    lines += ["", f"Speed-up n_jobs=2 over n_jobs=1: {speedup:.2f}× (ratio of the medians; per "
              f"pair {', '.join(f'{r:.2f}' for r in ratios)}). Lists, consensus and stability "
              f"identical. Load before each pair: {_loads(loads)}.", ""]
    share = {k: cpu[k].median / wall[k].median for k in wall}
    lines += [f"CPU share the benchmark got (CPU seconds / wall seconds): {share['n_jobs=1']:.2f} "
              f"cores with n_jobs=1, {share['n_jobs=2']:.2f} with n_jobs=2. "
              f"{_autogroup_note()}", ""]
    text = "\n".join(lines)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
