"""Robust Rank Aggregation and companions against RobustRankAggreg 1.2.1 (stored fixtures)."""

from __future__ import annotations

import itertools
import math
import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from conftest import RRA_FIXTURES, read_csv
from rankfusion import RankedLists, aggregate
from rankfusion.aggregation.rra import normalized_ranks, rho_scores, stuart_scores
from rankfusion.io import read_lists

FIX = RRA_FIXTURES
CASES = {"topk5": 100, "uneven": 26, "full8": None, "signal12": 500, "cellcycle": 6206}
METHODS = {"RRA": "rra", "min": "rra_min", "median": "rra_median",
           "geom_mean": "rra_geom_mean", "mean": "rra_mean", "stuart": "stuart",
           "RRA_exact": "rra", "RRA_cutoff": "rra", "RRA_cutoff_exact": "rra"}
CUTS = {"topk5": [0.2] * 5, "uneven": [4 / 26, 10 / 26, 12 / 26], "signal12": [0.1] * 12}
PAIRS = [(c, m) for c in CASES for m in METHODS if (FIX / f"{c}_{m}.csv").exists()]


def _run(case, r_method, directory=FIX):
    lists = read_lists(directory / f"{case}_lists.csv", "orders")
    kw = {} if CASES[case] is None else {"universe_size": CASES[case]}
    if r_method.endswith("exact"):
        kw["exact"] = True
    if "cutoff" in r_method:
        kw["top_cutoff"] = CUTS[case]
    return aggregate(lists, METHODS[r_method], **kw)


def _compare(res, ref):
    names = [str(f) for f in res.features]
    ours = pd.Series(res.info["value"], index=names)[ref.Name].to_numpy()
    np.testing.assert_allclose(ours, ref.Score.to_numpy(), rtol=1e-8, atol=0)
    assert [str(f) for f in res.top()] == list(ref.Name)  # R's order, ties as R keeps them
    np.testing.assert_array_equal(res.scores, -res.info["value"])


def test_fixture_set_is_complete():
    assert len(PAIRS) >= 35


@pytest.mark.parametrize("case,r_method", PAIRS)
def test_matches_robustrankaggreg(case, r_method):
    ref = read_csv(FIX / f"{case}_{r_method}.csv", dtype={"Name": str})
    _compare(_run(case, r_method), ref)


def test_rra_reports_rho_and_order():
    lists = RankedLists.from_orders([["a", "b", "c"], ["a", "c", "b"], ["b", "a", "c"]])
    res = aggregate(lists, "rra")
    assert res.top(1) == ["a"]
    np.testing.assert_array_equal(res.info["rho"], -res.scores)
    assert res.params == {"universe_size": 3, "exact": False, "top_cutoff": None}


def test_absent_feature_has_normalised_rank_one():
    lists = RankedLists.from_orders([["a", "b"], ["c", "a"]], universe=list("abcd"))
    r = normalized_ranks(lists, 10)
    np.testing.assert_array_equal(r, [[0.1, 0.2], [0.2, 1.0], [1.0, 0.1], [1.0, 1.0]])
    assert aggregate(lists, "rra").info["rho"][3] == 1.0


def test_rho_is_bonferroni_min_of_beta_order_statistics():
    rng = np.random.default_rng(0)
    r = rng.random((20, 6))
    m = r.shape[1]
    expected = []
    for row in np.sort(r, axis=1):
        b = [stats.beta.cdf(x, j, m - j + 1) for j, x in enumerate(row, start=1)]
        expected.append(min(1.0, m * min(b)))
    np.testing.assert_allclose(rho_scores(r), expected, rtol=1e-12)


def test_stuart_two_lists_closed_form():
    # For M = 2: Q = 2! (r1 r2 - r1^2 / 2) with r1 <= r2 (the area of the order-statistic region)
    r = np.array([[0.2, 0.5], [0.3, 0.3]])
    lo, hi = np.sort(r, axis=1).T
    np.testing.assert_allclose(stuart_scores(r), 2 * (lo * hi - lo**2 / 2), rtol=1e-14)


