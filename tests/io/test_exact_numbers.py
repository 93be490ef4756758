"""Every reader gives back the very double a decimal number spells (docs/design.md, 'Inputs'
and 'Equality with the oracles').

Oracle: Python's ``float()``, which rounds decimal text correctly (David Gay's algorithm). The
readers: CSV (plain, gzip, TSV) through ``load_data`` and ``read_small``; dense ARFF through
its three parsing paths (plain numbers, numbers with ``?``, quoted values), ``read_arff`` and
``read_small``; sparse ARFF; svmlight; list files; the ``pandas.read_csv`` wrapper that the
bundled datasets' loaders and the tests' fixture readers use (plain, gzip, tab-separated);
``numpy.loadtxt``, which the datasets' loaders use for whitespace-separated files. pandas' own
default parser before 3.1 is not correctly rounded (4,686 of these 20,000 strings read one
unit in the last place off on pandas 1.5.3, 2.2.3 and 3.0.6), so these tests fail there if a
reader leaves ``float_precision`` at its default.
"""

from __future__ import annotations

import gzip
import random

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from conftest import read_csv as conftest_read_csv
from rankfusion._utils.tabular import _exact_floats, read_csv
from rankfusion.io import (
    load_data,
    read_arff,
    read_lists,
    read_small,
    read_sparse_arff,
    read_svmlight,
)

N_STRINGS = 20_000
N_COLS = 4


def _digits(rng: random.Random, lo: int, hi: int) -> str:
    return "".join(rng.choice("0123456789") for _ in range(rng.randint(lo, hi)))


def decimal_strings(n: int, seed: int = 41) -> list[str]:
    """``n`` finite decimal numbers as a file may spell them: 17 significant digits (Weka,
    R, ``%.17g``), ``repr`` of random doubles, 18-40 digits, exponents up to ±300, values
    near and below the smallest normal double, signs, a leading ``+``, ``.5`` and ``5.``."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        kind = rng.randrange(7)
        sign = rng.choice(["", "-", "", "-", "+"])
        if kind == 0:
            x = rng.uniform(-1e3, 1e3) * 10.0 ** rng.randint(-20, 20)
            s = f"{x:.16e}"
        elif kind == 1:
            d = _digits(rng, 18, 40)
            p = rng.randint(0, len(d))
            s = sign + d[:p] + "." + d[p:]
        elif kind == 2:
            d = _digits(rng, 1, 25)
            s = f"{sign}{d[0]}.{d[1:] or '0'}{rng.choice('eE')}{rng.randint(-300, 300)}"
        elif kind == 3:  # subnormal-ish: near 2.2e-308 and below, down to 4.9e-324
            d = _digits(rng, 1, 20)
            s = f"{sign}{d[0]}.{d[1:] or '0'}e-{rng.randint(300, 323)}"
        elif kind == 4:
            s = repr(rng.uniform(-1, 1) * 10.0 ** rng.randint(-30, 30))
        elif kind == 5:
            s = (
                f"{sign}.{_digits(rng, 1, 20)}"
                if rng.random() < 0.5
                else f"{sign}{_digits(rng, 1, 17)}."
            )
        else:
            s = f"{rng.randint(-(10**6), 10**6) / 10 ** rng.randint(1, 6)}"
        out.append(s)
    return out


STRINGS = decimal_strings(N_STRINGS)
WANT = np.array([float(s) for s in STRINGS])


def _grid(strings):
    """The strings as rows of N_COLS feature cells (the last row padded with '1.5')."""
    rows = [list(strings[i : i + N_COLS]) for i in range(0, len(strings), N_COLS)]
    rows[-1] += ["1.5"] * (N_COLS - len(rows[-1]))
    return rows


def _want(strings):
    return np.array([[float(c) for c in r] for r in _grid(strings)])


def _csv_text(strings, sep=","):
    lines = [sep.join([f"f{j}" for j in range(N_COLS)] + ["cls"])]
    lines += [sep.join(r + ["ab"[i % 2]]) for i, r in enumerate(_grid(strings))]
    return "\n".join(lines) + "\n"


def _arff_text(strings, variant="plain"):
    head = "@relation r\n" + "".join(f"@attribute f{j} numeric\n" for j in range(N_COLS))
    head += "@attribute cls {a,b}\n@data\n"
    rows = _grid(strings)
    lines = []
    for i, r in enumerate(rows):
        cls = "ab"[i % 2]
        if variant == "quoted":
            cls = f"'{cls}'"
        lines.append(",".join(r + [cls]))
    if variant == "missing":
        lines.append(",".join(["?"] * N_COLS + ["a"]))
    return head + "\n".join(lines) + "\n"


def _features(X):
    return np.asarray(X.to_numpy() if hasattr(X, "to_numpy") else X.toarray(), dtype=float)


def _check(got, want, what):
    got = np.asarray(got, dtype=float)
    assert got.shape == want.shape, what
    bad = np.flatnonzero(got.ravel() != want.ravel())
    assert bad.size == 0, (
        f"{what}: {bad.size} of {want.size} numbers misread, e.g. "
        f"{[(repr(float(want.ravel()[k])), repr(float(got.ravel()[k]))) for k in bad[:3]]}"
    )


def test_the_strings_are_hard():
    """The test data hold what the docstring claims (a test that cannot fail is a defect)."""
    assert len(set(STRINGS)) > 0.99 * N_STRINGS
    assert np.isfinite(WANT).all()
    assert sum(len(s.lstrip("+-").replace(".", "").split("e")[0]) >= 17 for s in STRINGS) > 5000
    assert (np.abs(WANT[WANT != 0]) < 2.2250738585072014e-308).sum() > 100  # subnormals
    assert (WANT < 0).sum() > 5000 and any(s.startswith("+") for s in STRINGS)
    assert any(s.startswith((".", "-.", "+.")) for s in STRINGS)
    assert any(s.endswith(".") for s in STRINGS) and any("E" in s for s in STRINGS)


@pytest.mark.parametrize(
    "version,kwargs",
    [
        ("1.5.3", {"float_precision": "round_trip"}),
        ("2.2.3", {"float_precision": "round_trip"}),
        ("3.0.6", {"float_precision": "round_trip"}),
        ("3.0.0rc1", {"float_precision": "round_trip"}),
        ("3.1.0", {}),
        ("3.1.1", {}),
        ("3.2.0.dev0+12.gabc", {}),
        ("4.0.0", {}),
        ("nonsense", {"float_precision": "round_trip"}),
    ],
)
def test_exact_float_keywords_per_pandas_version(version, kwargs):
    """pandas' default float converter is correctly rounded from 3.1 on only (3.0.x is not)."""
    assert _exact_floats(version) == kwargs


