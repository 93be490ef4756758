"""Messages on input files say what is wrong with the file and the way out, naming the file
and the line (docs/design.md, 'Inputs'): trailing separators, UTF-16/UTF-32 files, an
infinite cell in a DataFrame. Oracle: the hand-written files."""

import numpy as np
import pandas as pd
import pytest

from rankfusion.io import load_data, read_lists

TRAILING = [
    # (id, text, kwargs, regex)
    ("comma-every-line", "f0,f1,class,\n1,2,a,\n2,3,b,\n3,4,a,\n", {},
     r"d\.csv: every line ends with ',', which makes an empty last column \(column 4.*"
     r"remove the trailing ','"),
    ("comma-every-line-spaces", "f0,class, \n1,a, \n2,b,\n", {},
     r"every line ends with ','.*remove the trailing"),
    ("semicolon-every-line", "f0;class;\n1;a;\n2;b;\n", {"sep": ";"},
     r"every line ends with ';'.*remove the trailing ';'"),
    ("tab-every-line", "f0\tclass\t\n1\ta\t\n2\tb\t\n", {"sep": "tab"},
     r"every line ends with tab"),
    ("data-lines-only", "f0,f1,class\n1,2,a,\n2,3,b,\n", {},
     r"d\.csv: every data line ends with ',' \(line 2: 4 cells, the last empty, but the "
     r"header \(line 1\) has 3\); remove the trailing ','"),
    ("header-only", "f0,f1,class,\n1,2,a\n2,3,b\n", {},
     r"d\.csv, line 1: the header ends with ',', which names an empty column 4"),
]


@pytest.mark.parametrize("text, kwargs, match", [c[1:] for c in TRAILING],
                         ids=[c[0] for c in TRAILING])
def test_trailing_separators_named(tmp_path, text, kwargs, match):
    path = tmp_path / "d.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=match):
        load_data(path, **kwargs)


def test_trailing_empty_cells_on_some_lines_are_missing_values(tmp_path):
    # not every line: an ordinary empty (missing) cell of the last feature
    path = tmp_path / "d.csv"
    path.write_text("f0,f1,class\n1,2,a\n2,,b\n3,4,a\n")
    X, y = load_data(path, target="class")
    np.testing.assert_array_equal(X["f1"].to_numpy(), [2.0, np.nan, 4.0])


TEXT = "f0,class\n1,a\n2,b\n3,a\n"
ENCODED = [
    # (id, bytes, regex, the codec the message names)
    ("utf16-bom", TEXT.encode("utf-16"), r"d\.csv: UTF-16 text \(it starts with a UTF-16 "
     r"byte-order mark\), not utf-8 text.*--encoding utf-16", "utf-16"),
    ("utf16-le-no-bom", TEXT.encode("utf-16-le"), r"UTF-16 text without a byte-order mark.*"
     r"--encoding utf-16-le", "utf-16-le"),
    ("utf16-be-no-bom", TEXT.encode("utf-16-be"), r"--encoding utf-16-be", "utf-16-be"),
    ("utf16-be-bom", b"\xfe\xff" + TEXT.encode("utf-16-be"), r"--encoding utf-16\b", "utf-16"),
    ("utf32-bom", TEXT.encode("utf-32"), r"UTF-32 text.*--encoding utf-32", "utf-32"),
]


@pytest.mark.parametrize("data, match, codec", [c[1:] for c in ENCODED],
                         ids=[c[0] for c in ENCODED])
def test_utf16_files_named_with_the_codec_that_reads_them(tmp_path, data, match, codec):
    path = tmp_path / "d.csv"
    path.write_bytes(data)
    for enc in ("utf-8", "latin-1"):  # latin-1 would "read" the bytes wrongly: refused too
        with pytest.raises(ValueError, match=match.replace("utf-8", enc)):
            load_data(path, encoding=enc)
    with pytest.raises(ValueError, match=match):
        read_lists(path)
    _, y = load_data(path, encoding=codec)  # the advice works
    assert y.tolist() == ["a", "b", "a"]


def test_encoding_of_wrong_type():
    with pytest.raises(TypeError, match=r"encoding must be a codec name"):
        load_data(__file__, encoding=None, format="csv")


def test_dataframe_infinite_feature_names_column_and_row():
    frame = pd.DataFrame({"a": [1.0, np.inf, 2.0], "c": ["x", "y", "x"]}, index=[10, 11, 12])
    with pytest.raises(ValueError, match=r"the DataFrame, row 11: column 'a' holds inf"):
        load_data(frame)
