"""Spreadsheet formula injection (docs/design.md, 'Outputs'): every CSV the library writes
protects text cells that a spreadsheet would run, as the OWASP CSV-injection guidance
recommends (a leading single quote), and leaves numbers — also text that spells a number —
alone. Read back with pandas, the independent reader."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rankfusion._utils.tabular import protect_cell, protect_frame, to_csv, unprotect_cell

HOSTILE_NAMES = ["=1+1", "=HYPERLINK(\"http://x\",\"y\")", "+SUM(A1:A2)", "-2+3", "@SUM(A1)",
                 "\t=1", "\r=1", "\tplain", "\rplain", "=", "-", "+", "@", " =1+1", "  @x",
                 "\n=1", "-inf", "+nan", "-1,5", "=cmd|' /C calc'!A0", "-x", "--help"]
SAFE_NAMES = ["gene_1", "f0", "a=b", "x-1", "1+1", "e@mail", "'quoted", "", " ", "ä-é"]
NUMBERS = ["-1.5", "+2", "-3e-4", "-.5", "+1E+10", "-0", " -1.5 ", "-12.", "1.5"]


@pytest.mark.parametrize("text", HOSTILE_NAMES)
def test_formula_starts_get_a_single_quote(text):
    assert protect_cell(text) == "'" + text
    assert unprotect_cell(protect_cell(text)) == text


@pytest.mark.parametrize("text", SAFE_NAMES + NUMBERS)
def test_plain_text_and_numbers_written_as_text_stay_as_they_are(text):
    assert protect_cell(text) == text
    assert unprotect_cell(text) == text


@pytest.mark.parametrize("value", [-1.5, -1, np.float64(-2.5), np.int64(-3), True, None,
                                   np.nan, b"=bytes", ("=", 1)])
def test_values_that_are_not_text_are_never_changed(value):
    assert protect_cell(value) is value


@pytest.mark.parametrize("text,written", [("'=x", "''=x"), ("''@y", "'''@y"),
                                          ("'-1.5", "'-1.5"), ("'abc", "'abc")])
def test_a_leading_quote_is_doubled_only_where_the_rest_would_be_protected(text, written):
    assert protect_cell(text) == written
    assert unprotect_cell(written) == text


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("=+-@'\t\r\n .,1eaE")), max_size=6))
@example("'")
@example("'''=")
def test_unprotect_undoes_protect_for_every_text(text):
    protected = protect_cell(text)
    assert unprotect_cell(protected) == text
    # a written cell never starts (after spaces) with a formula character, unless it is a
    # number (oracle: Python's float on the stripped text, without inf, nan or "_")
    lead = protected.lstrip(" \n")[:1]
    if protected[:1] in ("\t", "\r") or lead in ("=", "+", "-", "@"):
        assert _spells_a_number(protected), repr(protected)


def _spells_a_number(s):
    t = s.strip(" \t\r\n")
    try:
        float(t)
    except ValueError:
        return False
    return not any(c.isalpha() and c not in "eE" for c in t) and "_" not in t


def _frame():
    return pd.DataFrame({"feature": ["=1+1", "-x", "ok", "-1.5"],
                         "score": [-1.5, 2.0, -3.0, 4.0],
                         "rank": [1, 2, 3, 4],
                         "selected": [True, False, True, False],
                         "group": pd.Categorical(["@a", "b", "@a", "b"])},
                        index=pd.Index(["+r0", "r1", "r2", "r3"], name="=idx"))


def test_protect_frame_covers_cells_header_and_index_and_leaves_the_caller_alone():
    frame = _frame()
    before = frame.copy()
    out = protect_frame(frame)
    pd.testing.assert_frame_equal(frame, before)
    assert list(out["feature"]) == ["'=1+1", "'-x", "ok", "-1.5"]
    assert list(out["group"]) == ["'@a", "b", "'@a", "b"]
    assert list(out.index) == ["'+r0", "r1", "r2", "r3"] and out.index.name == "'=idx"
    for col in ("score", "rank", "selected"):
        pd.testing.assert_series_equal(out[col], frame[col], check_index=False)
    renamed = protect_frame(frame.rename(columns={"score": "=score"}))
    assert "'=score" in renamed.columns


def test_multiindex_columns_and_series():
    frame = pd.DataFrame([[1.0, 2.0]], columns=pd.MultiIndex.from_tuples([("=a", "x"),
                                                                           ("b", "@y")]))
    out = protect_frame(frame)
    assert list(out.columns) == [("'=a", "x"), ("b", "'@y")]
    s = protect_frame(pd.Series(["=x", "y"], name="-n"))
    assert list(s) == ["'=x", "y"] and s.name == "'-n"


@pytest.mark.parametrize("bad", [None, [["=x"]], np.array([["=x"]]), "=x", {"a": ["=x"]}])
def test_hostile_frames_name_the_argument(bad):
    with pytest.raises(TypeError, match="frame must be a pandas DataFrame or Series"):
        protect_frame(bad)


def test_to_csv_read_back_with_pandas_keeps_numbers_numbers():
    text = to_csv(_frame())
    back = pd.read_csv(io.StringIO(text), index_col=0)
    assert back.index.name == "'=idx"
    assert list(back["feature"]) == ["'=1+1", "'-x", "ok", "-1.5"]
    assert back["score"].dtype == np.float64 and list(back["score"]) == [-1.5, 2.0, -3.0, 4.0]
    assert back["rank"].dtype == np.int64
    # no cell of the file starts with a formula character unless it is a number
    for line in text.splitlines():
        for cell in line.split(","):
            if cell[:1] in ("=", "+", "-", "@"):
                float(cell)


# ------------------------------------------------------------------ every CSV writer
def test_write_lists_protects_feature_and_list_names(tmp_path):
    from rankfusion.io import write_lists
    from rankfusion.lists import RankedLists

    lists = RankedLists.from_scores(np.array([[3.0, -1.5], [2.0, 0.5], [1.0, 2.5]]),
                                    features=["=HYPERLINK(\"x\")", "@b", "-1.5"],
                                    list_names=["+l1", "l2"])
    path = tmp_path / "lists.csv"
    write_lists(lists, path, values="scores")
    back = pd.read_csv(path, index_col=0)
    assert list(back.index) == ["'=HYPERLINK(\"x\")", "'@b", -1.5] or \
        list(back.index.astype(str)) == ["'=HYPERLINK(\"x\")", "'@b", "-1.5"]
    assert list(back.columns) == ["'+l1", "l2"]
    assert all(pd.api.types.is_numeric_dtype(d) for d in back.dtypes)
    assert back.iloc[0, 1] == -1.5


def test_cli_csv_output_protects_feature_names(tmp_path):
    from rankfusion.cli import main

    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b"], 15)
    X = rng.normal(size=(30, 3))
    X[:, 0] += np.repeat([0.0, 3.0], 15)
    data = pd.DataFrame(X, columns=["=1+1", "@SUM(A1)", "-x"])
    data["cls"] = y
    src = tmp_path / "d.csv"
    data.to_csv(src, index=False)
    out = tmp_path / "ranks.csv"
    assert main(["rank", str(src), "--target", "cls", "--ranker", "info_gain",
                 "--out", str(out)]) == 0
    text = out.read_text()
    back = pd.read_csv(out, index_col=0)
    assert set(back.index.astype(str)) == {"'=1+1", "'@SUM(A1)", "'-x"}, text
    assert back.select_dtypes("number").shape[1] == back.shape[1]


def test_experiment_csv_protects_labels(tmp_path):
    from rankfusion.experiments.store import write_csv

    frame = pd.DataFrame({"dataset": ["=evil", "iris"], "value": [-0.25, 0.5]})
    write_csv(frame, tmp_path / "r.csv")
    back = pd.read_csv(tmp_path / "r.csv")
    assert list(back["dataset"]) == ["'=evil", "iris"]
    assert back["value"].tolist() == [-0.25, 0.5]


def test_selection_folder_csv_files_protect_feature_names(tmp_path):
    from rankfusion import EnsembleSelector
    from rankfusion.workflows import write_selection

    rng = np.random.default_rng(1)
    y = np.repeat([0, 1], 20)
    X = pd.DataFrame(rng.normal(size=(40, 3)), columns=["=cmd", "+x", "ok"])
    X["=cmd"] += y * 3
    sel = EnsembleSelector(rankers=["f_classif"], n_bootstraps=3, n_features_to_select=1,
                           random_state=0).fit(X, y)
    files = write_selection(sel, tmp_path / "sel", summary={})
    consensus = pd.read_csv(tmp_path / "sel" / "consensus.csv")
    assert set(consensus["feature"]) == {"'=cmd", "'+x", "ok"}
    assert consensus["score"].dtype == np.float64
    for f in files:
        if f.suffix == ".csv":
            for line in f.read_text().splitlines():
                for cell in line.split(","):
                    assert cell[:1] not in ("=", "+", "@") or float(cell) is not None


@pytest.mark.parametrize("values", ["scores", "positions"])
def test_written_lists_read_back_with_their_own_names(tmp_path, values):
    # the protection is for spreadsheets only: read_lists undoes it, so names survive the trip
    from rankfusion.io import read_lists, write_lists
    from rankfusion.lists import RankedLists

    # (the reader strips spaces and tabs around names, so none is given here)
    features = ["=HYPERLINK(\"x\")", "@b", "'=q", "'plain", "+c", "-x", "gene", "''@z"]
    scores = np.arange(len(features) * 2, dtype=float).reshape(len(features), 2)[::-1]
    lists = RankedLists.from_scores(scores, features=features, list_names=["+l1", "@l2"])
    path = tmp_path / "lists.csv"
    write_lists(lists, path, values=values)
    back = read_lists(path, kind=values)
    assert list(back.features) == features
    assert list(back.list_names) == ["+l1", "@l2"]
    np.testing.assert_array_equal(back.positions, lists.positions)
