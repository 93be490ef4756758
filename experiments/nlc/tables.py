"""The NLC paper's Tables 3 and 4 from the runner's results.

    python experiments/nlc/tables.py full     # or: smoke; --out DIR (default
                                              # experiments/results/nlc/<mode>)

Table 3: mean 10-fold CV accuracy of C4.5 (j48), 1-NN (knn1_weka) and naive Bayes
(naive_bayes_weka) on all the features ("all") and on the learning-curve subsets of NLC, ReliefF
(RLF) and IG. Table 4: the first three features of each ranking. Symbols beside NLC, as the
paper: ◦ NLC significantly better, • significantly worse (two-sided paired t-test over the same
10 folds, 95 %), in the order of the compared columns (Table 3: all, RLF, IG; Table 4: RLF, IG).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from rankfusion.evaluation import paired_ttest
from rankfusion.experiments import load_config, read_results
from rankfusion.experiments.store import assemble, cell_status

ROOT = Path(__file__).resolve().parents[2]
CLASSIFIERS = {"j48": "C4.5", "knn1_weka": "1NN", "naive_bayes_weka": "NB"}
# the paper's Tables 3 and 4 (rows of the sets we have): per classifier (C4.5, 1NN, NB)
# Table 3: all, NLC, RLF, IG; Table 4: all, NLC, RLF, IG (the "all" column repeats Table 3's)
PAPER3 = {
    "german_credit": ((71.1, 73.8, 70.5, 74.5), (72.4, 69.7, 70.8, 71.0), (74.8, 75.5, 73.4, 74.7)),
    "pima": ((76.7, 75.1, 75.9, 75.5), (70.9, 68.2, 66.7, 68.5), (76.2, 75.6, 75.8, 76.5)),
    "glass": ((69.2, 70.1, 71.0, 67.3), (70.5, 71.9, 75.1, 74.2), (45.8, 56.6, 47.7, 51.0)),
    "ionosphere": ((88.6, 89.7, 92.6, 91.2), (86.6, 87.2, 91.4, 89.2), (83.2, 84.6, 89.7, 87.2)),
    "iris": ((94.0, 92.7, 94.0, 92.7), (95.3, 93.3, 93.3, 93.3), (95.3, 92.7, 94.0, 92.7)),
    "segment": ((97.0, 96.9, 96.8, 96.9), (97.0, 97.1, 97.1, 97.1), (80.0, 87.2, 87.2, 87.2)),
    "sonar": ((72.6, 73.5, 75.0, 72.2), (85.5, 84.6, 81.3, 87.5), (67.8, 73.5, 74.9, 73.5)),
    "splice": ((94.4, 94.0, 94.0, 94.2), (73.9, 90.0, 90.0, 90.0), (95.3, 96.1, 96.3, 95.8)),
    "vehicle": ((73.5, 72.6, 72.7, 73.7), (70.1, 70.7, 71.2, 69.3), (44.3, 44.3, 48.5, 44.3)),
    "vowel": ((82.9, 81.7, 82.7, 81.0), (99.4, 99.2, 99.0, 99.2), (66.1, 68.7, 69.2, 69.1)),
    "zoo": ((93.1, 94.1, 93.1, 92.1), (96.0, 97.0, 95.0, 95.0), (95.0, 95.0, 91.0, 92.1)),
}
PAPER4 = {
    "german_credit": ((70.9, 71.5, 72.2), (61.2, 70.6, 70.6), (71.6, 71.3, 73.9)),
    "pima": ((74.6, 74.7, 75.1), (69.8, 66.7, 69.3), (77.1, 76.4, 76.8)),
    "glass": ((71.9, 67.7, 65.4), (66.3, 66.3, 64.5), (53.8, 45.8, 49.1)),
    "ionosphere": ((80.4, 88.3, 90.0), (84.3, 85.7, 88.6), (78.3, 83.5, 86.6)),
    "iris": ((94.0, 94.0, 94.0), (95.3, 95.3, 95.3), (95.3, 95.3, 95.3)),
    "segment": ((90.5, 85.6, 85.5), (91.8, 85.3, 88.5), (77.0, 72.5, 64.3)),
    "sonar": ((68.8, 70.2, 70.7), (73.1, 66.8, 70.2), (73.1, 70.6, 70.6)),
    "splice": ((80.5, 81.4, 80.8), (80.2, 81.2, 80.6), (79.6, 81.1, 80.7)),
    "vehicle": ((53.5, 62.4, 61.4), (53.7, 56.0, 57.7), (40.4, 42.8, 40.8)),
    "vowel": ((69.1, 70.6, 72.1), (79.6, 80.1, 82.8), (57.9, 56.0, 58.7)),
    "zoo": ((84.2, 72.3, 85.2), (83.2, 71.3, 87.2), (84.2, 71.3, 84.2)),
}


def results_of(config: Path, run: Path) -> tuple[pd.DataFrame, int, int]:
    """The run's tidy results; for an unfinished run, those of its finished cells (assembled
    from ``cells/`` exactly as the runner would). Returns (results, done, planned)."""
    cfg = load_config(config)
    if (run / "results.parquet").exists():
        return read_results(run)[0], len(cfg.cells), len(cfg.cells)
    status = cell_status(run, cfg.cells)
    done = [c for c in cfg.cells if status[c.hash] == "done"]
    return assemble(run, done)[0], len(done), len(cfg.cells)


def _folds(res):
    acc = res[res.metric == "accuracy"]
    return {k: g.sort_values("split")["value"].to_numpy()
            for k, g in acc.groupby(["dataset", "classifier", "method"])}


def _sym(a, b):
    r = paired_ttest(a, b)
    if r.pvalue >= 0.05:
        return ""
    return "◦" if a.mean() > b.mean() else "•"


def build(folds, nlc, others, all_col: bool):
    rows = []
    for (ds, clf) in sorted({(d, c) for d, c, _ in folds}):
        if (ds, clf, nlc) not in folds:
            continue
        a = folds[ds, clf, nlc]
        row = {"dataset": ds, "classifier": CLASSIFIERS[clf]}
        if all_col:
            row["all"] = 100 * folds[ds, clf, "all"].mean()
        row["NLC"] = 100 * a.mean()
        marks = []
        for lab, m in others:
            if (ds, clf, m) in folds:
                row[lab] = 100 * folds[ds, clf, m].mean()
                marks.append(_sym(a, folds[ds, clf, m]) or "·")
        row["sig"] = "".join(marks)
        rows.append(row)
    return pd.DataFrame(rows)


def kept(run: Path, config: Path) -> pd.DataFrame:
    """Share of the features the learning curve kept, per set, classifier and ranker: the mean
    over the 10 folds of (features selected in the fold) / p, from the ``selected`` subsets the
    cell files record (cells written before the runner recorded them are left out)."""
    import json

    from rankfusion.experiments.store import cell_path

    rows = []
    for c in load_config(config).cells:
        path = cell_path(run, c.hash)
        ranker = {"nlc": "NLC", "rlf": "RLF", "ig": "IG"}.get(c.labels["selector"])
        if ranker is None or not path.exists():  # "all" and the top-3 selectors: no curve
            continue
        pay = json.loads(path.read_text("utf-8"))["payload"]
        if "selected" not in pay:
            continue
        n = np.array([len(s) for s in pay["selected"]], dtype=float)
        rows.append({"dataset": c.labels["dataset"],
                     "classifier": CLASSIFIERS[c.labels["classifier"]],
                     "ranker": ranker,
                     "p": len(pay["features"]),
                     "kept": 100 * float(np.mean(n)) / len(pay["features"])})
    if not rows:
        return pd.DataFrame(columns=["dataset", "classifier", "p", "NLC", "RLF", "IG"])
    t = pd.DataFrame(rows).pivot_table(index=["dataset", "classifier", "p"], columns="ranker",
                                       values="kept").reset_index()
    return t[["dataset", "classifier", "p"] + [c for c in ("NLC", "RLF", "IG") if c in t]]


def kept_markdown(k: pd.DataFrame) -> str:
    if k.empty:
        return ""
    out = ["### Share of the features kept by the learning curve\n\n"
           "Mean over the 10 folds of the size the inner 3-fold CV chose, as % of p (the "
           "paper, §5: \"all the methods are between 50 % and 60 % of the original "
           "features\").\n\n| data | clf | p | NLC % | RLF % | IG % |\n|---|---|---|---|---|---|\n"]
    for r in k.itertuples(index=False):
        out.append(f"| {r.dataset} | {r.classifier} | {r.p} | "
                   + " | ".join(f"{getattr(r, c, np.nan):.1f}" for c in ("NLC", "RLF", "IG"))
                   + " |\n")
    m = k[["NLC", "RLF", "IG"]].mean()
    n = k[["NLC", "RLF", "IG"]].notna().sum()
    out.append(f"\n{len(k)} rows ({k.dataset.nunique()} sets × classifiers; nan: a cell whose "
               "file does not record the subsets). Mean of each column over its rows: "
               + ", ".join(f"{c} {m[c]:.1f} % ({n[c]} rows)" for c in ("NLC", "RLF", "IG"))
               + ".\n\n")
    return "".join(out)


def markdown(t3, t4) -> str:
    out = []
    for title, t, paper, cols in (
            ("Table 3 — learning-curve subsets", t3, PAPER3, ["all", "NLC", "RLF", "IG"]),
            ("Table 4 — first three features", t4, PAPER4, ["NLC", "RLF", "IG"])):
        if t.empty:
            continue
        out.append(f"### {title}\n\nPaper / ours; `sig`: NLC vs "
                   + ", ".join(c for c in cols if c != "NLC")
                   + " (◦ NLC better, • worse, · no significant difference; paired t, 95 %)."
                   "\n\n| data | clf | " + " | ".join(f"{c} paper | {c} ours" for c in cols)
                   + " | sig ours |\n|" + "---|" * (2 * len(cols) + 3) + "\n")
        ci = {"C4.5": 0, "1NN": 1, "NB": 2}
        for _, r in t.iterrows():
            pp = paper.get(r.dataset)
            pv = pp[ci[r.classifier]] if pp else (np.nan,) * len(cols)
            pv = pv if len(pv) == len(cols) else pv  # Table 4 paper rows have no "all"
            cells = []
            for j, c in enumerate(cols):
                cells.append(f"{pv[j]:.1f} | {r.get(c, np.nan):.1f}")
            out.append(f"| {r.dataset} | {r.classifier} | " + " | ".join(cells)
                       + f" | {r.sig} |\n")
        # the paper's summary counts: vs no reduction, and vs the other two rankers
        groups = ([("all features", [s[:1] for s in t.sig]), ("RLF and IG", [s[1:] for s in t.sig])]
                  if "all" in cols else [("RLF and IG", list(t.sig))])
        for what, sigs in groups:
            n_b = sum(s.count("◦") for s in sigs)
            n_w = sum(s.count("•") for s in sigs)
            n_e = sum(s.count("·") for s in sigs)
            out.append(f"\nNLC vs {what}: better {n_b}, equal {n_e}, worse {n_w}.\n")
        out.append("\n")
    return "".join(out)


def main(mode: str, out=None) -> None:
    out = Path(out) if out else ROOT / "experiments" / "results" / "nlc" / mode
    res, done, planned = results_of(ROOT / "experiments" / "nlc" / f"{mode}.toml", out / "run")
    print(f"run: {done} of {planned} cells")
    parts = [res]
    if (out / "top3").exists():  # full: Table 4 on all eleven sets
        top3, done, planned = results_of(ROOT / "experiments" / "nlc" / "top3.toml", out / "top3")
        print(f"top3: {done} of {planned} cells")
        parts = [parts[0][~parts[0].method.isin(top3.method.unique())], top3]
    folds = _folds(pd.concat(parts, ignore_index=True))
    folds3, k = folds, kept(out / "run", ROOT / "experiments" / "nlc" / f"{mode}.toml")
    faithful = out / "faithful_table3"
    if (faithful / "config.toml").exists():  # full: Table 3 on every set it has run
        cfg3 = ROOT / "experiments" / "nlc" / "faithful_table3.toml"
        res3, done, planned = results_of(cfg3, faithful)
        print(f"faithful_table3: {done} of {planned} cells")
        folds3, k = _folds(res3), kept(faithful, cfg3)
    t3 = build(folds3, "nlc", (("all", "all"), ("RLF", "rlf"), ("IG", "ig")), True)
    t4 = build(folds, "nlc3", (("RLF", "rlf3"), ("IG", "ig3")), False)
    t3.to_csv(out / "table3.csv", index=False, float_format="%.4f")
    t4.to_csv(out / "table4.csv", index=False, float_format="%.4f")
    k.to_csv(out / "kept.csv", index=False, float_format="%.4f")
    md = markdown(t3, t4)
    at = md.find("### Table 4")
    (out / "tables.md").write_text(md[:at] + kept_markdown(k) + md[at:] if at >= 0 else
                                   md + kept_markdown(k))
    print((out / "tables.md").read_text())


if __name__ == "__main__":
    _args = sys.argv[1:]
    _out = _args[_args.index("--out") + 1] if "--out" in _args else None
    _modes = [a for i, a in enumerate(_args) if not a.startswith("--")
              and (i == 0 or _args[i - 1] != "--out")]
    main(_modes[0] if _modes else "full", _out)