def test_rules_refuse_weights_and_bad_universe():
    lists = RankedLists.from_orders([["a", "b", "c"], ["c", "b"]])
    with pytest.raises(ValueError, match="weights"):
        aggregate(lists, "rra", weights=[1, 2])
    with pytest.raises(ValueError, match="universe_size"):
        aggregate(lists, "rra_min", universe_size=2)
    with pytest.raises(ValueError, match="top_cutoff"):
        aggregate(lists, "rra", top_cutoff=[0.5])
    with pytest.raises(TypeError, match="exact"):
        aggregate(lists, "rra", exact="maybe")


def test_permuting_lists_changes_nothing():
    lists = read_lists(FIX / "signal12_lists.csv", "orders")
    perm = lists.select_lists(list(range(lists.n_lists))[::-1])
    for method in ("rra", "rra_mean", "rra_geom_mean", "rra_median", "rra_min"):
        a = aggregate(lists, method, universe_size=500)
        b = aggregate(perm, method, universe_size=500)
        np.testing.assert_array_equal(a.order, b.order)


@pytest.mark.oracle
def test_fixtures_regenerate_identically(tmp_path):
    """Re-run the R script (needs Rscript + RobustRankAggreg) and compare with the fixtures."""
    if shutil.which("Rscript") is None:  # pragma: no cover
        pytest.fail("Rscript not found; the oracle test needs R with RobustRankAggreg")
    shutil.copy(FIX / "make_rra_fixtures.R", tmp_path)
    subprocess.run(["Rscript", "make_rra_fixtures.R"], cwd=tmp_path, check=True,
                   capture_output=True)
    for case, r_method in PAIRS:
        ref = read_csv(tmp_path / f"{case}_{r_method}.csv", dtype={"Name": str})
        _compare(_run(case, r_method, tmp_path), ref)


def test_stuart_recursion_refuses_to_return_impossible_p_values():
    # with many lists the Stuart–Aerts recursion cancels catastrophically (R returns values
    # far outside [0, 1] silently); we raise and point to the Bonferroni bound instead
    lists = RankedLists.from_scores(np.random.default_rng(1).random((200, 60)))
    with pytest.raises(ValueError, match="lost its precision"):
        aggregate(lists, "rra", exact=True)
    with pytest.raises(ValueError, match="lost its precision"):
        aggregate(lists, "stuart")
    rho = aggregate(lists, "rra").info["rho"]
    assert ((rho >= 0) & (rho <= 1)).all()


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"universe_size": float("inf")}, ValueError, "universe_size"),
    ({"universe_size": float("nan")}, ValueError, "universe_size"),
    ({"top_cutoff": ["a", "b"]}, TypeError, "top_cutoff"),
    ({"top_cutoff": "ab"}, TypeError, "top_cutoff"),
])
def test_rra_bad_arguments_are_named(kwargs, exc, match):
    lists = RankedLists.from_orders([["a", "b", "c"], ["b", "a"]])
    with pytest.raises(exc, match=match):
        aggregate(lists, "rra", **kwargs)


# --- whole messages and boundaries (the cases a mutation run found unchecked) -------------

def _exactly(msg):
    return "^" + re.escape(msg) + "$"


@pytest.mark.parametrize("value, exc, msg", [
    ("5", TypeError, "universe_size must be an int, got str"),
    (True, TypeError, "universe_size must be an int, got bool"),
    (float("inf"), ValueError, "universe_size must be a finite whole number, got inf"),
    (3.5, ValueError, "universe_size must be a whole number, got 3.5"),
    (2, ValueError, "universe_size=2 is smaller than the longest list (3 ranked features); "
                    "it is the number of all rankable items"),
])
def test_universe_size_messages_are_whole(value, exc, msg):
    lists = RankedLists.from_orders([["a", "b", "c"], ["c", "b"]])
    with pytest.raises(exc, match=_exactly(msg)):
        normalized_ranks(lists, value)


