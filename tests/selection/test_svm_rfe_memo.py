"""``rfe_lists_memo``: per-problem SVM-RFE lists reused inside the block, numbers unchanged."""

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine
from sklearn.svm import SVC

import rankfusion.selection.svm_rfe as svm_rfe_mod
from rankfusion.rankers import rfe_lists
from rankfusion.selection import SVMRFE, rfe_lists_memo, svm_rfe_rankings


@pytest.fixture
def wine():
    X, y = load_wine(return_X_y=True)
    return (X - X.mean(0)) / X.std(0), y


def test_same_numbers_as_without_memo(wine):
    X, y = wine
    plain = svm_rfe_rankings(X, y, ["kfirst", "schulze", "best_rank"], random_state=0)
    with rfe_lists_memo():
        memo = svm_rfe_rankings(X, y, ["kfirst", "schulze", "best_rank"], random_state=0)
    for m in plain.positions:
        np.testing.assert_array_equal(plain.positions[m], memo.positions[m])
    # the oracle: rfe_lists itself, outside any memo
    lists, _ = rfe_lists(X, y, decomposition="ovo", keep_weights=True)
    np.testing.assert_array_equal(memo.lists.positions, lists.positions)


def test_second_rule_reuses_the_lists(wine, monkeypatch):
    X, y = wine
    calls = []
    real = svm_rfe_mod.rfe_lists

    def counting(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(svm_rfe_mod, "rfe_lists", counting)
    with rfe_lists_memo():
        a = SVMRFE(aggregation="kfirst", random_state=0).fit(X, y)
        b = SVMRFE(aggregation="copeland", random_state=0).fit(X, y)
        c = SVMRFE(aggregation="copeland", C=0.5, random_state=0).fit(X, y)  # other key
    assert len(calls) == 2
    assert a.lists_ is b.lists_ and c.lists_ is not a.lists_
    SVMRFE(aggregation="kfirst", random_state=0).fit(X, y)  # outside: computed again
    assert len(calls) == 3


def test_other_data_other_key_and_lru(monkeypatch):
    X, y = load_iris(return_X_y=True)
    calls = []
    real = svm_rfe_mod.rfe_lists
    monkeypatch.setattr(svm_rfe_mod, "rfe_lists", lambda *a, **k: calls.append(1) or real(*a, **k))
    with rfe_lists_memo(maxsize=1):
        svm_rfe_rankings(X, y, "kfirst")
        svm_rfe_rankings(X[:-3], y[:-3], "kfirst")   # evicts the first
        svm_rfe_rankings(X, y, "kfirst")
        svm_rfe_rankings(X, y, "borda")              # hit
    assert len(calls) == 3


def test_custom_estimator_not_memoised(monkeypatch):
    X, y = load_iris(return_X_y=True)
    calls = []
    real = svm_rfe_mod.rfe_lists
    monkeypatch.setattr(svm_rfe_mod, "rfe_lists", lambda *a, **k: calls.append(1) or real(*a, **k))
    with rfe_lists_memo():
        for _ in range(2):
            svm_rfe_rankings(X, y, "kfirst", estimator=SVC(kernel="linear"))
    assert len(calls) == 2


@pytest.mark.parametrize(("bad", "exc"), [(0, ValueError), (-1, ValueError), (True, TypeError),
                                          (1.5, TypeError), ("3", TypeError), (None, TypeError)])
def test_bad_maxsize(bad, exc):
    # out of range: ValueError; not an int at all: TypeError (the vocabulary's rule)
    with pytest.raises(exc, match=r"^maxsize must be an int ≥ 1, got "):
        with rfe_lists_memo(bad):
            pass


def test_memo_tells_apart_runs_that_differ_in_one_input():
    # X, y, feature names, warm start: each must change the key, so each run inside the memo
    # equals the same run without it
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 8)
    X = rng.normal(size=(24, 6)) + y[:, None] * np.linspace(1, 0, 6)
    X2 = X[:, ::-1].copy()
    y2 = np.roll(y, 5)
    runs = [dict(X=X, y=y), dict(X=X2, y=y), dict(X=X, y=y2),
            dict(X=X, y=y, feature_names=list("abcdef")), dict(X=X, y=y, warm_start=True)]
    plain = [svm_rfe_rankings(methods="borda", random_state=0, **r) for r in runs]
    with rfe_lists_memo():
        memo = [svm_rfe_rankings(methods="borda", random_state=0, **r) for r in runs]
    for a, b in zip(plain, memo):
        np.testing.assert_array_equal(a.positions["borda"], b.positions["borda"])
        assert list(a.lists.features) == list(b.lists.features)
