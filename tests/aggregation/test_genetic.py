"""The top-k optimisation rules ``ga`` and ``ce`` (Bouaguel et al. 2013; RankAggreg 0.6.6)."""

from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from conftest import RANKAGGREG_FIXTURES, read_csv
from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import _topk
from rankfusion.distances import distance_matrix, kendall_tau, spearman_footrule
from rankfusion.io import read_lists

FIX = RANKAGGREG_FIXTURES


def _lists(seed=0, p=40, m=4, k=8, noise=6.0):
    rng = np.random.default_rng(seed)
    scores = -np.arange(p)[:, None] + rng.normal(0, noise, (p, m))
    return RankedLists.from_scores(scores)


def _brute(prob):
    best = np.inf
    for cand in itertools.permutations(range(prob.n), prob.k):
        best = min(best, prob.evaluate(np.array([cand]))[0])
    return best


@pytest.mark.parametrize("method", ["ga", "ce"])
@pytest.mark.parametrize("distance", ["spearman", "kendall"])
def test_tiny_problems_reach_the_brute_force_optimum(method, distance):
    lists = RankedLists.from_orders([["a", "b", "c", "d"], ["b", "a", "e", "c"],
                                     ["a", "e", "b", "f"]])
    res = aggregate(lists, method, k=3, distance=distance, random_state=1)
    prob = _topk.prepare(lists, k=3, distance=distance, score_weights=None, weights=None)
    assert res.info["objective"] == pytest.approx(_brute(prob))


@pytest.mark.parametrize("method", ["ga", "ce"])
def test_fixed_random_state_gives_identical_results(method):
    lists = _lists()
    a = aggregate(lists, method, k=6, distance="kendall", random_state=7, polish=False)
    b = aggregate(lists, method, k=6, distance="kendall", random_state=7, polish=False)
    np.testing.assert_array_equal(a.order, b.order)
    pd.testing.assert_frame_equal(a.info["trace"], b.info["trace"])
    assert a.info["objective"] == b.info["objective"]


@pytest.mark.parametrize("method", ["ga", "ce"])
@pytest.mark.parametrize("distance", ["spearman", "kendall"])
def test_objective_is_weighted_mean_distance(method, distance):
    lists = _lists(1)
    w = np.array([1.0, 2.0, 0.5, 1.5])
    res = aggregate(lists, method, k=6, distance=distance, weights=w, random_state=0)
    top = res.info["top_k"]
    assert top == res.top(6)
    f = spearman_footrule if distance == "spearman" else kendall_tau
    d = [f(top, o[:6], k=6) for o in lists.orders()]
    assert res.info["objective"] == pytest.approx(np.dot(w / w.sum(), d), rel=1e-12)
    # order: the best top-k list, then the other features in Borda order
    borda = aggregate(lists, "borda", weights=w).order
    rest = [i for i in borda if i not in res.order[:6]]
    assert res.order[6:].tolist() == rest


def test_spearman_answer_is_proven_optimal_and_raw_ga_is_not_better():
    lists = _lists(2, p=60, m=5, k=10, noise=10)
    res = aggregate(lists, "ga", k=10, random_state=3)
    raw = aggregate(lists, "ga", k=10, random_state=3, init="random", polish=False)
    assert res.info["optimal"]
    assert raw.info["objective"] >= res.info["objective"] - 1e-9
    trace = raw.info["trace"]
    assert list(trace.columns) == ["min", "median"]
    assert len(trace) == raw.info["n_generations"] + 1
    assert (trace["min"] <= trace["median"]).all()
    assert raw.info["objective"] <= trace["min"].min() + 1e-9  # best ever kept


def test_score_weights_list_and_feature():
    lists = _lists(3)
    for sw in ("list", "feature"):
        res = aggregate(lists, "ga", k=5, score_weights=sw, random_state=0)
        prob = _topk.prepare(lists, k=5, distance="spearman", score_weights=sw, weights=None)
        assert res.info["optimal"]
        if sw == "list":  # RankAggreg's standardisation: 1 at the top, 0 at position k
            np.testing.assert_allclose(prob.w[:, 0], 1.0)
            np.testing.assert_allclose(prob.w[:, -1], 0.0)
    orders = RankedLists.from_orders([["a", "b"], ["b", "a"]])
    with pytest.raises(ValueError, match="raw scores"):
        aggregate(orders, "ga", k=2, score_weights="list")


