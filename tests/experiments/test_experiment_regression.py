"""``[experiment] task = "regression"`` and the selector kinds ``boruta`` / ``stability`` in the
experiment runner (docs/design.md, 'Tasks'; docs/experiments.md): a tiny regression grid on the
bundled sets run end to end and resumed; its numbers equal a direct call of the protocol; a
classification cell's hash is unchanged; every new input surface with a hostile-input table."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rankfusion.experiments import ConfigError, parse_config, run_experiment
from rankfusion.experiments.store import cell_path

EXAMPLE = Path(__file__).resolve().parents[2] / "experiments" / "examples" / "regression.toml"

TINY = '''
[experiment]
name = "reg"
seed = 7
task = "regression"

[grid]
datasets = ["cpu", "diabetes_lars"]
selectors = ["ens", "one"]
rules = ["borda"]
classifiers = ["ridge"]
protocols = ["curve", "cv"]

[selectors.ens]
kind = "ensemble"
rankers = ["pearson", "f_regression"]
n_features_to_select = 3

[selectors.one]
kind = "ranker"
ranker = "spearman"
n_features_to_select = 3

[protocols.curve]
kind = "error_curve"
n_splits = 2
test_size = 0.3
n_features = [1, 3]

[protocols.cv]
kind = "cross_validation"
cv = 3
'''


def _run(text, out):
    return run_experiment(text, out, report=False, progress=False)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("reg")
    summary = _run(TINY, out)
    assert summary.ok and len(summary.computed) == 8
    return out


def test_regression_grid_runs_with_regression_metrics(reference):
    res = pd.read_parquet(reference / "results.parquet")
    cv = res[res["n_features"] < 0]
    assert sorted(cv["metric"].unique()) == ["mae", "r2", "rmse"]
    assert set(res["dataset"]) == {"cpu", "diabetes_lars"}
    curve = res[res["n_features"] >= 0]
    assert (curve["value"] > 1).all()  # an RMSE in the target's units, not an error rate


def test_curve_equals_a_direct_error_curve(reference):
    from rankfusion import EnsembleSelector
    from rankfusion.datasets import load
    from rankfusion.evaluation import error_curve

    cell = next(c for c in parse_config(TINY).cells
                if c.labels["dataset"] == "cpu" and c.labels["selector"] == "ens"
                and c.labels["protocol"] == "curve")
    b = load("cpu", as_frame=True)
    sel = EnsembleSelector(rankers=("pearson", "f_regression"), aggregation="borda",
                           aggregation_params=None, n_features_to_select=3, task="regression")
    ref = error_curve(sel, b.data, np.asarray(b.target, dtype=np.float64), n_features=[1, 3],
                      classifier="ridge", n_splits=2, test_size=0.3, stratify=True,
                      random_state=cell.seed, task="regression")
    res = pd.read_parquet(reference / "results.parquet")
    got = res[(res["dataset"] == "cpu") & (res["method"] == "ens+borda")
              & (res["protocol"] == "curve")].sort_values(["split", "n_features"])
    np.testing.assert_array_equal(got["value"].to_numpy(), ref.errors.to_numpy().reshape(-1))


def test_resume_reuses_and_recomputes_a_damaged_cell(reference, tmp_path):
    out = tmp_path / "copy"
    shutil.copytree(reference, out)
    cells = parse_config(TINY).cells
    p = cell_path(out, cells[0].hash)
    p.write_bytes(p.read_bytes()[:40])  # a partial write
    summary = _run(TINY, out)
    assert summary.recomputed_corrupt == [cells[0].hash] and summary.reused == 7
    pd.testing.assert_frame_equal(pd.read_parquet(out / "results.parquet"),
                                  pd.read_parquet(reference / "results.parquet"),
                                  check_exact=True)


def test_classification_cells_hash_as_before():
    text = TINY.replace('task = "regression"\n', "").replace('"cpu", "diabetes_lars"',
                                                            '"iris"')
    text = text.replace('"pearson", "f_regression"', '"info_gain", "relieff"')
    text = text.replace('"spearman"', '"info_gain"').replace('"ridge"', '"linear_svm"')
    explicit = text.replace('seed = 7\n', 'seed = 7\ntask = "classification"\n')
    a, b = parse_config(text).cells, parse_config(explicit).cells
    assert [c.hash for c in a] == [c.hash for c in b]
    assert all("task" not in c.spec for c in a)


def test_example_config_parses():
    cfg = parse_config(EXAMPLE.read_text())
    assert cfg.task == "regression" and len(cfg.cells) == 8


SUBSET_GRID = '''
[experiment]
name = "subsets"
seed = 3

[grid]
datasets = ["iris"]
selectors = ["bor", "stab"]
classifiers = ["naive_bayes"]
protocols = ["cv"]

[selectors.bor]
kind = "boruta"
ranker = "random_forest"
max_iter = 8

[selectors.stab]
kind = "stability"
rankers = ["f_classif"]
q = 2
threshold = 0.6
n_subsamples = 6

[protocols.cv]
kind = "cross_validation"
cv = 3
scoring = ["accuracy"]
'''


def test_boruta_and_stability_kinds_run(tmp_path):
    summary = _run(SUBSET_GRID, tmp_path / "s")
    assert summary.ok and len(summary.computed) == 2
    res = pd.read_parquet(tmp_path / "s" / "results.parquet")
    assert set(res["method"]) == {"bor", "stab"}
    assert res["value"].between(0, 1).all()


REG_SUBSETS = '''
[experiment]
name = "reg-subsets"
seed = 5
task = "regression"

[grid]
datasets = ["diabetes_lars"]
selectors = ["bor", "stab"]
classifiers = ["ridge"]
protocols = ["cv"]

[selectors.bor]
kind = "boruta"
ranker = "f_regression"
max_iter = 15

[selectors.stab]
kind = "stability"
q = 3
threshold = 0.6
n_subsamples = 6

[protocols.cv]
kind = "cross_validation"
cv = 3
'''


def test_boruta_and_stability_kinds_run_under_regression(tmp_path):
    """The subset kinds under task = "regression": Boruta with a regression ranker, stability
    selection with its regression default (f_regression); R², RMSE and MAE of the subset."""
    summary = _run(REG_SUBSETS, tmp_path / "r")
    assert summary.ok and len(summary.computed) == 2
    res = pd.read_parquet(tmp_path / "r" / "results.parquet")
    assert set(res["method"]) == {"bor", "stab"}
    assert {"r2", "rmse", "mae"} <= set(res["metric"])
    r2 = res[res["metric"] == "r2"]["value"]
    assert (r2 > 0.2).all()  # diabetes: a few features explain part of the progression
    cells = parse_config(REG_SUBSETS).cells
    assert all(c.spec["task"] == "regression" for c in cells)


def test_subset_kinds_build_regression_selectors():
    from rankfusion.experiments.cells import build_selector

    for cell in parse_config(REG_SUBSETS).cells:
        sel = build_selector(cell.spec, 0)
        assert sel.get_params()["task"] == "regression"


def _edit(text, old, new):
    assert old in text
    return text.replace(old, new, 1)


# (id, config text, regex of one of the collected messages)
HOSTILE = [
    ("task-misspelt", _edit(TINY, 'task = "regression"', 'task = "regresion"'),
     r'\[experiment\] task = "regresion": expected "classification" or "regression"; did '
     r'you mean "regression"'),
    ("task-not-a-string", _edit(TINY, 'task = "regression"', "task = 1"),
     r"\[experiment\] task = 1: expected"),
    ("classification-set-under-regression", _edit(TINY, '"cpu", "diabetes_lars"', '"iris"'),
     r"'iris' is a classification data set .*task is regression"),
    ("regression-set-under-classification", _edit(TINY, 'task = "regression"\n', ""),
     r"'cpu' is a regression data set \(a numeric target\); the experiment's task is "
     r"classification"),
    ("classifier-in-a-regression-grid", _edit(TINY, '["ridge"]', '["linear_svm"]'),
     r'classifiers\[0\] = "linear_svm": a classifier, not an estimator of a regression '
     r"task; regression estimators: .*ridge"),
    ("regressor-in-a-classification-grid",
     _edit(SUBSET_GRID, '["naive_bayes"]', '["ridge"]'),
     r'classifiers\[0\] = "ridge": a regressor, not an estimator of a classification task'),
    ("classification-metric-under-regression",
     _edit(TINY, "cv = 3\n", 'cv = 3\nscoring = ["accuracy"]\n'),
     r'scoring: "accuracy" is a classification metric; an experiment with task = '
     r'"regression" takes r2, rmse, mae'),
    ("regression-metric-under-classification",
     _edit(SUBSET_GRID, 'scoring = ["accuracy"]', 'scoring = ["r2"]'),
     r'scoring: "r2" is a regression metric'),
    ("mcc-under-regression", _edit(TINY, "cv = 3\n", 'cv = 3\nscoring = ["mcc"]\n'),
     r'scoring: "mcc" is a classification metric; an experiment with task = '
     r'"regression" takes r2, rmse, mae'),
    ("log-loss-misspelt", _edit(SUBSET_GRID, 'scoring = ["accuracy"]',
                                'scoring = ["log_loss"]'),
     r"scoring = \['log_loss'\]: scoring must be a list of metrics .*neg_log_loss"),
    ("pos-label-under-regression", _edit(TINY, "cv = 3\n", 'cv = 3\npos_label = "a"\n'),
     r"pos_label: applies to binary classes; the task is regression"),
    ("classification-ranker-under-regression",
     _edit(TINY, '"pearson", "f_regression"', '"info_gain", "pearson"'),
     r"info_gain.*(classification only|regression)"),
    ("boruta-classifier-ranker-under-regression",
     _edit(REG_SUBSETS, 'ranker = "f_regression"', 'ranker = "random_forest"'),
     r'\[selectors.bor\] ranker\[0\] = "random_forest": ranker \'random_forest\' supports '
     r"classification only.*rankers for regression: .*random_forest_regressor"),
    ("stability-classifier-ranker-under-regression",
     _edit(REG_SUBSETS, "n_subsamples = 6", 'n_subsamples = 6\nrankers = ["f_classif"]'),
     r'\[selectors.stab\] rankers\[0\] = "f_classif": ranker \'f_classif\' supports '
     r"classification only"),
    ("boruta-unknown-parameter", _edit(SUBSET_GRID, "max_iter = 8", "max_iters = 8"),
     r"\[selectors.bor\] max_iters: unknown parameter of a selector of kind \"boruta\"; "
     r'did you mean "max_iter"'),
    ("boruta-alpha-out-of-range", _edit(SUBSET_GRID, "max_iter = 8", "alpha = 2.0"),
     r"\[selectors.bor\] alpha = 2.0"),
    ("boruta-unknown-ranker", _edit(SUBSET_GRID, 'ranker = "random_forest"',
                                    'ranker = "random_forrest"'),
     r"unknown ranker; did you mean \"random_forest\""),
    ("stability-q-zero", _edit(SUBSET_GRID, "q = 2", "q = 0"),
     r"\[selectors.stab\] q = 0"),
    ("stability-unknown-ranker", _edit(SUBSET_GRID, '["f_classif"]', '["f_clasif"]'),
     r"rankers\[0\] = \"f_clasif\": unknown ranker"),
    ("stability-threshold-wrong-type", _edit(SUBSET_GRID, "threshold = 0.6",
                                             'threshold = "high"'),
     r"\[selectors.stab\] threshold"),
    ("boruta-takes-no-rules", _edit(SUBSET_GRID, "max_iter = 8",
                                    'max_iter = 8\nrules = ["borda"]'),
     r"\[selectors.bor\] rules: a single ranker or a selector with a fixed aggregation takes "
     r"no rules"),
    ("subset-kind-on-an-error-curve",
     _edit(SUBSET_GRID, '[protocols.cv]\nkind = "cross_validation"\ncv = 3\n'
           'scoring = ["accuracy"]', '[protocols.cv]\nkind = "error_curve"\nn_splits = 2\n'
           'n_features = [1, 2]'),
     r"a boruta selector chooses a subset, not a ranking .*cross_validation protocol"),
]


@pytest.mark.parametrize("text,message", [h[1:] for h in HOSTILE], ids=[h[0] for h in HOSTILE])
def test_hostile_configs(text, message):
    with pytest.raises(ConfigError, match=message):
        parse_config(text)


def test_the_runner_takes_the_further_classification_scores(tmp_path):
    # the TOML key scoring names the scores of rankfusion.evaluation.scores; each cell's value
    # is cross_validate_selection's (whose per-fold values equal scikit-learn's by hand:
    # tests/evaluation/test_scores.py)
    text = _edit(SUBSET_GRID, 'scoring = ["accuracy"]',
                 'scoring = ["accuracy", "balanced_accuracy", "mcc", "neg_log_loss"]')
    summary = _run(text, tmp_path / "s")
    assert summary.ok
    res = pd.read_parquet(tmp_path / "s" / "results.parquet")
    metrics = set(res["metric"])
    assert {"accuracy", "balanced_accuracy", "mcc", "neg_log_loss"} <= metrics
    assert (res.loc[res["metric"] == "neg_log_loss", "value"] <= 0).all()
    assert res.loc[res["metric"] == "mcc", "value"].between(-1, 1).all()
