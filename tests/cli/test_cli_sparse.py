"""``rankfusion rank`` on sparse files (docs/design.md, 'Sparse input')."""

import numpy as np

from conftest import read_csv
from rankfusion.cli import main
from rankfusion.rankers import get_ranker, info_gain

ROWS = ["1 1:2 3:1", "-1 2:4", "1 1:3 3:2", "-1 2:1 3:1", "1 1:1", "-1 2:2 4:1"]
DENSE = np.array([[2, 0, 1, 0], [0, 4, 0, 0], [3, 0, 2, 0], [0, 1, 1, 0], [1, 0, 0, 0],
                  [0, 2, 0, 1]], dtype=float)
Y = [1, -1, 1, -1, 1, -1]


def test_rank_svmlight_file(tmp_path, capsys):
    data = tmp_path / "d.svm"
    data.write_text("\n".join(ROWS) + "\n")
    out = tmp_path / "s.csv"
    assert main(["rank", str(data), "-r", "chi2,info_gain", "-o", str(out)]) == 0
    assert "6 samples, 4 features" in capsys.readouterr().out
    table = read_csv(out, index_col=0)
    table.index = table.index.astype(str)
    names = ["1", "2", "3", "4"]
    np.testing.assert_allclose(table.loc[names, "chi2"], get_ranker("chi2")(DENSE, Y))
    np.testing.assert_allclose(table.loc[names, "info_gain"], info_gain(DENSE, Y))


def test_rank_sparse_arff_and_refusal_names_alternatives(tmp_path, capsys):
    data = tmp_path / "d.arff"
    data.write_text("@relation r\n@attribute a numeric\n@attribute b numeric\n"
                    "@attribute cls {p,q}\n@data\n{0 1, 2 q}\n{1 2}\n{0 3, 2 q}\n{1 1}\n"
                    "{0 2, 1 1, 2 q}\n{1 3}\n")
    assert main(["rank", str(data), "--sparse", "-r", "chi2"]) == 0
    assert "6 samples, 2 features" in capsys.readouterr().out
    assert main(["rank", str(data), "--sparse", "-r", "relieff"]) == 2
    err = capsys.readouterr().err
    assert "relieff cannot take it" in err
    assert "chi2" in err and "info_gain" in err and "svm_rfe" in err
    assert "--accept-sparse densify" in err
    assert main(["rank", str(data), "--sparse", "-r", "relieff",
                 "--accept-sparse", "densify"]) == 0
    capsys.readouterr()
