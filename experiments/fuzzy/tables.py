"""The fuzzy paper's Tables III–IV and Figs 2–4 from the runner's results and public APIs.

    python experiments/fuzzy/tables.py full     # or: smoke
    python experiments/fuzzy/tables.py full --stability-only   # Table IV, Fig. 4 alone
    python experiments/fuzzy/tables.py full --table4-only      # Table IV alone
    python experiments/fuzzy/tables.py full --fig4-only --fractions 0.9,0.7,0.5,0.3 --repeats 2
    python experiments/fuzzy/tables.py full --L 20             # another number of bootstraps

Options: ``--L N`` bootstrap samples (full: 100, as the paper), ``--fractions a,b,…`` and
``--repeats R`` for Fig. 4 (full: 0.9 … 0.3 and 5 repeats, as the paper), ``--out DIR`` where
the tables go (default ``experiments/results/fuzzy/<mode>``). The settings used are written to
``stability_settings.json`` beside Table IV / Fig. 4.

Table III: the highest mean accuracy over the feature counts of each method (the runner's
error curves, ``experiments/fuzzy/<mode>.toml``). Table IV: ASD (eq. 14) and APC (eq. 15) of
each method's feature scores over the K = 5 training parts of a stratified 5-fold CV (§IV-C).
Figs 2–3 (``fig2.png`` NB, ``fig3.png`` RF, data in ``figs23.csv``): the mean accuracy over
the 5 folds at every feature count of the paper's stratified 5-fold CV
(``faithful_table3.toml``); ``fig2_reduced.png``, ``fig3_reduced.png``, ``figs23_reduced.csv``:
the same from the reduced run (``<mode>.toml``, random splits; the smoke run has only these).
Fig. 4: Pearson's correlation between the scores on all the data and on a random fraction p of
it, mean of 5 repeats
(§IV-D, :func:`rankfusion.stability.reduced_size_correlation`).

Single methods: the ranker's raw scores on the data it is given. Fuzzy EW/RW/OW/MW:
:func:`rankfusion.aggregate_fuzzy` over L bootstrap samples (63.2 % of the rows, with
replacement) of CFS, ILFS, ReliefF and MIFS — the same bootstrap lists feed all four weightings.
"""

from __future__ import annotations

import hashlib
import json
import sys
import textwrap
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from sklearn.model_selection import StratifiedKFold  # noqa: E402

from rankfusion import aggregate_fuzzy  # noqa: E402
from rankfusion.datasets import load  # noqa: E402
from rankfusion.experiments import load_config, read_results  # noqa: E402
from rankfusion.experiments.store import assemble, cell_status  # noqa: E402
from rankfusion.rankers import get_ranker  # noqa: E402
from rankfusion.stability import apc, asd, reduced_size_correlation  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SINGLE = ("cfs", "ilfs", "relieff", "mifs")
FUZZY = ("EW", "RW", "OW", "MW")
METHODS = SINGLE + FUZZY
SETTINGS = {
    "full": {"datasets": ("pima", "wbc", "parkinsons"), "L": 100,  # the paper's
             "fractions": (0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3), "repeats": 5},
    # the committed Fig. 4 ran with these settings (0.9 … 0.3, 5 repeats, L = 100)
    "smoke": {"datasets": ("wbc",), "L": 3, "fractions": (0.7, 0.4), "repeats": 2},
}
PAPER_III = {  # Table III of the paper
    ("pima", "NB"): (0.7527, 0.7566, 0.7618, 0.7605, 0.7566, 0.7618, 0.7618, 0.7566),
    ("pima", "RF"): (0.7669, 0.7748, 0.7735, 0.7669, 0.7669, 0.7695, 0.7669, 0.7669),
    ("wbc", "NB"): (0.9634, 0.9634, 0.9649, 0.9634, 0.9634, 0.9634, 0.9634, 0.9649),
    ("wbc", "RF"): (0.9722, 0.9722, 0.9708, 0.9708, 0.9737, 0.9708, 0.9678, 0.9751),
    ("parkinsons", "NB"): (0.7585, 0.8152, 0.8151, 0.8201, 0.8303, 0.8249, 0.8303, 0.8253),
    ("parkinsons", "RF"): (0.9178, 0.9132, 0.9234, 0.9232, 0.9232, 0.9283, 0.9182, 0.9181),
}
PAPER_IV = {
    ("ASD", "pima"): (0.1878, 0.1248, 0.0543, 0.0541, 0.0397, 0.0434, 0.0393, 0.0443),
    ("ASD", "wbc"): (0.0873, 0.0358, 0.0615, 0.0453, 0.0288, 0.0447, 0.0293, 0.0315),
    ("ASD", "parkinsons"): (0.2098, 0.0533, 0.0609, 0.1157, 0.0336, 0.0430, 0.0341, 0.0383),
    ("APC", "pima"): (0.6593, 0.8442, 0.9807, 0.9583, 0.9573, 0.9696, 0.9638, 0.9482),
    ("APC", "wbc"): (0.9391, 0.9784, 0.9523, 0.9829, 0.9875, 0.9655, 0.9873, 0.9846),
    ("APC", "parkinsons"): (0.6031, 0.8307, 0.8607, 0.9111, 0.9418, 0.9614, 0.9453, 0.9377),
}
SEED = 20190101


