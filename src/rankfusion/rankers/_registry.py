"""The registry of feature rankers: name → function ``f(X, y, **params) -> scores``.

Every ranker returns one float per feature, higher = more relevant (docs/design.md, "Scores").
The registry is one instance of :class:`rankfusion._utils.registry.Registry`; each entry keeps
the ranker's keyword parameters, so callers never inspect signatures at call time.
"""

from __future__ import annotations

from collections.abc import Callable

from .._utils.registry import Entry, Registry

__all__ = ["RANKERS", "register_ranker", "get_ranker", "ranker_info", "available_rankers"]

#: The registered rankers.
RANKERS = Registry("ranker", positional=2)


def register_ranker(name: str, *, aliases: tuple[str, ...] = (),
                    tags: dict | None = None) -> Callable[[Callable], Callable]:
    """Decorator registering a ranker function under ``name`` (and ``aliases``)."""
    return RANKERS.register(name, aliases=aliases, weights=False, tags=tags)


def available_rankers(*, aliases: bool = False) -> list[str]:
    """Names of the registered rankers."""
    return RANKERS.available(aliases=aliases)


def ranker_info(name: str) -> Entry:
    """The registry entry of ranker ``name``: ``func``, ``params``, ``accepts(param)``, …"""
    return RANKERS.get(name, argument="ranker")


def get_ranker(name: str) -> Callable:
    """The ranker registered as ``name``; an unknown name suggests and lists the known ones."""
    return ranker_info(name).func
