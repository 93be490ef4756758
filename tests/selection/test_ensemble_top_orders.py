"""The stability table reads each list's first k + 1 features only: ``_top_orders`` gives
exactly the first m of the stable descending order (ties by feature index), whatever the ties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rankfusion.selection.ensemble import _top_orders


def _reference(block, m):
    return [np.argsort(-row, kind="stable")[:m] for row in block]


@pytest.mark.parametrize("name, block", [
    ("all equal", np.zeros((3, 9))),
    ("signed zeros", np.array([[0.0, -0.0, 0.0, -0.0, 1.0, -0.0]])),
    ("ties across the cut", np.array([[3.0, 1.0, 2.0, 2.0, 2.0, 2.0, 0.0]])),
    ("one feature", np.array([[5.0], [-1.0]])),
    ("extremes", np.array([[1e308, -1e308, 1e308, 5e-324, -5e-324, 0.0]])),
    ("descending", np.arange(10.0)[::-1][None, :]),
    ("ascending", np.arange(10.0)[None, :]),
])
@pytest.mark.parametrize("m", [1, 2, 3, 5, 6, 100])
def test_top_orders_equal_the_stable_sort_on_hostile_ties(name, block, m):
    m = min(m, block.shape[1])
    got = _top_orders(block, m)
    assert len(got) == block.shape[0]
    for g, r in zip(got, _reference(block, m)):
        assert g.tolist() == r.tolist(), name


@given(arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 40)),
              elements=st.sampled_from([0.0, -0.0, 1.0, 2.5, -3.0, 7.0])),
       st.integers(1, 40))
@example(np.array([[1.0, 1.0, 1.0, 0.0]]), 2)
def test_top_orders_property(block, m):
    m = min(m, block.shape[1])
    for g, r in zip(_top_orders(block, m), _reference(block, m)):
        assert g.tolist() == r.tolist()
