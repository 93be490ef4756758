"""``advice.html``: one self-contained page — the verdict first, a table of contents, four
figures embedded as base64 PNG, each with a sentence on how to read it."""

from __future__ import annotations

import base64
import re

import numpy as np
import pytest

from rankfusion import advise
from rankfusion.experiments.advice_report import advice_report_html, write_advice_report

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def advice():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(40, 10))
    y = np.repeat([0, 1], 20)
    X[:, 0] += 2.0 * y
    return advise(X, y, rankers=("f_classif", "relieff"), rules=("borda", "rrf"),
                  sizes=(1, 2, 4, 10), estimator="naive_bayes", cv=3, inner_cv=2, n_repeats=1,
                  random_state=0)


def test_the_page_is_self_contained_with_the_verdict_first(advice, tmp_path):
    path = write_advice_report(advice, tmp_path / "advice.html")
    page = path.read_text(encoding="utf-8")
    body = page[page.index("<body>"):]
    assert body.index("Verdict.") < body.index("Contents") < body.index("id='numbers'")
    import html

    assert html.escape(advice.verdict) in page
    # no external file: every image is inline, no link, no script source
    assert not re.search(r"<(img|script|link)[^>]+(src|href)=['\"](?!data:|#)", page)
    images = re.findall(r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'", page)
    assert len(images) == 4
    for data in images:
        assert base64.b64decode(data)[:8] == b"\x89PNG\r\n\x1a\n"
    # each figure says how to read it; the contents link to every section
    assert page.count("How to read:") == 4
    for anchor in re.findall(r"<a href='#(\w+)'>", page):
        assert f"id='{anchor}'" in page
    assert "Nadeau–Bengio" in page and "never reported" in page
    assert "p-value" in page and f"{advice.pvalue:.3g}" in page


def test_no_gain_is_said_plainly(advice):
    page = advice_report_html(advice)
    if not advice.significant:
        assert "class='verdict none'" in page and "No combination beats" in page


def test_without_matplotlib_the_folder_is_written_and_the_missing_page_said(tmp_path, monkeypatch):
    import importlib.util

    from rankfusion.experiments.advice import advise_in_folder

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 6))
    y = np.repeat([0, 1], 20)
    with pytest.warns(UserWarning, match="advice.html not written: its figures need matplotlib"):
        advise_in_folder(X, y, tmp_path / "out", rankers=["f_classif", "relieff"],
                         rules=["borda"], sizes=[2], cv=2, n_repeats=1, inner_cv=2,
                         random_state=0, progress=False)
    assert (tmp_path / "out" / "advice.csv").exists()
    assert not (tmp_path / "out" / "advice.html").exists()
