"""The layer rules of docs/design.md ("Layers"), checked on every import of the package.

Packages form one downward flow (the design's list states exactly :data:`LAYERS`; a test
compares the two)::

    _utils → lists → io → datasets → distances | stability (siblings)
           → rankers | aggregation (siblings) → selection → evaluation → experiments
           → workflows → cli

and the checker below fails, naming the file and the imported name, on

* an *upward* import (a lower layer importing a higher one, or the root facade) or an import
  between siblings (``distances`` and ``stability``; ``rankers`` and ``aggregation``);
* an import *cycle* between packages;
* a *private* name (``_x``, a module or an object) taken from another package — except the
  public names of ``_utils``, the private package meant for sharing;
* in ``cli``, any non-public name: a private one, or one missing from the static ``__all__`` of
  the module it comes from (a module whose ``__all__`` is computed or absent fails, named);
* a package (a folder or a top-level module) that is in no layer;
* an ``__init__.py`` holding anything but imports and ``__all__`` (docstring, the
  ``TYPE_CHECKING`` imports, and for a package whose names load on first use the literal table
  of those names and the hooks ``__getattr__, __dir__ = lazy_package(...)``).

Imports are read however they are written: statements (inside functions too, relative and
absolute alike), ``importlib.import_module`` and ``__import__`` with constant strings, the
string tables of a module that defines a module-level ``__getattr__`` (it forwards to those
modules), and a module's names reached as attributes (``io._helper``, ``getattr(io,
"_helper")``, ``io.__getattr__("_helper")``, ``io.__dict__``). Dunders that are metadata
(``__name__``, ``__all__``, ``__version__`` …) may be read as attributes.

The checker is run on the real package and on small fake packages with planted violations,
each of which must be caught.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import rankfusion

ROOT = Path(__file__).resolve().parents[1]

#: The layers, lowest first. Packages of one layer never import each other. A layer may name a
#: package that does not exist yet (``workflows``: the library calls behind each command).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("_utils",),
    ("lists",),
    ("io",),
    ("datasets",),
    ("distances", "stability"),
    ("rankers", "aggregation"),
    ("selection",),
    ("evaluation",),
    ("experiments",),
    ("workflows",),
    ("cli",),
)

#: Private modules meant for sharing: every layer but ``cli`` may import their public names.
SHARED_PRIVATE = frozenset({"_utils", "distances._kernels"})

#: Private modules of metadata (``__version__``) that every layer, ``cli`` too, may import.
METADATA = frozenset({"_utils.version"})

#: Known violations, each named: (importing file relative to the package, imported module).
ALLOWED: frozenset[tuple[str, str]] = frozenset({
})

#: ``__init__.py`` files that still hold code, each named (relative to the package); a test
#: fails on an entry that is no longer needed.
INIT_WITH_CODE: frozenset[str] = frozenset()

#: Calls that import the module named by their first argument.
IMPORT_CALLS = frozenset({"importlib.import_module", "importlib.__import__",
                          "builtins.__import__", "__import__"})

#: Attributes of a module that reach its whole namespace (so any private name in it).
NAMESPACE_HOOKS = frozenset({"__getattr__", "__dict__"})

#: A string naming a module: ``.x``, ``..x.y``, ``pkg.x`` (the package's own name is prefixed
#: when tested).
MODULE_STRING = re.compile(r"(\.*)([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)")


@dataclass(frozen=True)
class Import:
    file: str  # relative to the package root, "/"-separated
    source: str  # dotted module of the importing file
    module: str  # dotted module imported from
    name: str | None  # the object imported (None for ``import x`` / a submodule)
    line: int
    how: str = "import"  # "import", "call" (import_module, __import__), "table", "attribute"


@dataclass
class Source:
    module: str  # dotted name
    file: str  # relative to the package root, "/"-separated
    is_pkg: bool
    tree: ast.Module

    @property
    def base(self) -> list[str]:
        """The package that relative imports start from."""
        parts = self.module.split(".")
        return parts if self.is_pkg else parts[:-1]


def _module_name(root: Path, path: Path, package: str) -> tuple[str, bool]:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    is_pkg = parts[-1] == "__init__"
    if is_pkg:
        parts = parts[:-1]
    return ".".join([package, *parts]), is_pkg


def _relative(base: list[str], level: int, name: str | None) -> str:
    anchor = base[: len(base) - (level - 1)] if level > 1 else base
    return ".".join([*anchor, name] if name else anchor)


def read_sources(root: Path, package: str) -> dict[str, Source]:
    """Every module under ``root``, parsed, by dotted name."""
    root = Path(root)
    out: dict[str, Source] = {}
    for path in sorted(root.rglob("*.py")):
        mod, is_pkg = _module_name(root, path, package)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        out[mod] = Source(mod, path.relative_to(root).as_posix(), is_pkg, tree)
    return out


# ---------------------------------------------------------------------------------------------
# names bound to modules, scope by scope

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _own_nodes(scope: ast.AST):
    """The nodes of ``scope`` outside its nested functions and classes (whose names, defaults
    and decorators belong to ``scope``, their bodies not)."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, _SCOPES):
            if isinstance(node, ast.Lambda):
                stack.extend(node.args.defaults + node.args.kw_defaults)
            else:
                stack.extend(node.decorator_list)
                if not isinstance(node, ast.ClassDef):
                    stack.extend(d for d in node.args.defaults + node.args.kw_defaults if d)
                else:
                    stack.extend(node.bases + [k.value for k in node.keywords])
            continue
        stack.extend(ast.iter_child_nodes(node))


