"""Invariants of every rule (hypothesis): permutation of lists, relabelling of features,
unanimity, Condorcet winners, K-First with k = p."""

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import pairwise_matrix

RULES = ["mean_score", "borda", "median", "average_sd", "best_rank", "q3_sd", "kfirst",
         "copeland", "schulze", "rrf", "combmnz"]


@st.composite
def untied_scores(draw, max_p=9, max_m=7):
    """Scores of M full lists without ties inside a list (each column a permutation)."""
    p = draw(st.integers(1, max_p))
    m = draw(st.integers(1, max_m))
    cols = [draw(st.permutations(range(p))) for _ in range(m)]
    return np.array(cols, dtype=float).T


@st.composite
def tied_scores(draw, max_p=9, max_m=7):
    p = draw(st.integers(1, max_p))
    m = draw(st.integers(1, max_m))
    vals = draw(st.lists(st.integers(0, 3), min_size=p * m, max_size=p * m))
    return np.array(vals, dtype=float).reshape(p, m)


@settings(max_examples=60, deadline=None)
@given(scores=untied_scores(), data=st.data())
def test_permuting_lists_changes_nothing(scores, data):
    perm = data.draw(st.permutations(range(scores.shape[1])))
    for method in RULES:
        a = aggregate(scores, method)
        b = aggregate(scores[:, perm], method)
        np.testing.assert_array_equal(a.order, b.order, err_msg=method)


@settings(max_examples=60, deadline=None)
@given(scores=tied_scores(), data=st.data())
def test_permuting_lists_changes_nothing_with_ties(scores, data):
    perm = list(data.draw(st.permutations(range(scores.shape[1]))))
    weights = data.draw(st.lists(st.floats(0.1, 3.0), min_size=scores.shape[1],
                                 max_size=scores.shape[1]))
    for method in RULES:
        a = aggregate(scores, method)
        b = aggregate(scores[:, perm], method)
        np.testing.assert_array_equal(a.order, b.order, err_msg=method)
        np.testing.assert_array_equal(a.scores, b.scores, err_msg=method)
        if method not in ("median", "q3_sd", "best_rank"):
            wa = aggregate(scores, method, weights=weights)
            wb = aggregate(scores[:, perm], method, weights=np.array(weights)[perm])
            np.testing.assert_array_equal(wa.order, wb.order, err_msg=method)


@settings(max_examples=60, deadline=None)
@given(scores=untied_scores(), data=st.data())
def test_relabelling_features_permutes_the_output(scores, data):
    p = scores.shape[0]
    perm = np.array(data.draw(st.permutations(range(p))))  # new feature i is old perm[i]
    for method in RULES:
        a = aggregate(scores, method)
        b = aggregate(scores[perm], method)
        np.testing.assert_array_equal(b.scores, a.scores[perm], err_msg=method)
        second = a.tiebreak if a.tiebreak is not None else a.scores
        keys = set(zip(np.round(a.scores, 9), np.round(second, 9)))
        if len(keys) == p:  # no key ties: the index tie break plays no part
            np.testing.assert_array_equal(perm[b.order], a.order, err_msg=method)


@settings(max_examples=40, deadline=None)
@given(p=st.integers(1, 12), m=st.integers(1, 6), data=st.data())
def test_unanimous_lists_come_back_unchanged(p, m, data):
    order = data.draw(st.permutations(range(p)))
    scores = np.empty((p, m))
    scores[list(order), :] = np.arange(p, 0, -1)[:, None]
    for method in RULES:
        assert aggregate(scores, method).order.tolist() == list(order), method


@settings(max_examples=80, deadline=None)
@given(scores=untied_scores(max_p=8, max_m=7))
def test_condorcet_winner_comes_first(scores):
    lists = RankedLists.from_scores(scores)
    d = pairwise_matrix(lists).astype(int)
    p = d.shape[0]
    winners = [i for i in range(p) if all(d[i, j] > d[j, i] for j in range(p) if j != i)]
    assume(winners)
    for method in ("copeland", "schulze"):
        assert aggregate(lists, method).order[0] == winners[0], method


@settings(max_examples=40, deadline=None)
@given(scores=tied_scores())
def test_kfirst_with_k_p_is_linear_in_average_sd(scores):
    p = scores.shape[0]
    kf = aggregate(scores, "kfirst", k=p)
    av = aggregate(scores, "average_sd")
    np.testing.assert_allclose(kf.scores, av.scores + 1.0 / p, atol=1e-12)
    # same primary key: the features kfirst puts in a block of equal keys are the same
    np.testing.assert_array_equal(np.argsort(-kf.scores, kind="stable"),
                                  np.argsort(-av.scores, kind="stable"))
