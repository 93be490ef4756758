"""SVMRFE's scikit-learn conventions: ranking_ as RFE's, positions_/consensus_, the fraction
rule, seeds that reach every random step (docs/design.md, 'Seeds', 'Fractions')."""

import math

import numpy as np
import pytest
from sklearn.feature_selection import RFE
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import check_estimator

from rankfusion import aggregate
from rankfusion.rankers import rfe_lists
from rankfusion.selection import SVMRFE, svm_rfe_rankings


def data(seed=0, n=80, p=22, c=4):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(c), n // c)
    X = rng.normal(size=(y.shape[0], p))
    for k in range(c):
        X[y == k, k] += 1.5
    return X, y


def test_ranking_has_sklearn_rfe_meaning():
    X, y = data(0)
    sel = SVMRFE(n_features_to_select=5).fit(X, y)
    # positions_ is the full consensus (oracle: the rule applied to the lists directly)
    np.testing.assert_array_equal(sel.positions_,
                                  aggregate(rfe_lists(X, y)[0], "kfirst").ranks)
    assert sel.consensus_.method == "kfirst"
    np.testing.assert_array_equal(sel.consensus_.ranks, sel.positions_)
    # ranking_: selected 1, then 2, 3, … in consensus order — written out by hand
    expected = np.empty(22, dtype=int)
    for j, pos in enumerate(sel.positions_):
        expected[j] = 1 if pos <= 5 else pos - 4
    np.testing.assert_array_equal(sel.ranking_, expected)
    np.testing.assert_array_equal(X[:, sel.ranking_ == 1], sel.transform(X))
    assert sorted(sel.ranking_.tolist()) == [1] * 5 + list(range(2, 19))


def test_binary_ranking_equals_sklearn_rfe_ranking():
    """On two classes with step=1, SVMRFE and RFE(SVC) select the same features with the same
    ranking_ (both in RFE's meaning)."""
    X, y = data(1, c=2)
    ours = SVMRFE(n_features_to_select=4, step=1).fit(X, y)
    ref = RFE(SVC(kernel="linear"), n_features_to_select=4, step=1).fit(X, y)
    np.testing.assert_array_equal(ours.ranking_, ref.ranking_)
    np.testing.assert_array_equal(ours.support_, ref.support_)


@pytest.mark.parametrize("f, p", [(0.1, 985), (0.25, 22), (0.5, 5), (0.01, 22), (1.0, 22)])
def test_fraction_rule_rounds_half_up(f, p):
    expected = max(1, math.floor(f * p + 0.5))
    assert SVMRFE(n_features_to_select=f)._n_select(p) == expected
    if (f, p) == (0.1, 985):
        assert expected == 99 and int(f * p) == 98  # scikit-learn's RFE would keep 98


def test_fraction_rule_in_a_fit():
    X, y = data(2)  # 22 features: 0.25 → 5.5 → 6 (scikit-learn's int() would give 5)
    sel = SVMRFE(n_features_to_select=0.25).fit(X, y)
    assert sel.n_features_ == 6 and sel.support_.sum() == 6 and (sel.ranking_ == 1).sum() == 6


@pytest.mark.parametrize("rule", ["ce", "ga", "kemeny"])
def test_seed_reaches_the_rule(rule):
    X, y = data(3, p=12)
    params = {"k": 5} if rule in ("ce", "ga") else {}
    fits = [SVMRFE(aggregation=rule, aggregation_params=params, random_state=0).fit(X, y)
            for _ in range(3)]
    for sel in fits[1:]:
        np.testing.assert_array_equal(sel.positions_, fits[0].positions_)
        assert sel.consensus_.params["random_state"] == fits[0].consensus_.params["random_state"]
    # an explicit seed in aggregation_params wins
    sel = SVMRFE(aggregation=rule, aggregation_params={**params, "random_state": 11},
                 random_state=0).fit(X, y)
    assert sel.consensus_.params["random_state"] == 11


def test_ce_is_reproducible_and_none_is_fresh_entropy():
    X, y = data(4, p=30)
    ranks = {tuple(SVMRFE(aggregation="ce", random_state=0).fit(X, y).positions_)
             for _ in range(4)}
    assert len(ranks) == 1
    seeds = {SVMRFE(aggregation="ce").fit(X, y).consensus_.params["random_state"]
             for _ in range(3)}
    assert len(seeds) == 3  # None: a fresh seed each fit (was seed 0 every time)


def test_seed_reaches_crammer_singer():
    X, y = data(5, p=10)
    a = SVMRFE(decomposition="crammer_singer", random_state=2).fit(X, y)
    b = SVMRFE(decomposition="crammer_singer", random_state=2).fit(X, y)
    np.testing.assert_array_equal(a.positions_, b.positions_)


def test_seeded_fit_is_the_seeded_function():
    X, y = data(6, p=12)
    sel = SVMRFE(aggregation="ce", aggregation_params={"k": 4}, random_state=7).fit(X, y)
    out = svm_rfe_rankings(X, y, ["ce"], aggregation_params={"k": 4}, random_state=7)
    np.testing.assert_array_equal(sel.positions_, out.positions["ce"])


def test_check_estimator_with_seeded_random_rule():
    check_estimator(SVMRFE(aggregation="ce", aggregation_params={"k": 0.5}, random_state=0))


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(methods=["nope"]), ValueError, "unknown aggregation"),
    (dict(methods=[]), ValueError, "at least one"),
    (dict(methods=[3]), TypeError, "rule name"),
    (dict(decomposition="ecoc"), ValueError, "decomposition"),
    (dict(aggregation_params={"kk": 1}), TypeError, "unknown parameter"),
    (dict(aggregation_params={"k": 0}), ValueError, "k must be ≥ 1"),
    (dict(aggregation_params={"k": 99}), ValueError, "exceeds"),
    (dict(aggregation_params={"k": 1.5}), ValueError, r"\(0, 1\]"),
    (dict(aggregation_params={"k": True}), TypeError, "bool"),
    (dict(rule_params={"schulze": {}}), ValueError, "not among the rules"),
    (dict(C="auto"), ValueError, "C must"),
    (dict(C=float("nan")), ValueError, "C must"),
    (dict(C=0), ValueError, "C must"),
    (dict(tol=0), ValueError, "tol"),
    (dict(step=0), ValueError, "step"),
    (dict(step=0.1, step_until=0), ValueError, "step_until"),
    (dict(random_state=-3), ValueError, "random_state"),
    (dict(random_state=1.5), TypeError, "random_state"),
    (dict(cv=1, C="cv"), ValueError, "cv"),
])
def test_hostile_arguments_fail_before_any_elimination(monkeypatch, kwargs, exc, match):
    import rankfusion.selection.svm_rfe as mod

    def boom(*a, **k):
        raise AssertionError("the elimination ran before the arguments were checked")

    monkeypatch.setattr(mod, "rfe_lists", boom)
    monkeypatch.setattr(mod, "joint_rfe", boom)
    X, y = data(7, p=12)
    kwargs = dict(kwargs)  # the parameter is shared between runs: never modify it
    methods = kwargs.pop("methods", ["kfirst"])
    with pytest.raises(exc, match=match):
        svm_rfe_rankings(X, y, methods, **kwargs)
