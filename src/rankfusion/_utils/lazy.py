"""Modules imported on first use, and type checks that do not import them.

``pd = lazy_module("pandas")`` binds a stand-in whose first attribute access imports pandas,
so a module that uses pandas only inside some functions can be imported without it (a small
command that never reaches those functions starts without loading pandas).
:func:`is_pandas` tells whether an object is a pandas DataFrame or Series without importing
pandas: when pandas is not imported yet, no object can be one. :func:`lazy_exports` gives a
package the PEP 562 ``__getattr__`` and ``__dir__`` that import a public name's module on first
access.
"""

from __future__ import annotations

import importlib
import sys
import types

__all__ = ["lazy_module", "is_pandas", "lazy_exports"]


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


def lazy_exports(package: str, exports: dict[str, str]):
    """PEP 562 ``__getattr__`` and ``__dir__`` for ``package``: a name of ``exports`` (name →
    module, relative to the package) is imported from its module on first access and then
    kept in the package's namespace.

    ``__getattr__, __dir__ = lazy_exports(__name__, {"pairwise_matrix": ".voting"})``
    """

    def __getattr__(name: str):
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports))

    return __getattr__, __dir__
