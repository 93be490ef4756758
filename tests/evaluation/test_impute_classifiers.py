"""``knn3_impute`` / ``adaboost_impute`` and Weka's ``ReplaceMissingValues``: training means and
modes (checked against Weka 3.6.14's filter on a hand table), no leakage from the test rows, and
exactly the predictions of ``knn3`` / ``adaboost`` on complete data (docs/design.md,
'Departures from the papers and reference tools')."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.model_selection import StratifiedKFold

from rankfusion.evaluation import (
    ReplaceMissingValues,
    classifier_info,
    cross_validate_selection,
    make_classifier,
)
from rankfusion.evaluation.classifiers import CLASSIFIERS, classifier_accepts_nominal

IMPUTE = {"knn3_impute": "knn3", "adaboost_impute": "adaboost"}


def _data(seed=0, n=60, p=6):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + rng.normal(scale=0.5, size=n) > 0, "a", "b")
    return X, y


def _with_nan(X, seed=1, share=0.15):
    rng = np.random.default_rng(seed)
    X = X.copy()
    X[rng.random(X.shape) < share] = np.nan
    return X


# ---------------------------------------------------------------- the filter itself
def test_means_and_modes_as_weka():
    """The table given to Weka 3.6.14's ReplaceMissingValues (java -cp weka.jar
    weka.filters.unsupervised.attribute.ReplaceMissingValues -i t.arff): numeric mean of the
    observed values (8/3 = 2.666667), an all-missing numeric column 0, the nominal mode with
    a 2–2 tie going to the first declared value (y), an all-missing nominal column its first
    declared value (x)."""
    X = pd.DataFrame({
        "a": [1, np.nan, 3, 4, np.nan],
        "b": [np.nan] * 5,
        "c": pd.Categorical(["y", "z", None, "z", "y"], categories=["x", "y", "z"]),
        "d": pd.Categorical([None] * 5, categories=["x", "y"]),
    })
    out = ReplaceMissingValues().fit_transform(X)
    assert out["a"].tolist() == pytest.approx([1, 8 / 3, 3, 4, 8 / 3])
    assert out["b"].tolist() == [0.0] * 5
    assert out["c"].tolist() == ["y", "z", "y", "z", "y"]
    assert out["d"].tolist() == ["x"] * 5
    assert list(out.dtypes) == list(X.dtypes)  # category columns stay category
    assert X["a"].isna().sum() == 2 and X["c"].isna().sum() == 1  # the input is not modified


def test_object_column_mode_ties_by_sorted_value():
    X = pd.DataFrame({"s": ["q", "p", None, "q", "p"]})
    assert ReplaceMissingValues().fit_transform(X)["s"].tolist() == ["q", "p", "p", "q", "p"]


def test_nullable_dtypes():
    """pandas' nullable integer, boolean-object and string columns: the integer column takes
    its mean as float64 (an Int64 column cannot hold 1.5), the others their mode."""
    X = pd.DataFrame({"a": pd.array([1, 2, None], dtype="Int64"),
                      "b": [True, False, None], "c": pd.array(["x", None, "x"], dtype="string")})
    out = ReplaceMissingValues().fit_transform(X)
    assert out["a"].tolist() == [1.0, 2.0, 1.5] and out["a"].dtype == np.float64
    assert out["b"].tolist() == [True, False, False]  # tie: the first in sorted order
    assert out["c"].tolist() == ["x", "x", "x"]


def test_array_means_and_copy():
    X = np.array([[1.0, np.nan], [3.0, np.nan], [np.nan, np.nan]])
    before = X.copy()
    out = ReplaceMissingValues().fit_transform(X)
    np.testing.assert_array_equal(out, [[1, 0], [3, 0], [2, 0]])
    np.testing.assert_array_equal(np.isnan(X), np.isnan(before))  # not mutated


def test_statistics_come_from_the_training_part_only():
    """No leakage: fitted inside a fold, the filter's means are the training rows' means, and
    the test rows' values (here huge) do not move them."""
    X, y = _data(3, n=80)
    X = _with_nan(X, 4)
    X[60:, :] = 1e6  # the test rows
    X[60:, 2] = np.nan
    train, test = np.arange(60), np.arange(60, 80)
    model = make_classifier("knn3_impute").fit(X[train], y[train])
    fill = model.named_steps["replace_missing"].fill_
    np.testing.assert_allclose(fill, np.nanmean(X[train], axis=0), rtol=0, atol=1e-12)
    model.predict(X[test])
    np.testing.assert_array_equal(model.named_steps["replace_missing"].fill_, fill)


