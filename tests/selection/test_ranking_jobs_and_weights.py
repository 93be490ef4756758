"""The ranking jobs (``selection.ranking_jobs``) and the list weights (``selection.list_weights``)
on their own, against transcriptions of their rules, and the selector that calls them.

Oracles: the seed derivation of docs/design.md, 'Seeds' written out with numpy's SeedSequence;
scikit-learn's (Stratified)KFold; Bouaguel et al. (2013)'s accuracy weights recomputed with
plain GaussianNB fits.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.feature_selection import f_classif
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.naive_bayes import GaussianNB

from rankfusion import EnsembleSelector, RankedLists
from rankfusion.selection.list_weights import accuracy_weights, resolve_list_weights
from rankfusion.selection.ranker_specs import resolve_rankers
from rankfusion.selection.ranking_jobs import plan_ranking_jobs, run_ranking_jobs
from rankfusion.selection.resampling import bootstrap_indices, cv_folds


def _data(n=60, p=8, seed=0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    X = rng.normal(size=(n, p))
    X[:, 0] += 2.0 * y
    X[:, 3] += 1.0 * y
    return X, y


def anova(X, y):
    return f_classif(X, y)[0]


def test_plan_seeds_rows_and_names_follow_the_documented_derivation():
    X, y = _data()
    rankers = resolve_rankers(["relieff", anova])
    plan = plan_ranking_jobs(rankers, y, np.random.SeedSequence(3), n_bootstraps=4)
    boot, rank = np.random.SeedSequence(3).spawn(2)
    samples = bootstrap_indices(y, boot.spawn(4))
    parents = rank.spawn(2)
    assert plan.n_rankers == 2 and plan.n_samples == 4 and len(plan.jobs) == 8
    for b in range(4):
        np.testing.assert_array_equal(plan.samples[b], samples[b])
    for i, parent in enumerate(parents):
        for b, child in enumerate(parent.spawn(4)):
            job = plan.jobs[i * 4 + b]  # ranker-major
            assert job.ranker is rankers[i] and job.bootstrap == b
            assert job.name == f"{rankers[i].name}@b{b}"
            assert job.seed.entropy == child.entropy and job.seed.spawn_key == child.spawn_key
            np.testing.assert_array_equal(job.rows, samples[b])


def test_plan_without_bootstraps_ranks_once_on_all_rows():
    _, y = _data()
    plan = plan_ranking_jobs(resolve_rankers(["relieff", anova]), y, 5)
    assert plan.samples == [] and plan.n_samples == 1
    assert [(j.name, j.rows, j.bootstrap) for j in plan.jobs] == [
        ("relieff", None, None), ("anova", None, None)]
    _, rank = np.random.SeedSequence(5).spawn(2)
    assert [j.seed.spawn_key for j in plan.jobs] == [
        p.spawn(1)[0].spawn_key for p in rank.spawn(2)]


def test_run_ranking_jobs_is_what_the_selector_ranks():
    X, y = _data()
    sel = EnsembleSelector(rankers=(anova, "relieff"), n_bootstraps=3, normalize=None,
                           n_features_to_select=2, random_state=7).fit(X, y)
    # the selector's ranking stream: root child 0, its child 0 (docs/design.md, 'Seeds')
    rank_seq = np.random.SeedSequence(7).spawn(4)[0].spawn(3)[0]
    plan = plan_ranking_jobs(resolve_rankers((anova, "relieff")), y, rank_seq, n_bootstraps=3)
    scores, names, groups = run_ranking_jobs(plan, X, y, X.shape[1])
    np.testing.assert_array_equal(scores, sel.lists_.scores)
    assert names == list(sel.lists_.list_names)
    assert groups == {"anova": [0, 1, 2], "relieff": [3, 4, 5]}
    for b in range(3):
        np.testing.assert_array_equal(sel.bootstrap_indices_[b], plan.samples[b])


@pytest.mark.parametrize("stratify", [True, False])
def test_cv_folds_are_scikit_learns_shuffled_folds(stratify):
    _, y = _data(n=30)
    got = cv_folds(y, 3, stratify=stratify, random_state=11)
    split = (StratifiedKFold if stratify else KFold)(3, shuffle=True, random_state=11)
    for (a, b), (c, d) in zip(got, split.split(np.zeros(30), y), strict=True):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    with pytest.raises(ValueError, match="cv=20 stratified folds need at least 20"):
        cv_folds(y, 20)
    with pytest.raises(ValueError, match="cv=40 folds need at least 40 samples"):
        cv_folds(y, 40, stratify=False)


def test_accuracy_weights_are_normalised_mean_fold_accuracies_of_each_top_k():
    X, y = _data()
    lists = RankedLists.from_scores(np.column_stack([anova(X, y), -anova(X, y)]))
    folds = cv_folds(y, 3, random_state=2)
    w = accuracy_weights(lists, X, y, GaussianNB(), 2, folds)
    acc = []
    for j in range(2):
        cols = np.lexsort((np.arange(8), lists.positions[:, j]))[:2]
        acc.append(np.mean([np.mean(GaussianNB().fit(X[tr][:, cols], y[tr]).predict(
            X[te][:, cols]) == y[te]) for tr, te in folds]))
    np.testing.assert_allclose(w, np.array(acc) / sum(acc))
    assert w.sum() == pytest.approx(1.0) and w[0] > w[1]


def test_resolve_list_weights_kinds():
    X, y = _data()
    lists = RankedLists.from_scores(np.column_stack([anova(X, y)] * 3),
                                    list_names=["a", "b@b0", "b@b1"])
    groups = {"a": [0], "b": [1, 2]}
    kw = dict(X=X, y=y, estimators={"nb": GaussianNB()}, k=2)
    assert resolve_list_weights(None, lists, groups, **kw) is None
    np.testing.assert_allclose(resolve_list_weights([1, 1, 2], lists, groups, **kw),
                               [0.25, 0.25, 0.5])
    np.testing.assert_allclose(resolve_list_weights({"a": 2, "b": 1}, lists, groups, **kw),
                               [0.5, 0.25, 0.25])
    seq = np.random.SeedSequence(9)
    folds = cv_folds(y, 5, random_state=int(seq.generate_state(1)[0] >> 1))
    np.testing.assert_array_equal(
        resolve_list_weights("accuracy", lists, groups, **kw, random_state=seq),
        accuracy_weights(lists, X, y, GaussianNB(), 2, folds))
    with pytest.raises(ValueError, match="gives no weight for ranker 'b'"):
        resolve_list_weights({"a": 1}, lists, groups, **kw)
    with pytest.raises(ValueError, match="2 weights for 3 lists"):
        resolve_list_weights([1, 2], lists, groups, **kw)
    with pytest.raises(ValueError, match="not all zero"):
        resolve_list_weights([0, 0, 0], lists, groups, **kw)
