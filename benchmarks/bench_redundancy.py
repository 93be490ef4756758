"""Benchmark of the redundancy-aware filters against their Python references, in one process.

Data: 200 samples × 2,000 features (two classes, 40 informative features, some redundant
copies), discretised once into 5 equal-frequency bins; both sides get the same codes (ours with
``discretizer="none"``), FCQ gets the raw values. Job: the first ``k`` = 20 features of the
greedy order on both sides (the references have no cheaper full-order mode: scikit-feature
computes every mutual information in Python, one pair at a time).

References: ``mrmr_mid`` and ``jmi`` against the original scikit-feature's ``LCSI.lcsi``
(github.com/jundongl/scikit-feature, commit 48cffad; the pip fork skfeature-chappers ignores
``function_name`` there, see tests/fixtures/redundancy/README.md), read from the git directory
in the environment variable SKFEATURE_GIT; ``cmim`` and ``disr`` against skfeature-chappers
1.2.1; ``mrmr_fcq`` against ``mrmr_selection.mrmr_classif(relevance="f", redundancy="c",
n_jobs=1)``. Median of ``repeat`` interleaved runs (ours, reference, ours, …), the load average
before each round recorded; the ratio is reference / ours (> 1: ours is faster).

Run: ``SKFEATURE_GIT=/path/to/scikit-feature/.git python benchmarks/bench_redundancy.py
[--repeat 3] [--k 20] [--out benchmarks/results/redundancy.md]``.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _timing import interleaved  # noqa: E402
from rankfusion.rankers.redundancy import redundancy_order  # noqa: E402

COMMIT = "48cffad4e88ff4b9d2f1c7baffb314d1b3303792"
NOTE = ("\nDISR's orders differ by design: scikit-feature divides the sum of I(f,s;c)/H(f,s,c) "
        "by Σ_s (1 + I(f;s)), Meyer et al. (2008) and rankfusion do not "
        "(tests/fixtures/redundancy/README.md). The timed job is the same: k greedy steps over "
        "the same codes.")


def data(n=200, p=2000, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    raw = rng.normal(size=(n, p))
    raw[:, :40] += 0.8 * y[:, None]
    raw[:, 40:60] = raw[:, :20] + 0.5 * rng.normal(size=(n, 20))  # redundant copies
    # 5 equal-frequency bins per column (ranks, computed once for both sides)
    ranks = np.argsort(np.argsort(raw, axis=0, kind="stable"), axis=0)
    codes = (ranks * 5 // n).astype(float)
    return codes, y, raw


def original_lcsi():
    git = os.environ.get("SKFEATURE_GIT")
    if not git:
        return None
    src = subprocess.run(["git", "--git-dir", git, "show",
                          f"{COMMIT}:skfeature/function/information_theoretical_based/LCSI.py"],
                         check=True, capture_output=True, text=True).stdout
    ns: dict = {}
    exec(compile(src, "LCSI.py", "exec"), ns)
    return ns["lcsi"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--k", type=int, default=20)
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--p", type=int, default=2000)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    warnings.filterwarnings("ignore")

    import pandas as pd
    from mrmr import mrmr_classif
    from skfeature.function.information_theoretical_based import CMIM, DISR

    codes, y, raw = data(args.n, args.p)
    k = args.k
    cols = [f"f{j}" for j in range(args.p)]
    frame, target = pd.DataFrame(raw, columns=cols), pd.Series(y)
    lcsi = original_lcsi()
    jobs = {}
    if lcsi is not None:
        jobs["mrmr_mid"] = ("scikit-feature 48cffad LCSI(function_name='MRMR')",
                            lambda: lcsi(codes, y, gamma=0, function_name="MRMR",
                                         n_selected_features=k)[0].tolist())
        jobs["jmi"] = ("scikit-feature 48cffad LCSI(function_name='JMI')",
                       lambda: lcsi(codes, y, function_name="JMI",
                                    n_selected_features=k)[0].tolist())
    jobs["cmim"] = ("skfeature-chappers 1.2.1 CMIM.cmim",
                    lambda: CMIM.cmim(codes, y, mode="index", n_selected_features=k).tolist())
    jobs["disr"] = ("skfeature-chappers 1.2.1 DISR.disr",
                    lambda: DISR.disr(codes, y, mode="index", n_selected_features=k).tolist())
    jobs["mrmr_fcq"] = ("mrmr_selection 0.2.8 mrmr_classif(n_jobs=1)",
                        lambda: [cols.index(c) for c in mrmr_classif(
                            frame, target, K=k, n_jobs=1, show_progress=False)])

    lines = [
        f"# Redundancy-aware filters vs their Python references, {args.n} × {args.p:,}, "
        f"first {k} features\n",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, numpy {np.__version__}. Median of {args.repeat} "
        "interleaved runs (min–max); ratio = reference / ours (> 1: ours is faster). Data: "
        "two classes, 40 informative features and 20 noisy copies, 5 equal-frequency bins "
        "(the same codes on both sides; FCQ on the raw values).\n",
        "| filter | reference | ours | reference time | ratio | same order | load before rounds |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, (ref_name, ref) in jobs.items():
        X = raw if name == "mrmr_fcq" else codes
        extra = {} if name == "mrmr_fcq" else {"discretizer": "none"}
        timings, loads, out = interleaved({
            "ours": lambda X=X, name=name, extra=extra: redundancy_order(
                X, y, name, n_select=k, **extra).tolist(),
            "ref": ref}, repeat=args.repeat)
        same = out["ours"] == out["ref"]
        ratio = timings["ref"].median / timings["ours"].median
        lines.append(f"| {name} | {ref_name} | {timings['ours'].cell()} | "
                     f"{timings['ref'].cell()} | {ratio:.0f}× | {same} | "
                     f"{', '.join(f'{x:.2f}' for x in loads)} |")
        print(lines[-1], flush=True)
    lines.append(NOTE)
    if lcsi is None:
        lines.append("\nmrmr_mid and jmi not run: SKFEATURE_GIT was not set.")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
