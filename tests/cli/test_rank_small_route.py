"""``rankfusion rank`` on small CSV files: the route without pandas (``rankfusion.io.read_small``
and ``format_float_table``) prints what the general route prints (``load_data`` + pandas), byte
for byte, errors and warnings included, on plain, quirky and hostile files; oracle: the general
route itself, forced by turning the small route off, and pandas' ``DataFrame.to_string``."""

from __future__ import annotations

import contextlib
import gzip
import io
import string

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from small_route_helpers import both_routes

from rankfusion._utils.data import check_classification_data, weka_classes
from rankfusion.cli._common import print_frame
from rankfusion.io import load_data, read_small
from rankfusion.workflows import format_float_table

# Files and options: the hostile table of tests/cli/test_cli_hostile.py, and more quirks.
# (text, extra options, whether the small route must take it)
CASES = [
    ("f0,f1,cls\n1,2,a\nNA,3,b\n2,4,a\n3,5,b\n", [], False),
    ("f0,f1,cls\n1,2,a\nNA,3,b\n2,4,a\n3,5,b\n", ["--na-values", "NA"], True),
    (",f0,cls\n0,1,a\n1,2,b\n2,3,a\n3,4,b\n", [], False),
    (",f0,cls\n0,1,a\n1,2,b\n2,3,a\n3,4,b\n", ["--drop", "Unnamed: 0"], False),
    ("f0,f0,cls\n1,2,a\n2,3,b\n", [], False),
    ("f0;f1;cls\n1;2;a\n2;3;b\n", [], False),
    ("f0;f1;cls\n1;2;a\n2;3;b\n3;1;a\n4;4;b\n", ["--sep", ";"], True),
    ("id,f0,cls\nx1,1,a\nx2,2,b\nx3,3,a\nx4,4,b\n", [], False),
    ("id,f0,cls\nx1,1,a\nx2,2,b\nx3,3,a\nx4,4,b\n", ["--drop", "id"], True),
    ("grp,f0,cls\n0,1,a\nA,2,b\nB,3,a\nA,4,b\n", ["--nominal", "grp"], True),
    ("f0,cls\n1,a\n2, a\n3,b\n4,b\n", [], False),  # label variants: a warning
    ("f0,cls\n1,a\n2,A\n3,b\n4,b\n", [], False),  # labels differing by case: a warning
    ("f0,cls\n1,1\n2, 1\n3,2\n4,2\n", [], False),  # numeric labels differing by spaces
    ("f0,cls\n1,a\n2,b\n3,?\n4,b\n", [], False),  # a missing label
    ("f0,cls\n1,a\n2,a\n3,a\n", [], False),  # one class
    ("f0,cls\n1,0.5\n2,1.5\n3,0.5\n", [], False),  # a regression target
    ("f0,cls\n1.0,1.0\n2.0,2.0\n3.0,1.0\n", [], False),  # float labels
    ("f0,cls\n1,a\ninf,b\n3,a\n", [], False),
    ("f0,cls\n1,a\n1e999,b\n3,a\n", [], False),
    ("f0,cls\n\"1,5\",a\n\"2,5\",b\n\"3,5\",a\n", [], False),  # a decimal comma
    ("f0,f1\n1,a\n", [], False),  # one data row, one class
    ("f0\n1\n2\n", [], False),  # no feature
    ("", [], False),
    ("f0,cls\n", [], False),
    ("f0,f1,cls\n1,2\n3,4,b\n", [], False),  # a short row
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["--drop", "zz"], False),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["--nominal", "zz"], False),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["--target", "zz"], False),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["--target", "7"], False),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["--drop", "cls"], False),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["--drop", "f0,f1"], False),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["--target", "0"], True),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["--target", "f1", "--top", "1"], True),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["--sep", "ab"], False),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["--encoding", "nope"], False),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["--param", "bogus=1"], False),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["--param", "k"], False),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["--top", "-1"], False),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["-r", "info_gain,info_gain"], False),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["-r", "ig,su,gr,chi_square"], True),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["-r", "relieff"], False),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", ["-r", "info_gain,relieff"], False),
    ("f0,f1,cls\n1,?,a\n3,4,b\n5,6,a\n7,,b\n", ["--param", "missing_as_value=yes"], True),
    ("f0,f1,cls\n0,2,a\n3,0,b\n0,6,a\n7,0,b\n", ["--param", "binarize=true"], True),
    ('"f 0", f1 ,cls\n" 1 ",+2,a\n"3",.5,b\n5,1.,a\n007,1e2,b\n', [], True),
    ("f0,f1,cls\r\n1,2,a\r\n\r\n3,4,b\r\n5,6,a\r\n", [], True),  # CRLF, a blank line
    ("\ufefff0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", [], True),  # a byte-order mark
    ("f0,f1,cls\n1,2,a\n3,\"4\n\",b\n5,6,a\n", [], True),  # a newline inside a number
    ("f0,f1,cls\n1,2,a\n3,\"4,b\n5,6,a\n", [], False),  # an unclosed quote
    ("f0,f1,cls\n?,?,a\n?,?,b\n?,?,a\n", [], True),  # all missing
    ("f0,f1,cls\nx,2,a\ny,4,b\nx,6,a\n", [], True),  # a nominal feature
    ("f0,f1,cls\nx,2,1\ny,4,2\nx,6,1\n", [], True),  # integer labels
    ("f0,f1,cls\nx,2,10\ny,4,9\nx,6,10\n", [], True),  # integer labels, not text order
    ("f0,Unnamed: 3,cls\n1,2,a\n3,4,b\n5,6,a\n", [], False),
    ("f\u00e9,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", [], False),  # a non-ASCII name: pandas prints
    ("f0,f1,cls\n1,2,caf\u00e9\n3,4,th\u00e9\n5,6,caf\u00e9\n", [], True),
    ("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n" + "\x00", [], False),
    # feature names pandas prints its own way: the route declines, the general route prints
    # (spaces around a header name are the reader's to strip: both routes print '===')
    ('" ===",f1,cls\n1,2,a\n3,4,b\n5,6,a\n', [], True),  # leading space (found by hypothesis)
    ('" a"," b",cls\n1,2,a\n3,4,b\n5,6,a\n', [], True),  # every name with one
    ('"a\tb",f1,cls\n1,2,a\n3,4,b\n5,6,a\n', [], False),  # a tab, escaped by pandas
    ('"a\nb",f1,cls\n1,2,a\n3,4,b\n5,6,a\n', [], False),  # a newline inside the name
    ("\u65e5\u672c,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", [], False),  # wide characters
    ("e\u0301,f1,cls\n1,2,a\n3,4,b\n5,6,a\n", [], False),  # a combining accent
    ("NaN_,None,cls\n1,2,a\n3,4,b\n5,6,a\n", [], True),  # NaN-like names are text
    ("1.5,-2,cls\n1,2,a\n3,4,b\n5,6,a\n", [], True),  # names that look like numbers
    ('"' + "x" * 300 + '",f1,cls\n1,2,a\n3,4,b\n5,6,a\n', [], True),  # a very long name
    ('"a ",f1,cls\n1,2,a\n3,4,b\n5,6,a\n', [], True),  # a trailing space
]


