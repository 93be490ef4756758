"""Hostile data files through rankfusion.io.load_data (docs/design.md, 'Inputs').

Each case states the exact outcome: the values the user meant, or an error whose message names
the file, the place (column, file line) and the fix. Oracles: the hand-written files themselves.
"""

import gzip
import io
import math
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from rankfusion.io import DEFAULT_NA_VALUES, InputWarning, load_data, read_arff

GOOD = "f0,f1,class\n1.5,2,a\n2.5,3,b\n3.5,4,a\n4.5,5,b\n"


def _write(tmp_path, text, name="d.csv", encoding="utf-8"):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding=encoding)
    return path


# --------------------------------------------------------------------------- refused files
REFUSED = [
    # (id, file text, load_data kwargs, regex the message must match)
    ("typo-in-number", "f0,f1,class\n0.5,1,a\n0.5x,2,b\n0.7,3,a\n",
     {}, r"d\.csv: column 'f0' mixes numbers \(line 2: '0\.5'\) and text \(line 3: '0\.5x'\)"),
    ("R-NA-in-numbers", "f0,f1,class\n0.5,1,a\nNA,2,b\n0.7,3,a\n",
     {}, r"column 'f0'.*line 3: 'NA'.*--na-values 'NA'"),
    ("True-among-numbers", "f0,class\n1.0,a\nTrue,b\n2.0,a\n",
     {}, r"column 'f0'.*line 3: 'True'"),
    ("N/A-marker", "f0,class\n1.0,a\n2.0,b\nN/A,a\n", {}, r"line 4: 'N/A'.*--na-values 'N/A'"),
    ("None-marker", "f0,class\n1.0,a\nNone,b\n2.0,a\n", {}, r"line 3: 'None'"),
    ("null-marker", "f0,class\nnull,a\n1.0,b\n2.0,a\n", {}, r"line 2: 'null'"),
    ("dash-marker", "f0,class\n1.0,a\n-,b\n2.0,a\n", {}, r"line 3: '-'"),
    ("decimal-comma", "f0,class\n1.0,a\n\"2,5\",b\n3.0,a\n", {}, r"line 3: '2,5'"),
    ("thousands-underscore", "f0,class\n1_000,a\n2,b\n3,a\n", {},
     r"column 'f0' mixes numbers \(line 3: '2'\) and text \(line 2: '1_000'\)"),
    ("hex-number", "f0,class\n0x10,a\n2,b\n3,a\n", {}, r"line 2: '0x10'"),
    ("unit-suffix", "f0,class\n5kg,a\n2,b\n3,a\n", {}, r"line 2: '5kg'"),
    ("bad-cell-last-row", "f0,class\n1,a\n2,b\n3,a\n4,b\n5,a\nfive,b\n", {}, r"line 7: 'five'"),
    ("bad-cell-in-middle-column", "f0,f1,f2,class\n1,2,3,a\n1,two,3,b\n1,2,3,a\n", {},
     r"column 'f1'.*line 3: 'two'"),
    ("infinity", "f0,class\n1.0,a\ninf,b\n2.0,a\n", {},
     r"column 'f0', line 3: 'inf' is not a finite"),
    ("minus-Infinity", "f0,class\n1.0,a\n-Infinity,b\n2.0,a\n", {}, r"'-Infinity' is not a finite"),
    ("overflowing-number", "f0,class\n1.0,a\n1e400,b\n2.0,a\n", {},
     r"line 3: '1e400' is not a finite"),
    ("NA-not-declared-among-several", "f0,class\n1,a\n?,b\nNA,a\n", {}, r"line 4: 'NA'"),
    ("na-values-replace-default", "f0,class\n1,a\n?,b\nNA,a\n", {"na_values": ["NA"]},
     r"line 3: '\?'"),
    ("unnamed-index-column", ",f0,class\n0,1.0,a\n1,2.0,b\n2,3.0,a\n", {},
     r"column 'Unnamed: 0' has no name.*--drop 'Unnamed: 0'"),
    ("pandas-index-rewritten", "Unnamed: 0,f0,class\n0,1.0,a\n1,2.0,b\n2,3.0,a\n", {},
     r"'Unnamed: 0'.*--drop 'Unnamed: 0'"),
    ("unnamed-middle-column", "f0,,class\n1,2,a\n2,3,b\n3,4,a\n", {}, r"'Unnamed: 1'"),
    ("sample-ids", "id,f0,class\ns1,1,a\ns2,2,b\ns3,3,a\ns4,4,b\n", {},
     r"column 'id' is text with a different value in every row.*--drop 'id'"),
    ("patient-names-last-feature", "f0,name,class\n1,ann,a\n2,bob,b\n3,cy,a\n", {},
     r"column 'name' is text with a different value in every row"),
    ("duplicate-header", "f0,f0,class\n1,2,a\n2,3,b\n3,4,a\n", {},
     r"the column name 'f0' appears twice in the header \(columns 1 and 2\)"),
    ("duplicate-header-with-spaces", "f0, f0,class\n1,2,a\n2,3,b\n3,4,a\n", {},
     r"'f0' appears twice"),
    ("duplicate-target-name", "class,f0,class\na,1,a\nb,2,b\na,3,a\n", {},
     r"'class' appears twice"),
    ("short-row", "f0,f1,class\n1,2,a\n2,b\n3,4,a\n", {}, r"line 3: 2 cells but the header"),
    ("long-row", "f0,f1,class\n1,2,a\n2,3,b,extra\n3,4,a\n", {}, r"line 3: 4 cells"),
    ("semicolons", "f0;f1;class\n1;2;a\n2;3;b\n", {}, r"semicolon-separated file\? pass --sep ';'"),
    ("tabs-in-csv", "f0\tf1\tclass\n1\t2\ta\n", {}, r"--sep tab"),
    ("semicolons-with-decimal-commas", "f0;class\n1,5;a\n2,5;b\n", {}, r"--sep ';'"),
    ("decimal-commas-with-sep", "f0;class\n1,5;a\n2,5;b\n3,25;a\n", {"sep": ";"},
     r"column 'f0' holds numbers with a decimal comma \(line 2: '1,5'\)"),
    ("only-a-header", "f0,class\n", {}, r"d\.csv: a header row but no data rows"),
    ("one-column", "class\na\nb\n", {}, r"need a target and at least one feature; got 1"),
    ("empty-file", "", {}, r"d\.csv: the file is empty"),
    ("blank-lines-only", "\n\n  \n", {}, r"the file is empty"),
    ("unterminated-quote", "f0,class\n\"1,a\n2,b\n", {}, r"d\.csv"),
    ("drop-unknown", GOOD, {"drop": ["nope"]}, r"drop: no column 'nope'; columns: f0, f1, class"),
    ("drop-target", GOOD, {"drop": "class"}, r"drop: 'class' is the target column"),
    ("drop-everything", GOOD, {"drop": "f0,f1"}, r"no feature column is left"),
    ("nominal-unknown", GOOD, {"nominal": ["zz"]}, r"nominal: no column 'zz'"),
    ("target-missing", GOOD, {"target": "label"}, r"target column 'label' not found"),
    ("target-index", GOOD, {"target": 7}, r"target index 7 is out of range"),
    ("bad-sep-option", GOOD, {"sep": ";;"}, r"sep must be one character"),
    ("bad-encoding-option", GOOD, {"encoding": "no-such-codec"}, r"unknown encoding"),
    ("bad-format-option", GOOD, {"format": "xlsx"}, r"format must be"),
    ("mixed-target", "f0,class\n1,1\n2,2\n3,x\n", {}, r"column 'class' mixes numbers"),
    # invisible characters in names and labels (docs/design.md, 'Inputs')
    ("zero-width-label", "f0,class\n1,a\n2,b\u200b\n3,a\n4,b\n", {},
     r"d\.csv, line 3: the class label \(column 'class'\) 'b\\u200b' holds the invisible "
     r"character U\+200B \(ZERO WIDTH SPACE\)"),
    ("word-joiner-header", "f\u20600,class\n1,a\n2,b\n", {},
     r"line 1: the name of column 1, 'f\\u20600' holds the invisible character U\+2060"),
    ("bom-inside-header", "f0,\ufeffclass\n1,a\n2,b\n", {},
     r"the name of column 2, .*U\+FEFF"),
    ("zero-width-joiner-label", "f0,class\n1,a\u200db\n2,c\n3,c\n", {},
     r"line 2: the class label .*U\+200D \(ZERO WIDTH JOINER\)"),
    ("headers-alike-in-nfc", "caf\u00e9,cafe\u0301,class\n1,2,a\n2,3,b\n", {},
     r"the column name 'café' appears twice .*Unicode form NFC: 'caf\\xe9' and "
     r"'cafe\\u0301'"),
    ("svmlight-as-csv", "1 1:0.5 3:2\n-1 2:1\n", {},
     r"line 1: '1 1:0.5 3:2' is an svmlight/libsvm line .*pass format='svmlight'"),
    ("svmlight-as-csv-after-comment", "# made by x\n\n+1 qid:2 4:1\n", {},
     r"line 3: .* is an svmlight/libsvm line"),
    ("zero-based-on-csv", GOOD, {"zero_based": True}, r"zero_based applies to svmlight files"),
    ("n-features-on-csv", GOOD, {"n_features": 3}, r"n_features applies to svmlight files"),
]