@pytest.mark.parametrize("compression", [None, "gzip"])
@pytest.mark.parametrize("reader", [read_csv, conftest_read_csv], ids=["library", "tests"])
def test_read_csv_wrapper_is_exact(tmp_path, reader, compression):
    """The wrapper the bundled datasets' loaders and the tests' fixture readers use."""
    text = "x\n" + "\n".join(STRINGS) + "\n"
    path = tmp_path / "x.csv"
    if compression:
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    _check(reader(path, compression=compression)["x"].to_numpy(), WANT, f"read_csv({compression})")
    tsv = tmp_path / "x.tsv"
    tsv.write_text("\n".join(f"r{i}\t{s}" for i, s in enumerate(STRINGS)) + "\n")
    got = reader(tsv, sep="\t", header=None, index_col=0)
    _check(got.iloc[:, 0].to_numpy(), WANT, "read_csv(sep='\\t')")


def test_read_csv_wrapper_refuses_what_would_make_it_inexact():
    with pytest.raises(TypeError, match="float_precision"):
        read_csv("x.csv", float_precision="high")
    with pytest.raises(TypeError, match="engine='python'"):
        read_csv("x.csv", engine="python")


def test_numpy_loadtxt_is_exact(tmp_path):
    """The datasets' loaders read whitespace-separated files with ``numpy.loadtxt``."""
    path = tmp_path / "x.txt"
    path.write_text("\n".join("  ".join(r) for r in _grid(STRINGS)) + "\n")
    _check(np.loadtxt(path), _want(STRINGS), "numpy.loadtxt")


@pytest.mark.parametrize("name,sep", [("d.csv", ","), ("d.csv.gz", ","), ("d.tsv", "\t")])
def test_csv_data_files_are_exact(tmp_path, name, sep):
    path = tmp_path / name
    text = _csv_text(STRINGS, sep)
    if name.endswith(".gz"):
        path.write_bytes(gzip.compress(text.encode()))
    else:
        path.write_text(text)
    X, _ = load_data(path)
    _check(_features(X), _want(STRINGS), f"load_data({name})")


def test_csv_small_reading_is_exact(tmp_path):
    part = STRINGS[:4000]  # read_small reads files of at most SMALL_CELLS cells
    path = tmp_path / "d.csv"
    path.write_text(_csv_text(part))
    got = read_small(path)
    assert got is not None, "read_small gave the file to load_data"
    _check(got[0].values, _want(part), "read_small(csv)")


@pytest.mark.parametrize("variant", ["plain", "missing", "quoted"])
def test_arff_files_are_exact(tmp_path, variant):
    """The three parsing paths of a dense ARFF file."""
    path = tmp_path / "d.arff"
    path.write_text(_arff_text(STRINGS, variant))
    want = _want(STRINGS)
    X, _ = load_data(path)
    got = _features(X)
    if variant == "missing":
        assert np.isnan(got[-1]).all()
        got = got[:-1]
    _check(got, want, f"load_data(arff, {variant})")
    frame = read_arff(path)
    _check(
        frame.iloc[: want.shape[0], :N_COLS].to_numpy(dtype=float), want, f"read_arff({variant})"
    )


