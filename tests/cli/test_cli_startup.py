"""Start-up of the command line: building the parsers loads no numerical library, and the
static rule / ranker names shown in ``--help`` match the registries."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[2] / "src")
HEAVY = ("numpy", "pandas", "scipy", "numba", "sklearn", "joblib", "llvmlite")

_PROBE = f"""
import json, runpy, sys
sys.argv = ["rankfusion", *json.loads(sys.argv[1])]
try:
    runpy.run_module("rankfusion", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
sys.stdout.flush()
print("\\n@@" + json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {HEAVY!r})))
"""


def _loaded(argv: list[str]) -> tuple[list[str], str]:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(argv)], env=env,
                          capture_output=True, text=True, timeout=120)
    out, _, tail = proc.stdout.rpartition("\n@@")
    return json.loads(tail), out


@pytest.mark.parametrize("argv", [
    ["--help"], ["--version"], ["rank", "--help"], ["aggregate", "--help"],
    ["svm-rfe", "--help"], ["demo", "--help"], ["datasets", "--help"], ["select", "--help"],
    ["experiment", "--help"], ["report", "--help"], ["advise", "--help"],
])
def test_parsers_load_no_numerical_library(argv):
    loaded, out = _loaded(argv)
    assert out.strip(), "the probe printed nothing: the command did not run"
    assert loaded == [], f"`rankfusion {' '.join(argv)}` imported {loaded}"


def test_probe_sees_heavy_imports():
    # the probe itself can fail: a command that runs loads numpy
    loaded, _ = _loaded(["datasets"])
    assert "numpy" in loaded


def test_help_names_match_registries():
    from rankfusion.aggregation import available_rules
    from rankfusion.cli._names import METHODS, RANKERS
    from rankfusion.rankers import available_rankers

    assert list(METHODS) == available_rules()
    assert list(RANKERS) == available_rankers()


def test_unknown_ranker_still_refused(capsys):
    from rankfusion.cli import main

    assert main(["rank", "nonexistent.csv", "--rankers", "info_gian"]) == 2
    assert "info_gain" in capsys.readouterr().err


def test_rank_small_csv_loads_numpy_only(tmp_path):
    # a small CSV with an information measure: numpy, and no pandas, scipy, numba, sklearn
    path = tmp_path / "d.csv"
    path.write_text("f0,f1,colour,cls\n1,2.5,red,a\n3,4.5,blue,b\n5,?,red,a\n2,1.0,blue,b\n")
    loaded, out = _loaded(["rank", str(path), "--rankers", "info_gain,gain_ratio"])
    assert out.startswith(f"# {path}: 4 samples, 3 features")
    heavy = sorted({m.split(".")[0] for m in loaded})
    assert heavy == ["numpy"], f"`rankfusion rank` on a small CSV imported {heavy}"


def test_rank_probe_sees_pandas_on_the_general_route(tmp_path):
    # the same file with --out goes through pandas: the probe would see it
    path = tmp_path / "d.csv"
    path.write_text("f0,f1,cls\n1,2.5,a\n3,4.5,b\n5,1.5,a\n2,1.0,b\n")
    loaded, _ = _loaded(["rank", str(path), "--out", str(tmp_path / "o.csv")])
    assert "pandas" in loaded