@pytest.mark.parametrize("text, kwargs, match", [c[1:] for c in REFUSED],
                         ids=[c[0] for c in REFUSED])
def test_refused_with_a_message_naming_the_problem(tmp_path, text, kwargs, match):
    path = _write(tmp_path, text)
    before = path.read_bytes()
    with pytest.raises(ValueError, match=match):
        load_data(path, **kwargs)
    assert path.read_bytes() == before


# --------------------------------------------------------------------------- read as meant
def test_na_values_declared_reads_missing(tmp_path):
    # a declared marker becomes NaN in a numeric column, only where the cell is the marker;
    # it replaces the default markers ('?' is then a value, here of a nominal column) and the
    # empty cell stays missing (docs/design.md, 'Inputs', 'Missing values')
    text = "f0,f1,f2,class\n0.5,-999,x,a\nNA,2,?,b\n0.7,-999.0,y,a\n,4,x,b\n"
    X, y = load_data(_write(tmp_path, text), na_values=["NA", "-999"])
    assert X.columns.tolist() == ["f0", "f1", "f2"]
    np.testing.assert_array_equal(X["f0"].to_numpy(), [0.5, np.nan, 0.7, np.nan])
    np.testing.assert_array_equal(X["f1"].to_numpy(), [np.nan, 2.0, np.nan, 4.0])
    assert X["f2"].tolist() == ["x", "?", "y", "x"]
    assert y.tolist() == ["a", "b", "a", "b"]
    # without the declaration the same file is refused at the marker, naming column and line
    with pytest.raises(ValueError, match=r"d\.csv: column 'f0' mixes numbers .*line 3: 'NA'"):
        load_data(_write(tmp_path, text))


