"""``rankfusion reproduce PAPER``: every paper's smoke reproduction runs end to end (its runs,
then its table scripts) and gives the committed smoke tables; a full reproduction over the
shipped results computes no cell; derived files are recomputed or named as cached; bad
arguments are refused with a message naming them."""

from __future__ import annotations

import importlib
import json
import re
import shutil
from pathlib import Path

import pytest

from rankfusion.cli import main
from rankfusion.experiments import runner
from rankfusion.experiments.reproduce import PAPERS, adoptable, find_experiments, reproduce

# the module (the package's ``reproduce`` is the function)
reproduce_mod = importlib.import_module("rankfusion.experiments.reproduce")

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENTS = ROOT / "experiments"
SHIPPED = EXPERIMENTS / "results"

#: Per paper: files the smoke reproduction writes, and those equal to the committed smoke
#: tables (byte for byte: the runs are seeded and the scripts deterministic).
SMOKE_FILES = {
    "izetta": (["tables_4_6.md", "claims.md", "curves.csv", "fig4_artificial.png"],
               ["tables_4_6.md", "claims.md"]),
    "fuzzy": (["tables.md", "table3.csv", "table4.csv", "fig4.csv", "fig4.png",
               "fig2_reduced.png", "figs23_reduced.csv"],
              ["table3.csv", "table4.csv", "fig4.csv"]),
    "nlc": (["tables.md", "table3.csv", "table4.csv"], ["table3.csv", "table4.csv"]),
    "bouaguel": (["tables.md", "tables.csv", "claims.csv", "all_data.csv"], ["tables.csv"]),
    "robust_fs": (["tables.md", "table3.csv", "robustness.csv", "all_data_smoke.csv"], []),
}


class _Spy:
    """Stands for the cell function: records the calls and fails them."""

    def __init__(self):
        self.calls = 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        raise AssertionError("a cell was computed")


@pytest.fixture
def spy(monkeypatch):
    s = _Spy()
    monkeypatch.setattr(runner, "run_cell", s)
    monkeypatch.setattr(runner, "run_cell_on_worker", s)
    return s


@pytest.fixture
def experiments_copy(tmp_path):
    """A copy of the repository's experiments/ folder (configurations, scripts, shipped
    results), as a fresh clone has it."""
    dst = tmp_path / "clone" / "experiments"
    shutil.copytree(EXPERIMENTS, dst, ignore=shutil.ignore_patterns("__pycache__"))
    return dst


def _same_numeric_stack(folder) -> bool:
    """Whether numpy, scipy, scikit-learn and pandas are the versions the shipped smoke results
    were computed with (their ``metadata.json``): only then are the regenerated tables compared
    byte for byte (another scikit-learn's solvers or another numpy's sums can move a digit; the
    lowest-versions CI run checks the tables' shape instead)."""
    import json
    from importlib.metadata import version

    meta = next(iter(sorted(folder.rglob("metadata.json"))), None)
    if meta is None:
        return True
    recorded = json.loads(meta.read_text()).get("versions", {})
    return all(recorded.get(pkg) in (None, version(pkg))
               for pkg in ("numpy", "scipy", "scikit-learn", "pandas"))


