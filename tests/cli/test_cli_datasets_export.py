"""``rankfusion datasets --export NAME --out FILE``: the CLI wires
:func:`rankfusion.datasets.export_dataset`; every hostile command line ends in one line
``rankfusion: error: …`` (or argparse's usage error) naming the option, status 2, and
nothing written or replaced. ``--name`` points to the documentation, not to a file inside
the installed package. Oracle: ``load(name, as_frame=True)``."""

import pandas as pd
import pytest

from rankfusion.cli import main
from rankfusion.datasets import load


def _run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_export_writes_a_file_every_command_reads(tmp_path, capsys):
    out = tmp_path / "parkinsons.csv"
    code, stdout, err = _run(["datasets", "--export", "parkinsons", "--out", out], capsys)
    assert code == 0 and stdout == "" and "wrote parkinsons" in err
    frame = pd.read_csv(out)
    assert frame.shape == (195, 23) and frame.columns[-1] == "class"
    code, stdout, _ = _run(["rank", out, "--rankers", "info_gain", "--top", "3"], capsys)
    assert code == 0 and "info_gain" in stdout


def test_out_dash_writes_csv_to_stdout(capsys):
    code, stdout, err = _run(["datasets", "--export", "iris", "--out", "-"], capsys)
    assert code == 0 and err == ""
    lines = stdout.splitlines()
    assert lines[0] == "sepallength,sepalwidth,petallength,petalwidth,class"
    assert len(lines) == 151


@pytest.mark.parametrize("flag", ["--force", "--overwrite"])
def test_force_replaces(tmp_path, capsys, flag):
    out = tmp_path / "iris.parquet"
    out.write_text("precious")
    code, _, _ = _run(["datasets", "--export", "iris", "--out", out, flag], capsys)
    assert code == 0
    assert pd.read_parquet(out).shape == (150, 5)


HOSTILE = [
    (["--export", "stjude_leukaemia", "--out", "x.csv"], ["unknown dataset", "did you mean"]),
    # the command line's words: the option and the command that lists the names
    (["--export", "nope", "--out", "x.csv"],
     ["--export: unknown dataset 'nope'", "`rankfusion datasets` lists the"]),
    (["--export", "irs", "--out", "x.csv"], ["did you mean 'iris'", "`rankfusion datasets`"]),
    (["--name", "nope"], ["--name: unknown dataset 'nope'", "`rankfusion datasets`"]),
    (["--export", "iris", "--out", "x.txt"], ["out:", ".csv, .csv.gz, .parquet"]),
    (["--export", "iris", "--out", "x.xlsx"], [".csv, .csv.gz, .parquet"]),
    (["--export", "iris", "--out", "existing.csv"], ["exists", "--force"]),
    (["--export", "iris", "--out", "folder"], ["is a folder"]),
    (["--export", "iris", "--out", "nowhere/x.csv"], ["does not exist"]),
    (["--export", "iris"], ["--export needs --out FILE"]),
    (["--export", "iris", "--out", "-", "--force"], ["--force", "standard output"]),
    (["--out", "x.csv"], ["--out goes with --export"]),
    (["--force"], ["--force goes with --export"]),
    (["--name", "iris", "--export", "iris", "--out", "x.csv"], ["--name and --export"]),
    (["--export", "golub_zscored", "--out", "x.csv"], ["not shipped", "RANKFUSION_DATA"]),
    (["--export"], ["expected one argument"]),
    (["--export", "iris", "--out"], ["expected one argument"]),
]


@pytest.mark.parametrize("argv, words", HOSTILE, ids=[" ".join(a) for a, _ in HOSTILE])
def test_hostile_command_lines(tmp_path, monkeypatch, capsys, argv, words):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RANKFUSION_DATA", raising=False)
    (tmp_path / "folder").mkdir()
    (tmp_path / "existing.csv").write_text("precious")
    before = sorted(p.name for p in tmp_path.iterdir())
    try:
        code, stdout, err = _run(["datasets", *argv], capsys)
    except SystemExit as exc:  # argparse's usage errors
        code, (stdout, err) = exc.code, capsys.readouterr()
    assert code == 2 and stdout == ""
    assert "Traceback" not in err and err.count("error:") == 1, err
    last = err.strip().splitlines()[-1]  # argparse prints its usage lines before it
    assert last.startswith(("rankfusion: error:", "rankfusion datasets: error:")), err
    for word in words:
        assert word in last, (word, err)
    assert "available_datasets()" not in err  # a Python function, not a command
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert (tmp_path / "existing.csv").read_text() == "precious"


def test_name_points_to_the_documentation_not_to_the_package_files(capsys):
    code, stdout, _ = _run(["datasets", "--name", "stjude"], capsys)
    assert code == 0
    assert "site-packages" not in stdout and "rankfusion/data/" not in stdout
    assert "Documentation:" in stdout and "datasets.html#stjude" in stdout
    assert load("stjude").DESCR == stdout.rstrip("\n")
