"""Columns that are not features are refused with one message naming the file, the column
(and the line and the cell where there is one) and the way out (docs/design.md, 'Inputs',
'Identifiers' and 'Numeric vs nominal').

* A whole-number column that steps by one on every row (the row number, ``0…n-1`` or
  ``1…n``, or an id such as ``1001, 1002 …``), named or not, would be ranked first on data
  sorted by class: refused, suggesting ``--drop`` / ``drop=``.
* Numbers written with a percent sign, a unit, a currency sign or a thousands separator would
  make a nominal column with a category per value: refused, naming the cell.
* Genuine nominal columns keep working.

Oracle: the hand-written files themselves.
"""

import numpy as np
import pandas as pd
import pytest

from rankfusion.io import load_data, read_small

N = 8
CLASSES = ["a"] * 4 + ["b"] * 4  # sorted by class: a counter separates them perfectly


def _file(column_name, cells, extra="f1"):
    rows = "".join(f"{c},{(i * 3) % 5},{k}\n" for i, (c, k) in enumerate(zip(cells, CLASSES)))
    return f"{column_name},{extra},class\n" + rows


COUNTERS = [
    # (id, text, the column named, regex)
    ("row-number-from-1", _file("id", range(1, N + 1)), "id",
     r"d\.csv: column 'id' holds 1, 2, … 8 \(the row number\): a whole number increasing by "
     r"one.*--drop 'id' \(drop=\['id'\]\)"),
    ("row-number-from-0", _file("index", range(N)), "index",
     r"column 'index' holds 0, 1, … 7 \(the row number\)"),
    ("id-from-1001", _file("patient", range(1001, 1001 + N)), "patient",
     r"column 'patient' holds 1001, 1002, … 1008: a whole number increasing by one"),
    ("countdown", _file("n", range(N, 0, -1)), "n", r"column 'n' holds 8, 7, … 1.*decreasing"),
    ("float-spelled", _file("sample", [f"{i}.0" for i in range(1, N + 1)]), "sample",
     r"column 'sample' holds 1, 2, … 8"),
    ("no-header-name-pandas-index", _file("", range(N)), "Unnamed: 0",
     r"column 'Unnamed: 0' holds 0, 1, … 7 \(the row number\).*--drop 'Unnamed: 0'"),
    ("id-in-the-middle", "f0,id,class\n" + "".join(
        f"{(i * 3) % 5},{i + 1},{k}\n" for i, k in enumerate(CLASSES)), "id",
     r"column 'id' holds 1, 2, … 8"),
]


@pytest.mark.parametrize("text, column, match", [c[1:] for c in COUNTERS],
                         ids=[c[0] for c in COUNTERS])
def test_counter_columns_refused_and_droppable(tmp_path, text, column, match):
    path = tmp_path / "d.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=match):
        load_data(path)
    assert read_small(path) is None  # the small route leaves it to load_data's error
    X, y = load_data(path, drop=[column])  # the way out the message gives works
    assert column not in X.columns and X.shape == (N, 1)
    if column != "Unnamed: 0":  # a header without a name: load_data's route only
        assert read_small(path, drop=column) is not None


def test_counter_column_of_a_dataframe_refused():
    frame = pd.DataFrame({"row": np.arange(N), "f": np.arange(N) % 3 * 1.5, "c": CLASSES})
    with pytest.raises(ValueError, match=r"the DataFrame: column 'row' holds 0, 1, … 7"):
        load_data(frame)
    X, _ = load_data(frame, drop="row")
    assert X.columns.tolist() == ["f"]


NOT_COUNTERS = [
    # whole-number features that are not counters stay features
    ("steps-of-two", [2, 4, 6, 8, 10, 12, 14, 16]),
    ("one-repeat", [1, 2, 3, 4, 4, 5, 6, 7]),
    ("short-column", None),  # five rows 1…5: below the rule's minimum of rows
    ("increasing-by-fractions", ["1.5", "2.5", "3.5", "4.5", "5.5", "6.5", "7.5", "8.5"]),
    ("with-a-missing-cell", [1, 2, 3, "?", 5, 6, 7, 8]),
]


@pytest.mark.parametrize("cells", [c[1] for c in NOT_COUNTERS], ids=[c[0] for c in NOT_COUNTERS])
def test_whole_number_features_that_are_not_counters(tmp_path, cells):
    path = tmp_path / "d.csv"
    if cells is None:
        path.write_text("f0,class\n1,a\n2,a\n3,b\n4,b\n5,b\n")
    else:
        path.write_text(_file("f0", cells))
    X, _ = load_data(path)
    assert "f0" in X.columns


