"""Every entry that takes a target honours an explicit task (docs/design.md, 'Tasks'): one
table of entries × targets × ``task``.

Three targets: ``whole`` (25 whole numbers × 3 samples: as many distinct values as
scikit-learn's diabetes target has for its size, so ``task="auto"`` cannot tell and refuses
naming both choices), ``float`` (non-integer numbers: regression under auto, refused as
classes) and ``labels`` (text: classification under auto, refused as a numeric target).
Each entry runs with the rankers / estimators of the task it is expected to take, and reports
the task it took (its ``task_`` attribute, its result's ``task`` or metrics, the command
line's header); a refusal is checked by its exception and message. Each expected task is a
real observation: the entry's rankers and estimators refuse the other task. More advisor
cases are in ``tests/evaluation/test_advisor_task.py`` and ``test_advisor_regression.py``.
"""

from __future__ import annotations

import contextlib
import io
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_selection import SelectKBest, f_classif, f_regression
from sklearn.linear_model import Ridge
from sklearn.naive_bayes import GaussianNB

N_VALUES, REPEAT = 25, 3
RANKER = {"classification": "f_classif", "regression": "f_regression"}


def _target(kind: str) -> np.ndarray:
    rng = np.random.default_rng(0)
    whole = np.repeat(np.arange(10, 10 + N_VALUES), REPEAT)
    rng.shuffle(whole)
    if kind == "whole":
        return whole
    if kind == "float":
        return whole + rng.uniform(0.1, 0.9, whole.shape[0])
    return np.array(["a", "b", "c"], dtype=object)[whole % 3]


def _features(y) -> np.ndarray:
    rng = np.random.default_rng(1)
    X = rng.normal(size=(y.shape[0], 5))
    codes = np.unique(y, return_inverse=True)[1].reshape(-1)
    X[:, 0] += codes / 5.0  # one relevant feature, whatever the target
    return X


# ------------------------------------------------------------------ the entries
def _ensemble(X, y, task, want):
    from rankfusion import EnsembleSelector

    return EnsembleSelector(rankers=[RANKER[want]], n_features_to_select=2, task=task).fit(
        X, y).task_


def _svm_rfe(X, y, task, want):
    from rankfusion import SVMRFE

    extra = {"criterion": "crammer_singer"} if want == "classification" else {}
    return SVMRFE(n_features_to_select=2, task=task, random_state=0, **extra).fit(X, y).task_


def _stability(X, y, task, want):
    from rankfusion import StabilitySelector

    return StabilitySelector(rankers=[RANKER[want]], q=2, n_subsamples=4, threshold=0.6,
                             random_state=0, task=task).fit(X, y).task_


def _boruta(X, y, task, want):
    from rankfusion import BorutaSelector

    return BorutaSelector(RANKER[want], max_iter=3, random_state=0, task=task).fit(X, y).task_


def _rank_features(X, y, task, want):
    from rankfusion.rankers import rank_features

    rank_features(X, y, [RANKER[want]], task=task)  # the ranker refuses the other task
    return want


def _cross_validate(X, y, task, want):
    from rankfusion.evaluation import cross_validate_selection

    score = f_classif if want == "classification" else f_regression
    res = cross_validate_selection(SelectKBest(score, k=2), X, y, task=task, cv=3,
                                   random_state=0,
                                   classifier="naive_bayes" if want == "classification"
                                   else "ridge")
    assert ("r2" in res.scores.columns) == (res.task == "regression")
    return res.task


def _error_curve(X, y, task, want):
    from rankfusion.evaluation import error_curve

    score = f_classif if want == "classification" else f_regression
    curve = error_curve(SelectKBest(score, k=3), X, y, n_features=[1, 3], n_splits=2,
                        test_size=0.4, task=task, random_state=0,
                        classifier="naive_bayes" if want == "classification" else "ridge")
    return "regression" if curve.metric == "rmse" else "classification"


