"""Modules imported on first use, and type checks that do not import them.

``pd = lazy_module("pandas")`` binds a stand-in whose first attribute access imports pandas,
so a module that uses pandas only inside some functions can be imported without it (a small
command that never reaches those functions starts without loading pandas).
:func:`is_pandas` tells whether an object is a pandas DataFrame or Series without importing
pandas: when pandas is not imported yet, no object can be one.
"""

from __future__ import annotations

import importlib
import sys
import types

__all__ = ["lazy_module", "is_pandas"]


class _LazyModule(types.ModuleType):
    """A stand-in for a module, imported (once, by Python's import system) on first use."""

    def __getattr__(self, attr: str):
        module = importlib.import_module(self.__name__)
        return getattr(module, attr)


def lazy_module(name: str) -> types.ModuleType:
    """A stand-in for module ``name`` that imports it when one of its attributes is first
    used; ``sys.modules`` is left alone until then."""
    return _LazyModule(name)


def is_pandas(obj, kind: str = "DataFrame") -> bool:
    """``isinstance(obj, pandas.<kind>)`` (``"DataFrame"``, ``"Series"``, ``"Categorical"``),
    False without importing pandas when it is not imported yet."""
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(obj, getattr(pd, kind))