@pytest.mark.parametrize("text, extra, small", CASES)
def test_small_route_prints_what_the_general_route_prints(tmp_path, capsys, monkeypatch,
                                                          text, extra, small):
    path = tmp_path / "d.csv"
    path.write_text(text, encoding="utf-8")
    got, want, taken = both_routes(["rank", path, *extra], capsys, monkeypatch)
    assert got == want
    assert taken == small


def test_small_route_on_gzip_tsv_and_latin1(tmp_path, capsys, monkeypatch):
    text = "f0\tf1\tcls\n1\t2\ta\n3\t4\tb\n5\t6\ta\n2\t2\tb\n"
    gz = tmp_path / "d.tsv.gz"
    gz.write_bytes(gzip.compress(text.encode()))
    got, want, taken = both_routes(["rank", gz], capsys, monkeypatch)
    assert got == want and taken
    lat = tmp_path / "l.csv"
    lat.write_bytes("f0,cls\n1,caf\xe9\n2,th\xe9\n3,caf\xe9\n4,th\xe9\n".encode("latin-1"))
    for extra in ([], ["--encoding", "latin-1"]):
        got, want, taken = both_routes(["rank", lat, *extra], capsys, monkeypatch)
        assert got == want and taken == bool(extra)


def test_small_route_leaves_other_inputs_alone(tmp_path, capsys, monkeypatch):
    # --out goes the general way; a small dense ARFF file the small one
    # (tests/cli/test_rank_arff_small_route.py)
    path = tmp_path / "d.csv"
    path.write_text("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n")
    got, want, taken = both_routes(["rank", path, "--out", tmp_path / "o.csv", "--overwrite"],
                             capsys, monkeypatch)
    assert got == want and not taken
    arff = tmp_path / "d.arff"
    arff.write_text("@relation r\n@attribute f0 numeric\n@attribute cls {a,b}\n@data\n"
                    "1,a\n2,b\n3,a\n")
    got, want, taken = both_routes(["rank", arff], capsys, monkeypatch)
    assert got == want and taken


