"""The TOML schema reference of the experiment runner, generated from the code.

``.. rankfusion-toml-schema::`` renders one table per TOML table family (``[experiment]``,
``[grid]``, ``[datasets.<label>]`` …) with a row per key: its TOML type(s), its default and its
meaning. The rows come from :func:`rankfusion.experiments.config.schema_rows`, which yields
``(table, key, toml_types, default, meaning)`` tuples, so the page follows the validator.

There is no hand-written copy: a key added to, or removed from, the validator's declarations
appears on, or leaves, the page with the next build.
"""

from __future__ import annotations

import json
import math
import re

#: Marks a key that has no default (it must be given).
REQUIRED = "required"

def rows():
    """The schema rows, from :func:`rankfusion.experiments.config.schema_rows`."""
    from rankfusion.experiments import config

    return [tuple(row) for row in config.schema_rows()]


def _is_required(value) -> bool:
    """:data:`REQUIRED`, or a sentinel of the validator meaning "no default"
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
    """A default as TOML spells it (``true``, ``"text"``, ``[1, 2]``); a default that is not a
    TOML value (one that depends on another setting) stays prose."""
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
    if isinstance(value, str):  # a TOML string, quoted as a config file spells it
        return "``" + json.dumps(value, ensure_ascii=False) + "``"
    # prose: a default that depends on another setting (``ConditionalDefault``) says so
    return str(value).replace("|", r"\|")


def _inner(value) -> str:
    """A value inside a TOML array or inline table: strings quoted."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return toml_value(value).strip("`")


def _types(types) -> str:
    if isinstance(types, str):
        return types
    return " or ".join(str(t) for t in types)


_ROLE = re.compile(r":(?:py:)?(?:attr|class|func|meth|mod|data|obj):`~?([^`<]+?)(?:\s*<[^>]*>)?`")


def _cell(text) -> str:
    """A meaning as table text: Sphinx roles become literals (the page is outside the object's
    own namespace, where ``:attr:`subset_curve_``` would not resolve)."""
    text = _ROLE.sub(lambda m: f"``{m.group(1)}``", " ".join(str(text).split()))
    return text.replace("|", r"\|").replace("*", r"\*") or "—"


def schema_rst(rows_=None) -> str:
    """The schema as reStructuredText: one section per TOML table, one table row per key."""
    if rows_ is None:
        rows_ = rows()
    lines = []
    tables: dict[str, list] = {}
    for table, key, types, default, meaning in rows_:
        tables.setdefault(str(table), []).append((key, types, default, meaning))
    for table, entries in tables.items():
        title = table if table.startswith("[") else f"[{table}]"
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
