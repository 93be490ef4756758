"""The example gallery (docs/examples): enough examples, each with a title and a sentence
saying how to read its figure, each on bundled data (no network, no files of the user's)."""

import ast
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).parents[1] / "docs" / "examples").glob("plot_*.py"))


def test_the_gallery_has_at_least_eight_examples():
    assert len(EXAMPLES) >= 8, [p.name for p in EXAMPLES]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_each_example_has_a_title_and_says_how_to_read_it(path):
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc, f"{path.name} has no docstring"
    lines = doc.splitlines()
    assert len(lines) > 2 and set(lines[1]) == {"="} and len(lines[1]) >= len(lines[0]), (
        f"{path.name}: the first line is the title, underlined with '=' at least as long")
    assert "**How to read it:**" in doc, f"{path.name} does not say how to read its figure"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_each_example_uses_bundled_data_only(path):
    text = path.read_text(encoding="utf-8")
    for forbidden in ("http://", "https://", "fetch_openml", "../shared", "/work/"):
        assert forbidden not in text, f"{path.name} reaches outside the package: {forbidden}"