def _random_csv(rng) -> tuple[str, list]:
    n = int(rng.integers(3, 40))
    p = int(rng.integers(1, 7))
    cols, extra = {}, []
    for j in range(p):
        kind = rng.integers(0, 6)
        if kind == 0:
            v = [repr(float(x)) for x in rng.normal(size=n) * 10.0 ** rng.integers(-8, 9)]
        elif kind == 1:
            v = [str(int(x)) for x in rng.integers(-5, 6, size=n)]
        elif kind == 2:
            v = [f"{x:.2f}" for x in rng.random(n)]
        elif kind == 3:
            v = [str(c) for c in rng.choice(["x", "y", " z", "NA", "w w"], size=n)]
        elif kind == 4:
            v = [str(c) for c in rng.choice(["0", "1", "A", "B"], size=n)]
            extra += ["--nominal", f"c{j}"] if rng.random() < 0.5 else []
        else:
            v = [str(int(x)) for x in rng.integers(0, 3, size=n)]
        holes = rng.random(n) < rng.choice([0.0, 0.1, 0.5])
        v = [rng.choice(["?", "", "nan", " ? "]) if h else c for c, h in zip(v, holes)]
        cols[f"c{j}"] = v
    labels = rng.choice([["a", "b"], ["a", "b", "c"], ["1", "2"], ["10", "9", "8"],
                         ["a", "a ", "b"], ["A", "a", "b"]][int(rng.integers(0, 6))], size=n)
    cols["cls"] = [str(c) for c in labels]
    text = ",".join(cols) + "\n" + "\n".join(
        ",".join(cols[c][i] for c in cols) for i in range(n)) + "\n"
    if rng.random() < 0.3:
        extra += ["--na-values", "NA,?"]
    if rng.random() < 0.2:
        extra += ["--drop", "c0"] if p > 1 else []
    if rng.random() < 0.3:
        extra += ["-r", ",".join(rng.choice(["info_gain", "gain_ratio", "su", "chi_square"],
                                            size=2, replace=False))]
    return text, extra


def test_small_route_equals_general_route_on_random_files(tmp_path, capsys, monkeypatch):
    rng = np.random.default_rng(2026)
    taken_count = 0
    for i in range(120):
        text, extra = _random_csv(rng)
        path = tmp_path / f"r{i}.csv"
        path.write_text(text)
        got, want, taken = both_routes(["rank", path, *extra], capsys, monkeypatch)
        assert got == want, (text, extra)
        taken_count += taken
    assert taken_count >= 40  # the small route is exercised, not always declined


def test_read_small_equals_load_data(tmp_path):
    # the data themselves, against load_data + check_classification_data + weka_classes
    rng = np.random.default_rng(7)
    compared = 0
    for i in range(150):
        text, extra = _random_csv(rng)
        opts = dict(zip(extra[::2], extra[1::2]))
        kw = {"na_values": opts["--na-values"].split(",") if "--na-values" in opts else None,
              "drop": opts.get("--drop"), "nominal": opts.get("--nominal")}
        path = tmp_path / f"r{i}.csv"
        path.write_text(text)
        got = read_small(path, **kw)
        if got is None:
            continue
        data, target = got
        X, y = load_data(path, **kw)
        want = check_classification_data(X, y)
        yc, n_classes = weka_classes(y)
        assert target == y.name
        np.testing.assert_array_equal(data.values, want.values)
        assert data.values.tobytes() == want.values.tobytes()
        np.testing.assert_array_equal(data.nominal, want.nominal)
        assert data.categories == want.categories
        assert data.feature_names.tolist() == want.feature_names.tolist()
        np.testing.assert_array_equal(data.y, yc)
        assert data.n_classes == n_classes
        assert data.classes.tolist() == want.classes.tolist()
        compared += 1
    assert compared >= 50


