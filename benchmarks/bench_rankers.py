"""Speed of the Weka-exact rankers, side by side with their peers in one run.

* ReliefF on madelon (2,600 × 500, /work/shared/datasets/madelon): rankfusion ``relieff``
  vs skrebate's ``ReliefF`` (same k = 10, all instances) vs Weka 3.6's whole process
  (JVM start, ARFF parse, ``ReliefFAttributeEval``, printing), with the Weka scores compared.
* The four information measures (MDL + IG, gain ratio, SU, chi-square) on a random
  1,000 × 10,000 matrix, and on the Golub leukaemia set (72 × 7,129) against Weka's whole
  process (``InfoGainAttributeEval``) with the scores compared.

Run: ``python benchmarks/bench_rankers.py [--no-skrebate] [--out benchmarks/results/rankers.md]``.
Weka runs through ``tests/fixtures/weka/WekaScores.java`` (compiled once, outside the timings).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from rankfusion.rankers import chi_square, gain_ratio, info_gain, relieff, symmetric_uncertainty

ROOT = Path(__file__).resolve().parents[1]
WEKA_JAR = "/usr/share/java/weka.jar"
DATASETS = Path("/work/shared/datasets")


def _timeit(func, repeat=1):
    best = np.inf
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = func()
        best = min(best, time.perf_counter() - t0)
    return best, out


def write_arff(path, X, y, name="data"):
    classes = sorted(set(y.tolist()))
    with open(path, "w") as fh:
        fh.write(f"@relation {name}\n")
        for j in range(X.shape[1]):
            fh.write(f"@attribute f{j} numeric\n")
        fh.write("@attribute class {" + ",".join(str(c) for c in classes) + "}\n@data\n")
        body = pd.DataFrame(X)
        body["class"] = y
        body.to_csv(fh, header=False, index=False, lineterminator="\n")


def weka_scores(classdir, arff, only):
    cmd = ["java", "-cp", f"{WEKA_JAR}:{classdir}", "WekaScores", str(arff), "-1",
           "-only", only]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    dt = time.perf_counter() - t0
    lines = out.strip().splitlines()[1:]
    return dt, np.array([float(line.rsplit(",", 1)[1]) for line in lines])


def our_process(arff, ranker):
    cmd = [sys.executable, "-m", "rankfusion", "rank", str(arff), "--ranker", ranker,
           "--top", "1"]
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return time.perf_counter() - t0


def load_madelon():
    import scipy.io as sio

    m = sio.loadmat(DATASETS / "madelon" / "madelon.mat")
    return m["X"].astype(np.float64), m["Y"].ravel().astype(np.int64)


def load_golub():
    d = pd.read_csv(DATASETS / "golub_leukemia" / "golub_merge_72x7129.csv.gz")
    y = d["ALL.AML"].to_numpy()
    X = d.drop(columns=["sample", "ALL.AML", "class3", "BM.PB", "Gender", "Source"])
    return X.to_numpy(dtype=np.float64), y


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-skrebate", action="store_true", help="skip skrebate (about 70 s)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "rankers.md"))
    args = ap.parse_args(argv)
    have_weka = Path(WEKA_JAR).exists() and shutil.which("javac") is not None
    rows = []  # (task, tool, seconds, note)
    tmp = Path(tempfile.mkdtemp(prefix="bench_rankers_"))
    try:
        if have_weka:
            subprocess.run(["javac", "-cp", WEKA_JAR, "-d", str(tmp),
                            str(ROOT / "tests" / "fixtures" / "weka" / "WekaScores.java")],
                           check=True)
        # warm numba's cache / compile outside the timings
        Xw = np.random.default_rng(0).normal(size=(30, 4))
        yw = np.arange(30) % 2
        relieff(Xw, yw)
        info_gain(Xw, yw)

        # ---- ReliefF on madelon -------------------------------------------------------
        X, y = load_madelon()
        t_ours, w_ours = _timeit(lambda: relieff(X, y), repeat=2)
        rows.append(("ReliefF, madelon 2600×500", "rankfusion relieff (in process)", t_ours, ""))
        arff = tmp / "madelon.arff"
        write_arff(arff, X.astype(np.int64), y, "madelon")
        t_proc = our_process(arff, "relieff")
        rows.append(("ReliefF, madelon 2600×500", "rankfusion whole process (CLI, ARFF)",
                     t_proc, ""))
        if have_weka:
            t_weka, w_weka = weka_scores(tmp, arff, "ReliefF")
            err = float(np.abs(w_weka - w_ours).max())
            rows.append(("ReliefF, madelon 2600×500", "Weka 3.6 whole process", t_weka,
                         f"max |ours − Weka| = {err:.1e}"))
        if not args.no_skrebate:
            try:
                from skrebate import ReliefF
            except ImportError:  # pragma: no cover
                print("skrebate not installed; skipped", file=sys.stderr)
            else:
                est = ReliefF(n_neighbors=10, n_features_to_select=X.shape[1], n_jobs=1)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    t_sk, _ = _timeit(lambda: est.fit(X, y))
                sk = est.feature_importances_
                note = f"max |skrebate − ours| = {np.abs(sk - w_ours).max():.1e}"
                rows.append(("ReliefF, madelon 2600×500", "skrebate 0.8.4 ReliefF(k=10, n_jobs=1)",
                             t_sk, note))

        # ---- information measures on 1000 × 10000 ------------------------------------
        rng = np.random.default_rng(0)
        n, p = 1000, 10_000
        y = rng.integers(0, 3, n)
        X = rng.normal(size=(n, p))
        X[:, :50] += 0.5 * y[:, None]
        for name, f in [("info_gain", info_gain), ("gain_ratio", gain_ratio),
                        ("symmetric_uncertainty", symmetric_uncertainty),
                        ("chi_square", chi_square)]:
            t, _ = _timeit(lambda f=f: f(X, y))
            rows.append(("information measures, random 1000×10000", f"rankfusion {name}", t, ""))

        # ---- information gain on Golub -------------------------------------------------
        X, y = load_golub()
        t_ig, ig = _timeit(lambda: info_gain(X, y), repeat=3)
        rows.append(("info gain, Golub 72×7129", "rankfusion info_gain (in process)", t_ig, ""))
        t4, _ = _timeit(lambda: [f(X, y) for f in (info_gain, gain_ratio,
                                                      symmetric_uncertainty, chi_square)])
        rows.append(("info gain, Golub 72×7129", "rankfusion all four measures (in process)",
                     t4, ""))
        arff = tmp / "golub.arff"
        write_arff(arff, X, y, "golub")
        rows.append(("info gain, Golub 72×7129", "rankfusion whole process (CLI, ARFF)",
                     our_process(arff, "info_gain"), ""))
        if have_weka:
            t_weka, ig_weka = weka_scores(tmp, arff, "InfoGain")
            err = float((np.abs(ig_weka - ig) / np.maximum(1, np.abs(ig_weka))).max())
            rows.append(("info gain, Golub 72×7129", "Weka 3.6 whole process", t_weka,
                         f"max |ours − Weka| = {err:.1e}"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    frame = pd.DataFrame(rows, columns=["task", "tool", "seconds", "note"])
    lines = ["# Rankers: speed against skrebate and Weka 3.6", "",
             f"Machine: {os.cpu_count()} cores shared with other jobs; numpy {np.__version__}, "
             f"Python {sys.version.split()[0]}. Run: `python benchmarks/bench_rankers.py`. "
             "Weka = Debian weka 3.6.14 on OpenJDK, timed as a whole process (JVM start, ARFF "
             "parse, evaluator, printing); numba compilation is excluded (cached).", ""]
    for task, grp in frame.groupby("task", sort=False):
        lines += [f"## {task}", "", "| tool | seconds | note |", "|---|---:|---|"]
        for r in grp.itertuples():
            lines.append(f"| {r.tool} | {r.seconds:.3f} | {r.note} |")
        base = grp.iloc[0].seconds
        for r in grp.iloc[1:].itertuples():
            if r.tool.startswith(("Weka", "skrebate")):
                lines.append(f"\nRatio {r.tool.split(' ')[0]} / rankfusion (in process): "
                             f"**{r.seconds / base:.1f}×**")
        lines.append("")
    lines += [
        "## Notes", "",
        "- Scores: rankfusion's ReliefF equals Weka's on madelon bit for bit (same neighbour "
        "bookkeeping and summation order); skrebate's ReliefF is a different variant (its own "
        "neighbour and normalisation rules), so its weights differ from Weka's.",
        "- 'whole process (CLI, ARFF)' is `python -m rankfusion rank FILE.arff --ranker R`: "
        "interpreter start, importing the package (about 0.9 s, most of it "
        "`rankfusion.aggregation` pulling in scipy.optimize), the ARFF parse, loading numba's "
        "cached machine code, the ranker and printing. The ranker itself is the 'in process' "
        "row.",
        "- The machine is shared (2 cores, other jobs running): absolute seconds move by up to "
        "2× between runs; the ratios within one run are the measurement.", ""]
    text = "\n".join(lines)
    print(text)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
