"""Izetta et al. (2017): the paper's tables and figures from the runner's results.

Reads the folders written by ``rankfusion experiment experiments/izetta/<config>.toml --out
experiments/results/izetta/<run>/<part>`` and writes, next to them (``<run>/``):

* ``tables_4_6.md`` — positions (1 = best) of the relevant features and of the noise, pooled over
  the splits of every error-curve cell, per rule (Tables 4–6; ``relevant_rank_stats``), with the
  paper's numbers in brackets; and the OVA/OVO comparison of the same statistics;
* ``fig3_ova_vs_ovo.png``, ``fig4_artificial.png``, ``fig5_6_real.png`` — mean error ± 1 SD over
  splits against the number of features (log axis);
* ``curves.csv`` — those means and SDs;
* ``table8.md`` / ``table8.csv`` — per domain and feature count (10, 20): the paper's reading
  (pooled over the domain's datasets and splits, the share of runs where A errs less than B; A
  "excels" B when that share exceeds B's over A; a method's number = how many it excels) and
  ``win_matrix`` (paired t-tests per dataset, ``outperforms``);
* ``claims.md`` — the numbers behind each qualitative claim;
* ``fig1_kfirst.png`` / ``fig1_kfirst.md`` / ``fig1_kfirst.csv`` — Figure 1, K-First's k (from
  the part ``fig1_kfirst``), and ``fig2_ties.png`` / ``fig2_ties.md`` / ``fig2_ties.csv`` —
  Figure 2, the maximum vs the minimum SD as the tie break of Av-SD and 3Q-SD (part
  ``fig2_ties``). These two parts answer one figure each and are never pooled with the other
  parts (their splits and rules are their own).

Usage::

    python experiments/izetta/tables.py [--run full|smoke] [--root RUN_FOLDER]
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np
import pandas as pd
from scipy.stats import binomtest

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the backport that pyproject.toml declares there
    import tomli as tomllib

from rankfusion.datasets import load_artificial
from rankfusion.evaluation import relevant_rank_stats, win_matrix

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.normpath(os.path.join(HERE, "..", "results", "izetta"))

RULES = ["q3_sd", "average_sd", "best", "kfirst", "condorcet", "schulze"]
RULE_LABEL = {"q3_sd": "3Q-SD", "average_sd": "Av-SD", "best": "Best", "kfirst": "K-First",
              "condorcet": "Condorcet", "schulze": "Schulze"}
EXTRA_LABEL = {"zhou_ovo": "Zhou OVO (Average)", "zhou_cs": "Zhou C&S", "zhou_ww": "Zhou W&W"}
PAPER_ORDER = ["3Q-SD", "Av-SD", "Best", "K-First", "Condorcet", "Schulze"]

# Paper, Tables 4–6 (relevant and noise; rows best, Q1, mean, Q3, worst; columns PAPER_ORDER).
PAPER_T = {
    ("Artificial-1-8C", "relevant"): [[1] * 6, [14, 14, 12, 11, 17, 13], [70, 65, 33, 22, 79, 48],
                                      [98, 86, 41, 31, 110, 61], [436, 476, 357, 495, 474, 410]],
    ("Artificial-1-8C", "noise"): [[1, 1, 1, 3, 1, 1], [160, 161, 165, 165, 159, 163],
                                   [287, 287, 290, 290, 286, 288], [415] * 6, [540] * 6],
    ("Artificial-2-8C", "features 1–5"): [[1] * 6, [2] * 6, [22, 5, 9, 3, 15, 4],
                                          [28, 5, 17, 4, 18, 5], [481, 62, 45, 7, 85, 18]],
    ("Artificial-2-8C", "features 6–10"): [[1] * 6, [17, 7, 6, 7, 13, 6], [80, 24, 13, 8, 50, 9],
                                           [158, 30, 19, 9, 58, 11],
                                           [523, 241, 44, 14, 453, 70]],
    ("Artificial-2-8C", "features 11–25"): [[1, 2, 1, 8, 1, 4], [35, 19, 12, 14, 29, 15],
                                            [161, 87, 22, 18, 101, 65],
                                            [265, 116, 30, 22, 185, 70],
                                            [524, 500, 57, 29, 524, 501]],
    ("Artificial-2-8C", "noise"): [[1, 3, 3, 10, 1, 8], [142, 147, 151, 151, 142, 148],
                                   [269, 273, 275, 275, 274, 274], [399, 400, 400, 400, 399, 400],
                                   [525] * 6],
    ("Artificial-3-8C", "relevant"): [[1] * 6, [11] * 6, [27, 29, 41, 26, 28, 29],
                                      [33, 37, 53, 33, 33, 37], [440, 431, 368, 250, 342, 252]],
    ("Artificial-3-8C", "noise"): [[5, 2, 2, 8, 3, 7], [165, 165, 164, 165, 165, 165],
                                   [290] * 6, [415] * 6, [540] * 6],
}
PAPER_ROWS = {"best": 0, "q1": 1, "mean": 2, "q3": 3, "worst": 4}

# Paper, Table 8 (columns 3Q-SD, Av-SD, Best, K-First, Condorcet, Schulze, Z. C&S, Z. W&W, Z. OVO)
PAPER_T8_COLS = ["3Q-SD", "Av-SD", "Best", "K-First", "Condorcet", "Schulze", "Zhou C&S",
                 "Zhou W&W", "Zhou OVO (Average)"]
PAPER_T8 = {("UCI", 10): [7, 5, 5, 8, 3, 2, 0, 2, 5], ("MS", 10): [0, 3, 7, 8, 2, 1, 5, 4, 6],
            ("GE", 10): [1, 3, 6, 4, 2, 0, 7, 5, 8], ("UCI", 20): [5, 2, 6, 8, 2, 0, 3, 7, 3],
            ("MS", 20): [0, 2, 7, 8, 3, 1, 4, 5, 6], ("GE", 20): [1, 6, 5, 4, 2, 0, 8, 3, 7]}
#: Parts that answer one figure each, read by their own functions, never pooled with the rest.
FIGURE_PARTS = ("fig1_kfirst", "fig2_ties")
#: Chance error of c balanced classes, 1 − 1/c, by the sets of Figures 1–2.
CHANCE = {"Artificial-3-3C": 1 - 1 / 3, "Artificial-3-8C": 0.875, "Artificial-1-16C": 0.9375,
          "Artificial-2-8C": 0.875, "Artificial-1-8C": 0.875}
#: Bayes error of our generator's 8-class sets (benchmarks/results/artificial_calibration.md).
BAYES = {"Artificial-1-8C": 0.514, "Artificial-2-8C": 0.480, "Artificial-3-8C": 0.618}

DOMAIN = {"libras": "UCI", "robot_lp1": "UCI", "robot_lp3": "UCI",
          "robot_lp4": "UCI", "robot_lp5": "UCI", "mfeat": "UCI",
          "stjude": "GE", "monti_lung": "GE", "monti_cns": "GE", "monti_novartis": "GE"}


def label(selector: str, rule) -> str:
    if selector in EXTRA_LABEL:
        return EXTRA_LABEL[selector]
    base = RULE_LABEL.get(rule, str(rule))
    return base if selector == "ovo" else f"{selector.upper()} {base}"


def read(part_dir: str):
    """Results and positions of a part folder. A finished run has its Parquet tables; an
    unfinished one (the faithful part, run as far as a session allows) is assembled from its
    finished cell files exactly as the runner would, the missing cells left out (the caller
    reports how many)."""
    from pathlib import Path

    from rankfusion.experiments import load_config
    from rankfusion.experiments.store import assemble, cell_status

    if os.path.exists(os.path.join(part_dir, "results.parquet")):
        res = pd.read_parquet(os.path.join(part_dir, "results.parquet"))
        pos = pd.read_parquet(os.path.join(part_dir, "positions.parquet"))
    else:
        cells = load_config(os.path.join(part_dir, "config.toml")).cells
        status = cell_status(Path(part_dir), cells)
        res, pos, _ = assemble(Path(part_dir), [c for c in cells if status[c.hash] == "done"])
    for df in (res, pos):
        df["label"] = [label(s, r) for s, r in zip(df["selector"], df["rule"])]
    return res, pos


def part_sources(part_dir: str) -> tuple[dict, dict]:
    """``(sources, options)`` of the artificial sets of a part folder's configuration."""

    cfg = tomllib.loads(open(os.path.join(part_dir, "config.toml")).read())
    src = {k: cfg.get("datasets", {}).get(k, {}).get("source", k)
           for k in cfg["grid"]["datasets"]}
    art = {k: v for k, v in src.items() if v.startswith("Artificial-")}
    return art, {k: cfg.get("datasets", {}).get(k, {}) for k in art}


