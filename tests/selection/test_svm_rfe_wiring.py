"""Where each setting of :func:`svm_rfe_rankings` and :class:`SVMRFE` goes: into the
per-problem and joint RFE runs, through the memo, into the rules' seeds and into the fitted
attributes (docs/design.md, 'SVM-RFE' and 'Seeds').

Two kinds of check sit side by side: a recording wrapper around the function a setting must
reach (so a setting dropped on the way, whose effect on one data set may be invisible, still
fails) and the numbers themselves, compared with a direct call of the lower layer.
"""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.exceptions import NotFittedError

import rankfusion.selection.svm_rfe as svm_rfe_module
from rankfusion import SVMRFE, aggregate
from rankfusion.rankers import joint_rfe, rfe_lists
from rankfusion.selection import choose_C, rfe_lists_memo, svm_rfe_rankings


def _three_classes():
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1, 2], [8, 12, 20])
    X = rng.normal(size=(40, 24)) + np.outer(y, np.linspace(1.0, 0.0, 24)) * 0.6
    return X, y


def _two_classes():
    rng = np.random.default_rng(2)
    y = np.repeat(["a", "b"], [9, 11])
    X = rng.normal(size=(20, 7)) + (y == "b")[:, None] * np.linspace(1.0, 0.0, 7)
    return X, y


def _rule_seed(random_state):
    """The rules' seed: the second of two child streams of ``random_state`` (design, 'Seeds'),
    as one 32-bit word; transcribed with numpy's own API."""
    child = np.random.SeedSequence(random_state).spawn(2)[1]
    return int(child.generate_state(1, dtype=np.uint32)[0])


def _liblinear_seed(random_state):
    child = np.random.SeedSequence(random_state).spawn(2)[0]
    return int(child.generate_state(1, dtype=np.uint32)[0])


class _Recorder:
    """Wraps a function, keeping the keyword arguments of each call."""

    def __init__(self, func):
        self.func, self.calls = func, []

    def __call__(self, *args, **kwargs):
        self.calls.append(kwargs)
        return self.func(*args, **kwargs)


@pytest.fixture
def recorded(monkeypatch):
    def wrap(name):
        rec = _Recorder(getattr(svm_rfe_module, name))
        monkeypatch.setattr(svm_rfe_module, name, rec)
        return rec
    return wrap


def _assert_same_weights(a, b):
    assert len(a) == len(b)
    for ra, rb in zip(a, b):
        np.testing.assert_array_equal(ra.ranking, rb.ranking)
        assert len(ra.weights) == len(rb.weights)
        for wa, wb in zip(ra.weights, rb.weights):
            np.testing.assert_array_equal(wa, wb)


def _weights_differ(a, b):
    return any(not np.array_equal(wa, wb)
               for ra, rb in zip(a, b) for wa, wb in zip(ra.weights, rb.weights))


# --------------------------------------------------------------- per-problem runs
@pytest.mark.parametrize("memo", [False, True], ids=["direct", "memo"])
def test_the_per_problem_runs_get_every_setting(recorded, memo):
    rec = recorded("rfe_lists")
    X, y = _three_classes()
    seen = []
    args = dict(decomposition="ova", C=0.3, step=2, step_until=9, class_weight="balanced",
                tol=1e-4, warm_start=True, n_jobs=2, feature_names=[f"g{j}" for j in range(24)],
                progress=seen.append)
    with rfe_lists_memo() if memo else _nothing():
        out = svm_rfe_rankings(X, y, ["borda"], **args)
    (call,) = rec.calls
    assert call == {**args, "estimator": None, "keep_weights": True}
    assert [r.name for r in seen] == ["0_vs_rest", "1_vs_rest", "2_vs_rest"]
    direct = rfe_lists(X, y, keep_weights=True, **{k: v for k, v in args.items()
                                                   if k != "progress"})
    _assert_same_weights(out.results, direct[1])
    cold = rfe_lists(X, y, keep_weights=True, **{k: v for k, v in args.items()
                                                 if k not in ("progress", "warm_start")})
    assert _weights_differ(out.results, cold[1]), "warm starts change nothing on these data"


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_the_memo_keeps_runs_apart_that_differ_in_decomposition_or_warm_start(recorded):
    rec = recorded("rfe_lists")
    X, y = _three_classes()
    with rfe_lists_memo():
        ovo = svm_rfe_rankings(X, y, ["borda"])
        ova = svm_rfe_rankings(X, y, ["borda"], decomposition="ova")
        warm = svm_rfe_rankings(X, y, ["borda"], warm_start=True)
        again = svm_rfe_rankings(X, y, ["borda"], warm_start=True, n_jobs=2,
                                 progress=lambda r: None)  # neither enters the key
    assert len(rec.calls) == 3
    assert again.lists is warm.lists
    assert ovo.lists.list_names.tolist() == ["0_vs_1", "0_vs_2", "1_vs_2"]
    assert ova.lists.list_names.tolist() == ["0_vs_rest", "1_vs_rest", "2_vs_rest"]
    _assert_same_weights(warm.results, rfe_lists(X, y, keep_weights=True, warm_start=True)[1])
    assert _weights_differ(warm.results, ovo.results)