class _Scope:
    def __init__(self, parent: _Scope | None):
        self.parent = parent
        self.bound: dict[str, str] = {}  # name -> dotted target of an import
        self.other: set[str] = set()  # names bound otherwise (they hide outer imports)

    def lookup(self, name: str) -> str | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.bound:
                return scope.bound[name]
            if name in scope.other:
                return None
            scope = scope.parent
        return None


class _Reader:
    """The imports and the attribute uses of one module."""

    def __init__(self, src: Source, modules: set[str], package: str):
        self.src, self.modules, self.package = src, modules, package
        self.imports: list[Import] = []
        self.uses: list[tuple[int, str, str, str]] = []  # (line, module, attribute, how)

    # -- dotted names
    def dotted(self, node: ast.AST, scope: _Scope) -> str | None:
        """The dotted name an expression stands for when it starts at an imported name
        (``importlib.import_module``, ``rankfusion.io``), else None."""
        if isinstance(node, ast.Name):
            found = scope.lookup(node.id)
            if found is None and node.id == "__import__":
                return "__import__"
            return found
        if isinstance(node, ast.Attribute):
            head = self.dotted(node.value, scope)
            return f"{head}.{node.attr}" if head else None
        if isinstance(node, ast.Call):
            target = self.call_import(node, scope)
            return target[0] if target else None
        return None

    def call_import(self, node: ast.Call, scope: _Scope) -> tuple[str, str] | None:
        """``(module imported, module bound)`` of an import call with a constant name."""
        func = self.dotted(node.func, scope)
        if func not in IMPORT_CALLS or not node.args:
            return None
        first = node.args[0]
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            return None
        name = first.value
        keywords = {k.arg: k.value for k in node.keywords}
        if func.endswith("import_module"):
            level = len(name) - len(name.lstrip("."))
            anchor = node.args[1] if len(node.args) > 1 else keywords.get("package")
            if level:
                if isinstance(anchor, ast.Name) and anchor.id in ("__package__", "__name__"):
                    base = (self.src.base if anchor.id == "__package__"
                            else self.src.module.split("."))
                elif isinstance(anchor, ast.Constant) and isinstance(anchor.value, str):
                    base = anchor.value.split(".")
                else:
                    return None
                target = _relative(base, level, name[level:] or None)
            else:
                target = name
            return target, target
        level_node = node.args[4] if len(node.args) > 4 else keywords.get("level")
        level = level_node.value if isinstance(level_node, ast.Constant) else 0
        fromlist = node.args[3] if len(node.args) > 3 else keywords.get("fromlist")
        target = _relative(self.src.base, level, name) if level else name
        has_fromlist = isinstance(fromlist, (ast.List, ast.Tuple)) and fromlist.elts
        return target, target if has_fromlist else target.split(".")[0]

    # -- bindings
    def bind(self, scope_node: ast.AST, scope: _Scope) -> None:
        handled: set[int] = set()
        args = getattr(scope_node, "args", None)
        if isinstance(args, ast.arguments):
            for a in args.posonlyargs + args.args + args.kwonlyargs + [args.vararg, args.kwarg]:
                if a is not None:
                    scope.other.add(a.arg)
        for node in _own_nodes(scope_node):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        scope.bound[a.asname] = a.name
                    else:
                        top = a.name.split(".")[0]
                        scope.bound[top] = top
            elif isinstance(node, ast.ImportFrom):
                module = (_relative(self.src.base, node.level, node.module) if node.level
                          else node.module or "")
                for a in node.names:
                    if a.name != "*":
                        scope.bound[a.asname or a.name] = f"{module}.{a.name}"
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                scope.other.add(node.name)
        for node in _own_nodes(scope_node):  # ``m = importlib.import_module("…")``
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                target = self.call_import(node.value, scope)
                if target:
                    for t in node.targets:
                        if isinstance(t, ast.Name):
                            scope.bound[t.id] = target[1]
                            handled.add(id(t))
        for node in _own_nodes(scope_node):
            if (isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del))
                    and id(node) not in handled and node.id not in scope.bound):
                scope.other.add(node.id)
            elif isinstance(node, ast.arg) and node.arg not in scope.bound:
                scope.other.add(node.arg)  # a lambda's or comprehension's own names

    # -- reading
    def read(self) -> None:
        self.visit_scope(self.src.tree, None)
        self.read_statements()
        self.read_forwarding_tables()

    def visit_scope(self, scope_node: ast.AST, parent: _Scope | None) -> None:
        scope = _Scope(parent)
        self.bind(scope_node, scope)
        for node in _own_nodes(scope_node):
            if isinstance(node, _SCOPES):
                self.visit_scope(node, scope)
            elif isinstance(node, ast.Call):
                self.read_call(node, scope)
            elif isinstance(node, ast.Attribute):
                module = self.dotted(node.value, scope)
                if module in self.modules:
                    if f"{module}.{node.attr}" in self.modules:  # a submodule: an import
                        self.imports.append(Import(self.src.file, self.src.module,
                                                   f"{module}.{node.attr}", None,
                                                   node.lineno, "attribute"))
                    else:
                        self.uses.append((node.lineno, module, node.attr, "attribute"))

    def read_call(self, node: ast.Call, scope: _Scope) -> None:
        target = self.call_import(node, scope)
        if target:
            self.imports.append(Import(self.src.file, self.src.module, target[0], None,
                                       node.lineno, "call"))
        func = self.dotted(node.func, scope)
        is_getattr = (isinstance(node.func, ast.Name) and node.func.id == "getattr"
                      and scope.lookup("getattr") is None) or func == "builtins.getattr"
        if is_getattr and len(node.args) >= 2:
            module = self.dotted(node.args[0], scope)
            name = node.args[1]
            if module in self.modules and isinstance(name, ast.Constant) \
                    and isinstance(name.value, str):
                self.uses.append((node.lineno, module, name.value, "getattr"))
        if isinstance(node.func, ast.Attribute) and node.func.attr == "__getattr__" \
                and node.args and isinstance(node.args[0], ast.Constant):
            module = self.dotted(node.func.value, scope)
            if module in self.modules and isinstance(node.args[0].value, str):
                self.uses.append((node.lineno, module, node.args[0].value, "__getattr__"))

    def read_statements(self) -> None:
        for node in ast.walk(self.src.tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    self.imports.append(Import(self.src.file, self.src.module, a.name, None,
                                               node.lineno))
            elif isinstance(node, ast.ImportFrom):
                target = (_relative(self.src.base, node.level, node.module) if node.level
                          else node.module or "")
                for a in node.names:
                    self.imports.append(Import(self.src.file, self.src.module, target, a.name,
                                               node.lineno))

    def read_forwarding_tables(self) -> None:
        """A module-level ``__getattr__`` forwards to the modules its strings name."""
        if not defines_module_getattr(self.src.tree):
            return
        for node in ast.walk(self.src.tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            m = MODULE_STRING.fullmatch(node.value)
            if not m:
                continue
            dots, name = m.groups()
            target = _relative(self.src.base, len(dots), name) if dots else name
            if target in self.modules and target != self.src.module:
                self.imports.append(Import(self.src.file, self.src.module, target, None,
                                           node.lineno, "table"))


def defines_module_getattr(tree: ast.Module) -> bool:
    """Whether the module binds ``__getattr__`` at its top level (PEP 562)."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                node.name == "__getattr__":
            return True
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                names = t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t]
                if any(isinstance(n, ast.Name) and n.id == "__getattr__" for n in names):
                    return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                (a.asname or a.name) == "__getattr__" for a in node.names):
            return True
    return False


def _read(root: Path, package: str):
    sources = read_sources(Path(root), package)
    readers = [_Reader(src, set(sources), package) for src in sources.values()]
    for r in readers:
        r.read()
    return sources, readers


def collect_imports(root: Path, package: str) -> tuple[list[Import], dict[str, ast.Module]]:
    """Every import (also inside functions, and by a call or a forwarding table) of every
    module under ``root``, and the parsed modules by dotted name."""
    sources, readers = _read(root, package)
    return [imp for r in readers for imp in r.imports], {m: s.tree for m, s in sources.items()}


def static_all(tree: ast.Module) -> tuple[set[str] | None, str]:
    """The names of a module's ``__all__`` when they are literal (``__all__ = [...]``, ``+=``
    of literals at the top level) — else ``(None, why)``: absent, or computed."""
    names: set[str] | None = None
    top = {id(n) for n in tree.body}
    for node in ast.walk(tree):
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, (ast.Global, ast.Nonlocal)) and "__all__" in node.names:
            return None, "computed (__all__ rebound inside a function)"
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == "__all__":
            return None, f"computed (__all__.{node.attr})"
        elif isinstance(node, ast.Delete) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return None, "computed (del __all__)"
        flat = [n for t in targets for n in (t.elts if isinstance(t, (ast.Tuple, ast.List))
                                             else [t])]
        if not any(isinstance(t, ast.Name) and t.id == "__all__" for t in flat):
            continue
        if id(node) not in top or len(flat) != 1 or node.value is None:
            return None, "computed (not one literal assignment at the top level)"
        if isinstance(node, ast.AugAssign) and not isinstance(node.op, ast.Add):
            return None, "computed"
        try:
            value = ast.literal_eval(node.value)
        except ValueError:
            return None, "computed (not a literal list of names)"
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            return None, "computed (not a literal list of names)"
        names = (names or set()) | set(value)
    if names is None:
        return None, "absent"
    return names, ""


def _static_all(tree: ast.Module) -> set[str] | None:
    return static_all(tree)[0]


def _is_metadata_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__") and name not in NAMESPACE_HOOKS


def _init_statement_ok(node: ast.stmt, first: bool) -> bool:
    """A statement an ``__init__.py`` may hold."""
    if first and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return True  # the docstring
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return True
    if isinstance(node, ast.If):  # ``if TYPE_CHECKING:`` imports
        test = node.test
        named = (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
            isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
        return named and not node.orelse and all(
            isinstance(n, (ast.Import, ast.ImportFrom)) for n in node.body)
    if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        flat = [n for t in targets for n in (t.elts if isinstance(t, (ast.Tuple, ast.List))
                                             else [t])]
        if not all(isinstance(t, ast.Name) for t in flat):
            return False
        names = {t.id for t in flat}
        if names <= {"__getattr__", "__dir__"}:
            return isinstance(node.value, ast.Call)  # the hooks of a lazily loaded package
        if node.value is None:
            return True
        try:
            ast.literal_eval(node.value)  # ``__all__``, a table of names, ``TYPE_CHECKING``
        except ValueError:
            return False
        return True
    return False


def check_package(root: Path, package: str, *, layers=LAYERS, shared=SHARED_PRIVATE,
                  metadata=METADATA, allowed=frozenset(),
                  init_with_code=frozenset()) -> list[str]:
    """The layer violations of the package at ``root`` (named ``package``), one line each."""
    sources, readers = _read(Path(root), package)
    trees = {m: s.tree for m, s in sources.items()}
    imports = [imp for r in readers for imp in r.imports]
    layer_of = {name: i for i, group in enumerate(layers) for name in group}
    top = len(layers)  # the root module and __main__ sit above every layer
    problems: list[str] = []
    edges: dict[str, dict[str, Import]] = {}
    reported: set[tuple] = set()

    def component(module: str) -> str | None:
        parts = module.split(".")
        if parts[0] != package:
            return None
        return parts[1] if len(parts) > 1 else ""

    def key(module: str) -> str:
        c = component(module)
        return "" if c in ("", "__main__") else c

    # packages in no layer
    unlisted: dict[str, str] = {}
    for src in sources.values():
        c = key(src.module)
        if c and c not in layer_of:
            folder = src.file.split("/")[0]
            unlisted.setdefault(c, folder + ("/" if "/" in src.file else ""))
    for c, shown in sorted(unlisted.items()):
        problems.append(f"{shown}: package {c} is in no layer (add it to LAYERS of "
                        "tests/test_architecture.py and to docs/design.md, 'Layers')")

    def private_module(src_key: str, module: str) -> bool:
        inner = module.split(".")[1:]
        if ".".join(inner) in metadata:
            return False
        covered = 0 if src_key == "cli" else max(
            (i for i in range(1, len(inner) + 1) if ".".join(inner[:i]) in shared), default=0)
        return any(p.startswith("_") and not p.startswith("__") for p in inner[covered:]) or (
            src_key == "cli" and any(p.startswith("_") for p in inner))

    def cli_public(where: str, module: str, name: str, verb: str) -> None:
        public, why = static_all(trees[module])
        if public is None:
            problems.append(f"{where}: cli {verb} {module}.{name}, but "
                            f"{sources[module].file} has no static __all__ ({why}); the cli "
                            "takes only names listed in a literal __all__")
        elif name not in public:
            problems.append(f"{where}: cli {verb} {module}.{name}, which is not in "
                            f"{module}.__all__")

    for imp in imports:
        # ``from pkg import sub`` where ``sub`` is a module: the import is of the submodule
        module, name = imp.module, imp.name
        if name is not None and f"{module}.{name}" in trees:
            module, name = f"{module}.{name}", None
        dst = component(module)
        if dst is None or (imp.file, module) in allowed:
            continue
        src_key, dst = key(imp.source), key(module)
        where = f"{imp.file}:{imp.line}"
        shown = f"{module}.{name}" if name else module
        how = {"import": "", "call": " (by a call with a constant name)",
               "table": " (a module-level __getattr__ forwards to it)",
               "attribute": " (reached as an attribute)"}[imp.how]
        if src_key == dst:
            continue
        if dst != "":
            edges.setdefault(src_key, {}).setdefault(dst, imp)
        src_layer = top if src_key == "" else layer_of.get(src_key, top)
        dst_layer = top if dst == "" else layer_of.get(dst, top)
        if src_key == "" or dst_layer < src_layer:
            pass
        elif dst_layer == src_layer:
            problems.append(f"{where}: sibling import {shown}{how} ({src_key} and {dst} "
                            "share a layer and never import each other)")
        else:
            problems.append(f"{where}: upward import {shown}{how} ({src_key} is below "
                            f"{dst or 'the root facade'})")
        # private names across packages
        if private_module(src_key, module) and (imp.file, imp.line, module) not in reported:
            reported.add((imp.file, imp.line, module))
            problems.append(f"{where}: private module {module} imported from package "
                            f"{dst or 'the root'}")
        if name and name.startswith("_") and not name.startswith("__"):
            problems.append(f"{where}: private name {name} imported from {module}")
        if src_key == "cli" and name and module in trees:
            cli_public(where, module, name, "imports")

    # names reached as attributes of a module of another package
    for reader in readers:
        src_key = key(reader.src.module)
        for line, module, attr, how in reader.uses:
            dst = key(module)
            if dst == src_key or f"{module}.{attr}" in trees:
                continue  # its own package, or a submodule (an import, read above)
            where = f"{reader.src.file}:{line}"
            reached = {"attribute": f"{module}.{attr}", "getattr": f'getattr({module}, '
                       f'"{attr}")', "__getattr__": f'{module}.__getattr__("{attr}")'}[how]
            if attr in NAMESPACE_HOOKS:
                problems.append(f"{where}: {reached} reaches the namespace of {module} "
                                "(any private name in it) from another package")
            elif attr.startswith("_") and not _is_metadata_dunder(attr):
                problems.append(f"{where}: private name {attr} reached as {reached} from "
                                "another package")
            elif src_key == "cli" and not _is_metadata_dunder(attr):
                cli_public(where, module, attr, "uses")

    # __init__.py holds imports and __all__ only
    for src in sources.values():
        if not src.is_pkg or src.file in init_with_code:
            continue
        body = [n for n in src.tree.body
                if not (isinstance(n, ast.ImportFrom) and n.module == "__future__")]
        for i, node in enumerate(src.tree.body):
            if node in body and not _init_statement_ok(node, i == 0):
                problems.append(f"{src.file}:{node.lineno}: code in an __init__.py "
                                f"({type(node).__name__}); it holds imports and __all__ only "
                                "(docs/design.md, 'Layers')")

    # cycles between packages (depth-first search on the package graph)
    state: dict[str, int] = {}
    stack: list[str] = []
    seen_cycles: set[frozenset] = set()

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, {})):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                cycle_key = frozenset(cycle)
                if cycle_key not in seen_cycles:
                    seen_cycles.add(cycle_key)
                    steps = ", ".join(
                        f"{edges[a][b].file}:{edges[a][b].line} imports "
                        f"{edges[a][b].module}" for a, b in zip(cycle, cycle[1:])
                    )
                    problems.append(f"import cycle {' → '.join(cycle)} ({steps})")
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return problems


def design_layers(text: str) -> tuple[tuple[str, ...], ...]:
    """The layers that docs/design.md's "Layers" lists: one numbered item per layer, its
    packages in backquotes before the dash (``5. `rankers` | `aggregation` — …``)."""
    section = re.split(r"^## Layers[ \t]*$", text, maxsplit=1, flags=re.M)[1]
    section = re.split(r"^## ", section, maxsplit=1, flags=re.M)[0]
    items = re.findall(r"^\d+\.\s+(.*?)\s+—", section, re.M)
    return tuple(tuple(re.findall(r"`([^`]+)`", item)) for item in items)


def test_the_package_keeps_its_layers():
    root = Path(rankfusion.__file__).parent
    problems = check_package(root, "rankfusion", allowed=ALLOWED, init_with_code=INIT_WITH_CODE)
    assert problems == [], "\n".join(problems)


def test_the_design_lists_exactly_the_checkers_layers():
    text = (ROOT / "docs" / "design.md").read_text(encoding="utf-8")
    assert design_layers(text) == LAYERS


def test_every_allowed_exception_is_still_needed():
    root = Path(rankfusion.__file__).parent
    imports, trees = collect_imports(root, "rankfusion")
    present = set()
    for imp in imports:
        module = imp.module
        if imp.name is not None and f"{module}.{imp.name}" in trees:
            module = f"{module}.{imp.name}"
        present.add((imp.file, module))
    assert ALLOWED <= present, f"stale allow-list entries: {sorted(ALLOWED - present)}"


def test_every_init_with_code_still_holds_code():
    root = Path(rankfusion.__file__).parent
    stale = [f for f in sorted(INIT_WITH_CODE)
             if not check_package(root, "rankfusion", allowed=ALLOWED,
                                  init_with_code=INIT_WITH_CODE - {f})]
    assert stale == [], f"these __init__.py files hold imports only now: {stale}"


# ---------------------------------------------------------------------------------------------
# the checker on fake packages with planted violations


def _write(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "fakepkg"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for d in [root, *[p for p in root.rglob("*") if p.is_dir()]]:
        (d / "__init__.py").touch()
    return root


CLEAN = {
    "_utils/validation.py": "def check(x):\n    return x\n",
    "_utils/lazy.py": "def lazy_package(name, exports):\n    return None, None\n",
    "_utils/version.py": "__all__ = ['__version__']\n__version__ = '1.0'\n",
    "lists.py": "from ._utils.validation import check\n",
    "distances/__init__.py": "from ..lists import check\n",
    "distances/_kernels.py": "def kernel():\n    pass\n",
    "stability.py": "import importlib\nnp = importlib.import_module('numpy')\n",
    "aggregation/topk.py": "from ..distances._kernels import kernel\n",
    "aggregation/_registry.py": "REG = {}\n",
    "aggregation/core.py": "__all__ = ['aggregate']\ndef aggregate():\n    pass\n",
    "aggregation/__init__.py": "from ._registry import REG\nfrom .core import aggregate\n"
                               "__all__ = ['REG', 'aggregate']\n",
    "rankers/base.py": "import fakepkg.distances\nfrom .._utils import validation\n"
                       "x = fakepkg.distances.__name__\n",
    "rankers/__init__.py": "from typing import TYPE_CHECKING\n"
                           "from .._utils.lazy import lazy_package\n"
                           "_EXPORTS = {'x': '.base'}\n__all__ = ['x']\n"
                           "if TYPE_CHECKING:\n    from .base import x\n"
                           "__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)\n",
    "selection/sel.py": "from ..aggregation import aggregate\nfrom ..rankers.base import x\n"
                        "from .. import lists\n\n\ndef f(lists=None):\n    return lists._own\n",
    "cli/__init__.py": "from .._utils.version import __version__\n",
    "cli/run.py": "from ..aggregation import aggregate\nfrom ._common import helper\n"
                  "from .. import aggregation\nf = aggregation.aggregate\n",
    "cli/_common.py": "def helper():\n    pass\n",
}


def test_a_clean_fake_package_passes(tmp_path):
    # a layer without a package yet (``workflows``) fails nothing
    assert "workflows" in {name for group in LAYERS for name in group}
    assert check_package(_write(tmp_path, CLEAN), "fakepkg") == []


PLANTED = [
    pytest.param({"lists.py": "from .distances import footrule\n"},
                 ["lists.py:1: upward import fakepkg.distances.footrule"], id="upward"),
    pytest.param({"lists.py": "def f():\n    import fakepkg.selection.sel\n"},
                 ["lists.py:2: upward import fakepkg.selection.sel"], id="upward-in-function"),
    pytest.param({"rankers/base.py": "from ..aggregation import aggregate\n"},
                 ["rankers/base.py:1: sibling import fakepkg.aggregation.aggregate"],
                 id="siblings"),
    pytest.param({"distances.py": "from .aggregation._registry import REG\n"},
                 ["distances.py:1: upward import", "private module fakepkg.aggregation._registry"],
                 id="upward-and-private-module"),
    pytest.param({"selection/sel.py": "from ..aggregation._registry import REG\n"},
                 ["selection/sel.py:1: private module fakepkg.aggregation._registry"],
                 id="private-module"),
    pytest.param({"selection/sel.py": "from fakepkg.rankers.base import _helper\n"},
                 ["selection/sel.py:1: private name _helper imported from fakepkg.rankers.base"],
                 id="private-name-absolute"),
    pytest.param({"selection/sel.py": "from ..rankers import base\nfrom ..rankers.base import "
                                      "_helper as h\n"},
                 ["selection/sel.py:2: private name _helper"], id="private-name-aliased"),
    pytest.param({"cli/run.py": "from ..aggregation import REG2\n"},
                 ["cli/run.py:1: cli imports fakepkg.aggregation.REG2, which is not in "
                  "fakepkg.aggregation.__all__"], id="cli-non-public"),
    pytest.param({"selection/sel.py": "from ..cli import run\n",
                  "cli/run.py": "from ..selection import sel\n"},
                 ["selection/sel.py:1: upward import fakepkg.cli.run",
                  "import cycle cli → selection → cli"], id="cycle"),
    pytest.param({"aggregation/x.py": "from ..rankers import base\n",
                  "rankers/y.py": "from ..aggregation import x\n"},
                 ["import cycle aggregation → rankers → aggregation"], id="cycle-siblings"),
    pytest.param({"lists.py": "from ._utils.validation import _hidden\n"},
                 ["lists.py:1: private name _hidden imported from fakepkg._utils.validation"],
                 id="private-name-of-shared-package"),
    pytest.param({"cli/run.py": "from .._utils.validation import check\n"},
                 ["cli/run.py:1: private module fakepkg._utils.validation"],
                 id="cli-takes-even-shared-private-modules"),
    pytest.param({"lists.py": "from ._utils._impl import check\n"},
                 ["lists.py:1: private module fakepkg._utils._impl"],
                 id="private-module-inside-shared-package"),
    pytest.param({"selection/sel.py": "from .. import __version__\n"},
                 ["selection/sel.py:1: upward import fakepkg.__version__ (selection is below the "
                  "root facade)"], id="version-from-the-root"),
    # (a) an import written as a string
    pytest.param({"lists.py": "import importlib\nm = importlib.import_module('fakepkg.cli')\n"},
                 ["lists.py:2: upward import fakepkg.cli (by a call with a constant name)"],
                 id="import-module-absolute"),
    pytest.param({"distances/x.py": "from importlib import import_module as im\n\n\ndef f():\n"
                                    "    return im('..cli.run', __package__)\n"},
                 ["distances/x.py:5: upward import fakepkg.cli.run (by a call"],
                 id="import-module-relative"),
    pytest.param({"rankers/base.py": "import importlib\n"
                                     "m = importlib.import_module('..aggregation', package="
                                     "'fakepkg.rankers')\n"},
                 ["rankers/base.py:2: sibling import fakepkg.aggregation (by a call"],
                 id="import-module-relative-to-a-named-package"),
    pytest.param({"lists.py": "sel = __import__('fakepkg.selection.sel')\n"},
                 ["lists.py:1: upward import fakepkg.selection.sel (by a call"],
                 id="dunder-import"),
    pytest.param({"lists.py": "run = __import__('cli', globals(), None, ['run'], 1)\n"},
                 ["lists.py:1: upward import fakepkg.cli (by a call"],
                 id="dunder-import-relative"),
    pytest.param({"selection/sel.py": "import importlib\n"
                                      "m = importlib.import_module('fakepkg.aggregation._registry')"
                                      "\n"},
                 ["selection/sel.py:2: private module fakepkg.aggregation._registry"],
                 id="import-module-of-a-private-module"),
    # (b) a private name reached as an attribute
    pytest.param({"selection/sel.py": "from ..rankers import base\n\n\ndef f():\n"
                                      "    return base._helper()\n"},
                 ["selection/sel.py:5: private name _helper reached as "
                  "fakepkg.rankers.base._helper"], id="private-attribute"),
    pytest.param({"selection/sel.py": "import fakepkg.rankers.base as m\nx = m._x\n"},
                 ["selection/sel.py:2: private name _x reached as fakepkg.rankers.base._x"],
                 id="private-attribute-of-an-aliased-module"),
    pytest.param({"selection/sel.py": "import fakepkg.rankers.base\n"
                                      "x = fakepkg.rankers.base._x\n"},
                 ["selection/sel.py:2: private name _x reached as fakepkg.rankers.base._x"],
                 id="private-attribute-by-its-dotted-path"),
    pytest.param({"selection/sel.py": "from .. import aggregation\n"
                                      "r = aggregation._registry.REG\n"},
                 ["selection/sel.py:2: private module fakepkg.aggregation._registry"],
                 id="private-module-as-an-attribute"),
    pytest.param({"selection/sel.py": "import importlib\n"
                                      "m = importlib.import_module('fakepkg.rankers.base')\n"
                                      "h = m._helper\n"},
                 ["selection/sel.py:3: private name _helper reached as "
                  "fakepkg.rankers.base._helper"], id="private-attribute-of-an-imported-module"),
    pytest.param({"lists.py": "from .distances import _kernels\n"},
                 ["lists.py:1: upward import fakepkg.distances._kernels"],
                 id="upward-import-of-a-submodule"),
    # (c) the __getattr__ route
    pytest.param({"selection/sel.py": "from ..rankers import base\nh = getattr(base, '_helper')\n"},
                 ["selection/sel.py:2: private name _helper reached as "
                  "getattr(fakepkg.rankers.base, \"_helper\")"], id="getattr-constant"),
    pytest.param({"selection/sel.py": "from ..rankers import base\n"
                                      "h = base.__getattr__('_helper')\n"},
                 ["selection/sel.py:2: fakepkg.rankers.base.__getattr__ reaches the namespace",
                  'private name _helper reached as fakepkg.rankers.base.__getattr__("_helper")'],
                 id="getattr-dunder-call"),
    pytest.param({"selection/sel.py": "from ..rankers import base\nh = base.__dict__['_helper']\n"},
                 ["selection/sel.py:2: fakepkg.rankers.base.__dict__ reaches the namespace"],
                 id="module-dict"),
    pytest.param({"lists.py": "_TABLE = {'run': 'fakepkg.cli.run'}\n\n\ndef __getattr__(name):\n"
                              "    import importlib\n"
                              "    return getattr(importlib.import_module(_TABLE[name]), name)\n"},
                 ["lists.py:1: upward import fakepkg.cli.run (a module-level __getattr__ forwards"],
                 id="module-getattr-forwards-upward"),
    pytest.param({"distances/__init__.py": "from ..lists import check\n"
                                           "from .._utils.lazy import lazy_package\n"
                                           "__getattr__, __dir__ = lazy_package(__name__, "
                                           "{'REG': '..aggregation._registry'})\n"},
                 ["distances/__init__.py:3: upward import fakepkg.aggregation._registry (a "
                  "module-level __getattr__ forwards", "private module fakepkg.aggregation."
                  "_registry"], id="lazy-table-forwards-upward"),
    # (d) the cli takes only names of a static __all__
    pytest.param({"selection/sel.py": "f = 1\n", "cli/run.py": "from ..selection.sel import f\n"},
                 ["cli/run.py:1: cli imports fakepkg.selection.sel.f, but selection/sel.py has no "
                  "static __all__ (absent)"], id="cli-module-without-all"),
    pytest.param({"selection/sel.py": "f = 1\n__all__ = sorted(['f'])\n",
                  "cli/run.py": "from ..selection.sel import f\n"},
                 ["cli/run.py:1: cli imports fakepkg.selection.sel.f, but selection/sel.py has no "
                  "static __all__ (computed"], id="cli-module-with-computed-all"),
    pytest.param({"selection/sel.py": "f = 1\n__all__ = []\n__all__.append('f')\n",
                  "cli/run.py": "from ..selection.sel import f\n"},
                 ["selection/sel.py has no static __all__ (computed (__all__.append))"],
                 id="cli-module-with-appended-all"),
    pytest.param({"selection/sel.py": "f = 1\n_names = ['f']\n__all__ = _names\n",
                  "cli/run.py": "from ..selection import sel\nx = sel.f\n"},
                 ["cli/run.py:2: cli uses fakepkg.selection.sel.f, but selection/sel.py has no "
                  "static __all__"], id="cli-attribute-of-module-with-computed-all"),
    pytest.param({"cli/run.py": "from .. import aggregation\nx = aggregation.REG2\n"},
                 ["cli/run.py:2: cli uses fakepkg.aggregation.REG2, which is not in "
                  "fakepkg.aggregation.__all__"], id="cli-attribute-not-in-all"),
    # (e) a package in no layer
    pytest.param({"reports/__init__.py": "", "reports/html.py": "from ..lists import check\n"},
                 ["reports/: package reports is in no layer"], id="unlisted-package"),
    pytest.param({"extras.py": "from .lists import check\n"},
                 ["extras.py: package extras is in no layer"], id="unlisted-module"),
    # __init__.py holds imports and __all__ only
    pytest.param({"selection/__init__.py": "from .sel import f\n\n\ndef helper():\n    pass\n"},
                 ["selection/__init__.py:4: code in an __init__.py (FunctionDef)"],
                 id="init-with-code"),
    pytest.param({"selection/__init__.py": "import sys\nsys.modules[__name__].x = 1\n"},
                 ["selection/__init__.py:2: code in an __init__.py (Assign)"],
                 id="init-with-a-statement"),
    pytest.param({"distances/__init__.py": "from ..lists import check\n", "stability.py":
                  "from .distances import check\n"},
                 ["stability.py:1: sibling import fakepkg.distances.check (stability and "
                  "distances share a layer"], id="siblings-distances-stability"),
]


@pytest.mark.parametrize(("planted", "expected"), PLANTED)
def test_planted_violations_are_caught(tmp_path, planted, expected):
    problems = check_package(_write(tmp_path, {**CLEAN, **planted}), "fakepkg")
    text = "\n".join(problems)
    for piece in expected:
        assert piece in text, f"{piece!r} not reported; got:\n{text}"


def test_an_allow_list_entry_silences_exactly_its_import(tmp_path):
    root = _write(tmp_path, {**CLEAN, "lists.py": "from .distances import a\n",
                             "io.py": "from .distances import b\n"})
    problems = check_package(root, "fakepkg", allowed={("lists.py", "fakepkg.distances")})
    assert problems == ["io.py:1: upward import fakepkg.distances.b (io is below distances)"]


def test_an_init_with_code_exemption_silences_exactly_its_file(tmp_path):
    root = _write(tmp_path, {**CLEAN, "selection/__init__.py": "x = len('ab')\n",
                             "rankers/__init__.py": "y = len('ab')\n"})
    problems = check_package(root, "fakepkg", init_with_code={"selection/__init__.py"})
    assert [p.split(":")[0] for p in problems] == ["rankers/__init__.py"]


def test_the_design_layers_are_read_from_its_numbered_list():
    text = ("## Layers\n\nintro\n\n1. `_utils` — shared;\n2. `io` — files;\n"
            "3. `rankers` | `aggregation` — siblings;\n\nFurther rules:\n\n- **No cycles.**\n"
            "\n## Next\n\n1. `x` — not a layer\n")
    assert design_layers(text) == (("_utils",), ("io",), ("rankers", "aggregation"))


@pytest.mark.parametrize(("text", "expected"), [
    ("__all__ = ['a', 'b']\n__all__ += ['c']\n", ({"a", "b", "c"}, "")),
    ("x = 1\n", (None, "absent")),
    ("__all__ = sorted(['a'])\n", (None, "computed (not a literal list of names)")),
    ("__all__ = ['a']\n__all__.extend(['b'])\n", (None, "computed (__all__.extend)")),
    ("if True:\n    __all__ = ['a']\n",
     (None, "computed (not one literal assignment at the top level)")),
    ("__all__ = ['a']\ndef f():\n    global __all__\n    __all__ = []\n",
     (None, "computed (__all__ rebound inside a function)")),
])
def test_static_all(text, expected):
    assert static_all(ast.parse(text)) == expected