def test_universe_size_equal_to_the_longest_list_and_whole_floats_are_accepted():
    lists = RankedLists.from_orders([["a", "b", "c"], ["c", "b"]])
    # r = pos / N by hand; "a" is not ranked by the second list: r = 1
    expected = np.array([[1 / 3, 1.0], [2 / 3, 2 / 3], [1.0, 1 / 3]])
    np.testing.assert_allclose(normalized_ranks(lists, 3), expected, rtol=1e-15)
    np.testing.assert_allclose(normalized_ranks(lists, 6.0), [[1 / 6, 1.0], [2 / 6, 2 / 6],
                                                               [3 / 6, 1 / 6]], rtol=1e-15)
    assert aggregate(lists, "rra_min", universe_size=3.0).params == {"universe_size": 3}


CUT_MSG = "top_cutoff must be None or a sequence of fractions in (0, 1], one per list, got "


@pytest.mark.parametrize("cut, exc, msg", [
    ("ab", TypeError, CUT_MSG + "'ab'"),
    (["a", "b"], TypeError, CUT_MSG + "['a', 'b']"),
    ([0.5], ValueError, "top_cutoff must hold one fraction per list (2); got 1"),
    ([0.0, 1.0], ValueError, CUT_MSG + "[0.0, 1.0]"),
    ([1.0, 1.5], ValueError, CUT_MSG + "[1.0, 1.5]"),
    ([0.5, 1.0], ValueError, "a list ranks a feature below its top_cutoff (r > cut-off)"),
])
def test_top_cutoff_messages_are_whole(cut, exc, msg):
    lists = RankedLists.from_orders([["a", "b", "c"], ["c", "b"]])
    with pytest.raises(exc, match=_exactly(msg)):
        aggregate(lists, "rra", top_cutoff=cut)


def test_top_cutoff_at_the_boundaries_is_accepted():
    # list 1 ranks 2 of N = 3 (cut 2/3, its last rank r = 2/3 sits exactly on it), list 2 all
    lists = RankedLists.from_orders([["a", "b"], ["b", "c", "a"]], universe=list("abc"))
    res = aggregate(lists, "rra", top_cutoff=[2 / 3, 1.0])
    assert res.params["top_cutoff"] == [2 / 3, 1.0]
    assert np.isfinite(res.info["rho"]).all()


def _beta_cdf_min(x, m):
    x = np.sort(x)
    return min(stats.beta.cdf(v, j, m - j + 1) for j, v in enumerate(x, start=1))


def test_top_cutoff_of_one_on_every_list_is_plain_rra():
    # with every cut-off 1 nothing is cut: thresholdBetaScore is the plain Beta score
    rng = np.random.default_rng(3)
    scores = rng.random((9, 4))
    lists = RankedLists.from_scores(scores)
    res = aggregate(lists, "rra", top_cutoff=[1.0] * 4)
    r = normalized_ranks(lists)
    expected = [min(1.0, 4 * _beta_cdf_min(row, 4)) for row in r]
    np.testing.assert_allclose(res.info["rho"], expected, rtol=1e-12)


@pytest.mark.parametrize("q", [0.0, 1.0, 1.0 + 5e-10, -5e-10, 1.0 + 1e-9, -1e-9])
def test_stuart_guard_lets_rounding_noise_through_clipped(q):
    # one list: Q = 1! · V_1 = r itself, so r sets q directly
    out = stuart_scores(np.array([[q]]))
    assert out.tolist() == [min(max(q, 0.0), 1.0)]


@pytest.mark.parametrize("q", [1.0 + 2e-9, -2e-9, 1.5, -0.5, float("nan"), float("inf")])
def test_stuart_guard_refuses_values_outside_the_unit_interval(q):
    msg = ("the Stuart–Aerts recursion lost its precision with 1 lists (it gave values "
           "outside [0, 1]; R's RobustRankAggreg returns them silently). Use the Bonferroni "
           "bound (rra with exact=False) or fewer lists")
    with pytest.raises(ValueError, match=_exactly(msg)):
        stuart_scores(np.array([[0.3], [q]]))


