"""The examples in the rankers' docstrings stay true (the information-measure and ReliefF
examples are Weka 3.6's values on that data)."""

import doctest
import importlib

import pytest

MODULES = ["rankfusion.rankers.discretize", "rankfusion.rankers.information",
           "rankfusion.rankers.relief", "rankfusion.rankers.sklearn_adapters"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
