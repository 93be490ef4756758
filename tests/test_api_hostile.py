"""Hostile inputs through the Python API: aggregate, RankedLists.from_orders, the rankers,
standardize (docs/design.md, 'Inputs', 'Validation').

Each case states the exact outcome. Oracles: the same computation on unscaled data (for the
methods that are invariant to a feature's scale), the same weights at an ordinary scale, and
the lists written out by hand.
"""

import warnings

import numpy as np
import pandas as pd
import pytest

from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import available_rules, get_rule
from rankfusion.io import standardize
from rankfusion.rankers import available_rankers, rank_features, ranker_tasks

SEEDED = {"ce", "ga", "kemeny"}
WEIGHTED = [m for m in available_rules() if get_rule(m).weights]


def _kw(method):
    return {"random_state": 0} if method in SEEDED else {}


# --------------------------------------------------------------------------- aggregate
def test_duplicate_list_names_in_a_dataframe_are_a_clear_error():
    frame = pd.DataFrame([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], columns=["L", "L"])
    with pytest.raises(ValueError, match=r"column name 'L' twice \(columns 0 and 1"):
        aggregate(frame, "borda")


def test_duplicate_feature_names_in_the_index_are_a_clear_error():
    frame = pd.DataFrame({"A": [1.0, 2.0], "B": [2.0, 1.0]}, index=["g", "g"])
    with pytest.raises(ValueError, match=r"features must be unique: 'g'"):
        aggregate(frame, "borda")


