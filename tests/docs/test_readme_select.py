"""The README's "Ensemble selection" block runs for an installed user (bundled data exported
with ``rankfusion datasets --export``) and prints what the README shows, less the timing
lines (``# wrote … (… s)``, ``# time: …``)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from rankfusion.cli import main

README = Path(__file__).resolve().parents[2] / "README.md"


def _block():
    text = README.read_text(encoding="utf-8")
    m = re.search(r"```text\n(\$ rankfusion datasets --export parkinsons.*?)```", text, re.S)
    assert m, "README.md has no block starting with '$ rankfusion datasets --export'"
    commands, expected, lines = [], [], m.group(1).splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            command = line[2:]
            while command.endswith("\\"):
                i += 1
                command = command[:-1] + " " + lines[i].strip()
            commands.append(command)
        else:
            expected.append(line)
        i += 1
    return commands, expected


def _stable(lines):
    return [ln.rstrip() for ln in lines
            if not ln.startswith("# time:") and not re.match(r"# wrote .* \(\d", ln)]


def test_readme_select_block_runs_and_prints_what_it_shows(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    commands, expected = _block()
    assert [c.split()[1] for c in commands] == ["datasets", "select"]
    printed = []
    for command in commands:
        argv = shlex.split(command)
        assert main([*argv[1:], "--no-progress"] if argv[1] == "select" else argv[1:]) == 0
        out, err = capsys.readouterr()
        printed += (err if argv[1] == "datasets" else out).splitlines()
    assert _stable(printed) == _stable(expected)
