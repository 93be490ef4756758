"""Option values starting with '-': a number or a list of numbers given after a space
(``--weights -1,1,1``, ``--C -1e-3``) reaches the command as the value, exactly as after '='
(argparse alone called them a missing argument); any other value starting with '-' gets a
message saying to write ``--option=-VALUE``. Oracle: the same command line with '=' (whose
reading argparse documents), and the library's own message for the value."""

import pytest

from rankfusion.cli import main

DATA = "f0,f1,f2,cls\n1,2,-999,a\n3,4,5,b\n5,6,7,a\n2,1,8,b\n4,3,-999,a\n6,5,9,b\n"
SCORES = "feature,A,B,C\ng1,0.9,0.8,0.7\ng2,0.5,0.6,0.1\ng3,0.1,0.2,0.9\n"


@pytest.fixture
def files(tmp_path):
    data, scores = tmp_path / "d.csv", tmp_path / "s.csv"
    data.write_text(DATA)
    scores.write_text(SCORES)
    return {"DATA": str(data), "SCORES": str(scores)}


def _run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# (command line before the option, option, value, a part of the message that must follow)
HOSTILE = [
    (["aggregate", "SCORES", "--input", "scores", "-a", "borda"], "--weights", "-1,1,1",
     "weights must be non-negative"),
    (["aggregate", "SCORES", "--input", "scores", "-a", "borda"], "--weights", "-1",
     "one weight per list"),
    (["aggregate", "SCORES", "--input", "scores", "-a", "borda"], "--weights", "-1,x,1",
     "--weights must be comma-separated numbers"),
    (["aggregate", "SCORES", "--input", "scores", "-a", "borda"], "--weights", "-.5,1,1",
     "weights must be non-negative"),
    (["aggregate", "SCORES", "--input", "scores", "-a", "borda"], "--weights", "-inf,1,1",
     "weights"),
    (["aggregate", "SCORES", "--input", "scores"], "--k", "-1e-3",
     "k must be an int ≥ 1 or a number in (0, 1], got -0.001"),
    (["aggregate", "SCORES", "--input", "scores"], "--k", "-2", "k must be"),
    (["aggregate", "SCORES", "--input", "scores"], "--top", "-1", "--top must be ≥ 0"),
    (["svm-rfe", "DATA"], "--C", "-1e-3", "C must be a number > 0 or 'cv'"),
    (["svm-rfe", "DATA"], "--C", "-1", "C must be a number > 0 or 'cv'"),
    (["svm-rfe", "DATA"], "--step", "-.5", "step must be"),
    (["svm-rfe", "DATA"], "--step", "-1e-1", "step must be"),
    (["svm-rfe", "DATA"], "--step-until", "-3", "step_until must be"),
    (["svm-rfe", "DATA"], "--k", "-0.1", "k as a float"),
    (["svm-rfe", "DATA"], "--random-state", "-1", "random_state must be ≥ 0"),
    (["select", "DATA"], "--bootstraps", "-1", "n_bootstraps must be ≥ 0"),
    (["select", "DATA"], "--cv", "-1", "cv must be an int ≥ 2"),
    (["select", "DATA"], "--random-state", "-7", "random_state must be None, an int ≥ 0"),
    (["select", "DATA"], "--top", "-3", "--top must be ≥ 0"),
    (["rank", "DATA"], "--top", "-1", "--top must be ≥ 0"),
    (["demo"], "--splits", "-1", "--splits must be 0"),
]


@pytest.mark.parametrize("before, option, value, message", HOSTILE)
def test_a_number_starting_with_dash_is_the_value(files, capsys, before, option, value,
                                                  message):
    before = [files.get(a, a) for a in before]
    spaced = _run(capsys, [*before, option, value])
    joined = _run(capsys, [*before, f"{option}={value}"])
    assert spaced == joined
    code, out, err = spaced
    assert code == 2 and out == ""
    assert "expected one argument" not in err
    assert err.startswith("rankfusion: error: ") and message in err, err


@pytest.mark.parametrize("argv, expected", [
    (["rank", "DATA", "-t", "-1", "--top", "1"], ["rank", "DATA", "--target=-1", "--top",
                                                  "1"]),
    (["rank", "DATA", "--na-values", "-999,?"], ["rank", "DATA", "--na-values=-999,?"]),
    (["aggregate", "SCORES", "--weig", "-1,2"], ["aggregate", "SCORES", "--weights=-1,2"]),
])
def test_the_value_works_as_with_equals(files, capsys, monkeypatch, argv, expected):
    argv = [files.get(a, a) for a in argv]
    expected = [files.get(a, a) for a in expected]
    assert _run(capsys, argv) == _run(capsys, expected)


def test_negative_na_marker_reads_missing(files, capsys):
    # -999 is the file's missing-value marker: read as missing, f2 ranked from the rest
    code, out, err = _run(capsys, ["rank", files["DATA"], "--na-values", "-999,?", "--top",
                                   "0"])
    assert code == 0, err
    assert "f2" in out


@pytest.mark.parametrize("before, option, value", [
    (["rank", "DATA"], "--drop", "-x"),
    (["rank", "DATA"], "--nominal", "-col"),
    (["aggregate", "SCORES"], "--rules", "-borda"),
    (["select", "DATA"], "--drop", "-id"),
    (["aggregate", "SCORES"], "--method", "-borda"),  # the deprecated spellings alike
    (["select", "DATA"], "--ignore", "-id"),
])
def test_other_dash_values_name_the_way_out(files, capsys, before, option, value):
    before = [files.get(a, a) for a in before]
    with pytest.raises(SystemExit) as exc:
        main([*before, option, value])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "expected one argument" in err and "=-VALUE" in err or "after '='" in err, err


def test_the_separator_ends_the_rewriting(files, capsys):
    # after '--' every token is positional, as argparse reads it
    from rankfusion.cli import build_parser
    from rankfusion.cli.program import _attach_dash_values

    argv = ["aggregate", "--", "--weights", "-1,1"]
    assert _attach_dash_values(build_parser("aggregate"), "aggregate", argv) == argv
