"""The TOML schema reference of the experiment runner, generated from the code.

``.. rankfusion-toml-schema::`` renders one table per TOML table family (``[experiment]``,
``[grid]``, ``[datasets.<label>]`` …) with a row per key: its TOML type(s), its default and its
meaning. The rows come from :func:`rankfusion.experiments.config.schema_rows`, which yields
``(table, key, toml_types, default, meaning)`` tuples, so the page follows the validator.

FALLBACK: a rankfusion without ``schema_rows`` (before it is added to
``rankfusion/experiments/config.py``) gets the hand-written :data:`FALLBACK_ROWS` below
instead, and the page says so in a note. Remove them once every supported rankfusion has
``schema_rows``; ``tests/docs/test_toml_schema.py`` renders both paths.
"""

from __future__ import annotations

import json
import math

#: Marks a key that has no default (it must be given).
REQUIRED = "required"

#: FALLBACK rows, used only when ``rankfusion.experiments.config.schema_rows`` does not exist:
#: (table, key, TOML types, default, meaning), as docs/experiments.md states the schema.
FALLBACK_ROWS = (
    ("experiment", "name", "string", "the file name", "the experiment's name (report title)"),
    ("experiment", "seed", "integer", REQUIRED, "the seed of every cell, in [0, 2**32)"),
    ("experiment", "description", "string", "", "a description printed in the report"),
    ("grid", "datasets", "array of strings", REQUIRED,
     "data set labels: a [datasets.<label>] table, else a bundled data set's name"),
    ("grid", "selectors", "array of strings", REQUIRED, "labels of [selectors.<label>] tables"),
    ("grid", "rules", "array of strings", [],
     "rule labels: a [rules.<label>] table or a rule's name; crossed with the selectors that "
     "aggregate"),
    ("grid", "classifiers", "array of strings", REQUIRED,
     "classifier names (linear_svm, naive_bayes, knn1, tree, …)"),
    ("grid", "protocols", "array of strings", "every [protocols.*] table",
     "labels of [protocols.<label>] tables"),
    ("datasets.<label>", "source", "string", "the label",
     "a name of available_datasets(), of ARTIFICIAL_DATASETS, or sklearn:iris|wine|"
     "breast_cancer|digits"),
    ("datasets.<label>", "dropna", "boolean", False,
     "real data: drop samples with a missing value"),
    ("selectors.<label>", "kind", "string", REQUIRED, "ensemble, svm_rfe or ranker"),
    ("selectors.<label>", "rules", "array of strings", "the grid's rules",
     "this selector's own rule labels"),
    ("selectors.<label>", "rankers", "array of strings or tables", REQUIRED,
     "kind = ensemble: ranker names or { name = …, <ranker parameters> }"),
    ("selectors.<label>", "ranker", "string or table", REQUIRED, "kind = ranker: the ranker"),
    ("rules.<label>", "rule", "string", "the label", "the rule's name; other keys are its "
     "parameters (k = 0.25 for kfirst)"),
    ("protocols.<label>", "kind", "string", REQUIRED, "error_curve or cross_validation"),
    ("protocols.<label>", "n_splits", "integer", 10, "error_curve: random splits (≥ 2)"),
    ("protocols.<label>", "test_size", "float", 0.25, "error_curve: test fraction"),
    ("protocols.<label>", "stratify", "boolean", True, "stratified splits"),
    ("protocols.<label>", "n_features", "array of integers or string", "log",
     "error_curve: subset sizes; all, log, log:N or { log = N }"),
)


def _have_rows():
    """``schema_rows`` of the installed rankfusion, or None (then the fallback is used)."""
    try:
        from rankfusion.experiments import config
    except ImportError:  # pragma: no cover - rankfusion is installed for the docs
        return None
    return getattr(config, "schema_rows", None)


def rows():
    """The schema rows and whether they come from the code (True) or the fallback (False)."""
    schema_rows = _have_rows()
    if schema_rows is None:
        return list(FALLBACK_ROWS), False
    return [tuple(row) for row in schema_rows()], True


def _is_required(value) -> bool:
    """The fallback's :data:`REQUIRED`, or a sentinel of the validator meaning "no default"
    (``config.REQUIRED``, or any object whose text is ``required`` / ``<required>``)."""
    try:
        from rankfusion.experiments import config
    except ImportError:  # pragma: no cover
        config = None
    sentinel = getattr(config, "REQUIRED", None) if config is not None else None
    if sentinel is not None and value is sentinel:
        return True
    if isinstance(value, (bool, int, float, list, tuple, dict)) or value is None:
        return False
    return str(value).strip("<>").lower() == REQUIRED


def toml_value(value) -> str:
    """A default as TOML spells it (``true``, ``"text"``, ``[1, 2]``); prose stays prose."""
    if _is_required(value):
        return "**required**"
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "``true``" if value else "``false``"
    if isinstance(value, (int, float)):
        if isinstance(value, float) and not math.isfinite(value):
            return f"``{'inf' if value > 0 else '-inf'}``" if not math.isnan(value) else "``nan``"
        return f"``{value!r}``"
    if isinstance(value, (list, tuple)):
        return "``[" + ", ".join(_inner(v) for v in value) + "]``"
    if isinstance(value, dict):
        return "``{" + ", ".join(f"{k} = {_inner(v)}" for k, v in value.items()) + "}``"
    text = str(value)
    if text == "":
        return '``""``'
    return text.replace("|", r"\|")


def _inner(value) -> str:
    """A value inside a TOML array or inline table: strings quoted."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return toml_value(value).strip("`")


def _types(types) -> str:
    if isinstance(types, str):
        return types
    return " or ".join(str(t) for t in types)


def _cell(text) -> str:
    return " ".join(str(text).split()).replace("|", r"\|").replace("*", r"\*") or "—"


def schema_rst(rows_=None, from_code=None) -> str:
    """The schema as reStructuredText: one section per TOML table, one table row per key."""
    if rows_ is None:
        rows_, from_code = rows()
    lines = []
    if not from_code:
        lines += [".. note::", "",
                  "   This table is the documentation's hand-written fallback: the installed "
                  "rankfusion has no ``rankfusion.experiments.config.schema_rows``. It lists "
                  "the main keys only.", ""]
    tables: dict[str, list] = {}
    for table, key, types, default, meaning in rows_:
        tables.setdefault(str(table), []).append((key, types, default, meaning))
    for table, entries in tables.items():
        title = f"[{table}]"
        lines += [title, "~" * len(title), "",
                  ".. list-table::", "   :header-rows: 1", "   :widths: 18 20 17 45",
                  "   :class: toml-schema", "",
                  "   * - key", "     - TOML type", "     - default", "     - meaning"]
        for key, types, default, meaning in entries:
            lines += [f"   * - ``{key}``", f"     - {_cell(_types(types))}",
                      f"     - {toml_value(default)}", f"     - {_cell(meaning)}"]
        lines.append("")
    return "\n".join(lines) + "\n"


def setup(app):
    from docutils.parsers.rst import Directive
    from docutils.statemachine import StringList
    from sphinx.util.nodes import nested_parse_with_titles

    class TomlSchema(Directive):
        """``.. rankfusion-toml-schema::`` — every key of the experiment TOML."""

        def run(self):
            from docutils import nodes

            node = nodes.section()
            node.document = self.state.document
            text = StringList(schema_rst().splitlines(), source="rankfusion-toml-schema")
            nested_parse_with_titles(self.state, text, node)
            return node.children

    app.add_directive("rankfusion-toml-schema", TomlSchema)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
