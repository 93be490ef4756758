"""Stability of the cross-validation cells: each fold's selected subset recorded by
``cross_validate_selection``, stored by the runner in positions.parquet, reported as Nogueira's
Φ with its interval; cells and folders written before (no fold subsets) still load and report.

Oracles: a fresh fit of the selector on each fold's training part (the recorded subset),
:func:`rankfusion.stability.nogueira` on the subsets read back by hand (the reported Φ), and
the committed results folders of earlier releases.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from experiment_configs import tiny_config
from sklearn.datasets import make_classification
from sklearn.feature_selection import SelectKBest, VarianceThreshold, f_classif

from rankfusion.evaluation import cross_validate_selection, selector_positions
from rankfusion.experiments import read_results, run_experiment, write_report
from rankfusion.experiments.cells import canonical_json, sha256_hex
from rankfusion.stability import nogueira

pytest.importorskip("matplotlib")
ROOT = Path(__file__).resolve().parents[2]

CV = ('kind = "cross_validation"\ncv = 3\nn_features = 2\nscoring = ["accuracy", "error", '
      '"f1"]')
CURVE = 'kind = "error_curve"\nn_splits = 3\ntest_size = 0.3\nn_features = [1, 2, 4]'


def cv_config(datasets=("wine",)):
    return tiny_config(datasets=datasets, rules=("borda",)).replace(CURVE, CV)


# --------------------------------------------------------------------------- the protocol
def test_each_folds_subset_and_ranking_are_those_of_a_fit_on_its_training_part():
    X, y = make_classification(60, 10, n_informative=3, n_redundant=0, random_state=0)
    sel = SelectKBest(f_classif, k=3)
    res = cross_validate_selection(sel, X, y, classifier="naive_bayes", cv=4, random_state=0)
    assert res.support.shape == (4, 10) and res.positions.shape == (4, 10)
    assert list(res.support.columns) == [f"x{i}" for i in range(10)]
    for f, test in enumerate(res.test_indices):
        train = np.setdiff1d(np.arange(60), test)
        fit = SelectKBest(f_classif, k=3).fit(X[train], y[train])
        assert res.support.iloc[f].tolist() == fit.get_support().tolist()
        assert res.positions.iloc[f].tolist() == selector_positions(fit, 10).tolist()
    assert (res.support.sum(axis=1) == 3).all()


def test_a_selector_without_a_ranking_records_its_subsets_only():
    X, y = make_classification(40, 6, random_state=1)
    X[:, 0] = 1.0  # constant: VarianceThreshold drops it
    res = cross_validate_selection(VarianceThreshold(), X, y, classifier="naive_bayes",
                                   cv=3, random_state=0)
    assert res.positions is None
    assert not res.support["x0"].any() and res.support.drop(columns="x0").all().all()


def test_the_scores_do_not_change_with_the_recorded_folds():
    X, y = make_classification(60, 10, random_state=2)
    a = cross_validate_selection(SelectKBest(f_classif, k=4), X, y, classifier="naive_bayes",
                                 cv=3, random_state=5)
    # the metrics are those of the plain pipeline fitted on each fold
    from sklearn.naive_bayes import GaussianNB

    for f, test in enumerate(a.test_indices):
        train = np.setdiff1d(np.arange(60), test)
        cols = np.flatnonzero(a.support.iloc[f].to_numpy())
        pred = GaussianNB().fit(X[train][:, cols], y[train]).predict(X[test][:, cols])
        assert a.scores["accuracy"].iloc[f] == np.mean(pred == y[test])
    assert list(a.scores.columns) == ["accuracy", "error", "precision", "recall", "f1",
                                      "roc_auc"]


# --------------------------------------------------------------------------- the runner
@pytest.fixture(scope="module")
def cv_folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("cvstab") / "run"
    run_experiment(cv_config(), out, progress=False)
    return out


def test_positions_parquet_holds_the_folds_and_the_report_their_phi(cv_folder):
    results, positions, _ = read_results(cv_folder)
    folds = positions[positions["selected"].notna()]
    assert set(folds["method"]) == {"ens+borda", "single"}
    md = (cv_folder / "report" / "report.md").read_text()
    assert "### Cross-validation cells" in md and "#### wine — curve" in md
    for method in ("ens+borda", "single"):
        piv = folds[folds["method"] == method].pivot(index="split", columns="feature",
                                                     values="selected")
        Z = piv.to_numpy(dtype=bool).astype(int)
        assert Z.shape == (3, 13) and (Z.sum(axis=1) == 2).all()
        res = nogueira(Z)
        row = re.search(rf"\| {re.escape(method)} \| all \| 3 \| 2\.0000 \| (\S+) \| (\S+) \| "
                        r"(\S+) \|", md)
        assert row, method
        assert [float(v) for v in row.groups()] == pytest.approx(
            [res.statistic, res.low, res.high], abs=5e-5)
    # the error-curve sections are not fed the folds
    assert "Stability: not applicable — no error-curve cells" in md
    assert "Rule agreement: not applicable" in md


def test_partial_results_hold_the_folds_too(cv_folder):
    _, positions, _ = read_results(cv_folder, partial=True)
    assert positions["selected"].notna().any()


def test_error_curve_folders_keep_their_positions_table(tmp_path):
    out = tmp_path / "curve"
    run_experiment(tiny_config(datasets=("iris",), rules=("borda",)), out, report=False,
                   progress=False)
    _, positions, _ = read_results(out)
    assert "selected" not in positions.columns  # unchanged without cross-validation cells


def test_mixed_protocols_report_both_stabilities(tmp_path):
    text = cv_config(datasets=("iris",)).replace(
        'protocols = ["curve"]', 'protocols = ["curve", "cvp"]') + "\n[protocols.curve]\n" \
        + CURVE + "\n"
    text = text.replace("[protocols.curve]\n" + CV, "[protocols.cvp]\n" + CV, 1)
    out = tmp_path / "mixed"
    run_experiment(text, out, progress=False)
    _, positions, _ = read_results(out)
    assert positions["selected"].isna().any() and positions["selected"].notna().any()
    md = (out / "report" / "report.md").read_text()
    assert "#### iris — cvp" in md and "figures/stability-iris-curve.png" in md


def _strip_folds(out: Path):
    """Make every cell file look like one of an earlier release (no fold subsets)."""
    for path in (out / "cells").glob("*.json"):
        import json

        doc = json.loads(path.read_text())
        for key in ("selected", "positions", "features"):
            doc["payload"].pop(key, None)
        doc["payload_sha256"] = sha256_hex(doc["payload"])
        path.write_text(canonical_json(doc))


def test_old_cells_without_fold_subsets_load_and_report(tmp_path):
    out = tmp_path / "old"
    run_experiment(cv_config(), out, report=False, progress=False)
    before, _, _ = read_results(out)
    _strip_folds(out)
    run_experiment(cv_config(), out, progress=False)  # reuses the old cells
    after, positions, _ = read_results(out)
    pd.testing.assert_frame_equal(before, after)
    assert "selected" not in positions.columns
    md = (out / "report" / "report.md").read_text()
    assert "stability not recorded for these cells (ens+borda, single)" in md


@pytest.mark.parametrize("paper", ["nlc/smoke/run", "robust_fs/smoke", "bouaguel/smoke"])
def test_committed_cross_validation_results_still_load_and_report(paper, tmp_path):
    src = ROOT / "experiments" / "results" / paper
    results, positions, _ = read_results(src)
    assert (results["n_features"] < 0).any()  # cross-validation cells
    out = tmp_path / "copy"
    shutil.copytree(src, out)
    write_report(out)
    md = (out / "report" / "report.md").read_text()
    if "selected" in positions.columns:  # cells computed since the fold subsets are kept
        section = md[md.index("## Stability of the selected subsets"):]
        assert "| method | classifier | folds | selected (mean) | Φ |" in section
        assert "stability not recorded for these cells" not in md
    else:  # older cells: said, not guessed
        assert "stability not recorded for these cells" in md


def test_a_size_searched_with_the_cells_classifier_gives_one_phi_per_classifier(tmp_path):
    text = tiny_config(datasets=("iris",), rules=("borda",)).replace(
        CURVE, 'kind = "cross_validation"\ncv = 3\nn_features = "learning-curve"\n'
        'search_with_classifier = true\nscoring = ["accuracy"]').replace(
        'classifiers = ["naive_bayes"]', 'classifiers = ["naive_bayes", "knn1"]')
    out = tmp_path / "search"
    run_experiment(text, out, progress=False)
    _, positions, _ = read_results(out)
    folds = positions[positions["selected"].notna()]
    assert folds.groupby("method")["cell"].nunique().to_dict() == {"ens+borda": 2, "single": 2}
    md = (out / "report" / "report.md").read_text()
    for method in ("ens+borda", "single"):
        for clf in ("knn1", "naive_bayes"):
            assert re.search(rf"\| {re.escape(method)} \| {clf} \| 3 \|", md), (method, clf)
