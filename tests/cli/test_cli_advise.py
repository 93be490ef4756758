"""``rankfusion advise``: the thin command over :func:`rankfusion.advise`, its files and its
hostile inputs.

Oracle: the library called directly with the same arguments (the command must add nothing:
same verdict, same table as advice.csv); the summary's seed repeats the run.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from rankfusion import advise
from rankfusion.cli import COMMANDS, main
from rankfusion.evaluation import parse_sizes, split_rules


@pytest.fixture
def small_csv(tmp_path):
    """48 rows, 2 classes, 8 features of which f0 and f1 carry the class, plus an id column."""
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b"], 24)
    X = rng.normal(size=(48, 8))
    X[:, 0] += np.repeat([0.0, 2.0], 24)
    X[:, 1] += np.repeat([0.0, -1.5], 24)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(8)])
    frame.insert(0, "id", [f"s{i}" for i in range(48)])
    frame["cls"] = y
    path = tmp_path / "small.csv"
    frame.to_csv(path, index=False)
    return path, frame


BASE = ["--target", "cls", "--drop", "id", "--rankers", "f_classif,relieff",
        "--rules", "borda,kfirst:k=2", "--sizes", "1,2,4", "--estimators", "naive_bayes",
        "--cv", "3", "--inner-cv", "2", "--repeats", "1", "--random-state", "4"]


def _run(capsys, *args):
    rc = main(["advise", *map(str, args)])
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_advise_is_registered():
    assert "advise" in COMMANDS


def test_advise_prints_the_library_verdict_and_writes_its_files(small_csv, tmp_path, capsys):
    path, frame = small_csv
    out = tmp_path / "res"
    rc, text, err = _run(capsys, path, *BASE, "--out", out)
    assert rc == 0, err
    X = frame.drop(columns=["id", "cls"])
    adv = advise(X, frame["cls"], rankers=["f_classif", "relieff"], rules=["borda", "kfirst:k=2"],
                 sizes=[1, 2, 4], estimator="naive_bayes", cv=3, inner_cv=2, n_repeats=1,
                 random_state=4)
    assert adv.verdict in text
    assert f"recommended: {adv.recommended.label}" in text
    table = pd.read_csv(out / "advice.csv")
    assert len(table) == (2 + 2) * 3
    np.testing.assert_allclose(table["score"], adv.table["score"])
    assert table["rankers"].tolist() == adv.table["rankers"].tolist()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["verdict"] == adv.verdict
    assert summary["seed_entropy"] == 4
    for key in ("rankfusion", "numpy", "scikit-learn", "scipy", "pandas"):
        assert key in summary
    assert summary["options"]["rules"] == "borda,kfirst:k=2"


def test_dry_run_counts_and_computes_nothing(small_csv, tmp_path, capsys):
    path, _ = small_csv
    out = tmp_path / "never"
    rc, text, err = _run(capsys, path, *BASE, "--dry-run", "--out", out)
    assert rc == 0, err
    assert "training_parts: 12" in text  # 3 outer × (2 inner + 1) + (2 inner + 1) on all data
    assert "ranker_fits: 24" in text  # 12 parts × 2 rankers
    assert "aggregations: 24" in text  # 12 parts × 1 subset × 2 rules
    assert not out.exists()


def test_existing_out_is_refused_before_the_work(small_csv, tmp_path, capsys):
    path, _ = small_csv
    out = tmp_path / "res"
    out.mkdir()
    rc, text, err = _run(capsys, path, *BASE, "--out", out)
    assert rc == 2
    assert "--out" in err and "exists" in err
    assert text == ""


HOSTILE = [
    (["--rankers", "f_classif"], "at least 2"),
    (["--rankers", "f_classif,nope"], "nope"),
    (["--rules", "borda,,rrf"], "empty item"),
    (["--rules", "k=3"], "starts with a parameter"),
    (["--rules", "fuzzy:OX"], "did you mean 'fuzzy:OW'"),
    (["--rules", "fuzzy:OW", "--bootstraps", "1"], "n_bootstraps ≥ 2"),
    (["--rules", "fuzzy:OW", "--bootstraps", "-1"], "n_bootstraps"),
    (["--rules", "fuzzy:OW", "--sample-fraction", "0"], "sample_fraction"),
    (["--rules", "fuzzy:OW", "--sample-fraction", "1.5"], "sample_fraction"),
    (["--rules", "fuzzy:OW", "--sample-fraction", "0.01"], "sample_fraction ≥"),
    (["--rules", "fuzzy:OW", "--rankers", "f_classif"], "at least 2"),
    (["--rules", "nope"], "nope"),
    (["--rules", "kfirst:z=1"], "unknown parameter"),
    (["--sizes", "1,x"], "sizes"),
    (["--sizes", "0"], "sizes"),
    (["--sizes", "100"], "sizes"),
    (["--sizes", "inf"], "sizes"),
    (["--estimators", "nope"], "classifier"),
    (["--cv", "1"], "cv"),
    (["--inner-cv", "0"], "inner_cv"),
    (["--repeats", "0"], "n_repeats"),
    (["--alpha", "1.5"], "alpha"),
    (["--random-state", "-3"], "random_state"),
    (["--n-jobs", "0"], "n_jobs"),
    (["--top", "-1"], "--top"),
    (["--target", "nope"], "nope"),
]


@pytest.mark.parametrize("extra, match", HOSTILE, ids=[" ".join(e) for e, _ in HOSTILE])
def test_hostile_cli_inputs(small_csv, capsys, extra, match):
    path, _ = small_csv
    args = list(BASE)
    for flag, value in zip(extra[::2], extra[1::2]):
        if flag in args:
            args[args.index(flag) + 1] = value
        else:
            args += [flag, value]
    rc, text, err = _run(capsys, path, *args)
    assert rc == 2
    assert err.startswith("rankfusion: error:")
    assert match in err
    assert err.count("\n") == 1


def test_missing_file_and_bad_choice(tmp_path, capsys):
    rc, _, err = _run(capsys, tmp_path / "absent.csv", *BASE)
    assert rc == 2 and "absent.csv" in err
    with pytest.raises(SystemExit):
        main(["advise", str(tmp_path / "absent.csv"), "--combine", "some"])
    with pytest.raises(SystemExit):
        main(["advise", str(tmp_path / "absent.csv"), "--cv", "two"])


def test_split_rules_and_parse_sizes():
    assert split_rules("borda,kfirst:k=0.05") == ["borda", "kfirst:k=0.05"]
    assert split_rules("ga:k=5,distance=kendall,borda") == ["ga:k=5,distance=kendall", "borda"]
    assert parse_sizes("1,5,0.1") == [1, 5, 0.1]
    assert parse_sizes("k-step") == "k-step"
    with pytest.raises(ValueError, match="empty item"):
        split_rules("borda,")
    with pytest.raises(TypeError, match="rules"):
        split_rules(3)
    with pytest.raises(ValueError, match="sizes"):
        parse_sizes("nan")
    with pytest.raises(TypeError, match="sizes"):
        parse_sizes(None)


def test_the_same_command_on_its_folder_resumes_and_another_configuration_is_refused(
        small_csv, tmp_path, capsys):
    path, _ = small_csv
    out = tmp_path / "res"
    rc, first, err = _run(capsys, path, *BASE, "--out", out, "--no-progress")
    assert rc == 0, err
    (out / "parts" / "part-002.npz").unlink()  # as if killed before the last outer part
    rc, again, err = _run(capsys, path, *BASE, "--out", out, "--no-progress")
    assert rc == 0, err
    assert "resumed: 3 of 4 parts reused" in again and "1 computed" in again
    assert first.splitlines()[1] == again.splitlines()[1]  # the verdict
    assert (out / "advice.html").is_file()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["store"]["reused"] == 3
    args = list(BASE)
    args[args.index("--random-state") + 1] = "5"
    rc, text, err = _run(capsys, path, *args, "--out", out)
    assert rc == 2 and "another configuration" in err and "seed_entropy" in err
    assert err.count("\n") == 1


def test_dask_local_runs_the_parts_with_the_numbers_of_a_local_run(small_csv, tmp_path,
                                                                     capsys, monkeypatch):
    distributed = pytest.importorskip("distributed")
    from rankfusion.experiments import runner

    def threads(scheduler=None, n_workers=None):  # one process: the test stays fast
        return distributed.Client(distributed.LocalCluster(
            n_workers=n_workers, threads_per_worker=1, processes=False,
            dashboard_address=None))

    monkeypatch.setattr(runner, "dask_client", threads)
    path, _ = small_csv
    rc, text, err = _run(capsys, path, *BASE, "--out", tmp_path / "dk", "--dask-local", "2",
                         "--no-progress")
    assert rc == 0, err
    rc, local, err = _run(capsys, path, *BASE, "--out", tmp_path / "lo", "--no-progress")
    assert rc == 0, err
    pd.testing.assert_frame_equal(pd.read_csv(tmp_path / "dk" / "advice.csv"),
                                  pd.read_csv(tmp_path / "lo" / "advice.csv"))
    assert json.loads((tmp_path / "dk" / "summary.json").read_text())["store"][
        "backend"].startswith("dask")


DASK_HOSTILE = [
    (["--dask-local", "0", "--out", "{tmp}/x"], "--dask-local"),
    (["--dask-local", "2"], "--out"),
    (["--scheduler", "tcp://127.0.0.1:1"], "--out"),
    (["--scheduler", " ", "--out", "{tmp}/x"], "--scheduler"),
    (["--dask-local", "2", "--out", "-"], "--out"),
]


@pytest.mark.parametrize("extra, match", DASK_HOSTILE, ids=[" ".join(e) for e, _ in DASK_HOSTILE])
def test_hostile_dask_options(small_csv, tmp_path, capsys, extra, match):
    path, _ = small_csv
    extra = [e.replace("{tmp}", str(tmp_path)) for e in extra]
    rc, text, err = _run(capsys, path, *BASE, *extra)
    assert rc == 2
    assert err.startswith("rankfusion: error:") and match in err
    assert err.count("\n") == 1
    assert not (tmp_path / "x").exists()


def test_scheduler_and_dask_local_exclude_each_other(small_csv, capsys):
    path, _ = small_csv
    with pytest.raises(SystemExit):
        main(["advise", str(path), "--scheduler", "tcp://h:1", "--dask-local", "2"])


@pytest.mark.parametrize("folder", [False, True], ids=["in memory", "--out DIR"])
def test_progress_with_time_left_and_no_progress_silences_it(small_csv, tmp_path, capsys,
                                                             monkeypatch, folder):
    monkeypatch.setenv("RANKFUSION_PROGRESS_INTERVAL", "0")  # a line after every part
    path, _ = small_csv
    extra = ["--out", tmp_path / "res"] if folder else []
    rc, text, err = _run(capsys, path, *BASE, *extra)
    assert rc == 0, err
    lines = [ln for ln in err.splitlines() if ln.startswith("rankfusion: advise:")]
    assert lines and "of 4 parts" in lines[0] and "left" in lines[0]
    assert lines[-1].endswith("done")
    extra = ["--out", tmp_path / "quiet"] if folder else []
    rc, text, err = _run(capsys, path, *BASE, *extra, "--no-progress")
    assert rc == 0 and err == ""


def test_dry_run_counts_the_bootstrap_ranker_fits(small_csv, capsys):
    path, _ = small_csv
    args = list(BASE)
    args[args.index("--rules") + 1] = "borda,fuzzy:OW"
    rc, text, err = _run(capsys, path, *args, "--bootstraps", "5", "--dry-run")
    assert rc == 0, err
    assert "bootstrap_ranker_fits: 120" in text  # 12 parts × 2 rankers × 5 samples
    assert "ranker_fits: 144" in text  # and once each on the part itself


def test_fuzzy_rules_from_the_command_line_equal_the_library(small_csv, tmp_path, capsys):
    path, frame = small_csv
    args = list(BASE)
    args[args.index("--rules") + 1] = "fuzzy:OW,fuzzy:EW"
    out = tmp_path / "res"
    rc, text, err = _run(capsys, path, *args, "-b", "3", "--sample-fraction", "0.9",
                         "--out", out)
    assert rc == 0, err
    adv = advise(frame.drop(columns=["id", "cls"]), frame["cls"],
                 rankers=["f_classif", "relieff"], rules=["fuzzy:OW", "fuzzy:EW"],
                 sizes=[1, 2, 4], estimator="naive_bayes", cv=3, inner_cv=2, n_repeats=1,
                 n_bootstraps=3, sample_fraction=0.9, random_state=4)
    assert adv.verdict in text
    np.testing.assert_allclose(pd.read_csv(out / "advice.csv")["score"], adv.table["score"])
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["n_bootstraps"], summary["sample_fraction"]) == (3, 0.9)


def test_advise_stability_size_on_the_command_line(small_csv, capsys):
    path, frame = small_csv
    rule = "stability:q=2,threshold=0.6,n_subsamples=6"
    args = [a if a != "1,2,4" else f"2,{rule}" for a in BASE]
    rc, text, err = _run(capsys, path, *args, "--top", "0")
    assert rc == 0, err
    assert "fold_sizes" in text and rule in text
    assert "the stable set's size on each outer fold" in text
    X = frame.drop(columns=["id", "cls"])
    adv = advise(X, frame["cls"], rankers=["f_classif", "relieff"],
                 rules=["borda", "kfirst:k=2"], sizes=[2, rule], estimator="naive_bayes",
                 cv=3, inner_cv=2, n_repeats=1, random_state=4)
    assert adv.verdict in text
