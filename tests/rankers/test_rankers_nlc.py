"""NLC (Ruiz et al. 2003) as docs/design.md, 'Rankers', defines it: label changes along each
sorted projection, ties ordered for the most changes over the whole sequence."""

import itertools

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris

from conftest import CFS_DATA
from rankfusion.rankers import get_ranker
from rankfusion.rankers.nlc import label_changes, nlc


def _changes(labels) -> int:
    return sum(1 for a, b in zip(labels[:-1], labels[1:]) if a != b)


def brute_force_nlc(x, y) -> int:
    """Maximum label changes over every order of the tied values (missing values left out)."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y)
    keep = ~np.isnan(x)
    x, y = x[keep], y[keep]
    runs = [list(y[x == v]) for v in np.unique(x)]
    best = 0
    for orders in itertools.product(*[set(itertools.permutations(r)) for r in runs]):
        seq = [lab for run in orders for lab in run]
        best = max(best, _changes(seq))
    return best


def test_iris_counts_match_guide():
    X, y = load_iris(return_X_y=True)
    assert label_changes(X, y).tolist() == [76, 113, 16, 14]


def test_weka_iris_arff_differs_in_sepal_width():
    # docs/design.md, 'Departures from the papers and reference tools': Weka's iris.arff
    # differs from scikit-learn's copy in one value
    from rankfusion.io import load_data

    X, y = load_data(CFS_DATA / "iris.arff.gz")
    assert label_changes(X, y).tolist() == [76, 114, 16, 14]


def test_nlc_ranker_is_negated_count_and_registered():
    X, y = load_iris(return_X_y=True)
    scores = get_ranker("nlc")(X, y)
    assert scores.dtype == np.float64
    assert scores.tolist() == [-76.0, -113.0, -16.0, -14.0]
    assert get_ranker("label_changes") is nlc


def test_paper_example_run_of_four_odd_three_even_gives_six_changes():
    # Ruiz §3.3: [11,8,9,6,12,5,7] share one value: 4 odd, 3 even -> O,E,O,E,O,E,O (6 changes).
    x = np.zeros(7)
    y = [11, 8, 9, 6, 12, 5, 7]
    assert label_changes(x[:, None], np.asarray(y) % 2)[0] == 6


def test_run_joined_to_neighbours():
    # A A | {A,B} | B : the run must start with B and end with A -> A A B A B = 3 changes.
    x = np.array([0, 0, 1, 1, 2])
    y = np.array([0, 0, 0, 1, 1])
    assert label_changes(x[:, None], y)[0] == 3 == brute_force_nlc(x, y)


def test_run_formula_equals_every_permutation():
    from rankfusion.rankers.nlc import _internal_max

    for labels in [(0,), (0, 0), (0, 1), (0, 0, 1), (0, 0, 0, 1, 2), (0, 1, 1, 2, 2, 2),
                   (0, 0, 0, 0, 1, 1, 2)]:
        cnt = np.bincount(labels, minlength=3).astype(np.int64)
        pres = np.flatnonzero(cnt).astype(np.int64)
        best = {}
        for perm in set(itertools.permutations(labels)):
            key = (perm[0], perm[-1])
            best[key] = max(best.get(key, -1), _changes(perm))
        for a in range(3):
            for b in range(3):
                if cnt[a] == 0 or cnt[b] == 0:
                    continue
                got = _internal_max(cnt, pres, pres.size, len(labels), a, b)
                assert got == best.get((a, b), -1), (labels, a, b)


small_inputs = st.integers(min_value=2, max_value=7).flatmap(
    lambda n: st.tuples(
        st.lists(st.one_of(st.integers(0, 3).map(float), st.just(np.nan)), min_size=n,
                 max_size=n),
        st.lists(st.integers(0, 2), min_size=n, max_size=n),
    )
)


@settings(max_examples=300, deadline=None)
@given(small_inputs)
def test_equals_brute_force_over_every_order_of_ties(data):
    x, y = data
    y = np.asarray(y)
    if np.unique(y).size < 2:
        y = y.copy()
        y[0] = 1 - (y[0] % 2)
    assert label_changes(np.asarray(x)[:, None], y)[0] == brute_force_nlc(x, y)


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_row_shuffle_does_not_change_counts(seed):
    rng = np.random.default_rng(seed)
    n, p = 40, 6
    X = rng.integers(0, 4, size=(n, p)).astype(float)
    X[rng.random((n, p)) < 0.1] = np.nan
    y = rng.integers(0, 3, size=n)
    y[:3] = [0, 1, 2]
    perm = rng.permutation(n)
    np.testing.assert_array_equal(label_changes(X, y), label_changes(X[perm], y[perm]))


def test_constant_feature_gets_largest_count_and_ranks_last():
    X, y = load_iris(return_X_y=True)
    Xc = np.column_stack([np.full(len(y), 2.5), X])
    counts = label_changes(Xc, y)
    assert counts[0] == counts.max() == 149  # 50/50/50 alternate everywhere
    scores = nlc(Xc, y)
    order = np.argsort(-scores, kind="stable")
    assert order[-1] == 0


def test_missing_values_are_left_out():
    x = np.array([1.0, np.nan, 2.0, np.nan, 3.0])
    y = np.array([0, 1, 0, 1, 1])
    # observed sequence 0 0 1 -> 1 change
    assert label_changes(x[:, None], y)[0] == 1


def test_nominal_projected_in_category_order():
    cats = pd.Categorical(["b", "a", "c", "a", "b", "c"], categories=["c", "a", "b"])
    y = np.array([1, 0, 2, 0, 1, 2])
    X = pd.DataFrame({"f": cats})
    # category order c, a, b -> labels 2 2 0 0 1 1 -> 2 changes
    assert label_changes(X, y)[0] == 2
    # a string column is nominal with sorted categories a, b, c -> 0 0 1 1 2 2 -> 2 changes
    Xs = pd.DataFrame({"f": ["b", "a", "c", "a", "b", "c"]})
    assert label_changes(Xs, y)[0] == 2


def test_dataframe_and_labels_of_any_type():
    X, y = load_iris(return_X_y=True, as_frame=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    assert label_changes(X, names).tolist() == [76, 113, 16, 14]


def test_does_not_modify_input():
    X, y = load_iris(return_X_y=True)
    X0 = X.copy()
    label_changes(X, y)
    np.testing.assert_array_equal(X, X0)



def test_a_feature_without_a_sequence_ranks_last():
    # all missing: no sequence, count 0 — the ranker must not put it first
    X = np.array([[1, np.nan, 3], [2, np.nan, 3], [3, np.nan, 3],
                  [4, np.nan, 3], [5, np.nan, 3], [6, np.nan, 3]], dtype=float)
    y = [0, 0, 0, 1, 1, 1]
    scores = nlc(X, y)
    assert scores[0] == -1.0  # perfect separator: one change
    assert scores[1] == -6.0  # below any reachable count (at most n - 1 = 5)
    assert np.argsort(-scores, kind="stable").tolist() == [0, 2, 1]
    # two observed values, both of class 0: no change at all, a score of +0.0 (not -0.0)
    zero = nlc(np.array([[1.0], [2.0], [np.nan], [np.nan]]), [0, 0, 1, 1])
    assert zero[0] == 0.0 and not np.signbit(zero[0])
