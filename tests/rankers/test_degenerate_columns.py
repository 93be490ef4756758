"""Constant and entirely missing columns come last in every registered ranker, with one
warning naming them (docs/design.md, 'Rankers'); a ranker refusing NaN says so; the registry's
``greedy`` tag is true to the scores.

The rankers are read from the registry, so a new ranker is covered without editing this file.
Before the rule, ``mrmr_mid`` and ``disr`` ranked a constant column 2nd of 5 on iris + a
constant, ``mifs`` 3rd, ``mrmr_fcq`` 1st, ``cfs_regression`` 3rd of 7, and ReliefF's 0 for a
constant beat every noise feature's negative weight."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris, make_regression

from rankfusion.rankers import available_rankers, ranker_info, ranker_tasks

RANKERS = available_rankers()
#: rankers whose scores are p − position of a backward elimination by weights (ties are not
#: broken by the column order first): positions, but not greedy forward selections
ELIMINATION = {"svm_rfe", "rfe_regression"}


def _data(name):
    """The ranker's data with a constant column and, where it takes NaN, an all-NaN one."""
    if "classification" in ranker_tasks(name):
        X, y = load_iris(return_X_y=True)
        if _binary_only(name):  # Kira & Rendell's Relief, two-sample tests
            X, y = X[y < 2], y[y < 2]
    else:
        X, y = make_regression(90, 5, n_informative=3, noise=10.0, random_state=0)
    extra = [np.full(len(y), 3.3)]
    if ranker_info(name).tags["allow_nan"]:
        extra.append(np.full(len(y), np.nan))
    return np.column_stack([X, *extra]), y, X.shape[1]


def _binary_only(name) -> bool:
    X, y = load_iris(return_X_y=True)
    try:
        ranker_info(name).func(X[:, :2], y, **_params(name))
    except ValueError as e:
        return bool(re.search(r"two classes|exactly 2 classes", str(e)))
    return False


def _params(name):
    info = ranker_info(name)
    out = {"random_state": 0} if info.accepts("random_state") else {}
    if info.accepts("n_estimators"):
        out["n_estimators"] = 20
    if info.accepts("cv"):
        out["cv"] = 3
    return out


@pytest.mark.parametrize("name", RANKERS)
def test_constant_and_all_missing_columns_come_last(name):
    X, y, p = _data(name)
    names = ", ".join(f"'x{j}'" for j in range(p, X.shape[1]))
    with pytest.warns(UserWarning, match=re.escape(f"{name}: column(s) {names} are constant or "
                                                   "entirely missing") + ".*ranked last") as rec:
        s = ranker_info(name).func(X, y, **_params(name))
    # no numpy warning leaks out of such a column ("Mean of empty slice", "invalid value")
    assert not [str(w.message) for w in rec if issubclass(w.category, RuntimeWarning)]
    assert np.isfinite(s).all()
    real, vacant = s[:p], s[p:]
    assert vacant.max() <= real.min()  # never above any other column
    if ranker_info(name).tags.get("greedy", False) or name in ELIMINATION:
        # positions: strictly last, in index order
        assert np.argsort(-s, kind="stable").tolist()[p:] == list(range(p, X.shape[1]))


@pytest.mark.parametrize("name", [n for n in RANKERS if ranker_info(n).tags.get("greedy")
                                  and "classification" in ranker_tasks(n)
                                  and not ranker_info(n).accepts("score")])
def test_a_greedy_order_is_that_of_the_informative_columns(name):
    """A constant column takes no part in the search: the others' order is the order
    without it (in MID's means and JMI's sums it would otherwise change the criteria)."""
    X, y, p = _data(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with_vacant = ranker_info(name).func(X, y)
    without = ranker_info(name).func(X[:, :p], y)
    assert np.argsort(-with_vacant, kind="stable")[:p].tolist() == \
        np.argsort(-without, kind="stable").tolist()


@pytest.mark.parametrize("name", [n for n in RANKERS if not ranker_info(n).tags["allow_nan"]])
def test_a_ranker_refusing_nan_says_so(name):
    X, y, p = _data(name)
    X = np.column_stack([X, np.full(len(y), np.nan)])
    with pytest.raises(ValueError, match=r"(?i)(missing|NaN)"):
        ranker_info(name).func(X, y, **_params(name))


@pytest.mark.parametrize("name", RANKERS)
def test_the_greedy_tag_is_true_to_the_scores(name):
    """Tagged ``greedy`` ⇔ the scores are p − position (a permutation of 0..p−1); the
    elimination orders of RFE are positions too but are no greedy forward selection."""
    X, y, p = _data(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        s = ranker_info(name).func(X[:, :p], y, **_params(name))
    positions = np.array_equal(np.sort(s), np.arange(p))
    greedy = ranker_info(name).tags.get("greedy", False)
    if greedy and ranker_info(name).accepts("score"):
        assert positions  # CFS's default form
    else:
        assert positions == (greedy or name in ELIMINATION), name


def test_every_column_vacant_ties_all():
    X = np.column_stack([np.ones(10), np.full(10, np.nan)])
    y = np.tile([0, 1], 5)
    with pytest.warns(UserWarning, match="every column is constant or entirely missing"):
        s = ranker_info("info_gain").func(X, y)
    assert s.tolist() == [0.0, 0.0]


def test_a_data_frame_names_its_columns():
    import pandas as pd

    X, y = load_iris(return_X_y=True, as_frame=True)
    X = X.assign(flat=1.0)
    with pytest.warns(UserWarning, match="mrmr_mid: column\\(s\\) 'flat' are constant"):
        s = ranker_info("mrmr_mid").func(X, y)
    assert s[-1] == 0.0 and isinstance(X, pd.DataFrame)
