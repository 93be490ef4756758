"""A fixed ensemble (three-class data, 20 bootstraps × ANOVA F and χ², Borda, top 10) pinned
before any speed work on the ensemble path: the selected features, every bootstrap list's
positions (a SHA-256 of their bytes) and the Nogueira stability rows must not change."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from rankfusion import EnsembleSelector

POSITIONS_SHA256 = "4b9a08aefc49764b5e059d5ee860ce534d56df8db0a8aebe1172d9cd7ce6b734"
NOGUEIRA = {"f_classif": 0.3543859649122807, "chi2": 0.3347368421052632,
            "consensus": 0.37192982456140355}


def _fit(n_jobs):
    rng = np.random.default_rng(7)
    X = rng.gamma(2.0, 1.0, size=(60, 40))
    y = np.repeat(["a", "b", "c"], 20)
    X[y == "b", :5] += 1.5
    X[y == "c", 5:8] += 1.0
    return EnsembleSelector(rankers=("f_classif", "chi2"), aggregation="borda",
                            n_bootstraps=20, n_features_to_select=10, random_state=3,
                            n_jobs=n_jobs).fit(X, y)


@pytest.mark.parametrize("n_jobs", [1, 2])
def test_pinned_ensemble(n_jobs):
    s = _fit(n_jobs)
    assert np.flatnonzero(s.get_support()).tolist() == [0, 1, 2, 3, 4, 6, 13, 27, 28, 31]
    assert s.lists_.positions.shape == (40, 40)
    digest = hashlib.sha256(np.ascontiguousarray(s.lists_.positions).tobytes()).hexdigest()
    assert digest == POSITIONS_SHA256
    got = s.stability_["nogueira"].to_dict()
    assert got.keys() == NOGUEIRA.keys()
    for k, v in NOGUEIRA.items():
        assert got[k] == pytest.approx(v, rel=1e-12, abs=1e-15)
