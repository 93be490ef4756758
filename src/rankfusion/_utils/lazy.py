"""Modules imported on first use, and type checks that do not import them.

``pd = lazy_module("pandas")`` binds a stand-in whose first attribute access imports pandas,
so a module that uses pandas only inside some functions can be imported without it (a small
command that never reaches those functions starts without loading pandas).
:func:`is_pandas` tells whether an object is a pandas DataFrame or Series without importing
pandas: when pandas is not imported yet, no object can be one.

:func:`lazy_package` gives a package whose public names are loaded on first use (PEP 562) its
``__getattr__`` and ``__dir__``, so that its ``__init__.py`` holds imports, the table of names
and ``__all__`` only.
"""

from __future__ import annotations

import importlib
import sys
import types

__all__ = ["lazy_module", "is_pandas", "lazy_package", "lazy_exports"]


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


class _LazyPackage(types.ModuleType):
    """A package whose names are loaded on first use (:func:`lazy_package`).

    Importing a submodule named as the function it defines (``rankers.cfs`` defining ``cfs``)
    sets the package attribute to the submodule; the function is kept there instead, as an
    eager ``from .cfs import cfs`` would.
    """

    _lazy_exports: dict[str, str] = {}

    def __setattr__(self, name, value):
        if (isinstance(value, types.ModuleType) and type(self)._lazy_exports.get(name) == f".{name}"
                and hasattr(value, name)):
            value = getattr(value, name)
        super().__setattr__(name, value)


def lazy_package(package: str, exports: dict[str, str], submodules: tuple[str, ...] = ()):
    """The PEP 562 hooks of package ``package``, whose names are imported on first use.

    Parameters
    ----------
    package : str
        The package's ``__name__``; it must be importing (in ``sys.modules``).
    exports : dict of str to str
        Public name → the module defining it, relative to the package (``".lists"``).
    submodules : tuple of str, default ()
        Subpackages reachable as attributes without an explicit import.

    Returns
    -------
    (callable, callable)
        ``__getattr__`` and ``__dir__`` for the package's namespace. A name, once loaded, is
        kept in the namespace; a submodule named as the function it defines leaves the
        function, not the submodule, as the package attribute.
    """
    module = sys.modules[package]
    exports = dict(exports)

    def __getattr__(name: str):
        if name in submodules:
            return importlib.import_module(f".{name}", package)
        source = exports.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source, package), name)
        vars(module)[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(module)) | set(exports) | set(submodules))

    module.__class__ = type("LazyPackage", (_LazyPackage,), {"_lazy_exports": exports})
    return __getattr__, __dir__


def lazy_exports(package: str, exports: dict[str, str]):
    """:func:`lazy_package` without subpackages: ``__getattr__, __dir__ =
    lazy_exports(__name__, {"pairwise_matrix": ".voting"})``.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    exports : dict of str to str
        Public name → the module defining it, relative to the package.

    Returns
    -------
    (callable, callable)
        ``__getattr__`` and ``__dir__`` for the package's namespace.
    """
    return lazy_package(package, exports)
