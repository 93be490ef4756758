"""rankfusion.SVMRFE: the scikit-learn selector of multiclass SVM-RFE with list combination."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.feature_selection import RFE
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC
from sklearn.utils.estimator_checks import check_estimator

from rankfusion import aggregate
from rankfusion.rankers import joint_rfe, rfe_lists
from rankfusion.selection import SVMRFE


def data(seed=0, n=120, p=20, c=4):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(c), n // c)
    X = rng.normal(size=(y.shape[0], p))
    for k in range(c):
        X[y == k, k] += 2.5
    return X, y


def test_passes_check_estimator():
    check_estimator(SVMRFE())


def test_check_estimator_other_configurations():
    check_estimator(SVMRFE(decomposition="ova", aggregation="schulze", n_features_to_select=2))
    check_estimator(SVMRFE(aggregation="average", step=1))


def test_ranking_is_the_aggregated_ovo_lists():
    X, y = data()
    sel = SVMRFE(n_features_to_select=4).fit(X, y)
    lists, _ = rfe_lists(X, y)
    assert sel.lists_ == lists
    np.testing.assert_array_equal(sel.positions_, aggregate(lists, "kfirst").ranks)
    assert sel.support_.sum() == 4 and sel.n_features_ == 4
    assert set(np.flatnonzero(sel.support_)) == {0, 1, 2, 3}
    assert list(sel.lists_.list_names) == ["0_vs_1", "0_vs_2", "0_vs_3", "1_vs_2", "1_vs_3",
                                           "2_vs_3"]
    assert len(sel.rfe_results_) == 6 and sel.consensus_.method == "kfirst"
    assert sel.transform(X).shape == (X.shape[0], 4)


@pytest.mark.parametrize("rule", ["schulze", "copeland", "borda", "best_rank", "q3_sd"])
def test_any_rule(rule):
    X, y = data(1)
    sel = SVMRFE(aggregation=rule).fit(X, y)
    lists, _ = rfe_lists(X, y)
    np.testing.assert_array_equal(sel.positions_, aggregate(lists, rule).ranks)


def test_aggregation_params_reach_the_rule():
    X, y = data(2)
    sel = SVMRFE(aggregation_params={"k": 3}).fit(X, y)
    assert sel.consensus_.params == {"k": 3}
    with pytest.raises(TypeError, match="unknown parameter"):
        SVMRFE(aggregation_params={"kk": 3}).fit(X, y)


def test_average_is_the_joint_rfe():
    X, y = data(3)
    sel = SVMRFE(aggregation="average").fit(X, y)
    np.testing.assert_array_equal(sel.positions_, joint_rfe(X, y, criterion="average").ranking)
    assert list(sel.lists_.list_names) == ["average"] and sel.consensus_ is None


def test_msvm_decompositions():
    X, y = data(4)
    for dec in ("crammer_singer", "weston_watkins"):
        sel = SVMRFE(decomposition=dec, n_features_to_select=4).fit(X, y)
        assert set(np.flatnonzero(sel.support_)) == {0, 1, 2, 3}
        assert list(sel.lists_.list_names) == [dec]


def test_binary_data_uses_the_single_ranking_as_is():
    X, y = data(5, c=2, n=80)
    ref = RFE(SVC(kernel="linear", C=0.5), n_features_to_select=1, step=1).fit(X, y).ranking_
    for agg in ("kfirst", "schulze", "average"):
        sel = SVMRFE(aggregation=agg, step=1, C=0.5).fit(X, y)
        np.testing.assert_array_equal(sel.positions_, ref)
        assert sel.lists_.n_lists == 1


def test_n_features_to_select_forms():
    X, y = data(6)
    assert SVMRFE().fit(X, y).n_features_ == 10  # half, as sklearn's RFE
    assert SVMRFE(n_features_to_select=0.25).fit(X, y).n_features_ == 5
    assert SVMRFE(n_features_to_select=100).fit(X, y).n_features_ == 20
    for bad in (0, 1.5, "all", True):
        with pytest.raises((ValueError, TypeError)):
            SVMRFE(n_features_to_select=bad).fit(X, y)


def test_cv_picks_the_size_like_rfecv():
    X, y = data(7, n=100, p=12)
    sel = SVMRFE(n_features_to_select="cv", cv=3).fit(X, y)
    res = sel.cv_results_
    assert res["n_features"][0] == 12 and res["n_features"][-1] == 1
    assert {"mean_test_score", "std_test_score", "split0_test_score",
            "split2_test_score"} <= set(res)
    best = res["mean_test_score"].max()
    assert sel.n_features_ == res["n_features"][np.isclose(res["mean_test_score"], best)].min()
    assert sel.n_features_ >= 3  # four informative features; one is not enough


def test_C_cv_chooses_from_the_grid():
    X, y = data(8, n=80, p=8)
    sel = SVMRFE(C="cv", cv=3).fit(X, y)
    assert sel.C_ in sel.C_cv_results_["C"]
    assert sel.C_cv_results_["C"].tolist() == [1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1000.0]


def test_feature_names_flow_through():
    X, y = data(9)
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(X.shape[1])])
    sel = SVMRFE(n_features_to_select=4).fit(frame, y)
    assert sorted(sel.get_feature_names_out()) == ["g0", "g1", "g2", "g3"]
    assert list(sel.lists_.features[:3]) == ["g0", "g1", "g2"]


def test_pipeline_and_grid_search():
    X, y = load_iris(return_X_y=True)
    pipe = make_pipeline(SVMRFE(n_features_to_select=2), SVC(kernel="linear"))
    assert pipe.fit(X, y).score(X, y) > 0.9
    grid = GridSearchCV(pipe, {"svmrfe__aggregation": ["kfirst", "average"],
                               "svmrfe__n_features_to_select": [1, 2]}, cv=3).fit(X, y)
    assert grid.best_params_["svmrfe__n_features_to_select"] in (1, 2)


def test_string_labels_and_errors():
    X, y = data(10)
    labels = np.array(["ant", "bee", "cat", "dog"])[y]
    sel = SVMRFE().fit(X, labels)
    assert list(sel.classes_) == ["ant", "bee", "cat", "dog"]
    assert sel.lists_.list_names[0] == "ant_vs_bee"
    with pytest.raises(ValueError, match="decomposition"):
        SVMRFE(decomposition="ecoc").fit(X, y)
    with pytest.raises(ValueError, match="unknown aggregation"):
        SVMRFE(aggregation="nope").fit(X, y)
    with pytest.raises(ValueError, match="C must"):
        SVMRFE(C=0).fit(X, y)
    with pytest.raises(ValueError, match="class"):
        SVMRFE().fit(X, np.zeros(X.shape[0]))


def test_class_weight_and_estimator_pass_through():
    X, y = data(11, c=3, n=90)
    from sklearn.linear_model import LogisticRegression

    sel = SVMRFE(class_weight="balanced").fit(X, y)
    assert sel.positions_.shape == (20,)
    sel = SVMRFE(estimator=LogisticRegression(max_iter=500)).fit(X, y)
    assert set(np.argsort(sel.positions_)[:3]) == {0, 1, 2}


def test_refit_drops_the_cv_results_of_an_earlier_fit():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 12))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    sel = SVMRFE(n_features_to_select="cv").fit(X, y)
    assert hasattr(sel, "cv_results_")
    sel.set_params(n_features_to_select=3).fit(X[:, :8], y)
    assert not hasattr(sel, "cv_results_")


@pytest.mark.parametrize("tol", [0, -1.0, float("nan")])
def test_bad_tol_is_refused(tol):
    X = np.random.default_rng(0).normal(size=(20, 4))
    with pytest.raises(ValueError, match="tol"):
        SVMRFE(tol=tol).fit(X, np.arange(20) % 2)


class _Bar:
    """Stands in for tqdm: records the total, the updates and the close."""

    made = []

    def __init__(self, total=None, **kwargs):
        self.total, self.n, self.closed = total, 0, False
        _Bar.made.append(self)

    def update(self, k=1):
        self.n += k

    def close(self):
        self.closed = True


@pytest.mark.parametrize("decomposition, n_classes, problems", [
    ("ovo", 4, 6),   # c(c − 1)/2 binary problems
    ("ova", 4, 4),   # c problems
    ("ovo", 2, 1),   # two classes: one problem
    ("crammer_singer", 4, None),  # one joint run: no bar
    ("ova", 4, None),  # verbose=False: no bar
])
def test_verbose_bar_counts_the_binary_problems(monkeypatch, decomposition, n_classes,
                                                 problems):
    import tqdm.auto

    monkeypatch.setattr(tqdm.auto, "tqdm", _Bar)
    _Bar.made = []
    rng = np.random.default_rng(0)
    y = np.repeat(np.arange(n_classes), 8)
    X = rng.normal(size=(y.size, 5)) + y[:, None] * 0.5
    SVMRFE(decomposition=decomposition, verbose=problems is not None,
           n_features_to_select=2).fit(X, y)
    if problems is None:
        assert _Bar.made == []
    else:
        (bar,) = _Bar.made
        assert type(bar.total) is int and bar.total == problems  # a count of problems
        assert bar.n == problems and bar.closed
