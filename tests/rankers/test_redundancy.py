"""Redundancy-aware filters (docs/design.md, 'Redundancy-aware filters'): equal to
scikit-feature and mrmr_selection on stored fixtures, to brute force of the published
definitions, DISR's stated departure from scikit-feature, hostile inputs and invariants."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankfusion.rankers import get_ranker, ranker_info
from rankfusion.rankers.mifs import mifs_order
from rankfusion.rankers.redundancy import redundancy_order

FIX = Path(__file__).resolve().parents[1] / "fixtures" / "redundancy"
CASES = sorted(p.stem for p in FIX.glob("*.json"))
INFO = ("mrmr_mid", "mrmr_miq", "jmi", "cmim", "disr")


def _load(name):
    rec = json.loads((FIX / f"{name}.json").read_text())
    return (np.array(rec["X"], dtype=float), np.array(rec["y"]), np.array(rec["raw"]), rec)


def test_there_are_real_and_random_fixtures():
    assert "parkinsons_mdl" in CASES and sum(c.startswith("random") for c in CASES) == 5


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("criterion", ["mrmr_mid", "jmi", "cmim"])
def test_equal_to_scikit_feature(case, criterion):
    X, y, _, rec = _load(case)
    assert redundancy_order(X, y, criterion, discretizer="none").tolist() == rec[criterion]


@pytest.mark.parametrize("case", CASES)
def test_battiti_mifs_equal_to_scikit_feature(case):
    X, y, _, rec = _load(case)  # codes 0..3 (or MDL codes): each its own equal-width bin
    assert mifs_order(X, y).tolist() == rec["mifs_battiti"]


@pytest.mark.parametrize("case", CASES)
def test_fcq_equal_to_mrmr_selection(case):
    _, y, raw, rec = _load(case)
    assert redundancy_order(raw, y, "mrmr_fcq").tolist() == rec["mrmr_fcq"]


# --- brute force of the definitions (entropies from np.unique over the joint rows) ---------

def _h(*cols):
    _, counts = np.unique(np.column_stack(cols), axis=0, return_counts=True)
    p = counts / counts.sum()
    return float(-(p * np.log2(p)).sum())


def _mi(a, b):
    return _h(a) + _h(b) - _h(a, b)


def _cmi(a, b, z):  # I(a; b | z)
    return _h(a, z) + _h(b, z) - _h(a, b, z) - _h(z)


def _brute_order(X, y, crit, gaps=None):
    """The greedy order by the definition; ``gaps`` collects each step's margin between the
    best and the second best candidate (a margin below 1e-9 is a tie)."""
    p = X.shape[1]
    rel = [_mi(X[:, j], y) for j in range(p)]
    order = [int(np.argmax(rel))]
    if gaps is not None:
        gaps.append(np.sort(rel)[-1] - np.sort(rel)[-2] if p > 1 else np.inf)
    while len(order) < p:
        values = {f: crit(X, y, f, order, rel) for f in range(p) if f not in order}
        best = max(values.values())
        arg = min(f for f, v in values.items() if v > best - 1e-9)
        if gaps is not None and len(values) > 1:
            top = sorted(values.values())
            gaps.append(top[-1] - top[-2])
        order.append(arg)
    return order


def _mid(X, y, f, S, rel):
    return rel[f] - np.mean([_mi(X[:, f], X[:, s]) for s in S])


def _miq(X, y, f, S, rel):
    red = np.mean([_mi(X[:, f], X[:, s]) for s in S])
    if red <= 1e-12:
        return 1e6 + rel[f] if rel[f] > 1e-12 else 0.0
    return rel[f] / red


def _jmi(X, y, f, S, rel):
    return sum(_h(X[:, f], X[:, s]) + _h(y) - _h(X[:, f], X[:, s], y) for s in S)


def _cmim(X, y, f, S, rel):
    return min(_cmi(X[:, f], y, X[:, s]) for s in S)


def _disr(X, y, f, S, rel):
    return sum((_h(X[:, f], X[:, s]) + _h(y) - _h(X[:, f], X[:, s], y)) / _h(X[:, f], X[:, s], y)
               for s in S)


def _disr_skfeature(X, y, f, S, rel):  # scikit-feature divides by sum_s (1 + I(f; s))
    return _disr(X, y, f, S, rel) / sum(1 + _mi(X[:, f], X[:, s]) for s in S)


def _mifs_u(X, y, f, S, rel, beta=0.5):
    return rel[f] - beta * sum(rel[s] / _h(X[:, s]) * _mi(X[:, f], X[:, s]) for s in S
                               if _h(X[:, s]) > 0)


def _nmifs(X, y, f, S, rel):
    terms = []
    for s in S:
        m = min(_h(X[:, f]), _h(X[:, s]))
        terms.append(_mi(X[:, f], X[:, s]) / m if m > 0 else 0.0)
    return rel[f] - np.mean(terms)


BRUTE = {"mrmr_mid": _mid, "mrmr_miq": _miq, "jmi": _jmi, "cmim": _cmim, "disr": _disr}


def _random_discrete(seed, n=60, p=9, k=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = rng.integers(0, k, (n, p))
    X[:, :3] = (X[:, :3] + y[:, None]) % k
    X[:, 4] = X[:, 0]  # an exact copy: redundancy at its largest
    X[rng.random(n) < 0.3, 4] = 0
    return X.astype(float), y


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("criterion", INFO)
def test_equal_to_brute_force_of_the_definition(seed, criterion):
    X, y = _random_discrete(seed)
    assert redundancy_order(X, y, criterion, discretizer="none").tolist() == \
        _brute_order(X, y, BRUTE[criterion])


@pytest.mark.parametrize("case", CASES)
def test_disr_departs_from_scikit_feature_exactly_by_its_denominator(case):
    X, y, _, rec = _load(case)
    if case == "parkinsons_mdl":
        X = X[:, :12]  # brute force of the whole set is slow; the stored order is on all 22
        assert redundancy_order(_load(case)[0], y, "disr", discretizer="none").tolist() != \
            rec["disr"]
    else:
        # scikit-feature's DISR is the stated criterion sum / sum(1 + I(f; s)) ...
        assert _brute_order(X, y, _disr_skfeature) == rec["disr"]
    # ... and ours is the published sum of I(f, s; c) / H(f, s, c)
    assert redundancy_order(X, y, "disr", discretizer="none").tolist() == \
        _brute_order(X, y, _disr)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("variant, crit", [("mifs_u", _mifs_u), ("nmifs", _nmifs)])
def test_mifs_variants_equal_brute_force(seed, variant, crit):
    X, y = _random_discrete(seed)
    assert mifs_order(X, y, variant=variant).tolist() == _brute_order(X, y, crit)


def test_mifs_variants_differ_from_battiti_and_default_is_battiti():
    X, y = _random_discrete(1, p=12)
    base = mifs_order(X, y)
    assert np.array_equal(base, mifs_order(X, y, variant="battiti"))
    assert not np.array_equal(base, mifs_order(X, y, variant="nmifs"))


def test_mdl_is_the_default_discretisation():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 30)
    X = rng.normal(size=(60, 6)) + y[:, None] * np.array([2.0, 0, 0, 1.0, 0, 0])
    from rankfusion._utils.data import prepare_ranker_data
    from rankfusion.rankers.information import attribute_codes

    data, yc, nc, nv = prepare_ranker_data(X, y)
    codes, _ = attribute_codes(data.values, data.nominal, nv, yc, nc)
    for c in INFO:
        assert np.array_equal(redundancy_order(X, y, c),
                              redundancy_order(codes.astype(float), y, c, discretizer="none"))
    assert redundancy_order(X, y, "jmi")[0] == 0


@pytest.mark.parametrize("name", INFO + ("mrmr_fcq",))
def test_ranker_scores_are_p_minus_position(name):
    X, y = _random_discrete(2)
    s = get_ranker(name)(X, y)
    order = redundancy_order(X, y, name)
    assert np.array_equal(np.argsort(-s, kind="stable"), order)
    assert sorted(s.tolist()) == list(range(X.shape[1]))


def test_live_oracles_when_installed():
    skf = pytest.importorskip("skfeature.function.information_theoretical_based.CMIM")
    mrmr = pytest.importorskip("mrmr")
    import pandas as pd

    X, y = _random_discrete(11, p=10)
    p = X.shape[1]
    assert skf.cmim(X, y, mode="index", n_selected_features=p).tolist() == \
        redundancy_order(X, y, "cmim", discretizer="none").tolist()
    Z = np.random.default_rng(11).normal(size=(60, p)) + y[:, None] * 0.5
    cols = [f"c{j}" for j in range(p)]
    ref = mrmr.mrmr_classif(pd.DataFrame(Z, columns=cols), pd.Series(y), K=p, n_jobs=1,
                            show_progress=False)
    assert [cols.index(c) for c in ref] == redundancy_order(Z, y, "mrmr_fcq").tolist()


# --- edge cases and hostile inputs ------------------------------------------------------------

def test_single_feature_and_constant_columns():
    y = np.array([0, 1] * 10)
    for name in INFO + ("mrmr_fcq",):
        assert get_ranker(name)(np.arange(20.0)[:, None], y).tolist() == [0.0]
        X = np.column_stack([np.ones(20), y + 0.0, np.zeros(20)])
        s = get_ranker(name)(X, y)
        assert np.isfinite(s).all() and s[1] == 2.0, name


def test_the_callers_array_is_not_changed():
    X, y = _random_discrete(0)
    before = X.copy()
    for name in INFO + ("mrmr_fcq",):
        get_ranker(name)(X, y)
    np.testing.assert_array_equal(X, before)


_X, _Y = _random_discrete(0, n=20, p=5)
_NAN = _X.copy()
_NAN[3, 2] = np.nan

HOSTILE = [
    ("jmi", _X, _Y, {"n_bins": 1}, ValueError, "n_bins must be an int ≥ 2, got 1"),
    ("cmim", _X, _Y, {"n_bins": 2.5}, TypeError, "n_bins must be an int ≥ 2"),
    ("mrmr_mid", _X, _Y, {"discretizer": "kmeans"}, ValueError,
     "discretizer must be 'mdl', 'equal_width' or 'none', got 'kmeans'"),
    ("disr", _X, _Y, {"discretizer": "equal_width", "n_bins": 500}, ValueError,
     "n_bins=500 exceeds the 20 samples"),
    ("mrmr_miq", _NAN, _Y, {}, ValueError, "missing value (NaN) at sample 3, feature 2"),
    ("mrmr_fcq", _NAN, _Y, {}, ValueError, "missing value"),
    ("jmi", _X, _Y[:-1], {}, ValueError, "y"),
    ("cmim", _X, np.zeros(20), {}, ValueError, "class"),
    ("mrmr_fcq", _X, np.linspace(0, 1, 20), {}, ValueError, "y"),
    ("disr", _X[:, :, None], _Y, {}, ValueError, "X"),
    ("jmi", "not an array", _Y, {}, (TypeError, ValueError), "X"),
]


@pytest.mark.parametrize("name, X, y, params, kind, message", HOSTILE)
def test_hostile_inputs(name, X, y, params, kind, message):
    with pytest.raises(kind) as err:
        get_ranker(name)(X, y, **params)
    assert message in str(err.value)


@pytest.mark.parametrize("bad, message", [
    ("jmix", "criterion must be one of"), (3, "criterion must be one of")])
def test_unknown_criterion(bad, message):
    with pytest.raises(ValueError, match=message):
        redundancy_order(_X, _Y, bad)


@pytest.mark.parametrize("params, kind, message", [
    ({"variant": "mifs-u"}, ValueError, "variant must be 'battiti', 'mifs_u' or 'nmifs'"),
    ({"variant": 1}, (TypeError, ValueError), "variant must be"),
])
def test_mifs_variant_hostile(params, kind, message):
    with pytest.raises(kind) as err:
        mifs_order(_X, _Y, **params)
    assert message in str(err.value)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), perm_seed=st.integers(0, 10_000),
       criterion=st.sampled_from(INFO + ("mrmr_fcq",)))
def test_relabelling_features_permutes_the_order(seed, perm_seed, criterion):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, 50)
    X = rng.normal(size=(50, 7)) + y[:, None] * rng.normal(size=7)
    if criterion != "mrmr_fcq":
        X = np.floor(X * 2)  # a few symbols, MI values rarely tie
    order = redundancy_order(X, y, criterion, discretizer="none")
    perm = np.random.default_rng(perm_seed).permutation(7)
    order_p = redundancy_order(X[:, perm], y, criterion, discretizer="none")
    # without ties to break by index, the relabelled order holds the same features
    gaps = [np.inf]
    if criterion != "mrmr_fcq":
        _brute_order(X, y, BRUTE[criterion], gaps)
    if min(gaps) > 1e-9:
        assert perm[order_p].tolist() == order.tolist()
    else:  # a tie goes to the lower index, in either labelling
        assert sorted(order_p.tolist()) == list(range(7))


# --- registry and vocabulary ------------------------------------------------------------------

@pytest.mark.parametrize("name", INFO + ("mrmr_fcq",))
def test_registered_with_declarations(name):
    entry = ranker_info(name)
    assert entry.tags["allow_nan"] is False
    assert set(entry.constraints) == set(entry.params)
    assert "variant" in ranker_info("mifs").constraints


def test_experiment_config_names_them():
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "experiments"))
    from experiment_configs import tiny_config

    from rankfusion.experiments import ConfigError, parse_config

    text = tiny_config().replace(
        'rankers = ["f_classif", "chi2"]',
        'rankers = ["mrmr_mid", { name = "jmi", discretizer = "equal_width", n_bins = 5 }, '
        '"cmim", "disr", "mrmr_miq", "mrmr_fcq", { name = "mifs", variant = "nmifs" }]')
    parse_config(text)
    bad = tiny_config().replace('rankers = ["f_classif", "chi2"]',
                                'rankers = [{ name = "jmi", discretizer = "x" }, "chi2"]')
    with pytest.raises(ConfigError, match="discretizer must be 'mdl', 'equal_width' or 'none'"):
        parse_config(bad)


def test_the_advisor_takes_them():
    from rankfusion.evaluation.advisor import advise

    X, y = _random_discrete(5, n=60, p=8)
    adv = advise(X, y, rankers=("mrmr_mid", "cmim", "mrmr_fcq"), rules=("borda",), sizes=[2],
                 cv=2, inner_cv=2, n_repeats=1, random_state=0)
    assert adv is not None


@pytest.mark.parametrize("criterion", ["mrmr_mid", "jmi", "cmim"])
def test_mdl_codes_are_kept_by_the_default_mdl(criterion):
    X, y, _, rec = _load("parkinsons_mdl")  # MDL of MDL codes gives the same intervals
    assert redundancy_order(X, y, criterion).tolist() == rec[criterion]