def faithful_groups(run: str) -> dict[str, list[str]]:
    """The paper-faithful part folders of a run (``faithful*``), grouped: a folder named
    ``<part>_b``, ``<part>_c``, … holds more splits of ``<part>`` under another experiment seed
    and is pooled with it. Their configurations must be equal but for the experiment's name,
    seed and description (else ValueError: they are not the same protocol)."""
    import re


    names = sorted(d for d in os.listdir(run) if d.startswith("faithful")
                   and os.path.exists(os.path.join(run, d, "config.toml")))
    groups: dict[str, list[str]] = {}
    for name in names:
        m = re.fullmatch(r"(.+)_([b-z])", name)
        base = m.group(1) if m and m.group(1) in names else name
        groups.setdefault(base, []).append(name)

    def protocol(name):
        path = os.path.join(run, name, "config.toml")
        try:
            cfg = tomllib.loads(open(path, encoding="utf-8").read())
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            raise ValueError(f"{path} is not a readable TOML configuration: {err}") from None
        cfg["experiment"] = {k: v for k, v in cfg.get("experiment", {}).items()
                             if k not in ("name", "seed", "description")}
        return cfg

    for base, members in groups.items():
        for other in members[1:]:
            if protocol(other) != protocol(base):
                raise ValueError(f"{other} is not {base} under another seed: their "
                                 "configurations differ beyond name, seed and description")
    return groups


