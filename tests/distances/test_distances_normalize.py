"""Normalised distances: oracles are scipy's Kendall τ (distance = (1 − τ)/2 for full orders)
and the brute-force maximum over all permutations / disjoint top-k lists."""

from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kendalltau

from rankfusion.distances import kendall_tau, max_distance, spearman_footrule


@given(st.permutations(list(range(7))))
@settings(max_examples=60, deadline=None)
def test_normalised_kendall_is_one_minus_tau_over_two(perm):
    ref = list(range(7))
    tau = kendalltau(np.argsort(ref), np.argsort(perm)).statistic
    assert kendall_tau(perm, ref, normalize=True) == pytest.approx((1 - tau) / 2)


@pytest.mark.parametrize("p", [1, 2, 3, 4, 5, 6])
def test_full_maxima_are_the_largest_over_all_permutations(p):
    ref = list(range(p))
    foot = max(spearman_footrule(list(q), ref) for q in permutations(ref))
    kend = max(kendall_tau(list(q), ref) for q in permutations(ref))
    assert max_distance(p, kendall=False, top_k=False) == foot
    assert max_distance(p, kendall=True, top_k=False) == kend
    assert spearman_footrule(ref[::-1], ref, normalize=True) == (1.0 if p > 1 else 0.0)


@pytest.mark.parametrize("k", [1, 2, 3, 5])
@pytest.mark.parametrize("penalty", [0.0, 0.5, 1.0])
def test_top_k_maxima_are_reached_by_disjoint_lists(k, penalty):
    a, b = list(range(k)), list(range(k, 2 * k))
    assert spearman_footrule(a, b, k=k, normalize=True) == 1.0
    assert kendall_tau(a, b, k=k, penalty=penalty, normalize=True) == 1.0
    # and nothing over a small universe exceeds it
    univ = list(range(k + 2))
    worst = max(kendall_tau(list(q)[:k], b[:k] if k < 3 else a, k=k, penalty=penalty,
                            normalize=True) for q in permutations(univ, k))
    assert worst <= 1.0


def test_demo_footrule_of_rank_vectors_equals_normalised_footrule_of_orders():
    rng = np.random.default_rng(0)
    r1 = rng.permutation(50) + 1
    r2 = rng.permutation(50) + 1
    by_hand = np.abs(r1 - r2).sum() / (50 * 50 // 2)
    assert spearman_footrule(np.argsort(r1), np.argsort(r2), normalize=True) == pytest.approx(
        by_hand)


@pytest.mark.parametrize(("kwargs", "exc", "match"), [
    ({"normalize": "maybe"}, TypeError, "normalize"),
    ({"normalize": 2}, TypeError, "normalize"),
    ({"normalize": True, "scores": [1.0, 0.5, 0.0]}, ValueError, "unweighted"),
    ({"penalty": True}, TypeError, "penalty"),
    ({"penalty": "0.5"}, TypeError, "penalty"),
    ({"penalty": 1.5}, ValueError, "penalty"),
    ({"penalty": float("nan")}, ValueError, "penalty"),
    ({"k": 0}, ValueError, "k"),
    ({"k": 2.0}, TypeError, "k"),
])
def test_hostile_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        kendall_tau([1, 2, 3], [3, 2, 1], **kwargs)
