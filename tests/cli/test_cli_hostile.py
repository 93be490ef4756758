"""Hostile command lines: every command (aggregate, rank, svm-rfe, demo) reads its inputs as
meant or stops with one line naming the file and the fix; outputs never replace an input or an
existing file without --overwrite; pipes and standard input behave as Unix tools do
(docs/design.md, 'Inputs'). Oracles: the files' bytes before and after, hand-written files."""

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from conftest import read_csv
from rankfusion.cli import main
from rankfusion.io import atomic_write

SRC = str(Path(__file__).resolve().parents[2] / "src")


@pytest.fixture
def data_csv(tmp_path):
    rng = np.random.default_rng(0)
    y = np.repeat(["a", "b", "c"], 12)
    X = rng.normal(size=(36, 5))
    X[:, 0] += (y == "a") * 3
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(5)]).assign(cls=y)
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.fixture
def scores_csv(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text("feature,A,B,C\ng1,0.9,0.8,0.7\ng2,0.5,0.6,0.1\ng3,0.1,0.2,0.9\n")
    return path


def _run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------- outputs
def _commands(data, scores):
    return {
        "rank": ["rank", data],
        "aggregate": ["aggregate", scores, "--input", "scores"],
        "svm-rfe": ["svm-rfe", data, "--rules", "kfirst"],
    }


@pytest.mark.parametrize("command", ["rank", "aggregate", "svm-rfe"])
def test_out_equal_to_the_input_is_refused_and_the_input_kept(data_csv, scores_csv, capsys,
                                                              command):
    argv = _commands(data_csv, scores_csv)[command]
    target = argv[1]
    before = Path(target).read_bytes()
    code, _, err = _run([*argv, "--out", target], capsys)
    assert code == 2 and "is the input file" in err and "choose another name" in err
    assert Path(target).read_bytes() == before
    code, _, err = _run([*argv, "--out", target, "--overwrite"], capsys)  # not even then
    assert code == 2 and Path(target).read_bytes() == before


@pytest.mark.parametrize("command", ["rank", "aggregate", "svm-rfe"])
def test_existing_out_needs_overwrite(data_csv, scores_csv, tmp_path, capsys, command):
    argv = _commands(data_csv, scores_csv)[command]
    out = tmp_path / "result.csv"
    out.write_text("precious")
    code, _, err = _run([*argv, "--out", out], capsys)
    assert code == 2 and f"--out {out} exists; pass --overwrite" in err
    assert out.read_text() == "precious"
    code, _, _ = _run([*argv, "--out", out, "--overwrite"], capsys)
    assert code == 0 and out.read_text() != "precious"
    assert read_csv(out, index_col=0).shape[0] > 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_out_through_another_path_to_the_input(data_csv, tmp_path, capsys, monkeypatch):
    link = tmp_path / "link.csv"
    link.symlink_to(data_csv)
    before = data_csv.read_bytes()
    for out in (link, Path("..") / tmp_path.name / "data.csv", f"./{data_csv.name}"):
        monkeypatch.chdir(tmp_path)
        code, _, err = _run(["rank", data_csv, "--out", out, "--overwrite"], capsys)
        assert code == 2 and "is the input file" in err, out
    assert data_csv.read_bytes() == before


def test_lists_out_equal_to_the_input_or_to_out(data_csv, tmp_path, capsys):
    before = data_csv.read_bytes()
    code, _, err = _run(["svm-rfe", data_csv, "--lists-out", data_csv], capsys)
    assert code == 2 and "--lists-out" in err and "is the input file" in err
    same = tmp_path / "same.csv"
    code, _, err = _run(["svm-rfe", data_csv, "--out", same, "--lists-out", same], capsys)
    assert code == 2 and "--lists-out and --out name the same file" in err
    assert data_csv.read_bytes() == before and not same.exists()


@pytest.mark.parametrize("bad, message", [
    ("nofolder/out.csv", "does not exist"),
    (".", "is a directory"),
    ("", "needs a file name"),
])
def test_out_that_cannot_be_written(data_csv, capsys, monkeypatch, bad, message):
    monkeypatch.chdir(data_csv.parent)
    code, _, err = _run(["rank", data_csv, "--out", bad], capsys)
    assert code == 2 and message in err


def test_out_is_checked_before_any_work(data_csv, tmp_path, capsys, monkeypatch):
    import rankfusion.rankers as rankers_mod

    def boom(*a, **k):
        raise AssertionError("ranked before the output was checked")

    monkeypatch.setattr(rankers_mod, "rank_features", boom)
    out = tmp_path / "exists.csv"
    out.write_text("x")
    code, _, err = _run(["rank", data_csv, "--out", out], capsys)
    assert code == 2 and "exists" in err


def test_atomic_write_leaves_the_old_file_on_failure(tmp_path):
    path = tmp_path / "o.csv"
    path.write_text("old")
    with pytest.raises(RuntimeError), atomic_write(path) as fh:
        fh.write("half")
        raise RuntimeError("disk full")
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["o.csv"]


# --------------------------------------------------------------------------- arguments
@pytest.mark.parametrize("argv, message", [
    (["rank", "{data}", "--top", "-1"], "--top must be ≥ 0 (0 = all rows), got -1"),
    (["aggregate", "{scores}", "--top", "-1"], "--top must be ≥ 0"),
    (["svm-rfe", "{data}", "--top", "-1"], "--top must be ≥ 0"),
    (["demo", "--lists", "--top", "-5"], "--top must be ≥ 0 (0 = all rows), got -5"),
    (["demo", "--top", "-5"], "--top must be ≥ 0"),
    (["aggregate", "{scores}", "--rules", "nope"], "unknown aggregation method 'nope'"),
    (["aggregate", "{scores}", "--rules", "borda,kfirst"],
     "--rules names 2 items (borda, kfirst), and aggregate combines the lists by one rule per "
     "run: give one"),
    (["aggregate", "{scores}", "--rules", "borda,,kfirst"],
     "--rules 'borda,,kfirst' has an empty item (two commas or a trailing comma)"),
    (["aggregate", "{scores}", "--weights", "1,x,1"], "--weights must be comma-separated"),
    (["aggregate", "{scores}", "--weights", "1,inf,1", "--input", "scores", "-a", "borda"],
     "weights must be finite"),
    (["rank", "{data}", "--rankers", "nope"], "nope"),
    (["rank", "{data}", "--target", "nope"], "target column 'nope' not found"),
    (["rank", "{data}", "--drop", "zz"], "drop: no column 'zz'"),
    (["rank", "{data}", "--drop", "cls"], "drop: 'cls' is the target column"),
    (["rank", "{data}", "--sep", ";;"], "sep must be one character"),
    (["rank", "{data}", "--encoding", "klingon"], "unknown encoding"),
    (["rank", "{missing}"], "no such file"),
    (["aggregate", "{missing}"], "no such file"),
])
def test_bad_arguments_one_line(data_csv, scores_csv, tmp_path, capsys, argv, message):
    fill = {"data": data_csv, "scores": scores_csv, "missing": tmp_path / "none.csv"}
    code, _, err = _run([a.format(**fill) for a in argv], capsys)
    assert code == 2 and message in err and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("rankfusion: error:")


def test_demo_lists_top_larger_than_the_features(capsys):
    code, out, _ = _run(["demo", "--lists", "--top", "50"], capsys)
    assert code == 0 and "#13" in out and "#14" not in out


# --------------------------------------------------------------------------- data files
@pytest.mark.parametrize("text, extra, code, message", [
    ("f0,f1,cls\n1,2,a\nNA,3,b\n2,4,a\n3,5,b\n", [], 2,
     "column 'f0' mixes numbers (line 2: '1') and text (line 3: 'NA'); if 'NA' marks a "
     "missing value pass --na-values 'NA'"),
    ("f0,f1,cls\n1,2,a\nNA,3,b\n2,4,a\n3,5,b\n", ["--na-values", "NA"], 0, None),
    (",f0,cls\n0,1,a\n1,2,b\n2,3,a\n3,4,b\n", [], 2, "--drop 'Unnamed: 0'"),
    (",f0,cls\n0,1,a\n1,2,b\n2,3,a\n3,4,b\n", ["--drop", "Unnamed: 0"], 0, None),
    ("f0,f0,cls\n1,2,a\n2,3,b\n", [], 2, "the column name 'f0' appears twice"),
    ("f0;f1;cls\n1;2;a\n2;3;b\n", [], 2, "--sep ';'"),
    ("f0;f1;cls\n1;2;a\n2;3;b\n3;1;a\n4;4;b\n", ["--sep", ";"], 0, None),
    ("id,f0,cls\nx1,1,a\nx2,2,b\nx3,3,a\nx4,4,b\n", [], 2, "'id' is text with a different"),
    ("grp,f0,cls\n0,1,a\nA,2,b\nB,3,a\nA,4,b\n", ["--nominal", "grp"], 0, None),
    ("f0,cls\n1,a\n2, a\n3,b\n4,b\n", [], 0, "rankfusion: warning:"),
])
def test_rank_data_files(tmp_path, capsys, text, extra, code, message):
    path = tmp_path / "d.csv"
    path.write_text(text)
    got, out, err = _run(["rank", path, *extra], capsys)
    assert got == code, err
    if message:
        assert message in err
        if code == 2:
            assert str(path) in err  # the error names the file
    if code == 0:
        assert out.startswith(f"# {path}:")


def test_latin1_data_file(tmp_path, capsys):
    path = tmp_path / "d.csv"
    path.write_bytes("f0,cls\n1,caf\xe9\n2,th\xe9\n3,caf\xe9\n4,th\xe9\n".encode("latin-1"))
    code, _, err = _run(["rank", path], capsys)
    assert code == 2 and f"{path}: not utf-8 text" in err and "--encoding latin-1" in err
    code, out, _ = _run(["rank", path, "--encoding", "latin-1"], capsys)
    assert code == 0 and "2 classes" in out


def test_svm_rfe_refuses_an_index_column_and_takes_drop(tmp_path, data_csv, capsys):
    frame = read_csv(data_csv)
    path = tmp_path / "with_index.csv"
    frame.to_csv(path)  # pandas writes its index as an unnamed first column
    code, _, err = _run(["svm-rfe", path, "--rules", "kfirst"], capsys)
    assert code == 2 and "--drop 'Unnamed: 0'" in err
    code, out, _ = _run(["svm-rfe", path, "--rules", "kfirst", "--drop", "Unnamed: 0",
                         "--top", "1"], capsys)
    assert code == 0 and "5 features" in out


# --------------------------------------------------------------------------- list files
@pytest.mark.parametrize("text, extra, code, message", [
    ("feature,A,B\ng1,0.5,1\ng2,0.5x,2\n", [], 2, "numbers (line 2, column 2 ('A'): '0.5')"),
    ("feature,A,B\ng1,0.5,1\ng2,NA,2\n", [], 2, "'NA'"),
    ("feature,A,B\ng1,1,2\ng2,2,1\n", [], 2,
     "looks like positions (1 = best), which read as scores would reverse the ranking: pass "
     "--input positions or --input scores"),
    ("feature,A,B\ng1,1,2\ng2,2,1\n", ["--input", "positions"], 0, None),
    ("feature,A,B\ng1,1,2\ng2,2,1\n", ["--input", "scores"], 0, None),
    ("method,top1,top2,top3\nig,f1,f2,f3\nrelief,f2,f1,f3\n", [], 0,
     "as orders: first row read as a header; list names in the first column"),
    ("a,b\nc,d\n", [], 2, "--list-names or --no-list-names"),
    ("a,b\nc,d\n", ["--no-list-names"], 0, "every cell a feature"),
    ("ig,f1,f2\nrelief,f2,f1\n", ["--list-names"], 0, None),
    ("feature;A\ng1;1\ng2;2\n", ["--input", "scores"], 2, "--sep ';'"),
    ("feature;A\ng1;1\ng2;2\n", ["--input", "scores", "--sep", ";"], 0, None),
    ("feature,A,B\ng1,1,\ng2,2,1\n", [], 2, "empty cell among numbers"),
    ("feature,A,A\ng1,1,2\ng2,2,1\n", ["--input", "scores"], 2, "'A' appears twice"),
])
def test_aggregate_list_files(tmp_path, capsys, text, extra, code, message):
    path = tmp_path / "l.csv"
    path.write_text(text)
    got, out, err = _run(["aggregate", path, "-a", "borda", *extra], capsys)
    assert got == code, err
    if message:
        assert message in err
    if code == 0:
        assert "borda consensus" in out


def test_aggregate_orders_header_has_no_phantom_features(tmp_path, capsys):
    path = tmp_path / "o.csv"
    path.write_text("method,top1,top2,top3\nig,f1,f2,f3\nrelief,f2,f1,f3\n")
    code, out, _ = _run(["aggregate", path, "-a", "borda"], capsys)
    assert code == 0 and "2 lists over 3 features" in out and "top1" not in out


def test_aggregate_two_unnamed_top2_lists_are_four_features(tmp_path, capsys):
    path = tmp_path / "o.csv"
    path.write_text("a,b\nc,d\n")
    code, out, _ = _run(["aggregate", path, "-a", "borda", "--no-list-names"], capsys)
    assert code == 0 and "2 lists over 4 features" in out


def test_svm_rfe_lists_out_reads_back_as_positions(data_csv, tmp_path, capsys):
    lists = tmp_path / "lists.csv"
    assert _run(["svm-rfe", data_csv, "-a", "kfirst", "--lists-out", lists], capsys)[0] == 0
    code, _, err = _run(["aggregate", lists, "-a", "borda"], capsys)
    assert code == 2 and "looks like positions" in err
    code, out, _ = _run(["aggregate", lists, "-a", "borda", "--input", "positions"], capsys)
    assert code == 0 and out.splitlines()[3].startswith("f0")  # the class-related feature


# --------------------------------------------------------------------------- Unix behaviour
def _cli(args, **kw):
    env = dict(os.environ, PYTHONPATH=SRC)
    return subprocess.run([sys.executable, "-m", "rankfusion", *map(str, args)], env=env,
                          capture_output=True, text=True, check=False, **kw)


@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
def test_stdin_for_data_and_lists(data_csv, scores_csv, name):
    res = _cli(["rank", name], input=data_csv.read_text())
    assert res.returncode == 0 and "36 samples, 5 features" in res.stdout, res.stderr
    res = _cli(["aggregate", name, "-a", "borda", "--input", "scores"],
               input=scores_csv.read_text())
    assert res.returncode == 0 and "3 lists over 3 features" in res.stdout, res.stderr


def test_closed_pipe_exits_quietly(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(12, 3000))).add_prefix("g")
    frame["cls"] = np.repeat(["a", "b"], 6)
    path = tmp_path / "wide.csv"
    frame.to_csv(path, index=False)
    env = dict(os.environ, PYTHONPATH=SRC)
    cmd = (f"set -o pipefail; {sys.executable} -m rankfusion rank {path} -r f_classif "
           "--top 0 | head -1")
    res = subprocess.run(["bash", "-c", cmd], env=env, capture_output=True, text=True,
                         check=False)
    assert res.returncode == 0, res.stderr
    assert res.stdout.startswith(f"# {path}") and res.stderr == ""


