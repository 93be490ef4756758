"""Options of the data readers read as their author meant them, whatever the type given
(docs/design.md, 'Inputs', 'Missing values', and 'Validation'): a string is one item, never
its letters; a number is compared as a number; any other type is one ``TypeError`` naming the
option. Checked on every entry that takes these options: ``load_data`` (CSV, DataFrame,
Parquet) and ``read_small``. Oracle: the hand-written files themselves.
"""

import math

import numpy as np
import pandas as pd
import pytest

from rankfusion.io import load_data, read_small

TEXT = "f0,f1,class\n0.5,N,a\nNA,A,b\n0.50,NA,a\n.7,N,b\n5e-1,A,a\n"


def _write(tmp_path, text=TEXT, name="d.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


NA_ACCEPTED = [
    # (id, na_values, expected f0, expected f1)
    ("one-string-is-one-marker", "NA", [0.5, math.nan, 0.5, 0.7, 0.5], ["N", "A", None, "N", "A"]),
    ("one-string-with-spaces", " NA ", [0.5, math.nan, 0.5, 0.7, 0.5], ["N", "A", None, "N", "A"]),
    ("tuple-of-strings", ("NA",), [0.5, math.nan, 0.5, 0.7, 0.5], ["N", "A", None, "N", "A"]),
    ("float-matches-every-spelling", ["NA", 0.5], [math.nan, math.nan, math.nan, 0.7, math.nan],
     ["N", "A", None, "N", "A"]),
    ("numeric-string-matches-by-value", ["NA", "0.5"],
     [math.nan, math.nan, math.nan, 0.7, math.nan], ["N", "A", None, "N", "A"]),
    ("numpy-float-marker", ["NA", np.float64(0.7)], [0.5, math.nan, 0.5, math.nan, 0.5],
     ["N", "A", None, "N", "A"]),
    ("set-of-markers", {"NA", "N"}, [0.5, math.nan, 0.5, 0.7, 0.5], [None, "A", None, None, "A"]),
    ("generator", (m for m in ["NA"]), [0.5, math.nan, 0.5, 0.7, 0.5],
     ["N", "A", None, "N", "A"]),
]


def _as_list(col):
    return [None if (isinstance(v, float) and math.isnan(v)) else v for v in col]


@pytest.mark.parametrize("na, f0, f1", [c[1:] for c in NA_ACCEPTED],
                         ids=[c[0] for c in NA_ACCEPTED])
def test_na_values_read_as_meant(tmp_path, na, f0, f1):
    X, y = load_data(_write(tmp_path), na_values=na)
    np.testing.assert_array_equal(X["f0"].to_numpy(dtype=float), f0)
    assert _as_list(X["f1"].tolist()) == f1
    assert y.tolist() == ["a", "b", "a", "b", "a"]


@pytest.mark.parametrize("na", [-999, -999.0, "-999", [-999], ["-999.0"]],
                         ids=["int", "float", "str", "list-int", "list-str-float"])
def test_numeric_marker_integer_column(tmp_path, na):
    path = _write(tmp_path, "f0,class\n-999,a\n2,b\n-999.0,a\n4,b\n")
    X, _ = load_data(path, na_values=na)
    np.testing.assert_array_equal(X["f0"].to_numpy(), [np.nan, 2.0, np.nan, 4.0])
    got = read_small(path, na_values=na)
    assert got is not None
    np.testing.assert_array_equal(got[0].values[:, 0], [np.nan, 2.0, np.nan, 4.0])


def test_read_small_reads_the_same_markers(tmp_path):
    path = _write(tmp_path, "f0,f1,class\n0.5,1,a\nNA,2,b\n0.50,3,a\n0.7,4,b\n")
    for na in ("NA", ["NA", 0.5], ("NA", "0.5")):
        X, _ = load_data(path, na_values=na)
        data, target = read_small(path, na_values=na)
        assert target == "class"
        np.testing.assert_array_equal(data.values[:, 0], X["f0"].to_numpy(dtype=float))


def test_dataframe_text_column_one_string_marker():
    frame = pd.DataFrame({"a": ["1", "NA", "2", "3"], "c": ["x", "y", "x", "y"]})
    # "N" alone is the marker: "NA" stays text, so the column mixes numbers and text
    with pytest.raises(ValueError, match=r"the DataFrame: column 'a' mixes numbers .*'NA'"):
        load_data(frame, na_values="N")
    X, _ = load_data(frame, na_values="NA")
    np.testing.assert_array_equal(X["a"].to_numpy(), [1.0, np.nan, 2.0, 3.0])


def test_parquet_one_string_marker(tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "d.parquet"
    pd.DataFrame({"a": ["1", "NA", "2"], "c": ["x", "y", "x"]}).to_parquet(path)
    X, _ = load_data(path, na_values="NA")
    np.testing.assert_array_equal(X["a"].to_numpy(), [1.0, np.nan, 2.0])


NA_REFUSED = [
    ("bool", True, r"na_values must be a marker or a list of markers .*got bool True"),
    ("bytes", b"NA", r"na_values must be .*got bytes"),
    ("dict", {"NA": 1}, r"na_values must be .*got dict"),
    ("none-inside", ["NA", None], r"na_values must hold strings or numbers, got NoneType"),
    ("bool-inside", [True], r"na_values must hold strings or numbers, got bool"),
    ("nested-list", [["NA"]], r"na_values must hold strings or numbers, got list"),
    ("complex", 1j, r"na_values must be .*got complex"),
    ("object", object(), r"na_values must be .*got object"),
]


@pytest.mark.parametrize("na, match", [c[1:] for c in NA_REFUSED],
                         ids=[c[0] for c in NA_REFUSED])
def test_na_values_wrong_type_refused(tmp_path, na, match):
    path = _write(tmp_path)
    with pytest.raises(TypeError, match=match):
        load_data(path, na_values=na)
    with pytest.raises(TypeError, match=match):
        load_data(pd.DataFrame({"a": [1.0, 2.0, 3.0], "c": ["x", "y", "x"]}), na_values=na)
    assert read_small(path, na_values=na) is None  # load_data then says what is wrong


NAMES_REFUSED = [
    ("drop-int", "drop", 0, r"drop must be a column name or a list of column names .*got int"),
    ("drop-bool", "drop", True, r"drop must be .*got bool"),
    ("drop-bytes", "drop", b"id", r"drop must be .*got bytes"),
    ("drop-none-inside", "drop", ["id", None], r"drop must hold column names .*NoneType"),
    ("nominal-float-inside", "nominal", [1.5], r"nominal must hold column names .*float"),
    ("nominal-dict", "nominal", {"f1": True}, r"nominal must be .*got dict"),
]


@pytest.mark.parametrize("option, value, match", [c[1:] for c in NAMES_REFUSED],
                         ids=[c[0] for c in NAMES_REFUSED])
def test_name_lists_wrong_type_refused(tmp_path, option, value, match):
    with pytest.raises(TypeError, match=match):
        load_data(_write(tmp_path), **{option: value})


@pytest.mark.parametrize("drop", ["id", " id ", ["id"], ("id",), "id,", ["id", "id"]])
def test_drop_one_string_is_one_name(tmp_path, drop):
    path = _write(tmp_path, "id,f0,class\ns1,1,a\ns2,2,b\ns3,3,a\ns4,5,b\n")
    X, _ = load_data(path, drop=drop)
    assert X.columns.tolist() == ["f0"]
    data, _ = read_small(path, drop=drop)
    assert data.feature_names.tolist() == ["f0"]


def test_numbers_name_columns_with_number_headers(tmp_path):
    path = _write(tmp_path, "1,2,class\na,1,x\nb,2,y\na,4,x\n")
    X, _ = load_data(path, nominal=[2])
    assert X["2"].tolist() == ["1", "2", "4"]
