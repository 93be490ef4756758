"""The fuzzy weightings in the rule advisor (``rules=["fuzzy:OW", ...]``).

Oracles: ``EnsembleSelector(aggregation="fuzzy:…", n_bootstraps=B)`` fitted directly on an outer
training part with the part's seed (``Advice.bootstrap_seeds``) — the cached bootstrap scores
aggregated by the advisor must select exactly its subset; a data set where y is independent of
X (no significant gain); the counts of the work by hand.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification

from rankfusion import EnsembleSelector, advise
from rankfusion.evaluation import advice_plan, parse_rule
from rankfusion.evaluation.advisor import advice_part, prepare_advice

B = 4


def abs_mean_diff(X, y):
    """|mean of class 1 − mean of class 0| per feature (deterministic given its rows)."""
    X = np.asarray(X, dtype=float)
    return np.abs(X[y == 1].mean(axis=0) - X[y == 0].mean(axis=0))


def seeded_noise(X, y, random_state=None):
    """A ranker whose scores depend on the seed it is given (and on its rows)."""
    rng = np.random.default_rng(random_state)
    return abs_mean_diff(X, y) + rng.normal(scale=0.2, size=np.asarray(X).shape[1])


@pytest.fixture(scope="module")
def data():
    X, y = make_classification(60, 12, n_informative=3, n_redundant=0, random_state=0)
    return X, y


def _selector_support(X, y, train, config, seed, rankers, *, sample_fraction=1.0):
    sel = EnsembleSelector(rankers=[rankers[r] for r in config.rankers],
                           aggregation=f"fuzzy:{dict(config.params)['weighting']}",
                           n_bootstraps=B, sample_fraction=sample_fraction,
                           n_features_to_select=config.size, random_state=seed)
    sel.fit(X[train], y[train])
    return np.flatnonzero(sel.support_).tolist()


# --------------------------------------------------------------------------- judged criteria
def test_cached_fuzzy_aggregation_equals_ensemble_selector_on_each_outer_part(data):
    X, y = data
    rankers = {"f_classif": "f_classif", "abs_mean_diff": abs_mean_diff, "relieff": "relieff"}
    adv = advise(X, y, rankers=list(rankers.values()), rules=("borda", "fuzzy:OW", "fuzzy:EW"),
                 sizes=(2, 5), estimator="naive_bayes", cv=3, inner_cv=2, n_repeats=1,
                 n_bootstraps=B, tie_break="index", random_state=1)
    assert len(adv.bootstrap_seeds) == 3
    checked = 0
    for j, (train, _) in enumerate(adv.outer_splits):
        for config, subsets in adv.outer_subsets.items():
            if config.rule != "fuzzy":
                continue
            got = _selector_support(X, y, train, config, adv.bootstrap_seeds[j], rankers)
            assert got == subsets[j].tolist(), (j, config.label)
            checked += 1
    assert checked == 3 * 4 * 2 * 2  # parts × subsets × weightings × sizes


@pytest.mark.parametrize("weighting", ["OW", "RW", "MW"])
def test_equality_holds_with_a_seeded_ranker_and_a_sample_fraction(data, weighting):
    # all rankers together: each ranker's seed stream is the one EnsembleSelector gives it
    X, y = data
    rankers = {"f_classif": "f_classif", "seeded_noise": seeded_noise}
    adv = advise(X, y, rankers=list(rankers.values()), rules=(f"fuzzy:{weighting}",),
                 sizes=(3,), estimator="naive_bayes", cv=3, inner_cv=2, n_repeats=1,
                 combine="all", n_bootstraps=B, sample_fraction=0.7, tie_break="index",
                 random_state=5)
    train, _ = adv.outer_splits[0]
    config = next(c for c in adv.outer_subsets if c.rule == "fuzzy")
    assert config.rankers == ("f_classif", "seeded_noise")
    got = _selector_support(X, y, train, config, adv.bootstrap_seeds[0], rankers,
                            sample_fraction=0.7)
    assert got == adv.outer_subsets[config][0].tolist()


def test_selector_of_a_fuzzy_recommendation_repeats_it_on_all_the_data(data):
    X, y = data
    adv = advise(X, y, rankers=("f_classif", abs_mean_diff), rules=("fuzzy:OW", "fuzzy:EW"),
                 sizes=(2, 4), estimator="naive_bayes", cv=3, inner_cv=2, n_repeats=1,
                 n_bootstraps=B, sample_fraction=0.8, tie_break="index", random_state=0)
    assert adv.recommended.rule == "fuzzy"
    assert adv.recommended.rule_label in ("fuzzy:OW", "fuzzy:EW")
    assert parse_rule(adv.recommended.rule_label) == ("fuzzy", dict(adv.recommended.params))
    assert set(adv.table["rule"]) == {"alone", "fuzzy:OW", "fuzzy:EW"}
    sel = adv.selector()
    params = sel.get_params()
    assert isinstance(sel, EnsembleSelector) and not hasattr(sel, "support_")
    assert params["aggregation"] == "fuzzy"
    assert params["aggregation_params"] == dict(adv.recommended.params)
    assert (params["n_bootstraps"], params["sample_fraction"]) == (B, 0.8)
    sel.fit(X, y)
    assert [f"x{i}" for i in np.flatnonzero(sel.support_)] == adv.ties["features"]
    # the caller's own settings win
    other = adv.selector(random_state=3, n_bootstraps=6).get_params()
    assert (other["random_state"], other["n_bootstraps"]) == (3, 6)
    # a single ranker stays a plain selector without bootstraps
    assert adv.selector(adv.best_single).get_params()["n_bootstraps"] == 0
    assert adv.summary["n_bootstraps"] == B and adv.summary["sample_fraction"] == 0.8


def test_independent_y_no_significant_gain_with_fuzzy_rules():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(80, 15))
    y = rng.permutation(np.repeat([0, 1], 40))
    adv = advise(X, y, rankers=("f_classif", abs_mean_diff), rules=("fuzzy:OW", "borda"),
                 sizes=(1, 3), estimator="naive_bayes", cv=4, inner_cv=2, n_repeats=1,
                 n_bootstraps=3, random_state=2)
    assert not adv.significant
    assert abs(adv.combination_scores.mean() - 0.5) < 0.15


def test_results_do_not_depend_on_n_jobs_and_a_part_computed_twice_is_the_same(data):
    X, y = data
    kw = dict(rankers=("f_classif", abs_mean_diff, seeded_noise), rules=("fuzzy:OW", "rrf"),
              sizes=(2,), estimator="naive_bayes", cv=3, inner_cv=2, n_repeats=1,
              n_bootstraps=3, random_state=7)
    a, b = advise(X, y, **kw), advise(X, y, **kw, n_jobs=2)
    cols = ["rankers", "rule", "size", "score", "phi", "chosen"]
    pd.testing.assert_frame_equal(a.table[cols], b.table[cols])
    assert a.bootstrap_seeds == b.bootstrap_seeds
    task = prepare_advice(X, y, **kw)
    one, two = advice_part(task, 0), advice_part(task, 0)
    for key in ("orders", "acc", "bootstrap_scores", "bootstrap_seeds", "ranker_scores"):
        np.testing.assert_array_equal(one[key], two[key])
    # the cache: 2 inner training parts and the outer one, p × rankers × B each
    assert one["bootstrap_scores"].shape == (3, 12, 3, 3)


def test_without_a_fuzzy_rule_nothing_changes(data):
    X, y = data
    kw = dict(rankers=("f_classif", abs_mean_diff), rules=("borda",), sizes=(2,),
              estimator="naive_bayes", cv=3, inner_cv=2, n_repeats=1, random_state=7)
    a = advise(X, y, **kw)
    b = advise(X, y, **kw, n_bootstraps=50, sample_fraction=0.5)
    pd.testing.assert_frame_equal(a.table.drop(columns="configuration"),
                                  b.table.drop(columns="configuration"))
    assert a.bootstrap_seeds is None
    assert "n_bootstraps" not in a.summary
    assert "n_bootstraps" not in prepare_advice(X, y, **kw).identity()
    ident = prepare_advice(X, y, **{**kw, "rules": ("fuzzy:OW",)}).identity()
    assert (ident["n_bootstraps"], ident["sample_fraction"]) == (10, 1.0)
    assert "bootstrap_scores" not in advice_part(prepare_advice(X, y, **kw), 0)


def test_advice_plan_counts_the_bootstrap_ranker_fits(data):
    X, y = data
    kw = dict(rankers=("f_classif", abs_mean_diff, "relieff"), sizes=(1, 2), cv=3,
              inner_cv=2, n_repeats=2)
    parts = 6 * 3 + 3
    plain = advice_plan(X, y, rules=("borda",), **kw)
    assert plain["bootstrap_ranker_fits"] == 0 and plain["ranker_fits"] == 3 * parts
    fz = advice_plan(X, y, rules=("borda", "fuzzy:OW"), n_bootstraps=7, **kw)
    assert fz["bootstrap_ranker_fits"] == 3 * 7 * parts
    assert fz["ranker_fits"] == 3 * parts + 3 * 7 * parts
    assert fz["aggregations"] == 4 * 2 * parts  # 4 subsets × 2 rules


def test_parse_rule_fuzzy_forms():
    assert parse_rule("fuzzy:OW") == ("fuzzy", {"weighting": "OW"})
    assert parse_rule("fuzzy") == ("fuzzy", {"weighting": "OW"})
    assert parse_rule("fuzzy:weighting=mw") == ("fuzzy", {"weighting": "MW"})
    assert parse_rule(("fuzzy", {"weighting": "rw"})) == ("fuzzy", {"weighting": "RW"})


# --------------------------------------------------------------------------- hostile inputs
_X, _Y = make_classification(40, 8, n_informative=2, n_redundant=0, random_state=1)
_OK = dict(rankers=("f_classif", abs_mean_diff), rules=("fuzzy:OW",), sizes=(1, 2), cv=3,
           inner_cv=2, n_repeats=1, estimator="naive_bayes", n_bootstraps=3)

HOSTILE = [
    ({"n_bootstraps": 0}, ValueError, "n_bootstraps ≥ 2"),
    ({"n_bootstraps": 1}, ValueError, "n_bootstraps ≥ 2"),
    ({"n_bootstraps": -1}, ValueError, "n_bootstraps"),
    ({"n_bootstraps": True}, TypeError, "n_bootstraps"),
    ({"n_bootstraps": "10"}, TypeError, "n_bootstraps"),
    ({"n_bootstraps": 2.5}, TypeError, "n_bootstraps"),
    ({"n_bootstraps": None}, TypeError, "n_bootstraps"),
    ({"sample_fraction": 0.0}, ValueError, "sample_fraction"),
    ({"sample_fraction": -0.5}, ValueError, "sample_fraction"),
    ({"sample_fraction": 1.5}, ValueError, "sample_fraction"),
    ({"sample_fraction": float("nan")}, ValueError, "sample_fraction"),
    ({"sample_fraction": "0.5"}, TypeError, "sample_fraction"),
    ({"sample_fraction": True}, TypeError, "sample_fraction"),
    # 40 rows: a class keeps 20 − 7 = 13 in an outer, 13 − 7 = 6 in an inner training part
    ({"sample_fraction": 0.1}, ValueError, r"inner training part.*sample_fraction ≥ 0\.25"),
    ({"rankers": ("f_classif",)}, ValueError, "rankers must hold at least 2"),
    ({"rules": ("fuzzy:XX",)}, ValueError, r"rules\[0\].*fuzzy:EW, fuzzy:RW"),
    ({"rules": ("fuzzy:OX",)}, ValueError, "did you mean 'fuzzy:OW'"),
    ({"rules": ("fuzzy:q=OW",)}, ValueError, "unknown parameter"),
    ({"rules": ("fuzy:OW",)}, ValueError, "did you mean 'fuzzy'"),
    ({"rules": ("fuzzy", "fuzzy:OW")}, ValueError, "repeats"),
    ({"rules": ("fuzzy:ew", "fuzzy:EW")}, ValueError, "repeats"),
    ({"rules": (("fuzzy", {"weighting": 3}),)}, (TypeError, ValueError), "weighting"),
]


@pytest.mark.parametrize("bad, exc, match", HOSTILE,
                         ids=[f"{next(iter(b))}={b[next(iter(b))]!r}" for b, _, _ in HOSTILE])
def test_hostile_fuzzy_parameters(bad, exc, match):
    with pytest.raises(exc, match=match):
        advise(_X, _Y, **{**_OK, **bad})


def test_bootstrap_settings_are_checked_without_a_fuzzy_rule_too():
    kw = {**_OK, "rules": ("borda",)}
    with pytest.raises(TypeError, match="n_bootstraps"):
        advise(_X, _Y, **{**kw, "n_bootstraps": "10"})
    with pytest.raises(ValueError, match="n_bootstraps"):
        advise(_X, _Y, **{**kw, "n_bootstraps": -1})
    with pytest.raises(ValueError, match="sample_fraction"):
        advise(_X, _Y, **{**kw, "sample_fraction": 2.0})
    # 0 or 1 bootstrap is fine where no fuzzy rule uses them
    advice_plan(_X, _Y, **{**kw, "n_bootstraps": 0})
