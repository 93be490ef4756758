"""Statistical tests of rankfusion.evaluation against scipy, Demšar (2006) and the papers."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from rankfusion import aggregate
from rankfusion.evaluation import (
    friedman,
    nemenyi,
    paired_ttest,
    robustness_index,
    rule_agreement,
    studentized_range_q,
    win_matrix,
)

# Demšar (2006), Table 6: AUC of C4.5 with and without m-tuning (+m) and cf-tuning (+cf) on 14
# UCI datasets. As printed, 'voting' ties C4.5+cf and C4.5+m+cf at 0.975; the paper's own
# average ranks (3.143, 2.000, 2.893, 1.964) and statistics (χ²_F = 9.28, F_F = 3.69) need
# C4.5+cf ahead there (the values were rounded for printing), so the hand-worked case uses
# 0.97501 for that one cell.
DEMSAR_METHODS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR_AUC = np.array([
    [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569], [0.954, 0.971, 0.968, 0.967],
    [0.628, 0.661, 0.654, 0.657], [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625], [0.775, 0.838, 0.866, 0.875],
    [1.000, 1.000, 1.000, 1.000], [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.975, 0.975], [0.957, 0.978, 0.946, 0.970],
])


def demsar_errors(unrounded_voting=True):
    auc = DEMSAR_AUC.copy()
    if unrounded_voting:
        auc[12, 2] = 0.97501
    return pd.DataFrame(1.0 - auc, columns=DEMSAR_METHODS)


# --------------------------------------------------------------------------- t-test
@pytest.mark.parametrize("seed", range(8))
def test_plain_ttest_equals_scipy_ttest_rel(seed):
    rng = np.random.default_rng(seed)
    j = int(rng.integers(2, 40))
    a = rng.uniform(0, 1, j)
    b = a + rng.normal(0.02, 0.05, j)
    for alt in ("two-sided", "less", "greater"):
        ours = paired_ttest(a, b, alternative=alt)
        ref = stats.ttest_rel(a, b, alternative=alt)
        assert ours.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
        assert ours.df == j - 1


def test_corrected_ttest_is_the_nadeau_bengio_formula():
    rng = np.random.default_rng(1)
    a, b = rng.uniform(0, 1, 30), rng.uniform(0, 1, 30)
    r = paired_ttest(a, b, corrected=True, n_train=300, n_test=100)
    d = a - b
    # transcription of Nadeau & Bengio (2003): var · (1/J + n2/n1), J − 1 dof
    t = d.mean() / np.sqrt((1 / 30 + 100 / 300) * np.var(d, ddof=1))
    assert r.statistic == pytest.approx(t, rel=1e-12)
    assert r.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 29), rel=1e-10)
    # the correction only widens the interval: never more significant than the plain test
    assert r.pvalue >= paired_ttest(a, b).pvalue


def test_ttest_identical_inputs_give_no_evidence_not_nan():
    r = paired_ttest([0.1, 0.2, 0.3], [0.1, 0.2, 0.3])
    assert (r.statistic, r.pvalue) == (0.0, 1.0)


def test_ttest_does_not_modify_inputs():
    a = np.array([0.1, 0.3, 0.2])
    b = np.array([0.2, 0.2, 0.4])
    paired_ttest(a, b)
    assert a.tolist() == [0.1, 0.3, 0.2] and b.tolist() == [0.2, 0.2, 0.4]


@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(a=[1.0], b=[2.0]), ValueError, "at least 2"),
    (dict(a=[1.0, 2.0], b=[1.0, 2.0, 3.0]), ValueError, "same length"),
    (dict(a=[1.0, np.nan], b=[1.0, 2.0]), ValueError, "finite"),
    (dict(a=[[1.0, 2.0]], b=[[1.0, 2.0]]), ValueError, "1-D"),
    (dict(a="abc", b=[1.0, 2.0]), TypeError, "a must"),
    (dict(a=[1.0, 2.0], b=["x", "y"]), TypeError, "b must"),
    (dict(a=[1.0, 2.0], b=[2.0, 1.0], corrected=True), ValueError, "n_train"),
    (dict(a=[1.0, 2.0], b=[2.0, 1.0], corrected=True, n_train=0, n_test=5), ValueError,
     "n_train"),
    (dict(a=[1.0, 2.0], b=[2.0, 1.0], corrected=True, n_train=5.5, n_test=5), TypeError,
     "n_train"),
    (dict(a=[1.0, 2.0], b=[2.0, 1.0], n_train=5, n_test=5), ValueError, "corrected=True"),
    (dict(a=[1.0, 2.0], b=[2.0, 1.0], corrected="yes"), TypeError, "corrected"),
    (dict(a=[1.0, 2.0], b=[2.0, 1.0], alternative="two"), ValueError, "alternative"),
])
def test_ttest_hostile_inputs(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        paired_ttest(**kwargs)


# --------------------------------------------------------------------------- Friedman
@pytest.mark.parametrize("seed", range(8))
def test_friedman_equals_scipy_friedmanchisquare(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(3, 20)), int(rng.integers(3, 7))
    errors = rng.integers(0, 5, size=(n, k)) / 10.0  # many ties
    errors[0] = np.arange(k) / 10.0  # not all tied
    ref = stats.friedmanchisquare(*errors.T)
    ours = friedman(errors)
    assert ours.statistic == pytest.approx(ref.statistic, rel=1e-10)
    assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-8)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(2, 6), st.integers(0, 2**31))
def test_friedman_statistic_matches_rank_form_and_range(n, k, seed):
    errors = np.random.default_rng(seed).normal(size=(n, k))
    r = friedman(errors, tie_correction=False)
    ranks = stats.rankdata(errors, axis=1)
    # equivalent textbook form: 12/(N k (k+1)) Σ_j S_j² − 3 N (k + 1), S_j the rank sums
    s = ranks.sum(axis=0)
    assert r.statistic == pytest.approx(12 / (n * k * (k + 1)) * (s**2).sum() - 3 * n * (k + 1),
                                        abs=1e-9)
    assert 0 <= r.statistic <= n * (k - 1) + 1e-9
    assert r.average_ranks.sum() == pytest.approx(k * (k + 1) / 2)


def test_demsar_worked_example_friedman_and_iman_davenport():
    r = friedman(demsar_errors(), tie_correction=False)
    assert r.average_ranks.round(3).tolist() == [3.143, 2.000, 2.893, 1.964]
    assert round(r.statistic, 2) == 9.28
    assert round(r.iman_davenport, 2) == 3.69
    # Demšar: F(3, 39) critical value at 0.05 is 2.85, so the null hypothesis is rejected
    assert r.iman_davenport_pvalue < 0.05
    assert stats.f.ppf(0.95, 3, 39) == pytest.approx(2.85, abs=0.005)


def test_demsar_table_as_printed_gives_the_tied_ranks():
    r = friedman(demsar_errors(unrounded_voting=False), tie_correction=False)
    # voting tied: C4.5+cf and C4.5+m+cf share 2.5 there instead of 2 and 3
    assert r.average_ranks.round(3).tolist() == [3.143, 2.000, 2.929, 1.929]


def test_friedman_all_ties_is_no_evidence():
    r = friedman(np.ones((4, 3)))
    assert (r.statistic, r.pvalue, r.iman_davenport, r.iman_davenport_pvalue) == (0, 1, 0, 1)


def test_friedman_perfect_agreement_gives_infinite_f():
    errors = np.tile(np.arange(4.0), (6, 1))
    r = friedman(errors)
    assert r.statistic == pytest.approx(6 * 3)
    assert r.iman_davenport == np.inf and r.iman_davenport_pvalue == 0.0


# --------------------------------------------------------------------------- Nemenyi
# Demšar (2006), Table 5(a): q_0.05 and q_0.10 for k = 2 … 10
DEMSAR_Q05 = [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]
DEMSAR_Q10 = [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]


@pytest.mark.parametrize("k", range(2, 11))
def test_q_alpha_equals_demsar_table_5(k):
    assert round(studentized_range_q(k, 0.05), 3) == pytest.approx(DEMSAR_Q05[k - 2], abs=1e-3)
    assert round(studentized_range_q(k, 0.10), 3) == pytest.approx(DEMSAR_Q10[k - 2], abs=1e-3)


def test_demsar_worked_example_nemenyi():
    r = nemenyi(demsar_errors(), alpha=0.05)
    assert round(r.q_alpha, 3) == 2.569
    assert round(r.critical_difference, 2) == 1.25
    # Demšar: C4.5+m+cf is significantly better than C4.5 (3.143 − 1.964 = 1.179 < 1.25? no):
    # "the data is not sufficient" to tell any pair apart at 0.05 except none; at 0.10 the
    # CD is 1.12 and C4.5+m+cf (and C4.5+m) differ from C4.5
    assert not r.significant.to_numpy().any()
    r10 = nemenyi(demsar_errors(), alpha=0.10)
    assert round(r10.critical_difference, 2) == 1.12
    sig = r10.significant
    assert sig.loc["C4.5", "C4.5+m+cf"] and sig.loc["C4.5", "C4.5+m"]
    assert sig.to_numpy().sum() == 4  # two pairs, symmetric
    assert (sig.to_numpy() == sig.to_numpy().T).all()


def test_nemenyi_pvalues_agree_with_the_critical_difference():
    rng = np.random.default_rng(3)
    errors = rng.normal(size=(30, 5)) + np.arange(5) * 0.4
    r = nemenyi(errors, alpha=0.05)
    off = ~np.eye(5, dtype=bool)
    assert ((r.pvalues.to_numpy() <= 0.05) == r.significant.to_numpy())[off].all()


@pytest.mark.parametrize("func", [friedman, nemenyi])
@pytest.mark.parametrize("errors, exc, match", [
    (np.ones((1, 3)), ValueError, "at least 2 datasets"),
    (np.ones((3, 1)), ValueError, "at least 2 methods"),
    (np.ones(3), ValueError, "2-D"),
    (np.ones((2, 2, 2)), ValueError, "2-D"),
    (np.array([[1.0, np.nan], [1.0, 2.0]]), ValueError, "finite"),
    (np.array([[1.0, np.inf], [1.0, 2.0]]), ValueError, "finite"),
    (np.array([["a", "b"], ["c", "d"]]), TypeError, "real numbers"),
    (pd.DataFrame({"a": ["x", "y"], "b": [1.0, 2.0]}), TypeError, "column 'a'"),
    (pd.DataFrame([[1.0, 2.0], [2.0, 1.0]], columns=["a", "a"]), ValueError, "duplicate"),
    ("errors", TypeError, "2-D table"),
    (3.0, TypeError, "2-D table"),
])
def test_friedman_nemenyi_hostile_inputs(func, errors, exc, match):
    with pytest.raises(exc, match=match):
        func(errors)


@pytest.mark.parametrize("alpha, exc", [(0, ValueError), (1.0, ValueError), (-0.1, ValueError),
                                         ("0.05", TypeError), (True, TypeError)])
def test_nemenyi_hostile_alpha(alpha, exc):
    with pytest.raises(exc, match="alpha"):
        nemenyi(np.eye(3), alpha=alpha)


def test_statistics_do_not_modify_the_caller_table():
    df = demsar_errors()
    before = df.copy()
    friedman(df)
    nemenyi(df)
    robustness_index(df)
    pd.testing.assert_frame_equal(df, before)


# --------------------------------------------------------------------------- win matrix
def test_win_matrix_counts_significant_wins_by_hand():
    rng = np.random.default_rng(0)
    base = rng.uniform(0.2, 0.4, 50)
    noise = lambda: rng.normal(0, 0.01, 50)  # noqa: E731
    # dataset 1: A < B < C clearly; dataset 2: A < C, B = A (no shift)
    d1 = pd.DataFrame({"A": base + noise(), "B": base + 0.05 + noise(), "C": base + 0.1 + noise()})
    d2 = pd.DataFrame({"A": base + noise(), "B": base + noise(), "C": base + 0.1 + noise()})
    r = win_matrix({"d1": d1, "d2": d2})
    assert r.wins.loc["A"].tolist() == [0, 1, 2]
    assert r.wins.loc["B"].tolist() == [0, 0, 2]
    assert r.wins.loc["C"].tolist() == [0, 0, 0]
    assert r.net_wins.tolist() == [3, 1, -4]
    assert r.outperforms.tolist() == [2, 1, 0]
    assert r.ranking == ["A", "B", "C"]
    # a direct recount with scipy's paired test
    for name, tab in {"d1": d1, "d2": d2}.items():
        p = stats.ttest_rel(tab["A"], tab["B"]).pvalue
        assert (p < 0.05) == (name == "d1")


def test_win_matrix_array_form_and_corrected_is_more_conservative():
    rng = np.random.default_rng(5)
    arr = rng.normal(0, 0.05, size=(6, 20, 3)) + np.array([0.0, 0.02, 0.04])
    plain = win_matrix(arr)
    corr = win_matrix(arr, corrected=True, n_train=75, n_test=25)
    assert (corr.wins.to_numpy() <= plain.wins.to_numpy()).all()
    assert plain.n_datasets == 6
    assert (np.diag(plain.wins.to_numpy()) == 0).all()


@pytest.mark.parametrize("value, exc, match", [
    ({}, ValueError, "empty"),
    (np.ones((3, 4)), ValueError, "3-D"),
    (pd.DataFrame(np.ones((3, 2))), TypeError, "mapping"),
    ({"a": pd.DataFrame({"x": [1.0, 2.0], "y": [2.0, 1.0]}),
      "b": pd.DataFrame({"x": [1.0, 2.0], "z": [2.0, 1.0]})}, ValueError, "methods"),
    ({"a": np.ones((1, 3))}, ValueError, "at least 2 splits"),
    ({"a": np.array([[1.0, np.nan], [1.0, 2.0]])}, ValueError, "finite"),
])
def test_win_matrix_hostile_inputs(value, exc, match):
    with pytest.raises(exc, match=match):
        win_matrix(value)


# --------------------------------------------------------------------------- robustness
# The robust-FS paper's Table 3 (F-measure of Naive Bayes, J48, kNN, AdaBoost, Bagging; columns
# Kemeny, Borda, IG, SU, CS) and its Table 5 (robustness index, printed as dense ranks).
TECHNIQUES = ["Kemeny", "Borda", "InfoGain", "SymmetricU", "Chi Square"]
TABLE3 = {
    "AML": [[.67, .67, .64, .65, .64], [.69, .69, .64, .64, .64], [.63, .63, .60, .62, .60],
            [.69, .69, .63, .63, .63], [.69, .69, .63, .64, .63]],
    "Internet-Ads": [[.95, .95, .94, .94, .94], [.97, .97, .95, .95, .95],
                     [.97, .97, .95, .95, .95], [.92, .92, .91, .91, .91],
                     [.96, .96, .95, .95, .95]],
    "Leukemia-3c": [[.99, .99, .81, .73, .79], [.89, .89, .75, .51, .68],
                    [.96, .96, .63, .68, .61], [.90, .90, .71, .59, .63],
                    [.93, .93, .73, .70, .69]],
}
TABLE5 = {"AML": [1, 1, 3, 2, 3], "Internet-Ads": [1, 1, 2, 2, 2], "Leukemia-3c": [1, 1, 2, 3, 3]}


@pytest.mark.parametrize("dataset", sorted(TABLE3))
def test_robustness_index_reproduces_robust_fs_table_5(dataset):
    errors = 1.0 - pd.DataFrame(TABLE3[dataset], columns=TECHNIQUES,
                                index=["NB", "J48", "kNN", "AdaBoost", "Bagging"])
    r = robustness_index(errors)
    assert r.rank.tolist() == TABLE5[dataset]


def test_robustness_index_is_the_mean_of_per_classifier_ranks():
    errors = np.array([[0.1, 0.2, 0.3], [0.3, 0.2, 0.1], [0.1, 0.1, 0.5]])
    r = robustness_index(errors)
    # by hand: ranks (1,2,3), (3,2,1), (1.5,1.5,3)
    assert r.ranks.to_numpy().tolist() == [[1, 2, 3], [3, 2, 1], [1.5, 1.5, 3]]
    assert r.index.tolist() == pytest.approx([5.5 / 3, 5.5 / 3, 7 / 3])
    assert r.rank.tolist() == [1, 1, 2]


def test_robustness_index_single_classifier_and_bad_inputs():
    assert robustness_index([[0.3, 0.1, 0.2]]).rank.tolist() == [3, 1, 2]
    with pytest.raises(ValueError, match="at least 2 techniques"):
        robustness_index([[0.3], [0.2]])
    with pytest.raises(ValueError, match="at least 1 classifiers"):
        robustness_index(np.ones((0, 3)))


# --------------------------------------------------------------------------- agreement
def test_rule_agreement_against_direct_counts():
    scores = pd.DataFrame(np.random.default_rng(2).normal(size=(8, 4)),
                          index=[f"g{i}" for i in range(8)])
    rules = {m: aggregate(scores, m) for m in ("borda", "kfirst", "schulze")}
    r = rule_agreement(rules, k=3)
    orders = {m: c.top() for m, c in rules.items()}
    for a in rules:
        for b in rules:
            pos_a = {f: i for i, f in enumerate(orders[a])}
            pos_b = {f: i for i, f in enumerate(orders[b])}
            feats = orders[a]
            disc = sum((pos_a[x] - pos_a[y]) * (pos_b[x] - pos_b[y]) < 0
                       for i, x in enumerate(feats) for y in feats[i + 1:])
            assert r.kendall.loc[a, b] == pytest.approx(disc / 28)
            ta, tb = set(orders[a][:3]), set(orders[b][:3])
            assert r.jaccard.loc[a, b] == pytest.approx(len(ta & tb) / len(ta | tb))
    assert list(r.kendall.index) == ["borda", "kfirst", "schulze"]


def test_rule_agreement_reversed_orders_and_sequence_input():
    r = rule_agreement({"a": ["x", "y", "z"], "b": ["z", "y", "x"]}, k=1)
    assert r.kendall.loc["a", "b"] == 1.0 and r.jaccard.loc["a", "b"] == 0.0
    scores = np.random.default_rng(0).normal(size=(5, 3))
    seq = rule_agreement([aggregate(scores, "borda"), aggregate(scores, "median")], k=2)
    assert list(seq.jaccard.columns) == ["borda", "median"]


@pytest.mark.parametrize("value, k, exc, match", [
    ({"a": ["x", "y"]}, 1, ValueError, "at least 2"),
    ({"a": ["x", "y"], "b": ["x", "z"]}, 1, ValueError, "same 2 features"),
    ({"a": ["x", "y"], "b": ["x", "y", "z"]}, 1, ValueError, "same 2 features"),
    ({"a": ["x", "x"], "b": ["x", "y"]}, 1, ValueError, "repeats"),
    ({"a": ["x", "y"], "b": ["y", "x"]}, 3, ValueError, r"k must be an int in \[1, 2\]"),
    ({"a": ["x", "y"], "b": ["y", "x"]}, 0, ValueError, r"k must be an int in \[1, 2\]"),
    ({"a": ["x", "y"], "b": ["y", "x"]}, 1.5, TypeError, "k must be an int"),
    ({"a": "xy", "b": ["y", "x"]}, 1, TypeError, "Consensus or an order"),
    ([["x", "y"], ["y", "x"]], 1, TypeError, "Consensus objects"),
    ("ab", 1, TypeError, "mapping"),
])
def test_rule_agreement_hostile_inputs(value, k, exc, match):
    with pytest.raises(exc, match=match):
        rule_agreement(value, k)
