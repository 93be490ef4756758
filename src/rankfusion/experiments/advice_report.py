"""``advice.html``: the advisor's result as one self-contained page (figures embedded as
base64 PNG, no external file), next to ``advice.csv``.

From the top: the verdict, a table of contents, the key numbers, then four figures, each with
one sentence saying how to read it — the outer score (accuracy, or R² / −RMSE / −MAE for a
regression target, named as such everywhere on the page) against subset size per
configuration family with its intervals, the Pareto front (score, size, stability), stability
against the score, and the gain of the combination procedure over the best single ranker with
its interval — and the table of the best configurations. Every score on the page is an outer
estimate (module docstring of :mod:`rankfusion.evaluation.advisor`); the inner maximum is never
shown.
"""

from __future__ import annotations

import base64
import html
import io
from pathlib import Path

import numpy as np

from .store import write_bytes_atomic

__all__ = ["write_advice_report", "advice_report_html"]

#: Families drawn in the first figure (the best by their best outer score; every single
#: ranker is always drawn).
MAX_FAMILIES = 8


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _size_axis(ax, sizes):
    """Log axis when the sizes span more than a factor 8, ticks at the counts themselves (a
    stability size, plotted at its mean size over the folds, gets no tick of its own)."""
    sizes = sorted({int(s) for s in sizes if float(s).is_integer()})
    if sizes and sizes[-1] / max(sizes[0], 1) > 8:
        ax.set_xscale("log")
    ax.set_xticks(sizes)
    ax.set_xticklabels([str(s) for s in sizes])
    ax.minorticks_off()
    ax.set_xlabel("subset size (features)")


def _family(row) -> str:
    return f"{row['rankers']} | {row['rule']}"


def _score_name(advice) -> str:
    from ..evaluation.advisor import SCORE_NAMES

    return SCORE_NAMES[getattr(advice, "scoring", "accuracy")]


def _clips(advice) -> tuple[float, float]:
    """The range of the score: accuracy [0, 1], MCC [−1, 1], R² (−∞, 1], −RMSE, −MAE and
    −log-loss (−∞, 0] (:data:`rankfusion.evaluation.scores.SCORES`)."""
    from ..evaluation.scores import SCORES

    return SCORES[getattr(advice, "scoring", "accuracy")].bounds


def _values(column) -> np.ndarray:
    """A column as a float array (matplotlib's masking of a pandas Series with a shuffled
    index fails on pandas < 2)."""
    return np.asarray(column, dtype=np.float64)


def _fig_curves(table, advice):
    """Small multiples: one panel per family (the best combination families, then every
    ranker alone), its mean outer score against size with the interval as a band; the best
    single ranker's family drawn in grey in every panel as the line to beat. The stability
    sizes are no point of a curve over counts: they are left out here (the Pareto figure and
    the table show them)."""
    from matplotlib.figure import Figure

    t = table.copy()
    if "size_rule" in t.columns:
        t = t[t["size_rule"] == "count"]
    lo_clip, hi_clip = _clips(advice)
    t["family"] = [_family(r) for _, r in t.iterrows()]
    best = t.groupby("family", sort=False)["score"].max().sort_values(ascending=False)
    singles = [f for f in best.index if f.endswith("| alone")]
    rec = advice.recommended
    rec_family = f"{'+'.join(rec.rankers)} | {rec.rule_label}"
    combos = [f for f in best.index if f not in singles]
    if rec_family in combos:  # the recommendation first
        combos.remove(rec_family)
        combos.insert(0, rec_family)
    combos = combos[:MAX_FAMILIES]
    ref = f"{advice.best_single.rankers[0]} | alone"
    if ref in singles:
        singles.remove(ref)
        singles.insert(0, ref)
    shown = combos + singles
    ncols = 3
    nrows = -(-len(shown) // ncols)
    fig = Figure(figsize=(11, 2.6 * nrows))
    axes = fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False)
    span = float(t["score_high"].max() - t["score_low"].min()) or 1.0
    lo_all = max(lo_clip, float(t["score_low"].min()) - 0.02 * span)
    hi_all = min(hi_clip, float(t["score_high"].max()) + 0.02 * span)
    for ax in axes.flat[len(shown):]:
        ax.set_visible(False)

    def draw(ax, fam, color, ls, marker, label):
        g = t[t["family"] == fam].sort_values("size")
        x = g["size"].to_numpy(dtype=float)
        ax.fill_between(x, _values(g["score_low"].clip(lower=lo_clip)),
                        _values(g["score_high"].clip(upper=hi_clip)), color=color, alpha=0.15,
                        lw=0)
        ax.plot(x, _values(g["score"]), ls=ls, marker=marker, ms=3.5, color=color, lw=1.4,
                label=label)

    for i, (ax, fam) in enumerate(zip(axes.flat, shown)):
        if fam != ref and (t["family"] == ref).any():
            draw(ax, ref, "0.55", "--", "s", f"{ref} (best single)")
        draw(ax, fam, "tab:red" if fam in singles else "tab:blue", "-", "o", fam)
        tag = (" (recommended)" if fam == rec_family else
               " (best single, chosen by the inner CV)" if fam == ref else "")
        ax.set_title(fam + tag, fontsize=8.5)
        ax.grid(alpha=0.3)
        ax.set_ylim(lo_all, hi_all)
        if i % ncols == 0:
            ax.set_ylabel(f"outer {_score_name(advice)}", fontsize=8)
    for ax in axes.flat[:len(shown)]:
        _size_axis(ax, t["size"])
        ax.tick_params(labelsize=7, labelbottom=True)
        ax.xaxis.label.set_size(8)
    fig.tight_layout()
    left = len(best) - len(combos) - len(singles)
    note = f" ({left} more combination families are in advice.csv)" if left > 0 else ""
    return fig, note