def pool_splits(res_parts: list, pos_parts: list) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Results and positions of the parts of one group, their splits renumbered one after
    the other (part 1's splits 0, 1; part 2's 2, 3; …), so that no two independent splits
    share a number."""
    res, pos, offset = [], [], 0
    for r, p in zip(res_parts, pos_parts):
        res.append(r.assign(split=r.split + offset))
        pos.append(p.assign(split=p.split + offset))
        offset += int(max(r.split.max(), p.split.max())) + 1
    return pd.concat(res, ignore_index=True), pd.concat(pos, ignore_index=True)


def cells_done(part_dir: str) -> tuple[int, int]:
    """(finished, planned) cells of a part folder."""
    from pathlib import Path

    from rankfusion.experiments import load_config
    from rankfusion.experiments.store import cell_status

    cells = load_config(os.path.join(part_dir, "config.toml")).cells
    status = cell_status(Path(part_dir), cells)
    return sum(v == "done" for v in status.values()), len(cells)


# ------------------------------------------------------------------------------ Tables 4–6
def artificial_groups(source: str, options: dict) -> dict[str, list[str]]:
    opts = {k: v for k, v in options.items() if k not in ("source", "seed")}
    d = load_artificial(source, random_state=options.get("seed", 0), **opts)
    names = np.asarray(d.feature_names)
    if source.startswith("Artificial-2"):
        g = {"features 1–5": d.relevance == 1, "features 6–10": d.relevance == 2,
             "features 11–25": d.relevance == 3}
    else:
        g = {"relevant": d.relevance > 0}
    g["noise"] = d.relevance == 0
    return {k: names[v].tolist() for k, v in g.items()}


def rank_tables(pos: pd.DataFrame, sources: dict, options: dict, methods: list[str]) -> str:
    out = []
    for ds, source in sources.items():
        groups = artificial_groups(source, options[ds])
        n_samples = options[ds].get("n_samples", 3000)
        sub = pos[pos.dataset == ds]
        n_split = sub.split.nunique()
        for g, feats in groups.items():
            out.append(f"\n**{source}, {g}** ({n_samples} samples; positions pooled over "
                       f"{n_split} splits; paper in brackets)\n")
            cols = [m for m in methods if m in set(sub.label)]
            out.append("| statistic | " + " | ".join(cols) + " |")
            out.append("|---|" + "---|" * len(cols))
            stats = {}
            for m in cols:
                wide = sub[sub.label == m].pivot(index="split", columns="feature",
                                                  values="position")
                stats[m] = relevant_rank_stats(wide, feats)
            paper = PAPER_T.get((source, g))
            for st in ["best", "q1", "median", "mean", "q3", "worst"]:
                cells = []
                for m in cols:
                    v = stats[m][st]
                    c = f"{v:.1f}" if st == "mean" else f"{v:.0f}"
                    if paper is not None and m in PAPER_ORDER and st in PAPER_ROWS:
                        c += f" ({paper[PAPER_ROWS[st]][PAPER_ORDER.index(m)]})"
                    cells.append(c)
                out.append(f"| {st} | " + " | ".join(cells) + " |")
    return "\n".join(out)


# ------------------------------------------------------------------------------ curves
def curves(res: pd.DataFrame) -> pd.DataFrame:
    e = res[res.metric == "error"]
    return (e.groupby(["dataset", "label", "n_features"])["value"]
            .agg(["mean", "std", "count"]).reset_index())


def plot_panels(cur: pd.DataFrame, panels: list[tuple[str, str, list[str]]], path: str,
                ncols: int = 2, hlines: dict | None = None):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    nrows = int(np.ceil(len(panels) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.2 * ncols, 3.6 * nrows), squeeze=False)
    for ax, (ds, title, methods) in zip(axes.ravel(), panels):
        for m in methods:
            c = cur[(cur.dataset == ds) & (cur.label == m)].sort_values("n_features")
            if c.empty:
                continue
            ax.errorbar(c.n_features, c["mean"], yerr=c["std"].fillna(0), marker="o", ms=3,
                        capsize=2, lw=1, label=m)
        if hlines and ds in hlines:
            ax.axhline(hlines[ds], color="grey", ls=":", lw=1)
        ax.set_xscale("log")
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("features")
        ax.set_ylabel("error rate")
        ax.legend(fontsize=6)
    for ax in axes.ravel()[len(panels):]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)


# ------------------------------------------------------------------------------ Table 8
def table8(res: pd.DataFrame, methods: list[str], ks=(10, 20)):
    e = res[(res.metric == "error") & res.label.isin(methods)]
    rows, wm_rows = [], []
    for dom in ("UCI", "GE"):
        dsets = [d for d in e.dataset.unique() if DOMAIN.get(d) == dom]
        if not dsets:
            continue
        for k in ks:
            sub = e[e.dataset.isin(dsets) & (e.n_features == k)]
            wide = sub.pivot_table(index=["dataset", "split"], columns="label", values="value")
            wide = wide[[m for m in methods if m in wide.columns]]
            a = wide.to_numpy()
            # share A < B over the (dataset, split) rows where both ran (a method may have
            # been run on some of the domain's datasets only: the counts say so)
            both = np.isfinite(a[:, :, None]) & np.isfinite(a[:, None, :])
            with np.errstate(invalid="ignore"):
                less = ((a[:, :, None] < a[:, None, :]) & both).sum(axis=0) / np.maximum(
                    both.sum(axis=0), 1)
            excels = (less > less.T).sum(axis=1)
            ran = {m: ",".join(d for d in dsets if wide.loc[d, m].notna().any())
                   for m in wide.columns}
            partial = {m: v for m, v in ran.items() if v != ",".join(dsets)}
            rows.append({"domain": dom, "k": k, "datasets": ",".join(dsets),
                         "partial": "; ".join(f"{m} on {v}" for m, v in partial.items()),
                         **dict(zip(wide.columns, excels))})
            full = [m for m in wide.columns if m not in partial]
            per = {d: wide.loc[d, full].reset_index(drop=True) for d in dsets}
            wm = win_matrix(per)
            wm_rows.append({"domain": dom, "k": k,
                            **dict(zip(full, np.asarray(wm.outperforms)))})
    t8, wm = pd.DataFrame(rows), pd.DataFrame(wm_rows)
    for df in (t8, wm):  # counts; "–" where a method was not run in the domain
        for m in methods:
            if m in df.columns:
                df[m] = df[m].astype("Int64")
    return t8, wm


def md_table(df: pd.DataFrame, floatfmt="{:.3f}") -> str:
    cols = list(df.columns)
    lines = ["| " + " | ".join(map(str, cols)) + " |", "|" + "---|" * len(cols)]
    for _, r in df.iterrows():
        cells = ["–" if v is pd.NA or (isinstance(v, float) and np.isnan(v)) else
                 floatfmt.format(v) if isinstance(v, float) else str(v) for v in r]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ Figures 1–2
def _relevant(source: str, options: dict) -> list[str]:
    g = artificial_groups(source, options)
    return [f for k, v in g.items() if k != "noise" for f in v]


def _relevant_mean_position(pos: pd.DataFrame, feats: list[str]) -> pd.Series:
    """Mean position of the relevant features per (dataset, rule), pooled over the splits."""
    rel = pos[pos.feature.isin(feats)]
    return rel.groupby("rule")["position"].mean()


def plt_colors(n: int) -> list:
    """n colours of a sequential map, dark (small k) to orange (large k), all legible on white."""
    import matplotlib

    return [matplotlib.colormaps["plasma"](v) for v in np.linspace(0.0, 0.8, n)]


LABELLED_TICKS = (2, 5, 10, 20, 40, 80, 200, 500)


def _figure_panels(cur, panels, path, ticks):
    """Error ± 1 SD over the splits against the number of features (log axis, a tick at every
    count run, labelled at 2, 5, 10, 20, …, the largest and the number of relevant features); the
    curves of a panel slightly shifted sideways so their bars do not hide each other; dotted
    vertical line at the number of relevant features, grey dashed line at the chance error
    (dotted grey at the Bayes error where known); one legend for the figure, below it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FixedLocator, NullFormatter

    ncols = 2
    nrows = int(np.ceil(len(panels) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.6 * ncols, 3.5 * nrows + 0.6),
                             squeeze=False)
    handles, bayes_shown = {}, False
    for ax, (ds, title, series, n_rel, chance, bayes) in zip(axes.ravel(), panels):
        n = len(series)
        for i, (rule, name, style) in enumerate(series):
            c = cur[(cur.dataset == ds) & (cur.rule == rule)].sort_values("n_features")
            if c.empty:
                continue
            shift = 1.045 ** (i - (n - 1) / 2)
            h = ax.errorbar(c.n_features * shift, c["mean"], yerr=c["std"].fillna(0), ms=4,
                            capsize=2, lw=1.2, label=name, **{"marker": "o", **style})
            handles.setdefault(name, h)
        ax.axvline(n_rel, color="k", ls=":", lw=1)
        ax.axhline(chance, color="grey", ls="--", lw=1)
        if bayes is not None:
            ax.axhline(bayes, color="grey", ls=":", lw=1)
            bayes_shown = True
        ax.set_xscale("log")
        shown = sorted(set(t for t in ticks if t in LABELLED_TICKS) | {n_rel, max(ticks)})
        ax.xaxis.set_major_locator(FixedLocator(shown))
        ax.xaxis.set_minor_locator(FixedLocator([t for t in ticks if t not in shown]))
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xticklabels([str(t) for t in shown], fontsize=7)
        ax.set_xlim(min(ticks) / 1.25, max(ticks) * 1.25)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("features selected (ticks: the counts evaluated)")
        ax.set_ylabel("test error rate (mean ± SD over splits)")
        ax.yaxis.label.set_size(8)
        ax.xaxis.label.set_size(8)
    for ax in axes.ravel()[len(panels):]:
        ax.axis("off")
    extra = [Line2D([], [], color="k", ls=":", lw=1, label="number of relevant features"),
             Line2D([], [], color="grey", ls="--", lw=1, label="chance error, 1 − 1/classes")]
    if bayes_shown:
        extra.append(Line2D([], [], color="grey", ls=":", lw=1,
                            label="Bayes error (8-class sets)"))
    items = list(handles.items())
    fig.legend([h for _, h in items] + extra, [k for k, _ in items] + [e.get_label()
                                                                       for e in extra],
               loc="lower center", ncol=4, fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.6 / (3.5 * nrows + 0.6), 1, 1))
    fig.savefig(path, dpi=90)
    plt.close(fig)


