"""Robust-FS paper Tables 3 (F-measure) and 5 (robustness index) beside ours, under two
protocols.

    python experiments/robust_fs/tables.py experiments/results/robust_fs/full [--k-step]

* **nested** (the runner's ``cross_validation`` cells, folders ``k8``, ``k9``, ``k40``,
  ``k60`` and ``faithful_arrhythmia`` under the given folder): rankings and aggregations
  computed on each training part;
* **selection on all data** (computed here, written to ``all_data.csv``): each ranking and
  aggregation computed ONCE on the whole data set, then the same classifiers are
  cross-validated on the selected columns, on the same folds (same seeds) as the nested run.
  This is the protocol the paper's numbers most likely come from; it leaks the test rows into
  the selection.
* ``--parts=NAME:CONFIG,…``: the parts (sub-folders and their configurations) instead of
  ``k8, k9, k40, k60, faithful_arrhythmia`` (``--parts=smoke:smoke.toml`` for the smoke run);
* ``--k-step`` (``--k-step-parts=k8,k60``: some parts only): also the paper's Algorithm 2
  on all the data (K chosen by the five classifiers' 3-fold CV accuracy on a reduced grid of
  sizes; the 3 folds unstratified for Arrhythmia, whose rarest classes have 2 rows) and the
  5-fold CV of each classifier at that K (``kstep_<part>.csv``).

Arrhythmia has missing values: its 3-NN and AdaBoost are ``knn3_impute`` and
``adaboost_impute`` (the same classifiers behind Weka's ``ReplaceMissingValues``, fitted on
each training part); the tables put them in the KNN and AdaBoost rows (:data:`ROLE`).

Writes ``tables.md`` (paper vs nested vs all data), ``table3.csv``, ``robustness.csv`` and
``agreement.csv`` (top-K overlap of the three filters' rankings on all data) into the folder.

Table 2 (``table2.csv``, and a summary in ``tables.md``): Borda / Kemeny against each single
filter, on the nested run's accuracy per fold (mean of the five classifiers on that fold, one
paired value per fold), by two tests valid for 5 folds: the Nadeau–Bengio corrected resampled
t-test (variance × (1/J + n_test/n_train), n_test/n_train = 1/4 for 5-fold CV, J − 1 = 4
degrees of freedom; :func:`rankfusion.evaluation.paired_ttest`) and the exact two-sided
sign-flip permutation test over the J = 5 fold differences (all 2^5 sign patterns; its smallest
possible p-value is 2/32 = 0.0625). The paper's plain t-test is not used: the folds' training
parts overlap. Fig. 2 (``fig2.png``): each method's mean accuracy over the folds, one panel per
classifier.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from rankfusion import EnsembleSelector
from rankfusion.evaluation import (
    cross_validate_selection,
    make_classifier,
    paired_ttest,
    robustness_index,
)
from rankfusion.experiments import load_config
from rankfusion.experiments.cells import build_selector, load_dataset

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tables_common import (  # noqa: E402
    FixedSupport,
    all_data_cv,
    cell_folds,
    md_table,
    results_of,
    tidy_scores,
)

HERE = Path(__file__).resolve().parent
PARTS = {"k8": "full_k8.toml", "k9": "full_k9.toml", "k40": "full_k40.toml",
         "k60": "full_k60.toml", "faithful_arrhythmia": "faithful_arrhythmia.toml"}
METHODS = ["kemeny", "borda", "ig", "su", "cs"]
SINGLE = ["ig", "su", "cs"]
CLASSIFIERS = {"NB": "naive_bayes_weka", "J48": "j48", "KNN": "knn3", "AdaBoost": "adaboost",
               "Bagging": "bagging"}
#: The classifier a data set with missing values runs instead, by the role it fills.
ROLE = {"knn3_impute": "knn3", "adaboost_impute": "adaboost"}
NAMES = {"lung_cancer": "Lung Cancer (8)", "mfeat_fourier": "Mfeat-fourier (9)",
         "arrhythmia": "Arrhythmia (36)",
         "madelon": "Madelon (40)", "leukemia_3c": "Leukemia-3c (60)",
         "pomeroy_cns": "Embryonal Tumor (60)"}
# Table 3 (F-measure; Kemeny, Borda, IG, SU, CS) for the data sets we have
PAPER_F = {
    "NB": {"arrhythmia": (.67, .67, .53, .56, .54),
           "mfeat_fourier": (.79, .79, .77, .77, .77), "madelon": (.60, .60, .53, .53, .53),
           "leukemia_3c": (.99, .99, .81, .73, .79), "pomeroy_cns": (.74, .72, .62, .59, .61),
           "lung_cancer": (.45, .45, .46, .51, .40)},
    "J48": {"arrhythmia": (.65, .65, .46, .50, .48),
            "mfeat_fourier": (.76, .76, .73, .73, .73), "madelon": (.75, .75, .51, .53, .51),
            "leukemia_3c": (.89, .89, .75, .51, .68), "pomeroy_cns": (.68, .68, .73, .72, .73),
            "lung_cancer": (.48, .48, .47, .43, .42)},
    "KNN": {"arrhythmia": (.62, .60, .50, .48, .48),
            "mfeat_fourier": (.83, .83, .81, .81, .81), "madelon": (.67, .67, .50, .51, .50),
            "leukemia_3c": (.96, .96, .63, .68, .61), "pomeroy_cns": (.77, .79, .64, .63, .64),
            "lung_cancer": (.38, .38, .41, .28, .52)},
    "AdaBoost": {"arrhythmia": (.45, .45, .42, .42, .42),
                 "mfeat_fourier": (.83, .83, .81, .81, .81),
                 "madelon": (.61, .61, .54, .54, .54),
                 "leukemia_3c": (.90, .90, .71, .59, .63),
                 "pomeroy_cns": (.73, .73, .57, .56, .57),
                 "lung_cancer": (.47, .47, .47, .48, .47)},
    "Bagging": {"arrhythmia": (.71, .71, .54, .55, .53),
                "mfeat_fourier": (.79, .79, .78, .78, .78),
                "madelon": (.79, .79, .54, .54, .54),
                "leukemia_3c": (.93, .93, .73, .70, .69),
                "pomeroy_cns": (.76, .76, .62, .57, .59),
                "lung_cancer": (.44, .44, .35, .35, .33)},
}
# Table 5 (robustness index as dense ranks; Kemeny, Borda, IG, SU, CS)
PAPER_RI = {"lung_cancer": (2, 1, 3, 3, 4), "arrhythmia": (1, 2, 4, 5, 3),
            "mfeat_fourier": (2, 1, 4, 3, 3),
            "madelon": (1, 1, 2, 3, 2), "leukemia_3c": (1, 1, 2, 3, 3),
            "pomeroy_cns": (2, 1, 3, 4, 5)}
KSTEP_GRID = [1, 2, 3, 5, 8, 10, 15, 20, 30, 40, 60]


def by_role(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with the missing-value variants named by the classifier they stand for."""
    if df.empty or "classifier" not in df:
        return df
    return df.assign(classifier=df["classifier"].replace(ROLE))


