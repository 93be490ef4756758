"""The parameter-constraint vocabulary (docs/design.md, 'Parameters'): what each word accepts,
which failure is a TypeError and which a ValueError, and the messages."""

import math

import numpy as np
import pytest

from rankfusion._utils.constraints import (
    Boolean,
    Check,
    Function,
    InstanceOf,
    Interval,
    Jobs,
    Options,
    Seed,
    SequenceOf,
    Table,
    check_param,
    describe,
    param_problems,
    toml_types,
    validate_params,
)

COUNT = [Interval("int", 1, None)]
FRACTION = [Interval("real", 0, 1, closed="right")]
SIZE = [None, Interval("int", 1, None), Interval("real", 0, 1, closed="right"),
        Options("k-step", "learning-curve")]

# (constraints, value, expected: None = accepted, else the error class)
CASES = [
    (COUNT, 1, None),
    (COUNT, np.int64(7), None),
    (COUNT, 0, ValueError),
    (COUNT, -3, ValueError),
    (COUNT, 2.0, TypeError),  # a float is no count, even a whole one
    (COUNT, True, TypeError),  # bools are not ints here
    (COUNT, np.bool_(True), TypeError),
    (COUNT, "3", TypeError),
    (COUNT, None, TypeError),
    (FRACTION, 1, None),
    (FRACTION, 0.5, None),
    (FRACTION, 0.0, ValueError),
    (FRACTION, 1.5, ValueError),
    (FRACTION, math.nan, ValueError),
    (FRACTION, math.inf, ValueError),
    (FRACTION, "0.5", TypeError),
    (FRACTION, False, TypeError),
    (SIZE, None, None),
    (SIZE, 5, None),
    (SIZE, 0.3, None),
    (SIZE, "k-step", None),
    (SIZE, "kstep", ValueError),
    (SIZE, 0, ValueError),
    (SIZE, 1.5, ValueError),
    (SIZE, [5], TypeError),
    ([Boolean()], True, None),
    ([Boolean()], np.bool_(False), None),
    ([Boolean()], 1, TypeError),
    ([Boolean()], "true", TypeError),
    ([None, Seed()], None, None),
    ([None, Seed()], 0, None),
    ([None, Seed()], 2 ** 32 - 1, None),
    ([None, Seed()], 2 ** 32, ValueError),
    ([None, Seed()], -1, ValueError),
    ([None, Seed()], np.random.RandomState(0), None),
    ([None, Seed()], np.random.default_rng(0), None),
    ([None, Seed()], 1.0, TypeError),
    ([None, Jobs()], -1, None),
    ([None, Jobs()], 0, ValueError),
    ([None, Jobs()], 2.0, TypeError),
    ([Function()], len, None),
    ([Function()], int, TypeError),  # a class is not a ranker function
    ([Table()], {"k": 1}, None),
    ([Table()], {1: 1}, ValueError),
    ([Table()], [("k", 1)], TypeError),
    ([SequenceOf(Interval("int", 1, None))], [1, 2], None),
    ([SequenceOf(Interval("int", 1, None))], (3,), None),
    ([SequenceOf(Interval("int", 1, None))], [], ValueError),
    ([SequenceOf(Interval("int", 1, None))], [1, 0], ValueError),
    ([SequenceOf(Interval("int", 1, None))], "12", TypeError),
    ([SequenceOf(Interval("int", 1, None))], {1, 2}, TypeError),  # a set has no order
    ([InstanceOf(str, "a name")], "x", None),
    ([InstanceOf(str, "a name")], 3, TypeError),
    ([Check(lambda v: isinstance(v, str) and v.isupper(), "an upper-case name",
            kind=lambda v: isinstance(v, str))], "OW", None),
    ([Check(lambda v: isinstance(v, str) and v.isupper(), "an upper-case name",
            kind=lambda v: isinstance(v, str))], "ow", ValueError),
    ([Check(lambda v: isinstance(v, str) and v.isupper(), "an upper-case name",
            kind=lambda v: isinstance(v, str))], 3, TypeError),
    (["nested", "ranked_once"], "nested", None),
    (["nested", "ranked_once"], "other", ValueError),
    (["nested", "ranked_once"], 1, TypeError),
]


@pytest.mark.parametrize("constraints, value, expected", CASES)
def test_each_word_accepts_and_refuses(constraints, value, expected):
    if expected is None:
        check_param("x", value, constraints)
    else:
        with pytest.raises(expected, match=r"^x must be .*, got "):
            check_param("x", value, constraints)


def test_the_message_names_what_is_accepted_and_the_value():
    with pytest.raises(ValueError) as err:
        check_param("n_features_to_select", "kstep", SIZE)
    assert str(err.value) == ("n_features_to_select must be None, an int ≥ 1, a number in "
                              "(0, 1], 'k-step' or 'learning-curve', got 'kstep'")


@pytest.mark.parametrize("interval, text", [
    (Interval("int", 0, None), "an int ≥ 0"),
    (Interval("int", 0, None, closed="neither"), "an int > 0"),
    (Interval("real", None, 1), "a number ≤ 1"),
    (Interval("real", None, 1, closed="left"), "a number < 1"),
    (Interval("real", 0, 1, closed="left"), "a number in [0, 1)"),
    (Interval("real", 0.5, 2.5), "a number in [0.5, 2.5]"),
    (Interval("real"), "a finite number"),
    (Interval("int"), "an int"),
])
def test_interval_descriptions(interval, text):
    assert interval.description == text


def test_interval_and_options_refuse_a_bad_declaration():
    with pytest.raises(ValueError, match="kind"):
        Interval("float", 0, 1)
    with pytest.raises(ValueError, match="closed"):
        Interval("int", 0, 1, closed="open")
    with pytest.raises(ValueError, match="at least one"):
        Options()
    with pytest.raises(TypeError, match="not a constraint"):
        check_param("x", 1, [3.5])


def test_validate_params_stops_at_the_first_problem_in_declaration_order():
    constraints = {"a": COUNT, "b": FRACTION}
    with pytest.raises(ValueError, match="^a must"):
        validate_params(constraints, {"b": 2.0, "a": 0})
    validate_params(constraints, {"a": 0}, skip=("a",))
    validate_params(constraints, {"unknown": object()})  # undeclared names are not checked


def test_param_problems_lists_every_problem_with_its_place():
    out = param_problems({"a": COUNT, "b": FRACTION, "c": [Boolean()]},
                         {"a": 0, "b": 2.0, "c": True}, where="[selectors.x] ")
    assert out == ["[selectors.x] a must be an int ≥ 1, got 0",
                   "[selectors.x] b must be a number in (0, 1], got 2.0"]


def test_toml_types_follow_the_declaration():
    assert toml_types(SIZE) == ["int", "float", "str"]
    assert toml_types([None, Seed()]) == ["int"]
    assert toml_types([Function()]) == []
    assert toml_types([SequenceOf(Interval("int", 1, None)), Table()]) == ["list", "table"]


def test_describe_puts_none_first_and_options_last():
    assert describe(["a", None, Interval("int", 1, None)]) == "None, an int ≥ 1 or 'a'"
    assert describe([Boolean()]) == "a bool"
