"""The main job (``rankfusion demo``): the St. Jude headline and the gain table.

The demo runs ONCE per test session (the ``stjude`` fixture, about 20 s of CPU); the CLI tests
replace :func:`rankfusion.evaluation.stjude_demo` inside the command by a function returning that
one result, after checking the command calls it with the defaults the result was made with.

Oracles: the README's demo block (the printed output, less the one timing line); a direct
transcription of the protocol for one split of the Average method — the genes z-scored on the
training rows (numpy), the joint RFE rewritten on scikit-learn's ``SVC`` (its one-vs-one
``coef_`` rows are the 15 binary problems; criterion Σ_j |w_ij|; remove ⌊10 %⌋ of the remaining
genes while ≥ 20 remain, then one at a time; ties to the lower index), and a
``StandardScaler`` + ``SVC`` on the top k genes scored on the held-out rows.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from sklearn.model_selection import StratifiedShuffleSplit
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

import rankfusion.evaluation as evaluation_pkg
from rankfusion.cli import main
from rankfusion.datasets import load_stjude_leukemia
from rankfusion.evaluation import DEMO_N_FEATURES, check_figure_path, stjude_demo
from rankfusion.selection import SVMRFE

README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.fixture(scope="session")
def stjude():
    return stjude_demo()


@pytest.fixture
def fake_demo(monkeypatch, stjude):
    """``rankfusion.evaluation.stjude_demo`` replaced by one returning the session's result."""
    calls = []

    def fake(**kwargs):
        calls.append(kwargs)
        return stjude

    monkeypatch.setattr(evaluation_pkg, "stjude_demo", fake)  # the command imports it at run time
    return calls


def _readme_block() -> list[str]:
    text = README.read_text(encoding="utf-8")
    m = re.search(r"```text\n\$ rankfusion demo\n(.*?)```", text, flags=re.S)
    assert m, "README.md has no ```text block starting with '$ rankfusion demo'"
    return m.group(1).rstrip("\n").split("\n")


def _without_timing(lines):
    timing = [ln for ln in lines if ln.startswith("time: ")]
    assert len(timing) == 1, f"expected one timing line, got {timing}"
    return [ln.rstrip() for ln in lines if not ln.startswith("time: ")]


def _defaults() -> dict:
    sig = inspect.signature(stjude_demo)
    return {k: p.default for k, p in sig.parameters.items()}


# ------------------------------------------------------------------------ the printed output
def test_cli_output_less_timing_equals_readme_block(fake_demo, capsys):
    assert main(["demo", "--no-progress"]) == 0
    out = capsys.readouterr().out.rstrip("\n").split("\n")
    (kwargs,) = fake_demo
    defaults = _defaults()
    for name in ("top", "n_splits", "random_state"):  # what shapes the output
        assert kwargs[name] == defaults[name], name
    assert _without_timing(out) == _without_timing(_readme_block())


def test_report_holds_the_error_table_of_the_result(stjude):
    text = stjude.report(timing=False)
    assert "time:" not in text
    tab = stjude.error_table()
    assert list(tab.index) == list(DEMO_N_FEATURES)
    for method in ("K-First", "Schulze", "Average"):
        res = stjude.errors[method]
        assert res.errors.shape == (10, len(DEMO_N_FEATURES))
        mean = res.errors.mean(axis=0).to_numpy()
        sd = res.errors.std(axis=0, ddof=1).to_numpy()
        np.testing.assert_allclose(tab[(method, "mean")], mean)
        np.testing.assert_allclose(tab[(method, "sd")], sd)
        # the printed cell of k = 5
        assert f"{mean[0]:.3f} ± {sd[0]:.3f}" in text
    # the three methods are scored on the same splits (paired)
    tests = [r.test_indices for r in stjude.errors.values()]
    for a, b in zip(tests[0], tests[1]):
        np.testing.assert_array_equal(a, b)
    for a, b in zip(tests[0], tests[2]):
        np.testing.assert_array_equal(a, b)


