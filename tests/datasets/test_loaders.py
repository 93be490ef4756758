"""rankfusion.datasets.load / available_datasets against the shared datasets MANIFEST."""

import os

import numpy as np
import pandas as pd
import pytest

from conftest import read_csv
from rankfusion.cli import main
from rankfusion.datasets import available_datasets, load

RAW = "/work/shared/datasets"
needs_raw = pytest.mark.skipif(not os.path.isdir(RAW), reason="raw datasets folder absent")

# (samples, features, classes) as the MANIFEST's "verified shape" column states them (features
# = columns without the class for the uci_mlbench table; Monti substitutes filtered to Monti's
# sizes, Izetta et al. 2017 Table 7).
MANIFEST = {
    "pima": (768, 8, 2), "wbc": (699, 9, 2), "parkinsons": (195, 22, 2),
    "german_credit": (1000, 20, 2), "golub": (72, 7129, 2), "leukemia_3c": (72, 7129, 3),
    "pomeroy_cns": (60, 7129, 2), "stjude": (248, 985, 6),
    "monti_lung_full": (197, 1543, 4), "monti_cns_full": (42, 1379, 5),
    "monti_novartis_full": (103, 1571, 4),
    "monti_lung": (197, 1000, 4), "monti_cns": (42, 989, 5), "monti_novartis": (103, 1000, 4),
    "libras": (360, 90, 15), "robot_lp1": (88, 90, 4), "robot_lp2": (47, 90, 5),
    "robot_lp3": (47, 90, 4), "robot_lp4": (117, 90, 3), "robot_lp5": (164, 90, 5),
    "mfeat_fourier": (2000, 76, 10), "mfeat_fac": (2000, 216, 10), "mfeat_kar": (2000, 64, 10),
    "mfeat_pix": (2000, 240, 10), "mfeat_zer": (2000, 47, 10), "mfeat_mor": (2000, 6, 10),
    "mfeat": (2000, 649, 10), "lung_cancer": (32, 56, 3), "arrhythmia": (452, 279, 13),
    "madelon": (2600, 500, 2), "sonar": (208, 60, 2), "vehicle": (846, 18, 4),
    "vowel": (990, 10, 11), "splice": (3186, 180, 3), "glass": (214, 9, 6),
    "ionosphere": (351, 34, 2), "zoo": (101, 16, 7), "iris": (150, 4, 3),
    "segment": (2310, 19, 7), "golub_zscored": (72, 7129, 2),
}
MISSING = {"wbc": 16, "lung_cancer": 5, "arrhythmia": 408}
COUNTS = {"wbc": {"benign": 458, "malignant": 241}, "golub": {"ALL": 47, "AML": 25},
          "leukemia_3c": {"ALL-B": 38, "ALL-T": 9, "AML": 25},
          "pomeroy_cns": {"failure": 21, "survivor": 39},
          "monti_lung": {"AD": 139, "SQ": 21, "COID": 20, "NL": 17},
          "monti_novartis": {"BR": 26, "PR": 26, "LU": 28, "CO": 23},
          "robot_lp5": {"normal": 44, "bottom_collision": 26, "bottom_obstruction": 21,
                        "collision_in_part": 47, "collision_in_tool": 26},
          "stjude": {"BCR.ABL": 15, "E2A.PBX1": 27, "Hyperdip.50": 64, "MLL": 20, "T.ALL": 43,
                     "TEL.AML1": 79}}
BUNDLED = [n for n in MANIFEST if n != "golub_zscored"]
# The regression sets: (samples, features, distinct target values), stated in advance from
# their sources (Weka's cpu.arff; scikit-learn's raw diabetes files, Efron et al. 2004).
REGRESSION = {"cpu": (209, 6, 116), "diabetes_lars": (442, 10, 214)}


def test_catalog_lists_every_manifest_set():
    table = available_datasets()
    assert set(table["name"]) == set(MANIFEST) | set(REGRESSION)
    assert list(table.columns) == ["name", "task", "n_samples", "n_features", "n_classes",
                                   "n_missing", "bundled", "source"]
    tasks = dict(zip(table["name"], table["task"]))
    assert {n for n, t in tasks.items() if t == "regression"} == set(REGRESSION)
    assert all(tasks[n] == "classification" for n in MANIFEST)
    assert table.set_index("name").loc[list(REGRESSION), "n_classes"].isna().all()
    t = table.set_index("name")
    for name, (n, p, c) in MANIFEST.items():
        assert tuple(t.loc[name, ["n_samples", "n_features", "n_classes"]]) == (n, p, c), name
        assert t.loc[name, "n_missing"] == MISSING.get(name, 0), name


