"""What the API reference must cover and which numpydoc checks every public docstring passes.

Shared by ``docs/conf.py`` (numpydoc's validation during the Sphinx build) and
``tests/test_docs.py`` (the same checks without a build).
"""

#: The public packages and modules; each has a page ``docs/api/<module>.rst`` that lists every
#: name of its ``__all__``.
API_MODULES = (
    "rankfusion",
    "rankfusion.lists",
    "rankfusion.io",
    "rankfusion.datasets",
    "rankfusion.distances",
    "rankfusion.stability",
    "rankfusion.rankers",
    "rankfusion.aggregation",
    "rankfusion.selection",
    "rankfusion.evaluation",
    "rankfusion.evaluation.plots",
    "rankfusion.experiments",
    "rankfusion.workflows",
)

#: numpydoc checks: the parameters a docstring documents are those of the signature (PR01
#: none missing, PR02 none unknown), in ``name : type`` form (PR10),
#: in the signature's order (PR03), and well-formed sections (GL06 unknown section, GL07 order).
NUMPYDOC_CHECKS = {"PR01", "PR02", "PR03", "PR10", "GL06", "GL07"}

#: Result containers whose docstrings still document their fields under "Attributes" only,
#: not as the constructor's "Parameters" (PR01): to be fixed; none may be added. A container
#: documents its fields as "Parameters" (kept as the attributes of the same name), as
#: ``rankfusion.aggregation.Consensus`` does. Remove a line when its docstring is fixed
#: (tests/test_docs.py fails on a line that passes).
RESULT_CONTAINERS = (
    r"^rankfusion\.evaluation\.Configuration$",
    r"^rankfusion\.experiments\.RunSummary$",
)

#: Docstrings that still lack a "Parameters" section (PR01): to be written; none may be added.
#: Remove a line when its docstring is fixed (tests/test_docs.py fails on a line that passes).
PARAMETERS_TO_WRITE = (
)

NUMPYDOC_EXCLUDE = {r"\.__init__$", *RESULT_CONTAINERS, *PARAMETERS_TO_WRITE}


def documented_names(api_dir):
    """The full names listed in the ``autosummary`` tables of the API pages.

    Parameters
    ----------
    api_dir : path-like
        The folder of the API pages (``docs/api``).

    Returns
    -------
    list of str
        ``module.name`` for every entry, in page order.
    """
    import re
    from pathlib import Path

    names = []
    for page in sorted(Path(api_dir).glob("*.rst")):
        module = None
        in_table = False
        for line in page.read_text(encoding="utf-8").splitlines():
            m = re.match(r"\.\. currentmodule:: (\S+)", line)
            if m:
                module = m.group(1)
            if line.startswith(".. autosummary::"):
                in_table = True
                continue
            if in_table:
                if not line.strip() or line.strip().startswith(":"):
                    continue
                if line.startswith("   "):
                    names.append(f"{module}.{line.strip()}")
                    continue
                in_table = False
    return names


def missing_pages(api_dir, modules=API_MODULES):
    """Public names (from each module's ``__all__``) that the API pages do not list.

    Parameters
    ----------
    api_dir : path-like
        The folder of the API pages (``docs/api``).
    modules : sequence of str, default API_MODULES
        The modules whose ``__all__`` must be covered.

    Returns
    -------
    list of str
        ``module.name`` of every public name without a page: not in an ``autosummary`` table of
        ``docs/api/<module>.rst`` nor, for a re-exported object, named on that page
        (``module.name``) while its own page exists.
    """
    import importlib
    from pathlib import Path

    documented = documented_names(api_dir)
    documented_ids = set()
    for full in documented:
        modname, _, name = full.rpartition(".")
        try:
            documented_ids.add(id(getattr(importlib.import_module(modname), name)))
        except (ImportError, AttributeError):
            continue
    missing = []
    for modname in modules:
        module = importlib.import_module(modname)
        page = Path(api_dir) / f"{modname}.rst"
        text = page.read_text(encoding="utf-8") if page.exists() else ""
        for name in getattr(module, "__all__", ()):
            if name == "__version__":
                continue
            full = f"{modname}.{name}"
            listed = full in documented or f"``{full}``" in text
            if not (listed and id(getattr(module, name)) in documented_ids):
                missing.append(full)
    return missing


def public_objects(api_dir):
    """Full names of the documented functions and classes and of the classes' own methods.

    Parameters
    ----------
    api_dir : path-like
        The folder of the API pages (``docs/api``).

    Returns
    -------
    list of str
        Import paths for :func:`numpydoc.validate.validate`, each object once.
    """
    import importlib
    import inspect

    seen, paths = set(), []
    for full in documented_names(api_dir):
        modname, _, name = full.rpartition(".")
        obj = getattr(importlib.import_module(modname), name)
        if not (inspect.isclass(obj) or inspect.isfunction(obj)) or id(obj) in seen:
            continue
        seen.add(id(obj))
        paths.append(full)
        if inspect.isclass(obj):
            for attr, value in vars(obj).items():
                if attr.startswith("_"):
                    continue
                if isinstance(value, (classmethod, staticmethod)):
                    value = value.__func__
                if inspect.isfunction(value):
                    paths.append(f"{full}.{attr}")
    return paths


def docstring_errors(path, checks=NUMPYDOC_CHECKS, exclude=NUMPYDOC_EXCLUDE):
    """numpydoc's validation errors of one object, restricted to ``checks``.

    Parameters
    ----------
    path : str
        Import path of the object (``rankfusion.aggregation.aggregate``).
    checks : set of str, default NUMPYDOC_CHECKS
        The numpydoc error codes to report.
    exclude : set of str, default NUMPYDOC_EXCLUDE
        Regular expressions; an object whose path matches one is not checked.

    Returns
    -------
    list of (str, str)
        ``(code, message)`` pairs; empty when the docstring passes.
    """
    import re

    from numpydoc.validate import validate

    if any(re.search(pattern, path) for pattern in exclude):
        return []
    return [(code, msg) for code, msg in validate(path)["errors"] if code in checks]
