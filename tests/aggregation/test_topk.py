"""The shared machinery of the top-k rules ``ga`` and ``ce`` (``aggregation._topk``) against
direct transcriptions of its definitions.

The problem (docs/design.md, 'Distances'; Bouaguel et al. 2013, eqs. 1-2; RankAggreg 0.6.6):
minimise ``Φ(σ) = Σ_l ŵ_l · D(σ, L_l)`` over top-k lists σ drawn from the union of the lists'
top-k elements, ``ŵ = w / Σw``, an element absent from a list at position k + 1. The score
weights are RankAggreg's (each list's top-k scores min–max standardised, 1 = best) or
Bouaguel's §3.2.3 (the feature's mean min–max normalised score over the lists).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import _topk

# p = 6 features, 3 lists: one on a span below 1, one offset, one constant (all tied)
SCORES = np.array([
    [0.5, 10.0, 1.0],
    [0.4, 12.0, 1.0],
    [0.3, 11.0, 1.0],
    [0.2, 13.0, 1.0],
    [0.1, 9.0, 1.0],
    [0.0, 8.0, 1.0],
])


def _top_orders(lists, k):
    """Each list's k best features: by position, equal positions by feature index."""
    pos2 = lists.positions2
    idx = np.arange(lists.n_features)
    return [np.lexsort((idx, pos2[:, l]))[:k] for l in range(lists.n_lists)]


def _footrule(sigma, order, k):
    """Top-k footrule: Σ over the union of |pos_σ(f) − pos_L(f)|, absent = k + 1."""
    ps = {f: i + 1 for i, f in enumerate(sigma)}
    pl = {f: i + 1 for i, f in enumerate(order)}
    return sum(abs(ps.get(f, k + 1) - pl.get(f, k + 1)) for f in set(ps) | set(pl))


def _objective(prob, cand, orders, imp):
    sigma = [int(prob.items[c]) for c in cand]
    return sum(w * _footrule(sigma, [int(f) for f in o], prob.k) for w, o in zip(imp, orders))


# ------------------------------------------------------------------ problem set-up
def test_prepare_codes_orders_and_positions_equal_the_transcription():
    rng = np.random.default_rng(4)
    lists = RankedLists.from_scores(rng.normal(size=(15, 3)))
    prob = _topk.prepare(lists, k=4, distance="spearman", score_weights=None, weights=None)
    orders = _top_orders(lists, 4)
    np.testing.assert_array_equal(prob.items, np.unique(np.concatenate(orders)))
    assert prob.n == prob.items.size
    for l, o in enumerate(orders):
        np.testing.assert_array_equal(prob.items[prob.litems[l]], o)
        for c, f in enumerate(prob.items):
            expect = list(o).index(f) if f in o else 4  # 0-based, k when absent
            assert prob.lpos[l, c] == expect
    assert prob.k == 4 and not prob.weighted and not prob.kendall
    np.testing.assert_array_equal(prob.w, np.zeros((3, 4)))


def test_prepare_ties_enter_the_top_k_in_feature_order():
    # 40 features in 4 tied blocks of 10 (a quicksort would mix the blocks' members)
    rng = np.random.default_rng(0)
    col = np.repeat([3.0, 2.0, 1.0, 0.0], 10)
    scores = np.column_stack([rng.permutation(col), rng.permutation(col)])
    lists = RankedLists.from_scores(scores)
    prob = _topk.prepare(lists, k=15, distance="spearman", score_weights=None, weights=None)
    for l, o in enumerate(_top_orders(lists, 15)):
        np.testing.assert_array_equal(prob.items[prob.litems[l]], o)


def test_prepare_default_k_is_the_shortest_list_at_most_50():
    long = RankedLists.from_scores(np.random.default_rng(1).normal(size=(60, 2)))
    assert _topk.prepare(long, k=None, distance="spearman", score_weights=None,
                         weights=None).k == 50
    short = RankedLists.from_orders([list("abcdefg"), list("bacdefgh"), list("hgfedcbaij")])
    assert _topk.prepare(short, k=None, distance="kendall", score_weights=None,
                         weights=None).k == 7


def test_prepare_list_weights_are_rankaggregs_standardisation():
    lists = RankedLists.from_scores(SCORES)
    prob = _topk.prepare(lists, k=3, distance="spearman", score_weights="list", weights=None)
    expect = np.zeros((3, 3))
    for l, o in enumerate(_top_orders(lists, 3)):
        s = SCORES[o, l]
        if s.max() > s.min():
            expect[l] = (s - s.min()) / (s.max() - s.min())
    np.testing.assert_allclose(prob.w, expect, rtol=1e-13, atol=0)
    # worked by hand: list 0's top 3 scores .5, .4, .3; list 1's 13, 12, 11; list 2 constant
    np.testing.assert_allclose(prob.w, [[1, 0.5, 0], [1, 0.5, 0], [0, 0, 0]], atol=1e-13)
    assert prob.weighted and prob.w.flags.c_contiguous and prob.w.dtype == np.float64


