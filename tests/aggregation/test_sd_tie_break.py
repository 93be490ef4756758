"""The SD tie break of Average-SD and 3Q-SD (Izetta et al. 2017, §2.1.1, §2.1.3, §3.3.2):
``sd_tie_break="max"`` (default, the paper's choice) against ``"min"`` (its Fig. 2), checked
against a direct transcription of the definitions (float SD, ``numpy.lexsort``), and the
hostile values of the new parameter (docs/design.md, 'Validation')."""

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import check_rule_params, resolve, rule_info

# Features 0 and 1 share the mean position 2 (feature 1 spread out: 1, 1, 4).
POS = np.array([[2, 2, 2], [1, 1, 4], [3, 3, 1], [4, 4, 3]], float)


def _reference(pos, primary, sd_tie_break):
    """The order by the primary key (higher = better), then the SD of r (higher first for
    "max", lower first for "min"), then the lower index; keys rounded so that float noise
    does not split exact ties."""
    p = pos.shape[0]
    r = 1 - pos / p
    sd = np.round(r.std(axis=1), 12)
    prim = np.round(primary(r), 12)
    second = -sd if sd_tie_break == "max" else sd
    return np.lexsort((np.arange(p), second, -prim))


PRIMARY = {"average_sd": lambda r: r.mean(axis=1),
           "q3_sd": lambda r: np.percentile(r, 75, axis=1)}


@pytest.mark.parametrize("method", ["average_sd", "q3_sd"])
def test_min_reverses_the_paper_example(method):
    lists = RankedLists.from_positions(POS)
    top = aggregate(lists, method).order.tolist()
    low = aggregate(lists, method, sd_tie_break="min").order.tolist()
    if method == "average_sd":  # features 0 and 1: equal mean 2, SD 0 vs 1.41
        assert top[:2] == [1, 0] and low[:2] == [0, 1]
    else:  # Q3 of r: feature 1 (positions 1, 1, 4) 0.75 alone first; 2 vs 0 tie below
        assert top == _reference(POS, PRIMARY[method], "max").tolist()
        assert low == _reference(POS, PRIMARY[method], "min").tolist()
        assert top != low


@pytest.mark.parametrize("method", ["average_sd", "q3_sd"])
def test_the_default_is_the_paper_choice_bit_for_bit(method):
    rng = np.random.default_rng(3)
    scores = rng.integers(0, 4, size=(30, 6)).astype(float)  # many ties inside lists
    a = aggregate(scores, method)
    b = aggregate(scores, method, sd_tie_break="max")
    np.testing.assert_array_equal(a.order, b.order)
    np.testing.assert_array_equal(a.scores, b.scores)
    np.testing.assert_array_equal(a.tiebreak, b.tiebreak)
    assert a.params == {"sd_tie_break": "max"}
    assert rule_info(method).func.__kwdefaults__["sd_tie_break"] == "max"


@st.composite
def position_matrices(draw):
    p = draw(st.integers(1, 9))
    m = draw(st.integers(1, 6))
    cols = [draw(st.permutations(range(1, p + 1))) for _ in range(m)]
    return np.array(cols, dtype=float).T


@pytest.mark.parametrize("method", ["average_sd", "q3_sd"])
@pytest.mark.parametrize("sd_tie_break", ["max", "min"])
@settings(max_examples=40, deadline=None)
@given(pos=position_matrices())
@example(pos=POS)
@example(pos=np.array([[1, 3, 2, 2], [2, 2, 1, 3], [3, 1, 3, 1]], float))  # all means tie
def test_order_is_the_definition(method, sd_tie_break, pos):
    res = aggregate(RankedLists.from_positions(pos), method, sd_tie_break=sd_tie_break)
    np.testing.assert_array_equal(res.order, _reference(pos, PRIMARY[method], sd_tie_break))
    # the tie break never changes the primary key's scores, only the order within a block
    base = aggregate(RankedLists.from_positions(pos), method)
    np.testing.assert_array_equal(res.scores, base.scores)


# Five features, four lists (each column a permutation of 1..5). Mean positions: 3, 3, 3 for
# features 0-2 (SD of the positions 0, 1, 2), 2.5 for 3, 3.5 for 4. Q1 of the positions (so Q3
# of r): 3, 2, 1, 1, 2 — features 2 and 3 tie (SD 2 vs 1.5), 1 and 4 tie (SD 1 vs 1.5).
BLOCKS = np.array([[3, 3, 3, 3], [2, 4, 2, 4], [1, 5, 1, 5], [4, 1, 4, 1], [5, 2, 5, 2]],
                  float)
