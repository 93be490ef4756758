"""The registry of feature rankers: name → function ``f(X, y, **params) -> scores``.

Every ranker returns one float per feature, higher = more relevant (docs/design.md,
'Scores and positions').
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["register_ranker", "get_ranker", "available_rankers"]

_RANKERS: dict[str, Callable] = {}
_ALIASES: dict[str, str] = {}


def register_ranker(name: str, *, aliases: tuple[str, ...] = ()) -> Callable[[Callable], Callable]:
    """Decorator registering a ranker function under ``name`` (and ``aliases``)."""

    def deco(func: Callable) -> Callable:
        for key in (name, *aliases):
            if key in _RANKERS or key in _ALIASES:
                raise ValueError(f"ranker {key!r} is already registered")
        _RANKERS[name] = func
        for a in aliases:
            _ALIASES[a] = name
        return func

    return deco


def available_rankers(*, aliases: bool = False) -> list[str]:
    """Names of the registered rankers."""
    names = list(_RANKERS)
    if aliases:
        names += list(_ALIASES)
    return sorted(names)


def get_ranker(name: str) -> Callable:
    """The ranker registered as ``name``; an unknown name lists the known ones."""
    if not isinstance(name, str):
        raise TypeError(f"ranker must be a name (str), got {type(name).__name__}")
    key = _ALIASES.get(name, name)
    if key not in _RANKERS:
        raise ValueError(
            f"unknown ranker {name!r}; known rankers: {', '.join(available_rankers(aliases=True))}"
        )
    return _RANKERS[key]
