"""A results folder holds one configuration's results (docs/experiments.md, 'Running twice on
one folder'): another configuration, a data file changed since the folder's last run, or a
folder that is not a results folder but holds files a run replaces are refused before anything
in it changes, in one line naming the folder and the ways out (``--overwrite``, another
``--out``); the same configuration resumes. The saved ``config.toml`` records resolved data
paths, so it reads the same files from wherever it is loaded.

Oracles: the folder's bytes before and after, ``hashlib.sha256`` of the saved copy, and
``tomllib`` reading the saved text."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import sys

import numpy as np
import pandas as pd
import pytest
from experiment_configs import tiny_config

from rankfusion.cli import main
from rankfusion.experiments import dry_run, load_config, parse_config, run_experiment
from rankfusion.experiments.config import saved_config_text
from rankfusion.experiments.runner import config_sha256

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

FIRST = tiny_config(datasets=("iris",), rules=("borda",))
OTHER = tiny_config(seed=11, datasets=("iris",), rules=("borda",))


def _run(config, out, **kw):
    kw.setdefault("report", False)
    kw.setdefault("progress", False)
    return run_experiment(config, out, **kw)


def _snapshot(folder):
    """Every file of ``folder`` (relative path → bytes)."""
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A folder holding the finished results, tables and report of FIRST."""
    out = tmp_path_factory.mktemp("finished") / "base"
    assert _run(FIRST, out, report=True).ok
    return out


@pytest.fixture
def base(finished, tmp_path):
    out = tmp_path / "base"
    shutil.copytree(finished, out)
    return out


# ------------------------------------------------------------------ another configuration
def test_another_configuration_is_refused_and_nothing_in_the_folder_changes(base):
    before = _snapshot(base)
    assert "report/report.html" in before and "results.parquet" in before
    with pytest.raises(ValueError) as info:
        _run(OTHER, base)
    msg = str(info.value)
    assert str(base) in msg and "another configuration ('tiny'" in msg
    assert "--overwrite" in msg and "--out" in msg and "\n" not in msg
    with pytest.raises(ValueError, match="another configuration"):
        dry_run(OTHER, base, file=io.StringIO())
    assert _snapshot(base) == before  # no run recorded, nothing replaced


def test_the_same_configuration_resumes(base):
    summary = _run(FIRST, base)
    assert summary.reused == summary.total and summary.computed == [] and summary.notes == []


def test_overwrite_replaces_the_configuration_and_reuses_nothing_it_should_not(base):
    summary = _run(OTHER, base, overwrite=True)
    assert summary.ok and summary.reused == 0  # another seed: every cell is new
    assert "replaced the configuration of this folder" in summary.notes[0]
    results = pd.read_parquet(base / "results.parquet")
    assert set(results["cell"]) == {c.hash for c in parse_config(OTHER).cells}
    assert (base / "config.toml").read_text() == OTHER
    # and from now on the folder is OTHER's: FIRST is the other configuration
    assert _run(OTHER, base).computed == []
    with pytest.raises(ValueError, match="another configuration"):
        _run(FIRST, base)


