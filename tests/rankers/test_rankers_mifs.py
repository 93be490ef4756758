"""MIFS (Battiti 1994): greedy I(C; f) - beta * sum_s I(f; s), order = ranking
(docs/design.md, 'Rankers')."""

import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris

from rankfusion.rankers import get_ranker
from rankfusion.rankers.mifs import equal_width_codes, mifs, mifs_order


def mutual_information(a, b) -> float:
    """I(A; B) in bits, straight from the definition."""
    n = len(a)
    pa, pb, pab = Counter(a), Counter(b), Counter(zip(a, b))
    return sum(c / n * math.log2(c * n / (pa[x] * pb[y])) for (x, y), c in pab.items())


def battiti(X, y, beta=0.5):
    """Battiti 1994, §III 'MIFS' algorithm, transcribed: greedy over all features."""
    p = len(X[0])
    cols = [[row[j] for row in X] for j in range(p)]
    F, S = list(range(p)), []
    rel = {f: mutual_information(cols[f], list(y)) for f in F}
    while F:
        best, best_val = None, None
        for f in F:  # lower index first: a later feature must beat it by > 1e-12 bits
            val = rel[f] - beta * sum(mutual_information(cols[f], cols[s]) for s in S)
            if best is None or val > best_val + 1e-12:
                best, best_val = f, val
        F.remove(best)
        S.append(best)
    return S


small_discrete = st.tuples(st.integers(6, 25), st.integers(2, 6), st.integers(0, 2**32 - 1),
                           st.sampled_from([0.0, 0.5, 1.0]))


@settings(max_examples=60, deadline=None)
@given(small_discrete)
def test_equals_transcription_of_battiti_on_small_discrete_inputs(params):
    n, p, seed, beta = params
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    y[:2] = [0, 1]
    X = rng.integers(0, 4, (n, p))
    if p > 2:
        X[:, 2] = X[:, 0]  # an exact duplicate: redundancy matters
    got = mifs_order(X.astype(float), y, beta=beta).tolist()
    # integer values 0..3 fall in distinct bins of the 10 equal-width bins: MI is unchanged
    assert got == battiti(X.tolist(), y.tolist(), beta)


def test_bins_are_numpy_histogram_bins():
    rng = np.random.default_rng(1)
    x = rng.normal(size=200)
    codes, nv = equal_width_codes(x[:, None], np.array([False]))
    assert nv[0] == 10
    np.testing.assert_array_equal(np.bincount(codes[:, 0], minlength=10),
                                  np.histogram(x, bins=10)[0])
    assert codes[np.argmax(x), 0] == 9  # last bin closed


def test_score_is_p_minus_position_and_registered():
    X, y = load_iris(return_X_y=True)
    order = mifs_order(X, y)
    scores = get_ranker("mifs")(X, y)
    p = X.shape[1]
    assert [scores[f] for f in order] == list(range(p - 1, -1, -1))
    assert order[0] == int(np.argmax([mutual_information(
        np.searchsorted(np.histogram_bin_edges(X[:, j], 10), X[:, j], "right").clip(1, 10)
        .tolist(), y.tolist()) for j in range(p)]))


def test_beta_zero_is_ranking_by_relevance():
    X, y = load_iris(return_X_y=True)
    codes, _ = equal_width_codes(X, np.zeros(4, bool))
    rel = [mutual_information(codes[:, j].tolist(), y.tolist()) for j in range(4)]
    assert mifs_order(X, y, beta=0.0).tolist() == np.argsort(-np.array(rel), kind="stable").tolist()


def test_redundant_copy_is_pushed_down():
    X, y = load_iris(return_X_y=True)
    Xd = np.column_stack([X, X[:, 3]])  # a copy of the best feature
    order = mifs_order(Xd, y).tolist()
    assert order[0] == 3 and order[-1] == 4


def test_nominal_and_missing_values():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 60)
    X = pd.DataFrame({"good": pd.Categorical(np.where(y == 1, "a", "b")),
                      "noise": rng.normal(size=60)})
    X.loc[[0, 5], "noise"] = np.nan
    assert mifs_order(X, y).tolist() == [0, 1]


def test_constant_and_all_missing_features_come_last():
    # I(C; const) = I(const; s) = 0: Battiti's criterion would pick it as soon as every other
    # candidate's is negative (redundant features: 3rd on iris); it takes no part in the search
    X, y = load_iris(return_X_y=True)
    with_const = np.column_stack([np.ones(len(y)), X, np.full(len(y), np.nan)])
    order = mifs_order(with_const, y).tolist()
    assert order == [j + 1 for j in mifs_order(X, y)] + [0, 5]


@pytest.mark.parametrize("kw, match", [({"beta": -1}, "beta"), ({"n_bins": 0}, "n_bins")])
def test_bad_parameters(kw, match):
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match=match):
        mifs(X, y, **kw)