@pytest.mark.parametrize("method", WEIGHTED)
def test_huge_weights_give_finite_scores_and_the_order_of_their_ratios(method):
    scores = np.random.default_rng(0).random((6, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow RuntimeWarning either
        huge = aggregate(scores, method, weights=[1e308, 1e308, 1], **_kw(method))
    ordinary = aggregate(scores, method, weights=[1.0, 1.0, 1e-308], **_kw(method))
    assert np.isfinite(np.asarray(huge.scores, dtype=float)).all()
    np.testing.assert_array_equal(huge.order, ordinary.order)


@pytest.mark.parametrize("method", ["borda", "mean_score", "rrf", "copeland"])
def test_tiny_weights_give_finite_scores(method):
    scores = np.random.default_rng(1).random((5, 2))
    res = aggregate(scores, method, weights=[5e-324, 1e-300])
    assert np.isfinite(np.asarray(res.scores, dtype=float)).all()
    np.testing.assert_array_equal(res.order, aggregate(scores, method, weights=[0, 1]).order)


@pytest.mark.parametrize("weights, match", [
    ([np.inf, 1, 1], "finite"), ([np.nan, 1, 1], "finite"), ([-1, 1, 1], "non-negative"),
    ([0, 0, 0], "not all be zero"), ([1, 1], "one weight per list"), ("1,1,1", "string"),
])
def test_bad_weights(weights, match):
    with pytest.raises((ValueError, TypeError), match=match):
        aggregate(np.eye(3), "borda", weights=weights)


@pytest.mark.parametrize("method", available_rules())
def test_scores_at_the_float_limit_give_finite_consensus_scores(method):
    big = np.finfo(np.float64).max
    scores = np.array([[big, big, big], [1.0, 2.0, 3.0], [-big, 5.0, -big], [4.0, -3.0, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = aggregate(scores, method, **_kw(method))
    assert np.isfinite(np.asarray(res.scores, dtype=float)).all()
    assert res.order[0] == 0  # best in every list


@pytest.mark.parametrize("normalize", [None, "minmax", "rank"])
def test_mean_score_at_the_float_limit(normalize):
    big = np.finfo(np.float64).max
    res = aggregate(np.array([[big, big], [1.0, 2.0], [-big, -big]]), "mean_score",
                    normalize=normalize)
    np.testing.assert_array_equal(res.order, [0, 1, 2])
    assert np.isfinite(res.scores).all()
    if normalize is None:
        assert res.scores[0] == big and res.scores[2] == -big  # the exact means


# --------------------------------------------------------------------------- from_orders
def test_empty_cells_of_an_orders_frame_end_the_lists():
    frame = pd.DataFrame([["a", "b", pd.NA], ["b", "", None], ["c", np.nan, np.nan]],
                         index=["x", "y", "z"])
    lists = RankedLists.from_orders(frame)
    assert lists.features.tolist() == ["a", "b", "c"]  # no '' or <NA> feature
    assert lists.orders() == [["a", "b"], ["b"], ["c"]]


@pytest.mark.parametrize("orders, match", [
    (pd.DataFrame([["a", pd.NA, "c"]]), r"empty cell at position 2 is followed by 'c'"),
    (pd.DataFrame([["a", "", "c"]], index=["x"]), r"orders row 'x': an empty cell"),
    ([["a", None]], r"orders\[0\] holds a missing feature name \(None\) at position 2"),
    ([["a", ""]], r"missing feature name \(''\)"),
    ([["a", "  "]], r"missing feature name \('  '\)"),
    ([["a"], [np.nan, "b"]], r"orders\[1\] holds a missing feature name \(nan\) at position 1"),
    ([["a", pd.NA]], r"missing feature name \(<NA>\)"),
    ([[1, "1"]], r"features 1 and '1', which differ only by type"),
    ([["a", "a"]], r"names feature 'a' twice"),
    ([[]], r"orders\[0\] is empty"),
    ([], r"at least one list"),
])
def test_from_orders_hostile(orders, match):
    with pytest.raises(ValueError, match=match):
        RankedLists.from_orders(orders)


# --------------------------------------------------------------------------- rankers
def _data():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 30)
    X = np.column_stack([y + rng.normal(0, 0.6, 60), rng.normal(0, 1, 60),
                         2 * y + rng.normal(0, 1.5, 60), rng.uniform(0, 1, 60)])
    return np.abs(X) + 0.01, y  # non-negative, for chi2


_PARAMS = {"mutual_info_classif": {"random_state": 0}, "random_forest": {"random_state": 0},
           "relieff": {}, "relief": {}}
SCALE_INVARIANT = [r for r in available_rankers()
                   if r != "svm_rfe" and "classification" in ranker_tasks(r)]


@pytest.mark.parametrize("scale", [1e-200, 1e160, 1e-300, 1e300, "mixed"])
@pytest.mark.parametrize("ranker", SCALE_INVARIANT)
def test_extreme_feature_scales_give_the_same_ranking(ranker, scale):
    X, y = _data()
    factor = np.array([1e-200, 1e160, 1.0, 1e-30]) if scale == "mixed" else scale
    params = _PARAMS.get(ranker, {})
    base = rank_features(X, y, [(ranker, params)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        scaled = rank_features(X * factor, y, [(ranker, params)])
    s = scaled.scores[:, 0]
    assert np.isfinite(s).all()
    if ranker == "chi2" and scale == "mixed":
        # chi2 grows with a feature's scale (chi2(c·x) = c·chi2(x)): the order follows it
        np.testing.assert_allclose(s / base.scores[:, 0], factor, rtol=1e-9)
    else:
        np.testing.assert_array_equal(scaled.positions, base.positions)


@pytest.mark.parametrize("scale", [1e-200, 1e160])
def test_svm_rfe_at_an_extreme_scale_says_to_standardize(scale):
    X, y = _data()
    with pytest.raises(ValueError, match=r"feature 0 reaches .*z-score the features first"):
        rank_features(X * scale, y, ["svm_rfe"])
    ok = rank_features(standardize(X * scale), y, ["svm_rfe"])
    assert np.isfinite(ok.scores).all()


@pytest.mark.parametrize("scale", [1e-200, 1e160, 1e300])
def test_standardize_at_extreme_scales(scale):
    X, _ = _data()
    np.testing.assert_allclose(standardize(X * scale), standardize(X), atol=1e-12)


@pytest.mark.parametrize("ranker", ["info_gain", "relieff", "f_classif", "nlc"])
def test_duplicate_feature_names_refused_by_rankers(ranker):
    X = pd.DataFrame([[1.0, 2.0], [2.0, 1.0], [3.0, 0.0], [4.0, 1.0]], columns=["g", "g"])
    with pytest.raises(ValueError, match=r"column name 'g' twice"):
        rank_features(X, [0, 0, 1, 1], [ranker])


def test_a_number_column_with_a_text_cell_is_refused_by_rankers():
    X = pd.DataFrame({"g": [1.5, "NA", 2.5, 3.5], "h": [1.0, 2.0, 3.0, 4.0]})
    with pytest.raises(TypeError, match=r"X column 'g' mixes numbers and other values "
                                        r"\(row 1 holds 'NA'\)"):
        rank_features(X, [0, 0, 1, 1], ["info_gain"])


def test_caller_data_untouched_by_rescaling():
    X, y = _data()
    X = X * 1e-200
    before = X.copy()
    rank_features(X, y, ["ilfs", "relieff", "f_classif"])
    np.testing.assert_array_equal(X, before)


# --------------------------------------------------------------------------- sizes
@pytest.mark.parametrize("method", ["copeland", "schulze", "kemeny"])
def test_pairwise_rules_at_p_200000_refuse_with_the_estimate(method, monkeypatch):
    monkeypatch.setenv("RANKFUSION_MAX_MEMORY", "8GiB")
    lists = RankedLists.from_scores(np.random.default_rng(0).random((200_000, 3)))
    with pytest.raises(ValueError, match=rf"{method} on p = 200,000 features needs about "
                                         r"[\d.]+ GiB.*candidates=.*statistics rule"):
        aggregate(lists, method)


# --------------------------------------------------------------------------- numbers as text
def _strings_cases():
    from rankfusion import rankers
    from rankfusion.evaluation import friedman, paired_ttest
    from rankfusion.stability import asd

    text = np.array([["1", "2"], ["3", "4"], ["0.5", "9"]], dtype=object)
    return [
        ("from_scores", lambda: RankedLists.from_scores(text), TypeError,
         "scores must hold real numbers, got '1' (scores, higher = better). Orders of feature "
         "names go through RankedLists.from_orders"),
        ("from_scores bool", lambda: RankedLists.from_scores(
            np.array([[1.0, True], [2.0, 3.0]], dtype=object)), TypeError,
         "scores must hold real numbers, got True (scores, higher = better). Orders of feature "
         "names go through RankedLists.from_orders"),
        ("asd", lambda: asd(text), TypeError, "scores must hold real numbers, got '1'"),
        ("friedman", lambda: friedman(text), TypeError,
         "errors must hold real numbers, got '1'"),
        ("paired_ttest", lambda: paired_ttest(np.array(["1", "2", "3"]), [1, 2, 4]), TypeError,
         "a must hold real numbers, got dtype <U1"),
        ("rra top_cutoff", lambda: aggregate(np.random.default_rng(0).random((4, 3)), "rra",
                                             top_cutoff=["1", "1", "1"]), TypeError,
         "top_cutoff must be None or a sequence of fractions in (0, 1], one per list, got "
         "['1', '1', '1']"),
        ("rra top_cutoff 2-D", lambda: aggregate(np.random.default_rng(0).random((4, 2)), "rra",
                                                 top_cutoff=[[0.5, 0.5]]), TypeError,
         "top_cutoff must be None or a sequence of fractions in (0, 1], one per list, got "
         "[[0.5, 0.5]]"),
        ("ranker X", lambda: rankers.relieff(text, [0, 1, 0]), TypeError,
         "X must hold real numbers, got '1'; pass a DataFrame with categorical columns for "
         "nominal attributes"),
        ("ranker complex column", lambda: rankers.relieff(
            pd.DataFrame({"a": [1 + 1j, 2, 3], "b": [1.0, 2.0, 3.0]}), [0, 1, 0]), TypeError,
         "X column 'a' holds complex numbers; features must be real"),
        ("infinite label", lambda: rankers.info_gain(
            np.random.default_rng(0).random((6, 2)), [0, 1, 0, 1, 0, np.inf]), ValueError,
         "y has an infinite label at sample 5; labels name classes"),
        ("infinite label, object", lambda: rankers.info_gain(
            np.random.default_rng(0).random((4, 2)), np.array(["a", "b", "a", float("-inf")],
                                                              dtype=object)), ValueError,
         "y has an infinite label at sample 3; labels name classes"),
    ]


@pytest.mark.parametrize("case", range(11))
def test_numbers_written_as_text_bools_and_infinite_labels_are_refused(case):
    what, call, kind, message = _strings_cases()[case]
    with pytest.raises(kind) as err:
        call()
    assert str(err.value) == message, what


def test_none_in_an_object_array_of_scores_is_a_missing_value():
    scores = np.array([[1, 2.5], [None, 3]], dtype=object)
    with pytest.raises(ValueError, match="scores must be finite; found NaN at feature 1, list 0"):
        RankedLists.from_scores(scores)
    L = RankedLists.from_scores(np.array([[1, 2.5], [np.int64(4), 3]], dtype=object))
    np.testing.assert_array_equal(L.to_frame("scores").to_numpy(), [[1.0, 2.5], [4.0, 3.0]])


# --------------------------------------------------------------------------- selectors
def _selector_data():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 5))
    y = np.repeat(np.array(["a", "b"]), 20)
    return X, y


def _with_empty_columns(X, cols=(1, 3)):
    X = X.copy()
    X[:, list(cols)] = np.nan
    return X


def _selector_cases():
    from rankfusion import EnsembleSelector, StabilitySelector

    X, y = _selector_data()
    few = np.r_[np.repeat("a", 37), np.repeat("b", 3)]
    frame = pd.DataFrame(_with_empty_columns(X), columns=list("abcde"))
    return [
        # columns with no value: named, before any work (not scikit-learn's imputer/scaler)
        (lambda: StabilitySelector(n_subsamples=10).fit(_with_empty_columns(X), y), ValueError,
         r"X: 2 columns 'x1', 'x3' hold no value \(every entry is missing\)"),
        (lambda: StabilitySelector(n_subsamples=10).fit(frame, y), ValueError,
         r"columns 'b', 'd' hold no value.*X\.drop\(columns=\['b', 'd'\]\)"),
        (lambda: EnsembleSelector(n_features_to_select=2).fit(frame, y), ValueError,
         r"columns 'b', 'd' hold no value"),
        (lambda: EnsembleSelector(rankers=["f_regression", "pearson"], n_features_to_select=2,
                                  task="regression").fit(frame, np.arange(40.0)), ValueError,
         r"columns 'b', 'd' hold no value"),
        # missing values a ranker cannot take: the rankers and the way out, not sklearn's text
        (lambda: StabilitySelector(n_subsamples=10).fit(
            np.where(np.arange(5) == 0, np.r_[np.nan, np.ones(39)][:, None], X), y),
         ValueError, r"X holds missing values \(NaN\), which the ranker\(s\) f_classif"),
        # two of q / threshold / pfer, q ≤ p: refused before the data are looked at
        (lambda: StabilitySelector(q=2, threshold=0.8, pfer=1).fit("not data", y), ValueError,
         "give two of q, threshold and pfer"),
        (lambda: StabilitySelector(q=6).fit(X, y), ValueError,
         r"q=6 exceeds the number of features \(5\)"),
        (lambda: EnsembleSelector(n_features_to_select="stability:q=6").fit(X, y), ValueError,
         r"n_features_to_select='stability:q=6': q=6 exceeds the number of features \(5\)"),
        (lambda: EnsembleSelector(n_features_to_select="stability:q=2,threshold=0.8,pfer=1")
         .fit(X, y), ValueError, "not all three"),
        # too few samples of a class for the size search's folds: before the consensus
        (lambda: EnsembleSelector(n_features_to_select="k-step", cv=5).fit(X, few), ValueError,
         r"cv=5 stratified folds need at least 5 samples of every class; the smallest class "
         r"has 3"),
        (lambda: EnsembleSelector().fit(X, np.zeros(40, dtype=np.int64)), ValueError,
         r"one class only \(0\)"),
    ]


@pytest.mark.parametrize("case", range(11))
def test_selectors_refuse_what_the_data_shape_decides(case, monkeypatch):
    from rankfusion.selection import ensemble as ensemble_module

    make, exc, match = _selector_cases()[case]

    def no_work(*args, **kwargs):  # the refusal comes before any ranking
        raise AssertionError("ranked before refusing")

    monkeypatch.setattr(ensemble_module.EnsembleSelector, "_consensus", no_work)
    with pytest.raises(exc, match=match):
        make()


# --------------------------------------------------------------------------- workflows
def _workflow_frame(**columns):
    X, y = _selector_data()
    frame = pd.DataFrame(X, columns=[f"f{j}" for j in range(5)]).assign(cls=y)
    return frame.assign(**columns)


@pytest.mark.parametrize("kwargs, frame, match", [
    ({}, {"f1": np.nan, "f3": np.nan},
     r"2 columns 'f1', 'f3' hold no value.*--drop f1,f3 on the command line, "
     r"drop=\['f1', 'f3'\] in Python"),
    ({}, {"cls": "a"}, r"the target 'cls' has one class only \('a'\)"),
    ({"subset": "9"}, {}, r"subset=9 exceeds the number of features \(5\)"),
    ({"subset": "k-step", "cv": 30}, {}, r"cv=30 \(--cv\) stratified folds of the k-step size "
                                          r"search need at least 30 samples of every class"),
    ({"rankers": "f_regression,pearson"}, {}, r"ranker 'f_regression' supports regression only"),
    ({"task": "classification"}, {"cls": np.linspace(0.5, 3.7, 40)},
     r'non-integer numbers.*task="classification": say task="regression"'),
    ({"target": "CLS"}, {}, r"target column 'CLS' not found; did you mean 'cls'\?"),
])
@pytest.mark.parametrize("dry_run", [True, False])
def test_run_selection_refuses_in_the_dry_run_and_before_the_fit(kwargs, frame, match,
                                                                 dry_run, monkeypatch):
    from rankfusion.selection import EnsembleSelector
    from rankfusion.workflows import run_selection

    def no_fit(*args, **kw):
        raise AssertionError("fitted before refusing")

    monkeypatch.setattr(EnsembleSelector, "fit", no_fit)
    with pytest.raises(ValueError, match=match):
        run_selection(_workflow_frame(**frame), dry_run=dry_run,
                      **{"target": "cls", "rankers": "info_gain,relieff", **kwargs})


def test_run_selection_dry_run_counts_the_work_and_does_none(monkeypatch):
    from rankfusion.selection import EnsembleSelector
    from rankfusion.workflows import run_selection

    monkeypatch.setattr(EnsembleSelector, "fit", lambda *a, **k: 1 / 0)
    run = run_selection(_workflow_frame(), "cls", rankers="info_gain,relieff",
                        n_bootstraps=3, dry_run=True)
    assert run.plan["n_samples"] == 40 and run.plan["n_features"] == 5
    assert run.plan["classes"] == 2 and run.plan["ranker calls"] == 2 * 3
    assert "dry run, nothing computed" in run.summary()
    with pytest.raises(ValueError, match="a dry run has no results to save"):
        run.save("somewhere")


@pytest.mark.parametrize("frame, kwargs, match", [
    ({"f1": np.nan}, {}, r"column 'f1' holds no value.*--drop f1 on the command line"),
    ({"cls": "a"}, {}, r"1 class"),
    ({}, {"sizes": "stability:q=6"}, r"q=6 exceeds the number of features \(5\)"),
    ({}, {"sizes": "stability:q=2,threshold=0.8,pfer=1"}, "not all three"),
    ({}, {"cv": 30}, r"smallest class \('a'\) has 20 samples.*lower cv"),
    ({"f0": 1.0, "f1": 1.0, "f2": 1.0, "f3": 1.0, "f4": 1.0}, {},
     "all features are constant.*nothing to select"),
    ({}, {"drop": "f1,f2,f3,f4"}, r"X has one feature \('f0'\): nothing to choose among"),
    ({"cls": np.linspace(0.5, 3.7, 40)}, {"task": "classification"},
     r'task="classification": say task="regression"'),
    ({"cls": np.linspace(0.5, 3.7, 40)}, {"rankers": "info_gain,relieff"},
     r"ranker 'info_gain' supports classification only.*regression under task='auto'.*"
     r"rankers= \(--rankers\)"),
])
def test_run_advice_dry_run_refuses_what_the_data_shape_decides(frame, kwargs, match):
    from rankfusion.workflows import run_advice

    with pytest.raises(ValueError, match=match):
        run_advice(_workflow_frame(**frame), "cls", dry_run=True, **kwargs)
