"""``--task auto|classification|regression`` of the commands that take a target (rank, select,
svm-rfe, advise; docs/design.md, 'Tasks'): passed through to the library, the diabetes-like
whole-number target refused under auto naming both choices, regression output. Oracles:
scikit-learn's ``f_regression`` / ``r_regression`` on the same data, ``EnsembleSelector`` fitted
directly, ``rankfusion.advise`` called directly."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_selection import r_regression

from conftest import read_csv
from rankfusion import SVMRFE, EnsembleSelector
from rankfusion.cli import main
from rankfusion.workflows import run_ranking, run_selection


def _frame(y, n=60, p=5, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    return pd.DataFrame(X, columns=[f"f{j}" for j in range(p)]).assign(y=y)


@pytest.fixture
def reg_csv(tmp_path):
    """A numeric target: 3·f0 − 2·f2 + noise, non-integer."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(60, 5))
    y = 3 * X[:, 0] - 2 * X[:, 2] + 0.1 * rng.normal(size=60)
    path = tmp_path / "reg.csv"
    pd.DataFrame(X, columns=[f"f{j}" for j in range(5)]).assign(y=y).to_csv(path, index=False)
    return path


@pytest.fixture
def diabetes_like_csv(tmp_path):
    """Whole numbers with many distinct values (as scikit-learn's diabetes target)."""
    rng = np.random.default_rng(2)
    path = tmp_path / "int.csv"
    _frame(rng.permutation(np.arange(25, 85))).to_csv(path, index=False)
    return path


@pytest.fixture
def cls_csv(tmp_path):
    path = tmp_path / "cls.csv"
    _frame(np.repeat(["a", "b", "c"], 20)).to_csv(path, index=False)
    return path


def _run(args, capsys):
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


ADVISE = ["advise", "--rankers", "pearson,f_regression", "--rules", "borda", "--sizes", "1,2",
          "--cv", "3", "--inner-cv", "2", "--repeats", "1", "--random-state", "0"]


@pytest.mark.parametrize("command", [["rank", "--rankers", "pearson"],
                                     ["select", "--rankers", "pearson", "--subset", "2"],
                                     ["svm-rfe"], ADVISE])
def test_diabetes_like_target_refused_under_auto_naming_both_choices(command,
                                                                     diabetes_like_csv, capsys):
    code, _, err = _run([command[0], str(diabetes_like_csv), *command[1:]], capsys)
    assert code != 0
    # the command line's spelling of the two choices, not Python's task="…"
    assert "--task classification" in err and "--task regression" in err
    assert not re.search(r"task=[\"']", err), err
    assert "int.csv: the target column 'y'" in err


def test_rank_regression_scores_are_pearsons(diabetes_like_csv, capsys):
    frame = read_csv(diabetes_like_csv)  # exactly the numbers the library reads
    code, out, _ = _run(["rank", str(diabetes_like_csv), "--rankers", "pearson", "--task",
                         "regression", "--top", "0", "--output-format", "csv"], capsys)
    assert code == 0
    table = pd.read_csv(pd.io.common.StringIO(out), index_col=0)
    ref = np.abs(r_regression(frame.drop(columns="y").to_numpy(), frame["y"].to_numpy()))
    got = table["pearson"].reindex([f"f{j}" for j in range(5)]).to_numpy()
    np.testing.assert_allclose(got, ref, rtol=1e-12)


def test_rank_auto_takes_non_integer_numbers_as_regression(reg_csv):
    run = run_ranking(reg_csv, rankers="pearson,f_regression", top=2)
    assert run.task == "regression" and run.n_classes == 0
    assert run.tables()["scores"].index.tolist() == ["f0", "f2"]
    assert "numeric (regression)" in run.notes()[0]


def test_select_regression_matches_the_estimator_and_reports_r2(reg_csv, tmp_path):
    run = run_selection(reg_csv, rankers="pearson,f_regression", subset=2, random_state=0,
                        out=tmp_path / "res")
    frame = read_csv(reg_csv)  # exactly the numbers the library reads
    ref = EnsembleSelector(rankers=["pearson", "f_regression"], n_features_to_select=2,
                           random_state=0, task="regression").fit(frame.drop(columns="y"),
                                                                   frame["y"])
    assert run.subset() == ["f0", "f2"]
    np.testing.assert_array_equal(run.selector.positions_, ref.positions_)
    sc = run.subset_scores
    assert sc["regressor"] == "ridge" and sc["cv"] == 5
    assert sc["r2"] > 0.95 and 0 < sc["mae"] <= sc["rmse"] < 0.5  # noise SD 0.1
    assert "R² " in run.summary() and "RMSE" in run.summary()
    summary = json.loads((tmp_path / "res" / "summary.json").read_text())
    assert summary["subset_scores"]["r2"] == pytest.approx(sc["r2"])


