"""``rankfusion svm-rfe``: --param, --random-state, and arguments refused before the
elimination runs."""

import numpy as np
import pandas as pd
import pytest

from conftest import read_csv
from rankfusion import aggregate
from rankfusion.cli import main
from rankfusion.rankers import rfe_lists


@pytest.fixture
def csv_data(tmp_path):
    rng = np.random.default_rng(1)
    y = np.repeat(["a", "b", "c"], 20)
    X = rng.normal(size=(60, 10))
    for k, lab in enumerate("abc"):
        X[y == lab, k] += 2.0
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(10)])
    frame["class"] = y
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    return path, X, y


def test_param_reaches_the_rules_and_the_seed_makes_ce_reproducible(csv_data, tmp_path):
    path, X, y = csv_data
    outs = []
    for i in range(2):
        out = tmp_path / f"pos{i}.csv"
        assert main(["svm-rfe", str(path), "-a", "kfirst,ce", "--param", "k=4",
                     "--param", "n_samples=200", "--random-state", "5", "--out",
                     str(out)]) == 0
        outs.append(read_csv(out, index_col=0))
    pd.testing.assert_frame_equal(outs[0], outs[1])
    lists, _ = rfe_lists(X, y, feature_names=[f"f{j}" for j in range(10)])
    # kfirst took k=4 from --param (oracle: the rule on the lists)
    np.testing.assert_array_equal(outs[0]["kfirst"].to_numpy(),
                                  aggregate(lists, "kfirst", k=4).ranks)


def test_k_option_stays_kfirst_only(csv_data, tmp_path):
    path, X, y = csv_data
    out = tmp_path / "pos.csv"
    assert main(["svm-rfe", str(path), "-a", "kfirst,borda", "--k", "3", "--out",
                 str(out)]) == 0
    lists, _ = rfe_lists(X, y)
    table = read_csv(out, index_col=0)
    np.testing.assert_array_equal(table["kfirst"], aggregate(lists, "kfirst", k=3).ranks)
    np.testing.assert_array_equal(table["borda"], aggregate(lists, "borda").ranks)


@pytest.mark.parametrize("extra, message", [
    (["--k", "0"], "k must be ≥ 1"),
    (["--k", "11"], "exceeds the number of features"),
    (["--k", "1.5"], "(0, 1]"),
    (["--top", "-1"], "--top must be ≥ 0"),
    (["--param", "kk=3"], "unknown parameter"),
    (["--param", "k"], "NAME=VALUE"),
    (["--param", "k=0"], "k must be ≥ 1"),
    (["--random-state", "-2"], "random_state"),
    (["--C", "abc"], "--C must be a positive number"),
    (["--C", "-1"], "C must"),
    (["--C", "nan"], "C must"),
    (["--C", "inf"], "C must"),
    (["--step", "0"], "step"),
    (["--step-until", "0"], "step_until"),
    (["-a", "nope"], "unknown aggregation 'nope'"),
    (["-a", ","], "at least one"),
    (["-a", "kfirst", "--param", "k=0.5", "--param", "polish=true"], "unknown parameter"),
])
def test_bad_arguments_fail_before_the_elimination(csv_data, capsys, monkeypatch, extra,
                                                   message):
    import rankfusion.selection.svm_rfe as mod

    def boom(*a, **k):
        raise AssertionError("the elimination ran before the arguments were checked")

    monkeypatch.setattr(mod, "rfe_lists", boom)
    monkeypatch.setattr(mod, "joint_rfe", boom)
    path, _, _ = csv_data
    assert main(["svm-rfe", str(path), *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rankfusion: error:") and message in err, err


def test_random_state_not_an_int_is_an_argparse_error(csv_data, capsys):
    path, _, _ = csv_data
    with pytest.raises(SystemExit) as info:
        main(["svm-rfe", str(path), "--random-state", "x"])
    assert info.value.code == 2 and "--random-state" in capsys.readouterr().err


@pytest.mark.parametrize("criterion", ["crammer_singer", "weston_watkins"])
def test_criterion_and_the_deprecated_decomposition_spelling_print_the_same(
        csv_data, tmp_path, capsys, criterion):
    path, X, y = csv_data
    new, old = tmp_path / "new.csv", tmp_path / "old.csv"
    assert main(["svm-rfe", str(path), "--criterion", criterion, "--random-state", "3",
                 "--no-progress", "--out", str(new)]) == 0
    printed_new = capsys.readouterr()
    assert main(["svm-rfe", str(path), "-d", criterion, "--random-state", "3",
                 "--no-progress", "--out", str(old)]) == 0
    printed_old = capsys.readouterr()
    assert new.read_bytes() == old.read_bytes()
    assert f"note: --decomposition {criterion} is deprecated; use --criterion {criterion}" \
        in printed_old.err
    assert "deprecated" not in printed_new.err
    import re

    def same(text):  # all but the file written and the seconds taken
        return [re.sub(r"; [0-9.]+ s$", "", line) for line in text.splitlines()
                if "written" not in line]

    assert same(printed_new.out) == same(printed_old.out)


@pytest.mark.parametrize("argv, message", [
    (["--criterion", "crammer_singer", "-d", "weston_watkins"],
     "-d weston_watkins (the former spelling of --criterion weston_watkins) contradicts "
     "--criterion crammer_singer"),
    (["--criterion", "weston_watkins", "--rules", "kfirst"],
     "--rules does not apply to --criterion weston_watkins"),
    (["-d", "crammer_singer", "--rules", "kfirst"],
     "--rules does not apply to -d crammer_singer"),
])
def test_criterion_mistakes_are_named(csv_data, capsys, argv, message):
    path, _, _ = csv_data
    assert main(["svm-rfe", str(path), "--no-progress", *argv]) == 2
    assert message in capsys.readouterr().err


def test_run_svm_rfe_criterion_is_the_old_spelling(csv_data):
    import warnings

    from rankfusion.workflows import run_svm_rfe

    path, _, _ = csv_data
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = run_svm_rfe(path, "class", criterion="weston_watkins")
    with pytest.warns(FutureWarning, match="use criterion='weston_watkins'"):
        old = run_svm_rfe(path, "class", decomposition="weston_watkins")
    pd.testing.assert_frame_equal(new.positions(), old.positions())
    assert new.decomposition == old.decomposition == "weston_watkins"


def test_an_unknown_criterion_is_refused_by_the_parser(csv_data, capsys):
    path, _, _ = csv_data
    with pytest.raises(SystemExit):
        main(["svm-rfe", str(path), "--criterion", "cs"])
    assert "invalid choice: 'cs'" in capsys.readouterr().err