def test_prepare_feature_weights_are_the_mean_normalised_score():
    lists = RankedLists.from_scores(SCORES)
    prob = _topk.prepare(lists, k=3, distance="spearman", score_weights="feature",
                         weights=None)
    p, m = SCORES.shape
    norm = np.zeros((p, m))
    for l in range(m):
        col = SCORES[:, l]
        if col.max() > col.min():
            norm[:, l] = (col - col.min()) / (col.max() - col.min())
    feat = [sum(norm[f, l] for l in range(m)) / m for f in range(p)]
    expect = [[feat[f] for f in o] for o in _top_orders(lists, 3)]
    np.testing.assert_allclose(prob.w, expect, rtol=1e-13, atol=0)
    # feature 1 by hand: (0.4/0.5 + (12-8)/5 + 0) / 3
    assert prob.w[0, 1] == pytest.approx((0.8 + 0.8) / 3, rel=1e-13)


def test_prepare_list_importance_is_rescaled_to_sum_one():
    lists = RankedLists.from_scores(SCORES)
    prob = _topk.prepare(lists, k=3, distance="kendall", score_weights=None,
                         weights=np.array([1.0, 2.0, 1.0]), penalty=0.25)
    np.testing.assert_allclose(prob.imp, [0.25, 0.5, 0.25], rtol=1e-15)
    assert prob.kendall and prob.penalty == 0.25 and isinstance(prob.penalty, float)
    prob = _topk.prepare(lists, k=3, distance="spearman", score_weights=None, weights=None)
    np.testing.assert_allclose(prob.imp, [1 / 3] * 3, rtol=1e-15)
    assert not prob.kendall and prob.penalty == 0.0


ORDERS = RankedLists.from_orders([["a", "b", "c"], ["b", "a"]])
SCORED = RankedLists.from_scores(SCORES)


@pytest.mark.parametrize("kwargs,exc,message", [
    (dict(distance="footrule"), ValueError,
     r"distance must be 'spearman' or 'kendall', got 'footrule'"),
    (dict(score_weights="rank"), ValueError,
     r"score_weights must be None, 'list' or 'feature', got 'rank'$"),
    (dict(penalty=-0.1), ValueError, r"penalty must be a number in \[0, 1\], got -0\.1$"),
    (dict(penalty=1.5), ValueError, r"penalty must be a number in \[0, 1\], got 1\.5$"),
    (dict(penalty="x"), TypeError, r"penalty must be a number in \[0, 1\], got 'x'$"),
])
@pytest.mark.parametrize("rule", ["ga", "ce"])
def test_the_declared_topk_parameters_are_refused_by_name(rule, kwargs, exc, message):
    # checked once, by the rule's declared constraints (docs/design.md, 'Parameters')
    with pytest.raises(exc, match="^" + message):
        aggregate(SCORED, rule, k=3, **kwargs)


@pytest.mark.parametrize("lists,kwargs,exc,message", [
    (SCORED, dict(k=0), ValueError, r"k must "),
    (SCORED, dict(k="3"), TypeError, r"k must be an int ≥ 1 or a float in \(0, 1\], got str$"),
    (ORDERS, dict(k=3), ValueError,
     r"k=3 exceeds the length of the shortest list \(2 ranked features\); every list must "
     r"rank at least k features$"),
    (ORDERS, dict(k=2, score_weights="list"), ValueError,
     r"score_weights='list' needs raw scores; these lists were built from orders or "
     r"positions$"),
])
def test_prepare_refuses_hostile_arguments_by_name(lists, kwargs, exc, message):
    args = dict(k=3, distance="spearman", score_weights=None, weights=None)
    args.update(kwargs)
    with pytest.raises(exc, match="^" + message):
        _topk.prepare(lists, **args)


@pytest.mark.parametrize("penalty", [0.0, 1.0])
def test_prepare_accepts_the_penalty_bounds(penalty):
    prob = _topk.prepare(SCORED, k=3, distance="kendall", score_weights=None, weights=None,
                         penalty=penalty)
    assert prob.penalty == penalty


# ------------------------------------------------------------------ objective
def _random_problem(seed, score_weights=None, distance="spearman", k=4, p=9, m=3):
    rng = np.random.default_rng(seed)
    lists = RankedLists.from_scores(rng.normal(size=(p, m)) + np.linspace(2, 0, p)[:, None])
    weights = rng.uniform(0.5, 2.0, m)
    return _topk.prepare(lists, k=k, distance=distance, score_weights=score_weights,
                         weights=weights), lists


