"""The generated command-line reference (docs/_ext/cli_reference.py, docs/cli/): every command
has a page and every flag of the parsers appears in its generated text, with its help and
choices; every example runs (exit status 0) in a fresh folder, after the reference's setup
commands; so do the "typical uses" of the user guide's command-line page."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

import cli_reference  # noqa: E402

from rankfusion.cli import main  # noqa: E402
from rankfusion.cli.program import COMMANDS  # noqa: E402


def test_every_command_has_a_page_with_its_usage_and_examples():
    index = (DOCS / "cli" / "index.rst").read_text(encoding="utf-8")
    overview = cli_reference.reference_rst()
    for name in COMMANDS:
        page = DOCS / "cli" / f"{name}.rst"
        assert page.read_text(encoding="utf-8").strip() == \
            f".. rankfusion-cli-reference:: {name}", name
        assert f"\n   {name}\n" in index, f"{name} is not in the toctree of docs/cli/index.rst"
        assert f"<cli-{name}>" in overview, name
        text = cli_reference.reference_rst(name)
        assert f".. _cli-{name}:" in text and f"\nrankfusion {name}\n" in text, name
        assert f"usage: rankfusion {name}" in text, name
        assert cli_reference.EXAMPLES.get(name), f"{name} has no example"
    for command in cli_reference.SETUP:
        assert command in overview


def test_an_unknown_command_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown command 'rnak'"):
        cli_reference.reference_rst("rnak")


def test_every_flag_appears_with_its_help():
    _, commands, _ = cli_reference._parsers()
    for name, parser in commands:
        section = cli_reference.reference_rst(name)
        for action in parser._actions:
            if action.help is argparse.SUPPRESS or isinstance(action, argparse._HelpAction):
                continue
            for flag in action.option_strings or [action.metavar or action.dest]:
                assert f"``{flag}``" in section, (name, flag)
            assert cli_reference._help(action) in section, (name, flag)
            if action.choices:
                for choice in action.choices:
                    assert f"``{choice}``" in section, (name, flag, choice)


def test_a_new_flag_shows_up_without_editing_the_page(monkeypatch):
    from rankfusion.cli import program

    real = program.build_parser

    def build(only=None):
        parser = real(only)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        sub.choices["rank"].add_argument("--planted-flag", choices=["x", "y"], default="x",
                                         help="a planted option")
        return parser

    monkeypatch.setattr(program, "build_parser", build)
    text = cli_reference.reference_rst("rank")
    assert "``--planted-flag``" in text and "a planted option" in text and "``y``" in text


def _run(command: str) -> int:
    argv = shlex.split(command)
    assert argv[0] == "rankfusion", command
    return main(argv[1:])


def _setup(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for name, body in cli_reference.FILES.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    for command in cli_reference.SETUP:
        assert _run(command) == 0, (command, capsys.readouterr().err)
    capsys.readouterr()


def test_every_example_runs(tmp_path, monkeypatch, capsys):
    _setup(tmp_path, monkeypatch, capsys)
    for name in COMMANDS:
        for _, command in cli_reference.EXAMPLES[name]:
            assert command.split()[1] == name, command
            code = _run(command)
            out, err = capsys.readouterr()
            assert code == 0, (command, err)
            assert "Traceback" not in err
    assert (tmp_path / "results" / "grid" / "report").is_dir()


def _typical_uses():
    lines = (DOCS / "user_guide" / "cli.rst").read_text(encoding="utf-8").splitlines()
    start = lines.index(".. code-block:: bash") + 2
    commands, pending = [], ""
    for line in lines[start:]:
        if not line.startswith("   "):
            break
        text = line.split("  #", 1)[0].strip()
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        commands.append(pending + text)
        pending = ""
    return commands


def test_the_guides_typical_uses_run_on_bundled_data(tmp_path, monkeypatch, capsys):
    commands = _typical_uses()
    assert len(commands) >= 8 and commands[0] == "rankfusion demo"
    monkeypatch.chdir(tmp_path)
    for name, body in cli_reference.FILES.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    for command in commands[1:]:  # the St. Jude demo: tests/evaluation/test_stjude_demo.py
        code = _run(command)
        assert code == 0, (command, capsys.readouterr().err)
        capsys.readouterr()
