"""The rules of docs/design.md, 'Aggregation rules', against
worked examples and direct transcriptions of their definitions."""

import math

import numpy as np
import pandas as pd
import pytest

from rankfusion import RankedLists, aggregate, available_rules
from rankfusion.aggregation import pairwise_matrix, schulze_strengths

# Schulze's 45-voter, 5-candidate example (Schulze 2011, §3.1; Wikipedia "Schulze method").
SCHULZE_BALLOTS = [
    (5, "ACBED"), (5, "ADECB"), (8, "BEDAC"), (3, "CABED"),
    (7, "CAEBD"), (2, "CBADE"), (7, "DCEBA"), (8, "EBADC"),
]


def schulze_lists():
    orders = [list(b) for n, b in SCHULZE_BALLOTS for _ in range(n)]
    return RankedLists.from_orders(orders, universe=list("ABCDE"))


def test_schulze_worked_example_45_voters():
    lists = schulze_lists()
    d = pairwise_matrix(lists)
    np.testing.assert_array_equal(d, [[0, 20, 26, 30, 22], [25, 0, 16, 33, 18],
                                      [19, 29, 0, 17, 24], [15, 12, 28, 0, 14],
                                      [23, 27, 21, 31, 0]])
    P = schulze_strengths(lists)
    off = ~np.eye(5, dtype=bool)
    expected = np.array([[0, 28, 28, 30, 24], [25, 0, 28, 33, 24], [25, 29, 0, 29, 24],
                         [25, 28, 28, 0, 24], [25, 28, 28, 31, 0]])
    np.testing.assert_array_equal(P[off], expected[off])
    assert aggregate(lists, "schulze").top() == list("EACBD")


def test_schulze_worked_example_as_weighted_ballots():
    ballots = RankedLists.from_orders([list(b) for _, b in SCHULZE_BALLOTS],
                                      universe=list("ABCDE"))
    weights = [n for n, _ in SCHULZE_BALLOTS]
    assert aggregate(ballots, "schulze", weights=weights).top() == list("EACBD")
    # non-integer weights of the same proportions give the same answer
    w = np.array(weights) / 7.0
    assert aggregate(ballots, "schulze", weights=w).top() == list("EACBD")


def _ref_order(*keys):
    """Direct transcription: sort by keys (higher = better), then lower index."""
    p = len(keys[0])
    return np.lexsort(tuple(-np.asarray(k, float) for k in reversed(keys)) or (np.arange(p),))


def _random_scores(seed, p=40, m=7):
    return np.random.default_rng(seed).normal(size=(p, m))


@pytest.mark.parametrize("seed", range(5))
def test_statistics_rules_match_definitions(seed):
    scores = _random_scores(seed)
    p, m = scores.shape
    pos = (np.argsort(np.argsort(-scores, axis=0), axis=0) + 1).astype(np.int64)
    r = 1 - pos / p
    # keys on integers (equal means are frequent, and must be found equal)
    mean_key = -pos.sum(1)
    sd_key = m * (pos**2).sum(1) - pos.sum(1) ** 2
    k = max(1, int(np.floor(0.1 * p + 0.5)))
    credit_key = np.maximum(k - pos + 1, 0).sum(1)
    rrf_key = np.array([math.fsum(sorted(1 / (60 + row))) for row in pos])
    expect = {
        "mean_score": _ref_order(scores.mean(1)),
        "borda": _ref_order(mean_key),
        "median": _ref_order(-np.median(pos, 1), mean_key),
        "average_sd": _ref_order(mean_key, sd_key),
        "best_rank": _ref_order(-pos.min(1), mean_key),
        "q3_sd": _ref_order(-np.percentile(pos, 25, axis=1), sd_key),
        "kfirst": _ref_order(credit_key, mean_key),
        "rrf": _ref_order(rrf_key, mean_key),
    }
    for method, order in expect.items():
        res = aggregate(scores, method)
        np.testing.assert_array_equal(res.order, order, err_msg=method)
        np.testing.assert_array_equal(res.ranks[res.order], np.arange(1, p + 1))
    credit = np.maximum(1 - (pos - 1) / k, 0).mean(1)
    np.testing.assert_allclose(aggregate(scores, "kfirst").scores, credit)
    np.testing.assert_allclose(aggregate(scores, "borda").scores, r.mean(1))
    np.testing.assert_allclose(aggregate(scores, "q3_sd").scores, np.percentile(r, 75, axis=1))
    np.testing.assert_allclose(aggregate(scores, "median").scores, np.median(r, axis=1))
    np.testing.assert_allclose(aggregate(scores, "average_sd").tiebreak, r.std(1))
    np.testing.assert_allclose(aggregate(scores, "rrf").scores, rrf_key)


