"""List files (rankfusion.io.read_lists / write_lists) and z-scoring (rankfusion.io.standardize).

Oracles: the lists written, scipy.stats.zscore (ddof=0) and hand-written files."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import zscore

from rankfusion import RankedLists
from rankfusion.io import read_lists, standardize, write_lists


@pytest.mark.parametrize("values", ["positions", "scores"])
def test_csv_round_trip(tmp_path, values):
    rng = np.random.default_rng(2)
    frame = pd.DataFrame(rng.integers(0, 5, (8, 3)).astype(float),
                         index=[f"gene{i}" for i in range(8)], columns=["a", "b", "c"])
    lists = RankedLists.from_scores(frame)
    path = tmp_path / "lists.csv"
    write_lists(lists, path, values=values)
    back = read_lists(path, kind=values)
    assert back == lists
    if values == "scores":
        np.testing.assert_array_equal(back.scores, lists.scores)


def test_csv_round_trip_top_k(tmp_path):
    lists = RankedLists.from_orders([["a", "b"], ["c", "a", "d"]])
    write_lists(lists, tmp_path / "t.csv")
    back = read_lists(tmp_path / "t.csv", kind="positions")
    np.testing.assert_array_equal(back.positions, lists.positions)
    np.testing.assert_array_equal(back.ranked, lists.ranked)



def test_orders_file_with_header_and_names(tmp_path):
    path = tmp_path / "o.csv"
    path.write_text("list,1,2,3\nx,a,b,c\ny,b,c\n")
    lists = read_lists(path, kind="orders")
    assert list(lists.list_names) == ["x", "y"]
    assert lists.ranked_features("y") == ["b", "c"]
    assert read_lists(path) == lists  # auto reads names as orders


def test_auto_reads_numbers_as_scores(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("feature,a,b\nf1,0.5,1\nf2,0.25,3\n")
    lists = read_lists(path)
    np.testing.assert_array_equal(lists.scores, [[0.5, 1.0], [0.25, 3.0]])
    assert list(lists.features) == ["f1", "f2"]


@pytest.mark.parametrize(("text", "kind", "exc", "match"), [
    (None, "auto", FileNotFoundError, "no such file"),
    ("feature,a\n", "scores", ValueError, "header row and at least one feature row"),
    ("feature,a\nf1,x\nf2,1\n", "scores", ValueError,
     "line 2, column 2 .'a'.: 'x' is not a number"),
    ("feature,a\nf1,\nf2,1\n", "scores", ValueError, "line 2, column 2 .'a'.: empty cell"),
    ("feature,a\nf1,1\n", "ranks", ValueError, "kind must be one of"),
    ("feature,a\nf1,1\n", None, ValueError, "kind must be one of"),
    ("x,a,a\n", "orders", ValueError, "twice"),
])
def test_read_lists_hostile(tmp_path, text, kind, exc, match):
    path = tmp_path / "bad.csv"
    if text is not None:
        path.write_text(text)
    with pytest.raises(exc, match=match):
        read_lists(path, kind=kind)


@pytest.mark.parametrize(("lists", "values", "exc", "match"), [
    (pd.DataFrame({"a": [1.0]}), "positions", TypeError, "RankedLists"),
    (RankedLists.from_orders([["a"]]), "relative", ValueError, "values"),
    (RankedLists.from_orders([["a"]]), "scores", ValueError, "no scores"),
])
def test_write_lists_hostile(tmp_path, lists, values, exc, match):
    with pytest.raises(exc, match=match):
        write_lists(lists, tmp_path / "out.csv", values=values)
    assert not (tmp_path / "out.csv").exists()


def test_standardize_matches_scipy_and_keeps_the_input():
    rng = np.random.default_rng(0)
    X = rng.normal(3, 2, (20, 4))
    X[:, 2] = 7.0  # constant column: centred only
    before = X.copy()
    Z = standardize(X)
    np.testing.assert_allclose(Z[:, [0, 1, 3]], zscore(X[:, [0, 1, 3]], ddof=0))
    np.testing.assert_array_equal(Z[:, 2], 0.0)
    np.testing.assert_array_equal(X, before)


@pytest.mark.parametrize(("X", "exc", "match"), [
    ([[1.0, np.nan]], ValueError, "finite"),
    ([[1.0, np.inf]], ValueError, "finite"),
    ([1.0, 2.0], ValueError, "2-D"),
    ([["a", "b"]], TypeError, "real numbers"),
    (pd.DataFrame({"a": ["x", "y"]}), TypeError, "column 'a'"),
    (pd.DataFrame({"a": [True, False]}), TypeError, "column 'a'"),
])
def test_standardize_hostile(X, exc, match):
    with pytest.raises(exc, match=match):
        standardize(X)
