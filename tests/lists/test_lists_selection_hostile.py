"""Picking lists by name or position, a consensus's top features, and positions that are not a
ranking: each mistake is refused by name, never read another way (docs/design.md, 'Inputs')."""

import numpy as np
import pandas as pd
import pytest

from rankfusion import RankedLists, aggregate


def _lists(names):
    return RankedLists.from_scores(np.random.default_rng(0).random((4, len(names))),
                                   list_names=names)


def test_a_string_selects_the_list_of_that_name_not_its_characters():
    L = _lists(["a", "b", "ab"])
    assert L.select_lists("ab").list_names.tolist() == ["ab"]
    assert L.select_lists(["a", -1]).list_names.tolist() == ["a", "ab"]


def test_int_names_at_their_own_positions_are_read_either_way():
    L = _lists([0, 1, 2])
    assert L.select_lists([2, 0]).list_names.tolist() == [2, 0]
    assert L.ranked_features(1) == _lists(["p", "q", "r"]).ranked_features(1)


@pytest.mark.parametrize("which", [0, 2, np.int64(1)])
def test_an_int_that_names_another_list_is_ambiguous(which):
    L = _lists([2, 0, 1])
    with pytest.raises(ValueError, match=r"^list .* is ambiguous: the name of list \d and the "
                                         r"position of list"):
        L.select_lists([which])
    with pytest.raises(ValueError, match="is ambiguous"):
        L.ranked_features(which)


def test_an_int_name_beyond_the_positions_is_a_name():
    L = _lists([10, 20])
    assert L.select_lists([20]).list_names.tolist() == [20]


@pytest.mark.parametrize("bad, kind, message", [
    (True, TypeError, "a list is a name or an int position, got True"),
    (np.bool_(False), TypeError, None),  # numpy 1 and 2 print it differently
    (1.0, KeyError, "\"no list named 1.0; lists are ['a', 'b', 'ab']\""),
    ("zz", KeyError, "\"no list named 'zz'; lists are ['a', 'b', 'ab']\""),
    (7, IndexError, "list index 7 out of range for 3 lists"),
    ([0], KeyError, "\"no list named [0]; lists are ['a', 'b', 'ab']\""),
])
def test_bad_list_references_are_refused(bad, kind, message):
    L = _lists(["a", "b", "ab"])
    with pytest.raises(kind) as err:
        L.ranked_features(bad)
    assert str(err.value) == (message or f"a list is a name or an int position, got {bad!r}")


def test_top_counts_are_ints_from_zero_and_stop_at_every_feature():
    c = aggregate(_lists(["a", "b", "c"]), "borda")
    assert c.top(0) == [] and len(c.top(2)) == 2 and c.top(np.int64(1)) == c.top()[:1]
    assert c.top(10) == c.top() and len(c.top()) == 4
    for bad in (-1, True, 2.0, "2"):
        with pytest.raises(TypeError) as err:
            c.top(bad)
        assert str(err.value) == f"n must be None or an int ≥ 0, got {bad!r}"


@pytest.mark.parametrize("positions", [
    [[1, 1], [1, 2]],            # two features first in list 0
    [[1], [2], [2]],             # a tie at 2 must share 2.5
    [[1.5], [1.5], [2]],         # after a tie for 1-2 the next is 3
    [[2], [2], [1]],             # a tie for 2-3 holds 2.5
])
def test_positions_that_are_not_a_ranking_are_refused(positions):
    with pytest.raises(ValueError, match=r"^positions: list \d is not a ranking with average "
                                         r"ties"):
        RankedLists.from_positions(positions)


@pytest.mark.parametrize("positions", [
    [[1.5], [1.5], [3]], [[2], [2], [2]], [[1], [2.5], [2.5]], [[1], [np.nan], [2]],
    [[1.5], [1.5], [np.nan]], [[3], [1], [2]],
])
def test_rankings_with_average_ties_are_accepted(positions):
    L = RankedLists.from_positions(positions)
    np.testing.assert_array_equal(L.to_frame().to_numpy()[:, 0],
                                  np.asarray(positions, dtype=float)[:, 0])


@pytest.mark.parametrize("orders, kind, message", [
    ([{"a", "b", "c"}], TypeError,
     "orders[0] is a set, which has no order; give the feature names as a list, best first"),
    ([frozenset("ab")], TypeError,
     "orders[0] is a frozenset, which has no order; give the feature names as a list, best "
     "first"),
    ([{"a": 1, "b": 2}], TypeError,
     "orders[0] is a dict, which has no order; give the feature names as a list, best first"),
    ({frozenset("ab")}, TypeError,
     "orders must be a sequence of ordered sequences of feature names"),
    # a list inside an order reads as a tie, like a tuple (docs/design.md, 'Inputs')
    ([[["a"], ["b"]]], TypeError,
     "orders[0] holds a list at position 1 (['a']): an order names one feature per position, "
     "so it cannot hold a tie; give tied features equal scores (RankedLists.from_scores) or "
     "equal positions (RankedLists.from_positions, e.g. 1, 2.5, 2.5 for two features tied "
     "after the first); a feature name is a string, a number or (with universe=) a tuple"),
    ([["a", {"b"}]], TypeError,
     "orders[0] holds a set at position 2 ({'b'}): an order names one feature per position, "
     "so it cannot hold a tie; give tied features equal scores (RankedLists.from_scores) or "
     "equal positions (RankedLists.from_positions, e.g. 1, 2.5, 2.5 for two features tied "
     "after the first); a feature name is a string, a number or (with universe=) a tuple"),
    ([["a", {"b": 1}]], TypeError,
     "orders[0] holds a dict at position 2 ({'b': 1}); a feature name is a string, a number or "
     "(with universe=) a tuple"),
])
def test_unordered_or_unnamed_orders_are_refused(orders, kind, message):
    with pytest.raises(kind) as err:
        RankedLists.from_orders(orders)
    assert str(err.value) == message


