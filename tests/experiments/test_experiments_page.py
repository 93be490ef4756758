"""EXPERIMENTS.md is the introduction plus the five papers' section files, in order: a section
edited without rebuilding the page (or the page edited by hand) fails here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_experiments_md_is_built_from_the_section_files():
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "build_experiments_md.py"),
                           "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_every_paper_has_its_section_in_order():
    text = (ROOT / "EXPERIMENTS.md").read_text("utf-8")
    heads = [line for line in text.splitlines() if line.startswith("## ")]
    assert [h.split()[1].rstrip(",") for h in heads] == [
        "Izetta", "Fuzzy", "NLC", "Bouaguel", "Robust"]
