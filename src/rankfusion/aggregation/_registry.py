"""The registry of aggregation rules: one name → one function (ranx ``fusion`` style).

A rule is a function ``rule(lists: RankedLists, *, weights: ndarray | None, **params) ->
Consensus``. Registering it makes it available to :func:`rankfusion.aggregate`, the estimators
and the command line under its name and aliases.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["register", "get_rule", "available_methods", "Rule"]


@dataclass(frozen=True)
class Rule:
    name: str
    func: Callable
    weights: bool  # whether the rule accepts list weights
    needs_scores: bool  # whether the rule needs raw scores (not only positions)
    params: tuple[str, ...]  # keyword parameters beyond ``weights``
    summary: str


_RULES: dict[str, Rule] = {}
_ALIASES: dict[str, str] = {}


def register(name: str, *, aliases: tuple[str, ...] = (), weights: bool = True,
             needs_scores: bool = False) -> Callable[[Callable], Callable]:
    """Decorator registering an aggregation rule under ``name`` (and ``aliases``)."""

    def deco(func: Callable) -> Callable:
        if name in _RULES or name in _ALIASES:
            raise ValueError(f"aggregation method {name!r} is already registered")
        sig = inspect.signature(func)
        params = tuple(
            p.name for p in sig.parameters.values()
            if p.kind == p.KEYWORD_ONLY and p.name != "weights"
        )
        doc = (func.__doc__ or "").strip().splitlines()
        _RULES[name] = Rule(name, func, weights, needs_scores, params, doc[0] if doc else "")
        for a in aliases:
            if a in _RULES or a in _ALIASES:
                raise ValueError(f"alias {a!r} is already registered")
            _ALIASES[a] = name
        return func

    return deco


def available_methods(*, aliases: bool = False) -> list[str]:
    """Names of the registered aggregation rules (with their aliases if asked)."""
    names = sorted(_RULES)
    if aliases:
        names = sorted(names + list(_ALIASES))
    return names


def get_rule(method: str) -> Rule:
    """The rule registered as ``method``; an unknown name lists the known ones."""
    if not isinstance(method, str):
        raise TypeError(f"method must be a string, got {type(method).__name__}")
    key = _ALIASES.get(method, method)
    if key not in _RULES:
        known = ", ".join(available_methods(aliases=True))
        raise ValueError(f"unknown aggregation method {method!r}; known methods: {known}")
    return _RULES[key]
