"""Parameter constraints as data: a small vocabulary, declared once and checked once
(docs/design.md, 'Parameters').

An estimator, a rule or a ranker declares ``{parameter: [constraint, ...]}`` (the shape of
scikit-learn's ``_parameter_constraints``); a value is valid when it satisfies *any* of its
constraints. :func:`validate_params` raises on the first invalid value, :func:`param_problems`
lists every problem (the experiment config reports them all at once), and :func:`describe`
writes what a parameter accepts for messages and schema tables. ``None`` in a list means
"None is accepted"; a string in a list is one accepted option; a type accepts its instances.

A value of the wrong *kind* (a string where a number is needed) is a ``TypeError``; a value of
the right kind outside what is accepted (a negative count, an unknown option) a ``ValueError``.
Both name the parameter, what it accepts and the value received.

Examples
--------
>>> constraints = {"n_bootstraps": [Interval("int", 0, None)],
...                "subset_cv": [Options("nested", "ranked_once")],
...                "sample_fraction": [Interval("real", 0, 1, closed="right")]}
>>> validate_params(constraints, {"n_bootstraps": 5, "subset_cv": "nested",
...                               "sample_fraction": 0.5})
>>> validate_params(constraints, {"n_bootstraps": -1})
Traceback (most recent call last):
...
ValueError: n_bootstraps must be an int ≥ 0, got -1
>>> validate_params(constraints, {"subset_cv": "nestd"})
Traceback (most recent call last):
...
ValueError: subset_cv must be 'nested' or 'ranked_once', got 'nestd'
>>> describe(constraints["sample_fraction"])
'a number in (0, 1]'
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Iterable, Mapping

import numpy as np

__all__ = [
    "Constraint", "Interval", "Options", "Boolean", "Seed", "Jobs", "Function", "Table",
    "SequenceOf", "InstanceOf", "Check", "validate_params", "param_problems", "describe",
    "check_param", "toml_types", "LEVEL",
]


def _is_bool(value) -> bool:
    return isinstance(value, (bool, np.bool_))


def _is_int(value) -> bool:
    return not _is_bool(value) and isinstance(value, numbers.Integral)


def _is_real(value) -> bool:
    return not _is_bool(value) and isinstance(value, numbers.Real)


def _fmt(x) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


class Constraint:
    """One thing a parameter may be. Subclasses define :meth:`accepts`, :meth:`same_kind`
    and :attr:`description`.

    Attributes
    ----------
    description : str
        What it accepts, as a noun phrase ("an int ≥ 0").
    toml : str
        The TOML type that can hold it (``int``, ``float``, ``str``, ``bool``, ``list``,
        ``table``), or ``""`` when no TOML value can (a callable, a random generator).
    """

    description = "a value"
    toml = ""

    def accepts(self, value) -> bool:
        """Whether ``value`` satisfies the constraint.

        Parameters
        ----------
        value : object
            The parameter's value.

        Returns
        -------
        bool
        """
        raise NotImplementedError(f"{type(self).__name__} must define accepts()")

    def same_kind(self, value) -> bool:
        """Whether ``value`` is of the constraint's kind (a failure is then a ValueError,
        else a TypeError).

        Parameters
        ----------
        value : object
            The parameter's value.

        Returns
        -------
        bool
        """
        return self.accepts(value)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self.description}>"


class Interval(Constraint):
    """A number of a kind in a range.

    Parameters
    ----------
    kind : {"int", "real"}
        ``"int"``: integers (not bools); ``"real"``: any real number (ints too), finite.
    low, high : number or None
        The bounds (None = unbounded on that side).
    closed : {"both", "left", "right", "neither"}, default "both"
        Which bounds belong to the interval.
    """

    def __init__(self, kind: str, low=None, high=None, *, closed: str = "both"):
        if kind not in ("int", "real"):
            raise ValueError(f"kind must be 'int' or 'real', got {kind!r}")
        if closed not in ("both", "left", "right", "neither"):
            raise ValueError(f"closed must be 'both', 'left', 'right' or 'neither', "
                             f"got {closed!r}")
        self.kind, self.low, self.high, self.closed = kind, low, high, closed
        self.toml = "int" if kind == "int" else "float"

    def same_kind(self, value) -> bool:
        return _is_int(value) if self.kind == "int" else _is_real(value)

    def accepts(self, value) -> bool:
        if not self.same_kind(value):
            return False
        v = float(value)
        if math.isnan(v) or (self.kind == "real" and math.isinf(v)):
            return False
        lo_in = self.closed in ("both", "left")
        hi_in = self.closed in ("both", "right")
        if self.low is not None and (v < self.low or (v == self.low and not lo_in)):
            return False
        return not (self.high is not None
                    and (v > self.high or (v == self.high and not hi_in)))

    @property
    def description(self) -> str:
        noun = "an int" if self.kind == "int" else "a number"
        lo, hi = self.low, self.high
        if lo is None and hi is None:
            return noun if self.kind == "int" else "a finite number"
        if hi is None:
            return f"{noun} {'≥' if self.closed in ('both', 'left') else '>'} {_fmt(lo)}"
        if lo is None:
            return f"{noun} {'≤' if self.closed in ('both', 'right') else '<'} {_fmt(hi)}"
        left = "[" if self.closed in ("both", "left") else "("
        right = "]" if self.closed in ("both", "right") else ")"
        return f"{noun} in {left}{_fmt(lo)}, {_fmt(hi)}{right}"


class Options(Constraint):
    """One of a few fixed values (strings, usually).

    Parameters
    ----------
    *values : object
        The accepted values, compared with ``==`` and of the same type.
    """

    def __init__(self, *values):
        if not values:
            raise ValueError("Options needs at least one value")
        self.values = tuple(values)
        self.toml = "str" if all(isinstance(v, str) for v in values) else ""

    def accepts(self, value) -> bool:
        return any(type(value) is type(v) and value == v for v in self.values)

    def same_kind(self, value) -> bool:
        return any(isinstance(value, type(v)) for v in self.values)

    @property
    def description(self) -> str:
        shown = [repr(v) for v in self.values]
        return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]


class Boolean(Constraint):
    """``True`` or ``False`` (numpy bools too; not 0/1)."""

    description = "a bool"
    toml = "bool"

    def accepts(self, value) -> bool:
        return _is_bool(value)


class Seed(Constraint):
    """A random seed as scikit-learn takes it: an int in [0, 2**32), a
    ``numpy.random.RandomState`` or a ``numpy.random.Generator`` (``None`` is declared
    separately)."""

    description = "an int in [0, 2**32), a RandomState or a Generator"
    toml = "int"

    def accepts(self, value) -> bool:
        if _is_int(value):
            return 0 <= int(value) < 2 ** 32
        return isinstance(value, (np.random.RandomState, np.random.Generator))

    def same_kind(self, value) -> bool:
        return _is_int(value) or isinstance(value, (np.random.RandomState,
                                                    np.random.Generator))


class Jobs(Constraint):
    """A number of joblib jobs: a non-zero int (``-1`` = every core; ``None`` is declared
    separately)."""

    description = "a non-zero int (-1 = every core)"
    toml = "int"

    def accepts(self, value) -> bool:
        return _is_int(value) and int(value) != 0

    def same_kind(self, value) -> bool:
        return _is_int(value)


class Function(Constraint):
    """A callable."""

    description = "a callable"

    def accepts(self, value) -> bool:
        return callable(value) and not isinstance(value, type)


class Table(Constraint):
    """A mapping with string keys (a TOML table)."""

    description = "a dict"
    toml = "table"

    def accepts(self, value) -> bool:
        return isinstance(value, Mapping) and all(isinstance(k, str) for k in value)

    def same_kind(self, value) -> bool:
        return isinstance(value, Mapping)


class InstanceOf(Constraint):
    """An instance of a type (or one of several).

    Parameters
    ----------
    types : type or tuple of type
        The accepted types.
    description : str
        What they are, for messages.
    toml : str, default ""
        The TOML type that holds it, if any.
    """

    def __init__(self, types, description: str, *, toml: str = ""):
        self.types = types
        self.description = description
        self.toml = toml

    def accepts(self, value) -> bool:
        return isinstance(value, self.types) and not (
            _is_bool(value) and not (isinstance(self.types, type) and self.types is bool))


class SequenceOf(Constraint):
    """A non-string sequence whose items each satisfy ``item``.

    Parameters
    ----------
    item : Constraint
        What each item must be.
    min_length : int, default 1
        The fewest items.
    description : str, optional
        For messages (default: "a list of " + the item's description, made plural).
    """

    toml = "list"

    def __init__(self, item: Constraint, *, min_length: int = 1, description: str | None = None):
        self.item = item
        self.min_length = min_length
        self.description = description or f"a list of {item.description}"

    def same_kind(self, value) -> bool:
        return (isinstance(value, Iterable) and not isinstance(value, (str, bytes, Mapping))
                and not isinstance(value, (set, frozenset)))

    def accepts(self, value) -> bool:
        if not self.same_kind(value):
            return False
        items = list(value)
        return len(items) >= self.min_length and all(self.item.accepts(v) for v in items)


class Check(Constraint):
    """A constraint given by a predicate, for what the vocabulary has no word for.

    Parameters
    ----------
    predicate : callable
        ``predicate(value) -> bool``.
    description : str
        What it accepts, for messages.
    kind : callable, optional
        ``kind(value) -> bool``: of the right kind (default: ``predicate``).
    toml : str, default ""
        The TOML type that holds it, if any.
    """

    def __init__(self, predicate: Callable, description: str, *, kind: Callable | None = None,
                 toml: str = ""):
        self.predicate, self.kind, self.description, self.toml = (
            predicate, kind, description, toml)

    def accepts(self, value) -> bool:
        return bool(self.predicate(value))

    def same_kind(self, value) -> bool:
        return bool((self.kind or self.predicate)(value))


def _as_constraint(c) -> Constraint:
    if isinstance(c, Constraint):
        return c
    if c is None:
        return Options(None)
    if isinstance(c, str):
        return Options(c)
    if isinstance(c, type):
        return InstanceOf(c, f"a {c.__name__}")
    raise TypeError(f"not a constraint: {c!r}")


def describe(constraints) -> str:
    """What a parameter accepts, as one phrase ("None, an int ≥ 1 or 'k-step'").

    Parameters
    ----------
    constraints : list
        The parameter's constraints.

    Returns
    -------
    str
    """
    parts = []
    opts = []
    for c in constraints:
        c = _as_constraint(c)
        if isinstance(c, Options):
            opts.extend(c.values)
        else:
            parts.append(c.description)
    if None in opts:
        parts.insert(0, "None")
        opts = [o for o in opts if o is not None]
    parts.extend(repr(o) for o in opts)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def toml_types(constraints) -> list[str]:
    """The TOML types that can hold a valid value, in declaration order (for schema tables).

    Parameters
    ----------
    constraints : list
        The parameter's constraints.

    Returns
    -------
    list of str
        Some of ``int``, ``float``, ``str``, ``bool``, ``list``, ``table``; empty when no
        TOML value is valid (a callable only).
    """
    out = []
    for c in constraints:
        t = _as_constraint(c).toml
        if t and t not in out:
            out.append(t)
    return out


def check_param(name: str, value, constraints) -> None:
    """Raise when ``value`` satisfies none of ``constraints``.

    Parameters
    ----------
    name : str
        The parameter, for the message.
    value : object
        Its value.
    constraints : list
        What it may be.

    Raises
    ------
    TypeError
        When the value is of no accepted kind.
    ValueError
        When it is of an accepted kind but outside what is accepted.
    """
    cs = [_as_constraint(c) for c in constraints]
    if any(c.accepts(value) for c in cs):
        return
    shown = value.item() if isinstance(value, np.generic) else value  # 2.0, not np.float64
    message = f"{name} must be {describe(constraints)}, got {shown!r}"
    if value is not None and any(c.same_kind(value) for c in cs):
        raise ValueError(message)
    raise TypeError(message)


def validate_params(constraints: dict, params: dict, *, skip=()) -> None:
    """Check every parameter of ``params`` that ``constraints`` declares; raise on the first
    invalid one (in declaration order).

    Parameters
    ----------
    constraints : dict
        ``{name: [constraint, ...]}``.
    params : dict
        The values; names missing from ``constraints`` are not checked here.
    skip : iterable of str, default ()
        Names not to check (checked elsewhere).

    Raises
    ------
    TypeError, ValueError
        As :func:`check_param`.
    """
    skip = set(skip)
    for name, cs in constraints.items():
        if name in params and name not in skip:
            check_param(name, params[name], cs)


def param_problems(constraints: dict, params: dict, *, where: str = "") -> list[str]:
    """Every problem of ``params`` against ``constraints``, one message each (the experiment
    config reports them all at once).

    Parameters
    ----------
    constraints : dict
        ``{name: [constraint, ...]}``.
    params : dict
        The values.
    where : str, default ""
        A prefix for each message (the place in a file).

    Returns
    -------
    list of str
        Empty when every declared parameter is valid.
    """
    out = []
    for name, cs in constraints.items():
        if name in params:
            try:
                check_param(name, params[name], cs)
            except (TypeError, ValueError) as err:
                out.append(f"{where}{err}")
    return out


#: A significance level α (statistical tests, confidence intervals): a number in (0, 1).
LEVEL = [Interval("real", 0, 1, closed="neither")]
