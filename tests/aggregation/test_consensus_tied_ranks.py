"""Consensus.tied_ranks: ranks with ties where tables print them (robust-FS paper, Table 5)."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from rankfusion import aggregate


def test_tied_ranks_by_hand():
    c = aggregate(np.array([[3.0, 3.0], [1.0, 1.0], [3.0, 3.0], [2.0, 2.0]]), "mean_score")
    assert c.ranks.tolist() == [1, 4, 2, 3]  # the rule breaks the tie by index
    assert c.tied_ranks("min").tolist() == [1, 4, 1, 3]
    assert c.tied_ranks("dense").tolist() == [1, 3, 1, 2]
    assert c.tied_ranks("average").tolist() == [1.5, 4.0, 1.5, 3.0]
    assert c.tied_ranks("max").tolist() == [2, 4, 2, 3]
    assert c.tied_ranks().dtype == np.int64


@pytest.mark.parametrize("method", ["min", "dense", "average", "max"])
def test_tied_ranks_equal_scipy_rankdata_and_respect_the_order(method):
    scores = np.random.default_rng(0).integers(0, 4, size=(12, 3)).astype(float)
    c = aggregate(scores, "mean_score")
    tied = c.tied_ranks(method)
    np.testing.assert_array_equal(tied, stats.rankdata(-c.scores, method=method))
    # never contradicts the untied consensus order
    assert np.all(np.diff(tied[c.order]) >= 0)


def test_tied_ranks_reproduce_robust_fs_table_5_row():
    # AML, robust-FS Table 3: F-measure of 5 classifiers (lists) for 5 techniques (features);
    # each classifier ranks the techniques, Borda averages the ranks, Table 5 prints dense ranks.
    f = np.array([[.67, .69, .63, .69, .69], [.67, .69, .63, .69, .69],
                  [.64, .64, .60, .63, .63], [.65, .64, .62, .63, .64],
                  [.64, .64, .60, .63, .63]])
    per_classifier = -stats.rankdata(-f, axis=0)  # higher = better scores
    c = aggregate(pd.DataFrame(per_classifier,
                               index=["Kemeny", "Borda", "InfoGain", "SymmetricU", "ChiSq"]),
                  "mean_score")
    assert c.tied_ranks("dense").tolist() == [1, 1, 3, 2, 3]


@pytest.mark.parametrize("method", ["ordinal", "first", "", None, 1])
def test_tied_ranks_hostile_method(method):
    c = aggregate(np.eye(3), "mean_score")
    with pytest.raises(ValueError, match="method must be one of"):
        c.tied_ranks(method)
