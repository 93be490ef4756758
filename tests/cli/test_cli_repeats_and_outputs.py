"""Command-line mistakes that used to be read another way: an option given twice (argparse
kept the last value), ``-o -`` (a file named '-'; now standard output), a number target that is
also a column name, ``demo`` options that did nothing or wrote over a file, a negative
``select --top`` (docs/design.md, 'Validation')."""

import pytest

from rankfusion.cli import main

DATA = "grp,a,b,c,0\n0,1,2,3,x\n1,2,3,1,y\n0,3,1,2,x\n1,4,4,4,y\n0,6,2,1,x\n1,5,1,5,y\n"


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text(DATA)
    return str(path)


def _err(capsys, argv):
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("extra, message", [
    (["-t", "grp", "--drop", "a", "--drop", "b"], "--drop given twice"),
    (["-t", "grp", "-r", "f_classif", "-r", "relieff"], "-r given twice"),
    (["-t", "grp", "--rankers", "f_classif", "-r", "relieff"], "--rankers / -r given twice"),
    (["--target=grp", "-t", "grp"], "--target / -t given twice"),
    (["-t", "grp", "--param", "n_neighbors=2", "--param", "n_neighbors=3"],
     "--param n_neighbors given twice (2 and '3')"),
])
def test_an_option_given_twice_is_refused(capsys, data, extra, message):
    code, out, err = _err(capsys, ["rank", data, *extra])
    assert code == 2 and out == ""
    assert err.startswith("rankfusion: error: ") and message in err, err


def test_collecting_options_and_comma_lists_still_work(capsys, data):
    code, out, err = _err(capsys, ["rank", data, "-t", "grp", "--drop", "a,b", "-r",
                                   "f_classif,relieff", "--param", "n_neighbors=2"])
    assert code == 0, err
    assert "a" not in out.split("feature", 1)[1].split()[:1]