def test_read_small_declines_what_it_does_not_read(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n")
    assert read_small(path) is not None
    assert read_small(path, max_cells=5) is None  # larger than asked: load_data's job
    assert read_small(path, format="arff") is None
    assert read_small("-") is None
    assert read_small(tmp_path / "missing.csv") is None  # load_data names the problem
    assert read_small(tmp_path) is None
    frame = pd.read_csv(path)
    assert read_small(frame) is None


# ------------------------------------------------------------------ the table printer
def _pandas_text(index, columns) -> str:
    frame = pd.DataFrame(columns, index=pd.Index(index, name="feature"))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        print_frame(frame)
    return buf.getvalue()


_floats = st.one_of(
    st.floats(-2e6, 2e6, allow_nan=False),
    st.floats(0, 50).map(lambda v: round(v * 2) / 2),  # positions, ties averaged
    st.floats(0, 1),
    st.sampled_from([0.0, -0.0, 1e-7, 5e-7, 1e-6, 1e6, 999999.99, 0.1 + 0.2, 1 / 3, np.nan,
                     np.inf]),
)


# Labels as a new user's files give them: spaces around (pandas strips the spaces that begin
# every label of the index), wide and combining characters, tabs and newlines (escaped by
# pandas), empty, very long, number-like and NaN-like texts, quotes and backslashes.
_NASTY_LABELS = [" ===", " a", "  ", " ", "a ", "\t", "a\tb", "a\nb", "\r", "", "x" * 300,
                 "\u65e5\u672c", "e\u0301", "\u00e9", "\u200b", "\ufeff", "NaN", "nan",
                 "None", "NA", "<NA>", "-1", "1e5", "+2", "0.10", "inf", "'", '"', "\\",
                 "\x00", "\x1b[31m", "...", "a" + " " * 40]
_label_text = st.one_of(
    st.text(string.printable.strip() + " \u00e9\t", min_size=1, max_size=16),
    st.text(min_size=0, max_size=12),  # any unicode, empty included
    st.sampled_from(_NASTY_LABELS),
    st.from_regex(r"\A[ ]{0,3}[-+]?[0-9]{1,4}(\.[0-9]{0,3})?[ ]{0,3}\Z"),
)
_name_text = st.one_of(
    st.text(string.ascii_letters + "_() .=-", min_size=1, max_size=14),
    st.text(min_size=0, max_size=8),
    st.sampled_from(_NASTY_LABELS),
)


_VALUES = [0.5, 0.25, 1.0, 3.0] * 8


def _columns(names, index, values):
    return {n: values[8 * k: 8 * k + len(index)] for k, n in enumerate(names)}


@settings(max_examples=300, deadline=None)
@given(index=st.lists(_label_text, min_size=1, max_size=8),
       names=st.lists(_name_text, min_size=1, max_size=4, unique=True),
       values=st.lists(_floats, min_size=32, max_size=32))
@example(index=[" ==="], names=["info_gain"], values=_VALUES)  # found by random search
@example(index=[" a", " b"], names=["info_gain"], values=_VALUES)
@example(index=[" a", "b"], names=["info_gain", "info_gain_pos"], values=_VALUES)
@example(index=["a ", "b  "], names=["x"], values=_VALUES)
@example(index=["", "a"], names=["x"], values=_VALUES)
@example(index=["a\tb", "a\nb", "\r"], names=["x"], values=_VALUES)
@example(index=["\u65e5\u672c", "e\u0301", "c"], names=["x"], values=_VALUES)
@example(index=["NaN", "None", "nan", "<NA>"], names=["x"], values=_VALUES)
@example(index=["-1", "+2", "1e5", " 3 "], names=["x"], values=_VALUES)
@example(index=["x" * 300, "y"], names=["x"], values=_VALUES)
@example(index=["a"], names=[" lead", "trail ", "  "], values=_VALUES)
@example(index=["0"], names=[" ==="], values=_VALUES)  # found by a long random search
@example(index=["a"], names=["", "\t"], values=_VALUES)
def test_format_float_table_equals_pandas_or_declines(index, names, values):
    columns = _columns(names, index, values)
    got = format_float_table("feature", index, columns)
    if got is not None:
        assert got + "\n" == _pandas_text(index, columns)


@pytest.mark.parametrize("index", [[label] for label in _NASTY_LABELS]
                         + [[label, "b"] for label in _NASTY_LABELS])
def test_format_float_table_on_nasty_labels(index):
    # each label alone and beside a plain one: the text pandas prints, or declined
    columns = {"info_gain": [0.5, 0.25][:len(index)], "info_gain_pos": [1.0, 2.0][:len(index)]}
    got = format_float_table("feature", index, columns)
    if got is not None:
        assert got + "\n" == _pandas_text(index, columns)
    if index[0].startswith(" ") or not index[0].isascii() or not index[0].isprintable() \
            or not index[0]:
        assert got is None, index


@pytest.mark.parametrize("name", _NASTY_LABELS)
def test_format_float_table_on_nasty_column_names(name):
    columns = {name: [0.0, 0.5], "info_gain_pos": [1.0, 2.0]}
    got = format_float_table("feature", ["a", "b"], columns)
    if got is not None:
        assert got + "\n" == _pandas_text(["a", "b"], columns)
    if name.startswith(" ") or not name.isascii() or not name.isprintable() or not name:
        assert got is None, name


def test_format_float_table_takes_the_usual_tables():
    rng = np.random.default_rng(1)
    for _ in range(200):
        p = int(rng.integers(1, 30))
        idx = [f"feat_{j}" * int(rng.integers(1, 3)) for j in range(p)]
        cols = {"info_gain": rng.random(p) * 2, "chi_square": rng.random(p) * 1e4,
                "info_gain_pos": rng.integers(2, 2 * p + 1, size=p) / 2}
        got = format_float_table("feature", idx, cols)
        assert got is not None
        assert got + "\n" == _pandas_text(idx, cols)