def results_of(config: Path, run: Path) -> tuple[pd.DataFrame, int, int]:
    """The run's tidy results; for an unfinished run, those of its finished cells (assembled
    from ``cells/`` exactly as the runner would). Returns (results, done, planned)."""
    cfg = load_config(config)
    if (run / "results.parquet").exists():
        return read_results(run)[0], len(cfg.cells), len(cfg.cells)
    status = cell_status(run, cfg.cells)
    done = [c for c in cfg.cells if status[c.hash] == "done"]
    return assemble(run, done)[0], len(done), len(cfg.cells)


def _data(name):
    b = load(name, as_frame=True, dropna=True)
    return b.data.to_numpy(dtype=float), np.asarray(b.target)


class Scorer:
    """All eight methods' scores on one data set (bootstrap lists computed once, memoised)."""

    def __init__(self, L: int):
        self.L = L
        self.cache: dict[str, dict[str, np.ndarray]] = {}

    def scores(self, X, y) -> dict[str, np.ndarray]:
        key = hashlib.sha256(np.ascontiguousarray(X).tobytes() + np.asarray(y).astype(str)
                             .tobytes()).hexdigest()
        if key in self.cache:
            return self.cache[key]
        out = {m: np.asarray(get_ranker(m)(X, y), dtype=float) for m in SINGLE}
        rng = np.random.default_rng(np.random.SeedSequence([SEED, int(key[:8], 16)]))
        n, p = X.shape
        m = max(1, int(np.floor(0.632 * n + 0.5)))
        boot = np.empty((p, len(SINGLE), self.L))
        for b in range(self.L):
            idx = rng.choice(n, size=m, replace=True)
            for j, name in enumerate(SINGLE):
                boot[:, j, b] = get_ranker(name)(X[idx], y[idx])
        for w in FUZZY:
            out[w] = np.asarray(aggregate_fuzzy(boot, w).scores, dtype=float)
        self.cache[key] = out
        return out


def table3(run: Path, config: Path) -> pd.DataFrame:
    res, done, planned = results_of(config, run)
    print(f"Table III from {done} of {planned} cells")
    res = res[res.metric == "error"]
    acc = (1 - res.groupby(["dataset", "classifier", "method", "n_features"])["value"].mean())
    best = acc.groupby(["dataset", "classifier", "method"]).max().rename("accuracy").reset_index()
    best["method"] = best["method"].str.replace("fuzzy+", "", regex=False)
    best["classifier"] = best["classifier"].map({"naive_bayes": "NB", "random_forest": "RF"})
    return best


def stability_tables(datasets, L):
    """ASD / APC over the training parts of a stratified 5-fold CV."""
    scorer = Scorer(L)
    rows = []
    for ds in datasets:
        X, y = _data(ds)
        folds = StratifiedKFold(5, shuffle=True, random_state=SEED).split(X, y)
        runs = {m: [] for m in METHODS}
        for train, _ in folds:
            sc = scorer.scores(X[train], y[train])
            for m in METHODS:
                runs[m].append(sc[m])
        for m in METHODS:
            R = np.vstack(runs[m])
            # the paper's scores: single methods min–max normalised (§III-A step 3), fuzzy
            # c_i as defuzzified (already in [0, 1]); "ASD (minmax)" normalises every run.
            rows.append({"dataset": ds, "method": m,
                         "ASD": asd(R, normalize=m in SINGLE), "ASD (minmax)": asd(R),
                         "APC": apc(R)})
    return pd.DataFrame(rows), scorer


