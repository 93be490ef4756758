"""``Consensus.positions`` (docs/design.md, 'Scores and positions'), and ``ranks``, its former
name, kept working: as an attribute and as a constructor argument."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rankfusion import aggregate, aggregate_fuzzy
from rankfusion.aggregation import Consensus

SCORES = np.array([[3.0, 2.0], [1.0, 3.0], [2.0, 1.0]])


def test_positions_is_the_field_and_ranks_the_same_array():
    c = aggregate(SCORES, "borda")
    assert "positions" in {f.name for f in dataclasses.fields(c)}
    assert "ranks" not in {f.name for f in dataclasses.fields(c)}
    assert c.ranks is c.positions
    assert c.positions[c.order].tolist() == [1, 2, 3]
    assert c.to_frame()["rank"].tolist() == [1, 2, 3]  # the table keeps its column name


def test_a_fuzzy_consensus_has_positions_too():
    scores = np.random.default_rng(0).random((4, 2, 3))  # features × methods × bootstraps
    c = aggregate_fuzzy(scores, "EW")
    assert c.ranks is c.positions
    assert sorted(c.positions.tolist()) == [1, 2, 3, 4]


@pytest.mark.parametrize("name", ["positions", "ranks"])
def test_the_constructor_takes_either_name(name):
    c = Consensus(order=np.array([1, 0]), scores=np.array([0.0, 1.0]),
                  **{name: np.array([2, 1])}, features=np.array(["a", "b"], dtype=object),
                  method="custom")
    assert c.positions.tolist() == [2, 1] and c.ranks.tolist() == [2, 1]
    assert c.params == {} and c.info == {} and c.tiebreak is None
    assert dataclasses.replace(c, method="other").positions.tolist() == [2, 1]


def test_the_constructor_refuses_both_names_or_neither():
    common = dict(order=np.array([0]), scores=np.array([1.0]),
                  features=np.array(["a"], dtype=object), method="custom")
    with pytest.raises(TypeError, match="not both"):
        Consensus(**common, positions=np.array([1]), ranks=np.array([1]))
    with pytest.raises(TypeError, match="positions"):
        Consensus(**common)


def test_positional_construction_is_unchanged():
    c = Consensus(np.array([0]), np.array([1.0]), np.array([1]),
                  np.array(["a"], dtype=object), "custom")
    assert c.positions.tolist() == [1] and c.method == "custom"


def test_a_consensus_is_frozen():
    c = aggregate(SCORES, "borda")
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.positions = np.zeros(3)