def test_arff_small_reading_is_exact(tmp_path):
    part = STRINGS[:4000]
    path = tmp_path / "d.arff"
    path.write_text(_arff_text(part))
    got = read_small(path)
    assert got is not None, "read_small gave the file to load_data"
    _check(got[0].values, _want(part), "read_small(arff)")


def test_sparse_arff_files_are_exact(tmp_path):
    head = "@relation r\n" + "".join(f"@attribute f{j} numeric\n" for j in range(N_COLS))
    head += "@attribute cls {a,b}\n@data\n"
    rows = _grid(STRINGS)
    lines = [
        "{" + ", ".join(f"{j} {v}" for j, v in enumerate(r)) + f", {N_COLS} {'ab'[i % 2]}}}"
        for i, r in enumerate(rows)
    ]
    path = tmp_path / "d.arff"
    path.write_text(head + "\n".join(lines) + "\n")
    X, _ = read_sparse_arff(path)
    _check(X.toarray(), _want(STRINGS), "read_sparse_arff")
    X, _ = load_data(path, sparse=True)
    _check(X.toarray(), _want(STRINGS), "load_data(arff, sparse=True)")


def test_svmlight_files_are_exact(tmp_path):
    rows = _grid(STRINGS)
    path = tmp_path / "d.svm"
    path.write_text(
        "\n".join(
            f"{i % 2} " + " ".join(f"{j + 1}:{v}" for j, v in enumerate(r))
            for i, r in enumerate(rows)
        )
        + "\n"
    )
    X, _ = read_svmlight(path)
    _check(X.toarray(), _want(STRINGS), "read_svmlight")
    X, _ = load_data(path)
    _check(X.toarray(), _want(STRINGS), "load_data(svmlight)")


def test_list_files_are_exact(tmp_path):
    rows = _grid(STRINGS)
    path = tmp_path / "lists.csv"
    path.write_text(
        "feature,"
        + ",".join(f"l{j}" for j in range(N_COLS))
        + "\n"
        + "\n".join(f"g{i}," + ",".join(r) for i, r in enumerate(rows))
        + "\n"
    )
    lists = read_lists(path, kind="scores")
    _check(lists.scores, _want(STRINGS), "read_lists")


# hypothesis: any finite decimal number a file may hold, through every reader at once
_DECIMALS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda x: f"{x:.16e}"),
    st.builds(
        lambda s, i, f, e: f"{s}{i}.{f}e{e}",
        st.sampled_from(["", "-", "+"]),
        st.text("0123456789", min_size=1, max_size=20),
        st.text("0123456789", min_size=0, max_size=20),
        st.integers(-340, 290),
    ),
).filter(lambda s: np.isfinite(float(s)))


@given(st.lists(_DECIMALS, min_size=2 * N_COLS, max_size=4 * N_COLS))
@example(
    [
        "2.2250738585072011e-308",
        "4.9406564584124654e-324",
        "-1.7976931348623157e+308",
        "0.1000000000000000055511151231257827",
        "9007199254740993.0",
        "-0.0",
        "1.00000000000000011102230246251565404236316680908203125",
        "7.2057594037927933e16",
    ]
)
def test_every_reader_reads_decimals_as_float_does(tmp_path_factory, strings):
    tmp = tmp_path_factory.mktemp("dec")
    want = _want(strings)
    (tmp / "d.csv").write_text(_csv_text(strings))
    _check(_features(load_data(tmp / "d.csv")[0]), want, "load_data(csv)")
    (tmp / "d.arff").write_text(_arff_text(strings))
    _check(_features(load_data(tmp / "d.arff")[0]), want, "load_data(arff)")
    (tmp / "x.csv").write_text("x\n" + "\n".join(strings) + "\n")
    _check(
        read_csv(tmp / "x.csv")["x"].to_numpy(), np.array([float(s) for s in strings]), "read_csv"
    )
    (tmp / "d.svm").write_text(
        "\n".join(
            f"{i % 2} " + " ".join(f"{j + 1}:{v}" for j, v in enumerate(r))
            for i, r in enumerate(_grid(strings))
        )
        + "\n"
    )
    _check(read_svmlight(tmp / "d.svm")[0].toarray(), want, "read_svmlight")


def test_every_pandas_csv_reading_goes_through_the_exact_wrapper():
    """A direct ``pandas.read_csv`` in the library would parse with pandas' default converter,
    inexact before pandas 3.1: every CSV reading goes through ``_utils.tabular.read_csv``."""
    import re
    from pathlib import Path

    import rankfusion

    root = Path(rankfusion.__file__).parent
    direct = re.compile(r"(?<![`\w.])(?:pd|pandas)\.read_(?:csv|table|fwf)\(")  # not ``…`` prose
    found = [
        f"{p.relative_to(root)}:{i}"
        for p in sorted(root.rglob("*.py"))
        if p.name != "tabular.py"
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if direct.search(line) and not line.lstrip().startswith("#")
    ]
    assert not found, f"pandas.read_csv called directly (use _utils.tabular.read_csv): {found}"
