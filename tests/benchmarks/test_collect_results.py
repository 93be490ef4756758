"""The benchmark page's figure reader: every figure of every table gets its own key."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _collect_results():
    spec = importlib.util.spec_from_file_location(
        "collect_results", ROOT / "benchmarks" / "collect_results.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_rows_sharing_their_first_cell_keep_separate_figures(tmp_path):
    (tmp_path / "area.md").write_text(
        "# Area\n\n## Positions\n\n"
        "| dataset | samples | method | mean | load |\n|---|---|---|---|---|\n"
        "| A | 1000 | kfirst | 20.5 | 1.0 |\n"
        "| A | 1000 | schulze | 167.6 | 1.0 |\n"
        "| A | 3000 | kfirst | 20.5 (19–21) | 1.0 |\n\n"
        "## Times\n\n| tool | seconds |\n|---|---|\n| ours | 1.12 s (0.8–1.4) |\n"
        "| peer | 2,500 s |\n")
    f = _collect_results().figures(tmp_path)
    assert f == {
        "area / Positions / A / 1000 / kfirst / mean": 20.5,
        "area / Positions / A / 1000 / schulze / mean": 167.6,
        "area / Positions / A / 3000 / kfirst / mean": 20.5,
        "area / Times / ours / seconds": 1.12,
        "area / Times / peer / seconds": 2500.0,
    }