def test_headline_rankings_are_permutations(stjude):
    assert stjude.table.shape == (15, 3)
    for ranks in stjude.rankings.values():
        assert sorted(ranks.tolist()) == list(range(1, 986))
    assert set(stjude.overlap) == {"K-First ∩ Schulze", "K-First ∩ Average",
                                   "Schulze ∩ Average"}


# ------------------------------------------------------------------------ against a transcription
def _zscore(X):
    mu = X.mean(axis=0)
    sd = X.std(axis=0)
    return (X - mu) / np.where(sd > 0, sd, 1.0)


def _average_rfe_order(X, y):
    alive = list(range(X.shape[1]))
    removed = []
    while alive:
        n = len(alive)
        crit = np.abs(SVC(kernel="linear", C=1.0).fit(X[:, alive], y).coef_).sum(axis=0)
        r = min(n, max(1, int(0.1 * n)) if n >= 20 else 1)
        gone = [alive[i] for i in np.argsort(crit, kind="stable")[:r]]
        removed += gone
        alive = [a for a in alive if a not in set(gone)]
    return np.array(removed[::-1])


def _split(i, y, seed=0, n_splits=10):
    """Split ``i`` as the protocol draws it (docs/design.md, 'Seeds': one child of
    ``SeedSequence(seed)`` per split seeds a ``StratifiedShuffleSplit``), with the training rows
    in the protocol's order (libsvm's solution depends on the order of the rows)."""
    s = np.random.SeedSequence(seed).spawn(n_splits)[i].generate_state(3)
    sss = StratifiedShuffleSplit(n_splits=1, test_size=0.25, random_state=int(s[0]))
    return next(sss.split(np.zeros(y.shape[0]), y))


def test_first_split_of_average_equals_a_transcription_of_the_protocol(stjude):
    data = load_stjude_leukemia()
    X, y = data.data, data.target
    res = stjude.errors["Average"]
    train, test = _split(0, y)
    np.testing.assert_array_equal(test, res.test_indices[0])
    assert test.shape[0] == 62 and train.shape[0] == 186  # 25 % held out
    # stratified: every class is in the test part in proportion
    _, counts = np.unique(y[test], return_counts=True)
    assert counts.min() >= 3
    order = _average_rfe_order(_zscore(X[train]), y[train])
    np.testing.assert_array_equal(np.argsort(res.positions.iloc[0].to_numpy(), kind="stable"),
                                  order)
    for k in DEMO_N_FEATURES:
        top = order[:k]
        clf = make_pipeline(StandardScaler(), SVC(kernel="linear", C=1.0))
        clf.fit(X[train][:, top], y[train])
        err = float(np.mean(clf.predict(X[test][:, top]) != y[test]))
        assert res.errors.iloc[0][k] == pytest.approx(err, abs=1e-12)


def test_kfirst_split_ranks_on_the_training_part_only(stjude):
    data = load_stjude_leukemia()
    X, y = data.data, data.target
    res = stjude.errors["K-First"]
    train, test = _split(1, y)
    np.testing.assert_array_equal(test, res.test_indices[1])
    sel = SVMRFE(aggregation="kfirst", aggregation_params={"k": 0.1}).fit(_zscore(X[train]),
                                                                          y[train])
    np.testing.assert_array_equal(res.positions.iloc[1].to_numpy(), sel.positions_)
    # and not the ranking of all the data
    assert not np.array_equal(res.positions.iloc[1].to_numpy(), stjude.rankings["K-First"])