def _candidates(prob, n, seed):
    rng = np.random.default_rng(seed)
    return np.array([rng.choice(prob.n, prob.k, replace=False) for _ in range(n)])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_evaluate_is_the_weighted_mean_footrule(seed):
    prob, lists = _random_problem(seed)
    cands = _candidates(prob, 7, seed)  # 7 candidates of k = 4: the batch is not square
    orders = _top_orders(lists, prob.k)
    got = prob.evaluate(cands)
    assert got.shape == (7,)
    expect = [_objective(prob, c, orders, prob.imp) for c in cands]
    np.testing.assert_allclose(got, expect, rtol=1e-12)


@pytest.mark.parametrize("score_weights", [None, "list", "feature"])
@pytest.mark.parametrize("seed", [0, 1])
def test_spearman_costs_decompose_the_objective(score_weights, seed):
    # Φ(σ) = c0 + Σ_i C[σ_i, i] for every top-k list σ (the footrule's per-element terms)
    prob, _ = _random_problem(seed, score_weights)
    C, c0 = _topk.spearman_costs(prob)
    assert C.shape == (prob.n, prob.k) and C.flags.c_contiguous
    cands = _candidates(prob, 25, seed + 10)
    direct = prob.evaluate(cands)
    via_costs = [c0 + sum(C[c[i], i] for i in range(prob.k)) for c in cands]
    np.testing.assert_allclose(via_costs, direct, rtol=1e-12, atol=1e-12)
    C2, c02 = _topk.cost_args(prob)
    np.testing.assert_array_equal(C2, C)
    assert c02 == c0


@pytest.mark.parametrize("score_weights", [None, "list", "feature"])
def test_spearman_optimum_is_the_brute_force_minimum(score_weights):
    prob, _ = _random_problem(3, score_weights, k=3, p=7)
    best = min(prob.evaluate(np.array([c]))[0]
               for c in itertools.permutations(range(prob.n), prob.k))
    opt = _topk.spearman_optimum(prob)
    assert sorted(set(opt.tolist())) == sorted(opt.tolist())  # k distinct items
    assert prob.evaluate(opt[None, :])[0] == pytest.approx(best, rel=1e-12, abs=1e-12)


# ------------------------------------------------------------------ search helpers
def _neighbours(cand, n):
    k = len(cand)
    for i, j in itertools.combinations(range(k), 2):  # swaps
        c = list(cand)
        c[i], c[j] = c[j], c[i]
        yield c
    for i in range(k):  # replacements by any outside item
        for u in set(range(n)) - set(cand):
            c = list(cand)
            c[i] = u
            yield c
    for i in range(k):  # insertions: move one element to another position
        for j in range(k):
            if j != i:
                c = list(cand)
                x = c.pop(i)
                c.insert(j, x)
                yield c