def test_cross_validation_fits_the_filter_per_fold(monkeypatch):
    """Through the library's cross-validation: each fold's filter sees its training part
    only (its means are recorded and compared with the fold's own)."""
    X, y = _data(5, n=50)
    X = _with_nan(X, 6, 0.2)
    seen = []
    orig = ReplaceMissingValues.fit

    def spy(self, A, y=None):
        seen.append(np.asarray(A, dtype=float).copy())
        return orig(self, A, y)

    monkeypatch.setattr(ReplaceMissingValues, "fit", spy)
    from rankfusion.selection import EnsembleSelector

    sel = EnsembleSelector(rankers=["info_gain"], n_features_to_select=3)
    cross_validate_selection(sel, X, y, classifier="knn3_impute", cv=5, random_state=0)
    assert len(seen) == 5
    assert all(a.shape == (40, 3) for a in seen)  # 4 of 5 folds of 50 rows, 3 selected


# ---------------------------------------------------------------- same as the plain ones
@pytest.mark.parametrize("name", sorted(IMPUTE))
def test_complete_data_predicts_exactly_as_the_plain_classifier(name):
    X, y = _data(7, n=90)
    for train, test in StratifiedKFold(3, shuffle=True, random_state=0).split(X, y):
        a = make_classifier(name, random_state=11).fit(X[train], y[train])
        b = make_classifier(IMPUTE[name], random_state=11).fit(X[train], y[train])
        np.testing.assert_array_equal(a.predict(X[test]), b.predict(X[test]))
        np.testing.assert_allclose(a.predict_proba(X[test]), b.predict_proba(X[test]),
                                   rtol=0, atol=0)


@pytest.mark.parametrize("name", sorted(IMPUTE))
def test_complete_frame_with_nominal_columns_as_the_plain_pipeline(name):
    """A DataFrame with nominal columns: the plain classifier runs behind the protocols'
    one-hot encoding; the impute variant encodes after its filter: the same predictions."""
    X, y = _data(8, n=80, p=3)
    df = pd.DataFrame(X, columns=["u", "v", "w"])
    df["g"] = pd.Categorical(np.where(X[:, 0] > 0, "hi", "lo"))
    from rankfusion.selection import EnsembleSelector

    res = {}
    for clf in (name, IMPUTE[name]):
        sel = EnsembleSelector(rankers=["info_gain"], n_features_to_select=4)
        r = cross_validate_selection(sel, df, y, classifier=clf, cv=4, random_state=2)
        res[clf] = r.scores
    pd.testing.assert_frame_equal(res[name].reset_index(drop=True),
                                  res[IMPUTE[name]].reset_index(drop=True))


def test_nominal_missing_values_take_the_mode_before_encoding():
    X, y = _data(9, n=40, p=2)
    df = pd.DataFrame(X, columns=["u", "v"])
    g = np.where(np.arange(40) % 4 == 0, "rare", "common").astype(object)
    g[[1, 2]] = None
    df["g"] = pd.Categorical(g)
    model = make_classifier("knn3_impute").fit(df, y)
    assert model.named_steps["replace_missing"].fill_["g"] == "common"
    enc = model.named_steps["encode"].encoder_
    assert enc is not None and model.predict(df).shape == (40,)


def test_registered_with_description_and_unchanged_plain_entries():
    for name, plain in IMPUTE.items():
        info = classifier_info(name)
        assert "ReplaceMissingValues" in info.tags["description"]
        assert classifier_accepts_nominal(name)
        assert not classifier_accepts_nominal(plain)
    assert CLASSIFIERS.get("knn3").tags["description"] == "3-nearest neighbours, Euclidean"
    assert CLASSIFIERS.get("adaboost").tags["description"] == "AdaBoost of 10 decision stumps"


def test_plain_classifiers_still_refuse_nan_and_the_impute_ones_fit():
    X, y = _data(10)
    X = _with_nan(X, 11)
    for name, plain in IMPUTE.items():
        with pytest.raises(ValueError, match="NaN"):
            make_classifier(plain, random_state=0).fit(X, y)
        pred = make_classifier(name, random_state=0).fit(X, y).predict(X)
        assert pred.shape == y.shape


# ---------------------------------------------------------------- hostile inputs
def _fit_predict(name, X_train, y_train, X_test):
    return make_classifier(name, random_state=0).fit(X_train, y_train).predict(X_test)


X0, Y0 = _data(12, n=30, p=4)


def _all_nan_column():
    X = X0.copy()
    X[:, 1] = np.nan
    return X, Y0, X0.copy()


def _nan_in_test_only():
    T = X0.copy()
    T[::3, 2] = np.nan
    return X0.copy(), Y0, T


def _all_nan_test_row():
    T = X0.copy()
    T[4, :] = np.nan
    return X0.copy(), Y0, T


def _every_value_missing():
    return np.full_like(X0, np.nan), Y0, X0.copy()


