"""Where do the rules put the relevant features? Izetta et al. (2017) Tables 4–6, measured.

On the calibrated Artificial-1-8C, -2-8C and -3-8C (``make_artificial`` defaults), for a few
seeds, with the paper's protocol: a plain random 75/25 split, one SVM-RFE list per OVO binary
problem on the training part (``rfe_lists``, C = 1, 10 % steps down to 20 features, then one
at a time), then each rule (``aggregate``: average_sd, best_rank, q3_sd, kfirst with k = 10 % of
p, copeland = the paper's "Condorcet", schulze) and the joint Average (``joint_rfe``,
criterion mean |w|, Zhou & Tuck's OVO). For each rule: the positions (1 = best) of the relevant
features, pooled over the seeds — best, first quartile, median, mean, third quartile, worst —
as the paper's Tables 4–6 (Artificial-2's relevant features in its three groups, as Table 5),
and the best position of a noise feature. The paper's numbers are printed beside ours.

3Q-SD readings: numpy's quantile methods for the 75th percentile of the relative rankings r
(``linear`` is ``q3_sd``'s definition), and the "pessimistic" reading — the 75th percentile of
the *positions*, i.e. the 25th of r — each with the SD of r (higher first) to break ties, then
the lower index.

Usage::

    # writes benchmarks/results/artificial_rules.md
    python benchmarks/artificial_rules.py [--seeds 5]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from sklearn.model_selection import train_test_split

from rankfusion import aggregate
from rankfusion.datasets import load_artificial
from rankfusion.rankers import joint_rfe, rfe_lists

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE = os.environ.get("ARTIFICIAL_RULES_CACHE", os.path.join(HERE, "results", ".cache_rules"))
RULES = ["q3_sd", "average_sd", "best_rank", "kfirst", "copeland", "schulze"]
LABEL = {"q3_sd": "3Q-SD", "average_sd": "Av-SD", "best_rank": "Best", "kfirst": "K-First",
         "copeland": "Condorcet", "schulze": "Schulze", "average": "Average (joint)"}
STATS = ["best", "Q1", "median", "mean", "Q3", "worst"]
Q_METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf",
             "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
             "hazen", "weibull", "median_unbiased", "normal_unbiased"]

# The paper's tables, relevant features: columns 3Q-SD, Av-SD, Best, K-First, Condorcet,
# Schulze; rows best, Q1, mean, Q3, worst (Izetta et al. 2017, Tables 4–6).
PAPER = {
    ("Artificial-1-8C", "relevant"): [[1] * 6, [14, 14, 12, 11, 17, 13], [70, 65, 33, 22, 79, 48],
                                      [98, 86, 41, 31, 110, 61], [436, 476, 357, 495, 474, 410]],
    ("Artificial-2-8C", "features 1–5"): [[1] * 6, [2] * 6, [22, 5, 9, 3, 15, 4],
                                          [28, 5, 17, 4, 18, 5], [481, 62, 45, 7, 85, 18]],
    ("Artificial-2-8C", "features 6–10"): [[1] * 6, [17, 7, 6, 7, 13, 6], [80, 24, 13, 8, 50, 9],
                                           [158, 30, 19, 9, 58, 11],
                                           [523, 241, 44, 14, 453, 70]],
    ("Artificial-2-8C", "features 11–25"): [[1, 2, 1, 8, 1, 4], [35, 19, 12, 14, 29, 15],
                                            [161, 87, 22, 18, 101, 65],
                                            [265, 116, 30, 22, 185, 70],
                                            [524, 500, 57, 29, 524, 501]],
    ("Artificial-3-8C", "relevant"): [[1] * 6, [11] * 6, [27, 29, 41, 26, 28, 29],
                                      [33, 37, 53, 33, 33, 37], [440, 431, 368, 250, 342, 252]],
}
PAPER_ROWS = ["best", "Q1", "mean", "Q3", "worst"]


def positions_from_keys(*keys) -> np.ndarray:
    """Positions (1 = best) of the order sorting by the keys (lower = better), then index."""
    p = keys[0].shape[0]
    order = np.lexsort((np.arange(p),) + tuple(reversed(keys)))
    pos = np.empty(p, dtype=np.int64)
    pos[order] = np.arange(1, p + 1)
    return pos


def q3_variants(lists) -> dict[str, np.ndarray]:
    r = lists.relative
    sd = r.std(axis=1)
    out = {}
    for m in Q_METHODS:
        q = np.quantile(r, 0.75, axis=1, method=m)
        out[f"3Q-SD [{m}]"] = positions_from_keys(-np.round(q, 12), -np.round(sd, 12))
    # pessimistic: 75th percentile of positions = 25th percentile of r (numpy's default)
    q = np.quantile(r, 0.25, axis=1)
    out["3Q-SD [positions, pessimistic]"] = positions_from_keys(-np.round(q, 12),
                                                                 -np.round(sd, 12))
    return out


def stats(pos: np.ndarray) -> dict[str, float]:
    return {"best": pos.min(), "Q1": np.percentile(pos, 25), "median": np.median(pos),
            "mean": pos.mean(), "Q3": np.percentile(pos, 75), "worst": pos.max()}


def groups(d) -> dict[str, np.ndarray]:
    if d.name.startswith("Artificial-2"):
        return {"features 1–5": d.relevance == 1, "features 6–10": d.relevance == 2,
                "features 11–25": d.relevance == 3}
    return {"relevant": d.relevance > 0}


def positions(name: str, s: int, d) -> tuple[dict, float]:
    """Every rule's positions for one seed (cached in ``CACHE``: a run is minutes long)."""
    path = os.path.join(CACHE, f"{name}_{s}.npz")
    if os.path.exists(path):
        z = np.load(path)
        return {k: z[k] for k in z.files if k != "_agree"}, float(z["_agree"])
    Xtr, _, ytr, _ = train_test_split(d.data, d.target, test_size=0.25, random_state=s)
    lists, _ = rfe_lists(Xtr, ytr, decomposition="ovo")
    pos = {m: np.asarray(aggregate(lists, m).ranks) for m in RULES}
    own = q3_variants(lists)["3Q-SD [linear]"]
    agree = float(np.mean(own == pos["q3_sd"]))  # our transcription vs aggregate's q3_sd
    pos["average"] = np.asarray(joint_rfe(Xtr, ytr, criterion="average").ranking)
    pos.update(q3_variants(lists))
    os.makedirs(CACHE, exist_ok=True)
    np.savez(path, _agree=agree, **pos)
    return pos, agree


