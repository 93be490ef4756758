"""Runner: results against a direct call of the protocol, resuming after SIGKILL, corrupt and
partial cell files, changed configs, dry run, CSV, and no Dask import in the core."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from experiment_configs import tiny_config

from conftest import read_csv
from rankfusion.experiments import dry_run, parse_config, run_experiment
from rankfusion.experiments.store import cell_path

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _run(text, out, **kw):
    kw.setdefault("report", False)
    kw.setdefault("progress", False)
    return run_experiment(text, out, **kw)


def _tables(out):
    return (pd.read_parquet(out / "results.parquet"), pd.read_parquet(out / "positions.parquet"))


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """One uninterrupted local run of the tiny grid."""
    out = tmp_path_factory.mktemp("ref")
    summary = _run(tiny_config(), out)
    assert summary.ok and len(summary.computed) == 6
    return out


def test_results_equal_a_direct_call_of_the_protocol(reference):
    """Oracle: evaluation.error_curve called by hand with the documented seed."""
    from sklearn.datasets import load_wine

    from rankfusion import EnsembleSelector
    from rankfusion.evaluation import error_curve

    cell = next(c for c in parse_config(tiny_config()).cells
                if c.label == "wine/ens+kfirst/naive_bayes/curve")
    X, y = load_wine(return_X_y=True)
    direct = error_curve(EnsembleSelector(rankers=("f_classif", "chi2"), aggregation="kfirst",
                                          aggregation_params={"k": 0.5}),
                         X, y, n_features=[1, 2, 4], classifier="naive_bayes", n_splits=3,
                         test_size=0.3, random_state=cell.seed)
    res, pos = _tables(reference)
    got = res[(res["dataset"] == "wine") & (res["method"] == "ens+kfirst")]
    table = got.pivot(index="split", columns="n_features", values="value")
    np.testing.assert_array_equal(table.to_numpy(), direct.errors.to_numpy())
    gp = pos[(pos["dataset"] == "wine") & (pos["method"] == "ens+kfirst")]
    np.testing.assert_array_equal(
        gp.pivot(index="split", columns="feature", values="position")
        [load_wine().feature_names].to_numpy(), direct.positions.to_numpy())


def test_tidy_table_shape_and_metadata(reference):
    res, pos = _tables(reference)
    assert len(res) == 6 * 3 * 3  # cells × splits × feature counts
    assert set(res.columns) >= {"dataset", "method", "classifier", "protocol", "split",
                                "n_features", "metric", "value", "cell"}
    assert set(res["metric"]) == {"error"}
    assert res["value"].between(0, 1).all()
    # one ranking per (dataset, method) and split: iris 4 features, wine 13
    assert len(pos) == 3 * 3 * (4 + 13)
    meta = json.loads((reference / "metadata.json").read_text())
    assert meta["experiment"]["seed"] == 7
    assert meta["versions"]["rankfusion"]
    assert meta["machine"]["cpu_count"] >= 1
    assert len(meta["cells"]) == 6
    assert all(t["seconds"] >= 0 and "seed" in t for t in meta["cells"].values())
    assert meta["runs"][-1]["cells_computed"] == 6 and meta["runs"][-1]["finished"]


def test_rerun_reuses_every_cell(reference, tmp_path):
    import shutil

    out = tmp_path / "copy"
    shutil.copytree(reference, out)
    mtimes = {p.name: p.stat().st_mtime_ns for p in (out / "cells").glob("*.json")}
    summary = _run(tiny_config(), out)
    assert summary.reused == 6 and summary.computed == []
    assert {p.name: p.stat().st_mtime_ns for p in (out / "cells").glob("*.json")} == mtimes


def test_sigkill_halfway_then_resume_recomputes_nothing_finished(reference, tmp_path):
    cfg_path = tmp_path / "tiny.toml"
    # more splits so that each cell takes a while and the kill lands mid-run
    text = tiny_config(n_splits=6)
    cfg_path.write_text(text)
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": SRC}
    proc = subprocess.Popen([sys.executable, "-m", "rankfusion", "experiment", str(cfg_path),
                             "--out", str(out), "--no-report"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cells_dir = out / "cells"
    deadline = time.time() + 240
    while time.time() < deadline and proc.poll() is None:
        if cells_dir.is_dir() and len(list(cells_dir.glob("*.json"))) >= 2:
            break
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done = {p.name: p.stat().st_mtime_ns for p in cells_dir.glob("*.json")}
    assert 2 <= len(done) < 6, f"the kill did not land mid-run ({len(done)} cells on disk)"
    assert not (out / "results.parquet").exists()

    # the killed run's lock is stale (its pid is dead): taken over with a note
    with pytest.warns(RuntimeWarning, match=rf"stale lock .*pid {proc.pid}.* is not running"):
        summary = _run(cfg_path, out)
    assert summary.reused == len(done)
    assert len(summary.computed) == 6 - len(done)
    assert not set(summary.computed) & {n[:-5] for n in done}
    for name, mtime in done.items():  # finished cells were not rewritten
        assert (cells_dir / name).stat().st_mtime_ns == mtime
    meta = json.loads((out / "metadata.json").read_text())
    assert meta["runs"][-1]["cells_computed"] == 6 - len(done)
    assert [r["status"] for r in meta["runs"]] == ["killed/interrupted", "finished"]
    assert meta["runs"][0]["pid"] == proc.pid

    fresh = tmp_path / "fresh"
    _run(text, fresh)
    for a, b in zip(_tables(out), _tables(fresh)):
        pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_corrupt_and_partial_cells_are_recomputed(reference, tmp_path):
    import shutil

    out = tmp_path / "c"
    shutil.copytree(reference, out)
    cells = parse_config(tiny_config()).cells
    p0, p1, p2, p3 = (cell_path(out, c.hash) for c in cells[:4])
    p0.write_bytes(p0.read_bytes()[: len(p0.read_bytes()) // 2])  # partial write
    doc = json.loads(p1.read_text())
    doc["payload"]["errors"][0][0] += 0.125  # payload changed, checksum not
    p1.write_text(json.dumps(doc))
    doc = json.loads(p2.read_text())
    doc["spec"]["classifier"] = "knn1"  # spec no longer hashes to its name
    p2.write_text(json.dumps(doc))
    p3.write_bytes(b"\x00\xff garbage")
    (out / "cells" / ".tmp-abandoned.part").write_text("{")  # an interrupted write
    summary = _run(tiny_config(), out)
    assert sorted(summary.recomputed_corrupt) == sorted(c.hash for c in cells[:4])
    assert summary.reused == 2
    assert not list((out / "cells").glob(".tmp-*"))
    for a, b in zip(_tables(out), _tables(reference)):
        pd.testing.assert_frame_equal(a, b, check_exact=True)


def test_changed_config_reuses_only_unchanged_cells(reference, tmp_path):
    import shutil

    out = tmp_path / "chg"
    shutil.copytree(reference, out)
    # kfirst's k changes (2 cells), a rule is added (2 new cells), borda + single unchanged:
    # another configuration, so the folder is replaced only when asked (--overwrite)
    changed = tiny_config(k=0.25, rules=("borda", "kfirst", "rrf"))
    with pytest.raises(ValueError, match=r"holds the results of another configuration .*"
                                         r"--overwrite"):
        _run(changed, out)
    summary = _run(changed, out, overwrite=True)
    assert summary.total == 8
    assert summary.reused == 4
    assert len(summary.computed) == 4
    res, _ = _tables(out)
    ref, _ = _tables(reference)
    keep = ["dataset", "method", "split", "n_features", "value"]
    for method in ("ens+borda", "single"):
        pd.testing.assert_frame_equal(
            res[res["method"] == method][keep].reset_index(drop=True),
            ref[ref["method"] == method][keep].reset_index(drop=True), check_exact=True)
    assert set(res["method"]) == {"ens+borda", "ens+kfirst", "ens+rrf", "single"}


def test_dry_run_lists_cells_work_and_what_is_done(reference, tmp_path, capsys):
    import shutil

    out = tmp_path / "dry"
    shutil.copytree(reference, out)
    cell_path(out, parse_config(tiny_config()).cells[0].hash).unlink()
    counts = dry_run(tiny_config(), out)
    text = capsys.readouterr().out
    assert counts["total"] == 6 and counts["done"] == 5 and counts["todo"] == 1
    assert text.count(" done ") == 5 and text.count(" todo ") == 1
    assert "iris/ens+borda/naive_bayes/curve" in text
    assert "3 selector fits" in text and "classifier fits" in text
    assert "time left: about" in text
    # a dry run computes nothing
    assert len(list((out / "cells").glob("*.json"))) == 5


def test_cli_dry_run_and_csv(tmp_path):
    from rankfusion.cli import main

    cfg = tmp_path / "t.toml"
    cfg.write_text(tiny_config(datasets=("iris",), rules=("borda",)))
    out = tmp_path / "o"
    assert main(["experiment", str(cfg), "--out", str(out), "--dry-run"]) == 0
    assert not out.exists()
    assert main(["experiment", str(cfg), "--out", str(out), "--csv", "--no-report"]) == 0
    csv = read_csv(out / "results.csv")
    pq = pd.read_parquet(out / "results.parquet")
    assert len(csv) == len(pq) == 2 * 3 * 3
    np.testing.assert_allclose(csv["value"].to_numpy(), pq["value"].to_numpy(), rtol=0,
                               atol=1e-15)


def test_cli_bad_config_exits_2_with_the_message(tmp_path, capsys):
    from rankfusion.cli import main

    cfg = tmp_path / "t.toml"
    cfg.write_text(tiny_config().replace('"kfirst"]', '"kfrist"]'))
    assert main(["experiment", str(cfg), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert '[grid] rules[1] = "kfrist": unknown rule; did you mean "kfirst"?' in err


def test_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path, capfd):
    _run(tiny_config(datasets=("iris",), rules=("borda",)), tmp_path / "p", progress=None)
    assert "cells" not in capfd.readouterr().err


def test_importing_the_package_does_not_import_dask():
    code = ("import sys, rankfusion.experiments, rankfusion.cli.experiment; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ,
                                                                    "PYTHONPATH": SRC})


def test_missing_dask_names_the_extra(monkeypatch):
    from rankfusion.experiments import dask_client

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(ImportError, match=r"rankfusion\[dask\]"):
        dask_client(n_workers=2)


def test_a_failing_cell_does_not_lose_the_others(tmp_path, monkeypatch):
    from rankfusion.experiments import runner

    real = runner.run_cell

    def flaky(spec, n_jobs=None):
        if spec["rule"] and spec["rule"]["rule"] == "kfirst":
            raise RuntimeError("boom")
        return real(spec, n_jobs=n_jobs)

    monkeypatch.setattr(runner, "run_cell", flaky)
    out = tmp_path / "f"
    summary = _run(tiny_config(datasets=("iris",)), out)
    assert len(summary.failed) == 1 and "boom" in next(iter(summary.failed.values()))
    assert len(summary.computed) == 2
    assert not (out / "results.parquet").exists()
    monkeypatch.setattr(runner, "run_cell", real)
    summary = _run(tiny_config(datasets=("iris",)), out)
    assert summary.ok and summary.reused == 2 and len(summary.computed) == 1


def test_a_local_run_leaves_no_ranker_memo_behind(tmp_path):
    """The runner reuses rankings across its cells, then lets the memo go: the caller's process
    is not left caching every later ranking."""
    from rankfusion.selection import ranker_specs

    summary = _run(tiny_config(), tmp_path / "run")
    assert summary.ok
    assert ranker_specs._MEMO["on"] == 0 and not ranker_specs._MEMO["global"]
    assert not ranker_specs._MEMO["store"]


def test_a_regression_data_set_is_refused_not_read_as_classes(tmp_path):
    """The bundled regression sets (a numeric target) never run as classification."""
    from rankfusion.experiments.cells import dataset_info

    for name in ("cpu", "diabetes_lars"):
        with pytest.raises(ValueError, match=f"'{name}' is a regression data set"):
            dataset_info(name, {})
