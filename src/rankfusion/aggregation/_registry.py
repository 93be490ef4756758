"""The registry of aggregation rules: one name → one function (ranx ``fusion`` style).

A rule is a function ``rule(lists: RankedLists, *, weights: ndarray | None, **params) ->
Consensus``. Registering it makes it available to :func:`rankfusion.aggregate`, the estimators
and the command line under its name and aliases. The registry is one instance of
:class:`rankfusion._utils.registry.Registry`.
"""

from __future__ import annotations

from collections.abc import Callable

from .._utils.registry import Entry, Registry

__all__ = ["RULES", "Rule", "register", "get_rule", "available_methods"]

#: The registered aggregation rules.
RULES = Registry("aggregation method", plural="methods", positional=1)

#: A registered rule (name, func, weights, needs_scores, params, summary, …).
Rule = Entry


def register(name: str, *, aliases: tuple[str, ...] = (), weights: bool = True,
             needs_scores: bool = False, tags: dict | None = None,
             ) -> Callable[[Callable], Callable]:
    """Decorator registering an aggregation rule under ``name`` (and ``aliases``).

    Parameters
    ----------
    name : str
        The name :func:`aggregate` and the estimators use.
    aliases : tuple of str, default ()
        Other names of the same rule.
    weights : bool, default True
        Whether the rule accepts list weights.
    needs_scores : bool, default False
        Whether it needs raw scores (not only positions).
    tags : dict, optional
        Free metadata kept in the registry entry.

    Returns
    -------
    callable
        The decorator; it returns the rule function unchanged.
    """
    return RULES.register(name, aliases=aliases, weights=weights, needs_scores=needs_scores,
                          tags=tags)


def available_methods(*, aliases: bool = False) -> list[str]:
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


def get_rule(method: str) -> Rule:
    """The rule registered as ``method``; an unknown name suggests and lists the known ones.

    Parameters
    ----------
    method : str
        A registered name or alias (:func:`available_methods`).

    Returns
    -------
    Rule
        The registry entry: the function, its parameters and what it accepts.
    """
    if not isinstance(method, str):
        raise TypeError(f"method must be a string, got {type(method).__name__}")
    return RULES.get(method)