def test_stuart_three_lists_is_the_order_statistic_probability():
    # Q(r) = P(U_(1) <= r_(1), U_(2) <= r_(2), U_(3) <= r_(3)) for 3 uniforms: the volume of
    # that region times 3!, integrated by hand for r = (a, b, c) sorted:
    # 3! · [a·b·c − a·b²/2 − a²·c/2 + a³/6] (with a ≤ b ≤ c)
    r = np.array([[0.5, 0.1, 0.3], [0.2, 0.9, 0.6], [1.0, 1.0, 1.0]])
    a, b, c = np.sort(r, axis=1).T
    expected = 6 * (a * b * c - a * b**2 / 2 - a**2 * c / 2 + a**3 / 6)
    np.testing.assert_allclose(stuart_scores(r), expected, rtol=1e-13)


def _poisson_binomial_tail(probs, k):
    """P(at least k of independent events with these probabilities), by enumeration."""
    total = 0.0
    for bits in itertools.product([0, 1], repeat=len(probs)):
        if sum(bits) >= k:
            total += math.prod(p if b else 1.0 - p for p, b in zip(probs, bits))
    return total


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_top_cutoff_rho_is_a_poisson_binomial_tail(seed):
    # Under the null, list l shows feature i at a normalised rank <= x only if U_l <= min(x,
    # sigma_l) (a list cut at sigma_l cannot rank beyond it), so the k-th order statistic's
    # p-value is P(at least k of the n lists put i at or above x_(k)); a feature ranked by fewer
    # than k lists gets 1 for that k (Kolde et al. 2012; RobustRankAggreg's thresholdBetaScore)
    rng = np.random.default_rng(seed)
    n_univ, lengths = 20, [4, 9, 13, 20]
    universe = [f"g{i}" for i in range(n_univ)]
    orders = [list(rng.permutation(universe)[:k]) for k in lengths]
    orders[0][0] = "g0"  # g0 ranked first by two lists, g19 by none (it is in the universe)
    orders[1] = ["g0"] + [g for g in orders[1] if g != "g0"][: lengths[1] - 1]
    orders = [[g for g in o if g != "g19"] for o in orders]
    lists = RankedLists.from_orders(orders, universe=universe)
    sigma = [len(o) / n_univ for o in orders]
    res = aggregate(lists, "rra", top_cutoff=sigma)
    rho = pd.Series(res.info["rho"], index=[str(f) for f in res.features])
    m = len(orders)
    for g in universe:
        x = sorted((o.index(g) + 1) / n_univ for o in orders if g in o)
        betas = [(_poisson_binomial_tail([min(x[k - 1], s) for s in sigma], k)
                  if k <= len(x) else 1.0) for k in range(1, m + 1)]
        assert rho[g] == pytest.approx(min(1.0, m * min(betas)), rel=1e-10, abs=1e-15)
    assert rho["g19"] == 1.0


def test_top_cutoff_feature_no_list_ranked_scores_one_also_exact():
    lists = RankedLists.from_orders([["a", "b"], ["b", "c"]], universe=list("abcd"))
    for exact in (False, True):
        res = aggregate(lists, "rra", top_cutoff=[0.5, 0.5], exact=exact)
        rho = dict(zip(res.features, res.info["rho"]))
        assert rho["d"] == 1.0
        assert res.top(1) == ["b"]


@pytest.mark.parametrize("rule", ["rra", "rra_min", "rra_median", "rra_geom_mean", "rra_mean",
                                  "stuart"])
def test_each_rule_names_itself(rule):
    from rankfusion.aggregation import rra as module

    lists = RankedLists.from_orders([list("abcd"), list("bacd"), list("acbd")])
    assert getattr(module, rule)(lists).method == rule
    assert aggregate(lists, rule).method == rule


@pytest.mark.parametrize("cut, kind, message", [
    (["1", "1", "1"], TypeError, CUT_MSG + "['1', '1', '1']"),
    ([[0.5, 0.5, 0.5]], TypeError, CUT_MSG + "[[0.5, 0.5, 0.5]]"),
])
def test_top_cutoff_must_be_numbers_one_per_list(cut, kind, message):
    from rankfusion import aggregate

    scores = np.random.default_rng(0).random((5, 3))
    with pytest.raises(kind) as err:
        aggregate(scores, "rra", top_cutoff=cut)
    assert str(err.value) == message