@pytest.mark.parametrize("seed", range(3))
def test_pairwise_rules_match_definitions(seed):
    scores = np.random.default_rng(seed).integers(0, 6, size=(30, 6)).astype(float)
    lists = RankedLists.from_scores(scores)
    pos = lists.positions
    d = (pos[:, None, :] < pos[None, :, :]).sum(2)
    np.testing.assert_array_equal(pairwise_matrix(lists), d)
    mean = lists.relative.mean(1)
    cop = np.sign(d - d.T).sum(1)
    np.testing.assert_array_equal(aggregate(lists, "copeland").order, _ref_order(cop, mean))
    # Schulze by the textbook triple loop
    p = len(d)
    P = np.where(d > d.T, d, 0)
    for i in range(p):
        for j in range(p):
            if i != j:
                for k in range(p):
                    if k not in (i, j):
                        P[j, k] = max(P[j, k], min(P[j, i], P[i, k]))
    wins = np.array([sum(P[i, j] > P[j, i] for j in range(p) if j != i) for i in range(p)])
    res = aggregate(lists, "schulze")
    np.testing.assert_array_equal(res.scores, wins)
    np.testing.assert_array_equal(res.order, _ref_order(wins, mean))


def test_condorcet_is_an_alias_of_copeland():
    scores = _random_scores(3)
    np.testing.assert_array_equal(aggregate(scores, "condorcet").order,
                                  aggregate(scores, "copeland").order)
    assert aggregate(scores, "condorcet").method == "copeland"


def test_kfirst_credits_follow_the_text():
    # one list, p = 5, k = 2: positions 1, 2 get 1 and 1/2; position 3 gets 0.
    scores = np.array([[5.0], [4.0], [3.0], [2.0], [1.0]])
    res = aggregate(scores, "kfirst", k=2)
    np.testing.assert_allclose(res.scores, [1.0, 0.5, 0, 0, 0])
    assert res.params == {"k": 2}
    assert aggregate(scores, "kfirst", k=0.5).params == {"k": 3}  # floor(2.5 + .5)
    assert aggregate(scores, "kfirst", k=1.0).params == {"k": 5}


def test_kfirst_with_k_p_is_average_sd_up_to_a_linear_map():
    scores = _random_scores(7, p=25, m=5)
    kf = aggregate(scores, "kfirst", k=25)
    av = aggregate(scores, "average_sd")
    np.testing.assert_allclose(kf.scores, av.scores + 1 / 25)


def test_average_sd_breaks_mean_ties_by_larger_sd():
    # features 0 and 1 have the same mean position 2; feature 1 is more spread out.
    pos = np.array([[2, 2, 2], [1, 1, 4], [3, 3, 1], [4, 4, 3]], float)
    res = aggregate(RankedLists.from_positions(pos), "average_sd")
    assert list(res.order[:2]) == [1, 0]
    # borda keeps the lower index
    assert list(aggregate(RankedLists.from_positions(pos), "borda").order[:2]) == [0, 1]


def test_q3_sd_exact_quantile_with_interpolation():
    pos = np.array([[1, 4, 2, 3, 1], [2, 1, 1, 1, 4], [3, 2, 4, 4, 2], [4, 3, 3, 2, 3]], float)
    lists = RankedLists.from_positions(pos)
    res = aggregate(lists, "q3_sd")
    np.testing.assert_allclose(res.scores, np.percentile(1 - pos / 4, 75, axis=1))


def test_average_ties_keys_are_exact():
    # four tied features in every list: all keys equal, order by index
    scores = np.ones((4, 6))
    for method in ["borda", "median", "average_sd", "q3_sd", "kfirst", "copeland", "schulze",
                   "rrf", "combmnz", "best_rank", "mean_score"]:
        np.testing.assert_array_equal(aggregate(scores, method).order, [0, 1, 2, 3])


def test_weights_multiply_contributions():
    scores = _random_scores(11, p=20, m=4)
    w = [2, 1, 1, 3]
    dup = np.repeat(scores, w, axis=1)
    for method in ["borda", "average_sd", "kfirst", "copeland", "schulze", "rrf", "mean_score",
                   "combmnz"]:
        a = aggregate(scores, method, weights=w)
        b = aggregate(dup, method)
        np.testing.assert_array_equal(a.order, b.order, err_msg=method)
        if method != "combmnz":  # CombMNZ multiplies by the number of lists, 4 vs 7
            np.testing.assert_allclose(a.scores, b.scores, err_msg=method)


