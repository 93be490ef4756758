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


@pytest.mark.parametrize("case, exc, match", [
    ("partial_text", TypeError, "partial must be True or False"),
    ("partial_int", TypeError, "partial must be True or False"),
    ("missing", FileNotFoundError, "does not exist"),
    ("a_file", ValueError, "is a file"),
    ("not_a_path", TypeError, "out must be a path"),
    ("empty_folder", FileNotFoundError, "results.parquet"),
    ("empty_folder_partial", FileNotFoundError, "config.toml"),
])
def test_hostile_read_results(finished, tmp_path, case, exc, match):
    kw, out = {}, finished
    if case == "partial_text":
        kw["partial"] = "yes"
    elif case == "partial_int":
        kw["partial"] = 1
    elif case == "missing":
        out = tmp_path / "absent"
    elif case == "a_file":
        out = finished / "results.parquet"
    elif case == "not_a_path":
        out = 3
    else:
        out = tmp_path / "empty"
        out.mkdir()
        kw["partial"] = case.endswith("partial")
    with pytest.raises(exc, match=match):
        read_results(out, **kw)
