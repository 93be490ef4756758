"""Benchmark of the Markov-chain rules MC1–MC4 against PyFLAGR 1.0.21, in the same process.

The same job on both sides: M random full orders of p items (Python lists of names) in,
a consensus ranking out. PyFLAGR's side builds its input DataFrame and calls
``MC1..MC4(...).aggregate`` (which writes it to CSV, runs the C++ library and reads its output
CSV back: PyFLAGR's only interface); ours builds ``RankedLists.from_orders`` and calls
``aggregate(lists, "mcN", variant="pyflagr")`` — the variant equal to PyFLAGR's output (the
default ``variant="dwork"`` took 0.5–1.3× its time at p = 1,000, M = 5 and 20, measured
separately on the same machine). Each cell is
the median of ``repeat`` interleaved runs (ours, PyFLAGR, ours, …; benchmarks/_timing.py) with
the load average before each round; the ratio is PyFLAGR's median over ours (> 1: we are
faster). Every run's scores are checked against PyFLAGR's (to its 6 printed decimals).

Run: ``python benchmarks/bench_markov.py [--repeat 5] [--out benchmarks/results/markov.md]``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import platform
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _timing import interleaved  # noqa: E402
from rankfusion import RankedLists, aggregate  # noqa: E402

SIZES = ((100, 5), (100, 20), (500, 5), (500, 20), (1000, 5), (1000, 20))
RULES = ("mc1", "mc2", "mc3", "mc4")


def pyflagr_job(orders, rule, out_dir):
    import pandas as pd
    from pyflagr import MarkovChains

    rows = [("1", f"L{l}", item, r + 1, float(len(o) - r), "bench")
            for l, o in enumerate(orders) for r, item in enumerate(o)]
    with contextlib.redirect_stdout(io.StringIO()):  # PyFLAGR prints a progress line
        out, _ = getattr(MarkovChains, rule.upper())(eval_pts=10).aggregate(
            input_df=pd.DataFrame(rows), out_dir=out_dir)
    return list(out["ItemID"]), out["Score"].to_numpy()


def our_job(orders, rule):
    lists = RankedLists.from_orders(orders)
    c = aggregate(lists, rule, variant="pyflagr")
    return lists.features[c.order].tolist(), c.scores[c.order]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    from importlib.metadata import version

    out_dir = tempfile.mkdtemp()
    rng = np.random.default_rng(0)
    lines = [
        "# Markov-chain rules MC1–MC4 vs PyFLAGR\n",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}, numpy {np.__version__}, PyFLAGR {version('pyflagr')}.\n",
        f"Median of {args.repeat} interleaved runs (min–max in brackets); the job on both "
        "sides: M random full orders of p items in, the consensus ranking out "
        "(rankfusion with `variant=\"pyflagr\"`; PyFLAGR through its DataFrame interface, "
        "which writes and reads CSV files). Ratio = PyFLAGR / rankfusion (> 1: rankfusion "
        "faster). `same` = our scores equal PyFLAGR's to its 6 printed decimals and our "
        "order agrees with its scores.\n",
        "| rule | p | M | rankfusion | PyFLAGR | ratio | same | load before rounds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for rule in RULES:  # first calls: imports and the compiled kernel
        our_job([[f"w{i:03d}" for i in rng.permutation(200)] for _ in range(3)], rule)
    for p, m in SIZES:
        orders = [[f"f{i:04d}" for i in rng.permutation(p)] for _ in range(m)]
        for rule in RULES:
            t, loads, outs = interleaved({
                "ours": lambda o=orders, r=rule: our_job(o, r),
                "pyflagr": lambda o=orders, r=rule: pyflagr_job(o, r, out_dir)},
                repeat=args.repeat)
            items, scores = outs["pyflagr"]
            mine_items, mine_scores = outs["ours"]
            ref = dict(zip(items, scores))
            ours = dict(zip(mine_items, mine_scores))
            seq = np.array([ref[i] for i in mine_items])
            same = (max(abs(ours[i] - ref[i]) for i in items) <= 5.000001e-7
                    and bool((np.diff(seq) <= 1.1e-6).all()))
            ratio = t["pyflagr"].median / t["ours"].median
            lines.append(f"| {rule} | {p:,} | {m} | {t['ours'].cell()} | "
                         f"{t['pyflagr'].cell()} | {ratio:.1f}× | {same} | "
                         f"{', '.join(f'{x:.2f}' for x in loads)} |")
            print(lines[-1], flush=True)
    text = "\n".join(lines) + "\n"
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