def test_the_memo_keys_object_arrays_by_their_values(recorded):
    rec = recorded("rfe_lists")
    X, y = _three_classes()
    a = X.astype(object)
    b = X.astype(object)               # the same values in other objects: one run
    c = X.astype(object)
    c[0, 0] = X[0, 0] + 1.0            # one value differs: a run of its own
    with rfe_lists_memo():
        ra = svm_rfe_rankings(a, y, ["borda"])
        rb = svm_rfe_rankings(b, y, ["borda"])
        rc = svm_rfe_rankings(c, y, ["borda"])
    assert len(rec.calls) == 2
    assert rb.lists is ra.lists
    Xc = X.copy()
    Xc[0, 0] += 1.0
    _assert_same_weights(rc.results, rfe_lists(Xc, y, keep_weights=True)[1])
    assert _weights_differ(rc.results, ra.results)


# --------------------------------------------------------------- joint runs
def test_the_joint_average_run_gets_every_setting(recorded):
    from sklearn.linear_model import LogisticRegression

    rec = recorded("joint_rfe")
    X, y = _three_classes()
    est = LogisticRegression(C=0.5, max_iter=2000)
    args = dict(decomposition="ova", C=0.3, step=2, step_until=9, class_weight="balanced",
                tol=1e-4, warm_start=True, estimator=est)
    out = svm_rfe_rankings(X, y, ["average"], **args)
    (call,) = rec.calls
    assert call == {**args, "criterion": "average", "keep_weights": True}
    assert out.lists is None and out.results == [] and out.consensus == {"average": None}
    direct = joint_rfe(X, y, criterion="average", keep_weights=True, **args)
    _assert_same_weights([out.joint["average"]], [direct])
    np.testing.assert_array_equal(out.positions["average"], direct.ranking)
    own_svm = joint_rfe(X, y, criterion="average", keep_weights=True,
                        **{k: v for k, v in args.items() if k != "estimator"})
    assert not np.array_equal(own_svm.ranking, direct.ranking), "the estimator changes nothing"


def test_the_joint_average_run_with_the_built_in_svm_warm_started():
    X, y = _three_classes()
    out = svm_rfe_rankings(X, y, ["average"], warm_start=True, C=0.3)
    direct = joint_rfe(X, y, criterion="average", keep_weights=True, warm_start=True, C=0.3)
    cold = joint_rfe(X, y, criterion="average", keep_weights=True, C=0.3)
    _assert_same_weights([out.joint["average"]], [direct])
    assert _weights_differ([direct], [cold])


@pytest.mark.parametrize("C", [0.3, "cv"])
def test_msvm_rfe_runs_once_with_the_first_child_seed(C):
    X, y = _three_classes()
    out = svm_rfe_rankings(X, y, ["borda"], decomposition="crammer_singer", C=C,
                           random_state=11, cv=3)
    c = 0.3 if C == 0.3 else choose_C(X, y, cv=3)[0]
    direct = joint_rfe(X, y, criterion="crammer_singer", C=c, keep_weights=True,
                       random_state=_liblinear_seed(11))
    _assert_same_weights([out.joint["crammer_singer"]], [direct])
    other = joint_rfe(X, y, criterion="crammer_singer", C=c, keep_weights=True, random_state=0)
    assert _weights_differ([direct], [other]), "liblinear's seed changes nothing here"
    np.testing.assert_array_equal(out.positions["crammer_singer"], direct.ranking)
    assert list(out.positions) == ["crammer_singer"]
    assert out.consensus == {"crammer_singer": None}
    assert out.lists is None and out.results == [] and out.n_lists == 1
    assert type(out.C) is float and out.C == c
    if C == "cv":
        np.testing.assert_array_equal(out.C_cv_results["mean_test_score"],
                                      choose_C(X, y, cv=3)[1]["mean_test_score"])
    else:
        assert out.C_cv_results is None


