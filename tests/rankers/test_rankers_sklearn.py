"""scikit-learn score functions and estimators as rankers."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.feature_selection import chi2 as sk_chi2
from sklearn.feature_selection import f_classif as sk_f
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC
from sklearn.tree import DecisionTreeClassifier

from rankfusion.rankers import estimator_ranker, get_ranker, score_func_ranker
from rankfusion.rankers.sklearn_adapters import estimator_importances


def test_score_function_adapter_equals_sklearn():
    X, y = load_iris(return_X_y=True)
    np.testing.assert_allclose(score_func_ranker(sk_f)(X, y), sk_f(X, y)[0])
    np.testing.assert_allclose(get_ranker("chi2")(X, y), sk_chi2(X, y)[0])
    np.testing.assert_allclose(get_ranker("anova")(X, y), sk_f(X, y)[0])


@pytest.mark.filterwarnings("ignore:Features .* are constant")
@pytest.mark.filterwarnings("ignore:invalid value encountered")
def test_constant_feature_nan_becomes_zero_and_names_flow():
    X, y = load_iris(return_X_y=True, as_frame=True)
    X = X.assign(const=1.0)
    s = get_ranker("f_classif")(X, y)
    assert s[-1] == 0.0 and np.all(np.isfinite(s))


def test_mutual_info_is_seeded():
    X, y = load_iris(return_X_y=True)
    f = get_ranker("mutual_info")
    np.testing.assert_array_equal(f(X, y, random_state=0), f(X, y, random_state=0))


def test_estimator_adapters_coef_and_importances():
    X, y = load_iris(return_X_y=True)
    tree = estimator_ranker(DecisionTreeClassifier(random_state=0))(X, y)
    fitted = DecisionTreeClassifier(random_state=0).fit(X, y)
    np.testing.assert_allclose(tree, fitted.feature_importances_)
    lin = estimator_ranker(LinearSVC(dual=False))(X, y)
    coef = LinearSVC(dual=False).fit(X, y).coef_
    np.testing.assert_allclose(lin, np.abs(coef).sum(axis=0))
    binary = estimator_ranker(LogisticRegression())(X[y < 2], y[y < 2])
    np.testing.assert_allclose(binary, np.abs(LogisticRegression().fit(X[y < 2], y[y < 2])
                                              .coef_[0]))
    rf = get_ranker("random_forest")
    np.testing.assert_array_equal(rf(X, y, random_state=0, n_estimators=10),
                                  rf(X, y, random_state=0, n_estimators=10))


def test_string_labels_reach_the_estimator():
    X, y = load_iris(return_X_y=True)
    names = np.array(["setosa", "versicolor", "virginica"])[y]
    np.testing.assert_allclose(score_func_ranker(sk_f)(X, names), sk_f(X, y)[0])


def test_adapter_errors():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(TypeError, match="callable"):
        score_func_ranker(3)
    with pytest.raises(TypeError, match="fit"):
        estimator_ranker(object())
    with pytest.raises(TypeError, match="neither"):
        estimator_importances(object())
    Xm = X.copy()
    Xm[0, 0] = np.nan
    with pytest.raises(ValueError, match="missing"):
        score_func_ranker(sk_f)(Xm, y)
    with pytest.raises(ValueError, match="returned"):
        score_func_ranker(lambda X, y: np.ones(2))(X, y)
    frame = pd.DataFrame(X)
    assert score_func_ranker(sk_f)(frame, y).shape == (4,)


class _CountedImportances:
    """An estimator whose importances are a property that counts its evaluations (as a
    forest's, which walks every tree)."""

    def __init__(self, values, coef=None):
        self.reads = 0
        self._values = values
        if coef is not None:
            self.coef_ = coef

    @property
    def feature_importances_(self):
        self.reads += 1
        if self._values is None:
            raise AttributeError("not fitted")
        return self._values


def test_importances_are_read_once():
    est = _CountedImportances(np.array([0.2, 0.8]))
    np.testing.assert_array_equal(estimator_importances(est), [0.2, 0.8])
    assert est.reads == 1
    # a property that raises AttributeError counts as absent: coef_ is used
    est = _CountedImportances(None, coef=np.array([[1.0, -2.0], [3.0, 0.5]]))
    np.testing.assert_array_equal(estimator_importances(est), [4.0, 2.5])
    assert est.reads == 1
    with pytest.raises(TypeError, match="neither"):
        estimator_importances(_CountedImportances(None))


def test_forest_ranker_reads_the_importances_once(monkeypatch):
    from sklearn.ensemble import RandomForestClassifier

    X, y = load_iris(return_X_y=True)
    reads = []
    prop = RandomForestClassifier.feature_importances_

    def counted(self):
        reads.append(1)
        return prop.fget(self)

    monkeypatch.setattr(RandomForestClassifier, "feature_importances_", property(counted))
    scores = get_ranker("random_forest")(X, y, n_estimators=5, random_state=0)
    assert len(reads) == 1
    ref = RandomForestClassifier(n_estimators=5, random_state=0).fit(X, y)
    np.testing.assert_array_equal(scores, prop.fget(ref))
