"""Dask scale-out: a 2-worker LocalCluster (processes) gives the local run's numbers exactly,
even when a worker is killed mid-run."""

from __future__ import annotations

import json
import os
import signal

import pandas as pd
import pytest
from experiment_configs import tiny_config

from rankfusion.experiments import run_experiment

distributed = pytest.importorskip("distributed")


def _tables(out):
    return (pd.read_parquet(out / "results.parquet"), pd.read_parquet(out / "positions.parquet"))


def test_local_cluster_with_a_killed_worker_matches_the_local_run(tmp_path):
    text = tiny_config()
    local = tmp_path / "local"
    run_experiment(text, local, report=False, progress=False)

    killed = []

    def on_cell(cell, status):
        # after the first cell is filed, kill one worker process with SIGKILL: the nanny
        # restarts it and the scheduler reassigns the cell it was running
        if status == "computed" and not killed:
            client = distributed.default_client()
            pid = sorted(client.run(os.getpid).values())[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    out = tmp_path / "dask"
    summary = run_experiment(text, out, n_workers=2, report=False, progress=False,
                             on_cell=on_cell)
    assert killed
    assert summary.ok and len(summary.computed) == 6
    meta = json.loads((out / "metadata.json").read_text())
    assert meta["runs"][-1]["backend"].startswith("dask")
    assert meta["versions"]["distributed"]
    assert {t["pid"] for t in meta["cells"].values()} - {os.getpid()}  # ran on the workers
    for a, b in zip(_tables(out), _tables(local)):
        pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_cli_rejects_an_empty_local_cluster(tmp_path, capsys):
    from rankfusion.cli import main

    cfg = tmp_path / "t.toml"
    cfg.write_text(tiny_config())
    assert main(["experiment", str(cfg), "--out", str(tmp_path / "o"), "--dask-local", "0"]) == 2
    assert "--dask-local must be ≥ 1" in capsys.readouterr().err
