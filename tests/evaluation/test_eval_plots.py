"""Plots return Figures (Agg backend); a missing matplotlib names the extra."""

import builtins

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("matplotlib")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402

from rankfusion.evaluation import nemenyi  # noqa: E402
from rankfusion.evaluation.plots import (  # noqa: E402
    _cliques,
    plot_agreement,
    plot_critical_difference,
    plot_error_curves,
    plot_stability,
)


def summary(shift):
    k = [1, 2, 5, 10, 20, 50]
    return pd.DataFrame({"mean": np.linspace(0.5, 0.2, 6) + shift, "sd": 0.02}, index=k)


def test_plot_error_curves_returns_a_figure_with_log_axis(tmp_path):
    fig = plot_error_curves({"kfirst": summary(0), "borda": summary(0.05)})
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and len(ax.get_legend().get_texts()) == 2
    fig.savefig(tmp_path / "curves.png")
    assert (tmp_path / "curves.png").stat().st_size > 1000


def test_error_curve_result_plot(tmp_path):
    from sklearn.feature_selection import SelectKBest, f_classif

    from rankfusion.evaluation import error_curve

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 5)), np.arange(40) % 2
    r = error_curve(SelectKBest(f_classif, k="all"), X, y, n_features=[1, 5],
                    classifier="naive_bayes", n_splits=2, random_state=0)
    assert isinstance(r.plot(label="anova"), Figure)


def test_plot_stability_critical_difference_and_agreement():
    assert isinstance(plot_stability({"a": pd.Series([0.5, 0.7], index=[1, 10])}), Figure)
    assert isinstance(plot_stability(pd.DataFrame({"a": [0.1, 0.2]}, index=[1, 2])), Figure)
    errors = pd.DataFrame(np.random.default_rng(1).normal(size=(10, 4)) + [0, 0.5, 1, 1.5],
                          columns=list("ABCD"))
    assert isinstance(plot_critical_difference(nemenyi(errors)), Figure)
    m = pd.DataFrame([[0, 0.2], [0.2, 0]], index=["x", "y"], columns=["x", "y"])
    fig = plot_agreement(m)
    assert isinstance(fig, Figure)
    # drawing on a given Axes returns that Axes' figure
    host = Figure()
    ax = host.add_subplot()
    assert plot_agreement(m, ax=ax) is host


def test_cd_cliques_by_hand():
    # ranks 1.0, 1.5, 3.0, 3.2 with CD 1: {0, 1} and {2, 3} are groups
    assert _cliques(np.array([1.0, 1.5, 3.0, 3.2]), 1.0) == [(0, 1), (2, 3)]
    assert _cliques(np.array([1.0, 2.5, 4.0]), 1.0) == []


@pytest.mark.parametrize("func, arg, exc", [
    (plot_error_curves, {}, TypeError),
    (plot_error_curves, {"a": pd.DataFrame({"x": [1]})}, TypeError),
    (plot_stability, [], TypeError),
    (plot_critical_difference, "nope", TypeError),
    (plot_agreement, np.ones((2, 3)), ValueError),
    (plot_agreement, [["a"]], TypeError),
])
def test_plot_hostile_inputs(func, arg, exc):
    with pytest.raises(exc):
        func(arg)


def test_missing_matplotlib_names_the_extra(monkeypatch):
    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(ModuleNotFoundError, match=r'pip install "rankfusion\[plot\]"'):
        plot_error_curves({"a": summary(0)})


def test_stability_path_caption_and_ticks_at_real_values():
    from rankfusion.evaluation.plots import plot_stability_path
    from rankfusion.selection import StabilitySelector

    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 40)
    X = rng.normal(size=(80, 12))
    X[:, :2] += 1.5 * y[:, None]
    sel = StabilitySelector(q=3, threshold=0.8, n_subsamples=10, random_state=0).fit(X, y)
    fig = plot_stability_path(sel)
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 1 and texts[0].startswith("How to read: each line is one feature's")
    caption = texts[0].replace("\n", " ")
    assert "the 10 half-samples whose top q hold it" in caption
    assert f"form the stable set ({sel.n_features_} feature" in caption
    assert f"expected false selections ≤ {sel.pfer_bound_:.2g}" in caption
    # every q of a short path is a tick, labelled by its value; π replaces the 0.75 tick
    np.testing.assert_array_equal(ax.get_xticks(), np.asarray(sel.selection_path_.index))
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        str(q) for q in sel.selection_path_.index]
    assert list(ax.get_yticks()) == [0.0, 0.25, 0.5, 0.8, 1.0]
    assert not plot_stability_path(sel, caption=False).axes[0].texts
    # a long path: whole-number ticks, the chosen q among them and no tick crowding it
    long = pd.DataFrame(np.sort(rng.uniform(size=(60, 4)), axis=0),
                        index=pd.RangeIndex(1, 61, name="q"), columns=list("abcd"))
    ticks = plot_stability_path(long, threshold=0.6, q=37).axes[0].get_xticks()
    assert 37 in ticks and np.all(ticks == np.round(ticks))
    assert np.min(np.abs(np.delete(ticks, np.flatnonzero(ticks == 37)) - 37)) >= 3