# --------------------------------------------------------------- two classes
@pytest.mark.parametrize("decomposition", ["ovo", "ova", "crammer_singer", "weston_watkins"])
@pytest.mark.parametrize("methods", [["kfirst"], ["average"], ["average", "borda"]])
def test_two_classes_are_one_binary_problem_whatever_the_method(decomposition, methods):
    X, y = _two_classes()
    out = svm_rfe_rankings(X, y, methods, decomposition=decomposition, C=0.5)
    lists, results = rfe_lists(X, y, C=0.5)
    assert out.lists.list_names.tolist() == ["a_vs_b"]
    assert out.joint == {}
    assert out.consensus == {m: None for m in methods}
    for m in methods:
        np.testing.assert_array_equal(out.positions[m], results[0].ranking)
        assert out.positions[m] is not out.results[0].ranking  # a copy per method


def test_average_alone_computes_no_per_problem_lists_unless_asked(recorded):
    rec = recorded("rfe_lists")
    X, y = _three_classes()
    assert svm_rfe_rankings(X, y, ["average"]).lists is None
    assert rec.calls == []
    asked = svm_rfe_rankings(X, y, ["average"], problem_lists=True)
    assert asked.lists.n_lists == 3 and len(rec.calls) == 1


# --------------------------------------------------------------- rules and their seeds
@pytest.mark.parametrize("random_state", [0, 12345])
def test_random_rules_get_the_second_child_seed(random_state):
    X, y = _three_classes()
    out = svm_rfe_rankings(X, y, ["ga", "borda"], random_state=random_state)
    lists = rfe_lists(X, y)[0]
    direct = aggregate(lists, "ga", random_state=_rule_seed(random_state))
    np.testing.assert_array_equal(out.positions["ga"], direct.ranks)
    assert out.positions["ga"].dtype == np.int64
    assert out.positions["borda"].dtype == np.int64
    other = aggregate(lists, "ga", random_state=_rule_seed(random_state) + 1)
    assert not np.array_equal(other.ranks, direct.ranks), "the seed changes nothing here"


def test_a_seed_given_to_the_rule_wins_over_the_derived_one():
    X, y = _three_classes()
    lists = rfe_lists(X, y)[0]
    own = svm_rfe_rankings(X, y, ["ga"], random_state=0, rule_params={"ga": {"random_state": 7}})
    shared = svm_rfe_rankings(X, y, ["ga"], random_state=0,
                              aggregation_params={"random_state": 7})
    expected = aggregate(lists, "ga", random_state=7).ranks
    np.testing.assert_array_equal(own.positions["ga"], expected)
    np.testing.assert_array_equal(shared.positions["ga"], expected)
    assert not np.array_equal(expected, aggregate(lists, "ga", random_state=_rule_seed(0)).ranks)


# --------------------------------------------------------------- methods and parameters
#: The rules svm_rfe_rankings lists when refusing a name ("average" first, then the registry's).
_KNOWN = ("average, approval, average_sd, best_rank, borda, ce, combmnz, copeland, ga, kemeny, "
          "kfirst, mc1, mc2, mc3, mc4, mean_score, median, q3_sd, rra, rra_geom_mean, rra_mean, "
          "rra_median, rra_min, rrf, sav, schulze, seq_pav, seq_phragmen, stuart")

METHODS_HOSTILE = [
    ([], ValueError, "methods must name at least one aggregation rule or 'average'"),
    ((), ValueError, "methods must name at least one aggregation rule or 'average'"),
    (["kfirst", 3], TypeError, "aggregation must be a rule name, got 3"),
    ([None], TypeError, "aggregation must be a rule name, got None"),
    (["Borda"], ValueError, "unknown aggregation 'Borda'; did you mean 'borda'? known: "
     + _KNOWN),
    (["averge"], ValueError, "unknown aggregation 'averge'; did you mean 'average'? known: "
     + _KNOWN),
    (["condorcte"], ValueError, "unknown aggregation 'condorcte'; did you mean 'condorcet'? "
     "known: " + _KNOWN),
    (["zzzz"], ValueError, "unknown aggregation 'zzzz'; known: " + _KNOWN),
]


