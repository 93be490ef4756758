"""Mutation testing of the modules that decide results, each against its own tests.

Usage (from the repository root; needs the ``mutation`` extra, ``pip install ".[mutation]"``)::

    python tools/mutation.py                       # every module, in priority order
    python tools/mutation.py statistics voting     # some of them
    python tools/mutation.py --list                # the modules and their test files
    python tools/mutation.py --max-children 2 --budget 2400 statistics
    python tools/mutation.py --recheck voting      # its survivors again, against today's tests
    python tools/mutation.py --resume information  # go on with an interrupted run

For each module a scratch copy of the repository (``src/``, ``tests/``, ``pyproject.toml``) is
made under ``build/mutation/<module>/`` with a ``[tool.mutmut]`` section that mutates only that
module and runs only its own test files; ``mutmut run`` is started there, and the counts
(killed, survived, timeout, no tests, ...) are read back with ``mutmut export-cicd-stats``.
The kill rate is ``(killed + timeout) / checked``, ``checked`` counting killed, survived,
timeout, suspicious, no-tests and segfault mutants; the surviving mutants
are listed (``mutmut show NAME`` in the scratch folder prints the diff). A summary of every run
is kept in ``build/mutation/summary.json`` and printed as a Markdown table, the one recorded in
``tests/MUTATION.md``.

``--budget`` (seconds, whole run) stops before starting a module once the budget is spent, so
the run fits a fixed slot of wall time on a loaded machine; the modules are run in the order of
:data:`MODULES`.
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

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build" / "mutation"

#: module short name -> (source file, its own test files), in priority order.
MODULES: dict[str, tuple[str, list[str]]] = {
    "statistics": (
        "src/rankfusion/aggregation/statistics.py",
        ["tests/aggregation/test_aggregation_rules.py", "tests/aggregation/test_mean_score.py",
         "tests/aggregation/test_rules_oracles.py"],
    ),
    "voting": (
        "src/rankfusion/aggregation/voting.py",
        ["tests/aggregation/test_aggregation_rules.py", "tests/aggregation/test_rules_oracles.py",
         "tests/aggregation/test_pairwise_candidates.py",
         "tests/aggregation/test_weights_by_name.py"],
    ),
    "rra": ("src/rankfusion/aggregation/rra.py", ["tests/aggregation/test_rra.py"]),
    "topk": ("src/rankfusion/aggregation/_topk.py",
             ["tests/aggregation/test_genetic.py", "tests/aggregation/test_topk.py"]),
    "svm_rfe_selection": (
        "src/rankfusion/selection/svm_rfe.py",
        ["tests/selection/test_selection_svm_rfe.py", "tests/selection/test_svm_rfe_searches.py",
         "tests/selection/test_svm_rfe_memo.py", "tests/selection/test_svm_rfe_params.py",
         "tests/selection/test_svm_rfe_wiring.py", "tests/test_bool_parameters.py",
         "tests/test_parameter_checks.py"],
    ),
    "information": (
        "src/rankfusion/rankers/information.py",
        ["tests/rankers/test_rankers_information.py", "tests/rankers/test_rankers_weka.py",
         "tests/rankers/test_information_tables.py", "tests/test_bool_parameters.py"],
    ),
    "nlc": ("src/rankfusion/rankers/nlc.py", ["tests/rankers/test_rankers_nlc.py"]),
    "subset_size": (
        "src/rankfusion/selection/subset_size.py",
        ["tests/selection/test_subset_size.py"],
    ),
    "stability": ("src/rankfusion/stability.py", ["tests/stability/test_stability.py"]),
}

#: tests left out of a module's run: those that start ``python -m rankfusion`` in a subprocess,
#: which cannot import the mutated copy (mutmut puts it on ``sys.path`` of its own process
#: only), and those too slow for one run to fit in an hour
DESELECT: dict[str, list[str]] = {
    "topk": ["tests/aggregation/test_genetic.py::test_cli_runs_ga_with_k_and_params"],
    # scikit-learn's check_estimator (API conformance, ~30 s alone): every surviving mutant of
    # a function a fit reaches would run it, which does not fit the hour; the other estimator
    # checks (test_check_estimator_other_configurations, ~4 s) stay
    "svm_rfe_selection": ["tests/selection/test_selection_svm_rfe.py::test_passes_check_estimator"],
}

#: modules whose own tests pass with ``NUMBA_DISABLE_JIT=1`` and run faster that way (numba's
#: compile time dominates them; not voting: its candidate tests run Kemeny, whose kernels
#: rely on numba integer semantics); mutmut never mutates a decorated (jitted) function, so this
#: changes the speed of a run, not the mutants
NO_JIT = {"statistics", "rra", "nlc", "subset_size", "stability"}

_COUNTED = ("killed", "survived", "timeout", "suspicious", "no_tests", "segfault")


def _scratch(name: str) -> Path:
    work = BUILD / name
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    shutil.copytree(ROOT / "src", work / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copytree(ROOT / "tests", work / "tests",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis"))
    _write_config(work, name)
    return work


def _write_config(work: Path, name: str) -> None:
    """``pyproject.toml`` of the scratch copy: the project's, plus a ``[tool.mutmut]`` section
    that mutates ``name``'s source only and runs its test files (as listed now)."""
    source, tests = MODULES[name]
    tests = [t for t in tests if (ROOT / t).exists()]
    extra = ["-p", "no:cacheprovider", "-q", "-x"]
    for test in DESELECT.get(name, []):
        extra += ["--deselect", test]
    config = (ROOT / "pyproject.toml").read_text()
    config += (
        "\n[tool.mutmut]\n"
        'source_paths = ["src"]\n'
        f"only_mutate = [{json.dumps(source)}]\n"
        f"pytest_add_cli_args_test_selection = {json.dumps(tests)}\n"
        f"pytest_add_cli_args = {json.dumps(extra)}\n"
        "use_git_change_detection = false\n"
        # the machine is shared: a mutant's tests may wait for a core, so the time limit is
        # generous (an endless loop is still stopped)
        "timeout_multiplier = 10.0\n"
        "timeout_constant = 30.0\n"
    )
    (work / "pyproject.toml").write_text(config)
    if (work / "mutants").is_dir():
        (work / "mutants" / "pyproject.toml").write_text(config)