@pytest.mark.parametrize("name", BUNDLED)
def test_shape_classes_missing(name):
    n, p, c = MANIFEST[name]
    b = load(name)
    assert b.data.shape == (n, p) and b.data.dtype == np.float64
    assert b.target.shape == (n,) and len(b.target_names) == c
    assert np.array_equal(np.unique(b.target), np.arange(c))
    assert int(np.isnan(b.data).sum()) == MISSING.get(name, 0)
    assert "Licence:" in b.DESCR and "Source:" in b.DESCR and "Citation:" in b.DESCR
    if name in COUNTS:
        got = dict(zip(b.target_names, np.bincount(b.target)))
        assert got == COUNTS[name]
    f = load(name, as_frame=True)
    assert f.data.shape == (n, p) and f.frame.shape == (n, p + 1)
    assert isinstance(f.target.dtype, pd.CategoricalDtype)
    assert list(f.target.cat.categories) == list(b.target_names)
    # array codes = frame categories (nominal) / values (numeric)
    for j in np.flatnonzero(b.categorical)[:5]:
        col = f.data.iloc[:, j]
        codes = col.cat.codes.to_numpy().astype(float)
        codes[codes < 0] = np.nan
        assert np.array_equal(codes, b.data[:, j], equal_nan=True)


def test_nominal_stays_nominal():
    X, y = load("german_credit", as_frame=True, return_X_y=True)
    kinds = X.dtypes.map(lambda d: isinstance(d, pd.CategoricalDtype))
    assert kinds.sum() == 13 and (~kinds).sum() == 7
    assert list(X["checking_status"].cat.categories) == ["<0", "0<=X<200", ">=200",
                                                         "no checking"]
    b = load("german_credit")
    assert b.categorical.sum() == 13
    assert b.categories["checking_status"][0] == "<0"
    z = load("zoo", as_frame=True).data
    assert list(z["hair"].cat.categories) == ["FALSE", "TRUE"] and z["legs"].dtype == float


def test_wbc_dropna_gives_683_rows():
    b = load("wbc", dropna=True)
    assert b.data.shape == (683, 9) and not np.isnan(b.data).any()
    assert np.bincount(b.target).tolist() == [444, 239]  # the UCI counts of complete rows


@needs_raw
def test_wbc_equals_independent_uci_copy():
    raw = read_csv(f"{RAW}/breast_cancer_wisconsin_original/breast-cancer-wisconsin.data",
                      na_values="?")
    b = load("wbc")
    assert np.array_equal(raw.iloc[:, 1:10].to_numpy(float), b.data, equal_nan=True)
    assert np.array_equal(np.where(raw["class"] == 4, 1, 0), b.target)


@needs_raw
def test_mfeat_equals_raw_views():
    fou = np.loadtxt(f"{RAW}/multiple_features/mfeat-fou.txt")
    b = load("mfeat")
    assert np.array_equal(b.data[:, :76], fou[:, 1:])
    assert np.array_equal(b.target, fou[:, 0].astype(int) - 1)
    assert np.array_equal(b.data[:, -6:], load("mfeat_mor").data)


@needs_raw
def test_madelon_and_pomeroy_equal_mat_files():
    import scipy.io as sio

    m = sio.loadmat(f"{RAW}/madelon/madelon.mat")
    b = load("madelon")
    assert np.array_equal(b.data, m["X"].astype(float))
    assert np.array_equal(b.target_names[b.target].astype(int), m["Y"].ravel())
    m = sio.loadmat(f"{RAW}/pomeroy_cns_outcome/CNS.mat")
    assert np.array_equal(load("pomeroy_cns").data, m["X"].astype(float))


@pytest.mark.parametrize("name", ["monti_lung", "monti_cns", "monti_novartis"])
def test_monti_filter_is_top_sd(name):
    full = load(f"{name}_full", as_frame=True).data
    sub = load(name, as_frame=True).data
    n = sub.shape[1]
    sd = full.std(ddof=1)  # pandas, the oracle
    expected = sd.sort_values(ascending=False, kind="mergesort").index[:n]
    assert set(sub.columns) == set(expected)
    assert list(sub.columns) == [c for c in full.columns if c in set(expected)]
    assert sub.std(ddof=1).min() >= sd.drop(sub.columns).max()
    assert np.array_equal(sub.to_numpy(), full[sub.columns].to_numpy())


def test_leukemia_3c_and_golub_share_values():
    assert np.array_equal(load("golub").data, load("leukemia_3c").data)


def test_stjude_matches_legacy_loader():
    from rankfusion.datasets import load_stjude_leukemia

    X, y = load_stjude_leukemia(return_X_y=True)
    b = load("stjude")
    assert np.array_equal(X, b.data)
    assert np.array_equal(y, b.target_names[b.target])


