"""Write EXPERIMENTS.md: the introduction below, then each paper's section file
(experiments/<paper>/EXPERIMENTS_SECTION.md) in the order of PAPERS.

    python tools/build_experiments_md.py          # rewrite EXPERIMENTS.md
    python tools/build_experiments_md.py --check  # exit 1 if EXPERIMENTS.md is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAPERS = ("izetta", "fuzzy", "nlc", "bouaguel", "robust_fs")
INTRO = """\
# Reproductions: our numbers beside the papers'

Each section gives a paper's tables beside ours, the `rankfusion experiment …` command that
produces them, the machine and wall time, and each qualitative claim as confirmed or not. All
rankings are computed inside the training part of every split (the runner's protocols), except
where a section shows a clearly labelled "selection on all data" variant beside them. The runs
were made on a 2-core machine, most of them shared with other heavy work (load averages 10–23;
the sittings of 2026-12-01 at load 1–6), so some full protocols were reduced, and each section
states its reduction and the load of each sitting; every run resumes from its saved cells with
the same command. The smoke versions (`experiments/<paper>/smoke.toml`) run in CI and
are compared with the committed smoke results (`tests/experiments/test_repro_*.py`). This page
is built from the section files by `python tools/build_experiments_md.py`.
"""


def build() -> str:
    parts = [INTRO]
    for paper in PAPERS:
        text = (ROOT / "experiments" / paper / "EXPERIMENTS_SECTION.md").read_text("utf-8")
        parts.append(text.strip("\n") + "\n")
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    text = build()
    target = ROOT / "EXPERIMENTS.md"
    if "--check" in argv:
        if target.read_text("utf-8") != text:
            print("EXPERIMENTS.md is out of date: run python tools/build_experiments_md.py",
                  file=sys.stderr)
            return 1
        return 0
    target.write_text(text, "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
