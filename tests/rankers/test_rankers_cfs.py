"""CFS (Hall 2000) as Weka 3.6's CfsSubsetEval + BestFirst -D 1 -N 5 (docs/design.md, 'Rankers')."""

import json
import os
import re
import subprocess
import tempfile

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

from conftest import CFS_FIXTURES, SHARED_DATASETS
from rankfusion.io import load_data
from rankfusion.rankers import get_ranker
from rankfusion.rankers.cfs import CFSMerit, _add_to_list, _su_pair, _su_table, cfs, cfs_subset

FIX = CFS_FIXTURES
WEKA_FIXTURES = json.loads((FIX / "cfs_subsets.json").read_text())

VARIANT_KW = {
    "forward": {},
    "backward": {"direction": "backward"},
    "nolp": {"locally_predictive": False},
    "M": {"missing_separate": True},
}
CASES = [(name, var) for name, entry in sorted(WEKA_FIXTURES.items()) for var in sorted(entry)]


def _load(name):
    return load_data(os.path.join(FIX, "data", f"{name}.arff.gz"))


@pytest.mark.parametrize("name, variant", CASES, ids=[f"{n}-{v}" for n, v in CASES])
def test_selects_exactly_wekas_attributes(name, variant):
    X, y = _load(name)
    got = cfs_subset(X, y, **VARIANT_KW[variant]).tolist()
    assert got == WEKA_FIXTURES[name][variant]


def test_fixtures_cover_missing_values_nominal_attributes_and_many_features():
    frames = {name: _load(name)[0] for name in WEKA_FIXTURES}
    with_missing = [n for n, X in frames.items() if X.isna().to_numpy().any()]
    with_nominal = [n for n, X in frames.items()
                    if any(isinstance(t, pd.CategoricalDtype) for t in X.dtypes)]
    assert len(WEKA_FIXTURES) >= 25
    assert len(with_missing) >= 6 and len(with_nominal) >= 8
    assert max(X.shape[1] for X in frames.values()) >= 200  # arrhythmia


def test_shared_reference_subsets():
    # cfs_subsets.json of the shared Weka reference (conftest.WEKA_REFERENCE; Weka 3.6.14) on the
    # same three files
    ref = {"diabetes": [1, 5, 6, 7], "iris": [2, 3], "credit-g": [0, 1, 2]}
    for name, expected in ref.items():
        X, y = _load(name)
        assert cfs_subset(X, y).tolist() == expected


def test_iris_numpy_input():
    X, y = load_iris(return_X_y=True)
    assert cfs_subset(X, y).tolist() == [2, 3]


def test_su_zero_between_attributes_counts_as_full_redundancy():
    # a one-valued attribute has SU 0 with everything: 0 with the class, 1.0 with attributes
    a = np.zeros(10, dtype=np.int64)
    b = np.array([0, 1] * 5, dtype=np.int64)
    assert _su_pair(a, 1, b, 2, True, False) == 0.0
    assert _su_pair(a, 1, b, 2, False, False) == 1.0


def test_su_table_is_symmetric_uncertainty():
    t = np.array([[10.0, 2.0], [3.0, 15.0]])
    p = t / t.sum()

    def h(q):
        q = q[q > 0]
        return -(q * np.log2(q)).sum()

    hx, hy, hxy = h(p.sum(1)), h(p.sum(0)), h(p.ravel())
    assert _su_table(t) == pytest.approx(2 * (hx + hy - hxy) / (hx + hy), rel=1e-12)


def test_missing_values_are_spread_over_observed_cells():
    # rows: attribute a (value 1 missing once), columns: class
    a = np.array([0, 0, 1, 1, -1], dtype=np.int64)
    c = np.array([0, 0, 1, 1, 1], dtype=np.int64)
    spread = _su_pair(a, 2, c, 2, True, False)
    # by hand: the missing row (class 1) goes half to a=0, half to a=1
    t = np.array([[2.0, 0.5, 0.0], [0.0, 2.5, 0.0], [0.0, 0.0, 0.0]])
    assert spread == _su_table(t)
    assert _su_pair(a, 2, c, 2, True, True) != spread  # -M: missing is its own value


def test_merit_matches_hall_formula():
    X, y = load_iris(return_X_y=True)
    ev = _ev(X, y)
    r = ev.corr.astype(float)
    m = ev.merit([2, 3])
    expected = (r[2, 4] + r[3, 4]) / np.sqrt(2 + 2 * r[2, 3])
    assert m == pytest.approx(expected, rel=1e-12)
    assert ev.corr.dtype == np.float32