ACCEPTED = [
    # (id, text, kwargs, expected X as {column: list}, expected y list)
    ("R-NA-declared", "f0,class\n0.5,a\nNA,b\n0.7,a\n", {"na_values": ["NA"]},
     {"f0": [0.5, math.nan, 0.7]}, ["a", "b", "a"]),
    ("default-markers", "f0,f1,class\n?,1,a\n,2,b\nNaN,3,a\nnan,4,b\n", {},
     {"f0": [math.nan] * 4, "f1": [1, 2, 3, 4]}, ["a", "b", "a", "b"]),
    ("NA-as-region-value", "region,f0,class\nNA,1,a\nEU,2,b\nNA,3,a\n", {},
     {"region": ["NA", "EU", "NA"], "f0": [1, 2, 3]}, ["a", "b", "a"]),
    ("custom-marker-minus-999", "f0,class\n-999,a\n2.5,b\n3,a\n", {"na_values": ["-999"]},
     {"f0": [math.nan, 2.5, 3.0]}, ["a", "b", "a"]),
    ("blood-groups-declared-nominal", "group,f0,class\n0,1,a\nA,2,b\nB,3,a\nAB,4,b\n0,5,a\n",
     {"nominal": "group"}, {"group": ["0", "A", "B", "AB", "0"], "f0": [1, 2, 3, 4, 5]},
     ["a", "b", "a", "b", "a"]),
    ("numeric-codes-declared-nominal", "code,class\n1,a\n2,b\n1,a\n", {"nominal": ["code"]},
     {"code": ["1", "2", "1"]}, ["a", "b", "a"]),
    ("spaces-around-numbers", "f0,class\n 1.5 ,a\n2.5\t,b\n", {}, {"f0": [1.5, 2.5]}, ["a", "b"]),
    ("scientific-and-signs", "f0,class\n1e-3,a\n-2.5E+2,b\n+.5,a\n", {},
     {"f0": [0.001, -250.0, 0.5]}, ["a", "b", "a"]),
    ("ids-dropped", "id,f0,class\ns1,1,a\ns2,2,b\ns3,3,a\n", {"drop": "id"}, {"f0": [1, 2, 3]},
     ["a", "b", "a"]),
    ("unnamed-dropped", ",f0,class\n0,1,a\n1,2,b\n2,3,a\n", {"drop": ["Unnamed: 0"]},
     {"f0": [1, 2, 3]}, ["a", "b", "a"]),
    ("semicolon-with-sep", "f0;class\n1.5;a\n2;b\n", {"sep": ";"}, {"f0": [1.5, 2.0]},
     ["a", "b"]),
    ("decimal-comma-declared-nominal", "f0;class\n1,5;a\n2,5;b\n", {"sep": ";", "nominal": "f0"},
     {"f0": ["1,5", "2,5"]}, ["a", "b"]),
    ("tab-sep-word", "f0\tclass\n1\ta\n2\tb\n", {"sep": "tab"}, {"f0": [1, 2]}, ["a", "b"]),
    ("quoted-comma-in-label", "f0,class\n1,\"x, y\"\n2,z\n3,\"x, y\"\n", {}, {"f0": [1, 2, 3]},
     ["x, y", "z", "x, y"]),
    ("bom", "\ufefff0,class\n1,a\n2,b\n", {}, {"f0": [1, 2]}, ["a", "b"]),
    ("crlf-lines", "f0,class\r\n1,a\r\n2,b\r\n", {}, {"f0": [1, 2]}, ["a", "b"]),
    ("blank-line-inside", "f0,class\n1,a\n\n2,b\n", {}, {"f0": [1, 2]}, ["a", "b"]),
    ("all-missing-column", "f0,f1,class\n?,1,a\n?,2,b\n", {}, {"f0": [math.nan, math.nan],
                                                               "f1": [1, 2]}, ["a", "b"]),
    ("target-by-position", "class,f0\na,1\nb,2\n", {"target": 0}, {"f0": [1, 2]}, ["a", "b"]),
    ("integer-target", "f0,class\n1.5,0\n2.5,1\n", {}, {"f0": [1.5, 2.5]}, [0, 1]),
]


