"""Protocols: error_curve, cross_validate_selection, relevant_rank_stats, classifiers."""

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.feature_selection import RFE, SelectKBest, SelectorMixin, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score, precision_score, recall_score, roc_auc_score
from sklearn.model_selection import StratifiedShuffleSplit
from sklearn.naive_bayes import GaussianNB
from sklearn.svm import SVC

from rankfusion import aggregate
from rankfusion.evaluation import (
    available_classifiers,
    cross_validate_selection,
    error_curve,
    log_grid,
    make_classifier,
    relevant_rank_stats,
    selector_positions,
)


def small_data(n=80, p=12, seed=0, n_classes=2):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    X = rng.normal(size=(n, p))
    X[:, 0] += 1.5 * y  # feature 0 relevant
    X[:, 1] -= 1.0 * y
    return X, y


# --------------------------------------------------------------------------- the leak test
FIT_LOG: list = []  # (kind, frozenset of row ids) per fit, in this process


class MemorisingSelector(SelectorMixin, BaseEstimator):
    """Records the row ids (column 0) of every fit and would rank by them if it could: its
    ranking depends on which rows it saw, so any test row reaching it would change the result.
    Column 0 always ranks first, so the classifier sees the row ids too."""

    def __init__(self, k=3):
        self.k = k

    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        FIT_LOG.append(("selector", frozenset(X[:, 0].astype(int).tolist())))
        rng = np.random.default_rng(int(X[:, 0].sum()))  # depends on the rows seen
        s = rng.uniform(0, 1, X.shape[1])
        s[0] = 2.0
        self.scores_ = s
        return self

    def _get_support_mask(self):
        mask = np.zeros(self.scores_.shape[0], dtype=bool)
        mask[np.argsort(-self.scores_, kind="stable")[: self.k]] = True
        return mask