def nested_results(root: Path) -> pd.DataFrame:
    frames = []
    for part in PARTS:
        if (root / part / "config.toml").exists():  # finished, or its finished cells
            frames.append(results_of(root / part))
    return by_role(pd.concat(frames, ignore_index=True)) if frames else pd.DataFrame()


def all_data(root: Path, k_step: bool = False, k_step_parts=None) -> pd.DataFrame:
    """The "selection on all data" protocol, part by part (cached in ``all_data_<part>.csv``
    and ``agreement_<part>.csv``; the K-step variant in ``kstep_<part>.csv``)."""
    frames, agrees = [], []
    for part in PARTS:
        f, a = root / f"all_data_{part}.csv", root / f"agreement_{part}.csv"
        if not f.exists():
            rows, agree = _all_data_part(part)
            pd.DataFrame(agree).to_csv(a, index=False, float_format="%.4f")
            pd.DataFrame(rows).to_csv(f, index=False, float_format="%.6f")
        frames.append(pd.read_csv(f))
        agrees.append(pd.read_csv(a))
        ks = root / f"kstep_{part}.csv"
        if k_step and not ks.exists() and (k_step_parts is None or part in k_step_parts):
            pd.DataFrame(_k_step_part(part)).to_csv(ks, index=False, float_format="%.6f")
        if ks.exists():
            frames.append(pd.read_csv(ks))
    pd.concat(agrees).to_csv(root / "agreement.csv", index=False, float_format="%.4f")
    return by_role(pd.concat(frames, ignore_index=True))


