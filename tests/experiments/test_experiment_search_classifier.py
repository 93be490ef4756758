"""The ``search_with_classifier`` option of the cross-validation protocol: the subset-size
search (learning curve, K-step) uses the classifier the cell evaluates."""

from __future__ import annotations

import pytest

from rankfusion.evaluation import make_classifier
from rankfusion.experiments import parse_config
from rankfusion.experiments.cells import build_selector

CONFIG = """
[experiment]
seed = 3

[grid]
datasets = ["iris"]
selectors = ["lc", "fixed"]
classifiers = ["naive_bayes", "knn1"]
protocols = ["cv"]

[selectors.lc]
kind = "ensemble"
rankers = ["nlc"]
aggregation = "borda"
n_features_to_select = "learning-curve"

[selectors.fixed]
kind = "ensemble"
rankers = ["nlc"]
aggregation = "borda"
n_features_to_select = 2

[protocols.cv]
kind = "cross_validation"
cv = 3
scoring = ["accuracy"]
{extra}
"""


def _cells(extra=""):
    return parse_config(CONFIG.replace("{extra}", extra)).cells


def test_search_uses_the_cells_classifier():
    cells = _cells("search_with_classifier = true")
    for cell in cells:
        sel = build_selector(cell.spec, cell.seed)
        if cell.labels["selector"] == "lc":
            assert len(sel.estimators) == 1
            want = type(make_classifier(cell.classifier, random_state=0))
            assert type(sel.estimators[0]) is want
        else:  # a fixed size searches nothing: the option does not touch it
            assert sel.estimators is None


def test_default_leaves_the_selector_and_the_spec_unchanged():
    for cell in _cells():
        assert "search_with_classifier" not in cell.spec["protocol"]["params"]
        assert build_selector(cell.spec, cell.seed).estimators is None
    # the option is part of the spec (it changes the numbers), hence of the hash
    on = {c.label: c.hash for c in _cells("search_with_classifier = true")}
    off = {c.label: c.hash for c in _cells()}
    assert all(on[k] != off[k] for k in on)


@pytest.mark.parametrize("value", ['"yes"', "1", "[true]"])
def test_hostile_values_are_rejected(value):
    with pytest.raises(ValueError, match="search_with_classifier"):
        _cells(f"search_with_classifier = {value}")


CURVE = """
[experiment]
seed = 1

[grid]
datasets = ["iris", "wine"]
selectors = ["ig"]
classifiers = ["naive_bayes"]

[datasets.wine]
source = "sklearn:wine"

[selectors.ig]
kind = "ranker"
ranker = "info_gain"

[protocols.curve]
kind = "error_curve"
n_splits = 2
n_features = {nf}
"""


def test_error_curve_all_feature_counts():
    cells = parse_config(CURVE.replace("{nf}", '"all"')).cells
    grids = {c.labels["dataset"]: c.spec["protocol"]["params"]["n_features"] for c in cells}
    assert grids == {"iris": [1, 2, 3, 4], "wine": list(range(1, 14))}


@pytest.mark.parametrize("value", ['"al"', '"ALL"', '"all:3"'])
def test_error_curve_bad_grid_names_are_rejected(value):
    with pytest.raises(ValueError, match="n_features"):
        parse_config(CURVE.replace("{nf}", value))


ZOO = """
[experiment]
seed = 1

[grid]
datasets = ["zoo"]
selectors = ["ig"]
classifiers = ["naive_bayes"]

[selectors.ig]
kind = "ranker"
ranker = "info_gain"
n_features_to_select = 3

[protocols.cv]
kind = "cross_validation"
cv = 10
scoring = ["accuracy"]
{extra}
"""


def test_small_classes_accepts_more_folds_than_the_smallest_class():
    with pytest.raises(ValueError, match="smallest class has 4"):
        parse_config(ZOO.replace("{extra}", ""))
    (cell,) = parse_config(ZOO.replace("{extra}", "small_classes = true")).cells
    assert cell.spec["protocol"]["params"]["small_classes"] is True


def test_small_classes_cell_runs_with_folds_lacking_the_rarest_class():
    import warnings

    from rankfusion.experiments.cells import run_cell

    (cell,) = parse_config(ZOO.replace("{extra}", "small_classes = true")).cells
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # scikit-learn: a class has < 10 members
        out = run_cell(cell.spec)
    assert len(out["payload"]["scores"]) == 10