def test_select_regression_with_named_regressor(reg_csv, capsys):
    code, out, _ = _run(["select", str(reg_csv), "--rankers", "pearson", "--subset", "2",
                         "--estimators", "linear_svr", "--random-state", "0"], capsys)
    assert code == 0
    assert "CV of linear_svr: R²" in out


def test_select_regression_k_step(reg_csv, capsys):
    code, out, _ = _run(["select", str(reg_csv), "--rankers", "pearson,f_regression",
                         "--subset", "k-step", "--random-state", "0"], capsys)
    assert code == 0
    assert "k-step size search: mean 5-fold CV R² on the top k" in out


def test_svm_rfe_regression_is_the_linear_svr_rfe(reg_csv, capsys):
    code, out, _ = _run(["svm-rfe", str(reg_csv), "--top", "2", "--random-state", "0"], capsys)
    assert code == 0
    assert "rfe_linear_svr" in out and "numeric target" in out
    lines = out.splitlines()
    assert [ln.split()[-1] for ln in lines if ln[:1] in "12" and len(ln.split()) == 2] == \
        ["f0", "f2"]


def test_advise_regression_labels_the_score_r2(reg_csv, capsys, tmp_path):
    out_dir = tmp_path / "adv"
    code, out, _ = _run([ADVISE[0], str(reg_csv), *ADVISE[1:], "--out", str(out_dir)], capsys)
    assert code == 0
    assert "outer R² " in out and "configurations by mean outer R²" in out
    assert "accuracy" not in out and "regressor" in out
    summary = json.loads((out_dir / "summary.json").read_text())
    assert summary["task"] == "regression" and summary["scoring"] == "r2"
    assert summary["options"]["task"] == "auto"
    page = (out_dir / "advice.html").read_text()
    assert "R² against subset size" in page and "accuracy" not in page
    frame = read_csv(reg_csv)  # the same numbers as the library
    from rankfusion import advise
    adv = advise(frame.drop(columns="y"), frame["y"], rankers=["pearson", "f_regression"],
                 rules=["borda"], sizes=[1, 2], cv=3, inner_cv=2, n_repeats=1,
                 random_state=0)
    assert adv.verdict in out


def test_advise_explicit_task_and_scoring(diabetes_like_csv, capsys):
    code, out, _ = _run([ADVISE[0], str(diabetes_like_csv), *ADVISE[1:], "--task",
                         "regression", "--scoring", "neg_mae"], capsys)
    assert code == 0
    assert "outer −MAE" in out


def test_classification_unchanged_under_explicit_task(cls_csv):
    a = run_ranking(cls_csv, rankers="info_gain,relieff", top=0)
    b = run_ranking(cls_csv, rankers="info_gain,relieff", top=0, task="classification")
    pd.testing.assert_frame_equal(a.table(), b.table())
    assert a.task == b.task == "classification" and a.n_classes == 3


def test_explicit_classification_honours_many_whole_numbers(diabetes_like_csv):
    run = run_ranking(diabetes_like_csv, rankers="info_gain", task="classification", top=0)
    assert run.n_classes == 60  # each value a class, as asked


