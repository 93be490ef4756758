"""``rankfusion rank``: the command line of the rankers."""


import numpy as np
import pandas as pd

from conftest import WEKA_DATA, read_csv
from rankfusion.cli import main
from rankfusion.io import load_data
from rankfusion.rankers import info_gain, relieff

DATA = WEKA_DATA


def test_rank_prints_sorted_table_and_writes_scores(tmp_path, capsys):
    out = tmp_path / "s.csv"
    assert main(["rank", str(DATA / "labor.arff.gz"), "--rankers", "info_gain,relieff",
                 "--out", str(out), "--top", "0"]) == 0
    text = capsys.readouterr().out
    assert "57 samples, 16 features" in text
    table = read_csv(out, index_col=0)
    X, y = load_data(DATA / "labor.arff.gz")
    assert list(table.columns) == ["info_gain", "relieff"]
    np.testing.assert_allclose(table.loc[[str(c) for c in X.columns], "info_gain"],
                               info_gain(X, y))
    assert np.all(np.diff(table["info_gain"].to_numpy()) <= 0)  # best first
    first = text.splitlines()[3].split()[0]
    assert first == "wage-increase-first-year"


def test_rank_target_by_name_and_params(tmp_path, capsys):
    out = tmp_path / "s.csv"
    assert main(["rank", str(DATA / "lung-cancer.arff.gz"), "--target", "class", "-r",
                 "relieff", "--param", "n_neighbors=3", "-o", str(out)]) == 0
    X, y = load_data(DATA / "lung-cancer.arff.gz", target="class")
    s = read_csv(out, index_col=0)["relieff"]
    np.testing.assert_allclose(s.loc[[str(c) for c in X.columns]], relieff(X, y, n_neighbors=3))
    capsys.readouterr()


def test_rank_errors_exit_2(tmp_path, capsys):
    assert main(["rank", str(DATA / "labor.arff.gz"), "--rankers", "nope"]) == 2
    assert "unknown ranker" in capsys.readouterr().err
    assert main(["rank", str(DATA / "labor.arff.gz"), "--target", "zzz"]) == 2
    assert "not found" in capsys.readouterr().err
    assert main(["rank", str(DATA / "labor.arff.gz"), "--param", "bogus=1"]) == 2
    assert "takes it" in capsys.readouterr().err
    csv = tmp_path / "r.csv"
    pd.DataFrame({"a": [0.1, 0.2, 0.3], "t": [0.5, 1.5, 2.25]}).to_csv(csv, index=False)
    assert main(["rank", str(csv)]) == 2
    assert "regression" in capsys.readouterr().err
