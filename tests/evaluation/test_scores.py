"""The classification scores (rankfusion.evaluation.scores) on every surface: each per-fold value
equals scikit-learn's metric computed by hand on the same fold's predictions."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.metrics import (
    balanced_accuracy_score,
    get_scorer,
    log_loss,
    matthews_corrcoef,
    roc_auc_score,
)
from sklearn.model_selection import PredefinedSplit
from sklearn.naive_bayes import GaussianNB

from rankfusion import advise
from rankfusion.evaluation import cross_validate_selection, error_curve
from rankfusion.evaluation.advisor import SCORE_NAMES, SCORINGS
from rankfusion.evaluation.scores import (
    CLASSIFICATION_SCORES,
    SCORES,
    check_scoring,
    score_estimator,
)


def _data(n_classes, n=90, p=8, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % n_classes
    X = rng.normal(size=(n, p))
    X[:, 0] += 1.2 * y
    X[:, 1] -= 0.8 * y
    return X, y


def _by_hand(name, y, proba, pred, classes):
    """scikit-learn's metric on one test part, written out."""
    if name == "accuracy":
        return float(np.mean(pred == y))
    if name == "balanced_accuracy":
        return balanced_accuracy_score(y, pred)
    if name == "mcc":
        return matthews_corrcoef(y, pred)
    if name == "neg_log_loss":
        return -log_loss(y, proba, labels=classes)
    if len(classes) == 2:
        return roc_auc_score(y == classes[1], proba[:, 1])
    return roc_auc_score(y, proba, multi_class="ovr", average="macro", labels=classes)


