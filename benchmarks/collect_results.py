"""Collect ``results/SUMMARY.md`` and every ``results/<area>.md`` into ``RESULTS.md``.

Run after a benchmark script has rewritten its results file:
``python benchmarks/collect_results.py``. Each results file starts with a ``#`` title; its
headings move one level down under this page's title.
"""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORDER = ["aggregation", "optimisation", "rankers", "nlc_cfs", "svm_rfe"]


def main() -> None:
    results = HERE / "results"
    parts = [(results / "SUMMARY.md").read_text().rstrip(), ""]
    names = ORDER + sorted(p.stem for p in results.glob("*.md")
                           if p.stem not in ORDER and p.stem != "SUMMARY")
    for name in names:
        text = (results / f"{name}.md").read_text().strip()
        text = re.sub(r"^(#+) ", lambda m: "#" + m.group(1) + " ", text, flags=re.M)
        parts.append(f"<!-- from benchmarks/results/{name}.md -->\n{text}\n")
    (HERE / "RESULTS.md").write_text("\n".join(parts))


if __name__ == "__main__":
    main()