@pytest.mark.parametrize("distance", ["spearman", "kendall"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_polish_ends_in_a_local_optimum_of_its_neighbourhood(distance, seed):
    # a union of at most 20 items: every outside item is in the replacement pool
    prob, _ = _random_problem(seed, distance=distance, k=4, p=12, m=4)
    assert prob.n <= 20
    start = prob.litems[-1].copy()
    cand, val = _topk.polish(prob, start)
    np.testing.assert_array_equal(start, prob.litems[-1])  # the caller's array is kept
    assert val == pytest.approx(prob.evaluate(cand[None, :])[0], rel=1e-12, abs=1e-12)
    assert val <= prob.evaluate(start[None, :])[0] + 1e-12
    neigh = np.array(list(_neighbours(cand.tolist(), prob.n)))
    assert prob.evaluate(neigh).min() >= val - 1e-9 * (1 + abs(val))


def test_polish_with_no_pass_returns_the_start():
    prob, _ = _random_problem(5, k=4, p=12, m=4)
    start = prob.litems[0].copy()
    cand, val = _topk.polish(prob, start, max_passes=0)
    np.testing.assert_array_equal(cand, start)
    assert val == pytest.approx(prob.evaluate(start[None, :])[0], rel=1e-12)


def test_informed_starts_are_the_lists_the_mean_position_top_k_and_the_optimum():
    # 4 lists with disjoint top-10s: the 40 items tie four by four in mean position
    base = np.arange(40.0)[::-1]
    scores = np.column_stack([np.roll(base, 10 * l) for l in range(4)])
    lists = RankedLists.from_scores(scores)
    prob = _topk.prepare(lists, k=10, distance="spearman", score_weights=None,
                         weights=np.array([1.0, 1.0, 1.0, 1.0]))
    assert prob.n == 40
    starts = _topk.informed_starts(prob)
    assert starts.shape == (6, 10) and starts.dtype == np.int64
    np.testing.assert_array_equal(starts[:4], prob.litems)
    meanpos = [sum(prob.imp[l] * prob.lpos[l, c] for l in range(4)) for c in range(40)]
    borda = np.lexsort((np.arange(40), meanpos))[:10]  # ties by item code
    np.testing.assert_array_equal(starts[4], borda)
    np.testing.assert_array_equal(starts[5], _topk.spearman_optimum(prob))


# ------------------------------------------------------------------ result
@pytest.mark.parametrize("method", ["ga", "ce"])
def test_result_is_the_top_k_then_borda(method):
    lists = RankedLists.from_scores(SCORES[:, :2])
    res = aggregate(lists, method, k=3, random_state=0)
    p = lists.n_features
    top = res.info["top_k_indices"]
    assert res.method == method and res.info["k"] == 3
    assert [lists.features[i] for i in top] == res.info["top_k"]
    borda = aggregate(lists, "borda").order
    expect = np.concatenate([top, [f for f in borda if f not in set(top.tolist())]])
    np.testing.assert_array_equal(res.order, expect)
    np.testing.assert_array_equal(res.order[:3], top)
    scores = np.empty(p)
    scores[expect] = p - np.arange(1, p + 1)  # p − position
    np.testing.assert_array_equal(res.scores, scores)
    np.testing.assert_array_equal(res.ranks[expect], np.arange(1, p + 1))


def test_trace_frame_columns_and_index():
    trace = np.array([[3.0, 5.0], [2.0, 4.5], [2.0, 2.5]])
    df = _topk.trace_frame(trace)
    assert list(df.columns) == ["min", "median"]
    np.testing.assert_array_equal(df["min"], [3.0, 2.0, 2.0])
    np.testing.assert_array_equal(df["median"], [5.0, 4.5, 2.5])
    assert df.index.name == "generation"
    np.testing.assert_array_equal(df.index, [0, 1, 2])


def _polish_transcribed(prob, cand, max_passes=50):
    """The local search of ``_topk.polish`` as its docstrings state it, in plain Python:
    passes of first-improvement moves (a move is taken when it lowers Φ by more than 1e-12
    relative): swaps of two positions; replacements of a position by one of the first
    ``max(2k, 20)`` outside items in the pool order (weighted mean position, absent = k + 1,
    ties by item code); insertions of one element at another position."""
    k, n = prob.k, prob.n
    meanpos = [sum(prob.imp[l] * prob.lpos[l, c] for l in range(prob.lpos.shape[0]))
               for c in range(n)]
    pool = sorted(range(n), key=lambda c: (meanpos[c], c))
    n_pool = max(2 * k, 20)
    cand = [int(c) for c in cand]
    cur = prob.evaluate(np.array([cand]))[0]

    def take(trial):
        nonlocal cand, cur
        val = prob.evaluate(np.array([trial]))[0]
        if val < cur - 1e-12 * (1.0 + abs(cur)):
            cand, cur = trial, val
            return True
        return False

    for _ in range(max_passes):
        improved = False
        for i in range(k - 1):
            for j in range(i + 1, k):
                t = list(cand)
                t[i], t[j] = t[j], t[i]
                improved |= take(t)
        for i in range(k):
            tried = 0
            for u in pool:
                if tried >= n_pool:
                    break
                if u in cand:
                    continue
                tried += 1
                t = list(cand)
                t[i] = u
                improved |= take(t)
        for i in range(k):
            for j in range(k):
                if j in (i, i - 1):
                    continue
                t = list(cand)
                t.insert(j, t.pop(i))
                improved |= take(t)
        if not improved:
            break
    return cand, cur


@pytest.mark.parametrize("k", [10, 12])
def test_polish_follows_its_stated_neighbourhood_and_pool(k):
    # 4 lists with disjoint top-k's: the union (4k items) is larger than the pool and its
    # items tie four by four in mean position, so the pool's tie order matters
    base = np.arange(4.0 * k)[::-1]
    lists = RankedLists.from_scores(np.column_stack([np.roll(base, k * l) for l in range(4)]))
    prob = _topk.prepare(lists, k=k, distance="spearman", score_weights=None, weights=None)
    # start from the k items of worst mean position: every replacement draws on the pool
    start = np.argsort(prob.imp @ prob.lpos, kind="stable")[-k:][::-1].copy()
    cand, val = _topk.polish(prob, start)
    t_cand, t_val = _polish_transcribed(prob, start)
    np.testing.assert_array_equal(cand, t_cand)
    assert val == t_val
