"""Error messages show plain values: the numbers, labels and names a user gave, never a numpy
repr such as ``np.int64(0)`` or ``np.str_('a')`` (numpy ≥ 2 prints scalars that way), and
features by their column names (docs/design.md, 'Validation').

Each case gives numpy scalars, numpy labels or numpy arrays where a user might, triggers one
of the main refusals of the advisor, the selectors, the rankers and the workflows, and checks
the message names the value plainly. Oracle: the values written by hand.
"""

import re

import numpy as np
import pandas as pd
import pytest

from rankfusion import EnsembleSelector, StabilitySelector
from rankfusion.evaluation import advice_plan
from rankfusion.rankers import rank_features
from rankfusion.selection import subsample_halves
from rankfusion.selection.stability_selection import check_stability_rule
from rankfusion.workflows import run_selection

NP_REPR = re.compile(
    r"\bnp\.(u?int|float|str_|bytes_|bool|complex|datetime64|timedelta64|longdouble)"
    r"\w*\(|\barray\(\[|dtype\("
)

_rng = np.random.default_rng(0)
X = _rng.normal(size=(40, 4))
Y_INT = np.repeat(np.array([0, 1], dtype=np.int64), 20)
Y_ONE = np.zeros(40, dtype=np.int64)
Y_SMALL = np.r_[np.zeros(37, dtype=np.int64), np.ones(3, dtype=np.int64)]
Y_STR = np.repeat(np.array(["a", "b"]), 20)
X_EMPTY = X.copy()
X_EMPTY[:, 2] = np.nan


def _frame_one_class():
    return pd.DataFrame(X, columns=list("abcd")).assign(cls=np.int64(7))


CASES = [
    ("advise one class", lambda: advice_plan(X, Y_ONE), r"\(\[0\]\)"),
    ("advise smallest class", lambda: advice_plan(X, Y_SMALL), r"smallest class \(1\)"),
    ("advise cv", lambda: advice_plan(X, Y_INT, cv=np.int64(30)), "cv"),
    ("advise sizes", lambda: advice_plan(X, Y_INT, sizes=[np.int64(99)]), "99"),
    ("advise alpha", lambda: advice_plan(X, Y_INT, alpha=np.float64(2.0)), "alpha"),
    ("advise empty column", lambda: advice_plan(X_EMPTY, Y_INT), r"'x2'"),
    ("advise stability q", lambda: advice_plan(X, Y_INT, sizes=["stability:q=9"]), "q=9"),
    ("stability q > p", lambda: StabilitySelector(q=np.int64(9)).fit(X, Y_INT), "q=9"),
    (
        "stability three",
        lambda: StabilitySelector(
            q=np.int64(2), threshold=np.float64(0.8), pfer=np.float64(1.0)
        ).fit(X, Y_INT),
        r"q=2, threshold=0\.8, pfer=1\.0",
    ),
    (
        "stability rule three",
        lambda: check_stability_rule(
            {"q": np.int64(2), "threshold": np.float64(0.8), "pfer": np.int64(1)}, 4
        ),
        "q=2",
    ),
    (
        "stability odd subsamples",
        lambda: StabilitySelector(n_subsamples=np.int64(3)).fit(X, Y_INT),
        "3",
    ),
    ("stability one class", lambda: StabilitySelector().fit(X, Y_ONE), "class"),
    (
        "halves of a one-row class",
        lambda: subsample_halves(np.r_[Y_INT[:-1], np.int64(5)], 4),
        r"class 5 has 1 row",
    ),
    (
        "ensemble size > p",
        lambda: EnsembleSelector(n_features_to_select=np.int64(9)).fit(X, Y_INT),
        "9",
    ),
    ("ensemble one class", lambda: EnsembleSelector().fit(X, Y_ONE), r"one class only \(0\)"),
    (
        "ensemble one class, text",
        lambda: EnsembleSelector().fit(X, np.array(["a"] * 40)),
        r"one class only \('a'\)",
    ),
    (
        "ensemble folds",
        lambda: EnsembleSelector(n_features_to_select="k-step", cv=np.int64(5)).fit(X, Y_SMALL),
        "cv=5",
    ),
    ("ensemble empty column", lambda: EnsembleSelector().fit(X_EMPTY, Y_INT), r"'x2'"),
    ("rank_features one class", lambda: rank_features(X, Y_ONE, ["info_gain"]), "class"),
    (
        "run_selection one class",
        lambda: run_selection(_frame_one_class(), subset=2),
        r"one class only \(7\)",
    ),
]


@pytest.mark.parametrize("make, match", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_messages_show_plain_values(make, match):
    assert np.__version__.split(".")[0] >= "2" or True  # the reprs below are numpy 2's
    with pytest.raises((ValueError, TypeError)) as info:
        make()
    message = str(info.value)
    assert not NP_REPR.search(message), message
    assert re.search(match, message), message
