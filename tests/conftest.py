"""Paths shared by the tests: the stored oracle fixtures, the shared reference data, bundled data.

Import the constants where a path is needed at collection time (``parametrize``), e.g.
``from conftest import WEKA_FIXTURES``; use the fixtures of the same names (lower case) inside
a test. Nothing else defines a path to these folders.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

import rankfusion

# Hypothesis profiles. "ci" is the default: derandomised (every run draws the same examples,
# whatever ``--hypothesis-seed`` says), no example database (a fresh clone and a used checkout
# run the same cases), no deadline (wall-clock limits fail on a busy machine). "dev" searches at
# at random; run it locally with ``--hypothesis-profile=dev`` and pin
# whatever it finds with ``@example`` so that the "ci" runs check it from then on.
settings.register_profile(
    "ci", derandomize=True, database=None, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "dev", derandomize=False, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _seeded_global_random():
    """Seed the legacy global generators (``numpy.random`` and :mod:`random`) before every test,
    so that a library or test drawing from them without a seed draws the same numbers on every
    run and in every order of the tests."""
    np.random.seed(0)  # noqa: NPY002 (the legacy global generator is the point)
    random.seed(0)


#: The root of the repository these tests belong to, and its ``experiments/`` folder (the
#: papers' configurations, not installed with the package).
ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = ROOT / "experiments"
# ``rankfusion reproduce`` finds experiments/ through this variable first (then ./experiments,
# then the checkout beside the package): set it here, so that the tests reproduce with this
# checkout's configurations wherever the package is installed and whatever the working folder.
os.environ["RANKFUSION_EXPERIMENTS"] = str(EXPERIMENTS)

#: ``tests/fixtures``: reference outputs of the oracles, one folder per tool or method, each with
#: a README and the script that made them.
FIXTURES = Path(__file__).resolve().parent / "fixtures"
#: Weka 3.6 scores and discretisations (``make_fixtures.sh``) and the ARFF files they were made on.
WEKA_FIXTURES = FIXTURES / "weka"
WEKA_DATA = WEKA_FIXTURES / "data"
#: Weka 3.6 ReliefFAttributeEval with a numeric class (RReliefF) and its data.
RRELIEFF_FIXTURES = FIXTURES / "rrelieff"
#: Weka 3.6 CfsSubsetEval + BestFirst subsets with a numeric class (data from RRELIEFF_FIXTURES
#: and WEKA_DATA).
CFS_NUMERIC_FIXTURES = FIXTURES / "cfs_numeric"
#: Weka 3.6 CfsSubsetEval subsets and their (gzipped ARFF) data.
CFS_FIXTURES = FIXTURES / "cfs"
CFS_DATA = CFS_FIXTURES / "data"
#: FSLib's ILFS run in GNU Octave.
ILFS_FIXTURES = FIXTURES / "ilfs"
#: R RankAggreg 0.6.6 runs (GA, CE, distances).
RANKAGGREG_FIXTURES = FIXTURES / "rankaggreg"
#: R RobustRankAggreg 1.2.1 outputs.
RRA_FIXTURES = FIXTURES / "rra"
#: The Weston–Watkins reference solution.
SVM_FIXTURES = FIXTURES / "svm"

#: The data bundled with the package (``rankfusion/data``).
BUNDLED_DATA = Path(rankfusion.__file__).resolve().parent / "data"


def _shared_dir() -> Path:
    """The project's shared folder: ``$RANKFUSION_SHARED``, else ``shared/`` beside the
    repository (how CI lays it out), else the workplace copy."""
    env = os.environ.get("RANKFUSION_SHARED")
    if env:
        return Path(env)
    beside = Path(__file__).resolve().parents[2] / "shared"
    if beside.is_dir():
        return beside
    return Path("/work/shared")


SHARED = _shared_dir()
#: The real datasets of the papers (``MANIFEST.md`` there); tests that need them are ``full``
#: or ``oracle`` tests or skip when the folder is absent.
SHARED_DATASETS = SHARED / "datasets"
#: Weka 3.6 scores on three ARFF files, as shipped with the design brief.
WEKA_REFERENCE = SHARED / "reference" / "weka"


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    return FIXTURES


@pytest.fixture(scope="session")
def weka_fixtures() -> Path:
    return WEKA_FIXTURES


@pytest.fixture(scope="session")
def weka_reference() -> Path:
    return WEKA_REFERENCE


@pytest.fixture(scope="session")
def shared_datasets() -> Path:
    return SHARED_DATASETS


@pytest.fixture(scope="session")
def bundled_data() -> Path:
    return BUNDLED_DATA


def read_csv(*args, **kwargs):
    """``pandas.read_csv`` parsing floats round-trip exactly on every supported pandas (pandas
    before 3.0 is off by one unit in the last place for about half of 17-digit values), so a
    stored oracle's numbers read back as the oracle printed them."""
    from rankfusion._utils.tabular import read_csv as exact

    return exact(*args, **kwargs)


