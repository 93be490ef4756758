"""Score-based rules against direct transcriptions of their formulas, on the scores themselves.

The transcriptions loop over features and lists in plain Python, from the definitions in the
docstrings (Fox & Shaw 1994 for CombMNZ; Izetta et al. 2017 for the mean of normalised scores),
and never call the code under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import statistics


def _combmnz_transcription(vals, ranked, weights=None):
    """Σ_l w_l · (s_il − min_l) / (max_l − min_l) × #{l : feature i ranked by l}.

    min and max are taken over the features list l ranks; a constant list gives 0; a feature a
    list did not rank contributes 0 and is not counted."""
    p, m = vals.shape
    w = [1.0] * m if weights is None else list(weights)
    out = []
    for i in range(p):
        total, hits = 0.0, 0
        for j in range(m):
            if not ranked[i][j]:
                continue
            col = [vals[k][j] for k in range(p) if ranked[k][j]]
            lo, hi = min(col), max(col)
            total += w[j] * ((vals[i][j] - lo) / (hi - lo) if hi > lo else 0.0)
            hits += 1
        out.append(total * hits)
    return np.array(out)


def _order_by(key_desc, mean_r):
    """Features by key (higher first), then mean relative ranking (higher first), then index."""
    p = len(key_desc)
    return np.array(sorted(range(p), key=lambda i: (-round(key_desc[i], 12),
                                                    -round(mean_r[i], 12), i)))


def _mean_relative(positions, weights=None):
    p, m = positions.shape
    w = np.ones(m) if weights is None else np.asarray(weights, float)
    return 1.0 - (positions @ w) / (w.sum() * p)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("weighted", [False, True])
def test_combmnz_scores_equal_the_transcription(seed, weighted):
    rng = np.random.default_rng(seed)
    p, m = 9, 4
    # lists on very different scales and signs, so that a monotone transform of the scores
    # before normalising (e.g. exp) changes the normalised values
    scores = rng.normal(size=(p, m)) * np.array([0.5, 3.0, 40.0, 1.0]) + np.array([0, -2, 5, 1])
    scores[:, 3] = np.round(scores[:, 3])  # ties inside one list
    weights = rng.uniform(0.5, 2.0, size=m) if weighted else None
    lists = RankedLists.from_scores(scores)
    res = aggregate(lists, "combmnz", weights=weights)
    expected = _combmnz_transcription(scores, np.ones((p, m), bool), weights)
    np.testing.assert_allclose(res.scores, expected, rtol=1e-12, atol=1e-12)
    mean_r = _mean_relative(lists.positions, weights)
    np.testing.assert_array_equal(res.order, _order_by(expected, mean_r))


def test_combmnz_constant_list_contributes_zero():
    scores = np.array([[3.0, 1.0], [2.0, 1.0], [1.0, 1.0]])
    res = aggregate(scores, "combmnz")
    # list 2 is constant: 0 for everybody; each feature is ranked by 2 lists
    np.testing.assert_allclose(res.scores, [2.0, 1.0, 0.0])


def test_combmnz_top_k_orders_use_minus_position():
    orders = [["a", "b", "c"], ["b", "d"], ["c", "a", "e", "b"]]
    lists = RankedLists.from_orders(orders)
    feats = list(lists.features)
    ranked = lists.ranked
    vals = -lists.positions.astype(float)
    res = aggregate(lists, "combmnz")
    expected = _combmnz_transcription(vals, ranked)
    np.testing.assert_allclose(res.scores, expected, rtol=1e-12)
    # worked by hand: list 1 a=1,b=.5,c=0; list 2 b=1,d=0; list 3 c=1,a=2/3,e=1/3,b=0
    by_hand = {"a": (1 + 2 / 3) * 2, "b": (0.5 + 1 + 0) * 3, "c": (0 + 1) * 2, "d": 0.0,
               "e": (1 / 3) * 1}
    np.testing.assert_allclose(res.scores, [by_hand[f] for f in feats], rtol=1e-12)
    assert res.top(1) == ["b"]


@pytest.mark.parametrize("seed", [0, 1])
def test_mean_score_minmax_equals_the_transcription(seed):
    rng = np.random.default_rng(seed)
    p, m = 8, 3
    scores = rng.normal(size=(p, m)) * np.array([1.0, 100.0, 0.01]) + np.array([3.0, -50, 0])
    scores[:, 2] = 0.25  # a constant list gives 0
    weights = np.array([1.0, 2.0, 0.5])
    res = aggregate(scores, "mean_score", normalize="minmax", weights=weights)
    expected = []
    for i in range(p):
        acc = 0.0
        for j in range(m):
            lo, hi = scores[:, j].min(), scores[:, j].max()
            acc += weights[j] * ((scores[i, j] - lo) / (hi - lo) if hi > lo else 0.0)
        expected.append(acc / weights.sum())
    np.testing.assert_allclose(res.scores, expected, rtol=1e-12, atol=1e-15)
    np.testing.assert_array_equal(res.order, np.argsort(-np.array(expected), kind="stable"))


def test_average_sd_reports_the_weighted_population_sd():
    rng = np.random.default_rng(5)
    scores = rng.normal(size=(7, 4))
    weights = np.array([1.0, 3.0, 0.5, 2.0])
    lists = RankedLists.from_scores(scores)
    r = lists.relative
    res = aggregate(lists, "average_sd", weights=weights)
    mu = [sum(weights[j] * r[i, j] for j in range(4)) / weights.sum() for i in range(7)]
    sd = [np.sqrt(sum(weights[j] * (r[i, j] - mu[i]) ** 2 for j in range(4)) / weights.sum())
          for i in range(7)]
    np.testing.assert_allclose(res.tiebreak, sd, rtol=1e-12)
    assert res.tiebreak_name == "sd_relative"
    np.testing.assert_allclose(aggregate(lists, "average_sd").tiebreak, r.std(axis=1),
                               rtol=1e-12)


@pytest.mark.parametrize("method,what", [("best_rank", "a maximum"), ("median", "a quantile"),
                                         ("q3_sd", "a quantile")])
def test_rules_without_weights_say_why(method, what):
    scores = np.arange(12.0).reshape(4, 3)
    expected = (f"{method} takes no list weights: {what} has no weighted form in the papers "
                "(no weighted quantile is defined); drop weights= or choose a mean-based rule")
    lists = RankedLists.from_scores(scores)
    # aggregate() refuses the weights first (the rule is registered without them); the rule
    # function itself, called directly, says why
    with pytest.raises(ValueError, match="takes no list weights"):
        aggregate(lists, method, weights=[1, 1, 1])
    with pytest.raises(ValueError) as err:
        getattr(statistics, method)(lists, weights=np.ones(3))
    assert str(err.value) == expected


def test_mean_score_normalize_type_error_names_the_type():
    with pytest.raises(TypeError, match="normalize must be None, 'minmax' or 'rank', got 3"):
        aggregate(np.arange(6.0).reshape(3, 2), "mean_score", normalize=3)


def _widest_paths_transcription(d):
    """Schulze (2011) §2.3: links where d[i, j] > d[j, i], Floyd–Warshall over (max, min)."""
    p = d.shape[0]
    P = [[d[i][j] if i != j and d[i][j] > d[j][i] else 0 for j in range(p)] for i in range(p)]
    for k in range(p):
        for i in range(p):
            if i == k:
                continue
            for j in range(p):
                if j not in (i, k):
                    P[i][j] = max(P[i][j], min(P[i][k], P[k][j]))
    return np.array(P)


@pytest.mark.parametrize("seed", [0, 1])
def test_schulze_strengths_weighted_are_rank_codes_of_the_counts(seed):
    from rankfusion.aggregation import pairwise_matrix, schulze_strengths

    rng = np.random.default_rng(seed)
    lists = RankedLists.from_scores(rng.normal(size=(6, 5)))
    weights = rng.uniform(0.2, 3.0, size=5)
    # weighted counts, by hand over the lists
    pos = lists.positions
    d = np.array([[sum(weights[m] for m in range(5) if pos[i, m] < pos[j, m]) for j in range(6)]
                  for i in range(6)])
    np.testing.assert_allclose(pairwise_matrix(lists, weights), d, rtol=1e-12)
    # the distinct values of d coded 1 (smallest) … K, in order
    vals = np.unique(pairwise_matrix(lists, weights))
    codes = np.searchsorted(vals, pairwise_matrix(lists, weights)) + 1
    P = schulze_strengths(lists, weights)
    assert np.issubdtype(P.dtype, np.integer)
    off = ~np.eye(6, dtype=bool)  # the diagonal (paths from i back to i) is never compared
    np.testing.assert_array_equal(P[off], _widest_paths_transcription(codes)[off])
    # unweighted: the vote counts themselves, in an unsigned integer type
    P1 = schulze_strengths(lists)
    assert np.issubdtype(P1.dtype, np.unsignedinteger)
    counts = np.array([[sum(pos[i, m] < pos[j, m] for m in range(5)) for j in range(6)]
                       for i in range(6)])
    np.testing.assert_array_equal(P1[off], _widest_paths_transcription(counts)[off])