class MemorisingClassifier(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        FIT_LOG.append(("classifier", frozenset(X[:, 0].astype(int).tolist())))
        self.classes_ = np.unique(y)
        self.majority_ = self.classes_[np.argmax(np.unique(y, return_counts=True)[1])]
        return self

    def predict(self, X):
        return np.full(np.asarray(X).shape[0], self.majority_)

    def predict_proba(self, X):
        out = np.zeros((np.asarray(X).shape[0], len(self.classes_)))
        out[:, list(self.classes_).index(self.majority_)] = 1.0
        return out


def leak_data():
    X, y = small_data(60, 6, seed=3)
    X[:, 0] = np.arange(60)  # row ids
    return X, y


def test_error_curve_never_fits_on_test_rows():
    X, y = leak_data()
    FIT_LOG.clear()
    r = error_curve(MemorisingSelector(), X, y, n_features=[1], classifier=MemorisingClassifier(),
                    n_splits=4, random_state=0, n_jobs=1)
    assert len(FIT_LOG) == 8  # one selector and one classifier fit per split
    for i, test in enumerate(r.test_indices):
        test_ids = set(test.tolist())
        (k1, sel_rows), (k2, clf_rows) = FIT_LOG[2 * i], FIT_LOG[2 * i + 1]
        assert (k1, k2) == ("selector", "classifier")
        assert not sel_rows & test_ids and not clf_rows & test_ids
        assert sel_rows | test_ids == set(range(60))  # it saw exactly the training part


def test_cross_validate_selection_never_fits_on_test_rows():
    X, y = leak_data()
    FIT_LOG.clear()
    r = cross_validate_selection(MemorisingSelector(), X, y, classifier=MemorisingClassifier(),
                                 cv=5, random_state=0, n_jobs=1)
    assert len(FIT_LOG) == 10
    for i, test in enumerate(r.test_indices):
        test_ids = set(test.tolist())
        assert not FIT_LOG[2 * i][1] & test_ids and not FIT_LOG[2 * i + 1][1] & test_ids
    assert sorted(np.concatenate(r.test_indices).tolist()) == list(range(60))


def test_the_leak_detector_catches_a_leaky_protocol():
    # the same bookkeeping flags a protocol that selects on all rows before splitting
    X, y = leak_data()
    FIT_LOG.clear()
    MemorisingSelector().fit(X, y)  # selection on the whole data: the classic leak
    split = next(StratifiedShuffleSplit(1, test_size=0.25, random_state=0).split(X, y))
    assert FIT_LOG[0][1] & set(split[1].tolist())


# --------------------------------------------------------------------------- error_curve
def test_error_curve_equals_a_direct_transcription():
    X, y = small_data()
    r = error_curve(SelectKBest(f_classif), X, y, n_features=[1, 3, 12], classifier="naive_bayes",
                    n_splits=3, random_state=4)
    for i, test in enumerate(r.test_indices):
        train = np.setdiff1d(np.arange(len(y)), test)
        scores = f_classif(X[train], y[train])[0]
        order = np.argsort(-scores, kind="stable")
        np.testing.assert_array_equal(r.positions.iloc[i].to_numpy()[order], np.arange(1, 13))
        for k in (1, 3, 12):
            clf = GaussianNB().fit(X[train][:, order[:k]], y[train])
            err = np.mean(clf.predict(X[test][:, order[:k]]) != y[test])
            assert r.errors.loc[i, k] == pytest.approx(err)
    s = r.summary()
    assert list(s.columns) == ["mean", "sd"]
    assert s.loc[3, "sd"] == pytest.approx(np.std(r.errors[3], ddof=1))
    assert (r.n_train, r.n_test) == (60, 20)


def test_error_curve_is_identical_for_every_n_jobs_and_seeded():
    X, y = small_data()
    kw = dict(n_features=[1, 2, 5], classifier="tree", n_splits=4, random_state=7)
    a = error_curve(SelectKBest(f_classif), X, y, n_jobs=1, **kw)
    b = error_curve(SelectKBest(f_classif), X, y, n_jobs=2, **kw)
    pd.testing.assert_frame_equal(a.errors, b.errors)
    pd.testing.assert_frame_equal(a.positions, b.positions)
    c = error_curve(SelectKBest(f_classif), X, y, **{**kw, "random_state": 8})
    assert not all((x == z).all() for x, z in zip(a.test_indices, c.test_indices))


@pytest.mark.parametrize("stratify", [True, False])
def test_error_curve_kfold_tests_every_row_once_and_equals_a_transcription(stratify):
    from sklearn.model_selection import KFold, StratifiedKFold

    from rankfusion._utils.seeding import seed_int

    X, y = small_data()
    r = error_curve(SelectKBest(f_classif), X, y, n_features=[1, 3, 12],
                    classifier="naive_bayes", n_splits=4, splits="kfold", stratify=stratify,
                    random_state=4)
    tests = np.concatenate(r.test_indices)
    assert sorted(tests.tolist()) == list(range(len(y)))  # a partition: every row once
    # the folds: one shuffled (Stratified)KFold seeded by the first split's seed
    seed0 = seed_int(np.random.SeedSequence(4).spawn(4)[0], size=3)[0]
    cls = StratifiedKFold if stratify else KFold
    want = [te for _, te in cls(4, shuffle=True, random_state=int(seed0)).split(X, y)]
    for got, w in zip(r.test_indices, want):
        np.testing.assert_array_equal(got, w)
    for i, test in enumerate(r.test_indices):
        train = np.setdiff1d(np.arange(len(y)), test)
        order = np.argsort(-f_classif(X[train], y[train])[0], kind="stable")
        for k in (1, 3, 12):
            clf = GaussianNB().fit(X[train][:, order[:k]], y[train])
            assert r.errors.loc[i, k] == pytest.approx(
                np.mean(clf.predict(X[test][:, order[:k]]) != y[test]))
    assert (r.n_train, r.n_test) == (60, 20)


def test_error_curve_random_splits_unchanged_by_the_kfold_option():
    X, y = small_data()
    kw = dict(n_features=[1, 2], classifier="naive_bayes", n_splits=3, random_state=2)
    a = error_curve(SelectKBest(f_classif), X, y, **kw)
    b = error_curve(SelectKBest(f_classif), X, y, test_size=0.25, splits="random", **kw)
    pd.testing.assert_frame_equal(a.errors, b.errors)


def test_error_curve_default_grid_and_plain_splits():
    X, y = small_data(p=40)
    r = error_curve(SelectKBest(f_classif), X, y, n_splits=2, stratify=False, random_state=0)
    np.testing.assert_array_equal(r.n_features, log_grid(40))
    assert r.n_features[0] == 1 and r.n_features[-1] == 40


def test_error_curve_takes_nominal_dataframes():
    X, y = small_data(60, 4)
    df = pd.DataFrame(X, columns=list("abcd"))
    df["colour"] = pd.Categorical(np.where(y == 1, "red", "blue"))
    df["size"] = np.where(np.arange(60) % 3 == 0, "big", "small")

    class FixedOrder(BaseEstimator):  # ranks the nominal columns first
        def fit(self, X, y):
            self.positions_ = np.array([3, 4, 5, 6, 1, 2])
            return self

    r = error_curve(FixedOrder(), df, y, n_features=[1, 2, 6], n_splits=3, random_state=0)
    assert r.errors[1].max() == 0.0  # the colour column is the class, one-hot encoded


def test_classifier_registry_and_selector_positions():
    assert {"linear_svm", "naive_bayes", "tree", "knn1", "knn3", "adaboost", "bagging",
            "random_forest"} <= set(available_classifiers())
    svm = make_classifier("linear_svm")
    assert isinstance(svm, SVC) and svm.kernel == "linear" and svm.C == 1.0
    assert make_classifier("tree").criterion == "entropy"
    assert make_classifier("adaboost").estimator.max_depth == 1
    X, y = small_data()
    rfe = RFE(LogisticRegression(), n_features_to_select=2).fit(X, y)
    pos = selector_positions(rfe, 12)
    assert sorted(pos.tolist()) == list(range(1, 13))
    assert set(np.flatnonzero(pos <= 2)) == set(np.flatnonzero(rfe.support_))
    lr = LogisticRegression().fit(X, y)
    assert selector_positions(lr)[0] == 1 or selector_positions(lr)[1] == 1


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(selector="x"), TypeError, "selector"),
    (dict(n_features=[0]), ValueError, "n_features"),
    (dict(n_features=[13]), ValueError, "n_features"),
    (dict(n_features=[1.5]), TypeError, "n_features"),
    (dict(n_features=[]), ValueError, "empty"),
    (dict(n_features="5"), TypeError, "n_features"),
    (dict(n_splits=0), ValueError, "n_splits"),
    (dict(test_size=1.5), ValueError, "test_size"),
    (dict(test_size=0), ValueError, "test_size"),
    (dict(test_size="a"), TypeError, "test_size"),
    (dict(stratify="yes"), TypeError, "stratify"),
    (dict(splits="kfolds"), ValueError, 'splits must be "random" or "kfold"'),
    (dict(splits=5), ValueError, "splits must be"),
    (dict(splits="kfold", test_size=0.2), ValueError, "test_size is not used"),
    (dict(splits="kfold", n_splits=81), ValueError, r"must lie in \[2, 80\]"),
    (dict(splits="kfold", n_splits=60), ValueError, "cannot split the data into 60 folds"),
    (dict(classifier="svm9"), ValueError, "unknown classifier"),
    (dict(classifier=SelectKBest()), TypeError, "classifier"),
    (dict(random_state="0"), TypeError, "random_state"),
    (dict(y=np.zeros(80)), ValueError, "class"),
    (dict(y=np.arange(79) % 2), ValueError, "labels"),
    (dict(X=np.ones((80, 12, 1))), ValueError, "2-D"),
    (dict(X=np.full((80, 12), np.inf)), ValueError, "inf"),
    (dict(selector=BaseEstimator.__new__(type("NoRank", (BaseEstimator,),
                                              {"fit": lambda s, X, y: s}))), TypeError,
     "cannot read a ranking"),
    (dict(scoring="balanced_acc"), ValueError,
     "scoring='balanced_acc' is not a score .* did you mean 'balanced_accuracy'"),
    (dict(scoring="r2"), ValueError, r"'r2' scores a regression task"),
    (dict(scoring=3), TypeError, "scoring must be one of"),
    (dict(scoring="neg_log_loss"), ValueError,
     r"scoring='neg_log_loss' .*needs an estimator with predict_proba; the estimator "
     r"'linear_svm' has none"),
    (dict(scoring="roc_auc", y=np.arange(80) % 3), ValueError,
     r"scoring='roc_auc' \(ROC AUC with 3 classes\) needs an estimator with predict_proba"),
])
def test_error_curve_hostile_inputs(kwargs, exc, match):
    X, y = small_data()
    args = dict(selector=SelectKBest(f_classif), X=X, y=y, n_splits=2, random_state=0)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        error_curve(args.pop("selector"), args.pop("X"), args.pop("y"), **args)


