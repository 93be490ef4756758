"""A user's own rule and ranker through ``register_rule`` / ``register_ranker``, and the
scikit-learn adapters against scikit-learn's own output for the same seed."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_selection import mutual_info_classif as sk_mutual_info

from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import Consensus, available_rules, get_rule, register_rule
from rankfusion.aggregation._registry import RULES
from rankfusion.rankers import available_rankers, get_ranker, rank_features, register_ranker
from rankfusion.rankers._registry import RANKERS


@pytest.fixture
def scratch_registries(monkeypatch):
    """Registrations made in a test vanish after it (the registries are process-wide); every
    provider module is loaded first, so that none registers into the scratch copy only."""
    for reg in (RULES, RANKERS):
        reg.load()
        monkeypatch.setattr(reg, "_entries", dict(reg._entries))
        monkeypatch.setattr(reg, "_aliases", dict(reg._aliases))


def _worst_position_rule(lists, *, weights=None, offset=0):
    """A rule no built-in implements: order by the worst position (lower = better)."""
    worst = lists.positions.max(axis=1) + offset
    order = np.lexsort((np.arange(lists.n_features), worst))
    ranks = np.empty_like(order)
    ranks[order] = np.arange(1, order.shape[0] + 1)
    return Consensus(order=order, scores=-worst.astype(float), ranks=ranks,
                     features=lists.features, method="worst_position", params={"offset": offset})


def test_register_a_custom_rule(scratch_registries):
    register_rule("worst_position", aliases=("maximin",), weights=False)(_worst_position_rule)
    assert "worst_position" in available_rules()
    assert "maximin" in available_rules(aliases=True)
    assert get_rule("maximin").name == "worst_position"
    lists = RankedLists.from_orders([list("abcd"), list("bcda"), list("cabd")])
    res = aggregate(lists, "worst_position")
    # worst positions by hand: a 4 (list 2), b 3, c 3, d 4 -> b, c (index), a, d (index)
    assert res.top() == ["b", "c", "a", "d"]
    np.testing.assert_array_equal(res.scores, [-4.0, -3.0, -3.0, -4.0])
    assert aggregate(lists, "maximin", offset=2).params == {"offset": 2}
    with pytest.raises(TypeError, match="unknown parameter"):
        aggregate(lists, "worst_position", k=3)
    with pytest.raises(ValueError, match="takes no list weights"):
        aggregate(lists, "worst_position", weights=[1, 1, 1])
    with pytest.raises(ValueError, match="already registered"):
        register_rule("worst_position")(_worst_position_rule)


def test_custom_rule_is_gone_after_the_test():
    assert "worst_position" not in available_rules(aliases=True)
    assert "feature_variance" not in available_rankers(aliases=True)


def test_register_a_custom_ranker(scratch_registries):
    @register_ranker("feature_variance", aliases=("var",))
    def feature_variance(X, y, *, ddof=0):
        return np.asarray(X, dtype=float).var(axis=0, ddof=ddof)

    X, y = load_iris(return_X_y=True, as_frame=True)
    assert "feature_variance" in available_rankers()
    assert get_ranker("var") is feature_variance
    lists = rank_features(X, y, ["feature_variance", ("var", {"ddof": 1})])
    np.testing.assert_allclose(lists.scores[:, 0], X.to_numpy().var(axis=0))
    np.testing.assert_allclose(lists.scores[:, 1], X.to_numpy().var(axis=0, ddof=1))
    assert lists.ranked_features(0)[0] == "petal length (cm)"  # the largest variance
    with pytest.raises((TypeError, ValueError), match="ddof|parameter"):
        rank_features(X, y, ["feature_variance"], params={"n_neighbors": 3})


@pytest.mark.parametrize("seed", [0, 7])
def test_mutual_info_adapter_equals_sklearn_for_the_same_seed(seed):
    X, y = load_wine(return_X_y=True)
    ours = get_ranker("mutual_info_classif")(X, y, random_state=seed, n_neighbors=4)
    theirs = sk_mutual_info(X, y, random_state=seed, n_neighbors=4)
    np.testing.assert_array_equal(ours, theirs)
    assert not np.array_equal(ours, sk_mutual_info(X, y, random_state=seed + 1))


@pytest.mark.parametrize("seed", [0, 7])
def test_random_forest_adapter_equals_sklearn_for_the_same_seed(seed):
    X, y = load_wine(return_X_y=True)
    ours = get_ranker("random_forest")(X, y, random_state=seed, n_estimators=25)
    theirs = RandomForestClassifier(n_estimators=25, random_state=seed).fit(X, y)
    np.testing.assert_array_equal(ours, theirs.feature_importances_)
    lists = rank_features(X, y, [("random_forest", {"random_state": seed, "n_estimators": 25})])
    np.testing.assert_array_equal(lists.scores[:, 0], theirs.feature_importances_)
