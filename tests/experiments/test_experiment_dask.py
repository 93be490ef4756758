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


ZOO_SMALL_CLASSES = """
[experiment]
seed = 1

[grid]
datasets = ["zoo"]
selectors = ["ig"]
classifiers = ["naive_bayes"]

[selectors.ig]
kind = "ranker"
ranker = "info_gain"
n_features_to_select = 3

[protocols.cv]
kind = "cross_validation"
cv = 10
scoring = ["accuracy"]
small_classes = true
"""


#: Warnings of the cluster's own machinery, not of the experiment's work: a dashboard port taken
#: by another process (another pytest-xdist worker's cluster), sockets closed late.
CLUSTER_NOISE = ("distributed", "tornado", "asyncio")


def _shown(caught):
    return sorted({(w.category.__name__, str(w.message)) for w in caught
                   if not issubclass(w.category, ResourceWarning)
                   and not any(f"{os.sep}{m}{os.sep}" in str(w.filename) for m in CLUSTER_NOISE)})


def test_worker_warnings_are_shown_by_the_driver_as_in_a_local_run(tmp_path, capfd):
    """scikit-learn warns that a class has fewer members than folds: a local run shows it
    through this process's filters; a Dask run shows the same warnings the same way, and the
    workers print nothing of their own."""
    import warnings

    with warnings.catch_warnings(record=True) as local:
        warnings.simplefilter("default")
        run_experiment(ZOO_SMALL_CLASSES, tmp_path / "local", report=False, progress=False)
    assert any("least populated class" in str(w.message) for w in local)
    capfd.readouterr()
    with warnings.catch_warnings(record=True) as dask:
        warnings.simplefilter("default")
        run_experiment(ZOO_SMALL_CLASSES, tmp_path / "dask", n_workers=1, report=False,
                       progress=False)
    err = capfd.readouterr().err
    assert _shown(dask) == _shown(local)
    assert "least populated class" not in err  # not printed by a worker
    # an "ignore" filter of the driver silences the workers' warnings too
    with warnings.catch_warnings(record=True) as ignored:
        warnings.simplefilter("default")
        warnings.filterwarnings("ignore", message=".*least populated class")
        run_experiment(ZOO_SMALL_CLASSES, tmp_path / "dask2", n_workers=1, report=False,
                       progress=False)
    assert not any("least populated class" in str(w.message) for w in ignored)
    assert "least populated class" not in capfd.readouterr().err


def test_dask_retries_are_recorded_with_the_error_of_each_attempt(tmp_path):
    from rankfusion.experiments import dask_client, parse_config

    text = tiny_config(datasets=("iris",), rules=("borda",))
    flaky_hash = parse_config(text).cells[0].hash
    hopeless_hash = parse_config(text).cells[1].hash

    def install():
        import rankfusion.experiments.cells as cells

        real = cells.run_cell
        calls = {}

        def run_cell(spec, n_jobs=None):
            h = cells.sha256_hex(spec)
            calls[h] = calls.get(h, 0) + 1
            if h == hopeless_hash or (h == flaky_hash and calls[h] == 1):
                raise RuntimeError(f"attempt {calls[h]} broke")
            return real(spec, n_jobs=n_jobs)

        cells.run_cell = run_cell

    client = dask_client(n_workers=1)
    try:
        client.run(install)
        out = tmp_path / "retry"
        summary = run_experiment(text, out, client=client, retries=2, report=False,
                                 progress=False)
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    assert summary.failed == {hopeless_hash: "RuntimeError: attempt 3 broke"}
    assert flaky_hash in summary.computed
    run = json.loads((out / "metadata.json").read_text())["runs"][-1]
    assert run["status"] == "failed"
    got = sorted((r["cell"], r["attempt"], r["error"]) for r in run["retried"])
    assert got == sorted([(flaky_hash, 1, "RuntimeError: attempt 1 broke"),
                          (hopeless_hash, 1, "RuntimeError: attempt 1 broke"),
                          (hopeless_hash, 2, "RuntimeError: attempt 2 broke")])
