"""The advisor's reported choices, each recomputed from its definition.

* ``Advice.one_se``: "the smallest size whose score is within one (corrected) standard error
  of the best configuration's, ties to the higher score" (Hastie, Tibshirani & Friedman, *The
  Elements of Statistical Learning*, §7.10; the standard error with the Nadeau & Bengio 2003
  correction of the module docstring), recomputed from the per-fold outer scores on fixtures
  where several configurations at the chosen size are within the margin and the best of them
  is neither the first nor the last in the configuration order.
* The inner choice uses the outer training part only (Varma & Simon 2006: the choice must be
  nested): scrambling the rows of the outer test part, features and target, must leave every
  inner score, the training part's orders and the chosen configurations as they were.
* The no-feature baseline of a class target: the most frequent class of each outer training
  part (ties to the lower class code) predicted for its test part, by hand on imbalanced data
  where the majority of all the data, or of the test part, would give other numbers.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from rankfusion import advise
from rankfusion.evaluation.advisor import advice_part, prepare_advice


def noisy_ranker(i: int, *, sd: float, m: int):
    """Sees the true relevance (1 on the first m features) through its own N(0, sd²) noise,
    drawn from the seed it gets: configurations that disagree, so their scores differ."""

    def ranker(X, y, random_state=None):
        rng = np.random.default_rng([i, random_state])
        s = np.zeros(X.shape[1])
        s[:m] = 1.0
        return s + rng.normal(scale=sd, size=X.shape[1])

    ranker.__name__ = f"noisy{i}"
    return ranker


def abs_mean_diff(X, y):
    """|mean of the second class − mean of the first| per feature (deterministic)."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    a, b = np.unique(y)[:2]
    return np.abs(X[y == b].mean(axis=0) - X[y == a].mean(axis=0))


def abs_corr(X, y):
    """|Pearson correlation| of each feature with a numeric target (deterministic)."""
    X = np.asarray(X, dtype=float)
    Xc, yc = X - X.mean(axis=0), np.asarray(y, dtype=float) - np.mean(y)
    return np.abs(Xc.T @ yc) / np.sqrt((Xc**2).sum(axis=0) * (yc**2).sum())


# --------------------------------------------------------------------------- one-SE row
def _one_se_fixture(seed):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], 30)
    X = rng.normal(size=(60, 16))
    X[:, :4] += 0.8 * y[:, None]
    return advise(
        X,
        y,
        rankers=[noisy_ranker(i, sd=0.8, m=4) for i in range(3)],
        rules=("borda", "mean_score"),
        sizes=(1, 2, 4, 8),
        estimator="naive_bayes",
        cv=3,
        inner_cv=2,
        n_repeats=2,
        random_state=seed,
    )


@pytest.mark.parametrize("seed", [3, 7])
def test_one_se_row_is_the_best_scoring_configuration_at_the_chosen_size(seed):
    adv = _one_se_fixture(seed)
    configs = list(adv.outer_scores)  # the configuration order (rankers × rule, then size)
    scores = {c: adv.outer_scores[c] for c in configs}
    J = len(adv.outer_splits)
    n = sum(len(t) for t in adv.outer_splits[0])
    n_test = round(n / adv.summary["cv"])
    factor = 1 / J + n_test / (n - n_test)  # Nadeau & Bengio (2003)
    mean = {c: float(np.mean(s)) for c, s in scores.items()}
    se = {c: float(np.sqrt(factor * np.var(s, ddof=1))) for c, s in scores.items()}
    top = max(mean.values())
    best = next(c for c in configs if mean[c] == top)  # ties: the earlier configuration
    near = [c for c in configs if mean[c] >= top - se[best]]
    k = min(c.size for c in near)
    at_k = [c for c in near if c.size == k]
    winner = max(at_k, key=lambda c: mean[c])
    # the fixture: the margin matters (the chosen size is not the best's), several
    # configurations at that size lie within it with different scores, and the best of them
    # is a unique maximum, neither the first nor the last of them in the configuration order
    assert k < best.size
    assert len(at_k) >= 3 and len({mean[c] for c in at_k}) >= 3
    assert sum(mean[c] == mean[winner] for c in at_k) == 1
    assert at_k.index(winner) not in (0, len(at_k) - 1)
    assert adv.one_se == winner
    assert adv.summary["one_se"] == winner.label
    # the table says the same: the highest score among the rows of that size in the margin
    t = adv.table
    row = t[t["configuration"] == adv.one_se].iloc[0]
    assert row["score"] == pytest.approx(mean[winner], rel=1e-15)
    assert row["size"] == k


# --------------------------------------------------------------------------- no leak
_LEAK_KW = dict(
    rankers=("f_classif", abs_mean_diff, "relieff"),
    rules=("borda", "mean_score"),
    sizes=(1, 2, 4),
    estimator="naive_bayes",
    cv=3,
    inner_cv=2,
    n_repeats=1,
    random_state=4,
)


def _leak_data(seed=4, n=45, p=10):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2], n // 3)
    X = rng.normal(size=(n, p))
    X[:, :3] += 0.7 * y[:, None]
    return X, y


def _scramble(X, y, rows, seed, *, flip=None):
    """Copies of X and y whose ``rows`` hold other values: fresh noise for the features and,
    with ``flip``, another label for every row (``flip(y)``)."""
    rng = np.random.default_rng(seed)
    Xs, ys = X.copy(), y.copy()
    Xs[rows] = rng.normal(scale=3.0, size=(len(rows), X.shape[1]))
    if flip is not None:
        ys[rows] = flip(y[rows])
    return Xs, ys


