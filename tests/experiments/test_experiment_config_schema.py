"""The experiment config validates through the estimators' and protocols' declarations
(docs/design.md, 'Parameters'): a changed constraint changes what a config accepts, and
:func:`schema_rows` lists every key from the same declarations."""

from __future__ import annotations

import inspect
import json
from numbers import Integral

import pytest
from experiment_configs import tiny_config

from rankfusion._utils.constraints import Interval
from rankfusion.evaluation import protocols
from rankfusion.experiments import ConditionalDefault, ConfigError, parse_config, schema_rows
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


def _stability(extra: str) -> str:
    """A stability selector on iris (4 features), under cross-validation."""
    return f"""
[experiment]
seed = 1
[grid]
datasets = ["iris"]
selectors = ["stab"]
classifiers = ["naive_bayes"]
protocols = ["cv"]
[selectors.stab]
kind = "stability"
rankers = ["f_classif"]
n_subsamples = 4
{extra}
[protocols.cv]
kind = "cross_validation"
cv = 3
"""


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
    # what the data set's p decides for a stability selector, refused before any cell runs
    (_stability("q = 5"), "[selectors.stab] q = 5 on dataset 'iris' (150 × 4): q = 5 "
     "exceeds the number of features (4)"),
    (_stability("q = 4\npfer = 0.5"), "[selectors.stab] pfer = 0.5 on dataset 'iris' "
     "(150 × 4): pfer = 0.5 with q = 4 of p = 4 features needs threshold π"),
    (_stability("q = 2\nthreshold = 0.9\npfer = 1.0"),
     "give two of q, threshold and pfer (the third follows from them), not all three"),
    (_stability("threshold = 0.6\npfer = 0.01"), "[selectors.stab] pfer = 0.01 on dataset "
     "'iris' (150 × 4)"),
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


# ---- the documented defaults are the ones the validator fills in


def _one_protocol(kind: str, body: str, task: str) -> str:
    """A one-cell configuration whose ``[protocols.p]`` table is ``kind`` plus ``body``."""
    regression = task == "regression"
    return f"""
[experiment]
seed = 1
task = "{task}"
[grid]
datasets = ["{'diabetes_lars' if regression else 'iris'}"]
selectors = ["one"]
classifiers = ["{'ridge' if regression else 'naive_bayes'}"]
protocols = ["p"]
[selectors.one]
kind = "ranker"
ranker = "{'f_regression' if regression else 'f_classif'}"
{'n_features_to_select = 2' if kind == 'cross_validation' else ''}
[protocols.p]
kind = "{kind}"
{body}
"""


def _protocol_default_cases():
    """(kind, key, setting it depends on, its value, documented default) of every protocol
    key of :func:`schema_rows`, one case per branch of a :class:`ConditionalDefault`."""
    out = []
    for table, key, _types, default, _meaning in schema_rows():
        if not table.startswith("[protocols.*]") or key == "kind":
            continue
        kind = table.split('"')[1]
        if isinstance(default, ConditionalDefault):
            out += [(kind, key, default.on, when, want) for when, want, _ in default.cases]
        else:
            out.append((kind, key, None, None, default))
    return out


DEFAULT_CASES = _protocol_default_cases()


def test_the_conditional_defaults_are_there():
    """The keys whose default depends on another setting are documented as such (the page
    once showed error_curve's own None for test_size, and its 100 for n_splits)."""
    by = {(c[0], c[1], c[3]): c[4] for c in DEFAULT_CASES}
    assert by[("error_curve", "test_size", "random")] == 0.25
    assert by[("error_curve", "test_size", "kfold")] is None
    assert by[("error_curve", "n_splits", None)] == 10
    assert by[("cross_validation", "scoring", "regression")] == list(
        protocols.REGRESSION_SCORINGS)
    assert len({c[:2] for c in DEFAULT_CASES}) == 12  # 6 keys of each protocol


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value) if isinstance(value, str) else repr(value)


@pytest.mark.parametrize("kind, key, on, when, want", DEFAULT_CASES,
                         ids=[f"{c[0]}-{c[1]}" + (f"-{c[3]}" if c[2] else "")
                              for c in DEFAULT_CASES])
def test_documented_protocol_defaults_are_the_validators(kind, key, on, when, want):
    """A table that leaves ``key`` out plans the same cell as one that writes the default
    :func:`schema_rows` documents (compared by the value the runner uses: the cell's
    parameter, or for a key left out of the cell the protocol function's own default, off
    for the configuration's own switches); a documented "none" leaves the key unused."""
    body, task = "", "classification"
    if on == "splits":
        body = f'splits = "{when}"'
    elif on == "[experiment] task":
        task = when
    else:
        assert on is None, on
    func = protocols.error_curve if kind == "error_curve" else protocols.cross_validate_selection
    declared = (protocols.ERROR_CURVE_CONSTRAINTS if kind == "error_curve"
                else protocols.CROSS_VALIDATION_CONSTRAINTS)

    def used(text):
        params = parse_config(text).cells[0].protocol["params"]
        if key in params:
            return params[key]
        if key in declared:  # handed on to the protocol function: its default applies
            return inspect.signature(func).parameters[key].default
        return False  # the configuration's own switch, read as pp.get(key): off

    left_out = used(_one_protocol(kind, body, task))
    if want is None:
        assert left_out in (None, False)
    else:
        written = used(_one_protocol(kind, f"{body}\n{key} = {_toml(want)}", task))
        assert left_out == written
        assert type(left_out) is type(written)


def test_the_documented_task_default_is_the_validators():
    by = {(r[0], r[1]): r[3] for r in schema_rows()}
    cfg = parse_config(_one_protocol("error_curve", "", "classification").replace(
        'task = "classification"\n', ""))
    assert "task" not in cfg.raw["experiment"]
    assert cfg.task == by[("[experiment]", "task")] == "classification"


def test_a_conditional_default_refuses_an_unknown_setting():
    d = ConditionalDefault("splits", (("random", 0.25, ""),))
    with pytest.raises(ValueError, match="setting must be one of"):
        d.value("kfold")
    lists = ConditionalDefault("task", (("a", [1], ""),))
    lists.value("a").append(2)
    assert lists.value("a") == [1]  # a fresh list each time
