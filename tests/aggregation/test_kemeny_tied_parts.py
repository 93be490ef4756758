"""Kemeny: blocks tied in every list are solved directly; why a part went to the heuristic."""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

from conftest import read_csv
from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import pairwise_matrix
from rankfusion.aggregation.kemeny import _count_three_cycles, _three_cycles, condorcet_parts

LEUKEMIA = "/work/shared/datasets/leukemia_3c/leukemia_3c_72x7129.csv.gz"


def test_block_tied_in_every_list_is_solved_directly():
    # 6 informative features above 2,000 features with score 0 in every list
    rng = np.random.default_rng(0)
    top = rng.random((6, 3)) + 1.0
    scores = np.vstack([top, np.zeros((2000, 3))])
    res = aggregate(scores, "kemeny")
    assert res.info["optimal"] is True
    assert res.info["objective"] == res.info["lower_bound"]
    i = res.info["parts"].index(2000)
    assert res.info["part_methods"][i] == "tied" and res.info["part_classes"][i] == 1
    # the tied block comes last, in index order
    assert res.order[6:].tolist() == list(range(6, 2006))


def test_tied_block_inside_a_part_is_contracted_and_proven():
    # a block of 400 clones (same score, so the same position, in every list) inside a cyclic
    # part: 403 features but 4 classes, so the subset DP proves it (oracle: brute force over
    # the 4! orders of the classes, the clone class weighted by 400)
    small = np.array([[4, 1, 2], [3, 4, 1], [2, 3, 4], [1, 2, 3]], dtype=float)  # a, b, c, Z
    scores = np.vstack([small[:3], np.repeat(small[3:], 400, axis=0)])
    res = aggregate(scores, "kemeny")
    assert res.info["parts"] == [403] and res.info["part_classes"] == [4]
    assert res.info["part_methods"] == ["dp"] and res.info["optimal"]
    pos = res.ranks[3:]
    assert pos.max() - pos.min() == 399  # the clones stay together
    D = np.asarray(pairwise_matrix(small), float)
    W = np.array([1, 1, 1, 400.0])
    best = min(sum(D[o[j], o[i]] * W[o[i]] * W[o[j]] for i in range(4) for j in range(i + 1, 4))
               for o in itertools.permutations(range(4)))
    assert res.info["objective"] == best


def test_part_with_all_pairs_tied_in_majority_is_optimal_in_any_order():
    # two lists in opposite orders: every pair is tied 1–1; any order costs C(p, 2)
    p = 500
    lists = RankedLists.from_orders([list(range(p)), list(range(p))[::-1]])
    res = aggregate(lists, "kemeny")
    assert res.info["part_methods"] == ["tied"] and res.info["optimal"]
    assert res.info["objective"] == res.info["lower_bound"] == p * (p - 1) / 2


def test_heuristic_part_says_why():
    rng = np.random.default_rng(1)
    scores = rng.random((120, 9))  # random lists: one part, far too many 3-cycles
    res = aggregate(scores, "kemeny", restarts=1)
    (why,) = [r for r in res.info["part_reasons"] if r]
    assert "3-cycles" in why and "> 20,000" in why
    res = aggregate(scores, "kemeny", restarts=1, ilp_max=50)
    (why,) = [r for r in res.info["part_reasons"] if r]
    assert "ilp_max=50" in why
    res = aggregate(scores[:30], "kemeny", restarts=1, exact=False)
    assert [r for r in res.info["part_reasons"] if r] == ["exact=False"]


def test_heuristic_at_the_lower_bound_is_reported_optimal():
    # two lists: 0..19 then 20..39, and 20..39 then 0..19. Pairs inside a half are strict
    # majorities, pairs across are tied 1–1, so the 40 features form one part (not all tied,
    # no clones) whose lower bound Σ min(d_ij, d_ji) = 400 is met by any order keeping each
    # half in order: the heuristic reaches it, which proves optimality
    a, b = list(range(20)), list(range(20, 40))
    lists = RankedLists.from_orders([a + b, b + a])
    res = aggregate(lists, "kemeny", exact=False)
    assert res.info["parts"] == [40] and res.info["part_methods"] == ["heuristic"]
    assert res.info["objective"] == res.info["lower_bound"] == 400
    assert res.info["optimal"] is True
    assert "proven optimal" in res.info["part_reasons"][0]


@pytest.mark.parametrize("seed", range(5))
def test_three_cycle_count_matches_enumeration(seed):
    rng = np.random.default_rng(seed)
    A = rng.random((25, 25)) < 0.5
    A = np.triu(A, 1)
    A = A | np.triu(~A, 1).T
    np.fill_diagonal(A, False)
    assert _count_three_cycles(A) == _three_cycles(A).shape[0]


@pytest.mark.parametrize("seed", range(5))
def test_condorcet_parts_against_scipy_components(seed):
    from scipy import sparse
    from scipy.sparse.csgraph import connected_components

    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 4, (30, 3)).astype(float)
    scores[:10] += 10  # a few well separated blocks
    scores[10:20] += 5
    d = pairwise_matrix(scores)
    ge = d >= d.T
    np.fill_diagonal(ge, False)
    n, lab = connected_components(sparse.csr_matrix(ge), directed=True, connection="strong")
    parts = condorcet_parts(d)
    assert len(parts) == n
    assert sorted(tuple(p) for p in parts) == sorted(
        tuple(np.flatnonzero(lab == c)) for c in range(n))
    for a in range(len(parts)):  # every feature of an earlier part beats every later one
        for b in range(a + 1, len(parts)):
            assert (d[np.ix_(parts[a], parts[b])] > d[np.ix_(parts[b], parts[a])].T).all()


@pytest.mark.skipif(not os.path.exists(LEUKEMIA), reason="shared Leukemia-3c data not present")
def test_leukemia_filters_with_the_zero_block_are_proven_optimal():
    from rankfusion.rankers import get_ranker

    df = read_csv(LEUKEMIA)
    y = df["class"].to_numpy()
    X = df.iloc[:, 2:].to_numpy(float)
    S = np.column_stack([get_ranker(r)(X, y)
                         for r in ("info_gain", "symmetric_uncertainty", "chi_square")])
    zero = np.flatnonzero((S == 0).all(axis=1))
    assert zero.size > 1000  # features no filter scores: tied in every list
    best = np.argsort(-S[:, 0], kind="stable")[:15]
    keep = np.concatenate([best, zero])
    res = aggregate(S[keep], "kemeny")
    assert res.info["optimal"] is True
    i = res.info["parts"].index(zero.size)
    assert res.info["part_methods"][i] == "tied"
    # the whole data set with candidates: the union of the filters' top 20 is proven too
    res = aggregate(S, "kemeny", candidates=20)
    assert res.info["optimal"] is True and res.info["n_candidates"] < 60