def figure1(run: str) -> str:
    """Figure 1: K-First's k (part ``fig1_kfirst``); writes ``fig1_kfirst.png/.md/.csv``
    and returns the claims text."""

    d = os.path.join(run, "fig1_kfirst")
    res, pos = read(d)
    cfg = tomllib.loads(open(os.path.join(d, "config.toml")).read())
    sources, options = part_sources(d)
    ks = {label: cfg["rules"][label]["k"] for label in cfg["grid"]["rules"]}
    cur = (res[res.metric == "error"].groupby(["dataset", "rule", "n_features"])["value"]
           .agg(["mean", "std", "count"]).reset_index())
    ticks = sorted(cur.n_features.unique())
    panels, rows = [], []
    for ds, src in sources.items():
        p = pos.loc[pos.dataset == ds, "feature"].nunique()
        feats = _relevant(src, options[ds])
        n_rel = len(feats)
        shade = plt_colors(len(ks))
        series = [(lab, f"k = {100 * k:g} % of p", {"color": shade[i]})
                  for i, (lab, k) in enumerate(ks.items())]
        counts = ", ".join(str(max(1, int(np.floor(k * p + 0.5)))) for k in ks.values())
        panels.append((ds, f"{src}: p = {p}, {n_rel} relevant; k = {counts}", series, n_rel,
                       CHANCE[src], BAYES.get(src)))
        mpos = _relevant_mean_position(pos[pos.dataset == ds], feats)
        e = res[(res.metric == "error") & (res.dataset == ds) & (res.n_features <= 2 * n_rel)]
        per_split = e.groupby(["rule", "split"])["value"].mean().unstack()
        ref = [lab for lab, k in ks.items() if k == 0.1]
        for lab, k in ks.items():
            c = cur[(cur.dataset == ds) & (cur.rule == lab)].set_index("n_features")
            below = (int((per_split.loc[lab] < per_split.loc[ref[0]] - 1e-12).sum())
                     if ref else np.nan)
            upto = c[c.index <= 2 * n_rel]["mean"]
            rows.append({"dataset": src, "k (% of p)": 100 * k,
                         "k (features)": max(1, int(np.floor(k * p + 0.5))),
                         "error at the relevant count": c.loc[n_rel, "mean"]
                         if n_rel in c.index else np.nan,
                         "mean error, counts ≤ 2× relevant": upto.mean(),
                         "lowest mean error": c["mean"].min(),
                         "at (features)": int(c["mean"].idxmin()),
                         "relevant features' mean position": mpos.get(lab, np.nan),
                         "splits with a lower error than k = 10 %": below})
    _figure_panels(cur, panels, os.path.join(run, "fig1_kfirst.png"), ticks)
    tab = pd.DataFrame(rows)
    tab.to_csv(os.path.join(run, "fig1_kfirst.csv"), index=False, float_format="%.5f")
    # the compact table of EXPERIMENTS.md (the same header there)
    kcols = [f"k = {v:g} %" for v in tab["k (% of p)"].unique()]
    short = []
    for src, g in tab.groupby("dataset", sort=False):
        n_rel = len(_relevant(src, options[[k for k, v in sources.items() if v == src][0]]))
        short.append({"set (Figure 1)": src, "value": f"mean error, counts ≤ {2 * n_rel}",
                      **{c: f"{v:.3f}" for c, v in zip(kcols,
                                                       g["mean error, counts ≤ 2× relevant"])}})
        short.append({"set (Figure 1)": src, "value": "relevant features' mean position",
                      **{c: f"{v:.1f}" for c, v in zip(kcols,
                                                       g["relevant features' mean position"])}})
    n_split = res.split.nunique()
    text = ("# Izetta et al. (2017), Figure 1: K-First's k\n\n"
            f"K-First on the SVM-RFE OVO lists, k = 2.5–40 % of p; {n_split} stratified 75/25 "
            "splits of 1,200 samples, C = 1 (the reduced protocol of `full_artificial.toml`). "
            "Mean test error over the splits; the relevant count is the set's number of "
            "relevant features (15, 40, 80, 25); positions pooled over the splits (1 = "
            "best); the last column compares each split's mean error over the counts ≤ 2× "
            "relevant with k = 10 % (the paper's choice) on the same split.\n\n"
            + md_table(tab) + "\n\nIn short:\n\n"
            + md_table(pd.DataFrame(short)) + "\n")
    open(os.path.join(run, "fig1_kfirst.md"), "w").write(text)
    return "## Figure 1 (K-First's k)\n\n" + md_table(tab)