def test_error_curve_does_not_modify_the_caller_data():
    X, y = small_data()
    X0, y0 = X.copy(), y.copy()
    sel = SelectKBest(f_classif)
    error_curve(sel, X, y, n_features=[2], n_splits=2, random_state=0)
    np.testing.assert_array_equal(X, X0)
    np.testing.assert_array_equal(y, y0)
    assert not hasattr(sel, "scores_")  # the caller's selector is never fitted


# --------------------------------------------------------------------------- cross-validation
def test_cross_validation_binary_metrics_use_the_minority_class():
    X, y = small_data(90)
    y = np.where(np.arange(90) % 3 == 0, "sick", "well")  # minority: sick
    X[:, 0] += 2 * (y == "sick")
    r = cross_validate_selection(SelectKBest(f_classif, k=3), X, y, classifier="linear_svm",
                                 cv=3, random_state=0)
    assert r.pos_label == "sick" and r.average == "binary"
    for i, test in enumerate(r.test_indices):
        train = np.setdiff1d(np.arange(90), test)
        sel = SelectKBest(f_classif, k=3).fit(X[train], y[train])
        clf = SVC(kernel="linear").fit(sel.transform(X[train]), y[train])
        pred = clf.predict(sel.transform(X[test]))
        dec = clf.decision_function(sel.transform(X[test]))  # positive for 'well'
        row = r.scores.iloc[i]
        assert row["precision"] == pytest.approx(precision_score(y[test], pred, pos_label="sick"))
        assert row["recall"] == pytest.approx(recall_score(y[test], pred, pos_label="sick"))
        assert row["f1"] == pytest.approx(f1_score(y[test], pred, pos_label="sick"))
        assert row["roc_auc"] == pytest.approx(roc_auc_score(y[test] == "sick", -dec))
        assert row["error"] == pytest.approx(1 - row["accuracy"])


