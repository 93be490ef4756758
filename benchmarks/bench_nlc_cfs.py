"""Benchmark NLC and CFS: ``python benchmarks/bench_nlc_cfs.py``.

* NLC (:func:`rankfusion.rankers.nlc.label_changes`) on a 1,000 × 10,000 matrix (3 classes,
  continuous values and a rounded copy with many ties), against a plain numpy peer that counts
  label changes along a stable argsort *without* optimising the ties (the cheapest possible NLC,
  a lower bound on any implementation's cost).
* CFS (:func:`rankfusion.rankers.cfs.cfs_subset`) on madelon (2,600 × 500) against Weka 3.6's
  whole process (``java -cp /usr/share/java/weka.jar weka.attributeSelection.CfsSubsetEval -i
  madelon.arff -s 'weka.attributeSelection.BestFirst -D 1 -N 5'``), timed side by side in one run
  (our timing is a fresh ``python -c`` process too, imports and numba's cached compilation
  included, plus the in-process time). The selected subsets are compared.

Writes ``benchmarks/results/nlc_cfs.md``.
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.io as sio

HERE = os.path.dirname(os.path.abspath(__file__))
MADELON = "/work/shared/datasets/madelon/madelon.mat"
WEKA = "/usr/share/java/weka.jar"


def best_of(f, repeat=3):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return min(times), out


def naive_nlc(X, y):
    order = np.argsort(X, axis=0, kind="stable")
    lab = y[order]
    return (lab[1:] != lab[:-1]).sum(axis=0)


def bench_nlc(lines):
    from rankfusion.rankers.nlc import label_changes

    rng = np.random.default_rng(0)
    X = rng.normal(size=(1000, 10000))
    y = rng.integers(0, 3, size=1000)
    label_changes(X[:20, :3], y[:20])  # compile / load the numba cache
    lines += ["## NLC, 1,000 × 10,000, 3 classes", "",
              "| data | rankfusion `label_changes` (s) | numpy stable-argsort count, ties not "
              "optimised (s) | ratio |", "|---|---|---|---|"]
    for label, data in [("continuous", X), ("rounded to 0.1 (many ties)", np.round(X, 1))]:
        t_ours, _ = best_of(lambda d=data: label_changes(d, y))
        t_peer, _ = best_of(lambda d=data: naive_nlc(d, y))
        lines.append(f"| {label} | {t_ours:.3f} | {t_peer:.3f} | {t_ours / t_peer:.2f} |")
        print(label, t_ours, t_peer, flush=True)
    lines.append("")


def write_madelon_arff(path):
    m = sio.loadmat(MADELON)
    X, Y = m["X"].astype(np.int64), m["Y"].ravel()
    classes = sorted(set(Y.tolist()))
    with open(path, "w") as fh:
        fh.write("@relation madelon\n")
        for j in range(X.shape[1]):
            fh.write(f"@attribute f{j} numeric\n")
        fh.write("@attribute class {" + ",".join(str(c) for c in classes) + "}\n@data\n")
        for i in range(X.shape[0]):
            fh.write(",".join(str(v) for v in X[i]) + f",{Y[i]}\n")


def bench_cfs(lines):
    tmp = tempfile.mkdtemp()
    arff = os.path.join(tmp, "madelon.arff")
    write_madelon_arff(arff)
    # Weka, whole process
    cmd = ["java", "-cp", WEKA, "weka.attributeSelection.CfsSubsetEval", "-i", arff, "-s",
           "weka.attributeSelection.BestFirst -D 1 -N 5"]
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    t_weka = time.perf_counter() - t
    sel = re.search(r"Selected attributes:([^\n]*)", out).group(1).split(":")[0]
    weka_sel = [int(v) - 1 for v in sel.split(",") if v.strip()]
    # ours, whole process (same ARFF file)
    code = ("import time; t0 = time.perf_counter(); from rankfusion.io import load_data; "
            "from rankfusion.rankers.cfs import cfs_subset; t1 = time.perf_counter(); "
            f"X, y = load_data({arff!r}); t2 = time.perf_counter(); s = cfs_subset(X, y); "
            "t3 = time.perf_counter(); print(','.join(map(str, s))); "
            "print(t1 - t0, t2 - t1, t3 - t2)")
    t = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    t_proc = time.perf_counter() - t
    sel_line, times_line = res.strip().splitlines()
    ours_sel = [int(v) for v in sel_line.split(",") if v]
    t_imp, t_load, t_first = (float(v) for v in times_line.split())
    # ours, in process (data already in memory)
    from rankfusion.rankers.cfs import cfs_subset
    m = sio.loadmat(MADELON)
    X, Y = m["X"].astype(np.float64), m["Y"].ravel()
    t_in, _ = best_of(lambda: cfs_subset(X, Y), repeat=2)
    same = ours_sel == weka_sel
    print("cfs", t_weka, t_proc, t_in, same, flush=True)
    lines += ["## CFS on madelon (2,600 × 500), BestFirst -D 1 -N 5", "",
              "| run | time (s) | ratio to Weka |", "|---|---|---|",
              f"| Weka 3.6.14 `CfsSubsetEval` whole process (JVM start, ARFF parse) | "
              f"{t_weka:.2f} | 1.00 |",
              f"| rankfusion `cfs_subset`, whole process (`python -c`, imports, ARFF parse) | "
              f"{t_proc:.2f} | {t_proc / t_weka:.2f} |",
              f"| rankfusion `cfs_subset`, in process (data in memory) | {t_in:.2f} | "
              f"{t_in / t_weka:.2f} |", "",
              f"Our whole process splits into: `import rankfusion` {t_imp:.2f} s, ARFF parse "
              f"(`rankfusion.io.load_data`) {t_load:.2f} s, first `cfs_subset` call (numba "
              f"cache load included) {t_first:.2f} s.", "",
              f"Selected subsets identical: **{same}** ({len(weka_sel)} features: "
              f"{weka_sel}).", ""]
    os.remove(arff)
    os.rmdir(tmp)


def main():
    lines = ["# NLC and CFS benchmarks", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} cores shared with other jobs; "
             f"Python {platform.python_version()}, numpy {np.__version__}. "
             "Best of 3 (NLC) / 2 (CFS in process) runs; whole-process times are single runs.",
             ""]
    bench_nlc(lines)
    bench_cfs(lines)
    out = os.path.join(HERE, "results", "nlc_cfs.md")
    with open(out, "w") as fh:
        fh.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
