"""RankedLists: constructors, ties, top-k lists, round trips and bad input."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata

from rankfusion import RankedLists


def test_from_scores_average_ties_match_scipy_rankdata():
    rng = np.random.default_rng(0)
    scores = rng.integers(0, 4, size=(30, 6)).astype(float)
    lists = RankedLists.from_scores(scores)
    expected = np.column_stack([rankdata(-scores[:, j], method="average") for j in range(6)])
    np.testing.assert_array_equal(lists.positions, expected)
    np.testing.assert_array_equal(lists.positions2, 2 * expected)


@pytest.mark.parametrize("ties,method", [("min", "min"), ("ordinal", "ordinal")])
def test_from_scores_other_ties_match_scipy(ties, method):
    rng = np.random.default_rng(1)
    scores = rng.integers(0, 3, size=(25, 4)).astype(float)
    lists = RankedLists.from_scores(scores, ties=ties)
    expected = np.column_stack([rankdata(-scores[:, j], method=method) for j in range(4)])
    np.testing.assert_array_equal(lists.positions, expected)



@pytest.mark.parametrize("ties", ["average", "min", "ordinal"])
@pytest.mark.parametrize("layout", ["C", "F", "transposed view"])
def test_from_scores_blocks_and_threads_match_scipy_and_leave_the_input(ties, layout):
    # 50,000 × 170 scores: ranked in blocks of lists on threads (the large-input path), in
    # every memory layout; the caller's matrix is never negated in place (an F-ordered copy's
    # transposed block is contiguous, and was once negated where it lay).
    rng = np.random.default_rng(3)
    base = rng.integers(0, 200, size=(50_000, 170)).astype(float)
    scores = {"C": base.copy(), "F": np.asfortranarray(base),
              "transposed view": np.ascontiguousarray(base.T).T}[layout]
    before = scores.copy()
    lists = RankedLists.from_scores(scores, ties=ties)
    np.testing.assert_array_equal(scores, before)
    assert lists.positions2.dtype == np.int32
    expected = rankdata(-base, method=ties, axis=0)
    np.testing.assert_array_equal(lists.positions2, (2 * expected).astype(np.int64))
    assert lists.is_full and lists.ranked.all() and lists.ranked.flags.writeable


def test_positions2_int32_sums_and_squares_stay_exact():
    # 2·pos fits int32, its squares do not: Average-SD and 3Q-SD square in int64. Features A
    # (positions 20,000 and 20,000) and B (1 and 39,999) have the same sum; B's spread is the
    # larger, so Average-SD puts B first. Squared in int32, B's Σ (2·pos)² wraps to about
    # 2.1·10⁹, below A's 3.2·10⁹, and A would come first.
    from rankfusion import aggregate

    p = 40_000
    rng = np.random.default_rng(0)
    rest = np.setdiff1d(np.arange(1, p + 1), [1, 20_000])
    col1 = np.concatenate([[20_000, 1], rng.permutation(rest)])
    rest2 = np.setdiff1d(np.arange(1, p + 1), [20_000, 39_999])
    col2 = np.concatenate([[20_000, 39_999], rng.permutation(rest2)])
    lists = RankedLists.from_positions(np.column_stack([col1, col2]).astype(float))
    assert lists.positions2.dtype == np.int32
    order = list(aggregate(lists, "average_sd").order)
    assert order.index(1) < order.index(0)
    assert np.isfinite(aggregate(lists, "q3_sd").scores).all()

def test_from_scores_dataframe_keeps_names_and_relative():
    frame = pd.DataFrame({"svm": [0.3, 0.9, 0.1], "relief": [0.5, 0.2, 0.4]},
                         index=["g1", "g2", "g3"])
    lists = RankedLists.from_scores(frame)
    assert list(lists.features) == ["g1", "g2", "g3"]
    assert list(lists.list_names) == ["svm", "relief"]
    np.testing.assert_allclose(lists.relative, 1 - lists.positions / 3)
    assert lists.ranked_features("relief") == ["g1", "g3", "g2"]
    assert lists.has_scores and lists.is_full


def test_from_scores_does_not_modify_caller_data():
    scores = np.array([[3.0, 1.0], [2.0, 2.0], [1.0, 3.0]])
    frame = pd.DataFrame(scores.copy())
    before = scores.copy()
    lists = RankedLists.from_scores(scores)
    RankedLists.from_scores(frame)
    np.testing.assert_array_equal(scores, before)
    np.testing.assert_array_equal(frame.to_numpy(), before)
    with pytest.raises(ValueError):
        lists.positions2[0, 0] = 5  # read-only


def test_from_orders_top_k_positions_and_memory_of_absence():
    lists = RankedLists.from_orders([["a", "b"], ["c", "a", "d"]], list_names=["x", "y"])
    assert list(lists.features) == ["a", "b", "c", "d"]
    np.testing.assert_array_equal(lists.positions, [[1, 2], [2, 4], [3, 1], [3, 3]])
    np.testing.assert_array_equal(lists.ranked, [[True, True], [True, False],
                                                 [False, True], [False, True]])
    np.testing.assert_array_equal(lists.lengths, [2, 3])
    assert not lists.is_full
    assert lists.ranked_features("y") == ["c", "a", "d"]


def test_from_orders_with_universe_and_mapping():
    lists = RankedLists.from_orders({"l1": ["b"], "l2": ["a", "b"]}, universe=["a", "b", "c"])
    assert list(lists.list_names) == ["l1", "l2"]
    np.testing.assert_array_equal(lists.positions, [[2, 1], [1, 2], [2, 3]])


def test_from_positions_with_missing_entries():
    pos = np.array([[1, np.nan], [2, 1], [3, np.nan]])
    lists = RankedLists.from_positions(pos)
    np.testing.assert_array_equal(lists.positions, [[1, 2], [2, 1], [3, 2]])
    np.testing.assert_array_equal(lists.ranked[:, 1], [False, True, False])


@pytest.mark.parametrize(
    "bad, exc, match",
    [
        (np.array([[1.0, np.nan], [2.0, 3.0]]), ValueError, "NaN"),
        (np.array([[1.0, np.inf], [2.0, 3.0]]), ValueError, "inf"),
        (np.array([1.0, 2.0]), ValueError, "2-D"),
        (np.zeros((2, 2, 2)), ValueError, "2-D"),
        (np.array([["a", "b"], ["c", "d"]]), TypeError, "real numbers"),
        (np.zeros((0, 3)), ValueError, "at least one feature"),
        (pd.DataFrame({"a": ["x", "y"]}), TypeError, "column 'a'"),
        (np.array([[True, False]]), TypeError, "bool"),
    ],
)
def test_from_scores_bad_input(bad, exc, match):
    with pytest.raises(exc, match=match):
        RankedLists.from_scores(bad)


def test_duplicate_feature_names_rejected():
    frame = pd.DataFrame({"a": [1.0, 2.0]}, index=["g", "g"])
    with pytest.raises(ValueError, match="features must be unique"):
        RankedLists.from_scores(frame)


def test_bad_ties_and_orders():
    with pytest.raises(ValueError, match="ties must be one of"):
        RankedLists.from_scores(np.ones((2, 2)), ties="dense")
    with pytest.raises(ValueError, match="not in universe"):
        RankedLists.from_orders([["a", "z"]], universe=["a", "b"])
    with pytest.raises(ValueError, match="twice"):
        RankedLists.from_orders([["a", "a"]])
    with pytest.raises(ValueError, match="empty"):
        RankedLists.from_orders([["a"], []])
    with pytest.raises(TypeError):
        RankedLists.from_orders("abc")


def test_bad_positions():
    with pytest.raises(ValueError, match="half-integers"):
        RankedLists.from_positions(np.array([[1.3], [2.0]]))
    with pytest.raises(ValueError, match="outside"):
        RankedLists.from_positions(np.array([[1.0], [5.0]]))
    with pytest.raises(ValueError, match="ranks no feature"):
        RankedLists.from_positions(np.array([[np.nan], [np.nan]]))
