"""The stability rule as a subset size of the advisor (``sizes=["stability:…"]``).

Oracle: :class:`~rankfusion.selection.StabilitySelector` fitted directly on each outer
training part (and on all the data) with the configuration's rankers and rule and the seed the
advisor records; no selection bias: the stable set of outer fold j does not move when the rows
of its test part change; a hostile table of spellings.
"""

from __future__ import annotations

import numpy as np
import pytest

from rankfusion import advise
from rankfusion.evaluation.advisor import advice_plan, parse_sizes, prepare_advice
from rankfusion.selection import StabilitySelector

RULE = "stability:q=3,threshold=0.6,n_subsamples=10"
PARAMS = {"q": 3, "threshold": 0.6, "n_subsamples": 10}


def data(seed=0, n=60, p=10):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = np.abs(rng.normal(size=(n, p)))
    X[:, :3] += 0.9 * y[:, None]
    return X, y


KW = dict(rankers=("f_classif", "chi2"), rules=("borda", "mean_score"), sizes=[2, RULE], cv=3,
          inner_cv=2, n_repeats=1, random_state=0)


@pytest.fixture(scope="module")
def advice():
    X, y = data()
    return X, y, advise(X, y, **KW)


def _stable(X, y, config, seed):
    rule = "borda" if config.is_single else config.rule
    sel = StabilitySelector(rankers=list(config.rankers), aggregation=rule,
                            aggregation_params=dict(config.params) or None,
                            normalize="minmax", tie_break="random", random_state=seed,
                            **PARAMS).fit(X, y)
    return np.flatnonzero(sel.support_)


def test_stable_sets_are_stability_selectors_on_each_outer_training_part(advice):
    X, y, adv = advice
    configs = [c for c in adv.outer_subsets if c.size == RULE]
    assert len(configs) == 2 + 2  # each ranker alone, the pair × 2 rules
    for c in configs:
        for j, (train, _) in enumerate(adv.outer_splits):
            np.testing.assert_array_equal(adv.outer_subsets[c][j],
                                          _stable(X[train], y[train], c, adv.stability_seeds[j]))


def test_table_reports_the_rule_and_the_size_chosen_on_each_fold(advice):
    _, _, adv = advice
    t = adv.table
    assert set(t["size_rule"]) == {"count", RULE}
    for _, row in t.iterrows():
        sizes = [len(s) for s in adv.outer_subsets[row["configuration"]]]
        assert row["fold_sizes"] == "/".join(map(str, sizes))
        assert row["size"] == pytest.approx(np.mean(sizes))
    assert adv.summary["sizes"] == [2, RULE]


def test_recommended_stability_configuration_on_all_the_data():
    X, y = data(1)
    adv = advise(X, y, **{**KW, "sizes": [RULE]})
    assert adv.recommended.size == RULE
    np.testing.assert_array_equal(
        np.flatnonzero(np.isin([f"x{i}" for i in range(X.shape[1])], adv.ties["features"])),
        _stable(X, y, adv.recommended, adv.stability_seeds[-1]))
    sel = adv.selector()
    assert sel.n_features_to_select == RULE
    assert adv.summary["recommended"].endswith(f"| {RULE}")


def test_no_selection_bias_the_stable_set_ignores_the_test_rows(advice):
    X, y, adv = advice
    train0, test0 = adv.outer_splits[0]
    X2 = X.copy()
    X2[test0] = np.random.default_rng(9).permutation(X2[test0].ravel()).reshape(
        X2[test0].shape) * 5
    adv2 = advise(X2, y, **KW)
    for c in adv.outer_subsets:
        np.testing.assert_array_equal(adv.outer_subsets[c][0], adv2.outer_subsets[c][0])
    assert any(adv.outer_scores[c][0] != adv2.outer_scores[c][0] for c in adv.outer_scores)


def test_plan_counts_the_half_samples():
    X, y = data()
    plan = advice_plan(X, y, **KW)
    parts = 3 * 3 + 3
    assert plan["stability_ranker_fits"] == parts * 2 * 10
    assert plan["ranker_fits"] == parts * 2 * (1 + 10)
    assert plan["configurations"] == (2 + 1 * 2) * 2  # 2 alone, 1 pair × 2 rules; 2 sizes


def test_parse_sizes_reads_the_rule():
    assert parse_sizes(f"2,{RULE},0.5") == [2, RULE, 0.5]
    assert parse_sizes("stability") == ["stability"]


