"""Benchmarks of the optimisation rules: Kemeny, GA/CE against R's RankAggreg.

Run:  python benchmarks/bench_optimisation.py [--quick] [--no-r] [--seeds N]

1. Kemeny, exact: the fraction of 10 seeded instances per p proven optimal within 10 s, for
   Mallows lists (noisy copies of one order with about a fifth of the pairs disagreeing, and a
   milder φ = 0.9) and for uniformly random lists; M = 28.
2. Kemeny, heuristic: time and objective against Borda, Copeland and the lower bound as p grows
   (M = 28), and the heuristic's gap to the proven optimum where the exact solver finishes.
3. GA and CE against RankAggreg 0.6.6: the same input lists and distance, 5 seeds each; the
   aggregation call timed inside each process (R: ``proc.time`` around ``RankAggreg()``;
   Python: ``perf_counter`` around ``aggregate()`` after one warm-up call that compiles the
   numba kernels); RankAggreg is run in the same benchmark run (``--no-r`` reads the stored
   fixture runs instead).

Writes benchmarks/results/optimisation.md.
"""

from __future__ import annotations

import argparse
import platform
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from rankfusion import RankedLists, aggregate
from rankfusion.io import read_lists

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "fixtures" / "rankaggreg"
OUT = ROOT / "benchmarks" / "results" / "optimisation.md"


# ------------------------------------------------------------------ inputs
def mallows_phi_for_fraction(p: int, frac: float) -> float:
    """φ of a Mallows model whose expected share of disagreeing pairs is ``frac``."""
    def share(phi):
        e = 0.0
        for i in range(1, p):
            j = np.arange(i + 1)
            w = phi ** j
            e += (j * w).sum() / w.sum()
        return e / (p * (p - 1) / 2)

    lo, hi = 1e-6, 1 - 1e-9
    for _ in range(60):
        mid = (lo + hi) / 2
        if share(mid) < frac:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mallows(p: int, m: int, phi: float, rng) -> list[list[int]]:
    """Repeated insertion: item i goes j places above the bottom with probability ∝ φ^j."""
    out = []
    for _ in range(m):
        i = np.arange(p)
        u = rng.random(p)
        j = np.floor(np.log1p(-u * (1 - phi ** (i + 1))) / np.log(phi)).astype(int)
        j = np.minimum(j, i)
        order: list[int] = []
        for item in range(p):
            order.insert(len(order) - j[item], item)
        out.append(order)
    return out


def uniform(p: int, m: int, rng) -> list[list[int]]:
    return [list(rng.permutation(p)) for _ in range(m)]


def as_lists(orders, p):
    return RankedLists.from_orders(orders, universe=list(range(p)))


def timed(fn, *a, **kw):
    t = time.perf_counter()
    r = fn(*a, **kw)
    return r, time.perf_counter() - t


