"""``task=`` in the advisor (docs/design.md, 'Tasks'): never guessed, an explicit task honoured
(the regression advisor itself: test_advisor_regression.py)."""

import numpy as np
import pytest

from rankfusion.evaluation.advisor import advise, prepare_advice

RNG = np.random.default_rng(0)
X = RNG.normal(size=(60, 4))
Y_CLASS = np.repeat([0, 1], 30)
Y_DIABETES_LIKE = np.arange(60) * 3 % 59 + 25  # whole numbers, a different value per sample
Y_FLOAT = RNG.normal(size=60)


@pytest.mark.parametrize("task, y, exc, match", [
    ("auto", Y_DIABETES_LIKE, ValueError, "task=\"classification\".*task=\"regression\""),
    # a numeric target with the default (classification) rankers: refused naming the ranker
    # and the regression rankers, whether the task was told or found
    ("regression", Y_FLOAT, ValueError, r"ranker 'info_gain' supports classification only"),
    ("auto", Y_FLOAT, ValueError, r"rankers\[0\].*rankers for regression"),
    ("regression", np.array(["a", "b"] * 30), TypeError, "regression"),
    ("classification", Y_FLOAT, ValueError, "classification"),
    ("Regression", Y_CLASS, ValueError, "task must be one of"),
    (None, Y_CLASS, TypeError, "task must be one of"),
    (1, Y_CLASS, TypeError, "task must be one of"),
])
def test_task_hostile(task, y, exc, match):
    with pytest.raises(exc, match=match):
        prepare_advice(X, y, rankers=("info_gain", "relieff"), task=task)


@pytest.mark.parametrize("task, y, expected", [
    ("auto", Y_FLOAT, "regression"),
    ("regression", Y_FLOAT, "regression"),
    ("regression", Y_DIABETES_LIKE, "regression"),
    ("auto", Y_CLASS, "classification"),
    ("classification", Y_CLASS, "classification"),
])
def test_task_resolved_and_honoured(task, y, expected):
    rankers = ("f_regression", "pearson") if expected == "regression" else ("anova", "chi2")
    t = prepare_advice(np.abs(X), y, rankers=rankers, task=task)
    assert t.plan.task == expected


def test_explicit_classification_same_as_auto():
    kw = dict(rankers=["anova", "chi2"], rules=["borda"], sizes=[1, 2], cv=3, inner_cv=2,
              n_repeats=1, random_state=0)
    Xp = np.abs(X)
    a = advise(Xp, Y_CLASS, **kw)
    b = advise(Xp, Y_CLASS, task="classification", **kw)
    assert a.recommended == b.recommended
    assert a.best_single == b.best_single
