"""The report of an experiment folder: one self-contained HTML file and a Markdown twin.

``OUT/report/report.html`` embeds its figures (PNG, base64) so it can be mailed or archived as
one file; ``OUT/report/report.md`` references the same figures as ``figures/*.png`` (written
next to it). Sections, each left out with a one-line reason when it does not apply:

* run summary (experiment, seed, versions, machine, runs);
* per dataset, classifier and protocol: the results table (error curve: mean ± SD of the error
  at every feature count; cross-validation: mean ± SD of every metric) and the error curves;
* across datasets (≥ 2 datasets and ≥ 2 methods): Friedman test, Nemenyi critical difference
  and its diagram, on the mean error of each method on each dataset;
* the win matrix (≥ 2 methods): paired t-tests over the splits on each dataset (Izetta et al.
  2017, Table 8);
* stability (error curves, ≥ 2 splits): Nogueira et al.'s index of the top-k sets of the
  splits' rankings against k;
* rule agreement (a selector crossed with ≥ 2 rules): Kendall distance and top-k Jaccard
  between the rules' consensus rankings (features ordered by mean position over the splits).
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import json
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

from .store import read_table, write_bytes_atomic

__all__ = ["write_report", "read_results", "md_escape"]


def read_results(out, *, partial: bool = False) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """``(results, positions, metadata)`` of a finished experiment folder.

    Parameters
    ----------
    out : path
        The results folder of :func:`run_experiment`.
    partial : bool
        For a folder without ``results.parquet`` (a run stopped before its end): assemble the
        tables from the cells finished so far, planned from the folder's ``config.toml``
        (same columns as ``results.parquet``; missing or corrupt cells are left out). A
        finished folder is read as usual, unless its tables are of another configuration
        than its ``config.toml`` (a later run of another configuration that stopped): then
        the finished cells of ``config.toml`` are assembled.

    Returns
    -------
    results, positions : pandas.DataFrame
    metadata : dict
        ``metadata.json``, with ``experiment`` the experiment of the returned tables — matched
        by the configuration SHA-256 the tables carry, never another run's (an empty record
        with the hash alone when the metadata does not know it).

    Raises
    ------
    ValueError
        A damaged ``metadata.json`` or table (naming the file and the way out), or tables of
        two configurations.
    """
    if not isinstance(partial, bool):
        raise TypeError(f"partial must be True or False, got {partial!r}")
    if not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"out must be a path, got {type(out).__name__}")
    out = Path(out)
    if not out.exists():
        raise FileNotFoundError(f"results folder {str(out)!r} does not exist")
    if not out.is_dir():
        raise ValueError(f"{str(out)!r} is a file, not a results folder of rankfusion "
                         "experiment")
    path = out / "results.parquet"
    meta_path = out / "metadata.json"
    try:
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{meta_path}: not valid JSON ({exc}); the run's metadata is "
                         "damaged: run the experiment again to rewrite it") from None
    if not isinstance(meta, dict):
        raise ValueError(f"{meta_path}: not a JSON object; the run's metadata is damaged: run "
                         "the experiment again to rewrite it")
    cfg_path = out / "config.toml"
    cfg_sha = (hashlib.sha256(cfg_path.read_bytes()).hexdigest() if cfg_path.is_file()
               else None)
    if partial and path.exists():
        results, tables_sha = read_table(path)
        if tables_sha is None or cfg_sha is None or tables_sha == cfg_sha:
            positions = _read_positions(out, tables_sha)
            return results, positions, _meta_of(meta, tables_sha)
        # the tables are another configuration's (this folder's config.toml was run after
        # them and stopped): the partial results are those of config.toml
    if partial:
        from .config import load_config
        from .store import assemble, cell_status

        if cfg_sha is None:
            raise FileNotFoundError(f"{str(out)!r} holds no config.toml: not a results folder "
                                    "of rankfusion experiment")
        cells = load_config(cfg_path).cells
        status = cell_status(out, cells)
        results, positions, _ = assemble(out, [c for c in cells if status[c.hash] == "done"])
        return results, positions, _meta_of(meta, cfg_sha)
    if not path.exists():
        raise FileNotFoundError(f"{str(out)!r} holds no results.parquet: run the experiment "
                                "to the end first (rankfusion experiment CONFIG --out DIR), or "
                                "read the finished cells with partial=True")
    results, tables_sha = read_table(path)
    positions = _read_positions(out, tables_sha)
    return results, positions, _meta_of(meta, tables_sha)


def _read_positions(out: Path, tables_sha: str | None) -> pd.DataFrame:
    pos_path = out / "positions.parquet"
    if not pos_path.exists():
        return pd.DataFrame()
    positions, pos_sha = read_table(pos_path)
    if pos_sha != tables_sha:
        raise ValueError(
            f"{pos_path} and {out / 'results.parquet'} belong to different configurations "
            f"({(pos_sha or 'unknown')[:12]} and {(tables_sha or 'unknown')[:12]}): a run was "
            f"stopped while it wrote them. Run the experiment again on this folder "
            f"(rankfusion experiment {out / 'config.toml'} --out {out}) to rebuild both from "
            "the cell files")
    return positions


def _meta_of(meta: dict, sha: str | None) -> dict:
    """``meta`` with ``experiment`` set to the experiment whose configuration hash is ``sha``
    (the tables'), never another one's: a run of another configuration that stopped before
    writing its tables leaves them and their experiment as they were."""
    if sha is None:  # tables of an earlier release: no hash to match
        return meta
    meta = dict(meta)
    experiments = meta.get("experiments") if isinstance(meta.get("experiments"), dict) else {}
    current = meta.get("experiment") if isinstance(meta.get("experiment"), dict) else {}
    if sha in experiments:
        meta["experiment"] = experiments[sha]
    elif current.get("config_sha256") != sha:
        meta["experiment"] = {"config_sha256": sha}  # unknown: no name, seed or description
    return meta


def _slug(*parts) -> str:
    s = "-".join(str(p) for p in parts if p not in (None, ""))
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", s).strip("_") or "figure"


_MD_SPECIAL = re.compile(r"([\\`*\[\]|~]|(?<!\w)_|_(?!\w))")


def md_escape(text) -> str:
    """``text`` as literal Markdown: ``<``, ``>`` and ``&`` as HTML entities (so that
    ``<script>`` or ``<img onerror=…>`` in a label is shown, never run, by a Markdown viewer
    that passes HTML through); backslash, backtick, ``*``, ``[``, ``]``, ``|``, ``~`` and an
    ``_`` at the edge of a word backslash-escaped (no code, emphasis, link, image or table
    cell from a label; ``naive_bayes`` stays as it is); a leading ``#``, ``+``, ``-``, ``=``
    or ``1.`` escaped (no heading, list or rule); line breaks as spaces (a label cannot end a
    heading or a table row).

    >>> print(md_escape("<img src=x onerror=alert(1)>"))
    &lt;img src=x onerror=alert(1)&gt;
    >>> print(md_escape("a|b [x](y) *z* info_gain _u_"))
    a\\|b \\[x\\](y) \\*z\\* info_gain \\_u\\_
    """
    s = _MD_SPECIAL.sub(r"\\\1", re.sub(r"[\r\n\t\v\f]+", " ", str(text)))
    s = re.sub(r"^(\s*)([#+\-=])", r"\1\\\2", s)  # no heading, list item or rule
    s = re.sub(r"^(\s*\d+)([.)])(?=\s|$)", r"\1\\\2", s)  # no numbered item
    return html.escape(s, quote=False)


def _fmt_num(v) -> str:
    if isinstance(v, (float, np.floating)):
        return "nan" if np.isnan(v) else f"{v:.4f}"
    return str(v)


class _Doc:
    """Builds the HTML and the Markdown side by side."""

    def __init__(self, fig_dir: Path):
        self.html: list[str] = []
        self.md: list[str] = []
        self.fig_dir = fig_dir
        self.figures: list[str] = []
        self._plt = None

    def h(self, level: int, text: str):
        self.html.append(f"<h{level}>{html.escape(text)}</h{level}>")
        self.md.append(f"{'#' * level} {md_escape(text)}\n")

    def p(self, text: str):
        self.html.append(f"<p>{html.escape(text)}</p>")
        self.md.append(f"{md_escape(text)}\n")

    def na(self, what: str, why: str):
        self.p(f"{what}: not applicable — {why}.")

    def table(self, frame: pd.DataFrame, *, index: bool = True):
        f = frame.copy()
        f = f.map(_fmt_num) if hasattr(f, "map") else f.applymap(_fmt_num)
        self.html.append(f.to_html(index=index, escape=True, border=0, classes="tab"))
        cols = ([md_escape(f.index.name or "")] if index else []) + [md_escape(c)
                                                                      for c in f.columns]
        rows = [(([md_escape(i)] if index else []) + [md_escape(v) for v in r])
                for i, r in zip(f.index, f.to_numpy())]
        lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        self.md.append("\n".join(lines) + "\n")

    def figure(self, fig, name: str, caption: str):
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
        self._plt.close(fig)
        data = buf.getvalue()
        fname = f"{name}.png"
        write_bytes_atomic(self.fig_dir / fname, data)
        self.figures.append(fname)
        b64 = base64.b64encode(data).decode("ascii")
        self.html.append(f'<figure><img alt="{html.escape(caption)}" '
                         f'src="data:image/png;base64,{b64}"/>'
                         f"<figcaption>{html.escape(caption)}</figcaption></figure>")
        self.md.append(f"![{md_escape(caption)}](figures/{fname})\n")

    def plots_available(self) -> bool:
        if self._plt is not None:
            return True
        try:
            import matplotlib

            matplotlib.use("Agg", force=False)
            import matplotlib.pyplot as plt
        except ImportError:
            return False
        self._plt = plt
        return True


_CSS = """body{font-family:system-ui,sans-serif;max-width:70em;margin:2em auto;padding:0 1em}
table.tab{border-collapse:collapse;margin:.5em 0 1.5em}table.tab td,table.tab th{padding:.2em
.6em;border-bottom:1px solid #ddd;text-align:right}figure{margin:1em 0}img{max-width:100%}
figcaption{font-size:.9em;color:#555}"""


def _mean_sd_table(m: pd.DataFrame, s: pd.DataFrame, columns) -> pd.DataFrame:
    """``mean ± sd`` cells of two aligned frames, built in one go."""
    s = s.reindex(index=m.index, columns=m.columns)
    data = {name: [f"{a:.3f} ± {b:.3f}" for a, b in zip(m[c], s[c])]
            for name, c in zip(columns, m.columns)}
    tab = pd.DataFrame(data, index=m.index, dtype=object)
    if list(columns) == list(m.columns):
        tab.columns.name = m.columns.name
    return tab


def _summary_errors(res: pd.DataFrame, protocol: str, classifier: str) -> pd.DataFrame:
    """datasets × methods: mean error (over splits and feature counts)."""
    sub = res[(res["protocol"] == protocol) & (res["classifier"] == classifier)
              & (res["metric"] == "error")]
    return sub.pivot_table(index="dataset", columns="method", values="value", aggfunc="mean",
                           sort=False)


def _per_split_errors(res, protocol, classifier) -> dict:
    sub = res[(res["protocol"] == protocol) & (res["classifier"] == classifier)
              & (res["metric"] == "error")]
    out = {}
    for ds, d in sub.groupby("dataset", sort=False):
        out[ds] = d.pivot_table(index="split", columns="method", values="value",
                                aggfunc="mean", sort=False)
    return out


def write_report(out, *, title: str | None = None) -> Path:
    """Write ``OUT/report/report.html`` (self-contained) and ``report.md``; returns the HTML
    path. Figures need matplotlib (``rankfusion[plot]``); without it the report has the
    tables and says why the figures are missing.

    Parameters
    ----------
    out : str or path-like
        A results folder written by :func:`run_experiment`.
    title : str, optional
        The report's title; default from the experiment's name.

    Returns
    -------
    pathlib.Path
        The path of ``report.html``.
    """
    from ..evaluation import friedman, nemenyi, rule_agreement, win_matrix

    out = Path(out)
    results, positions, meta = read_results(out)
    rep = out / "report"
    fig_dir = rep / "figures"
    fig_dir.mkdir(parents=True, exist_ok=True)
    for old in fig_dir.glob("*.png"):
        old.unlink()
    doc = _Doc(fig_dir)
    exp = meta.get("experiment", {})
    name = title or exp.get("name", out.name)
    doc.h(1, f"Experiment report: {name}")
    if exp.get("description"):
        doc.p(exp["description"])
    runs = meta.get("runs", [])
    doc.p(f"Seed {exp.get('seed')}, {exp.get('cells', '?')} cells, {len(runs)} run(s); "
          f"rankfusion {meta.get('versions', {}).get('rankfusion')}, machine "
          f"{meta.get('machine', {}).get('platform', '?')} "
          f"({meta.get('machine', {}).get('cpu_count', '?')} CPUs).")
    sha = exp.get("config_sha256")
    if sha:
        doc.p(f"Configuration SHA-256 {sha[:12]}…: every result below is of this "
              "configuration (the tables carry its hash).")
        cfg_path = out / "config.toml"
        if cfg_path.is_file() and hashlib.sha256(cfg_path.read_bytes()).hexdigest() != sha:
            other = meta.get("experiments", {}).get(
                hashlib.sha256(cfg_path.read_bytes()).hexdigest(), {})
            doc.p("Note: this folder's config.toml is another configuration"
                  + (f" ({other.get('name')!r})" if other.get("name") else "")
                  + ", run after these results and not to its end; its results are not in "
                  "this report. Run it to the end to report it, or read its finished cells "
                  "with read_results(DIR, partial=True).")
    if runs:
        doc.table(pd.DataFrame([{k: r.get(k) for k in ("started", "experiment", "status",
                                                       "backend", "seconds", "cells_reused",
                                                       "cells_computed", "finished")}
                                for r in runs]), index=False)
    plots = doc.plots_available()
    if plots:
        from ..evaluation import (
            plot_agreement,
            plot_critical_difference,
            plot_error_curves,
            plot_stability,
        )
    else:
        doc.p("Figures: not drawn — matplotlib is missing (pip install 'rankfusion[plot]').")

    curves = results[results["n_features"] >= 0]
    cvres = results[results["n_features"] < 0]
    # ------------------------------------------------------------------ per dataset
    doc.h(2, "Results per dataset")
    if not curves.empty:
        for (ds, clf, proto), d in curves.groupby(["dataset", "classifier", "protocol"],
                                                   sort=False):
            doc.h(3, f"{ds} — {clf} — {proto} (error curve)")
            # each group's own statistics: no lookup in a MultiIndex that is not lexsorted
            # (pandas' PerformanceWarning), and the table built in one go, not column by column
            g = d.groupby(["method", "n_features"], sort=False)["value"]
            m, s = g.mean().unstack("n_features"), g.std(ddof=1).unstack("n_features")
            tab = _mean_sd_table(m, s, [f"k={c}" for c in m.columns])
            tab.index.name = "method"
            doc.table(tab)
            if plots:
                by_method = {meth: pd.DataFrame({"mean": m.loc[meth], "sd": s.loc[meth]})
                             for meth in m.index}
                fig = plot_error_curves(by_method, title=f"{ds} — {clf}")
                doc.figure(fig, _slug("curve", ds, clf, proto),
                           f"Error curves on {ds} ({clf}, {proto}): mean ± SD over splits")
    if not cvres.empty:
        for (ds, clf, proto), d in cvres.groupby(["dataset", "classifier", "protocol"],
                                                 sort=False):
            doc.h(3, f"{ds} — {clf} — {proto} (cross-validation)")
            g = d.groupby(["method", "metric"], sort=False)["value"]
            m, s = g.mean().unstack("metric"), g.std(ddof=1).unstack("metric")
            doc.table(_mean_sd_table(m, s, list(m.columns)))
    # ------------------------------------------------------------------ across datasets
    doc.h(2, "Comparison across datasets (Friedman, Nemenyi)")
    combos = results[results["metric"] == "error"][["protocol", "classifier"]] \
        .drop_duplicates().itertuples(index=False)
    any_stat = False
    for proto, clf in combos:
        errs = _summary_errors(results, proto, clf).dropna(axis=1)
        label = f"{proto}, {clf}"
        if errs.shape[0] < 2 or errs.shape[1] < 2:
            doc.na(f"Friedman/Nemenyi ({label})", f"needs ≥ 2 datasets and ≥ 2 methods; have "
                   f"{errs.shape[0]} dataset(s) and {errs.shape[1]} method(s)")
            continue
        any_stat = True
        doc.h(3, f"{label}")
        doc.p("Mean error of each method on each dataset (over splits/folds and feature "
              "counts):")
        doc.table(errs)
        fr = friedman(errs)
        ne = nemenyi(errs)
        doc.p(f"Friedman χ²_F = {fr.statistic:.3f}, p = {fr.pvalue:.4f} (Iman–Davenport F = "
              f"{fr.iman_davenport:.3f}, p = {fr.iman_davenport_pvalue:.4f}); Nemenyi critical "
              f"difference {ne.critical_difference:.3f} at α = {ne.alpha}.")
        doc.table(fr.average_ranks.rename("average rank").to_frame())
        if plots:
            fig = plot_critical_difference(ne, title=label)
            doc.figure(fig, _slug("cd", proto, clf), f"Critical-difference diagram ({label})")
    if not any_stat and results.empty:
        doc.na("Statistics", "no results")
    # ------------------------------------------------------------------ win matrix
    doc.h(2, "Win matrix (paired t-tests over splits)")
    for proto, clf in results[results["metric"] == "error"][["protocol", "classifier"]] \
            .drop_duplicates().itertuples(index=False):
        tables = _per_split_errors(results, proto, clf)
        methods = set.intersection(*[set(t.columns) for t in tables.values()])
        label = f"{proto}, {clf}"
        if len(methods) < 2:
            doc.na(f"Win matrix ({label})", "needs ≥ 2 methods")
            continue
        cols = [c for c in next(iter(tables.values())).columns if c in methods]
        wm = win_matrix({k: t[cols] for k, t in tables.items()})
        doc.h(3, label)
        doc.p(f"wins[A, B] = datasets (of {wm.n_datasets}) where A's error is significantly "
              f"lower than B's (α = {wm.alpha}); ranking: {', '.join(map(str, wm.ranking))}.")
        doc.table(wm.wins)
    # ------------------------------------------------------------------ stability
    doc.h(2, "Stability of the selected subsets")
    if positions.empty:
        doc.na("Stability", "no error-curve cells (the per-split rankings are recorded by the "
               "error-curve protocol)")
    else:
        from ..stability import nogueira

        for (ds, proto), d in positions.groupby(["dataset", "protocol"], sort=False):
            ks = sorted(curves[(curves["dataset"] == ds) & (curves["protocol"] == proto)]
                        ["n_features"].unique())
            stab = {}
            for meth, dm in d.groupby("method", sort=False):
                piv = dm.pivot(index="split", columns="feature", values="position")
                p = piv.shape[1]
                if piv.shape[0] < 2:
                    continue
                vals = {}
                for k in ks:
                    if not 1 <= k < p:
                        continue
                    try:
                        vals[int(k)] = float(nogueira((piv.to_numpy() <= k).astype(int))
                                             .statistic)
                    except (ValueError, ZeroDivisionError):
                        continue
                if vals:
                    stab[meth] = pd.Series(vals)
            if not stab:
                doc.na(f"Stability ({ds}, {proto})", "needs ≥ 2 splits and a feature count "
                       "below the number of features")
                continue
            doc.h(3, f"{ds} — {proto}")
            frame = pd.DataFrame(stab)
            frame.index.name = "k"
            doc.table(frame.T)
            if plots:
                fig = plot_stability(frame, ylabel="Nogueira stability",
                                     title=f"Stability on {ds}")
                doc.figure(fig, _slug("stability", ds, proto),
                           f"Stability of the top-k sets over the splits ({ds}, {proto})")
    # ------------------------------------------------------------------ rule agreement
    doc.h(2, "Agreement between aggregation rules")
    shown = False
    if not positions.empty:
        for (ds, proto, sel), d in positions.groupby(["dataset", "protocol", "selector"],
                                                     sort=False):
            rules = [r for r in d["rule"].unique() if r]
            if len(rules) < 2:
                continue
            orders = {}
            for rule in rules:
                mp = d[d["rule"] == rule].groupby("feature", sort=False)["position"].mean()
                orders[rule] = list(mp.sort_values(kind="stable").index)
            p = len(next(iter(orders.values())))
            k = min(10, p)
            ag = rule_agreement(orders, k=k)
            shown = True
            doc.h(3, f"{ds} — {sel} — {proto}")
            doc.p(f"Normalised Kendall distance between the rules' consensus rankings (features "
                  f"by mean position over the splits), and the Jaccard index of their top-{k}:")
            doc.table(ag.kendall)
            doc.table(ag.jaccard)
            if plots:
                fig = plot_agreement(ag.kendall, title=f"Kendall distance — {ds}, {sel}")
                doc.figure(fig, _slug("agreement", ds, sel, proto),
                           f"Kendall distance between rules ({ds}, {sel}, {proto})")
    if not shown:
        doc.na("Rule agreement", "no selector was crossed with ≥ 2 rules under an error-curve "
               "protocol")

    body = "\n".join(doc.html)
    html_text = (f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>"
                 f"{html.escape(name)}</title><style>{_CSS}</style></head><body>\n{body}\n"
                 "</body></html>\n")
    write_bytes_atomic(rep / "report.html", html_text.encode("utf-8"))
    write_bytes_atomic(rep / "report.md", "\n".join(doc.md).encode("utf-8"))
    return rep / "report.html"
