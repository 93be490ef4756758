"""``load_data(task=…)``: a numeric target read as floats, never guessed into classes
(docs/design.md, 'Tasks' and 'Inputs'); the bundled regression sets through ``load`` and
``load_data``. Oracles: the values written to the file, scikit-learn's diabetes data, the
historical default (``task=None``) unchanged. Each input surface has a hostile-input table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_diabetes

from rankfusion.datasets import load
from rankfusion.io import load_data


def _csv(tmp_path, target, name="y", n=None):
    n = len(target) if n is None else n
    rows = ["a,b," + name] + [f"{(i * 3) % 7 + 0.5},{(i * 7) % 5},{v}"
                              for i, v in enumerate(target)]
    path = tmp_path / "d.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


FLOATS = [0.5, 1.25, 2.0, 3.75, 4.5, 5.0, 6.125, 7.5]


@pytest.mark.parametrize("task", ["auto", "regression"])
def test_numeric_target_is_a_float_series(tmp_path, task):
    X, y = load_data(_csv(tmp_path, FLOATS), task=task)
    assert y.dtype == np.float64 and y.name == "y"
    np.testing.assert_array_equal(y.to_numpy(), FLOATS)
    assert list(X.columns) == ["a", "b"]


def test_default_and_classification_unchanged(tmp_path):
    path = _csv(tmp_path, ["x", "y", "x", "z", "y", "x"])
    for task in (None, "classification", "auto"):
        X, y = load_data(path, task=task)
        assert y.tolist() == ["x", "y", "x", "z", "y", "x"]
    with pytest.raises(ValueError, match=r"looks continuous \(non-integer numbers"):
        load_data(_csv(tmp_path, FLOATS))  # task=None: class labels, as always


def test_regression_target_from_whole_numbers_is_float(tmp_path):
    _, y = load_data(_csv(tmp_path, list(range(10, 40))), task="regression")
    assert y.dtype == np.float64 and y.tolist() == [float(v) for v in range(10, 40)]


def test_explicit_classification_keeps_many_whole_numbers(tmp_path):
    _, y = load_data(_csv(tmp_path, list(range(10, 40))), task="classification")
    assert y.nunique() == 30  # as asked: each value a class


def test_arff_numeric_class_under_regression_and_auto(tmp_path):
    path = tmp_path / "d.arff"
    path.write_text("@relation r\n@attribute a numeric\n@attribute t numeric\n@data\n"
                    "1,2.5\n2,3\n3,7.25\n")
    for task in ("auto", "regression"):
        _, y = load_data(path, task=task)
        assert y.tolist() == [2.5, 3.0, 7.25] and y.dtype == np.float64
    with pytest.raises(ValueError, match=r'declared numeric.*task="regression"'):
        load_data(path)


@pytest.mark.parametrize("name", ["cpu", "diabetes_lars"])
def test_bundled_regression_sets_through_load_and_load_data(name):
    b = load(name, as_frame=True)
    assert b.task == "regression" and b.target.dtype == np.float64
    X, y = load_data(b.frame, task="regression")
    pd.testing.assert_frame_equal(X, b.data)
    np.testing.assert_array_equal(y.to_numpy(), b.target.to_numpy())
    with pytest.raises(ValueError, match=r'task="classification".*task="regression"'):
        load_data(b.frame, task="auto")  # whole numbers, many values: not told, both named


def test_diabetes_lars_is_scikit_learns():
    X, y = load("diabetes_lars", return_X_y=True)
    ref = load_diabetes(scaled=False)
    np.testing.assert_allclose(X, ref.data, rtol=1e-15, atol=0)
    np.testing.assert_array_equal(y, ref.target)


def test_bundled_target_is_not_mutable_through_a_load():
    b = load("cpu")
    first = float(b.target[0])
    # pandas 2 refuses the write (the cached array is read-only); pandas 1.5 writes into a
    # copy of its own. Either way a later load must see the bundled value.
    try:
        b.target[0] = -1.0
    except ValueError as exc:
        assert "read-only" in str(exc)
    assert load("cpu").target[0] == first


def test_caller_frame_not_modified(tmp_path):
    frame = pd.DataFrame({"a": [1.0, 2.0, 3.0], "t": ["1.5", "2.5", "4.0"]})
    before = frame.copy()
    _, y = load_data(frame, task="regression")
    assert y.tolist() == [1.5, 2.5, 4.0]
    pd.testing.assert_frame_equal(frame, before)


# (id, target cells, task, exception, regex) — the mistakes a new user makes
HOSTILE = [
    # the reader refuses a numeric column with a text cell, naming both cells
    ("one-odd-cell-auto", FLOATS[:5] + ["n/a"] + FLOATS[5:], "auto", ValueError,
     r"column 'y' mixes numbers \(line 2: '0\.5'\) and text \(line 7: 'n/a'\)"),
    ("one-odd-cell-regression", FLOATS[:3] + ["12;5"] + FLOATS[3:], "regression", ValueError,
     r"column 'y' mixes numbers .* and text \(line 5: '12;5'\)"),
    ("decimal-comma-default", FLOATS[:3] + ["12;5"] + FLOATS[3:], None, ValueError,
     r"column 'y' mixes numbers"),
    ("text-labels-regression", ["a", "b", "a", "c"], "regression", ValueError,
     r"line 2: the target column 'y' holds 'a', not a number"),
    ("missing-value-regression", FLOATS[:2] + ["?"] + FLOATS[2:], "regression", ValueError,
     r"line 4: the target column 'y' has no value.*a regression target needs a number"),
    ("missing-value-auto", FLOATS[:2] + [""] + FLOATS[2:], "auto", ValueError,
     r"line 4: the target column 'y' has no label"),
    ("infinite-regression", FLOATS[:2] + ["inf"] + FLOATS[2:], "regression", ValueError,
     r"column 'y', line 4: 'inf' is not a finite number"),
    ("constant-regression", [2.5] * 6, "regression", ValueError,
     r"the target column 'y' is constant \(2\.5\): nothing to explain"),
    ("diabetes-like-auto", [(i * 37) % 97 + 25 for i in range(60)], "auto", ValueError,
     r"different whole number in every sample.*task=\"classification\" \(its values are "
     r'class labels\) or task="regression"'),
    ("age-like-auto", [(i * 7) % 41 + 20 for i in range(60)], "auto", ValueError,
     r'41 distinct whole numbers in 60 samples.*task="classification".*task="regression"'),
    ("floats-classification", FLOATS, "classification", ValueError,
     r'holds non-integer numbers .*task="classification": say task="regression"'),
    ("bool-text-regression", ["true", "false", "true", "false"], "regression", ValueError,
     r"holds 'true', not a number"),
    ("dates-regression", ["2024-01-02", "2024-01-03", "2024-01-05"], "regression",
     ValueError, r"holds '2024-01-02', not a number"),
    ("task-misspelt", FLOATS, "regresion", ValueError,
     r"task must be one of 'auto', 'classification', 'regression', got 'regresion'"),
    ("task-wrong-type", FLOATS, 1, TypeError, r"task must be one of .*got int 1"),
    ("task-uppercase", FLOATS, "Regression", ValueError, r"got 'Regression'"),
]


@pytest.mark.parametrize("cells,task,exc,message", [h[1:] for h in HOSTILE],
                         ids=[h[0] for h in HOSTILE])
def test_hostile_numeric_targets(tmp_path, cells, task, exc, message):
    with pytest.raises(exc, match=message):
        load_data(_csv(tmp_path, cells), task=task)


def test_hostile_frame_targets():
    cat = pd.DataFrame({"a": [1.0, 2.0, 3.0], "t": pd.Categorical(["x", "y", "x"])})
    with pytest.raises(TypeError, match=r"is nominal \(class labels\), not numbers, for "
                                        r'task="regression"'):
        load_data(cat, task="regression")
    boolean = pd.DataFrame({"a": [1.0, 2.0, 3.0], "t": [True, False, True]})
    with pytest.raises(TypeError, match=r"true/false values, not numbers"):
        load_data(boolean, task="regression")
    # a DataFrame's text column of numbers with one odd cell: refused, never read as classes
    mixed = pd.DataFrame({"a": (np.arange(10.0) * 3) % 7,
                          "t": [str(0.5 * i + 0.25) for i in range(9)] + ["x"]})
    for task in (None, "auto", "regression"):
        with pytest.raises(ValueError, match=r"column 't' mixes numbers \(row 0: '0\.25'\) and "
                                             r"text \(row 9: 'x'\)"):
            load_data(mixed, task=task)
    # declared nominal, it is text labels, checked as such (here: a different one per row)
    with pytest.raises(ValueError, match=r"column 't' has a different value in every row"):
        load_data(mixed, task="auto", nominal="t")


# (id, call, exception, regex) for the regression sets of rankfusion.datasets.load
LOAD_HOSTILE = [
    ("misspelt", lambda: load("diabetes_lar"), ValueError,
     r"unknown dataset 'diabetes_lar'; did you mean 'diabetes_lars'"),
    ("empty-name", lambda: load(""), ValueError, r"unknown dataset ''"),
    ("name-not-str", lambda: load(None), TypeError, r"name must be a str, got NoneType"),
    ("as-frame-text", lambda: load("cpu", as_frame="yes"), TypeError,
     r"as_frame must be True or False, got 'yes'"),
    ("return-X-y-int", lambda: load("cpu", return_X_y=1), TypeError,
     r"return_X_y must be True or False, got 1"),
    ("dropna-none", lambda: load("diabetes_lars", dropna=None), TypeError,
     r"dropna must be True or False, got None"),
    ("task-keyword", lambda: load("cpu", task="regression"), TypeError,
     r"unexpected keyword argument 'task'"),
]


@pytest.mark.parametrize("call,exc,message", [h[1:] for h in LOAD_HOSTILE],
                         ids=[h[0] for h in LOAD_HOSTILE])
def test_hostile_regression_dataset_loads(call, exc, message):
    with pytest.raises(exc, match=message):
        call()
