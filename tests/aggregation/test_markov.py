"""Markov-chain rules MC1–MC4 (Dwork et al. 2001): the paper's chains checked against a literal
reading of their definitions, PyFLAGR's against its stored outputs (tests/fixtures/markov)."""

import itertools
import json
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankfusion import RankedLists, aggregate
from rankfusion.aggregation.markov import stationary_distribution, transition_matrix

FIX = pathlib.Path(__file__).parents[1] / "fixtures" / "markov"
CASES = sorted(p.stem for p in FIX.glob("*.json"))
CHAINS = ("mc1", "mc2", "mc3", "mc4")
PRINTED = 5.000001e-7  # PyFLAGR writes its scores with 6 decimals


def _load(case):
    return json.loads((FIX / f"{case}.json").read_text())


def _check_against(lists, rule, items, scores):
    c = aggregate(lists, rule, variant="pyflagr")
    ours = dict(zip(lists.features, c.scores))
    got = np.array([ours[i] for i in items])
    np.testing.assert_allclose(got, scores, rtol=0, atol=PRINTED)
    ref = dict(zip(items, scores))
    seq = np.array([ref[lists.features[i]] for i in c.order])
    # our order never puts a feature after one PyFLAGR scores lower (beyond its printing)
    assert (np.diff(seq) <= 2 * PRINTED).all()
    if len(set(scores)) == len(scores):  # no printed ties: the very same order
        assert [lists.features[i] for i in c.order] == items


def test_fixtures_are_present():
    assert {"rand1000x5", "topk60x5", "wine5", "breast_cancer5"} <= set(CASES)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("rule", CHAINS)
def test_pyflagr_variant_equals_pyflagr_fixtures(case, rule):
    doc = _load(case)
    lists = RankedLists.from_orders(doc["orders"])
    out = doc["outputs"][rule]
    _check_against(lists, rule, out["items"], out["scores"])


@pytest.mark.parametrize("rule", CHAINS)
def test_pyflagr_variant_equals_pyflagr_live(rule, tmp_path):
    mc = pytest.importorskip("pyflagr.MarkovChains")
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(7)
    orders = [[f"x{i:03d}" for i in rng.permutation(40)[:25]] for _ in range(6)]
    rows = [("1", f"L{l}", f, r + 1, float(25 - r), "t")
            for l, o in enumerate(orders) for r, f in enumerate(o)]
    cls = getattr(mc, rule.upper())
    out, _ = cls(eval_pts=10).aggregate(input_df=pd.DataFrame(rows), out_dir=str(tmp_path))
    _check_against(RankedLists.from_orders(orders), rule, list(out["ItemID"]),
                   list(out["Score"]))


# ------------------------------------------------------------------ the paper's chains
def _literal(chain, lists):
    """T read off the definitions in Dwork et al. (2001, §4.1), one state at a time."""
    pos = lists.positions
    ranked = lists.ranked
    p, m = pos.shape
    T = np.zeros((p, p))
    for i in range(p):
        L_i = [l for l in range(m) if ranked[i, l]]
        if chain == "mc1":  # uniform over the multiset of features ranked ≥ i by a list of L_i
            multiset = [j for l in L_i for j in range(p)
                        if ranked[j, l] and pos[j, l] <= pos[i, l]]
            for j in multiset:
                T[i, j] += 1.0 / len(multiset)
        elif chain == "mc2":  # a list of L_i, then a feature it ranks at least as high
            for l in L_i:
                better = [j for j in range(p) if ranked[j, l] and pos[j, l] <= pos[i, l]]
                for j in better:
                    T[i, j] += 1.0 / len(L_i) / len(better)
        elif chain == "mc3":  # a list of L_i, a feature it ranks; move if higher
            for l in L_i:
                members = [j for j in range(p) if ranked[j, l]]
                for j in members:
                    target = j if pos[j, l] < pos[i, l] else i
                    T[i, target] += 1.0 / len(L_i) / len(members)
        else:  # a feature uniformly; move if a majority of the lists ranking both prefer it
            for j in range(p):
                both = [l for l in range(m) if ranked[i, l] and ranked[j, l]]
                above = sum(pos[j, l] < pos[i, l] for l in both)
                T[i, j if (j != i and above > len(both) / 2) else i] += 1.0 / p
        if not L_i:
            T[i, i] = 1.0
    return T