# ------------------------------------------------------------------ 1. exact Kemeny
def bench_exact(quick: bool, seeds: int) -> list[str]:
    """Each (family, p) over ``seeds`` fresh instances: the fraction proven optimal within
    10 s, and the median time (spread) — a claim about a family, not about one instance."""
    from _timing import Timing, load_average

    lines = ["## Kemeny: exact solutions (M = 28 lists)", "",
             f"Each row: {seeds} instances drawn with seeds 0–{seeds - 1} of the family at that "
             "p; proven optimal = every Condorcet part solved by subset DP or the ILP within "
             "the 10 s limit. Seconds: median (min–max) over the instances; largest part: "
             "median (max) of the biggest strongly connected part of the majority graph; load: "
             "1-minute load average before the first and the last instance.", "",
             "| input | p | proven optimal within 10 s | seconds | largest part | "
             "part solvers | median objective / Borda objective | load |",
             "|---|---:|---:|---|---|---|---|---|"]
    families = [
        ("Mallows, 1/5 of pairs disagree", [30, 50, 100, 150, 200, 250, 300] if not quick
         else [30, 100],
         lambda p, rng: mallows(p, 28, mallows_phi_for_fraction(p, 0.2), rng)),
        ("Mallows φ = 0.9", [100, 200, 400, 800, 1600] if not quick else [100, 400],
         lambda p, rng: mallows(p, 28, 0.9, rng)),
        ("uniform random", [12, 20, 30, 40, 50, 55, 60, 65, 70] if not quick else [12, 30, 50],
         lambda p, rng: uniform(p, 28, rng)),
    ]
    summary = []
    for name, ps, gen in families:
        all_proven = None
        for p in ps:
            secs, parts, solvers, ratio, proven, loads = Timing("k"), [], set(), [], 0, []
            for seed in range(seeds):
                if seed in (0, seeds - 1):
                    loads.append(load_average())
                lists = as_lists(gen(p, np.random.default_rng([2026, p, seed])), p)
                res, sec = timed(aggregate, lists, "kemeny", time_limit=10.0)
                info = res.info
                secs.seconds.append(sec)
                parts.append(max(info["parts"]))
                solvers |= {m for m in info["part_methods"] if m != "single"}
                ratio.append(info["objective"] / max(info["borda_objective"], 1))
                proven += bool(info["optimal"] and sec <= 10)
            lines.append(
                f"| {name} | {p} | {proven}/{seeds} | {secs.cell()} | "
                f"{np.median(parts):.0f} ({max(parts)}) | {', '.join(sorted(solvers)) or 'none'}"
                f" | {np.median(ratio):.4f} | {', '.join(f'{x:.1f}' for x in loads)} |")
            print(lines[-1], flush=True)
            if proven == seeds:
                all_proven = p
        summary.append((name, all_proven))
    lines.append("")
    for name, p in summary:
        lines.append(f"- {name}: largest p with every one of the {seeds} instances proven "
                     f"optimal within 10 s: **{p if p is not None else 'none of the sizes'}** "
                     "(the fraction at each p is in the table).")
    lines.append("")
    return lines


