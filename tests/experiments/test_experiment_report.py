"""Report: renders, every figure it references exists, sections degrade gracefully."""

from __future__ import annotations

import base64
import re

import pytest
from experiment_configs import tiny_config

from rankfusion.experiments import run_experiment, write_report

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def two_datasets(tmp_path_factory):
    out = tmp_path_factory.mktemp("rep")
    summary = run_experiment(tiny_config(), out, progress=False)  # report at the end
    assert summary.report == out / "report" / "report.html"
    return out


def _md_figures(md: str) -> list[str]:
    return re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)


def test_every_referenced_figure_exists_and_is_a_png(two_datasets):
    rep = two_datasets / "report"
    md = (rep / "report.md").read_text()
    figs = _md_figures(md)
    assert figs
    for f in figs:
        path = rep / f
        assert path.is_file(), f
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # the HTML is self-contained: every image is embedded, nothing else is referenced
    html = (rep / "report.html").read_text()
    srcs = re.findall(r'src="([^"]+)"', html)
    assert len(srcs) == len(figs)
    for s in srcs:
        assert s.startswith("data:image/png;base64,")
        assert base64.b64decode(s.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert not re.findall(r'href="(?!#)', html)
    # and every figure file written is referenced
    assert sorted(p.name for p in (rep / "figures").glob("*.png")) == sorted(
        f.split("/")[-1] for f in figs)


def test_sections_with_two_datasets(two_datasets):
    md = (two_datasets / "report" / "report.md").read_text()
    for needle in ("## Results per dataset", "### iris — naive_bayes — curve (error curve)",
                   "Friedman χ²_F", "figures/cd-curve-naive_bayes.png",
                   "## Win matrix", "figures/stability-iris-curve.png",
                   "figures/agreement-wine-ens-curve.png", "figures/curve-wine-naive_bayes"):
        assert needle in md, needle
    assert "| ens+borda |" in md and "| single |" in md


def test_single_dataset_degrades_gracefully(tmp_path):
    out = tmp_path / "one"
    run_experiment(tiny_config(datasets=("iris",), rules=("borda",)), out, report=False,
                   progress=False)
    write_report(out)
    md = (out / "report" / "report.md").read_text()
    assert "Friedman/Nemenyi (curve, naive_bayes): not applicable — needs ≥ 2 datasets" in md
    assert "Rule agreement: not applicable" in md
    for f in _md_figures(md):
        assert (out / "report" / f).is_file()


def test_report_cli_and_missing_results(tmp_path, two_datasets, capsys):
    from rankfusion.cli import main

    assert main(["report", str(two_datasets)]) == 0
    assert "report.html" in capsys.readouterr().out
    assert main(["report", str(tmp_path)]) == 2
    assert "no results.parquet" in capsys.readouterr().err


def test_cross_validation_cells_are_reported(tmp_path):
    text = tiny_config(datasets=("iris",), rules=("borda",)).replace(
        'kind = "error_curve"\nn_splits = 3\ntest_size = 0.3\nn_features = [1, 2, 4]',
        'kind = "cross_validation"\ncv = 3\nn_features = 2\nscoring = ["accuracy", "error", '
        '"f1"]')
    out = tmp_path / "cv"
    run_experiment(text, out, progress=False)
    md = (out / "report" / "report.md").read_text()
    assert "### iris — naive_bayes — curve (cross-validation)" in md
    assert "| method | accuracy | error | f1 |" in md
    assert re.search(r"\| ens\+borda \| 0\.\d{3} ± 0\.\d{3} \|", md)
    assert "Stability: not applicable" in md
