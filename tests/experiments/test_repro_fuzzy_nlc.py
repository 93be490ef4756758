"""The committed smoke results of the fuzzy and NLC reproductions are what their smoke configs
produce (seeded: exact equality)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from rankfusion.experiments import load_config, read_results, run_experiment

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("paper", ["fuzzy", "nlc"])
def test_smoke_results_match_the_committed_ones(paper, tmp_path):
    config = load_config(ROOT / "experiments" / paper / "smoke.toml")
    run_experiment(config, tmp_path, report=False)
    got, _, _ = read_results(tmp_path)
    want, _, _ = read_results(ROOT / "experiments" / "results" / paper / "smoke" / "run")
    key = ["dataset", "method", "classifier", "protocol", "split", "n_features", "metric"]
    got = got.sort_values(key).reset_index(drop=True)
    want = want.sort_values(key).reset_index(drop=True)
    assert len(got) > 0
    pd.testing.assert_frame_equal(got[key + ["value", "cell"]], want[key + ["value", "cell"]],
                                  check_exact=True)