def _all_data_part(part: str):
    """The "selection on all data" protocol: one selector fit per (data set, method)."""
    rows, done = all_data_cv(HERE / PARTS[part])
    agree = []
    for ds in {d for d, _ in done}:
        sets = {m: set(np.flatnonzero(done[(ds, m)].get_support())) for m in METHODS}
        for a in METHODS:
            for b in METHODS:
                if a < b:
                    inter = len(sets[a] & sets[b])
                    agree.append({"dataset": ds, "a": a, "b": b,
                                  "k": len(sets[a]), "common": inter,
                                  "jaccard": inter / len(sets[a] | sets[b])})
    return rows, agree


def _k_step_part(part: str) -> list:
    """Algorithm 2 on all the data: K by the five classifiers' 3-fold accuracy."""
    from rankfusion.selection.ranker_specs import set_ranker_cache

    set_ranker_cache(64)  # the three filters' scores are shared by the five methods
    cfg = load_config(HERE / PARTS[part])
    out, seen = [], set()
    classifiers = list(dict.fromkeys(c.spec["classifier"] for c in cfg.cells))
    for cell in cfg.cells:
        ds, method = cell.labels["dataset"], cell.method
        if (ds, method) in seen:
            continue
        seen.add((ds, method))
        spec = cell.spec
        X, y, _ = load_dataset(spec["dataset"]["source"], spec["dataset"]["options"])
        base = build_selector(spec, cell.seed)
        p = X.shape[1]
        sel = EnsembleSelector(
            rankers=base.rankers, aggregation=base.aggregation,
            aggregation_params=base.aggregation_params, n_features_to_select="k-step",
            estimators=[make_classifier(c, random_state=cell.seed) for c in classifiers],
            cv=3, subset_cv="ranked_once", subset_grid=[k for k in KSTEP_GRID if k <= p],
            # Arrhythmia's classes of 2 rows cannot be in 3 stratified folds: plain shuffled
            # 3-fold for a configuration whose folds may lack a class (small_classes)
            stratify=not spec["protocol"]["params"].get("small_classes", False),
            random_state=cell.seed).fit(X, y)
        for clf in classifiers:
            res = cross_validate_selection(FixedSupport(sel.get_support()), X, y,
                                           classifier=clf,
                                           cv=cell_folds(spec["protocol"]["params"], cell.seed),
                                           scoring=("accuracy", "error", "f1"),
                                           random_state=cell.seed)
            out += tidy_scores(res.scores, dataset=ds, method=method, classifier=clf,
                               protocol="all_data_kstep", k=int(sel.n_features_))
    return out


def f_table(df: pd.DataFrame, col: str) -> pd.DataFrame:
    f = df[df.metric == "f1"].groupby(["classifier", "dataset", "method"])["value"].mean()
    return f.rename(col)


def robustness(df: pd.DataFrame, label: str) -> pd.DataFrame:
    out = []
    err = df[df.metric == "error"].groupby(["dataset", "classifier", "method"])["value"].mean()
    for ds in err.index.get_level_values(0).unique():
        table = err.loc[ds].unstack("method")
        if not set(METHODS) <= set(table.columns):
            continue  # an unfinished data set
        table = table[METHODS].dropna()
        r = robustness_index(table)
        out.append(pd.DataFrame({"dataset": ds, "method": METHODS, "protocol": label,
                                 "index": r.index[METHODS].to_numpy(),
                                 "rank": r.rank[METHODS].to_numpy()}))
    return pd.concat(out, ignore_index=True)


def verdict(df: pd.DataFrame, label: str) -> pd.DataFrame:
    """Per data set × classifier: Borda / Kemeny F minus the best single filter's F."""
    f = df[df.metric == "f1"].groupby(["dataset", "classifier", "method"])["value"].mean()
    f = f.unstack("method").dropna()
    best = f[SINGLE].max(axis=1)
    return pd.DataFrame({"protocol": label, "borda_minus_best_single": f["borda"] - best,
                         "kemeny_minus_best_single": f["kemeny"] - best,
                         "borda_minus_mean_single": f["borda"] - f[SINGLE].mean(axis=1)})


