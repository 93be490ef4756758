"""One memory limit for the package (rankfusion._utils.memory): the pairwise rules' guard and
the densifying of sparse data read the same rule, so one RANKFUSION_MAX_MEMORY setting governs
both. Oracle: the byte counts written by hand."""

from __future__ import annotations

import math

import pytest

from rankfusion._utils import sparse
from rankfusion._utils.memory import ENV_VAR, memory_limit, parse_memory
from rankfusion.aggregation import _memory


@pytest.mark.parametrize("text,expected", [("8G", 8 * 2**30), ("512M", 512 * 2**20),
                                           ("1e9", 1e9), ("2GiB", 2 * 2**30),
                                           ("inf", math.inf), ("0", math.inf),
                                           (" 3k ", 3 * 2**10)])
def test_both_fronts_read_the_same_environment(monkeypatch, text, expected):
    monkeypatch.setenv(ENV_VAR, text)
    assert parse_memory(text) == expected
    assert memory_limit() == _memory.memory_limit() == sparse.memory_limit() \
        == (expected, f"{ENV_VAR}={text}")


def test_argument_wins_over_environment(monkeypatch):
    monkeypatch.setenv(ENV_VAR, "1K")
    assert _memory.memory_limit(2048) == sparse.memory_limit(2048) == (
        2048.0, "max_memory=2,048 bytes")  # the unit said plainly


@pytest.mark.parametrize("x, text", [(512, "512 bytes"), (2048, "2.0 KiB"),
                                     (3 * 2**20, "3.0 MiB"), (1.5 * 2**30, "1.5 GiB")])
def test_byte_counts_in_messages_name_their_unit(x, text):
    from rankfusion._utils.memory import bytes_text

    assert bytes_text(x) == text


def test_refusal_over_the_limit_says_how_to_raise_it_with_units():
    with pytest.raises(MemoryError, match=r"7\.6 MiB dense, above the limit of 1,000 bytes "
                                          r"\(max_memory=1,000 bytes\).*a number of bytes, "
                                          r"e\.g\. max_memory=16e9.*RANKFUSION_MAX_MEMORY=16G"):
        sparse.check_dense_size((1000, 1000), max_memory=1000)


@pytest.mark.parametrize("text", ["lots", "-5G", "8X", "nan", "G"])
def test_hostile_environment_values(text):
    with pytest.raises(ValueError, match=rf"environment variable {ENV_VAR}=.* must be a "
                                         "positive number of bytes"):
        parse_memory(text)


@pytest.mark.parametrize("value", [0, -1, True, "8G", float("nan")])
def test_hostile_max_memory_on_both_fronts(value):
    with pytest.raises((ValueError, TypeError), match="max_memory"):
        _memory.memory_limit(value)
    with pytest.raises((ValueError, TypeError), match="max_memory"):
        sparse.memory_limit(value)
