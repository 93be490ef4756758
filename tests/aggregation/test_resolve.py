"""One aggregation spec, parsed in one place: ``resolve`` (docs/design.md, 'Aggregation
rules'), the registry's verbs and lazy loading, and the deprecated names."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import (
    RuleSpec,
    available_rules,
    check_rule_params,
    resolve,
    rule_info,
)
from rankfusion.aggregation import _registry as reg

SRC = str(Path(__file__).resolve().parents[2] / "src")


# ------------------------------------------------------------------ what resolves
@pytest.mark.parametrize("spec, name, params, label", [
    ("borda", "borda", {}, "borda"),
    ("condorcet", "copeland", {}, "copeland"),  # an alias: the canonical name
    ("kfirst:k=0.05", "kfirst", {"k": 0.05}, "kfirst:k=0.05"),
    ("kfirst:k=5", "kfirst", {"k": 5}, "kfirst:k=5"),  # an int is a count
    ("rrf:k_rrf=60", "rrf", {"k_rrf": 60}, "rrf:k_rrf=60"),
    ("  kfirst : k = 5 ", "kfirst", {"k": 5}, "kfirst:k=5"),  # whitespace dropped
    ("ga:k=3,distance=kendall,polish=false", "ga",
     {"k": 3, "distance": "kendall", "polish": False}, "ga:distance=kendall,k=3,polish=false"),
    ("ga:distance=Kendall", "ga", {"distance": "kendall"}, "ga:distance=kendall"),
    ("mean_score:normalize=none", "mean_score", {"normalize": None},
     "mean_score:normalize=none"),
    ("fuzzy:OW", "fuzzy", {"weighting": "OW"}, "fuzzy:OW"),
    ("fuzzy:ow", "fuzzy", {"weighting": "OW"}, "fuzzy:OW"),  # any case, as before
    ("FUZZY:EW".lower(), "fuzzy", {"weighting": "EW"}, "fuzzy:EW"),
    ("fuzzy:weighting=mw", "fuzzy", {"weighting": "MW"}, "fuzzy:MW"),
    ("fuzzy", "fuzzy", {}, "fuzzy"),
    (("kfirst", {"k": 0.05}), "kfirst", {"k": 0.05}, "kfirst:k=0.05"),
    (("fuzzy:RW", {}), "fuzzy", {"weighting": "RW"}, "fuzzy:RW"),
    ({"rule": "rrf", "k_rrf": 30}, "rrf", {"k_rrf": 30}, "rrf:k_rrf=30"),
])
def test_resolve(spec, name, params, label):
    rule = resolve(spec)
    assert isinstance(rule, RuleSpec)
    assert rule.name == name and dict(rule.params) == params and rule.label == label
    assert resolve(rule.label) == rule  # the label round-trips
    assert resolve(rule) is rule


def test_the_fuzzy_rule_carries_what_its_callers_need():
    entry = rule_info("fuzzy")
    assert entry.tags["groups"] == "by_method" and entry.tags["shorthand"] == "weighting"
    assert not entry.weights and entry.needs_scores and entry.params == ("weighting",)
    assert resolve("fuzzy:OW").groups == "by_method" and resolve("borda").groups is None


def test_a_callable_resolves_to_a_combiner():
    def by_first_list(lists):
        return lists.scores[:, 0]

    rule = resolve(by_first_list)
    assert rule.entry is None and rule.name == "by_first_list" and rule.label == "by_first_list"
    lists = RankedLists.from_scores(np.array([[0.1, 3.0], [0.9, 1.0], [0.5, 2.0]]))
    assert rule(lists).order.tolist() == [1, 2, 0]


# ------------------------------------------------------------------ hostile specs
@pytest.mark.parametrize("spec, exc, match", [
    ("kfirst:k", ValueError, r"a parameter must read NAME=VALUE, got 'k'"),
    ("kfirst:=3", ValueError, r"the parameter name is missing in '=3'"),
    ("kfirst:k=", ValueError, r"parameter 'k' has no value"),
    ("kfirst:k=1,k=2", ValueError, r"gives parameter 'k' twice"),
    ("kfirst:", ValueError, r"has an empty parameter after ':'"),
    ("kfirst:k=1,", ValueError, r"has an empty parameter \(item 2\)"),
    ("kfirst:k=0", ValueError, r"^k must be an int ≥ 1 or a number in \(0, 1\], got 0$"),
    ("kfirst:k=1.5", ValueError, r"^k must be an int ≥ 1 or a number in \(0, 1\], got 1.5$"),
    ("kfirst:k=abc", TypeError, r"^k must be an int ≥ 1 or a number in \(0, 1\], got 'abc'$"),
    ("kfirst:q=3", ValueError, r"^aggregation method 'kfirst' got unknown parameter\(s\) "
                               r"\['q'\]; its parameters: k$"),
    ("borda:k=3", ValueError, r"its parameters: none$"),
    ("median:weights=1", ValueError, r"unknown parameter\(s\) \['weights'\]"),
    ("fuzzy:XX", ValueError, r"^weighting must be 'EW', 'RW', 'OW' or 'MW', got 'XX'$"),
    ("fuzzy:OWW", ValueError, r"got 'OWW'; did you mean 'OW'\?$"),
    ("fuzzy:OW:k=1", ValueError, r"has a second ':'"),
    ("fuzzy:OW,k=1", ValueError, r"unknown parameter\(s\) \['k'\]; its parameters: weighting"),
    ("fuzzy:OW,weighting=EW", ValueError, r"gives parameter 'weighting' twice"),
    ("fuzzy:none", TypeError, r"^weighting must be 'EW', 'RW', 'OW' or 'MW', got None$"),
    ("", ValueError, r"aggregation '' is empty"),
    ("   ", ValueError, r"is empty"),
    (":k=1", ValueError, r"names nothing before the parameters"),
    ("Borda", ValueError, r"unknown aggregation method 'Borda'; did you mean 'borda'\?"),
    ("nope", ValueError, r"unknown aggregation method 'nope'; known methods: .*kfirst"),
    ("kfrist:k=3", ValueError, r"did you mean 'kfirst'\?"),
    (3, TypeError, r"aggregation must be a rule name or spec .* got int$"),
    (None, TypeError, r"got NoneType$"),
    (3.5, TypeError, r"got float$"),
    (RankedLists, TypeError, r"got the class RankedLists; pass a rule name"),
    (("kfirst",), TypeError, r"got tuple$"),
    (("kfirst", 3), TypeError, r"the parameters of 'kfirst' must be a dict, got int"),
    (("kfirst:k=1", {"k": 2}), ValueError, r"both give \['k'\]"),
    ({"k": 1}, TypeError, r"needs a 'rule' name"),
    ({"rule": "kfirst", 3: 1}, TypeError, r"parameter names must be strings"),
])
def test_hostile_specs(spec, exc, match):
    with pytest.raises(exc, match=match):
        resolve(spec)


def test_a_bad_value_names_the_parameter_through_aggregate_too():
    scores = np.random.default_rng(0).random((6, 3))
    with pytest.raises(ValueError, match="^k must be"):
        aggregate(scores, "kfirst", k=0)
    with pytest.raises(TypeError, match=r"\['k'\] both in the spec 'kfirst:k=2' and as keywords"):
        aggregate(scores, "kfirst:k=2", k=3)
    # the data decide what only the data can: a count above the features
    with pytest.raises(ValueError, match="exceeds"):
        aggregate(scores, "kfirst:k=7")
    assert aggregate(scores, "kfirst:k=2").params == aggregate(scores, "kfirst", k=2).params


def test_spec_values_read_as_the_command_lines_param_values():
    from rankfusion._utils.spec_text import parse_value
    from rankfusion.cli._common import param_value

    for text in ("5", "-3", "0.05", "1e-3", "inf", "true", "False", "yes", "NO", "none",
                 "None", " minmax ", "kendall", "0x10", "1_000", ""):
        assert repr(parse_value(text)) == repr(param_value(text)), text


def test_check_rule_params_is_a_constraints_check():
    assert check_rule_params("rrf", {"k_rrf": 60}).label == "rrf:k_rrf=60"
    assert check_rule_params("fuzzy:OW").params == {"weighting": "OW"}
    with pytest.raises(ValueError, match="k_rrf must be a number ≥ 0, got -1"):
        check_rule_params("rrf", {"k_rrf": -1})
    # a count is left to the data: no made-up lists of a few features refuse it
    assert check_rule_params("kfirst", {"k": 10_000}).params == {"k": 10_000}
    with pytest.raises(ValueError, match="unknown parameter"):
        check_rule_params("borda", {"k": 3})


def test_every_rule_declares_every_parameter():
    for name in available_rules():
        entry = rule_info(name)
        assert set(entry.constraints) == set(entry.params), name


# ------------------------------------------------------------------ the registry
def test_every_registered_rule_has_its_provider():
    names = set(available_rules(aliases=True))  # loads every module
    assert names == set(reg.PROVIDERS)
    for name, module in reg.PROVIDERS.items():
        assert rule_info(name).func.__module__ == "rankfusion.aggregation" + module, name


def _run(code):
    env = {**os.environ, "PYTHONPATH": SRC}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_importing_the_package_loads_no_rule_module_nor_numba():
    code = ("import sys; import rankfusion.aggregation as a; "
            "print('numba' in sys.modules, 'rankfusion.aggregation.voting' in sys.modules); "
            "print(len(a.available_rules()), 'numba' in sys.modules)")
    assert _run(code) == ["False", "False", str(len(available_rules())), "True"]


def test_one_rule_loads_only_its_module():
    code = ("import sys; from rankfusion.aggregation import resolve; resolve('borda'); "
            "print('rankfusion.aggregation.statistics' in sys.modules, "
            "'rankfusion.aggregation.kemeny' in sys.modules, 'numba' in sys.modules)")
    assert _run(code) == ["True", "False", "False"]


@pytest.mark.parametrize("call", [
    lambda: reg.available_methods(),
    lambda: reg.register("never_used_name"),
])
def test_the_old_names_are_deprecated_aliases(call):
    with pytest.warns(DeprecationWarning, match="deprecated; use"):
        call()


def test_the_old_names_are_still_exported():
    import rankfusion
    import rankfusion.aggregation as agg

    assert "available_methods" in agg.__all__ and "register" in agg.__all__
    assert "available_methods" in rankfusion.__all__
    with pytest.warns(DeprecationWarning):
        assert rankfusion.available_methods() == available_rules()