def fig4(datasets, L, fractions, repeats, scorer, partial: Path | None = None):
    """Mean Pearson r per (dataset, p, method). With ``partial``, each finished (dataset, p)
    is appended to that CSV and the ones already there are skipped (an interrupted run
    resumes)."""
    done = pd.read_csv(partial) if partial is not None and partial.exists() else None
    rows = [] if done is None else done.to_dict("records")
    for ds in datasets:
        X, y = _data(ds)
        for f in fractions:
            if done is not None and ((done.dataset == ds) & np.isclose(done.p, f)).any():
                continue
            for m in METHODS:
                r = reduced_size_correlation(lambda A, b, m=m: scorer.scores(A, b)[m], X, y,
                                             fraction=f, n_repeats=repeats,
                                             random_state=SEED, stratify=False)
                rows.append({"dataset": ds, "p": f, "method": m, "mean": r.mean, "sd": r.sd})
            if partial is not None:
                pd.DataFrame(rows).to_csv(partial, index=False, float_format="%.6f")
    return pd.DataFrame(rows)


def _mark(values, higher=True):
    v = np.asarray(values, dtype=float)
    order = np.unique(np.round(v[~np.isnan(v)], 4))
    order = order[::-1] if higher else order
    out = []
    for x in v:
        s = f"{x:.4f}"
        if len(order) and np.round(x, 4) == order[0]:
            s += "*"
        elif len(order) > 1 and np.round(x, 4) == order[1]:
            s += "′"
        out.append(s)
    return out


def markdown(t3, t4, f4, mode, L, t3_other=None, L_other=None, repeats=5, t3_cv=None) -> str:
    head = "| | " + " | ".join(METHODS) + " |\n|" + "---|" * (len(METHODS) + 1) + "\n"
    lines = [f"### Table III — highest mean accuracy over feature counts ({mode})\n",
             f"Paper row first, ours (`rf`, L = {L}, 5 random 80/20 splits) below"
             + ("" if t3_other is None else f", then ours with L = {L_other} (`rf L{L_other}`)")
             + ("" if t3_cv is None else f", then ours by stratified 5-fold CV, the paper's "
                f"protocol (`cv5`, L = {L}, faithful_table3.toml)")
             + "; * best, ′ second best; nan = cell not run.\n", head]
    for (ds, clf), g in t3.groupby(["dataset", "classifier"], sort=False):
        ours = g.set_index("method").reindex(METHODS)["accuracy"].to_numpy()
        if (ds, clf) in PAPER_III:
            lines.append(f"| {ds} {clf} paper | " + " | ".join(_mark(PAPER_III[ds, clf]))
                         + " |\n")
        lines.append(f"| {ds} {clf} rf | " + " | ".join(_mark(ours)) + " |\n")
        if t3_other is not None:
            o = t3_other[(t3_other.dataset == ds) & (t3_other.classifier == clf)]
            o = o.set_index("method").reindex(METHODS)["accuracy"].to_numpy()
            lines.append(f"| {ds} {clf} rf L{L_other} | " + " | ".join(_mark(o)) + " |\n")
        if t3_cv is not None:
            o = t3_cv[(t3_cv.dataset == ds) & (t3_cv.classifier == clf)]
            o = o.set_index("method").reindex(METHODS)["accuracy"].to_numpy()
            lines.append(f"| {ds} {clf} cv5 | " + " | ".join(_mark(o)) + " |\n")
    lines += [f"\n### Table IV — stability over the 5 CV training parts (L = {L})\n\n", head]
    for idx, higher in (("ASD", False), ("ASD (minmax)", False), ("APC", True)):
        avg = []
        for ds, g in t4.groupby("dataset", sort=False):
            ours = g.set_index("method").reindex(METHODS)[idx].to_numpy()
            avg.append(ours)
            if (idx, ds) in PAPER_IV:
                lines.append(f"| {idx} {ds} paper | " + " | ".join(_mark(PAPER_IV[idx, ds],
                                                                        higher)) + " |\n")
            lines.append(f"| {idx} {ds} rf | " + " | ".join(_mark(ours, higher)) + " |\n")
        lines.append(f"| {idx} average rf | " + " | ".join(_mark(np.mean(avg, axis=0), higher))
                     + " |\n")
    if f4 is None:
        return "".join(lines) + "\n(Fig. 4 not computed.)\n"
    lines.append(f"\n### Fig. 4 — reduced-size stability (mean Pearson r of {repeats} repeats, "
                 f"L = {L})\n\n")
    piv = f4.pivot_table(index=["dataset", "p"], columns="method", values="mean")[list(METHODS)]
    lines.append("| dataset | p | " + " | ".join(METHODS) + " |\n|" + "---|" * (len(METHODS) + 2)
                 + "\n")
    for (ds, p), r in piv.iterrows():
        lines.append(f"| {ds} | {p:.1f} | " + " | ".join(f"{x:.3f}" for x in r) + " |\n")
    return "".join(lines)


