"""Speed of RReliefF (ReliefF with a numeric target) against Weka 3.6 and skrebate, one run.

* Weka 3.6's whole process (JVM start, ARFF parse, ``ReliefFAttributeEval`` with a numeric
  class, printing) through ``tests/fixtures/rrelieff/WekaRReliefF.java`` (compiled once, outside
  the timings), with the scores compared (they are equal bit for bit).
* skrebate's ``ReliefF`` (k = 10, all instances, ``n_jobs=1``), which takes a continuous
  endpoint with its own regression variant (not Robnik-Šikonja & Kononenko's RReliefF): its
  weights differ, so only the agreement of the rankings (Spearman's ρ) is reported.

Data: Friedman #1 (scikit-learn ``make_friedman1``, 5 informative of 50 features) at 1,000 and
2,500 samples, and Weka's cpu.arff (209 × 6).

Run: ``python benchmarks/bench_rrelieff.py [--quick] [--repeat N] [--no-skrebate]
[--out benchmarks/results/rrelieff.md]``. Every time is the median of ``--repeat`` (default 5)
interleaved rounds with the spread and the 1-minute load average before each round.
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

from _timing import interleaved
from rankfusion.io.arff import read_arff
from rankfusion.rankers import rrelieff

ROOT = Path(__file__).resolve().parents[1]
WEKA_JAR = "/usr/share/java/weka.jar"
FIX = ROOT / "tests" / "fixtures" / "rrelieff"


def write_arff(path, X, y):
    with open(path, "w") as fh:
        fh.write("@relation r\n")
        for j in range(X.shape[1]):
            fh.write(f"@attribute f{j} numeric\n")
        fh.write("@attribute target numeric\n@data\n")
        for row, t in zip(X.tolist(), y.tolist()):
            fh.write(",".join(repr(v) for v in row) + f",{t!r}\n")


def weka(classdir, arff):
    cmd = ["java", "-cp", f"{WEKA_JAR}:{classdir}", "WekaRReliefF", str(arff), "-1"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return np.array([float(r.rsplit(",", 1)[1]) for r in out.strip().splitlines()[1:]])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="3 rounds, the two small sets only")
    ap.add_argument("--no-skrebate", action="store_true")
    ap.add_argument("--repeat", type=int, default=None)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "rrelieff.md"))
    args = ap.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 5)
    have_weka = Path(WEKA_JAR).exists() and shutil.which("javac") is not None
    skrebate = None
    if not args.no_skrebate:
        try:
            import skrebate
        except ImportError:  # pragma: no cover
            print("skrebate not installed; skipped", file=sys.stderr)
    tmp = Path(tempfile.mkdtemp(prefix="bench_rrelieff_"))
    tasks = []
    try:
        if have_weka:
            subprocess.run(["javac", "-cp", WEKA_JAR, "-d", str(tmp),
                            str(FIX / "WekaRReliefF.java")], check=True)
        from sklearn.datasets import make_friedman1

        rrelieff(np.random.default_rng(0).random((50, 3)), np.arange(50.0))  # compile
        sets = []
        cpu = read_arff(FIX / "data" / "cpu.arff.gz")
        sets.append(("Weka cpu.arff 209×6", cpu.iloc[:, :-1].to_numpy(float),
                     cpu.iloc[:, -1].to_numpy(float)))
        sizes = (1000,) if args.quick else (1000, 2500)
        for n in sizes:
            X, y = make_friedman1(n, 50, noise=1.0, random_state=0)
            sets.append((f"Friedman #1 {n}×50", X, y))
        for label, X, y in sets:
            arff = tmp / "data.arff"
            write_arff(arff, X, y)
            ours = "rankfusion rrelieff (in process)"
            c = {ours: lambda X=X, y=y: rrelieff(X, y)}
            if have_weka:
                c["Weka 3.6 whole process"] = lambda a=arff: weka(tmp, a)
            if skrebate is not None:
                est = skrebate.ReliefF(n_neighbors=10, n_features_to_select=X.shape[1],
                                       n_jobs=1)

                def sk(est=est, X=X, y=y):
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        return est.fit(X, y).feature_importances_

                c["skrebate 0.8.4 ReliefF(k=10, continuous y)"] = sk
            t0 = time.perf_counter()
            t, loads, out = interleaved(c, repeat)
            notes = {}
            if "Weka 3.6 whole process" in out:
                same = np.array_equal(out["Weka 3.6 whole process"], out[ours])
                err = float(np.abs(out["Weka 3.6 whole process"] - out[ours]).max())
                notes["Weka 3.6 whole process"] = ("scores bit-equal to ours" if same else
                                                   f"max |ours − Weka| = {err:.1e}")
            for k in out:
                if k.startswith("skrebate"):
                    from scipy.stats import spearmanr

                    rho = spearmanr(out[k], out[ours])[0]
                    notes[k] = f"rankings' Spearman ρ with ours = {rho:.3f} (another variant)"
            print(f"{label}: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
            tasks.append((label, t, loads, notes, ours))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    lines = ["# RReliefF: speed against Weka 3.6 and skrebate", "",
             f"Machine: {os.cpu_count()} cores shared with other jobs; numpy {np.__version__}, "
             f"Python {sys.version.split()[0]}. Run: `python benchmarks/bench_rrelieff.py`. "
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
        for name, tm in t.items():
            if name != ours:
                per = np.array(tm.seconds) / np.array(t[ours].seconds)
                lines.append(f"\nRatio {name.split(' ')[0]} / rankfusion (in process): "
                             f"**{tm.median / t[ours].median:.1f}×** "
                             f"(per round {per.min():.1f}–{per.max():.1f}×)")
        lines.append("")
    lines += ["## Notes", "",
              "- Weka's time includes the JVM start (a few tenths of a second), which dominates "
              "the small set; rankfusion's row is the ranker alone.",
              "- skrebate's ReliefF with a continuous endpoint is not RReliefF (no N_dC / "
              "N_dA / N_dCdA estimate of Robnik-Šikonja & Kononenko); it is timed as the "
              "nearest peer, not as an oracle.",
              "- The machine is shared (2 cores, other jobs running): absolute seconds move "
              "between runs; the ratios within one run are the measurement.", ""]
    text = "\n".join(lines)
    print(text)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