@st.composite
def partial_orders(draw):
    p = draw(st.integers(2, 7))
    m = draw(st.integers(1, 4))
    orders = []
    for _ in range(m):
        perm = draw(st.permutations(range(p)))
        k = draw(st.integers(1, p))
        orders.append([f"v{i}" for i in perm[:k]])
    return orders


@pytest.mark.parametrize("chain", CHAINS)
@settings(max_examples=40, deadline=None)
@given(orders=partial_orders())
def test_paper_chains_follow_their_definitions(chain, orders):
    lists = RankedLists.from_orders(orders)
    np.testing.assert_allclose(transition_matrix(lists, chain), _literal(chain, lists),
                               atol=1e-12)


@pytest.mark.parametrize("chain", CHAINS)
@settings(max_examples=25, deadline=None)
@given(vals=st.lists(st.integers(0, 2), min_size=12, max_size=12))
def test_paper_chains_follow_their_definitions_with_ties(chain, vals):
    lists = RankedLists.from_scores(np.array(vals, dtype=float).reshape(4, 3))
    T = transition_matrix(lists, chain)
    np.testing.assert_allclose(T, _literal(chain, lists), atol=1e-12)
    np.testing.assert_allclose(T.sum(axis=1), 1.0)


def test_mc4_is_pyflagrs_on_full_lists_with_an_odd_count():
    doc = _load("rand200x7")
    lists = RankedLists.from_orders(doc["orders"])
    a = aggregate(lists, "mc4")
    b = aggregate(lists, "mc4", variant="pyflagr")
    np.testing.assert_allclose(a.scores, b.scores, atol=1e-15)
    ref = doc["outputs"]["mc4"]
    _check_against(lists, "mc4", ref["items"], ref["scores"])


def test_the_stationary_vector_is_a_fixed_point():
    rng = np.random.default_rng(3)
    lists = RankedLists.from_scores(rng.normal(size=(30, 5)))
    T = transition_matrix(lists, "mc2")
    pi, n = stationary_distribution(T, max_iter=2000, tol=1e-15)
    Te = 0.85 * T + 0.15 / 30
    np.testing.assert_allclose(pi @ Te, pi, atol=1e-13)
    assert pi.sum() == pytest.approx(1.0)
    assert 0 < n < 1999
    c = aggregate(lists, "mc2", max_iter=2000, tol=1e-15)
    np.testing.assert_allclose(c.scores, pi, atol=1e-12)
    assert c.info["n_iter"] == n


def test_iteration_count_follows_flagr():
    lists = RankedLists.from_scores(np.random.default_rng(0).normal(size=(20, 3)))
    assert aggregate(lists, "mc4", max_iter=1).info["n_iter"] == 0  # the uniform vector
    np.testing.assert_allclose(aggregate(lists, "mc4", max_iter=1).scores, 1 / 20)
    assert aggregate(lists, "mc4", max_iter=5).info["n_iter"] == 4


def test_ties_in_the_chain_go_to_the_mean_relative_ranking():
    # two features swapped between two lists have equal MC4 probability; borda decides
    scores = np.array([[3.0, 2.0], [2.0, 3.0], [1.0, 1.0]])
    for rule in CHAINS:
        c = aggregate(scores, rule)
        assert c.tiebreak_name == "mean_relative"
        assert c.scores[0] == c.scores[1]
        assert c.order.tolist() == [0, 1, 2]


