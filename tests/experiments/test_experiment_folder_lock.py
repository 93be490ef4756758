"""One run per results folder, and a folder that never mixes two experiments
(docs/experiments.md, 'Running twice on one folder'): the lock refuses a second live run
(a real second process holds it), stale locks (a dead or reused pid, an old unreadable file)
are taken over with a note, a lock from another host is never taken; results and report are
tied to their configuration's hash; every run and every retried cell is in the history;
only temporary files proven stale are removed; a damaged table names the file and the way
out."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import pandas as pd
import pytest
from experiment_configs import tiny_config

from rankfusion.experiments import parse_config, read_results, run_experiment, write_report
from rankfusion.experiments.lock import (
    LOCK_NAME,
    UNREADABLE_GRACE,
    FolderLockedError,
    acquire_lock,
)

SRC = str(Path(__file__).resolve().parents[2] / "src")
LOCKED = r"another run \(pid \d+, started \d{4}-\d\d-\d\dT[\d:]+Z\) is using "


def _run(text, out, **kw):
    kw.setdefault("report", False)
    kw.setdefault("progress", False)
    return run_experiment(text, out, **kw)


def _meta(out):
    return json.loads((Path(out) / "metadata.json").read_text())


@pytest.fixture
def holder(tmp_path):
    """A second process that takes the lock of tmp_path/'held' and keeps it until killed."""
    out = tmp_path / "held"
    out.mkdir()
    code = textwrap.dedent(f"""
        import sys, time
        from rankfusion.experiments.lock import acquire_lock
        lock = acquire_lock({str(out)!r}, config_sha256="0" * 64, run_id="holder")
        print("locked", flush=True)
        time.sleep(120)
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": SRC},
                            stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "locked"
    yield out, proc
    proc.kill()
    proc.wait()


def test_a_second_run_is_refused_while_another_process_holds_the_folder(holder, capsys):
    out, proc = holder
    with pytest.raises(FolderLockedError, match=LOCKED + re.escape(str(out))):
        _run(tiny_config(), out)
    with pytest.raises(FolderLockedError, match=rf"pid {proc.pid},"):
        _run(tiny_config(), out)
    # nothing of the folder was touched by the refused runs
    assert sorted(p.name for p in out.iterdir()) == [LOCK_NAME]
    # the command line: one error line, status 2
    from rankfusion.cli import main

    cfg = out.parent / "t.toml"
    cfg.write_text(tiny_config())
    assert main(["experiment", str(cfg), "--out", str(out), "--no-report"]) == 2
    err = capsys.readouterr().err
    # the work estimate may come first; the refusal is the one error line, and the last line
    errors = [line for line in err.splitlines() if "error" in line]
    assert len(errors) == 1 and re.search(r"rankfusion: error: " + LOCKED, err.splitlines()[-1])


def test_dry_run_says_which_run_holds_the_folder(holder, capsys):
    from rankfusion.experiments import dry_run

    out, proc = holder
    dry_run(tiny_config(), out)
    assert re.search(rf"note: another run \(pid {proc.pid}, started .*\) is using ",
                     capsys.readouterr().out)
    proc.kill()
    proc.wait()
    dry_run(tiny_config(), out)
    assert f"stale lock (process {proc.pid} is not running)" in capsys.readouterr().out


def test_the_lock_of_a_killed_process_is_stale_and_taken_over_with_a_note(holder):
    out, proc = holder
    proc.kill()
    proc.wait()
    with pytest.warns(RuntimeWarning, match=rf"took over the stale lock .*pid {proc.pid}.*"
                                            rf"process {proc.pid} is not running"):
        summary = _run(tiny_config(datasets=("iris",), rules=("borda",)), out)
    assert summary.ok
    assert any("stale lock" in n for n in _meta(out)["runs"][-1]["notes"])
    assert not (out / LOCK_NAME).exists()  # released at the end


def _write_lock(out, **fields):
    out.mkdir(exist_ok=True)
    doc = {"pid": os.getpid(), "host": socket.gethostname(), "started": "2026-01-01T00:00:00Z",
           "started_epoch": time.time(), "config_sha256": "0" * 64, "run_id": "x"}
    doc.update(fields)
    (out / LOCK_NAME).write_text(json.dumps(doc))
    return doc


