"""Numeric-class CFS selects Weka 3.6's subsets (CfsSubsetEval + BestFirst; stored fixtures in
tests/fixtures/cfs_numeric/, made by make_fixtures.sh there)."""

import numpy as np
import pandas as pd
import pytest

from conftest import CFS_NUMERIC_FIXTURES, RRELIEFF_FIXTURES, WEKA_DATA, read_csv
from rankfusion.io.arff import read_arff
from rankfusion.rankers import cfs_subset_regression, get_ranker, ranker_tasks

SETS = {
    "cpu": (RRELIEFF_FIXTURES / "data" / "cpu.arff.gz", -1),
    "glass-RI": (WEKA_DATA / "glass.arff.gz", 0),
    "credit-g-amount": (WEKA_DATA / "credit-g.arff.gz", 4),
    "breast-w-clump": (WEKA_DATA / "breast-w.arff.gz", 0),
    "diabetes-mass": (WEKA_DATA / "diabetes.arff.gz", 5),
    "labor-wage1": (WEKA_DATA / "labor.arff.gz", 1),
}
SETS.update({p.name[:-len(".arff.gz")]: (p, -1)
             for p in sorted((RRELIEFF_FIXTURES / "random").glob("rand*.arff.gz"))})
VARIANTS = {"forward": {}, "backward": {"direction": "backward"},
            "nolp": {"locally_predictive": False}}
REF = read_csv(CFS_NUMERIC_FIXTURES / "subsets.csv", keep_default_na=False)


def _read(path, ci):
    frame = read_arff(path)
    ci = ci % frame.shape[1]
    y = frame.iloc[:, ci].astype(float)
    keep = y.notna().to_numpy()  # Weka drops the instances whose class is missing
    X = frame.drop(columns=frame.columns[ci])[keep].reset_index(drop=True)
    return X, y[keep].reset_index(drop=True)


@pytest.mark.parametrize("row", list(REF.itertuples(index=False)),
                         ids=lambda r: f"{r.name}-{r.variant}")
def test_equals_weka(row):
    X, y = _read(*SETS[row.name])
    ours = cfs_subset_regression(X, y, **VARIANTS[row.variant]).tolist()
    assert ours == [int(s) for s in str(row.subset).split(",") if s != ""]


def test_fixtures_cover_every_set_and_kind():
    assert set(REF["name"]) == set(SETS)
    kinds = set()
    for name in ("credit-g-amount", "labor-wage1", "rand04"):
        X, _ = _read(*SETS[name])
        kinds |= {isinstance(X[c].dtype, pd.CategoricalDtype) for c in X.columns}
        kinds.add("missing" if X.isna().to_numpy().any() else "complete")
    assert {True, False, "missing"} <= kinds


@pytest.mark.parametrize("kw, exc, words", [
    ({"direction": "sideways"}, ValueError, "direction"),
    ({"max_stale": 0}, ValueError, "max_stale"),
    ({"locally_predictive": "yes please"}, TypeError, "locally_predictive"),
])
def test_hostile_parameters(kw, exc, words):
    X = np.random.default_rng(0).random((20, 3))
    with pytest.raises(exc, match=words):
        cfs_subset_regression(X, X[:, 0], **kw)


@pytest.mark.parametrize("y, exc, words", [
    (["a", "b"] * 10, TypeError, "numeric"),
    ([3.0] * 20, ValueError, "constant"),
    ([np.nan] + [1.0] * 19, ValueError, "missing"),
])
def test_hostile_targets(y, exc, words):
    X = np.random.default_rng(0).random((20, 3))
    with pytest.raises(exc, match=words):
        cfs_subset_regression(X, y)


def test_caller_data_unchanged():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(50, 4))
    X[3, 1] = np.nan
    y = X[:, 0] + 0.1 * rng.normal(size=50)
    X0, y0 = X.copy(), y.copy()
    assert 0 in cfs_subset_regression(X, y).tolist()
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


def test_ranker_is_the_greedy_order():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(80, 6))
    y = 2 * X[:, 4] + X[:, 1] + 0.2 * rng.normal(size=80)
    s = get_ranker("cfs_regression")(X, y)
    assert sorted(s.tolist()) == list(range(6))
    r = np.abs([np.corrcoef(X[:, j], y)[0, 1] for j in range(6)])
    assert int(np.argmax(s)) == int(np.argmax(r)) == 4  # a singleton's merit is |r|
    assert set(np.argsort(-s)[:2].tolist()) == {1, 4}
    assert ranker_tasks("cfs_regression") == ("regression",)
