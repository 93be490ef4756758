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
  splits' rankings against k; (cross-validation cells) Φ of the subsets selected on the folds,
  with its interval, where the cells recorded them (cells of earlier releases did not: named);
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
        from .cells import fold_positions
        from .config import load_config
        from .store import assemble, cell_status

        if cfg_sha is None:
            raise FileNotFoundError(f"{str(out)!r} holds no config.toml: not a results folder "
                                    "of rankfusion experiment")
        cells = load_config(cfg_path).cells
        status = cell_status(out, cells)
        done = [c for c in cells if status[c.hash] == "done"]
        results, positions, _ = assemble(out, done)
        positions = fold_positions(out, done, positions)
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


def _md_anchor(text: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces → -."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


class _Doc:
    """Builds the HTML and the Markdown side by side."""

    def __init__(self, fig_dir: Path):
        self.html: list[str] = []
        self.md: list[str] = []
        self.fig_dir = fig_dir
        self.figures: list[str] = []
        self.toc: list[tuple[str, str]] = []
        self._plt = None

    def h(self, level: int, text: str):
        if level == 2:  # a section: an anchor for the table of contents
            anchor = _slug("section", text)
            self.toc.append((anchor, text))
            self.html.append(f"<h2 id='{anchor}'>{html.escape(text)}</h2>")
        else:
            self.html.append(f"<h{level}>{html.escape(text)}</h{level}>")
        self.md.append(f"{'#' * level} {md_escape(text)}\n")

    def how_to_read(self, text: str):
        """One sentence on how to read the figure or table before it."""
        self.html.append(f"<p class='howto'>How to read: {html.escape(text)}</p>")
        self.md.append(f"*How to read:* {md_escape(text)}\n")

    def contents(self):
        """The table of contents, before the first section."""
        first = next((i for i, h in enumerate(self.html) if h.startswith("<h2 ")),
                     len(self.html))
        nav = ("<nav><b>Contents</b><ol>" + "".join(
            f"<li><a href='#{a}'>{html.escape(t)}</a></li>" for a, t in self.toc)
            + "</ol></nav>")
        self.html.insert(first, nav)
        first_md = next((i for i, h in enumerate(self.md) if h.startswith("## ")),
                        len(self.md))
        # Markdown viewers (GitHub) make the anchors from the heading text
        self.md.insert(first_md, "**Contents**\n\n" + "\n".join(
            f"{i + 1}. [{md_escape(t)}](#{_md_anchor(t)})" for i, (_, t) in
            enumerate(self.toc)) + "\n")

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
figcaption{font-size:.9em;color:#555}.howto{font-style:italic;color:#444}
.caveat{border-left:4px solid #c83;background:#fdf5ec;padding:.4em .8em}"""


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


def _win_ranking_text(wm) -> str:
    """The ranking line of a win matrix (:func:`rankfusion.evaluation.win_matrix`): methods
    ranked by the statistic it names, net wins (wins − losses; then the methods each
    outperforms), equal statistics sharing a rank (competition ranking, "1, 2, 2, 4"), never
    the input order presented as a ranking; "no wins: no ranking" when no test rejected.

    Parameters
    ----------
    wm : WinMatrixResult

    Returns
    -------
    str
    """
    if not int(wm.wins.to_numpy().sum()):
        return "no wins: no ranking (no pair of methods differs significantly)"
    parts, rank, previous = [], 0, None
    for position, name in enumerate(wm.ranking, start=1):
        key = (int(wm.net_wins[name]), int(wm.outperforms[name]))
        if key != previous:
            rank, previous = position, key
        parts.append(f"{rank}. {name} ({key[0]:+d})")
    return ("ranking by net wins (wins − losses, in brackets; equal net wins and methods "
            "outperformed share a rank): " + ", ".join(parts))


def _per_split_errors(res, protocol, classifier) -> dict:
    sub = res[(res["protocol"] == protocol) & (res["classifier"] == classifier)
              & (res["metric"] == "error")]
    out = {}
    for ds, d in sub.groupby("dataset", sort=False):
        out[ds] = d.pivot_table(index="split", columns="method", values="value",
                                aggfunc="mean", sort=False)
    return out


_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
_DASHES = ("-", "--", "-.", ":")


def _identical_groups(frame: pd.DataFrame) -> list[list[str]]:
    """Groups (≥ 2) of rows of ``frame`` (methods × points) that are equal to 1e-12."""
    groups: list[list[str]] = []
    values = {m: frame.loc[m].to_numpy(dtype=float) for m in frame.index}
    seen: set = set()
    for a in frame.index:
        if a in seen:
            continue
        same = [b for b in frame.index if b not in seen and np.allclose(
            values[a], values[b], rtol=0, atol=1e-12, equal_nan=True)]
        seen.update(same)
        if len(same) > 1:
            groups.append([str(m) for m in same])
    return groups


def _ticks_at(ax, ks):
    """Ticks at the feature counts themselves (a log axis hides them otherwise)."""
    ks = sorted({int(k) for k in ks})
    if len(ks) > 1 and ks[-1] / max(ks[0], 1) > 8:
        ax.set_xscale("log")
    ax.set_xticks(ks)
    ax.set_xticklabels([str(k) for k in ks])
    ax.minorticks_off()


def _lines_figure(m: pd.DataFrame, s: pd.DataFrame | None, *, title: str, ylabel: str,
                  bounds=(0.0, 1.0)):
    """Methods × feature counts as lines: each method its own marker and dash and a small
    sideways shift, so that methods with equal values stay visible; ±1 SD bars clipped to
    ``bounds`` (an error rate or Φ cannot leave [0, 1])."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.2, 4.4))
    ax = fig.subplots()
    n = len(m.index)
    lo_b, hi_b = bounds
    for i, meth in enumerate(m.index):
        x = np.asarray(m.columns, dtype=float)
        x = x * (1.0 + 0.02 * (i - (n - 1) / 2))
        y = m.loc[meth].to_numpy(dtype=float)
        kw = dict(marker=_MARKERS[i % len(_MARKERS)], ls=_DASHES[i % len(_DASHES)], ms=5,
                  lw=1.3, label=str(meth), alpha=0.9, mfc="none" if i % 2 else None)
        if s is not None:
            sd = s.loc[meth].reindex(m.columns).to_numpy(dtype=float)
            sd = np.nan_to_num(sd)
            lower = np.clip(np.minimum(sd, y - lo_b), 0, None)
            upper = np.clip(np.minimum(sd, hi_b - y), 0, None)
            ax.errorbar(x, y, yerr=[lower, upper], capsize=2, **kw)
        else:
            ax.plot(x, y, **kw)
    _ticks_at(ax, m.columns)
    ax.set_xlabel("number of features (k)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small")
    return fig


def _agreement_figure(kendall: pd.DataFrame, title: str):
    """Heat map of the normalised Kendall distances on the fixed scale [0, 1] (white = the
    same order), every cell labelled with its value."""
    from matplotlib.figure import Figure

    k = kendall.to_numpy(dtype=float)
    n = k.shape[0]
    fig = Figure(figsize=(1.2 * n + 2.8, 1.0 * n + 1.6))
    ax = fig.subplots()
    im = ax.imshow(k, cmap="Reds", vmin=0.0, vmax=1.0)
    for i in range(n):
        for j in range(n):
            ax.text(j, i, f"{k[i, j]:.2f}", ha="center", va="center", fontsize=8,
                    color="white" if k[i, j] > 0.6 else "black")
    ax.set_xticks(range(n))
    ax.set_xticklabels([str(c) for c in kendall.columns], rotation=45, ha="right")
    ax.set_yticks(range(n))
    ax.set_yticklabels([str(c) for c in kendall.index])
    fig.colorbar(im, ax=ax, label="Kendall distance (0 = same order, 1 = reversed)")
    ax.set_title(title, fontsize=10)
    return fig


def _same_note(groups: list[list[str]], what: str) -> str:
    if not groups:
        return ""
    text = "; ".join(" = ".join(g) for g in groups)
    return (f" Identical {what}: {text} — their lines coincide; each method has its own "
            "marker and a small sideways shift so that all stay visible.")


def _cv_stability(doc: _Doc, cvres: pd.DataFrame, fold_pos: pd.DataFrame,
                  alpha: float = 0.05) -> None:
    """Nogueira's Φ of the subsets selected on the folds of each cross-validation cell, with
    its ``1 − alpha`` interval; cells whose folds were not recorded are named."""
    from ..stability import nogueira

    level = round(100 * (1 - alpha))
    intro = False
    for (ds, proto), d in cvres.groupby(["dataset", "protocol"], sort=False):
        rows, missing = [], []
        fp_ds = fold_pos[(fold_pos["dataset"] == ds) & (fold_pos["protocol"] == proto)]
        for meth, dm in d.groupby("method", sort=False):
            fp = fp_ds[fp_ds["method"] == meth]
            if fp.empty:
                missing.append(meth)
                continue
            cells = list(fp["cell"].unique())
            for cell in cells:
                dc = fp[fp["cell"] == cell]
                piv = dc.pivot(index="split", columns="feature", values="selected")
                Z = piv.to_numpy(dtype=bool).astype(np.int8)
                sizes = Z.sum(axis=1)
                res = None
                if Z.shape[0] >= 2 and 0 < Z.sum() < Z.size:
                    try:
                        res = nogueira(Z, alpha=alpha)
                    except (ValueError, ZeroDivisionError):
                        res = None
                clf = ("all" if len(cells) == 1 else
                       ", ".join(sorted(dm[dm["cell"] == cell]["classifier"].unique())))
                nan = float("nan")
                rows.append({"method": meth, "classifier": clf, "folds": Z.shape[0],
                             "selected (mean)": float(sizes.mean()),
                             "Φ": nan if res is None else res.statistic,
                             f"Φ {level} % low": nan if res is None else res.low,
                             f"Φ {level} % high": nan if res is None else res.high})
        if not intro:
            doc.h(3, "Cross-validation cells")
            doc.p(f"Φ of the subsets each method's selector selected on the training parts of "
                  f"the folds (its own subset size, which may differ between folds), with "
                  f"Nogueira et al.'s asymptotic {level} % interval; NaN where Φ is undefined "
                  "(one fold, or every fold kept all or no features). \"classifier: all\": "
                  "the classifiers of the method share its selection.")
            intro = True
        if rows:
            doc.h(4, f"{ds} — {proto}")
            doc.table(pd.DataFrame(rows).set_index("method"))
        if missing:
            doc.na(f"Stability of the cross-validation cells ({ds}, {proto})",
                   "stability not recorded for these cells (" + ", ".join(missing) + "): "
                   "they were computed before the folds' subsets were recorded; run them "
                   "again in a new folder to record them")


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
        table = pd.DataFrame([{k: r.get(k) for k in ("started", "experiment", "status",
                                                      "backend", "seconds", "cells_reused",
                                                      "cells_computed", "finished")}
                              for r in runs])
        # each run's duration as the command line printed it (one number per run)
        table["seconds"] = [f"{v:.1f}" if isinstance(v, (int, float)) else "" for v in
                            table["seconds"]]
        doc.table(table, index=False)
    plots = doc.plots_available()
    if plots:
        from ..evaluation import (
            plot_critical_difference,
        )
    else:
        doc.p("Figures: not drawn — matplotlib is missing (pip install 'rankfusion[plot]').")

    curves = results[results["n_features"] >= 0]
    cvres = results[results["n_features"] < 0]
    # a regression experiment's curve "error" is the test RMSE (docs/design.md, 'Tasks'):
    # not a rate, so neither clipped at 1 nor called an error rate
    regression = exp.get("task") == "regression"
    err_name = "test RMSE" if regression else "test error"
    bounds = (0.0, np.inf) if regression else (0.0, 1.0)
    clip_note = "(bars clipped at 0)" if regression else "(bars clipped at 0 and 1)"
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
                same = _identical_groups(m)
                fig = _lines_figure(m, s, title=f"{ds} — {clf}", ylabel=err_name,
                                    bounds=bounds)
                doc.figure(fig, _slug("curve", ds, clf, proto),
                           f"Error curves on {ds} ({clf}, {proto}): mean ± SD over splits "
                           f"{clip_note}." + _same_note(same, "error curves"))
                doc.how_to_read("lower is better; ticks are the feature counts the protocol "
                                "evaluated; a bar is ±1 SD of the error over the splits, so "
                                "overlapping bars alone do not show a difference — the win "
                                "matrix below tests it.")
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
        n_ds = errs.shape[0]
        if n_ds < 10:
            doc.html.append(
                f"<p class='caveat'>Caveat: only {n_ds} data sets. The Friedman test ranks "
                "the methods within each data set, so with few data sets it has little power "
                "and its χ² approximation is poor (Demšar 2006 asks for more than 10 data sets "
                "and 5 methods); the Nemenyi critical difference is then so large that almost "
                "no pair can differ. Read these p-values as indicative, not as evidence.</p>")
            doc.md.append(f"> **Caveat:** only {n_ds} data sets: the Friedman test has little "
                          "power and its χ² approximation is poor (Demšar 2006 asks for more "
                          "than 10 data sets and 5 methods); read these p-values as "
                          "indicative, not as evidence.\n")
        doc.table(fr.average_ranks.rename("average rank").to_frame())
        if plots:
            fig = plot_critical_difference(ne, title=label)
            doc.figure(fig, _slug("cd", proto, clf), f"Critical-difference diagram ({label})")
            doc.how_to_read("each method sits at its average rank over the data sets (1 = "
                            "best, on the left); the bar marked CD at the top is the critical "
                            "difference; methods joined by a thick line differ by less than "
                            "CD, so the Nemenyi test cannot tell them apart.")
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
              f"lower than B's (α = {wm.alpha}); {_win_ranking_text(wm)}.")
        doc.table(wm.wins)
    # ------------------------------------------------------------------ stability
    doc.h(2, "Stability of the selected subsets")
    doc.p("Nogueira's Φ (Nogueira, Sechidis & Brown 2018) compares the top-k feature sets "
          "chosen on the different splits: 1 means the same k features every time, 0 no more "
          "overlap than random subsets of size k would have (negative: less); it is corrected "
          "for chance, so values at different k can be compared.")
    # the rows of the cross-validation folds (selected subsets) apart from the error curves'
    fold_pos = positions.iloc[0:0]
    if "selected" in positions.columns:
        recorded = positions["selected"].notna().to_numpy(dtype=bool)
        fold_pos = positions[recorded]
        positions = positions[~recorded].drop(columns="selected")
    if not cvres.empty:
        _cv_stability(doc, cvres, fold_pos)
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
                same = _identical_groups(frame.T)
                fig = _lines_figure(frame.T, None, title=f"Stability on {ds}",
                                    ylabel="Nogueira's Φ", bounds=(-1.0, 1.0))
                doc.figure(fig, _slug("stability", ds, proto),
                           f"Stability of the top-k sets over the splits ({ds}, {proto})."
                           + _same_note(same, "stabilities"))
                doc.how_to_read("higher is more stable (1: every split chose the same top k); "
                                "a method worth using is stable at the k where its error is "
                                "low.")
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
            doc.p("The rules' consensus rankings are compared with features ordered by their "
                  "mean position over the splits.")
            doc.p("Normalised Kendall distance between the rules (0 = the same order, 1 = "
                  "reversed):")
            doc.table(ag.kendall)
            doc.p(f"Jaccard index of the rules' top-{k} features (1 = the same top {k}, 0 = "
                  "none in common):")
            doc.table(ag.jaccard)
            off = ag.kendall.to_numpy(dtype=float)[~np.eye(len(ag.kendall), dtype=bool)]
            if off.size and np.allclose(off, 0.0):
                doc.p("All these rules give the same consensus ranking here: the choice "
                      "between them does not matter on this data.")
            if plots:
                fig = _agreement_figure(ag.kendall, f"Kendall distance — {ds}, {sel}")
                doc.figure(fig, _slug("agreement", ds, sel, proto),
                           f"Kendall distance between rules ({ds}, {sel}, {proto})")
                doc.how_to_read("each cell is the distance between two rules on the fixed "
                                "scale 0 (white: the same order) to 1 (reversed); a pale map "
                                "means the rules agree.")
    if not shown:
        doc.na("Rule agreement", "no selector was crossed with ≥ 2 rules under an error-curve "
               "protocol")

    doc.contents()
    body = "\n".join(doc.html)
    html_text = (f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>"
                 f"{html.escape(name)}</title><style>{_CSS}</style></head><body>\n{body}\n"
                 "</body></html>\n")
    write_bytes_atomic(rep / "report.html", html_text.encode("utf-8"))
    write_bytes_atomic(rep / "report.md", "\n".join(doc.md).encode("utf-8"))
    return rep / "report.html"