def _dead_pid():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def _zombie_pid():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.time() + 30
    while time.time() < deadline:  # exited, not reaped: a zombie
        try:
            if Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                break
        except OSError:
            pytest.skip("no /proc")
        time.sleep(0.02)
    _ZOMBIES.append(proc)
    return proc.pid


_ZOMBIES: list = []


STALE = [
    pytest.param(lambda: {"pid": _dead_pid()}, "is not running", id="dead-pid"),
    pytest.param(lambda: {"pid": _zombie_pid()}, "is not running", id="zombie-pid"),
    pytest.param(lambda: {"pid": 2**22 + 12345}, "is not running", id="pid-never-used"),
    pytest.param(lambda: {"started_epoch": 1.0}, "the pid was reused", id="reused-pid"),
    pytest.param(lambda: {"pid": "1234"}, "no valid pid", id="pid-text"),
    pytest.param(lambda: {"pid": -5}, "no valid pid", id="pid-negative"),
    pytest.param(lambda: {"pid": True}, "no valid pid", id="pid-bool"),
    pytest.param(lambda: {"pid": None}, "no valid pid", id="pid-missing"),
]


@pytest.mark.parametrize("fields,why", STALE)
def test_hostile_stale_locks_are_taken_over(tmp_path, fields, why):
    out = tmp_path / "o"
    _write_lock(out, **fields())
    lock = acquire_lock(out, config_sha256="1" * 64, run_id="me")
    assert why in lock.note
    assert json.loads((out / LOCK_NAME).read_text())["run_id"] == "me"
    lock.release()
    assert not (out / LOCK_NAME).exists()
    while _ZOMBIES:
        _ZOMBIES.pop().wait()


LIVE = [
    pytest.param({}, LOCKED, id="this-process"),
    pytest.param({"pid": 1}, r"another run \(pid 1, started ", id="init-alive"),
    pytest.param({"host": "elsewhere.example"}, r"another run \(pid \d+, started .* on host "
                 r"elsewhere\.example\) may be using .*cannot check whether it is still "
                 r"running.*delete .*\.rankfusion\.lock", id="other-host"),
    pytest.param({"host": "elsewhere.example", "pid": _dead_pid}, r"on host elsewhere\.example",
                 id="other-host-dead-pid-here"),
]


@pytest.mark.parametrize("fields,match", LIVE)
def test_live_or_uncheckable_locks_are_refused(tmp_path, fields, match):
    out = tmp_path / "o"
    fields = {k: (v() if callable(v) else v) for k, v in fields.items()}
    before = _write_lock(out, **fields)
    with pytest.raises(FolderLockedError, match=match):
        acquire_lock(out, config_sha256="1" * 64, run_id="me")
    assert json.loads((out / LOCK_NAME).read_text()) == before  # left alone


@pytest.mark.parametrize("content", ["", "{", "[1, 2]", "null", "\x00\xff"])
def test_unreadable_locks_wait_for_their_writer_then_are_stale(tmp_path, content):
    out = tmp_path / "o"
    out.mkdir()
    path = out / LOCK_NAME
    path.write_text(content, encoding="latin-1")
    with pytest.raises(FolderLockedError, match="still writing its lock"):
        acquire_lock(out, config_sha256="1" * 64, run_id="me")
    old = time.time() - UNREADABLE_GRACE - 5
    os.utime(path, (old, old))
    lock = acquire_lock(out, config_sha256="1" * 64, run_id="me")
    assert "empty or unreadable" in lock.note
    lock.release()