def run(name: str, seeds) -> tuple[dict, dict, list]:
    pooled: dict = {}
    noise_best: dict = {}
    per_seed = []
    for s in seeds:
        t0 = time.perf_counter()
        d = load_artificial(name, random_state=s)
        pos, agree = positions(name, s, d)
        for g, mask in groups(d).items():
            for m, p in pos.items():
                pooled.setdefault((g, m), []).append(p[mask])
        for m, p in pos.items():
            noise_best.setdefault(m, []).append(p[d.relevance == 0].min())
        per_seed.append({m: p[d.relevance > 0].mean() for m, p in pos.items()})
        print(name, s, f"{time.perf_counter() - t0:.0f}s q3_sd agreement {agree:.3f}",
              {m: round(per_seed[-1][m], 1) for m in ["average"] + RULES}, flush=True)
    return ({k: stats(np.concatenate(v)) for k, v in pooled.items()},
            {m: min(v) for m, v in noise_best.items()}, per_seed)


def table(name, res, noise_best, per_seed, methods) -> str:
    out = []
    gs = list(dict.fromkeys(g for g, _ in res))  # in the order of groups()
    for g in gs:
        out.append(f"\n**{name}, {g}** (positions pooled over seeds; paper in brackets)\n")
        out.append("| statistic | " + " | ".join(LABEL.get(m, m) for m in methods) + " |")
        out.append("|---|" + "---|" * len(methods))
        paper = PAPER.get((name, g))
        for st in STATS:
            cells = []
            for m in methods:
                v = res[(g, m)][st]
                cell = f"{v:.0f}" if st not in ("mean",) else f"{v:.1f}"
                if paper is not None and m in RULES and st in PAPER_ROWS:
                    cell += f" ({paper[PAPER_ROWS.index(st)][RULES.index(m)]})"
                cells.append(cell)
            out.append(f"| {st} | " + " | ".join(cells) + " |")
    sd = [np.std([ps[m] for ps in per_seed], ddof=1) if len(per_seed) > 1 else np.nan
          for m in methods]
    out.append("| relevant mean: SD over seeds | " + " | ".join(f"{v:.1f}" for v in sd) + " |")
    out.append("| best noise position | " + " | ".join(f"{noise_best[m]}" for m in methods)
               + " |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    args = ap.parse_args()
    seeds = range(args.seeds)
    parts = ["# Rules on the calibrated artificial data (Izetta et al. 2017, Tables 4–6)\n",
             f"Generated by `benchmarks/artificial_rules.py`; seeds {list(seeds)}; load "
             f"average at start {os.getloadavg()[0]:.1f}. Lower positions are better; "
             "1 = ranked first. p = 540 (Artificial-1-8C, -3-8C) or 525 (Artificial-2-8C).\n"]
    q3 = []
    for name in ("Artificial-1-8C", "Artificial-2-8C", "Artificial-3-8C"):
        res, nb, ps = run(name, seeds)
        parts.append(f"\n## {name}\n")
        parts.append(table(name, res, nb, ps, RULES + ["average"]))
        q3.append(f"\n**{name}: readings of 3Q-SD**\n")
        q3.append(table(name, res, nb, ps, ["q3_sd"] + [m for m in nb if m.startswith("3Q")]))
    parts.append("\n## 3Q-SD readings\n")
    parts.extend(q3)
    out = os.path.join(HERE, "results", "artificial_rules.md")
    with open(out, "w") as fh:
        fh.write("\n".join(parts) + "\n")
    print("wrote", out)


if __name__ == "__main__":
    main()