@pytest.mark.parametrize("methods, kind, message", METHODS_HOSTILE,
                         ids=[f"{i}" for i in range(len(METHODS_HOSTILE))])
def test_bad_methods_are_refused_with_their_message(recorded, methods, kind, message):
    rec = recorded("rfe_lists")
    X, y = _three_classes()
    with pytest.raises(kind) as err:
        svm_rfe_rankings(X, y, methods)
    assert str(err.value) == message
    assert rec.calls == []


def test_a_rule_alias_is_accepted_and_a_repeated_method_runs_once(recorded):
    rec = recorded("joint_rfe")
    X, y = _three_classes()
    out = svm_rfe_rankings(X, y, ["average", "condorcet", "average"])
    assert list(out.positions) == ["average", "condorcet"]
    assert len(rec.calls) == 1
    np.testing.assert_array_equal(out.positions["condorcet"],
                                  svm_rfe_rankings(X, y, "copeland").positions["copeland"])


def test_shared_parameters_are_ignored_when_only_average_is_asked():
    X, y = _three_classes()
    out = svm_rfe_rankings(X, y, ["average"], aggregation_params={"k": 3, "zz": 1})
    np.testing.assert_array_equal(out.positions["average"],
                                  svm_rfe_rankings(X, y, "average").positions["average"])


@pytest.mark.parametrize("args", [{"aggregation_params": {"k": 25}},
                                  {"rule_params": {"kfirst": {"k": 25}}},
                                  {"rule_params": {"kfirst": {"k": 0}}}])
def test_a_bad_k_fails_before_any_elimination(recorded, args):
    rec = recorded("rfe_lists")
    X, y = _three_classes()
    with pytest.raises(ValueError, match=r"^k[= ]"):
        svm_rfe_rankings(X, y, ["kfirst"], **args)
    assert rec.calls == []


# --------------------------------------------------------------- C by cross-validation
def test_choose_C_returns_floats_for_an_integer_grid():
    X, y = _three_classes()
    C, res = choose_C(X, y, grid=[1, 10, 100], cv=3)
    assert type(C) is float
    assert res["C"].dtype == np.float64
    np.testing.assert_array_equal(res["C"], [1.0, 10.0, 100.0])


def test_choose_C_keeps_small_class_warnings_to_itself():
    X, y = load_iris(return_X_y=True)
    X, y = X[:53], y[:53]   # three samples of class 1 for five folds: scikit-learn warns
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        C, res = choose_C(X, y)
    assert res["mean_test_score"].shape == (7,)


@pytest.mark.parametrize("cv, ok", [(2, True), (np.int64(3), True), (3.0, False), (1, False),
                                    (True, False), ("5", False)])
def test_choose_C_folds(cv, ok):
    X, y = _three_classes()
    if ok:
        C, res = choose_C(X, y, cv=cv)
        assert res["mean_test_score"].shape == (7,)
    else:
        with pytest.raises((TypeError, ValueError)) as err:
            choose_C(X, y, cv=cv)
        assert str(err.value) == f"cv must be an int ≥ 2, got {cv!r}"


def test_svm_rfe_rankings_chooses_C_on_five_folds_by_default(recorded):
    rec = recorded("choose_C")
    X, y = _three_classes()
    out = svm_rfe_rankings(X, y, ["borda"], C="cv", class_weight="balanced")
    (call,) = rec.calls
    assert call == {"cv": 5, "class_weight": "balanced"}
    assert out.C == choose_C(X, y, class_weight="balanced")[0]


@pytest.mark.parametrize("tol", [-1.0, 0, True, float("inf"), "0.1"])
def test_a_bad_tol_fails_before_C_is_chosen(recorded, tol):
    rec = recorded("choose_C")
    X, y = _three_classes()
    for run in (lambda: svm_rfe_rankings(X, y, ["borda"], C="cv", tol=tol),
                lambda: SVMRFE(C="cv", tol=tol).fit(X, y)):
        with pytest.raises((TypeError, ValueError)) as err:
            run()
        assert str(err.value) == f"tol must be a number > 0, got {tol!r}"
    assert rec.calls == []


