"""Targets that are not class labels are refused, by the file reader (naming the file and
the column) and by every estimator and ranker through the shared target check
(docs/design.md, 'Validation': regression targets are out of scope).

A whole-number identifier (a different value per row), an age or another quantity with many
distinct values, non-integer numbers and dates would each make classes of one sample that
every feature separates perfectly (maximal information gain). Oracle: the hand-written files;
the legitimate many-class cases must keep their classes.
"""

import datetime

import numpy as np
import pandas as pd
import pytest

from rankfusion._utils.data import check_target
from rankfusion.cli import main
from rankfusion.io import load_data, read_small
from rankfusion.rankers.information import chi_square, info_gain

REGRESSION = r"regression is not supported"


def _csv(target_name, values, n_features=1):
    head = ",".join(f"f{j}" for j in range(n_features)) + f",{target_name}\n"
    rows = "".join(",".join(str((i * 7 + j) % 5) for j in range(n_features)) + f",{v}\n"
                   for i, v in enumerate(values))
    return head + rows


FILE_REFUSED = [
    # (id, file text, regex of the message)
    ("row-number-1-based", _csv("id", range(1, 11)),
     r"d\.csv: the target column 'id' has a different whole number in every sample .*"
     r"identifier.*" + REGRESSION),
    ("row-number-0-based", _csv("class", range(10)), r"target column 'class' .*identifier"),
    ("shuffled-ids", _csv("sample", [17, 3, 99, 42, 8, 5, 61, 70]),
     r"target column 'sample' has a different whole number"),
    ("age-with-repeats", _csv("age", [20 + (i * 7) % 41 for i in range(60)]),
     r"target column 'age' looks continuous: 41 distinct whole numbers in 60 samples.*"
     + REGRESSION),
    ("age-small-file", _csv("age", [34, 51, 29, 34, 62, 45, 38, 29, 57, 41, 66, 23]),
     r"target column 'age' looks continuous: 10 distinct whole numbers in 12 samples \(fewer "
     r"than two samples per class\)"),
    ("ids-on-four-rows", _csv("id", [1, 2, 3, 4]), r"target column 'id' has a different whole"),
    ("text-ids-on-four-rows", _csv("name", ["ann", "bob", "cid", "dan"]),
     r"target column 'name' has a different value in every row \(4 rows\)"),
    ("price-floats", _csv("price", [1.5, 2.25, 1.5, 3.0, 9.99]),
     r"target column 'price' looks continuous \(non-integer numbers, e\.g\. 1\.5\).*"
     + REGRESSION),
    ("iso-dates", _csv("date", ["2024-01-02", "2024-01-03", "2024-01-02", "2024-02-01"]),
     r"target column 'date' holds dates or times \(line 2: '2024-01-02'\)"),
    ("date-times", _csv("when", ["2024-01-02 10:00", "2024-01-02 11:30:00",
                                 "2024-01-03T09:00"]), r"target column 'when' holds dates"),
    ("day-first-dates", _csv("visit", ["01/02/2024", "03/02/2024", "01/02/2024"]),
     r"target column 'visit' holds dates"),
    ("text-ids", _csv("name", [f"patient{i}" for i in range(8)]),
     r"target column 'name' has a different value in every row \(8 rows\): an identifier"),
    ("missing-label", "f0,c\n1,a\n2,\n3,b\n4,a\n",
     r"d\.csv, line 3: the target column 'c' has no label"),
    ("missing-label-marker", "f0,c\n1,a\n2,b\n3,?\n4,a\n",
     r"d\.csv, line 4: the target column 'c' has no label"),
    ("missing-label-declared-NA", "f0,c\n1,a\n2,NA\n3,b\n",
     r"d\.csv, line 3: the target column 'c' has no label"),
]


@pytest.mark.parametrize("text, match", [c[1:] for c in FILE_REFUSED],
                         ids=[c[0] for c in FILE_REFUSED])
def test_file_target_refused(tmp_path, text, match):
    path = tmp_path / "d.csv"
    path.write_text(text)
    kwargs = {"na_values": ["NA"]} if "NA\n" in text else {}
    with pytest.raises(ValueError, match=match):
        load_data(path, **kwargs)
    assert read_small(path, **kwargs) is None  # the small route leaves it to load_data


@pytest.mark.parametrize("text", [c[1] for c in FILE_REFUSED[:5]],
                         ids=[c[0] for c in FILE_REFUSED[:5]])
def test_command_line_refuses_the_target(tmp_path, capsys, text):
    path = tmp_path / "d.csv"
    path.write_text(text)
    code = main(["rank", str(path)])
    err = capsys.readouterr().err
    assert code != 0
    assert err.startswith("rankfusion: error: ") and "d.csv: the target column" in err
    # the command's default --task auto: the task cannot be told, both choices named
    # the command line's spelling of the two choices (workflows.text.command_line_text)
    assert "--task classification" in err and "--task regression" in err


def test_arff_missing_label_and_date_target(tmp_path):
    path = tmp_path / "d.arff"
    path.write_text("@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n"
                    "1,x\n2,?\n3,y\n")
    with pytest.raises(ValueError, match=r"d\.arff, line 6: the target column 'c' has no "):
        load_data(path)
    path.write_text("@relation r\n@attribute a numeric\n@attribute t date\n@data\n"
                    "1,2024-01-01\n2,2024-01-02\n")
    with pytest.raises(ValueError, match=r"the target 't' is an ARFF date attribute"):
        load_data(path)


