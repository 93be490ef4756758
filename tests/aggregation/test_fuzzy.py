"""aggregate_fuzzy against a loop-by-loop transcription of the fuzzy paper's eqs. 1–13, hand-worked
cases and hostile inputs."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import rankfusion
from rankfusion import RankedLists, aggregate_fuzzy
from rankfusion.aggregation import FuzzyConsensus

WEIGHTINGS = ["EW", "RW", "OW", "MW"]


# --------------------------------------------------------------------------- the oracle
def fuzzy_oracle(S, weighting):
    """Eqs. 1–13 written out loop by loop (lists, Python floats, statistics.stdev)."""
    p, M, L = S.shape
    U = [k / 100 for k in range(101)]  # eq. 1
    norm = [[[0.0] * L for _ in range(M)] for _ in range(p)]
    for j in range(M):  # per (method, bootstrap) list: min–max over the features, then U
        for b in range(L):
            col = [float(S[i, j, b]) for i in range(p)]
            lo, hi = min(col), max(col)
            for i in range(p):
                x = 0.0 if hi == lo else (col[i] - lo) / (hi - lo)
                norm[i][j][b] = math.floor(100 * x + 0.5 + 1e-9) / 100  # halves up
    c_all, mu_all, w_all = [], [], []
    for i in range(p):
        F = [norm[i][j] for j in range(M)]  # eq. 2
        mu = [[F[j].count(x) / L for x in U] for j in range(M)]  # eq. 4
        if weighting == "EW":  # eq. 6
            w = [1 / M] * M
        elif weighting == "RW":  # eq. 7, zero-SD methods share the weight
            sd = [statistics.stdev(F[j]) for j in range(M)]
            zero = [j for j in range(M) if sd[j] == 0]
            if zero:
                w = [1 / len(zero) if j in zero else 0.0 for j in range(M)]
            else:
                tot = sum(1 / s for s in sd)
                w = [(1 / s) / tot for s in sd]
        elif weighting == "OW":  # eq. 8
            sd = [statistics.stdev(F[j]) for j in range(M)]
            tot = sum(1 - s for s in sd)
            w = [(1 - s) / tot for s in sd]
        else:  # MW, eqs. 9–12
            B = [[[1 if (pp / L) <= mu[j][q] else 0 for q in range(101)]
                  for pp in range(1, L + 1)] for j in range(M)]
            C = [[sum(B[j][r][q] for j in range(M)) for q in range(101)] for r in range(L)]
            normC = sum(sum(row) for row in C)
            v = [sum(B[j][r][q] * C[r][q] for r in range(L) for q in range(101)) / normC
                 for j in range(M)]
            w = [vj / sum(v) for vj in v]
        mu_com = [sum(w[j] * mu[j][q] for j in range(M)) for q in range(101)]  # eq. 5
        c = sum(U[q] * mu_com[q] for q in range(101)) / sum(mu_com)  # eq. 13
        c_all.append(c)
        mu_all.append(mu_com)
        w_all.append(w)
    return np.array(c_all), np.array(mu_all), np.array(w_all)


def expected_order(c):
    return np.lexsort((np.arange(len(c)), -np.round(c, 10)))


def expected_order_exact(c):
    return np.lexsort((np.arange(len(c)), -np.asarray(c)))


def random_scores(seed, p, m, n_boot, kind):
    rng = np.random.default_rng(seed)
    if kind == "float":
        S = rng.normal(size=(p, m, n_boot)) * rng.uniform(0.1, 100, size=(1, m, 1))
    else:  # few distinct values: ties, zero-spread methods
        S = rng.integers(0, 5, size=(p, m, n_boot)).astype(float)
        if p > 2:  # some features always at the top of their lists: zero spread guaranteed
            S[0, :, :] = 10.0
    for _ in range(rng.integers(0, 3)):  # some constant lists
        S[:, rng.integers(m), rng.integers(n_boot)] = rng.normal()
    return S


# --------------------------------------------------------------------------- oracle agreement
@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**31), st.integers(1, 7), st.integers(1, 4), st.integers(1, 6),
       st.sampled_from(["int", "float"]), st.sampled_from(WEIGHTINGS))
@example(seed=3, p=7, m=2, n_boot=2, kind="int", weighting="MW")  # an exact MW tie (0.225)
@example(seed=36144, p=5, m=1, n_boot=5, kind="int", weighting="RW")  # 0.1 vs 0.1 + 1 ulp
def test_matches_transcription(seed, p, m, n_boot, kind, weighting):
    S = random_scores(seed, p, m, n_boot, kind)
    if n_boot == 1 and weighting in ("RW", "OW"):
        with pytest.raises(ValueError, match="n_bootstraps ≥ 2"):
            aggregate_fuzzy(S, weighting)
        return
    res = aggregate_fuzzy(S, weighting)
    c, mu, w = fuzzy_oracle(S, weighting)
    np.testing.assert_allclose(res.scores, c, atol=1e-12)
    np.testing.assert_allclose(res.memberships, mu, atol=1e-12)
    np.testing.assert_allclose(res.weights, w, atol=1e-12)
    if weighting in ("EW", "MW"):  # exact ratios: mathematical ties are float ties
        np.testing.assert_array_equal(res.order, expected_order(c))
    else:
        # RW / OW order by c in float64 (documented): scores equal within rounding may fall
        # either way, so the oracle's scores must not increase along our order (to 10
        # decimals), and our order is exactly that of our float scores, ties to the lower index
        assert np.all(np.diff(np.round(c[res.order], 10)) <= 0)
        np.testing.assert_array_equal(res.order, expected_order_exact(res.scores))
    np.testing.assert_array_equal(np.sort(res.ranks), np.arange(1, p + 1))


@pytest.mark.parametrize("weighting", WEIGHTINGS)
def test_matches_transcription_on_a_larger_case(weighting):
    S = random_scores(11, 30, 4, 12, "int")
    S[5, 2, :] = 0.0  # a feature at the bottom of every list of one method
    res = aggregate_fuzzy(S, weighting)
    c, mu, w = fuzzy_oracle(S, weighting)
    np.testing.assert_allclose(res.scores, c, atol=1e-12)
    np.testing.assert_allclose(res.weights, w, atol=1e-12)
    np.testing.assert_array_equal(res.order, expected_order(c))


# --------------------------------------------------------------------------- hand-worked
def _two_methods():
    m0 = np.array([[1.0, 1.0], [0.5, 0.3], [0.0, 0.0]])  # features × bootstraps
    m1 = np.array([[0.6, 0.2], [1.0, 1.0], [0.0, 0.0]])
    return np.stack([m0, m1], axis=1)


@pytest.mark.parametrize(
    "weighting, scores, w0",
    [
        # feature 0: F = (1, 1) and (.6, .2); feature 1: (.5, .3) and (1, 1); feature 2: zeros
        ("EW", [0.7, 0.7, 0.0], [0.5, 0.5]),
        ("RW", [1.0, 1.0, 0.0], [1.0, 0.0]),  # method 0 has SD 0 for feature 0
        ("OW", [(1 + (1 - math.sqrt(0.08)) * 0.4) / (2 - math.sqrt(0.08)),
                ((1 - math.sqrt(0.02)) * 0.4 + 1) / (2 - math.sqrt(0.02)), 0.0],
         [1 / (2 - math.sqrt(0.08)), (1 - math.sqrt(0.08)) / (2 - math.sqrt(0.08))]),
        ("MW", [0.7, 0.7, 0.0], [0.5, 0.5]),  # disjoint supports: v = (2 + 0)/4 each
    ],
)
def test_hand_worked_two_methods(weighting, scores, w0):
    res = aggregate_fuzzy(_two_methods(), weighting)
    np.testing.assert_allclose(res.scores, scores, atol=1e-12)
    np.testing.assert_allclose(res.weights[0], w0, atol=1e-12)
    if weighting == "RW":
        np.testing.assert_allclose(res.weights[2], [0.5, 0.5])  # both SD 0: shared
    assert res.order.tolist() == [0, 1, 2]  # EW, MW: an exact tie at .7; OW: .7494 > .7228
    np.testing.assert_allclose(res.memberships.sum(axis=1), 1.0)


def test_hand_worked_matrix_similarity():
    # feature 0: method 0 F = (.5, .5), method 1 (.5, .3), method 2 (.9, .9)
    # comMatrix columns: .5 → (2, 1), .3 → (1, 0), .9 → (1, 1); ‖C‖₁ = 6
    # v = (3/6, 3/6, 2/6) → w = (3/8, 3/8, 1/4); c = 3/8·.5 + 3/8·.4 + 1/4·.9 = .5625
    f0 = np.array([[0.5, 0.5], [0.5, 0.3], [0.9, 0.9]])
    S = np.stack([f0, np.ones((3, 2)), np.zeros((3, 2))])
    res = aggregate_fuzzy(S, "MW")
    np.testing.assert_allclose(res.weights[0], [3 / 8, 3 / 8, 1 / 4])
    assert res.scores[0] == pytest.approx(0.5625)
    assert res.order.tolist() == [1, 0, 2]
    assert res.memberships[0, 50] == pytest.approx(3 / 8 + 3 / 16)
    assert res.memberships[0, 30] == pytest.approx(3 / 16)
    assert res.memberships[0, 90] == pytest.approx(1 / 4)


@pytest.mark.parametrize(
    "middle, grid_value",
    [(0.285, 0.29), (0.2849, 0.28), (0.005, 0.01), (0.0049, 0.0), (0.995, 1.0), (0.5, 0.5),
     (0.125, 0.13), (0.135, 0.14)],
)
def test_rounding_halves_up(middle, grid_value):
    S = np.array([0.0, middle, 1.0]).reshape(3, 1, 1)
    res = aggregate_fuzzy(S, "EW")
    assert res.scores[1] == pytest.approx(grid_value, abs=1e-15)
    # the same on another scale: (12.85 − 10) / 10 = .285
    S2 = (10.0 + 10.0 * S)
    assert aggregate_fuzzy(S2, "EW").scores[1] == pytest.approx(grid_value, abs=1e-15)


def test_constant_list_becomes_zero_and_single_bootstrap():
    S = np.array([[[3.0]], [[3.0]]])
    res = aggregate_fuzzy(S, "MW")
    np.testing.assert_array_equal(res.scores, [0.0, 0.0])
    assert res.order.tolist() == [0, 1]
    assert res.sd is None
    with pytest.raises(ValueError, match="'OW' needs n_bootstraps ≥ 2"):
        aggregate_fuzzy(S)


# --------------------------------------------------------------------------- invariants
@pytest.mark.parametrize("weighting", WEIGHTINGS)
def test_method_order_and_list_scale_change_nothing(weighting):
    S = random_scores(3, 12, 4, 9, "float")
    res = aggregate_fuzzy(S, weighting)
    perm = [2, 0, 3, 1]
    res_p = aggregate_fuzzy(S[:, perm, :], weighting)
    np.testing.assert_array_equal(res_p.scores, res.scores)
    np.testing.assert_array_equal(res_p.weights, res.weights[:, perm])
    scaled = S * 4.0 + 3.0  # a power of two keeps every float exact
    np.testing.assert_array_equal(aggregate_fuzzy(scaled, weighting).order, res.order)


def test_input_not_modified_and_result_type():
    S = random_scores(4, 5, 2, 3, "float")
    before = S.copy()
    res = aggregate_fuzzy(S, "rw")  # case-insensitive
    np.testing.assert_array_equal(S, before)
    assert isinstance(res, FuzzyConsensus) and isinstance(res, rankfusion.Consensus)
    assert res.params == {"weighting": "RW", "n_bootstraps": 3}
    assert res.memberships.shape == (5, 101) and res.weights.shape == (5, 2)
    assert res.sd.shape == (5, 2)
    np.testing.assert_allclose(res.weights.sum(axis=1), 1.0)
    assert res.grid[29] == 0.29 and res.grid.shape == (101,)
    assert list(res.to_frame().columns) == ["rank", "score"]
    assert "FuzzyConsensus(weighting='RW'" in repr(res)
    assert rankfusion.aggregation.aggregate_fuzzy is aggregate_fuzzy


def test_ranked_lists_input_equals_array_input():
    S = random_scores(5, 6, 3, 4, "float")
    names = [f"g{i}" for i in range(6)]
    seq = [RankedLists.from_scores(S[:, j, :], features=names,
                                   list_names=[f"{m}@b{b}" for b in range(4)])
           for j, m in enumerate(["relieff", "cfs", "mifs"])]
    for weighting in WEIGHTINGS:
        a = aggregate_fuzzy(S, weighting)
        b = aggregate_fuzzy(seq, weighting)
        np.testing.assert_array_equal(a.scores, b.scores)
        assert b.features.tolist() == names
        assert b.methods.tolist() == ["relieff", "cfs", "mifs"]
    d = aggregate_fuzzy(dict(zip(["x", "y", "z"], seq)), "EW")
    assert d.methods.tolist() == ["x", "y", "z"]
    one = aggregate_fuzzy(seq[0], "EW")  # a single RankedLists: one method
    assert one.weights.shape == (6, 1)


# --------------------------------------------------------------------------- hostile inputs
def _rl(scores, **kw):
    return RankedLists.from_scores(scores, **kw)


GOOD = np.arange(12, dtype=float).reshape(3, 2, 2)


@pytest.mark.parametrize(
    "scores, weighting, exc, match",
    [
        (GOOD[:, :, 0], "EW", ValueError, "3-D"),
        (GOOD[..., None], "EW", ValueError, "3-D"),
        (np.zeros((3, 2, 0)), "EW", ValueError, "one bootstrap"),
        (np.zeros((3, 0, 2)), "EW", ValueError, "one method"),
        (np.zeros((0, 2, 2)), "EW", ValueError, "one feature"),
        (np.where(GOOD == 5, np.nan, GOOD), "EW", ValueError, "finite.*NaN|nan"),
        (np.where(GOOD == 5, np.inf, GOOD), "EW", ValueError, "finite"),
        (np.full((2, 2, 2), "a"), "EW", TypeError, "real numbers"),
        (GOOD.astype(complex), "EW", TypeError, "real numbers"),
        (GOOD > 3, "EW", TypeError, "real numbers"),
        (pd.DataFrame(GOOD[:, :, 0]), "EW", TypeError, "3-D array"),
        ([], "EW", ValueError, "3-D"),
        (GOOD, "XW", ValueError, "unknown weighting 'XW'; known weightings: EW, RW, OW, MW"),
        (GOOD, "fuzzy:OW", ValueError, "known weightings: EW, RW, OW, MW"),
        (GOOD, None, TypeError, "weighting must be a string"),
        (GOOD[:, :, :1], "RW", ValueError, "'RW' needs n_bootstraps ≥ 2"),
        (GOOD[:, :, :1], "OW", ValueError, "'OW' needs n_bootstraps ≥ 2"),
    ],
)
def test_hostile_arrays(scores, weighting, exc, match):
    with pytest.raises(exc, match=match):
        aggregate_fuzzy(scores, weighting)


@pytest.mark.parametrize(
    "make, exc, match",
    [
        (lambda: [_rl(GOOD[:, 0, :]), _rl(GOOD[:, 1, :], features=["a", "b", "c"])],
         ValueError, "method 1 ranks different features"),
        (lambda: [_rl(GOOD[:, 0, :]), _rl(GOOD[::-1, 1, :], features=["f2", "f1", "f0"])],
         ValueError, "different features"),
        (lambda: [_rl(GOOD[:, 0, :]), _rl(GOOD[:, 1, :1])], ValueError,
         "method 1 has 1 bootstrap lists, method 0 has 2"),
        (lambda: [_rl(GOOD[:, 0, :]), RankedLists.from_orders([["f0", "f1", "f2"]] * 2)],
         ValueError, "built from orders or positions"),
        (lambda: [_rl(GOOD[:, 0, :]), GOOD[:, 1, :]], TypeError,
         "method 1 must be a RankedLists"),
        (lambda: {"a": _rl(GOOD[:, 0, :]), "b": GOOD[:, 1, :]}, TypeError,
         "method 'b' must be a RankedLists"),
        (lambda: {}, ValueError, "at least one method"),
    ],
)
def test_hostile_ranked_lists(make, exc, match):
    with pytest.raises(exc, match=match):
        aggregate_fuzzy(make(), "EW")


@pytest.mark.parametrize("scale", [1e-300, 1e300, 2.0 ** 1020])
def test_scores_near_the_float_limits_give_the_unit_scale_result(scale):
    from rankfusion.aggregation.fuzzy import discretize_scores

    rng = np.random.default_rng(5)
    S = rng.normal(size=(6, 2, 3))
    with np.errstate(all="raise"):
        np.testing.assert_array_equal(discretize_scores(S * scale), discretize_scores(S))
        for weighting in ("EW", "MW"):
            np.testing.assert_array_equal(aggregate_fuzzy(S * scale, weighting).ranks,
                                          aggregate_fuzzy(S, weighting).ranks)