@pytest.mark.parametrize("text, kwargs, X_expected, y_expected", [c[1:] for c in ACCEPTED],
                         ids=[c[0] for c in ACCEPTED])
def test_read_as_meant(tmp_path, text, kwargs, X_expected, y_expected):
    path = _write(tmp_path, text)
    X, y = load_data(path, **kwargs)
    assert list(X.columns) == list(X_expected)
    for col, want in X_expected.items():
        got = X[col].tolist()
        assert len(got) == len(want)
        for g, w in zip(got, want):
            if isinstance(w, float) and math.isnan(w):
                assert isinstance(g, float) and math.isnan(g)
            else:
                assert g == w and type(g) is not str or isinstance(w, str), (col, got, want)
    assert y.tolist() == y_expected


def test_numeric_and_nominal_dtypes(tmp_path):
    X, _ = load_data(_write(tmp_path, "i,f,m,t,class\n1,1.5,1,x,a\n2,2.5,?,y,b\n3,3,2,x,a\n"))
    assert X["i"].dtype == np.int64  # integers, none missing
    assert X["f"].dtype == np.float64 and X["m"].dtype == np.float64  # a missing value: float
    assert not pd.api.types.is_numeric_dtype(X["t"]) and X["t"].tolist() == ["x", "y", "x"]


