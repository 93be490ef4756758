"""Every bool parameter of the public functions is read with ``check_bool``: True/False (and
the command line's 'true'/'false'/'yes'/'no', 1/0) are accepted with their meaning; anything
else is a ``TypeError`` naming the parameter — never read by truthiness, where 'no' would mean
True (docs/design.md, 'Validation')."""

import numpy as np
import pytest

from rankfusion import SVMRFE, rankers
from rankfusion.datasets import make_artificial
from rankfusion.evaluation import friedman
from rankfusion.rankers import joint_rfe, mdl_cut_points, ranker_lists, rfe_lists
from rankfusion.selection import svm_rfe_rankings


def _data(missing=False):
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 10)
    X = rng.normal(size=(30, 4)) + y[:, None] * np.array([1.0, 0.5, 0.0, 0.0])
    if missing:
        X[[0, 5, 11], 0] = np.nan
    return X, y


def _ranker(name, **kw):
    def run(**extra):
        X, y = _data(missing=name in ("info_gain", "gain_ratio", "symmetric_uncertainty",
                                      "chi_square", "cfs"))
        return getattr(rankers, name)(X, y, **kw, **extra)
    return run


def _rfe(**kw):
    X, y = _data()
    return [w for r in rfe_lists(X, y, keep_weights=True, **kw)[1] for w in r.weights]


def _artificial(**kw):
    out = make_artificial(1, 4, n_samples=40, random_state=0, **kw)
    return out.data if kw.get("shuffle") is not None else type(out.data).__name__


# (what, parameter, a call taking the parameter, its values that must give different results)
CASES = [
    ("info_gain", "missing_as_value", _ranker("info_gain")),
    ("gain_ratio", "binarize", _ranker("gain_ratio")),
    ("symmetric_uncertainty", "missing_as_value", _ranker("symmetric_uncertainty")),
    ("chi_square", "binarize", _ranker("chi_square")),
    ("relieff", "weight_by_distance", _ranker("relieff")),
    ("ilfs", "update_token_factor", _ranker("ilfs")),
    ("cfs", "missing_separate", _ranker("cfs")),
    ("mdl_cut_points", "better_encoding", lambda **kw: mdl_cut_points(*_data(), **kw)),
    ("ranker_lists", "expand", lambda **kw: ranker_lists("svm_rfe", *_data(), **kw).n_lists),
    ("rfe_lists", "warm_start", _rfe),
    ("rfe_lists", "keep_weights", lambda **kw: rfe_lists(*_data(), **kw)[1][0].weights),
    ("joint_rfe", "keep_weights", lambda **kw: joint_rfe(*_data(), **kw).weights),
    ("svm_rfe_rankings", "problem_lists",
     lambda **kw: svm_rfe_rankings(*_data(), "average", **kw).lists),
    ("svm_rfe_rankings", "warm_start",
     lambda **kw: [w for r in svm_rfe_rankings(*_data(), "borda", **kw).results
                   for w in r.weights]),
    ("make_artificial", "as_frame", _artificial),
    ("make_artificial", "shuffle", _artificial),
    ("friedman", "tie_correction",
     lambda **kw: friedman([[1.0, 1.0, 2.0], [2.0, 3.0, 3.0], [1.0, 2.0, 2.0]], **kw).statistic),
]
#: settings whose two values give the same result on these small data (checked for refusal)
SAME_HERE = {("cfs", "missing_separate"), ("mdl_cut_points", "better_encoding")}
IDS = [f"{c[0]}-{c[1]}" for c in CASES]


def _same(a, b):
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(u, v) for u, v in zip(a, b))
    if a is None or b is None or isinstance(a, str):
        return a == b
    if hasattr(a, "equals"):
        return a.equals(b)
    if hasattr(a, "n_lists"):
        return a.n_lists == b.n_lists
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


@pytest.mark.parametrize("what, param, call", CASES, ids=IDS)
def test_no_means_false_and_yes_means_true(what, param, call):
    false, true = call(**{param: False}), call(**{param: True})
    if (what, param) not in SAME_HERE:   # the test has power: the two values differ here
        assert not _same(false, true)
    for word in ("no", "false", 0):
        assert _same(call(**{param: word}), false), word
    for word in ("yes", "true", 1):
        assert _same(call(**{param: word}), true), word


@pytest.mark.parametrize("what, param, call", CASES, ids=IDS)
@pytest.mark.parametrize("bad", ["maybe", 2, None, 0.5, [True]])
def test_anything_else_is_refused_naming_the_parameter(what, param, call, bad):
    with pytest.raises(TypeError) as err:
        call(**{param: bad})
    assert str(err.value) == f"{param} must be a bool, got {bad!r}"


@pytest.mark.parametrize("param", ["warm_start", "verbose"])
def test_the_selector_checks_its_bool_parameters(param):
    X, y = _data()
    with pytest.raises(TypeError) as err:
        SVMRFE(**{param: "maybe"}).fit(X, y)
    assert str(err.value) == f"{param} must be a bool, got 'maybe'"


def test_the_selector_shows_no_bar_for_verbose_no(capsys):
    X, y = _data()
    SVMRFE(verbose="no").fit(X, y)
    assert capsys.readouterr().err == ""
