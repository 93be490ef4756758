"""The documentation site's checks that need no Sphinx build (docs/conf.py builds the site).

- every public name (each API module's ``__all__``) has an entry on its API page;
- every documented docstring passes numpydoc's parameter checks (the parameters it documents
  are those of the signature), the same checks ``docs/conf.py`` runs during the build;
- the checks themselves fail on a planted undocumented name and a planted wrong docstring;
- the schema example of ``docs/experiments.md`` parses and its first cell runs.
"""

from __future__ import annotations

import re
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
API = DOCS / "api"
sys.path.insert(0, str(DOCS))

import api_checks  # noqa: E402

pytest.importorskip("numpydoc")


def test_every_public_name_has_an_api_page():
    assert api_checks.missing_pages(API) == []


def test_every_api_module_has_a_page_in_the_api_index():
    index = (API / "index.rst").read_text(encoding="utf-8")
    for module in api_checks.API_MODULES:
        assert (API / f"{module}.rst").exists(), module
        assert re.search(rf"^   {re.escape(module)}$", index, re.M), module


def test_documented_names_import():
    import importlib

    for full in api_checks.documented_names(API):
        modname, _, name = full.rpartition(".")
        assert hasattr(importlib.import_module(modname), name), full


@pytest.mark.parametrize("path", api_checks.public_objects(API))
def test_docstring_parameters_match_signature(path):
    assert api_checks.docstring_errors(path) == []


@pytest.mark.parametrize("pattern", api_checks.PARAMETERS_TO_WRITE
                         + api_checks.RESULT_CONTAINERS)
def test_exemptions_are_still_needed(pattern):
    """A docstring on the to-write list that now passes must leave the list."""
    path = pattern.strip("^$").replace("\\.", ".")
    assert api_checks.docstring_errors(path, exclude=()) != [], f"{path} passes: remove it"


# ------------------------------------------------------------------ the checks can fail
def _planted(tmp_path, monkeypatch, func):
    module = types.ModuleType("rankfusion_planted")
    module.__all__ = ["documented", func.__name__]
    module.documented = lambda: None
    module.documented.__module__ = "rankfusion_planted"
    func.__module__ = "rankfusion_planted"
    setattr(module, func.__name__, func)
    monkeypatch.setitem(sys.modules, "rankfusion_planted", module)
    (tmp_path / "rankfusion_planted.rst").write_text(
        ".. currentmodule:: rankfusion_planted\n\n.. autosummary::\n   :toctree: generated/\n\n"
        "   documented\n", encoding="utf-8")
    return module


def test_a_public_function_without_a_page_is_found(tmp_path, monkeypatch):
    def undocumented(x):
        """Do nothing.

        Parameters
        ----------
        x : int
            Anything.
        """

    _planted(tmp_path, monkeypatch, undocumented)
    assert api_checks.missing_pages(tmp_path, ["rankfusion_planted"]) == [
        "rankfusion_planted.undocumented"]


def test_a_docstring_that_disagrees_with_its_signature_is_found(tmp_path, monkeypatch):
    def wrong(alpha, beta=1):
        """Do nothing.

        Parameters
        ----------
        alpha : int
            Documented.
        gamma : int
            Not a parameter.
        """

    _planted(tmp_path, monkeypatch, wrong)
    codes = {code for code, _ in api_checks.docstring_errors("rankfusion_planted.wrong")}
    assert codes == {"PR01", "PR02"}  # beta missing, gamma unknown


# ------------------------------------------------------------------ docs/experiments.md
def _schema_example():
    text = (DOCS / "experiments.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, re.S)
    assert blocks, "docs/experiments.md has no TOML example"
    return blocks[0]


def test_experiments_schema_example_parses():
    from rankfusion.datasets import available_datasets
    from rankfusion.experiments import parse_config

    cfg = parse_config(_schema_example(), source="docs/experiments.md")
    assert len(cfg.cells) == 6  # 2 data sets x (ensemble x 2 rules + 1 ranker) x 1 x 1
    names = set(available_datasets()["name"])
    for cell in cfg.cells:
        source = cell.spec["dataset"]["source"]
        assert source in names or source.startswith("sklearn:"), source


def test_experiments_schema_example_runs_a_cell():
    from rankfusion.experiments import parse_config, run_cell

    cfg = parse_config(_schema_example(), source="docs/experiments.md")
    cell = next(c for c in cfg.cells if c.spec["dataset"]["source"] == "iris"
                and c.spec["selector"]["kind"] == "ranker")
    out = run_cell(cell.spec)
    assert "payload" in out


# ------------------------------------------------------------------ the guide's code runs
def _python_blocks(page):
    """The ``.. code-block:: python`` blocks of an rst page, dedented."""
    import textwrap

    blocks, lines = [], page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == ".. code-block:: python":
            i += 1
            body = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("   ")):
                body.append(lines[i])
                i += 1
            blocks.append(textwrap.dedent("\n".join(body)))
        else:
            i += 1
    return blocks


USER_GUIDE_PAGES = sorted((DOCS / "user_guide").glob("*.rst")) + [DOCS / "index.rst"]


@pytest.mark.parametrize("page", USER_GUIDE_PAGES, ids=lambda p: p.name)
def test_guide_code_blocks_run(page, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__guide__"}
    for block in _python_blocks(page):
        exec(compile(block, str(page), "exec"), namespace)  # noqa: S102 - our own docs