def test_cross_validation_multiclass_is_support_weighted():
    X, y = small_data(90, n_classes=3)
    r = cross_validate_selection(SelectKBest(f_classif, k=4), X, y, classifier="naive_bayes",
                                 cv=3, random_state=1)
    assert r.average == "weighted" and r.pos_label is None
    test = r.test_indices[0]
    train = np.setdiff1d(np.arange(90), test)
    sel = SelectKBest(f_classif, k=4).fit(X[train], y[train])
    nb = GaussianNB().fit(sel.transform(X[train]), y[train])
    pred = nb.predict(sel.transform(X[test]))
    proba = nb.predict_proba(sel.transform(X[test]))
    row = r.scores.iloc[0]
    assert row["f1"] == pytest.approx(f1_score(y[test], pred, average="weighted"))
    assert row["roc_auc"] == pytest.approx(
        roc_auc_score(y[test], proba, multi_class="ovr", average="weighted"))
    assert list(r.summary().index) == ["accuracy", "error", "precision", "recall", "f1",
                                       "roc_auc"]


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(selector=GaussianNB()), TypeError, "transform"),
    (dict(scoring=("accuracy", "auc")), ValueError, "scoring"),
    (dict(scoring=()), ValueError, "scoring"),
    (dict(pos_label="zzz"), ValueError, "pos_label"),
    (dict(cv=1), ValueError, "cv"),
    (dict(cv=100), ValueError, "folds"),
    (dict(cv="5"), TypeError, "cv"),
    (dict(cv=True), TypeError, "cv"),
    (dict(classifier="nope"), ValueError, "unknown classifier"),
    (dict(scoring=("balanced_acuracy",)), ValueError, "did you mean 'balanced_accuracy'"),
    (dict(scoring=("r2",)), ValueError, "scoring must be a non-empty subset"),
    (dict(scoring=("neg_log_loss",)), ValueError,
     r"scoring='neg_log_loss' .*needs an estimator with predict_proba; the estimator "
     r"'linear_svm' has none"),
])
def test_cross_validation_hostile_inputs(kwargs, exc, match):
    X, y = small_data()
    args = dict(selector=SelectKBest(f_classif, k=3), cv=3, random_state=0)
    args.update(kwargs)
    with pytest.raises(exc, match=match):
        cross_validate_selection(args.pop("selector"), X, y, **args)


