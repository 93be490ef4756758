"""CI smoke reproductions of Bouaguel et al. (2013) and of the robust-FS paper (Borda,
Kemeny): experiments/<paper>/smoke.toml rerun into a temporary folder gives exactly the
committed smoke results (the runs are seeded)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from rankfusion.experiments import read_results, run_experiment

ROOT = Path(__file__).resolve().parents[2]
KEYS = ["dataset", "method", "selector", "rule", "classifier", "protocol", "split", "metric"]


def _tidy(df: pd.DataFrame) -> pd.DataFrame:
    return df[KEYS + ["value"]].sort_values(KEYS).reset_index(drop=True)


@pytest.mark.parametrize("paper", ["bouaguel", "robust_fs"])
def test_smoke_rerun_equals_committed_results(paper, tmp_path):
    committed = ROOT / "experiments" / "results" / paper / "smoke"
    run_experiment(ROOT / "experiments" / paper / "smoke.toml", out=tmp_path / "out",
                   report=False)
    ours = _tidy(read_results(tmp_path / "out")[0])
    ref = _tidy(pd.read_parquet(committed / "results.parquet"))
    assert len(ours) > 0
    pd.testing.assert_frame_equal(ours, ref, check_exact=True)