# --------------------------------------------------------------- the selector
def test_the_selector_passes_every_setting_to_svm_rfe_rankings(recorded):
    import pandas as pd

    rec = recorded("svm_rfe_rankings")
    X, y = _three_classes()
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(24)])
    sel = SVMRFE(decomposition="ova", aggregation="ga", C=0.3, step=2, step_until=9,
                 class_weight="balanced", tol=1e-4, warm_start=True, n_jobs=2,
                 aggregation_params={"population": 20}, random_state=5).fit(frame, y)
    (call,) = rec.calls
    assert call == dict(decomposition="ova", criterion="binary", C=0.3, step=2, step_until=9,
                        estimator=None, class_weight="balanced", tol=1e-4, warm_start=True,
                        n_jobs=2,
                        aggregation_params={"population": 20}, random_state=5,
                        feature_names=list(frame.columns), progress=None)
    direct = svm_rfe_rankings(X, y, ["ga"], **{k: v for k, v in call.items()})
    np.testing.assert_array_equal(sel.positions_, direct.positions["ga"])
    _assert_same_weights(sel.rfe_results_, direct.results)


def test_one_seed_per_fit_reaches_the_full_ranking_and_every_fold(recorded):
    rec = recorded("svm_rfe_rankings")
    X, y = _three_classes()
    rng = np.random.default_rng(3)
    sel = SVMRFE(aggregation="ga", n_features_to_select="cv", cv=3, step=4,
                 random_state=rng).fit(X, y)
    seeds = {call["random_state"] for call in rec.calls}
    assert len(rec.calls) == 4 and len(seeds) == 1
    (seed,) = seeds
    assert isinstance(seed, int)
    assert [call["feature_names"] for call in rec.calls] == [[f"x{j}" for j in range(24)]] + \
        [None] * 3
    again = SVMRFE(aggregation="ga", step=4, random_state=seed).fit(X, y)
    np.testing.assert_array_equal(sel.positions_, again.positions_)
    rec.calls.clear()
    SVMRFE(aggregation="ga", random_state=seed).fit(X, y)
    assert rec.calls[0]["random_state"] == seed   # an int in [0, 2**32) is kept as it is


def test_two_fits_with_the_same_int_seed_agree_and_other_seeds_differ():
    X, y = _three_classes()
    a = SVMRFE(aggregation="ga", random_state=4).fit(X, y).positions_
    b = SVMRFE(aggregation="ga", random_state=4).fit(X, y).positions_
    c = SVMRFE(aggregation="ga", random_state=5).fit(X, y).positions_
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.fixture
def tqdm_thread_lock():
    """tqdm's default lock holds a multiprocessing semaphore, shared by forked processes; a
    process killed while holding it (mutation testing forks one per mutant) would block every
    later bar. A thread lock of this process's own is enough for these tests."""
    import threading

    from tqdm.auto import tqdm

    old = tqdm.get_lock()
    tqdm.set_lock(threading.RLock())
    yield
    tqdm.set_lock(old)


@pytest.mark.parametrize("decomposition, total", [("ovo", 3), ("ova", 3)])
def test_the_progress_bar_counts_the_binary_problems(capsys, tqdm_thread_lock, decomposition,
                                                     total):
    X, y = load_iris(return_X_y=True)
    SVMRFE(decomposition=decomposition, verbose=True).fit(X, y)
    err = capsys.readouterr().err
    assert "SVM-RFE: 100%" in err and f"| {total}/{total} [" in err and "problem/s]" in err
    SVMRFE(decomposition=decomposition, verbose=True).fit(X[:100], y[:100])
    assert "| 1/1 [" in capsys.readouterr().err    # two classes: one binary problem
    SVMRFE(verbose=True, decomposition="weston_watkins").fit(*_three_classes())
    assert capsys.readouterr().err == ""    # one joint run: no bar over problems


def test_the_joint_run_becomes_one_list_of_ordinal_positions():
    X, y = _three_classes()
    sel = SVMRFE(decomposition="weston_watkins").fit(X, y)
    (res,) = sel.rfe_results_
    assert sel.lists_.ties == "ordinal"
    assert sel.lists_.list_names.tolist() == ["weston_watkins"]
    assert sel.lists_.scores.dtype == np.float64
    np.testing.assert_array_equal(sel.lists_.scores[:, 0], 24 - res.ranking)


