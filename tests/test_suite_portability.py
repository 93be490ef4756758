"""The test suite runs anywhere (``tests/conftest.py``): its test ids are the same in every run
(no memory addresses, which would make the workers of ``pytest -n`` collect different tests),
``rankfusion reproduce`` finds this checkout's ``experiments/`` wherever the package is installed
and whatever the working folder, and the run ends with a list of the optional peers that were
absent (their live comparisons skipped)."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import conftest
from conftest import EXPERIMENTS, param_id

HERE = Path(__file__).resolve().parent


def _score_free(X, y):
    return X


class _Opaque:
    pass


@pytest.mark.parametrize(
    "value, want",
    [
        ({"rankers": ("pearson", _score_free)}, "{'rankers': ('pearson', _score_free)}"),
        ([_Opaque, _Opaque()], "[_Opaque, _Opaque(...)]"),
        (("fuzzy:OW",), "('fuzzy:OW',)"),
        ({"cv": 2, "x": None, "f": 0.5}, "{'cv': 2, 'x': None, 'f': 0.5}"),
        (len, "len"),
        ("text", "'text'"),
    ],
    ids=["dict-with-function", "class-and-object", "one-tuple", "plain-dict", "builtin", "str"],
)
def test_param_id_names_functions_and_hides_addresses(value, want):
    assert param_id(value) == want
    assert not conftest.ADDRESS_IN_ID.search(param_id(value))


def test_param_id_is_cut_at_width():
    assert param_id("x" * 100, width=10) == "'" + "x" * 9


@pytest.mark.parametrize(
    "node_id, bad",
    [
        ("t.py::test[<function f at 0x7f842c42c]", True),
        ("t.py::test[<function f at 0x]", True),
        ("t.py::test[obj-0x7f3a12bc9d40]", True),
        ("t.py::test[mc1-rand1000x5]", False),
        ("t.py::test[0x10]", False),
        ("t.py::test[_score_free]", False),
    ],
    ids=["function-repr", "cut-after-0x", "bare-address", "size-name", "small-hex", "name"],
)
def test_address_pattern(node_id, bad):
    assert bool(conftest.ADDRESS_IN_ID.search(node_id)) is bad


PROBE = """
import pytest


def f():
    pass


@pytest.mark.parametrize("value", [f, 1], ids=[str(f), "one"])
def test_probe(value):
    pass
"""


def test_a_test_id_with_an_address_stops_the_run(tmp_path):
    probe = tmp_path / "probe"
    probe.mkdir()
    (probe / "conftest.py").write_text(
        (HERE / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (probe / "test_probe.py").write_text(PROBE, encoding="utf-8")
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "--rootdir",
            str(probe),
            "-c",
            os.devnull,
            str(probe / "test_probe.py"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        # the outer run's options (CI's PYTEST_ADDOPTS="-n 2") are not the probe's
        env={k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"},
    )
    out = res.stdout + res.stderr
    assert res.returncode == 4, out  # a usage error: nothing ran
    assert "1 test id(s) carry a memory address" in out, out
    assert "test_probe.py::test_probe[<function f at 0x" in out, out
    assert "ids=" in out


def test_reproduce_finds_this_checkouts_experiments_from_anywhere(monkeypatch, tmp_path):
    """As when the package is installed outside the repository (not editable, another virtual
    environment) and the tests run from another folder: only the variable the tests set is left
    to find experiments/."""
    reproduce_mod = importlib.import_module("rankfusion.experiments.reproduce")
    assert os.environ[reproduce_mod.ENV_VAR] == str(EXPERIMENTS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(reproduce_mod, "__file__", str(tmp_path / "a" / "b" / "c" / "d.py"))
    monkeypatch.setattr(reproduce_mod, "_installed_from", lambda: None)
    assert reproduce_mod.find_experiments() == EXPERIMENTS.resolve()


PEER_PROBE = """
import pytest


def test_live_comparison():
    pytest.importorskip("rankfusion_no_such_peer.sub")


def test_other_module():
    pytest.importorskip("rankfusion_no_such_module")
"""


def _peer_probe(tmp_path: Path, **env) -> subprocess.CompletedProcess:
    probe = tmp_path / "probe"
    probe.mkdir(exist_ok=True)
    (probe / "conftest.py").write_text(
        (HERE / "conftest.py").read_text(encoding="utf-8")
        + '\nPEERS["rankfusion_no_such_peer"] = "rankfusion-no-such-peer"\n',
        encoding="utf-8",
    )
    (probe / "test_probe.py").write_text(PEER_PROBE, encoding="utf-8")
    environ = {k: v for k, v in os.environ.items()
               if k not in (conftest.REQUIRE_PEERS, "PYTEST_ADDOPTS")}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "--rootdir",
            str(probe),
            "-c",
            os.devnull,
            str(probe / "test_probe.py"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
        env={**environ, **env},
    )


def test_absent_peers_are_listed_at_the_end_of_the_run(tmp_path):
    res = _peer_probe(tmp_path)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    assert "optional peers and modules" in out
    assert (
        "peer rankfusion_no_such_peer: not installed (pip install rankfusion-no-such-peer); "
        "1 test(s) skipped"
    ) in out, out
    assert "module rankfusion_no_such_module: 1 test(s) skipped" in out, out
    assert 'pip install ".[peers]"' in out


def test_a_run_that_requires_the_peers_fails_without_them(tmp_path):
    res = _peer_probe(tmp_path, **{conftest.REQUIRE_PEERS: "1"})
    out = res.stdout + res.stderr
    assert res.returncode == 1, out
    assert "2 skipped" in out and "RANKFUSION_REQUIRE_PEERS=1: the run fails" in out, out
