"""``rankfusion.workflows``: each command's work as one library call returning one result.

Oracles: the command line itself — a result's ``summary()`` is what the command prints, its
``save`` writes the command's ``--out`` files byte for byte (a run's record differs only by
its timings and the options it was given) — and the result's own ``tables()`` for the other
output formats (CSV read back by ``pandas.read_csv``, JSON by ``json.loads``).
"""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pandas as pd
import pytest

from conftest import read_csv
from rankfusion.cli import main
from rankfusion.workflows import (
    OUTPUT_FORMATS,
    AdviceRun,
    AggregationRun,
    DemoRun,
    RankingRun,
    SelectionRun,
    SVMRFERun,
    WorkflowRun,
    run_advice,
    run_aggregation,
    run_demo,
    run_ranking,
    run_selection,
    run_svm_rfe,
)

TIMES = re.compile(r"(\d+\.\d\d) s")


def _untimed(text: str) -> str:
    return TIMES.sub("T s", text)


@pytest.fixture
def data_csv(tmp_path):
    """60 rows, 3 classes, 5 features of which f0 carries the class, plus an id column."""
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b", "c"], 20)
    X = rng.normal(size=(60, 5))
    X[:, 0] += np.repeat([0.0, 3.0, 6.0], 20)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(5)])
    frame.insert(0, "id", [f"s{i}" for i in range(60)])
    frame["cls"] = y
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.fixture
def scores_csv(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("feature,A,B,C\ng1,0.9,0.8,0.7\ng2,0.5,0.6,0.1\ng3,0.1,0.2,0.9\n"
                    "g4,0.3,0.1,0.4\n")
    return path


def _cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


# ------------------------------------------------------------------ one call, one result
def test_run_ranking_is_the_rank_command(data_csv, tmp_path, capsys):
    printed = _cli(capsys, "rank", data_csv, "-t", "cls", "--drop", "id", "-r",
                   "f_classif,relieff", "--out", tmp_path / "cli.csv")
    run = run_ranking(data_csv, "cls", drop="id", rankers="f_classif,relieff")
    assert isinstance(run, RankingRun) and isinstance(run, WorkflowRun)
    # the command's text, but for the line naming the file it wrote
    assert run.summary() + "\n" + f"# written to {tmp_path / 'cli.csv'}\n" == printed
    assert run.save(tmp_path / "lib.csv") == [tmp_path / "lib.csv"]
    assert (tmp_path / "lib.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    assert list(run.tables()) == ["scores"]


def test_run_ranking_small_route_gives_the_general_result(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("f0,f1,cls\n1,2,a\n3,4,b\n5,6,a\n7,1,b\n")
    light = run_ranking(path, rankers="info_gain,gain_ratio")
    general = run_ranking(pd.read_csv(path), rankers="info_gain,gain_ratio")
    assert light.light and not general.light
    pd.testing.assert_frame_equal(light.table(), general.table())
    assert light.summary().split("\n", 1)[1] == general.summary().split("\n", 1)[1]
    assert general.summary().startswith("# <DataFrame>: 4 samples, 2 features")


def test_run_aggregation_is_the_aggregate_command(scores_csv, tmp_path, capsys):
    printed = _cli(capsys, "aggregate", scores_csv, "--input", "scores", "--rules", "kfirst",
                   "--k", "2", "--out", tmp_path / "cli.csv")
    notes = []
    run = run_aggregation(scores_csv, "kfirst", params={"k": 2}, input="scores",
                          log=notes.append)
    assert isinstance(run, AggregationRun) and notes == []  # the kind was given
    assert run.summary() + f"\n# written to {tmp_path / 'cli.csv'}\n" == printed
    run.save(tmp_path / "lib.csv")
    assert (tmp_path / "lib.csv").read_bytes() == (tmp_path / "cli.csv").read_bytes()
    run_aggregation(scores_csv, "borda", log=notes.append)
    assert len(notes) == 1 and notes[0].startswith(f"read {scores_csv} as scores")
    assert notes[0].endswith("; say --input to choose")


def test_run_svm_rfe_is_the_svm_rfe_command(data_csv, tmp_path, capsys):
    printed = _cli(capsys, "svm-rfe", data_csv, "-t", "cls", "--drop", "id", "--rules",
                   "kfirst,average", "--out", tmp_path / "cli.csv", "--lists-out",
                   tmp_path / "cli_lists.csv", "--no-progress", "--top", "3")
    run = run_svm_rfe(data_csv, "cls", drop="id", rules="kfirst,average", top=3)
    assert isinstance(run, SVMRFERun)
    assert _untimed(run.summary()) in _untimed(printed)
    written = run.save(tmp_path / "lib.csv", lists_out=tmp_path / "lib_lists.csv")
    assert written == [tmp_path / "lib.csv", tmp_path / "lib_lists.csv"]
    for a, b in (("lib.csv", "cli.csv"), ("lib_lists.csv", "cli_lists.csv")):
        assert (tmp_path / a).read_bytes() == (tmp_path / b).read_bytes()
    assert run.tables()["top_features"].shape == (3, 2)


def test_run_selection_is_the_select_command(data_csv, tmp_path, capsys):
    args = dict(rankers="info_gain,relieff", n_bootstraps=3, subset="k-step",
                estimators="naive_bayes", random_state=5)
    printed = _cli(capsys, "select", data_csv, "-t", "cls", "--drop", "id", "-r",
                   args["rankers"], "-b", "3", "-k", "k-step", "--estimators", "naive_bayes",
                   "--random-state", "5", "--no-progress", "--out", tmp_path / "cli")
    run = run_selection(data_csv, "cls", drop="id", **args)
    assert isinstance(run, SelectionRun) and run.written == []
    # the printed text, but for the line of the files written
    lines = [line for line in printed.splitlines() if not line.startswith("# wrote")]
    assert _untimed(run.summary()).splitlines() == _untimed("\n".join(lines[:-2] + lines[-1:])
                                                            ).splitlines()
    files = run.save(tmp_path / "lib")
    names = sorted(f.name for f in files)
    assert names == sorted(p.name for p in (tmp_path / "cli").iterdir())
    for name in names:
        if name != "summary.json":
            assert (tmp_path / "lib" / name).read_bytes() == \
                (tmp_path / "cli" / name).read_bytes(), name
    lib, cli = (json.loads((tmp_path / d / "summary.json").read_text()) for d in ("lib", "cli"))
    for record in (lib, cli):
        record.pop("seconds"), record.pop("options")
    assert lib == cli
    assert set(run.tables()) == {"subset", "subset_curve", "stability"}
    assert run.tables()["subset"]["feature"].tolist() == run.subset()


def test_run_advice_is_the_advise_command(data_csv, tmp_path, capsys):
    kw = dict(rankers="info_gain,f_classif", rules="borda", sizes="1,2", cv=2, inner_cv=2,
              repeats=1, random_state=0)
    printed = _cli(capsys, "advise", data_csv, "-t", "cls", "--drop", "id", "-r",
                   kw["rankers"], "--rules", "borda", "--sizes", "1,2", "--cv", "2",
                   "--inner-cv", "2", "--repeats", "1", "--random-state", "0", "--out",
                   tmp_path / "cli")
    run = run_advice(data_csv, "cls", drop="id", **kw)
    assert isinstance(run, AdviceRun)
    assert _untimed(run.summary()).splitlines()[:-1] == \
        _untimed(printed).splitlines()[:-3]  # before the files written and the time
    run.save(tmp_path / "lib")
    assert (tmp_path / "lib" / "advice.csv").read_bytes() == \
        (tmp_path / "cli" / "advice.csv").read_bytes()
    plan = run_advice(data_csv, "cls", drop="id", dry_run=True, **kw)
    assert plan.advice is None and plan.MAIN_TABLE == "plan"
    with pytest.raises(ValueError, match="dry run"):
        plan.save(tmp_path / "never")


def test_run_demo_lists_is_the_demo_command(capsys):
    printed = _cli(capsys, "demo", "--lists", "--top", "3")
    run = run_demo(lists=True, top=3)
    assert isinstance(run, DemoRun) and run.MAIN_TABLE == "rules"
    assert _untimed(run.summary() + "\n") == _untimed(printed)
    assert list(run.tables()) == ["inputs", "rules"]
    with pytest.raises(ValueError, match="no figure"):
        run.save("never.png")


def test_run_demo_saves_the_figure_the_command_saves(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    run = run_demo(top=5, n_splits=2, plot=tmp_path / "a.png")
    assert run.plot == tmp_path / "a.png" and (tmp_path / "a.png").stat().st_size > 0
    assert run.summary().endswith(f"error curves saved to {tmp_path / 'a.png'}")
    assert set(run.tables()) == {"top_genes", "agreement", "errors"}
    with pytest.raises(FileExistsError, match="--overwrite"):
        run.save(tmp_path / "a.png")
    assert run.save(tmp_path / "b.png")[0].name == "b.png"


# ------------------------------------------------------------------ formats and streams
def test_render_formats_hold_the_tables(data_csv):
    run = run_ranking(data_csv, "cls", drop="id", rankers="f_classif,relieff", top=3)
    table = run.tables()["scores"]
    for fmt, sep in (("csv", ","), ("tsv", "\t")):
        # read exactly: pandas' default float parser before 3.1 may lose the last bit
        back = read_csv(io.StringIO(run.render(fmt)), sep=sep, index_col=0)
        pd.testing.assert_frame_equal(back, table, check_exact=True)
    assert json.loads(run.render("json")) == [
        {"feature": f, **row} for f, row in table.to_dict(orient="index").items()]
    assert run.render("table") == run.summary() + "\n"
    with pytest.raises(ValueError, match="output_format must be one of"):
        run.render("xml")
    assert OUTPUT_FORMATS == ("table", "csv", "tsv", "json")


def test_save_into_a_stream_writes_the_file_bytes(data_csv, tmp_path):
    run = run_ranking(data_csv, "cls", drop="id")
    stream = io.StringIO()
    assert run.save(stream) == []
    run.save(tmp_path / "f.csv")
    assert stream.getvalue() == (tmp_path / "f.csv").read_text()


def test_out_is_checked_before_the_work(data_csv, tmp_path):
    (tmp_path / "exists.csv").write_text("x")
    with pytest.raises(FileExistsError, match="--overwrite"):
        run_ranking(data_csv, "cls", drop="id", out=tmp_path / "exists.csv")
    with pytest.raises(ValueError, match="is the input file"):
        run_svm_rfe(data_csv, "cls", drop="id", out=data_csv, overwrite=True)
    with pytest.raises(ValueError, match="'-' is standard output"):
        run_aggregation(data_csv, out="-")
