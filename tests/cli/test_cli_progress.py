"""Signs of life of long runs: the work estimate printed on standard error before the work
(``rankfusion.selection.ensemble_work`` / ``svm_rfe_work``), a run whose resamples and lists
cannot fit in memory refused before any work, and progress lines on standard error when it is
not a terminal (``rankfusion._utils.progress``), rate-limited, silenced by ``--no-progress``.

Oracles: the ranker calls and aggregations an ``EnsembleSelector.fit`` really makes (counted by
wrapping the functions it calls), the binary problems the run really has, a fake clock for
the rate limit and the time left worked by hand; no wall-clock time is asserted (the interval
is set to 0 for the command-line runs, so that every finished piece prints its line)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rankfusion import EnsembleSelector
from rankfusion._utils import progress as progress_mod
from rankfusion._utils.progress import LineProgress, format_seconds, progress_bar, progress_interval
from rankfusion.cli import main
from rankfusion.selection import WorkEstimate, ensemble_work, svm_rfe_work
from rankfusion.selection import ranking_jobs as ranking_jobs_mod

LINE = re.compile(r"^rankfusion: (?P<desc>[\w -]+): (?P<n>[\d,]+) of (?P<total>[\d,]+) "
                  r"(?P<unit>[\w ]+) \((?P<pct>\d+) %\), (?P<elapsed>[\w. ]+) elapsed"
                  r"(, about (?P<left>[\w ]+) left|, done|, stopped|, time left unknown)$")


@pytest.fixture
def data(tmp_path):
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b", "c"], 10)
    X = rng.normal(size=(30, 4))
    X[:, 0] += (y == "a") * 2
    path = tmp_path / "d.csv"
    pd.DataFrame(X, columns=[f"f{j}" for j in range(4)]).assign(cls=y).to_csv(path,
                                                                               index=False)
    return str(path)


def _run(capsys, argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _progress_lines(err, desc):
    found = [LINE.match(line) for line in err.splitlines()]
    return [m for m in found if m and m["desc"] == desc]


# ------------------------------------------------------------------ the line reporter
class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_line_progress_is_rate_limited_and_says_the_time_left():
    clock, out = Clock(), io.StringIO()
    bar = LineProgress(100, "ranking", "ranker calls", file=out, interval=10, clock=clock)
    clock.t = 10.0  # the first piece pays for imports: 10 s, then one a second
    bar.update(1)
    for i in range(2, 101):
        clock.t = 10.0 + (i - 1)
        bar.update(1)
    bar.close()
    lines = out.getvalue().splitlines()
    # a line when 10 s have passed since the last one (t = 10, 20, …, 100), then the end
    assert len(lines) == 11 and all(LINE.match(line) for line in lines), lines
    assert lines[0] == ("rankfusion: ranking: 1 of 100 ranker calls (1 %), 10 s elapsed, "
                        "about 16 min 30 s left")  # 10 s per piece so far, 99 left
    # at t = 20, 11 done: one a second since the first → 89 s left
    assert lines[1] == ("rankfusion: ranking: 11 of 100 ranker calls (11 %), 20 s elapsed, "
                        "about 1 min 29 s left")
    assert lines[-1] == "rankfusion: ranking: 100 of 100 ranker calls (100 %), 1 min 49 s " \
                        "elapsed, done"


def test_a_run_shorter_than_the_interval_prints_nothing():
    clock, out = Clock(), io.StringIO()
    bar = LineProgress(50, "cells", "cells", file=out, interval=10, clock=clock)
    for i in range(50):
        clock.t = i * 0.1
        bar.update(1)
    bar.close()
    assert out.getvalue() == ""


def test_resumed_run_counts_only_the_new_pieces():
    clock, out = Clock(), io.StringIO()
    bar = LineProgress(10, "cells", "cells", initial=6, file=out, interval=1, clock=clock)
    clock.t = 2.0
    bar.update(1)
    clock.t = 4.0
    bar.update(1)
    assert out.getvalue().splitlines()[-1] == ("rankfusion: cells: 8 of 10 cells (80 %), 4 s "
                                               "elapsed, about 4 s left")


@pytest.mark.parametrize("total, updates, last", [
    (0, [], None),  # nothing to do: no line
    (3, [5], None),  # more than the total (a miscount): no crash, no line past the end
    (2, [0, 0], "rankfusion: x: 0 of 2 things (0 %), 10 s elapsed, time left unknown"),
])
def test_line_progress_hostile_counts(total, updates, last):
    clock, out = Clock(), io.StringIO()
    bar = LineProgress(total, "x", "things", file=out, interval=1, clock=clock)
    for n in updates:
        clock.t += 5
        bar.update(n)
    lines = out.getvalue().splitlines()
    assert (lines[-1] if lines else None) == last


@pytest.mark.parametrize("env, want", [
    (None, 10.0), ("0", 0.0), ("2.5", 2.5), (" 3 ", 3.0), ("", 10.0), ("abc", 10.0),
    ("-1", 10.0), ("nan", 10.0), ("inf", 10.0), ("1e400", 10.0), ("10s", 10.0),
])
def test_progress_interval_from_the_environment(monkeypatch, env, want):
    monkeypatch.setattr(progress_mod, "DEFAULT_INTERVAL", 10.0)
    if env is None:
        monkeypatch.delenv("RANKFUSION_PROGRESS_INTERVAL", raising=False)
    else:
        monkeypatch.setenv("RANKFUSION_PROGRESS_INTERVAL", env)
    assert progress_interval() == want


@pytest.mark.parametrize("seconds, text", [
    (0, "0 s"), (-3, "0 s"), (4.4, "4 s"), (59.6, "1 min 0 s"), (75, "1 min 15 s"),
    (3600, "1 h 0 min"), (7300, "2 h 1 min"), (200000, "2 d 7 h"), (1e9, "11,574 d 1 h"),
])
def test_format_seconds(seconds, text):
    assert format_seconds(seconds) == text


def test_progress_bar_kinds():
    assert progress_bar(5, "x", "things", enabled=False) is None
    assert isinstance(progress_bar(5, "x", "things", file=io.StringIO()), LineProgress)

    class Tty(io.StringIO):
        def isatty(self):
            return True

    bar = progress_bar(5, "x", "things", file=Tty())
    assert type(bar).__name__ == "tqdm"
    bar.close()


# ------------------------------------------------------------------ the work estimates
def _count_calls(monkeypatch):
    counts = {"ranker calls": 0, "aggregations": 0}
    real_run, real_combine = ranking_jobs_mod.run_ranker, EnsembleSelector._combine

    def run(*a, **k):
        counts["ranker calls"] += 1
        return real_run(*a, **k)

    def combine(self, *a, **k):
        counts["aggregations"] += 1
        return real_combine(self, *a, **k)

    monkeypatch.setattr(ranking_jobs_mod, "run_ranker", run)
    monkeypatch.setattr(EnsembleSelector, "_combine", combine)
    return counts


@pytest.mark.parametrize("params", [
    {"rankers": ["info_gain"]},
    {"rankers": ["info_gain", "relieff"], "n_bootstraps": 1},
    {"rankers": ["info_gain", "nlc"], "n_bootstraps": 4},
    {"rankers": ["info_gain"], "n_bootstraps": 3, "aggregation": "fuzzy:EW"},
    {"rankers": ["info_gain", "nlc"], "n_bootstraps": 2, "n_features_to_select": "k-step",
     "cv": 3},
    {"rankers": ["info_gain"], "n_bootstraps": 2, "n_features_to_select": "learning-curve",
     "cv": 2, "subset_cv": "ranked_once"},
    {"rankers": ["info_gain"], "n_bootstraps": 2, "sample_fraction": 0.5},
])
def test_ensemble_work_counts_what_fit_does(monkeypatch, params):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(24, 5))
    y = np.repeat([0, 1, 2], 8)
    sel = EnsembleSelector(**params, random_state=0)
    work = ensemble_work(sel, *X.shape)
    counts = _count_calls(monkeypatch)
    sel.fit(X, y)
    assert {k: work.counts[k] for k in counts} == counts
    if "n_features_to_select" not in params:
        assert work.counts["classifier fits"] == 0
    else:
        assert work.counts["classifier fits"] > 0


@pytest.mark.parametrize("n_classes, decomposition, methods, problems", [
    (2, "ovo", ["kfirst"], 1), (3, "ovo", ["kfirst", "schulze"], 3), (4, "ovo", ["borda"], 6),
    (4, "ova", ["average"], 4), (5, "ova", ["kfirst", "average"], 5),
])
def test_svm_rfe_work_counts_the_binary_problems(n_classes, decomposition, methods, problems):
    from rankfusion.selection import svm_rfe_rankings

    rng = np.random.default_rng(2)
    y = np.repeat(np.arange(n_classes), 6)
    X = rng.normal(size=(y.shape[0], 6)) + y[:, None]
    work = svm_rfe_work(*X.shape, n_classes, methods=methods, decomposition=decomposition)
    seen = []
    svm_rfe_rankings(X, y, methods, decomposition=decomposition, problem_lists=True,
                     random_state=0, progress=seen.append)
    assert work.counts["binary problems"] == problems == len(seen)


def test_svm_rfe_work_msvm_and_C_cv():
    work = svm_rfe_work(30, 25, 3, decomposition="crammer_singer", C="cv", cv=3)
    # 25 features, 10 % steps down to 20 (removing 2, 2, 2), then one at a time from 19 to 1
    assert work.counts["multiclass SVM fits"] == 3 + 18
    assert work.counts["SVM fits for C"] == 7 * 3


@pytest.mark.parametrize("available, memory, refused", [
    (10 ** 9, 10 ** 6, False), (10 ** 6, 10 ** 9, True), (None, 0, False),
])
def test_check_memory(available, memory, refused):
    work = WorkEstimate("select", {"ranker calls": 3}, memory, cause="n_bootstraps=5",
                        fix="lower n_bootstraps (--bootstraps)")
    if refused:
        with pytest.raises(ValueError, match=r"n_bootstraps=5.*--bootstraps"):
            work.check_memory(available)
    else:
        work.check_memory(available)


# ------------------------------------------------------------------ the commands
@pytest.mark.parametrize("bootstraps, fragment", [
    ("100000000", "needs at least"),
    ("10000000000", "needs at least"),
    ("99999999999999999999", "needs at least"),  # beyond int64: still counted, refused
])
def test_select_refuses_absurd_bootstraps_before_any_work(data, capsys, monkeypatch,
                                                          bootstraps, fragment):
    calls = _count_calls(monkeypatch)
    code, out, err = _run(capsys, ["select", data, "--bootstraps", bootstraps])
    assert code == 2 and out == ""
    assert calls["ranker calls"] == 0
    assert f"{int(bootstraps) * 3:,} ranker calls" in err  # the estimate comes first
    assert fragment in err and "--bootstraps" in err and err.count("error") == 1


def test_select_estimate_and_progress_off_a_terminal(data, capsys, monkeypatch):
    monkeypatch.setenv("RANKFUSION_PROGRESS_INTERVAL", "0")
    code, out, err = _run(capsys, ["select", data, "-r", "info_gain,nlc", "-b", "5",
                                   "-k", "2", "--random-state", "0"])
    assert code == 0, err
    assert "rankfusion: select: 10 ranker calls, 6 aggregations" in err
    ranking = _progress_lines(err, "ranking")
    assert ranking and ranking[-1]["n"] == ranking[-1]["total"] == "10"
    assert err.splitlines().index(ranking[0].group(0)) > 0  # after the estimate
    assert not _progress_lines(err, "drawing")  # one chunk of samples: no line before done
    stability = _progress_lines(err, "stability")
    assert stability and stability[-1]["total"] == "5"
    # the results are the same without the progress, and nothing on stderr
    code2, out2, err2 = _run(capsys, ["select", data, "-r", "info_gain,nlc", "-b", "5",
                                      "-k", "2", "--random-state", "0", "--no-progress"])
    assert code2 == 0 and err2 == ""
    strip = re.compile(r"^# time:.*$", re.M)
    assert strip.sub("", out) == strip.sub("", out2)


def test_select_default_interval_prints_no_line_for_a_short_run(data, capsys, monkeypatch):
    monkeypatch.delenv("RANKFUSION_PROGRESS_INTERVAL", raising=False)
    monkeypatch.setattr(progress_mod, "DEFAULT_INTERVAL", 1e9)
    code, out, err = _run(capsys, ["select", data, "-r", "info_gain", "-b", "2", "-k", "1"])
    assert code == 0
    assert err.splitlines() == ["rankfusion: select: 2 ranker calls, 3 aggregations"]


def test_drawing_in_chunks_gives_the_samples_of_one_draw(capsys, monkeypatch):
    # more samples than one chunk (1000): the same samples and lists as the seeds of one
    # SeedSequence.spawn(B) give (oracle: bootstrap_indices on those seeds, drawn directly)
    from rankfusion.selection.resampling import bootstrap_indices

    rng = np.random.default_rng(1)
    X, y = rng.normal(size=(12, 3)), np.repeat([0, 1], 6)
    monkeypatch.setenv("RANKFUSION_PROGRESS_INTERVAL", "0")
    sel = EnsembleSelector(rankers=["info_gain"], n_bootstraps=1203, random_state=3,
                           n_features_to_select=1, progress=True).fit(X, y)
    drawing = _progress_lines(capsys.readouterr().err, "drawing")
    assert [m["n"] for m in drawing] == ["1,000", "1,203"]
    assert drawing[-1].group(0).endswith("done")
    from rankfusion._utils.seeding import spawn

    main_seq = spawn(3, 4)[0]  # fit's streams (docs/design.md, 'Seeds'): the first ranks,
    rank_seq = main_seq.spawn(3)[0]  # its first child ranks the lists,
    boot_seq = rank_seq.spawn(2)[0]  # whose first child draws the samples
    want = bootstrap_indices(y, boot_seq.spawn(1203))
    assert len(sel.bootstrap_indices_) == 1203
    assert all(np.array_equal(a, b) for a, b in zip(sel.bootstrap_indices_, want))


def test_svm_rfe_estimate_and_progress_off_a_terminal(data, capsys, monkeypatch):
    monkeypatch.setenv("RANKFUSION_PROGRESS_INTERVAL", "0")
    code, out, err = _run(capsys, ["svm-rfe", data, "--rules", "kfirst,average"])
    assert code == 0, err
    assert err.startswith("rankfusion: svm-rfe: 3 binary problems, ")
    lines = _progress_lines(err, "SVM-RFE")
    assert [m["n"] for m in lines] == ["1", "2", "3"] and lines[-1].group(0).endswith("done")
    code, out2, err = _run(capsys, ["svm-rfe", data, "--rules", "kfirst,average",
                                    "--no-progress"])
    assert code == 0 and err == ""


EXPERIMENT = """
[experiment]
name = "tiny"
seed = 3

