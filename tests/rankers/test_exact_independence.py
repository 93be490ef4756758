"""An attribute exactly independent of the class scores exactly 0 in every information
measure (rankfusion.rankers.information.independent_tables), so that it ties with a
constant attribute instead of outranking it by a rounding error of the entropies.

Oracle: hand-computed tables. A table with ``T[i, c]·N = R_i·C_c`` in every cell has
``H(C | A) = H(C)``, hence ``IG = 0``, gain ratio 0, symmetric uncertainty 0 and chi-square 0
(Quinlan 1986; Witten & Frank 2005, §4.3). Weka's ``InfoGainAttributeEval`` prints these as
``0``; the float sums it computes differ from 0 by about 1e-16, which is what is pinned here.
"""

import numpy as np
import pandas as pd
import pytest

from rankfusion.rankers import information as info

MEASURES = [info.info_gain, info.gain_ratio, info.symmetric_uncertainty, info.chi_square]

INDEPENDENT = [
    # (id, attribute values, classes): every value meets every class in proportion
    ("2x2", "aabbaabb", "xyxyxyxy"),
    ("3-values-2-classes", "aaabbbcccaaabbbccc", "xxxxxxxxxyyyyyyyyy"),
    ("3-values-4-classes", "abcabcabcabc", "xxxyyyzzzwww"),
    ("unequal-margins", "aaaaaabbbaaaaaabbb", "xxxxxxxxxyyyyyyyyy"),
    ("uneven-classes", "abababababab", "xxxxxxxxyyyy"),
]


@pytest.mark.parametrize("values, classes", [c[1:] for c in INDEPENDENT],
                         ids=[c[0] for c in INDEPENDENT])
def test_exactly_independent_scores_exactly_zero(values, classes):
    X = pd.DataFrame({"ind": pd.Categorical(list(values)),
                      "const": pd.Categorical(["k"] * len(values))})
    y = np.array(list(classes))
    for measure in MEASURES:
        got = measure(X, y)
        assert got[0] == 0.0 and got[1] == 0.0, (measure.__name__, got)
        # a tie: the independent attribute does not outrank the constant one
        assert not got[0] > got[1]


def test_independent_tables_hand_cases():
    tables = np.array([
        [[2.0, 2.0], [1.0, 1.0]],   # rows proportional: independent
        [[3.0, 1.0], [1.0, 3.0]],   # dependent
        [[2.0, 4.0], [1.0, 2.0]],   # independent, uneven margins
        [[0.0, 0.0], [2.0, 3.0]],   # one observed value: independent
    ])
    np.testing.assert_array_equal(info.independent_tables(tables), [True, False, True, True])


def test_fractional_tables_use_the_rounding_bound():
    # spread missing counts make fractional tables: 1/3 of each class in row 0, rest in row 1
    t = np.array([[[1 / 3, 2 / 3], [2 / 3, 4 / 3]],
                  [[1 / 3, 2 / 3], [2 / 3, 4 / 3 + 1e-3]]])
    np.testing.assert_array_equal(info.independent_tables(t), [True, False])


def test_dependence_is_kept():
    # hand computed: values a,a,b,b against classes x,x,y,y: IG = H(C) = 1 bit, chi2 = 4
    X = pd.DataFrame({"f": pd.Categorical(list("aabb"))})
    y = np.array(list("xxyy"))
    assert info.info_gain(X, y)[0] == pytest.approx(1.0, abs=1e-15)
    assert info.chi_square(X, y)[0] == pytest.approx(4.0, abs=1e-12)
    # a weak dependence far above the rounding bound stays positive
    X = pd.DataFrame({"f": pd.Categorical(list("aaabbbaaabbba"))})
    y = np.array(list("xxxxxxyyyyyyy"))
    assert info.info_gain(X, y)[0] > 1e-4