def test_parameters_are_checked():
    lists = RankedLists.from_orders([["a", "b", "c"], ["b", "a"]])
    with pytest.raises(ValueError, match="shortest"):
        aggregate(lists, "ga", k=3)
    with pytest.raises(ValueError, match="distance"):
        aggregate(lists, "ga", distance="footrule")
    with pytest.raises(ValueError, match="crossover"):
        aggregate(lists, "ga", crossover=0)
    with pytest.raises(ValueError, match="init"):
        aggregate(lists, "ga", init="smart")
    with pytest.raises(ValueError, match="too small"):
        aggregate(lists, "ce", n_samples=10)
    with pytest.raises(TypeError, match="random_state"):
        aggregate(lists, "ce", n_samples=100, random_state="x")


# ------------------------------------------------------------------ RankAggreg fixtures
def test_objectives_equal_rankaggreg_internal_functions():
    ref = read_csv(FIX / "objectives.csv")
    assert len(ref) == 80
    for (inp, dist, weighted), grp in ref.groupby(["input", "distance", "weighted"]):
        x = read_csv(FIX / f"{inp}_lists.csv", index_col=0, dtype=str).to_numpy()
        cands = np.array([c.split() for c in grp.candidate])
        scores = None
        if weighted:
            scores = read_csv(FIX / f"{inp}_score_weights.csv").to_numpy()
        d = distance_matrix(cands, x, distance=dist.lower(), k=x.shape[1], scores=scores)
        np.testing.assert_allclose(d.mean(axis=1), grp.objective.to_numpy(), rtol=1e-12)


def test_rankaggreg_top_lists_have_the_reported_objective():
    runs = read_csv(FIX / "runs.csv")
    for row in runs.itertuples():
        x = read_csv(FIX / f"{row.input}_lists.csv", index_col=0, dtype=str).to_numpy()
        cand = np.array([row.top_list.split()])
        d = distance_matrix(cand, x[:, : row.k], distance=row.distance.lower(), k=row.k)
        assert d.mean() == pytest.approx(row.objective, rel=1e-12)


@pytest.mark.parametrize("method", ["ga", "ce"])
@pytest.mark.parametrize("inp,distance", [("topk5", "spearman"), ("kendall5", "kendall")])
def test_median_objective_no_worse_than_rankaggreg(method, inp, distance):
    runs = read_csv(FIX / "runs.csv")
    sel = runs[(runs.input == inp) & (runs.method == method.upper())]
    assert len(sel) == 5
    lists = read_lists(FIX / f"{inp}_lists.csv", "orders")
    k = int(sel.k.iloc[0])
    kw = {"max_iter": int(sel.max_iter.iloc[0])}
    ours = [aggregate(lists, method, k=k, distance=distance, random_state=s, **kw)
            .info["objective"] for s in range(5)]
    assert np.median(ours) <= np.median(sel.objective) + 1e-9