def test_default_missing_markers_are_documented():
    assert DEFAULT_NA_VALUES == ("?", "", "NaN", "nan")


# --------------------------------------------------------------------------- class labels
def test_labels_differing_by_spaces_are_one_class_with_a_warning(tmp_path):
    path = _write(tmp_path, "f0,class\n1,a\n2, a\n3,a \n4,b\n")
    with pytest.warns(InputWarning, match=r"surrounding spaces.*' a', 'a', 'a ' → 'a'"):
        X, y = load_data(path)
    assert y.tolist() == ["a", "a", "a", "b"]


def test_labels_differing_by_case_warn_and_stay_apart(tmp_path):
    path = _write(tmp_path, "f0,class\n1,tumor\n2,Tumor\n3,normal\n4,normal\n")
    with pytest.warns(InputWarning, match=r"'Tumor' and 'tumor' differ only by case"):
        _, y = load_data(path)
    assert sorted(set(y)) == ["Tumor", "normal", "tumor"]


def test_labels_alike_in_nfc_are_one_class_with_a_warning(tmp_path):
    nfc, nfd = "caf\u00e9", "cafe\u0301"  # print alike: composed é, e + combining acute
    path = _write(tmp_path, f"f0,class\n1,{nfc}\n2,{nfd}\n3,tea\n4,tea\n5,{nfd}\n")
    with pytest.warns(InputWarning, match=r"Unicode form.*column 'class': 'cafe\\u0301' and "
                      r"'caf\\xe9' → 'café'"):
        _, y = load_data(path)
    assert y.tolist() == [nfc, nfc, "tea", "tea", nfc]
    # one spelling only: normalised without a warning; the target named in either form
    path = _write(tmp_path, f"f0,{nfd}\n1,{nfd}\n2,tea\n3,{nfd}\n4,tea\n", name="one.csv")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        X, y = load_data(path, target=nfd)
    assert y.name == nfc and set(y) == {nfc, "tea"}


def test_arff_names_and_values_in_nfc(tmp_path):
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    text = (f"@relation r\n@attribute {nfd} numeric\n@attribute c {{{nfc},b}}\n@data\n"
            f"1,{nfd}\n2,b\n3,{nfc}\n")
    X, y = load_data(_write(tmp_path, text, name="d.arff"))
    assert list(X.columns) == [nfc] and y.tolist() == [nfc, "b", nfc]
    with pytest.raises(ValueError, match=r"line 3: a value of attribute 'c', 'x\\u200b' holds"):
        load_data(_write(tmp_path, text.replace("b}", "x\u200b}"), name="z.arff"))
    with pytest.raises(ValueError, match=r"line 2: the attribute name .*U\+200C"):
        load_data(_write(tmp_path, text.replace(nfd, "a\u200cb", 1), name="n.arff"),
                  sparse=True)


def test_dataframe_names_and_labels_in_nfc():
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    df = pd.DataFrame({nfd: [1.0, 2.0, 3.0, 4.0], "c": [nfc, nfd, "t", "t"]})
    copy = df.copy()
    with pytest.warns(InputWarning, match=r"'cafe\\u0301' and 'caf\\xe9' → 'café'"):
        X, y = load_data(df)
    assert list(X.columns) == [nfc] and y.tolist() == [nfc, nfc, "t", "t"]
    pd.testing.assert_frame_equal(df, copy)  # the caller's frame unchanged
    with pytest.warns(InputWarning, match="Unicode form"):
        _, y = load_data(df.assign(c=pd.Categorical(df["c"])))
    assert list(y.cat.categories) == [nfc, "t"] and y.tolist() == [nfc, nfc, "t", "t"]
    with pytest.raises(ValueError, match=r"the name of column 1, 'a\\u200b' holds .*rename"):
        load_data(df.rename(columns={nfd: "a\u200b"}))
    with pytest.raises(ValueError, match=r"row 1: the class label .*U\+FEFF"):
        load_data(df.assign(c=["t", "t\ufeff", "u", "u"]))