NEW = ("balanced_accuracy", "mcc", "neg_log_loss", "roc_auc")


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("name", NEW)
def test_cross_validation_scores_equal_scikit_learn_by_hand(name, n_classes):
    X, y = _data(n_classes)
    asked = "roc_auc_ovr" if name == "roc_auc" else name
    r = cross_validate_selection(
        SelectKBest(f_classif, k=3),
        X,
        y,
        classifier="naive_bayes",
        cv=3,
        scoring=[asked],
        random_state=1,
    )
    assert list(r.scores.columns) == [asked]
    for f, test in enumerate(r.test_indices):
        train = np.setdiff1d(np.arange(y.shape[0]), test)
        sel = SelectKBest(f_classif, k=3).fit(X[train], y[train])
        nb = GaussianNB().fit(sel.transform(X[train]), y[train])
        Xt = sel.transform(X[test])
        want = _by_hand(name, y[test], nb.predict_proba(Xt), nb.predict(Xt), nb.classes_)
        assert r.scores[asked].iloc[f] == pytest.approx(want, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("name", NEW)
def test_error_curve_scores_equal_scikit_learn_by_hand(name, n_classes):
    X, y = _data(n_classes)
    curve = error_curve(
        SelectKBest(f_classif, k="all"),
        X,
        y,
        n_features=[2, 5],
        n_splits=3,
        classifier="naive_bayes",
        scoring=name,
        random_state=2,
    )
    assert curve.metric == name
    for s, test in enumerate(curve.test_indices):
        train = np.setdiff1d(np.arange(y.shape[0]), test)
        order = np.argsort(curve.positions.iloc[s].to_numpy(), kind="stable")
        for k in (2, 5):
            top = order[:k]
            nb = GaussianNB().fit(X[train][:, top], y[train])
            Xt = X[test][:, top]
            want = _by_hand(name, y[test], nb.predict_proba(Xt), nb.predict(Xt), nb.classes_)
            assert curve.errors.loc[s, k] == pytest.approx(want, rel=1e-12, abs=1e-12)


def test_error_curve_default_is_still_the_error_rate():
    X, y = _data(3)
    kw = dict(n_features=[2], n_splits=2, random_state=0)
    a = error_curve(SelectKBest(f_classif, k="all"), X, y, **kw)
    b = error_curve(SelectKBest(f_classif, k="all"), X, y, scoring="accuracy", **kw)
    assert a.metric == "error" and b.metric == "accuracy"
    np.testing.assert_allclose(a.errors.to_numpy(), 1 - b.errors.to_numpy(), atol=1e-15)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("name", NEW)
def test_advisor_outer_scores_equal_scikit_learn_by_hand(name, n_classes):
    X, y = _data(n_classes, n=72)
    Xa = np.abs(X)  # chi2 ranks non-negative features
    adv = advise(
        Xa,
        y,
        rankers=("f_classif", "chi2"),
        rules=("borda",),
        sizes=[2, 4],
        estimator="naive_bayes",
        cv=3,
        inner_cv=2,
        n_repeats=1,
        random_state=0,
        scoring=name,
    )
    assert adv.scoring == name
    for config, scores in adv.outer_scores.items():
        want = []
        for (train, test), subset in zip(adv.outer_splits, adv.outer_subsets[config]):
            nb = GaussianNB().fit(Xa[train][:, subset], y[train])
            Xt = Xa[test][:, subset]
            want.append(_by_hand(name, y[test], nb.predict_proba(Xt), nb.predict(Xt), nb.classes_))
        np.testing.assert_allclose(scores, want, rtol=1e-12, atol=1e-12)
    full = []
    for train, test in adv.outer_splits:
        nb = GaussianNB().fit(Xa[train], y[train])
        full.append(
            _by_hand(name, y[test], nb.predict_proba(Xa[test]), nb.predict(Xa[test]), nb.classes_)
        )
    np.testing.assert_allclose(adv.baseline["all_features_scores"], full, rtol=1e-12)
    # the featureless predictor: the training class frequencies (chance level)
    chance = {"balanced_accuracy": 1 / n_classes, "mcc": 0.0, "roc_auc": 0.5}
    if name in chance:
        np.testing.assert_allclose(adv.baseline["no_features_scores"], chance[name])
    else:
        for (train, test), v in zip(adv.outer_splits, adv.baseline["no_features_scores"]):
            prior = np.bincount(y[train], minlength=n_classes) / train.shape[0]
            assert v == pytest.approx(
                -log_loss(y[test], np.tile(prior, (test.shape[0], 1)), labels=np.arange(n_classes)),
                rel=1e-12,
            )
    # the verdict names the score (and how a negated one is shown)
    assert f"outer {SCORE_NAMES[name]} " in adv.verdict
    if name == "neg_log_loss":
        assert "the log-loss negated, so that higher is better" in adv.verdict
    lo, hi = SCORES[name].bounds
    assert (adv.table["score_low"] >= lo).all() and (adv.table["score_high"] <= hi).all()


def test_a_class_missing_from_a_test_part():
    # 3 classes; the test part lacks class 2 (a user's splitter, not stratified)
    X, y = _data(3, n=60)
    test = np.flatnonzero(y != 2)[:12]
    train = np.setdiff1d(np.arange(60), test)
    nb = GaussianNB().fit(X[train], y[train])
    P = nb.predict_proba(X[test])
    # the log-loss: labels= the estimator's classes (every column of predict_proba)
    assert score_estimator("neg_log_loss", nb, X[test], y[test]) == pytest.approx(
        -log_loss(y[test], P, labels=[0, 1, 2]), rel=1e-12
    )
    # the AUC: the macro mean over the classes present (scikit-learn gives NaN here)
    want = np.mean([roc_auc_score(y[test] == c, P[:, c]) for c in (0, 1)])
    assert score_estimator("roc_auc", nb, X[test], y[test]) == pytest.approx(want, rel=1e-12)
    with pytest.warns(Warning):
        assert np.isnan(roc_auc_score(y[test], P, multi_class="ovr", labels=[0, 1, 2]))
    # through cross-validation with that fold
    fold = np.full(60, -1)
    fold[test] = 0
    r = cross_validate_selection(
        SelectKBest(f_classif, k=8),
        X,
        y,
        classifier="naive_bayes",
        cv=PredefinedSplit(fold),
        scoring=["roc_auc_ovr", "neg_log_loss"],
    )
    assert r.scores["roc_auc_ovr"].iloc[0] == pytest.approx(want, rel=1e-12)
    # two classes, one of them absent: no AUC at all
    yb = (y > 0).astype(int)
    test1 = np.flatnonzero(yb == 1)[:10]
    nb = GaussianNB().fit(
        X[np.setdiff1d(np.arange(60), test1)], yb[np.setdiff1d(np.arange(60), test1)]
    )
    with pytest.raises(ValueError, match="undefined on a test part holding only the class 1"):
        score_estimator("roc_auc", nb, X[test1], yb[test1])


@pytest.mark.parametrize("name", CLASSIFICATION_SCORES)
def test_score_estimator_is_get_scorer_when_every_class_is_present(name):
    X, y = _data(3)
    nb = GaussianNB().fit(X[:60], y[:60])
    sk = {"roc_auc": "roc_auc_ovr"}.get(name, SCORES[name].sklearn)
    assert score_estimator(name, nb, X[60:], y[60:]) == pytest.approx(
        get_scorer(sk)(nb, X[60:], y[60:]), rel=1e-12
    )


def test_one_mapping_for_every_surface():
    from rankfusion.cli._names import SCORINGS as CLI
    from rankfusion.evaluation.protocols import ERROR_CURVE_CONSTRAINTS

    assert SCORINGS["classification"] == CLASSIFICATION_SCORES
    assert list(CLI) == list(SCORES)
    assert set(SCORE_NAMES) == set(SCORES)
    assert set(ERROR_CURVE_CONSTRAINTS["scoring"][1].values) == set(SCORES)


@pytest.mark.parametrize(
    "scoring, task, exc, match",
    [
        ("auc", "classification", ValueError, "not a score of a classification task"),
        ("Balanced_Accuracy", "classification", ValueError, "did you mean 'balanced_accuracy'"),
        ("neg_log_los", "classification", ValueError, "did you mean 'neg_log_loss'"),
        ("r2", "classification", ValueError, r"'r2' scores a regression task"),
        ("mcc", "regression", ValueError, r"'mcc' scores a classification task"),
        (["mcc"], "classification", TypeError, "scoring must be one of .* got list"),
    ],
)
def test_hostile_scores(scoring, task, exc, match):
    with pytest.raises(exc, match=match):
        check_scoring(scoring, task)


def test_the_report_and_the_text_name_the_chosen_score():
    pytest.importorskip("matplotlib")
    from rankfusion.experiments.advice_report import advice_report_html

    X, y = _data(2, n=60)
    adv = advise(
        np.abs(X),
        y,
        rankers=("f_classif", "chi2"),
        rules=("borda",),
        sizes=[2, 4],
        estimator="naive_bayes",
        cv=3,
        inner_cv=2,
        n_repeats=1,
        random_state=0,
        scoring="neg_log_loss",
    )
    page = advice_report_html(adv)
    assert "outer −log-loss" in page and "−log-loss against subset size" in page
    assert "the log-loss negated, so that higher is better" in page
    assert "accuracy" not in adv.verdict
    assert adv.summary["scoring"] == "neg_log_loss"