def _evaluate_prefixes(X, y, task, want):
    from rankfusion.selection.regression import regression_folds
    from rankfusion.selection.subset_size import evaluate_prefixes

    est = {"nb": GaussianNB()} if want == "classification" else {"ridge": Ridge()}
    folds = regression_folds(y.shape[0], 3, random_state=0)
    curve = evaluate_prefixes(X, y, folds, [np.arange(5)] * 3, est, [1, 2], task=task)
    return want if curve["mean"].notna().all() else "?"


SECOND = {"classification": "info_gain", "regression": "pearson"}


def _advise(X, y, task, want):
    from rankfusion import advise

    return advise(X, y, rankers=(RANKER[want], SECOND[want]), rules=("borda",), sizes=[2],
                  cv=3, inner_cv=2, n_repeats=1, random_state=0, task=task).task


def _runner(X, y, task, want, tmp_path):
    from rankfusion.experiments import run_experiment

    path = tmp_path / "data.csv"
    pd.DataFrame(X, columns=[f"f{j}" for j in range(5)]).assign(y=y).to_csv(path, index=False)
    clf = "naive_bayes" if want == "classification" else "ridge"
    text = f'''
[experiment]
name = "t"
seed = 1
task = "{task}"

[datasets.mine]
path = "{path}"

[grid]
datasets = ["mine"]
selectors = ["one"]
classifiers = ["{clf}"]
protocols = ["cv"]

[selectors.one]
kind = "ranker"
ranker = "{RANKER[want]}"
n_features_to_select = 2

[protocols.cv]
kind = "cross_validation"
cv = 3
'''
    summary = run_experiment(text, tmp_path / "out", report=False, progress=False)
    if not summary.ok:
        raise ValueError("; ".join(summary.failed.values()))
    metrics = set(pd.read_parquet(tmp_path / "out" / "results.parquet")["metric"])
    return "regression" if "r2" in metrics else "classification"


def _cli(command):
    def run(X, y, task, want, tmp_path):
        from rankfusion.cli import main

        path = tmp_path / "data.csv"
        pd.DataFrame(X, columns=[f"f{j}" for j in range(5)]).assign(y=y).to_csv(path,
                                                                             index=False)
        args = {"rank": ["--rankers", RANKER[want], "--top", "2"],
                "select": ["--rankers", RANKER[want], "--subset", "2", "--cv", "3",
                           "--estimators", "naive_bayes" if want == "classification"
                           else "ridge"],
                "svm-rfe": ["--top", "2"] + (["--criterion", "crammer_singer"]
                                             if want == "classification" else []),
                "advise": ["--rankers", f"{RANKER[want]},{SECOND[want]}", "--rules", "borda",
                           "--sizes", "2", "--cv", "3", "--inner-cv", "2", "--repeats", "1",
                           "--out", str(tmp_path / "advice")]}[command]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([command, str(path), "--task", task, *args])
        if code:
            raise ValueError(err.getvalue())  # the one error line, checked by the table
        if command == "advise":  # the advice names its score: R² for a numeric target
            return "regression" if "outer R²" in out.getvalue() else "classification"
        header = out.getvalue().splitlines()[0]
        return "regression" if "numeric" in header else "classification"

    return run


ENTRIES = {  # name → (function, tasks it takes, needs a tmp_path, spelling of the task)
    "EnsembleSelector": (_ensemble, None, False, "python"),
    "SVMRFE": (_svm_rfe, None, False, "python"),
    "StabilitySelector": (_stability, None, False, "python"),
    "BorutaSelector": (_boruta, None, False, "python"),
    "rank_features": (_rank_features, None, False, "python"),
    "cross_validate_selection": (_cross_validate, None, False, "python"),
    "error_curve": (_error_curve, None, False, "python"),
    "evaluate_prefixes": (_evaluate_prefixes, None, False, "python"),
    "advise": (_advise, None, False, "python"),
    # the runner's [experiment] task is explicit only (classification by default)
    "experiment runner": (_runner, ("classification", "regression"), True, "toml"),
    "cli rank": (_cli("rank"), None, True, "cli"),
    "cli select": (_cli("select"), None, True, "cli"),
    "cli svm-rfe": (_cli("svm-rfe"), None, True, "cli"),
    "cli advise": (_cli("advise"), None, True, "cli"),
}

