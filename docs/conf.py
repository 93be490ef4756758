"""Sphinx configuration of the rankfusion documentation.

Build: ``python -m sphinx -W -b html docs docs/_build/html`` (README, "Documentation").
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # api_checks
sys.path.insert(0, str(HERE / "_ext"))  # cli_reference, toml_schema, datasets_page

from api_checks import NUMPYDOC_CHECKS, NUMPYDOC_EXCLUDE  # noqa: E402

import rankfusion  # noqa: E402

project = "rankfusion"
author = "rankfusion developers"
copyright = "rankfusion developers, BSD-3-Clause"
release = rankfusion.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
    "myst_parser",
    "cli_reference",  # docs/_ext: the command-line reference from the argparse parsers
    "toml_schema",  # docs/_ext: the experiment TOML schema from rankfusion.experiments
    "datasets_page",  # docs/_ext: the bundled data sets from their metadata table
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = ["_build", "examples/README.rst", "examples/*.py", "Thumbs.db", ".DS_Store"]

# -- API reference ------------------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"  # the numpydoc "Parameters" sections state the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks = NUMPYDOC_CHECKS
numpydoc_validation_exclude = NUMPYDOC_EXCLUDE

# Every cross-reference must resolve (See Also, :func:, :class:), except names of other projects
# (no intersphinx: the build works offline).
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|scipy|pandas|pd|sklearn|matplotlib|dask|distributed|joblib)\..*"),
    (r"py:.*", r"(numpy|np|scipy|pandas|pd|sklearn|matplotlib|dask|distributed|joblib)"),
]

# -- Markdown pages (docs/design.md, docs/experiments.md) ----------------------------------------
myst_heading_anchors = 4
myst_enable_extensions = ["dollarmath"]
# EXPERIMENTS.md (built by tools/build_experiments_md.py) goes from ## to ####
suppress_warnings = ["myst.header"]

# -- Gallery -------------------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "within_subsection_order": "FileNameSortKey",
    "doc_module": ("rankfusion",),
    "reference_url": {"rankfusion": None},
    "backreferences_dir": "api/generated/backreferences",
    "remove_config_comments": True,
    "download_all_examples": False,
    "show_memory": False,
    "plot_gallery": "True",
}

# -- HTML ----------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"rankfusion {release}"
html_static_path = ["_static"]
html_css_files = ["rankfusion.css"]
html_theme_options = {
    "navigation_depth": 2,
    "show_toc_level": 2,
    "header_links_before_dropdown": 4,
    # API pages are one object each: no "On this page" column, more width for signatures
    "secondary_sidebar_items": {"api/generated/*": []},
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_show_sourcelink = False
# single pages without sub-pages: no empty navigation column
html_sidebars = {page: [] for page in ("index", "design", "experiments", "reproductions",
                                           "toml_schema", "datasets")}


# -- Module constants: their "#:" comments, wherever the constant is re-exported -------------
def _constant_doc(app, what, name, obj, options, lines):
    """Replace a re-exported constant's type docstring by its ``#:`` comment."""
    if what != "data":
        return
    from sphinx.pycode import ModuleAnalyzer

    short = name.rsplit(".", 1)[-1]
    for modname, module in sorted(sys.modules.items()):
        if not modname.startswith("rankfusion") or getattr(module, short, None) is not obj:
            continue
        try:
            docs = ModuleAnalyzer.for_module(modname).find_attr_docs()
        except Exception:  # noqa: BLE001 - compiled or source-less module
            continue
        if ("", short) in docs:
            lines[:] = list(docs[("", short)])
            return
    if type(obj).__doc__ and "\n".join(lines).strip() == (type(obj).__doc__ or "").strip():
        lines[:] = []


# -- Cross-references to re-exported names ------------------------------------------------------
# Docstrings name objects where users import them (``rankfusion.aggregate``) or by their short
# name inside their module; each is documented once, on the page of the module that defines it.
# A reference that names an existing object is pointed at that page. A reference to a real
# object that has no page (a private helper, an instance attribute set by ``fit``) is printed as
# code without a link; a reference to nothing at all still fails the build.
_CANONICAL: dict[int, str] = {}


def _canonical_names():
    if not _CANONICAL:
        import importlib
        import inspect

        from api_checks import documented_names

        for full in documented_names(HERE / "api"):
            modname, _, name = full.rpartition(".")
            obj = getattr(importlib.import_module(modname), name)
            if inspect.isclass(obj) or callable(obj):
                _CANONICAL.setdefault(id(obj), full)
    return _CANONICAL


def _lookup(target, modname, clsname, docname):
    import importlib

    candidates = [target]
    if clsname and modname:
        candidates.append(f"{modname}.{clsname}.{target}")
    page = docname.rsplit("/", 1)[-1] if docname.startswith("api/generated/") else None
    if page:  # the page of an object: its class, its module and the module that defines it
        candidates.append(f"{page}.{target}")
        candidates.append(f"{page.rsplit('.', 1)[0]}.{target}")
        _, documented = _lookup(page, None, None, "")
        defining = getattr(documented, "__module__", None)
        if isinstance(defining, str):
            candidates.append(f"{defining}.{target}")
    if modname:
        candidates.append(f"{modname}.{target}")
        candidates.append(f"{modname.rsplit('.', 1)[0]}.{target}")
    for cand in candidates:
        parts = cand.split(".")
        for i in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            rest = parts[i:]
            for j, attr in enumerate(rest):
                try:
                    obj = getattr(obj, attr)
                except AttributeError:
                    if _instance_attribute(obj, rest[j:]):
                        return cand, None
                    break
            else:
                return cand, obj
            break
    return None, None


def _instance_attribute(obj, rest):
    """``Class.attr_`` named in the class's docstring (set by ``fit``) or a dataclass field."""
    if len(rest) != 1 or not isinstance(obj, type):
        return False
    name = rest[0]
    return name in getattr(obj, "__dataclass_fields__", {}) or name in (obj.__doc__ or "")


def _missing_reference(app, env, node, contnode):
    if node.get("refdomain") != "py":
        return None
    target = "".join(node["reftarget"].split()).lstrip("~.")
    full, obj = _lookup(target, node.get("py:module"), node.get("py:class"), node["refdoc"])
    if full is None:
        return None
    canonical = _canonical_names().get(id(obj)) if obj is not None else None
    if canonical:
        py = env.get_domain("py")
        for role in ("class", "func", "meth", "data", "attr", "obj"):
            ref = py.resolve_xref(env, node["refdoc"], app.builder, role, canonical, node, contnode)
            if ref is not None:
                return ref
    return contnode


def _skip_foreign_members(app, what, name, obj, skip, options):
    """Leave out the members scikit-learn adds to our estimators (``set_fit_request`` …)."""
    module = getattr(obj, "__module__", None) or ""
    if what == "class" and module.split(".")[0] in ("sklearn", "numpy", "pandas"):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_foreign_members)
    app.connect("autodoc-process-docstring", _constant_doc)
    app.connect("missing-reference", _missing_reference)