def test_aliases_and_case():
    assert load("Diabetes", return_X_y=True)[0].shape == (768, 8)
    assert load("MFEAT-FOU").name == "mfeat_fourier"


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"name": "wcb"}, ValueError, "did you mean 'wbc'"),
    ({"name": "no_such_set_at_all"}, ValueError, "unknown dataset"),
    ({"name": 3}, TypeError, "name must be a str"),
    ({"name": None}, TypeError, "name must be a str"),
    ({"name": "iris", "as_frame": 1}, TypeError, "as_frame must be True or False"),
    ({"name": "iris", "return_X_y": "yes"}, TypeError, "return_X_y"),
    ({"name": "iris", "dropna": None}, TypeError, "dropna"),
    ({"name": "golub_zscored", "data_home": 5}, TypeError, "data_home must be a path"),
])
def test_hostile_inputs(kwargs, exc, match):
    kwargs = dict(kwargs)  # the parameter is shared between runs: never modify it
    name = kwargs.pop("name")
    with pytest.raises(exc, match=match):
        load(name, **kwargs)


def test_external_set_needs_data_home(tmp_path, monkeypatch):
    monkeypatch.delenv("RANKFUSION_DATA", raising=False)
    with pytest.raises(FileNotFoundError, match="scikit-feature.*28e1f6a"):
        load("golub_zscored")
    with pytest.raises(FileNotFoundError, match="ALLAML_scikit-feature.mat.gz not found"):
        load("golub_zscored", data_home=tmp_path)
    monkeypatch.setenv("RANKFUSION_DATA", str(tmp_path))
    with pytest.raises(FileNotFoundError, match=str(tmp_path)):
        load("golub_zscored")


@needs_raw
def test_external_set_from_data_home(monkeypatch):
    monkeypatch.setenv("RANKFUSION_DATA", RAW)
    b = load("golub_zscored")
    assert b.data.shape == (72, 7129)
    assert np.allclose(b.data.mean(axis=0), 0, atol=1e-6)
    assert np.bincount(b.target).tolist() == [47, 25]


def test_cli_lists_datasets(capsys):
    assert main(["datasets"]) == 0
    out = capsys.readouterr().out
    assert "wbc" in out and "monti_novartis" in out and "699" in out
    assert main(["datasets", "--name", "wbc"]) == 0
    assert "Licence" in capsys.readouterr().out
    assert main(["datasets", "--name", "wcb"]) == 2
    assert "did you mean 'wbc'" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(REGRESSION))
def test_regression_sets_keep_a_numeric_target(name):
    n, p, distinct = REGRESSION[name]
    b = load(name)
    assert b.task == "regression" and b.data.shape == (n, p)
    assert b.target.dtype == np.float64 and np.unique(b.target).size == distinct
    assert b.target_names.size == 0 and not b.categorical.any()
    assert "numeric target (regression" in b.DESCR and "classes" not in b.DESCR.split("\n")[1]
    f = load(name, as_frame=True)
    assert f.target.name == "target" and f.target.dtype == np.float64
    assert np.array_equal(f.target.to_numpy(), b.target)
    assert f.frame.columns[-1] == "target"
    X, y = load(name, return_X_y=True)
    assert np.array_equal(X, b.data) and np.array_equal(y, b.target)


def test_classification_sets_state_their_task():
    assert load("iris").task == "classification"
    assert load("diabetes").name == "pima"  # the alias keeps meaning Pima, not diabetes_lars


def test_diabetes_lars_equals_scikit_learn_raw():
    from sklearn.datasets import load_diabetes

    raw = load_diabetes(scaled=False)
    b = load("diabetes_lars")
    assert list(b.feature_names) == list(raw.feature_names)
    # bit-equal with pandas ≥ 2's parser; pandas 1.5's "high" precision parser may differ in
    # the last bit of a decimal
    np.testing.assert_array_max_ulp(b.data, raw.data, maxulp=1)
    np.testing.assert_array_max_ulp(b.target, raw.target, maxulp=1)


@needs_raw
def test_cpu_equals_weka_arff():
    from rankfusion.io import read_arff

    frame = read_arff(os.path.join(RAW, "weka_examples", "cpu.arff"))
    b = load("cpu")
    assert list(b.feature_names) == list(frame.columns[:-1])
    assert np.array_equal(b.data, frame.iloc[:, :-1].to_numpy(dtype=np.float64))
    assert np.array_equal(b.target, frame["class"].to_numpy(dtype=np.float64))


def test_regression_export_keeps_the_numbers(tmp_path):
    from rankfusion.datasets import export_dataset

    out = export_dataset("cpu", tmp_path / "cpu.csv")
    back = pd.read_csv(out)
    assert list(back.columns)[-1] == "target"
    assert np.array_equal(back["target"].to_numpy(), load("cpu").target)
