"""Sparse data files (docs/design.md, 'Sparse input'): sparse ARFF and svmlight/libsvm into
scipy.sparse CSR matrices; a hostile-input table per reader."""

from __future__ import annotations

import gzip

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from rankfusion.io import load_data, read_sparse_arff, read_svmlight

HEAD = ("@relation r\n@attribute a numeric\n@attribute b {u,v,w}\n@attribute c numeric\n"
        "@attribute cls {x,y}\n@data\n")


def _write(tmp_path, name, text, mode="w"):
    path = tmp_path / name
    if mode == "wb":
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_sparse_arff_matches_the_dense_reading(tmp_path):
    text = HEAD + "{0 2.5, 3 y}\n{1 w, 2 -1}\n1,u,0,x\n{}\n% a comment\n{2 0, 3 x}\n"
    path = _write(tmp_path, "d.arff", text)
    X, y = load_data(path, sparse=True)
    assert sp.isspmatrix_csr(X) and X.dtype == np.float64
    Xd, yd = load_data(path)  # the dense reading: nominal b as a categorical
    want = np.column_stack([Xd["a"], Xd["b"].cat.codes, Xd["c"]]).astype(float)
    np.testing.assert_array_equal(X.toarray(), want)
    assert list(X.feature_names) == ["a", "b", "c"]
    assert y.tolist() == yd.tolist() == ["y", "x", "x", "x", "x"]
    assert isinstance(y.dtype, pd.CategoricalDtype) and list(y.cat.categories) == ["x", "y"]
    assert X.nnz == 4  # explicit zeros are not stored
    X2, y2 = read_sparse_arff(path)
    assert (X2 != X).nnz == 0 and y2.tolist() == y.tolist()


def test_sparse_arff_target_choice_and_gzip(tmp_path):
    path = _write(tmp_path, "d.arff.gz", gzip.compress((HEAD + "{0 2, 1 v, 3 y}\n{2 4}\n")
                                                        .encode()), "wb")
    X, y = load_data(path, target="b", sparse=True)
    assert list(X.feature_names) == ["a", "c", "cls"]
    assert y.tolist() == ["v", "u"]  # unlisted nominal: the first declared value
    np.testing.assert_array_equal(X.toarray(), [[2.0, 0.0, 1.0], [0.0, 4.0, 0.0]])
    X, y = load_data(path, target=0, sparse=True)
    assert y.tolist() == [2, 0]


ARFF_HOSTILE = [
    ("index-out-of-range", HEAD + "{0 1, 4 x}\n", r"line 7: sparse index 4 is outside 0…3"),
    ("negative-index", HEAD + "{-1 1}\n", r"line 7: sparse index -1 is outside"),
    ("duplicate-index", HEAD + "{0 1, 0 2}\n", r"line 7: sparse index 0 after 0; indices must "
     r"be increasing and unique"),
    ("unsorted", HEAD + "{2 1, 0 2}\n", r"line 7: sparse index 0 after 2"),
    ("bad-index", HEAD + "{a 1}\n", r"sparse index 'a' is not an attribute number"),
    ("entry-without-value", HEAD + "{0}\n", r"sparse entry '0' must be 'index value'"),
    ("bad-numeric", HEAD + "{0 abc}\n", r"line 7: attribute 'a' is numeric but has the value "
     r"'abc'"),
    ("bad-nominal", HEAD + "{1 q}\n", r"value 'q' of attribute 'b' is not among"),
    ("missing-feature", HEAD + "{0 ?}\n", r"attribute 'a' is missing \('\?'\); a sparse matrix "
     r"holds no missing values"),
    ("missing-class", HEAD + "{3 ?}\n", r"line 7: the class 'cls' is missing"),
    ("infinite", HEAD + "{0 inf}\n", r"has the value inf, not a finite number"),
    ("unterminated", HEAD + "{0 1, 3 x\n", r"unterminated sparse row"),
    ("weights", HEAD + "{0 1}, {2}\n", r"instance weights '\{w\}' are not supported"),
    ("dense-row-short", HEAD + "{0 1}\n1,u,x\n", r"line 8: 3 values but 4 attributes"),
    ("empty-file", "", r"not an ARFF file \(no @data section\)"),
    ("header-only", HEAD, r"the @data section has no data rows"),
    ("string-attribute", "@relation r\n@attribute s string\n@attribute cls {x,y}\n@data\n"
     "{1 y}\n", r"attribute 's' is of type string"),
    ("duplicate-name", "@relation r\n@attribute a numeric\n@attribute a numeric\n"
     "@attribute cls {x,y}\n@data\n{0 1}\n", r"attribute name 'a' is declared twice"),
]