def test_dataframe_labels_with_spaces_warn_and_are_not_changed():
    df = pd.DataFrame({"f0": [1.0, 2.0, 3.0, 4.0], "class": ["a", " a", "a ", "b"]})
    with pytest.warns(InputWarning, match=r"' a' and 'a' and 'a '"):
        _, y = load_data(df)
    assert y.tolist() == ["a", " a", "a ", "b"]


def test_clean_labels_give_no_warning(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_data(_write(tmp_path, GOOD))


# --------------------------------------------------------------------------- encodings, stdin
def test_latin1_file_names_the_file_and_the_fix(tmp_path):
    path = _write(tmp_path, "f0,class\n1,caf\xe9\n2,th\xe9\n", encoding="latin-1")
    with pytest.raises(ValueError, match=r"d\.csv: not utf-8 text \(byte 0xe9 on line 2\); .*"
                                         r"--encoding latin-1"):
        load_data(path)
    _, y = load_data(path, encoding="latin-1")
    assert y.tolist() == ["café", "thé"]


def test_gzip_csv_and_stdin_read_once(tmp_path, monkeypatch):
    gz = tmp_path / "d.csv.gz"
    gz.write_bytes(gzip.compress(GOOD.encode()))
    X, y = load_data(gz)
    assert X["f0"].tolist() == [1.5, 2.5, 3.5, 4.5]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(GOOD.encode())))
    X2, y2 = load_data("-")
    pd.testing.assert_frame_equal(X, X2)
    assert y2.tolist() == y.tolist()


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file"):
        load_data(tmp_path / "nope.csv")
    with pytest.raises(IsADirectoryError, match="is a directory"):
        load_data(tmp_path)


def test_unknown_ending_is_sniffed(tmp_path):
    arff = _write(tmp_path, "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n"
                            "1,x\n2,y\n", name="data.txt.weka")
    X, y = load_data(arff)
    assert X["a"].tolist() == [1.0, 2.0] and y.tolist() == ["x", "y"]


# --------------------------------------------------------------------------- ARFF
ARFF_HEAD = "@relation r\n@attribute a numeric\n@attribute b numeric\n@attribute c {x,y}\n@data\n"

ARFF_REFUSED = [
    ("sparse-index-twice", "@relation r\n@attribute a numeric\n@attribute b numeric\n"
     "@attribute c {x,y}\n@data\n{1 2, 2 x}\n{0 1, 0 2, 2 y}\n",
     r"line 7: the sparse row gives attribute 0 \('a'\) twice"),
    ("sparse-index-twice-spaced", "@relation r\n@attribute a numeric\n@attribute c {x,y}\n"
     "@data\n{0 1,1 x}\n{ 1 y , 0 3, 1 x }\n",
     r"line 6: the sparse row gives attribute 1 \('c'\) twice"),
    ("empty-data-section", "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n",
     r"d\.arff, line 4: the @data section has no data rows"),
    ("empty-data-only-comments", "@relation r\n@attribute a numeric\n@attribute c {x,y}\n"
     "@DATA\n% none yet\n\n", r"d\.arff, line 4: the @data section has no data rows"),
    ("inf-in-numeric", "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n"
     "1,x\ninf,y\n", r"d\.arff, line 6: attribute 'a' has the value inf, not a finite"),
    ("minus-infinity-sparse", "@relation r\n@attribute a numeric\n@attribute c {x,y}\n"
     "@data\n{0 1, 1 x}\n{0 -Infinity, 1 y}\n",
     r"d\.arff, line 6: attribute 'a' has the value -inf, not a finite"),
    ("sparse-index-past-last", ARFF_HEAD + "{0 1, 3 5}\n",
     r"line 6: sparse index 3 is past the last attribute \(the header declares 3: 0…2\)"),
    ("sparse-index-negative", ARFF_HEAD + "{-1 5, 2 x}\n",
     r"line 6: sparse index '-1' is not an attribute number 0…2"),
    ("sparse-index-not-number", ARFF_HEAD + "{a 5}\n", r"sparse index 'a'"),
    ("numeric-with-text", ARFF_HEAD + "1,2,x\n1,oops,y\n",
     r"line 7: attribute 'b' is numeric but has the value 'oops'"),
    ("undeclared-nominal", ARFF_HEAD + "1,2,z\n", r"line 6: value 'z' of attribute 'c'"),
    ("duplicate-attribute", "@relation r\n@attribute a numeric\n@attribute a numeric\n"
                            "@attribute c {x,y}\n@data\n1,2,x\n",
     r"attribute name 'a' is declared twice"),
    ("string-attribute", "@relation r\n@attribute id string\n@attribute a numeric\n"
                         "@attribute c {x,y}\n@data\ns1,1,x\ns2,2,y\ns1,3,x\n",
     r"'id' is an ARFF string attribute.*--drop 'id'"),
    ("date-attribute", "@relation r\n@attribute when date\n@attribute a numeric\n"
                       "@attribute c {x,y}\n@data\n2020-01-01,1,x\n2020-01-02,2,y\n",
     r"'when' is an ARFF date attribute.*--drop 'when'"),
    ("wrong-cell-count", ARFF_HEAD + "1,2\n", r"line 6: 2 values but 3 attributes"),
]


