"""The command line: aggregate, demo, and one-line errors."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from conftest import read_csv
from rankfusion.cli import main


@pytest.fixture
def scores_csv(tmp_path):
    frame = pd.DataFrame(np.random.default_rng(0).normal(size=(12, 4)),
                         index=[f"g{i}" for i in range(12)], columns=list("ABCD"))
    frame.index.name = "feature"
    path = tmp_path / "scores.csv"
    frame.to_csv(path)
    return path, frame


def test_aggregate_scores_csv(scores_csv, tmp_path, capsys):
    path, frame = scores_csv
    out = tmp_path / "consensus.csv"
    assert main(["aggregate", str(path), "--rules", "kfirst", "--k", "3", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "kfirst consensus of 4 lists over 12 features {'k': 3}" in printed
    table = read_csv(out, index_col=0)
    from rankfusion import aggregate

    expected = aggregate(frame, "kfirst", k=3)
    assert list(table.index) == expected.top()
    assert table["rank"].tolist() == list(range(1, 13))


def test_aggregate_orders_csv(tmp_path, capsys):
    path = tmp_path / "orders.csv"
    path.write_text("list,1,2,3\nx,a,b,c\ny,b,a,\nz,a,c,b\n")
    assert main(["aggregate", str(path), "--rules", "schulze"]) == 0
    out = capsys.readouterr().out
    assert "schulze consensus of 3 lists over 3 features" in out
    assert out.index("\na ") < out.index("\nb ") < out.index("\nc ")


def test_aggregate_k_fraction_and_params(scores_csv, capsys):
    path, _ = scores_csv
    assert main(["aggregate", str(path), "--rules", "kfirst", "--k", "0.25"]) == 0
    assert "{'k': 3}" in capsys.readouterr().out
    assert main(["aggregate", str(path), "--rules", "rrf", "--param", "k_rrf=10",
                 "--weights", "1,2,1,1"]) == 0
    assert "'k_rrf': 10" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--rules", "nope"], "unknown aggregation method 'nope'; known methods:"),
        (["--rules", "kfirst", "--k", "0"], "k must be an int ≥ 1"),
        (["--rules", "kfirst", "--k", "1.5"], "(0, 1]"),
        (["--rules", "median", "--weights", "1,1,1,1"], "takes no list weights"),
        (["--rules", "borda", "--weights", "1,1"], "one weight per list"),
    ],
)
def test_aggregate_errors_are_one_line(scores_csv, capsys, args, message):
    path, _ = scores_csv
    assert main(["aggregate", str(path), "--input", "scores", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rankfusion: error: ")
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_file_and_nan(tmp_path, capsys):
    assert main(["aggregate", str(tmp_path / "none.csv")]) == 2
    assert "no such file" in capsys.readouterr().err
    bad = tmp_path / "bad.csv"
    bad.write_text("feature,A,B\ng1,1.0,\ng2,2.0,3.0\n")
    assert main(["aggregate", str(bad), "--input", "scores"]) == 2
    assert "line 2, column 3 ('B'): empty cell" in capsys.readouterr().err


def test_demo_lists(capsys):
    assert main(["demo", "--lists"]) == 0
    out = capsys.readouterr().out
    for rule in ("kfirst", "schulze", "copeland", "average_sd"):
        assert rule in out
    assert "proline" in out


def test_python_dash_m_entry_point():
    res = subprocess.run([sys.executable, "-m", "rankfusion", "--version"],
                         capture_output=True, text=True, check=False)
    assert res.returncode == 0 and res.stdout.startswith("rankfusion ")


def test_orders_csv_without_list_names(tmp_path, capsys):
    path = tmp_path / "orders.csv"
    path.write_text("a,b,c\nb,a,c\na,c,b\n")
    assert main(["aggregate", str(path), "--rules", "borda"]) == 2  # no header: say it
    assert "--no-list-names" in capsys.readouterr().err
    assert main(["aggregate", str(path), "--rules", "borda", "--no-list-names"]) == 0
    out = capsys.readouterr().out
    assert "borda consensus of 3 lists over 3 features" in out


