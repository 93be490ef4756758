"""The ranker memo (rankfusion.selection.ranker_specs.ranker_cache / set_ranker_cache)."""

import numpy as np
import pytest
from sklearn.datasets import load_wine

from rankfusion import EnsembleSelector
from rankfusion.rankers import get_ranker
from rankfusion.selection.ranker_specs import ranker_cache, set_ranker_cache


def _fit(rankers, X, y, seed=0):
    return EnsembleSelector(rankers=rankers, aggregation="borda", n_features_to_select=3,
                            random_state=seed).fit(X, y)


@pytest.fixture(autouse=True)
def _no_process_wide_cache():
    """The experiment runner switches the process-wide memo on for its cells; these tests
    count hits of the scoped cache alone."""
    set_ranker_cache(None)
    yield
    set_ranker_cache(None)


def test_same_scores_and_hits_for_repeated_rankings():
    X, y = load_wine(return_X_y=True)
    plain = _fit(("info_gain", "relieff"), X, y)
    with ranker_cache() as stats:
        a = _fit(("info_gain", "relieff"), X, y)
        b = _fit(("relieff", "info_gain"), X, y)  # relieff gets another seed at index 0
        c = _fit(("info_gain",), X[:-3], y[:-3])
    np.testing.assert_array_equal(a.lists_.scores, plain.lists_.scores)
    # oracle: uncached fits (and the ranker called directly gives the same order)
    np.testing.assert_array_equal(b.lists_.scores[:, 1], plain.lists_.scores[:, 0])
    np.testing.assert_array_equal(b.lists_.scores[:, 0], plain.lists_.scores[:, 1])
    np.testing.assert_array_equal(c.lists_.scores, _fit(("info_gain",), X[:-3], y[:-3])
                                  .lists_.scores)
    direct = get_ranker("info_gain")(X, y)
    assert np.array_equal(np.argsort(-direct, kind="stable"),
                          np.argsort(-a.lists_.scores[:, 0], kind="stable"))
    # info_gain reused once (b); relieff's seed differs between positions 0 and 1 -> no reuse
    assert stats == {"hits": 1, "misses": 4}


def test_user_callables_are_never_cached():
    X, y = load_wine(return_X_y=True)
    calls = []

    def f(X, y):
        calls.append(1)
        return np.arange(X.shape[1], dtype=float)

    with ranker_cache() as stats:
        _fit((f,), X, y)
        _fit((f,), X, y)
    assert len(calls) == 2 and stats == {"hits": 0, "misses": 0}


def test_global_switch_keeps_entries_across_blocks_until_switched_off():
    X, y = load_wine(return_X_y=True)
    set_ranker_cache(8)
    try:
        with ranker_cache() as s1:
            _fit(("chi_square",), X, y)
        with ranker_cache() as s2:
            _fit(("chi_square",), X, y)
        assert s1["misses"] == 1 and s2["hits"] == 1
    finally:
        set_ranker_cache(None)
    with ranker_cache() as s3:
        _fit(("chi_square",), X, y)
    assert s3 == {"hits": 0, "misses": 1}


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, "3"])
def test_bad_max_entries(bad):
    with pytest.raises(ValueError, match="max_entries"):
        set_ranker_cache(bad)
    with pytest.raises(ValueError, match="max_entries"):
        with ranker_cache(bad):
            pass