def test_zero_weight_drops_a_list():
    scores = _random_scores(12, p=15, m=3)
    a = aggregate(scores, "kfirst", weights=[1, 0, 1])
    b = aggregate(scores[:, [0, 2]], "kfirst")
    np.testing.assert_array_equal(a.order, b.order)


def test_top_k_lists_absent_at_k_plus_1():
    lists = RankedLists.from_orders([["a", "b"], ["b", "c"], ["a", "c"]])
    res = aggregate(lists, "borda")
    # mean positions: a (1+3+1)/3, b (2+1+3)/3, c (3+2+2)/3
    assert res.top() == ["a", "b", "c"]
    res = aggregate(lists, "combmnz")
    # normalised scores: a 1+0+1 (2 hits), b 0+1+0 (2 hits), c 0+0 (2 hits)
    np.testing.assert_allclose(res.scores, [4.0, 2.0, 0.0])


def test_result_object():
    frame = pd.DataFrame(_random_scores(1, p=6, m=3), index=list("uvwxyz"))
    res = aggregate(frame, "kfirst", k=2)
    df = res.to_frame()
    assert list(df.index) == res.top()
    assert list(df.columns) == ["rank", "score", "mean_relative"]
    assert df["rank"].tolist() == [1, 2, 3, 4, 5, 6]
    assert "kfirst" in repr(res)
    assert set(available_rules()) >= {"mean_score", "borda", "median", "average_sd",
                                        "best_rank", "q3_sd", "kfirst", "copeland", "schulze",
                                        "rrf", "combmnz"}


def test_single_list_and_single_feature_are_accepted():
    one = np.array([[0.2], [0.9], [0.5]])
    for method in available_rules():
        if method in ("kemeny", "ga", "ce") or method.startswith(("rra", "stuart")):
            continue
        if method in ("approval", "sav", "seq_pav", "seq_phragmen"):
            # votes over subsets: a full list approves every feature, so all tie (by index)
            assert aggregate(one, method).order.tolist() == [0, 1, 2], method
            assert aggregate(one, method, k=1).order[0] == 1, method
            continue
        # the fuzzy combination of one bootstrap list: a weighting without an SD (EW)
        kw = {"weighting": "EW"} if method == "fuzzy" else {}
        assert aggregate(one, method, **kw).order.tolist() == [1, 2, 0], method
    assert aggregate(np.array([[1.0, 2.0]]), "schulze").order.tolist() == [0]


@pytest.mark.parametrize(
    "kwargs, exc, match",
    [
        ({"method": "nope"}, ValueError, "known methods: .*kfirst"),
        ({"method": "kfirst", "k": 0}, ValueError, "k must be"),
        ({"method": "kfirst", "k": 11}, ValueError, "exceeds"),
        ({"method": "kfirst", "k": 1.5}, ValueError, r"\(0, 1\]"),
        ({"method": "kfirst", "k": -0.1}, ValueError, r"\(0, 1\]"),
        ({"method": "kfirst", "k": "3"}, TypeError, "k must be"),
        ({"method": "borda", "weights": [1, 2]}, ValueError, "one weight per list"),
        ({"method": "borda", "weights": [1, -1, 1]}, ValueError, "non-negative"),
        ({"method": "borda", "weights": [0, 0, 0]}, ValueError, "all be zero"),
        ({"method": "borda", "weights": [1, np.nan, 1]}, ValueError, "finite"),
        ({"method": "median", "weights": [1, 2, 1]}, ValueError, "takes no list weights"),
        ({"method": "q3_sd", "weights": [1, 2, 1]}, ValueError, "takes no list weights"),
        ({"method": "borda", "k": 3}, TypeError, "unknown parameter"),
        ({"method": "rrf", "k_rrf": -1}, ValueError, "k_rrf"),
    ],
)
def test_bad_arguments(kwargs, exc, match):
    scores = _random_scores(0, p=10, m=3)
    kwargs = dict(kwargs)  # the parameter is shared between runs: never modify it
    method = kwargs.pop("method")
    with pytest.raises(exc, match=match):
        aggregate(scores, method, **kwargs)


def test_bad_lists_argument():
    with pytest.raises(TypeError, match="lists must be"):
        aggregate("scores.csv", "borda")
    with pytest.raises(ValueError, match="NaN"):
        aggregate(np.array([[1.0, np.nan]]), "borda")
    with pytest.raises(ValueError, match="needs raw scores"):
        aggregate(RankedLists.from_orders([["a", "b"]]), "mean_score")


def test_input_not_modified():
    scores = _random_scores(5)
    before = scores.copy()
    for method in ["borda", "schulze", "kfirst", "q3_sd"]:
        aggregate(scores, method, weights=None)
    np.testing.assert_array_equal(scores, before)
