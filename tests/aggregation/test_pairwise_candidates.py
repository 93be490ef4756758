"""``candidates=k`` of copeland, schulze and kemeny, and the memory guard of the p² rules."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import pairwise_matrix, schulze_strengths
from rankfusion.aggregation.kemeny import kemeny_objective


@st.composite
def separated_lists(draw):
    """Scores where every list ranks a common candidate set above all other features.

    Candidates score in [10, 13], the others in [0, 3] (ties allowed inside each block); the
    features are shuffled so the candidates are not the first indices.
    """
    c = draw(st.integers(1, 7))
    t = draw(st.integers(0, 6))
    m = draw(st.integers(1, 6))
    top = np.array(draw(st.lists(st.integers(10, 13), min_size=c * m, max_size=c * m)),
                   dtype=float).reshape(c, m)
    low = np.array(draw(st.lists(st.integers(0, 3), min_size=t * m, max_size=t * m)),
                   dtype=float).reshape(t, m)
    perm = np.array(draw(st.permutations(range(c + t))))
    scores = np.vstack([top, low])[perm]
    weights = None
    if draw(st.booleans()):
        weights = np.array(draw(st.lists(st.integers(1, 4), min_size=m, max_size=m)),
                           dtype=float)
    cand = np.sort(np.flatnonzero(perm < c))  # rows holding the candidates
    return scores, weights, c, cand


@pytest.mark.parametrize("rule", ["copeland", "schulze"])
@settings(max_examples=80, deadline=None)
@given(case=separated_lists())
def test_candidates_equal_full_rule_when_lists_separate_them(rule, case):
    scores, weights, c, cand = case
    full = aggregate(scores, rule, weights=weights)
    part = aggregate(scores, rule, weights=weights, candidates=c)
    assert part.info["n_candidates"] == c
    np.testing.assert_array_equal(np.sort(part.order[:c]), cand)
    np.testing.assert_array_equal(part.order[:c], full.order[:c])
    # the others follow in Borda's order, scoring below every candidate
    borda = aggregate(scores, "borda", weights=weights)
    tail = [f for f in borda.order if f not in set(cand)]
    np.testing.assert_array_equal(part.order[c:], tail)
    assert part.scores[part.order[c:]].max(initial=-np.inf) < part.scores[cand].min()


def _brute(lists, weights=None):
    """All optimal orders of a small problem (independent oracle)."""
    D = np.asarray(pairwise_matrix(lists, weights), dtype=float)
    p = D.shape[0]
    best, orders = np.inf, []
    for perm in itertools.permutations(range(p)):
        cost = sum(D[perm[b], perm[a]] for a in range(p) for b in range(a + 1, p))
        if cost < best - 1e-9:
            best, orders = cost, [perm]
        elif abs(cost - best) <= 1e-9:
            orders.append(perm)
    return best, orders


@settings(max_examples=60, deadline=None)
@given(case=separated_lists())
def test_kemeny_candidates_equal_full_rule_when_lists_separate_them(case):
    scores, weights, c, cand = case
    full = aggregate(scores, "kemeny", weights=weights)
    part = aggregate(scores, "kemeny", weights=weights, candidates=c)
    np.testing.assert_array_equal(np.sort(part.order[:c]), cand)
    sub = RankedLists.from_scores(scores[cand])  # same relative positions among candidates
    where = {f: i for i, f in enumerate(cand)}
    obj_part = kemeny_objective(sub, [where[f] for f in part.order[:c]], weights)
    obj_full = kemeny_objective(sub, [where[f] for f in full.order[:c]], weights)
    best, optimal_orders = _brute(sub, weights)
    assert obj_part == pytest.approx(best) and obj_full == pytest.approx(best)
    assert part.info["objective"] == pytest.approx(best) and part.info["optimal"]
    if len(optimal_orders) == 1:
        np.testing.assert_array_equal(part.order[:c], full.order[:c])


def test_candidates_use_full_positions_for_pairs():
    # candidates {0, 1} (top 1 of each list); feature 2 sits between them in list B, which
    # only matters through positions: d[0, 1] counts A and C, d[1, 0] counts B
    lists = RankedLists.from_orders([[0, 1, 2, 3], [1, 2, 0, 3], [0, 3, 1, 2]])
    d = pairwise_matrix(lists)
    res = aggregate(lists, "copeland", candidates=1)
    assert res.info["n_candidates"] == 2 and res.params == {"candidates": 1}
    assert res.order[:2].tolist() == [0, 1] and d[0, 1] == 2 and d[1, 0] == 1


def test_candidates_fraction_and_full_set():
    rng = np.random.default_rng(3)
    scores = rng.random((12, 4))
    for rule in ("copeland", "schulze", "kemeny"):
        a = aggregate(scores, rule)
        b = aggregate(scores, rule, candidates=1.0)  # every feature is a candidate
        np.testing.assert_array_equal(a.order, b.order)
        assert b.params["candidates"] == 12


@pytest.mark.parametrize("rule", ["copeland", "schulze", "kemeny"])
@pytest.mark.parametrize("bad, exc", [
    (0, ValueError), (-3, ValueError), (13, ValueError), (1.5, ValueError), (0.0, ValueError),
    (float("nan"), ValueError), (True, TypeError), ("10", TypeError), ([2], TypeError),
])
def test_candidates_hostile(rule, bad, exc):
    scores = np.random.default_rng(0).random((12, 3))
    with pytest.raises(exc, match="candidates"):
        aggregate(scores, rule, candidates=bad)


# ------------------------------------------------------------------ memory guard
@pytest.mark.parametrize("rule", ["copeland", "schulze", "kemeny"])
def test_refused_up_front_with_the_estimate_and_the_way_out(rule, monkeypatch):
    monkeypatch.setenv("RANKFUSION_MAX_MEMORY", "1M")
    scores = np.random.default_rng(0).random((2000, 3))
    with pytest.raises(ValueError, match=r"(?s)needs about .*MiB.*estimate.*1\.0 MiB.*"
                                         r"RANKFUSION_MAX_MEMORY=1M.*candidates=\d+.*borda"):
        aggregate(scores, rule)
    # with candidates the n × n problem fits
    res = aggregate(scores, rule, candidates=20)
    assert res.n_features == 2000 and res.info["n_candidates"] <= 60


def test_p_200000_is_refused_before_allocating(monkeypatch):
    monkeypatch.setenv("RANKFUSION_MAX_MEMORY", "16G")
    scores = np.random.default_rng(0).random((200_000, 3))
    for rule in ("copeland", "schulze", "kemeny"):
        with pytest.raises(ValueError, match=r"p = 200,000 features needs about 37\.3 GiB|"
                                             r"p = 200,000 features needs about [0-9.]+ GiB"):
            aggregate(scores, rule)
    with pytest.raises(ValueError, match="candidates="):
        pairwise_matrix(scores)
    with pytest.raises(ValueError, match="candidates="):
        schulze_strengths(scores)


def test_max_memory_argument_overrides_the_environment(monkeypatch):
    monkeypatch.setenv("RANKFUSION_MAX_MEMORY", "1K")
    scores = np.random.default_rng(0).random((50, 3))
    with pytest.raises(ValueError, match="RANKFUSION_MAX_MEMORY"):
        aggregate(scores, "copeland")
    assert aggregate(scores, "copeland", max_memory=float("inf")).n_features == 50
    with pytest.raises(ValueError, match="max_memory="):
        aggregate(scores, "schulze", max_memory=100)
    monkeypatch.setenv("RANKFUSION_MAX_MEMORY", "inf")
    assert aggregate(scores, "kemeny").n_features == 50


def test_default_limit_is_a_fraction_of_physical_memory(monkeypatch):
    import os

    from rankfusion.aggregation._memory import memory_limit

    monkeypatch.delenv("RANKFUSION_MAX_MEMORY", raising=False)
    limit, source = memory_limit()
    phys = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert limit == 0.75 * phys and "physical" in source


@pytest.mark.parametrize("bad", [0, -1, "8G", True, float("nan")])
def test_max_memory_hostile(bad):
    with pytest.raises(ValueError, match="max_memory"):
        aggregate(np.eye(3), "copeland", max_memory=bad)


@pytest.mark.parametrize("bad", ["abc", "-5G", "1X", "nanG"])
def test_environment_variable_hostile(bad, monkeypatch):
    monkeypatch.setenv("RANKFUSION_MAX_MEMORY", bad)
    with pytest.raises(ValueError, match="RANKFUSION_MAX_MEMORY"):
        aggregate(np.eye(3), "copeland")


# --- the memory estimate of each entry point, at its exact boundary ---------------------------
# BYTES_PER_CELL · n² (aggregation/_memory.py): pairwise_matrix b (1 byte below 256 lists,
# 8 with weights), schulze_strengths 2b (24 with weights)

def _ten_features(m=3):
    rng = np.random.default_rng(5)
    return RankedLists.from_scores(rng.random((10, m)))


@pytest.mark.parametrize("fn, weighted, need, rule", [
    (pairwise_matrix, False, 100, "pairwise"),
    (pairwise_matrix, True, 800, "pairwise"),
    (schulze_strengths, False, 200, "schulze"),
    (schulze_strengths, True, 2400, "schulze"),
])
def test_memory_estimate_boundary_of_the_matrix_functions(fn, weighted, need, rule):
    lists = _ten_features()
    w = [1.0, 2.0, 0.5] if weighted else None
    fn(lists, w, max_memory=need)  # exactly the estimate: allowed
    with pytest.raises(ValueError, match=f"^{rule} on p = 10 features needs about"):
        fn(lists, w, max_memory=need - 1)


@pytest.mark.parametrize("m, dtype", [(255, np.uint8), (256, np.uint16)])
def test_pairwise_counts_use_the_narrowest_type_that_holds_m(m, dtype):
    rng = np.random.default_rng(m)
    lists = RankedLists.from_scores(rng.random((4, m)))
    d = pairwise_matrix(lists)
    assert d.dtype == dtype
    pos = lists.positions2
    expected = (pos[:, None, :] < pos[None, :, :]).sum(axis=2)
    np.testing.assert_array_equal(d, expected)


@pytest.mark.parametrize("rule, need", [("copeland", 9), ("schulze", 18)])
def test_memory_message_counts_the_candidates(rule, need):
    feats = list("abcdefghij")
    lists = RankedLists.from_orders([feats, feats[1:] + feats[:1], feats[2:] + feats[:2]])
    aggregate(lists, rule, candidates=1, max_memory=need)  # 3 candidates: 3² cells
    with pytest.raises(ValueError, match=f"^{rule} on candidates=1 gave 3 candidates \\(the "
                                         "union of the lists' top k, of p = 10 features\\), "
                                         "which need about .*no smaller candidates"):
        aggregate(lists, rule, candidates=1, max_memory=need - 1)


@pytest.mark.parametrize("rule", ["copeland", "schulze"])
def test_candidates_message_starts_with_the_argument_name(rule):
    lists = RankedLists.from_orders([list("abc"), list("bca")])
    with pytest.raises(ValueError, match=r"^candidates must be None, an int ≥ 1 or a number in "
                                         r"\(0, 1\], got 0$"):
        aggregate(lists, rule, candidates=0)


@pytest.mark.parametrize("rule", ["schulze", "copeland", "kemeny"])
def test_refusal_with_candidates_suggests_a_smaller_k_that_fits(rule):
    # The call already passed candidates=2000: the message names it and the union it gave,
    # and suggests a smaller k that surely fits (the union of M lists' top k has at most M·k
    # features); following the suggestion works.
    import re

    rng = np.random.default_rng(0)
    lists = RankedLists.from_scores(rng.standard_normal((20_000, 30)))
    limit = 50e6
    with pytest.raises(ValueError) as err:
        aggregate(lists, rule, candidates=2000, max_memory=limit)
    msg = str(err.value)
    assert "candidates=2000 gave" in msg and "pass a smaller candidates" in msg
    k = int(re.search(r"e\.g\. candidates=(\d+)", msg).group(1))
    assert 1 <= k < 2000
    res = aggregate(lists, rule, candidates=k, max_memory=limit)
    assert res.info["n_candidates"] <= 30 * k
    # without candidates, the suggested k fits as well
    with pytest.raises(ValueError) as err:
        aggregate(lists, rule, max_memory=limit)
    k2 = int(re.search(r"pass candidates=(\d+)", str(err.value)).group(1))
    aggregate(lists, rule, candidates=k2, max_memory=limit)
