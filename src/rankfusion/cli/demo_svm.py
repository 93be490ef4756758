"""The headline demo: multiclass SVM-RFE with list combination on real data (Izetta et al. 2017).

:func:`run_demo` runs one-vs-one SVM-RFE on the bundled St. Jude leukemia data (Monti et al.
2003; 248 samples × 985 genes, 6 classes → 15 binary problems), combines the 15 rankings with
K-First and Schulze, runs the usual baseline (one joint RFE on the mean |w| over the 15
problems, Izetta's "Average"), and prints the top genes of each side by side with how much they
agree and the time taken.
"""

from __future__ import annotations

import sys
import time

import numpy as np
import pandas as pd

__all__ = ["run_demo"]


def _overlap(a, b, n) -> int:
    return len(set(a[:n]) & set(b[:n]))


def run_demo(*, top: int = 15, standardize: bool = True, n_jobs: int | None = None,
             C: float = 1.0, k: float = 0.1, progress: bool = True, file=None) -> dict:
    """Run OVO SVM-RFE on the St. Jude leukemia data and compare K-First, Schulze and Average.

    Parameters
    ----------
    top : int
        How many top genes to print and compare.
    standardize : bool
        z-score every gene first (default; SVMs on raw intensities spend their time on
        ill-conditioned duals).
    n_jobs : int, optional
        Binary problems in parallel.
    C : float
        The SVM's C.
    k : int or float
        K-First's k (default 10 % of the genes, the paper's choice).
    progress : bool
        Show tqdm progress bars (on stderr).
    file : text stream, optional
        Where to print (default stdout).

    Returns
    -------
    dict
        ``table`` (the side-by-side top genes), ``rankings`` (method → positions),
        ``overlap`` (pair → shared genes in the top ``top``), ``footrule``, ``seconds``.
    """
    from tqdm.auto import tqdm

    from ..aggregation import aggregate
    from ..datasets import load_stjude_leukemia
    from ..distances import spearman_footrule
    from ..io import standardize as zscore
    from ..rankers import joint_rfe, rfe_lists, rfe_schedule

    out = sys.stdout if file is None else file

    def say(*a):
        print(*a, file=out)

    t_start = time.perf_counter()
    data = load_stjude_leukemia()
    X, y, names = data.data, data.target, list(data.feature_names)
    top = max(1, min(int(top), X.shape[1]))
    if standardize:
        X = zscore(X)
    classes, counts = np.unique(y, return_counts=True)
    say("rankfusion demo: multiclass SVM-RFE with list combination (Izetta et al. 2017)")
    say(f"data: St. Jude pediatric leukemia (Yeoh et al. 2002; Monti et al. 2003), "
        f"{X.shape[0]} samples × {X.shape[1]} genes, {len(classes)} classes"
        f"{' (genes z-scored)' if standardize else ''}")
    say("       " + ", ".join(f"{c} {n}" for c, n in zip(classes, counts)))
    n_problems = len(classes) * (len(classes) - 1) // 2
    say(f"SVM-RFE (linear SVM, C={C:g}; remove 10 % per iteration down to 20 genes, then one "
        f"at a time) on each of the {n_problems} one-vs-one problems …")

    t0 = time.perf_counter()
    bar = tqdm(total=n_problems, desc="OVO SVM-RFE", unit="problem", disable=not progress,
               file=sys.stderr, leave=False)
    lists, _ = rfe_lists(X, y, decomposition="ovo", C=C, n_jobs=n_jobs, feature_names=names,
                         progress=lambda r: bar.update(1))
    bar.close()
    t_lists = time.perf_counter() - t0

    t0 = time.perf_counter()
    kf = aggregate(lists, "kfirst", k=k)
    sch = aggregate(lists, "schulze")
    t_agg = time.perf_counter() - t0

    t0 = time.perf_counter()
    chunks = rfe_schedule(X.shape[1])
    bar = tqdm(total=int(chunks.sum()), desc="joint Average RFE", unit="gene",
               disable=not progress, file=sys.stderr, leave=False)
    avg = joint_rfe(X, y, criterion="average", C=C, progress=bar.update)
    bar.close()
    t_avg = time.perf_counter() - t0

    rankings = {"K-First": kf.ranks, "Schulze": sch.ranks, "Average": avg.ranking}
    tops = {m: [names[i] for i in np.argsort(r, kind="stable")[:top]]
            for m, r in rankings.items()}
    table = pd.DataFrame(tops, index=pd.RangeIndex(1, top + 1, name="rank"))
    say("")
    say(f"top {top} genes (K-First k = {kf.params['k']} of {X.shape[1]}; Schulze; Average = "
        "one joint RFE on mean |w| over the 15 problems)")
    with pd.option_context("display.width", 200):
        say(table.to_string())
    say("")
    pairs = [("K-First", "Schulze"), ("K-First", "Average"), ("Schulze", "Average")]
    overlap = {f"{a} ∩ {b}": _overlap(tops[a], tops[b], top) for a, b in pairs}
    orders = {m: np.argsort(r, kind="stable").tolist() for m, r in rankings.items()}
    foot = {f"{a} ~ {b}": spearman_footrule(orders[a], orders[b], normalize=True)
            for a, b in pairs}
    say(f"agreement: genes shared by the two top-{top} lists, and the normalised Spearman "
        "footrule of the full rankings (0 = same order)")
    for (a, b) in pairs:
        say(f"  {a:>7} vs {b:<7}  {overlap[f'{a} ∩ {b}']:>2}/{top} shared   "
            f"footrule {foot[f'{a} ~ {b}']:.3f}")
    total = time.perf_counter() - t_start
    say("")
    say(f"time: {n_problems} OVO rankings {t_lists:.2f} s, K-First + Schulze {t_agg:.2f} s, "
        f"joint Average RFE {t_avg:.2f} s; total {total:.2f} s")
    return {"table": table, "rankings": rankings, "overlap": overlap, "footrule": foot,
            "seconds": {"lists": t_lists, "aggregation": t_agg, "average": t_avg,
                        "total": total}}
