"""RReliefF equals Weka 3.6's ReliefFAttributeEval with a numeric class (stored fixtures in
tests/fixtures/rrelieff/, made by make_fixtures.sh there; one test runs Weka live)."""

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import RRELIEFF_FIXTURES, WEKA_DATA, read_csv
from numeric_equality import assert_within_ulps
from numeric_equality import weka_with_degenerate_last as weka_last
from rankfusion.io.arff import read_arff
from rankfusion.rankers import get_ranker, ranker_info
from rankfusion.rankers.rrelieff import rrelieff

FIX = RRELIEFF_FIXTURES
SETS = {  # name -> (data file, class index)
    "cpu": (FIX / "data" / "cpu.arff.gz", -1),
    "glass-RI": (WEKA_DATA / "glass.arff.gz", 0),
    "credit-g-amount": (WEKA_DATA / "credit-g.arff.gz", 4),
    "breast-w-clump": (WEKA_DATA / "breast-w.arff.gz", 0),
    "diabetes-mass": (WEKA_DATA / "diabetes.arff.gz", 5),
}
SETS.update({p.name[:-len(".arff.gz")]: (p, -1)
             for p in sorted((FIX / "random").glob("rand*.arff.gz"))})
OPTIONS = {"default": {}, "K5W": {"n_neighbors": 5, "weight_by_distance": True},
           "K3WA1": {"n_neighbors": 3, "weight_by_distance": True, "sigma": 1}}


def _read(path, ci):
    frame = read_arff(path)
    ci = ci % frame.shape[1]
    y = frame.iloc[:, ci].astype(float)
    return frame.drop(columns=frame.columns[ci]), y


_cache: dict = {}


def _data(name):
    if name not in _cache:
        _cache[name] = _read(*SETS[name])
    return _cache[name]


@pytest.mark.parametrize("variant", list(OPTIONS))
@pytest.mark.parametrize("name", list(SETS))
def test_rrelieff_equals_weka(name, variant):
    X, y = _data(name)
    folder = FIX / "random" if name.startswith("rand") else FIX
    ref = read_csv(folder / f"{name}.{variant}.csv")
    ours = rrelieff(X, y, **OPTIONS[variant])
    assert ref["attribute"].tolist() == [str(c) for c in X.columns]
    if OPTIONS[variant].get("weight_by_distance"):
        # the rank weights exp(−(j/σ)²) are the platform's libm exp (Weka: Java's Math.exp);
        # moving every one by up to 8 ulps moved no score by more than 2.5 ulps of 1
        assert_within_ulps(ours, weka_last(ref["RReliefF"].to_numpy(), X), 4, scale=1.0,
                           why="the rank weights exp(-(j/sigma)^2) are the platform's libm exp")
    else:  # bit-equal on every platform: exact input, + − × ÷ |·| in Weka's order
        np.testing.assert_array_equal(ours, weka_last(ref["RReliefF"].to_numpy(), X))


def test_fixtures_cover_missing_values_nominal_and_ties():
    """The fixtures hold what they claim: missing values, nominal attributes, tied targets."""
    missing = nominal = tied = False
    for name in SETS:
        X, y = _data(name)
        missing |= bool(X.isna().to_numpy().any())
        nominal |= any(isinstance(X[c].dtype, pd.CategoricalDtype) for c in X.columns)
        tied |= y.nunique() < len(y)
    assert missing and nominal and tied


@pytest.mark.oracle
def test_rrelieff_equals_weka_live(tmp_path):
    java = shutil.which("java")
    jar = Path("/usr/share/java/weka.jar")
    if not java or not jar.exists():
        pytest.skip("Weka not installed")
    src = FIX / "WekaRReliefF.java"
    shutil.copy(src, tmp_path)
    subprocess.run(["javac", "-cp", str(jar), "WekaRReliefF.java"], cwd=tmp_path, check=True)
    rng = np.random.default_rng(5)
    X = np.round(rng.random((40, 4)), 2)
    y = X[:, 0] * 3 + rng.random(40)
    lines = ["@relation r"] + [f"@attribute a{j} numeric" for j in range(4)]
    lines += ["@attribute t numeric", "@data"]
    lines += [",".join(repr(float(v)) for v in [*X[i], y[i]]) for i in range(40)]
    (tmp_path / "r.arff").write_text("\n".join(lines) + "\n")
    out = subprocess.run([java, "-cp", f"{jar}:.", "WekaRReliefF", "r.arff", "-1"],
                         cwd=tmp_path, check=True, capture_output=True, text=True).stdout
    weka = np.array([float(r.split(",")[1]) for r in out.strip().splitlines()[1:]])
    np.testing.assert_allclose(rrelieff(X, y), weka, rtol=0, atol=1e-12)


def test_registered_for_regression_only():
    assert get_ranker("rrelieff") is rrelieff
    assert ranker_info("relieff_regression").tags["tasks"] == ("regression",)


def test_informative_feature_first_and_caller_unchanged():
    rng = np.random.default_rng(0)
    X = rng.random((80, 5))
    y = 5 * X[:, 2] + 0.1 * rng.random(80)
    X0, y0 = X.copy(), y.copy()
    s = rrelieff(X, y)
    assert int(np.argmax(s)) == 2
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)


def test_feature_missing_everywhere_scores_zero():
    rng = np.random.default_rng(1)
    X = rng.random((30, 3))
    X[:, 1] = np.nan
    with pytest.warns(UserWarning, match="'x1' are constant or entirely missing"):
        s = rrelieff(X, X[:, 0] + rng.random(30))
    # RReliefF's own weight is 0; it is lowered to the others' lowest (docs/design.md,
    # 'Rankers') where that is negative
    assert s[1] == min(0.0, s[[0, 2]].min()) and np.isfinite(s).all()


@pytest.mark.parametrize("y, exc, words", [
    (["a", "b"] * 10, TypeError, "numeric"),
    ([True, False] * 10, TypeError, "numeric"),
    ([1.0] * 20, ValueError, "constant"),
    ([1.0, np.nan] * 10, ValueError, "missing or infinite"),
    ([1.0, np.inf] * 10, ValueError, "missing or infinite"),
    (list(range(19)), ValueError, "19 values but X has 20"),
    (np.zeros((20, 2)), TypeError, "1-D"),
])
def test_hostile_targets(y, exc, words):
    X = np.random.default_rng(0).random((20, 3))
    with pytest.raises(exc, match=words):
        rrelieff(X, y)


@pytest.mark.parametrize("kw, exc, words", [
    ({"n_neighbors": 0}, ValueError, "n_neighbors"),
    ({"n_neighbors": 2.5}, TypeError, "n_neighbors"),
    ({"sigma": 0}, ValueError, "sigma"),
    ({"weight_by_distance": "maybe"}, TypeError, "weight_by_distance"),
    ({"n_samples": 0}, ValueError, "n_samples"),
])
def test_hostile_parameters(kw, exc, words):
    X = np.random.default_rng(0).random((20, 3))
    with pytest.raises(exc, match=words):
        rrelieff(X, X[:, 0], **kw)


def test_n_samples_is_seeded():
    rng = np.random.default_rng(2)
    X = rng.random((50, 4))
    y = X[:, 0] + rng.random(50)
    a = rrelieff(X, y, n_samples=20, random_state=3)
    np.testing.assert_array_equal(a, rrelieff(X, y, n_samples=20, random_state=3))
    assert not np.array_equal(a, rrelieff(X, y))