def test_candidates_restrict_the_chain():
    rng = np.random.default_rng(5)
    scores = rng.normal(size=(40, 4))
    scores[:5] += 10  # five features on top of every list
    full = aggregate(scores, "mc4")
    cut = aggregate(scores, "mc4", candidates=5)
    assert cut.info["n_candidates"] == 5
    assert set(cut.order[:5].tolist()) == set(range(5))
    assert set(full.order[:5].tolist()) == set(range(5))
    assert (cut.scores[5:] == 0).all()
    sub = aggregate(scores[:5], "mc4")
    np.testing.assert_array_equal(cut.order[:5], sub.order)


def test_dwork_mc3_is_not_reversed_but_pyflagrs_is():
    scores = np.tile(np.arange(10, 0, -1.0)[:, None], (1, 3))
    assert aggregate(scores, "mc3").order.tolist() == list(range(10))
    assert aggregate(scores, "mc3", variant="pyflagr").order.tolist() == list(range(9, -1, -1))


@pytest.mark.parametrize("kw, exc, match", [
    ({"variant": "flagr"}, ValueError, "variant"),
    ({"variant": 1}, (TypeError, ValueError), "variant"),
    ({"ergodic_number": -0.1}, ValueError, "ergodic_number"),
    ({"ergodic_number": 1.5}, ValueError, "ergodic_number"),
    ({"ergodic_number": "a"}, TypeError, "ergodic_number"),
    ({"ergodic_number": float("nan")}, ValueError, "ergodic_number"),
    ({"max_iter": 0}, ValueError, "max_iter"),
    ({"max_iter": 2.5}, TypeError, "max_iter"),
    ({"tol": -1.0}, ValueError, "tol"),
    ({"candidates": 0}, ValueError, "candidates"),
    ({"candidates": 1.5}, ValueError, "candidates"),
    ({"max_memory": -1}, ValueError, "max_memory"),
    ({"max_memory": 10.0}, ValueError, "MiB"),
    ({"weights": [1.0, 2.0]}, (TypeError, ValueError), "weight"),
])
@pytest.mark.parametrize("rule", CHAINS)
def test_hostile_parameters(rule, kw, exc, match):
    scores = np.array([[3.0, 2.0], [2.0, 3.0], [1.0, 1.0]])
    before = scores.copy()
    with pytest.raises(exc, match=match):
        aggregate(scores, rule, **kw)
    np.testing.assert_array_equal(scores, before)


def test_transition_matrix_refuses_an_unknown_chain():
    with pytest.raises(ValueError, match="chain must be one of"):
        transition_matrix(np.eye(3), "mc5")


def test_every_probability_is_finite_with_unranked_universe_members():
    lists = RankedLists.from_orders([["a", "b"], ["b"]], universe=["a", "b", "c"])
    for rule in CHAINS:
        for variant in ("dwork", "pyflagr"):
            c = aggregate(lists, rule, variant=variant)
            assert np.isfinite(c.scores).all()
            assert c.scores.sum() == pytest.approx(1.0)


def test_ranks_are_small_integers_everywhere():
    # a tiny exhaustive sweep: every pair of orders of 3 features, each chain a distribution
    for a, b in itertools.product(itertools.permutations(range(3)), repeat=2):
        lists = RankedLists.from_orders([[str(i) for i in a], [str(i) for i in b]])
        for rule in CHAINS:
            assert aggregate(lists, rule).scores.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("rule, variant", [("mc4", "dwork"), ("mc1", "pyflagr"),
                                           ("mc2", "pyflagr"), ("mc4", "pyflagr")])
def test_the_coded_iteration_equals_the_dense_one(rule, variant):
    # these chains run on uint8 move codes; the dense matrix gives the same probabilities
    orders = [[f"x{i:02d}" for i in np.random.default_rng(s).permutation(30)[:20]]
              for s in range(4)]
    lists = RankedLists.from_orders(orders)
    T = transition_matrix(lists, rule, variant=variant)
    pi, _ = stationary_distribution(T, max_iter=300, tol=1e-15)
    c = aggregate(lists, rule, variant=variant, max_iter=300, tol=1e-15)
    np.testing.assert_allclose(c.scores, pi, rtol=1e-9, atol=1e-13)
