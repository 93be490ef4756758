"""Columns with no value and constant columns, found alike in arrays, DataFrames and sparse
matrices (docs/design.md, 'Validation'). Oracle: the columns written by hand."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from rankfusion._utils.columns import check_observed_columns, constant_columns, empty_columns

# column 0 all missing, 1 all zero, 2 varies, 3 partly missing, 4 constant 2
DENSE = np.array([[np.nan, 0, 1, np.nan, 2], [np.nan, 0, 1, 5, 2], [np.nan, 0, 0, np.nan, 2]])


@pytest.mark.parametrize("X", [DENSE, sp.csr_matrix(DENSE), sp.csc_matrix(DENSE),
                               pd.DataFrame(DENSE)])
def test_the_same_columns_in_every_container(X):
    assert empty_columns(X).tolist() == [0]
    assert constant_columns(X).tolist() == [0, 1, 4]


def test_nominal_and_unstored_columns():
    frame = pd.DataFrame({"a": [None, None], "b": ["x", None], "c": ["x", "x"]})
    assert empty_columns(frame).tolist() == [0]
    assert constant_columns(frame).tolist() == [0, 2]  # [x, None] is not constant
    assert empty_columns(sp.csr_matrix((3, 4))).tolist() == []  # zeros, not missing
    assert constant_columns(sp.csr_matrix((3, 4))).tolist() == [0, 1, 2, 3]


def test_the_message_names_the_columns_and_the_way_out():
    with pytest.raises(ValueError, match=r"X: column 'x0' holds no value.*np\.delete\(X, \[0\]"):
        check_observed_columns(DENSE)
    with pytest.raises(ValueError, match=r"column 'g' holds no value.*--drop g"):
        check_observed_columns(pd.DataFrame(DENSE, columns=list("gbcde")), drop="--drop {plain}")
    check_observed_columns(DENSE[:, 1:])  # nothing missing everywhere: no error
