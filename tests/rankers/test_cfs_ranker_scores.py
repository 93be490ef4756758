"""The ``cfs`` ranker's two scores: order of entry and the merit at entry (Hall 2000)."""

from __future__ import annotations

import os

import numpy as np
import pytest
from sklearn.datasets import load_iris

from rankfusion.io import load_data
from rankfusion.rankers import get_ranker
from rankfusion.rankers.cfs import _prepare_cfs

FIX = os.path.join(os.path.dirname(__file__), "..", "fixtures", "cfs", "data")


@pytest.mark.parametrize("name", ["diabetes", "iris", "credit-g", "vote"])
def test_merit_is_the_subset_merit_at_entry_and_the_greedy_maximum(name):
    path = os.path.join(FIX, f"{name}.arff.gz")
    if not os.path.exists(path):
        pytest.skip(f"{name} fixture absent")
    X, y = load_data(path)
    cfs = get_ranker("cfs")
    order = np.argsort(-cfs(X, y), kind="stable")
    merit = cfs(X, y, score="merit")
    ev = _prepare_cfs(X, y, False)  # independent merits: Hall's formula on the subset
    p = len(order)
    for k in range(min(p, 6)):
        S = order[: k + 1].tolist()
        assert merit[order[k]] == pytest.approx(ev.merit(S), rel=1e-12, abs=1e-15)
        # the entering feature beats every feature entering later at that step
        for g in order[k + 1:]:
            assert merit[order[k]] >= ev.merit(order[:k].tolist() + [int(g)]) - 1e-15


def test_merit_is_not_monotone_so_it_is_a_different_ranking():
    X, y = load_iris(return_X_y=True)
    cfs = get_ranker("cfs")
    order = np.argsort(-cfs(X, y), kind="stable")
    merit = cfs(X, y, score="merit")
    assert order.tolist() == [3, 2, 0, 1]
    assert merit[2] > merit[3]  # adding petal length to petal width raises the merit
    assert ((merit >= 0) & (merit <= 1)).all()


@pytest.mark.parametrize("bad", ["merits", "", None, 1, "ORDER"])
def test_score_hostile(bad):
    X, y = load_iris(return_X_y=True)
    with pytest.raises((TypeError, ValueError), match="score must be .order. or .merit."):
        get_ranker("cfs")(X, y, score=bad)
