"""The ``standardize`` option of the ``error_curve`` protocol: features z-scored with each
split's training rows, for the selector and the classifier alike."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_wine

from rankfusion.experiments import cells as cells_mod
from rankfusion.experiments import parse_config

CONFIG = """
[experiment]
seed = 11

[grid]
datasets = ["w"]
selectors = ["rfe"]
classifiers = ["linear_svm"]
protocols = ["curve"]

[datasets.w]
source = "sklearn:wine"

[selectors.rfe]
kind = "svm_rfe"
decomposition = "ovo"
aggregation = "kfirst"
C = 1.0
step = 0.2

[protocols.curve]
kind = "error_curve"
n_splits = 2
n_features = [1, 3, 6]
{extra}
"""


def _cell(extra=""):
    (cell,) = parse_config(CONFIG.replace("{extra}", extra)).cells
    return cell


def _run(cell, X, y):
    sel = cells_mod.build_selector(cell.spec, cell.seed)
    names = [f"f{j}" for j in range(X.shape[1])]
    return cells_mod._run_protocol(cell.spec, sel, X, y, names, cell.seed, None)


def test_default_keeps_the_spec_and_the_hash():
    plain = _cell()
    assert "standardize" not in plain.spec["protocol"]["params"]
    assert _cell("standardize = false").hash != plain.hash
    assert _cell("standardize = true").spec["protocol"]["params"]["standardize"] is True


def test_standardized_curve_is_invariant_to_column_scales():
    # z-scores (and so the rankings and errors) do not depend on each column's unit and
    # origin; the unscaled run does (wine's columns span 0.1 … 1000)
    X, y = load_wine(return_X_y=True)
    rng = np.random.default_rng(0)
    a, b = rng.uniform(0.01, 100.0, X.shape[1]), rng.uniform(-50, 50, X.shape[1])
    on = _cell("standardize = true")
    r1, r2 = _run(on, X, y), _run(on, X * a + b, y)
    assert r1["positions"] == r2["positions"]
    np.testing.assert_allclose(r1["errors"], r2["errors"], atol=1e-12)
    off = _cell()
    assert _run(off, X, y)["positions"] != _run(off, X * a + b, y)["positions"]


def test_standardized_matches_a_hand_z_scored_split():
    # oracle: z-score the training rows by hand (numpy), fit the same selector and an SVC
    from sklearn.base import clone
    from sklearn.model_selection import train_test_split
    from sklearn.svm import SVC

    X, y = load_wine(return_X_y=True)
    cell = _cell("standardize = true")
    out = _run(cell, X, y)
    pos = np.asarray(out["positions"])
    # every split's positions are a permutation of 1..p
    assert all(sorted(p) == list(range(1, X.shape[1] + 1)) for p in pos)
    # and the ranking of one hand-made split equals the selector fitted on hand z-scores
    tr, te = train_test_split(np.arange(len(y)), test_size=0.25, stratify=y, random_state=0)
    mu, sd = X[tr].mean(0), X[tr].std(0)
    Z = (X - mu) / sd
    sel = clone(cells_mod.build_selector(cell.spec, cell.seed)).set_params(random_state=0)
    from rankfusion.evaluation import ZScoredSelector, selector_positions

    want = selector_positions(sel.fit(Z[tr], y[tr]), X.shape[1])
    got = ZScoredSelector(sel).fit(X[tr], y[tr]).positions_
    np.testing.assert_array_equal(got, want)
    k = 3
    top = np.argsort(want, kind="stable")[:k]
    err = np.mean(SVC(kernel="linear").fit(Z[tr][:, top], y[tr]).predict(Z[te][:, top]) != y[te])
    assert 0.0 <= err <= 0.2


@pytest.mark.parametrize("value, match", [
    ('"yes"', "standardize"),
    ("1", "standardize"),
])
def test_hostile_standardize_values(value, match):
    with pytest.raises((ValueError, TypeError), match=match):
        _cell(f"standardize = {value}")


def test_standardize_is_not_a_cross_validation_option():
    cfg = CONFIG.replace('kind = "error_curve"\nn_splits = 2\nn_features = [1, 3, 6]',
                         'kind = "cross_validation"\ncv = 3')
    with pytest.raises(ValueError, match="standardize"):
        parse_config(cfg.replace("{extra}", "standardize = true"))
