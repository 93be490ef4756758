"""``rankfusion rank`` on small dense ARFF files: the route without pandas
(``rankfusion.io.arff.small_arff`` through ``read_small``) prints what the general route prints
(``load_data`` + pandas), byte for byte, errors and warnings included, on the Weka example files
and on hostile ones; oracle: the general route itself, forced by turning the small route off."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from small_route_helpers import both_routes

from rankfusion.io import read_small

ARFF_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "cfs" / "data"


def _arff(header, rows, cls="{a,b}"):
    attrs = "".join(f"@attribute {h} numeric\n" for h in header)
    return f"@relation r\n{attrs}@attribute cls {cls}\n@data\n" + "".join(
        r + "\n" for r in rows)


_ROWS = ["1.5,2,a", "3,4.25,b", "5,6,a", "2,8,b", "7,1,a", "4,3,b"]

# (text, extra options, whether the small route must take it)
CASES = [
    (_arff(["f0", "f1"], _ROWS), [], True),
    (_arff(["f0", "f1"], _ROWS, "{b,a}"), [], True),  # declared order, not sorted
    (_arff(["f0", "f1"], _ROWS, "{a,b,c}"), [], True),  # a class that never occurs
    (_arff(["f0", "f1"], _ROWS[:2] + ["?,6,a"] + _ROWS[3:]), [], False),  # missing value
    (_arff(["f0", "f1"], _ROWS[:2] + ["5,6,?"] + _ROWS[3:]), [], False),  # missing label
    (_arff(["f0", "f1"], _ROWS[:2] + ["inf,6,a"] + _ROWS[3:]), [], False),
    (_arff(["f0", "f1"], _ROWS[:2] + ["nan,6,a"] + _ROWS[3:]), [], False),
    (_arff(["f0", "f1"], _ROWS[:2] + ["5,6,c"] + _ROWS[3:]), [], False),  # undeclared
    (_arff(["f0", "f1"], _ROWS[:2] + ["5,6"] + _ROWS[3:]), [], False),  # a short row
    (_arff(["f0", "f1"], _ROWS[:2] + ["5,6,a,1"] + _ROWS[3:]), [], False),
    (_arff(["f0", "f1"], _ROWS[:2] + ["5,x,a"] + _ROWS[3:]), [], False),  # text in numbers
    (_arff(["f0", "f1"], _ROWS[:2] + ["5, 6,a"] + _ROWS[3:]), [], False),  # a space
    (_arff(["f0", "f1"], _ROWS[:2] + ["5,6,'a'"] + _ROWS[3:]), [], True),  # quoted class
    (_arff(["f0", "f1"], _ROWS[:2] + ["{0 5,2 a}"] + _ROWS[3:]), [], False),  # sparse
    (_arff(["f0", "f1"], ["1,2,a", "1,3,a", "2,4,a"], "{a,b}"), [], False),  # one class
    (_arff(["f0", "f0"], _ROWS), [], False),  # a name declared twice
    (_arff(["'Unnamed: 0'", "f1"], _ROWS), [], False),
    (_arff(["row", "f1"], [f"{i},{r.split(',', 1)[1]}" for i, r in enumerate(_ROWS, 1)]),
     [], False),  # a row number
    (_arff(["f0", "f1"], [r.replace(",a", ",A") if i == 2 else r
                          for i, r in enumerate(_ROWS)], "{a,b,A}"), [], False),  # case
    (_arff(["'f 0'", "f1"], _ROWS), [], True),  # a quoted name
    (_arff(["f0", "f1"], ["1e3,-2.5E-2,a", "+3,.5,b", "5.,6,a", "-0,8,b", "7,1,a"]),
     [], True),
    (_arff(["f0", "f1"], _ROWS), ["--target", "cls"], True),
    (_arff(["f0", "f1"], _ROWS), ["--target", "f1"], False),  # a numeric target: an error
    (_arff(["f0", "f1"], _ROWS), ["--target", "nope"], False),
    (_arff(["f0", "f1"], _ROWS), ["--drop", "f0"], False),
    (_arff(["f0", "f1"], _ROWS), ["--rankers", "info_gain,gain_ratio"], True),
    ("@relation r\n@attribute f0 numeric\n@attribute s string\n@attribute cls {a,b}\n"
     "@data\n1,x,a\n2,y,b\n3,z,a\n", [], False),
    ("@relation r\n@attribute f0 numeric\n@attribute cls {a,b}\n@data\n", [], False),
    ("@relation r\n@data\n1,a\n", [], False),
    ("not an arff file\n", [], False),
    (_arff(["f0", "f1"], [r[:-1] + f"'{r[-1]}'" for r in _ROWS]), [], True),  # Weka's quotes
    (_arff(["f0", "f1"], [r[:-1] + f'"{r[-1]}"' for r in _ROWS]), [], True),
    (_arff(["f0", "f1"], [r[:-1] + f"'{r[-1]} x'" for r in _ROWS], "{'a x','b x'}"), [],
     False),  # a space inside the quotes
    (_arff(["f0", "f1"], [r[:-1] + f"'{r[-1]},x'" for r in _ROWS], "{'a,x','b,x'}"), [],
     False),  # a comma inside the quotes
    (_arff(["f0", "f1"], [r[:-1] + f"'{r[-1]}\\'x'" for r in _ROWS], "{'a\\'x','b\\'x'}"),
     [], False),  # an escaped quote
    (_arff(["f0", "f1"], ["'1',2,'a'", "3,4,'b'", "5,6,'a'", "7,8,'b'"]), [], False),
    ("@relation r\n@attribute f0 numeric\n@attribute cls {a,b}\n% a comment\n@data\n"
     "1,a % trailing\n2,b\n3,a\n4,b\n", [], True),
]


@pytest.mark.parametrize("text, extra, small", CASES)
def test_small_route_prints_what_the_general_route_prints(tmp_path, capsys, monkeypatch,
                                                          text, extra, small):
    path = tmp_path / "d.arff"
    path.write_text(text, encoding="utf-8")
    got, want, taken = both_routes(["rank", path, *extra], capsys, monkeypatch)
    assert got == want
    assert taken == small


@pytest.mark.parametrize("name", sorted(p.name for p in ARFF_DIR.glob("*.arff.gz")))
def test_weka_files_print_alike(tmp_path, capsys, monkeypatch, name):
    # the Weka example files as they are, and unzipped
    plain = tmp_path / name.removesuffix(".gz")
    plain.write_bytes(gzip.decompress((ARFF_DIR / name).read_bytes()))
    for path in (ARFF_DIR / name, plain):
        got, want, _ = both_routes(["rank", path, "--rankers", "info_gain,symmetrical_uncertainty"],
                             capsys, monkeypatch)
        assert got == want


def test_iris_takes_the_small_route_with_declared_class_order(tmp_path):
    path = tmp_path / "iris.arff"
    path.write_bytes(gzip.decompress((ARFF_DIR / "iris.arff.gz").read_bytes()))
    data, target = read_small(path)
    assert target == "class" and data.n_samples == 150 and data.n_features == 4
    assert data.classes.tolist() == ["Iris-setosa", "Iris-versicolor", "Iris-virginica"]
    np.testing.assert_array_equal(np.bincount(data.y), [50, 50, 50])
    assert read_small(path, format="csv") is None
    assert read_small(path, drop=["sepallength"]) is None


def test_small_arff_imports_neither_pandas_nor_numba(tmp_path):
    path = tmp_path / "iris.arff"
    path.write_bytes(gzip.decompress((ARFF_DIR / "iris.arff.gz").read_bytes()))
    code = ("import sys; from rankfusion.cli import main; "
            f"main(['rank', {str(path)!r}, '--rankers', 'info_gain']); "
            "print(sorted(m for m in ('pandas', 'numba') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"