def test_aggregate_pairwise_rule_too_big_stops_with_the_way_out(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RANKFUSION_MAX_MEMORY", "8GiB")
    rng = np.random.default_rng(0)
    path = tmp_path / "big.csv"
    pd.DataFrame(rng.random((200_000, 2)), columns=["A", "B"],
                 index=pd.Index([f"g{i}" for i in range(200_000)], name="feature")).to_csv(path)
    code, _, err = _run(["aggregate", path, "-a", "copeland", "--input", "scores"], capsys)
    assert code == 2 and "copeland on p = 200,000 features needs about" in err
    assert "candidates=" in err and "Traceback" not in err


# --------------------------------------------------------------------------- svmlight files
SVM_ROWS = "".join(f"{i % 2} {'1:3 ' if i % 2 else ''}{2 + i % 3}:1 {5 + i % 2}:2\n"
                   for i in range(24))


@pytest.fixture
def svm_file(tmp_path):
    path = tmp_path / "base.svm"
    path.write_text(SVM_ROWS)
    return path


# (id, argv with {svm}/{txt}/{big}/{zero}, exit status, text in stdout (0) or stderr (2))
SVM_COMMANDS = [
    ("rank", ["rank", "{svm}", "-r", "chi2"], 0, "24 samples, 6 features"),
    ("select", ["select", "{svm}", "-r", "chi2,info_gain", "--subset", "2"], 0,
     "subset: 2 of 6 features"),
    ("select-names", ["select", "{svm}", "-r", "chi2", "--subset", "2"], 0, "  1, "),
    ("select-dense-rankers", ["select", "{svm}", "--subset", "2"], 2,
     "--accept-sparse densify"),
    ("select-densify", ["select", "{svm}", "--subset", "2", "--accept-sparse", "densify"], 0,
     "subset: 2 of 6 features"),
    ("select-k-step", ["select", "{svm}", "-r", "chi2", "--subset", "k-step"], 2,
     "--subset k-step scores subsets with classifiers"),
    ("svm-rfe", ["svm-rfe", "{svm}", "-a", "kfirst"], 0, "6 features"),
    ("svm-rfe-standardize", ["svm-rfe", "{svm}", "--standardize"], 2,
     "--standardize centres every feature"),
    ("svm-rfe-standardize-densify", ["svm-rfe", "{svm}", "-a", "kfirst", "--standardize",
                                     "--accept-sparse", "densify"], 0, "6 features"),
    ("advise", ["advise", "{svm}", "--dry-run"], 2, "pass --accept-sparse densify"),
    ("advise-densify", ["advise", "{svm}", "--dry-run", "--accept-sparse", "densify"], 0, ""),
    ("format-libsvm-txt", ["rank", "{txt}", "--format", "libsvm", "-r", "chi2"], 0,
     "24 samples, 6 features"),
    ("libsvm-txt-as-csv", ["rank", "{txt}"], 2,
     "is an svmlight/libsvm line ('label index:value …'), not CSV; pass --format svmlight"),
    ("libsvm-txt-as-csv-select", ["select", "{txt}"], 2, "pass --format svmlight"),
    ("zero-index", ["rank", "{zero}"], 2, "pass --zero-based for a file counting from 0"),
    ("zero-based", ["rank", "{zero}", "--zero-based", "-r", "chi2"], 0, "4 samples, 3 features"),
    ("huge-index", ["rank", "{big}"], 2,
     "line 1: feature index 1,000,000,000 would make 1,000,000,000 features"),
    ("huge-index-flag", ["svm-rfe", "{big}"], 2, "say so: --n-features 1000000000"),
    ("zero-based-on-csv", ["rank", "{csv}", "--zero-based"], 2,
     "zero_based applies to svmlight files only"),
    ("format-svn", ["rank", "{svm}", "--format", "svn"], 2, "invalid choice: 'svn'"),
]


@pytest.mark.parametrize("argv, code, message", [c[1:] for c in SVM_COMMANDS],
                         ids=[c[0] for c in SVM_COMMANDS])
def test_svmlight_in_every_command(svm_file, data_csv, tmp_path, capsys, argv, code, message):
    txt = tmp_path / "libsvm.txt"
    txt.write_text(SVM_ROWS)
    big = tmp_path / "big.svm"
    big.write_text("1 1:1 1000000000:2\n0 2:1\n1 3:1\n0 1:1\n")
    zero = tmp_path / "zero.svm"
    zero.write_text("1 0:1 2:1\n0 1:1\n1 0:2\n0 1:3\n")
    fill = {"svm": svm_file, "txt": txt, "big": big, "zero": zero, "csv": data_csv}
    try:
        got, out, err = _run([a.format(**fill) for a in [*argv, "--no-progress"]], capsys)
    except SystemExit as exc:  # argparse's usage error
        got, (out, err) = exc.code, capsys.readouterr()
    assert got == code, err
    assert "Traceback" not in err and "AttributeError" not in err
    assert message in (out if code == 0 else err)
    if code == 2:  # one line (a usage error: argparse's usage, then one line)
        assert err.strip().splitlines()[-1].startswith(("rankfusion: error:",
                                                        "rankfusion rank: error:"))
        assert "usage:" in err or len(err.strip().splitlines()) == 1


def test_svmlight_from_standard_input_needs_the_format(svm_file):
    res = _cli(["rank", "-", "-r", "chi2"], input=SVM_ROWS)
    assert res.returncode == 2 and "pass --format svmlight" in res.stderr, res.stderr
    res = _cli(["rank", "-", "-r", "chi2", "--format", "svmlight"], input=SVM_ROWS)
    assert res.returncode == 0 and "24 samples, 6 features" in res.stdout, res.stderr


def test_experiment_with_an_svmlight_dataset_is_refused_in_one_line(svm_file, tmp_path,
                                                                   capsys):
    config = tmp_path / "exp.toml"
    config.write_text('[experiment]\nname = "x"\nseed = 0\n[grid]\ndatasets = ["mine"]\n'
                      'selectors = ["ig"]\nrules = ["borda"]\nclassifiers = ["naive_bayes"]\n'
                      'protocols = ["cv"]\n[datasets.mine]\npath = "base.svm"\n'
                      '[selectors.ig]\nkind = "ranker"\nranker = "info_gain"\n'
                      '[protocols.cv]\nkind = "cross_validation"\n')
    code, _, err = _run(["experiment", config, "--dry-run"], capsys)
    assert code == 2 and "Traceback" not in err and "AttributeError" not in err
    assert "base.svm is an svmlight file" in err and "rankfusion rank, select or svm-rfe" in err


# --------------------------------------------------------------------------- data shape
def _variant(data_csv, tmp_path, name, **columns):
    """data.csv with some columns replaced (a value, a list or None = all missing)."""
    frame = read_csv(data_csv)
    for col, value in columns.items():
        frame[col] = np.nan if value is None else value
    path = tmp_path / name
    frame.to_csv(path, index=False)
    return path


_CONTINUOUS = list(np.linspace(0.25, 9.5, 36))
_CONSTANT = {f"f{j}": 1.0 for j in range(5)}


@pytest.mark.parametrize("argv, columns, message", [
    # a continuous target: the way out where the command supports regression
    (["rank", "--task", "classification"], {"cls": _CONTINUOUS},
     "for --task classification: say --task regression"),
    (["select", "--task", "classification", "--dry-run"], {"cls": _CONTINUOUS},
     "say --task regression"),
    (["advise", "--task", "classification", "--dry-run"], {"cls": _CONTINUOUS},
     "say --task regression"),
    (["advise", "--dry-run", "--rankers", "info_gain,relieff"], {"cls": _CONTINUOUS},
     "regression under --task auto): name rankers for regression, or leave out rankers= "
     "(--rankers)"),
    (["select", "--dry-run"], {"cls": _CONTINUOUS},
     "ranker 'info_gain' supports classification only"),
    # what the data's shape decides: refused by --dry-run, one line, exit 2
    (["advise", "--dry-run"], {"f1": None, "f3": None},
     "2 columns 'f1', 'f3' hold no value (every entry is missing): nothing to rank them by; "
     "leave them out (--drop f1,f3 on the command line"),
    (["select", "--dry-run"], {"f2": None}, "column 'f2' holds no value"),
    (["select"], {"f2": None}, "column 'f2' holds no value"),
    (["advise", "--dry-run"], {"cls": "a"}, "1 class(es) (['a'])"),
    (["select", "--dry-run"], {"cls": "a"}, "the target 'cls' has one class only ('a')"),
    (["advise", "--dry-run"], _CONSTANT, "all features are constant"),
    (["advise", "--dry-run", "--drop", "f1,f2,f3,f4"], {},
     "X has one feature ('f0'): nothing to choose among"),
    (["advise", "--dry-run", "--sizes", "stability:q=6"], {},
     "q=6 exceeds the number of features (5)"),
    (["advise", "--dry-run", "--sizes", "stability:q=2,threshold=0.8,pfer=1"], {},
     "give two of q, threshold and pfer (the third follows from them), not all three"),
    (["advise", "--dry-run", "--cv", "20"], {}, "has 12 samples; cv=20 outer folds"),
    (["select", "--dry-run", "--subset", "k-step", "--cv", "20"], {},
     "cv=20 (--cv) stratified folds of the k-step size search need at least 20 samples of "
     "every class; class"),
    (["select", "--dry-run", "--subset", "9"], {},
     "subset=9 exceeds the number of features (5): give a smaller subset (--subset)"),
    # a name looked up and missing: did you mean
    (["select", "--dry-run", "--target", "CLS"], {}, "did you mean 'cls'?"),
    (["advise", "--dry-run", "--target", "clss"], {}, "did you mean 'cls'?"),
    (["advise", "--dry-run", "--rules", "bordaa"], {}, "did you mean 'borda'?"),
    (["select", "--dry-run", "--rankers", "relieff,info_gian"], {}, "did you mean 'info_gain'?"),
])
def test_data_shape_refused_in_one_line(data_csv, tmp_path, capsys, argv, columns, message):
    path = _variant(data_csv, tmp_path, "variant.csv", **columns)
    code, out, err = _run([argv[0], path, *argv[1:], "--no-progress"], capsys)
    assert code == 2, (out, err)
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and err.startswith("rankfusion: error:")
    assert not re.search(r"\bnp\.[a-z_0-9]+\(", err)


def test_select_dry_run_prints_the_work_and_writes_nothing(data_csv, tmp_path, capsys):
    out_dir = tmp_path / "results"
    code, out, err = _run(["select", data_csv, "--dry-run", "-b", "4", "--out", out_dir,
                           "--no-progress"], capsys)
    assert code == 0, err
    assert "dry run, nothing computed" in out and "ranker calls: 12" in out
    assert "classes: 3" in out and not out_dir.exists()
    code, _, err = _run(["select", data_csv, "--dry-run", "--out", "-"], capsys)
    assert code == 2 and "a dry run does not make" in err


# --------------------------------------------------------------------------- experiment
_EXPERIMENT = """[experiment]
seed = 0
[grid]
datasets = ["mine"]
selectors = ["{selector}"]
classifiers = ["naive_bayes"]
protocols = ["cv"]
[datasets.mine]
path = "variant.csv"
target = "cls"
[selectors.one]
kind = "ranker"
ranker = "f_classif"
[selectors.stab]
kind = "stability"
rankers = ["f_classif"]
n_subsamples = 4
{stability}
[protocols.cv]
kind = "cross_validation"
cv = 3
"""


@pytest.mark.parametrize("columns, selector, stability, message", [
    ({"cls": "a"}, "one", "", "[datasets.mine] path = \"variant.csv\": the target column 'cls' "
     "holds one class ('a', in all 36 rows): feature selection needs at least 2 classes"),
    ({"cls": _CONTINUOUS}, "one", "", "the target column 'cls' holds non-integer numbers such "
     'as 0.25, not class labels: for a numeric target set task = "regression" in [experiment]'),
    ({"f2": None}, "one", "", "column 'f2' has no value (missing in all 36 rows); leave it out "
     'with drop = ["f2"]'),
    ({f"f{j}": None for j in range(5)}, "one", "", "every feature is missing in all 36 rows"),
    ({}, "stab", "q = 6", "[selectors.stab] q = 6 on dataset 'mine' (36 × 5): q = 6 exceeds "
     "the number of features (5)"),
    ({}, "stab", "q = 2\nthreshold = 0.8\npfer = 1.0", "give two of q, threshold and pfer "
     "(the third follows from them), not all three: got q = 2, threshold = 0.8, pfer = 1.0"),
], ids=["one-class", "continuous", "empty-column", "all-missing", "q>p", "q+threshold+pfer"])
def test_experiment_dry_run_refuses_what_the_data_decides(data_csv, tmp_path, capsys, columns,
                                                          selector, stability, message):
    _variant(data_csv, tmp_path, "variant.csv", **columns)
    config = tmp_path / "exp.toml"
    config.write_text(_EXPERIMENT.format(selector=selector, stability=stability))
    code, out, err = _run(["experiment", config, "--dry-run", "--out", tmp_path / "res"], capsys)
    assert code == 2 and out == "", (out, err)
    assert err.startswith("rankfusion: error:") and message in err and "Traceback" not in err
    assert not re.search(r"\bnp\.[a-z_0-9]+\(", err) and "--" not in err
    assert not (tmp_path / "res").exists()


def test_experiment_into_another_configurations_folder_is_refused_in_one_line(data_csv,
                                                                              tmp_path, capsys):
    _variant(data_csv, tmp_path, "variant.csv")
    first, other = tmp_path / "first.toml", tmp_path / "other.toml"
    first.write_text(_EXPERIMENT.format(selector="one", stability=""))
    other.write_text(_EXPERIMENT.format(selector="one", stability="").replace("cv = 3",
                                                                              "cv = 2"))
    base = tmp_path / "base"
    assert _run(["experiment", first, "--out", base, "--no-progress", "--no-report"],
                capsys)[0] == 0
    before = {p: p.read_bytes() for p in base.rglob("*") if p.is_file()}
    code, out, err = _run(["experiment", other, "--out", base, "--no-progress"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert str(base) in err and "another configuration" in err and "--overwrite" in err
    assert {p: p.read_bytes() for p in base.rglob("*") if p.is_file()} == before
