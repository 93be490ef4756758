"""Data input: ARFF (nominal, missing, quoted names, sparse rows), CSV, Parquet, DataFrames."""

import gzip

import numpy as np
import pandas as pd
import pytest

from conftest import WEKA_DATA
from rankfusion.io import load_data, read_arff

DATA = WEKA_DATA

ARFF = """% a comment
@relation 'toy data'
@attribute 'first name' {a, 'b c', "d,e"}
@attribute num numeric
@ATTRIBUTE when date "yyyy-MM-dd"
@attribute txt string
@attribute class {yes,no} % a trailing comment

@data
a, 1.5, 2020-01-01, 'hello world', yes
'b c',?,?,?,no
"d,e", -2e3, 2021-02-02, x, yes
?, 4, 2021-02-02, 'it\\'s', no
a, 5, 2021-02-02, '50%', no % comment
"""


def test_read_arff_nominal_missing_quotes(tmp_path):
    p = tmp_path / "toy.arff"
    p.write_text(ARFF)
    f = read_arff(p)
    assert list(f.columns) == ["first name", "num", "when", "txt", "class"]
    assert f.attrs["relation"] == "toy data"
    assert list(f["first name"].cat.categories) == ["a", "b c", "d,e"]
    assert f["first name"].isna().tolist() == [False, False, False, True, False]
    np.testing.assert_array_equal(f["num"].to_numpy(), [1.5, np.nan, -2000.0, 4.0, 5.0])
    assert f["txt"].tolist() == ["hello world", None, "x", "it's", "50%"]
    assert list(f["class"].cat.categories) == ["yes", "no"]  # declared order kept


def test_read_arff_sparse_rows(tmp_path):
    p = tmp_path / "s.arff"
    p.write_text("@relation s\n@attribute a numeric\n@attribute b numeric\n"
                 "@attribute c {x,y}\n@data\n{1 3, 2 y}\n{}\n")
    f = read_arff(p)
    assert f["a"].tolist() == [0.0, 0.0] and f["b"].tolist() == [3.0, 0.0]
    assert f["c"].tolist() == ["y", "x"]


@pytest.mark.parametrize("bad,msg", [
    ("@relation r\n@attribute a numeric\n@data\n1,2\n", "values but"),
    ("@relation r\n@attribute a {x}\n@data\nz\n", "not among"),
    ("@relation r\n@attribute a numeric\n", "no @data"),
    ("@relation r\n@attribute a numeric\n@data\nfoo\n", "numeric"),
    ("@relation r\n@attribute a relational\n@data\n", "unsupported"),
])
def test_read_arff_errors(tmp_path, bad, msg):
    p = tmp_path / "bad.arff"
    p.write_text(bad)
    with pytest.raises(ValueError, match=msg):
        read_arff(p)


def test_load_weka_files_default_target_last():
    X, y = load_data(DATA / "vote.arff.gz")
    assert X.shape == (435, 16) and y.name == "Class"
    assert X.isna().sum().sum() == 392
    X, y = load_data(DATA / "lung-cancer.arff.gz", target="class")
    assert X.shape == (32, 56) and y.name == "class"
    X2, y2 = load_data(DATA / "lung-cancer.arff.gz", target=0)
    pd.testing.assert_frame_equal(X, X2)


def test_csv_and_parquet_round_trip(tmp_path):
    X, y = load_data(DATA / "labor.arff.gz")
    frame = X.assign(cls=y.astype(str))
    csv = tmp_path / "labor.csv"
    frame.to_csv(csv, index=False, na_rep="?")
    Xc, yc = load_data(csv)
    assert list(Xc.columns) == list(X.columns) and Xc.isna().sum().sum() == X.isna().sum().sum()
    pq = tmp_path / "labor.parquet"
    frame.to_parquet(pq)
    Xp, yp = load_data(pq, target="cls")
    assert Xp.shape == X.shape and (yp == yc).all()
    gz = tmp_path / "labor.arff.gz"
    gz.write_bytes((DATA / "labor.arff.gz").read_bytes())
    assert load_data(gz)[0].shape == X.shape
    assert gzip.decompress(gz.read_bytes())[:1] in (b"%", b"@")


