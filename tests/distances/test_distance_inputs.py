"""Orders given to the distances: unordered containers, ids of two types, ragged rows and
non-numeric weights are refused by name, never coerced (docs/design.md, 'Inputs')."""

import numpy as np
import pytest

from rankfusion.distances import distance_matrix, kendall_tau, spearman_footrule

_TIE = ("an order names one feature per position, so it cannot hold a tie; give tied features "
        "equal scores (RankedLists.from_scores) or equal positions "
        "(RankedLists.from_positions, e.g. 1, 2.5, 2.5 for two features tied after the first); "
        "name the features by strings or integers")

HOSTILE = [
    (lambda: spearman_footrule({"a", "b", "c"}, ["c", "b", "a"]), TypeError,
     "a is a set, which has no order; give the feature ids as a list, best first"),
    (lambda: kendall_tau(["a", "b"], {"a": 0, "b": 1}), TypeError,
     "b is a dict, which has no order; give the feature ids as a list, best first"),
    (lambda: kendall_tau(np.array([[1, 2], [3, 4]]), [1, 2]), ValueError,
     "a must be 1-D (one order); got shape (2, 2)"),
    (lambda: spearman_footrule([["a"], ["b"]], ["a", "b"]), TypeError,
     "a holds a list at position 1 (['a']): " + _TIE),
    (lambda: distance_matrix([["a", ["b", "c"]]], [["a", "b"]]), TypeError,
     "candidates[0] holds a list at position 2 (['b', 'c']): " + _TIE),
    (lambda: distance_matrix([[0, 1, 2]], [["0", "1", "2"]]), TypeError,
     "candidates and lists must name the features in one type; got int64 and <U1 (1 and '1' "
     "are different features)"),
    (lambda: distance_matrix([[0, 1], [2]], [[0, 1]]), ValueError,
     "candidates must be 2-D with one order per row, every row of the same length"),
    (lambda: distance_matrix([[0.0, 1.0]], [[0.0, 1.0]]), TypeError,
     "candidates must hold feature ids (ints or strings), got dtype float64"),
    (lambda: distance_matrix(np.array([[0, "a"]], dtype=object), [[0, 1]]), TypeError,
     "candidates must name the features in one type; got ['int', 'str']"),
    (lambda: distance_matrix([[0, 1, 2]], [[0, 1, 2]], scores=[["a", "b", "c"]]), TypeError,
     "scores must be real numbers, got dtype <U1"),
    # a tuple inside an order: a tie, to its author (docs/design.md, 'Inputs')
    (lambda: kendall_tau(["a", ("b", "c")], ["a", "b", "c"]), TypeError,
     "a holds a tuple at position 2 (('b', 'c')): " + _TIE),
    (lambda: spearman_footrule(["a", "b", "c"], [("a", "b"), "c"]), TypeError,
     "b holds a tuple at position 1 (('a', 'b')): " + _TIE),
    (lambda: distance_matrix([["a", ("b", "c")]], [["a", "b"]]), TypeError,
     "candidates[0] holds a tuple at position 2 (('b', 'c')): " + _TIE),
    (lambda: distance_matrix([[0, 1]], [[0, 1], [(0, 1), 2]]), TypeError,
     "lists[1] holds a tuple at position 1 ((0, 1)): " + _TIE),
]


@pytest.mark.parametrize("call, kind, message", HOSTILE,
                         ids=[str(i) for i in range(len(HOSTILE))])
def test_bad_orders_are_refused_with_their_message(call, kind, message):
    with pytest.raises(kind) as err:
        call()
    assert str(err.value) == message


def test_string_ids_as_an_object_array_equal_the_same_ids_as_strings():
    cands = np.array([["a", "b", "c"], ["c", "b", "a"]], dtype=object)
    lists = np.array([["a", "b", "c"]])
    np.testing.assert_array_equal(distance_matrix(cands, lists, distance="kendall"),
                                  [[0.0], [3.0]])
