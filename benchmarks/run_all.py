"""Regenerate the benchmark page in one command, and say which figures moved since the last run.

``python benchmarks/run_all.py`` runs every benchmark script (each writes
``results/<area>.md``), collects them into ``RESULTS.md``, reads every figure of the results
tables, compares it with the figures of the previous run (``results/figures.json``) and puts the
ones that moved by more than ``--threshold`` (default 20 %) at the top of the page, then stores
the new figures. Every timing is a median of interleaved runs with its spread and the load
average recorded (see ``_timing.py``); nothing is a best-of.

``--quick`` runs the scripts that have a quick mode, with it, and writes everything to
``results/quick/`` (its own ``RESULTS.md`` and ``figures.json``), leaving the full results
alone. ``--only startup,threads`` reruns some areas and keeps the others' last results.
``--no-run`` only collects and compares.

The machine is shared: absolute seconds move with the load; the ratios measured within one run
are the measurement, and the load columns say how busy the machine was.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from collect_results import collect, figures

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"

# area -> (script, arguments of the full run, arguments of the quick run or None = skipped)
SCRIPTS = {
    "startup": ("bench_startup.py", [], ["--quick"]),
    "threads": ("bench_threads.py", [], ["--quick"]),
    "aggregation": ("bench_aggregation.py", ["--out", "{out}/aggregation.md"],
                    ["--quick", "--out", "{out}/aggregation.md"]),
    "optimisation": ("bench_optimisation.py", [], ["--quick", "--no-r"]),
    "rankers": ("bench_rankers.py", ["--out", "{out}/rankers.md"],
                ["--quick", "--out", "{out}/rankers.md"]),
    "nlc_cfs": ("bench_nlc_cfs.py", [], None),
    "weka_ib1": ("bench_weka_ib1.py", [], None),
    "svm_rfe": ("bench_svm_rfe.py", ["--out", "{out}/svm_rfe.md"],
                ["--quick", "--skip-artificial-positions", "--out", "{out}/svm_rfe.md"]),
    "fuzzy": ("bench_fuzzy.py", ["--out", "{out}/fuzzy.md"], None),
    "omics": ("bench_omics.py", [], None),
    "cfs_golub": ("bench_cfs_golub.py", [], None),
    "ensemble": ("bench_ensemble.py", ["--pyensemblefs", "50", "500", "--out",
                                       "{out}/ensemble.md"], None),
    "dask_omics": ("bench_dask_omics.py", ["--out", "{out}/dask_omics.md"], None),
    "runner": ("bench_runner.py", [], None),
    "markov": ("bench_markov.py", ["--out", "{out}/markov.md"], None),
}


def moved(old: dict, new: dict, threshold: float) -> tuple[list, list, list]:
    """Figures that moved by more than ``threshold`` (relative), appeared, or disappeared."""
    changed = []
    for key in sorted(set(old) & set(new)):
        a, b = old[key], new[key]
        if a == b:
            continue
        rel = (b - a) / abs(a) if a else float("inf")
        if abs(rel) > threshold:
            changed.append((key, a, b, rel))
    changed.sort(key=lambda r: -abs(r[3]) if r[3] != float("inf") else -1e300)
    return changed, sorted(set(new) - set(old)), sorted(set(old) - set(new))


def moved_section(old: dict | None, new: dict, threshold: float, when: str,
                  limit: int = 60) -> str:
    lines = ["## What moved since the last run", ""]
    if old is None:
        lines += [f"First run with a stored record of figures ({when}); the next run lists "
                  "what moved.", ""]
        return "\n".join(lines)
    changed, added, gone = moved(old, new, threshold)
    lines += [f"Run of {when}: {len(new)} figures; {len(changed)} moved by more than "
              f"{threshold:.0%} since the previous run, {len(added)} new, {len(gone)} gone. "
              "(Figures are read from the tables below: the first number of each cell, load "
              "columns left out.)", ""]
    if changed:
        lines += ["| figure (area / section / row / column) | before | now | change |",
                  "|---|---|---|---|"]
        for key, a, b, rel in changed[:limit]:
            ch = "new sign" if rel == float("inf") else f"{rel:+.0%}"
            lines.append(f"| {key} | {a:.4g} | {b:.4g} | {ch} |")
        if len(changed) > limit:
            lines.append(f"| … and {len(changed) - limit} more | | | |")
        lines.append("")
    return "\n".join(lines)


def run_script(area: str, out: Path, quick: bool, env: dict) -> tuple[bool, float]:
    script, full, fast = SCRIPTS[area]
    argv = fast if quick else full
    cmd = [sys.executable, str(HERE / script), *[a.format(out=out) for a in argv]]
    print(f"== {area}: {' '.join(cmd[1:])}", flush=True)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=HERE.parent)
    return proc.returncode == 0, time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="quick modes only, results in results/quick/")
    ap.add_argument("--only", default=None, help="comma-separated areas to rerun")
    ap.add_argument("--no-run", action="store_true", help="only collect and compare")
    ap.add_argument("--threshold", type=float, default=0.2,
                    help="relative change reported as moved (default 0.2)")
    args = ap.parse_args(argv)
    areas = list(SCRIPTS) if args.only is None else [a.strip() for a in args.only.split(",")]
    unknown = [a for a in areas if a not in SCRIPTS]
    if unknown:
        ap.error(f"unknown area(s) {unknown}; known: {', '.join(SCRIPTS)}")
    out = RESULTS / "quick" if args.quick else RESULTS
    out.mkdir(parents=True, exist_ok=True)
    src = str(HERE.parent / "src")
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}
    failed = []
    if not args.no_run:
        for area in areas:
            if args.quick and SCRIPTS[area][2] is None:
                print(f"== {area}: no quick mode, skipped", flush=True)
                continue
            # scripts without an --out write to results/<area>.md: in quick mode keep the
            # full result aside and move the quick one to results/quick/
            fixed = "{out}" not in " ".join(SCRIPTS[area][2] or [])
            keep = {}
            if args.quick and fixed:
                for p in RESULTS.glob(f"{area}*"):
                    if p.is_file():
                        keep[p] = p.read_bytes()
            ok, sec = run_script(area, out, args.quick, env)
            if args.quick and fixed:
                for p in RESULTS.glob(f"{area}*"):
                    if p.is_file():
                        shutil.copyfile(p, out / p.name)
                for p in list(RESULTS.glob(f"{area}*")):
                    if p.is_file() and p not in keep:
                        p.unlink()
                for p, data in keep.items():
                    p.write_bytes(data)
            print(f"== {area}: {'done' if ok else 'FAILED'} in {sec:.0f} s", flush=True)
            if not ok:
                failed.append(area)
    # the record keeps the figures of the page as last written and those of the page before;
    # collecting again without new measurements still compares with the page before
    record = out / "figures.json"
    stored = json.loads(record.read_text()) if record.exists() else None
    new = figures(out)
    when = time.strftime("%Y-%m-%d %H:%M")
    if stored is None:
        previous = None
    elif stored["figures"] != new:
        previous = {"when": stored["when"], "figures": stored["figures"]}
    else:
        previous = stored.get("previous")
    extra = moved_section(None if previous is None else previous["figures"], new,
                          args.threshold, when)
    page = out / "RESULTS.md" if args.quick else HERE / "RESULTS.md"
    collect(out, page, extra)
    record.write_text(json.dumps({"when": when, "figures": new, "previous": previous},
                                 indent=1, sort_keys=True))
    print(extra)
    print(f"written {page}")
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