def test_C_by_cv_uses_the_selector_folds_and_class_weights():
    X, y = _three_classes()
    sel = SVMRFE(C="cv", cv=3, class_weight="balanced").fit(X, y)
    C, res = choose_C(X, y, cv=3, class_weight="balanced")
    assert sel.C_ == C
    np.testing.assert_array_equal(sel.C_cv_results_["mean_test_score"], res["mean_test_score"])
    for other in (choose_C(X, y, cv=3)[1], choose_C(X, y, class_weight="balanced")[1]):
        assert not np.array_equal(other["mean_test_score"], res["mean_test_score"])


def test_a_refit_drops_the_search_results_of_the_earlier_fit():
    X, y = _three_classes()
    sel = SVMRFE(C="cv", n_features_to_select="cv", cv=3, step=6).fit(X, y)
    assert hasattr(sel, "C_cv_results_") and hasattr(sel, "cv_results_")
    sel.set_params(C=1.0, n_features_to_select=3).fit(X, y)
    assert not hasattr(sel, "C_cv_results_") and not hasattr(sel, "cv_results_")
    assert sel.C_ == 1.0


def test_ranking_follows_scikit_learn_rfe():
    X, y = load_iris(return_X_y=True)
    sel = SVMRFE(n_features_to_select=2).fit(X, y)
    np.testing.assert_array_equal(sel.positions_, [4, 3, 1, 2])
    np.testing.assert_array_equal(sel.ranking_, [3, 2, 1, 1])
    assert sel.ranking_.dtype == np.int64
    X2, y2 = _three_classes()
    for k in (1, 5, 24):
        sel = SVMRFE(n_features_to_select=k).fit(X2, y2)
        expected = np.where(sel.positions_ <= k, 1, sel.positions_ - k + 1)
        np.testing.assert_array_equal(sel.ranking_, expected)
        assert sorted(sel.ranking_) == [1] * k + list(range(2, 24 - k + 2))


def test_two_samples_are_enough_and_one_is_not():
    X = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 2.5]])
    sel = SVMRFE(n_features_to_select=1).fit(X, [0, 1])
    assert sel.get_support().sum() == 1
    with pytest.raises(ValueError) as err:
        SVMRFE().fit(X[:1], [0])
    assert str(err.value) == ("Found array with 1 sample(s) (shape=(1, 3)) while a minimum of 2 "
                              "is required by SVMRFE.")


def test_a_failed_fit_leaves_the_selector_unfitted():
    X, y = _three_classes()
    sel = SVMRFE()
    with pytest.raises(ValueError, match="needs at least 2 classes"):
        sel.fit(X, np.zeros(40))
    with pytest.raises(NotFittedError):
        sel.transform(X)


def test_the_size_search_keeps_small_class_warnings_to_itself():
    X, y = load_iris(return_X_y=True)
    X, y = X[:53], y[:53]   # three samples of class 1 for five folds: scikit-learn warns
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sel = SVMRFE(n_features_to_select="cv").fit(X, y)
    np.testing.assert_array_equal(sel.cv_results_["n_features"], [4, 3, 2, 1])


def test_the_memo_keys_long_name_arrays_by_every_name(recorded):
    # numpy prints a long array with '...': the key must see every name
    rec = recorded("rfe_lists")
    rng = np.random.default_rng(4)
    y = np.repeat([0, 1, 2], 10)
    X = rng.normal(size=(30, 1200)) + y[:, None] * 0.01
    a = np.array([f"f{j}" for j in range(1200)])
    b = a.copy()
    b[600] = "other"
    with rfe_lists_memo():
        ra = svm_rfe_rankings(X, y, ["borda"], feature_names=a, step=0.5)
        rb = svm_rfe_rankings(X, y, ["borda"], feature_names=b, step=0.5)
    assert len(rec.calls) == 2
    assert list(ra.lists.features) == list(a) and list(rb.lists.features) == list(b)


def test_rankings_repr_is_one_line_not_every_weight():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    text = repr(svm_rfe_rankings(X, y, ["kfirst", "average"]))
    assert text == ("SVMRFERankings(methods=['kfirst', 'average'], 4 features, 3 per-problem "
                    "lists, joint=['average'], C=1)")
