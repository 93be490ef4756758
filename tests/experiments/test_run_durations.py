"""Reports that tell one truth: one duration per run, measured once and shown in every place
(the command line, the progress line's last line, ``metadata.json`` and the report's runs
table); the win matrix's ranking line by the statistic it names, never the input order; a
resumed advisor folder adding its time to the recorded one.

Oracles: the same number read back from each place (no wall-clock assertion), and for a
resumed folder ``seconds.total`` = the sum of ``seconds.runs``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))

from experiment_configs import tiny_config  # noqa: E402

from rankfusion.cli import main  # noqa: E402
from rankfusion.evaluation import win_matrix  # noqa: E402
from rankfusion.experiments.advice import STORE_NAME, advise_in_folder  # noqa: E402
from rankfusion.experiments.report import _win_ranking_text  # noqa: E402


def test_an_experiment_shows_one_duration_everywhere(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RANKFUSION_PROGRESS_INTERVAL", "0")  # a progress line per cell
    cfg = tmp_path / "t.toml"
    cfg.write_text(tiny_config(datasets=("iris",), rules=("borda",)))
    out = tmp_path / "o"
    assert main(["experiment", str(cfg), "--out", str(out)]) == 0
    printed, err = capsys.readouterr()
    command_line = re.search(r", (\d+\.\d) s → ", printed).group(1)
    progress = re.findall(r"rankfusion: cells: .*, (\d+\.\d) s elapsed, done", err)
    runs = json.loads((out / "metadata.json").read_text())["runs"]
    report = (out / "report" / "report.md").read_text(encoding="utf-8")
    row = next(line for line in report.splitlines() if "| finished | local |" in line)
    assert progress == [command_line]
    assert f"{runs[-1]['seconds']:.1f}" == command_line
    assert f"| {command_line} |" in row
    assert "drawn in" in printed  # the report's own time, said apart from the run's


def _errors(means, splits=6, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({m: mu + 0.01 * rng.normal(size=splits) for m, mu in means.items()})


def test_a_win_matrix_without_wins_ranks_nothing():
    tables = {d: _errors({"A": 0.2, "B": 0.2, "C": 0.2}, seed=i)[["A", "B", "C"]] * 0 + 0.2
              for i, d in enumerate(["d1", "d2"])}
    wm = win_matrix(tables)
    assert int(wm.wins.to_numpy().sum()) == 0
    text = _win_ranking_text(wm)
    assert text.startswith("no wins: no ranking") and "A" not in text


def test_a_win_matrix_ranks_by_net_wins_with_equal_ranks_for_ties():
    # C beats A and B on both data sets; A and B are indistinguishable: the line must not
    # follow the input order A, B, C
    tables = {d: _errors({"A": 0.30, "B": 0.30, "C": 0.10}, seed=i)
              for i, d in enumerate(["d1", "d2"])}
    wm = win_matrix(tables)
    assert wm.wins.loc["A", "B"] == wm.wins.loc["B", "A"] == 0
    text = _win_ranking_text(wm)
    assert "ranking by net wins" in text
    assert re.search(r"1\. C \(\+4\), 2\. [AB] \(-2\), 2\. [AB] \(-2\)", text), text


def test_a_resume_adds_its_time_to_the_recorded_one(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(48, 6))
    y = np.repeat([0, 1], 24)
    X[:, 0] += 2.0 * y
    kw = dict(rankers=("f_classif", "relieff"), rules=("borda",), sizes=(1, 2),
              estimator="naive_bayes", cv=2, inner_cv=2, n_repeats=1, random_state=3)
    out = tmp_path / "adv"
    first = advise_in_folder(X, y, out, progress=False, **kw)
    assert len(first.seconds) == 1
    assert first.advice.summary["seconds"]["total"] == first.seconds[0]
    again = advise_in_folder(X, y, out, progress=False, **kw)  # finished: a resume
    assert again.reused == again.total and not again.computed
    summary = json.loads((out / "summary.json").read_text())
    runs = summary["seconds"]["runs"]
    assert len(runs) == 2 and runs[0] == first.seconds[0]  # the first run's time kept
    assert summary["seconds"]["total"] == sum(runs)
    assert json.loads((out / STORE_NAME).read_text())["seconds"] == runs


def test_a_resumed_advise_command_prints_each_runs_time_and_their_sum(tmp_path, capsys):
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(rng.normal(size=(40, 4)), columns=["a", "b", "c", "d"])
    frame["cls"] = np.repeat(["x", "y"], 20)
    frame.loc[frame["cls"] == "y", "a"] += 2.0
    data = tmp_path / "d.csv"
    frame.to_csv(data, index=False)
    argv = ["advise", str(data), "-t", "cls", "-r", "f_classif,relieff", "--rules", "borda",
            "--sizes", "1,2", "--cv", "2", "--inner-cv", "2", "--repeats", "1",
            "--random-state", "0", "--no-progress", "--out", str(tmp_path / "adv")]
    assert main(argv) == 0
    capsys.readouterr()
    assert main(argv) == 0  # the finished folder resumed
    printed = capsys.readouterr().out
    summary = json.loads((tmp_path / "adv" / "summary.json").read_text())
    runs, total = summary["seconds"]["runs"], summary["seconds"]["total"]
    assert len(runs) == 2 and total == sum(runs)
    line = next(li for li in printed.splitlines() if "time over the folder" in li)
    parts = " + ".join(f"{v:.2f}" for v in runs)
    assert line.lstrip("# ") == (f"time over the folder's 2 runs: {parts} = {total:.2f} s "
                                 "(summary.json seconds.total)")
    assert f"advise {runs[-1]:.2f} s" in printed  # this run's own time, the same number