def test_folder_run_gives_the_numbers_of_a_direct_call(advice, tmp_path):
    from rankfusion.experiments.advice import advise_in_folder

    X, y, adv = advice
    run = advise_in_folder(X, y, tmp_path / "out", **KW)
    assert run.advice.table.drop(columns="configuration").equals(
        adv.table.drop(columns="configuration"))
    again = advise_in_folder(X, y, tmp_path / "out", **KW)  # every part reused
    assert again.reused == again.total
    assert again.advice.stability_seeds == adv.stability_seeds


# (sizes, exception, message)
HOSTILE = [
    (["stabilty"], ValueError, r"a size is a count.*did you mean 'stability'"),
    (["Stability"], ValueError, r"did you mean 'stability'"),
    (["stability:"], ValueError, r"sizes\[0\].*empty parameter"),
    (["stability:pfer"], ValueError, r"takes q, threshold, pfer.*got 'pfer'"),
    (["stability:foo=1"], ValueError, r"got 'foo'"),
    (["stability:pfer=1,pfer=2"], ValueError, r"'pfer' twice"),
    (["stability:threshold=0.4"], ValueError, r"threshold must be None or a number in \(0.5, 1\]"),
    (["stability:threshold=2"], ValueError, r"threshold must be"),
    (["stability:threshold=abc"], TypeError, r"threshold must be"),
    (["stability:n_subsamples=3"], ValueError, r"n_subsamples must be even"),
    (["stability:n_subsamples=1"], ValueError, r"n_subsamples must be an int ≥ 2"),
    (["stability:q=0"], ValueError, r"q must be"),
    (["stability:q=2.5"], ValueError, r"q must be"),
    (["stability:q=99"], ValueError, r"q=99 exceeds the number of features"),
    (["stability:pfer=0"], ValueError, r"pfer must be"),
    (["stability:q=2,pfer=0.01"], ValueError, r"threshold π .* > 1"),
    (["stability:q=2,threshold=0.9,pfer=1"], ValueError, r"not all three"),
    (["stability:bound=xx"], ValueError, r"bound must be 'mb' or 'unimodal'"),
    (["stability:bound=unimodal,complementary_pairs=false"], ValueError,
     r"needs complementary_pairs=True"),
    (["stability:complementary_pairs=2"], TypeError, r"complementary_pairs must be a bool"),
    (["stability", "stability"], ValueError, r"sizes\[1\] repeats sizes\[0\]"),
    (["stability:q=2,threshold=0.9", "stability:threshold=0.9,q=2"], ValueError, r"repeats"),
    ("stabilityy", ValueError, r"sizes must be a list of counts"),
    ([b"stability"], TypeError, r"sizes"),
]


@pytest.mark.parametrize("sizes, exc, match", HOSTILE, ids=[repr(h[0])[:50] for h in HOSTILE])
def test_hostile_spellings(sizes, exc, match):
    X, y = data()
    with pytest.raises(exc, match=match):
        prepare_advice(X, y, **{**KW, "sizes": sizes})


def test_refused_with_a_fuzzy_rule():
    X, y = data()
    with pytest.raises(ValueError, match=r"rules\[0\] \(fuzzy\) combines bootstrap lists"):
        prepare_advice(X, y, **{**KW, "rules": ("fuzzy:OW",), "sizes": ["stability"]})


def test_regression_stable_sets_are_unstratified_stability_selectors():
    # a numeric target: StabilitySelector(task="regression") on each outer training part (its
    # half-samples drawn without strata) is the oracle; the informative features x0, x1 of a
    # linear model are the stable set of the recommended configuration
    rng = np.random.default_rng(3)
    X = rng.normal(size=(90, 8))
    yr = 3.0 * X[:, 0] + 2.0 * X[:, 1] + 0.3 * rng.normal(size=90)
    kw = {**KW, "rankers": ("f_regression", "pearson"), "rules": ("borda",),
          "sizes": [RULE], "task": "regression"}
    adv = advise(X, yr, **kw)
    assert adv.task == "regression"
    configs = [c for c in adv.outer_subsets if c.size == RULE]
    assert len(configs) == 3
    for c in configs:
        rule = "borda" if c.is_single else c.rule
        for j, (train, _) in enumerate(adv.outer_splits):
            sel = StabilitySelector(rankers=list(c.rankers), aggregation=rule,
                                    normalize="minmax", tie_break="random", task="regression",
                                    random_state=adv.stability_seeds[j], **PARAMS)
            sel.fit(X[train], yr[train])
            np.testing.assert_array_equal(adv.outer_subsets[c][j], np.flatnonzero(sel.support_))
    assert {"x0", "x1"} <= set(adv.ties["features"])