def _fig_pareto(table, pareto, name="accuracy"):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 4.5))
    ax = fig.subplots()
    phi = table["phi"].to_numpy(dtype=float)
    sc = ax.scatter(table["size"], table["score"], c=np.where(np.isfinite(phi), phi, np.nan),
                    cmap="viridis", s=18, alpha=0.6, label="configuration (colour: Φ)")
    ax.scatter(table.loc[np.isnan(phi), "size"], table.loc[np.isnan(phi), "score"], s=18,
               facecolors="none", edgecolors="grey", label="Φ undefined")
    p = pareto.sort_values("size")
    ax.plot(_values(p["size"]), _values(p["score"]), "-", color="crimson", lw=1)
    ax.scatter(p["size"], p["score"], s=70, facecolors="none", edgecolors="crimson", lw=1.5,
               label="Pareto front")
    if np.isfinite(phi).any():
        fig.colorbar(sc, ax=ax, label="Nogueira's Φ (stability)")
    _size_axis(ax, table["size"])
    ax.set_ylabel(f"mean outer {name}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    return fig


def _fig_stability(table, name="accuracy"):
    from matplotlib.figure import Figure

    t = table[np.isfinite(table["phi"].to_numpy(dtype=float))]
    fig = Figure(figsize=(8, 4.5))
    ax = fig.subplots()
    if t.empty:
        ax.text(0.5, 0.5, "Φ is undefined for every configuration", ha="center",
                transform=ax.transAxes)
        return fig
    single = (t["rule"] == "alone").to_numpy()
    for mask, label, marker in ((~single, "combination", "o"), (single, "ranker alone", "s")):
        g = t[mask]
        if g.empty:
            continue
        # Φ ≤ 1: the asymptotic interval is clipped there
        phi = _values(g["phi"])
        xerr = [np.clip(phi - _values(g["phi_low"]), 0, None),
                np.clip(np.minimum(_values(g["phi_high"]), 1.0) - phi, 0, None)]
        ax.errorbar(phi, _values(g["score"]), xerr=xerr, fmt=marker, ms=4, alpha=0.6,
                    capsize=1.5, lw=0.6, label=label)
    ax.set_xlabel("Nogueira's Φ of the outer subsets (1 = the same subset every time)")
    ax.set_ylabel(f"mean outer {name}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower left")
    return fig


def _fig_gain(advice):
    from matplotlib.figure import Figure

    name = _score_name(advice)
    d = advice.combination_scores - advice.single_scores
    fig = Figure(figsize=(10, 3.2))
    axes = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    ax = axes[0]
    rng = np.random.default_rng(0)
    ax.scatter(d, rng.uniform(-0.15, 0.15, d.shape[0]), s=16, color="grey", alpha=0.7,
               label="outer folds (combination − single)")
    lo, hi = advice.gain_ci
    ax.errorbar([advice.gain], [0], xerr=[[advice.gain - lo], [hi - advice.gain]], fmt="D",
                color="black", capsize=5, ms=7, label=f"gain, {_level(advice)} % interval")
    ax.axvline(0, color="crimson", lw=1, ls="--")
    ax.set_yticks([])
    ax.set_ylim(-0.6, 0.6)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(nbins=6))  # tiny gains: labels must not overlap
    ax.set_xlabel(f"{name} gain of the combination procedure")
    ax.legend(fontsize=7, loc="upper left")
    ax.set_title(f"{name}: p = {advice.pvalue:.3g} (Nadeau–Bengio corrected t-test)",
                 fontsize=9)
    ax = axes[1]
    sg, (slo, shi) = advice.stability_gain, advice.stability_gain_ci
    if np.isfinite(sg):
        ax.errorbar([sg], [0], xerr=[[sg - slo], [shi - sg]], fmt="D", color="black",
                    capsize=5, ms=7)
        ax.axvline(0, color="crimson", lw=1, ls="--")
        ax.set_title("stability: Φ combination − Φ single", fontsize=9)
    else:
        ax.text(0.5, 0.5, "stability gain undefined", ha="center", transform=ax.transAxes)
    ax.set_yticks([])
    ax.set_xlabel("stability gain (Φ)")
    return fig


