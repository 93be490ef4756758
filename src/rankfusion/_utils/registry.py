"""One registry class for everything chosen by name: aggregation rules, rankers, and later
stability measures and protocols (docs/design.md, 'Aggregation rules' and 'Rankers').

A :class:`Registry` maps names and aliases to :class:`Entry` records. Each entry keeps, next to
the function, its signature metadata read once at registration (keyword parameters, whether it
takes ``**kwargs``), so callers such as the command line never inspect signatures at call time.
An unknown name is a ``ValueError`` that suggests the closest known name and lists them all.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field

__all__ = ["Entry", "Registry", "closest_name"]


def closest_name(name: str, known) -> str | None:
    """The known name closest to ``name``: the same name in another case first (``F_CLASSIF``
    → ``f_classif``), else difflib's closest match ignoring case; None when nothing is close."""
    lower = {}
    for k in known:
        lower.setdefault(str(k).lower(), k)
    key = str(name).lower()
    if key in lower:
        return lower[key]
    close = difflib.get_close_matches(key, list(lower), n=1)
    return lower[close[0]] if close else None


@dataclass(frozen=True)
class Entry:
    """One registered function and its metadata.

    Attributes
    ----------
    name : str
        The canonical name.
    func : callable
        The registered function.
    weights : bool
        Whether it accepts list weights (aggregation rules).
    needs_scores : bool
        Whether it needs raw scores, not only positions (aggregation rules).
    params : tuple of str
        Its keyword parameters (keyword-only, or after ``X, y`` for rankers), without ``weights``.
    summary : str
        The first line of its docstring.
    var_keyword : bool
        Whether it takes ``**kwargs`` (then every parameter name is accepted).
    aliases : tuple of str
        Other names it answers to.
    tags : dict
        Free metadata for a kind (e.g. the invariants a rule promises).
    """

    name: str
    func: Callable
    weights: bool
    needs_scores: bool
    params: tuple[str, ...]
    summary: str
    var_keyword: bool = False
    aliases: tuple[str, ...] = ()
    tags: dict = field(default_factory=dict, compare=False)

    def accepts(self, param: str) -> bool:
        """Whether ``param`` can be passed to :attr:`func` as a keyword.

        Parameters
        ----------
        param : str
            A parameter name.

        Returns
        -------
        bool
        """
        return self.var_keyword or param in self.params


def _signature(func: Callable, skip: int) -> tuple[tuple[str, ...], bool]:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return (), True
    params = []
    var_kw = False
    for i, p in enumerate(sig.parameters.values()):
        if p.kind is p.VAR_KEYWORD:
            var_kw = True
        elif p.kind is p.KEYWORD_ONLY or (
            p.kind is p.POSITIONAL_OR_KEYWORD and i >= skip
        ):
            if p.name != "weights":
                params.append(p.name)
    return tuple(params), var_kw


class Registry:
    """Names → functions for one kind of thing.

    Parameters
    ----------
    kind : str
        What is registered, for messages: ``"aggregation method"``, ``"ranker"``.
    plural : str, optional
        The plural used in "known …:" (default ``kind`` + "s", last word only).
    positional : int
        Number of leading positional parameters that are data, not options (``lists`` for a
        rule: 1; ``X, y`` for a ranker: 2). Later parameters are recorded as keyword parameters.

    Examples
    --------
    >>> reg = Registry("colour")
    >>> @reg.register("red", aliases=("rouge",))
    ... def red(x, *, shade=1):
    ...     "A red."
    ...     return x
    >>> reg.get("rouge").params
    ('shade',)
    >>> reg.get("rde")
    Traceback (most recent call last):
    ...
    ValueError: unknown colour 'rde'; did you mean 'red'? known colours: red, rouge
    """

    def __init__(self, kind: str, *, plural: str | None = None, positional: int = 1):
        self.kind = kind
        self.plural = plural or kind.rsplit(" ", 1)[-1] + "s"
        self.positional = positional
        self._entries: dict[str, Entry] = {}
        self._aliases: dict[str, str] = {}

    def __contains__(self, name) -> bool:
        return isinstance(name, str) and (name in self._entries or name in self._aliases)

    def __iter__(self):
        return iter(sorted(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def register(self, name: str, *, aliases: tuple[str, ...] = (), weights: bool = True,
                 needs_scores: bool = False, tags: dict | None = None,
                 ) -> Callable[[Callable], Callable]:
        """Decorator registering ``func`` under ``name`` (and ``aliases``); returns it unchanged."""
        if not isinstance(name, str) or not name:
            raise TypeError(f"{self.kind} name must be a non-empty string, got {name!r}")

        def deco(func: Callable) -> Callable:
            for key in (name, *aliases):
                if key in self:
                    raise ValueError(f"{self.kind} {key!r} is already registered")
            params, var_kw = _signature(func, self.positional)
            doc = (func.__doc__ or "").strip().splitlines()
            self._entries[name] = Entry(
                name, func, bool(weights), bool(needs_scores), params,
                doc[0].strip() if doc else "", var_kw, tuple(aliases), dict(tags or {}),
            )
            for a in aliases:
                self._aliases[a] = name
            return func

        return deco

    def available(self, *, aliases: bool = False) -> list[str]:
        """The registered names, sorted (with the aliases if asked)."""
        names = list(self._entries)
        if aliases:
            names += list(self._aliases)
        return sorted(names)

    def canonical(self, name: str) -> str:
        """The canonical name of ``name`` (itself or the name an alias points to)."""
        return self.get(name).name

    def get(self, name: str, *, argument: str | None = None) -> Entry:
        """The entry registered as ``name``.

        Raises
        ------
        TypeError
            When ``name`` is not a string.
        ValueError
            When ``name`` is unknown; the message suggests the closest name and lists all.
        """
        if not isinstance(name, str):
            what = argument or self.kind
            raise TypeError(f"{what} must be a name (str), got {type(name).__name__}")
        key = self._aliases.get(name, name)
        entry = self._entries.get(key)
        if entry is None:
            known = self.available(aliases=True)
            close = closest_name(name, known)
            hint = f"; did you mean {close!r}?" if close else ";"
            raise ValueError(
                f"unknown {self.kind} {name!r}{hint} known {self.plural}: {', '.join(known)}"
            )
        return entry
