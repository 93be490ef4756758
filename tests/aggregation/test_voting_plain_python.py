"""Copeland and Schulze below their ``python_below`` work run their kernels as plain Python,
without importing numba, and give the consensus the compiled kernels give, bit for bit."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from rankfusion import RankedLists
from rankfusion._utils import jit
from rankfusion.aggregation import aggregate, voting

KERNELS = ("_pairwise_counts", "_pairwise_weighted", "_copeland_scores", "_links",
           "_widest_paths", "_beats_count")


def _cases():
    rng = np.random.default_rng(20261202)
    out = []
    for t in range(40):
        p, m = int(rng.integers(2, 20)), int(rng.integers(1, 7))
        lists = RankedLists.from_scores(rng.integers(0, 4, size=(p, m)).astype(float))
        out.append((lists, rng.random(m) if t % 3 == 0 else None))
    return out


def _consensus(cases):
    res = []
    for lists, w in cases:
        for rule in ("schulze", "copeland"):
            c = aggregate(lists, rule, weights=w)
            res.append((c.order, c.scores, c.tiebreak))
    return res


def test_plain_python_equals_compiled(monkeypatch):
    cases = _cases()
    for name in KERNELS:  # plain Python even if an earlier test compiled a kernel
        k = getattr(voting, name)
        monkeypatch.setattr(k, "_serial", None)
        monkeypatch.setattr(k, "_parallel", None)
        monkeypatch.setattr(k, "python_seconds", 0.0)
    for budget in ("PYTHON_SECONDS_COLD", "PYTHON_SECONDS_WARM"):  # no rent-or-buy switch
        monkeypatch.setattr(jit, budget, 1e9)
    plain = _consensus(cases)
    assert all(getattr(voting, name).python_seconds > 0 for name in KERNELS)
    assert not any(getattr(voting, name).compiled for name in KERNELS)
    for name in KERNELS:  # force the compiled variants
        monkeypatch.setattr(getattr(voting, name), "python_below", 0)
    compiled = _consensus(cases)
    for a, b in zip(plain, compiled):
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
        if a[2] is None:
            assert b[2] is None
        else:
            np.testing.assert_array_equal(a[2], b[2])


@pytest.mark.parametrize("rule", ["schulze", "copeland"])
def test_small_lists_do_not_import_numba(rule):
    code = ("import sys; from rankfusion import RankedLists; "
            "from rankfusion.aggregation import aggregate; "
            "lists = RankedLists.from_orders([list('abcd'), list('badc'), list('acbd')]); "
            f"c = aggregate(lists, {rule!r}); print(list(c.top(4))); "
            "print('numba' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout.split("\n")
    assert out[1] == "False"
    lists = RankedLists.from_orders([list("abcd"), list("badc"), list("acbd")])
    assert out[0] == str(list(aggregate(lists, rule).top(4)))
