"""The experiment report reads as a user needs it: contents, a how-to-read sentence for each
kind of figure, identical methods said and kept visible, bars clipped at 0, ticks at the
requested feature counts, labelled agreement tables on a fixed scale, the small-sample caveat
of Friedman/Nemenyi, what Nogueira's Φ means, and why cross-validation has no stability."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from experiment_configs import tiny_config

from rankfusion.experiments import run_experiment
from rankfusion.experiments.report import _agreement_figure, _identical_groups, _lines_figure

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("rep")
    # iris: every method selects the same features, so their curves coincide
    run_experiment(tiny_config(rules=("borda", "kfirst", "mean_score")), out, progress=False)
    return ((out / "report" / "report.html").read_text(encoding="utf-8"),
            (out / "report" / "report.md").read_text(encoding="utf-8"))


def test_contents_link_to_every_section(report):
    page, md = report
    anchors = re.findall(r"<a href='#([^']+)'>", page)
    sections = re.findall(r"<h2 id='([^']+)'>", page)
    assert anchors == sections and len(sections) == 5
    assert page.index("<b>Contents</b>") < page.index("<h2 ")
    assert md.index("**Contents**") < md.index("\n## ")
    assert "(#results-per-dataset)" in md


def test_each_figure_says_how_to_read_it(report):
    page, _ = report
    for needle in ("How to read: lower is better",  # error curves
                   "How to read: each method sits at its average rank",  # CD diagram
                   "How to read: higher is more stable",  # stability
                   "How to read: each cell is the distance"):  # agreement
        assert needle in page, needle
    assert "Nogueira&#x27;s Φ" in page and "1 means the same k features every time" in page


def test_identical_methods_are_named_not_hidden(report):
    page, _ = report
    assert "Identical error curves: ens+borda = ens+kfirst = ens+mean_score" in page


def test_friedman_on_two_data_sets_carries_the_caveat(report):
    page, md = report
    assert "Caveat: only 2 data sets" in page and "Demšar 2006" in page
    assert "**Caveat:** only 2 data sets" in md


def test_agreement_tables_are_labelled_and_equal_rules_said(report):
    page, _ = report
    assert "Normalised Kendall distance between the rules (0 = the same order" in page
    assert "Jaccard index of the rules&#x27; top-" in page
    assert "All these rules give the same consensus ranking here" in page




def test_cross_validation_stability_is_explained(tmp_path):
    text = tiny_config(datasets=("iris",), rules=("borda",)).replace(
        'kind = "error_curve"\nn_splits = 3\ntest_size = 0.3\nn_features = [1, 2, 4]',
        'kind = "cross_validation"\ncv = 3')
    out = tmp_path / "cv"
    run_experiment(text, out, progress=False)
    page = (out / "report" / "report.html").read_text(encoding="utf-8")
    # the folds' subsets are recorded now: their Φ with its interval, explained
    assert "Cross-validation cells" in page
    assert "Φ of the subsets each method&#x27;s selector selected on the training parts" in page
    assert "asymptotic 95 % interval" in page


def test_bars_stop_at_zero_and_ticks_are_the_feature_counts():
    m = pd.DataFrame([[0.01, 0.0, 0.02], [0.01, 0.0, 0.02]], index=["a", "b"],
                     columns=[1, 10, 100])
    s = pd.DataFrame([[0.05, 0.05, 0.05], [0.05, 0.05, 0.05]], index=["a", "b"],
                     columns=[1, 10, 100])
    fig = _lines_figure(m, s, title="t", ylabel="error")
    ax = fig.axes[0]
    assert [int(t) for t in ax.get_xticks()] == [1, 10, 100]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "10", "100"]
    assert ax.get_xscale() == "log"
    assert len(ax.containers) == 2
    for coll in ax.collections:  # the error bars
        for seg in coll.get_segments():
            assert seg[:, 1].min() >= -1e-12
    # the two identical lines are drawn apart (shifted) and each with its own marker
    lines = [c.lines[0] for c in ax.containers]  # the data line of each errorbar
    assert not np.allclose(lines[0].get_xdata(), lines[1].get_xdata())
    assert lines[0].get_marker() != lines[1].get_marker()
    assert _identical_groups(m) == [["a", "b"]]


def test_agreement_heat_map_has_a_fixed_scale():
    k = pd.DataFrame(np.zeros((3, 3)), index=list("xyz"), columns=list("xyz"))
    fig = _agreement_figure(k, "t")
    im = fig.axes[0].images[0]
    assert im.get_clim() == (0.0, 1.0)
    assert len(fig.axes[0].texts) == 9
