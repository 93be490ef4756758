"""The generated command-line reference (docs/_ext/cli_reference.py): every command and every
flag of the parsers appears in the generated text, with its help; every example of the page
runs (exit status 0) in a fresh folder, after the page's setup commands."""

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


@pytest.fixture(scope="module")
def text():
    return cli_reference.reference_rst()


def test_every_command_has_a_section_with_its_usage_and_examples(text):
    for name in COMMANDS:
        assert f".. _cli-{name}:" in text and f"\nrankfusion {name}\n" in text, name
        assert f"usage: rankfusion {name}" in text, name
        assert cli_reference.EXAMPLES.get(name), f"{name} has no example"


def test_every_flag_appears_with_its_help(text):
    _, commands, _ = cli_reference._parsers()
    for name, parser in commands:
        start = text.index(f".. _cli-{name}:")
        section = text[start:text.find(".. _cli-", start + 1)]
        for action in parser._actions:
            if action.help is argparse.SUPPRESS or isinstance(action, argparse._HelpAction):
                continue
            for flag in action.option_strings or [action.metavar or action.dest]:
                assert f"``{flag}``" in section, (name, flag)
            first_words = " ".join((action.help or "").split()[:3])
            assert first_words.replace("*", r"\*").replace("`", "'") in section, (name, flag)
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
    text = cli_reference.reference_rst()
    assert "``--planted-flag``" in text and "a planted option" in text and "``y``" in text


def _run(command: str) -> int:
    argv = shlex.split(command)
    assert argv[0] == "rankfusion", command
    return main(argv[1:])


def test_every_example_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for name, body in cli_reference.FILES.items():
        (tmp_path / name).write_text(body, encoding="utf-8")
    for command in cli_reference.SETUP:
        assert _run(command) == 0, (command, capsys.readouterr().err)
    for name in COMMANDS:
        for _, command in cli_reference.EXAMPLES[name]:
            assert command.split()[1] == name, command
            code = _run(command)
            out, err = capsys.readouterr()
            assert code == 0, (command, err)
            assert "Traceback" not in err
    assert (tmp_path / "results" / "grid" / "report").is_dir()
