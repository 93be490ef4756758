"""The command-line reference, generated from the argparse parsers (``rankfusion.cli``).

``.. rankfusion-cli-reference::`` renders the overview (the program's usage, one line per
command, the examples' setup) and ``.. rankfusion-cli-reference:: COMMAND`` one command's page
(``docs/cli/COMMAND.rst``): its usage line, its description, one table row per option (flags,
value — metavar or choices —, default, help) and the example invocations of :data:`EXAMPLES`.
Everything comes from the parser objects when the site is built, so the pages cannot drift
from the code; ``tests/docs/test_cli_reference.py`` checks that every command has a page and
every flag appears in :func:`reference_rst`, and runs :data:`SETUP` and every example.
"""

from __future__ import annotations

import argparse
import os
import re

#: Files the examples read, written into the working folder first (name → text).
FILES = {
    "grid.toml": """\
[experiment]
name = "grid"
seed = 0

[grid]
datasets = ["iris"]
selectors = ["ig", "filters"]
rules = ["borda"]
classifiers = ["naive_bayes"]
protocols = ["curve"]

[selectors.ig]
kind = "ranker"
ranker = "info_gain"

[selectors.filters]
kind = "ensemble"
rankers = ["info_gain", "relieff"]

[protocols.curve]
kind = "error_curve"
n_splits = 2
n_features = [1, 2, 4]
""",
}

#: Commands run once, in order, before the examples: bundled data sets exported as files, and
#: a scores file for ``aggregate``.
SETUP = (
    "rankfusion datasets --export iris --out iris.csv",
    "rankfusion datasets --export parkinsons --out parkinsons.csv",
    "rankfusion rank iris.csv --rankers info_gain,relieff,nlc --out scores.csv",
)

#: One or two example invocations per command: (what it does, the command line). They run in
#: this order in one folder (``report`` reads the folder ``experiment`` wrote).
EXAMPLES = {
    "demo": [
        ("every position-based rule on five rankers' lists of the UCI Wine data",
         "rankfusion demo --lists --top 3"),
    ],
    "datasets": [
        ("the bundled data sets, one row each", "rankfusion datasets"),
        ("one data set as gzip-compressed CSV (the class last, named 'class')",
         "rankfusion datasets --export wbc --out wbc.csv.gz"),
    ],
    "rank": [
        ("three rankers' scores, top 4 rows", "rankfusion rank iris.csv --rankers "
         "info_gain,relieff,nlc --top 4"),
        ("ReliefF with 5 neighbours, the scores as CSV on standard output",
         "rankfusion rank parkinsons.csv --rankers relieff --param n_neighbors=5 "
         "--output-format csv"),
    ],
    "aggregate": [
        ("K-First over the k = 2 best positions of each list",
         "rankfusion aggregate scores.csv --rules kfirst --k 2"),
        ("Schulze's method, saved to a file", "rankfusion aggregate scores.csv --rules schulze "
         "--out consensus.csv"),
    ],
    "svm-rfe": [
        ("one-vs-one SVM-RFE combined by K-First and Schulze, beside the joint Average",
         "rankfusion svm-rfe iris.csv --rules kfirst,schulze,average --standardize --top 4"),
    ],
    "select": [
        ("the fuzzy paper's ensemble: two filters on 10 bootstraps, fuzzy OW weights, top 5",
         "rankfusion select parkinsons.csv --rankers relieff,info_gain --rules fuzzy:OW "
         "--bootstraps 10 --subset 5 --random-state 0 --out selection"),
    ],
    "advise": [
        ("the plan of a nested comparison, without running it",
         "rankfusion advise iris.csv --rankers info_gain,relieff --rules borda --sizes 1,2 "
         "--cv 2 --repeats 1 --inner-cv 2 --random-state 0 --dry-run"),
    ],
    "experiment": [
        ("the cells of grid.toml and the work they need, without running them",
         "rankfusion experiment grid.toml --dry-run"),
        ("run them (a second run resumes: finished cells are kept)",
         "rankfusion experiment grid.toml --out results/grid --no-progress"),
    ],
    "report": [
        ("rewrite the report of the finished experiment", "rankfusion report results/grid"),
    ],
    "reproduce": [
        ("the NLC paper's smoke reproduction: its runs, then its tables (needs the "
         "repository's experiments/ folder)",
         "rankfusion reproduce nlc --smoke --out repro/nlc --no-progress"),
    ],
}


def _parsers():
    from rankfusion.cli.program import COMMANDS, build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return parser, [(name, sub.choices[name]) for name in COMMANDS], sub


def _value(action) -> str:
    if action.nargs == 0:
        return ""
    if action.choices is not None:
        return " | ".join(f"``{c}``" for c in action.choices)
    metavar = action.metavar or (action.dest.upper() if action.option_strings else action.dest)
    return f"``{metavar}``"


def _default(action) -> str:
    default = action.default
    if default is None or default is argparse.SUPPRESS:
        return "—"
    if action.nargs == 0 and isinstance(default, bool):
        return "on" if default else "off"
    return f"``{default}``"


