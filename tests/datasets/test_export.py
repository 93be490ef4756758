"""``export_dataset``: a bundled data set written as CSV, gzip CSV or Parquet, read back equal
(the class last, named ``class``); hostile arguments each end in one error naming ``name``,
``out`` or ``force``, and nothing is written or replaced. Oracle: ``load(name, as_frame=True)``."""

import gzip
import io
import os

import numpy as np
import pandas as pd
import pytest

from rankfusion.datasets import EXPORT_FORMATS, export_dataset, load
from rankfusion.io import load_data


@pytest.mark.parametrize("ending", list(EXPORT_FORMATS))
def test_export_reads_back_as_the_loaded_frame(tmp_path, ending):
    path = tmp_path / f"wbc{ending}"
    assert export_dataset("wbc", path) == path
    expected = load("wbc", as_frame=True).frame
    got = pd.read_parquet(path) if ending == ".parquet" else pd.read_csv(path)
    assert list(got.columns) == list(expected.columns) and got.columns[-1] == "class"
    assert got.shape == expected.shape == (699, 10)
    num = expected.columns[:-1]
    np.testing.assert_array_equal(got[num].to_numpy(float), expected[num].to_numpy(float))
    assert got["class"].astype(str).tolist() == expected["class"].astype(str).tolist()
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left


def test_nominal_values_and_missing_cells_survive_the_csv(tmp_path):
    path = tmp_path / "lung.csv"
    export_dataset("lung_cancer", path)
    expected = load("lung_cancer", as_frame=True).frame
    X, y = load_data(path, target="class")
    assert y.name == "class" and len(y) == 32
    assert int(X.isna().sum().sum()) == int(expected.drop(columns="class").isna().sum().sum())


def test_gzip_is_deterministic_and_stream_gets_csv(tmp_path):
    a, b = tmp_path / "a.csv.gz", tmp_path / "b.csv.gz"
    export_dataset("iris", a)
    export_dataset("iris", b)
    assert a.read_bytes() == b.read_bytes()
    buffer = io.StringIO()
    assert export_dataset("iris", buffer) is None
    assert buffer.getvalue() == gzip.decompress(a.read_bytes()).decode()
    assert buffer.getvalue().splitlines()[0].endswith(",class")


def test_aliases_and_case_are_read_as_load_reads_them(tmp_path):
    export_dataset("Breast-W", tmp_path / "x.CSV")
    assert pd.read_csv(tmp_path / "x.CSV").shape == (699, 10)


def test_force_replaces_an_existing_file(tmp_path):
    path = tmp_path / "iris.csv"
    path.write_text("precious")
    export_dataset("iris", path, force=True)
    assert pd.read_csv(path).shape == (150, 5)


HOSTILE = [
    # (name, out (relative to tmp_path unless absolute/stream), force, error, words)
    ("irs", "x.csv", False, ValueError, ["unknown dataset 'irs'", "did you mean 'iris'"]),
    (3, "x.csv", False, TypeError, ["name must be a str"]),
    ("iris", "x.txt", False, ValueError, ["out:", ".csv, .csv.gz, .parquet"]),
    ("iris", "x.tsv", False, ValueError, ["out:", ".csv, .csv.gz, .parquet"]),
    ("iris", "x.gz", False, ValueError, ["out:", ".csv, .csv.gz, .parquet"]),
    ("iris", "x", False, ValueError, ["out:", "cannot tell the format"]),
    ("iris", ".csv", False, ValueError, ["out:", "cannot tell the format"]),
    ("iris", "", False, ValueError, ["out must name a file"]),
    ("iris", "   ", False, ValueError, ["out must name a file"]),
    ("iris", "folder.csv", False, ValueError, ["is a folder"]),
    ("iris", "missing/x.csv", False, ValueError, ["does not exist", "create it first"]),
    ("iris", "plain.csv/x.csv", False, ValueError, ["is not a folder"]),
    ("iris", "existing.csv", False, ValueError, ["exists", "force=True"]),
    ("iris", b"x.csv", False, TypeError, ["out must be a file name"]),
    ("iris", 5, False, TypeError, ["out must be a file name"]),
    ("iris", "x.csv", "maybe", TypeError, ["force must be a bool"]),
    ("iris", "x.csv", None, TypeError, ["force must be a bool"]),
    ("golub_zscored", "x.csv", False, FileNotFoundError, ["not shipped", "RANKFUSION_DATA"]),
]


@pytest.mark.parametrize("name, out, force, error, words", HOSTILE,
                         ids=[f"{h[0]}-{h[1]!s}-{h[2]}" for h in HOSTILE])
def test_hostile_arguments_fail_with_one_clear_error(tmp_path, monkeypatch, name, out, force,
                                                     error, words):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RANKFUSION_DATA", raising=False)
    (tmp_path / "folder.csv").mkdir()
    (tmp_path / "plain.csv").write_text("a file")
    (tmp_path / "existing.csv").write_text("precious")
    before = {p.name: (p.read_bytes() if p.is_file() else None) for p in tmp_path.iterdir()}
    with pytest.raises(error) as info:
        export_dataset(name, out, force=force)
    for word in words:
        assert word in str(info.value), (word, str(info.value))
    after = {p.name: (p.read_bytes() if p.is_file() else None) for p in tmp_path.iterdir()}
    assert after == before  # nothing written, nothing replaced
    assert not os.path.exists(tmp_path / "missing")