def test_cli_runs_ga_with_k_and_params(tmp_path):
    out = tmp_path / "c.csv"
    cmd = [sys.executable, "-m", "rankfusion", "aggregate", str(FIX / "kendall5_lists.csv"),
           "--method", "ga", "--k", "5", "--param", "distance=kendall",
           "--param", "random_state=3", "--out", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
    assert "ga consensus" in proc.stdout
    frame = read_csv(out, index_col=0)
    lists = read_lists(FIX / "kendall5_lists.csv", "orders")
    res = aggregate(lists, "ga", k=5, distance="kendall", random_state=3)
    assert list(frame.index) == [str(f) for f in res.top()]


def _scored_topk5():
    """topk5 as full score lists: the top-k keep RankAggreg's weights, the rest score lower."""
    x = read_csv(FIX / "topk5_lists.csv", index_col=0, dtype=str).to_numpy()
    items = [f"g{i:03d}" for i in range(100)]
    k = x.shape[1]
    scores = np.tile(-np.arange(100, dtype=float)[:, None] / 1000.0, (1, x.shape[0]))
    for l in range(x.shape[0]):
        for pos, item in enumerate(x[l]):
            scores[items.index(item), l] = 100 - (pos + 1) + (l + 1) / 10
    return RankedLists.from_scores(pd.DataFrame(scores, index=items)), k


def test_weighted_objective_matches_rankaggreg_with_its_standardisation():
    lists, k = _scored_topk5()
    runs = read_csv(FIX / "weighted_runs.csv")
    for row in runs.itertuples():
        dist = row.distance.lower()
        prob = _topk.prepare(lists, k=k, distance=dist, score_weights="list", weights=None)
        names = [lists.features[i] for i in prob.items]
        cand = np.array([[names.index(f) for f in row.top_list.split()]])
        assert prob.evaluate(cand)[0] == pytest.approx(row.objective, rel=1e-12)
        ours = aggregate(lists, "ga", k=k, distance=dist, score_weights="list",
                         random_state=row.seed, max_iter=50)
        assert ours.info["objective"] <= row.objective + 1e-9


def test_ce_default_sample_size_keeps_an_elite_of_five_for_short_lists():
    lists = RankedLists.from_orders([["a", "b"], ["b", "a", "c"], ["a", "c"]])
    res = aggregate(lists, "ce", random_state=0)
    assert res.params["n_samples"] == 50  # 10·k² = 40 would leave an elite of 4
    assert res.top(2) == ["a", "b"]
    with pytest.raises(ValueError, match="too small"):
        aggregate(lists, "ce", n_samples=20, random_state=0)


# ---------------------------------------------------------------------------- mutation operator
def _top1_lists():
    """15 orders of 3 features: "a" heads 5 of them, each of 10 other features heads one.

    For k = 1 the Spearman footrule of top-k lists (an absent item at position k + 1 = 2,
    RankAggreg's convention) is 0 between [x] and a list headed by x and |1 − 2| + |2 − 1| = 2
    otherwise, so the objective of [x] is 2 · (share of lists not headed by x): [a] is the
    unique optimum, 2 · 10/15."""
    others = [f"f{i}" for i in range(10)]
    orders = [["a", others[i], others[(i + 1) % 10]] for i in range(5)]
    orders += [[others[i], "a", others[(i + 3) % 10]] for i in range(10)]
    return RankedLists.from_orders(orders)


def test_mutation_alone_finds_an_item_missing_from_the_first_population():
    """With k = 1 there is no crossover (a single position has no cut point) and, without
    mutation, selection only copies the initial lists: the result would be one of the
    population's two initial items, "a" in about 2 of 11 seeds. Mutation at rate 1 draws
    P·k = 2 random items per generation, so every seed reaches [a] (planting ``n_mut = 0``
    fails here)."""
    lists = _top1_lists()
    orders = [lists.ranked_features(j) for j in range(lists.n_lists)]
    # the optimum's objective from the distances module (an implementation apart from the GA's)
    optimum = np.mean([spearman_footrule(["a"], o, k=1) for o in orders])
    assert optimum == pytest.approx(2 * 10 / 15)
    for distance in ("spearman", "kendall"):
        for seed in range(12):
            res = aggregate(lists, "ga", k=1, population=2, crossover=1.0, mutation=1.0,
                            max_iter=300, conv_in=300, init="random", polish=False,
                            random_state=seed, distance=distance)
            assert res.info["top_k"] == ["a"], (distance, seed)
            if distance == "spearman":
                assert res.info["ga_objective"] == pytest.approx(optimum)


def test_trace_reaches_an_optimum_missing_from_the_first_population():
    """The trace's generation-0 minimum is the best initial item; one generation later the
    population has changed only through mutation (k = 1: no crossover), and over 300
    generations the minimum reaches the optimum from initial populations that lack it."""
    lists = _top1_lists()
    reached = 0
    for seed in range(12):
        res = aggregate(lists, "ga", k=1, population=2, mutation=1.0, max_iter=300,
                        conv_in=300, init="random", polish=False, random_state=seed)
        trace = res.info["trace"]
        first, last = float(trace.iloc[0, 0]), float(trace.iloc[:, 0].min())
        if first > 2 * 10 / 15 + 1e-12:  # the optimum was not in the first population
            reached += last == pytest.approx(2 * 10 / 15)
            assert last == pytest.approx(2 * 10 / 15), seed
    assert reached >= 5  # most seeds start without [a]