def _help(action) -> str:
    text = action.help or ""
    if "%(default)" in text or "%(prog)" in text:
        text = text % {"default": action.default, "prog": "rankfusion"}
    text = text.replace("*", r"\*").replace("|", r"\|").replace("`", "'")
    # options named in the help as literals (else reST's smart quotes turn '--' into a dash)
    return re.sub(r"(?<![\w`-])(--[A-Za-z][\w-]*)", r"``\1``", text)


def _flags(action) -> str:
    if not action.option_strings:
        return f"``{action.metavar or action.dest}``"
    return ", ".join(f"``{f}``" for f in action.option_strings)


def options(command_parser) -> list[tuple[str, list[argparse.Action]]]:
    """The documented options of one command, by argparse group (title, actions); help and
    deprecated aliases (suppressed help) are left out."""
    out = []
    for group in command_parser._action_groups:
        actions = [a for a in group._group_actions
                   if a.help is not argparse.SUPPRESS and not isinstance(a, argparse._HelpAction)]
        if actions:
            out.append((group.title, actions))
    return out


def _table(actions) -> list[str]:
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 22 18 12 48",
             "   :class: cli-options", "",
             "   * - option", "     - value", "     - default", "     - meaning"]
    for action in actions:
        lines += [f"   * - {_flags(action)}", f"     - {_value(action) or '—'}",
                  f"     - {_default(action)}", f"     - {_help(action) or '—'}"]
    return lines + [""]


def _indent(text: str, prefix: str = "   ") -> list[str]:
    return [prefix + line if line.strip() else "" for line in text.rstrip("\n").splitlines()]


def _overview(parser, commands, sub) -> list[str]:
    summary = {a.dest: a.help for a in sub._choices_actions}
    lines = [".. code-block:: text", "", *_indent(parser.format_usage()), ""]
    lines += [".. list-table::", "   :header-rows: 1", "   :widths: 24 76", "",
              "   * - command", "     - what it does"]
    for name, _ in commands:
        lines += [f"   * - :ref:`rankfusion {name} <cli-{name}>`",
                  f"     - {summary.get(name, '')}"]
    lines += ["", ".. _cli-setup:", "", "Setup of the examples", "---------------------", "",
              "The examples of every command's page run in a folder prepared by these "
              "commands (the data sets are bundled with the package):", "",
              ".. code-block:: bash", ""]
    lines += [f"   {cmd}" for cmd in SETUP]
    for fname, text in FILES.items():
        lines += ["", f"and holding ``{fname}``:", "", ".. code-block:: toml", "",
                  *_indent(text)]
    return lines + [""]


def _command(name, command) -> list[str]:
    title = f"rankfusion {name}"
    lines = [f".. _cli-{name}:", "", title, "=" * len(title), ""]
    if command.description:
        lines += [command.description, ""]
    lines += [".. code-block:: text", "", *_indent(command.format_usage()), ""]
    for group, actions in options(command):
        heading = "Arguments" if group == "positional arguments" else (
            "Options" if group == "options" else group[:1].upper() + group[1:])
        lines += [heading, "-" * len(heading), "", *_table(actions)]
    examples = EXAMPLES.get(name, [])
    if examples:
        lines += ["Examples", "--------", "",
                  "In the folder of :ref:`the reference's setup <cli-setup>`:", "",
                  ".. code-block:: bash", ""]
        for k, (what, cmd) in enumerate(examples):
            if k:
                lines.append("")
            lines += [f"   # {what}", f"   {cmd}"]
        lines.append("")
    return lines


def reference_rst(command: str | None = None) -> str:
    """The reference as reStructuredText: with ``command`` None, the program's usage, the
    commands and the examples' setup; else that command's page (usage, description, one table
    per option group, examples)."""
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "92"  # argparse wraps its usage lines to the terminal width
    try:
        parser, commands, sub = _parsers()
        if command is None:
            lines = _overview(parser, commands, sub)
        else:
            found = dict(commands)
            if command not in found:
                raise ValueError(f"rankfusion-cli-reference: unknown command {command!r}; "
                                 f"known: {', '.join(found)}")
            lines = _command(command, found[command])
        return "\n".join(lines) + "\n"
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old


def setup(app):
    from docutils.parsers.rst import Directive
    from docutils.statemachine import StringList
    from sphinx.util.nodes import nested_parse_with_titles

    class CliReference(Directive):
        """``.. rankfusion-cli-reference:: [COMMAND]`` — the overview, or one command's page."""

        optional_arguments = 1

        def run(self):
            from docutils import nodes

            node = nodes.section()
            node.document = self.state.document
            command = self.arguments[0] if self.arguments else None
            text = StringList(reference_rst(command).splitlines(),
                              source="rankfusion-cli-reference")
            nested_parse_with_titles(self.state, text, node)
            return node.children

    app.add_directive("rankfusion-cli-reference", CliReference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