def sign_flip_p(d) -> float:
    """Exact two-sided sign-flip permutation p-value of the mean of the paired differences
    ``d``: the share of the 2^J sign patterns whose |mean| is at least the observed one."""
    d = np.asarray(d, dtype=float)
    signs = np.array(np.meshgrid(*[[-1.0, 1.0]] * d.size)).reshape(d.size, -1).T
    stats = np.abs(signs @ d) / d.size
    return float(np.mean(stats >= abs(d.mean()) - 1e-12))


def table2(nested: pd.DataFrame, folds: int = 5) -> pd.DataFrame:
    """Borda / Kemeny minus each single filter: mean accuracy difference over the folds (each
    fold's accuracy averaged over the five classifiers), corrected t-test and exact sign-flip
    p-values (two-sided)."""
    acc = nested[nested.metric == "accuracy"]
    per_fold = acc.groupby(["dataset", "method", "split"])["value"].mean().unstack("method")
    rows = []
    for ds, g in per_fold.groupby(level="dataset", sort=False):
        for agg in ("borda", "kemeny"):
            for single in SINGLE:
                a, b = g[agg].to_numpy(), g[single].to_numpy()
                t = paired_ttest(a, b, corrected=True, n_train=folds - 1, n_test=1)
                rows.append({"dataset": ds, "aggregation": agg, "single": single,
                             "folds": len(a), "mean_diff": float(np.mean(a - b)),
                             "p_corrected_t": t.pvalue, "p_sign_flip": sign_flip_p(a - b)})
    return pd.DataFrame(rows)


def table2_md(t2: pd.DataFrame) -> list[str]:
    rows = []
    for ds, g in t2.groupby("dataset", sort=False):
        row = {"data set (t-test)": NAMES[ds]}
        for _, r in g.iterrows():
            row[f"{r.aggregation} − {r.single}"] = (f"{r.mean_diff:+.3f} ({r.p_corrected_t:.3f}, "
                                                   f"{r.p_sign_flip:.3f})")
        rows.append(row)
    return ["#### Table 2: aggregation minus single filter, accuracy (mean over the folds of the "
            "five classifiers' mean; each cell: mean difference (corrected t-test p, exact "
            "sign-flip p), two-sided)", "",
            md_table(pd.DataFrame(rows).set_index("data set (t-test)"), "{:.3f}"), ""]


def binary_confusion(nested: pd.DataFrame, dataset: str, n_per_fold) -> pd.DataFrame:
    """Per-fold confusion counts of a binary data set rebuilt from the stored accuracy A,
    precision Pr and recall R of the positive (minority) class on a fold of n rows: its
    positives P = n(1 − A) / (1 + R(1/Pr − 2)) (exact integers when TP > 0; a fold's P is the
    same for every cell, so folds with TP = 0 take it from the others), TP = R·P,
    FP = TP(1/Pr − 1), FN = P − TP, TN = n − P − FP."""
    d = nested[nested.dataset == dataset]
    w = d.pivot_table(index=["classifier", "method", "split"], columns="metric",
                      values="value").reset_index()
    w["n"] = w["split"].map(n_per_fold)
    with np.errstate(divide="ignore", invalid="ignore"):
        pos = w.n * (1 - w.accuracy) / (1 + w.recall * (1 / w.precision - 2))
    known = pos[np.isfinite(pos) & (w.recall > 0)].round()
    per_split = known.groupby(w.loc[known.index, "split"]).agg(["min", "max"])
    assert (per_split["min"] == per_split["max"]).all(), per_split  # one P per fold
    w["P"] = w["split"].map(per_split["min"])
    w["TP"] = (w.recall * w.P).round()
    w["FP"] = np.where(w.TP > 0, (w.TP * (1 / w.precision - 1)).round(), 0.0)
    w["TN"] = (w.accuracy * w.n).round() - w.TP
    w["FP"] = w.n - w.P - w.TN  # (equal to the line above where TP > 0)
    w["FN"] = w.P - w.TP
    return w