def _mutmut(work: Path, env: dict, max_children: int, log_name: str, *mutants: str) -> float:
    """Run ``mutmut run`` in ``work`` (on ``mutants`` only, if given), its output to
    ``work/log_name``; the wall time in seconds."""
    start = time.perf_counter()
    with open(work / log_name, "w") as log:
        subprocess.run([sys.executable, "-m", "mutmut", "run", "--max-children",
                        str(max_children), *mutants], cwd=work, env=env, stdout=log,
                       stderr=subprocess.STDOUT, check=False)
    return time.perf_counter() - start


def run_module(name: str, max_children: int) -> dict:
    source, tests = MODULES[name]
    work = _scratch(name)
    env = _env(name)
    seconds = _mutmut(work, env, max_children, "mutmut-run.log")
    return collect(name, work, env, seconds)


def resume(name: str, max_children: int) -> dict:
    """Go on with an interrupted run of ``name``: the mutants without a result are run against
    the tests as they are now (copied in, the coverage map rebuilt); mutmut keeps the results
    already recorded. The wall time is that of this part only."""
    work = BUILD / name
    source = MODULES[name][0]
    if (work / source).read_bytes() != (ROOT / source).read_bytes():
        raise SystemExit(f"{source} changed since the run in {work} was started: its mutants "
                         "are stale; run the module again instead of resuming")
    _fresh_tests(work)
    for target in (work / "src", work / "mutants" / "src"):  # the rest of src/ as it is now
        for path in (ROOT / "src").rglob("*.py"):
            if str(path.relative_to(ROOT)) != source:
                dest = target / path.relative_to(ROOT / "src")
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, dest)
    env = _env(name)
    seconds = _mutmut(work, env, max_children, "mutmut-resume.log")
    row = collect(name, work, env, None)
    row["resume_seconds"] = round(seconds, 1)
    return row


