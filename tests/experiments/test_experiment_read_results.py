"""read_results on a stopped run (partial=True): the finished cells' rows, exactly as the
finished run's results.parquet holds them."""

from __future__ import annotations

import shutil

import pandas as pd
import pytest
from experiment_configs import tiny_config

from rankfusion.experiments import parse_config, read_results, run_experiment


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    out = tmp_path_factory.mktemp("done")
    run_experiment(parse_config(tiny_config(datasets=("iris",))), out, report=False,
                   progress=False)
    return out


def _stopped(finished, tmp_path, drop: int):
    """A copy of the finished folder as a run stopped before its end: no results.parquet,
    ``drop`` cell files missing."""
    out = tmp_path / "stopped"
    shutil.copytree(finished, out)
    (out / "results.parquet").unlink()
    (out / "positions.parquet").unlink()
    gone = sorted((out / "cells").glob("*.json"))[:drop]
    for f in gone:
        f.unlink()
    return out, {f.stem for f in gone}


@pytest.mark.parametrize("drop", [0, 1, 2])
def test_partial_equals_finished_rows_of_the_done_cells(finished, tmp_path, drop):
    full, full_pos, _ = read_results(finished)
    out, gone = _stopped(finished, tmp_path, drop)
    got, pos, _ = read_results(out, partial=True)
    want = full[~full["cell"].isin(gone)].reset_index(drop=True)
    assert len(want) > 0 and full["cell"].nunique() - want["cell"].nunique() == drop
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want, check_exact=True)
    want_pos = full_pos[~full_pos["cell"].isin(gone)].reset_index(drop=True)
    assert set(pos["cell"]) <= set(want_pos["cell"])


def test_partial_of_a_finished_folder_reads_its_parquet(finished):
    a = read_results(finished)[0]
    b = read_results(finished, partial=True)[0]
    pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_stopped_folder_without_partial_says_how(finished, tmp_path):
    out, _ = _stopped(finished, tmp_path, 1)
    with pytest.raises(FileNotFoundError, match="partial=True"):
        read_results(out)


def test_partial_needs_a_config(tmp_path):
    (tmp_path / "cells").mkdir()
    with pytest.raises(FileNotFoundError, match="config.toml"):
        read_results(tmp_path, partial=True)
