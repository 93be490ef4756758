"""Distances of Bouaguel et al. (2013) / RankAggreg 0.6.6 against direct O(p²) transcriptions."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankfusion.distances import distance_matrix, kendall_tau, spearman_footrule


# ------------------------------------------------------------------ direct transcriptions
def _positions(a, b, k):
    a, b = list(a)[:k], list(b)[:k]
    union = list(dict.fromkeys(a + b))
    ra = {f: a.index(f) + 1 if f in a else k + 1 for f in union}
    rb = {f: b.index(f) + 1 if f in b else k + 1 for f in union}
    return union, ra, rb


def naive_footrule(a, b, k=None, scores=None):
    """Σ_{f∈U} |r_a − r_b| (· |W_b(r_a) − W_b(r_b)|, W_b(k+1) = 0), term by term."""
    k = len(a) if k is None else k
    union, ra, rb = _positions(a, b, k)

    def w(r):
        return 0.0 if r == k + 1 else scores[r - 1]

    total = 0.0
    for f in union:
        term = abs(ra[f] - rb[f])
        if scores is not None:
            term *= abs(w(ra[f]) - w(rb[f]))
        total += term
    return total


def naive_kendall(a, b, k=None, penalty=0.0, scores=None):
    """Σ over pairs of the union of K_ij (1 discordant, p tied in one list only) · weight gap."""
    k = len(a) if k is None else k
    union, ra, rb = _positions(a, b, k)
    total = 0.0
    for i, j in itertools.combinations(union, 2):
        da, db = ra[i] - ra[j], rb[i] - rb[j]
        if da * db < 0:
            term = 1.0
        elif (da == 0) != (db == 0):
            term = penalty
        else:
            term = 0.0
        if scores is not None:
            term *= abs(scores[min(rb[i], k) - 1] - scores[min(rb[j], k) - 1])
        total += term
    return total


@st.composite
def topk_case(draw):
    n = draw(st.integers(1, 14))
    k = draw(st.integers(1, n))
    perm_a = draw(st.permutations(list(range(n))))
    perm_b = draw(st.permutations(list(range(n))))
    la = draw(st.integers(k, n))
    lb = draw(st.integers(k, n))
    scores = draw(st.lists(st.floats(0, 1, allow_nan=False), min_size=n, max_size=n))
    penalty = draw(st.sampled_from([0.0, 0.25, 0.5, 1.0]))
    return list(perm_a[:la]), list(perm_b[:lb]), k, scores, penalty


@settings(max_examples=300, deadline=None)
@given(topk_case())
def test_topk_distances_equal_definitions(case):
    a, b, k, scores, penalty = case
    assert spearman_footrule(a, b, k=k) == naive_footrule(a, b, k)
    assert kendall_tau(a, b, k=k, penalty=penalty) == pytest.approx(
        naive_kendall(a, b, k, penalty), abs=1e-12)
    assert spearman_footrule(a, b, k=k, scores=scores) == pytest.approx(
        naive_footrule(a, b, k, scores), rel=1e-12, abs=1e-12)
    assert kendall_tau(a, b, k=k, penalty=penalty, scores=scores) == pytest.approx(
        naive_kendall(a, b, k, penalty, scores), rel=1e-12, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 40).flatmap(lambda n: st.tuples(
    st.permutations(list(range(n))), st.permutations(list(range(n))),
    st.lists(st.floats(-5, 5, allow_nan=False), min_size=n, max_size=n))))
def test_full_distances_equal_definitions(case):
    a, b, scores = case
    assert kendall_tau(a, b) == naive_kendall(a, b)
    assert spearman_footrule(a, b) == naive_footrule(a, b)
    assert kendall_tau(a, b, scores=scores) == pytest.approx(
        naive_kendall(a, b, scores=scores), rel=1e-10, abs=1e-10)
    assert spearman_footrule(a, b, scores=scores) == pytest.approx(
        naive_footrule(a, b, scores=scores), rel=1e-12, abs=1e-12)


def test_full_kendall_large_matches_counting():
    rng = np.random.default_rng(0)
    a, b = rng.permutation(3000), rng.permutation(3000)
    pos_b = np.empty(3000, dtype=int)
    pos_b[b] = np.arange(3000)
    v = pos_b[a]
    expected = int(sum((v[i] > v[i + 1:]).sum() for i in range(3000)))
    assert kendall_tau(a, b) == expected


def test_paper_values_and_symmetry():
    # disjoint top-k lists: footrule k(k + 1) (Bouaguel §3.2.1), Kendall k² + penalty pairs
    assert spearman_footrule(list("abc"), list("def"), k=3) == 12
    assert kendall_tau(list("abc"), list("def"), k=3) == 9
    assert kendall_tau(list("abc"), list("def"), k=3, penalty=1.0) == 15
    assert kendall_tau(list("abcd"), list("dcba")) == 6
    rng = np.random.default_rng(1)
    for _ in range(20):
        a, b = list(rng.permutation(12)[:6]), list(rng.permutation(12)[:6])
        assert spearman_footrule(a, b, k=5) == spearman_footrule(b, a, k=5)
        assert kendall_tau(a, b, k=5, penalty=0.5) == kendall_tau(b, a, k=5, penalty=0.5)


def test_distance_matrix_matches_pairwise_calls():
    rng = np.random.default_rng(2)
    cands = np.array([rng.permutation(30)[:8] for _ in range(7)])
    lists = np.array([rng.permutation(30)[:10] for _ in range(4)])
    scores = np.sort(rng.random((4, 10)), axis=1)[:, ::-1]
    for dist, f in (("spearman", spearman_footrule), ("kendall", kendall_tau)):
        for sc in (None, scores):
            out = distance_matrix(cands, lists, distance=dist, k=8, scores=sc)
            for c in range(7):
                for l in range(4):
                    kw = {} if sc is None else {"scores": sc[l]}
                    assert out[c, l] == pytest.approx(f(cands[c], lists[l], k=8, **kw))
    full = distance_matrix([rng.permutation(9) for _ in range(3)],
                           [rng.permutation(9) for _ in range(2)], distance="kendall")
    assert full.shape == (3, 2)


def test_names_work_and_bad_input_is_refused():
    assert spearman_footrule(["x", "y", "z"], ["z", "y", "x"]) == 4
    with pytest.raises(ValueError, match="twice"):
        kendall_tau([1, 1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="same elements"):
        kendall_tau([1, 2, 3], [1, 2, 4])
    with pytest.raises(ValueError, match="exceeds"):
        spearman_footrule([1, 2], [1, 2, 3], k=3)
    with pytest.raises(ValueError, match="penalty"):
        kendall_tau([1, 2], [2, 1], penalty=2)
    with pytest.raises(ValueError, match="scores"):
        spearman_footrule([1, 2, 3], [3, 2, 1], scores=[1.0])
    with pytest.raises(ValueError, match="distance"):
        distance_matrix([[1, 2]], [[2, 1]], distance="footrule")


def test_docstring_examples():
    import doctest

    import rankfusion.distances.measures as distances
    from rankfusion.aggregation import cross_entropy, genetic, kemeny, rra

    for module in (distances, kemeny, rra, genetic, cross_entropy):
        result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert result.failed == 0, module.__name__
        assert result.attempted > 0, module.__name__


def test_kendall_distance_is_the_name_and_kendall_tau_its_alias():
    import rankfusion
    from rankfusion import distances
    from rankfusion.distances import kendall_distance

    assert distances.kendall_tau is kendall_distance
    assert rankfusion.kendall_tau is rankfusion.kendall_distance is kendall_distance
    assert {"kendall_distance", "kendall_tau"} <= set(distances.__all__)
    assert kendall_distance([1, 2, 3], [3, 2, 1]) == kendall_tau([1, 2, 3], [3, 2, 1]) == 3.0
