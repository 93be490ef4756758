"""``[datasets.NAME] path = "data.csv"``: the experiment runner on the user's own data files.

Oracle: :func:`rankfusion.io.load_data` on the same file with the same options; a changed file
changes every cell's hash (its SHA-256 is part of the cell spec), so no saved cell is reused.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from rankfusion.experiments import ConfigError, load_config, parse_config, run_experiment
from rankfusion.experiments.cells import load_dataset
from rankfusion.experiments.runner import config_sha256
from rankfusion.io import load_data

TEMPLATE = """
[experiment]
name = "mine"
seed = 1

[grid]
datasets = ["mine"]
selectors = ["ens"]
rules = ["borda"]
classifiers = ["naive_bayes"]
protocols = ["curve"]

[datasets.mine]
{dataset}

[selectors.ens]
kind = "ensemble"
rankers = ["f_classif", "chi2"]

[protocols.curve]
kind = "error_curve"
n_splits = 2
test_size = 0.3
n_features = [1, 2]
"""


def _frame(seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat(["a", "b"], 15)
    X = rng.uniform(size=(30, 4))
    X[:, 0] += (y == "b") * 1.0
    frame = pd.DataFrame(X, columns=["g0", "g1", "g2", "g3"])
    frame.insert(0, "id", [f"s{i}" for i in range(30)])
    frame["grp"] = ["1", "2", "3"] * 10
    frame["cls"] = y
    return frame


@pytest.fixture
def project(tmp_path):
    """A config in ``tmp/conf/`` and its data in ``tmp/conf/data/`` (read relative to it)."""
    conf = tmp_path / "conf"
    (conf / "data").mkdir(parents=True)
    frame = _frame()
    frame.iloc[3, 2] = np.nan
    frame.to_csv(conf / "data" / "mine.csv", index=False, sep=";", na_rep="NA")
    # what the data's shape already decides (refused by the validation, before any cell)
    one = _frame().assign(cls="a")
    one.to_csv(conf / "data" / "one.csv", index=False)
    empty = _frame()
    empty[["g0", "g1", "g2", "g3", "grp"]] = np.nan
    empty.to_csv(conf / "data" / "nan.csv", index=False)
    _frame().assign(g2=np.nan).to_csv(conf / "data" / "gap.csv", index=False)
    _frame().assign(cls=np.linspace(0.5, 3.25, 30)).to_csv(conf / "data" / "cont.csv",
                                                           index=False)
    _frame().assign(cls=np.arange(30) * 3).to_csv(conf / "data" / "ints.csv", index=False)
    return conf


OPTIONS = ('path = "data/mine.csv"\ntarget = "cls"\ndrop = ["id"]\nsep = ";"\n'
           'na_values = ["NA"]\nnominal = "grp"')


def _write(conf, dataset=OPTIONS):
    path = conf / "exp.toml"
    path.write_text(TEMPLATE.format(dataset=dataset), encoding="utf-8")
    return path


def test_a_data_file_is_read_as_load_data_reads_it(project, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # the relative path is read from the config's folder
    cfg = load_config(_write(project))
    ds = cfg.cells[0].spec["dataset"]
    assert ds["source"] == "file"
    assert ds["options"]["path"] == str((project / "data" / "mine.csv").resolve())
    assert len(ds["options"]["sha256"]) == 64
    X, y, names = load_dataset(ds["source"], ds["options"])
    X0, y0 = load_data(project / "data" / "mine.csv", "cls", drop=["id"], sep=";",
                       na_values=["NA"], nominal="grp")
    pd.testing.assert_frame_equal(X, X0)
    assert list(y) == list(y0) and names == ["g0", "g1", "g2", "g3", "grp"]
    assert np.isnan(X.iloc[3, 1])


def test_the_runner_computes_a_data_file_and_recomputes_it_when_it_changes(project,
                                                                           tmp_path):
    path = _write(project, 'path = "data/mine.csv"\ntarget = "cls"\ndrop = ["id", "grp"]\n'
                  'sep = ";"\nna_values = ["NA"]')
    _frame().to_csv(project / "data" / "mine.csv", index=False, sep=";")  # no missing values
    out = tmp_path / "res"
    first = run_experiment(path, out, report=False, progress=False)
    assert first.ok and len(first.computed) == 1, first.failed
    again = run_experiment(path, out, report=False, progress=False)
    assert again.reused == 1 and again.computed == []
    old_sha = config_sha256(load_config(path))
    frame = _frame(seed=1)  # the same name, other numbers
    frame.to_csv(project / "data" / "mine.csv", index=False, sep=";", na_rep="NA")
    cfg = load_config(path)
    assert config_sha256(cfg) != old_sha  # the experiment's identity includes the data
    # the folder's results are of the old data: named, and replaced only when asked
    with pytest.raises(ValueError, match=r"data file .*mine\.csv \(\[datasets\.mine\]\) "
                                         r"changed since the last run .*--overwrite"):
        run_experiment(cfg, out, report=False, progress=False)
    changed = run_experiment(cfg, out, report=False, progress=False, overwrite=True)
    assert changed.reused == 0 and len(changed.computed) == 1
    assert "changed since the last run" in changed.notes[0]


def test_a_file_changed_after_the_config_was_read_is_refused_by_the_cell(project):
    cfg = load_config(_write(project))
    ds = cfg.cells[0].spec["dataset"]
    _frame(seed=2).to_csv(project / "data" / "mine.csv", index=False, sep=";")
    with pytest.raises(ValueError, match="changed since the configuration was read"):
        load_dataset(ds["source"], {**ds["options"], "target": "cls "})  # not the cached one


def test_without_a_folder_a_relative_path_is_read_from_the_current_folder(project,
                                                                         monkeypatch):
    monkeypatch.chdir(project)
    cfg = parse_config(TEMPLATE.format(dataset=OPTIONS))
    assert cfg.cells[0].spec["dataset"]["options"]["path"] == str(
        (project / "data" / "mine.csv").resolve())


HOSTILE = [
    ('path = "data/absent.csv"\ntarget = "cls"', r'path = "data/absent.csv": no such file'),
    ('path = "data"\ntarget = "cls"', "is a folder, not a data file"),
    ('path = ""', "path: is empty"),
    ('path = "data/mine.csv"\nsource = "iris"', "give path .* or source .*, not both"),
    ('path = "data/mine.csv"\ntargte = "cls"', r'targte: unknown option for a data file; did '
                                               r'you mean "target"\?'),
    ('path = "data/mine.csv"\nsep = ";"\ntarget = "nope"\nna_values = "NA"',
     "cannot be loaded.*nope"),
    ('path = 3', "path: expected str, got int 3"),
    ('path = "data/mine.csv"\ntarget = 1.5', "target: expected str or int, got float 1.5"),
    ('path = "data/mine.csv"\ndrop = 3', "drop: expected str or list, got int 3"),
    ('path = "data/mine.csv"\ndrop = [1]', r"drop\[0\]: expected str, got int 1"),
    ('path = "data/mine.csv"\nna_values = [true]', r"na_values\[0\]: expected str or int or "
                                                   "float, got bool true"),
    ('path = "data/mine.csv"\nformat = "xlsx"', 'unknown format "xlsx"'),
    ('path = "data/mine.csv"\nencoding = 8', "encoding: expected str"),
    ('path = "data/mine.csv"\ntarget = "cls"', "cannot be loaded"),  # ';' file read with ','
    ('path = "data/one.csv"\ntarget = "cls"\ndrop = ["id"]',
     r"target column 'cls' holds one class \('a', in all 30 rows\): feature selection needs "
     r'at least 2 classes; choose the class column with target = "…", or for a numeric '
     r'target set task = "regression" in \[experiment\]'),
    ('path = "data/nan.csv"\ntarget = "cls"\ndrop = ["id"]',
     r"every feature is missing in all 30 rows: there is nothing to select from$"),
    ('path = "data/gap.csv"\ntarget = "cls"\ndrop = ["id"]',
     r"column 'g2' has no value \(missing in all 30 rows\); leave it out with "
     r'drop = \["id", "g2"\]'),
    ('path = "data/cont.csv"\ntarget = "cls"\ndrop = ["id"]',
     r"target column 'cls' holds non-integer numbers such as 0\.5, not class labels: for a "
     r'numeric target set task = "regression" in \[experiment\]; another column: '
     r'target = "…" in \[datasets\.mine\]'),
    ('path = "data/ints.csv"\ntarget = "cls"\ndrop = ["id"]',
     r'30 distinct whole numbers such as 0, not class labels: for a numeric target set task '
     r'= "regression" in \[experiment\]; whole numbers that name classes: task = '
     r'"classification"'),
]


@pytest.mark.parametrize("dataset, match", HOSTILE, ids=[m for _, m in HOSTILE])
def test_hostile_dataset_tables(project, dataset, match):
    with pytest.raises(ConfigError) as info:
        load_config(_write(project, dataset))
    assert all(e.startswith("[datasets.mine]") for e in info.value.errors)
    assert any(re.search(match, e) for e in info.value.errors), info.value.errors
    assert "np." not in str(info.value) and "--" not in str(info.value)
