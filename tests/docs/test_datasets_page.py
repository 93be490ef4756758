"""The bundled data sets page (docs/datasets.rst, docs/_ext/datasets_page.py): one section per
data set of ``available_datasets()``, at the anchor ``DESCR`` names; the page's commands run."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from docutils.nodes import make_id

DOCS = Path(__file__).resolve().parents[2] / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

import datasets_page  # noqa: E402

from rankfusion.cli import main  # noqa: E402
from rankfusion.datasets import available_datasets, load  # noqa: E402
from rankfusion.datasets.loaders import DATASETS_PAGE, _catalog, _descr  # noqa: E402


def test_every_data_set_has_a_section_at_the_anchor_its_description_names():
    text = datasets_page.datasets_rst()
    for row in available_datasets().itertuples():
        assert f"\n{row.name}\n{'-' * len(row.name)}\n" in text, row.name
        anchor = row.name.replace("_", "-")
        assert make_id(row.name) == anchor  # the id Sphinx gives the section
        if row.bundled:
            descr = (load(row.name).DESCR if row.name == "stjude" else
                     _descr(row.name, _catalog()["datasets"][row.name],
                            (row.n_samples, row.n_features)))
            assert f"{DATASETS_PAGE}#{anchor}" in descr
            assert f"--export {row.name} --out {row.name}.csv" in text
    assert "Monti, Tamayo, Mesirov & Golub" in text and "rankfusion/data/" not in text


def test_the_pages_commands_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    lines = (DOCS / "datasets.rst").read_text(encoding="utf-8").splitlines()
    start = lines.index(".. code-block:: bash") + 2
    commands = [ln.strip() for ln in lines[start:] if ln.startswith("   ")]
    assert [c.split()[1] for c in commands[:2]] == ["datasets", "select"]
    for command in commands:
        assert main(shlex.split(command)[1:]) == 0, (command, capsys.readouterr().err)
        capsys.readouterr()
