"""The ``rankfusion svm-rfe`` command and the bundled St. Jude data.

The demo on St. Jude is tested in tests/evaluation/test_stjude_demo.py.
"""

import numpy as np
import pandas as pd
import pytest

from conftest import read_csv
from rankfusion.cli import main
from rankfusion.datasets import load_stjude_leukemia


@pytest.fixture
def csv_data(tmp_path):
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b", "c"], 30)
    X = rng.normal(size=(90, 12))
    for k, lab in enumerate("abc"):
        X[y == lab, k] += 2.5
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(12)])
    frame.insert(0, "id", [f"s{i}" for i in range(90)])
    frame["class"] = y
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    return path


def test_cli_side_by_side(csv_data, tmp_path, capsys):
    out = tmp_path / "pos.csv"
    lists = tmp_path / "lists.csv"
    code = main(["svm-rfe", str(csv_data), "--target", "class", "--drop", "id",
                 "--rules", "kfirst,schulze,average", "--top", "5", "--out", str(out),
                 "--lists-out", str(lists)])
    text = capsys.readouterr().out
    assert code == 0
    assert "3 lists" in text and "kfirst" in text and "average" in text
    table = read_csv(out, index_col=0)
    assert list(table.columns) == ["kfirst", "schulze", "average"]
    assert set(table["kfirst"].nsmallest(3).index) == {"f0", "f1", "f2"}
    per = read_csv(lists, index_col=0)
    assert list(per.columns) == ["a_vs_b", "a_vs_c", "b_vs_c"]


def test_cli_msvm_and_errors(csv_data, capsys):
    assert main(["svm-rfe", str(csv_data), "-t", "class", "--drop", "id",
                 "--decomposition", "weston_watkins", "--top", "3"]) == 0
    assert "weston_watkins" in capsys.readouterr().out
    assert main(["svm-rfe", str(csv_data), "-t", "class"]) == 2  # 'id' is not numeric
    assert "--drop" in capsys.readouterr().err
    assert main(["svm-rfe", str(csv_data), "-t", "class", "--drop", "id",
                 "--rules", "nope"]) == 2


def test_stjude_loader():
    d = load_stjude_leukemia()
    assert d.data.shape == (248, 985)
    classes, counts = np.unique(d.target, return_counts=True)
    assert dict(zip(classes, counts)) == {"BCR.ABL": 15, "E2A.PBX1": 27, "Hyperdip.50": 64,
                                          "MLL": 20, "T.ALL": 43, "TEL.AML1": 79}
    assert "Monti" in d.DESCR and d.feature_names[0] == "gene_1"
    X, y = load_stjude_leukemia(as_frame=True, return_X_y=True)
    assert X.shape == (248, 985) and y.shape == (248,)


