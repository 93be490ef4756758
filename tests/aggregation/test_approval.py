"""Approval-based votes over subsets (AV, SAV, sequential PAV, sequential Phragmén), each
checked against a brute-force reading of its definition in exact rational arithmetic."""

import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankfusion import RankedLists, aggregate
from rankfusion.aggregation.approval import approval_sets

RULES = ("approval", "sav", "seq_pav", "seq_phragmen")


def H(n):
    return sum((Fraction(1, i) for i in range(1, n + 1)), Fraction(0))


def brute(rule, sets, p):
    """The order the definition gives, in Fractions; ties → AV, then index."""
    av = [sum(f in s for s in sets) for f in range(p)]
    if rule == "approval":
        key = {f: Fraction(av[f]) for f in range(p)}
        return sorted(range(p), key=lambda f: (-key[f], -av[f], f))
    if rule == "sav":
        key = {f: sum((Fraction(1, len(s)) for s in sets if f in s), Fraction(0))
               for f in range(p)}
        return sorted(range(p), key=lambda f: (-key[f], -av[f], f))
    W, order = set(), []
    load = [Fraction(0)] * len(sets)
    while len(order) < p:
        rest = [f for f in range(p) if f not in W]
        if rule == "seq_pav":  # maximise Σ_i H(|S_i ∩ (W ∪ {f})|)
            val = {f: sum(H(len(s & (W | {f}))) for s in sets) for f in rest}
            best = min(rest, key=lambda f: (-val[f], -av[f], f))
        else:  # Phragmén: least (1 + Σ supporters' loads) / #supporters
            def t(f):
                sup = [i for i, s in enumerate(sets) if f in s]
                return (1 + sum(load[i] for i in sup)) / len(sup) if sup else None
            val = {f: t(f) for f in rest}
            finite = [f for f in rest if val[f] is not None]
            if finite:
                best = min(finite, key=lambda f: (val[f], -av[f], f))
                for i, s in enumerate(sets):
                    if best in s:
                        load[i] = val[best]
            else:
                best = min(rest)
        W.add(best)
        order.append(best)
    return order


@st.composite
def subsets(draw):
    p = draw(st.integers(1, 7))
    m = draw(st.integers(1, 5))
    orders = []
    for _ in range(m):
        perm = draw(st.permutations(range(p)))
        orders.append(perm[: draw(st.integers(1, p))])
    return p, orders


def as_lists(p, orders):
    return RankedLists.from_orders([[f"f{i}" for i in o] for o in orders],
                                   universe=[f"f{i}" for i in range(p)])


@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=60, deadline=None)
@given(case=subsets())
def test_each_rule_is_its_definition(rule, case):
    p, orders = case
    lists = as_lists(p, orders)
    sets = [set(o) for o in orders]
    assert aggregate(lists, rule).order.tolist() == brute(rule, sets, p)


@pytest.mark.parametrize("rule", RULES)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_top_k_of_full_lists_is_the_subset(rule, data):
    p = data.draw(st.integers(2, 7))
    m = data.draw(st.integers(1, 4))
    k = data.draw(st.integers(1, p))
    orders = [data.draw(st.permutations(range(p))) for _ in range(m)]
    full = as_lists(p, orders)
    cut = as_lists(p, [o[:k] for o in orders])
    assert aggregate(full, rule, k=k).order.tolist() == aggregate(cut, rule).order.tolist()
    assert aggregate(full, rule, k=k).order.tolist() == brute(rule, [set(o[:k]) for o in
                                                                     orders], p)


def test_small_cases_exhaustively():
    # every pair of subsets of 4 features (nonempty): 15 × 15 elections
    p = 4
    subs = [set(c) for r in range(1, p + 1) for c in itertools.combinations(range(p), r)]
    for a, b in itertools.product(subs, repeat=2):
        orders = [sorted(a), sorted(b)]
        lists = as_lists(p, orders)
        for rule in RULES:
            assert aggregate(lists, rule).order.tolist() == brute(rule, [a, b], p), (rule, a, b)


def test_av_committees_maximise_total_approval():
    rng = np.random.default_rng(0)
    p = 7
    orders = [list(rng.permutation(p)[: rng.integers(1, p + 1)]) for _ in range(5)]
    sets = [set(o) for o in orders]
    order = aggregate(as_lists(p, orders), "approval").order
    for size in range(1, p + 1):
        best = max(sum(sum(f in s for s in sets) for f in c)
                   for c in itertools.combinations(range(p), size))
        assert sum(sum(f in s for s in sets) for f in order[:size]) == best


def test_unanimous_subsets_come_first():
    p = 6
    lists = as_lists(p, [[4, 1, 2]] * 3)
    for rule in RULES:
        assert set(aggregate(lists, rule).order[:3].tolist()) == {1, 2, 4}


def test_pav_and_phragmen_are_proportional_where_av_is_not():
    # 3 lists approve {a, b}, 2 lists approve {c}: a committee of 2 gives {a, c} under the
    # proportional rules, {a, b} under AV
    lists = as_lists(3, [[0, 1], [0, 1], [0, 1], [2], [2]])
    assert aggregate(lists, "approval").order[:2].tolist() == [0, 1]
    assert aggregate(lists, "seq_pav").order[:2].tolist() == [0, 2]
    assert aggregate(lists, "seq_phragmen").order[:2].tolist() == [0, 2]


def test_scores_and_info():
    lists = as_lists(4, [[0, 1], [0], [2, 0, 1]])
    av = aggregate(lists, "approval")
    assert av.scores.tolist() == [3.0, 2.0, 1.0, 0.0]
    sv = aggregate(lists, "sav")
    np.testing.assert_allclose(sv.scores, [1 / 2 + 1 + 1 / 3, 1 / 2 + 1 / 3, 1 / 3, 0])
    pav = aggregate(lists, "seq_pav")
    assert pav.scores[pav.order].tolist() == [4.0, 3.0, 2.0, 1.0]
    assert pav.info["gains"][0] == 3.0
    ph = aggregate(lists, "seq_phragmen")
    assert ph.info["gains"][0] == pytest.approx(1 / 3)
    assert np.isinf(ph.info["gains"][3])
    assert ph.tiebreak_name == "approval"


def test_approval_sets_fraction_and_ties():
    lists = RankedLists.from_scores(np.array([[3.0], [2.0], [2.0], [1.0]]))
    # positions 1, 2.5, 2.5, 4: a top 2 leaves the tied pair out whole
    assert approval_sets(lists, 2)[:, 0].tolist() == [True, False, False, False]
    assert approval_sets(lists, 3)[:, 0].tolist() == [True, True, True, False]
    assert approval_sets(lists, 0.5)[:, 0].tolist() == [True, False, False, False]
    assert approval_sets(lists)[:, 0].all()


@pytest.mark.parametrize("kw, exc, match", [
    ({"k": 0}, ValueError, "k"),
    ({"k": -2}, ValueError, "k"),
    ({"k": 1.5}, ValueError, "k"),
    ({"k": "3"}, TypeError, "k"),
    ({"k": True}, TypeError, "k"),
    ({"k": 99}, ValueError, "k"),
    ({"weights": [1.0, 1.0]}, (TypeError, ValueError), "weight"),
])
@pytest.mark.parametrize("rule", RULES)
def test_hostile_parameters(rule, kw, exc, match):
    scores = np.array([[3.0, 2.0], [2.0, 3.0], [1.0, 1.0]])
    before = scores.copy()
    with pytest.raises(exc, match=match):
        aggregate(scores, rule, **kw)
    np.testing.assert_array_equal(scores, before)