UNITS = [
    # (id, cells of column 'x', regex)
    ("all-percent", ["12.3%", "4%", "50 %", "7.5%", "1%", "3%", "9%", "10%"],
     r"d\.csv: column 'x', line 2: '12\.3%' is a number written with a percent sign \(every "
     r"cell of the column is written so\).*remove the percent sign.*--nominal 'x'"),
    ("some-percent-among-numbers", ["12.3", "4", "50%", "7.5", "1", "3", "9", "10"],
     r"column 'x', line 4: '50%' is a number written with a percent sign \(among plain "
     r"numbers\)"),
    ("thousands-among-numbers", ['"1,234"', "12", "5", "7", "1", "3", "9", "10"],
     r"column 'x', line 2: '1,234' is a number written with a thousands separator"),
    ("dollars", ["$5", "$12.50", "$3", "$7", "$1", "$3", "$9", "$10"],
     r"column 'x', line 2: '\$5' is a number written with a currency sign"),
    ("euro-suffix", ["5€", "3", "2", "7", "1", "3", "9", "10"],
     r"'5€' is a number written with a currency sign"),
    ("kilograms", ["3 kg", "4.5 kg", "3 kg", "2 kg", "1 kg", "7 kg", "8 kg", "9 kg"],
     r"column 'x', line 2: '3 kg' is a number written with a unit.*--nominal 'x'"),
    ("unit-without-space", ["120", "130mmHg", "110", "125", "140", "120", "135", "128"],
     r"line 3: '130mmHg' is a number written with a unit \(among plain numbers\)"),
    ("per-unit", ["3 mg/dl", "4 mg/dl", "5 mg/dl", "1 mg/dl", "2 mg/dl", "6 mg/dl",
                  "8 mg/dl", "9 mg/dl"], r"'3 mg/dl' is a number written with a unit"),
    ("negative-percent", ["-1.5%", "2%", "3%", "-4%", "5%", "6%", "7%", "8%"],
     r"'-1\.5%' is a number written with a percent sign"),
    ("percent-with-text-NA", ["12%", "NA", "7%", "3%", "n/a", "5%", "1%", "2%"],
     r"column 'x', line 2: '12%' is a number written with a percent sign \(in 6 of 8 text "
     r"cells\)"),
    ("quoted-thousands", ['"1,234"', '"2,345"', "12", "5", "7", "1", "3", "9"],
     r"'1,234' is a number written with a thousands separator"),
]


@pytest.mark.parametrize("cells, match", [c[1:] for c in UNITS], ids=[c[0] for c in UNITS])
def test_decorated_numbers_refused_naming_the_cell(tmp_path, cells, match):
    path = tmp_path / "d.csv"
    path.write_text(_file("x", cells))
    with pytest.raises(ValueError, match=match):
        load_data(path)
    assert read_small(path) is None
    X, _ = load_data(path, nominal="x")  # the way out: declared nominal, read as text
    assert X["x"].tolist()[0] == cells[0].strip('"')


NOMINAL = [
    # genuine nominal columns (no cell a decorated number) keep working
    ("blood-groups", ["0", "A", "B", "AB", "0", "A", "B", "AB"], {"nominal": "x"}),
    ("words", ["low", "high", "mid", "low", "high", "mid", "low", "high"], {}),
    ("codes", ["A1", "B2", "A1", "C3", "B2", "A1", "C3", "B2"], {}),
    ("sizes", ["S", "M", "L", "XL", "S", "M", "L", "XL"], {}),
    ("yes-no", ["yes", "no", "yes", "no", "yes", "no", "no", "yes"], {}),
    ("regions-with-NA", ["NA", "EU", "NA", "ASIA", "EU", "NA", "EU", "ASIA"], {}),
]


@pytest.mark.parametrize("cells, kwargs", [c[1:] for c in NOMINAL], ids=[c[0] for c in NOMINAL])
def test_genuine_nominal_columns_keep_working(tmp_path, cells, kwargs):
    path = tmp_path / "d.csv"
    path.write_text(_file("x", cells))
    X, y = load_data(path, **kwargs)
    assert X["x"].tolist() == cells
    assert y.tolist() == CLASSES


def test_decimal_commas_say_thousands_separator_when_ambiguous(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text(_file("x", ['"1,234"', '"2,345"', '"1,000"', '"3,500"', '"1,001"',
                                '"7,000"', '"8,000"', '"9,999"']))
    with pytest.raises(ValueError, match=r"column 'x' holds numbers with a decimal comma "
                                         r"\(or a thousands separator\) \(line 2: '1,234'\)"):
        load_data(path)
