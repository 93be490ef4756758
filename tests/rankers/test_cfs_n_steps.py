"""CFS ranking stopped after ``n_steps`` greedy additions (rankfusion.rankers.cfs)."""

import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer, load_wine

from rankfusion.rankers.cfs import _prepare_cfs, cfs


@pytest.mark.parametrize("loader", [load_wine, load_breast_cancer])
@pytest.mark.parametrize("n_steps", [1, 3, 7])
def test_head_equals_full_search_and_tail_by_next_merit(loader, n_steps):
    X, y = loader(return_X_y=True)
    p = X.shape[1]
    full = cfs(X, y)
    part = cfs(X, y, n_steps=n_steps)
    # a permutation of the scores p-1 … 0
    assert sorted(part.tolist()) == list(range(p))
    head_full = np.argsort(-full, kind="stable")[:n_steps]
    order = np.argsort(-part, kind="stable")
    np.testing.assert_array_equal(order[:n_steps], head_full)
    # oracle for the tail: the merit of S ∪ {f} recomputed subset by subset
    ev = _prepare_cfs(X, y, False)
    head = order[:n_steps].tolist()
    tail_merits = [ev.merit(head + [int(f)]) for f in order[n_steps:]]
    assert all(a >= b - 1e-6 for a, b in zip(tail_merits, tail_merits[1:]))


def test_n_steps_at_least_p_is_the_full_ranking():
    X, y = load_wine(return_X_y=True)
    np.testing.assert_array_equal(cfs(X, y, n_steps=X.shape[1]), cfs(X, y))
    np.testing.assert_array_equal(cfs(X, y, n_steps=100), cfs(X, y))


@pytest.mark.parametrize("bad, exc", [(0, ValueError), (-2, ValueError), (2.5, TypeError),
                                      ("3", TypeError), (True, TypeError)])
def test_bad_n_steps(bad, exc):
    X, y = load_wine(return_X_y=True)
    with pytest.raises(exc, match="n_steps"):
        cfs(X, y, n_steps=bad)
