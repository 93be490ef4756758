"""Izetta et al. (2017), Figure 7: run time against the number of features and of samples.

On Artificial-1-4C (``make_artificial``: 20 relevant features, ``n_noise`` noise features), the
OVO SVM-RFE lists are computed once per size (C = 1, 10 % steps to 20 features, warm starts),
then each rule combines them; the joint Average (Zhou OVO) is a separate RFE. Reported: the
median of ``--repeats`` runs of each part (seconds), and the log-log slope of each method's
total time (lists + rule; Average alone) against p or n — the paper's claim is "almost linear"
(slope ≈ 1) for every rule except Schulze (cubic in p), and linear in n for all of them.
The machine is shared: the load average is recorded; read ratios and slopes, not seconds.

Usage::

    python experiments/izetta/timing.py [--repeats 3]
    # writes experiments/results/izetta/full/fig7_timing.{md,csv,png}
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import pandas as pd

from rankfusion import aggregate
from rankfusion.datasets import load_artificial
from rankfusion.rankers import joint_rfe, rfe_lists

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "results", "izetta", "full"))
RULES = {"3Q-SD": ("q3_sd", {}), "Av-SD": ("average_sd", {}), "Best": ("best_rank", {}),
         "K-First": ("kfirst", {"k": 0.1}), "Condorcet": ("copeland", {}),
         "Schulze": ("schulze", {})}
P_NOISE = [30, 80, 180, 380, 780]      # p = 50, 100, 200, 400, 800 at n = 400
N_SAMPLES = [200, 400, 800, 1600]      # at p = 100


def one(n, n_noise, repeats):
    d = load_artificial("Artificial-1-4C", random_state=0, n_samples=n, n_noise=n_noise)
    X, y = d.data, d.target
    rows = []
    t_lists, t_avg = [], []
    for _ in range(repeats):
        t = time.perf_counter()
        lists, _ = rfe_lists(X, y, decomposition="ovo", warm_start=True)
        t_lists.append(time.perf_counter() - t)
        t = time.perf_counter()
        joint_rfe(X, y, criterion="average", warm_start=True)
        t_avg.append(time.perf_counter() - t)
    tl = float(np.median(t_lists))
    rows.append({"method": "Zhou OVO (Average)", "n": n, "p": X.shape[1], "lists": 0.0,
                 "rule": float(np.median(t_avg))})
    for lab, (rule, params) in RULES.items():
        ts = []
        for _ in range(repeats):
            t = time.perf_counter()
            aggregate(lists, rule, **params)
            ts.append(time.perf_counter() - t)
        rows.append({"method": lab, "n": n, "p": X.shape[1], "lists": tl,
                     "rule": float(np.median(ts))})
    return rows


def slope(x, y):
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    load0 = os.getloadavg()[0]
    rows = []
    for nn in P_NOISE:
        rows += [dict(r, axis="p") for r in one(400, nn, args.repeats)]
    for n in N_SAMPLES:
        rows += [dict(r, axis="n") for r in one(n, 80, args.repeats)]
    df = pd.DataFrame(rows)
    df["total"] = df["lists"] + df["rule"]
    os.makedirs(OUT, exist_ok=True)
    df.to_csv(os.path.join(OUT, "fig7_timing.csv"), index=False, float_format="%.5f")
    lines = ["# Izetta et al. (2017), Figure 7: run time (seconds, median of "
             f"{args.repeats}) on Artificial-1-4C\n",
             f"Load average {load0:.1f} at start, {os.getloadavg()[0]:.1f} at end (2 cores). "
             "`lists` = the OVO SVM-RFE lists (shared by the six rules), `rule` = the "
             "combination alone; the joint Average is its own RFE.\n"]
    for axis, var in (("p", "p"), ("n", "n")):
        sub = df[df.axis == axis]
        piv = sub.pivot_table(index="method", columns=var, values="total")
        rp = sub.pivot_table(index="method", columns=var, values="rule")
        lines.append(f"\n**Total time against {var}** ({'n = 400' if axis == 'p' else 'p = 100'};"
                     " last columns: log-log slope of the total and of the rule alone)\n")
        cols = list(piv.columns)
        lines.append("| method | " + " | ".join(f"{var}={c}" for c in cols)
                     + " | slope total | slope rule |")
        lines.append("|---|" + "---|" * (len(cols) + 2))
        for m in piv.index:
            vals = piv.loc[m].to_numpy()
            s_rule = slope(cols, rp.loc[m].to_numpy())
            lines.append(f"| {m} | " + " | ".join(f"{v:.3f}" for v in vals)
                         + f" | {slope(cols, vals):.2f} | {s_rule:.2f} |")
    open(os.path.join(OUT, "fig7_timing.md"), "w").write("\n".join(lines) + "\n")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for ax, axis in zip(axes, ("p", "n")):
        sub = df[df.axis == axis]
        for m, g in sub.groupby("method"):
            ax.plot(g[axis], g["total"], marker="o", ms=3, label=m)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("features" if axis == "p" else "samples")
        ax.set_ylabel("time (s)")
        ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(os.path.join(OUT, "fig7_timing.png"), dpi=80)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
