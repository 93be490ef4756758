"""Boruta's shadows, as the ranker sees them at every iteration (Kursa & Rudnicki 2010, §2: a
shadow is a copy of a feature "obtained by shuffling" its values, each feature shuffled on its
own, made afresh every iteration for the features still in play).

Oracle: a score function passed as ``ranker`` (the public way) records the extended matrix it
is given. At every iteration its first m columns must be m of the original columns (the
features not rejected, in order) and column m + j a permutation of column j (its sorted values
equal) and of no other column; the permutations must differ between columns and between
iterations (each column shuffled on its own, afresh). The data have distinct values in every
column, so "a permutation of column j" cannot hold for another column by chance.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.feature_selection import f_classif

from rankfusion.selection import BorutaSelector


def _data(seed=3, n=60, p=8, *, sparse=False):
    """Noise first, the two relevant features last (so that rejected features are not the
    last columns and the features in play are not a prefix of X)."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.normal(size=(n, p))
    X[:, -2:] += 1.5 * y[:, None]
    if sparse:  # half the entries zero; the stored values stay distinct
        X[rng.random(size=X.shape) < 0.5] = 0.0
    return X, y


def _recorder(store: list, *, sparse: bool):
    def recording_f(X, y):
        store.append(X.toarray() if sp.issparse(X) else np.array(X, copy=True))
        return f_classif(X, y)[0]

    if sparse:
        recording_f.accept_sparse = True  # a score function that takes sparse X as it is
    return recording_f


def _active_columns(X, real):
    """The original column index of every real column of the extended matrix."""
    out = []
    for j in range(real.shape[1]):
        same = [k for k in range(X.shape[1]) if np.array_equal(X[:, k], real[:, j])]
        assert len(same) == 1, f"real column {j} is not one column of X"
        out.append(same[0])
    return out


@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "sparse"])
def test_every_shadow_is_a_permutation_of_its_own_column_at_every_iteration(sparse):
    X, y = _data(sparse=sparse)
    seen: list = []
    sel = BorutaSelector(_recorder(seen, sparse=sparse), max_iter=25, random_state=0).fit(
        sp.csr_matrix(X) if sparse else X, y
    )
    assert len(seen) == sel.n_iter_ >= 2
    actives = []
    for t, E in enumerate(seen):
        m = E.shape[1] // 2
        assert E.shape == (X.shape[0], 2 * m)
        real, shadow = E[:, :m], E[:, m:]
        active = _active_columns(X, real)
        # the features in play, in column order: every feature not rejected before t
        assert active == [
            k
            for k in range(X.shape[1])
            if sel.decision_[k] != "rejected" or sel.decision_iteration_[k] > t
        ]
        actives.append(tuple(active))
        for j in range(m):
            own = np.sort(shadow[:, j])
            assert np.array_equal(own, np.sort(real[:, j])), (t, j)
            for k in range(m):
                if k != j:
                    assert not np.array_equal(own, np.sort(real[:, k])), (t, j, k)
    # the fixture: features were rejected along the way, and not only the last columns
    assert len(set(actives)) >= 2
    assert any(a != tuple(range(len(a))) for a in actives)


def _row_permutation(real_col, shadow_col):
    """The permutation π with shadow[i] = real[π[i]] (values distinct)."""
    where = {v: i for i, v in enumerate(real_col)}
    return np.array([where[v] for v in shadow_col])


def test_shadows_are_shuffled_column_by_column_and_afresh_every_iteration():
    X, y = _data()
    seen: list = []
    BorutaSelector(_recorder(seen, sparse=False), max_iter=6, random_state=1).fit(X, y)
    perms = []
    for E in seen:
        m = E.shape[1] // 2
        ps = [_row_permutation(E[:, j], E[:, m + j]) for j in range(m)]
        # each column its own shuffle: no two columns moved by the same row permutation
        assert len({p.tobytes() for p in ps}) == m
        assert not any(np.array_equal(p, np.arange(X.shape[0])) for p in ps)
        perms.append(ps[0])
    # drawn afresh: the first column's shuffle differs between iterations
    assert len({p.tobytes() for p in perms}) == len(perms) >= 2
