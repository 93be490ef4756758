"""One vocabulary across the commands: the same flag for the same thing, the old spellings as
deprecated aliases, ``--output-format`` for what standard output holds, ``--out -``, and the
sub-command's usage line on a usage error.

Oracles: the parsers themselves (one option, one destination, one type, across the commands),
the table output against the CSV / TSV / JSON output of the same run, the ``--out`` file
against ``--out -``, and each old spelling against its new one (the same output, plus a note).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from rankfusion.cli import COMMANDS, build_parser, main
from rankfusion.cli._common import OUTPUT_FORMATS, DeprecatedAlias

DATA_COMMANDS = ("rank", "svm-rfe", "select", "advise")
TABLE_COMMANDS = ("rank", "aggregate", "svm-rfe", "select", "advise", "demo")

#: Shared flag → the commands that take it (each with one meaning, one destination).
SHARED = {
    "--target": DATA_COMMANDS,
    "--format": DATA_COMMANDS,
    "--drop": DATA_COMMANDS,
    "--na-values": DATA_COMMANDS,
    "--nominal": DATA_COMMANDS,
    "--encoding": (*DATA_COMMANDS, "aggregate"),
    "--sep": (*DATA_COMMANDS, "aggregate"),
    "--rankers": ("rank", "select", "advise"),
    "--rules": ("aggregate", "select", "svm-rfe", "advise"),
    "--estimators": ("select", "advise"),
    "--param": ("rank", "aggregate", "svm-rfe", "select"),
    "--out": ("rank", "aggregate", "svm-rfe", "select", "advise", "experiment"),
    "--overwrite": TABLE_COMMANDS,
    "--output-format": TABLE_COMMANDS,
    "--top": TABLE_COMMANDS,
    "--n-jobs": ("svm-rfe", "select", "advise", "demo", "experiment"),
    "--random-state": ("svm-rfe", "select", "advise", "demo", "rank", "aggregate"),
    "--tie-break": ("rank", "aggregate", "select"),
    "--no-progress": (*TABLE_COMMANDS, "experiment"),
}

#: (command, old spelling, new spelling)
ALIASES = [
    ("rank", "--ranker", "--rankers"),
    ("select", "--ignore", "--drop"),
    ("select", "--aggregate", "--rules"),
    ("select", "--rule", "--rules"),
    ("select", "--estimator", "--estimators"),
    ("advise", "--ignore", "--drop"),
    ("advise", "--rule", "--rules"),
    ("advise", "--estimator", "--estimators"),
    ("aggregate", "--method", "--rules"),
    ("aggregate", "-m", "--rules"),
    ("aggregate", "--rule", "--rules"),
    ("svm-rfe", "--aggregate", "--rules"),
    ("svm-rfe", "--rule", "--rules"),
    ("demo", "--seed", "--random-state"),
]


def _action(command, flag):
    sub = build_parser(command)._subparsers._group_actions[0].choices[command]
    return sub._option_string_actions.get(flag)


@pytest.mark.parametrize(("command", "flag"),
                         [(c, f) for f, cs in SHARED.items() for c in cs])
def test_every_command_takes_the_shared_flags_alike(command, flag):
    action = _action(command, flag)
    assert action is not None, f"rankfusion {command} has no {flag}"
    assert not isinstance(action, DeprecatedAlias) and action.help != argparse.SUPPRESS
    first = _action(SHARED[flag][0], flag)
    assert action.dest == flag.lstrip("-").replace("-", "_")
    assert (type(action), action.type, action.choices, action.nargs) == \
        (type(first), first.type, first.choices, first.nargs)


@pytest.mark.parametrize("command", COMMANDS)
def test_no_command_shows_an_old_spelling(command):
    sub = build_parser(command)._subparsers._group_actions[0].choices[command]
    shown = {f for a in sub._actions if a.help != argparse.SUPPRESS for f in a.option_strings}
    assert not shown & {"--ignore", "--ranker", "--method", "-m", "--aggregate", "--seed",
                        "--rule", "--estimator"}


def test_the_cli_spells_the_formats_of_the_library():
    from rankfusion.workflows import OUTPUT_FORMATS as LIBRARY

    assert OUTPUT_FORMATS == LIBRARY


# ------------------------------------------------------------------ data
@pytest.fixture
def files(tmp_path):
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b", "c"], 20)
    X = rng.normal(size=(60, 5))
    X[:, 0] += np.repeat([0.0, 3.0, 6.0], 20)
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(5)])
    frame.insert(0, "id", [f"s{i}" for i in range(60)])
    frame["cls"] = y
    data = tmp_path / "data.csv"
    frame.to_csv(data, index=False)
    scores = tmp_path / "scores.csv"
    scores.write_text("feature,A,B,C\ng1,0.9,0.8,0.7\ng2,0.5,0.6,0.1\ng3,0.1,0.2,0.9\n"
                      "g4,0.3,0.1,0.4\n")
    return {"DATA": str(data), "SCORES": str(scores), "TMP": tmp_path}


#: A quick run of every command that prints a table.
RUNS = {
    "rank": ["rank", "DATA", "-t", "cls", "--drop", "id", "--rankers", "f_classif,relieff"],
    "aggregate": ["aggregate", "SCORES", "--input", "scores", "--rules", "borda"],
    "svm-rfe": ["svm-rfe", "DATA", "-t", "cls", "--drop", "id", "--rules", "kfirst,average",
                "--no-progress"],
    "select": ["select", "DATA", "-t", "cls", "--drop", "id", "-r", "info_gain,relieff", "-b",
               "3", "-k", "k-step", "--estimators", "naive_bayes", "--random-state", "0",
               "--no-progress", "--top", "0"],
    "advise": ["advise", "DATA", "-t", "cls", "--drop", "id", "-r", "info_gain,f_classif",
               "--rules", "borda", "--sizes", "1,2", "--cv", "2", "--inner-cv", "2",
               "--repeats", "1", "--random-state", "0", "--top", "0"],
    "demo": ["demo", "--lists", "--top", "3"],
}


def _run(capsys, argv, files):
    code = main([str(files.get(a, a)) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _same(token: str, value) -> bool:
    if isinstance(value, float) and math.isnan(value):
        return token == "NaN"
    try:
        return math.isclose(float(token), float(value), abs_tol=6e-4)
    except ValueError:
        return token == str(value)


def _table_rows(text: str, columns, width: int) -> list[list[str]]:
    """The rows of at least ``width`` cells printed under the header line that names
    ``columns`` (not the line of the index's name)."""
    lines = text.splitlines()
    head = next(i for i, line in enumerate(lines)
                if set(map(str, columns)) <= set(line.split()))
    rows = []
    for line in lines[head + 1:]:
        if not line.strip() or line.startswith("#"):
            break
        rows.append(line.split())
    return [r for r in rows if len(r) >= width]


@pytest.mark.parametrize("command", TABLE_COMMANDS)
@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_csv_and_tsv_hold_the_printed_table(files, capsys, command, fmt):
    code, table, _ = _run(capsys, RUNS[command], files)
    assert code == 0
    code, out, err = _run(capsys, [*RUNS[command], "--output-format", fmt], files)
    assert code == 0, err
    frame = pd.read_csv(io.StringIO(out), sep="," if fmt == "csv" else "\t")
    assert not any(line.startswith("#") for line in out.splitlines())
    assert frame.shape[0] > 0
    if command == "select":  # the subset, printed as one line of names
        line = table.split("best first\n", 1)[1].splitlines()[0]
        assert frame["feature"].tolist() == line.strip().split(", ")
        return
    data_columns = [c for c in frame.columns if c not in ("feature", "rank", "Unnamed: 0")]
    rows = _table_rows(table, data_columns, frame.shape[1])
    assert len(rows) == frame.shape[0]
    for tokens, values in zip(rows, frame.itertuples(index=False)):
        values = list(values)
        assert all(_same(t, v) for t, v in zip(tokens[-len(values):], values)), \
            (tokens, values)


@pytest.mark.parametrize("command", TABLE_COMMANDS)
def test_json_loads_and_holds_the_tables(files, capsys, command):
    code, out, err = _run(capsys, [*RUNS[command], "--output-format", "json"], files)
    assert code == 0, err
    data = json.loads(out)
    several = {"select": {"subset", "subset_curve", "stability"}, "demo": {"inputs", "rules"}}
    if command in several:
        assert set(data) == several[command]
        assert all(isinstance(v, list) and v and isinstance(v[0], dict) for v in data.values())
    else:
        assert isinstance(data, list) and data and isinstance(data[0], dict)


def test_notes_and_progress_stay_off_a_machine_readable_stdout(files, capsys, monkeypatch):
    monkeypatch.setenv("RANKFUSION_PROGRESS_INTERVAL", "0")
    argv = [a for a in RUNS["select"] if a != "--no-progress"]
    code, out, err = _run(capsys, [*argv, "--output-format", "csv"], files)
    assert code == 0
    assert pd.read_csv(io.StringIO(out)).columns.tolist() == ["feature", "position", "score"]
    assert "rankfusion: select: " in err and "seed entropy 0" in err  # the estimate, a note


@pytest.mark.parametrize("command, out_files", [
    ("rank", ["--out"]), ("aggregate", ["--out"]), ("svm-rfe", ["--out"]),
    ("select", ["--out", "consensus.csv"]), ("advise", ["--out", "advice.csv"]),
])
def test_out_dash_writes_the_out_file_to_stdout(files, capsys, command, out_files):
    target = files["TMP"] / "result"
    code, _, err = _run(capsys, [*RUNS[command], "--out", target], files)
    assert code == 0, err
    written = target / out_files[1] if len(out_files) > 1 else target
    code, out, err = _run(capsys, [*RUNS[command], "--out", "-"], files)
    assert code == 0, err
    assert out == written.read_text()
    assert not (files["TMP"] / "-").exists()


# ------------------------------------------------------------------ old spellings
def _with(argv, old, new):
    """``argv`` with option ``new`` spelled ``old`` (added with a value if absent)."""
    argv = list(argv)
    if new in argv:
        argv[argv.index(new)] = old
        return argv
    return [*argv, old, {"--random-state": "0", "--drop": "id",
                         "--estimators": "naive_bayes"}.get(new, "borda")]


#: One concept, one spelling: the canonical flag (one or several comma-separated values) and
#: the old spellings kept as deprecated aliases; argparse's abbreviations must never let one
#: spelling reach the other option (``--rule`` is a prefix of ``--rules``).
CONCEPTS = {
    "--rules": {"aliases": ("--rule",), "one": "borda", "several": "borda,kfirst:k=2"},
    "--estimators": {"aliases": ("--estimator",), "one": "naive_bayes",
                     "several": "naive_bayes,tree"},
}


def _subparsers():
    """Every command of the CLI, from its parser (a new command is covered)."""
    sub = build_parser()._subparsers._group_actions[0]
    return sorted(sub.choices.items())


def _concept_cases():
    cases = []
    for name, parser in _subparsers():
        for flag, concept in CONCEPTS.items():
            spellings = (flag, *concept["aliases"])
            if any(s in parser._option_string_actions for s in spellings):
                cases.append((name, flag))
    return cases


def test_the_concept_table_covers_the_commands_that_take_them():
    assert {c for c, f in _concept_cases() if f == "--rules"} == \
        {"aggregate", "select", "svm-rfe", "advise"}
    assert {c for c, f in _concept_cases() if f == "--estimators"} == {"select", "advise"}


@pytest.mark.parametrize(("command", "flag"), _concept_cases())
def test_one_spelling_per_concept_with_its_aliases(command, flag, capsys):
    parser = dict(_subparsers())[command]
    concept = CONCEPTS[flag]
    canonical = parser._option_string_actions.get(flag)
    assert canonical is not None, f"rankfusion {command} spells {flag} otherwise"
    assert not isinstance(canonical, DeprecatedAlias) and canonical.nargs is None
    positional = {"demo": [], "datasets": []}.get(command, ["x"])
    for value in (concept["one"], concept["several"]):
        args = parser.parse_args([*positional, flag, value])
        assert getattr(args, canonical.dest) == value
    # every other spelling of the concept is a hidden deprecated alias of the same option
    for action in parser._actions:
        names = set(action.option_strings) & {flag, *concept["aliases"]}
        if action is canonical or not names:
            continue
        assert isinstance(action, DeprecatedAlias), (command, names)
        assert action.dest == canonical.dest and action.new == flag
        assert action.help == argparse.SUPPRESS
    for alias in concept["aliases"]:
        assert alias in parser._option_string_actions, (command, alias)
        args = parser.parse_args([*positional, alias, concept["several"]])
        assert getattr(args, canonical.dest) == concept["several"]
        assert f"note: {alias} is deprecated; use {flag}\n" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["aggregate", "SCORES", "--rules", "borda,kfirst"],
     "--rules names 2 items (borda, kfirst), and aggregate combines the lists by one rule"),
    (["select", "DATA", "-t", "cls", "--rules", "borda,ga:k=2,distance=kendall"],
     "--rules names 2 items (borda, ga:k=2,distance=kendall), and select builds one "
     "consensus ranking per run: give one"),
    (["advise", "DATA", "-t", "cls", "--estimators", "tree,knn1", "--dry-run"],
     "--estimators names 2 items (tree, knn1), and advise scores every subset with one "
     "estimator: give one"),
])
def test_several_values_where_a_run_uses_one_are_refused_by_name(files, capsys, argv,
                                                                  message):
    code, out, err = _run(capsys, argv, files)
    assert code == 2 and out == ""
    assert f"rankfusion: error: {message}" in err, err