# (id, command line after DATA, fixture, regex of the one error line)
HOSTILE = [
    ("bad-task-value", ["rank", "--task", "regresion"], "reg_csv",
     r"argument --task: invalid choice: 'regresion' \(choose from 'auto', 'classification', "
     r"'regression'\)"),
    ("task-uppercase", ["select", "--task", "Regression"], "reg_csv", r"invalid choice"),
    ("task-empty", ["svm-rfe", "--task", ""], "reg_csv", r"invalid choice"),
    ("regression-on-text-labels", ["rank", "--rankers", "pearson", "--task", "regression"],
     "cls_csv", r"target column 'y' is .*not numbers, for --task regression|holds 'a', not "
     r"a number"),
    ("classifier-ranker-for-regression", ["rank", "--rankers", "info_gain"], "reg_csv",
     r"ranker 'info_gain' supports classification only.*rankers for regression: .*pearson"),
    ("classification-on-floats", ["rank", "--task", "classification"], "reg_csv",
     r"holds non-integer numbers .*for --task classification: say --task regression"),
    ("classifier-estimator-for-regression", ["select", "--rankers", "pearson", "--subset",
                                             "2", "--estimators", "tree"], "reg_csv",
     r"estimators tree are classifiers, but the target is numeric.*ridge"),
    ("classifier-estimator-explicit-regression", ["select", "--rankers", "pearson",
                                                  "--subset", "2", "--estimators",
                                                  "naive_bayes", "--task", "regression"],
     "reg_csv", r"'naive_bayes' is a classifier, not for a regression task"),
    ("regressor-for-classes", ["select", "--rankers", "info_gain", "--subset", "2",
                               "--estimators", "ridge"], "cls_csv",
     r"estimators ridge are regressors, but the target is class labels"),
    ("mixed-estimators", ["select", "--rankers", "pearson", "--subset", "2", "--estimators",
                          "ridge,tree"], "reg_csv", r"mixes classifiers and regressors"),
    ("unknown-regressor", ["select", "--rankers", "pearson", "--subset", "2", "--estimators",
                           "ridg", "--task", "regression"], "reg_csv",
     r"unknown classifier 'ridg'; did you mean 'ridge'"),
    ("svm-rfe-rules-for-regression", ["svm-rfe", "--rules", "borda"], "reg_csv",
     r"rules needs classes.*one RFE run with a linear SVR: leave it out, or say --task "
     r"classification"),
    ("svm-rfe-criterion-for-regression", ["svm-rfe", "--criterion", "crammer_singer"],
     "reg_csv", r"criterion needs classes.*or say --task classification"),
    ("svm-rfe-ova-for-regression", ["svm-rfe", "-d", "ova"], "reg_csv",
     r"decomposition needs classes"),
    ("advise-classifier-rankers-for-regression", ["advise", "--rankers", "info_gain,relieff"],
     "reg_csv", r"rankers\[0\]: ranker 'info_gain' supports classification only.*rankers for "
     r"regression: .*f_regression"),
    ("advise-regression-rankers-for-classes", ["advise", "--rankers", "pearson,f_regression"],
     "cls_csv", r"ranker 'pearson' supports regression only.*rankers for classification"),
    ("advise-accuracy-for-regression", [*ADVISE, "--scoring", "accuracy"], "reg_csv",
     r"scoring='accuracy' is not a score of a regression task"),
    ("advise-r2-for-classes", ["advise", "--scoring", "r2"], "cls_csv",
     r"scoring='r2' is not a score of a classification task"),
    ("advise-bad-scoring", [*ADVISE, "--scoring", "rmse"], "reg_csv",
     r"argument --scoring: invalid choice: 'rmse'"),
    ("advise-misspelt-score", ["advise", "--scoring", "balanced_acc"], "cls_csv",
     r"argument --scoring: invalid choice: 'balanced_acc' .*'balanced_accuracy'"),
    ("advise-mcc-for-regression", [*ADVISE, "--scoring", "mcc"], "reg_csv",
     r"scoring='mcc' is not a score of a regression task"),
    ("advise-log-loss-without-probabilities", ["advise", "--scoring", "neg_log_loss"],
     "cls_csv", r"scoring='neg_log_loss' .*needs an estimator with predict_proba; the "
     r"estimator 'linear_svm' has none"),
    ("advise-classifier-for-regression", [*ADVISE, "--estimators", "naive_bayes"], "reg_csv",
     r"'naive_bayes' is a classifier, not for a regression task"),
    ("advise-stability-zero-pfer", [*ADVISE[:6], "stability:pfer=0", *ADVISE[7:]], "reg_csv",
     r"pfer"),
    ("advise-bad-task", ["advise", "--task", "numeric"], "reg_csv", r"invalid choice"),
]


@pytest.mark.parametrize("args,fixture,message", [h[1:] for h in HOSTILE],
                         ids=[h[0] for h in HOSTILE])
def test_hostile_task_command_lines(args, fixture, message, request, capsys):
    path = request.getfixturevalue(fixture)
    try:
        code = main([args[0], str(path), *args[1:]])
    except SystemExit as e:  # argparse's own refusals
        code = e.code
    err = capsys.readouterr().err
    assert code != 0
    assert re.search(message, err), err
    assert "Traceback" not in err
    assert not re.search(r"task=[\"']", err), err  # --task, the command line's spelling


def test_svm_rfe_regression_C_by_cv(reg_csv, capsys):
    """--C cv on a numeric target: the linear SVR's C by cross-validated R² (SVMRFE's
    choose_C_regression), the same ranking as the estimator with C='cv'."""
    frame = read_csv(reg_csv)  # exactly the numbers the library reads
    code, out, _ = _run(["svm-rfe", str(reg_csv), "--C", "cv", "--top", "2",
                         "--random-state", "0"], capsys)
    assert code == 0
    sel = SVMRFE(C="cv", n_features_to_select=1, random_state=0, task="regression").fit(
        frame.drop(columns="y"), frame["y"])
    lines = out.splitlines()
    top = [ln.split()[-1] for ln in lines if ln[:1] in "12" and len(ln.split()) == 2]
    assert top == [f"f{j}" for j in np.argsort(sel.positions_)[:2]] == ["f0", "f2"]


def test_command_line_spelling_of_the_task():
    from rankfusion.workflows.text import command_line_text

    assert command_line_text('say task="classification" or task=\'regression\'') == \
        "say --task classification or --task regression"
    assert command_line_text('task="regression" (--task regression)') == "--task regression"
    assert command_line_text("task = 'x' stays; tasks='regression' stays") == \
        "task = 'x' stays; tasks='regression' stays"