@pytest.mark.parametrize("j", [0, 2])
def test_inner_choice_ignores_the_outer_test_rows_features_and_labels(j):
    X, y = _leak_data()
    task = prepare_advice(X, y, **_LEAK_KW)
    train, test = task.splits[j]
    Xs, ys = _scramble(X, y, test, 100 + j, flip=lambda v: (v + 1) % 3)
    # the same outer splits (a stratified split follows the labels, which were changed on
    # purpose): the work of part j on the scrambled data, the public task with its splits
    other = dataclasses.replace(prepare_advice(Xs, ys, **_LEAK_KW), splits=task.splits)
    a, b = advice_part(task, j), advice_part(other, j)
    np.testing.assert_array_equal(a["combo"], b["combo"])
    np.testing.assert_array_equal(a["single"], b["single"])
    np.testing.assert_array_equal(a["inner_acc"], b["inner_acc"])
    np.testing.assert_array_equal(a["orders"], b["orders"])
    np.testing.assert_array_equal(a["ranker_scores"], b["ranker_scores"])
    # the scramble is felt where it should be: the test part's scores
    assert not np.array_equal(a["acc"], b["acc"])


def test_outer_choices_and_subsets_ignore_the_outer_test_rows():
    # through advise() alone: scrambling the features of fold 0's test rows keeps the
    # stratified splits (they follow y only), fold 0's inner choice and every configuration's
    # subset on fold 0's training part
    X, y = _leak_data(seed=5)
    adv = advise(X, y, **_LEAK_KW)
    _, test = adv.outer_splits[0]
    Xs, _ = _scramble(X, y, test, 7)
    again = advise(Xs, y, **_LEAK_KW)
    for (tr_a, te_a), (tr_b, te_b) in zip(adv.outer_splits, again.outer_splits):
        np.testing.assert_array_equal(tr_a, tr_b)
        np.testing.assert_array_equal(te_a, te_b)
    assert again.outer_choices[0] == adv.outer_choices[0]
    for c, subsets in adv.outer_subsets.items():
        np.testing.assert_array_equal(again.outer_subsets[c][0], subsets[0])
    assert any(again.outer_scores[c][0] != s[0] for c, s in adv.outer_scores.items())


def test_regression_inner_choice_ignores_the_outer_test_rows():
    # a numeric target: plain k-fold splits (they follow n only), so advise() itself can be
    # run on data whose test rows of fold 1 have other features and another target
    rng = np.random.default_rng(6)
    X = rng.normal(size=(45, 8))
    y = X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.5, size=45)
    kw = dict(
        rankers=("f_regression", abs_corr),
        rules=("borda", "mean_score"),
        sizes=(1, 2, 4),
        cv=3,
        inner_cv=2,
        n_repeats=1,
        task="regression",
        random_state=2,
    )
    adv = advise(X, y, **kw)
    _, test = adv.outer_splits[1]
    Xs, ys = _scramble(X, y, test, 8, flip=lambda v: -3.0 * v)
    again = advise(Xs, ys, **kw)
    assert again.outer_choices[1] == adv.outer_choices[1]
    for c, subsets in adv.outer_subsets.items():
        np.testing.assert_array_equal(again.outer_subsets[c][1], subsets[1])
    assert any(again.outer_scores[c][1] != s[1] for c, s in adv.outer_scores.items())


# --------------------------------------------------------------------------- baseline
def _majority_accuracy(y_train, y_test):
    """The most frequent class of the training labels (ties: the lowest label, the lowest
    class code), predicted for every test row."""
    labels, counts = np.unique(y_train, return_counts=True)
    return float(np.mean(y_test == labels[int(np.argmax(counts))]))


@pytest.mark.parametrize("counts, cv", [({"no": 10, "yes": 11}, 5), ({"a": 6, "b": 8, "c": 9}, 4)])
def test_no_feature_baseline_is_the_training_majority_on_each_test_part(counts, cv):
    # imbalanced classes whose majority is not the lowest label: on a fold whose training
    # part ties, the lower class is predicted, where the majority of all the data (or of the
    # test part) is another class
    y = np.concatenate([[label] * k for label, k in counts.items()])
    rng = np.random.default_rng(0)
    X = rng.normal(size=(y.shape[0], 4))
    adv = advise(
        X,
        y,
        rankers=("f_classif", abs_mean_diff),
        rules=("borda",),
        sizes=(1,),
        estimator="naive_bayes",
        cv=cv,
        inner_cv=2,
        n_repeats=2,
        random_state=1,
    )
    want = [_majority_accuracy(y[tr], y[te]) for tr, te in adv.outer_splits]
    assert adv.baseline["no_features_scores"] == pytest.approx(want, rel=0, abs=1e-15)
    assert adv.baseline["no_features"] == pytest.approx(np.mean(want), rel=1e-15)
    # the fixture tells the training part's majority from the other readings
    overall = max(counts, key=counts.get)
    whole = [float(np.mean(y[te] == overall)) for _, te in adv.outer_splits]
    own = [_majority_accuracy(y[te], y[te]) for _, te in adv.outer_splits]
    assert whole != pytest.approx(want, abs=1e-9)
    assert own != pytest.approx(want, abs=1e-9)
    assert np.mean(want) != pytest.approx(counts[overall] / y.shape[0], abs=1e-9)
