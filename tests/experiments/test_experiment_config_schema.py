"""The experiment config validates through the estimators' and protocols' declarations
(docs/design.md, 'Parameters'): a changed constraint changes what a config accepts, and
:func:`schema_rows` lists every key from the same declarations."""

from __future__ import annotations

import inspect
from numbers import Integral

import pytest
from experiment_configs import tiny_config

from rankfusion._utils.constraints import Interval
from rankfusion.evaluation import protocols
from rankfusion.experiments import ConfigError, parse_config, schema_rows
from rankfusion.selection import SVMRFE, EnsembleSelector

ENS = 'rankers = ["f_classif", "chi2"]'


def _swap(old, new, text=None):
    text = tiny_config() if text is None else text
    assert old in text, old
    return text.replace(old, new)


def _svm_rfe(extra: str) -> str:
    return f"""
[experiment]
seed = 1
[grid]
datasets = ["iris"]
selectors = ["rfe"]
classifiers = ["naive_bayes"]
protocols = ["curve"]
[selectors.rfe]
kind = "svm_rfe"
{extra}
[protocols.curve]
kind = "error_curve"
n_splits = 2
n_features = [1, 2]
"""


def test_a_changed_selector_constraint_changes_what_the_config_accepts(monkeypatch):
    text = _swap(ENS, ENS + "\nn_bootstraps = 20")
    parse_config(text)  # accepted as declared
    changed = dict(EnsembleSelector._parameter_constraints,
                   n_bootstraps=[Interval("int", 0, 10)])
    monkeypatch.setattr(EnsembleSelector, "_parameter_constraints", changed)
    with pytest.raises(ConfigError) as info:
        parse_config(text)
    assert "[selectors.ens] n_bootstraps = 20: n_bootstraps must be an int in [0, 10], got 20" \
        in str(info.value)


def test_a_changed_protocol_constraint_changes_what_the_config_accepts(monkeypatch):
    text = _swap("n_splits = 3", "n_splits = 20")
    parse_config(text)
    monkeypatch.setitem(protocols.ERROR_CURVE_CONSTRAINTS, "n_splits",
                        [Interval("int", 2, 10)])
    with pytest.raises(ConfigError) as info:
        parse_config(text)
    assert "[protocols.curve] n_splits = 20: n_splits must be an int in [2, 10], got 20" \
        in str(info.value)


def test_a_new_selector_parameter_is_a_config_key(monkeypatch):
    # criterion= of SVMRFE is a key because SVMRFE declares it
    parse_config(_svm_rfe('criterion = "weston_watkins"\naggregation = "average"'))
    with pytest.raises(ConfigError) as info:
        parse_config(_svm_rfe('criterion = "westonwatkins"'))
    assert ("[selectors.rfe] criterion = \"westonwatkins\": criterion must be 'binary', "
            "'crammer_singer' or 'weston_watkins'") in str(info.value)