def test_release_leaves_another_runs_lock_alone(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    lock = acquire_lock(out, config_sha256="1" * 64, run_id="me")
    (out / LOCK_NAME).unlink()
    other = _write_lock(out, run_id="other")
    lock.release()
    assert json.loads((out / LOCK_NAME).read_text()) == other


def test_an_interrupted_run_releases_the_lock_and_records_its_end(tmp_path):
    out = tmp_path / "o"

    def stop(cell, status):
        if status == "computed":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _run(tiny_config(), out, on_cell=stop)
    assert not (out / LOCK_NAME).exists()
    run = _meta(out)["runs"][-1]
    assert run["status"] == "interrupted" and run["ended"] and run["cells_computed"] == 1
    assert run["pid"] == os.getpid() and run["config_sha256"]


# ------------------------------------------------------------------ history
def test_a_killed_run_is_recorded_as_killed_by_the_next_run(tmp_path):
    cfg = tmp_path / "t.toml"
    cfg.write_text(tiny_config(n_splits=6))
    out = tmp_path / "k"
    proc = subprocess.Popen([sys.executable, "-m", "rankfusion", "experiment", str(cfg),
                             "--out", str(out), "--no-report"], env={**os.environ,
                                                                     "PYTHONPATH": SRC},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 240
    while time.time() < deadline and proc.poll() is None:
        if len(list((out / "cells").glob("*.json"))) >= 1:
            break
        time.sleep(0.01)
    proc.kill()
    proc.wait()
    killed = _meta(out)["runs"][-1]
    assert killed["status"] == "running" and killed["pid"] == proc.pid
    with pytest.warns(RuntimeWarning, match="stale lock"):
        _run(cfg, out)
    runs = _meta(out)["runs"]
    assert [r["status"] for r in runs] == ["killed/interrupted", "finished"]
    assert runs[0]["pid"] == proc.pid and runs[0]["detected_by"] == runs[1]["run_id"]
    assert any("marked killed/interrupted" in n for n in runs[1]["notes"])


def test_a_cell_that_failed_before_is_recorded_as_retried_with_its_error(tmp_path,
                                                                          monkeypatch):
    import rankfusion.experiments.runner as runner_mod
    from rankfusion.experiments.cells import sha256_hex

    real = runner_mod.run_cell
    text = tiny_config(datasets=("iris",))
    bad = parse_config(text).cells[1].hash

    def flaky(spec, n_jobs=None):
        if sha256_hex(spec) == bad:
            raise RuntimeError("solver exploded")
        return real(spec, n_jobs=n_jobs)

    out = tmp_path / "r"
    monkeypatch.setattr(runner_mod, "run_cell", flaky)
    first = _run(text, out)
    assert set(first.failed) == {bad}
    monkeypatch.setattr(runner_mod, "run_cell", real)
    second = _run(text, out)
    assert second.ok and second.computed == [bad]
    runs = _meta(out)["runs"]
    assert [r["status"] for r in runs] == ["failed", "finished"]
    assert runs[0]["failed"] == {bad: "RuntimeError: solver exploded"}
    (retry,) = runs[1]["retried"]
    assert retry["cell"] == bad and retry["error"] == "RuntimeError: solver exploded"
    assert retry["failed_in_run"] == runs[0]["run_id"]


# ------------------------------------------------------------------ temporary files
def test_only_temporary_files_proven_stale_are_removed(tmp_path):
    out = tmp_path / "t"
    (out / "cells").mkdir(parents=True)
    old = time.time() - 3600
    stale = [out / "cells" / ".abc.json.k2j3h4g5.tmp", out / ".results.parquet.x_y8z9q1.tmp",
             out / "cells" / ".tmp-123"]
    keep_new = out / "cells" / ".def.json.a1b2c3d4.tmp"  # written after the run started
    (out / "report").mkdir()
    keep_other = [out / "notes.tmp", out / "cells" / "mine.txt", out / ".hidden",
                  out / "report" / ".report.md.q1w2e3r4.tmp"]  # report/: not the run's
    for p in stale + keep_other:
        p.write_text("x")
        os.utime(p, (old, old))
    keep_new.write_text("x")
    future = time.time() + 3600
    os.utime(keep_new, (future, future))
    _run(tiny_config(datasets=("iris",), rules=("borda",)), out)
    assert not any(p.exists() for p in stale)
    assert keep_new.exists() and all(p.exists() for p in keep_other)
    assert sorted(_meta(out)["runs"][-1]["temporaries_removed"]) == sorted(
        str(p.relative_to(out)) for p in stale)


# ------------------------------------------------------------------ one experiment per report
def _second_config(name):
    return tiny_config(seed=11, datasets=("wine",), rules=("kfirst",)).replace(
        'name = "tiny"', f'name = "{name}"')


def test_an_interrupted_second_config_never_mixes_into_the_report(tmp_path):
    out = tmp_path / "mix"
    first = tiny_config(datasets=("iris",), rules=("borda",))
    _run(first, out)
    first_cells = {c.hash for c in parse_config(first).cells}
    second = _second_config("other-experiment")
    second_cells = {c.hash for c in parse_config(second).cells}

    def stop(cell, status):
        if status == "computed":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _run(second, out, on_cell=stop, overwrite=True)
    results, positions, meta = read_results(out)
    assert set(results["cell"]) == first_cells and set(positions["cell"]) <= first_cells
    assert meta["experiment"]["name"] == "tiny"
    write_report(out)
    md = (out / "report" / "report.md").read_text()
    html = (out / "report" / "report.html").read_text()
    assert md.startswith("# Experiment report: tiny\n")
    assert "Experiment report: other" not in md + html
    assert "wine" not in md.split("## Results per dataset")[1]
    assert "config.toml is another configuration ('other-experiment')" in md
    # the interrupted config's own finished cells stay readable, on their own
    part, _, pmeta = read_results(out, partial=True)
    assert set(part["cell"]) <= second_cells and len(set(part["cell"])) == 1
    assert pmeta["experiment"]["name"] == "other-experiment"
    # finished, the folder reports the second experiment, and only it
    _run(second, out)
    results, _, meta = read_results(out)
    assert set(results["cell"]) == second_cells and meta["experiment"]["name"] == \
        "other-experiment"
    write_report(out)
    md = (out / "report" / "report.md").read_text()
    assert md.startswith("# Experiment report: other\\-experiment\n") or \
        md.startswith("# Experiment report: other-experiment\n")
    assert "iris" not in md.split("## Results per dataset")[1]
    assert set(_meta(out)["experiments"]) == {r["config_sha256"] for r in _meta(out)["runs"]}


def test_tables_of_two_configurations_are_refused(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    _run(tiny_config(datasets=("iris",), rules=("borda",)), a)
    _run(_second_config("b"), b)
    (a / "positions.parquet").write_bytes((b / "positions.parquet").read_bytes())
    with pytest.raises(ValueError, match=r"positions\.parquet and .*results\.parquet belong to "
                                         r"different configurations.*rebuild both"):
        read_results(a)


def test_metadata_of_another_experiment_never_titles_the_tables(tmp_path):
    out = tmp_path / "m"
    _run(tiny_config(datasets=("iris",), rules=("borda",)), out)
    meta = _meta(out)
    meta["experiment"] = {"name": "impostor", "config_sha256": "f" * 64}
    meta["experiments"] = {"f" * 64: meta["experiment"]}
    (out / "metadata.json").write_text(json.dumps(meta))
    _, _, got = read_results(out)
    assert got["experiment"].get("name") != "impostor"
    write_report(out)
    assert "impostor" not in (out / "report" / "report.md").read_text()


# ------------------------------------------------------------------ damaged tables
DAMAGE = [
    pytest.param(lambda b: b[: len(b) // 2], id="truncated"),
    pytest.param(lambda b: b"", id="empty"),
    pytest.param(lambda b: b"dataset,value\niris,0.1\n", id="csv-renamed"),
    pytest.param(lambda b: b[:-12] + b"\x00" * 12, id="footer-zeroed"),
    pytest.param(lambda b: b"PAR1" + b"\x00" * 64 + b"PAR1", id="magic-only"),
]


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("dmg") / "run"
    _run(tiny_config(datasets=("iris",), rules=("borda",)), out)
    return out


@pytest.mark.parametrize("table", ["results.parquet", "positions.parquet"])
@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_table_names_the_file_and_the_way_out(finished_run, tmp_path, table, damage,
                                                        capsys):
    import shutil

    out = tmp_path / "copy"
    shutil.copytree(finished_run, out)
    path = out / table
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(ValueError) as err:
        read_results(out)
    msg = str(err.value)
    assert msg.startswith(f"{path}: damaged") and "run the experiment again" in msg
    assert f"or delete {path}" in msg and "Traceback" not in msg
    from rankfusion.cli import main

    assert main(["report", str(out)]) == 2
    assert capsys.readouterr().err.startswith(f"rankfusion: error: {path}: damaged")
    # the way out works: a rerun reuses every cell and rebuilds the table
    summary = _run(out / "config.toml", out)
    assert summary.reused == summary.total and not summary.computed
    pd.testing.assert_frame_equal(read_results(out)[0], read_results(finished_run)[0])


# ------------------------------------------------------------------ escaped labels, warnings
HOSTILE_LABELS = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>",
                  "[click](http://evil)", "a|b", "*bold*", "`code`", "# head", "- item"]


@pytest.mark.parametrize("label", HOSTILE_LABELS)
def test_report_md_escapes_labels(tmp_path, label):
    text = tiny_config(datasets=("iris",), rules=("borda",)).replace(
        'selectors = ["ens", "single"]', f'selectors = ["ens", {json.dumps(label)}]').replace(
        "[selectors.single]", f"[selectors.{json.dumps(label)}]").replace(
        'name = "tiny"', f'name = "tiny"\ndescription = {json.dumps(label)}')
    out = tmp_path / "esc"
    _run(text, out, report=True)
    md = (out / "report" / "report.md").read_text()
    html = (out / "report" / "report.html").read_text()
    body = html.split("<body>")[1].replace("<img alt=", "").replace('<img src="data:', "")
    for raw in ("<script", "<img"):  # no tag in either report
        if raw in label:
            assert raw not in md and raw not in body
    escaped = {"[click](": "\\[click\\](", "*bold*": "\\*bold\\*", "`code`": "\\`code\\`"}
    for raw, esc in escaped.items():  # no link, emphasis or code in the Markdown
        if raw in label:
            assert raw not in md and esc in md
    for line in md.splitlines():
        assert not line.startswith(("# head", "- item"))
    if "|" in label:
        assert "a\\|b" in md


CV = ('kind = "cross_validation"\ncv = 3\nn_features = 2\nscoring = ["error", "accuracy"]')


@pytest.mark.parametrize("protocol", ["curve", "cv"])
def test_report_has_no_pandas_performance_warning(tmp_path, protocol):
    # methods, datasets and classifiers in an order that is not sorted
    text = tiny_config(datasets=("wine", "iris"), rules=("kfirst", "borda")).replace(
        'classifiers = ["naive_bayes"]', 'classifiers = ["naive_bayes", "linear_svm"]')
    if protocol == "cv":
        text = text.replace('kind = "error_curve"\nn_splits = 3\ntest_size = 0.3\n'
                            'n_features = [1, 2, 4]', CV)
        assert "cross_validation" in text
    out = tmp_path / "pw"
    _run(text, out)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        write_report(out)
    assert not [w for w in caught if issubclass(w.category, pd.errors.PerformanceWarning)]


@pytest.mark.parametrize("retries,exc", [(True, TypeError), (-1, ValueError), (1.5, TypeError),
                                         ("2", TypeError), (None, TypeError)])
def test_hostile_retries_name_the_argument_before_any_work(tmp_path, retries, exc):
    out = tmp_path / "never"
    with pytest.raises(exc, match="retries"):
        _run(tiny_config(), out, retries=retries)
    assert not out.exists()


@pytest.mark.parametrize("content", ["{", "not json", "\x00\x01", "[1, 2]"])
def test_a_damaged_history_is_kept_aside_and_said(tmp_path, content):
    out = tmp_path / "h"
    out.mkdir()
    (out / "metadata.json").write_text(content, encoding="latin-1")
    with pytest.warns(RuntimeWarning, match=r"metadata\.json was not readable JSON; kept as "
                                            r"metadata\.json\.damaged-"):
        _run(tiny_config(datasets=("iris",), rules=("borda",)), out)
    (kept,) = out.glob("metadata.json.damaged-*")
    assert kept.read_text(encoding="latin-1") == content
    assert [r["status"] for r in _meta(out)["runs"]] == ["finished"]
