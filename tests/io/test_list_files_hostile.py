"""Hostile list files through rankfusion.io.read_lists (docs/design.md, 'Inputs').

No guessing where two readings are possible: each case is read as the writer meant it, or
refused with a message naming the file, the cell and the way out. Oracles: hand-written files
and the RankedLists built directly from the lists they hold.
"""

import io
import sys

import numpy as np
import pytest

from rankfusion import RankedLists
from rankfusion.io import InputWarning, read_lists, write_lists


def _write(tmp_path, text, name="l.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


REFUSED = [
    # (id, text, kind, kwargs, regex)
    ("bad-score-cell-auto", "feature,A,B\ng1,0.5,1\ng2,0.5x,2\ng3,0.1,3\n", "auto", {},
     r"l\.csv: numbers \(line 2, column 2 \('A'\): '0\.5'\) and names \(line 3, column 2 "
     r"\('A'\): '0\.5x'\) in one file"),
    ("NA-score-cell-auto", "feature,A,B\ng1,0.5,1\ng2,NA,2\n", "auto", {},
     r"names \(line 3, column 2 \('A'\): 'NA'\)"),
    ("bad-score-cell-scores", "feature,A\ng1,0.5\ng2,0.5x\n", "scores", {},
     r"line 3, column 2 \('A'\): '0\.5x' is not a number"),
    ("NA-score-cell-scores", "feature,A\ng1,NA\ng2,1\n", "scores", {},
     r"line 2, column 2 \('A'\): 'NA' is not a number"),
    ("empty-score-cell", "feature,A,B\ng1,1,\ng2,2,3\n", "scores", {},
     r"line 2, column 3 \('B'\): empty cell; .*--input positions"),
    ("empty-cell-auto", "feature,A,B\ng1,1,\ng2,2,1\n", "auto", {},
     r"line 2, column 3 \('B'\): empty cell among numbers.*--input positions"),
    ("inf-score", "feature,A\ng1,inf\ng2,1\n", "scores", {}, r"'inf' is not a finite number"),
    ("huge-score", "feature,A\ng1,1e999\ng2,1\n", "scores", {}, r"'1e999' is not a finite"),
    ("positions-in-auto", "feature,A,B\ng1,1,2\ng2,2,3\ng3,3,1\n", "auto", {},
     r"every column holds places 1…3 starting at 1: looks like positions \(1 = best\), which "
     r"read as scores would reverse the ranking: pass --input positions or --input scores"),
    ("tied-positions-in-auto", "feature,A,B\ng1,1,2\ng2,2,3\ng3,3,1\ng4,3,3\n", "auto", {},
     r"every column holds places 1…4 starting at 1: looks like positions"),
    ("orders-header-with-number-ids", "list,1,2,3\nl1,101,205,307\nl2,205,307,101\n", "auto",
     {}, r"the header list, 1, 2, 3… is an orders file's \(a list column, then places 1, 2, …\) "
         r"but every cell is a number: pass --input orders"),
    ("semicolons", "feature;A;B\ng1;0.5;1\ng2;0.25;3\n", "auto", {},
     r"the header has one column when split at ',' but contains ';': a semicolon-separated "
     r"file\? pass --sep ';'"),
    ("tabs", "feature\tA\tB\ng1\t0.5\t1\ng2\t0.25\t3\n", "auto", {},
     r"the header has one column when split at ',' but contains tab: a tab-separated file\? "
     r"pass --sep tab"),
    ("duplicate-list-name", "feature,A,A\ng1,1,2\ng2,2,1\n", "scores", {},
     r"the list name 'A' appears twice in the header \(columns 2 and 3\)"),
    ("duplicate-feature", "feature,A\ng1,1\ng1,2\n", "scores", {},
     r"the feature 'g1' appears twice \(lines 2 and 3\)"),
    ("unnamed-list", "feature,,B\ng1,1,2\ng2,2,1\n", "scores", {},
     r"the list in column 2 has no name"),
    ("unnamed-feature", "feature,A\n,1\ng2,2\n", "scores", {}, r"line 2: the feature has no name"),
    ("short-row-matrix", "feature,A,B\ng1,1\ng2,2,1\n", "scores", {},
     r"line 2: 2 cells but the header has 3"),
    ("only-header", "feature,A\n", "scores", {}, r"header row and at least one feature row"),
    ("one-column", "feature\ng1\ng2\n", "scores", {}, r"at least one list column"),
    ("semicolons", "feature;A;B\ng1;1;2\n", "scores", {}, r"--sep ';'"),
    ("position-text", "feature,A\ng1,first\ng2,2\n", "positions", {},
     r"'first' is not a number; every cell of a positions file is a position or empty"),
    ("position-zero", "feature,A\ng1,0\ng2,1\n", "positions", {},
     r"l\.csv, line 2, column 2 \('A'\): position 0 is outside \[1, 2\]"),
    ("position-too-big", "feature,A\ng1,1\ng2,5\n", "positions", {},
     r"l\.csv, line 3, column 2 \('A'\): position 5 is outside \[1, 2\]"),
    ("position-fraction", "feature,A\ng1,1.25\ng2,2\n", "positions", {},
     r"l\.csv, line 2, column 2 \('A'\): '1\.25' is not a position: .*whole or half"),
    ("position-negative-second-list", "feature,A,B\ng1,1,2\ng2,2,-1\n", "positions", {},
     r"l\.csv, line 3, column 3 \('B'\): position -1 is outside \[1, 2\]"),
    ("position-past-top-k", "feature,A\ng1,1\ng2,\ng3,3\n", "positions", {},
     r"l\.csv, line 4, column 2 \('A'\): position 3 is outside \[1, 2\] \(the list 'A' "
     r"ranks 2"),
    ("position-ties-not-average", "feature,A\ng1,1\ng2,1\ng3,2\n", "positions", {},
     r"l\.csv, line 2, column 2 \('A'\): '1': the list 'A' is not a ranking with average "
     r"ties"),
    ("position-list-ranks-nothing", "feature,A,B\ng1,1,\ng2,2,\n", "positions", {},
     r"l\.csv: the list 'B' \(column 3\) ranks no feature"),
    ("constant-scores-auto", "feature,A,B\ng1,1,1\ng2,1,1\ng3,1,1\n", "auto", {},
     r"l\.csv: every list gives all its features one value \('1'…\).*cannot tell scores.*"
     r"kind="),
    ("constant-float-scores-auto", "feature,A\ng1,0.25\ng2,0.25\n", "auto", {},
     r"every list gives all its features one value.*--input scores or --input positions"),
    ("constant-zero-scores-auto", "feature,A,B\ng1,0,0\ng2,0,0\n", "auto", {},
     r"one value \('0'…\)"),
    ("orders-without-header-ambiguous", "a,b\nc,d\n", "orders", {},
     r"cannot tell whether the first column names the lists.*--list-names or --no-list-names"),
    ("orders-auto-ambiguous", "ig,f1,f2\nrelief,f2,f1\n", "auto", {}, r"--no-list-names"),
    ("orders-hole", "list,1,2,3\nx,a,,c\n", "orders", {},
     r"line 2: empty cell in column 3 before 'c'"),
    ("orders-duplicate-feature", "list,1,2\nx,a,a\n", "orders", {},
     r"line 2: 'a' appears twice \(columns 2 and 3\)"),
    ("orders-duplicate-list-name", "list,1,2\nx,a,b\nx,b,a\n", "orders", {},
     r"the list name 'x' appears twice \(lines 2 and 3\)"),
    ("orders-name-only", "list,1,2\nx,a,b\ny\n", "orders", {},
     r"line 3: the list 'y' ranks no feature"),
    ("orders-no-name", "list,1,2\n,a,b\n", "orders", {}, r"line 2: the list has no name"),
    ("orders-header-only", "list,1,2\n", "orders", {}, r"no lists found"),
    ("orders-unnamed-empty-first", "a,b\n,c,d\n", "orders", {"list_names": False},
     r"line 2: empty cell in column 1 before 'c'"),
    ("mixed-orders-auto", "list,1,2\nx,a,b\ny,b,7\n", "auto", {},
     r"numbers \(line 3, column 3 \('1'\)|numbers .*'7'.*names"),
    ("empty-file", "", "auto", {}, r"l\.csv: the file is empty"),
    ("bad-kind", "feature,A\ng1,1\n", "ranks", {}, r"kind must be one of"),
    ("bad-header-flag", "list,1\nx,a\n", "orders", {"header": "yes"},
     r"header must be True, False or None"),
    ("bad-sep", "feature,A\ng1,1\n", "scores", {"sep": ""}, r"sep must be one character"),
    ("zero-width-feature", "feature,A,B\ng1,1,2\ng\u200b2,2,1\n", "scores", {},
     r"line 3, column 1: the name 'g\\u200b2' holds the invisible character U\+200B"),
    ("zero-width-list-name", "list,1,2\nx\u2060,a,b\n", "orders", {},
     r"line 2, column 1: .*U\+2060 \(WORD JOINER\)"),
    ("names-alike-in-nfc", "feature,A\ncaf\u00e9,1\ncafe\u0301,2\n", "scores", {},
     r"the feature 'café' appears twice"),
]


@pytest.mark.parametrize("text, kind, kwargs, match", [c[1:] for c in REFUSED],
                         ids=[c[0] for c in REFUSED])
def test_refused_with_the_place_and_the_way_out(tmp_path, text, kind, kwargs, match):
    path = _write(tmp_path, text)
    exc = TypeError if "header" in kwargs else ValueError
    with pytest.raises(exc, match=match):
        read_lists(path, kind, **kwargs)
    assert path.read_text() == text


# --------------------------------------------------------------------------- read as meant
def _orders(lists):
    return dict(zip(lists.list_names.tolist(), lists.orders()))


ORDERS = [
    # (id, text, kwargs, expected {list name: order})
    ("method-header-no-phantoms", "method,top1,top2,top3\nig,f1,f2,f3\nrelief,f2,f1,f3\n", {},
     {"ig": ["f1", "f2", "f3"], "relief": ["f2", "f1", "f3"]}),
    ("list-header-numbers", "list,1,2,3\nx,a,b,c\ny,b,c\n", {},
     {"x": ["a", "b", "c"], "y": ["b", "c"]}),
    ("empty-first-header-cell", ",1,2\nx,a,b\ny,b,a\n", {}, {"x": ["a", "b"], "y": ["b", "a"]}),
    ("ranker-header-word", "Ranker,rank_1,rank_2\nx,a,b\n", {}, {"x": ["a", "b"]}),
    ("numbers-only-header-unnamed", "1,2,3\na,b,c\nc,b,a\n", {},
     {"L0": ["a", "b", "c"], "L1": ["c", "b", "a"]}),
    ("unnamed-top2-lists-flag", "a,b\nc,d\n", {"list_names": False},
     {"L0": ["a", "b"], "L1": ["c", "d"]}),
    ("named-no-header-flag", "ig,f1,f2\nrelief,f2,f1\n", {"list_names": True},
     {"ig": ["f1", "f2"], "relief": ["f2", "f1"]}),
    ("header-flag-off", "list,a,b\nx,b,a\n", {"header": False, "list_names": True},
     {"list": ["a", "b"], "x": ["b", "a"]}),
    ("header-flag-on-unknown-word", "algo,first,second\nx,a,b\n",
     {"header": True, "list_names": True}, {"x": ["a", "b"]}),
    ("feature-names-that-are-numbers", "list,1,2\nx,101,205\ny,205,101\n", {},
     {"x": ["101", "205"], "y": ["205", "101"]}),
    ("trailing-commas-top-k", "list,1,2,3\nx,a,b,\ny,c,,\n", {}, {"x": ["a", "b"], "y": ["c"]}),
    ("spaces-around-names", "list, 1, 2\n x , a , b \n", {}, {"x": ["a", "b"]}),
    ("quoted-names-with-commas", 'list,1,2\nx,"g,1",g2\n', {}, {"x": ["g,1", "g2"]}),
    ("repeated-names-do-not-matter", "list,1,2\na,a,b\nb,b,a\n", {},
     {"a": ["a", "b"], "b": ["b", "a"]}),
]


@pytest.mark.parametrize("text, kwargs, expected", [c[1:] for c in ORDERS],
                         ids=[c[0] for c in ORDERS])
def test_orders_read_as_meant(tmp_path, text, kwargs, expected):
    lists = read_lists(_write(tmp_path, text), "orders", **kwargs)
    assert _orders(lists) == expected


def test_orders_auto_says_how_it_read(tmp_path):
    path = _write(tmp_path, "method,top1,top2,top3\nig,f1,f2,f3\nrelief,f2,f1,f3\n")
    lists, how = read_lists(path, return_reading=True)
    assert how == ("orders: first row read as a header; list names in the first column "
                   "(no cell is a number)")
    assert sorted(lists.features) == ["f1", "f2", "f3"]  # no phantom top1…top3


def test_scores_auto_reads_numbers_and_says_so(tmp_path):
    path = _write(tmp_path, "feature,A,B\ng1,0.5,1e3\ng2,-0.25,7\ng3,0.125,7\n")
    lists, how = read_lists(path, return_reading=True)
    assert how == "scores (every cell is a number)"
    np.testing.assert_array_equal(lists.scores, [[0.5, 1000.0], [-0.25, 7.0], [0.125, 7.0]])


def test_positions_file_from_write_lists_reads_back_only_as_positions(tmp_path):
    lists = RankedLists.from_orders([["a", "b", "c"], ["c", "a", "b"]], list_names=["p", "q"])
    path = tmp_path / "pos.csv"
    write_lists(lists, path)
    with pytest.raises(ValueError, match="looks like positions"):
        read_lists(path)
    assert read_lists(path, "positions") == lists
    # the same numbers read as scores are upside down: the user must say so explicitly
    as_scores = read_lists(path, "scores")
    assert as_scores.orders()[0] == ["c", "b", "a"]


def test_top_k_positions_with_empty_cells(tmp_path):
    path = _write(tmp_path, "feature,A,B\ng1,1,\ng2,2,1\ng3,,2\n")
    lists = read_lists(path, "positions")
    assert lists.orders() == [["g1", "g2"], ["g2", "g3"]]


def test_small_whole_numbers_from_1_are_refused_as_ambiguous(tmp_path):
    # [1, 1, 2] could be scores or places with ties ("min" or "dense"): read as scores they
    # reverse a ranking of places, so auto refuses and --input decides
    path = _write(tmp_path, "feature,A\ng1,1\ng2,1\ng3,2\n")
    with pytest.raises(ValueError, match="looks like positions"):
        read_lists(path)
    lists = read_lists(path, "scores")
    np.testing.assert_array_equal(lists.positions[:, 0], [2.5, 2.5, 1.0])
    scores = read_lists(_write(tmp_path, "feature,A\ng1,2\ng2,2\ng3,3\n"))  # no 1: scores
    np.testing.assert_array_equal(scores.positions[:, 0], [2.5, 2.5, 1.0])


def test_stdin_and_dev_stdin_read_once(tmp_path, monkeypatch):
    text = "feature,A,B\ng1,0.5,1\ng2,0.25,3\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    lists = read_lists("-", "scores")
    np.testing.assert_array_equal(lists.scores, [[0.5, 1.0], [0.25, 3.0]])


def test_semicolon_file_with_sep(tmp_path):
    lists = read_lists(_write(tmp_path, "feature;A\ng1;0.5\ng2;1.5\n"), "scores", sep=";")
    assert lists.orders() == [["g2", "g1"]]


def test_latin1_list_file(tmp_path):
    path = tmp_path / "l.csv"
    path.write_bytes("list,1,2\nx,g\xe8ne,b\n".encode("latin-1"))
    with pytest.raises(ValueError, match=r"not utf-8 text.*--encoding latin-1"):
        read_lists(path, "orders")
    assert read_lists(path, "orders", encoding="latin-1").orders() == [["gène", "b"]]


def test_write_lists_is_atomic_and_can_refuse_to_overwrite(tmp_path):
    lists = RankedLists.from_orders([["a", "b"]])
    path = tmp_path / "out.csv"
    path.write_text("keep me")
    with pytest.raises(FileExistsError, match="exists"):
        write_lists(lists, path, overwrite=False)
    assert path.read_text() == "keep me"
    write_lists(lists, path)
    assert read_lists(path, "positions") == lists
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]


def test_orders_names_alike_in_nfc_are_one_feature(tmp_path):
    nfc, nfd = "caf\u00e9", "cafe\u0301"
    path = _write(tmp_path, f"a,b,{nfc}\nb,a,{nfd}\n")
    with pytest.warns(InputWarning, match=r"'cafe\\u0301' and 'caf\\xe9' → 'café'"):
        lists = read_lists(path, "orders", list_names=False)
    assert sorted(lists.features) == ["a", "b", nfc]