def plot_fig4(f4, path):
    dss = list(dict.fromkeys(f4.dataset))
    fig, axes = plt.subplots(1, len(dss), figsize=(4.2 * len(dss), 3.4), squeeze=False)
    for ax, ds in zip(axes[0], dss):
        g = f4[f4.dataset == ds]
        for m in METHODS:
            h = g[g.method == m].sort_values("p", ascending=False)
            ax.plot(h.p, h["mean"], marker="o" if m in FUZZY else "s",
                    ls="-" if m in FUZZY else "--", label=m, ms=3)
        ax.set_title(ds)
        ax.set_xlabel("p (fraction of samples)")
        ax.invert_xaxis()
    axes[0][0].set_ylabel("mean Pearson r with p = 1")
    axes[0][-1].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def curves(run: Path, config: Path) -> pd.DataFrame:
    """Figs 2–3's curves: mean accuracy (1 − mean ``error`` over the splits) of each method at
    each feature count, per data set and classifier (NB: Fig. 2, RF: Fig. 3)."""
    res, _, _ = results_of(config, run)
    res = res[res.metric == "error"]
    acc = 1 - res.groupby(["dataset", "classifier", "method", "n_features"])["value"].mean()
    acc = acc.rename("accuracy").reset_index()
    acc["method"] = acc["method"].str.replace("fuzzy+", "", regex=False)
    acc["classifier"] = acc["classifier"].map({"naive_bayes": "NB", "random_forest": "RF"})
    return acc


#: How each method is drawn in Figs 2–3: label, colour, line style, marker, marker size. The
#: single methods dashed with hollow squares, the fuzzy weightings solid with filled circles
#: of decreasing size, so that weightings whose curves coincide (they often pick the same
#: features) stay visible as concentric markers.
STYLE = {
    "cfs": ("CFS", "#1f77b4", "--", "s", 5), "ilfs": ("ILFS", "#2ca02c", "--", "s", 5),
    "relieff": ("ReliefF", "#9467bd", "--", "s", 5), "mifs": ("MIFS", "#8c564b", "--", "s", 5),
    "EW": ("fuzzy EW", "#d62728", "-", "o", 9), "RW": ("fuzzy RW", "#ff7f0e", "-", "o", 7),
    "OW": ("fuzzy OW", "#e377c2", "-", "o", 5), "MW": ("fuzzy MW", "#17becf", "-", "o", 3),
}
TITLES = {"pima": "PIMA", "wbc": "WBC", "parkinsons": "Parkinsons"}
CLASSIFIER_NAMES = {"NB": "Gaussian naive Bayes", "RF": "random forest"}


#: The caption of Figs 2–3, under the legend.
CAPTION = ("Each curve: the method's ranking (fitted on each training part) cut at x features, "
           "the classifier tested on the held-out part, accuracy averaged over the splits. "
           "Read x = 1 for the paper's one-feature claim and each curve's highest point for "
           "Table III; curves that coincide show as concentric markers (the single methods' "
           "hollow squares on top).")


def _count_ticks(ax, counts) -> None:
    """A tick at every feature count of the curve; a label at each when they are few, else
    at 1, every 5th and the last."""
    counts = sorted(int(c) for c in counts)
    ax.set_xticks(counts)
    few = len(counts) <= 10
    ax.set_xticklabels([str(c) if few or c in (1, counts[-1]) or c % 5 == 0 else ""
                        for c in counts])
    ax.set_xlim(counts[0] - 0.5, counts[-1] + 0.5)