def _fresh_tests(work: Path) -> None:
    for folder in (work / "tests", work / "mutants" / "tests"):
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(ROOT / "tests", folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis"))
    (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
    _write_config(work, work.name)


def recheck(name: str, max_children: int) -> dict:
    """Run the surviving mutants of an earlier run of ``name`` again, against the tests as they
    are now (copied into its scratch folder; mutmut's map of which tests cover which function is
    rebuilt so that new tests are used). The same mutants, the current tests: the counts are
    those of the first run with the survivors' new status."""
    work = BUILD / name
    summary = json.loads((BUILD / "summary.json").read_text())
    survivors = summary[name]["survivors"]
    _fresh_tests(work)
    env = _env(name)
    seconds = _mutmut(work, env, max_children, "mutmut-recheck.log", *survivors) \
        if survivors else 0.0
    row = collect(name, work, env, summary[name].get("seconds"))
    row["recheck_seconds"] = round(seconds, 1)
    return row


def _env(name: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # mutmut forks a worker per mutant from a process that already ran the tests; numba's
    # OpenMP threading layer cannot survive fork() ("fork() called from a process already using
    # GNU OpenMP"), the workqueue layer can
    env["NUMBA_THREADING_LAYER"] = "workqueue"
    if name in NO_JIT:
        env["NUMBA_DISABLE_JIT"] = "1"
    return env


def collect(name: str, work: Path, env: dict, seconds: float | None) -> dict:
    """The counts of a (finished or interrupted) run in ``work``; unchecked mutants are left
    out of the rate and reported as ``not_checked``."""
    source, tests = MODULES[name]
    subprocess.run([sys.executable, "-m", "mutmut", "export-cicd-stats"], cwd=work, env=env,
                   capture_output=True, check=False)
    stats_file = work / "mutants" / "mutmut-cicd-stats.json"
    stats = json.loads(stats_file.read_text()) if stats_file.exists() else {}
    res = subprocess.run([sys.executable, "-m", "mutmut", "results"], cwd=work, env=env,
                         capture_output=True, text=True, check=False)
    survivors = [line.split(":")[0].strip() for line in res.stdout.splitlines()
                 if line.strip().endswith(("survived", "no tests"))]
    checked = sum(int(stats.get(k, 0)) for k in _COUNTED)
    caught = int(stats.get("killed", 0)) + int(stats.get("timeout", 0))
    return {
        "module": name, "source": source, "tests": tests,
        "seconds": None if seconds is None else round(seconds, 1),
        "not_checked": int(stats.get("total", 0)) - checked - int(stats.get("skipped", 0)),
        "stats": stats, "checked": checked, "caught": caught,
        "kill_rate": round(caught / checked, 4) if checked else None,
        "survivors": survivors,
        "load_average": os.getloadavg(),
    }


def _table(rows: list[dict]) -> str:
    out = ["| module | mutants checked | killed (+timeout) | survived | no tests | kill rate "
           "| wall time |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        s = r["stats"]
        rate = "—" if r["kill_rate"] is None else f"{100 * r['kill_rate']:.1f} %"
        wall = "interrupted" if r["seconds"] is None else f"{r['seconds']:.0f} s"
        if r.get("not_checked"):
            wall += f", {r['not_checked']} not checked"
        out.append(f"| `{r['source']}` | {r['checked']} | {r['caught']} | "
                   f"{s.get('survived', 0)} | {s.get('no_tests', 0)} | {rate} | {wall} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("modules", nargs="*", help=f"some of {', '.join(MODULES)} (default: all)")
    ap.add_argument("--list", action="store_true", help="print the modules and their tests")
    ap.add_argument("--max-children", type=int, default=2, help="parallel mutmut workers")
    ap.add_argument("--budget", type=float, default=None,
                    help="seconds; no new module is started once they are spent")
    ap.add_argument("--report", action="store_true",
                    help="do not run: read the counts of the runs already in build/mutation "
                    "(also of an interrupted one) and print the table")
    ap.add_argument("--recheck", action="store_true",
                    help="do not mutate again: run the survivors of the last run of each module "
                    "against the current tests and update the counts")
    ap.add_argument("--resume", action="store_true",
                    help="do not mutate again: run the mutants an interrupted run left unchecked "
                    "against the current tests (the results already recorded stand)")
    args = ap.parse_args(argv)
    if args.list:
        for name, (source, tests) in MODULES.items():
            print(f"{name:20s} {source}  <-  {' '.join(tests)}")
        return 0
    unknown = [m for m in args.modules if m not in MODULES]
    if unknown:
        ap.error(f"unknown module(s) {unknown}; choose from {list(MODULES)}")
    BUILD.mkdir(parents=True, exist_ok=True)
    summary_file = BUILD / "summary.json"
    summary = json.loads(summary_file.read_text()) if summary_file.exists() else {}
    if args.recheck or args.resume:
        for name in args.modules or [m for m in MODULES if m in summary]:
            if (BUILD / name / "mutants").is_dir():
                row = (resume if args.resume else recheck)(name, args.max_children)
                summary = json.loads(summary_file.read_text())  # other runs may have written
                summary[name] = row
                summary_file.write_text(json.dumps(summary, indent=1))
        print(_table([summary[m] for m in MODULES if m in summary]))
        return 0
    if args.report:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        for name in args.modules or list(MODULES):
            if (BUILD / name / "mutants").is_dir():
                seconds = summary.get(name, {}).get("seconds")
                summary[name] = collect(name, BUILD / name, env, seconds)
        summary_file.write_text(json.dumps(summary, indent=1))
        print(_table([summary[m] for m in MODULES if m in summary]))
        return 0
    start = time.perf_counter()
    for name in args.modules or list(MODULES):
        if args.budget is not None and time.perf_counter() - start > args.budget:
            print(f"budget spent; {name} not run", flush=True)
            continue
        row = run_module(name, args.max_children)
        if summary_file.exists():  # another run may have written meanwhile
            summary = json.loads(summary_file.read_text())
        summary[name] = row
        summary_file.write_text(json.dumps(summary, indent=1))
        rate = "—" if row["kill_rate"] is None else f"{100 * row['kill_rate']:.1f} %"
        print(f"{name}: {row['caught']}/{row['checked']} killed ({rate}), "
              f"{len(row['survivors'])} surviving, {row['seconds']:.0f} s", flush=True)
    rows = [summary[m] for m in MODULES if m in summary]
    print(_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
