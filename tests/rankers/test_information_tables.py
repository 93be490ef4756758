"""The table steps of the information measures (``rankers.information``) worked by hand:
Weka's ``lnFunc``, the attribute codes (MDL intervals or ``-B``'s zero / non-zero), the
contingency tables and a declared value that never occurs (an empty table row)."""

import math

import numpy as np
import pandas as pd
import pytest

from rankfusion.rankers import chi_square, gain_ratio, info_gain, symmetric_uncertainty
from rankfusion.rankers.information import attribute_codes, contingency_tables, lnf


def test_lnf_is_x_ln_x_for_positive_x_else_zero():
    got = lnf(np.array([0, 1, 2, 4, -3]))  # integers: the result is still x·ln x in floats
    np.testing.assert_allclose(got, [0.0, 0.0, 2 * math.log(2), 4 * math.log(4), 0.0],
                               rtol=1e-15)
    assert got.dtype == np.float64


def _codes(values, nominal, n_values, y, **kw):
    return attribute_codes(np.asarray(values, dtype=float), np.asarray(nominal),
                           np.asarray(n_values), np.asarray(y), 2, **kw)


def test_attribute_codes_mdl_by_default():
    # column 0 separates the classes (one MDL cut, 2 intervals), column 1 is constant (no
    # cut, 1 interval), column 2 is nominal with 3 declared values, column 3 a nominal one
    # with no value at all (all missing: 1 value)
    y = [0, 0, 0, 1, 1, 1]
    X = np.column_stack([[1, 2, 3, 4, 5, 6], [7] * 6, [0, 2, 2, 1, np.nan, 0],
                         [np.nan] * 6])
    codes, nv = _codes(X, [False, False, True, True], [0, 0, 3, 0], y)
    np.testing.assert_array_equal(codes[:, 0], [0, 0, 0, 1, 1, 1])
    np.testing.assert_array_equal(codes[:, 1], [0] * 6)
    np.testing.assert_array_equal(codes[:, 2], [0, 2, 2, 1, -1, 0])
    np.testing.assert_array_equal(codes[:, 3], [-1] * 6)
    np.testing.assert_array_equal(nv, [2, 1, 3, 1])
    assert nv.dtype.kind == "i"


def test_attribute_codes_binarized_are_zero_nonzero_and_missing():
    y = [0, 0, 0, 1, 1, 1]
    X = np.column_stack([[0, 0, 2, -1, np.nan, 0.5], [0, 2, 2, 1, np.nan, 0]])
    codes, nv = _codes(X, [False, True], [0, 3], y, binarize=True)
    np.testing.assert_array_equal(codes[:, 0], [0, 0, 1, 1, -1, 1])
    np.testing.assert_array_equal(codes[:, 1], [0, 2, 2, 1, -1, 0])  # nominal: as is
    np.testing.assert_array_equal(nv, [2, 3])
    assert nv.dtype.kind == "i"


def test_contingency_tables_count_every_cell():
    rng = np.random.default_rng(3)
    n_values = np.array([2, 4, 1])
    codes = np.column_stack([rng.integers(-1, v, 40) for v in n_values])
    y = rng.integers(0, 3, 40)
    t = contingency_tables(codes, n_values, y, 3)
    assert t.shape == (3, 5, 3)
    expect = np.zeros((3, 5, 3))
    for i in range(40):
        for j in range(3):
            row = codes[i, j] if codes[i, j] >= 0 else 4  # the last row counts missing
            expect[j, row, y[i]] += 1
    np.testing.assert_array_equal(t, expect)
    empty = contingency_tables(np.zeros((5, 0), dtype=np.int64), np.zeros(0, dtype=np.int64),
                               np.array([0, 1, 0, 1, 0]), 2)
    assert empty.shape == (0, 1, 2)


def test_a_declared_value_that_never_occurs_changes_nothing():
    # table [[3, 1], [0, 0], [1, 3]] (b never occurs). By hand: H(C) = 1 bit, H(C|A) =
    # H(3/4) bits, so IG = 1 − H(3/4); H(A) = 1 bit; chi-square: E = 2 in every used cell,
    # 4 · 1² / 2 = 2
    a = ["a", "a", "a", "c", "a", "c", "c", "c"]
    y = [0, 0, 0, 0, 1, 1, 1, 1]
    X = pd.DataFrame({"a": pd.Categorical(a, categories=["a", "b", "c"])})
    h = -(0.75 * math.log2(0.75) + 0.25 * math.log2(0.25))
    ig = 1.0 - h
    assert info_gain(X, y)[0] == pytest.approx(ig, rel=1e-12)
    assert gain_ratio(X, y)[0] == pytest.approx(ig, rel=1e-12)
    assert symmetric_uncertainty(X, y)[0] == pytest.approx(ig, rel=1e-12)
    assert chi_square(X, y)[0] == pytest.approx(2.0, rel=1e-12)