@pytest.mark.reproduce_smoke
@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_smoke_reproduction(paper, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    if paper == "fuzzy":  # a stale derived file in the folder is recomputed, not reused
        (out / "table4.csv").write_text("method,ASD\nplanted,1\n")
    code = main(["reproduce", paper, "--smoke", "--out", str(out), "--experiments",
                 str(EXPERIMENTS), "--no-progress"])
    text = capsys.readouterr().out
    assert code == 0
    assert f"reproduce {paper} (smoke)" in text and "cached" not in text
    made, equal = SMOKE_FILES[paper]
    for name in made:
        assert (out / name).is_file() and (out / name).stat().st_size > 0, name
    same = _same_numeric_stack(SHIPPED / paper / "smoke")
    for name in equal:
        shipped = (SHIPPED / paper / "smoke" / name).read_bytes()
        if same:
            assert (out / name).read_bytes() == shipped, name
        else:  # other library versions may move a last digit: the same table, header first
            got = (out / name).read_bytes()
            assert got.splitlines()[:1] == shipped.splitlines()[:1], name
            assert len(got.splitlines()) == len(shipped.splitlines()), name
    if paper == "fuzzy":
        assert "planted" not in (out / "table4.csv").read_text()
        assert "derived, computed in this run" in text


def test_full_bouaguel_from_the_shipped_results_computes_nothing(experiments_copy, spy,
                                                                 capsys):
    shipped = experiments_copy / "results" / "bouaguel" / "full"
    before = {p.name: p.read_bytes() for p in shipped.iterdir() if p.is_file()}
    code = main(["reproduce", "bouaguel", "--full", "--experiments", str(experiments_copy),
                 "--no-progress"])  # --out defaults to the shipped folder
    text = capsys.readouterr().out
    assert code == 0 and spy.calls == 0
    assert "72 cells, adopted" in text
    assert "cached" in text and "all_data.csv" in text  # reused, and said so
    # the tables regenerated from the shipped results are the committed ones
    for name in ("tables.md", "tables.csv", "claims.csv", "claims_all_data.csv"):
        assert (shipped / name).read_bytes() == before[name], name


def test_shipped_results_are_adoptable():
    for paper, modes in PAPERS.items():
        for config, sub in modes["full"].runs:
            assert adoptable(EXPERIMENTS / paper / config, SHIPPED / paper / "full" / sub), \
                (paper, config)


def test_a_changed_configuration_is_not_adopted(experiments_copy):
    cfg = experiments_copy / "bouaguel" / "full.toml"
    folder = experiments_copy / "results" / "bouaguel" / "full"
    assert adoptable(cfg, folder)
    cfg.write_text(cfg.read_text().replace("max_iter = 300", "max_iter = 301"))
    assert not adoptable(cfg, folder)
    (folder / "results.parquet").unlink()
    assert not adoptable(experiments_copy / "bouaguel" / "smoke.toml", folder)


def test_no_adopt_resumes_from_the_shipped_cells(experiments_copy, spy, tmp_path):
    out = tmp_path / "nlc"
    shutil.copytree(SHIPPED / "nlc" / "smoke", out)
    rep = reproduce("nlc", "smoke", out=out, experiments=experiments_copy, adopt=False,
                    tables=False)
    assert spy.calls == 0 and rep.computed == 0
    assert rep.runs[0]["status"] == "ran" and rep.runs[0]["reused"] == 28


def test_a_missing_cell_is_computed(experiments_copy, tmp_path, monkeypatch):
    out = tmp_path / "nlc"
    shutil.copytree(SHIPPED / "nlc" / "smoke", out)
    victim = sorted((out / "run" / "cells").iterdir())[0]
    victim.unlink()
    calls = []
    real = runner.run_cell
    monkeypatch.setattr(runner, "run_cell", lambda *a, **k: calls.append(1) or real(*a, **k))
    rep = reproduce("nlc", "smoke", out=out, experiments=experiments_copy, tables=False)
    assert rep.runs[0]["status"] == "ran" and rep.computed == 1 and len(calls) == 1
    assert victim.is_file()


def test_find_experiments(experiments_copy, monkeypatch, tmp_path):
    monkeypatch.delenv("RANKFUSION_EXPERIMENTS", raising=False)
    monkeypatch.chdir(experiments_copy.parent)  # the root of a clone
    assert find_experiments() == experiments_copy.resolve()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RANKFUSION_EXPERIMENTS", str(experiments_copy))
    assert find_experiments() == experiments_copy.resolve()
    assert find_experiments(str(experiments_copy)) == experiments_copy.resolve()
    # an installed package (no checkout beside it), run outside a clone
    monkeypatch.delenv("RANKFUSION_EXPERIMENTS")
    monkeypatch.setattr(reproduce_mod, "__file__", str(tmp_path / "a" / "b" / "c" / "d.py"))
    # ... installed by `pip install .` from a clone: the clone pip recorded
    monkeypatch.setattr(reproduce_mod, "_installed_from", lambda: experiments_copy.parent)
    assert find_experiments() == experiments_copy.resolve()
    monkeypatch.setattr(reproduce_mod, "_installed_from", lambda: None)
    with pytest.raises(ValueError, match="--experiments DIR"):
        find_experiments()


@pytest.mark.parametrize("value, what", [
    ("/nonexistent", "does not exist"),
    ("{file}", "is not a folder"),
    ("{empty}", "holds no <paper>/smoke.toml for izetta"),
], ids=["missing", "a file", "an empty folder"])
def test_a_wrong_environment_variable_is_refused_not_passed_over(experiments_copy, monkeypatch,
                                                                 tmp_path, capsys, value, what):
    (tmp_path / "file").write_text("x")
    (tmp_path / "empty").mkdir()
    value = value.format(file=tmp_path / "file", empty=tmp_path / "empty")
    monkeypatch.chdir(experiments_copy.parent)  # ./experiments would be found otherwise
    monkeypatch.setenv("RANKFUSION_EXPERIMENTS", value)
    with pytest.raises(ValueError, match=rf"RANKFUSION_EXPERIMENTS={re.escape(value)}: {what}"):
        find_experiments()
    assert find_experiments(experiments_copy) == experiments_copy.resolve()  # given: it wins
    assert main(["reproduce", "nlc", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and f"RANKFUSION_EXPERIMENTS={value}" in err
    assert "unset it" in err and "--experiments DIR" in err and not (tmp_path / "o").exists()


def test_installed_from_reads_pips_record(monkeypatch, tmp_path):
    from importlib import metadata

    class Dist:
        def __init__(self, text):
            self.text = text

        def read_text(self, name):
            assert name == "direct_url.json"
            return self.text

    for text, want in [
        (json.dumps({"url": tmp_path.as_uri(), "dir_info": {}}), tmp_path),
        ('{"url": "https://example.org/rankfusion.tar.gz"}', None),
        (None, None), ("not json", None), ('{"no_url": 1}', None),
    ]:
        monkeypatch.setattr(metadata, "distribution", lambda name, t=text: Dist(t))
        assert reproduce_mod._installed_from() == want


def test_the_cli_names_the_papers():
    from rankfusion.cli.reproduce import PAPER_NAMES

    assert PAPER_NAMES == tuple(PAPERS)


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"paper": "izeta"}, ValueError, "paper must be one of izetta"),
    ({"paper": 3}, ValueError, "paper must be one of"),
    ({"mode": "quick"}, ValueError, "mode must be one of smoke, full"),
    ({"mode": None}, ValueError, "mode must be"),
    ({"n_workers": 0}, ValueError, "n_workers must be an int ≥ 1, got 0"),
    ({"n_workers": True}, ValueError, "n_workers must be an int"),
    ({"n_workers": "2"}, ValueError, "n_workers must be an int"),
    ({"n_workers": 2, "scheduler": "tcp://x:1"}, ValueError, "not both"),
    ({"adopt": "yes"}, TypeError, "adopt must be True or False"),
    ({"tables": 1}, TypeError, "tables must be True or False"),
    ({"recompute_derived": "no"}, TypeError, "recompute_derived must be"),
    ({"out": 5}, TypeError, "out must be a folder path, got int"),
    ({"out": ""}, ValueError, "out must be a folder path, got an empty one"),
    ({"out": "  "}, ValueError, "out must be a folder path, got an empty one"),
    ({"experiments": 5}, TypeError, "experiments must be a folder path"),
    ({"experiments": "/nonexistent/experiments"}, ValueError,
     "experiments must be the experiments/ folder"),
])
def test_hostile_arguments(kwargs, exc, match, spy):
    args = {"paper": "nlc", **kwargs}
    with pytest.raises(exc, match=match):
        reproduce(args.pop("paper"), **args)
    assert spy.calls == 0


