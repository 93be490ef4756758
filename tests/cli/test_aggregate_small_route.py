"""``rankfusion aggregate`` prints its consensus table without pandas: the text of
``format_float_table`` with integer columns equals pandas' ``DataFrame.to_string`` (oracle:
pandas itself), the summary equals the one printed through pandas on every rule's output, and a
small list file aggregates by Borda without importing pandas."""

from __future__ import annotations

import os
import string
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rankfusion.cli import main
from rankfusion.workflows import aggregate as agg_flow
from rankfusion.workflows import format_float_table, frame_text, run_aggregation

_ints = st.integers(min_value=-(2**62), max_value=2**62)
_small_floats = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
_labels = st.text(string.ascii_letters + string.digits + "_=-+.'", min_size=1, max_size=12)


def _pandas_text(index, columns):
    frame = pd.DataFrame(dict(columns), index=pd.Index(list(index), dtype=object,
                                                       name="feature"))
    return frame_text(frame)


@settings(max_examples=300, deadline=None)
@given(index=st.lists(_labels, min_size=1, max_size=6),
       ranks=st.lists(_ints, min_size=6, max_size=6),
       scores=st.lists(_small_floats, min_size=6, max_size=6),
       dtype=st.sampled_from([np.int64, np.int32, np.uint8, np.intp]))
@example(index=["a", "b"], ranks=[1, 2, 0, 0, 0, 0], scores=[0.5] * 6, dtype=np.int64)
@example(index=["a", "b"], ranks=[-1, 123456, 0, 0, 0, 0], scores=[2.0] * 6,
         dtype=np.int64)
@example(index=["a"], ranks=[10**12] * 6, scores=[1e-7] * 6, dtype=np.int64)
def test_integer_columns_print_as_pandas(index, ranks, scores, dtype):
    n = len(index)
    info = np.iinfo(dtype)
    r = np.clip(np.array(ranks[:n], dtype=np.int64), info.min, info.max).astype(dtype)
    columns = {"rank": r, "score": np.array(scores[:n])}
    got = format_float_table("feature", index, columns)
    if got is not None:
        assert got == _pandas_text(index, columns)


RULES = ["borda", "median", "kfirst", "copeland", "schulze", "rra", "combmnz",
         "rrf", "best_rank", "average_sd", "q3_sd", "stuart"]


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("top", [0, 1, 3, 20])
def test_summary_equals_the_pandas_text(rule, top):
    from rankfusion import RankedLists

    lists = RankedLists.from_orders([["a", "b", "c", "d"], ["b", "a", "d"], ["c", "a", "b"],
                                     ["=x", "a", "b"]], list_names=["L1", "L2", "L3", "L4"])
    run = run_aggregation(lists, rule, top=top)
    light = run.summary()
    assert run._light_text() is not None
    body = frame_text(run.tables()["consensus"])
    notes = run.notes()
    assert light == "\n".join([f"# {notes[0]}", body, *(f"# {n}" for n in notes[1:])])


def test_summary_falls_back_for_names_that_are_not_strings():
    from rankfusion import RankedLists

    run = run_aggregation(RankedLists.from_orders([[1, 2, 3], [2, 1, 3]]), "borda")
    assert run._light_text() is None
    assert "feature" in run.summary()


def test_cli_output_is_the_same_with_the_small_route_off(tmp_path, capsys, monkeypatch):
    path = tmp_path / "l.csv"
    path.write_text("list,1,2,3,4\nA,a,b,c,d\nB,b,a,c,d\nC,a,c,b,d\n", encoding="utf-8")
    for rule in ("borda", "schulze", "kfirst"):
        small = (main(["aggregate", str(path), "--rules", rule]), *capsys.readouterr())
        monkeypatch.setattr(agg_flow.AggregationRun, "_light_text", lambda self: None)
        full = (main(["aggregate", str(path), "--rules", rule]), *capsys.readouterr())
        monkeypatch.undo()
        assert small == full


def test_small_list_file_aggregates_without_pandas(tmp_path):
    path = tmp_path / "l.csv"
    path.write_text("list,1,2,3,4\nA,a,b,c,d\nB,b,a,c,d\nC,a,c,b,d\n", encoding="utf-8")
    code = ("import sys; from rankfusion.cli import main; "
            f"main(['aggregate', {str(path)!r}, '--rules', 'borda']); "
            "print(sorted(m for m in ('pandas', 'numba') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]"
