"""Collect ``results/SUMMARY.md`` and every ``results/<area>.md`` into ``RESULTS.md``.

Run after a benchmark script has rewritten its results file:
``python benchmarks/collect_results.py`` (``python benchmarks/run_all.py`` runs the benchmarks
and then this). Each results file starts with a ``#`` title; its headings move one level down
under this page's title. :func:`figures` reads every number of the results tables, so that
``run_all.py`` can say which figures moved since the last run.
"""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORDER = ["startup", "threads", "aggregation", "optimisation", "rankers", "nlc_cfs", "weka_ib1",
         "svm_rfe"]
_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def area_names(results: Path) -> list[str]:
    present = {p.stem for p in results.glob("*.md")} - {"SUMMARY", "RESULTS"}
    return [n for n in ORDER if n in present] + sorted(present - set(ORDER))


def figures(results: Path) -> dict[str, float]:
    """Every number in the tables of ``results/<area>.md``, keyed ``area / heading / row /
    column`` (the first number of a cell: a median before its spread). A row is named by its
    first cell, or by as many leading cells as make the rows of its table distinct (a table
    of data set × samples × method rows); those cells are names, not figures. Load columns
    are left out."""
    out: dict[str, float] = {}

    def flush(name, heading, header, rows):
        if not rows:
            return
        k = 1
        while k < len(header) - 1 and len({tuple(r[:k]) for r in rows}) < len(rows):
            k += 1
        for cells in rows:
            label = " / ".join(cells[:k])
            for col, cell in zip(header[k:], cells[k:]):
                if "load" in col.lower():
                    continue
                m = _NUM.search(cell.replace(",", "").replace("`", ""))
                if m:
                    out[f"{name} / {heading} / {label} / {col}"] = float(m.group())

    for name in area_names(results):
        heading, header, rows = "", None, []
        for line in (results / f"{name}.md").read_text().splitlines() + [""]:
            if not line.startswith("|"):
                flush(name, heading, header, rows)
                header, rows = None, []
                if line.startswith("#"):
                    heading = line.lstrip("#").strip()
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header = cells
                continue
            if all(set(c) <= set("-: ") for c in cells):
                continue
            rows.append(cells)
    return out


def collect(results: Path = HERE / "results", page: Path = HERE / "RESULTS.md",
            extra: str = "") -> None:
    """Write ``page`` from ``results/SUMMARY.md`` (if any), ``extra`` and every area file."""
    parts = []
    summary = results / "SUMMARY.md"
    if summary.exists():
        parts += [summary.read_text().rstrip(), ""]
    if extra:
        parts += [extra.rstrip(), ""]
    for name in area_names(results):
        text = (results / f"{name}.md").read_text().strip()
        text = re.sub(r"^(#+) ", lambda m: "#" + m.group(1) + " ", text, flags=re.M)
        parts.append(f"<!-- from benchmarks/results/{name}.md -->\n{text}\n")
    page.write_text("\n".join(parts))


def main() -> None:
    collect()


if __name__ == "__main__":
    main()