# (target, task) → the task taken, or (exception, message regex: Python / command line)
EXPECTED = {
    ("whole", "auto"): (ValueError, r'task="classification".*task="regression"',
                        r"--task classification.*--task regression"),
    ("whole", "classification"): "classification",
    ("whole", "regression"): "regression",
    ("float", "auto"): "regression",
    ("float", "classification"): (ValueError, r"non-integer|continuous",
                                  r"non-integer|continuous"),
    ("float", "regression"): "regression",
    ("labels", "auto"): "classification",
    ("labels", "classification"): "classification",
    ("labels", "regression"): (TypeError, r"numeric|not numbers|not a number",
                               r"numeric|not numbers|not a number"),
}

# the runner reads its data file as the loader does: its refusals are ValueErrors
_RUNNER_ERRORS = {("labels", "regression"): (ValueError, r"not numbers|not a number|numeric",
                                             None)}

ROWS = [(entry, target, task) for entry, (_, tasks, _, _) in ENTRIES.items()
        for (target, task) in EXPECTED if tasks is None or task in tasks]


@pytest.mark.parametrize("entry, target, task", ROWS,
                         ids=[f"{e}-{t}-{k}" for e, t, k in ROWS])
def test_every_entry_honours_an_explicit_task(entry, target, task, tmp_path):
    func, _, needs_tmp, spelling = ENTRIES[entry]
    y = _target(target)
    X = _features(y)
    expected = EXPECTED[(target, task)]
    if spelling == "toml":
        expected = _RUNNER_ERRORS.get((target, task), expected)
    # the rankers / estimators of the task expected, or for a refusal of the task asked
    want = expected if isinstance(expected, str) else (
        task if task != "auto" else "regression")
    call = (lambda: func(X, y, task, want, tmp_path)) if needs_tmp else (
        lambda: func(X, y, task, want))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence and constant-feature warnings
        if isinstance(expected, str):
            assert call() == expected
            return
        exc, python_words, cli_words = expected
        if spelling == "cli":
            with pytest.raises(ValueError) as err:  # the command line's error line
                call()
            message = str(err.value)
            assert re.search(cli_words, message), message
            assert message.startswith("rankfusion: error: ")
            assert not re.search(r"task=[\"']", message), message  # --task, not task="…"
        else:
            with pytest.raises((exc, ValueError) if spelling == "toml" else exc,
                               match=python_words):
                call()


@pytest.mark.parametrize("make", [
    lambda: __import__("rankfusion").EnsembleSelector(rankers=["f_classif"],
                                                      n_features_to_select=2),
    lambda: __import__("rankfusion").StabilitySelector(rankers=[("f_classif", {})], q=2,
                                                       n_subsamples=4, random_state=0),
    lambda: __import__("rankfusion").BorutaSelector("f_classif", max_iter=2, random_state=0),
], ids=["EnsembleSelector", "StabilitySelector", "BorutaSelector"])
def test_text_labels_with_many_classes(make):
    """25 text classes in 75 samples are class labels whatever their number (text is never a
    numeric target); their integer codes reach the rankers as labels, not as 25 whole
    numbers the rankers would refuse as a continuous target."""
    y = np.array([f"class {v}" for v in _target("whole")], dtype=object)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sel = make().fit(_features(y), y)
    assert sel.task_ == "classification" and sel.classes_.shape[0] == N_VALUES
    if hasattr(sel, "rankers_"):
        assert sel.rankers_ == (("f_classif", {}),)