def figure2(run: str) -> str:
    """Figure 2: Av-SD and 3Q-SD with ties by the maximum vs the minimum SD (part
    ``fig2_ties``); writes ``fig2_ties.png/.md/.csv`` and returns the claims text. The max-SD
    cells are those of the part ``artificial`` (same hashes): their numbers are compared."""
    d = os.path.join(run, "fig2_ties")
    res, pos = read(d)
    sources, options = part_sources(d)
    cur = (res[res.metric == "error"].groupby(["dataset", "rule", "n_features"])["value"]
           .agg(["mean", "std", "count"]).reset_index())
    ticks = sorted(cur.n_features.unique())
    names = {"average_sd_max": ("Av-SD, max SD (paper)", {"color": "tab:blue"}),
             "average_sd_min": ("Av-SD, min SD", {"color": "tab:blue", "ls": "--",
                                                  "marker": "s", "mfc": "white"}),
             "q3_sd_max": ("3Q-SD, max SD (paper)", {"color": "tab:red"}),
             "q3_sd_min": ("3Q-SD, min SD", {"color": "tab:red", "ls": "--", "marker": "s",
                                             "mfc": "white"})}
    panels, rows = [], []
    e = res[res.metric == "error"]
    for ds, src in sources.items():
        feats = _relevant(src, options[ds])
        p = pos.loc[pos.dataset == ds, "feature"].nunique()
        panels.append((ds, f"{src} (p = {p}; {len(feats)} relevant)",
                       [(k, name, style) for k, (name, style) in names.items()], len(feats),
                       CHANCE[src], BAYES.get(src)))
        mpos = _relevant_mean_position(pos[pos.dataset == ds], feats)
        for rule in ("average_sd", "q3_sd"):
            a = e[(e.dataset == ds) & (e.rule == f"{rule}_max")]
            b = e[(e.dataset == ds) & (e.rule == f"{rule}_min")]
            m = a.merge(b, on=["split", "n_features"], suffixes=("_max", "_min"))
            per_split = (m.value_max - m.value_min).groupby(m.split).mean()
            # how many places the tie break moves: features whose position differs, per split
            pa = pos[(pos.dataset == ds) & (pos.rule == f"{rule}_max")]
            pb = pos[(pos.dataset == ds) & (pos.rule == f"{rule}_min")]
            pm = pa.merge(pb, on=["split", "feature"], suffixes=("_max", "_min"))
            moved = (pm.position_max != pm.position_min).groupby(pm.split).sum()
            top = pm[(pm.position_max <= 2 * len(feats))]
            rows.append({"dataset": src, "rule": RULE_LABEL[rule],
                         "mean error max SD": m.value_max.mean(),
                         "mean error min SD": m.value_min.mean(),
                         "max < min (split × count)": int((m.value_max < m.value_min - 1e-12)
                                                          .sum()),
                         "max > min (split × count)": int((m.value_max > m.value_min + 1e-12)
                                                          .sum()),
                         "splits max < min": int((per_split < -1e-12).sum()),
                         "splits max > min": int((per_split > 1e-12).sum()),
                         "relevant mean position max SD": mpos.get(f"{rule}_max", np.nan),
                         "relevant mean position min SD": mpos.get(f"{rule}_min", np.nan),
                         "features moved per split (of p)": float(moved.mean()),
                         "moved among the first 2× relevant": float(
                             (top.position_max != top.position_min).groupby(top.split).sum()
                             .reindex(moved.index, fill_value=0).mean())})
    _figure_panels(cur, panels, os.path.join(run, "fig2_ties.png"), ticks)
    tab = pd.DataFrame(rows)
    tab.to_csv(os.path.join(run, "fig2_ties.csv"), index=False, float_format="%.5f")
    # the max-SD cells are the artificial part's ovo+average_sd / ovo+q3_sd cells (same hash)
    same = "the part `artificial` is not there to compare with"
    art = os.path.join(run, "artificial", "results.parquet")
    if os.path.exists(art):
        old = pd.read_parquet(art)
        mx = res[res.rule.str.endswith("_max")]
        o = old[old.cell.isin(set(mx.cell))]
        key = ["cell", "split", "n_features", "metric"]
        both = mx.merge(o, on=key, suffixes=("", "_art"))
        equal = len(both) == len(mx) == len(o) and bool((both.value == both.value_art).all())
        same = (f"{mx.cell.nunique()} max-SD cells, {len(mx)} rows: "
                + ("bit-identical to the part `artificial`'s cells of the same hash"
                   if equal else f"NOT equal to the part `artificial` ({len(both)} rows "
                   "matched)"))
    short = pd.DataFrame([{
        "set, rule (Figure 2)": f"{r['dataset']}, {r['rule']}",
        "mean error, max SD / min SD": f"{r['mean error max SD']:.3f} / "
                                       f"{r['mean error min SD']:.3f}",
        "splits max < min : max > min": f"{r['splits max < min']} : {r['splits max > min']}",
        "relevant mean position, max SD / min SD": f"{r['relevant mean position max SD']:.1f} / "
                                                   f"{r['relevant mean position min SD']:.1f}",
        "features moved per split": f"{r['features moved per split (of p)']:.1f}"}
        for _, r in tab.iterrows()])
    n_split = res.split.nunique()
    text = ("# Izetta et al. (2017), Figure 2: the SD tie break of Av-SD and 3Q-SD\n\n"
            f"OVO SVM-RFE lists; {n_split} stratified 75/25 splits of 1,200 samples, C = 1, "
            "8 feature counts (the reduced protocol of `full_artificial.toml`). Pairs are "
            "(split, feature count); the feature counts of a split are nested subsets of one "
            "ranking, so the unit of comparison is the split (its mean error over the counts). "
            "Moved: features whose position differs between the two tie breaks (mean per "
            f"split). Check: {same}.\n\n" + md_table(tab) + "\n\nIn short:\n\n"
            + md_table(short) + "\n")
    open(os.path.join(run, "fig2_ties.md"), "w").write(text)
    return "## Figure 2 (the SD tie break)\n\n" + md_table(tab) + f"\n\nCheck: {same}."