def _ev(X, y):
    from rankfusion.rankers.cfs import _prepare_cfs
    ev = _prepare_cfs(X, y, False)
    ev.merit(np.arange(ev.p))
    return ev


def test_open_list_keeps_best_five_new_after_equal():
    lst = []
    for i, m in enumerate([0.5, 0.7, 0.5, 0.9, 0.1, 0.6]):
        _add_to_list(lst, (i,), m, 5)
    assert [s[0][0] for s in lst] == [3, 1, 5, 0, 2]  # 0.1 fell off; equal 0.5s keep order
    _add_to_list(lst, (9,), 0.5, 5)  # full and not better than the last: dropped
    assert [s[0][0] for s in lst] == [3, 1, 5, 0, 2]


def test_cfs_ranker_orders_by_greedy_merit():
    X, y = _load("diabetes")
    scores = get_ranker("cfs")(X, y)
    p = X.shape[1]
    assert sorted(scores.tolist()) == list(range(p))
    order = np.argsort(-scores, kind="stable")
    # greedy forward search starts with the best single feature (plasma glucose)
    assert order[0] == 1
    # the first steps agree with a direct greedy search on the exact merit
    from rankfusion.rankers.cfs import _prepare_cfs
    ev = _prepare_cfs(X, y, False)
    chosen = []
    for _ in range(4):
        merits = [(ev.merit(chosen + [f]), -f) for f in range(p) if f not in chosen]
        chosen.append(-max(merits)[1])
    assert order[:4].tolist() == chosen


def test_constant_and_duplicate_features():
    X, y = load_iris(return_X_y=True)
    Xc = np.column_stack([np.ones(len(y)), X, X[:, 3]])
    sel = cfs_subset(Xc, y).tolist()
    assert 0 not in sel  # a constant feature is never selected
    # Weka 3.6 keeps the exact duplicate of petal width (checked: same file through
    # CfsSubsetEval + BestFirst -D 1 -N 5 gives 4,5,6 1-based)
    assert sel == [3, 4, 5]
    scores = cfs(Xc, y)
    assert scores[0] == scores.min()


def test_row_order_does_not_matter_for_the_selection():
    X, y = _load("diabetes")
    perm = np.random.default_rng(0).permutation(len(y))
    assert cfs_subset(X.iloc[perm], y.iloc[perm]).tolist() == [1, 5, 6, 7]



def test_bad_options():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="direction"):
        cfs_subset(X, y, direction="sideways")
    with pytest.raises(ValueError, match="max_stale"):
        cfs_subset(X, y, max_stale=0)


def test_does_not_modify_input():
    X, y = _load("breast-w")
    X0 = X.copy()
    cfs_subset(X, y)
    pd.testing.assert_frame_equal(X, X0)


@pytest.mark.oracle
@pytest.mark.parametrize("name", ["vote", "labor", "glass"])
def test_against_weka_live(name):
    """Run Weka 3.6 itself (needs /usr/share/java/weka.jar)."""
    import gzip
    import shutil

    with tempfile.TemporaryDirectory() as tmp:
        arff = os.path.join(tmp, f"{name}.arff")
        with gzip.open(os.path.join(FIX, "data", f"{name}.arff.gz"), "rb") as s, \
                open(arff, "wb") as d:
            shutil.copyfileobj(s, d)
        out = subprocess.run(
            ["java", "-cp", "/usr/share/java/weka.jar", "weka.attributeSelection.CfsSubsetEval",
             "-i", arff, "-s", "weka.attributeSelection.BestFirst -D 1 -N 5"],
            capture_output=True, text=True, check=True).stdout
    sel = re.search(r"Selected attributes:([^\n]*)", out).group(1).split(":")[0]
    X, y = _load(name)
    assert cfs_subset(X, y).tolist() == [int(v) - 1 for v in sel.split(",") if v.strip()]


@pytest.mark.oracle
def test_madelon_against_weka_fixture():
    import scipy.io as sio

    m = sio.loadmat(SHARED_DATASETS / "madelon" / "madelon.mat")
    sel = cfs_subset(m["X"].astype(float), m["Y"].ravel()).tolist()
    assert sel == [4, 64, 105, 128, 142, 204, 241, 243, 338, 442, 472, 475]


def test_cfsmerit_is_lazy():
    X, y = load_iris(return_X_y=True)
    from rankfusion.rankers.cfs import _prepare_cfs
    ev = _prepare_cfs(X, y, False)
    assert isinstance(ev, CFSMerit)
    assert np.isnan(ev.corr[0, 1])
    ev.merit([0, 1])
    assert not np.isnan(ev.corr[0, 1]) and ev.corr[0, 1] == ev.corr[1, 0]
