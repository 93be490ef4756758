"""Kemeny aggregation: exact against brute force, proven optimal on structured inputs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import pairwise_matrix
from rankfusion.aggregation.kemeny import condorcet_parts, kemeny_objective
from rankfusion.distances import kendall_tau


def brute_force(lists, weights=None):
    D = np.asarray(pairwise_matrix(lists, weights), dtype=float)
    p = D.shape[0]
    perms = np.array(list(itertools.permutations(range(p))))
    iu, ju = np.triu_indices(p, 1)
    costs = D[perms[:, ju], perms[:, iu]].sum(axis=1)
    return costs.min()


def mallows(p, m, phi, rng):
    """Repeated-insertion sampling of a Mallows model centred on 0, 1, …, p − 1."""
    out = []
    for _ in range(m):
        order: list[int] = []
        for i in range(p):
            w = phi ** np.arange(i + 1)
            j = rng.choice(i + 1, p=w / w.sum())
            order.insert(len(order) - j, i)
        out.append(order)
    return out


def _random_lists(rng, p, m, kind):
    if kind == "scores_ties":
        return RankedLists.from_scores(rng.integers(0, 3, (p, m)).astype(float))
    if kind == "topk":
        orders = [list(rng.permutation(p)[: rng.integers(1, p + 1)]) for _ in range(m)]
        return RankedLists.from_orders(orders, universe=list(range(p)))
    return RankedLists.from_scores(rng.random((p, m)))


@pytest.mark.parametrize("seed", range(12))
def test_objective_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    p = int(rng.integers(2, 9))
    m = int(rng.integers(1, 8))
    lists = _random_lists(rng, p, m, ("scores_ties", "topk", "scores")[seed % 3])
    weights = None if seed % 2 else rng.random(m) + 0.1
    res = aggregate(lists, "kemeny", weights=weights)
    best = brute_force(lists, weights)
    assert res.info["optimal"]
    assert res.info["objective"] == pytest.approx(best, rel=1e-12, abs=1e-9)
    assert kemeny_objective(lists, res.order, weights) == pytest.approx(res.info["objective"])
    # the ILP path on its own gives the same optimum
    ilp = aggregate(lists, "kemeny", weights=weights, dp_max=1)
    assert ilp.info["objective"] == pytest.approx(best, rel=1e-12, abs=1e-9)
    heur = aggregate(lists, "kemeny", weights=weights, exact=False)
    assert heur.info["objective"] >= best - 1e-9
    assert heur.info["lower_bound"] <= best + 1e-9


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 7).flatmap(lambda p: st.tuples(
    st.just(p), st.integers(1, 6).flatmap(lambda m: st.lists(
        st.lists(st.integers(0, 3), min_size=p, max_size=p), min_size=m, max_size=m)))))
def test_objective_equals_brute_force_hypothesis(case):
    p, cols = case
    lists = RankedLists.from_scores(np.array(cols, dtype=float).T)  # ties included
    res = aggregate(lists, "kemeny")
    assert res.info["optimal"]
    assert res.info["objective"] == brute_force(lists)


def test_objective_is_sum_of_kendall_distances():
    rng = np.random.default_rng(3)
    orders = [list(rng.permutation(15)) for _ in range(5)]
    lists = RankedLists.from_orders(orders, universe=list(range(15)))
    res = aggregate(lists, "kemeny")
    sigma = [int(i) for i in res.order]
    assert res.info["objective"] == sum(kendall_tau(sigma, o) for o in orders)


@pytest.mark.parametrize("seed", range(3))
def test_proven_optimal_on_noisy_copies_p30(seed):
    rng = np.random.default_rng(seed)
    orders = mallows(30, 28, 0.8, rng)  # about a fifth of the pairs disagree with 0..29
    frac = np.mean([kendall_tau(o, list(range(30))) for o in orders]) / 435
    assert 0.15 < frac < 0.25
    lists = RankedLists.from_orders(orders, universe=list(range(30)))
    res = aggregate(lists, "kemeny")
    assert res.info["optimal"]
    assert res.info["objective"] == res.info["lower_bound"]
    assert res.info["objective"] <= min(res.info["borda_objective"],
                                        res.info["copeland_objective"])
    # the same optimum when every part goes to the ILP
    assert aggregate(lists, "kemeny", dp_max=1).info["objective"] == res.info["objective"]


@pytest.mark.parametrize("seed", range(3))
def test_proven_optimal_on_uniform_random_p12(seed):
    rng = np.random.default_rng(100 + seed)
    lists = RankedLists.from_orders([list(rng.permutation(12)) for _ in range(28)],
                                    universe=list(range(12)))
    res = aggregate(lists, "kemeny")
    assert res.info["optimal"]
    assert res.info["objective"] == aggregate(lists, "kemeny", dp_max=1).info["objective"]


def test_condorcet_parts_follow_majorities_and_ties_join():
    # a > b > c unanimously: three parts in that order
    lists = RankedLists.from_orders([["a", "b", "c"]] * 3)
    d = pairwise_matrix(lists)
    assert [list(x) for x in condorcet_parts(d)] == [[0], [1], [2]]
    # two lists disagreeing on a and b: a tie, so a and b form one part
    lists = RankedLists.from_orders([["a", "b", "c"], ["b", "a", "c"]])
    assert [list(x) for x in condorcet_parts(pairwise_matrix(lists))] == [[0, 1], [2]]


def test_heuristic_never_worse_than_borda_and_copeland_and_deterministic():
    rng = np.random.default_rng(9)
    lists = RankedLists.from_scores(rng.random((120, 9)))
    res = aggregate(lists, "kemeny", exact=False, restarts=3)
    assert not res.info["optimal"]
    assert res.info["objective"] <= min(res.info["borda_objective"],
                                        res.info["copeland_objective"])
    again = aggregate(lists, "kemeny", exact=False, restarts=3)
    np.testing.assert_array_equal(res.order, again.order)
    assert sorted(res.order.tolist()) == list(range(120))
    np.testing.assert_array_equal(res.scores, 120 - res.ranks)


def test_parameters_are_checked():
    lists = RankedLists.from_orders([["a", "b"], ["b", "a"]])
    with pytest.raises(ValueError, match="dp_max"):
        aggregate(lists, "kemeny", dp_max=30)
    with pytest.raises(TypeError, match="restarts"):
        aggregate(lists, "kemeny", restarts=1.5)
    with pytest.raises(ValueError, match="time_limit"):
        aggregate(lists, "kemeny", time_limit=0)
    with pytest.raises(TypeError, match="exact"):
        aggregate(lists, "kemeny", exact="maybe")


def test_cli_kemeny_reports_the_same_order(tmp_path):
    import subprocess
    import sys

    src = tmp_path / "lists.csv"
    src.write_text("list,1,2,3,4\nA,a,b,c,d\nB,b,a,d,c\nC,a,c,b,d\n")
    out = tmp_path / "k.csv"
    subprocess.run([sys.executable, "-m", "rankfusion", "aggregate", str(src), "--method",
                    "kemeny", "--param", "restarts=2", "--out", str(out)], check=True,
                   capture_output=True)
    lists = RankedLists.from_orders([list("abcd"), list("badc"), list("acbd")],
                                    list_names=["A", "B", "C"])
    expected = aggregate(lists, "kemeny", restarts=2).top()
    assert out.read_text().splitlines()[1:] != []
    assert [line.split(",")[0] for line in out.read_text().splitlines()[1:]] == expected
