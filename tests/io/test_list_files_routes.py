"""``read_lists`` parses cells without pandas: every file of a corpus of list files, hostile
ones included, reads as the pandas route read it (the lists bit for bit, or the same error
message), and reading a small list file imports neither pandas nor numba."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "list_files"
sys.path.insert(0, str(FIXTURES))
from corpus import KINDS, outcome, texts  # noqa: E402

sys.path.remove(str(FIXTURES))

EXPECTED = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))


def test_corpus_is_the_one_the_fixture_was_made_from():
    assert [(e["text"], e["kind"]) for e in EXPECTED] == [(t, k) for t in texts()
                                                          for k in KINDS]
    assert sum("error" in e for e in EXPECTED) > 100  # hostile files are in it
    assert sum("error" not in e for e in EXPECTED) > 100


@pytest.mark.parametrize("i", range(0, len(EXPECTED)))
def test_reading_equals_the_pandas_route(i):
    case = EXPECTED[i]
    want = {k: v for k, v in case.items() if k not in ("text", "kind")}
    assert outcome(case["text"], case["kind"]) == want


def test_hostile_cells_keep_their_messages(tmp_path):
    from rankfusion.io import read_lists

    path = tmp_path / "l.csv"
    path.write_text("feature,A,B\na,1,x\nb,2,1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 2, column 3 \('B'\): 'x' is not a number"):
        read_lists(path, "scores")
    path.write_text("feature,A,B\na,1,-INF\nb,2,1\n", encoding="utf-8")
    with pytest.raises(ValueError, match="'-INF' is not a finite number"):
        read_lists(path, "positions")


def test_scores_read_exactly(tmp_path):
    from rankfusion.io import read_lists

    vals = [0.1, 1 / 3, 2.5e-320, -1e300, 0.30000000000000004]
    path = tmp_path / "l.csv"
    path.write_text("feature,A\n" + "".join(f"f{i},{v!r}\n" for i, v in enumerate(vals)),
                    encoding="utf-8")
    np.testing.assert_array_equal(read_lists(path, "scores").scores[:, 0], vals)


def test_small_list_file_imports_neither_pandas_nor_numba(tmp_path):
    path = tmp_path / "l.csv"
    path.write_text("feature,A,B,C\na,0.9,0.1,0.5\nb,0.3,0.8,0.2\nc,0.1,0.2,0.9\n",
                    encoding="utf-8")
    orders = tmp_path / "o.csv"
    orders.write_text("list,1,2,3\nA,a,b,c\nB,b,a,c\n", encoding="utf-8")
    code = ("import sys; from rankfusion.io import read_lists; "
            f"read_lists({str(path)!r}); read_lists({str(orders)!r}); "
            f"read_lists({str(path)!r}, 'scores'); "
            "print(sorted(m for m in ('pandas', 'numba') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True)
    assert out.stdout.strip() == "[]"
