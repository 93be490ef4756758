"""Speed of the Weka-exact rankers, side by side with their peers in one run.

* ReliefF on madelon (2,600 × 500, /work/shared/datasets/madelon): rankfusion ``relieff``
  vs skrebate's ``ReliefF`` (same k = 10, all instances) vs Weka 3.6's whole process
  (JVM start, ARFF parse, ``ReliefFAttributeEval``, printing), with the Weka scores compared.
* The four information measures (MDL + IG, gain ratio, SU, chi-square) on a random
  1,000 × 10,000 matrix, and on the Golub leukaemia set (72 × 7,129) against Weka's whole
  process (``InfoGainAttributeEval``) with the scores compared.

Run: ``python benchmarks/bench_rankers.py [--no-skrebate] [--quick] [--repeat N]
[--out benchmarks/results/rankers.md]``. Every time is the median of ``--repeat`` (default 5)
interleaved rounds (ours, peers, ours, peers, …) with the spread and the 1-minute load average
before each round; never a best-of. Weka runs through ``tests/fixtures/weka/WekaScores.java``
(compiled once, outside the timings).
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

from _timing import interleaved
from rankfusion.rankers import chi_square, gain_ratio, info_gain, relieff, symmetric_uncertainty

ROOT = Path(__file__).resolve().parents[1]
WEKA_JAR = "/usr/share/java/weka.jar"
DATASETS = Path("/work/shared/datasets")


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
    ap.add_argument("--no-skrebate", action="store_true", help="skip skrebate (about 70 s a run)")
    ap.add_argument("--quick", action="store_true",
                    help="3 rounds, no skrebate, information measures on 1,000 × 2,000")
    ap.add_argument("--repeat", type=int, default=None, help="interleaved rounds (default 5)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "rankers.md"))
    args = ap.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 5)
    have_weka = Path(WEKA_JAR).exists() and shutil.which("javac") is not None
    tasks = []  # (task, {tool: Timing}, loads, notes, ours)
    tmp = Path(tempfile.mkdtemp(prefix="bench_rankers_"))
    try:
        if have_weka:
            subprocess.run(["javac", "-cp", WEKA_JAR, "-d", str(tmp),
                            str(ROOT / "tests" / "fixtures" / "weka" / "WekaScores.java")],
                           check=True)
        # warm numba's cache / compile outside the timings
        Xw = np.random.default_rng(0).normal(size=(300, 40))
        yw = np.arange(300) % 2
        relieff(Xw, yw)
        info_gain(Xw, yw)

        # ---- ReliefF on madelon -------------------------------------------------------
        X, y = load_madelon()
        arff = tmp / "madelon.arff"
        write_arff(arff, X.astype(np.int64), y, "madelon")
        ours = "rankfusion relieff (in process)"
        c = {ours: lambda: relieff(X, y),
             "rankfusion whole process (CLI, ARFF)": lambda: our_process(arff, "relieff")}
        if have_weka:
            c["Weka 3.6 whole process"] = lambda: weka_scores(tmp, arff, "ReliefF")[1]
        if not (args.no_skrebate or args.quick):
            try:
                from skrebate import ReliefF
            except ImportError:  # pragma: no cover
                print("skrebate not installed; skipped", file=sys.stderr)
            else:
                est = ReliefF(n_neighbors=10, n_features_to_select=X.shape[1], n_jobs=1)

                def sk():
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        return est.fit(X, y).feature_importances_

                c["skrebate 0.8.4 ReliefF(k=10, n_jobs=1)"] = sk
        t, loads, out = interleaved(c, repeat)
        notes = {}
        if "Weka 3.6 whole process" in out:
            err = float(np.abs(out["Weka 3.6 whole process"] - out[ours]).max())
            notes["Weka 3.6 whole process"] = f"max |ours − Weka| = {err:.1e}"
        for k in out:
            if k.startswith("skrebate"):
                notes[k] = f"max |skrebate − ours| = {np.abs(out[k] - out[ours]).max():.1e}"
        tasks.append(("ReliefF, madelon 2600×500", t, loads, notes, ours))

        # ---- information measures on 1000 × 10000 ------------------------------------
        rng = np.random.default_rng(0)
        n, p = 1000, (2_000 if args.quick else 10_000)
        y = rng.integers(0, 3, n)
        X = rng.normal(size=(n, p))
        X[:, :50] += 0.5 * y[:, None]
        c = {f"rankfusion {name}": (lambda f=f: f(X, y)) for name, f in [
            ("info_gain", info_gain), ("gain_ratio", gain_ratio),
            ("symmetric_uncertainty", symmetric_uncertainty), ("chi_square", chi_square)]}
        t, loads, _ = interleaved(c, repeat)
        tasks.append((f"information measures, random {n}×{p}", t, loads, {}, None))

        # ---- information gain on Golub -------------------------------------------------
        X, y = load_golub()
        arff = tmp / "golub.arff"
        write_arff(arff, X, y, "golub")
        ours = "rankfusion info_gain (in process)"
        c = {ours: lambda: info_gain(X, y),
             "rankfusion all four measures (in process)": lambda: [
                 f(X, y) for f in (info_gain, gain_ratio, symmetric_uncertainty, chi_square)],
             "rankfusion whole process (CLI, ARFF)": lambda: our_process(arff, "info_gain")}
        if have_weka:
            c["Weka 3.6 whole process"] = lambda: weka_scores(tmp, arff, "InfoGain")[1]
        t, loads, out = interleaved(c, repeat)
        notes = {}
        if "Weka 3.6 whole process" in out:
            w = out["Weka 3.6 whole process"]
            err = float((np.abs(w - out[ours]) / np.maximum(1, np.abs(w))).max())
            notes["Weka 3.6 whole process"] = f"max |ours − Weka| = {err:.1e}"
        tasks.append(("info gain, Golub 72×7129", t, loads, notes, ours))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    lines = ["# Rankers: speed against skrebate and Weka 3.6", "",
             f"Machine: {os.cpu_count()} cores shared with other jobs; numpy {np.__version__}, "
             f"Python {sys.version.split()[0]}. Run: `python benchmarks/bench_rankers.py`. "
             "Weka = Debian weka 3.6.14 on OpenJDK, timed as a whole process (JVM start, ARFF "
             "parse, evaluator, printing); numba compilation is excluded (cached). Medians of "
             f"{repeat} interleaved rounds, spread (min–max) in brackets; ratios are of the "
             "medians, with the spread of the per-round ratios.", ""]
    for task, t, loads, notes, ours in tasks:
        lines += [f"## {task}", "",
                  "Load before each round: " + ", ".join(f"{x:.1f}" for x in loads) + ".", "",
                  "| tool | seconds | note |", "|---|---|---|"]
        for name, tm in t.items():
            lines.append(f"| {name} | {tm.cell()} | {notes.get(name, '')} |")
        if ours is not None:
            for name, tm in t.items():
                if name.startswith(("Weka", "skrebate")):
                    per = np.array(tm.seconds) / np.array(t[ours].seconds)
                    lines.append(f"\nRatio {name.split(' ')[0]} / rankfusion (in process): "
                                 f"**{tm.median / t[ours].median:.1f}×** "
                                 f"(per round {per.min():.1f}–{per.max():.1f}×)")
        lines.append("")
    lines += [
        "## Notes", "",
        "- Scores: rankfusion's ReliefF equals Weka's on madelon bit for bit (same neighbour "
        "bookkeeping and summation order); skrebate's ReliefF is a different variant (its own "
        "neighbour and normalisation rules), so its weights differ from Weka's.",
        "- 'whole process (CLI, ARFF)' is `python -m rankfusion rank FILE.arff --ranker R`: "
        "interpreter start, importing what the ranker needs (numpy, pandas for the table, "
        "numba for the compiled kernels), the ARFF parse, loading numba's cached machine code, "
        "the ranker and printing. The ranker itself is the 'in process' row.",
        "- The machine is shared (2 cores, other jobs running): absolute seconds move by up to "
        "2× between runs; the ratios within one run are the measurement.", ""]
    text = "\n".join(lines)
    print(text)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
