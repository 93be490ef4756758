"""The TOML schema page (docs/toml_schema.rst and docs/_ext/toml_schema.py): the table is
rendered from ``rankfusion.experiments.config.schema_rows`` (checked with a stub, and against
every key the validator declares); every TOML example of the page is a complete
configuration on bundled data that loads and plans (``--dry-run``)."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

import toml_schema  # noqa: E402

PAGES = [DOCS / "toml_schema.rst"]


def _toml_blocks(page: Path) -> list[str]:
    import textwrap

    blocks, lines = [], page.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == ".. code-block:: toml":
            i += 1
            body = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("   ")):
                body.append(lines[i])
                i += 1
            blocks.append(textwrap.dedent("\n".join(body)).strip() + "\n")
        else:
            i += 1
    return blocks


EXAMPLES = [(page, k, block) for page in PAGES for k, block in enumerate(_toml_blocks(page))]


def test_the_page_has_examples_and_the_directive():
    text = PAGES[0].read_text(encoding="utf-8")
    assert ".. rankfusion-toml-schema::" in text
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("page, k, block", EXAMPLES,
                         ids=[f"{p.name}[{k}]" for p, k, _ in EXAMPLES])
def test_every_toml_example_loads_and_plans(tmp_path, page, k, block):
    from rankfusion.datasets import ARTIFICIAL_DATASETS, available_datasets
    from rankfusion.experiments import dry_run, load_config

    path = tmp_path / f"example{k}.toml"
    path.write_text(block, encoding="utf-8")
    cfg = load_config(path)
    assert cfg.cells
    bundled = set(available_datasets().query("bundled")["name"]) | set(ARTIFICIAL_DATASETS)
    for cell in cfg.cells:
        assert cell.spec["dataset"]["source"] in bundled, cell.spec["dataset"]
    printed = io.StringIO()
    counts = dry_run(cfg, tmp_path / "out", file=printed)
    assert isinstance(counts, dict) and printed.getvalue().strip()


def test_the_cli_dry_run_plans_each_example(tmp_path, monkeypatch, capsys):
    from rankfusion.cli import main

    monkeypatch.chdir(tmp_path)
    for _, k, block in EXAMPLES:
        (tmp_path / f"e{k}.toml").write_text(block, encoding="utf-8")
        assert main(["experiment", f"e{k}.toml", "--dry-run"]) == 0, capsys.readouterr().err
        capsys.readouterr()


def test_rows_come_from_schema_rows_when_it_exists(monkeypatch):
    from rankfusion.experiments import config

    stub = [("experiment", "seed", ("integer",), toml_schema.REQUIRED, "the seed"),
            ("experiment", "name", "string", "stub-name", "planted | pipe"),
            ("protocols.<label>", "n_features", ["array of integers", "string"], [1, 2],
             "sizes"),
            ("protocols.<label>", "stratify", "boolean", True, "stratified")]
    monkeypatch.setattr(config, "schema_rows", lambda: iter(stub), raising=False)
    rows = toml_schema.rows()
    assert rows == stub
    text = toml_schema.schema_rst()
    assert "[experiment]\n~~~~~~~~~~~~" in text and "[protocols.<label>]" in text
    assert "``seed``" in text and "**required**" in text and "stub-name" in text
    assert r"planted \| pipe" in text and "array of integers or string" in text
    assert "``[1, 2]``" in text and "``true``" in text


def test_the_page_has_every_key_of_the_validator():
    from rankfusion.experiments import config

    text = toml_schema.schema_rst()
    for table, key, *_ in config.schema_rows():
        assert table in text and f"``{key}``" in text, (table, key)
    for table in ("[experiment]", "[grid]", "[datasets.*]", "[rules.*]"):
        assert f"{table}\n" in text, table


@pytest.mark.parametrize("value, shown", [
    (None, "—"), (False, "``false``"), (0.25, "``0.25``"), (10, "``10``"),
    ("", '``""``'), ([], "``[]``"), (["a", 1], '``["a", 1]``'), ({"log": 20}, "``{log = 20}``"),
    (float("inf"), "``inf``"), ("borda", '``"borda"``'), ("utf-8", '``"utf-8"``'),
    ('say "hi"', r'``"say \"hi\""``')])
def test_defaults_are_spelled_as_toml(value, shown):
    assert toml_schema.toml_value(value) == shown



def test_a_required_sentinel_of_the_validator_reads_as_required(monkeypatch):
    from rankfusion.experiments import config

    class Required:
        def __repr__(self):
            return "<required>"

    sentinel = Required()
    monkeypatch.setattr(config, "REQUIRED", sentinel, raising=False)
    assert toml_schema.toml_value(sentinel) == "**required**"
    assert toml_schema.toml_value("<required>") == "**required**"
    assert toml_schema.toml_value("the label") == '``"the label"``'


def test_a_conditional_default_stays_prose():
    class Conditional:  # a default that depends on another setting, as the config declares it
        def __str__(self):
            return "0.25 with random splits | refused with kfold"

    assert toml_schema.toml_value(Conditional()) == r"0.25 with random splits \| refused with kfold"


def test_the_page_shows_the_runners_protocol_defaults():
    """The error curve's defaults on the page are the ones a configuration gets (10 splits,
    test_size 0.25 with random splits, none with K folds), not error_curve's own (100, None)."""
    text = toml_schema.schema_rst()
    part = text[text.index('[protocols.*] kind = "error_curve"'):]
    part = part[:part.index('[protocols.*] kind = "cross_validation"')]
    rows = {chunk.split("``", 2)[1]: chunk for chunk in part.split("   * - ")[2:]}
    assert "- ``10``" in rows["n_splits"]
    assert ('- ``0.25`` with ``splits = "random"``; none with ``splits = "kfold"`` (refused'
            in rows["test_size"])
