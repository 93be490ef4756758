"""Bouaguel et al. (2013) Tables 2, 4 and 5 beside ours, from a finished runner folder.

    python experiments/bouaguel/tables.py experiments/results/bouaguel/full [--all-data]

Writes ``tables.md`` and ``tables.csv`` (means over the CV folds) into the folder, and prints
the markdown. ``--all-data`` adds the clearly-labelled "selection on all data" variant (each
ranking and aggregation computed once on all the rows, then the same classifiers
cross-validated on the selected columns with the same folds; cached in ``all_data.csv``,
claims in ``claims_all_data.csv``), to test whether the paper's numbers come from it.
A stopped run's finished cells are read as well (``read_results(..., partial=True)``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tables_common import all_data_cv, md_table, results_of  # noqa: E402

METRICS = ["precision", "recall", "f1", "roc_auc"]
ROWS = ["Relief", "Inf Gain", "Correlation", "Mean Aggreg", "GA(Kendall)", "GA(Spearman)"]
# ours: paper row -> our method(s); the GA rows have an unweighted and an accuracy-weighted run
OURS = {"Relief": ["relief"], "Inf Gain": ["ig"], "Correlation": ["cfs"],
        "Mean Aggreg": ["agg+mean"],
        "GA(Kendall)": ["agg+ga_kendall", "agg_acc+ga_kendall"],
        "GA(Spearman)": ["agg+ga_spearman", "agg_acc+ga_spearman"]}
CLASSIFIERS = {"DT": "j48", "SVM": "smo", "KNN": "knn1_weka"}
SINGLE = ["relief", "ig", "cfs"]
AGGREGATES = ["agg+mean", "agg+ga_kendall", "agg+ga_spearman", "agg_acc+ga_kendall",
              "agg_acc+ga_spearman"]

# The paper's Tables 2 (German), 4 (Leukemia), 5 (CNS): precision, recall, F-measure, ROC area.
_P = {
    "german_credit": {
        "DT": [(.709, .73, .707, .706), (.705, .727, .703, .717), (.695, .717, .697, .715),
               (.768, .861, .812, .696), (.773, .883, .824, .709), (.773, .883, .824, .709)],
        "SVM": [(.747, .757, .749, .685), (.746, .756, .748, .684), (.673, .709, .659, .564),
                (.782, .884, .83, .654), (.771, .883, .823, .635), (.771, .883, .823, .635)],
        "KNN": [(.698, .707, .701, .691), (.693, .694, .694, .678), (.701, .712, .705, .714),
                (.775, .777, .776, .687), (.771, .797, .784, .683), (.771, .797, .784, .683)]},
    "golub": {
        "DT": [(.933, .894, .913, .865), (.913, .894, .903, .871), (.933, .894, .913, .865),
               (.951, .83, .886, .866), (.955, .894, .923, .899), (.952, .851, .899, .878)],
        "SVM": [(.972, .972, .972, .969), (.93, .931, .93, .919), (.958, .958, .958, .949),
                (.972, .972, .972, .969), (.986, .986, .986, .98), (.972, .972, .972, .969)],
        "KNN": [(.944, .944, .944, .936), (.92, .917, .917, .92), (.93, .931, .93, .911),
                (.973, .972, .972, .951), (.973, .972, .972, .951), (.958, .958, .958, .938)]},
    "pomeroy_cns": {
        "DT": [(.600, .538, .568, .399), (.674, .744, .707, .535), (.676, .641, .658, .512),
               (.73, .692, .711, .589), (.795, .795, .795, .74), (.821, .821, .821, .749)],
        "SVM": [(.632, .615, .623, .474), (.737, .718, .727, .621), (.700, .718, .709, .573),
                (.825, .846, .835, .756), (.805, .846, .825, .733), (.875, .897, .886, .83)],
        "KNN": [(.659, .692, .675, .513), (.727, .615, .667, .593), (.677, .538, .600, .531),
                (.837, .923, .878, .795), (.787, .949, .86, .736), (.841, .949, .892, .808)]},
}
TITLES = {"german_credit": "Table 2: German credit", "golub": "Table 4: Leukemia (Golub)",
          "pomeroy_cns": "Table 5: Central Nervous System (Pomeroy)"}


def paper_table() -> pd.DataFrame:
    rows = []
    for ds, blocks in _P.items():
        for clf, vals in blocks.items():
            for row, v in zip(ROWS, vals):
                rows.append({"dataset": ds, "classifier": clf, "row": row,
                             **dict(zip(METRICS, v))})
    return pd.DataFrame(rows)


def our_means(results: pd.DataFrame) -> pd.DataFrame:
    df = results[results["metric"].isin(METRICS + ["accuracy"])]
    return (df.groupby(["dataset", "classifier", "method", "metric"])["value"].mean()
            .unstack("metric").reset_index())


def claims(results: pd.DataFrame) -> pd.DataFrame:
    """Per dataset × classifier × metric: best single filter vs each aggregation (fold means),
    and how many of the 10 folds the aggregation wins / ties / loses against that filter."""
    out = []
    df = results[results["metric"].isin(["f1", "roc_auc", "accuracy"])]
    for (ds, clf, metric), g in df.groupby(["dataset", "classifier", "metric"]):
        w = g.pivot_table(index="split", columns="method", values="value")
        if not set(SINGLE) <= set(w.columns):
            continue
        best = w[SINGLE].mean().idxmax()
        for m in AGGREGATES:
            if m not in w.columns:
                continue
            d = (w[m] - w[best]).to_numpy()
            out.append({"dataset": ds, "classifier": clf, "metric": metric,
                        "aggregation": m, "best_single": best,
                        "best_single_mean": w[best].mean(), "aggregation_mean": w[m].mean(),
                        "diff": d.mean(), "wins": int((d > 1e-12).sum()),
                        "ties": int((np.abs(d) <= 1e-12).sum()),
                        "losses": int((d < -1e-12).sum())})
    return pd.DataFrame(out)


def markdown(ours: pd.DataFrame) -> str:
    paper = paper_table()
    lines = []
    for ds, title in TITLES.items():
        if ds not in set(ours["dataset"]):
            continue
        lines += [f"#### {title}", "",
                  "| classifier | method | P paper | P ours | R paper | R ours | F paper | "
                  "F ours | AUC paper | AUC ours |", "|---|---|---|---|---|---|---|---|---|---|"]
        for short, clf in CLASSIFIERS.items():
            for row in ROWS:
                p = paper[(paper.dataset == ds) & (paper.classifier == short)
                          & (paper.row == row)].iloc[0]
                for j, m in enumerate(OURS[row]):
                    o = ours[(ours.dataset == ds) & (ours.classifier == clf)
                             & (ours.method == m)]
                    if o.empty:
                        continue
                    o = o.iloc[0]
                    name = row if len(OURS[row]) == 1 else (
                        f"{row} unweighted" if j == 0 else f"{row} acc-weighted")
                    cells = []
                    for met in METRICS:
                        pv = f"{p[met]:.3f}" if j == 0 else "〃"
                        cells += [pv, f"{o[met]:.3f}"]
                    lines.append(f"| {short} | {name} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def _claims_summary(c: pd.DataFrame) -> pd.DataFrame:
    summ = (c.groupby(["metric", "aggregation"])[["diff", "wins", "ties", "losses"]]
            .agg({"diff": "mean", "wins": "sum", "ties": "sum", "losses": "sum"}))
    beats = (c.assign(better=c["diff"] > 0).groupby(["metric", "aggregation"])["better"]
             .agg(["sum", "count"]))
    return summ.join(beats).rename(columns={"sum": "cells better", "count": "cells"})


def all_data_section(out: Path, nested: pd.DataFrame) -> str:
    """The "selection on all data" variant beside the nested means (F-measure and AUC)."""
    f = out / "all_data.csv"
    if not f.exists():
        rows, _ = all_data_cv(out / "config.toml")
        pd.DataFrame(rows).to_csv(f, index=False, float_format="%.6f")
    alld = pd.read_csv(f)
    a = our_means(alld)
    both = nested.merge(a, on=["dataset", "classifier", "method"], suffixes=("", "_all"))
    md = ["", "#### Selection on all data (leaky) beside the nested protocol (F, AUC; fold "
          "means)", "", "| dataset | classifier | method | F nested | F all data | AUC nested "
          "| AUC all data |", "|---|---|---|---|---|---|---|"]
    for r in both.itertuples(index=False):
        md.append(f"| {r.dataset} | {r.classifier} | {r.method} | {r.f1:.3f} | "
                  f"{r.f1_all:.3f} | {r.roc_auc:.3f} | {r.roc_auc_all:.3f} |")
    c = claims(alld)
    c.to_csv(out / "claims_all_data.csv", index=False, float_format="%.4f")
    md += ["", "#### Selection on all data: aggregation vs the best single filter", "",
           md_table(_claims_summary(c)), ""]
    return "\n".join(md)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    flags = [a for a in argv if a.startswith("--")]
    argv = [a for a in argv if not a.startswith("--")]
    if len(argv) != 1 or set(flags) - {"--all-data"}:
        print(__doc__)
        return 2
    out = Path(argv[0])
    results = results_of(out)  # an unfinished run: its finished cells
    ours = our_means(results)
    ours.to_csv(out / "tables.csv", index=False, float_format="%.4f")
    c = claims(results)
    c.to_csv(out / "claims.csv", index=False, float_format="%.4f")
    md = markdown(ours)
    if not c.empty:
        md += ("\n#### Aggregation vs the best single filter (fold-paired, all datasets × "
               "classifiers)\n\n" + md_table(_claims_summary(c)) + "\n")
    if "--all-data" in flags:
        md += all_data_section(out, ours)
    (out / "tables.md").write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
