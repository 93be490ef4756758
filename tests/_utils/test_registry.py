"""The one Registry class, and its two instances (rules, rankers)."""

import pytest

from rankfusion._utils.registry import Registry
from rankfusion.aggregation import available_rules, get_rule
from rankfusion.rankers import available_rankers, get_ranker, ranker_info


def make():
    reg = Registry("widget", positional=2)

    @reg.register("spin", aliases=("twirl",), weights=False, tags={"fast": True})
    def spin(X, y, depth=1, *, speed=2.0, **extra):
        """Spin it.

        More text."""
        return depth

    @reg.register("stop")
    def stop(X, y, *, weights=None):
        return 0

    return reg, spin


def test_entries_carry_signature_metadata():
    reg, spin = make()
    e = reg.get("twirl")
    assert e.name == "spin" and e.func is spin and e.aliases == ("twirl",)
    assert e.params == ("depth", "speed") and e.var_keyword and e.accepts("anything")
    assert e.summary == "Spin it." and e.tags == {"fast": True} and not e.weights
    stop = reg.get("stop")
    assert stop.params == () and not stop.accepts("depth") and stop.weights


def test_listing():
    reg, _ = make()
    assert reg.available() == ["spin", "stop"]
    assert reg.available(aliases=True) == ["spin", "stop", "twirl"]
    assert "twirl" in reg and "nope" not in reg and 3 not in reg and len(reg) == 2


@pytest.mark.parametrize(("name", "exc", "match"), [
    ("spni", ValueError, "unknown widget 'spni'; did you mean 'spin'\\? known widgets: spin, stop,"
                         " twirl"),
    ("zzz", ValueError, "unknown widget 'zzz'; known widgets:"),
    (None, TypeError, "widget must be a name"),
    (3, TypeError, "widget must be a name"),
])
def test_unknown_names(name, exc, match):
    reg, _ = make()
    with pytest.raises(exc, match=match):
        reg.get(name)


@pytest.mark.parametrize("name", ["spin", "twirl"])
def test_names_and_aliases_register_once(name):
    reg, _ = make()
    with pytest.raises(ValueError, match="already registered"):
        reg.register("other", aliases=(name,))(lambda X, y: 0)
    with pytest.raises(ValueError, match="already registered"):
        reg.register(name)(lambda X, y: 0)


@pytest.mark.parametrize("name", ["", None, 3])
def test_bad_names_are_refused(name):
    reg, _ = make()
    with pytest.raises(TypeError, match="name must be a non-empty string"):
        reg.register(name)


def test_the_rule_and_ranker_registries_keep_their_public_names():
    assert "kfirst" in available_rules() and "borda" in available_rules()
    assert get_rule("kfirst").params == ("k",)
    with pytest.raises(ValueError, match="did you mean 'kfirst'"):
        get_rule("kfrist")
    assert "info_gain" in available_rankers()
    assert get_ranker("relieff") is ranker_info("relieff").func
    assert ranker_info("relieff").accepts("n_neighbors")
    with pytest.raises(ValueError, match="did you mean 'relieff'"):
        get_ranker("releiff")