# --------------------------------------------------------------------------- relevant ranks
def test_relevant_rank_stats_by_hand_and_numpy_quantiles():
    s = relevant_rank_stats([1, 5, 2, 9, 3], relevant=[0, 2, 4])
    assert s.to_dict() == {"best": 1, "q1": 1.5, "median": 2, "mean": 2, "q3": 2.5, "worst": 3}
    pos = pd.DataFrame([[1, 2, 3, 4], [4, 3, 2, 1]], columns=["a", "b", "c", "d"])
    s = relevant_rank_stats(pos, ["a", "d"])
    pooled = np.array([1, 4, 4, 1])
    assert s["q1"] == np.quantile(pooled, 0.25) and s["mean"] == 2.5
    scores = pd.DataFrame(np.random.default_rng(0).normal(size=(6, 3)),
                          index=list("uvwxyz"))
    c = aggregate(scores, "borda")
    assert relevant_rank_stats(c, ["u"])["best"] == c.ranks[0]


@pytest.mark.parametrize("positions, relevant, exc, match", [
    ([1, 2, 3], [], ValueError, "empty"),
    ([1, 2, 3], [3], ValueError, "out of range"),
    ([1, 2, 3], ["a"], ValueError, "not among"),
    ([1, 2, 3], [0, 0], ValueError, "repeats"),
    ([0, 2, 3], [0], ValueError, "≥ 1"),
    ([1, np.nan, 3], [0], ValueError, "finite"),
    ([1, 2, 3], "a", TypeError, "relevant"),
    ("abc", [0], TypeError, "positions"),
    (np.ones((2, 2, 2)), [0], ValueError, "1-D or 2-D"),
])
def test_relevant_rank_stats_hostile_inputs(positions, relevant, exc, match):
    with pytest.raises(exc, match=match):
        relevant_rank_stats(positions, relevant)


def test_smo_is_linear_svc_on_training_range_normalised_attributes():
    # Weka's SMO defaults: each attribute (x − min) / (max − min) with the TRAINING part's
    # range (test values outside it are not clipped), then a linear SVM with C = 1
    rng = np.random.default_rng(11)
    X = rng.normal(size=(80, 5)) * np.array([1.0, 1e3, 1e4, 0.01, 50.0]) + 7.0
    y = (X[:, 1] / 1e3 + X[:, 2] / 1e4 + 0.5 * rng.normal(size=80) > 0).astype(int)
    X[:, 3] = 4.0  # a constant attribute
    tr, te = np.arange(60), np.arange(60, 80)
    X[te[0], 1] = 1e5  # outside the training range
    lo, hi = X[tr].min(axis=0), X[tr].max(axis=0)
    width = np.where(hi > lo, hi - lo, 1.0)
    ref = SVC(kernel="linear", C=1.0).fit((X[tr] - lo) / width, y[tr])
    smo = make_classifier("smo").fit(X[tr], y[tr])
    np.testing.assert_array_equal(smo.predict(X[te]), ref.predict((X[te] - lo) / width))
    np.testing.assert_allclose(smo.decision_function(X[te]),
                               ref.decision_function((X[te] - lo) / width), rtol=1e-9)
    assert "smo" in available_classifiers()


def test_a_wrapped_selector_and_classifier_are_seeded_like_bare_ones():
    # The protocol seeds every random_state left at None, nested ones included: a selector
    # inside ZScoredSelector (the standardised gene-expression path) and a classifier inside a
    # Pipeline. Before, a wrapped selector ran unseeded (liblinear's Crammer–Singer solver in
    # the committed gene-expression runs), and two identical runs gave different curves.
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from rankfusion.evaluation import ZScoredSelector
    from rankfusion.selection import EnsembleSelector

    X, y = make_classification(n_samples=60, n_features=12, n_informative=3, n_redundant=0,
                               random_state=3)
    sel = ZScoredSelector(EnsembleSelector(rankers=["f_classif", "relieff"], n_bootstraps=3,
                                           sample_fraction=0.5))
    clf = make_pipeline(StandardScaler(), RandomForestClassifier(n_estimators=5))
    runs = [error_curve(sel, X, y, n_features=[2, 5], classifier=clf, n_splits=3,
                        random_state=7) for _ in range(3)]
    for other in runs[1:]:
        pd.testing.assert_frame_equal(runs[0].errors, other.errors)
        pd.testing.assert_frame_equal(runs[0].positions, other.positions)
    # the caller's objects are unchanged
    assert sel.get_params()["selector__random_state"] is None
    assert clf.get_params()["randomforestclassifier__random_state"] is None