EXPECTED = {
    ("average_sd", "max"): [3, 2, 1, 0, 4],
    ("average_sd", "min"): [3, 0, 1, 2, 4],
    ("q3_sd", "max"): [2, 3, 4, 1, 0],
    ("q3_sd", "min"): [3, 2, 1, 4, 0],
}


@pytest.mark.parametrize("method, sd_tie_break", sorted(EXPECTED))
def test_min_reverses_every_block_of_equal_primary_keys(method, sd_tie_break):
    res = aggregate(RankedLists.from_positions(BLOCKS), method, sd_tie_break=sd_tie_break)
    assert res.order.tolist() == EXPECTED[method, sd_tie_break]
    assert res.params == {"sd_tie_break": sd_tie_break}


def test_average_sd_min_with_weights_uses_the_weighted_sd():
    pos = np.array([[2, 2, 2], [1, 3, 2], [3, 1, 2]], float)  # equal means, different spreads
    lists = RankedLists.from_positions(pos)
    w = np.array([1.0, 3.0, 1.0])
    res = aggregate(lists, "average_sd", sd_tie_break="min", weights=w)
    dup = RankedLists.from_positions(np.repeat(pos, [1, 3, 1], axis=1))
    np.testing.assert_array_equal(res.order,
                                  aggregate(dup, "average_sd", sd_tie_break="min").order)


def test_a_spec_and_the_runner_check_carry_the_tie_break():
    assert resolve("q3_sd:sd_tie_break=min").params == {"sd_tie_break": "min"}
    assert resolve("average_sd:sd_tie_break=MIN").params == {"sd_tie_break": "min"}
    assert check_rule_params("average_sd", {"sd_tie_break": "min"}).params == {
        "sd_tie_break": "min"}
    assert "sd_tie_break" in rule_info("average_sd").params
    assert "sd_tie_break" in rule_info("q3_sd").params


@pytest.mark.parametrize("method", ["average_sd", "q3_sd"])
@pytest.mark.parametrize(
    "value, exc, match",
    [
        (1, TypeError, r"sd_tie_break must be 'max' or 'min', got 1"),
        (0.5, TypeError, "sd_tie_break must be"),
        (True, TypeError, "sd_tie_break must be"),
        (None, TypeError, "sd_tie_break must be"),
        (b"min", TypeError, "sd_tie_break must be"),
        (["min"], TypeError, "sd_tie_break must be"),
        (np.str_("sideways"), ValueError, "sd_tie_break must be"),
        ("min_sd", ValueError, "did you mean 'min'"),
        ("minimum", ValueError, "sd_tie_break must be"),
        ("maximum", ValueError, "sd_tie_break must be"),
        ("", ValueError, "sd_tie_break must be"),
        ("sd", ValueError, "sd_tie_break must be"),
    ],
)
def test_hostile_tie_break(method, value, exc, match):
    scores = np.arange(12, dtype=float).reshape(4, 3)
    before = scores.copy()
    with pytest.raises(exc, match=match):
        aggregate(scores, method, sd_tie_break=value)
    with pytest.raises(exc, match=match):
        check_rule_params(method, {"sd_tie_break": value})
    np.testing.assert_array_equal(scores, before)


@pytest.mark.parametrize(
    "spec, exc, match",
    [
        ("average_sd:sd_tie_break=bogus", ValueError, "sd_tie_break must be"),
        ("q3_sd:sd_tie_break=1", TypeError, "sd_tie_break must be"),
        ("average_sd:tiebreak=min", ValueError, "unknown parameter"),
        ("average_sd:tie_break=min", ValueError, "unknown parameter"),
        ("best_rank:sd_tie_break=min", ValueError, "unknown parameter"),
        ("kfirst:sd_tie_break=min", ValueError, "unknown parameter"),
    ],
)
def test_hostile_tie_break_specs(spec, exc, match):
    with pytest.raises(exc, match=match):
        aggregate(np.arange(12, dtype=float).reshape(4, 3), spec)


def test_q3_sd_still_refuses_weights_with_either_tie_break():
    for tb in ("max", "min"):
        with pytest.raises(ValueError, match="takes no list weights"):
            aggregate(np.ones((3, 3)), "q3_sd", sd_tie_break=tb, weights=[1, 2, 1])