# ------------------------------------------------------------------------ --plot
def test_plot_writes_a_png(fake_demo, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    import matplotlib.image as mpimg

    path = tmp_path / "curves.png"
    assert main(["demo", "--no-progress", "--plot", str(path)]) == 0
    assert f"error curves saved to {path}" in capsys.readouterr().out
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = mpimg.imread(path)
    assert img.shape[0] >= 400 and img.shape[1] >= 600
    assert not list(tmp_path.glob("*.part"))  # no temporary file left


def test_plot_suffix_case_and_format_follow_the_name(fake_demo, tmp_path, capsys):
    """``.PNG`` is a PNG, ``.svg`` an SVG: the format follows the suffix, whatever its case."""
    pytest.importorskip("matplotlib")
    png, svg = tmp_path / "CURVES.PNG", tmp_path / "curves.svg"
    assert main(["demo", "--no-progress", "--plot", str(png)]) == 0
    assert main(["demo", "--no-progress", "--plot", str(svg)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in svg.read_bytes()[:2000]


@pytest.mark.parametrize("args, message", [
    (["--plot", "{tmp}/no/such/folder/x.png"], "does not exist"),
    (["--plot", "{tmp}/curves.xyz"], "suffixes"),
    (["--plot", "{tmp}"], "must name a file"),
    (["--plot", "{tmp}/c.png", "--splits", "0"], "--splits"),
    (["--plot", ""], "must name a file"),
    (["--plot", "{tmp}/folder.png"], "must name a file"),  # an existing folder named like a PNG
    (["--plot", "{tmp}/curves"], "suffixes"),  # no suffix: no format guessed
    (["--plot", "{tmp}/curves.png.txt"], "suffixes"),
    (["--plot", "{tmp}/c.png", "--splits", "-2"], "--splits"),
])
def test_bad_plot_arguments_fail_before_the_work(fake_demo, tmp_path, capsys, args, message):
    pytest.importorskip("matplotlib")
    (tmp_path / "folder.png").mkdir()
    args = [a.format(tmp=tmp_path) for a in args]
    assert main(["demo", "--no-progress", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rankfusion: error:") and message in err
    assert fake_demo == []  # refused before any computation


def test_plot_without_matplotlib_names_the_extra(fake_demo, tmp_path, capsys, monkeypatch):
    for mod in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, mod)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails
    with pytest.raises(ModuleNotFoundError, match=r"rankfusion\[plot\]"):
        check_figure_path(tmp_path / "c.png")
    assert main(["demo", "--no-progress", "--plot", str(tmp_path / "c.png")]) == 2
    assert 'pip install "rankfusion[plot]"' in capsys.readouterr().err
    assert fake_demo == []


@pytest.mark.parametrize("kwargs, exc", [
    ({"n_splits": -1}, ValueError),
    ({"n_splits": 2.5}, ValueError),
    ({"top": 0}, ValueError),
    ({"top": 986}, ValueError),
    ({"n_features": (5, 1000)}, ValueError),
    ({"n_features": ()}, ValueError),
    ({"n_features": "5"}, TypeError),
    ({"random_state": None}, TypeError),
    ({"random_state": 1.5}, TypeError),
    ({"advice": "yes"}, TypeError),
    ({"advice": 1}, TypeError),
])
def test_stjude_demo_bad_arguments(kwargs, exc):
    with pytest.raises(exc):
        stjude_demo(**kwargs)


# ------------------------------------------------------------------------ the advisor's verdict
def test_the_demo_ends_with_the_advisors_verdict_of_a_direct_call(stjude):
    """Oracle: :func:`rankfusion.advise` called directly on the raw data with the demo's
    settings; the verdict is the report's last line before the timing."""
    from rankfusion import advise
    from rankfusion.evaluation.demo import DEMO_ADVICE

    data = load_stjude_leukemia()
    direct = advise(data.data, data.target, sizes=list(DEMO_N_FEATURES), random_state=0,
                    **DEMO_ADVICE)
    adv = stjude.advice
    assert adv.verdict == direct.verdict
    np.testing.assert_array_equal(adv.combination_scores, direct.combination_scores)
    lines = stjude.report(timing=False).split("\n")
    assert lines[-1] == direct.verdict
    assert "outer estimate" in lines[-2]
    assert "advisor" in stjude.report().split("\n")[-1]  # its time in the timing line


def test_no_splits_no_advice(monkeypatch):
    import rankfusion.evaluation.advisor as advisor

    def never(*a, **k):
        raise AssertionError("the advisor ran")

    monkeypatch.setattr(advisor, "advise", never)
    res = stjude_demo(n_splits=0)
    assert res.advice is None and "advisor" not in res.report()
