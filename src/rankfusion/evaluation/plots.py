"""Plots of evaluation results: error curves, stability curves, critical-difference diagrams
and agreement heatmaps.

matplotlib is an optional extra (``pip install "rankfusion[plot]"``), imported only when a plot
is drawn. Each function draws on ``ax`` when given, otherwise on a new
:class:`matplotlib.figure.Figure` (no pyplot state is touched), and returns the Figure.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

__all__ = ["plot_error_curves", "plot_stability", "plot_critical_difference", "plot_agreement",
           "plot_stability_path", "check_figure_path", "save_figure"]

_EXTRA = 'plotting needs matplotlib: pip install "rankfusion[plot]"'


def _figure_and_axes(ax, figsize):
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise ModuleNotFoundError(f"{_EXTRA} ({exc})", name="matplotlib") from None
    if ax is None:
        fig = Figure(figsize=figsize, layout="constrained")
        return fig, fig.add_subplot()
    if not hasattr(ax, "figure") or not hasattr(ax, "plot"):
        raise TypeError(f"ax must be a matplotlib Axes, got {type(ax).__name__}")
    return ax.figure, ax


def _figure_formats() -> dict:
    try:
        from matplotlib.backend_bases import FigureCanvasBase
    except ImportError as exc:
        raise ModuleNotFoundError(f"{_EXTRA} ({exc})", name="matplotlib") from None
    return FigureCanvasBase.get_supported_filetypes()


def check_figure_path(path, *, name: str = "path"):
    """Check, before any work, that a figure can be saved at ``path``: matplotlib is installed
    (else a ``ModuleNotFoundError`` naming the ``plot`` extra), the folder exists and the suffix
    is a format matplotlib writes (``.png``, ``.pdf``, ``.svg`` …).

    Parameters
    ----------
    path : str or path-like
        Where the figure will be saved.
    name : str, default "path"
        The argument's name in error messages (``--plot`` on the command line).

    Returns
    -------
    pathlib.Path
        The checked path.
    """
    from .._utils.atomic import check_output_file

    return check_output_file(path, name=name, suffixes=_figure_formats())


def save_figure(fig, path, *, dpi: int = 120):
    """Save a matplotlib Figure to ``path`` atomically (a temporary file in the same folder,
    then ``os.replace``), in the format of the suffix; an interrupted save leaves no partial
    file.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure to save.
    path : str or path-like
        Its file; the suffix gives the format (checked by :func:`check_figure_path`).
    dpi : int, default 120
        Resolution of raster formats.

    Returns
    -------
    pathlib.Path
        The path written.
    """
    from .._utils.atomic import atomic_write

    p = check_figure_path(path)
    fmt = p.suffix.lower().lstrip(".")
    return atomic_write(p, lambda fh: fig.savefig(fh, format=fmt, dpi=dpi))


def _check_mapping(values, name: str) -> dict:
    if not isinstance(values, Mapping) or not values:
        raise TypeError(f"{name} must be a non-empty mapping method name → result")
    return dict(values)


def _summary_of(value, name):
    if hasattr(value, "summary") and callable(value.summary):
        value = value.summary()
    if not isinstance(value, pd.DataFrame) or "mean" not in value.columns:
        raise TypeError(f"{name} must be an ErrorCurveResult or a DataFrame with columns "
                        f"'mean' (and 'sd') indexed by the number of features")
    return value


def plot_error_curves(results_by_method, ax=None, *, title: str | None = None,
                      ylabel: str = "Error rate"):
    """Mean test error against the number of features, with ±1 SD bars, on a log feature axis
    (as the error curves of Izetta et al. 2017, Figs. 1-6).

    Parameters
    ----------
    results_by_method : mapping name → ErrorCurveResult or DataFrame
        A DataFrame needs a ``mean`` column (and optionally ``sd``) indexed by feature counts.
    ax : matplotlib Axes, optional
    title : str, optional
    ylabel : str

    Returns
    -------
    matplotlib.figure.Figure
    """
    results = _check_mapping(results_by_method, "results_by_method")
    summaries = {k: _summary_of(v, f"results_by_method[{k!r}]") for k, v in results.items()}
    fig, ax = _figure_and_axes(ax, (6.4, 4.2))
    for name, s in summaries.items():
        x = np.asarray(s.index, dtype=float)
        sd = s["sd"].to_numpy() if "sd" in s.columns else None
        ax.errorbar(x, s["mean"].to_numpy(), yerr=sd, marker="o", markersize=3, capsize=2,
                    linewidth=1, label=str(name))
    ax.set_xscale("log")
    ax.set_xlabel("Features")
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.legend(fontsize="small")
    return fig


def plot_stability(stability_by_method, ax=None, *, xlabel: str = "Features",
                   ylabel: str = "Stability", log_x: bool = True, title: str | None = None):
    """Stability (any index: Kuncheva, Jaccard, Nogueira …) against the number of features.

    Parameters
    ----------
    stability_by_method : mapping name → Series, or DataFrame
        Each Series maps a number of features to a stability value; a DataFrame gives one
        method per column, indexed by the number of features.
    ax : matplotlib Axes, optional
        Axes to draw on; default a new figure.
    xlabel : str, default "Features"
        Label of the feature-count axis.
    ylabel : str, default "Stability"
        Label of the stability axis (name the index: "Nogueira's Φ", "Kuncheva" …).
    log_x : bool, default True
        Logarithmic feature-count axis.
    title : str, optional
        Title of the axes.

    Returns
    -------
    matplotlib.figure.Figure
    """
    if isinstance(stability_by_method, pd.DataFrame):
        series = {c: stability_by_method[c] for c in stability_by_method.columns}
    else:
        series = _check_mapping(stability_by_method, "stability_by_method")
    fig, ax = _figure_and_axes(ax, (6.4, 4.2))
    for name, s in series.items():
        s = pd.Series(s) if not isinstance(s, pd.Series) else s
        ax.plot(np.asarray(s.index, dtype=float), s.to_numpy(dtype=float), marker="o",
                markersize=3, linewidth=1, label=str(name))
    if log_x:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.legend(fontsize="small")
    return fig


def plot_stability_path(path, ax=None, *, threshold: float | None = None, q: int | None = None,
                        max_labels: int = 10, title: str | None = None,
                        caption: bool = True):
    """The selection-probability path of a stability selection (Meinshausen & Bühlmann 2010,
    Fig. 1 style): each feature's selection probability Π̂ against q, the number of features
    kept on each subsample.

    Features reaching ``threshold`` at ``q`` are drawn in colour and named in the legend (the
    ``max_labels`` highest, the rest in one grey entry), the others in light grey; the
    threshold π is a dashed line and the chosen q a dotted one. The x ticks are whole q values
    (every one on a path of at most 25, the chosen q always among them), the y ticks 0, ¼, ½,
    ¾, 1 and π (which replaces a quarter closer than 0.1 to it). With ``caption`` one sentence
    under the axes says how to read it: each line is one feature's share of the half-samples
    whose top q hold it, and the features at or above π at the chosen q form the stable set
    (with the selector's bound on the expected number of false selections).

    Parameters
    ----------
    path : StabilitySelector or DataFrame
        A fitted :class:`~rankfusion.selection.StabilitySelector` (its ``selection_path_``,
        ``threshold_`` and ``q_`` are used unless given here), or a DataFrame indexed by q with
        one column of Π̂ per feature.
    ax : matplotlib Axes, optional
        Axes to draw on; default a new figure.
    threshold : float, optional
        π, drawn as a horizontal line.
    q : int, optional
        The q at which features count as selected (default the last row of the path).
    max_labels : int, default 10
        Selected features named in the legend at most.
    title : str, optional
        Title of the axes.
    caption : bool, default True
        Write the how-to-read sentence under the axes.

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    TypeError
        ``path`` neither a fitted selector nor a DataFrame.
    ValueError
        An empty path, probabilities outside [0, 1], or a ``q`` not in the path's index.
    """
    n_sub, bound = None, None
    if hasattr(path, "selection_path_"):
        if threshold is None:
            threshold = float(path.threshold_)
        if q is None:
            q = int(path.q_)
        n_sub, bound = int(path.n_subsamples_), float(path.pfer_bound_)
        path = path.selection_path_
    if not isinstance(path, pd.DataFrame):
        raise TypeError("path must be a fitted StabilitySelector or a DataFrame of selection "
                        f"probabilities (q × features), got {type(path).__name__}")
    values = path.to_numpy(dtype=np.float64)
    if values.size == 0:
        raise ValueError("path is empty: it needs at least one q and one feature")
    if np.isnan(values).any() or (values < 0).any() or (values > 1).any():
        raise ValueError("path must hold selection probabilities in [0, 1]")
    if isinstance(max_labels, bool) or not isinstance(max_labels, (int, np.integer)) or (
            max_labels < 0):
        raise ValueError(f"max_labels must be an int ≥ 0, got {max_labels!r}")
    index = np.asarray(path.index, dtype=np.float64)
    if q is None:
        row = values.shape[0] - 1
    else:
        hit = np.flatnonzero(index == q)
        if hit.shape[0] == 0:
            raise ValueError(f"q={q!r} is not in the path's index ({index[0]:g}…{index[-1]:g})")
        row = int(hit[0])
    if threshold is not None and not (0 <= float(threshold) <= 1):
        raise ValueError(f"threshold must be in [0, 1], got {threshold!r}")
    at_q = values[row]
    cut = float(threshold) if threshold is not None else np.inf
    chosen = np.flatnonzero(at_q >= cut)
    chosen = chosen[np.lexsort((chosen, -at_q[chosen]))]
    fig, ax = _figure_and_axes(ax, (7.4, 4.2))
    others = np.setdiff1d(np.arange(values.shape[1]), chosen[:max_labels])
    for i, j in enumerate(others):
        ax.plot(index, values[:, j], color="0.75", linewidth=0.8, zorder=1,
                label="other features" if i == 0 else None)
    for j in chosen[:max_labels]:
        ax.plot(index, values[:, j], linewidth=1.6, zorder=3, label=str(path.columns[j]))
    if threshold is not None:
        ax.axhline(float(threshold), color="black", linestyle="--", linewidth=1,
                   label=f"threshold π = {float(threshold):.2f}")
    if q is not None:
        ax.axvline(index[row], color="black", linestyle=":", linewidth=1,
                   label=f"q = {index[row]:g}")
    ax.set_xlim(index[0], index[-1])
    ax.set_ylim(-0.02, 1.02)
    from matplotlib.ticker import MaxNLocator

    if index.shape[0] <= 25 and np.all(index == np.round(index)):
        ax.set_xticks(index)  # every q of a short path
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if q is not None:  # the chosen q among the ticks, replacing a too close one
            ticks = [t for t in ax.get_xticks() if index[0] <= t <= index[-1]]
            step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
            ax.set_xticks(sorted({*(t for t in ticks if abs(t - index[row]) >= step / 2),
                                  index[row]}))
    ax.set_xticklabels([f"{t:g}" for t in ax.get_xticks()])
    yticks = [0.0, 0.25, 0.5, 0.75, 1.0]
    if threshold is not None:  # π replaces a quarter too close to it to read both
        yticks = sorted([t for t in yticks if abs(float(threshold) - t) >= 0.1]
                        + [float(threshold)])
    ax.set_yticks(yticks)
    ax.set_yticklabels([f"{t:g}" for t in yticks])
    ax.set_xlabel("q (features kept per subsample)")
    ax.set_ylabel(r"Selection probability $\hat{\Pi}$")
    if title:
        ax.set_title(title)
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    if caption:
        halves = f"the {n_sub} half-samples" if n_sub else "the half-samples"
        if threshold is not None:
            at = f" at the dotted q = {index[row]:g}" if q is not None else " at the last q"
            stable = (f"; the features at or above the dashed threshold π = "
                      f"{float(threshold):.2f}{at} form the stable set ({chosen.shape[0]} "
                      "feature" + ("s" if chosen.shape[0] != 1 else "")
                      + (f", expected false selections ≤ {bound:.2g}" if bound is not None
                         else "") + ")")
        else:
            stable = ""
        text = (f"How to read: each line is one feature's selection probability, the share of "
                f"{halves} whose top q hold it, as q grows{stable}.")
        import textwrap

        ax.annotate("\n".join(textwrap.wrap(text, 110)), xy=(0, 0), xycoords="axes fraction",
                    xytext=(0, -42), textcoords="offset points", ha="left", va="top",
                    fontsize="small", color="0.25")
    return fig


def _cliques(ranks: np.ndarray, cd: float) -> list[tuple[int, int]]:
    """Maximal runs [i, j] of the sorted ranks whose span is below CD (not significantly
    different), as Demšar's diagram joins them with a bar."""
    k = ranks.shape[0]
    runs = []
    for i in range(k):
        j = i
        while j + 1 < k and ranks[j + 1] - ranks[i] < cd:
            j += 1
        if j > i and not any(a <= i and j <= b for a, b in runs):
            runs.append((i, j))
    return runs


def plot_critical_difference(nemenyi_result, ax=None, *, title: str | None = None):
    """Demšar's critical-difference diagram (Demšar 2006, Fig. 1).

    The methods sit at their average ranks on an axis from 1 (best, left) to k; the bar above
    the axis shows the critical difference; thick lines join groups of methods whose ranks
    differ by less than CD (not significantly different by the Nemenyi test).

    Parameters
    ----------
    nemenyi_result : NemenyiResult
        The result of :func:`rankfusion.evaluation.nemenyi` (average ranks and CD).
    ax : matplotlib Axes, optional
        Axes to draw on; default a new figure.
    title : str, optional
        Title of the axes.

    Returns
    -------
    matplotlib.figure.Figure
    """
    if not (hasattr(nemenyi_result, "average_ranks")
            and hasattr(nemenyi_result, "critical_difference")):
        raise TypeError("nemenyi_result must be the result of rankfusion.evaluation.nemenyi")
    avg = nemenyi_result.average_ranks.sort_values(kind="stable")
    cd = float(nemenyi_result.critical_difference)
    k = avg.shape[0]
    names = [str(n) for n in avg.index]
    ranks = avg.to_numpy(dtype=float)
    fig, ax = _figure_and_axes(ax, (6.4, 1.2 + 0.3 * k))
    ax.set_xlim(0.5, k + 0.5)
    left = (k + 1) // 2
    height = max(left, k - left) + 2
    ax.set_ylim(-height, 2.2)
    ax.axis("off")
    ax.hlines(0, 1, k, color="black", linewidth=1)
    for t in range(1, k + 1):
        ax.vlines(t, 0, 0.15, color="black", linewidth=1)
        ax.text(t, 0.3, str(t), ha="center", va="bottom", fontsize="small")
    ax.hlines(1.5, 1, 1 + cd, color="black", linewidth=1.5)
    ax.text(1 + cd / 2, 1.65, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize="small")
    for i, (name, r) in enumerate(zip(names, ranks)):
        if i < left:
            y = -(i + 1)
            ax.vlines(r, y, 0, color="black", linewidth=0.8)
            ax.hlines(y, 0.6, r, color="black", linewidth=0.8)
            ax.text(0.55, y, f"{name} ({r:.2f})", ha="right", va="center", fontsize="small")
        else:
            y = -(k - i)
            ax.vlines(r, y, 0, color="black", linewidth=0.8)
            ax.hlines(y, r, k + 0.4, color="black", linewidth=0.8)
            ax.text(k + 0.45, y, f"({r:.2f}) {name}", ha="left", va="center",
                    fontsize="small")
    for n, (i, j) in enumerate(_cliques(ranks, cd)):
        y = -0.35 - 0.25 * n
        ax.hlines(y, ranks[i] - 0.03, ranks[j] + 0.03, color="black", linewidth=3)
    if title:
        ax.set_title(title)
    return fig


def plot_agreement(matrix, ax=None, *, title: str | None = None, cmap: str = "viridis",
                   annotate: bool = True, vmin: float | None = 0.0, vmax: float | None = 1.0):
    """Heatmap of a square agreement matrix (for instance ``rule_agreement(...).kendall``).

    Parameters
    ----------
    matrix : DataFrame or array-like of shape (m, m)
        The values; a DataFrame's index and columns label the rows and columns.
    ax : matplotlib Axes, optional
        Axes to draw on; default a new figure.
    title : str, optional
        Title of the axes.
    cmap : str, default "viridis"
        A matplotlib colour map name.
    annotate : bool, default True
        Print each value in its cell.
    vmin, vmax : float or None, default 0.0 and 1.0
        The values mapped to the ends of the colour scale (None: the data's range).

    Returns
    -------
    matplotlib.figure.Figure
    """
    if isinstance(matrix, pd.DataFrame):
        values = matrix.to_numpy(dtype=float)
        rows, cols = [str(i) for i in matrix.index], [str(c) for c in matrix.columns]
    else:
        try:
            values = np.asarray(matrix, dtype=float)
        except (TypeError, ValueError):
            raise TypeError("matrix must hold numbers") from None
        if values.ndim != 2:
            raise ValueError(f"matrix must be 2-D; got shape {values.shape}")
        rows = cols = [str(i) for i in range(values.shape[0])]
    if values.ndim != 2 or values.shape[0] != values.shape[1] or values.shape[0] == 0:
        raise ValueError(f"matrix must be square and non-empty; got shape {values.shape}")
    fig, ax = _figure_and_axes(ax, (1.5 + 0.6 * len(cols), 1.2 + 0.5 * len(rows)))
    im = ax.imshow(values, cmap=cmap, vmin=vmin, vmax=vmax)
    ax.set_xticks(range(len(cols)), cols, rotation=45, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    if annotate:
        for i in range(values.shape[0]):
            for j in range(values.shape[1]):
                ax.text(j, i, f"{values[i, j]:.2f}", ha="center", va="center",
                        fontsize="x-small", color="white" if values[i, j] < 0.5 else "black")
    fig.colorbar(im, ax=ax)
    if title:
        ax.set_title(title)
    return fig
