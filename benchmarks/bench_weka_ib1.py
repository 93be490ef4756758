"""Benchmark the Weka-like 1-nearest neighbour: ``python benchmarks/bench_weka_ib1.py``.

:class:`rankfusion.selection.weka_like.WekaIB1` (Weka's ``IBk`` with its defaults: ranges grown
by every test row, every equally nearest training row votes) screens the distances through
one Gram-matrix product per block of test rows and computes the exact distance only for the
rows that can be nearest. Timed, fit plus prediction, medians of interleaved runs:

* splice (3,186 × 180 binary attributes, the NLC paper's largest set), on five of the ten
  stratified folds of ``tests/fixtures/weka_classifiers/splice.csv``, against scikit-learn's
  brute-force ``KNeighborsClassifier(n_neighbors=1)`` on min–max scaled data (in process; it
  neither grows the ranges nor lets ties vote) and against the row-by-row reference
  computation (every test row against the whole training matrix, the computation the screen
  must reproduce);
* Weka 3.6.14's ``IBk`` as a whole process (``java -cp /usr/share/java/weka.jar
  weka.classifiers.lazy.IBk -t train.arff -T test.arff -p 0``) beside our whole process
  (``python -c``: imports, ARFF parse, fit, predict) on one splice fold;
* two families of random inputs over ten seeds each (2,000 training × 500 test rows, 50
  attributes: binary with many ties, and Gaussian), the ratio to scikit-learn per seed.

Predictions are compared: ours with Weka's on every splice row (the fixture), ours with the
row-by-row reference on every timed input. Writes ``benchmarks/results/weka_ib1.md``.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import MinMaxScaler

from _timing import interleaved

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIX = os.path.join(ROOT, "tests", "fixtures", "weka_classifiers", "splice.csv")
WEKA = "/usr/share/java/weka.jar"
REPEAT = 3


def _loads(loads):
    return ", ".join(f"{x:.1f}" for x in loads)


def ours(A, y, B):
    from rankfusion.selection.weka_like import WekaIB1

    return WekaIB1().fit(A, y).predict(B)


def sklearn_peer(A, y, B):
    sc = MinMaxScaler().fit(A)
    return KNeighborsClassifier(n_neighbors=1, algorithm="brute").fit(sc.transform(A), y) \
        .predict(sc.transform(B))


def row_by_row(A, y, B):
    """The reference computation: each test row against the whole (rescaled) training matrix."""
    from rankfusion.selection.weka_like import WekaIB1

    m = WekaIB1().fit(A, y)
    lo, hi = m.min_.copy(), m.max_.copy()
    out = np.empty(B.shape[0], dtype=object)
    for i, b in enumerate(np.asarray(B, dtype=np.float64)):
        lo, hi = np.fmin(lo, b), np.fmax(hi, b)
        d = np.sqrt(m._sq_dist(m._A, b[None, :], lo, hi))
        votes = np.bincount(m._y[d == d.min()], minlength=m.classes_.shape[0])
        out[i] = m.classes_[np.argmax(votes)]
    return out


def bench_splice(lines):
    from rankfusion.datasets import load

    X, y = load("splice", as_frame=True, return_X_y=True)
    X, y = X.to_numpy(dtype=np.float64), y.astype(str).to_numpy()  # the fixture's class names
    fx = pd.read_csv(FIX, dtype=str, keep_default_na=False)
    folds = fx["fold"].astype(int).to_numpy()
    lines += ["## splice (3,186 × 180 binary), fit + predict on one fold", "",
              f"Medians of {REPEAT} interleaved rounds per fold, spread in brackets.", "",
              "| fold (train × test) | rankfusion `WekaIB1` | scikit-learn 1-NN, brute, "
              "min–max scaled | row-by-row reference | ratio to scikit-learn | "
              "ratio to row by row | same predictions as row by row | load before rounds |",
              "|---|---|---|---|---|---|---|---|"]
    r_sk, r_rr = [], []
    for k in range(5):
        tr, te = folds != k, folds == k
        A, B, yy = X[tr], X[te], y[tr]
        t, loads, out = interleaved({"ours": lambda A=A, yy=yy, B=B: ours(A, yy, B),
                                     "sk": lambda A=A, yy=yy, B=B: sklearn_peer(A, yy, B),
                                     "rr": lambda A=A, yy=yy, B=B: row_by_row(A, yy, B)}, REPEAT)
        r_sk.append(t["ours"].median / t["sk"].median)
        r_rr.append(t["ours"].median / t["rr"].median)
        same = bool(np.array_equal(out["ours"], out["rr"]))
        lines.append(f"| {k} ({tr.sum()} × {te.sum()}) | {t['ours'].cell()} | "
                     f"{t['sk'].cell()} | {t['rr'].cell()} | {r_sk[-1]:.2f} | "
                     f"{r_rr[-1]:.3f} | {same} | {_loads(loads)} |")
        print(lines[-1], flush=True)
    pred = np.empty(len(y), dtype=object)
    for k in np.unique(folds):
        tr, te = folds != k, folds == k
        pred[te] = ours(X[tr], y[tr], X[te])
    agree = float(np.mean(pred == fx["ibk"].to_numpy()))
    lines += ["", f"Median ratio to scikit-learn {np.median(r_sk):.2f}, to the row-by-row "
              f"reference {np.median(r_rr):.3f} (the screen is {1 / np.median(r_rr):.0f}× "
              f"faster). Predictions equal to Weka 3.6.14's IBk on {agree:.1%} of the 3,186 "
              "rows (all ten folds).", ""]


def _write_arff(A, y, path):
    with open(path, "w") as fh:
        fh.write("@relation splice\n")
        for j in range(A.shape[1]):
            fh.write(f"@attribute a{j} numeric\n")
        fh.write("@attribute class {" + ",".join(sorted(set(y))) + "}\n@data\n")
        for row, c in zip(A, y):
            fh.write(",".join(f"{v:g}" for v in row) + f",{c}\n")


def bench_weka_process(lines):
    from rankfusion.datasets import load

    X, y = load("splice", as_frame=True, return_X_y=True)
    X, y = X.to_numpy(dtype=np.float64), y.astype(str).to_numpy()
    folds = pd.read_csv(FIX, dtype=str, keep_default_na=False)["fold"].astype(int).to_numpy()
    tmp = tempfile.mkdtemp()
    tr, te = os.path.join(tmp, "train.arff"), os.path.join(tmp, "test.arff")
    _write_arff(X[folds != 0], y[folds != 0], tr)
    _write_arff(X[folds == 0], y[folds == 0], te)
    weka = ["java", "-Xmx1g", "-cp", WEKA, "weka.classifiers.lazy.IBk", "-t", tr, "-T", te,
            "-p", "0"]
    code = ("from rankfusion.io import load_data; "
            "from rankfusion.selection.weka_like import WekaIB1; "
            f"A, y = load_data({tr!r}); B, _ = load_data({te!r}); "
            "print(len(WekaIB1().fit(A, y).predict(B)))")
    t, loads, _ = interleaved({
        "weka": lambda: subprocess.run(weka, capture_output=True, text=True, check=True),
        "proc": lambda: subprocess.run([sys.executable, "-c", code], capture_output=True,
                                       text=True, check=True)}, REPEAT)
    w = t["weka"].median
    lines += ["## Whole processes, splice fold 0 (2,867 × 319)", "",
              f"Medians of {REPEAT} interleaved rounds; load before each round: "
              f"{_loads(loads)}.", "", "| run | time | ratio to Weka |", "|---|---|---|",
              f"| Weka 3.6.14 `IBk` (JVM start, ARFF parse, fit, predict) | {t['weka'].cell()} "
              "| 1.00 |",
              "| rankfusion `WekaIB1` (`python -c`: imports, ARFF parse, fit, predict) | "
              f"{t['proc'].cell()} | {t['proc'].median / w:.2f} |", ""]
    for f in (tr, te):
        os.remove(f)
    os.rmdir(tmp)


def bench_families(lines):
    lines += ["## Random inputs, ten seeds each (2,000 × 50 training, 500 test rows, 3 classes)",
              "", "Per seed the median of 3 interleaved rounds; the table gives the ratio "
              "ours / scikit-learn over the seeds.", "",
              "| family | median ratio | min–max over seeds | our median time | "
              "same predictions as row by row | load (first–last round) |",
              "|---|---|---|---|---|---|"]
    for family in ("binary (many ties)", "Gaussian"):
        ratios, times, same, loads_all = [], [], True, []
        for seed in range(10):
            rng = np.random.default_rng(seed)
            if family.startswith("binary"):
                X = rng.integers(0, 2, (2500, 50)).astype(float)
            else:
                X = rng.normal(size=(2500, 50))
            y = rng.integers(0, 3, 2500).astype(str)
            A, B, yy = X[:2000], X[2000:], y[:2000]
            t, loads, out = interleaved({"ours": lambda A=A, yy=yy, B=B: ours(A, yy, B),
                                         "sk": lambda A=A, yy=yy, B=B: sklearn_peer(A, yy, B)},
                                        REPEAT)
            ratios.append(t["ours"].median / t["sk"].median)
            times.append(t["ours"].median)
            loads_all += loads
            if seed < 3:
                same &= bool(np.array_equal(out["ours"], row_by_row(A, yy, B)))
        lines.append(f"| {family} | {np.median(ratios):.2f} | {min(ratios):.2f}–"
                     f"{max(ratios):.2f} | {np.median(times):.3g} s | {same} (seeds 0–2) | "
                     f"{loads_all[0]:.1f}–{loads_all[-1]:.1f} |")
        print(lines[-1], flush=True)
    lines.append("")


def main():
    lines = ["# Weka-like 1-NN (`WekaIB1`) benchmarks", "",
             f"Machine: {platform.machine()}, {os.cpu_count()} cores shared with other jobs; "
             f"Python {platform.python_version()}, numpy {np.__version__}. Medians of "
             f"{REPEAT} interleaved runs, spread (min–max) in brackets, 1-minute load average "
             "before each round; never a best-of. scikit-learn's 1-NN is a speed reference, "
             "not the same classifier: it keeps the training ranges and breaks distance ties "
             "by training order, where IBk grows the ranges and lets every nearest row vote.",
             ""]
    bench_splice(lines)
    bench_weka_process(lines)
    bench_families(lines)
    out = os.path.join(HERE, "results", "weka_ib1.md")
    with open(out, "w") as fh:
        fh.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