def tables_script(paper: str, name: str | None = None):
    """``experiments/<paper>/tables.py`` imported as a module (its folder's parent on the path
    while it loads, as when it is run), so a test can call its functions."""
    import importlib.util
    import sys

    path = Path(__file__).resolve().parents[1] / "experiments" / paper / "tables.py"
    spec = importlib.util.spec_from_file_location(name or f"_tables_{paper}", path)
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parents[1]))
    try:
        spec.loader.exec_module(mod)
    finally:
        sys.path.remove(str(path.parents[1]))
    return mod


# ------------------------------------------------------------------ stable test ids
#: A memory address in a test id (``<function f at 0x7f…>``, ``0x7f3a…``): such an id changes
#: from one run to the next, so the workers of pytest-xdist (``-n 2``) would collect different
#: tests and refuse to run, and ``--lf`` or ``--deselect`` could not name the test.
ADDRESS_IN_ID = re.compile(r"\bat 0x|0x[0-9a-fA-F]{8,}")


def _stable_str(value) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_stable_str(k)}: {_stable_str(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_stable_str(v) for v in value)
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if callable(value) and isinstance(getattr(value, "__qualname__", None), str):
        return value.__qualname__  # a function or a class, by name
    text = repr(value)
    return f"{type(value).__name__}(...)" if ADDRESS_IN_ID.search(text) else text


def param_id(value, width: int = 60) -> str:
    """A test id for a ``parametrize`` value that is the same in every run: ``str(value)`` with
    functions and classes named (``_score_free``, not ``<function _score_free at 0x7f…>``) and
    any other object whose repr carries an address shown as ``TypeName(...)``, cut at
    ``width`` characters. Use it as ``ids=[param_id(case[0]) for case in CASES]``."""
    return _stable_str(value)[:width]


#: The platform-sensitive tests, marked ``platform`` (CI runs them on every Python it tests and
#: under an emulated older CPU): the comparisons with the oracles' stored outputs, the readers,
#: sparse input and the documentation's examples — where a parser, libm, BLAS or a CPU kernel
#: could change a result (docs/design.md, 'Equality with the oracles').
PLATFORM_TESTS = (
    "tests/io/", "tests/docs/", "tests/test_doctests.py", "tests/test_gallery.py",
    "tests/test_equality_policy.py", "tests/aggregation/test_rules_oracles.py",
    "tests/aggregation/test_genetic.py", "tests/aggregation/test_rra.py",
    "tests/aggregation/test_markov.py", "tests/rankers/test_rankers_weka.py",
    "tests/rankers/test_rrelieff.py", "tests/rankers/test_cfs_raw_weka.py",
    "tests/rankers/test_cfs_regression.py", "tests/rankers/test_rankers_cfs.py",
    "tests/rankers/test_rankers_ilfs.py", "tests/rankers/test_svm_rfe_msvm.py",
    "tests/rankers/test_redundancy.py", "tests/selection/test_boruta.py",
    "tests/selection/test_selectors_regression.py",
)


def _is_platform_test(path: Path) -> bool:
    try:
        rel = path.resolve().relative_to(ROOT).as_posix()
    except ValueError:  # a test outside this repository (a probe suite in a temporary folder)
        return False
    return rel.startswith(PLATFORM_TESTS) or "sparse" in path.name


def pytest_collection_modifyitems(config, items):
    """Mark the platform-sensitive tests (``PLATFORM_TESTS``) and refuse a run whose test ids
    carry memory addresses (see ``ADDRESS_IN_ID``)."""
    for item in items:
        if _is_platform_test(Path(str(item.fspath))):
            item.add_marker(pytest.mark.platform)
    bad = [item.nodeid for item in items if ADDRESS_IN_ID.search(item.nodeid)]
    if bad:
        shown = "\n  ".join(bad[:10]) + ("\n  ..." if len(bad) > 10 else "")
        raise pytest.UsageError(
            f"{len(bad)} test id(s) carry a memory address, which changes from run to run (the "
            f"workers of pytest -n would collect different tests):\n  {shown}\ngive those "
            f"parametrize calls ids= without addresses, e.g. ids=[conftest.param_id(v) ...]")


# ------------------------------------------------------------------ optional peers
#: The other implementations some tests compare with live when installed (their stored outputs
#: are compared always): import name -> the PyPI distribution, all in the ``peers`` extra
#: (``pip install ".[peers]"``).
PEERS = {
    "pyflagr": "pyflagr",  # tests/aggregation/test_markov.py
    "boruta": "Boruta",  # tests/selection/test_boruta.py, test_selectors_regression.py
    "mrmr": "mrmr-selection",  # tests/rankers/test_redundancy.py
    "skfeature": "skfeature-chappers",  # tests/rankers/test_redundancy.py
}
#: Peers that install only on some machines (``platform.machine()``): PyFLAGR's wheel carries
#: x86-64 binaries only (the ``peers`` extra leaves it out elsewhere).
PEER_MACHINES = {"pyflagr": ("x86_64", "AMD64")}
#: Set to 1 (as CI does) to fail a run in which a peer is absent or does not import.
REQUIRE_PEERS = "RANKFUSION_REQUIRE_PEERS"
_NOT_IMPORTED = re.compile(r"could not import '([\w.]+)'")


def _import_skips(stats) -> dict[str, list[str]]:
    """Top-level module -> the reasons of the tests skipped by ``importorskip`` on it."""
    out: dict[str, list[str]] = {}
    for report in stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
        m = _NOT_IMPORTED.search(str(reason))
        if m:
            out.setdefault(m.group(1).split(".")[0], []).append(str(reason))
    return out


def _missing_peers(stats) -> dict[str, str]:
    """Peer -> why its live comparisons cannot run (absent, or present but not importable)."""
    import importlib.util
    import platform

    skips = _import_skips(stats)
    missing = {}
    for name, dist in PEERS.items():
        if platform.machine() not in PEER_MACHINES.get(name, (platform.machine(),)):
            continue  # not installable here, so not missing
        if importlib.util.find_spec(name) is None:
            missing[name] = f"not installed (pip install {dist})"
        elif name in skips:
            missing[name] = f"installed but does not import: {skips[name][0]}"
    return missing


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """List the optional peers that were absent and the tests skipped for want of a module, so
    that live comparisons skipped on a machine without the peers do not pass unnoticed."""
    stats = terminalreporter.stats
    skips = _import_skips(stats)
    missing = _missing_peers(stats)
    if not skips and not (missing and os.environ.get(REQUIRE_PEERS) == "1"):
        return
    terminalreporter.section("optional peers and modules")
    for name, why in missing.items():
        n = len(skips.get(name, []))
        terminalreporter.line(f"peer {name}: {why}; {n} test(s) skipped")
    for name in sorted(set(skips) - set(PEERS)):
        terminalreporter.line(f"module {name}: {len(skips[name])} test(s) skipped "
                              f"({skips[name][0]})")
    if missing:
        terminalreporter.line('install the peers with: pip install ".[peers]"')
        if os.environ.get(REQUIRE_PEERS) == "1":
            terminalreporter.line(f"{REQUIRE_PEERS}=1: the run fails because of the absent peers")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    if os.environ.get(REQUIRE_PEERS) != "1" or hasattr(session.config, "workerinput"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    stats = reporter.stats if reporter is not None else {}
    if _missing_peers(stats) and session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
