"""``task=`` in the advisor (docs/design.md, 'Tasks'): never guessed, regression refused."""

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
    ("regression", Y_FLOAT, ValueError, "not supported by the advisor"),
    ("auto", Y_FLOAT, ValueError, "not supported by the advisor"),
    ("regression", np.array(["a", "b"] * 30), TypeError, "regression"),
    ("classification", Y_FLOAT, ValueError, "classification"),
    ("Regression", Y_CLASS, ValueError, "task must be one of"),
    (None, Y_CLASS, TypeError, "task must be one of"),
    (1, Y_CLASS, TypeError, "task must be one of"),
])
def test_task_hostile(task, y, exc, match):
    with pytest.raises(exc, match=match):
        prepare_advice(X, y, task=task)


def test_explicit_classification_same_as_auto():
    kw = dict(rankers=["anova", "chi2"], rules=["borda"], sizes=[1, 2], cv=3, inner_cv=2,
              n_repeats=1, random_state=0)
    Xp = np.abs(X)
    a = advise(Xp, Y_CLASS, **kw)
    b = advise(Xp, Y_CLASS, task="classification", **kw)
    assert a.recommended == b.recommended
    assert a.best_single == b.best_single