@pytest.mark.parametrize("text,match", [c[1:] for c in ARFF_HOSTILE],
                         ids=[c[0] for c in ARFF_HOSTILE])
def test_sparse_arff_hostile(tmp_path, text, match):
    path = _write(tmp_path, "h.arff", text)
    with pytest.raises(ValueError, match=match):
        load_data(path, sparse=True)


def test_sparse_reading_options_refused(tmp_path):
    path = _write(tmp_path, "d.arff", HEAD + "{0 1, 3 y}\n{2 1}\n")
    with pytest.raises(ValueError, match="drop does not apply to sparse reading"):
        load_data(path, sparse=True, drop=["a"])
    with pytest.raises(TypeError, match="sparse"):
        load_data(path, sparse="maybe")
    with pytest.raises(ValueError, match="no attribute named 'zz'"):
        load_data(path, sparse=True, target="zz")
    csv = _write(tmp_path, "d.csv", "a,b\n1,x\n2,y\n")
    with pytest.raises(ValueError, match="sparse=True reads ARFF or svmlight files"):
        load_data(csv, sparse=True)


def test_svmlight_reads_one_based_with_comments(tmp_path):
    text = "# header comment\n1 1:0.5 3:2 # trailing\n-1 2:1\n\n1 3:4\n"
    for name in ("d.svm", "d.svmlight", "d.libsvm"):
        X, y = load_data(_write(tmp_path, name, text))
        assert sp.isspmatrix_csr(X)
        np.testing.assert_array_equal(X.toarray(), [[0.5, 0, 2], [0, 1, 0], [0, 0, 4]])
        assert y.tolist() == [1, -1, 1] and y.dtype == np.int64
        assert list(X.feature_names) == ["1", "2", "3"]
    # another ending needs format= (never guessed from the content)
    other = _write(tmp_path, "d.dat", text)
    X, y = load_data(other, format="libsvm")
    assert X.shape == (3, 3)
    X, y = read_svmlight(_write(tmp_path, "z.svm", "1 0:1 2:3\n0 1:2\n"), zero_based=True,
                         n_features=5)
    np.testing.assert_array_equal(X.toarray(), [[1, 0, 3, 0, 0], [0, 2, 0, 0, 0]])
    assert list(X.feature_names) == ["0", "1", "2", "3", "4"]
    X, y = read_svmlight(_write(tmp_path, "f.svm", "0.5 1:1\n1.5 1:2\n"))
    assert y.dtype == np.float64


SVM_HOSTILE = [
    ("zero-index-one-based", "1 0:1\n", r"Invalid index 0.*pass zero_based=True"),
    ("negative-index", "1 -1:2\n", r"Invalid index -1"),
    ("duplicate-index", "1 1:1 1:3\n", r"sorted and unique"),
    ("unsorted", "1 2:1 1:3\n", r"sorted and unique"),
    ("bad-value", "1 1:x\n", r"not a valid svmlight/libsvm file"),
    ("bad-label", "a 1:1\n", r"not a valid svmlight/libsvm file"),
    ("multilabel", "1,2 1:1\n", r"not a valid svmlight/libsvm file"),
    ("qid", "1 qid:3 1:2\n0 qid:4 2:1\n", r"query ids \(qid:\)"),
    ("nan-value", "1 1:nan\n", r"h\.svm, line 1: the value nan is not a finite number"),
    ("nan-label-after-comment", "# c\n1 1:1\n\nnan 2:1\n",
     r"line 4: the label nan is not a finite number"),
    # an index far beyond what the file can describe: refused before any allocation
    ("huge-index", "1 1:1 1000000000:2\n0 2:1\n",
     r"line 1: feature index 1,000,000,000 would make 1,000,000,000 features of a 25-byte "
     r"svmlight file .*say so: n_features=1000000000"),
    ("huge-index-later-line", "# c\n\n1 1:1\n0 2000000:1\n", r"line 4: feature index 2,000,000"),
    ("huge-index-signed-labels", "+1 1:1 # c\n-1 3000000:1\n", r"line 2: feature index "
     r"3,000,000"),
    # labels under the rules of every reader's class column
    ("non-integer-labels", "".join(f"{i + 0.5} 1:{i}\n" for i in range(60)),
     r"the target column 'class' looks continuous \(non-integer numbers, e\.g\. 0\.5\)"),
    ("identifier-labels", "".join(f"{i} 1:{i % 3}\n" for i in range(60)),
     r"the target column 'class' has a different whole number in every sample"),
    ("empty-file", "", r"has no data lines"),
    ("comments-only", "# only\n# comments\n", r"has no data lines"),
]