def test_tuple_feature_names_stay_whole_when_the_universe_names_them():
    """Tuples are feature names only where the universe says so (MultiIndex columns); then
    each stays one name (docs/design.md, 'Inputs')."""
    universe = pd.MultiIndex.from_tuples([("a", 1), ("b", 2), ("c", 3)])
    L = RankedLists.from_orders([[("a", 1), ("b", 2)], [("b", 2), ("a", 1)]], universe=universe)
    assert L.features.shape == (3,)
    assert L.features.tolist() == [("a", 1), ("b", 2), ("c", 3)]
    assert L.ranked_features(1) == [("b", 2), ("a", 1)]
    assert L.positions[:, 1].tolist() == [2, 1, 3]


_TIE = ("an order names one feature per position, so it cannot hold a tie; give tied features "
        "equal scores (RankedLists.from_scores) or equal positions "
        "(RankedLists.from_positions, e.g. 1, 2.5, 2.5 for two features tied after the first)")
_NEEDS_UNIVERSE = ("; features named by tuples (e.g. MultiIndex columns) need universe= "
                   "listing those tuples")


@pytest.mark.parametrize("call, message", [
    # a new user writing "b and c tie for second"
    (lambda: RankedLists.from_orders([["a", ("b", "c"), "d"], list("abcd")]),
     "orders[0] holds a tuple at position 2 (('b', 'c')): " + _TIE + _NEEDS_UNIVERSE),
    (lambda: RankedLists.from_orders([list("abc"), [("a", "b"), "c"]]),
     "orders[1] holds a tuple at position 1 (('a', 'b')): " + _TIE + _NEEDS_UNIVERSE),
    (lambda: RankedLists.from_orders({"ig": list("abc"), "chi2": ["a", ("b", "c")]}),
     "orders[1] (list 'chi2') holds a tuple at position 2 (('b', 'c')): " + _TIE
     + _NEEDS_UNIVERSE),
    (lambda: RankedLists.from_orders([["a", ("b",)]], list_names=["mine"]),
     "orders[0] (list 'mine') holds a tuple at position 2 (('b',)): " + _TIE + _NEEDS_UNIVERSE),
    (lambda: RankedLists.from_orders(pd.DataFrame([["a", ("b", "c")]], index=["r1"])),
     "orders[0] (list 'r1') holds a tuple at position 2 (('b', 'c')): " + _TIE
     + _NEEDS_UNIVERSE),
    (lambda: RankedLists.from_orders([[1, (2, 3)]]),
     "orders[0] holds a tuple at position 2 ((2, 3)): " + _TIE + _NEEDS_UNIVERSE),
    # every entry a tuple of one length still reads as ties without a universe
    (lambda: RankedLists.from_orders([[("a", "b"), ("c", "d")]]),
     "orders[0] holds a tuple at position 1 (('a', 'b')): " + _TIE + _NEEDS_UNIVERSE),
    # with a universe, a tuple must be one of its names
    (lambda: RankedLists.from_orders([["a", ("b", "c")]], universe=list("abc")),
     "orders[0] holds a tuple at position 2 (('b', 'c')): " + _TIE
     + "; it is not one of universe's features"),
    (lambda: RankedLists.from_orders([[("a", 1), ("b", 3)]], universe=[("a", 1), ("b", 2)]),
     "orders[0] holds a tuple at position 2 (('b', 3)): " + _TIE
     + "; it is not one of universe's features"),
    (lambda: RankedLists.from_orders([[("a", 1), ("b", [2])]], universe=[("a", 1), ("b", 2)]),
     "orders[0] holds a tuple at position 2 (('b', [2])): " + _TIE
     + "; it is not one of universe's features"),
])
def test_a_tuple_inside_an_order_is_refused_as_a_tie(call, message):
    with pytest.raises(TypeError) as err:
        call()
    assert str(err.value) == message


def test_ties_written_as_positions_or_scores_are_read():
    """The ways out the message names give the tie the user meant."""
    by_pos = RankedLists.from_positions([[1], [2.5], [2.5], [4]], features=list("abcd"))
    by_score = RankedLists.from_scores([[4.0], [2.0], [2.0], [1.0]], features=list("abcd"))
    assert by_pos.positions[:, 0].tolist() == [1, 2.5, 2.5, 4]
    assert by_score.positions[:, 0].tolist() == [1, 2.5, 2.5, 4]


def test_a_universe_given_as_a_generator_is_read_once():
    L = RankedLists.from_orders([list("ab")], universe=(c for c in "abc"))
    assert L.features.tolist() == ["a", "b", "c"]


@pytest.mark.parametrize("names, message", [
    ([["a"], ["b"]], "features[0] must be a name (a string, a number or a tuple), got list "
                     "['a']"),
    ([{"a"}, "b"], "features[0] must be a name (a string, a number or a tuple), got set {'a'}"),
])
def test_feature_names_must_be_names(names, message):
    with pytest.raises(TypeError) as err:
        RankedLists.from_scores(np.ones((2, 1)), features=names)
    assert str(err.value) == message