def test_out_is_a_file(tmp_path):
    f = tmp_path / "f"
    f.write_text("x")
    with pytest.raises(NotADirectoryError, match="is a file"):
        reproduce("nlc", out=f, experiments=EXPERIMENTS)


@pytest.mark.parametrize("argv, message", [
    (["reproduce", "nope"], "invalid choice"),
    (["reproduce", "nlc", "--out", "-"], "--out -"),
    (["reproduce", "nlc", "--dask-local", "0"], "--dask-local must be ≥ 1"),
    (["reproduce", "nlc", "--smoke", "--full"], "not allowed with"),
    (["reproduce", "nlc", "--experiments", "/nonexistent"], "experiments must be"),
    (["reproduce"], "the following arguments are required: PAPER"),
    (["reproduce", "NLC"], "invalid choice: 'NLC'"),
    (["reproduce", "nlc", "--dask-local", "abc"], "invalid int value: 'abc'"),
    (["reproduce", "nlc", "--dask-local", "-1"], "--dask-local must be ≥ 1"),
    (["reproduce", "nlc", "--dask-local", "2", "--scheduler", "tcp://x:1"], "not allowed with"),
    (["reproduce", "nlc", "--out"], "expected one argument"),
    (["reproduce", "nlc", "--out", ""], "out must be a folder path, got an empty one"),
    (["reproduce", "nlc", "--recompute-derived=yes"], "ignored explicit argument"),
    (["reproduce", "nlc", "--bogus"], "unrecognized arguments: --bogus"),
])
def test_cli_errors(argv, message, capsys):
    try:
        code = main(argv)
    except SystemExit as e:  # argparse's usage errors
        code = e.code
    assert code == 2
    assert message in capsys.readouterr().err


def test_a_failing_table_script_is_reported(experiments_copy, tmp_path):
    (experiments_copy / "nlc" / "tables.py").write_text("raise SystemExit('broken script')\n")
    out = tmp_path / "nlc"
    shutil.copytree(SHIPPED / "nlc" / "smoke", out)
    with pytest.raises(RuntimeError, match="broken script"):
        reproduce("nlc", "smoke", out=out, experiments=experiments_copy)


def test_summary_names_what_was_not_regenerated(tmp_path):
    rep = reproduce_mod.Reproduction("izetta", "full", tmp_path, tmp_path,
                                     not_rerun=list(PAPERS["izetta"]["full"].not_rerun))
    assert "not regenerated: fig7_timing" in rep.summary()
