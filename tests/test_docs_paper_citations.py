"""Docstrings and documentation pages cite the papers (authors, year, title or venue), never
the file names of the reference texts (``izetta2017_….txt``, ``papers/…``, ``../shared/…``):
every file of ``src/``, ``docs/`` and the README is checked, with no exemption."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: The reference texts' file-name stems and paths.
FILE_NAMES = re.compile(
    r"izetta2017_|ruiz2003_|bouaguel2013_|fuzzy_weighted_combination_bootstrap|"
    r"robust_fs_rank_aggregation_borda_kemeny|\.\./shared|shared/papers|papers/\w")

def _files():
    out = sorted((ROOT / "src").rglob("*.py"))
    for pattern in ("*.rst", "*.md", "*.py"):
        out += sorted(p for p in (ROOT / "docs").rglob(pattern) if "_build" not in p.parts
                      and "auto_examples" not in p.parts and "generated" not in p.parts)
    return out + [ROOT / "README.md"]


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_papers_are_cited_not_their_files(path):
    rel = str(path.relative_to(ROOT))
    hits = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
            if FILE_NAMES.search(line)]
    assert hits == [], f"{rel} names a paper by its file: {hits}"
