"""``rankfusion select``: the thin command over ``EnsembleSelector``, its output folder and its
hostile inputs.

Oracles: the selector fitted directly through the library with the same parameters (the command
must add nothing), the files checked against each other (subset = the selected rows of the
consensus, best first), a run with fresh entropy repeated from the ``seed_entropy`` it saved,
and an interrupted atomic write that leaves the old file and no temporary file.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.tree import DecisionTreeClassifier

from conftest import read_csv
from rankfusion import EnsembleSelector
from rankfusion._utils.atomic import atomic_write, atomic_write_text
from rankfusion.cli import COMMANDS, main
from rankfusion.datasets import load
from rankfusion.workflows import parse_subset


@pytest.fixture
def small_csv(tmp_path):
    """60 rows, 3 classes, 6 features of which f0 and f1 carry the class, plus an id column."""
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b", "c"], 20)
    X = rng.normal(size=(60, 6))
    X[:, 0] += np.repeat([0.0, 3.0, 6.0], 20)
    X[:, 1] += np.repeat([0.0, -2.0, 2.0], 20)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(6)])
    frame.insert(0, "id", [f"s{i}" for i in range(60)])
    frame["cls"] = y
    path = tmp_path / "small.csv"
    frame.to_csv(path, index=False)
    return path


BASE = ["--target", "cls", "--drop", "id", "--rankers", "info_gain,relieff",
        "--no-progress"]


def _run(capsys, *args):
    rc = main(["select", *map(str, args)])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_select_is_a_registered_command():
    assert "select" in COMMANDS


def test_fuzzy_k_step_run_writes_the_folder_and_equals_the_library(small_csv, tmp_path,
                                                                    capsys):
    out = tmp_path / "res"
    rc, text, err = _run(capsys, small_csv, *BASE, "--rules", "fuzzy:OW", "--bootstraps", 4,
                         "--subset", "k-step", "--estimators", "naive_bayes,knn1",
                         "--random-state", 7, "--out", out)
    assert rc == 0, err
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["consensus.csv", "subset.txt", "subset_curve.csv", "stability.csv", "summary.json"])
    assert not list(out.glob(".*"))  # no temporary file left
    # the library, called directly
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import MinMaxScaler

    frame = read_csv(small_csv)
    X, y = frame.drop(columns=["id", "cls"]), frame["cls"]
    ref = EnsembleSelector(
        rankers=["info_gain", "relieff"], aggregation="fuzzy:OW", n_bootstraps=4,
        n_features_to_select="k-step",
        estimators={"naive_bayes": GaussianNB(),
                    "knn1": make_pipeline(MinMaxScaler(), KNeighborsClassifier(1))},
        random_state=7).fit(X, y)
    cons = read_csv(out / "consensus.csv")
    order = np.argsort(ref.positions_, kind="stable")
    assert cons["feature"].tolist() == [X.columns[i] for i in order]
    assert cons["position"].tolist() == list(range(1, 7))
    np.testing.assert_allclose(cons["score"], ref.scores_[order])
    assert int(cons["selected"].sum()) == ref.n_features_
    subset = (out / "subset.txt").read_text().split()
    assert subset == cons.loc[cons["selected"], "feature"].tolist()
    assert set(cons["feature"][:2]) == {"f0", "f1"}  # the two features that carry the class
    curve = read_csv(out / "subset_curve.csv")
    pd.testing.assert_frame_equal(curve, ref.subset_curve_.curve, check_dtype=False)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["seeds"]["random_state"] == 7
    assert summary["seeds"]["seed_entropy"] == ref.seed_entropy_ == 7
    assert summary["result"]["subset"] == subset
    assert summary["result"]["n_samples"] == 60 and summary["result"]["n_lists"] == 8
    assert summary["result"]["size_search"]["n_features"] == ref.n_features_
    assert summary["parameters"]["estimators"] == ["naive_bayes", "knn1"]
    assert {"numpy", "scikit-learn", "rankfusion", "python"} <= set(summary["versions"])
    assert {"read", "fit"} <= set(summary["seconds"])
    # the printed report
    assert f"subset: {ref.n_features_} of 6 features" in text
    assert "k-step size search" in text and "<-" in text
    assert "stability over the 4 bootstraps" in text and "info_gain" in text


def test_fresh_entropy_is_saved_and_repeats_the_run(small_csv, tmp_path, capsys):
    first, second = tmp_path / "one", tmp_path / "two"
    args = [small_csv, *BASE, "--bootstraps", 3, "--subset", 2]
    assert _run(capsys, *args, "--out", first)[0] == 0
    ent = json.loads((first / "summary.json").read_text())["seeds"]["seed_entropy_text"]
    assert json.loads((first / "summary.json").read_text())["seeds"]["random_state"] is None
    assert _run(capsys, *args, "--random-state", ent, "--out", second)[0] == 0
    assert (first / "consensus.csv").read_text() == (second / "consensus.csv").read_text()


def test_existing_folder_is_refused_then_overwritten_with_stale_files_removed(
        small_csv, tmp_path, capsys):
    out = tmp_path / "res"
    assert _run(capsys, small_csv, *BASE, "--subset", "k-step", "--estimators", "naive_bayes",
                "--out", out)[0] == 0
    (out / "notes.txt").write_text("mine")
    before = (out / "consensus.csv").read_text()
    rc, _, err = _run(capsys, small_csv, *BASE, "--subset", 3, "--out", out)
    assert rc == 2 and "--overwrite" in err
    assert (out / "consensus.csv").read_text() == before and (out / "subset_curve.csv").exists()
    rc, _, err = _run(capsys, small_csv, *BASE, "--subset", 3, "--out", out, "--overwrite")
    assert rc == 0, err
    assert not (out / "subset_curve.csv").exists()  # a result of the earlier run, removed
    assert (out / "notes.txt").read_text() == "mine"  # not ours: untouched
    assert len((out / "subset.txt").read_text().split()) == 3


def test_real_run_on_bundled_parkinsons(tmp_path, capsys):
    frame = load("parkinsons", as_frame=True).frame
    path = tmp_path / "parkinsons.csv"
    frame.to_csv(path, index=False)
    rc, text, err = _run(capsys, path, "--target", "class", "--rankers", "relieff,info_gain,nlc",
                         "--rules", "fuzzy:OW", "--bootstraps", 5, "--subset", 5,
                         "--random-state", 0, "--no-progress")
    assert rc == 0, err
    assert "195 samples, 22 features" in text and "15 lists" in text
    subset = text.split("best first\n", 1)[1].splitlines()[0].strip().split(", ")
    assert len(subset) == 5 and set(subset) <= set(frame.columns[:-1])


def test_param_goes_to_the_rule_and_to_the_rankers_that_take_it(small_csv, tmp_path, capsys):
    out = tmp_path / "res"
    rc, _, err = _run(capsys, small_csv, *BASE, "--rules", "kfirst", "--param", "k=2",
                      "--param", "n_neighbors=5", "--subset", 2, "--random-state", 1,
                      "--out", out)
    assert rc == 0, err
    params = json.loads((out / "summary.json").read_text())["parameters"]
    assert params["aggregation_params"] == {"k": 2}
    assert ["relieff", {"n_neighbors": 5}] in params["rankers"]


def test_atomic_write_leaves_the_old_file_after_an_interrupt(tmp_path):
    target = tmp_path / "summary.json"
    atomic_write_text(target, "old\n")

    def half_then_interrupt(fh):
        fh.write(b"half a fi")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, half_then_interrupt)
    assert target.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["summary.json"]


@pytest.mark.parametrize("text, expected", [
    ("k-step", "k-step"), ("LEARNING-CURVE", "learning-curve"), ("half", None), ("7", 7),
    ("0.25", 0.25), ("1.0", 1.0),
])
def test_parse_subset(text, expected):
    assert parse_subset(text) == expected


HOSTILE = [
    (["--rankers", "info_gain,relif"], "did you mean 'relief'"),
    (["--rankers", "info_gain,,relieff"], "empty"),
    (["--rules", "bord"], "did you mean 'borda'"),
    (["--rules", "fuzzy:OWW", "--bootstraps", "3"], "did you mean 'OW'"),
    (["--rules", "fuzzy:OW"], "n_bootstraps ≥ 2"),
    (["--bootstraps", "-1"], "n_bootstraps must be ≥ 0"),
    (["--subset", "kstep"], "did you mean 'k-step'"),
    (["--subset", "0"], "count must be ≥ 1"),
    (["--subset", "-3"], "count must be ≥ 1"),
    (["--subset", "1.5"], "fraction must lie in (0, 1]"),
    (["--subset", "nan"], "fraction must lie in (0, 1]"),
    (["--subset", "50"], "subset=50 exceeds the number of features (6): give a smaller "
                         "subset (--subset)"),
    (["--estimators", "naive_bayse"], "did you mean 'naive_bayes'"),
    (["--param", "kk=3"], "neither the rule"),
    (["--param", "k"], "NAME=VALUE"),
    (["--rules", "borda", "--param", "k=0.1"], "neither the rule 'borda'"),
    (["--cv", "1"], "cv must be an int ≥ 2"),
]


@pytest.mark.parametrize("extra, message", HOSTILE)
def test_hostile_options(small_csv, tmp_path, capsys, extra, message):
    out = tmp_path / "never"
    base = {"--target": "cls", "--drop": "id", "--rankers": "info_gain,relieff",
            "--out": str(out)}
    # a repeated option is refused: the hostile value replaces the base one
    for flag in extra:
        base.pop(flag, None)
    args = [x for kv in base.items() for x in kv] + ["--no-progress"]
    rc, text, err = _run(capsys, small_csv, *args, *extra)
    assert rc == 2
    assert err.startswith("rankfusion: error:") and message in err, err
    assert "Traceback" not in err
    assert not out.exists()  # nothing written


@pytest.mark.parametrize("case, message", [
    ("missing_target", "target column 'klass' not found"),
    ("ignore_unknown", "did you mean 'f1'"),
    ("ignore_target", "is the target column"),
    ("out_exists", "--overwrite"),
    ("out_is_data", "is the input file itself"),
    ("out_parent_missing", "does not exist"),
    ("out_is_a_file", "is not a folder"),
    ("missing_data", "no such file"),
])
def test_hostile_data_and_out(small_csv, tmp_path, capsys, case, message):
    args = [small_csv, "--target", "cls", "--drop", "id", "--rankers", "info_gain",
            "--no-progress"]
    if case == "missing_target":
        args[2] = "klass"
    elif case == "ignore_unknown":
        args[4] = "f11"
    elif case == "ignore_target":
        args[4] = "cls"
    elif case == "out_exists":
        (tmp_path / "res").mkdir()
        args += ["--out", tmp_path / "res"]
    elif case == "out_is_data":
        args += ["--out", small_csv, "--overwrite"]
    elif case == "out_parent_missing":
        args += ["--out", tmp_path / "no" / "such"]
    elif case == "out_is_a_file":
        (tmp_path / "file").write_text("x")
        args += ["--out", tmp_path / "file", "--overwrite"]
    elif case == "missing_data":
        args[0] = tmp_path / "absent.csv"
    before = small_csv.read_bytes()
    rc, _, err = _run(capsys, *args)
    assert rc == 2 and message in err, err
    assert small_csv.read_bytes() == before


def test_size_search_with_the_tree_is_repeatable():
    # the entropy tree breaks ties between equal splits at random: a fixed random_state must
    # seed it, or two fits of the same selector differ
    frame = load("parkinsons", as_frame=True).frame
    X, y = frame.drop(columns="class"), frame["class"]
    kw = dict(rankers=["info_gain"], n_features_to_select="k-step", subset_grid=[3, 8, 22],
              estimators={"tree": DecisionTreeClassifier(criterion="entropy",
                                                         min_samples_leaf=2)},
              random_state=0)
    curves = [EnsembleSelector(**kw).fit(X, y).subset_curve_.curve for _ in range(4)]
    for c in curves[1:]:
        pd.testing.assert_frame_equal(c, curves[0])


def _subset_line(text):
    return next(line for line in text.splitlines() if line.startswith("  "))


@pytest.mark.parametrize("case", ["sep", "na_values", "encoding", "nominal"])
def test_reading_options_reach_the_reader(small_csv, tmp_path, capsys, case):
    """The data-reading options of ``rank``/``svm-rfe`` work the same in ``select``: the file
    read with them gives the subset of the library fitted on ``load_data`` with the same
    keywords; without them the file is refused with a message naming the option."""
    from rankfusion.io import load_data

    frame = read_csv(small_csv)
    path, kw, extra = tmp_path / "odd.csv", {}, []
    if case == "sep":
        frame.to_csv(path, index=False, sep=";")
        kw, extra = {"sep": ";"}, ["--sep", ";"]
    elif case == "na_values":
        frame["f2"] = frame["f2"].astype(object)
        frame.loc[[3, 17], "f2"] = "NA"
        frame.to_csv(path, index=False)
        kw, extra = {"na_values": ["NA"]}, ["--na-values", "NA"]
    elif case == "encoding":
        frame = frame.rename(columns={"f3": "f3_é"})
        frame.to_csv(path, index=False, encoding="latin-1")
        kw, extra = {"encoding": "latin-1"}, ["--encoding", "latin-1"]
    else:
        frame["f5"] = np.tile([1, 2, 3], 20)
        frame.to_csv(path, index=False)
        kw, extra = {"nominal": ["f5"]}, ["--nominal", "f5"]
    base = [path, "--target", "cls", "--drop", "id", "--rankers", "info_gain,relieff",
            "--subset", "3", "--random-state", "0", "--no-progress"]
    rc, text, err = _run(capsys, *base, *extra)
    assert rc == 0, err
    X, y = load_data(path, "cls", drop=["id"], **kw)
    sel = EnsembleSelector(rankers=("info_gain", "relieff"), n_features_to_select=3,
                           random_state=0).fit(X, y)
    ranked = np.argsort(sel.positions_, kind="stable")[:3]
    assert _subset_line(text).strip() == ", ".join(str(X.columns[i]) for i in ranked)
    if case == "nominal":
        assert not pd.api.types.is_numeric_dtype(X["f5"])
        return
    rc, _, err = _run(capsys, *base)
    assert rc == 2 and "Traceback" not in err
    hint = {"sep": "", "na_values": "na", "encoding": "latin-1"}[case]
    assert hint in err.lower(), err
