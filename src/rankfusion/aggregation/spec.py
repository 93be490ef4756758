"""One aggregation spec, parsed in one place: :func:`resolve` turns what a user writes into a
ready :class:`RuleSpec` (docs/design.md, 'Aggregation rules').

The spec grammar::

    spec   := NAME [ ":" params ]
    params := [ VALUE "," ] NAME "=" VALUE { "," NAME "=" VALUE }   (or a bare VALUE alone)

``NAME`` is a registered rule or alias (case-sensitive; another case gets "did you mean");
values read as the command line's ``--param`` values (ints, floats, true/false, none, text),
so ``k=5`` is a count and ``k=0.05`` a fraction (docs/design.md, 'Fractions'). A bare first
value sets the rule's *shorthand* parameter: ``"fuzzy:OW"`` is ``fuzzy`` with
``weighting="OW"``. Whitespace around names and values is dropped. Text values of a parameter
with fixed options match them in any case (``"fuzzy:ow"``). Also accepted: a ``(name, params)``
pair, a mapping ``{"rule": name, **params}`` (an experiment's ``[rules.<label>]`` table), a
:class:`RuleSpec` (returned as is), or a callable ``f(lists) -> Consensus or scores``.

Examples
--------
>>> spec = resolve("kfirst:k=0.05")
>>> spec.name, dict(spec.params), spec.label
('kfirst', {'k': 0.05}, 'kfirst:k=0.05')
>>> resolve("fuzzy:ow").label
'fuzzy:OW'
>>> resolve(("rrf", {"k_rrf": 30})).label == resolve("rrf:k_rrf=30").label
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from .._utils.constraints import Options, check_param
from .._utils.registry import Entry, closest_name
from .._utils.spec_text import format_value, split_spec
from ..lists import as_ranked_lists
from ._registry import rule_info
from ._result import Consensus

__all__ = ["RuleSpec", "resolve", "check_values"]


def _options(constraints) -> list[str]:
    out = []
    for c in constraints:
        if isinstance(c, Options):
            out += [v for v in c.values if isinstance(v, str)]
        elif isinstance(c, str):
            out.append(c)
    return out


def check_values(entry: Entry, params: Mapping) -> dict:
    """``params`` checked against the rule's declared constraints, as a new dict: a text value
    of a parameter with fixed options is matched to them in any case (``"ow"`` → ``"OW"``), the
    text ``"none"`` is None where None is accepted, and a refused text gets the closest option
    suggested.

    Parameters
    ----------
    entry : Rule
        The rule's registry entry.
    params : mapping
        The parameters (names already known to be the rule's).

    Returns
    -------
    dict
        The parameters, option values in their declared case.

    Raises
    ------
    TypeError, ValueError
        ``NAME must be WHAT IT ACCEPTS, got VALUE`` (docs/design.md, 'Parameters').
    """
    out = dict(params)
    for key, constraints in entry.constraints.items():
        if key not in out:
            continue
        value = out[key]
        opts = _options(constraints)
        if (isinstance(value, str) and value.strip().lower() == "none" and None in constraints
                and "none" not in opts):
            value = out[key] = None  # as the spec text and the command line read it
        if isinstance(value, str) and opts and value not in opts:
            same = [o for o in opts if o.lower() == value.strip().lower()]
            if len(same) == 1:
                value = out[key] = same[0]
        try:
            check_param(key, value, constraints)
        except ValueError as exc:
            close = closest_name(value, opts) if isinstance(value, str) and opts else None
            if close is None:
                raise
            raise ValueError(f"{exc}; did you mean {close!r}?") from None
    return out


def _unknown(entry: Entry, keys) -> list[str]:
    return sorted(k for k in keys if not entry.accepts(k))


def _unknown_message(entry: Entry, unknown) -> str:
    return (f"aggregation method {entry.name!r} got unknown parameter(s) {unknown}; its "
            f"parameters: {', '.join(entry.params) or 'none'}")


@dataclass(frozen=True, eq=True)
class RuleSpec:
    """A resolved aggregation rule with its parameters, ready to combine lists; made by
    :func:`resolve` (the parameters are checked when it is made).

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    entry : Rule or None
        The registry entry (None for a callable).
    params : mapping
        The rule's parameters, checked (read-only).
    func : callable or None
        The callable ``f(lists) -> Consensus or scores`` when the spec is one.

    Notes
    -----
    Also: ``name``, ``label`` (the canonical spec text; :func:`resolve` reads it back as an
    equal RuleSpec whenever every value is a number, a bool, None or plain text), ``groups``,
    ``weights``, ``needs_scores``, ``accepts(param)``, ``with_params(defaults=…)`` and
    ``__call__(lists, weights=None, *, groups=None, **params) -> Consensus``.
    """

    entry: Entry | None
    params: Mapping = field(default_factory=dict)
    func: Callable | None = None

    def __post_init__(self):
        if (self.entry is None) == (self.func is None):
            raise TypeError("a RuleSpec holds either a registry entry or a callable")
        params = dict(self.params)
        if self.entry is None:
            if params:
                raise ValueError("a callable aggregation takes no parameters")
        else:
            unknown = _unknown(self.entry, params)
            if unknown:
                raise ValueError(_unknown_message(self.entry, unknown))
            params = check_values(self.entry, params)
        object.__setattr__(self, "params", MappingProxyType(params))

    # ------------------------------------------------------------------ what it is
    @property
    def name(self) -> str:
        """The rule's canonical name (a callable's ``__name__``)."""
        if self.entry is not None:
            return self.entry.name
        name = getattr(self.func, "__name__", None)
        return name if name and name != "<lambda>" else "callable"

    @property
    def groups(self) -> str | None:
        """``"by_method"`` for a rule that combines each method's lists as a group, else
        None."""
        return None if self.entry is None else self.entry.tags.get("groups")

    @property
    def weights(self) -> bool:
        """Whether the rule takes list weights."""
        return self.entry is not None and self.entry.weights

    @property
    def needs_scores(self) -> bool:
        """Whether the rule needs raw scores."""
        return self.entry is not None and self.entry.needs_scores

    @property
    def label(self) -> str:
        """The canonical spec text: ``name``, ``name:a=1,b=x`` (names sorted), or
        ``name:VALUE`` when the one parameter given is the rule's shorthand (``fuzzy:OW``)."""
        if not self.params:
            return self.name
        short = self.entry.tags.get("shorthand")
        if set(self.params) == {short}:
            text = format_value(self.params[short])
            if text is not None:
                return f"{self.name}:{text}"
        items = []
        for key in sorted(self.params):
            text = format_value(self.params[key])
            items.append(f"{key}={text if text is not None else repr(self.params[key])}")
        return f"{self.name}:{','.join(items)}"

    def accepts(self, param: str) -> bool:
        """Whether the rule takes ``param``.

        Parameters
        ----------
        param : str
            A parameter name.

        Returns
        -------
        bool
        """
        return self.entry is not None and self.entry.accepts(param)

    def with_params(self, defaults: Mapping | None = None, **params) -> RuleSpec:
        """A RuleSpec with more parameters: ``defaults`` under this spec's own, ``params``
        over them.

        Parameters
        ----------
        defaults : mapping, optional
            Parameters this spec's own override (an estimator's ``aggregation_params``).
        **params
            Parameters that override this spec's.

        Returns
        -------
        RuleSpec
        """
        merged = {**dict(defaults or {}), **self.params, **params}
        if merged == dict(self.params):
            return self
        return RuleSpec(self.entry, merged, self.func)

    def __repr__(self) -> str:
        return f"RuleSpec({self.label!r})"

    # ------------------------------------------------------------------ combining
    def __call__(self, lists, weights=None, *, groups=None, **params) -> Consensus:
        """Combine ``lists`` (see :func:`rankfusion.aggregate`).

        Parameters
        ----------
        lists : RankedLists, DataFrame or array-like
            The lists.
        weights : array-like, optional
            List weights, for a rule that takes them.
        groups : mapping, optional
            Method → list names, for a rule with ``groups="by_method"``.
        **params
            More parameters (e.g. a ``random_state``), each one the spec does not set.

        Returns
        -------
        Consensus
        """
        if self.entry is not None:
            from .api import aggregate

            return aggregate(lists, self, weights=weights, groups=groups, **params)
        if params:
            raise TypeError(f"the aggregation callable {self.name!r} takes no parameters; got "
                            f"{sorted(params)}")
        lists = as_ranked_lists(lists)
        out = self.func(lists)
        n = lists.n_features
        if isinstance(out, Consensus):
            if out.n_features != n:
                raise ValueError(f"the aggregation callable returned a consensus of "
                                 f"{out.n_features} features for {n}")
            return out
        s = np.asarray(out, dtype=np.float64).reshape(-1)
        if s.shape[0] != n or not np.isfinite(s).all():
            raise ValueError("the aggregation callable must return a Consensus or one "
                             f"finite score per feature ({n})")
        order = np.lexsort((np.arange(s.shape[0]), -s))
        ranks = np.empty_like(order)
        ranks[order] = np.arange(1, s.shape[0] + 1)
        return Consensus(order=order, scores=s, ranks=ranks, features=lists.features,
                         method=getattr(self.func, "__name__", "callable"))