@pytest.mark.parametrize("command, old, new", ALIASES)
def test_an_old_spelling_still_works_with_a_note(files, capsys, command, old, new):
    argv = {"demo": ["demo", "--splits", "0", "--top", "3", "--no-progress",
                     "--random-state", "0"],
            "advise": [*RUNS["advise"], "--dry-run"]}.get(command, RUNS[command])
    code, want, err = _run(capsys, argv, files)
    assert code == 0, err
    code, got, err = _run(capsys, _with(argv, old, new), files)
    assert code == 0, err
    assert f"note: {old} is deprecated; use {new}\n" in err
    strip = re.compile(r"\d+\.\d\d s")
    assert strip.sub("", got) == strip.sub("", want)


@pytest.mark.parametrize("argv, message", [
    (["select", "DATA", "--ignore", "id", "--drop", "f1"],
     "--ignore / --drop given twice: it takes one value (--ignore is the deprecated spelling "
     "of --drop; give --drop once)"),
    (["aggregate", "SCORES", "--rule", "kfirst", "--method", "borda"],
     "--rule / --method given twice"),
    (["aggregate", "SCORES", "-a", "kfirst", "-m", "kfirst"],  # even with one value
     "-a / -m given twice: it takes one value (-m is the deprecated spelling of --rules"),
    (["advise", "DATA", "--rule", "borda", "--rules", "kfirst"],
     "--rule / --rules given twice: it takes one value (--rule is the deprecated spelling "
     "of --rules; give --rules once)"),
    (["select", "DATA", "--estimator", "tree", "--estimators", "knn1"],
     "--estimator / --estimators given twice"),
    (["demo", "--seed", "1", "--random-state", "2"],
     "--seed / --random-state given twice: it takes one value (--seed is the deprecated "
     "spelling of --random-state; give --random-state once)"),
    (["rank", "DATA", "--ranker", "f_classif", "--rankers", "relieff"],
     "--ranker / --rankers given twice"),
])
def test_an_old_and_a_new_spelling_together_are_refused(files, capsys, argv, message):
    code, out, err = _run(capsys, argv, files)
    assert code == 2 and out == ""
    assert f"rankfusion: error: {message}" in err, err


