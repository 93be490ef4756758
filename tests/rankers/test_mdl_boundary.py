"""The Fayyad–Irani MDL acceptance rule on its boundary (rankfusion.rankers.discretize).

A cut is accepted when ``Gain(A, T; S) > (log2(N_cuts) + Δ(A, T; S)) / N`` — strictly
(Fayyad & Irani 1993, the MDLP criterion; Weka 3.6 ``Discretize.FayyadAndIranisMDL``). No
small table of counts puts the float gain exactly on the float threshold, so the boundary is
pinned by setting the threshold to the gain itself: a cut exactly on it must be refused, one
an ulp below it accepted. The threshold itself is checked against a hand computation.
"""

import math

import numpy as np
import pytest

from rankfusion.rankers import discretize as D


@pytest.fixture
def plain_python(monkeypatch):
    """Run the kernels as their plain Python functions (no compiled variant), so that the
    patched threshold is the one the acceptance rule calls."""
    for name in ("lnf", "_entropy", "_entropy_rows2", "_fayyad_irani", "_mdl_threshold"):
        monkeypatch.setattr(D, name, getattr(D, name).py_func)
    return monkeypatch


def _table(n):
    return np.array([D.lnf(float(k)) for k in range(n + 1)])


def _gain(prior, bl, br, table):
    return D._entropy(prior) - D._entropy_rows2(bl, br, table)


def test_threshold_by_hand():
    # S = 4 of class 0 then 4 of class 1, the pure cut in the middle, one candidate cut:
    # Ent(S) = 1, Ent(S1) = Ent(S2) = 0, k = 2, k1 = k2 = 1, Δ = log2(3² − 2) − 2·1
    prior, bl, br = np.array([4.0, 4.0]), np.array([4.0, 0.0]), np.array([0.0, 4.0])
    got = D._mdl_threshold.py_func(prior, bl, br, 8.0, 1, 1.0)
    assert got == pytest.approx((math.log2(7.0) - 2.0) / 8.0, abs=1e-15)
    # three candidate cuts add log2(3) / N
    got3 = D._mdl_threshold.py_func(prior, bl, br, 8.0, 3, 1.0)
    assert got3 == pytest.approx((math.log2(3.0) + math.log2(7.0) - 2.0) / 8.0, abs=1e-15)


CASES = [
    # (id, left class counts, right class counts, candidate cuts)
    ("pure-2-classes", [4.0, 0.0], [0.0, 4.0], 1),
    ("mixed-2-classes", [5.0, 1.0], [1.0, 4.0], 3),
    ("3-classes", [3.0, 1.0, 0.0], [0.0, 2.0, 4.0], 5),
]


@pytest.mark.parametrize("bl, br, n_cuts", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_gain_exactly_on_the_threshold_is_refused(plain_python, bl, br, n_cuts):
    bl, br = np.array(bl), np.array(br)
    prior = bl + br
    n = int(prior.sum())
    table = _table(n)
    gain = _gain(prior, bl, br, table)
    assert gain > 0
    for threshold, accepted in ((gain, False), (np.nextafter(gain, -np.inf), True),
                                (np.nextafter(gain, np.inf), False)):
        plain_python.setattr(D, "_mdl_threshold", lambda *a, t=threshold: t)
        assert bool(D._fayyad_irani(prior, bl, br, float(n), n_cuts, table)) == accepted, threshold


def test_column_cut_on_the_threshold_is_not_made(plain_python):
    # one numeric attribute separating two classes perfectly: a single candidate cut at 2.5
    v = np.array([1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0])
    yc = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    table = _table(v.shape[0])

    def on_threshold(prior, bl, br, n_inst, n_cuts, prior_ent):
        return prior_ent - D._entropy_rows2(bl, br, table)  # the gain itself

    def just_below(prior, bl, br, n_inst, n_cuts, prior_ent):
        return np.nextafter(on_threshold(prior, bl, br, n_inst, n_cuts, prior_ent), -np.inf)

    out = np.empty(v.shape[0])
    plain_python.setattr(D, "_mdl_threshold", on_threshold)
    assert D._column_cuts.py_func(v, yc, 2, True, out, table) == 0
    plain_python.setattr(D, "_mdl_threshold", just_below)
    n_out = D._column_cuts.py_func(v, yc, 2, True, out, table)
    assert n_out >= 1 and out[0] == 2.5