def _level(advice) -> int:
    return round(100 * (1 - advice.alpha))


def _table_html(frame) -> str:
    return frame.to_html(index=False, border=0, classes="tab", float_format=lambda v:
                         f"{v:.3f}", na_rep="—", escape=True)


_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;max-width:1100px;margin:2em auto;
padding:0 1em;color:#222;line-height:1.45}
h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ddd;padding-bottom:.2em;
margin-top:2em}
.verdict{padding:.8em 1em;border-left:5px solid #888;background:#f6f6f6;font-size:1.05em}
.verdict.gain{border-color:#2a7;background:#eefaf3}.verdict.none{border-color:#c83;
background:#fdf5ec}
.howto{font-style:italic;color:#444}
table.tab{border-collapse:collapse;font-size:.85em}
table.tab td,table.tab th{padding:.2em .6em;border-bottom:1px solid #eee;text-align:right}
table.tab th{background:#fafafa}
img{max-width:100%}
nav ol{margin:.3em 0}
"""


def advice_report_html(advice, *, title: str | None = None) -> str:
    """The page of :func:`write_advice_report` as text.

    Parameters
    ----------
    advice : Advice
        A result of :func:`rankfusion.advise`.
    title : str, optional
        The page's title (default: "Rule advisor").

    Returns
    -------
    str
    """
    from ..evaluation import advice_frame

    table = advice_frame(advice)
    s = advice.summary
    level = _level(advice)
    esc = html.escape
    title = title or "Rule advisor"
    kind = "gain" if advice.significant else "none"
    name = _score_name(advice)
    cap = name[:1].upper() + name[1:]
    sections = [("numbers", "Key numbers"), ("curves", f"{cap} against subset size"),
                ("pareto", "The Pareto front"), ("stability", f"Stability against {name}"),
                ("gain", "The gain and its interval"), ("table", "Best configurations"),
                ("method", "How these numbers were obtained")]
    out = [f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{esc(title)}"
           f"</title><style>{_CSS}</style></head><body>",
           f"<h1>{esc(title)}</h1>",
           f"<p class='verdict {kind}'><b>Verdict.</b> {esc(advice.verdict)}</p>",
           "<nav><b>Contents</b><ol>" + "".join(
               f"<li><a href='#{a}'>{esc(t)}</a></li>" for a, t in sections) + "</ol></nav>"]

    def fmt_phi(r):
        return "undefined" if r is None else (
            f"{r.statistic:.2f} [{r.low:.2f}, {r.high:.2f}]")

    lo, hi = advice.gain_ci
    rows = [
        ("recommended (combination chosen on all the data)", advice.recommended.label),
        ("best single ranker (chosen the same way)", advice.best_single.label),
        ("one-SE pick (smallest size within one SE of the best)", advice.one_se.label),
        (f"outer {name} of the combination procedure",
         f"{advice.combination_scores.mean():.3f}"),
        (f"outer {name} of the single-ranker procedure", f"{advice.single_scores.mean():.3f}"),
        *([(f"outer {name} with all the features", f"{b['all_features']:.3f}"),
           (f"outer {name} with none ("
            f"{'the training mean' if advice.task == 'regression' else 'the majority class'}"
            ")", f"{b['no_features']:.3f}")]
          if (b := getattr(advice, "baseline", None)) else []),
        (f"gain, {level} % interval", f"{advice.gain:+.3f} [{lo:+.3f}, {hi:+.3f}]"),
        ("p-value (Nadeau–Bengio corrected resampled t-test)", f"{advice.pvalue:.3g}"),
        ("Φ combination procedure", fmt_phi(advice.stability)),
        ("Φ single-ranker procedure", fmt_phi(advice.single_stability)),
        ("data", f"{s['n_samples']} samples, {s['n_features']} features"),
        ("outer folds", f"{s['outer_folds']} ({s['n_repeats']} × {s['cv']}), "
                        f"{s['inner_cv']} inner folds"),
        ("seed entropy", str(s["seed_entropy"])),
    ]
    out.append("<h2 id='numbers'>Key numbers</h2><table class='tab'>" + "".join(
        f"<tr><th style='text-align:left'>{esc(k)}</th><td style='text-align:left'>{esc(v)}"
        f"</td></tr>" for k, v in rows) + "</table>")

    fig, note = _fig_curves(table, advice)
    out.append(f"<h2 id='curves'>{esc(cap)} against subset size</h2>")
    out.append(f"<p class='howto'>How to read: one panel per family (rankers | rule; the best "
               "combination families first, then each ranker alone, in red): its mean outer "
               f"{esc(name)} at each subset size, the band its {level} % corrected interval; "
               "the grey dashed line in every panel is the single ranker the inner CV picks. "
               f"The panels show where {esc(name)} saturates with size; they are not the test: "
               "picking the best-looking panel would be the selection bias the nested "
               "resampling avoids — whether combining pays is the gain below"
               f"{esc(note)}.</p>")
    out.append(f"<img alt='{esc(name)} against subset size' src='data:image/png;base64,"
               f"{_png(fig)}'>")

    out.append("<h2 id='pareto'>The Pareto front</h2>")
    out.append("<p class='howto'>How to read: every dot is a configuration, coloured by its "
               "stability Φ; the circled ones form the Pareto front — no other configuration "
               f"scores at least as high ({esc(name)}), is as small and as stable with one "
               "of them strictly "
               "better — so a choice worth making is one of the circles.</p>")
    out.append(f"<img alt='Pareto front' src='data:image/png;base64,"
               f"{_png(_fig_pareto(table, advice.pareto, name))}'>")

    out.append(f"<h2 id='stability'>Stability against {esc(name)}</h2>")
    out.append("<p class='howto'>How to read: Nogueira's Φ measures how alike the subsets "
               "chosen on the outer training parts are (1: always the same features; 0: no "
               "more alike than random subsets of that size); the bars are its "
               f"{level} % interval; the best configurations sit top right.</p>")
    out.append(f"<img alt='stability against {esc(name)}' src='data:image/png;base64,"
               f"{_png(_fig_stability(table, name))}'>")

    out.append("<h2 id='gain'>The gain and its interval</h2>")
    out.append("<p class='howto'>How to read: the grey dots are the outer folds' differences "
               f"in {esc(name)} (combination procedure − best-single procedure), the black "
               "diamond "
               f"their mean with its {level} % corrected interval; when the interval crosses "
               "the dashed zero line, combining shows no gain on this data. The right panel is "
               "the same for stability.</p>")
    out.append(f"<img alt='gain' src='data:image/png;base64,{_png(_fig_gain(advice))}'>")

    extra = [c for c in ("size_rule", "fold_sizes") if c in table.columns]
    top = table.head(20)[["rankers", "rule", "size", "score", "score_low", "score_high",
                          "phi", "phi_low", "phi_high", "chosen", "tied_at_cutoff", *extra]]
    sizes = (" size of a stability rule: the mean size of its stable sets over the outer "
             "folds, fold_sizes each one;" if extra else "")
    out.append(f"<h2 id='table'>Best configurations</h2><p>The 20 best of {len(table)} by mean "
               f"outer {esc(name)} (all in advice.csv);{sizes} score_low/score_high: the "
               f"{level} % "
               "corrected interval; chosen: the share of outer folds whose inner CV picked "
               "it; tied_at_cutoff: features tied at the cut-off score on all the data.</p>")
    out.append(_table_html(top))

    out.append("<h2 id='method'>How these numbers were obtained</h2>")
    out.append(
        f"<p>Nested resampling: {s['outer_folds']} outer folds; inside each outer training "
        f"part a {s['inner_cv']}-fold inner CV chose the best combination (rankers × rule × "
        "size) and the best single ranker; both were refit on the outer training part and "
        f"scored on its test part. Every {esc(name)} here is such an outer estimate; the best "
        "inner score is never reported. The gain is tested with the Nadeau–Bengio corrected "
        "resampled t-test (variance × (1/J + n_test/n_train), J − 1 degrees of freedom), "
        "the outer folds paired. Φ is Nogueira, Sechidis &amp; Brown (2018).</p>")
    out.append(f"<p>rankfusion {esc(str(s.get('rankfusion')))}, scikit-learn "
               f"{esc(str(s.get('scikit-learn')))}; everything needed to repeat the run is in "
               "summary.json.</p></body></html>")
    return "\n".join(out)


def write_advice_report(advice, path, *, title: str | None = None) -> Path:
    """Write :func:`advice_report_html` to ``path`` atomically; returns the path.

    Parameters
    ----------
    advice : Advice
    path : str or path-like
        The file (``OUT/advice.html``).
    title : str, optional

    Returns
    -------
    Path
    """
    path = Path(path)
    write_bytes_atomic(path, advice_report_html(advice, title=title).encode("utf-8"))
    return path