# ------------------------------------------------------------------ usage errors
POSITIONALS = {"rank": ["x.csv"], "aggregate": ["x.csv"], "svm-rfe": ["x.csv"],
               "select": ["x.csv"], "advise": ["x.csv"], "experiment": ["x.toml"],
               "report": ["dir"], "demo": [], "datasets": [], "reproduce": ["nlc"]}


@pytest.mark.parametrize("command", COMMANDS)
def test_a_usage_error_shows_the_commands_usage(capsys, command):
    with pytest.raises(SystemExit) as exc:
        main([command, *POSITIONALS[command], "--bad"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: rankfusion {command} "), err
    assert err.rstrip().splitlines()[-1] == \
        f"rankfusion {command}: error: unrecognized arguments: --bad"


@pytest.mark.parametrize("command", TABLE_COMMANDS)
def test_an_unknown_output_format_is_a_usage_error(capsys, command):
    with pytest.raises(SystemExit):
        main([command, *POSITIONALS[command], "--output-format", "xml"])
    err = capsys.readouterr().err
    assert err.startswith(f"usage: rankfusion {command} ")
    assert "argument --output-format: invalid choice: 'xml'" in err


@pytest.mark.parametrize("argv, message", [
    (["rank", "DATA", "--out", "-", "--overwrite"], "leave --overwrite out"),
    (["select", "DATA", "--out", "-", "--overwrite"], "leave --overwrite out"),
    (["aggregate", "SCORES", "--out", "-", "--output-format", "json"],
     "--out - and --output-format json both write to standard output"),
    (["svm-rfe", "DATA", "--lists-out", "-"], "--lists-out -: only --out can write"),
    (["svm-rfe", "DATA", "--out", "-", "--lists-out", "-"], "--lists-out -: only --out"),
    (["advise", "DATA", "--dry-run", "--out", "-"], "a dry run does not make"),
    (["experiment", "x.toml", "--out", "-"], "standard output cannot hold"),
])
def test_out_dash_with_what_needs_a_file_or_folder_is_refused(files, capsys, argv, message):
    code, out, err = _run(capsys, argv, files)
    assert code == 2 and out == ""
    assert message in err, err
    assert not (files["TMP"] / "-").exists()


def test_overwrite_with_out_dash_is_fine_for_the_other_file(files, capsys):
    lists = files["TMP"] / "lists.csv"
    lists.write_text("x")
    code, out, err = _run(capsys, [*RUNS["svm-rfe"], "--out", "-", "--lists-out", lists,
                                   "--overwrite"], files)
    assert code == 0, err
    assert out.startswith("feature,") and lists.read_text().startswith("feature,")