# ------------------------------------------------------------------------------ main
def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", default="full")
    ap.add_argument("--root", default=None,
                    help="the run folder (default: experiments/results/izetta/<run>)")
    args = ap.parse_args()
    run = args.root or os.path.join(RESULTS, args.run)
    claims = []
    ovo_methods = PAPER_ORDER + ["Zhou OVO (Average)"]
    zhou_msvm = ["Zhou C&S", "Zhou W&W"]  # the MSVM-RFE baselines (where they were run)
    all_cur = []
    # The reduced run's parts; the paper-faithful parts (faithful_*: 3,000 samples, C by CV)
    # are read on their own below, never pooled with the reduced run's splits.
    # The figure parts (FIGURE_PARTS) answer Figures 1–2 on their own splits: not pooled either.
    parts = sorted(d for d in os.listdir(run) if not d.startswith("faithful")
                   and d not in FIGURE_PARTS
                   and os.path.exists(os.path.join(run, d, "results.parquet")))
    art_res, art_pos, real_res, sources, options = [], [], [], {}, {}
    for part in parts:
        d = os.path.join(run, part)
        art, opts = part_sources(d)
        options.update(opts)
        sources.update(art)
        r, p = read(d)
        art_res.append(r[r.dataset.isin(list(art))])
        art_pos.append(p[p.dataset.isin(list(art))])
        real_res.append(r[~r.dataset.isin(list(art))])
    real_res = [r for r in real_res if not r.empty]
    if sources:
        res, pos = pd.concat(art_res, ignore_index=True), pd.concat(art_pos, ignore_index=True)
        cur = curves(res)
        all_cur.append(cur)
        ova = [f"OVA {m}" for m in PAPER_ORDER]
        text = ["# Izetta et al. (2017), Tables 4–6: where the rules put the relevant features\n",
                "Lower = better (1 = ranked first). OVO lists unless marked OVA. Paper's numbers "
                "(3000 samples, its own runs) in brackets.\n",
                rank_tables(pos, sources, options, ovo_methods + zhou_msvm + ova)]
        open(os.path.join(run, "tables_4_6.md"), "w").write("\n".join(text) + "\n")
        bayes = {k: {"Artificial-1-8C": 0.514, "Artificial-2-8C": 0.480,
                     "Artificial-3-8C": 0.618}.get(v) for k, v in sources.items()}
        bayes = {k: v for k, v in bayes.items() if v is not None}
        panels = []
        with_ova = set(res.loc[res.selector == "ova", "dataset"])
        for ds, src in sources.items():
            if ds in with_ova:  # the paper's Figure 3: the sets run with both decompositions
                panels.append((ds, f"OVA on {src}", ova))
                panels.append((ds, f"OVO on {src}", PAPER_ORDER))
        plot_panels(cur, panels, os.path.join(run, "fig3_ova_vs_ovo.png"), hlines=bayes)
        plot_panels(cur, [(ds, f"{src} (OVO rules + Zhou's baselines)",
                           ovo_methods + zhou_msvm) for ds, src in sources.items()],
                    os.path.join(run, "fig4_artificial.png"), ncols=3, hlines=bayes)
        # OVO vs OVA, paired by split, every rule and feature count
        e = res[res.metric == "error"].copy()
        e["rule_label"] = [RULE_LABEL.get(r, r) for r in e.rule]
        rows = []
        for ds in sources:
            for r in RULES:
                a = e[(e.dataset == ds) & (e.selector == "ovo") & (e.rule == r)]
                b = e[(e.dataset == ds) & (e.selector == "ova") & (e.rule == r)]
                m = a.merge(b, on=["split", "n_features"], suffixes=("_ovo", "_ova"))
                if m.empty:
                    continue
                # The feature counts of one split are nested subsets of one ranking: they
                # are not independent pairs. The unit of a test is the split (its mean error
                # over the counts); an exact two-sided sign test over the splits (with 4
                # splits its smallest p-value is 0.125).
                per_split = (m.value_ovo - m.value_ova).groupby(m.split).mean()
                wins = int((per_split < -1e-12).sum())
                losses = int((per_split > 1e-12).sum())
                p_sign = (binomtest(wins, wins + losses).pvalue if wins + losses else 1.0)
                rows.append({"dataset": sources[ds], "rule": RULE_LABEL[r],
                             "mean error OVO": m.value_ovo.mean(),
                             "mean error OVA": m.value_ova.mean(),
                             "OVO < OVA (split × count)": int(
                                 (m.value_ovo < m.value_ova - 1e-12).sum()),
                             "OVO > OVA (split × count)": int(
                                 (m.value_ovo > m.value_ova + 1e-12).sum()),
                             "splits OVO < OVA": wins, "splits OVO > OVA": losses,
                             "sign test p (splits)": p_sign})
        ovo_ova = pd.DataFrame(rows)
        claims.append("## OVO vs OVA (Figure 3), paired by split\n\nThe split × count "
                      "columns count the (split, feature count) pairs; the counts of one split "
                      "are nested subsets of one ranking, so they are not independent and no "
                      "test is made on them. The test is an exact two-sided sign test over the "
                      "splits, each split's difference being its mean error over the counts "
                      "(with 4 splits no p-value goes below 0.125).\n\n" + md_table(ovo_ova))
        # rank of each OVO method per dataset, by mean error over the curve's counts ≤ 2× relevant
        rk = []
        for ds, src in sources.items():
            sub = cur[(cur.dataset == ds) & cur.label.isin(ovo_methods + zhou_msvm)
                      & (cur.n_features <= 80)]
            mean = sub.groupby("label")["mean"].mean()
            rk.append({"dataset": src, **mean.rank().to_dict()})
        claims.append("## Artificial: rank of each method by its mean error over the counts "
                      "2–80 (1 = lowest)\n\n" + md_table(pd.DataFrame(rk), "{:.1f}"))
    for part, members in faithful_groups(run).items():
        done, planned, res_parts, pos_parts, art, opts = 0, 0, [], [], {}, {}
        for member in members:
            d = os.path.join(run, member)
            k_done, k_planned = cells_done(d)
            done, planned = done + k_done, planned + k_planned
            if not k_done:
                continue
            a, o = part_sources(d)
            art.update(a)
            opts.update(o)
            r, p = read(d)
            res_parts.append(r)
            pos_parts.append(p)
        if not done:
            continue
        r, p = pool_splits(res_parts, pos_parts)
        art = {k: v for k, v in art.items() if k in set(p.dataset)}
        n_split = p.groupby(["dataset", "method"]).split.nunique()
        files = " and ".join(f"`experiments/izetta/{m}.toml`" for m in members)
        text = [f"# Izetta et al. (2017), Tables 4–6 by the paper's protocol: `{part}`\n",
                f"{done} of {planned} cells of {files} finished "
                + ("(its other cells not run)" if len(members) == 1 else
                   "(their other cells not run; the parts' configurations differ only in name "
                   "and seed, so their independent splits are pooled)")
                + ". 3,000 samples, plain random 75/25 splits, C of "
                "every RFE SVM by 5-fold CV; "
                + (f"{n_split.min()}" if n_split.min() == n_split.max()
                   else f"{n_split.min()}–{n_split.max()}")
                + " splits per method (the paper: 100). Lower = "
                "better (1 = ranked first); OVO lists; paper's numbers in brackets.\n",
                rank_tables(p, art, opts, ovo_methods)]
        open(os.path.join(run, f"tables_4_6_{part}.md"), "w").write("\n".join(text) + "\n")
        cur = curves(r)
        rk = []
        for ds, src in art.items():
            sub = cur[(cur.dataset == ds) & cur.label.isin(ovo_methods) & (cur.n_features <= 80)]
            mean = sub.groupby("label")["mean"].mean()
            rk.append({"dataset": src, **mean.rank().to_dict()})
        claims.append(f"## Artificial by the paper's protocol (`{part}`, {done} of {planned} "
                      "cells): rank of each method by its mean error over the counts 2–80 "
                      "(1 = lowest)\n\n" + md_table(pd.DataFrame(rk), "{:.1f}"))
    if real_res:
        res = pd.concat(real_res, ignore_index=True)
        cur = curves(res)
        all_cur.append(cur)
        methods = ovo_methods + zhou_msvm
        dsets = list(dict.fromkeys(res.dataset))
        plot_panels(cur, [(ds, ds, methods) for ds in dsets],
                    os.path.join(run, "fig5_6_real.png"), ncols=3)
        # mean test error (± SD over splits) at 10 and 20 features, every real set and method
        sel = cur[cur.label.isin(methods) & cur.n_features.isin([10, 20])].copy()
        sel["cell"] = [f"{m:.3f} ± {s:.3f}" for m, s in zip(sel["mean"], sel["std"])]
        wide = sel.pivot_table(index=["dataset", "n_features"], columns="label", values="cell",
                               aggfunc="first")
        wide = wide[[m for m in methods if m in wide.columns]].reset_index()
        open(os.path.join(run, "real_k10_k20.md"), "w").write(
            "# Real data: mean test error ± SD over splits at 10 and 20 features\n\n"
            + md_table(wide) + "\n")
        t8, wm = table8(res, methods)
        paper = pd.DataFrame([{"domain": f"{d} (paper)", "k": k,
                               **dict(zip(PAPER_T8_COLS, v))} for (d, k), v in PAPER_T8.items()])
        from scipy.stats import kendalltau

        agree = []
        common = [m for m in methods if m in PAPER_T8_COLS and m in t8.columns]
        for r in t8.itertuples(index=False):
            ours = t8[(t8.domain == r.domain) & (t8.k == r.k)].iloc[0]
            pap = PAPER_T8[(r.domain, r.k)]
            tau = kendalltau([ours[m] for m in common],
                             [pap[PAPER_T8_COLS.index(m)] for m in common])
            agree.append({"domain": r.domain, "k": r.k,
                          "Kendall tau-b (ours vs paper)": float(tau[0]), "p": float(tau[1])})
        agree = pd.DataFrame(agree)
        t8.to_csv(os.path.join(run, "table8.csv"), index=False)
        text = ["# Izetta et al. (2017), Table 8: method rankings by domain (higher = better)\n",
                "Ours, the paper's reading (share of paired runs where A errs less than B, "
                "pooled over the domain's datasets and splits; number of methods excelled):\n",
                md_table(t8.drop(columns=["datasets", "partial"])),
                "\nDatasets: " + "; ".join(f"{r.domain}: {r.datasets}" for r in
                                            t8.drop_duplicates("domain").itertuples())
                + "".join(f"\nRun on part of the domain only: {r.partial} ({r.domain}); its "
                          "counts pool the pairs where both methods ran." for r in
                          t8.drop_duplicates("domain").itertuples() if r.partial),
                "\n\nOurs, `win_matrix` (paired t-tests over splits per dataset, α = 0.05; "
                "`outperforms`):\n", md_table(wm),
                "\n\nAgreement of our counts with the paper's over the methods both ran "
                "(Kendall's tau-b between the two rows of counts):\n", md_table(agree),
                "\n\nThe paper (MS = mass spectrometry, which we do not have):\n",
                md_table(paper)]
        open(os.path.join(run, "table8.md"), "w").write("\n".join(text) + "\n")
        rk = []
        for ds in dsets:
            sub = cur[(cur.dataset == ds) & cur.label.isin(methods) & (cur.n_features <= 50)]
            mean = sub.groupby("label")["mean"].mean()
            rk.append({"dataset": ds, **mean.rank().to_dict()})
        rk = pd.DataFrame(rk)
        rk.loc[len(rk)] = {"dataset": "mean rank", **rk.drop(columns="dataset").mean().to_dict()}
        claims.append("## Real data: rank of each method by its mean error over the counts "
                      "2–50 (1 = lowest)\n\n" + md_table(rk, "{:.1f}"))
    if os.path.exists(os.path.join(run, "fig1_kfirst", "results.parquet")):
        claims.append(figure1(run))
    if os.path.exists(os.path.join(run, "fig2_ties", "results.parquet")):
        claims.append(figure2(run))
    if all_cur:
        pd.concat(all_cur).to_csv(os.path.join(run, "curves.csv"), index=False,
                                  float_format="%.5f")
    if claims:
        open(os.path.join(run, "claims.md"), "w").write("\n\n".join(claims) + "\n")
    print("wrote", run)


if __name__ == "__main__":
    main()
