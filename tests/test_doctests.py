"""The examples in every docstring of the package stay true (the information-measure and
ReliefF examples are Weka 3.6's values on that data)."""

import doctest
import importlib
import pkgutil

import pytest

import rankfusion

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(rankfusion.__path__, prefix="rankfusion.")
    if not m.name.startswith(("rankfusion.cli", "rankfusion.__main__"))
)


def test_the_examples_cover_the_main_modules():
    with_examples = set()
    for name in MODULES:
        finder = doctest.DocTestFinder()
        if any(t.examples for t in finder.find(importlib.import_module(name))):
            with_examples.add(name)
    assert {"rankfusion.lists", "rankfusion.aggregation", "rankfusion.rankers.information",
            "rankfusion.rankers.relief"} <= with_examples


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
