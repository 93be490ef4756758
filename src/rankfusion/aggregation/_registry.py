"""The registry of aggregation rules: one name → one function (ranx ``fusion`` style).

A rule is a function ``rule(lists: RankedLists, *, weights: ndarray | None, **params) ->
Consensus``. Registering it makes it available to :func:`rankfusion.aggregate`,
:func:`rankfusion.aggregation.resolve`, the estimators and the command line under its name and
aliases. The registry is one instance of :class:`rankfusion._utils.registry.Registry`, with the
verbs of every registry (docs/design.md, 'Aggregation rules'): :func:`register_rule`,
:func:`get_rule` / :func:`rule_info` (the entry), :func:`available_rules`. The rule modules are
imported on first lookup (:data:`PROVIDERS`), so ``import rankfusion.aggregation`` loads none of
them (nor numba).

Each entry carries what callers need to know: the rule's parameter constraints (data, checked
once by :func:`~rankfusion.aggregation.resolve` and :func:`~rankfusion.aggregate`), the
invariants it promises (:data:`INVARIANTS`; the test suite checks each one on every rule that
declares it), whether it takes list weights or needs raw scores, and two tags: ``groups`` —
``"by_method"`` for a rule that combines each method's bootstrap lists as one group (the fuzzy
combination) — and ``shorthand``, the parameter a bare value after ``:`` sets (``"fuzzy:OW"``).
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable

from .._utils.registry import Entry, Registry

__all__ = ["RULES", "Rule", "PROVIDERS", "INVARIANTS", "GROUPINGS", "register_rule",
           "get_rule", "rule_info", "available_rules", "register", "available_methods"]

#: The invariants a rule may promise (docs/design.md, 'Aggregation rules'):
#:
#: * ``permute_lists`` — permuting the lists (and their weights) changes neither the order nor
#:   the scores, ties inside lists included;
#: * ``relabel`` — renaming the features permutes the scores with them, and the order too where
#:   no two features share their keys;
#: * ``relabel_objective`` — for an optimisation rule whose optimum may not be unique: renaming
#:   the features leaves the optimal objective unchanged;
#: * ``unanimity`` — identical lists without ties come back as that order;
#: * ``condorcet`` — a feature beating every other one in pairwise majority comes first;
#: * ``seeded`` — the same ``random_state`` gives the same result.
INVARIANTS = ("permute_lists", "relabel", "relabel_objective", "unanimity", "condorcet",
              "seeded")

#: How a rule may need its lists grouped: ``"by_method"`` — each method's bootstrap lists form
#: one group (a mapping method → list names, ``groups=``; by default the part of the list
#: names before ``@``, as ``relieff@b3``).
GROUPINGS = ("by_method",)

#: The module registering each rule (and its aliases), imported when the name is first asked
#: for; every module for an unknown name and for :func:`available_rules`. A test checks this
#: table against what the modules register.
PROVIDERS = {
    **dict.fromkeys(("mean_score", "borda", "median", "average_sd", "best_rank", "q3_sd",
                     "kfirst", "rrf", "combmnz"), ".statistics"),
    **dict.fromkeys(("copeland", "condorcet", "schulze"), ".voting"),
    "kemeny": ".kemeny",
    "ga": ".genetic",
    "ce": ".cross_entropy",
    **dict.fromkeys(("rra", "rra_min", "rra_median", "rra_geom_mean", "rra_mean", "stuart"),
                    ".rra"),
    "fuzzy": ".fuzzy",
    **dict.fromkeys(("mc1", "mc2", "mc3", "mc4"), ".markov"),
    **dict.fromkeys(("approval", "av", "sav", "seq_pav", "seq_phragmen"), ".approval"),
}

#: The registered aggregation rules.
RULES = Registry("aggregation method", plural="methods", positional=1, providers=PROVIDERS,
                 package="rankfusion.aggregation", data=("weights", "groups"))

#: A registered rule (name, func, weights, needs_scores, params, summary, constraints,
#: invariants, …).
Rule = Entry


def register_rule(name: str, *, aliases: tuple[str, ...] = (), weights: bool = True,
                  needs_scores: bool = False, constraints: dict | None = None,
                  invariants: tuple[str, ...] = (), groups: str | None = None,
                  shorthand: str | None = None, tags: dict | None = None,
                  ) -> Callable[[Callable], Callable]:
    """Decorator registering an aggregation rule under ``name`` (and ``aliases``).

    Parameters
    ----------
    name : str
        The name :func:`~rankfusion.aggregate`, :func:`~rankfusion.aggregation.resolve` and the
        estimators use.
    aliases : tuple of str, default ()
        Other names of the same rule.
    weights : bool, default True
        Whether the rule accepts list weights.
    needs_scores : bool, default False
        Whether it needs raw scores (not only positions).
    constraints : dict, optional
        ``{parameter: [constraint, ...]}`` in the vocabulary of
        :mod:`rankfusion._utils.constraints` (docs/design.md, 'Parameters'), checked once
        before the rule runs; what depends on the data (a count above the number of
        features) stays in the rule.
    invariants : tuple of str, default ()
        The properties it promises, among :data:`INVARIANTS`.
    groups : {None, "by_method"}, default None
        ``"by_method"``: the rule combines each method's lists as one group and takes a
        ``groups=`` mapping method → list names.
    shorthand : str, optional
        The parameter a bare value after ``:`` sets in a spec (``"fuzzy:OW"``).
    tags : dict, optional
        Free metadata kept in the registry entry.

    Returns
    -------
    callable
        The decorator; it returns the rule function unchanged.
    """
    bad = sorted(set(invariants) - set(INVARIANTS))
    if bad:
        raise ValueError(f"rule {name!r} declares unknown invariant(s) {bad}; known: "
                         f"{', '.join(INVARIANTS)}")
    if groups is not None and groups not in GROUPINGS:
        raise ValueError(f"groups must be None or one of {', '.join(GROUPINGS)}, got {groups!r}")
    tags = dict(tags or {})
    if groups is not None:
        tags["groups"] = groups
    if shorthand is not None:
        tags["shorthand"] = shorthand
    deco = RULES.register(name, aliases=aliases, weights=weights, needs_scores=needs_scores,
                          tags=tags, constraints=constraints, invariants=tuple(invariants))
    if shorthand is None:
        return deco

    def checked(func: Callable) -> Callable:
        if shorthand not in inspect.signature(func).parameters:
            raise TypeError(f"rule {name!r}: shorthand {shorthand!r} is not one of its "
                            "parameters")
        return deco(func)

    return checked


def available_rules(*, aliases: bool = False) -> list[str]:
    """Names of the registered aggregation rules (with their aliases if asked).

    Parameters
    ----------
    aliases : bool, default False
        Include the aliases (``condorcet`` for ``copeland`` …).

    Returns
    -------
    list of str
    """
    return RULES.available(aliases=aliases)


def rule_info(name: str) -> Rule:
    """The registry entry of rule ``name``; an unknown name suggests and lists the known ones.

    Parameters
    ----------
    name : str
        A registered name or alias (:func:`available_rules`).

    Returns
    -------
    Rule
        The registry entry: the function, its parameters and their constraints, what it
        accepts, its invariants and tags.
    """
    if not isinstance(name, str):
        raise TypeError(f"method must be a string, got {type(name).__name__}")
    return RULES.get(name)


def get_rule(method: str) -> Rule:
    """The rule registered as ``method`` (its entry, as :func:`rule_info`); an unknown name
    suggests and lists the known ones.

    Parameters
    ----------
    method : str
        A registered name or alias (:func:`available_rules`).

    Returns
    -------
    Rule
        The registry entry: the function, its parameters and what it accepts.
    """
    return rule_info(method)


def register(name: str, *, aliases: tuple[str, ...] = (), weights: bool = True,
             needs_scores: bool = False, tags: dict | None = None,
             ) -> Callable[[Callable], Callable]:
    """Deprecated name of :func:`register_rule` (emits ``DeprecationWarning``).

    Parameters
    ----------
    name : str
        As :func:`register_rule`.
    aliases : tuple of str, default ()
        As :func:`register_rule`.
    weights : bool, default True
        As :func:`register_rule`.
    needs_scores : bool, default False
        As :func:`register_rule`.
    tags : dict, optional
        As :func:`register_rule`.

    Returns
    -------
    callable
        The decorator.
    """
    warnings.warn("rankfusion.aggregation.register is deprecated; use register_rule",
                  DeprecationWarning, stacklevel=2)
    return register_rule(name, aliases=aliases, weights=weights, needs_scores=needs_scores,
                         tags=tags)


def available_methods(*, aliases: bool = False) -> list[str]:
    """Deprecated name of :func:`available_rules` (emits ``DeprecationWarning``).

    Parameters
    ----------
    aliases : bool, default False
        Include the aliases.

    Returns
    -------
    list of str
    """
    warnings.warn("rankfusion.aggregation.available_methods is deprecated; use "
                  "available_rules", DeprecationWarning, stacklevel=2)
    return available_rules(aliases=aliases)