def test_the_command_line_refuses_in_one_line_then_overwrites(base, tmp_path, capsys):
    other = tmp_path / "other.toml"
    other.write_text(OTHER)
    before = _snapshot(base)
    code = main(["experiment", str(other), "--out", str(base), "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("rankfusion: error: out ") and str(base) in err
    assert "--overwrite" in err and "--out" in err
    assert main(["experiment", str(other), "--out", str(base), "--dry-run"]) == 2
    assert _snapshot(base) == before
    code = main(["experiment", str(other), "--out", str(base), "--no-progress", "--no-report",
                 "--overwrite"])
    assert code == 0
    assert (base / "config.toml").read_text() == OTHER


# ------------------------------------------------------------------ hostile folders
def _foreign(name):
    def make(folder):
        folder.mkdir()
        target = folder / name
        if name == "report":
            target.mkdir()
            (target / "report.html").write_text("mine")
        else:
            target.write_text("mine")
    return make


def _tables_only(folder, finished):
    """The tables of another configuration, without metadata.json (an older release's)."""
    shutil.copytree(finished, folder)
    (folder / "metadata.json").unlink()


def _damaged_history(folder, finished):
    shutil.copytree(finished, folder)
    (folder / "metadata.json").write_text("{ not json")


HOSTILE = [
    ("config.toml of its own", _foreign("config.toml"),
     "is not a results folder of rankfusion experiment and holds config.toml"),
    ("a report of its own", _foreign("report"),
     "is not a results folder of rankfusion experiment and holds report"),
    ("an advisor folder", _foreign("advice-store.json"), "holds advice-store.json"),
    ("tables of another configuration, no metadata", _tables_only,
     "holds the results of another configuration"),
    ("tables of another configuration, damaged metadata", _damaged_history,
     "holds the results of another configuration"),
]


@pytest.mark.parametrize("case, make, match", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_folders_are_refused_before_anything_changes(finished, tmp_path, case, make,
                                                            match):
    out = tmp_path / "out"
    if make.__code__.co_argcount == 2:
        make(out, finished)
    else:
        make(out)
    before = _snapshot(out)
    with pytest.raises(ValueError) as info:
        _run(OTHER, out)
    msg = str(info.value)
    assert match in msg and str(out) in msg and "--overwrite" in msg and "--out" in msg, msg
    with pytest.raises(ValueError, match="--overwrite"):
        dry_run(OTHER, out, file=io.StringIO())
    assert _snapshot(out) == before


# ------------------------------------------------------------------ data files
CONFIG = """
[experiment]
name = "mine"
seed = 1

[grid]
datasets = ["mine"]
selectors = ["single"]
classifiers = ["naive_bayes"]
protocols = ["cv"]

{datasets}

[selectors.single]
kind = "ranker"
ranker = "f_classif"

[protocols.cv]
kind = "cross_validation"
cv = 3
"""
TABLE = '[datasets.mine]\npath = "data/d.csv"\ntarget = "cls"'


def _data(path, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat(["a", "b"], 15)
    X = rng.normal(size=(30, 3))
    X[:, 0] += (y == "b") * 2
    pd.DataFrame(X, columns=["g0", "g1", "g2"]).assign(cls=y).to_csv(path, index=False)


@pytest.fixture
def project(tmp_path):
    conf = tmp_path / "conf"
    (conf / "data").mkdir(parents=True)
    _data(conf / "data" / "d.csv")
    return conf


def _write(conf, table=TABLE):
    path = conf / "exp.toml"
    path.write_text(CONFIG.format(datasets=table), encoding="utf-8")
    return path


def test_the_saved_config_records_resolved_paths_and_reads_them_from_anywhere(project,
                                                                              tmp_path,
                                                                              monkeypatch):
    out = tmp_path / "res"
    cfg = load_config(_write(project))
    assert _run(cfg, out).ok
    data = str((project / "data" / "d.csv").resolve())
    saved = (out / "config.toml").read_text(encoding="utf-8")
    assert tomllib.loads(saved)["datasets"]["mine"]["path"] == data
    assert hashlib.sha256(saved.encode()).hexdigest() == config_sha256(cfg)
    meta = json.loads((out / "metadata.json").read_text())
    record = meta["experiments"][config_sha256(cfg)]["data_files"]["mine"]
    assert record["path"] == data and record["written"] == "data/d.csv"
    assert record["size"] == os.stat(data).st_size and len(record["sha256"]) == 64
    # the copy, moved and read from another folder, is the same configuration
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(out / "config.toml", elsewhere / "config.toml")
    monkeypatch.chdir(elsewhere)
    copy = load_config(elsewhere / "config.toml")
    assert [c.hash for c in copy.cells] == [c.hash for c in cfg.cells]
    assert config_sha256(copy) == config_sha256(cfg) and saved_config_text(copy) == saved
    # and resumes the folder, as the documented way to rebuild its tables does
    again = _run(out / "config.toml", out)
    assert again.computed == [] and again.reused == again.total


@pytest.mark.parametrize("table", [
    "[datasets.mine]\npath = 'data/d.csv'\ntarget = \"cls\"",  # a literal string
    '[datasets]\nmine = { path = "data/d.csv", target = "cls" }',  # an inline table
    '[datasets.mine]\npath = "data/d.csv"  # path = "data/d.csv"\ntarget = "cls"',
    '[datasets.mine]\n"path" = "data/d.csv"\ntarget = "cls"',  # a quoted key
    '[datasets.mine]\npath = """data/d.csv"""\ntarget = "cls"',  # a multi-line string
], ids=["literal", "inline", "comment", "quoted-key", "multi-line"])
def test_every_spelling_of_a_path_is_saved_resolved(project, table):
    cfg = load_config(_write(project, table))
    saved = saved_config_text(cfg)
    parsed = tomllib.loads(saved)
    assert parsed["datasets"]["mine"]["path"] == str((project / "data" / "d.csv").resolve())
    assert parsed["datasets"]["mine"]["target"] == "cls"
    assert parsed["grid"] == cfg.raw["grid"] and parsed["experiment"] == cfg.raw["experiment"]
    again = parse_config(saved, base_dir="/nonexistent")  # relative paths would fail here
    assert saved_config_text(again) == saved


def test_a_config_without_data_files_is_saved_as_written():
    cfg = parse_config(FIRST)
    assert saved_config_text(cfg) == FIRST
    assert config_sha256(cfg) == hashlib.sha256(FIRST.encode()).hexdigest()


def test_a_changed_data_file_is_named_and_refused_until_overwrite(project, tmp_path):
    out = tmp_path / "res"
    path = _write(project)
    assert _run(path, out).ok
    before = _snapshot(out)
    _data(project / "data" / "d.csv", seed=1)  # the same name, other numbers
    data = str((project / "data" / "d.csv").resolve())
    for attempt in (lambda: _run(path, out), lambda: dry_run(path, out, file=io.StringIO())):
        with pytest.raises(ValueError) as info:
            attempt()
        msg = str(info.value)
        assert f"data file {data} ([datasets.mine]) changed since the last run (" in msg
        assert "bytes, modified" in msg and "--overwrite" in msg and "--out" in msg
    assert _snapshot(out) == before
    summary = _run(path, out, overwrite=True)
    assert summary.ok and summary.reused == 0 and "changed since the last run" in \
        summary.notes[0]
