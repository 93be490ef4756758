"""The text form of a choice with parameters: ``name:param=value,param=value``
(docs/design.md, 'Aggregation rules').

:func:`parse_value` reads one value as the command line's ``--param NAME=VALUE`` does;
:func:`split_spec` cuts a spec into its name and its items; :func:`format_value` writes a value
back so that :func:`parse_value` reads it unchanged.

Examples
--------
>>> split_spec("kfirst:k=0.05")
('kfirst', [('k', 0.05)])
>>> split_spec("fuzzy:OW")
('fuzzy', [(None, 'OW')])
>>> [parse_value(t) for t in ("5", "0.1", "true", "none", "minmax")]
[5, 0.1, True, None, 'minmax']
"""

from __future__ import annotations

import math
import numbers

__all__ = ["parse_value", "format_value", "split_spec"]

_SEPARATORS = (":", ",", "=")


def parse_value(text: str):
    """One ``NAME=VALUE`` value: true/yes, false/no, none (any case), an int, a float, else the
    text itself, stripped.

    Parameters
    ----------
    text : str
        The value as written.

    Returns
    -------
    bool, None, int, float or str
    """
    t = text.strip()
    low = t.lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    if low == "none":
        return None
    for cast in (int, float):
        try:
            return cast(t)
        except ValueError:
            pass
    return t


def format_value(value) -> str | None:
    """``value`` written so that :func:`parse_value` reads it back equal, or None when no text
    does (a list, a string holding a separator or reading as a number, …).

    Parameters
    ----------
    value : object
        A parameter's value.

    Returns
    -------
    str or None
    """
    if value is None:
        return "none"
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        v = float(value)
        return repr(v) if math.isfinite(v) else str(v)
    if isinstance(value, str):
        text = value.strip()
        if (text == value and text and not any(s in text for s in _SEPARATORS)
                and parse_value(text) == text):
            return text
    return None


def split_spec(text: str, *, what: str = "spec") -> tuple[str, list[tuple[str | None, object]]]:
    """``"name:a=1,b=x"`` → ``("name", [("a", 1), ("b", "x")])``; a first item without ``=``
    is a bare value, returned with the key None (``"fuzzy:OW"`` → ``[(None, "OW")]``).

    Whitespace around the name, the keys and the values is dropped.

    Parameters
    ----------
    text : str
        The spec.
    what : str, default "spec"
        The argument's name in error messages.

    Returns
    -------
    (str, list of (str or None, object))
        The name and the items in the order written, values read by :func:`parse_value`.

    Raises
    ------
    ValueError
        For an empty name, an empty item, a second ``:``, an item without ``=`` after the first,
        a key or a value missing around ``=``, or a key given twice.
    """
    name, colon, rest = text.partition(":")
    name = name.strip()
    if not name:
        raise ValueError(f"{what} {text!r} names nothing before the parameters"
                         if colon else f"{what} {text!r} is empty")
    items: list[tuple[str | None, object]] = []
    if not colon:
        return name, items
    if ":" in rest:
        raise ValueError(f"{what} {text!r} has a second ':'; write NAME:PARAM=VALUE,"
                         "PARAM=VALUE (e.g. 'kfirst:k=0.05')")
    seen: set[str] = set()
    for i, raw in enumerate(rest.split(",")):
        item = raw.strip()
        if not item:
            raise ValueError(f"{what} {text!r} has an empty parameter"
                             + (" after ':'" if i == 0 else f" (item {i + 1})"))
        if "=" not in item:
            if i == 0:
                items.append((None, parse_value(item)))
                continue
            raise ValueError(f"{what} {text!r}: a parameter must read NAME=VALUE, got "
                             f"{item!r} (e.g. 'kfirst:k=0.05')")
        key, _, val = item.partition("=")
        key, val = key.strip(), val.strip()
        if not key:
            raise ValueError(f"{what} {text!r}: the parameter name is missing in {item!r}")
        if not val:
            raise ValueError(f"{what} {text!r}: parameter {key!r} has no value")
        if key in seen:
            raise ValueError(f"{what} {text!r} gives parameter {key!r} twice")
        seen.add(key)
        items.append((key, parse_value(val)))
    return name, items
