"""EnsembleSelector: rankers × bootstraps → consensus → subset."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.feature_selection import f_classif
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedKFold,
    cross_val_score,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import check_estimator

from rankfusion import EnsembleSelector, RankedLists, aggregate


def _data(n=60, p=8, seed=0, classes=2):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % classes
    X = rng.normal(size=(n, p))
    X[:, 0] += 2.0 * y  # two informative features
    X[:, 3] += 1.0 * y
    return X, y


def anova(X, y):
    return f_classif(X, y)[0]


def variance(X, y):
    return np.nanvar(np.asarray(X, dtype=float), axis=0)


# ---------------------------------------------------------------------------- scikit-learn API
def test_check_estimator():
    check_estimator(EnsembleSelector(rankers=("info_gain", "relieff", "nlc")))


def test_pipeline_and_grid_search():
    X, y = _data()
    pipe = Pipeline([("sel", EnsembleSelector(rankers=(anova, "info_gain"))),
                     ("clf", GaussianNB())])
    grid = GridSearchCV(pipe, {"sel__aggregation": ["borda", "kfirst"],
                               "sel__n_features_to_select": [1, 2, 0.5]}, cv=3)
    grid.fit(X, y)
    assert grid.best_params_["sel__n_features_to_select"] in (1, 2, 0.5)
    assert len(grid.cv_results_["mean_test_score"]) == 6


def test_pandas_names_and_set_output():
    X, y = _data()
    df = pd.DataFrame(X, columns=[f"g{i}" for i in range(X.shape[1])])
    sel = EnsembleSelector(rankers=(anova,), n_features_to_select=2).set_output(
        transform="pandas")
    out = sel.fit(df, y).transform(df)
    assert list(out.columns) == ["g0", "g3"]
    assert sel.get_feature_names_out().tolist() == ["g0", "g3"]
    assert sel.lists_.features.tolist() == list(df.columns)


def test_nominal_columns_reach_rankers_and_classifiers():
    rng = np.random.default_rng(1)
    y = np.arange(80) % 2
    df = pd.DataFrame({
        "colour": pd.Categorical(np.where(y == 1, "red", "blue")),
        "noise": rng.normal(size=80),
        "shape": pd.Categorical(rng.choice(["a", "b", "c"], size=80)),
    })
    df.loc[3, "noise"] = np.nan
    sel = EnsembleSelector(rankers=("info_gain", "symmetric_uncertainty"),
                           n_features_to_select="k-step", cv=3, random_state=0).fit(df, y)
    assert sel.consensus_.top(1) == ["colour"]
    assert sel.n_features_ >= 1
    assert sel.transform(df).shape == (80, sel.n_features_)


# ---------------------------------------------------------------------------- the ensemble
def test_function_perturbation_lists_equal_each_ranker():
    X, y = _data()
    sel = EnsembleSelector(rankers=(anova, "info_gain"), normalize=None).fit(X, y)
    from rankfusion.rankers import info_gain

    assert sel.lists_.list_names.tolist() == ["anova", "info_gain"]
    np.testing.assert_allclose(sel.lists_.scores[:, 0], anova(X, y))
    np.testing.assert_allclose(sel.lists_.scores[:, 1], info_gain(X, y))
    expected = aggregate(sel.lists_, "borda")
    np.testing.assert_array_equal(sel.positions_, expected.ranks)


def test_ranking_has_rfe_meaning_and_positions_the_full_order():
    X, y = _data()
    sel = EnsembleSelector(rankers=(anova,), n_features_to_select=3).fit(X, y)
    assert (sel.ranking_ == 1).sum() == 3
    assert np.array_equal(sel.ranking_ == 1, sel.support_)
    order = np.argsort(sel.positions_)
    assert sel.ranking_[order].tolist() == [1, 1, 1, 2, 3, 4, 5, 6]
    assert sorted(sel.positions_.tolist()) == list(range(1, 9))


def test_default_size_is_half_and_fraction_rule():
    X, y = _data(p=9)
    assert EnsembleSelector(rankers=(anova,)).fit(X, y).n_features_ == 4
    # fraction: max(1, floor(f·p + 0.5)); 0.5·9 = 4.5 → 5 (scikit-learn's int() would give 4)
    assert EnsembleSelector(rankers=(anova,), n_features_to_select=0.5).fit(X, y).n_features_ == 5


def test_bootstrap_lists_named_and_drawn_per_class():
    X, y = _data(n=30)
    sel = EnsembleSelector(rankers=(anova, variance), n_bootstraps=4, random_state=3).fit(X, y)
    assert sel.lists_.list_names.tolist() == [
        "anova@b0", "anova@b1", "anova@b2", "anova@b3",
        "variance@b0", "variance@b1", "variance@b2", "variance@b3"]
    assert len(sel.bootstrap_indices_) == 4
    for idx in sel.bootstrap_indices_:
        assert idx.shape == (30,)
        assert np.bincount(y[idx]).tolist() == [15, 15]  # stratified
    b2 = sel.bootstrap_indices_[2]
    np.testing.assert_allclose(sel.lists_.scores[:, 2], _minmax(anova(X[b2], y[b2])))


def _minmax(s):
    lo, hi = s.min(), s.max()
    return np.zeros_like(s) if hi == lo else (s - lo) / (hi - lo)


def test_results_do_not_depend_on_n_jobs():
    X, y = _data(n=40)
    kw = dict(rankers=(anova, variance), n_bootstraps=6, aggregation="kfirst", random_state=11)
    a = EnsembleSelector(n_jobs=1, **kw).fit(X, y)
    b = EnsembleSelector(n_jobs=2, **kw).fit(X, y)
    np.testing.assert_array_equal(a.lists_.scores, b.lists_.scores)
    np.testing.assert_array_equal(a.positions_, b.positions_)


@pytest.mark.parametrize("n_calls, n_jobs, expected", [
    (400, 1, [1] * 400), (400, None, [1] * 400),
    # guided self-scheduling on two workers: ceil(remaining / 4) samples per task
    (400, 2, [100, 75, 57, 42, 32, 24, 18, 13, 10, 8, 6, 4, 3, 2, 2, 1, 1, 1, 1]),
    (16, 2, [4, 3, 3, 2, 1, 1, 1, 1]), (8, 2, [2, 2, 1, 1, 1, 1]),
    (64, 4, [8, 7, 7, 6, 5, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1]),
    (400, -1, None),
])
def test_parallel_ranker_calls_go_in_shrinking_tasks(n_calls, n_jobs, expected):
    from joblib import effective_n_jobs

    from rankfusion.selection.ranking_jobs import RankingPlan

    workers = effective_n_jobs(n_jobs)
    if expected is None:
        expected, left = [], n_calls
        while left and workers > 1:
            expected.append(-(-left // (2 * workers)))
            left -= expected[-1]
        expected = expected or [1] * n_calls
    tasks = RankingPlan(jobs=list(range(n_calls)), samples=[], n_rankers=1).tasks(n_jobs)
    assert [len(t) for t in tasks] == expected
    # consecutive samples, every job once, in order
    assert [j for task in tasks for j in task] == list(range(n_calls))


@pytest.mark.parametrize("n_calls, n_jobs, expected", [(5, 2, 5), (1, 2, 1), (7, 2, 7),
                                                        (12, 4, 12)])
def test_few_samples_deal_out_the_jobs(n_calls, n_jobs, expected):
    from rankfusion.selection.ranking_jobs import RankingPlan

    tasks = RankingPlan(jobs=list(range(n_calls)), samples=[], n_rankers=1).tasks(n_jobs)
    assert len(tasks) == expected
    # task t holds the jobs t, t + n_tasks, …: every job once
    assert all(task == list(range(t, n_calls, expected)) for t, task in enumerate(tasks))


def test_guided_tasks_keep_the_rankers_of_a_sample_together():
    from rankfusion.selection.ranking_jobs import RankingPlan

    S, R = 20, 3  # job of ranker i on sample b: i * S + b
    tasks = RankingPlan(jobs=list(range(S * R)), samples=[], n_rankers=R).tasks(2)
    assert [len(t) // R for t in tasks] == [5, 4, 3, 2, 2, 1, 1, 1, 1]
    assert sorted(j for t in tasks for j in t) == list(range(S * R))
    for task in tasks:
        samples = [j % S for j in task]
        # each sample's rankers one after the other (they share its rows), samples consecutive
        assert task == [i * S + b for b in sorted(set(samples)) for i in range(R)]
        assert sorted(set(samples)) == list(range(min(samples), max(samples) + 1))


def test_tasks_of_several_calls_give_every_list_once_in_order():
    """Chunked tasks (here on joblib's threads) run each ranker × bootstrap call once and
    return the lists in ranker-major order, as the sequential fit."""
    from joblib import parallel_backend

    X, y = _data(n=40)
    calls = []

    def counted(X, y):
        calls.append(X.shape[0])
        return anova(X, y)

    kw = dict(rankers=(counted, variance, "info_gain"), n_bootstraps=7,
              aggregation="borda", random_state=3)
    a = EnsembleSelector(**kw).fit(X, y)
    n_seq = len(calls)
    with parallel_backend("threading", n_jobs=2):
        b = EnsembleSelector(**kw).fit(X, y)
    assert n_seq == 7 and len(calls) == 14
    assert list(a.lists_.list_names) == list(b.lists_.list_names)
    assert list(a.lists_.list_names[:2]) == ["counted@b0", "counted@b1"]
    np.testing.assert_array_equal(a.lists_.scores, b.lists_.scores)
    np.testing.assert_array_equal(a.positions_, b.positions_)


def test_seed_reaches_random_rule_and_none_draws_fresh_entropy():
    X, y = _data(n=40, p=10)
    kw = dict(rankers=(anova, variance, "info_gain"), aggregation="ga",
              aggregation_params={"k": 4, "max_iter": 30, "conv_in": 5})
    r1 = EnsembleSelector(random_state=5, **kw).fit(X, y).positions_
    r2 = EnsembleSelector(random_state=5, **kw).fit(X, y).positions_
    np.testing.assert_array_equal(r1, r2)
    boots = [EnsembleSelector(rankers=(anova,), n_bootstraps=3).fit(X, y).bootstrap_indices_[0]
             for _ in range(3)]
    assert not all(np.array_equal(boots[0], b) for b in boots[1:])
    again = EnsembleSelector(rankers=(anova,), n_bootstraps=3)
    again.fit(X, y)
    replay = EnsembleSelector(rankers=(anova,), n_bootstraps=3,
                              random_state=np.random.SeedSequence(again.seed_entropy_)).fit(X, y)
    np.testing.assert_array_equal(again.bootstrap_indices_[0], replay.bootstrap_indices_[0])


def test_producer_of_several_lists_contributes_all():
    X, y = _data()

    def two_lists(X, y):
        s = anova(X, y)
        return RankedLists.from_scores(np.column_stack([s, -s]), list_names=["up", "down"])

    sel = EnsembleSelector(rankers=(two_lists, anova), normalize=None).fit(X, y)
    assert sel.lists_.list_names.tolist() == ["two_lists[up]", "two_lists[down]", "anova"]


def test_estimator_ranker_and_score_function():
    X, y = _data()
    sel = EnsembleSelector(rankers=(DecisionTreeClassifier(random_state=0), f_classif),
                           random_state=0).fit(X, y)
    assert sel.lists_.list_names.tolist() == ["DecisionTreeClassifier", "f_classif"]


def test_minmax_normalisation_keeps_a_large_scale_from_dominating():
    X, y = _data(p=6)

    def big(X, y):  # the anova order, on a scale 10^6 times larger
        return 1e6 * anova(X, y)

    def reverse(X, y):
        return -anova(X, y) + 100.0

    raw = EnsembleSelector(rankers=(big, reverse), aggregation="mean_score", normalize=None,
                           n_features_to_select=1).fit(X, y)
    norm = EnsembleSelector(rankers=(big, reverse), aggregation="mean_score",
                            n_features_to_select=1).fit(X, y)
    assert raw.consensus_.order[0] == np.argmax(anova(X, y))  # the big scale wins
    # normalised, the two opposite lists cancel: every mean is 0.5 up to float rounding
    np.testing.assert_allclose(norm.scores_, 0.5, atol=1e-12)


# ---------------------------------------------------------------------------- list weights
def test_accuracy_weights_equal_independent_cross_validation():
    X, y = _data(n=60, p=8)
    def worst(X, y):  # the reverse of anova: its top 2 are the least informative features
        return -anova(X, y)

    sel = EnsembleSelector(rankers=(anova, worst), list_weights="accuracy",
                           estimators={"nb": GaussianNB()}, weight_k=2, cv=3,
                           random_state=4).fit(X, y)
    # recompute: same folds (seeded), top-2 of each list, GaussianNB accuracy
    acc = []
    for j in range(2):
        order = np.lexsort((np.arange(8), sel.lists_.positions[:, j]))
        cols = order[:2]
        # the folds are the selector's own; rebuild them from its seed stream
        folds = _weight_folds(sel, y)
        acc.append(np.mean([np.mean(GaussianNB().fit(X[tr][:, cols], y[tr]).predict(
            X[te][:, cols]) == y[te]) for tr, te in folds]))
    acc = np.array(acc)
    np.testing.assert_allclose(sel.list_weights_, acc / acc.sum())
    assert sel.list_weights_[0] > sel.list_weights_[1]  # anova's list classifies better


def _weight_folds(sel, y):
    root = np.random.SeedSequence(sel.random_state)
    main_seq = root.spawn(3)[0]
    weight_seq = main_seq.spawn(3)[1]
    seed = int(weight_seq.generate_state(1, dtype=np.uint32)[0] >> 1)
    return list(StratifiedKFold(sel.cv, shuffle=True, random_state=seed).split(
        np.zeros(len(y)), y))


def test_explicit_weights_by_list_and_by_ranker():
    X, y = _data()
    a = EnsembleSelector(rankers=(anova, variance), list_weights=[3.0, 1.0]).fit(X, y)
    b = EnsembleSelector(rankers=(anova, variance),
                         list_weights={"anova": 3, "variance": 1}).fit(X, y)
    np.testing.assert_allclose(a.list_weights_, [0.75, 0.25])
    np.testing.assert_array_equal(a.positions_, b.positions_)
    expected = aggregate(a.lists_, "borda", weights=[0.75, 0.25])
    np.testing.assert_array_equal(a.positions_, expected.ranks)


# ---------------------------------------------------------------------------- subset size
def test_k_step_ranked_once_equals_independent_search():
    X, y = _data(n=60, p=8)
    ests = {"nb": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0)}
    sel = EnsembleSelector(rankers=(anova,), n_features_to_select="k-step", estimators=ests,
                           subset_cv="ranked_once", cv=3, random_state=2).fit(X, y)
    order = sel.consensus_.order
    root = np.random.SeedSequence(2)
    cv_seq = root.spawn(3)[1]
    fold_seq = cv_seq.spawn(2)[0]
    seed = int(fold_seq.generate_state(1, dtype=np.uint32)[0] >> 1)
    cv = StratifiedKFold(3, shuffle=True, random_state=seed)
    best = (None, -1)
    for k in range(1, 9):
        accs = [cross_val_score(clone(e), X[:, order[:k]], y, cv=cv).mean() for e in ests.values()]
        if max(accs) > best[1]:
            best = (k, max(accs))
    assert sel.n_features_ == best[0]
    assert sel.subset_curve_.accuracy == pytest.approx(best[1])
    curve = sel.subset_curve_.curve
    assert set(curve["estimator"]) == {"nb", "tree"} and curve["k"].max() == 8


def test_learning_curve_uses_first_estimator_and_prefers_shorter_prefix():
    X, y = _data(n=60, p=6)
    sel = EnsembleSelector(rankers=(anova,), n_features_to_select="learning-curve",
                           estimators=[GaussianNB(), DecisionTreeClassifier()],
                           cv=3, random_state=0).fit(X, y)
    curve = sel.subset_curve_.curve
    assert set(curve["estimator"]) == {"GaussianNB"}
    best = curve["mean"].max()
    assert sel.n_features_ == curve.loc[curve["mean"] == best, "k"].min()


# ---------------------------------------------------------------------------- no leak
_CALLS: list = []


def spy(X, y):
    """A ranker recording the row ids (column 0) of every call (module-level, so that clones
    of the selector share the record)."""
    _CALLS.append(frozenset(np.asarray(X)[:, 0].tolist()))
    return anova(np.asarray(X)[:, 1:], y).tolist() + [0.0]


def _ids_data():
    X, y = _data(n=60, p=5)
    return np.column_stack([np.arange(60.0), X]), y


@pytest.mark.parametrize("size", ["k-step", 2])
def test_no_test_row_reaches_selection_in_a_pipeline(size):
    X, y = _ids_data()
    _CALLS.clear()
    pipe = Pipeline([("sel", EnsembleSelector(rankers=(spy,), n_features_to_select=size, cv=3,
                                              estimators={"nb": GaussianNB()}, random_state=0)),
                     ("clf", GaussianNB())])
    outer = list(StratifiedKFold(4, shuffle=True, random_state=1).split(X, y))
    for train, _test in outer:
        _CALLS.clear()
        clone(pipe).fit(X[train], y[train])
        seen = frozenset().union(*_CALLS)
        assert seen == frozenset(X[train, 0].tolist())  # every call saw training rows only
    cross_validate(pipe, X, y, cv=outer)


def test_nested_size_search_ranks_each_fold_on_its_training_part():
    X, y = _ids_data()
    _CALLS.clear()
    EnsembleSelector(rankers=(spy,), n_features_to_select="k-step", cv=3,
                     estimators={"nb": GaussianNB()}, random_state=0).fit(X, y)
    all_ids = frozenset(range(60))
    # one call on all rows, then one per fold, each missing exactly that fold's held-out third
    assert _CALLS[0] == all_ids
    assert len(_CALLS) == 4
    assert sorted(len(all_ids - c) for c in _CALLS[1:]) == [20, 20, 20]
    held_out = [all_ids - c for c in _CALLS[1:]]
    assert frozenset().union(*held_out) == all_ids  # the held-out parts partition the rows

    # the planted leak: ranking once on all the data is what the default must not do
    _CALLS.clear()
    EnsembleSelector(rankers=(spy,), n_features_to_select="k-step", cv=3, subset_cv="ranked_once",
                     estimators={"nb": GaussianNB()}, random_state=0).fit(X, y)
    assert _CALLS == [all_ids]


# ---------------------------------------------------------------------------- bad input
def _failing(X, y):
    if len(np.unique(np.asarray(X)[:, 0])) < len(X):  # a bootstrap sample repeats rows
        raise ValueError("duplicate rows")
    return anova(X, y)


def _nan_ranker(X, y):
    s = anova(X, y)
    s[1] = np.nan
    return s


@pytest.mark.parametrize("params, exc, match", [
    ({"n_features_to_select": 9}, ValueError, "exceeds the number of features"),
    ({"n_features_to_select": 0}, ValueError, "≥ 1"),
    ({"n_features_to_select": 1.5}, ValueError, r"\(0, 1\]"),
    ({"n_features_to_select": "kstep"}, ValueError, "k-step"),
    ({"n_features_to_select": True}, TypeError, "n_features_to_select"),
    ({"rankers": ("relief_ff",)}, ValueError, "unknown ranker"),
    ({"rankers": ()}, ValueError, "at least one ranker"),
    ({"rankers": (42,)}, TypeError, r"rankers\[0\]"),
    ({"rankers": (("relieff", 3),)}, TypeError, "must be a dict"),
    ({"aggregation": "kfrist"}, ValueError, "kfirst"),
    ({"aggregation": 3}, TypeError, "aggregation"),
    ({"aggregation": "fuzzy:XW", "n_bootstraps": 3}, ValueError,
     "weighting must be 'EW', 'RW', 'OW' or 'MW', got 'XW'"),
    ({"aggregation": "fuzzy:OW"}, ValueError, "n_bootstraps ≥ 2"),
    ({"aggregation": "median", "list_weights": [1, 2]}, ValueError, "takes no list weights"),
    ({"aggregation_params": {"kk": 3}, "aggregation": "kfirst"}, ValueError, "unknown param"),
    ({"aggregation_params": [1]}, TypeError, "aggregation_params"),
    ({"n_bootstraps": -1}, ValueError, "n_bootstraps must be an int ≥ 0, got -1"),
    ({"n_bootstraps": 2.0}, TypeError, "n_bootstraps"),
    ({"sample_fraction": 0}, ValueError, "sample_fraction"),
    ({"sample_fraction": "all"}, TypeError, "sample_fraction"),
    ({"cv": 1}, ValueError, "cv must be"),
    ({"subset_cv": "inner"}, ValueError, "subset_cv"),
    ({"normalize": "zscore"}, ValueError, "normalize"),
    ({"list_weights": "acc"}, ValueError, "list_weights"),
    ({"list_weights": [1.0]}, ValueError, "1 weights for 2 lists"),
    ({"list_weights": [1.0, -1.0]}, ValueError, "non-negative"),
    ({"list_weights": {"anova": 1}}, ValueError, "no weight for ranker 'variance'"),
    ({"list_weights": {"anova": 1, "variance": 1, "x": 2}}, ValueError, "unknown ranker"),
    ({"estimators": [object()]}, TypeError, "not a classifier"),
    ({"estimators": []}, ValueError, "at least one classifier"),
    ({"random_state": -1}, ValueError, "random_state"),
    ({"random_state": "seed"}, TypeError, "random_state"),
    ({"stratify": "yes"}, TypeError, "stratify"),
    ({"n_features_to_select": "k-step", "cv": 40}, ValueError, "lower cv"),
    ({"subset_grid": [0, 3], "n_features_to_select": "k-step"}, ValueError, "subset_grid"),
    ({"subset_grid": [2.5], "n_features_to_select": "k-step"}, ValueError,
     r"subset_grid must be None or a list of counts \(ints ≥ 1\), got \[2.5\]"),
    ({"subset_grid": [True], "n_features_to_select": "k-step"}, ValueError,
     r"subset_grid must be None or a list of counts \(ints ≥ 1\), got \[True\]"),
    ({"subset_grid": "12", "n_features_to_select": "k-step"}, TypeError,
     "subset_grid must be None or a list of counts \\(ints ≥ 1\\), got '12'"),
    ({"subset_grid": [2, 3]}, ValueError, "subset_grid applies to a searched size"),
    ({"subset_grid": [2, 99], "n_features_to_select": "k-step"}, ValueError,
     r"subset_grid must hold counts from 1 to \d+ \(the number of features\), got \[99\]"),
    ({"list_weights": [1, "2"]}, TypeError, "list_weights must hold real numbers, got '2'"),
    ({"list_weights": [1, True]}, TypeError, "list_weights must hold real numbers, got True"),
    ({"list_weights": [1, None]}, ValueError, "list_weights must be finite"),
    ({"list_weights": [[1, 2]]}, TypeError, r"one number per list \(1-D\), got shape \(1, 2\)"),
])
def test_bad_parameters(params, exc, match):
    X, y = _data()
    kw = {"rankers": (anova, variance)}
    kw.update(params)
    with pytest.raises(exc, match=match):
        EnsembleSelector(**kw).fit(X, y)


def test_failing_ranker_is_named_with_its_list():
    X, y = _ids_data()
    with pytest.raises(ValueError, match=r"ranker '_failing' failed on list '_failing@b0'"):
        EnsembleSelector(rankers=(_failing,), n_bootstraps=3, random_state=0).fit(X, y)
    with pytest.raises(ValueError, match=r"non-finite score \(nan\) for feature 1 on list "
                                         r"'_nan_ranker'"):
        EnsembleSelector(rankers=(_nan_ranker,)).fit(X, y)


@pytest.mark.parametrize("X, y, match", [
    (np.zeros((6, 3)), np.zeros(6), "one class"),
    (np.zeros((6, 3)), np.linspace(0, 1, 6), "looks continuous"),
    (np.zeros((6, 3)), np.arange(5) % 2, "inconsistent numbers of samples"),
    (np.full((6, 3), np.inf), np.arange(6) % 2, "infinity"),
])
def test_bad_data(X, y, match):
    with pytest.raises(ValueError, match=match):
        EnsembleSelector(rankers=(anova,)).fit(X, y)


def test_caller_data_unchanged():
    X, y = _data()
    X0, y0 = X.copy(), y.copy()
    EnsembleSelector(rankers=("relieff", anova), n_bootstraps=2, random_state=0).fit(X, y)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


# ---------------------------------------------------------------------------- fuzzy, stability
@pytest.mark.parametrize("weighting", ["EW", "RW", "OW", "MW"])
def test_fuzzy_rule_equals_aggregate_fuzzy_of_each_rankers_bootstraps(weighting):
    from rankfusion import aggregate_fuzzy

    X, y = _data(n=40)
    sel = EnsembleSelector(rankers=(anova, variance, "info_gain"),
                           aggregation=f"fuzzy:{weighting}", n_bootstraps=5,
                           random_state=0).fit(X, y)
    names = sel.lists_.list_names.tolist()
    by_method = {r: sel.lists_.select_lists([n for n in names if n.startswith(r + "@")])
                 for r in ("anova", "variance", "info_gain")}
    expected = aggregate_fuzzy(by_method, weighting=weighting)
    np.testing.assert_array_equal(sel.scores_, expected.scores)
    np.testing.assert_array_equal(sel.positions_, expected.ranks)
    assert sel.consensus_.weights.shape == (8, 3)
    assert sel.stability_.index.tolist() == ["anova", "variance", "info_gain", "consensus"]


@pytest.mark.parametrize("weighting", ["EW", "RW", "OW", "MW"])
def test_fuzzy_stability_has_the_consensus_of_every_bootstrap(weighting):
    """Bootstrap b's fuzzy consensus: each method's discretised score on b (its one-point
    fuzzy set), combined with the fit's weights w^i_j (eqs. 5, 13); with EW it is
    aggregate_fuzzy of bootstrap b's lists itself."""
    from rankfusion import aggregate_fuzzy
    from rankfusion.stability import asd, nogueira

    X, y = _data(n=40)
    k = 3
    sel = EnsembleSelector(rankers=(anova, variance, "info_gain"), n_features_to_select=k,
                           aggregation=f"fuzzy:{weighting}", n_bootstraps=5,
                           random_state=0).fit(X, y)
    methods = ("anova", "variance", "info_gain")
    w = sel.consensus_.weights
    rows, Z = [], np.zeros((5, 8), dtype=int)
    for b in range(5):
        one = {m: sel.lists_.select_lists([f"{m}@b{b}"]) for m in methods}
        # x^i_jb by hand: per-list min-max, the 0.01 grid, halves up
        x = []
        for m in methods:
            s = one[m].scores[:, 0]
            t = (s - s.min()) / (s.max() - s.min())
            x.append(np.floor(100 * t + 0.5 + 1e-9) / 100)
        c = (w * np.column_stack(x)).sum(axis=1)
        if weighting == "EW":
            np.testing.assert_allclose(aggregate_fuzzy(one, "EW").scores, c, rtol=1e-12)
        rows.append(c)
        Z[b, np.lexsort((np.arange(8), -c))[:k]] = 1
    st = sel.stability_
    assert st.index[-1] == "consensus"
    assert st.loc["consensus", "asd"] == pytest.approx(asd(np.vstack(rows)), rel=1e-9)
    assert st.loc["consensus", "nogueira"] == pytest.approx(nogueira(Z).statistic)
    assert np.isfinite(st.loc["consensus", "nogueira"])


def test_stability_equals_the_stability_functions():
    from rankfusion.stability import apc, asd, nogueira

    X, y = _data(n=40)
    sel = EnsembleSelector(rankers=(anova, variance), n_bootstraps=6, n_features_to_select=3,
                           aggregation="borda", random_state=1).fit(X, y)
    st = sel.stability_
    assert st.index.tolist() == ["anova", "variance", "consensus"]
    rows = sel.lists_.scores[:, :6].T  # anova@b0 … anova@b5
    Z = np.zeros((6, 8), dtype=int)
    for b in range(6):
        Z[b, np.lexsort((np.arange(8), -rows[b]))[:3]] = 1
    res = nogueira(Z)
    assert st.loc["anova", "nogueira"] == pytest.approx(res.statistic)
    assert st.loc["anova", "nogueira_low"] == pytest.approx(res.low)
    assert st.loc["anova", "asd"] == pytest.approx(asd(rows))
    assert st.loc["anova", "apc"] == pytest.approx(apc(rows))
    # the consensus row: each bootstrap's two lists combined by Borda
    cons = [aggregate(sel.lists_.select_lists([f"anova@b{b}", f"variance@b{b}"]), "borda")
            for b in range(6)]
    Zc = np.zeros((6, 8), dtype=int)
    for b, c in enumerate(cons):
        Zc[b, c.order[:3]] = 1
    assert st.loc["consensus", "nogueira"] == pytest.approx(nogueira(Zc).statistic)
    assert st.loc["consensus", "asd"] == pytest.approx(asd(np.vstack([c.scores for c in cons])))


def test_no_stability_without_bootstraps():
    X, y = _data()
    assert EnsembleSelector(rankers=(anova,)).fit(X, y).stability_ is None


def test_svm_rfe_contributes_one_list_per_binary_problem():
    from sklearn.datasets import load_iris

    from rankfusion.rankers import ranker_lists

    X, y = load_iris(return_X_y=True)
    sel = EnsembleSelector(rankers=("svm_rfe", "info_gain"), aggregation="kfirst",
                           normalize=None).fit(X, y)
    assert sel.lists_.list_names.tolist() == [
        "svm_rfe[0 vs 1]", "svm_rfe[0 vs 2]", "svm_rfe[1 vs 2]", "info_gain"]
    expected = ranker_lists("svm_rfe", X, y)
    np.testing.assert_array_equal(sel.lists_.positions[:, :3], expected.positions)


def test_a_ranker_with_constant_bootstrap_scores_gets_apc_nan():
    # info gain is 0 for every feature of a noise bootstrap: the fit goes on, and APC (a
    # correlation of a constant vector) is NaN for that ranker only
    X = np.random.default_rng(0).random((24, 5))
    y = [0, 1, 2] * 8
    sel = EnsembleSelector(rankers=["info_gain", "relieff"], n_bootstraps=2,
                           random_state=0).fit(X, y)
    assert np.isnan(sel.stability_.loc["info_gain", "apc"])
    assert np.isfinite(sel.stability_.loc["relieff", "apc"])
    assert np.isfinite(sel.stability_.loc["info_gain", "asd"])


# ---------------------------------------------------------------------------- classifier names
@pytest.mark.parametrize("estimators, exc, match", [
    (["svm"], ValueError, r"estimators\[0\]: unknown classifier 'svm'; did you mean "
                          r"'linear_svm'\? known names: linear_svm, naive_bayes, knn1, tree"),
    ("svm", ValueError, r"estimators\[0\]: unknown classifier 'svm'; did you mean 'linear_svm'"),
    (["linear_svm", "Tree"], ValueError, r"estimators\[1\]: unknown classifier 'Tree'; did you "
                                         r"mean 'tree'"),
    ({"mine": "naive_byes"}, ValueError, r"estimators\['mine'\]: unknown classifier "
                                         r"'naive_byes'; did you mean 'naive_bayes'"),
    (["random_forrest"], ValueError, r"unknown classifier 'random_forrest'; did you mean "
                                     r"'random_forest'\? known names"),
    (["naive_bayes", None], TypeError, r"estimators\[1\] is not a classifier"),
    ([True], TypeError, r"estimators\[0\] is not a classifier"),
    (3, TypeError, r"estimators must be None or a classifier name, a classifier, a list"),
    ([GaussianNB(), 3], TypeError, r"estimators\[1\] is not a classifier \(needs fit and "
                                   r"predict\): got 3 of type int"),
    ({"a": None}, TypeError, r"estimators\['a'\] is not a classifier.*got None"),
])
def test_unknown_classifier_names_are_named(estimators, exc, match):
    X, y = _data()
    with pytest.raises(exc, match=match) as info:
        EnsembleSelector(rankers=(anova,), estimators=estimators,
                         n_features_to_select="k-step").fit(X, y)
    assert "'str'" not in str(info.value)  # the name, never its type


def test_registered_classifier_names_are_accepted():
    # the names of the classifier registry (the command line's and the configs'), beside the
    # papers' four: "smo" is Weka's SMO form, fitted as the registry builds it
    from rankfusion.selection.classifiers import make_classifier

    X, y = _data()
    by_name = EnsembleSelector(rankers=(anova,), estimators=["smo", "naive_bayes"],
                               n_features_to_select="k-step", random_state=0).fit(X, y)
    by_object = EnsembleSelector(rankers=(anova,),
                                 estimators={"smo": make_classifier("smo"),
                                             "naive_bayes": make_classifier("naive_bayes")},
                                 n_features_to_select="k-step", random_state=0).fit(X, y)
    pd.testing.assert_frame_equal(by_name.subset_curve_.curve, by_object.subset_curve_.curve)
    assert set(by_name.subset_curve_.curve["estimator"]) == {"smo", "naive_bayes"}


def test_classifier_names_stand_for_the_papers_classifiers():
    from rankfusion.selection.estimators import default_estimators

    X, y = _data()
    by_name = EnsembleSelector(rankers=(anova,), estimators=["naive_bayes", "tree"],
                               n_features_to_select="k-step", random_state=0).fit(X, y)
    pool = default_estimators()
    by_object = EnsembleSelector(rankers=(anova,),
                                 estimators={"naive_bayes": pool["naive_bayes"],
                                             "tree": pool["tree"]},
                                 n_features_to_select="k-step", random_state=0).fit(X, y)
    pd.testing.assert_frame_equal(by_name.subset_curve_.curve, by_object.subset_curve_.curve)


@pytest.mark.parametrize("estimators, exc, match", [
    ("svm", ValueError, r"estimators: unknown classifier 'svm'; did you mean 'linear_svm'\? "
                        r"known names: linear_svm, naive_bayes, knn1, tree \(the papers' "
                        r"classifiers\), .*smo \(the classifier registry\)$"),
    ("linear_svm,knn", ValueError, "unknown classifier 'knn'; did you mean 'knn1'"),
    (3, TypeError, "estimators must be classifier names"),
    ([3], TypeError, "estimators must be a classifier name"),
])
def test_ensemble_from_options_names_unknown_classifiers(estimators, exc, match):
    from rankfusion.workflows import ensemble_from_options

    with pytest.raises(exc, match=match):
        ensemble_from_options(estimators=estimators)


def test_weka_like_classifier_names_need_no_evaluation_import():
    # The Weka-like classifiers are registered in rankfusion.selection, so a script that never
    # imports rankfusion.evaluation can name them (the CLI and TOML always could).
    import subprocess
    import sys

    code = ("import sys, numpy as np\n"
            "from rankfusion.selection import EnsembleSelector\n"
            "X = np.random.default_rng(0).normal(size=(40, 6)); y = np.repeat([0, 1], 20)\n"
            "s = EnsembleSelector(rankers=['f_classif'], estimators=['j48', 'knn1_weka', "
            "'naive_bayes_weka'], n_features_to_select='k-step').fit(X, y)\n"
            "assert 'rankfusion.evaluation' not in sys.modules\n"
            "print(sorted(s.subset_curve_.curve['estimator'].unique()))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "['j48', 'knn1_weka', 'naive_bayes_weka']"