ACCEPTED = {
    "all-NaN training column (filled with 0, constant: no effect)": _all_nan_column,
    "NaN in the test rows only (training means)": _nan_in_test_only,
    "a test row entirely missing": _all_nan_test_row,
    "every training value missing (all columns 0)": _every_value_missing,
}


@pytest.mark.parametrize("name", sorted(IMPUTE))
@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_missing_value_patterns_are_handled(name, case):
    Xtr, ytr, Xte = ACCEPTED[case]()
    kept = (Xtr.copy(), Xte.copy())
    pred = _fit_predict(name, Xtr, ytr, Xte)
    assert pred.shape == (Xte.shape[0],) and set(pred) <= set(ytr)
    np.testing.assert_array_equal(Xtr, kept[0])  # the caller's arrays are not modified
    np.testing.assert_array_equal(Xte, kept[1])


def test_all_nan_training_column_equals_dropping_it():
    """A column missing in every training row becomes a constant: 3-NN's neighbours are those
    found without it."""
    Xtr, ytr, Xte = _all_nan_column()
    with_col = _fit_predict("knn3_impute", Xtr, ytr, Xte)
    without = _fit_predict("knn3", np.delete(Xtr, 1, axis=1), ytr, np.delete(Xte, 1, axis=1))
    np.testing.assert_array_equal(with_col, without)


def _y_nan():
    y = Y0.astype(object)
    y[3] = np.nan
    return X0.copy(), y, X0.copy()


def _y_float_nan():
    y = (Y0 == "a").astype(float)
    y[0] = np.nan
    return X0.copy(), y, X0.copy()


def _inf():
    X = X0.copy()
    X[2, 1] = np.inf
    return X, Y0, X0.copy()


def _inf_test():
    T = X0.copy()
    T[0, 0] = -np.inf
    return X0.copy(), Y0, T


def _complex():
    return X0.astype(complex), Y0, X0.copy()


def _text():
    X = X0.astype(object)
    X[0, 0] = "abc"
    return X, Y0, X0.copy()


def _one_d():
    return X0[:, 0], Y0, X0.copy()


def _wrong_width():
    return X0.copy(), Y0, X0[:, :3].copy()


def _no_rows():
    return X0[:0].copy(), Y0[:0], X0.copy()


def _sparse_nan():
    S = sp.csr_matrix(np.where(np.abs(X0) > 1, X0, 0.0))
    S.data[0] = np.nan
    return S, Y0, sp.csr_matrix(X0)


def _frame_columns_changed():
    df = pd.DataFrame(X0, columns=list("abcd"))
    return df, Y0, df.rename(columns={"a": "z"})


def _frame_inf_test():
    df = pd.DataFrame(X0, columns=list("abcd"))
    T = df.copy()
    T.iloc[1, 2] = np.inf
    return df, Y0, T


REFUSED = {
    "inf in a complete test frame column": (_frame_inf_test, ValueError, "infinite"),
    "NaN in y (object)": (_y_nan, ValueError, "y|NaN|nan|label"),
    "NaN in y (float)": (_y_float_nan, ValueError, "y|NaN"),
    "inf in training X": (_inf, ValueError, "infinite"),
    "-inf in test X": (_inf_test, ValueError, "infinite"),
    "complex X": (_complex, TypeError, "complex"),
    "text in a numeric array": (_text, TypeError, "numeric"),
    "1-D X": (_one_d, ValueError, "2-D"),
    "test X of another width": (_wrong_width, ValueError, "features"),
    "no training rows": (_no_rows, ValueError, "no rows"),
    "NaN stored in a sparse matrix": (_sparse_nan, ValueError, "sparse"),
    "test frame with other columns": (_frame_columns_changed, ValueError, "columns"),
}


@pytest.mark.parametrize("name", sorted(IMPUTE))
@pytest.mark.parametrize("case", sorted(REFUSED))
def test_hostile_inputs_are_refused_clearly(name, case):
    make, exc, match = REFUSED[case]
    Xtr, ytr, Xte = make()
    with pytest.raises(exc, match=match):
        _fit_predict(name, Xtr, ytr, Xte)


def test_sparse_complete_data_passes_unchanged():
    S = sp.csr_matrix(np.where(np.abs(X0) > 1, X0, 0.0))
    out = ReplaceMissingValues().fit(S).transform(S)
    assert sp.issparse(out) and out is not S
    np.testing.assert_array_equal(out.toarray(), S.toarray())
    a = _fit_predict("knn3_impute", S, Y0, S)
    b = _fit_predict("knn3", S, Y0, S)
    np.testing.assert_array_equal(a, b)


def test_transform_before_fit_and_type_switch():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        ReplaceMissingValues().transform(X0)
    f = ReplaceMissingValues().fit(pd.DataFrame(X0, columns=list("abcd")))
    with pytest.raises(TypeError, match="DataFrame"):
        f.transform(X0)
