"""The advisor run through the experiment runner's machinery (:func:`advise_in_folder`): each
part filed atomically as it finishes, a killed run resumed without redoing finished parts, Dask
with the numbers of a local run, another configuration's folder refused.

Oracle: one uninterrupted in-memory :func:`rankfusion.advise` call with the same arguments.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

from rankfusion import advise
from rankfusion.experiments import FolderLockedError
from rankfusion.experiments.advice import PARTS_DIR, STORE_NAME, advise_in_folder, read_part
from rankfusion.experiments.lock import LOCK_NAME

KW = dict(rankers=("f_classif", "relieff"), rules=("borda", "kfirst:k=2"), sizes=(1, 2, 4),
          estimator="naive_bayes", cv=3, inner_cv=2, n_repeats=1, random_state=3)
N_PARTS = 3 + 1  # three outer folds and the choice on all the data


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(48, 8))
    y = np.repeat([0, 1], 24)
    X[:, 0] += 2.0 * y
    X[:, 1] -= 1.5 * y
    return X, y


@pytest.fixture(scope="module")
def reference(data):
    return advise(*data, **KW)


def _same(a, b):
    pd.testing.assert_frame_equal(a.table.drop(columns="configuration"),
                                  b.table.drop(columns="configuration"))
    assert a.recommended == b.recommended and a.best_single == b.best_single
    assert a.one_se == b.one_se
    assert (a.gain, a.gain_ci, a.pvalue) == (b.gain, b.gain_ci, b.pvalue)
    np.testing.assert_array_equal(a.combination_scores, b.combination_scores)
    assert a.stability_gain == b.stability_gain or (
        np.isnan(a.stability_gain) and np.isnan(b.stability_gain))
    assert a.verdict == b.verdict


class Killed(BaseException):
    """Stands for SIGKILL / Ctrl-C: not an Exception, so nothing may swallow it."""


def test_a_killed_run_resumes_without_redoing_finished_parts(data, reference, tmp_path):
    out = tmp_path / "adv"
    seen = []

    def kill_after_two(j, status):
        seen.append((j, status))
        if len(seen) == 2:
            raise Killed

    with pytest.raises(Killed):
        advise_in_folder(*data, out, on_part=kill_after_two, **KW)
    assert sorted(p.name for p in (out / PARTS_DIR).iterdir()) == ["part-000.npz",
                                                                     "part-001.npz"]
    assert not (out / "advice.csv").exists()
    assert not (out / LOCK_NAME).exists()  # released however the run ended
    again = []
    run = advise_in_folder(*data, out, on_part=lambda j, s: again.append((j, s)), **KW)
    assert again == [(0, "reused"), (1, "reused"), (2, "computed"), (3, "computed")]
    assert (run.reused, run.computed, run.total) == (2, [2, 3], N_PARTS)
    _same(run.advice, reference)
    assert {p.name for p in run.written} >= {"advice.csv", "summary.json"}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["store"]["reused"] == 2 and summary["store"]["computed"] == 2
    # a third run recomputes nothing
    third = advise_in_folder(*data, out, **KW)
    assert (third.reused, third.computed) == (N_PARTS, [])
    _same(third.advice, reference)


def test_uninterrupted_folder_run_equals_advise_and_files_every_part(data, reference,
                                                                     tmp_path):
    run = advise_in_folder(*data, tmp_path / "adv", **KW)
    _same(run.advice, reference)
    for j in range(N_PARTS):
        part, why = read_part(tmp_path / "adv" / PARTS_DIR / f"part-{j:03d}.npz",
                              run.identity_sha256, j)
        assert why == "ok"
        # the cached ranker scores: inner_cv inner training parts and the outer one
        assert part["ranker_scores"].shape == (2 + 1, 8, 2)
    table = pd.read_csv(tmp_path / "adv" / "advice.csv")
    np.testing.assert_allclose(table["score"], reference.table["score"])


def test_a_damaged_part_is_computed_again(data, reference, tmp_path):
    out = tmp_path / "adv"
    advise_in_folder(*data, out, **KW)
    victim = out / PARTS_DIR / "part-001.npz"
    victim.write_bytes(victim.read_bytes()[:100])
    run = advise_in_folder(*data, out, **KW)
    assert run.computed == [1] and "unreadable" in run.recomputed[1]
    _same(run.advice, reference)


def test_parallel_local_parts_give_the_same_numbers(data, reference, tmp_path):
    run = advise_in_folder(*data, tmp_path / "adv", **{**KW, "n_jobs": 2})
    assert sorted(run.computed) == list(range(N_PARTS))
    _same(run.advice, reference)


def test_dask_cluster_gives_the_numbers_of_a_local_run(data, reference, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        run = advise_in_folder(*data, tmp_path / "adv", client=client, **KW)
    assert run.backend.startswith("dask")
    assert sorted(run.computed) == list(range(N_PARTS))
    _same(run.advice, reference)
    # and a local run resumes the Dask run's folder without recomputing
    local = advise_in_folder(*data, tmp_path / "adv", **KW)
    assert local.computed == [] and local.reused == N_PARTS


CHANGED = [
    ({"random_state": 4}, "seed_entropy"),
    ({"sizes": (1, 2)}, "sizes"),
    ({"rules": ("borda",)}, "rules"),
    ({"estimator": "linear_svm"}, "estimator"),
    ({"cv": 4}, "cv"),
    ({"tie_break": "index"}, "tie_break"),
]


@pytest.mark.parametrize("change, key", CHANGED, ids=[k for _, k in CHANGED])
def test_another_configuration_in_the_folder_is_refused(data, tmp_path, change, key):
    out = tmp_path / "adv"
    first = advise_in_folder(*data, out, **KW)
    before = sorted((out / PARTS_DIR).iterdir())
    with pytest.raises(ValueError, match=rf"another configuration \(it differs in: .*{key}"):
        advise_in_folder(*data, out, **{**KW, **change})
    assert sorted((out / PARTS_DIR).iterdir()) == before
    assert json.loads((out / STORE_NAME).read_text())["identity_sha256"] == \
        first.identity_sha256


def test_changed_data_is_refused_and_overwrite_discards_the_old_parts(data, tmp_path):
    X, y = data
    out = tmp_path / "adv"
    advise_in_folder(X, y, out, **KW)
    X2 = X.copy()
    X2[0, 0] += 1.0
    with pytest.raises(ValueError, match="data_sha256"):
        advise_in_folder(X2, y, out, **KW)
    run = advise_in_folder(X2, y, out, overwrite=True, **KW)
    assert run.reused == 0 and sorted(run.computed) == list(range(N_PARTS))
    assert any("discarded" in n for n in run.notes)
    _same(run.advice, advise(X2, y, **KW))


def test_no_seed_resumes_with_the_recorded_seed(data, tmp_path):
    out = tmp_path / "adv"
    kw = {**KW, "random_state": None}

    def stop(j, status):
        if j == 1:
            raise Killed

    with pytest.raises(Killed):
        advise_in_folder(*data, out, on_part=stop, **kw)
    run = advise_in_folder(*data, out, **kw)
    assert run.reused == 2 and any("recorded" in n for n in run.notes)
    entropy = json.loads((out / STORE_NAME).read_text())["identity"]["seed_entropy"]
    _same(run.advice, advise(*data, **{**KW, "random_state": np.random.SeedSequence(entropy)}))


def test_progress_says_parts_done_and_time_left(data, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RANKFUSION_PROGRESS_INTERVAL", "0")
    advise_in_folder(*data, tmp_path / "adv", progress=True, **KW)
    err = capsys.readouterr().err
    assert "rankfusion: advise:" in err and "parts" in err
    assert "left" in err and "done" in err
    advise_in_folder(*data, tmp_path / "quiet", progress=False, **KW)
    assert capsys.readouterr().err == ""


def test_a_live_run_holds_the_folder(data, tmp_path):
    out = tmp_path / "adv"

    def second_run(j, status):
        advise_in_folder(*data, out, **KW)

    with pytest.raises(FolderLockedError):
        advise_in_folder(*data, out, on_part=second_run, **KW)


def _file(tmp_path):
    f = tmp_path / "a.csv"
    f.write_text("x\n")
    return f


HOSTILE = [
    (lambda t: {"out": _file(t)}, ValueError, "exists and is not a folder"),
    (lambda t: {"out": t / "no" / "adv"}, ValueError, "does not exist"),
    (lambda t: {"out": (t / "plain").mkdir() or t / "plain"}, ValueError, "exists"),
    (lambda t: {"out": _file(t), "inputs": [_file(t)]}, ValueError, "input file"),
    (lambda t: {"n_workers": 0}, ValueError, "n_workers"),
    (lambda t: {"n_workers": "2"}, TypeError, "n_workers"),
    (lambda t: {"n_workers": True}, TypeError, "n_workers"),
    (lambda t: {"scheduler": ""}, ValueError, "scheduler"),
    (lambda t: {"scheduler": 8786}, TypeError, "scheduler"),
    (lambda t: {"scheduler": "tcp://x:1", "n_workers": 2}, ValueError, "not both"),
    (lambda t: {"client": object(), "n_workers": 2}, ValueError, "not both"),
    (lambda t: {"progress": "yes"}, TypeError, "progress"),
    (lambda t: {"on_part": 3}, TypeError, "on_part"),
    (lambda t: {"cv": 1}, ValueError, "cv"),
    (lambda t: {"n_jobs": 0}, ValueError, "n_jobs"),
    (lambda t: {"nope": 1}, TypeError, "nope"),
]


@pytest.mark.parametrize("make, exc, match", HOSTILE, ids=[m for _, _, m in HOSTILE])
def test_hostile_inputs(data, tmp_path, make, exc, match):
    kw = {**KW, "out": tmp_path / "adv", **make(tmp_path)}
    out = kw.pop("out")
    with pytest.raises(exc, match=match):
        advise_in_folder(*data, out, **kw)
    if out == tmp_path / "adv":
        assert not out.exists()  # refused before the folder is made


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_a_process_killed_with_sigkill_resumes(data, reference, tmp_path):
    """A real kill: the child process SIGKILLs itself after filing two parts (no cleanup, its
    lock left behind); the next run takes the stale lock over and computes only the rest."""
    out = tmp_path / "adv"
    X, y = data
    np.save(tmp_path / "X.npy", X)
    np.save(tmp_path / "y.npy", y)
    script = textwrap.dedent(f"""
        import os, signal, numpy as np
        from rankfusion.experiments.advice import advise_in_folder
        X = np.load({str(tmp_path / "X.npy")!r}); y = np.load({str(tmp_path / "y.npy")!r})
        done = []
        def kill(j, status):
            done.append(j)
            if len(done) == 2:
                os.kill(os.getpid(), signal.SIGKILL)
        advise_in_folder(X, y, {str(out)!r}, on_part=kill, **{KW!r})
    """)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    assert (out / LOCK_NAME).exists()  # killed: nothing released it
    assert len(list((out / PARTS_DIR).glob("part-*.npz"))) == 2
    run = advise_in_folder(X, y, out, **KW)
    assert run.reused == 2 and sorted(run.computed) == [2, 3]
    assert any("stale" in n or "took over" in n or "lock" in n for n in run.notes)
    _same(run.advice, reference)


# --------------------------------------------------------------------------- fuzzy rules
KW_FUZZY = {**KW, "rules": ("borda", "fuzzy:OW", "fuzzy:EW"), "n_bootstraps": 3,
            "sample_fraction": 0.8}


@pytest.fixture(scope="module")
def fuzzy_reference(data):
    return advise(*data, **KW_FUZZY)


def test_fuzzy_parts_hold_the_bootstrap_scores_and_a_killed_run_resumes(data, fuzzy_reference,
                                                                        tmp_path):
    out = tmp_path / "adv"
    seen = []

    def kill_after_two(j, status):
        seen.append(j)
        if len(seen) == 2:
            raise Killed

    with pytest.raises(Killed):
        advise_in_folder(*data, out, on_part=kill_after_two, **KW_FUZZY)
    run = advise_in_folder(*data, out, **KW_FUZZY)
    assert (run.reused, run.computed) == (2, [2, 3])
    _same(run.advice, fuzzy_reference)
    assert run.advice.bootstrap_seeds == fuzzy_reference.bootstrap_seeds
    for j in range(N_PARTS):
        part, why = read_part(out / PARTS_DIR / f"part-{j:03d}.npz", run.identity_sha256, j)
        assert why == "ok"
        # inner_cv inner training parts and the outer one; p × rankers × n_bootstraps each
        assert part["bootstrap_scores"].shape == (2 + 1, 8, 2, 3)
        assert part["bootstrap_seeds"].shape == (3,)
    identity = json.loads((out / STORE_NAME).read_text())["identity"]
    assert (identity["n_bootstraps"], identity["sample_fraction"]) == (3, 0.8)


def test_fuzzy_parts_on_dask_give_the_numbers_of_a_local_run(data, fuzzy_reference, tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        run = advise_in_folder(*data, tmp_path / "adv", client=client, **KW_FUZZY)
    assert run.backend.startswith("dask")
    _same(run.advice, fuzzy_reference)
    local = advise_in_folder(*data, tmp_path / "adv", **KW_FUZZY)
    assert local.computed == [] and local.reused == N_PARTS


@pytest.mark.parametrize("change, key", [({"n_bootstraps": 4}, "n_bootstraps"),
                                         ({"sample_fraction": 0.9}, "sample_fraction")])
def test_a_fuzzy_folder_with_other_bootstrap_settings_is_refused(data, tmp_path, change, key):
    out = tmp_path / "adv"
    advise_in_folder(*data, out, **KW_FUZZY)
    with pytest.raises(ValueError, match=rf"another configuration \(it differs in: .*{key}"):
        advise_in_folder(*data, out, **{**KW_FUZZY, **change})


def test_bootstrap_settings_leave_a_folder_without_fuzzy_rules_alone(data, tmp_path):
    out = tmp_path / "adv"
    advise_in_folder(*data, out, **KW)
    run = advise_in_folder(*data, out, **{**KW, "n_bootstraps": 4})  # unused: same numbers
    assert run.reused == N_PARTS
