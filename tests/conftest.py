"""Paths shared by the tests: the stored oracle fixtures, the shared reference data, bundled data.

Import the constants where a path is needed at collection time (``parametrize``), e.g.
``from conftest import WEKA_FIXTURES``; use the fixtures of the same names (lower case) inside
a test. Nothing else defines a path to these folders.
"""

from __future__ import annotations

import os
import random
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