# a new user's mistakes in a selector or protocol table: each named by table, key and value
HOSTILE = [
    (_swap(ENS, ENS + "\nn_bootstraps = true"),
     "[selectors.ens] n_bootstraps: expected int, got bool true"),
    (_swap(ENS, ENS + "\nn_bootstraps = -1"),
     "[selectors.ens] n_bootstraps = -1: n_bootstraps must be an int ≥ 0, got -1"),
    (_swap(ENS, ENS + "\nn_bootstraps = nan"),
     "[selectors.ens] n_bootstraps: expected int, got float nan"),
    (_swap(ENS, ENS + "\nsample_fraction = nan\nn_bootstraps = 2"),
     "[selectors.ens] sample_fraction = nan: sample_fraction must be a number in (0, 1]"),
    (_swap(ENS, ENS + '\nsubset_cv = "nestd"'),
     "[selectors.ens] subset_cv = \"nestd\": subset_cv must be 'nested' or 'ranked_once'"),
    (_swap(ENS, ENS + '\nnormalize = "zscore"'),
     "[selectors.ens] normalize = \"zscore\": normalize must be None, 'minmax' or 'rank'"),
    (_swap(ENS, ENS + "\ncv = 1"), "[selectors.ens] cv = 1: cv must be an int ≥ 2, got 1"),
    (_swap(ENS, ENS + "\nrandom_state = 3"),
     '[selectors.ens] random_state: unknown parameter of a selector of kind "ensemble"'),
    (_swap(ENS, ENS + "\nn_bootstrap = 3"),
     '[selectors.ens] n_bootstrap: unknown parameter of a selector of kind "ensemble"; did '
     'you mean "n_bootstraps"?'),
    (_svm_rfe('decomposition = "ovr"'),
     "[selectors.rfe] decomposition = \"ovr\": decomposition must be 'ovo', 'ova', "
     "'crammer_singer' or 'weston_watkins'"),
    (_svm_rfe("C = -1"), "[selectors.rfe] C = -1: C must be a number > 0 or 'cv', got -1"),
    (_svm_rfe('C = "CV"'), "[selectors.rfe] C = \"CV\": C must be a number > 0 or 'cv'"),
    (_svm_rfe("step = 0"), "[selectors.rfe] step = 0: step must be an int ≥ 1 or a number in "
     "(0, 1), got 0"),
    (_svm_rfe("warm_start = 1"), "[selectors.rfe] warm_start: expected bool, got int 1"),
    (_swap("n_splits = 3", "n_splits = 1.5"),
     "[protocols.curve] n_splits: expected int, got float 1.5"),
    (_swap("test_size = 0.3", "test_size = 0"),
     "[protocols.curve] test_size = 0: test_size must be a number in (0, 1) or an int ≥ 1"),
    (_swap("test_size = 0.3", "test_size = -0.3"),
     "[protocols.curve] test_size = -0.3: test_size must be a number in (0, 1) or an int ≥ 1"),
    (_swap('kind = "error_curve"\nn_splits = 3',
           'kind = "cross_validation"\ncv = 3\nscoring = ["acc"]'),
     "[protocols.curve] scoring = ['acc']: scoring must be a list of metrics"),
    (_swap('kind = "error_curve"\nn_splits = 3\ntest_size = 0.3\nn_features = [1, 2, 4]',
           'kind = "cross_validation"\ncv = 3\npos_label = true'),
     "[protocols.curve] pos_label: expected str or int, got bool true"),
]


@pytest.mark.parametrize("text, fragment", HOSTILE, ids=[f"h{i:02d}" for i in range(len(HOSTILE))])
def test_hostile_tables_name_table_key_and_value(text, fragment):
    with pytest.raises(ConfigError) as info:
        parse_config(text)
    assert fragment in str(info.value), str(info.value)


def test_every_problem_is_collected_at_once():
    text = _swap(ENS, ENS + "\nn_bootstraps = -1\ncv = 1\nnormalize = \"z\"")
    with pytest.raises(ConfigError) as info:
        parse_config(text)
    assert len(info.value.errors) == 3


# ---------------------------------------------------------------------------- schema_rows
def test_every_selector_parameter_has_a_row():
    rows = schema_rows()
    for kind, cls in (("ensemble", EnsembleSelector), ("svm_rfe", SVMRFE)):
        table = f'[selectors.*] kind = "{kind}"'
        keys = {r[1] for r in rows if r[0] == table}
        params = set(inspect.signature(cls.__init__).parameters) - {"self"}
        runner = {"random_state", "n_jobs", "progress", "verbose", "estimator"}
        assert params - runner <= keys, params - runner - keys
        assert {"kind", "rules"} <= keys


def test_rows_have_types_defaults_and_meanings():
    rows = schema_rows()
    assert {r[0] for r in rows} >= {"[experiment]", "[grid]", "[datasets.*]", "[rules.*]",
                                   '[protocols.*] kind = "error_curve"',
                                   '[protocols.*] kind = "cross_validation"',
                                   '[selectors.*] kind = "ranker"'}
    by = {(r[0], r[1]): r for r in rows}
    row = by[('[selectors.*] kind = "ensemble"', "n_bootstraps")]
    assert row[2] == ("int",) and row[3] == 0
    assert row[4].startswith("0: every ranker once on all the data")  # the docstring's words
    assert by[('[selectors.*] kind = "svm_rfe"', "criterion")][3] == "binary"
    assert by[('[protocols.*] kind = "error_curve"', "n_splits")][2] == ("int",)
    assert by[('[rules.*] rule = "kfirst"', "k")][2] == ("int", "float")
    for table, key, types, _default, meaning in rows:
        assert isinstance(types, tuple) and isinstance(key, str) and meaning, (table, key)


def test_schema_types_follow_the_declarations(monkeypatch):
    changed = dict(EnsembleSelector._parameter_constraints,
                   cv=[Interval("real", 2, None)])
    monkeypatch.setattr(EnsembleSelector, "_parameter_constraints", changed)
    by = {(r[0], r[1]): r for r in schema_rows()}
    assert by[('[selectors.*] kind = "ensemble"', "cv")][2] == ("float", "int")
    assert isinstance(2, Integral)
