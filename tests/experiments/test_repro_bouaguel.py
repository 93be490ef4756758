"""CI smoke reproduction of Bouaguel et al. (2013): experiments/bouaguel/smoke.toml rerun into
a temporary folder gives exactly the committed smoke results (the run is seeded)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from rankfusion.experiments import read_results, run_experiment

ROOT = Path(__file__).resolve().parents[2]
PAPER = "bouaguel"
KEYS = ["dataset", "method", "selector", "rule", "classifier", "protocol", "split", "metric"]


def _tidy(df: pd.DataFrame) -> pd.DataFrame:
    return df[KEYS + ["value"]].sort_values(KEYS).reset_index(drop=True)


def test_smoke_rerun_equals_committed_results(tmp_path):
    committed = ROOT / "experiments" / "results" / PAPER / "smoke"
    run_experiment(ROOT / "experiments" / PAPER / "smoke.toml", out=tmp_path / "out",
                   report=False)
    ours = _tidy(read_results(tmp_path / "out")[0])
    ref = _tidy(pd.read_parquet(committed / "results.parquet"))
    assert len(ours) > 0
    pd.testing.assert_frame_equal(ours, ref, check_exact=True)