@pytest.mark.parametrize("argv", [
    ["rank", "{data}", "-t", "grp", "-r", "f_classif", "-o", "-"],
    ["aggregate", "{lists}", "-a", "borda", "--out", "-"],
])
def test_dash_is_standard_output_not_a_file(capsys, data, tmp_path, monkeypatch, argv):
    # '-o -' writes the table --out would write on standard output (no file named '-')
    lists = tmp_path / "l.csv"
    lists.write_text("feature,A,B\ng1,0.5,0.1\ng2,0.25,0.3\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = _err(capsys, [a.format(data=data, lists=lists) for a in argv])
    assert code == 0, err
    assert out.startswith(("feature,", "feature,rank")) and "#" not in out
    assert not (tmp_path / "-").exists()


def test_a_number_target_that_is_also_a_column_name_is_ambiguous(capsys, data):
    code, _, err = _err(capsys, ["rank", data, "-t", "0", "-r", "f_classif"])
    assert code == 2
    assert ("target 0 is ambiguous: column 0 ('grp') by position, and the column named '0' "
            "(column 4): give 4 for the column named '0', or the name of column 0") in err
    code, out, err = _err(capsys, ["rank", data, "-t", "4", "-r", "relieff"])
    assert code == 0, err
    assert "target '0'" in out


@pytest.mark.parametrize("argv, message", [
    (["demo", "--splits", "1"], "--splits must be 0 (skip the error table) or ≥ 2"),
    (["demo", "--lists", "--splits", "3"], "--splits apply to the St. Jude demo, not to --lists"),
    (["demo", "--lists", "--plot", "x.png", "--random-state", "5"],
     "--plot, --random-state apply to the St. Jude demo, not to --lists"),
])
def test_demo_options_that_cannot_apply_are_refused(capsys, argv, message):
    code, _, err = _err(capsys, argv)
    assert code == 2 and message in err, err


def test_demo_does_not_write_over_a_plot(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "exist.png"
    plot.write_text("keep me")
    code, _, err = _err(capsys, ["demo", "--splits", "2", "--plot", str(plot)])
    assert code == 2
    assert f"--plot {plot} exists; pass --overwrite to replace it" in err
    assert plot.read_text() == "keep me"


def test_select_refuses_a_negative_top(capsys, data):
    code, _, err = _err(capsys, ["select", data, "-t", "grp", "--top", "-1"])
    assert code == 2 and "--top must be ≥ 0" in err


@pytest.mark.parametrize("argv, message", [
    (["svm-rfe", "{data}", "-t", "grp", "-d", "weston_watkins", "-a", "kfirst,schulze"],
     "--rules does not apply to -d weston_watkins: one multiclass SVM-RFE run ranks the "
     "features, no lists are combined"),
    (["svm-rfe", "{data}", "-t", "grp", "--step", "2", "--step-until", "2"],
     "--step-until applies to a fractional --step; an integer --step (2) removes that many "
     "features every iteration"),
    (["aggregate", "{scores}", "-a", "kfirst", "--param", "k=2", "--k", "3"],
     "k given twice: --k 3 and --param k=2"),
    (["aggregate", "{scores}", "-a", "borda", "--list-names"],
     "read as scores, which has a header row of list names always; list_names (--header / "
     "--list-names) apply to orders files"),
    (["rank", "{nohdr}", "-r", "f_classif"],
     "the first row is all numbers (1.5, 0.25, 2, …): data, not column names; the file needs a "
     "header row naming the columns"),
])
def test_options_that_would_be_ignored_or_a_missing_header_are_refused(capsys, data, tmp_path,
                                                                       argv, message):
    scores = tmp_path / "s.csv"
    scores.write_text("feature,A,B\ng1,0.5,0.1\ng2,0.25,0.3\ng3,0.75,0.2\n")
    nohdr = tmp_path / "n.csv"
    nohdr.write_text("1.5,0.25,2,1\n1.2,0.1,2.0,0\n1.3,0.2,2.2,1\n0.3,0.9,1.2,0\n")
    code, out, err = _err(capsys, [a.format(data=data, scores=scores, nohdr=nohdr)
                                   for a in argv])
    assert code == 2 and message in err, err


@pytest.mark.parametrize("name, content, argv, message", [
    ("real.xlsx", b"PK\x03\x04rest of a workbook", ["rank", "{path}"],
     "real.xlsx: a zip archive (an Excel .xlsx or .ods workbook?), not text; save the sheet as "
     "CSV first"),
    ("old.xls", b"\xd0\xcf\x11\xe0rest", ["rank", "{path}"],
     "old.xls: an old Excel .xls / Office file, not text; save the sheet as CSV first"),
    ("arff_as.csv", b"@relation x\n@attribute a numeric\n@attribute class {x,y}\n@data\n1,x\n"
     b"2,y\n3,x\n", ["rank", "{path}"],
     "arff_as.csv: an ARFF file (@relation on the first line) read as CSV; pass --format arff"),
    ("n.csv", b"a,b,class\n-1.5,2,x\n2,3,y\n1,1,x\n3,2,y\n", ["rank", "{path}", "-r", "chi2"],
     "chi2 needs non-negative features (counts, frequencies); feature 0 has -1.5: use "
     "chi_square (Weka's, on discretised values), or shift the feature"),
    ("g.csv", b"a,b,class\n1,2,x\n2,3,y\n1,1,x\n3,2,y\n", ["rank", "{path}", "-r", "F_CLASSIF"],
     "unknown ranker 'F_CLASSIF'; did you mean 'f_classif'?"),
    ("s.csv", b"feature,A,B\ng1,0.5,0.1\ng2,0.25,0.3\n", ["aggregate", "{path}", "-a", "BORDA"],
     "unknown aggregation method 'BORDA'; did you mean 'borda'?"),
])
def test_files_of_another_kind_and_names_in_another_case_get_the_way_out(
        capsys, tmp_path, name, content, argv, message):
    path = tmp_path / name
    path.write_bytes(content)
    code, _, err = _err(capsys, [a.format(path=path) for a in argv])
    assert code == 2 and message in err, err


def test_report_names_a_damaged_metadata_file(capsys, tmp_path):
    from rankfusion.experiments import read_results

    (tmp_path / "metadata.json").write_text("{")
    with pytest.raises(ValueError, match=r"metadata.json: not valid JSON .*run the experiment "
                                         "again"):
        read_results(tmp_path)