# ------------------------------------------------------------------ 2. heuristic Kemeny
def bench_heuristic(quick: bool) -> list[str]:
    lines = ["## Kemeny: heuristic (M = 28 lists)", "",
             "Default call (`exact=True`: parts above `ilp_max` = 300, with more than 20 000 "
             "3-cycles in their majority tournament, or whose ILP exceeds 10 s go to the "
             "heuristic). Gap = (objective − lower bound) / lower bound; the lower "
             "bound is the proven optimum of the exact parts plus Σ min(d_ij, d_ji) for the "
             "others.", "",
             "| input | p | seconds | objective | vs Borda | vs Copeland | gap to lower bound |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    rng = np.random.default_rng(7)
    ps = [100, 250, 500, 1000, 2000] if not quick else [100, 500]
    for name, gen in (("uniform random", lambda p: uniform(p, 28, rng)),
                      ("Mallows φ = 0.99", lambda p: mallows(p, 28, 0.99, rng))):
        for p in ps:
            lists = as_lists(gen(p), p)
            res, sec = timed(aggregate, lists, "kemeny")
            i = res.info
            lines.append(
                f"| {name} | {p} | {sec:.2f} | {i['objective']:.0f} | "
                f"{(i['objective'] / i['borda_objective'] - 1) * 100:+.2f} % | "
                f"{(i['objective'] / i['copeland_objective'] - 1) * 100:+.2f} % | "
                f"{(i['objective'] / i['lower_bound'] - 1) * 100:.2f} % |")
            print(lines[-1], flush=True)
    lines += ["", "Heuristic alone (`exact=False`) against the proven optimum:", "",
              "| input | p | heuristic seconds | heuristic objective | optimum | gap |",
              "|---|---:|---:|---:|---:|---:|"]
    for name, p, gen in (("Mallows, 1/5 disagree", 50,
                          lambda p: mallows(p, 28, mallows_phi_for_fraction(p, 0.2), rng)),
                         ("uniform random", 40, lambda p: uniform(p, 28, rng))):
        for _ in range(3 if not quick else 1):
            lists = as_lists(gen(p), p)
            h, sec = timed(aggregate, lists, "kemeny", exact=False)
            e = aggregate(lists, "kemeny")
            opt = e.info["objective"]
            lines.append(f"| {name} | {p} | {sec:.3f} | {h.info['objective']:.0f} | "
                         f"{opt:.0f}{'' if e.info['optimal'] else ' (not proven)'} | "
                         f"{(h.info['objective'] / opt - 1) * 100:.2f} % |")
            print(lines[-1], flush=True)
    lines.append("")
    return lines


# ------------------------------------------------------------------ 3. GA / CE vs RankAggreg
def run_rankaggreg() -> pd.DataFrame:
    with tempfile.TemporaryDirectory() as tmp:
        for f in ("make_rankaggreg_fixtures.R", "topk5_lists.csv", "kendall5_lists.csv"):
            shutil.copy(FIX / f, tmp)
        subprocess.run(["Rscript", "make_rankaggreg_fixtures.R"], cwd=tmp, check=True,
                       capture_output=True)
        return pd.read_csv(Path(tmp) / "runs.csv")


def bench_topk(use_r: bool) -> list[str]:
    if use_r and shutil.which("Rscript"):
        runs, src = run_rankaggreg(), "run now"
    else:
        runs, src = pd.read_csv(FIX / "runs.csv"), "stored fixture runs"
    lines = ["## GA and CE against R RankAggreg 0.6.6", "",
             f"RankAggreg: {src}. 5 seeds each (R: 1-5, ours: 0-4); median objective "
             "(weighted mean distance, RankAggreg's `optimal.value`) and median seconds of the "
             "aggregation call timed inside each process. `topk5`: 5 top-20 lists of 100 items "
             "(Spearman, k = 20); `kendall5`: 5 top-8 lists of 30 items (Kendall, k = 8; "
             "`maxIter = 300` for the GA on both sides, because RankAggreg's Kendall distance "
             "is interpreted R). Ours by default: informed initial population + final local "
             "search (`ga`), local search (`ce`); `raw` = RankAggreg's algorithm as is "
             "(`init='random', polish=False` / `polish=False`).", "",
             "| input | method | R median objective | ours | ours raw | R median s | ours s "
             "| ours raw s | speed-up (R s / ours s) |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for (inp, method), grp in runs.groupby(["input", "method"], sort=False):
        lists = read_lists(FIX / f"{inp}_lists.csv", "orders")
        k = int(grp.k.iloc[0])
        dist = grp.distance.iloc[0].lower()
        kw = {"k": k, "distance": dist, "max_iter": int(grp.max_iter.iloc[0])}
        raw_kw = {"polish": False} | ({"init": "random"} if method == "GA" else {})
        aggregate(lists, method.lower(), random_state=99, **kw)  # warm-up: numba compile/load
        ours, ours_t, raw, raw_t = [], [], [], []
        for s in range(5):
            r, t = timed(aggregate, lists, method.lower(), random_state=s, **kw)
            ours.append(r.info["objective"])
            ours_t.append(t)
            r, t = timed(aggregate, lists, method.lower(), random_state=s, **kw, **raw_kw)
            raw.append(r.info["objective"])
            raw_t.append(t)
        r_med, r_t = float(np.median(grp.objective)), float(np.median(grp.seconds))
        lines.append(
            f"| {inp} | {method} ({dist}) | {r_med:.4g} | {np.median(ours):.4g} | "
            f"{np.median(raw):.4g} | {r_t:.3f} | {np.median(ours_t):.4f} | "
            f"{np.median(raw_t):.4f} | {r_t / np.median(ours_t):.0f}× |")
        print(lines[-1], flush=True)
    lines.append("")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer sizes")
    ap.add_argument("--no-r", action="store_true", help="use the stored RankAggreg runs")
    ap.add_argument("--seeds", type=int, default=None,
                    help="instances per (family, p) for the exact Kemeny table (default 10; "
                    "3 with --quick)")
    args = ap.parse_args()
    seeds = args.seeds or (3 if args.quick else 10)
    # compile / load the numba kernels once
    aggregate(as_lists(uniform(10, 3, np.random.default_rng(0)), 10), "kemeny", exact=False)
    head = ["# Optimisation rules: Kemeny, GA, CE", "",
            f"Machine: {platform.machine()}, {platform.python_version()}, shared 2-core host; "
            f"generated by `python benchmarks/bench_optimisation.py"
            f"{' --quick' if args.quick else ''}{' --no-r' if args.no_r else ''}`.", ""]
    lines = head + bench_exact(args.quick, seeds) + bench_heuristic(args.quick) + bench_topk(
        not args.no_r)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text("\n".join(lines) + "\n")
    print(f"written to {OUT}")


if __name__ == "__main__":
    main()
