"""The Izetta et al. (2017) smoke reproduction reruns to the committed numbers.

Reruns ``experiments/izetta/smoke.toml`` through the Python API into a temporary folder and
compares its tidy results (errors per split and feature count) and per-split rankings with the
committed ``experiments/results/izetta/smoke/artificial`` — exact equality: every number is
seeded by the configuration alone.
"""

from pathlib import Path

import pandas as pd
import pytest

from rankfusion.experiments import run_experiment

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "experiments" / "izetta" / "smoke.toml"
COMMITTED = ROOT / "experiments" / "results" / "izetta" / "smoke" / "artificial"
KEYS = ["dataset", "method", "selector", "rule", "classifier", "protocol", "split"]


@pytest.fixture(scope="module")
def rerun(tmp_path_factory):
    out = tmp_path_factory.mktemp("izetta_smoke")
    summary = run_experiment(CONFIG, out, report=False, progress=False)
    assert summary.ok, summary.failed
    return out


def _sorted(df, keys):
    return df.sort_values(keys).reset_index(drop=True)


def test_errors_equal_committed(rerun):
    new = pd.read_parquet(rerun / "results.parquet")
    old = pd.read_parquet(COMMITTED / "results.parquet")
    keys = KEYS + ["n_features", "metric"]
    new, old = _sorted(new, keys), _sorted(old, keys)
    assert len(new) == len(old) > 0
    pd.testing.assert_frame_equal(new, old, check_exact=True)


def test_rankings_equal_committed(rerun):
    keys = ["dataset", "method", "split", "feature"]
    new = _sorted(pd.read_parquet(rerun / "positions.parquet"), keys)
    old = _sorted(pd.read_parquet(COMMITTED / "positions.parquet"), keys)
    assert len(new) == len(old) > 0
    pd.testing.assert_frame_equal(new, old, check_exact=True)