def _from_text(text: str, argument: str) -> tuple[Entry, dict]:
    name, items = split_spec(text, what=argument)
    entry = rule_info(name)
    params: dict = {}
    for key, value in items:
        if key is None:
            key = entry.tags.get("shorthand")
            if key is None:
                raise ValueError(f"{argument} {text!r}: a parameter must read NAME=VALUE, got "
                                 f"{value!r} (e.g. 'kfirst:k=0.05')")
            if any(k == key for k, _ in items):
                raise ValueError(f"{argument} {text!r} gives parameter {key!r} twice")
        params[key] = value
    return entry, params


def resolve(spec, *, argument: str = "aggregation") -> RuleSpec:
    """The :class:`RuleSpec` of an aggregation spec: a name, an alias, a spec text
    (``"kfirst:k=0.05"``, ``"rrf:k_rrf=60"``, ``"name:a=1,b=x"``, ``"fuzzy:OW"``), a
    ``(name, params)`` pair, a mapping ``{"rule": name, **params}``, a RuleSpec, or a
    callable.

    Parameters
    ----------
    spec : str, tuple, mapping, RuleSpec or callable
        The rule and its parameters (grammar in the module docstring).
    argument : str, default "aggregation"
        The argument's name in error messages.

    Returns
    -------
    RuleSpec
        The rule's entry and its checked parameters.

    Raises
    ------
    TypeError
        A spec of no accepted type (None, a number, a class …), or a parameter value of the
        wrong kind.
    ValueError
        Malformed text, an unknown rule (the closest name suggested, every name listed), a
        parameter the rule does not take (its parameters listed), a parameter given twice,
        or a value the rule's constraints refuse (the parameter named).

    Examples
    --------
    >>> resolve("borda:k=3")
    Traceback (most recent call last):
    ...
    ValueError: aggregation method 'borda' got unknown parameter(s) ['k']; its parameters: none
    >>> resolve("kfirst:k=0")
    Traceback (most recent call last):
    ...
    ValueError: k must be an int ≥ 1 or a number in (0, 1], got 0
    """
    if isinstance(spec, RuleSpec):
        return spec
    if isinstance(spec, str):
        entry, params = _from_text(spec, argument)
        return RuleSpec(entry, params)
    if isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
        name, extra = spec
        if extra is None:
            extra = {}
        if not isinstance(extra, Mapping):
            raise TypeError(f"{argument}: the parameters of {name!r} must be a dict, got "
                            f"{type(extra).__name__}")
        text_params: dict
        entry, text_params = _from_text(name, argument)
        return RuleSpec(entry, _merge(text_params, dict(extra), name, argument))
    if isinstance(spec, Mapping):
        table = dict(spec)
        name = table.pop("rule", None)
        if not isinstance(name, str):
            raise TypeError(f"{argument} given as a mapping needs a 'rule' name (str), got "
                            f"{name!r}")
        entry, text_params = _from_text(name, argument)
        return RuleSpec(entry, _merge(text_params, table, name, argument))
    if isinstance(spec, type):
        raise TypeError(f"{argument} got the class {spec.__name__}; pass a rule name (e.g. "
                        "'borda'), a spec such as 'kfirst:k=0.05', or a function / an "
                        "instance that combines the lists")
    if callable(spec):
        return RuleSpec(None, {}, spec)
    raise TypeError(f"{argument} must be a rule name or spec ('borda', 'kfirst:k=0.05', "
                    "'fuzzy:OW'), a (name, params) pair or a callable; got "
                    f"{type(spec).__name__}")


def _merge(a: dict, b: dict, name: str, argument: str) -> dict:
    twice = sorted(set(a) & set(b))
    if twice:
        raise ValueError(f"{argument} {name!r} and its parameters both give {twice}")
    bad = [k for k in b if not isinstance(k, str)]
    if bad:
        raise TypeError(f"{argument}: parameter names must be strings, got {bad[0]!r}")
    return {**a, **b}