@pytest.mark.parametrize("text, match", [c[1:] for c in ARFF_REFUSED],
                         ids=[c[0] for c in ARFF_REFUSED])
def test_arff_refused(tmp_path, text, match):
    path = _write(tmp_path, text, name="d.arff")
    with pytest.raises(ValueError, match=match):
        load_data(path)


def test_arff_string_attribute_dropped_on_request(tmp_path):
    path = _write(tmp_path, "@relation r\n@attribute id string\n@attribute a numeric\n"
                            "@attribute c {x,y}\n@data\ns1,1,x\ns2,2,y\n", name="d.arff")
    X, y = load_data(path, drop="id")
    assert list(X.columns) == ["a"] and y.tolist() == ["x", "y"]


def test_arff_sparse_rows_in_range(tmp_path):
    frame = read_arff(_write(tmp_path, ARFF_HEAD + "{0 1, 2 y}\n{1 7}\n", name="d.arff"))
    assert frame["a"].tolist() == [1.0, 0.0] and frame["b"].tolist() == [0.0, 7.0]
    assert frame["c"].tolist() == ["y", "x"]


# --------------------------------------------------------------------------- DataFrames
def test_dataframe_duplicate_columns_refused():
    df = pd.DataFrame([[1, 2, "a"], [2, 3, "b"]], columns=["f", "f", "class"])
    with pytest.raises(ValueError, match=r"column name 'f' twice"):
        load_data(df)


def test_dataframe_text_numbers_with_a_bad_cell_refused():
    df = pd.DataFrame({"f0": ["1.5", "NA", "2.5"], "class": ["a", "b", "a"]})
    with pytest.raises(ValueError, match=r"column 'f0' .*row 1: 'NA'"):
        load_data(df)
    X, _ = load_data(df, na_values=["NA"])
    assert X["f0"].iloc[[0, 2]].tolist() == [1.5, 2.5] and np.isnan(X["f0"].iloc[1])


def test_dataframe_ids_refused_and_not_modified():
    df = pd.DataFrame({"id": ["p1", "p2", "p3"], "f0": [1.0, 2.0, 3.0], "class": list("aba")})
    before = df.copy()
    with pytest.raises(ValueError, match=r"'id' is text with a different value"):
        load_data(df)
    X, _ = load_data(df, drop=["id"])
    assert list(X.columns) == ["f0"]
    pd.testing.assert_frame_equal(df, before)


def test_dataframe_unnamed_index_refused():
    df = pd.DataFrame({"Unnamed: 0": [0, 1, 2], "f0": [1.0, 2.0, 3.0], "class": list("aba")})
    with pytest.raises(ValueError, match=r"'Unnamed: 0' has no name"):
        load_data(df)


def test_parquet_rules_apply(tmp_path):
    df = pd.DataFrame({"f0": ["1", "2", "x"], "class": list("aba")})
    path = tmp_path / "d.parquet"
    df.to_parquet(path)
    with pytest.raises(ValueError, match=r"d\.parquet: column 'f0' mixes numbers"):
        load_data(path)
