"""One registry class for everything chosen by name: aggregation rules, rankers, classifiers
(docs/design.md, 'Aggregation rules' and 'Rankers').

A :class:`Registry` maps names and aliases to :class:`Entry` records. Each entry keeps, next to
the function, its signature metadata read once at registration (keyword parameters, whether it
takes ``**kwargs``), the constraints of its parameters (declared as data in the vocabulary of
:mod:`rankfusion._utils.constraints`), the invariants it promises and free tags, so callers such
as the command line never inspect signatures at call time. An unknown name is a ``ValueError``
that suggests the closest known name and lists them all.

Every registry has the same verbs: :meth:`Registry.register` (a decorator), :meth:`Registry.get`
(the entry), :meth:`Registry.available` (the names) and :meth:`Registry.tag` (metadata added by
another module). The modules that register the entries (*providers*) are imported on first
lookup, so importing the package that owns a registry imports none of them.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

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

    The parameters are kept as the attributes of the same name.

    Parameters
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
        Its keyword parameters (keyword-only, or after ``X, y`` for rankers), without the data
        arguments (``weights``, ``groups``).
    summary : str
        The first line of its docstring.
    var_keyword : bool
        Whether it takes ``**kwargs`` (then every parameter name is accepted).
    aliases : tuple of str
        Other names it answers to.
    tags : dict
        Free metadata for a kind (e.g. a rule's ``groups``, a ranker's list producer).
    constraints : dict
        ``{parameter: [constraint, ...]}`` in the vocabulary of
        :mod:`rankfusion._utils.constraints`; checked once, by whoever calls the function
        through the registry.
    invariants : tuple of str
        The properties it promises (aggregation rules: ``"permute_lists"``, ``"unanimity"``,
        …); the test suite checks each one on every rule that declares it.
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
    constraints: dict = field(default_factory=dict, compare=False)
    invariants: tuple[str, ...] = ()

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


def _signature(func: Callable, skip: int, data: tuple[str, ...]) -> tuple[tuple[str, ...], bool]:
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
            if p.name not in data:
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
    providers : mapping or sequence of str, optional
        The modules that register the entries, imported on first lookup: a mapping name →
        module imports only the module of the name asked for (every module for a name it does
        not hold, and for :meth:`available`); a sequence imports them all on first lookup.
    package : str, optional
        The package that relative module names (``".statistics"``) of ``providers`` are in.
    data : tuple of str, default ("weights",)
        Keyword arguments that are data passed by the caller, not parameters of the function
        (left out of :attr:`Entry.params`).

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

    def __init__(self, kind: str, *, plural: str | None = None, positional: int = 1,
                 providers: Mapping[str, str] | tuple[str, ...] | None = None,
                 package: str | None = None, data: tuple[str, ...] = ("weights",)):
        self.kind = kind
        self.plural = plural or kind.rsplit(" ", 1)[-1] + "s"
        self.positional = positional
        self.data = tuple(data)
        self.package = package
        if providers is None:
            self.providers: dict[str, str] = {}
            self._modules: tuple[str, ...] = ()
        elif isinstance(providers, Mapping):
            self.providers = dict(providers)
            self._modules = tuple(dict.fromkeys(self.providers.values()))
        else:
            self.providers = {}
            self._modules = tuple(providers)
        self._entries: dict[str, Entry] = {}
        self._aliases: dict[str, str] = {}

    # ------------------------------------------------------------------ loading
    def load(self, name: str | None = None) -> None:
        """Import the provider module of ``name`` (every provider when None, when ``name`` has
        none of its own, or when the providers are a plain sequence).

        Parameters
        ----------
        name : str, optional
            A name to make available.
        """
        module = self.providers.get(name) if isinstance(name, str) else None
        for m in (module,) if module is not None else self._modules:
            importlib.import_module(m, self.package)

    def _has(self, name) -> bool:
        return isinstance(name, str) and (name in self._entries or name in self._aliases)

    def __contains__(self, name) -> bool:
        if not isinstance(name, str):
            return False
        if not self._has(name):
            self.load(name)
        return self._has(name)

    def __iter__(self):
        return iter(self.available())

    def __len__(self) -> int:
        self.load()
        return len(self._entries)

    # ------------------------------------------------------------------ verbs
    def register(self, name: str, *, aliases: tuple[str, ...] = (), weights: bool = True,
                 needs_scores: bool = False, tags: dict | None = None,
                 constraints: dict | None = None, invariants: tuple[str, ...] = (),
                 ) -> Callable[[Callable], Callable]:
        """Decorator registering ``func`` under ``name`` (and ``aliases``); returns it unchanged.

        Parameters
        ----------
        name : str
            The canonical name.
        aliases : tuple of str, default ()
            Other names.
        weights : bool, default True
            Whether the function accepts list weights.
        needs_scores : bool, default False
            Whether it needs raw scores.
        tags : dict, optional
            Free metadata.
        constraints : dict, optional
            ``{parameter: [constraint, ...]}`` of its keyword parameters.
        invariants : tuple of str, default ()
            The properties it promises.

        Returns
        -------
        callable
            The decorator.
        """
        if not isinstance(name, str) or not name:
            raise TypeError(f"{self.kind} name must be a non-empty string, got {name!r}")
        constraints = dict(constraints or {})

        def deco(func: Callable) -> Callable:
            for key in (name, *aliases):
                if self._has(key):
                    raise ValueError(f"{self.kind} {key!r} is already registered")
            params, var_kw = _signature(func, self.positional, self.data)
            stray = sorted(set(constraints) - set(params)) if not var_kw else []
            if stray:
                raise TypeError(f"{self.kind} {name!r} declares constraints of {stray}, which "
                                f"are not its parameters ({', '.join(params) or 'none'})")
            doc = (func.__doc__ or "").strip().splitlines()
            self._entries[name] = Entry(
                name, func, bool(weights), bool(needs_scores), params,
                doc[0].strip() if doc else "", var_kw, tuple(aliases), dict(tags or {}),
                constraints, tuple(invariants),
            )
            for a in aliases:
                self._aliases[a] = name
            return func

        return deco

    def tag(self, name: str, **tags) -> Entry:
        """Add ``tags`` to the entry of ``name`` (metadata registered by another module, such as
        a ranker's list producer); returns the new entry.

        Parameters
        ----------
        name : str
            A registered name or alias.
        **tags
            The metadata to add (an existing key is an error).

        Returns
        -------
        Entry
        """
        entry = self.get(name)
        clash = sorted(set(tags) & set(entry.tags))
        if clash:
            raise ValueError(f"{self.kind} {entry.name!r} already has {', '.join(clash)}")
        new = replace(entry, tags={**entry.tags, **tags})
        self._entries[entry.name] = new
        return new

    def available(self, *, aliases: bool = False) -> list[str]:
        """The registered names, sorted (with the aliases if asked); loads every provider.

        Parameters
        ----------
        aliases : bool, default False
            Include the aliases.

        Returns
        -------
        list of str
        """
        self.load()
        names = list(self._entries)
        if aliases:
            names += list(self._aliases)
        return sorted(names)

    def canonical(self, name: str) -> str:
        """The canonical name of ``name`` (itself or the name an alias points to).

        Parameters
        ----------
        name : str
            A registered name or alias.

        Returns
        -------
        str
        """
        return self.get(name).name

    def get(self, name: str, *, argument: str | None = None) -> Entry:
        """The entry registered as ``name`` (its provider imported first if needed).

        Parameters
        ----------
        name : str
            A registered name or alias.
        argument : str, optional
            The argument's name for the ``TypeError`` of a non-string.

        Returns
        -------
        Entry

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
        if not self._has(name):
            self.load(name)
            if not self._has(name):  # registered elsewhere, or unknown: load them all
                self.load()
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
