"""The layer rules of docs/design.md ("Layers"), checked on every import of the package.

Packages form one downward flow::

    _utils → lists → io → datasets → distances → stability
           → rankers | aggregation (siblings) → selection → evaluation → experiments → cli

and the checker below fails, naming the file and the imported name, on

* an *upward* import (a lower layer importing a higher one) or an import between the siblings
  ``rankers`` and ``aggregation``;
* an import *cycle* between packages;
* a *private* name (``_x``, a module or an object) taken from another package — except the
  public names of ``_utils``, the private package meant for sharing;
* in ``cli``, any non-public name: a private one, or one missing from the ``__all__`` of the
  module it comes from.

Imports inside functions count, relative and absolute imports alike. The checker is run on the
real package and on small fake packages with planted violations, each of which must be caught.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

import rankfusion

#: The layers, lowest first. Packages of one layer never import each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("_utils",),
    ("lists",),
    ("io",),
    ("datasets",),
    ("distances",),
    ("stability",),
    ("rankers", "aggregation"),
    ("selection",),
    ("evaluation",),
    ("experiments",),
    ("workflows",),
    ("cli",),
)

#: Private modules meant for sharing: every layer but ``cli`` may import their public names.
SHARED_PRIVATE = frozenset({"_utils", "distances._kernels"})

#: Known violations, each named: (importing file relative to the package, imported module).
ALLOWED: frozenset[tuple[str, str]] = frozenset({
})


@dataclass(frozen=True)
class Import:
    file: str  # relative to the package root, "/"-separated
    source: str  # dotted module of the importing file
    module: str  # dotted module imported from
    name: str | None  # the object imported (None for ``import x`` / a submodule)
    line: int


def _module_name(root: Path, path: Path, package: str) -> tuple[str, bool]:
    rel = path.relative_to(root).with_suffix("")
    parts = list(rel.parts)
    is_pkg = parts[-1] == "__init__"
    if is_pkg:
        parts = parts[:-1]
    return ".".join([package, *parts]), is_pkg


def collect_imports(root: Path, package: str) -> tuple[list[Import], dict[str, ast.Module]]:
    """Every import (also inside functions) of every module under ``root``."""
    root = Path(root)
    trees: dict[str, ast.Module] = {}
    out: list[Import] = []
    for path in sorted(root.rglob("*.py")):
        mod, is_pkg = _module_name(root, path, package)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        trees[mod] = tree
        rel = path.relative_to(root).as_posix()
        base = mod.split(".") if is_pkg else mod.split(".")[:-1]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    out.append(Import(rel, mod, a.name, None, node.lineno))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    anchor = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                    target = ".".join([*anchor, node.module] if node.module else anchor)
                else:
                    target = node.module or ""
                for a in node.names:
                    out.append(Import(rel, mod, target, a.name, node.lineno))
    return out, trees


def _static_all(tree: ast.Module) -> set[str] | None:
    names: set[str] | None = None
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = [t for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            targets = [node.target]
        if any(t.id == "__all__" for t in targets):
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            names = (names or set()) | set(value)
    return names


def check_package(root: Path, package: str, *, layers=LAYERS, shared=SHARED_PRIVATE,
                  allowed=frozenset()) -> list[str]:
    """The layer violations of the package at ``root`` (named ``package``), one line each."""
    imports, trees = collect_imports(Path(root), package)
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

    for imp in imports:
        # ``from pkg import sub`` where ``sub`` is a module: the import is of the submodule
        module, name = imp.module, imp.name
        if name is not None and f"{module}.{name}" in trees:
            module, name = f"{module}.{name}", None
        src, dst = component(imp.source), component(module)
        if dst is None or (imp.file, module) in allowed:
            continue
        if dst == "" and name is not None and name.startswith("__") and name.endswith("__"):
            continue  # ``from .. import __version__``: metadata of the root, not its facade
        src_key = "" if src in ("", "__main__") else src
        where = f"{imp.file}:{imp.line}"
        shown = f"{module}.{name}" if name else module
        if src_key != dst:
            if dst != "":
                edges.setdefault(src_key, {}).setdefault(dst, imp)
            src_layer = top if src_key == "" else layer_of.get(src_key, top)
            dst_layer = top if dst == "" else layer_of.get(dst, top)
            if src_key == "" or dst_layer < src_layer:
                pass
            elif dst_layer == src_layer:
                problems.append(f"{where}: sibling import {shown} ({src_key} and {dst} "
                                "share a layer and never import each other)")
            else:
                problems.append(f"{where}: upward import {shown} ({src_key} is below "
                                f"{dst or 'the root facade'})")
            # private names across packages
            inner = module.split(".")[1:]
            covered = 0 if src_key == "cli" else max(
                (i for i in range(1, len(inner) + 1) if ".".join(inner[:i]) in shared), default=0)
            if any(p.startswith("_") and not p.startswith("__") for p in inner[covered:]) or (
                    src_key == "cli" and any(p.startswith("_") for p in inner)):
                if (imp.file, imp.line, module) not in reported:
                    reported.add((imp.file, imp.line, module))
                    problems.append(f"{where}: private module {module} imported from package "
                                    f"{dst}")
            if name and name.startswith("_") and not name.startswith("__"):
                problems.append(f"{where}: private name {name} imported from {module}")
            if src_key == "cli" and name and module in trees:
                public = _static_all(trees[module])
                if public is not None and name not in public:
                    problems.append(f"{where}: cli imports {shown}, which is not in "
                                    f"{module}.__all__")
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
                key = frozenset(cycle)
                if key not in seen_cycles:
                    seen_cycles.add(key)
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


def test_the_package_keeps_its_layers():
    root = Path(rankfusion.__file__).parent
    problems = check_package(root, "rankfusion", allowed=ALLOWED)
    assert problems == [], "\n".join(problems)


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
    "lists.py": "from ._utils.validation import check\n",
    "distances/__init__.py": "from ..lists import check\n",
    "distances/_kernels.py": "def kernel():\n    pass\n",
    "aggregation/topk.py": "from ..distances._kernels import kernel\n",
    "aggregation/_registry.py": "REG = {}\n",
    "aggregation/__init__.py": "from ._registry import REG\n__all__ = ['REG', 'aggregate']\n"
                               "def aggregate():\n    pass\n",
    "rankers/base.py": "import fakepkg.distances\nfrom .._utils import validation\n",
    "selection/sel.py": "from ..aggregation import aggregate\nfrom ..rankers.base import x\n",
    "cli/__init__.py": "from .. import __version__\n",
    "cli/run.py": "from ..aggregation import aggregate\nfrom ._common import helper\n",
    "cli/_common.py": "def helper():\n    pass\n",
}


def test_a_clean_fake_package_passes(tmp_path):
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