FRAME_REFUSED = [
    ("datetime64", pd.to_datetime(["2024-01-01", "2024-01-02", "2024-01-01"]),
     r"the DataFrame: the target column 't' holds dates or times"),
    ("date-objects", [datetime.date(2024, 1, 1), datetime.date(2024, 1, 2)] * 2,
     r"the target column 't' holds dates or times"),
    ("timedelta", pd.to_timedelta([1, 2, 1], unit="D"), r"holds dates or times"),
    ("int-ids", np.arange(100, 108), r"the target column 't' has a different whole number"),
    ("float-whole-ids", np.arange(8) * 1.0, r"has a different whole number in every sample"),
    ("floats", [0.1, 0.2, 0.1, 0.4], r"looks continuous \(non-integer numbers"),
    ("missing-None", ["a", None, "b", "a"],
     r"the DataFrame, row 1: the target column 't' has no label"),
    ("all-missing", [np.nan] * 4, r"the target column 't' is empty on every line"),
]


@pytest.mark.parametrize("y, match", [c[1:] for c in FRAME_REFUSED],
                         ids=[c[0] for c in FRAME_REFUSED])
def test_dataframe_target_refused(y, match):
    n = len(y)
    frame = pd.DataFrame({"a": np.arange(n) * 0.5 % 1.3, "t": y})
    with pytest.raises(ValueError, match=match):
        load_data(frame)


ESTIMATOR_REFUSED = [
    ("int-ids", np.arange(10), r"y has a different whole number in every sample"),
    ("ids-from-1", np.arange(1, 11), r"different whole number"),
    ("many-ints", np.array([(i * 7) % 41 for i in range(60)]), r"y looks continuous: 41"),
    ("floats", np.linspace(0, 1, 10), r"y looks continuous \(non-integer"),
    ("datetime64", np.array(["2024-01-01", "2024-01-02"] * 5, dtype="datetime64[D]"),
     r"y holds dates or times"),
    ("object-ints", np.array(list(range(10)), dtype=object), r"different whole number"),
]


@pytest.mark.parametrize("y, match", [c[1:] for c in ESTIMATOR_REFUSED],
                         ids=[c[0] for c in ESTIMATOR_REFUSED])
def test_rankers_and_check_target_refuse(y, match):
    n = y.shape[0]
    X = np.column_stack([np.arange(n) % 3, np.arange(n) % 2]).astype(float)
    with pytest.raises(ValueError, match=match):
        check_target(y)
    with pytest.raises(ValueError, match=match + r".*" + REGRESSION):
        info_gain(X, y)
    with pytest.raises(ValueError, match=REGRESSION):
        chi_square(X, y)


def test_ensemble_selector_refuses_an_id_target():
    from rankfusion import EnsembleSelector

    X = np.column_stack([np.arange(12) % 3, np.arange(12) % 2]).astype(float)
    with pytest.raises(ValueError, match="whole number in every sample.*task=.regression."):
        EnsembleSelector().fit(X, np.arange(12))


LEGIT = [
    # (id, labels): real classes, however many or small, stay classes
    ("ten-classes-two-each", np.repeat(np.arange(10), 2)),
    ("twenty-classes", np.repeat(np.arange(20), 3)),
    ("three-tiny-samples-one-each", np.arange(3)),  # below the identifier thresholds
    ("float-whole-classes", np.array([0.0, 1.0, 2.0, 0.0, 1.0, 2.0])),
    ("negative-codes", np.array([-1, 1, -1, 1, -1, 1])),
    ("text-one-each-small", np.array(["a", "b", "c"])),
    ("text-many-classes", np.array([f"c{i % 26}" for i in range(52)])),
]


@pytest.mark.parametrize("y", [c[1] for c in LEGIT], ids=[c[0] for c in LEGIT])
def test_legitimate_many_small_classes_keep_working(y):
    codes, classes = check_target(y)
    assert classes.shape[0] == np.unique(y).shape[0]
    frame = pd.DataFrame({"a": np.arange(y.shape[0]) % 4 * 1.5, "t": y})
    _, got = load_data(frame)
    assert got.tolist() == y.tolist()


def test_many_small_classes_pass_estimators_but_not_files():
    # 17 classes in 25 samples (stratified sampling on purpose) is an estimator's legitimate
    # input; the same whole numbers as a file's target look like a quantity (an age)
    y = np.repeat(np.arange(17), [1 if c % 2 == 0 else 2 for c in range(17)])
    assert check_target(y)[1].shape[0] == 17
    with pytest.raises(ValueError, match=r"the DataFrame: the target column 't' looks "
                                         r"continuous: 17 distinct .*fewer than two samples"):
        load_data(pd.DataFrame({"a": np.arange(25) % 4 * 0.5, "t": y}))


def test_five_samples_one_each_pass_estimators_but_not_files(tmp_path):
    # arrays keep the estimators' threshold (6 samples); a file's author never means a class
    # per row, from 4 rows on
    y = np.arange(5)
    check_target(y)
    with pytest.raises(ValueError, match=r"the DataFrame: the target column 't' has a "
                                         r"different whole number"):
        load_data(pd.DataFrame({"a": [0.5, 1.0, 0.5, 2.0, 1.0], "t": y}))


def test_text_labels_differing_by_spaces_are_not_an_identifier():
    # ' a', 'a ' and 'a' are spellings of one label (warned about), not one value per row
    frame = pd.DataFrame({"f0": [1.0, 2.0, 3.0, 4.0], "c": ["a", " a", "a ", "b"]})
    with pytest.warns(UserWarning):
        _, y = load_data(frame)
    assert y.tolist() == ["a", " a", "a ", "b"]


def test_legitimate_file_many_classes(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text(_csv("digit", [i % 10 for i in range(30)]))
    _, y = load_data(path)
    assert sorted(set(y)) == list(range(10))
