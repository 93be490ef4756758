"""List weights given by name (a dict or a Series) go to the list of that name, whatever
their order; names that do not match the lists, strings, bools and complex numbers are
refused rather than converted (docs/design.md, 'Inputs')."""

import numpy as np
import pandas as pd
import pytest

from rankfusion import aggregate
from rankfusion.aggregation import pairwise_matrix

SCORES = pd.DataFrame({"a": [3.0, 2.0, 1.0], "b": [1.0, 2.0, 3.0], "c": [2.0, 3.0, 1.0]},
                      index=["x", "y", "z"])


@pytest.mark.parametrize("rule", ["borda", "mean_score", "copeland", "schulze", "kemeny",
                                  "rrf", "combmnz"])
@pytest.mark.parametrize("make", [dict, pd.Series], ids=["dict", "Series"])
def test_named_weights_go_to_their_list(rule, make):
    by_name = aggregate(SCORES, rule, weights=make({"c": 0.5, "b": 3.0, "a": 1.0}))
    in_order = aggregate(SCORES, rule, weights=[1.0, 3.0, 0.5])
    np.testing.assert_array_equal(by_name.ranks, in_order.ranks)
    np.testing.assert_array_equal(by_name.scores, in_order.scores)
    # only list a counts: its order, where reading the values by position would give b's
    only_a = aggregate(SCORES, rule, weights=make({"b": 0.0, "a": 1.0, "c": 0.0}))
    assert list(only_a.top()) == ["x", "y", "z"]


def test_named_weights_reach_the_pairwise_counts():
    from rankfusion.aggregation import schulze_strengths

    by_name = pairwise_matrix(SCORES, weights={"b": 2.0, "a": 1.0, "c": 0.0})
    np.testing.assert_array_equal(by_name, pairwise_matrix(SCORES, weights=[1.0, 2.0, 0.0]))
    np.testing.assert_array_equal(
        schulze_strengths(SCORES, weights=pd.Series({"c": 0.0, "b": 2.0, "a": 1.0})),
        schulze_strengths(SCORES, weights=[1.0, 2.0, 0.0]))


HOSTILE = [
    ({"a": 1.0, "b": 1.0}, ValueError,
     "weights must name each list once: missing ['c'], unknown []; the lists are "
     "['a', 'b', 'c']"),
    ({"a": 1.0, "b": 1.0, "c": 1.0, "d": 1.0}, ValueError,
     "weights must name each list once: missing [], unknown ['d']; the lists are "
     "['a', 'b', 'c']"),
    (pd.Series([1.0, 2.0, 3.0], index=["a", "a", "b"]), ValueError, "weights names a list twice"),
    (["1", "2", "3"], TypeError, "weights must be numbers, got dtype <U1"),
    ([True, True, False], TypeError, "weights must be numbers, got dtype bool"),
    ([1.0, "2", 3.0], TypeError, "weights must be numbers, got dtype <U32"),
    (np.array([1, "2", 3.0], dtype=object), TypeError, "weights must be numbers, got '2'"),
    (np.array([1.0, True, 3.0], dtype=object), TypeError, "weights must be numbers, got True"),
    ([1.0, None, 1.0], TypeError, "weights must be numbers, got None"),
    (np.array([1 + 0j, 2, 3]), TypeError, "weights must be numbers, got dtype complex128"),
    ({"a": "1", "b": 1.0, "c": 1.0}, TypeError, "weights must be numbers, got dtype <U32"),
]


@pytest.mark.parametrize("weights, kind, message", HOSTILE,
                         ids=[str(i) for i in range(len(HOSTILE))])
def test_bad_weights_are_refused_with_their_message(weights, kind, message):
    with pytest.raises(kind) as err:
        aggregate(SCORES, "borda", weights=weights)
    assert str(err.value) == message


def test_named_weights_need_named_lists():
    from rankfusion._utils.validation import check_weights

    with pytest.raises(TypeError) as err:
        check_weights({"a": 1.0}, 1)
    assert "needs named lists" in str(err.value)
    np.testing.assert_array_equal(check_weights({"q": 2.0, "p": 1.0}, 2, list_names=["p", "q"]),
                                  [1.0, 2.0])
