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

import numpy as np
import scipy.io as sio

from _timing import interleaved

HERE = os.path.dirname(os.path.abspath(__file__))
MADELON = "/work/shared/datasets/madelon/madelon.mat"
WEKA = "/usr/share/java/weka.jar"


def naive_nlc(X, y):
    order = np.argsort(X, axis=0, kind="stable")
    lab = y[order]
    return (lab[1:] != lab[:-1]).sum(axis=0)


REPEAT = 5


def _loads(loads):
    return ", ".join(f"{x:.1f}" for x in loads)


def bench_nlc(lines):
    from rankfusion.rankers.nlc import label_changes

    rng = np.random.default_rng(0)
    X = rng.normal(size=(1000, 10000))
    y = rng.integers(0, 3, size=1000)
    label_changes(X[:20, :3], y[:20])  # compile / load the numba cache
    lines += ["## NLC, 1,000 × 10,000, 3 classes", "",
              "| data | rankfusion `label_changes` | numpy stable-argsort count, ties not "
              "optimised | ratio | load before rounds |", "|---|---|---|---|---|"]
    for label, data in [("continuous", X), ("rounded to 0.1 (many ties)", np.round(X, 1))]:
        t, loads, _ = interleaved({"ours": lambda d=data: label_changes(d, y),
                                   "peer": lambda d=data: naive_nlc(d, y)}, REPEAT)
        lines.append(f"| {label} | {t['ours'].cell()} | {t['peer'].cell()} | "
                     f"{t['ours'].median / t['peer'].median:.2f} | {_loads(loads)} |")
        print(lines[-1], flush=True)
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
    from rankfusion.rankers.cfs import cfs_subset

    weka_cmd = ["java", "-cp", WEKA, "weka.attributeSelection.CfsSubsetEval", "-i", arff, "-s",
                "weka.attributeSelection.BestFirst -D 1 -N 5"]
    code = ("from rankfusion.io import load_data; "
            "from rankfusion.rankers.cfs import cfs_subset; "
            f"X, y = load_data({arff!r}); print(','.join(map(str, cfs_subset(X, y))))")
    m = sio.loadmat(MADELON)
    X, Y = m["X"].astype(np.float64), m["Y"].ravel()
    t, loads, out = interleaved({
        "weka": lambda: subprocess.run(weka_cmd, capture_output=True, text=True,
                                       check=True).stdout,
        "proc": lambda: subprocess.run([sys.executable, "-c", code], capture_output=True,
                                       text=True, check=True).stdout,
        "in": lambda: cfs_subset(X, Y)}, REPEAT)
    sel = re.search(r"Selected attributes:([^\n]*)", out["weka"]).group(1).split(":")[0]
    weka_sel = [int(v) - 1 for v in sel.split(",") if v.strip()]
    ours_sel = [int(v) for v in out["proc"].strip().split(",") if v]
    same = ours_sel == weka_sel == out["in"].tolist()
    w = t["weka"].median
    lines += ["## CFS on madelon (2,600 × 500), BestFirst -D 1 -N 5", "",
              f"Medians of {REPEAT} interleaved rounds (Weka, our whole process, ours in "
              f"process), spread in brackets; load before each round: {_loads(loads)}.", "",
              "| run | time | ratio to Weka |", "|---|---|---|",
              "| Weka 3.6.14 `CfsSubsetEval` whole process (JVM start, ARFF parse) | "
              f"{t['weka'].cell()} | 1.00 |",
              "| rankfusion `cfs_subset`, whole process (`python -c`, imports, ARFF parse) | "
              f"{t['proc'].cell()} | {t['proc'].median / w:.2f} |",
              f"| rankfusion `cfs_subset`, in process (data in memory) | {t['in'].cell()} | "
              f"{t['in'].median / w:.2f} |", "",
              f"Selected subsets identical: **{same}** ({len(weka_sel)} features: "
              f"{weka_sel}).", ""]
    os.remove(arff)
    os.rmdir(tmp)


def main():
    lines = ["# NLC and CFS benchmarks", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} cores shared with other jobs; "
             f"Python {platform.python_version()}, numpy {np.__version__}. "
             f"Medians of {REPEAT} interleaved runs (ours, peer, …), spread (min–max) in "
             "brackets, 1-minute load average before each round; never a best-of.",
             ""]
    bench_nlc(lines)
    bench_cfs(lines)
    out = os.path.join(HERE, "results", "nlc_cfs.md")
    with open(out, "w") as fh:
        fh.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
