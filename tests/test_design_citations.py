"""Every citation of the design document names a heading that exists (docs/design.md keeps its
headings stable for this reason), also when the citation is wrapped over two lines of a
docstring, a comment or a paragraph: in the code, the tests, the benchmarks, the experiment
scripts and tools, the documentation pages (``docs/**/*.rst`` and ``*.md``, the gallery's
``docs/examples/*.py``, which cite it as ``:doc:`../design`, "Heading"``) and the top-level
Markdown files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DESIGN = ROOT / "docs" / "design.md"
#: ``docs/design.md, 'Heading'`` (or "Heading"; in the documentation pages also
#: ``:doc:`../design`, "Heading"``), with further headings joined by "and" or ","
CITATION = re.compile(r"(?:docs/design\.md|:doc:`(?:\.\./)*design`),\s*(['\"])(?P<head>[^'\"]+)\1"
                      r"(?P<more>(?:\s*(?:,|and)\s*(['\"])[^'\"]+\4)*)")
MORE = re.compile(r"(['\"])([^'\"]+)\1")


def headings(text: str) -> set[str]:
    """The headings of ``text`` and the bold labels that open its bullets (``- **Identifiers**
    are refused …``: the named items of a section, cited as ``'Identifiers'``)."""
    heads = {m.group(1).strip() for m in re.finditer(r"^#+\s+(.+?)\s*$", text, re.M)}
    labels = {m.group(1).strip().rstrip(".:") for m in
              re.finditer(r"^\s*[-*]\s+\*\*(.+?)\*\*", text, re.M)}
    return heads | labels


def citations(text: str) -> list[str]:
    """The headings cited in ``text``; a citation wrapped over lines (indentation and comment
    marks between its words) is read as one line."""
    flat = re.sub(r"\s*\n\s*(?:#+\s*)?", " ", text)
    found = []
    for m in CITATION.finditer(flat):
        found.append(m.group("head").strip())
        found += [h.strip() for _, h in MORE.findall(m.group("more") or "")]
    return found


#: The folders whose files are read, and the top-level files.
TREES = ("src", "tests", "benchmarks", "experiments", "tools", "docs")
SUFFIXES = {".py", ".md", ".rst", ".toml", ".sh", ".R", ".txt"}
#: Built or generated output, not sources.
SKIP = ({"docs", "_build"}, {"docs", "api", "generated"})


def _files():
    for top in TREES:
        for path in sorted((ROOT / top).rglob("*")):
            parts = set(path.relative_to(ROOT).parts)
            if path.suffix in SUFFIXES and path.is_file() and not any(s <= parts for s in SKIP) \
                    and path != Path(__file__).resolve():
                yield path
    yield from sorted(p for p in ROOT.glob("*.md") if p.is_file())


def test_the_files_read_include_every_kind_of_source():
    read = {p.relative_to(ROOT).as_posix() for p in _files()}
    for expected in ("src/rankfusion/lists.py", "tests/conftest.py", "docs/user_guide/flow.rst",
                     "docs/experiments.md", "docs/examples/plot_stability.py", "CONTRIBUTING.md"):
        assert expected in read, expected
    assert not any(p.startswith(("docs/_build/", "docs/api/generated/")) for p in read)


def test_every_design_citation_names_an_existing_heading():
    known = headings(DESIGN.read_text(encoding="utf-8"))
    missing = [(str(p.relative_to(ROOT)), h) for p in _files()
               for h in citations(p.read_text(encoding="utf-8", errors="replace"))
               if h not in known]
    assert missing == []


@pytest.mark.parametrize("text, cited", [
    ("(docs/design.md, 'Seeds')", ["Seeds"]),
    ('see docs/design.md, "Threads".', ["Threads"]),
    ("docs/design.md, 'Aggregation rules' and 'Rankers'", ["Aggregation rules", "Rankers"]),
    ("(docs/design.md, 'Departures from the papers and reference\n    tools')",
     ["Departures from the papers and reference tools"]),
    ("# docs/design.md, 'Ties and\n# determinism'", ["Ties and determinism"]),
    ("docs/design.md describes it", []),
    ('(:doc:`../design`, "Flow of data")', ["Flow of data"]),
    (':doc:`../design`, "Ties and\ndeterminism", "Seeds", "Exact keys"',
     ["Ties and determinism", "Seeds", "Exact keys"]),
    (":doc:`design`", []),
])
def test_citations_are_read_also_when_wrapped(text, cited):
    assert citations(text) == cited


def test_a_planted_citation_of_a_missing_heading_is_found():
    known = headings(DESIGN.read_text(encoding="utf-8"))
    assert "Errors" not in known
    assert [h for h in citations("x (docs/design.md, 'Errors') y") if h not in known] == ["Errors"]
    assert [h for h in citations('see :doc:`../design`, "Errors".') if h not in known] == ["Errors"]
