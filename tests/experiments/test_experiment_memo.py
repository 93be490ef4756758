"""Selector reuse between cross-validation cells and the ``pos_label`` protocol option."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer

from rankfusion import EnsembleSelector
from rankfusion.evaluation import cross_validate_selection
from rankfusion.experiments import run_experiment
from rankfusion.experiments.cells import resolve_pos_label
from rankfusion.experiments.memo import CachedSelector, clear_selector_cache, selector_cache_info

CONFIG = """
[experiment]
seed = 11
[grid]
datasets = ["bc"]
selectors = ["ens"]
rules = ["borda"]
classifiers = ["naive_bayes", "knn1"]
protocols = ["cv"]
[datasets.bc]
source = "sklearn:breast_cancer"
[selectors.ens]
kind = "ensemble"
rankers = ["info_gain", "chi_square"]
[protocols.cv]
kind = "cross_validation"
cv = 3
n_features = 5
{extra}
"""


def _run(tmp_path, extra=""):
    cfg = tmp_path / "c.toml"
    cfg.write_text(CONFIG.format(extra=extra))
    return run_experiment(cfg, out=tmp_path / "out", report=False)


def test_cached_selector_gives_the_numbers_of_a_fresh_fit():
    X, y = load_breast_cancer(return_X_y=True)
    sel = EnsembleSelector(rankers=("info_gain", "relieff"), n_features_to_select=4)
    clear_selector_cache()
    direct = cross_validate_selection(sel, X, y, classifier="knn1", cv=3, random_state=5)
    cached = [cross_validate_selection(CachedSelector(sel, key="k"), X, y, classifier="knn1",
                                       cv=3, random_state=5) for _ in range(2)]
    for c in cached:
        np.testing.assert_array_equal(c.scores.to_numpy(), direct.scores.to_numpy())
    info = selector_cache_info()
    assert info["misses"] == 3 and info["hits"] == 3


def test_other_key_seed_or_data_is_not_reused():
    X, y = load_breast_cancer(return_X_y=True)
    sel = EnsembleSelector(rankers=("info_gain",), n_features_to_select=2)
    clear_selector_cache()
    CachedSelector(sel, key="a", random_state=0).fit(X, y)
    CachedSelector(sel, key="b", random_state=0).fit(X, y)
    CachedSelector(sel, key="a", random_state=1).fit(X, y)
    CachedSelector(sel, key="a", random_state=0).fit(X[:-1], y[:-1])
    CachedSelector(sel, key="a", random_state=0).fit(X, y)
    assert selector_cache_info() == {"hits": 1, "misses": 4, "size": 4}


def test_runner_fits_the_selector_once_per_fold_for_two_classifiers(tmp_path):
    clear_selector_cache()
    _run(tmp_path)
    assert selector_cache_info()["misses"] == 3
    assert selector_cache_info()["hits"] == 3


@pytest.mark.parametrize("bad", ["", 3])
def test_bad_key(bad):
    X, y = load_breast_cancer(return_X_y=True)
    with pytest.raises(ValueError, match="key"):
        CachedSelector(EnsembleSelector(rankers=("info_gain",)), key=bad).fit(X, y)


def test_pos_label_majority_and_minority():
    y = np.array([0, 0, 0, 1, 1])
    assert resolve_pos_label("majority", y) == 0
    assert resolve_pos_label("minority", y) == 1
    assert resolve_pos_label(None, y) is None
    assert resolve_pos_label(1, y) == 1


@pytest.mark.parametrize("y, match", [(np.array([0, 1, 2, 2]), "binary"),
                                      (np.array([0, 0, 1, 1]), "equal counts")])
def test_pos_label_bad(y, match):
    with pytest.raises(ValueError, match=match):
        resolve_pos_label("majority", y)


def test_pos_label_majority_reports_the_majority_class(tmp_path):
    # breast_cancer: 212 malignant (0), 357 benign (1); the default positive is class 0
    import json
    _run(tmp_path, 'pos_label = "majority"')
    labels = {json.loads(f.read_text())["payload"]["pos_label"]
              for f in (tmp_path / "out" / "cells").glob("*.json")}
    assert labels == {"1"}


def test_pos_label_type_is_checked(tmp_path):
    from rankfusion.experiments import ConfigError
    with pytest.raises(ConfigError, match="pos_label"):
        _run(tmp_path, "pos_label = 1.5")


def test_cached_selector_keeps_nominal_columns_as_the_plain_selector():
    # regression: the wrapped selector's output must keep the categorical dtypes (Weka-like
    # classifiers refuse object columns), exactly as the plain selector's
    import pandas as pd

    rng = np.random.default_rng(0)
    n = 90
    y = rng.integers(0, 2, n)
    X = pd.DataFrame({"a": pd.Categorical(np.where(y == 1, "u", rng.choice(["u", "v"], n))),
                      "b": rng.normal(size=n) + y, "c": pd.Categorical(rng.choice(["x", "z"], n)),
                      "d": rng.normal(size=n)})
    sel = EnsembleSelector(rankers=("info_gain",), n_features_to_select=2)
    for clf in ("naive_bayes_weka", "knn1"):
        a = cross_validate_selection(sel, X, y, classifier=clf, cv=3, random_state=1)
        b = cross_validate_selection(CachedSelector(sel, key=clf), X, y, classifier=clf, cv=3,
                                     random_state=1)
        np.testing.assert_array_equal(a.scores.to_numpy(), b.scores.to_numpy())


def test_ranker_memo_size_holds_two_cells_of_lists():
    from rankfusion.experiments.cells import RANKER_MEMO_MIN, ranker_memo_entries

    ens = {"kind": "ensemble",
           "params": {"rankers": ["cfs", "ilfs", "relieff", "mifs"], "n_bootstraps": 100}}
    curve = {"kind": "error_curve", "params": {"n_splits": 5}}
    # 100 bootstrap samples × 4 rankers × 5 splits = 2000 lists; room for two cells
    assert ranker_memo_entries({"selector": ens, "protocol": curve}) == 4000
    single = {"kind": "ranker", "params": {"ranker": "nlc"}}
    cv = {"kind": "cross_validation", "params": {"cv": 10}}
    assert ranker_memo_entries({"selector": single, "protocol": cv}) == RANKER_MEMO_MIN
    small = {"kind": "ensemble", "params": {"rankers": ["info_gain"], "n_bootstraps": 3}}
    assert ranker_memo_entries({"selector": small, "protocol": cv}) == RANKER_MEMO_MIN


FUZZY_CURVES = """
[experiment]
name = "memo-fuzzy"
seed = 5
[grid]
datasets = ["bc"]
selectors = ["ens"]
rules = ["EW", "OW"]
classifiers = ["naive_bayes"]
protocols = ["curve"]
[datasets.bc]
source = "sklearn:iris"
[selectors.ens]
kind = "ensemble"
rankers = ["info_gain", "chi_square"]
n_bootstraps = 3
stratify = false
[rules.EW]
rule = "fuzzy:EW"
[rules.OW]
rule = "fuzzy:OW"
[protocols.curve]
kind = "error_curve"
n_splits = 2
n_features = [1, 2]
"""


def test_second_rule_reuses_every_bootstrap_list_of_the_first(tmp_path, monkeypatch):
    # 3 bootstrap samples × 2 rankers × 2 splits = 12 lists per cell; with a floor of 4 the
    # memo must grow to hold them (a memo smaller than a cell's lists recomputes them all)
    from rankfusion.experiments import cells
    from rankfusion.selection.ranker_specs import ranker_cache, set_ranker_cache

    monkeypatch.setattr(cells, "RANKER_MEMO_MIN", 4)

    cfg = tmp_path / "c.toml"
    cfg.write_text(FUZZY_CURVES)
    set_ranker_cache(None)
    try:
        with ranker_cache() as stats:
            run_experiment(cfg, out=tmp_path / "out", report=False)
    finally:
        set_ranker_cache(None)
    assert stats == {"hits": 12, "misses": 12}


def test_cfs_imports_after_the_discretize_kernels_are_compiled():
    # regression: compiling the discretize kernels (MDL cut points on data past the
    # plain-Python threshold) binds discretize's name lnf to the compiled kernel; importing
    # cfs afterwards (in a fresh process) used to fail on it
    import subprocess
    import sys

    code = ("import numpy as np\n"
            "from rankfusion.rankers.discretize import mdl_cut_points\n"
            "rng = np.random.default_rng(0)\n"
            "y = rng.integers(0, 2, 3000)\n"
            "X = rng.normal(size=(3000, 4)) + y[:, None]\n"
            "mdl_cut_points(X, y)\n"
            "from rankfusion.rankers import cfs\n"
            "print(cfs(X, y))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.returncode == 0, out.stderr