[grid]
datasets = ["iris"]
selectors = ["a", "b"]
classifiers = ["naive_bayes"]
protocols = ["cv"]

[selectors.a]
kind = "ensemble"
rankers = ["info_gain"]
aggregation = "borda"
n_features_to_select = 2

[selectors.b]
kind = "ensemble"
rankers = ["nlc"]
aggregation = "borda"
n_features_to_select = 2

[protocols.cv]
kind = "cross_validation"
cv = 2
scoring = ["accuracy"]
"""


def test_experiment_estimate_and_progress_off_a_terminal(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RANKFUSION_PROGRESS_INTERVAL", "0")
    config = tmp_path / "tiny.toml"
    config.write_text(EXPERIMENT)
    code, out, err = _run(capsys, ["experiment", config, "--out", tmp_path / "res",
                                   "--no-report"])
    assert code == 0, err
    assert "rankfusion: experiment: 2 of 2 cells to compute: " in err
    lines = _progress_lines(err, "cells")
    assert lines and lines[-1]["n"] == "2" and lines[-1].group(0).endswith("done")
    # resumed: nothing left, the estimate says so and no cell line moves
    code, out, err = _run(capsys, ["experiment", config, "--out", tmp_path / "res",
                                   "--no-report"])
    assert code == 0 and "0 of 2 cells to compute" in err
    assert not _progress_lines(err, "cells")
    code, out, err = _run(capsys, ["experiment", config, "--out", tmp_path / "res",
                                   "--no-report", "--no-progress"])
    assert code == 0 and "cells to compute" not in err


def test_progress_lines_in_a_real_pipe(data):
    # a child process whose stderr is a pipe, not a terminal: the lines are there
    env = dict(os.environ, RANKFUSION_PROGRESS_INTERVAL="0",
               PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"))
    res = subprocess.run([sys.executable, "-m", "rankfusion", "select", data, "-r",
                          "info_gain", "-b", "3", "-k", "1"], capture_output=True, text=True,
                         env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    lines = _progress_lines(res.stderr, "ranking")
    assert lines and lines[-1]["n"] == "3" and lines[-1].group(0).endswith("done")