def plot_figs23(acc: pd.DataFrame, out: Path, *, protocol: str, splits: str,
                suffix: str = "", datasets=("pima", "wbc", "parkinsons")) -> list[Path]:
    """Fig. 2 (NB) and Fig. 3 (RF): one panel per data set, mean accuracy over the splits
    against the number of top-ranked features kept, the four fuzzy weightings solid with
    filled circles, the single methods dashed with hollow squares (:data:`STYLE`), one legend
    below the panels and a caption saying how to read them. ``protocol`` names the splits
    in the title, ``splits`` in the y label ("the 5 folds"); written to ``fig2{suffix}.png``
    and ``fig3{suffix}.png``."""
    paths = []
    for name, clf in (("fig2", "NB"), ("fig3", "RF")):
        a = acc[acc.classifier == clf]
        if a.empty:  # a classifier the run does not have (the smoke run)
            continue
        dss = [d for d in datasets if d in set(a.dataset)] + sorted(
            set(a.dataset) - set(datasets))
        width = max(4.6 * len(dss), 7.0)  # one panel (the smoke run) keeps room for the text
        ncol = len(METHODS) if width >= 9 else len(METHODS) // 2
        title = textwrap.wrap(f"Fig. {name[-1]} ({CLASSIFIER_NAMES[clf]}): mean accuracy "
                              f"against the number of features kept, {protocol}",
                              int(width * 11))
        caption = textwrap.wrap(CAPTION, int(width * 15))
        top = 0.12 + 0.18 * len(title)  # inches above the panels, below them:
        bottom = 0.12 + 0.22 * (len(METHODS) // ncol) + 0.13 * len(caption)
        height = 3.5 + top + bottom
        fig, axes = plt.subplots(1, len(dss), figsize=(width, height), squeeze=False)
        for ax, ds in zip(axes[0], dss):
            g = a[a.dataset == ds]
            for m in METHODS:
                h = g[g.method == m].sort_values("n_features")
                if h.empty:
                    continue
                label, colour, ls, marker, ms = STYLE[m]
                single = m in SINGLE
                ax.plot(h.n_features, h.accuracy, ls=ls, color=colour, lw=1.1 if single else 1.4,
                        marker=marker, ms=ms, label=label, zorder=4 if single else 3,
                        mfc="white" if single else colour, mec=colour)
            _count_ticks(ax, g.n_features.unique())
            ax.set_title(f"{TITLES.get(ds, ds)} ({int(g.n_features.max())} features)")
            ax.set_xlabel("number of top-ranked features kept")
            ax.grid(alpha=0.3, lw=0.5)
        axes[0][0].set_ylabel(f"mean accuracy over {splits}")
        handles, labels = axes[0][0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=ncol, fontsize=8, frameon=False,
                   bbox_to_anchor=(0.5, (0.08 + 0.13 * len(caption)) / height))
        fig.suptitle("\n".join(title), fontsize=10, y=1 - 0.06 / height, va="top")
        fig.text(0.5, 0.06 / height, "\n".join(caption), ha="center", va="bottom",
                 fontsize=7.5)
        fig.tight_layout(rect=(0, bottom / height, 1, 1))  # room for the suptitle included
        path = out / f"{name}{suffix}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)
    return paths


def figs23(out: Path, run: Path, config: Path) -> pd.DataFrame:
    """Figs 2–3 from one run: ``fig2.png``, ``fig3.png`` and ``figs23.csv`` when its curve
    protocol is the paper's stratified 5-fold CV (``splits = "kfold"``), else the same names
    with ``_reduced`` (random splits: the stated reduction), so a file name always says which
    protocol it shows."""
    curve = load_config(config).cells[0].protocol["params"]  # with the runner's defaults
    k = int(curve["n_splits"])
    if curve.get("splits") == "kfold":
        suffix, protocol, splits = "", f"stratified {k}-fold CV", f"the {k} folds"
    else:
        share = round(100 * float(curve["test_size"]))
        suffix = "_reduced"
        protocol = f"{k} stratified random {100 - share}/{share} splits (reduced run)"
        splits = f"the {k} splits"
    acc = curves(run, config)
    acc.to_csv(out / f"figs23{suffix}.csv", index=False, float_format="%.6f")
    plot_figs23(acc, out, protocol=protocol, splits=splits, suffix=suffix)
    return acc


def _options(argv):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", nargs="?", default="full", choices=sorted(SETTINGS))
    ap.add_argument("--L", type=int, default=None)
    ap.add_argument("--fractions", default=None)
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--out", default=None)
    ap.add_argument("--table4-only", action="store_true")
    ap.add_argument("--fig4-only", action="store_true")
    ap.add_argument("--stability-only", action="store_true")
    return ap.parse_args(argv)


def _record(out: Path, part: str, settings: dict, seconds: float) -> None:
    path = out / "stability_settings.json"
    rec = json.loads(path.read_text()) if path.exists() else {}
    rec[part] = {**settings, "seconds": round(seconds, 1),
                 "load_average_end": [round(x, 2) for x in __import__("os").getloadavg()]}
    path.write_text(json.dumps(rec, indent=1))


def main(argv=None) -> None:
    a = _options(sys.argv[1:] if argv is None else argv)
    mode = a.mode
    s = dict(SETTINGS[mode])
    if a.L is not None:
        s["L"] = a.L
    if a.fractions is not None:
        s["fractions"] = tuple(float(f) for f in a.fractions.split(","))
    if a.repeats is not None:
        s["repeats"] = a.repeats
    out = Path(a.out) if a.out else ROOT / "experiments" / "results" / "fuzzy" / mode
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    if a.table4_only:
        t4, _ = stability_tables(s["datasets"], s["L"])
        t4.to_csv(out / "table4.csv", index=False, float_format="%.6f")
        _record(out, "table4", {"L": s["L"], "folds": 5}, time.perf_counter() - t0)
        return
    if a.fig4_only:
        f4 = fig4(s["datasets"], s["L"], s["fractions"], s["repeats"], Scorer(s["L"]),
                  partial=out / "fig4.csv")
        f4.to_csv(out / "fig4.csv", index=False, float_format="%.6f")
        _record(out, "fig4", {"L": s["L"], "fractions": list(s["fractions"]),
                              "repeats": s["repeats"]}, time.perf_counter() - t0)
        return
    if a.stability_only or not (out / "table4.csv").exists():
        # Table IV and Fig. 4 do not need the runner's results (computed once, then reused)
        t4, scorer = stability_tables(s["datasets"], s["L"])
        f4 = fig4(s["datasets"], s["L"], s["fractions"], s["repeats"], scorer)
        t4.to_csv(out / "table4.csv", index=False, float_format="%.6f")
        f4.to_csv(out / "fig4.csv", index=False, float_format="%.6f")
        (out / "stability_timing.json").write_text(json.dumps(
            {"seconds": time.perf_counter() - t0}, indent=1))
        if a.stability_only:
            return
    t4 = pd.read_csv(out / "table4.csv")
    f4 = pd.read_csv(out / "fig4.csv") if (out / "fig4.csv").exists() else None
    t3 = table3(out / "run", ROOT / "experiments" / "fuzzy" / f"{mode}.toml")
    t3.to_csv(out / "table3.csv", index=False, float_format="%.6f")
    figs23(out, out / "run", ROOT / "experiments" / "fuzzy" / f"{mode}.toml")  # *_reduced
    t3_20 = None
    if mode == "full" and (out / "run_L20").exists():  # the first full run, L = 20
        t3_20 = table3(out / "run_L20", ROOT / "experiments" / "fuzzy" / "full_L20.toml")
    t3_cv = None
    if mode == "full" and (out / "faithful_table3").exists():  # 5-fold CV, as the paper
        t3_cv = table3(out / "faithful_table3",
                       ROOT / "experiments" / "fuzzy" / "faithful_table3.toml")
        t3_cv.to_csv(out / "table3_cv5.csv", index=False, float_format="%.6f")
        figs23(out, out / "faithful_table3",
               ROOT / "experiments" / "fuzzy" / "faithful_table3.toml")  # fig2.png, fig3.png
    (out / "tables.md").write_text(markdown(t3, t4, f4, mode, s["L"], t3_20, 20,
                                            repeats=s["repeats"], t3_cv=t3_cv))
    if f4 is not None:
        plot_fig4(f4, out / "fig4.png")
    print((out / "tables.md").read_text())


if __name__ == "__main__":
    main()
