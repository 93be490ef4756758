"""The rule advisor (rankfusion.advise): nested resampling, the Nadeau–Bengio test, ties.

Oracles: a data set where y is independent of X (no procedure can beat chance, so the advisor
must never report a significant gain and its accuracy must be an outer estimate near 0.5);
rankers that carry independent noise around one signal (averaging their lists truly helps, so
the gain must be significant); EnsembleSelector run directly on one outer training part (the
cached-score aggregation must equal it); scipy's t distribution for the test; hand-worked ties.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from rankfusion import EnsembleSelector, advise
from rankfusion.evaluation import Advice, Configuration, advice_plan, cutoff_ties, parse_rule
from rankfusion.evaluation.advisor import default_sizes


def noisy_ranker(i: int, *, sd: float, m: int):
    """A ranker that sees the true relevance (1 on the first m features, 0 elsewhere) through
    its own independent N(0, sd²) noise, drawn afresh on every call from the seed it gets."""
    def ranker(X, y, random_state=None):
        rng = np.random.default_rng([i, random_state])
        s = np.zeros(X.shape[1])
        s[:m] = 1.0
        return s + rng.normal(scale=sd, size=X.shape[1])

    ranker.__name__ = f"noisy{i}"
    return ranker


def abs_mean_diff(X, y):
    """|mean of class 1 − mean of class 0| per feature (a deterministic ranker)."""
    X = np.asarray(X, dtype=float)
    return np.abs(X[y == 1].mean(axis=0) - X[y == 0].mean(axis=0))


def shifted(n, p, m, shift, seed, *, null=False):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.normal(size=(n, p))
    if null:
        y = rng.permutation(y)  # drawn apart from X: y independent of X
    else:
        X[:, :m] += np.where(y == 1, shift, -shift)[:, None]
    return X, y


# --------------------------------------------------------------------------- judged criteria
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_independent_y_never_a_significant_gain_and_accuracy_near_chance(seed):
    X, y = shifted(100, 30, 0, 0.0, seed, null=True)
    adv = advise(X, y, rankers=("f_classif", abs_mean_diff, noisy_ranker(0, sd=1.0, m=0)),
                 rules=("borda", "mean_score"), sizes=(1, 3, 10), estimator="naive_bayes",
                 cv=5, inner_cv=3, n_repeats=2, random_state=seed)
    assert not adv.significant
    assert adv.pvalue > 0.05 or adv.gain <= 0
    assert not adv.verdict.startswith(adv.recommended.rule_label)
    assert adv.verdict.startswith("No combination beats")
    # outer estimates of the procedures, near chance (0.5); the best configuration of the
    # table is optimistic, the procedure's estimate is not its maximum
    assert abs(adv.combination_scores.mean() - 0.5) < 0.13
    assert abs(adv.single_scores.mean() - 0.5) < 0.13
    assert adv.combination_scores.mean() <= adv.table["score"].max() + 1e-12


def test_independent_y_over_seeds_mean_accuracy_is_chance():
    means, maxima = [], []
    for seed in range(4, 7):
        X, y = shifted(100, 30, 0, 0.0, seed, null=True)
        adv = advise(X, y, rankers=("f_classif", abs_mean_diff), rules=("borda",),
                     sizes=(1, 5), estimator="naive_bayes", cv=4, inner_cv=2, n_repeats=2,
                     random_state=seed)
        assert not adv.significant
        means.append(adv.combination_scores.mean())
        maxima.append(adv.table["score"].max())
    assert abs(np.mean(means) - 0.5) < 0.07
    # the best configuration's own outer score is the optimistic one (selected after the fact)
    assert np.mean(maxima) > np.mean(means)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_independent_noise_around_one_signal_gives_a_significant_gain(seed):
    # 40 rankers see the 10 relevant of 1000 features through independent noise: one alone
    # finds almost none of them (signal 1 vs noise SD 1.5), their Borda consensus most.
    X, y = shifted(200, 1000, 10, 0.5, seed)
    rankers = [noisy_ranker(i, sd=1.5, m=10) for i in range(40)]
    adv = advise(X, y, rankers=rankers, rules=("borda",), sizes=(10,), estimator="naive_bayes",
                 cv=5, inner_cv=2, n_repeats=2, combine="all", random_state=seed)
    assert adv.significant
    assert adv.pvalue < 0.01
    assert adv.gain_ci[0] > 0
    assert adv.verdict.startswith("borda of noisy0+")
    assert "beats" in adv.verdict
    relevant = [np.count_nonzero(s < 10) for s in adv.outer_subsets[adv.recommended]]
    assert np.mean(relevant) > 7


def test_gain_and_pvalue_equal_the_corrected_t_test_by_hand():
    X, y = shifted(200, 1000, 10, 0.5, 0)
    adv = advise(X, y, rankers=[noisy_ranker(i, sd=1.5, m=10) for i in range(10)],
                 rules=("borda",), sizes=(10,), estimator="naive_bayes", cv=5, inner_cv=2,
                 n_repeats=2, combine="all", random_state=0)
    d = adv.combination_scores - adv.single_scores
    J = d.shape[0]
    assert J == 10
    se = np.sqrt((1 / J + 40 / 160) * d.var(ddof=1))  # Nadeau & Bengio (2003)
    t = d.mean() / se
    assert adv.gain == pytest.approx(d.mean())
    assert adv.pvalue == pytest.approx(2 * stats.t.sf(abs(t), J - 1))
    q = stats.t.ppf(0.975, J - 1)
    assert adv.gain_ci == pytest.approx((d.mean() - q * se, d.mean() + q * se))
    # every outer score is one cell of the per-configuration table: the chosen one's
    rec = adv.table[adv.table["configuration"] == adv.recommended]
    assert len(rec) == 1


def test_cached_aggregation_equals_ensemble_selector_on_one_outer_part():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(48, 15))
    y = np.repeat([0, 1], 24)
    X[:, :3] += y[:, None] * 0.8
    rankers = ["f_classif", abs_mean_diff, "info_gain"]
    rules = ("borda", "kfirst:k=3", "mean_score", "median")
    adv = advise(X, y, rankers=rankers, rules=rules, sizes=(2, 5), estimator="naive_bayes",
                 cv=3, inner_cv=2, n_repeats=1, tie_break="index", random_state=1)
    train, _ = adv.outer_splits[0]
    by_name = {"f_classif": "f_classif", "abs_mean_diff": abs_mean_diff,
               "info_gain": "info_gain"}
    checked = 0
    for config, subsets in adv.outer_subsets.items():
        if config.is_single:
            sel = EnsembleSelector(rankers=[by_name[config.rankers[0]]], aggregation="borda",
                                   n_features_to_select=config.size)
        else:
            sel = EnsembleSelector(rankers=[by_name[r] for r in config.rankers],
                                   aggregation=config.rule,
                                   aggregation_params=dict(config.params) or None,
                                   n_features_to_select=config.size)
        sel.fit(X[train], y[train])
        assert np.flatnonzero(sel.support_).tolist() == subsets[0].tolist(), config.label
        checked += 1
    assert checked == 3 * 2 + 4 * 4 * 2  # singles and every subset × rule, × 2 sizes


def test_selector_is_the_recommended_configuration():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(40, 10))
    y = np.repeat([0, 1], 20)
    X[:, 0] += 1.5 * y
    adv = advise(X, y, rankers=("f_classif", abs_mean_diff), rules=("borda", "rrf"),
                 sizes=(1, 3), estimator="naive_bayes", cv=3, inner_cv=2, n_repeats=1,
                 tie_break="index", random_state=0)
    sel = adv.selector()
    assert isinstance(sel, EnsembleSelector)
    assert not hasattr(sel, "support_")  # unfitted
    sel.fit(X, y)
    names = [f"x{i}" for i in np.flatnonzero(sel.support_)]
    assert names == adv.ties["features"]
    assert sel.get_params()["aggregation"] == adv.recommended.rule
    single = adv.selector(adv.best_single)
    assert single.get_params()["n_features_to_select"] == adv.best_single.size


def test_table_pareto_one_se_and_determinism():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(45, 12))
    y = np.repeat([0, 1, 2], 15)
    X[:, 0] += y
    X[:, 1] -= y
    kw = dict(rankers=("f_classif", abs_mean_diff, "relieff"), rules=("borda", "kfirst:k=0.25"),
              sizes=(1, 2, 4), estimator="naive_bayes", cv=3, inner_cv=2, n_repeats=2,
              random_state=11)
    adv = advise(X, y, **kw)
    t = adv.table
    assert isinstance(adv, Advice)
    # 3 singles + 4 subsets × 2 rules, each × 3 sizes
    assert len(t) == (3 + 4 * 2) * 3
    assert (t["score"].diff().dropna() <= 1e-12).all()  # best first
    assert ((t["score_low"] <= t["score"]) & (t["score"] <= t["score_high"])).all()
    assert ((t["score_low"] >= 0) & (t["score_high"] <= 1)).all()
    # each outer fold makes one combination choice and one single choice
    J = 6
    comb = t[t["n_rankers"] > 1]["chosen"].sum()
    sing = t[t["n_rankers"] == 1]["chosen"].sum()
    assert comb == pytest.approx(1.0) and sing == pytest.approx(1.0)
    assert len(adv.combination_scores) == J
    # Pareto: no row of the table dominates a front row; every other row is dominated
    sc, sz = t["score"].to_numpy(), t["size"].to_numpy()
    ph = np.nan_to_num(t["phi"].to_numpy(), nan=-np.inf)

    def dominated(i):
        return bool(((sc >= sc[i]) & (sz <= sz[i]) & (ph >= ph[i])
                     & ((sc > sc[i]) | (sz < sz[i]) | (ph > ph[i]))).any())

    front = {c.label for c in adv.pareto["configuration"]}
    for i, c in enumerate(t["configuration"]):
        assert dominated(i) == (c.label not in front)
    best = t.iloc[0]
    assert adv.one_se.size == t[t["score"] >= best["score"] - best["score_se"]]["size"].min()
    # same seed, same numbers (and n_jobs does not matter)
    again = advise(X, y, **kw, n_jobs=2)
    cols = ["rankers", "rule", "size", "score", "phi", "chosen"]
    pd.testing.assert_frame_equal(adv.table[cols], again.table[cols])
    assert adv.verdict == again.verdict
    assert adv.summary["seed_entropy"] == again.summary["seed_entropy"]


def test_phi_in_the_table_is_nogueira_of_the_outer_subsets():
    from rankfusion.stability import nogueira

    rng = np.random.default_rng(2)
    X = rng.normal(size=(40, 10))
    y = np.repeat([0, 1], 20)
    X[:, :2] += y[:, None]
    adv = advise(X, y, rankers=("f_classif", abs_mean_diff), rules=("borda",), sizes=(2,),
                 estimator="naive_bayes", cv=4, inner_cv=2, n_repeats=1, random_state=0)
    for _, row in adv.table.iterrows():
        Z = np.zeros((4, 10), dtype=int)
        for i, s in enumerate(adv.outer_subsets[row["configuration"]]):
            Z[i, s] = 1
        assert row["phi"] == pytest.approx(nogueira(Z).statistic)
        assert row["phi_low"] == pytest.approx(nogueira(Z).low)


# --------------------------------------------------------------------------- ties
def test_cutoff_ties_by_hand():
    assert cutoff_ties([3.0, 2.0, 0.0, 0.0, 0.0, 0.0], 3) == (4, 1)
    assert cutoff_ties([3.0, 2.0, 0.0, 0.0], 2) == (1, 1)
    assert cutoff_ties([0.0] * 5, 5) == (5, 5)
    with pytest.raises(ValueError, match="k must lie"):
        cutoff_ties([1.0, 2.0], 3)


def zero_but_two(X, y):
    """Scores 1 for features 8 and 9, 0 for every other: a block of ties below them."""
    s = np.zeros(np.asarray(X).shape[1])
    s[[8, 9]] = 1.0
    return s


@pytest.mark.parametrize("tie_break", ["index", "random"])
def test_tie_break_inside_the_resampling(tie_break):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 10))
    y = np.repeat([0, 1], 20)
    adv = advise(X, y, rankers=(zero_but_two, abs_mean_diff), rules=("borda",), sizes=(4,),
                 estimator="naive_bayes", cv=4, inner_cv=2, n_repeats=1, tie_break=tie_break,
                 random_state=3)
    single = next(c for c in adv.outer_subsets if c.rankers == ("zero_but_two",))
    chosen = [set(s.tolist()) for s in adv.outer_subsets[single]]
    assert all({8, 9} <= s for s in chosen)
    if tie_break == "index":
        assert all(s == {0, 1, 8, 9} for s in chosen)  # the lower index decides
    else:
        assert len({frozenset(s) for s in chosen}) > 1  # drawn afresh per training part


def test_verdict_reports_a_cut_through_tied_scores():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 10))
    y = np.repeat([0, 1], 20)

    def ties_at_zero(X, y, random_state=None):
        return zero_but_two(X, y)

    adv = advise(X, y, rankers=(zero_but_two, ties_at_zero), rules=("mean_score",),
                 sizes=(4,), estimator="naive_bayes", cv=3, inner_cv=2, n_repeats=1,
                 random_state=0)
    assert adv.ties["cuts_ties"]
    assert (adv.ties["n_tied"], adv.ties["n_kept"]) == (8, 2)
    assert "cut through 8 features tied" in adv.verdict
    t = adv.table.set_index(["rankers", "rule", "size"])
    assert t.loc[("zero_but_two", "alone", 4), "tied_at_cutoff"] == 8
    assert t.loc[("zero_but_two", "alone", 4), "phi"] < 1  # drawn ties: subsets vary


def test_no_tie_note_without_ties():
    adv = advise(_X, _Y, **_OK, random_state=0)
    assert (adv.table["tied_at_cutoff"] == 0).all()
    assert "Note:" not in adv.verdict


# --------------------------------------------------------------------------- specs, plan
def test_parse_rule_and_default_sizes():
    assert parse_rule("kfirst:k=0.05") == ("kfirst", {"k": 0.05})
    assert parse_rule("kfirst:k=5") == ("kfirst", {"k": 5})
    assert parse_rule(("rrf", {"k_rrf": 30})) == ("rrf", {"k_rrf": 30})
    assert parse_rule("condorcet")[0] == "copeland"
    assert default_sizes(7129).tolist() == [1, 2, 4, 8, 16, 32, 64, 128, 256]
    assert default_sizes(1).tolist() == [1]
    assert max(default_sizes(100_000)) == 256


def test_advice_plan_counts_the_work():
    X, y = shifted(40, 12, 2, 1.0, 0)
    plan = advice_plan(X, y, rankers=("f_classif", abs_mean_diff, "relieff"),
                       rules=("borda", "rrf"), sizes=(1, 2), cv=4, inner_cv=2, n_repeats=2)
    parts = 8 * 3 + 3
    assert plan["training_parts"] == parts
    assert plan["ranker_fits"] == 3 * parts
    assert plan["aggregations"] == 4 * 2 * parts
    assert plan["configurations"] == (3 + 8) * 2
    # and one fit on all the features per outer fold (the baseline)
    assert plan["classifier_fits_at_most"] == (8 * 3 + 2) * 22 + 8


def test_configuration_labels():
    c = Configuration(("a", "b"), "kfirst", (("k", 5),), 10)
    assert c.label == "a+b | kfirst:k=5 | 10"
    assert Configuration(("a",), None, (), 3).rule_label == "alone"


# --------------------------------------------------------------------------- hostile inputs
_X, _Y = shifted(40, 8, 2, 1.0, 0)
_OK = dict(rankers=("f_classif", "relieff"), rules=("borda",), sizes=(1, 2), cv=3, inner_cv=2,
           n_repeats=1, estimator="naive_bayes")

HOSTILE = [
    ({"rankers": ("f_classif",)}, ValueError, "rankers must hold at least 2"),
    ({"rankers": ()}, ValueError, "rankers must hold at least one"),
    ({"rankers": ("f_classif", "nope")}, ValueError, "nope"),
    ({"rankers": ("f_classif", 3)}, TypeError, r"rankers\[1\]"),
    ({"rules": ()}, ValueError, "rules is empty"),
    ({"rules": ("nope",)}, ValueError, r"rules\[0\]"),
    ({"rules": ("kfirst:k",)}, ValueError, "NAME=VALUE"),
    ({"rules": ("kfirst:q=3",)}, ValueError, "unknown parameter"),
    ({"rules": ("kfirst:k=3,k=4",)}, ValueError, "twice"),
    ({"rules": ("kfirst:k=99",)}, ValueError, r"rules\[0\] \(kfirst\)"),
    ({"rules": ("kfirst:k=1.5",)}, ValueError, r"rules\[0\]"),
    ({"rules": ("borda", "borda")}, ValueError, "repeats"),
    ({"rules": (3,)}, TypeError, "rules"),
    ({"rules": {"borda": 1}}, TypeError, "rules"),
    ({"rules": ("median:weights=1",)}, ValueError, "unknown parameter"),
    ({"sizes": ()}, ValueError, "sizes is empty"),
    ({"sizes": (0,)}, ValueError, "sizes"),
    ({"sizes": (99,)}, ValueError, "sizes"),
    ({"sizes": (1.5,)}, ValueError, "sizes"),
    ({"sizes": (True,)}, TypeError, "sizes"),
    ({"sizes": "half"}, ValueError, "sizes"),
    ({"sizes": 3}, TypeError, "sizes"),
    ({"sizes": ("a",)}, ValueError, r"sizes\[0\] = 'a': a size is a count"),
    # what the data's shape decides, before any work (8 features)
    ({"sizes": ("stability:q=9",)}, ValueError, r"q=9 exceeds the number of features \(8\)"),
    ({"sizes": ("stability:q=2,threshold=0.8,pfer=1",)}, ValueError,
     r"give two of q, threshold and pfer .*not all three: got q=2, threshold=0\.8, pfer=1"),
    ({"sizes": ("stability:pfer=1",), "cv": 30}, ValueError, "lower cv"),
    ({"estimator": "nope"}, ValueError, "classifier"),
    ({"estimator": 3}, TypeError, "classifier"),
    ({"cv": 1}, ValueError, "cv"),
    ({"cv": 2.5}, TypeError, "cv"),
    ({"cv": True}, TypeError, "cv"),
    ({"cv": 30}, ValueError, "lower cv"),
    ({"inner_cv": 1}, ValueError, "inner_cv"),
    ({"inner_cv": "3"}, TypeError, "inner_cv"),
    ({"n_repeats": 0}, ValueError, "n_repeats"),
    ({"n_repeats": None}, TypeError, "n_repeats"),
    ({"combine": "some"}, ValueError, "combine"),
    ({"combine": None}, ValueError, "combine"),
    ({"alpha": 0.0}, ValueError, "alpha"),
    ({"alpha": 1.0}, ValueError, "alpha"),
    ({"alpha": float("nan")}, ValueError, "alpha"),
    ({"alpha": "0.05"}, TypeError, "alpha"),
    ({"tie_break": "lower"}, ValueError, "tie_break"),
    ({"random_state": 1.5}, TypeError, "random_state"),
    ({"random_state": -1}, ValueError, "random_state"),
    ({"n_jobs": 0}, ValueError, "n_jobs"),
    ({"n_jobs": "2"}, TypeError, "n_jobs"),
]


@pytest.mark.parametrize("bad, exc, match", HOSTILE,
                         ids=[f"{next(iter(b))}={b[next(iter(b))]!r}" for b, _, _ in HOSTILE])
def test_hostile_parameters(bad, exc, match):
    kw = {**_OK, **bad}
    with pytest.raises(exc, match=match):
        advise(_X, _Y, **kw)


HOSTILE_DATA = [
    (np.full((40, 8), np.inf), _Y, ValueError, "X"),
    (_X, np.zeros(40), ValueError, "1 class"),
    (_X, _Y[:30], ValueError, "y has 30"),
    (_X, np.where(np.arange(40) < 2, 1, 0), ValueError, "smallest class"),
    (_X[:, :0], _Y, ValueError, "feature|column|X"),
    (_X, np.linspace(0, 1, 40), ValueError, "continuous|regression|classes"),
    ("data.csv", _Y, (TypeError, ValueError), "X"),
    # columns with no value are named (not a failure deep in scikit-learn's scaler)
    (np.where(np.arange(8) == 3, np.nan, _X), _Y, ValueError,
     r"X: column 'x3' holds no value \(every entry is missing\).*np\.delete\(X, \[3\]"),
    (pd.DataFrame(_X, columns=[f"g{j}" for j in range(8)]).assign(g2=np.nan, g5=None), _Y,
     ValueError, r"X: 2 columns 'g2', 'g5' hold no value.*X\.drop\(columns=\['g2', 'g5'\]\)"),
    # nothing to choose among: refused before any work, not a recommended subset
    (_X[:, :1], _Y, ValueError, r"X has one feature \('x0'\): nothing to choose among"),
    (np.ones((40, 8)), _Y, ValueError, "all features are constant.*nothing to select"),
    (np.tile([1.0, 2.0], (40, 4)), _Y, ValueError, "all features are constant"),
    # numpy labels shown as plain values
    (_X, np.where(np.arange(40) < 2, np.int64(1), np.int64(0)), ValueError,
     r"smallest class \(1\) has 2 samples"),
    (_X, np.zeros(40, dtype=np.int64), ValueError, r"y has 1 class\(es\) \(\[0\]\)"),
]


@pytest.mark.parametrize("X, y, exc, match", HOSTILE_DATA)
def test_hostile_data_refused_by_the_plan_too(X, y, exc, match):
    # advice_plan (what --dry-run prints) refuses what advise refuses, before any work
    with pytest.raises(exc, match=match):
        advice_plan(X, y, **_OK)


def test_a_constant_column_among_others_is_not_refused():
    X = _X.copy()
    X[:, 1] = 5.0
    assert advice_plan(X, _Y, **_OK)["n_features"] == 8


@pytest.mark.parametrize("X, y, exc, match", HOSTILE_DATA)
def test_hostile_data(X, y, exc, match):
    with pytest.raises(exc, match=match):
        advise(X, y, **_OK)


def test_ranker_returning_bad_scores_is_named():
    def short(X, y):
        return np.zeros(3)

    with pytest.raises(ValueError, match="short"):
        advise(_X, _Y, **{**_OK, "rankers": ("f_classif", short)})


def test_advice_plan_refuses_unknown_arguments():
    with pytest.raises(TypeError, match="unknown argument"):
        advice_plan(_X, _Y, rulez=("borda",))


def test_dataframe_input_keeps_names():
    frame = pd.DataFrame(_X.copy(), columns=[f"g{i}" for i in range(8)])  # pandas < 2 shares _X
    adv = advise(frame, pd.Series(np.where(_Y == 1, "b", "a")), **_OK, random_state=0)
    assert all(f.startswith("g") for f in adv.ties["features"])


def test_nominal_and_missing_values_reach_rankers_and_classifier():
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(_X.copy(), columns=[f"g{i}" for i in range(8)])  # pandas < 2 shares _X
    frame.iloc[rng.choice(40, 5, replace=False), 0] = np.nan
    colour = np.where(_Y == 1, "red", "blue").astype(object)
    colour[:4] = "green"
    frame["colour"] = pd.Categorical(colour)
    adv = advise(frame, _Y, rankers=("info_gain", "relieff"), rules=("borda",), sizes=(1, 3),
                 cv=3, inner_cv=2, n_repeats=1, random_state=0)
    assert adv.combination_scores.mean() > 0.6
    assert 0 <= adv.gain_ci[1]


def test_rankers_as_a_generator():
    gen = (r for r in ("f_classif", "relieff"))
    adv = advise(_X, _Y, **{**_OK, "rankers": gen}, random_state=0)
    assert adv.summary["rankers"] == ["f_classif", "relieff"]
    assert adv.selector().get_params()["rankers"]


def test_reported_accuracy_is_the_outer_score_of_each_folds_inner_choice():
    """Recomputed by hand: fit GaussianNB on the chosen subset of each outer training part and
    score it on the outer test part; the mean is the reported accuracy."""
    from sklearn.naive_bayes import GaussianNB

    X, y = shifted(60, 12, 3, 0.7, 9)
    adv = advise(X, y, rankers=("f_classif", abs_mean_diff), rules=("borda", "rrf"),
                 sizes=(1, 2, 5), estimator="naive_bayes", cv=3, inner_cv=2, n_repeats=2,
                 random_state=2)
    for scores, which in ((adv.combination_scores, 0), (adv.single_scores, 1)):
        for j, (train, test) in enumerate(adv.outer_splits):
            c = adv.outer_choices[j][which]
            cols = adv.outer_subsets[c][j]
            model = GaussianNB().fit(X[train][:, cols], y[train])
            assert scores[j] == pytest.approx(np.mean(model.predict(X[test][:, cols]) == y[test]))
            assert scores[j] == adv.outer_scores[c][j]
    assert all(not a.is_single and b.is_single for a, b in adv.outer_choices)
    t = adv.table.set_index("configuration")
    for c, sc in adv.outer_scores.items():
        assert t.loc[[c], "score"].iloc[0] == pytest.approx(sc.mean())
