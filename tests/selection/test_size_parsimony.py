"""Parsimony of the subset-size search (``tol``, ``size_rule="one_se"``) through the selectors.

The rules themselves are tested on hand-made curves in ``test_subset_size.py``; here: they reach
:class:`EnsembleSelector` (``tol``, ``size_rule``) and :class:`SVMRFE` (``size_tol``,
``size_rule``) without changing the curve, choose fewer features than ``"best"`` on planted data
(a few informative features of decreasing strength among many noise features) and on the
bundled St. Jude data, and are refused where there is no search (docs/design.md, 'Parameters';
Hastie, Tibshirani & Friedman, *Elements of Statistical Learning*, §7.10).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rankfusion import SVMRFE, EnsembleSelector
from rankfusion.datasets import load_stjude_leukemia


def _planted(seed, n=90, noise=60):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2], n // 3)
    strength = np.array([1.0, 0.8, 0.6, 0.5, 0.4, 0.3])
    X = rng.normal(size=(n, strength.size + noise))
    X[:, :strength.size] += rng.normal(size=(3, strength.size))[y] * strength
    return X, y


def _ensemble(**kw):
    return EnsembleSelector(rankers=("info_gain", "relieff"), n_features_to_select="k-step",
                            estimators=["naive_bayes", "knn1"], subset_cv="ranked_once",
                            random_state=4, **kw)


def test_ensemble_tol_and_one_se_choose_fewer_features_on_the_same_curve():
    X, y = _planted(4)
    best = _ensemble().fit(X, y)
    tol = _ensemble(tol=0.02).fit(X, y)
    one = _ensemble(size_rule="one_se").fit(X, y)
    assert (best.subset_curve_.rule, tol.subset_curve_.rule, one.subset_curve_.rule) == (
        "best", "tol", "one_se")
    assert best.n_features_ == best.subset_curve_.best_n_features == 10
    assert tol.n_features_ < best.n_features_ and one.n_features_ < best.n_features_
    for sel in (tol, one):
        # the rule reads the curve; it does not change it, nor the consensus
        pd.testing.assert_frame_equal(sel.subset_curve_.curve, best.subset_curve_.curve)
        np.testing.assert_array_equal(sel.positions_, best.positions_)
        sc = sel.subset_curve_
        assert sc.best_n_features == best.n_features_
        assert sc.accuracy >= sc.threshold - 1e-12 and sel.support_.sum() == sel.n_features_
    assert tol.subset_curve_.threshold == pytest.approx(best.subset_curve_.accuracy - 0.02)


def test_svm_rfe_size_tol_and_one_se_choose_fewer_and_cv_results_stay_the_view():
    X, y = _planted(0)
    best = SVMRFE(n_features_to_select="cv", random_state=0).fit(X, y)
    tol = SVMRFE(n_features_to_select="cv", size_tol=0.02, random_state=0).fit(X, y)
    one = SVMRFE(n_features_to_select="cv", size_rule="one_se", random_state=0).fit(X, y)
    assert best.n_features_ == best.subset_curve_.best_n_features == 12
    assert tol.n_features_ < best.n_features_ and one.n_features_ < best.n_features_
    assert (tol.subset_curve_.rule, one.subset_curve_.rule) == ("tol", "one_se")
    res = best.cv_results_
    for sel in (tol, one):
        assert sel.cv_results_.keys() == res.keys()
        for key in res:
            np.testing.assert_array_equal(sel.cv_results_[key], res[key])
    # the curve and cv_results_ hold the same fold scores (sizes ascending / as visited)
    curve = best.subset_curve_.curve
    sizes = res["n_features"]
    assert curve["k"].tolist() == sorted(sizes.tolist())
    assert set(curve["estimator"]) == {"linear_svm"} and best.subset_curve_.method == "cv"
    back = np.argsort(sizes)
    for f in range(best.cv):
        np.testing.assert_array_equal(curve[f"fold{f}"], res[f"split{f}_test_score"][back])
    np.testing.assert_allclose(curve["mean"], res["mean_test_score"][back], rtol=1e-15)


def test_defaults_keep_the_best_size_and_fixed_sizes_have_no_curve():
    X, y = _planted(1, noise=6)
    sel = SVMRFE(n_features_to_select=3).fit(X, y)
    assert sel.subset_curve_ is None and not hasattr(sel, "cv_results_")
    sel.set_params(n_features_to_select="cv").fit(X, y)
    sc = sel.subset_curve_
    assert (sc.rule, sc.tol) == ("best", None) and sc.n_features == sc.best_n_features
    sel.set_params(n_features_to_select=2).fit(X, y)  # a refit drops the curve
    assert sel.subset_curve_ is None


@pytest.mark.parametrize("make, kind, match", [
    (lambda: EnsembleSelector(rankers=["relieff"], tol=0.01), ValueError,
     "tol and size_rule apply to a searched size"),
    (lambda: EnsembleSelector(rankers=["relieff"], size_rule="one_se", n_features_to_select=2),
     ValueError, "apply to a searched size"),
    (lambda: EnsembleSelector(rankers=["relieff"], n_features_to_select="k-step", tol=0.01,
                              size_rule="one_se"), ValueError, "two parsimony rules"),
    (lambda: EnsembleSelector(rankers=["relieff"], n_features_to_select="k-step", tol=-1),
     ValueError, "tol must be None or a number ≥ 0, got -1"),
    (lambda: EnsembleSelector(rankers=["relieff"], n_features_to_select="k-step",
                              size_rule="1se"), ValueError,
     "size_rule must be 'best' or 'one_se', got '1se'"),
    (lambda: EnsembleSelector(rankers=["relieff"], n_features_to_select="k-step", tol="0"),
     TypeError, "tol must be None or a number ≥ 0, got '0'"),
    (lambda: SVMRFE(size_tol=0.01), ValueError, "apply to a searched size"),
    (lambda: SVMRFE(n_features_to_select="cv", size_tol=0.01, size_rule="one_se"), ValueError,
     "two parsimony rules"),
    (lambda: SVMRFE(n_features_to_select="cv", size_tol=True), TypeError,
     "size_tol must be None or a number ≥ 0, got True"),
    (lambda: SVMRFE(n_features_to_select="cv", size_rule="BEST"), ValueError,
     "size_rule must be 'best' or 'one_se', got 'BEST'"),
])
def test_size_rule_parameters_are_checked_at_fit(make, kind, match):
    X, y = _planted(2, noise=4)
    with pytest.raises(kind, match=match):
        make().fit(X, y)


def test_stjude_k_step_one_se_keeps_far_fewer_genes():
    # with this seed K-step's best is 849 of the 985 genes (mean CV accuracy 0.996); one
    # standard error below it 191 genes are enough (0.992)
    X, y = load_stjude_leukemia(return_X_y=True)
    sel = EnsembleSelector(n_features_to_select="k-step", size_rule="one_se",
                           random_state=2).fit(X, y)
    sc = sel.subset_curve_
    assert sc.best_n_features == 849
    assert sel.n_features_ == sc.n_features <= 200
    assert sc.best_accuracy - sc.accuracy <= sc.best_accuracy - sc.threshold
