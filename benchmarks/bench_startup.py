"""Start-up of the command line, as whole processes, side by side with Weka.

Contenders, each a fresh process, run in turn in every round (``--repeat`` rounds, the 1-minute
load average read before each round):

* ``python -c pass`` — the interpreter alone, the floor of any Python command;
* ``python -c 'import numpy'`` — the floor of any command that computes (``rank`` on a small
  CSV with an information measure imports numpy and no pandas, scipy, scikit-learn or numba);
* ``rankfusion --help`` (``python -m rankfusion --help``);
* ``rankfusion rank iris.csv --ranker info_gain`` (the UCI iris data shipped with the package);
* ``rankfusion rank iris.arff --ranker info_gain`` (Weka's copy of the same data), and on
  ``golub.arff`` (72 × 7,129, written from the shared Golub CSV) beside Weka on the same file;
* ``rankfusion aggregate lists.csv --rule borda`` and ``--rule schulze`` on a four-line list
  file (three lists of four features, an orders file with a header row);
* Weka 3.6 ``InfoGainAttributeEval`` + ``Ranker`` on ``iris.arff`` (a whole JVM process).

Time is the wall clock of the child process; memory its peak resident set (``ru_maxrss`` from
``wait4``). Targets: ``--help`` ≤ 0.15 s; ``rank`` ≤ 2× Weka's whole process; memory ≤ 120 MB;
``rank`` on iris.arff ≤ 1.0× Weka's whole process; ``aggregate`` on the small list file ≤ 1.5×
``rank`` on the small CSV (per rule).

Usage::

    python benchmarks/bench_startup.py            # writes benchmarks/results/startup.md
    python benchmarks/bench_startup.py --quick    # 5 rounds
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from _timing import Timing, load_average

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WEKA_JAR = "/usr/share/java/weka.jar"
IRIS_ARFF = Path("/work/shared/datasets/weka_examples/iris.arff")
IRIS_CSV_GZ = ROOT / "src" / "rankfusion" / "data" / "datasets" / "iris.csv.gz"
#: The small list file of the ``aggregate`` rows: three lists of four features.
LIST_FILE = "list,1,2,3,4\nA,a,b,c,d\nB,b,a,c,d\nC,a,c,b,d\n"
AGG_RULES = ("borda", "schulze")
ARFF_NAME = "rankfusion rank iris.arff --ranker info_gain"
GOLUB_CSV_GZ = Path("/work/shared/datasets/golub_leukemia/golub_merge_72x7129.csv.gz")
GOLUB_NAME = "rankfusion rank golub.arff --ranker info_gain"
WEKA_GOLUB = "Weka InfoGainAttributeEval + Ranker, golub.arff"


def write_golub_arff(path: Path) -> None:
    """Golub's 72 × 7,129 expression matrix and the ALL/AML class as a dense ARFF file,
    streamed row by row (this process stays small: a child's peak resident set counts its
    parent's at the fork)."""
    import csv

    with gzip.open(GOLUB_CSV_GZ, "rt", encoding="utf-8", newline="") as src, \
            open(path, "w", encoding="utf-8") as fh:
        rows = csv.reader(src)
        head = next(rows)
        label = head.index("ALL.AML")
        fh.write("@relation golub\n")  # sample, ALL.AML, class3, BM.PB, Gender, Source, probes
        fh.writelines(f"@attribute '{g}' numeric\n" for g in head[6:])
        fh.write("@attribute class {ALL,AML}\n@data\n")
        for r in rows:
            fh.write(",".join(r[6:] + [r[label]]) + "\n")


def run_child_rss(cmd, env=None) -> tuple[float, float, str]:
    """Wall seconds, peak resident set (MB, from ``os.wait4``) and stdout of one child."""
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        dt = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise RuntimeError(f"{cmd} exited with {proc.returncode}")
        out.seek(0)
        text = out.read().decode()
    rss_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
    return dt, rss_mb, text


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="5 rounds")
    ap.add_argument("--repeat", type=int, default=None, help="rounds (default 9; 5 quick)")
    args = ap.parse_args()
    repeat = args.repeat or (5 if args.quick else 9)
    tmp = Path(tempfile.mkdtemp(prefix="bench_startup_"))
    # compiled bytecode as an installed package has it (pip compiles at install): a setting of
    # PYTHONDONTWRITEBYTECODE would make every process compile the package's source again;
    # the bytecode goes to a cache of this run, written by the warm-up round
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYTHONPYCACHEPREFIX=str(tmp / "pycache"))
    try:
        iris = tmp / "iris.csv"
        iris.write_bytes(gzip.decompress(IRIS_CSV_GZ.read_bytes()))
        lists = tmp / "lists.csv"
        lists.write_text(LIST_FILE, encoding="utf-8")
        py = [sys.executable]
        contenders = {
            "python -c pass": py + ["-c", "pass"],
            "python -c 'import numpy'": py + ["-c", "import numpy"],
            "rankfusion --help": py + ["-m", "rankfusion", "--help"],
            "rankfusion rank iris.csv --ranker info_gain":
                py + ["-m", "rankfusion", "rank", str(iris), "--ranker", "info_gain"],
        }
        for rule in AGG_RULES:
            contenders[f"rankfusion aggregate lists.csv --rule {rule}"] = py + [
                "-m", "rankfusion", "aggregate", str(lists), "--rule", rule, "--input",
                "orders"]
        if IRIS_ARFF.exists():
            contenders[ARFF_NAME] = py + ["-m", "rankfusion", "rank", str(IRIS_ARFF),
                                          "--ranker", "info_gain"]
        have_weka = Path(WEKA_JAR).exists() and shutil.which("java") and IRIS_ARFF.exists()
        if have_weka:
            contenders["Weka InfoGainAttributeEval + Ranker, iris.arff"] = [
                "java", "-cp", WEKA_JAR, "weka.attributeSelection.InfoGainAttributeEval",
                "-s", "weka.attributeSelection.Ranker", "-i", str(IRIS_ARFF)]
        if have_weka and GOLUB_CSV_GZ.exists():
            golub = tmp / "golub.arff"
            write_golub_arff(golub)
            contenders[GOLUB_NAME] = py + ["-m", "rankfusion", "rank", str(golub), "--ranker",
                                           "info_gain"]
            contenders[WEKA_GOLUB] = [
                "java", "-cp", WEKA_JAR, "weka.attributeSelection.InfoGainAttributeEval",
                "-s", "weka.attributeSelection.Ranker", "-i", str(golub)]
        for cmd in contenders.values():  # warm the file cache and numba's cache
            run_child_rss(cmd, env)
        times = {k: Timing(k) for k in contenders}
        rss = {k: [] for k in contenders}
        loads, outputs = [], {}
        for _ in range(repeat):
            loads.append(load_average())
            for name, cmd in contenders.items():
                dt, mb, out = run_child_rss(cmd, env)
                times[name].seconds.append(dt)
                rss[name].append(mb)
                outputs[name] = out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    help_t = times["rankfusion --help"].median
    rank_name = "rankfusion rank iris.csv --ranker info_gain"
    rank_t = times[rank_name].median
    weka_name = "Weka InfoGainAttributeEval + Ranker, iris.arff"
    lines = [
        "# Start-up: whole processes beside Weka", "",
        f"`python benchmarks/bench_startup.py`; {platform.machine()}, {os.cpu_count()} cores "
        f"shared with other jobs, Python {platform.python_version()}. Medians of {repeat} "
        "rounds, each round running every command once in turn (after one warm-up round that "
        "fills the file cache and the bytecode cache, as an installed package has its bytecode "
        "compiled); spread (min–max) in brackets; "
        "memory = the child's peak resident set (`ru_maxrss`), median (max); it counts the "
        "resident set of this benchmark's process at the fork (the floor `python -c pass` "
        "shows), so small commands are shown larger than they are. Load before each "
        f"round: {', '.join(f'{x:.1f}' for x in loads)}.", "",
        "| command | wall time | peak memory (MB) |", "|---|---|---|"]
    for name, t in times.items():
        lines.append(f"| `{name}` | {t.cell()} | {np.median(rss[name]):.0f} "
                     f"({max(rss[name]):.0f}) |")
    lines += ["", "| target | measured | met |", "|---|---|---|",
              f"| `rankfusion --help` ≤ 0.15 s | {help_t:.3f} s | "
              f"{'yes' if help_t <= 0.15 else f'no ({help_t / 0.15:.1f}× the target)'} |"]
    mem = float(np.median(rss[rank_name]))
    if have_weka:
        weka_t = times[weka_name].median
        per = np.array(times[rank_name].seconds) / np.array(times[weka_name].seconds)
        ratio = rank_t / weka_t
        lines.append(f"| `rank` on iris ≤ 2× Weka's whole process | {ratio:.2f}× "
                     f"({rank_t:.3f} s vs {weka_t:.3f} s; per round {per.min():.2f}–"
                     f"{per.max():.2f}×) | "
                     f"{'yes' if ratio <= 2 else f'no ({ratio / 2:.2f}× the target)'} |")
        if ARFF_NAME in times:
            a_t = times[ARFF_NAME].median
            per = np.array(times[ARFF_NAME].seconds) / np.array(times[weka_name].seconds)
            a_mem, w_mem = float(np.median(rss[ARFF_NAME])), float(np.median(rss[weka_name]))
            lines.append(f"| `rank` on iris.arff ≤ 1.0× Weka's whole process | "
                         f"{a_t / weka_t:.2f}× ({a_t:.3f} s vs {weka_t:.3f} s; per round "
                         f"{per.min():.2f}–{per.max():.2f}×) | "
                         f"{'yes' if a_t <= weka_t else 'no'} |")
            lines.append(f"| `rank` on iris.arff in less memory than Weka's JVM | "
                         f"{a_mem:.0f} MB vs {w_mem:.0f} MB | "
                         f"{'yes' if a_mem < w_mem else 'no'} |")
    if GOLUB_NAME in times:
        g_t, wg_t = times[GOLUB_NAME].median, times[WEKA_GOLUB].median
        per = np.array(times[GOLUB_NAME].seconds) / np.array(times[WEKA_GOLUB].seconds)
        g_mem, wg_mem = float(np.median(rss[GOLUB_NAME])), float(np.median(rss[WEKA_GOLUB]))
        lines.append(f"| `rank` on golub.arff ≤ 1.0× Weka's whole process | {g_t / wg_t:.2f}× "
                     f"({g_t:.3f} s vs {wg_t:.3f} s; per round {per.min():.2f}–"
                     f"{per.max():.2f}×) | {'yes' if g_t <= wg_t else 'no'} |")
        lines.append(f"| `rank` on golub.arff in less memory than Weka's JVM | "
                     f"{g_mem:.0f} MB vs {wg_mem:.0f} MB | {'yes' if g_mem < wg_mem else 'no'} |")
    for rule in AGG_RULES:
        name = f"rankfusion aggregate lists.csv --rule {rule}"
        per = np.array(times[name].seconds) / np.array(times[rank_name].seconds)
        r = times[name].median / rank_t
        lines.append(f"| `aggregate --rule {rule}` on the small list file ≤ 1.5× `rank` on "
                     f"iris.csv | {r:.2f}× ({times[name].median:.3f} s vs {rank_t:.3f} s; per "
                     f"round {per.min():.2f}–{per.max():.2f}×; "
                     f"{np.median(rss[name]):.0f} MB) | {'yes' if r <= 1.5 else 'no'} |")
    lines.append(f"| `rank` on iris peak memory ≤ 120 MB | {mem:.0f} MB | "
                 f"{'yes' if mem <= 120 else 'no'} |")
    lines += ["", "Output of the `rank` command (the same four scores as Weka's ranking):", "",
              "```", outputs[rank_name].strip(), "```", ""]
    text = "\n".join(lines)
    print(text)
    (HERE / "results" / "startup.md").write_text(text)
    (HERE / "results" / "startup.json").write_text(json.dumps(
        {"seconds": {k: t.seconds for k, t in times.items()}, "rss_mb": rss, "loads": loads},
        indent=1))


if __name__ == "__main__":
    main()