@pytest.mark.parametrize("text,match", [c[1:] for c in SVM_HOSTILE],
                         ids=[c[0] for c in SVM_HOSTILE])
def test_svmlight_hostile(tmp_path, text, match):
    with pytest.raises(ValueError, match=match):
        load_data(_write(tmp_path, "h.svm", text))


@pytest.mark.parametrize("task", [None, "classification"])
def test_svmlight_labels_follow_the_csv_rule(tmp_path, task):
    # 60 non-integer labels would be 60 one-sample classes: refused as the CSV reader does
    lines = "".join(f"{i / 7:.4f} 1:{i % 5 + 1} 2:{i % 3 + 1}\n" for i in range(1, 61))
    csv = "a,b,y\n" + "".join(f"{i % 5 + 1},{i % 3 + 1},{i / 7:.4f}\n" for i in range(1, 61))
    with pytest.raises(ValueError, match="non-integer numbers") as svm_err:
        load_data(_write(tmp_path, "f.svm", lines), task=task)
    with pytest.raises(ValueError, match="non-integer numbers") as csv_err:
        load_data(_write(tmp_path, "f.csv", csv), task=task)
    # one rule: the same message but for the file and the column's name
    assert (str(svm_err.value).split("'class'")[1] == str(csv_err.value).split("'y'")[1])
    X, y = load_data(_write(tmp_path, "f.svm", lines), task="regression")
    assert y.dtype == np.float64 and y.shape == (60,)
    X, y = load_data(_write(tmp_path, "f.svm", lines), task="auto")
    assert y.dtype == np.float64


def test_svmlight_index_bound_and_the_way_out(tmp_path):
    path = _write(tmp_path, "w.svm", "1 1:1 1100000:2\n0 2:1\n1 3:1\n0 1:1\n")
    with pytest.raises(ValueError, match=r"n_features=1100000"):
        load_data(path)
    X, y = load_data(path, n_features=1_100_000)
    assert X.shape == (4, 1_100_000) and X[0, 1_099_999] == 2.0
    X, _ = read_svmlight(path, n_features=1_100_000)
    assert X.shape[1] == 1_100_000
    with pytest.raises(ValueError, match=r"index is larger than n_features=5"):
        load_data(path, n_features=5)
    X, _ = load_data(_write(tmp_path, "z.svm", "1 0:1 2:3\n0 1:2\n"), zero_based=True)
    assert list(X.feature_names) == ["0", "1", "2"]
    with pytest.raises(ValueError, match=r"line 2: feature index 5,000,000"):
        load_data(_write(tmp_path, "zb.svm", "1 0:1\n0 5000000:1\n"), zero_based=True)


def test_svmlight_bad_arguments(tmp_path):
    path = _write(tmp_path, "d.svm", "1 1:1\n-1 2:1\n")
    with pytest.raises(ValueError, match="target does not apply to an svmlight file"):
        load_data(path, target=0)
    with pytest.raises(ValueError, match="n_features must be a positive int"):
        read_svmlight(path, n_features=0)
    with pytest.raises(TypeError, match="zero_based"):
        read_svmlight(path, zero_based="maybe")
    with pytest.raises(ValueError, match="format must be 'csv', 'arff', 'parquet' or "
                       "'svmlight'"):
        load_data(path, format="svn")


def test_sparse_file_ranks_like_dense(tmp_path):
    from rankfusion.rankers import rank_features

    rng = np.random.default_rng(3)
    dense = np.where(rng.random((30, 12)) < 0.3, rng.integers(1, 5, (30, 12)), 0).astype(float)
    y = (dense[:, 0] > 0).astype(int)
    lines = [f"{y[i]} " + " ".join(f"{j + 1}:{dense[i, j]:g}" for j in np.flatnonzero(dense[i]))
             for i in range(30)]
    X, yy = load_data(_write(tmp_path, "r.svm", "\n".join(lines) + "\n"))
    got = rank_features(X, yy, ["chi2", "info_gain"])
    want = rank_features(dense, y, ["chi2", "info_gain"])
    np.testing.assert_array_equal(got.scores, want.scores)
    assert list(got.features) == [str(j + 1) for j in range(12)]