def weighted_f(conf: pd.DataFrame) -> pd.DataFrame:
    """Weka's weighted-average F-measure: each class's F weighted by its number of rows, from
    the confusion counts pooled over the folds (Weka's cross-validation pools its folds),
    beside the minority-class F on the same pooled counts and the mean of the per-fold
    minority-class F (our Table 3's)."""
    g = conf.groupby(["classifier", "method"])
    tot = g[["TP", "FP", "TN", "FN", "P", "n"]].sum()
    f_pos = 2 * tot.TP / (2 * tot.TP + tot.FP + tot.FN)
    f_neg = 2 * tot.TN / (2 * tot.TN + tot.FN + tot.FP)
    neg = tot.n - tot.P
    return pd.DataFrame({"weighted_f": (tot.P * f_pos + neg * f_neg) / tot.n,
                         "minority_f_pooled": f_pos,
                         "minority_f_fold_mean": g["f1"].mean()}).reset_index()


def plot_fig2(nested: pd.DataFrame, path: Path) -> None:
    """Fig. 2: mean accuracy over the folds of each method, data sets on the x axis, one
    panel per classifier."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    acc = nested[nested.metric == "accuracy"].groupby(
        ["classifier", "dataset", "method"])["value"].mean()
    dss = list(dict.fromkeys(nested.dataset))
    fig, axes = plt.subplots(1, len(CLASSIFIERS), figsize=(3.3 * len(CLASSIFIERS), 3.6),
                             sharey=True, squeeze=False)
    x = np.arange(len(dss))
    w = 0.16
    for ax, (short, clf) in zip(axes[0], CLASSIFIERS.items()):
        for i, m in enumerate(METHODS):
            vals = [acc.get((clf, ds, m), np.nan) for ds in dss]
            ax.bar(x + (i - 2) * w, vals, w, label=m)
        ax.set_title(short)
        ax.set_xticks(x)
        ax.set_xticklabels([NAMES[d].split(" (")[0] for d in dss], rotation=40, ha="right",
                           fontsize=7)
    axes[0][0].set_ylabel("mean accuracy over the 5 folds")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="center right", fontsize=8)
    fig.tight_layout(rect=(0, 0, 0.94, 1))
    fig.savefig(path, dpi=90)
    plt.close(fig)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print(__doc__)
        return 2
    root = Path(argv[0])
    global PARTS
    given = next((a.split("=", 1)[1] for a in argv if a.startswith("--parts=")), None)
    if given:  # e.g. --parts=smoke:smoke.toml (the smoke run)
        PARTS = dict(item.split(":", 1) for item in given.split(","))
    nested = nested_results(root)
    if "--nested-only" in argv:
        PARTS = {p: f for p, f in PARTS.items()
                 if (root / f"all_data_{p}.csv").exists()}
    parts = next((a.split("=", 1)[1].split(",") for a in argv
                  if a.startswith("--k-step-parts=")), None)
    alld = all_data(root, k_step="--k-step" in argv, k_step_parts=parts)
    kstep = alld[alld.protocol == "all_data_kstep"]
    alld = alld[alld.protocol == "all_data"]
    parts = []
    for short, clf in CLASSIFIERS.items():
        for ds, vals in PAPER_F[short].items():
            for m, v in zip(METHODS, vals):
                parts.append({"classifier": clf, "dataset": ds, "method": m, "paper": v})
    table = pd.DataFrame(parts).set_index(["classifier", "dataset", "method"])
    if not nested.empty:
        table = table.join(f_table(nested, "nested"))
    table = table.join(f_table(alld, "all_data"))
    if not kstep.empty:
        table = table.join(f_table(kstep, "all_data_kstep"))
    table.to_csv(root / "table3.csv", float_format="%.4f")
    wide = table.unstack("method")
    md = ["#### Table 3: F-measure (paper | nested | selection on all data)", ""]
    for clf in CLASSIFIERS.values():
        sub = wide.loc[clf]
        rows = []
        for ds in sub.index:
            row = {"dataset": NAMES[ds]}
            for m in METHODS:
                vals = [sub.loc[ds, (c, m)] if (c, m) in sub.columns else np.nan
                        for c in ("paper", "nested", "all_data")]
                row[m] = " / ".join("–" if pd.isna(v) else f"{v:.2f}" for v in vals)
            rows.append(row)
        md += [f"**{clf}** (each cell: paper / nested / all data)", "",
               md_table(pd.DataFrame(rows).set_index("dataset"), "{:.3f}"), ""]
    ri = [robustness(alld, "all_data")]
    if not nested.empty:
        ri.insert(0, robustness(nested, "nested"))
    ri = pd.concat(ri, ignore_index=True)
    ri.to_csv(root / "robustness.csv", index=False, float_format="%.4f")
    rrows = []
    for ds, paper in PAPER_RI.items():
        for label in ("nested", "all_data"):
            g = ri[(ri.dataset == ds) & (ri.protocol == label)]
            if g.empty:
                continue
            rk = dict(zip(g.method, g["rank"]))
            ix = dict(zip(g.method, g["index"]))
            rrows.append({"dataset": NAMES[ds], "protocol": label,
                          **{m: f"{paper[i]} / {rk[m]} ({ix[m]:.1f})"
                             for i, m in enumerate(METHODS)}})
    md += ["#### Table 5: robustness index (paper rank / our rank (mean rank over the five "
           "classifiers, from the mean CV error))", "",
           md_table(pd.DataFrame(rrows).set_index("dataset"), "{:.3f}"), ""]
    v = [verdict(alld, "all_data")]
    if not nested.empty:
        v.insert(0, verdict(nested, "nested"))
    v = pd.concat(v)
    v.to_csv(root / "verdict.csv", float_format="%.4f")
    summ = v.groupby("protocol").agg(
        borda_mean_gain=("borda_minus_best_single", "mean"),
        borda_cells_better=("borda_minus_best_single", lambda s: int((s > 1e-9).sum())),
        kemeny_mean_gain=("kemeny_minus_best_single", "mean"),
        kemeny_cells_better=("kemeny_minus_best_single", lambda s: int((s > 1e-9).sum())),
        cells=("borda_minus_best_single", "size"),
        borda_vs_mean_single=("borda_minus_mean_single", "mean"))
    md += ["#### Aggregation vs the best single filter (F-measure, data sets × classifiers)",
           "", md_table(summ, "{:.4f}"), ""]
    agree = pd.read_csv(root / "agreement.csv")
    ag = agree.pivot_table(index="dataset", columns=["a", "b"], values="common")
    ag.columns = [f"{a}∩{b}" for a, b in ag.columns]
    ag.insert(0, "K", agree.groupby("dataset")["k"].first())
    md += ["#### Overlap of the selected top-K sets on all the data (features in common)", "",
           md_table(ag.rename(index=NAMES), "{:.0f}"), ""]
    if not kstep.empty:
        ks = kstep.groupby(["dataset", "method"])["k"].first().unstack("method")[METHODS]
        md += ["#### K chosen by K-step on all the data (paper: the number in brackets)", "",
               md_table(ks.rename(index=NAMES), "{:.0f}"), ""]
    if not nested.empty:
        t2 = table2(nested)
        t2.to_csv(root / "table2.csv", index=False, float_format="%.6f")
        md += table2_md(t2)
        plot_fig2(nested, root / "fig2.png")
        if "pomeroy_cns" in set(nested.dataset):  # binary: Weka's weighted F beside ours
            sizes = nested[nested.dataset == "pomeroy_cns"]
            n_rows = 60  # Pomeroy dataset C: 60 samples (5 folds of 12)
            folds = sorted(sizes.split.unique())
            base, extra = divmod(n_rows, len(folds))
            n_per_fold = {f: base + (i < extra) for i, f in enumerate(folds)}
            wf = weighted_f(binary_confusion(nested, "pomeroy_cns", n_per_fold))
            wf.to_csv(root / "weighted_f.csv", index=False, float_format="%.4f")
            rows = []
            for clf in CLASSIFIERS.values():
                g = wf[wf.classifier == clf].set_index("method")
                rows.append({"classifier (Embryonal F)": clf,
                             **{m: f"{g.loc[m, 'weighted_f']:.2f} / "
                                   f"{g.loc[m, 'minority_f_fold_mean']:.2f}" for m in METHODS}})
            md += ["#### Embryonal Tumor, nested: Weka's weighted-average F (pooled over the "
                   "folds) / our minority-class F (mean over the folds)", "",
                   md_table(pd.DataFrame(rows).set_index("classifier (Embryonal F)"), "{:.3f}"),
                   ""]
    (root / "tables.md").write_text("\n".join(md))
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