def test_dataframe_input_is_not_modified():
    df = pd.DataFrame({"a": [1, 2], "b": ["x", "y"], "t": [0, 1]})
    before = df.copy()
    X, y = load_data(df, target="t")
    assert list(X.columns) == ["a", "b"] and y.tolist() == [0, 1]
    pd.testing.assert_frame_equal(df, before)


def test_load_data_errors(tmp_path):
    df = pd.DataFrame({"a": [1, 2], "t": [0, 1]})
    with pytest.raises(ValueError, match="not found"):
        load_data(df, target="nope")
    with pytest.raises(ValueError, match="out of range"):
        load_data(df, target=5)
    with pytest.raises(ValueError, match="at least one feature"):
        load_data(df[["t"]])
    with pytest.raises(FileNotFoundError):
        load_data(tmp_path / "missing.csv")
    (tmp_path / "x.xyz").write_text("a")  # an unknown ending is sniffed: CSV, one column
    with pytest.raises(ValueError, match="x.xyz: a header row but no data rows"):
        load_data(tmp_path / "x.xyz")
    with pytest.raises(ValueError, match="format must be"):
        load_data(tmp_path / "x.xyz", format="xls")


def test_csv_keeps_na_strings_as_values(tmp_path):
    path = tmp_path / "regions.csv"
    path.write_text("region,x,cls\nNA,1.0,a\nEU,?,b\nNA,3.0,None\nEU,nan,a\n")
    X, y = load_data(path)
    assert list(X["region"]) == ["NA", "EU", "NA", "EU"]
    assert X["x"].isna().tolist() == [False, True, False, True]
    assert list(y) == ["a", "b", "None", "a"]


def test_arff_numeric_class_is_refused_as_regression(tmp_path):
    path = tmp_path / "cpu.arff"
    path.write_text("@relation cpu\n@attribute a numeric\n@attribute class numeric\n"
                    "@data\n1,10\n2,20\n3,30\n")
    with pytest.raises(ValueError, match="regression target"):
        load_data(path)


class _CountedCopies:
    """An ``attrs`` value that counts how often pandas deep-copies it."""

    copies = 0

    def __deepcopy__(self, memo):
        type(self).copies += 1
        return self


def test_wide_frame_attrs_are_copied_a_fixed_number_of_times():
    # pandas deep-copies ``attrs`` into every column taken out of a frame; load_data looks
    # at each column, so with attrs kept on its working frame reading p columns cost p
    # copies of them (an ARFF header's type table made Golub's 7,129 columns take 47 s).
    _CountedCopies.copies = 0
    frame = pd.DataFrame(np.arange(3 * 300, dtype=float).reshape(3, 300),
                         columns=[f"f{j}" for j in range(300)])
    frame["class"] = ["a", "b", "a"]
    marker = _CountedCopies()
    frame.attrs["big"] = marker
    X, y = load_data(frame)
    assert X.shape == (3, 300)
    assert X.attrs["big"] is marker and frame.attrs["big"] is marker  # kept, caller's too
    assert _CountedCopies.copies <= 3


def test_arff_load_data_keeps_relation_not_type_table(tmp_path):
    p = tmp_path / "wide.arff"
    header = "".join(f"@attribute f{j} numeric\n" for j in range(400))
    rows = "\n".join(",".join(["1.5"] * 400 + [c]) for c in "abab")
    p.write_text(f"@relation wide\n{header}@attribute class {{a,b}}\n@data\n{rows}\n")
    X, y = load_data(p)
    assert X.shape == (4, 400) and y.tolist() == list("abab")
    assert X.attrs == {"relation": "wide"}
    assert read_arff(p).attrs["arff_types"]["f3"] == "numeric"  # read_arff keeps it
