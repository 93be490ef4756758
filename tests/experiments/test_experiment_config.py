"""Configuration: parsing, planning, hashes and seeds, and a table of bad configs that all
fail before any work, naming the key."""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest
from experiment_configs import tiny_config

from rankfusion.experiments import ConfigError, parse_config, run_experiment
from rankfusion.experiments import cells as cells_mod
from rankfusion.experiments import runner as runner_mod


def test_plan_is_the_product_of_the_grid():
    cfg = parse_config(tiny_config())
    # 2 datasets × (ens × 2 rules + single) × 1 classifier × 1 protocol
    assert len(cfg.cells) == 6
    labels = [c.label for c in cfg.cells]
    assert labels[0] == "iris/ens+borda/naive_bayes/curve"
    assert "wine/single/naive_bayes/curve" in labels
    assert len({c.hash for c in cfg.cells}) == 6


def test_hash_is_sha256_of_the_canonical_spec():
    cell = parse_config(tiny_config()).cells[0]
    text = json.dumps(cell.spec, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert cell.hash == hashlib.sha256(text.encode()).hexdigest()
    assert cell.spec["rankfusion"].count(".") == 1  # major.minor


def test_labels_do_not_enter_the_hash_but_settings_and_seed_do():
    base = {c.hash for c in parse_config(tiny_config()).cells}
    renamed = tiny_config().replace('"wine"', '"vino"').replace("[datasets.wine]",
                                                                "[datasets.vino]")
    assert {c.hash for c in parse_config(renamed).cells} == base
    assert not base & {c.hash for c in parse_config(tiny_config(seed=8)).cells}
    other_k = {c.hash for c in parse_config(tiny_config(k=0.25)).cells}
    assert len(base & other_k) == 4  # only the two kfirst cells change


def test_seed_is_a_seedsequence_of_experiment_seed_and_data_protocol_hash():
    cfg = parse_config(tiny_config())
    cell = cfg.cells[0]
    blob = json.dumps({"dataset": cell.dataset, "protocol": cell.protocol}, sort_keys=True,
                      separators=(",", ":"), ensure_ascii=False).encode()
    d = hashlib.sha256(blob).digest()
    words = [int.from_bytes(d[i:i + 4], "little") for i in range(0, 32, 4)]
    want = int(np.random.SeedSequence([7, *words]).generate_state(1, dtype=np.uint32)[0])
    assert cell.seed == want
    # every method on one dataset and protocol shares the splits (paired tests)
    iris = [c for c in cfg.cells if c.labels["dataset"] == "iris"]
    assert len({c.seed for c in iris}) == 1
    assert {c.seed for c in cfg.cells if c.labels["dataset"] == "wine"} != {cell.seed}


def test_all_errors_are_collected_at_once():
    text = tiny_config().replace('"borda"', '"bordaa"').replace('"naive_bayes"', '"nb"') \
        .replace("n_splits = 3", 'n_splits = "3"')
    with pytest.raises(ConfigError) as info:
        parse_config(text)
    assert len(info.value.errors) == 3
    msg = str(info.value)
    assert '[grid] rules[0] = "bordaa": unknown rule; did you mean "borda"?' in msg
    assert '[grid] classifiers[0] = "nb"' in msg
    assert "[protocols.curve] n_splits: expected int" in msg


def _swap(old, new):
    text = tiny_config()
    assert old in text, old
    return text.replace(old, new)


BAD = [
    # (config text, fragment the message must contain)
    ("[experiment\nseed = 1", "not valid TOML"),
    (_swap("[experiment]", "[experimnt]"), "(top level) experimnt: unknown table"),
    (_swap("seed = 7", "seed = 7.5"), "[experiment] seed: expected int, got float"),
    (_swap("seed = 7", "seed = -1"), "[experiment] seed: must lie in [0, 2**32)"),
    (_swap("seed = 7", ""), "[experiment] seed: missing"),
    (_swap('datasets = ["iris", "wine"]', 'datasets = ["iris", "wnie"]'),
     '[grid] datasets[1] = "wnie": unknown dataset; did you mean "wine"?'),
    (_swap('source = "sklearn:wine"', 'source = "sklearn:wines"'),
     '[datasets.wine] source = "sklearn:wines": unknown scikit-learn dataset'),
    (_swap('source = "sklearn:wine"', 'source = "sklearn:wine"\ndropna = true'),
     "[datasets.wine] dropna: unknown option"),
    (_swap('datasets = ["iris", "wine"]', "datasets = []"), "[grid] datasets: is empty"),
    (_swap('datasets = ["iris", "wine"]', 'datasets = ["iris", "iris"]'),
     '[grid] datasets[1] = "iris": listed twice'),
    (_swap('datasets = ["iris", "wine"]', 'datasets = "iris"'),
     "[grid] datasets: expected a list of str"),
    (_swap('rules = ["borda", "kfirst"]', 'rules = ["borda", "kfrist"]'),
     '[grid] rules[1] = "kfrist": unknown rule; did you mean "kfirst"?'),
    (_swap("k = 0.5", "kk = 0.5"), '[rules.kfirst] kk: unknown parameter of rule "kfirst"'),
    (_swap('rankers = ["f_classif", "chi2"]', 'rankers = ["f_classif", "chi3"]'),
     '[selectors.ens] rankers[1] = "chi3": unknown ranker; did you mean "chi2"?'),
    (_swap('rankers = ["f_classif", "chi2"]',
           'rankers = ["f_classif", { name = "relieff", n_neighbours = 3 }]'),
     '[selectors.ens] rankers[1] n_neighbours: unknown parameter of ranker "relieff"; did you '
     'mean "n_neighbors"?'),
    (_swap('kind = "ensemble"', 'kind = "ensemble"\nn_bootstrap = 2'),
     '[selectors.ens] n_bootstrap: unknown parameter of a selector of kind "ensemble"; did you '
     'mean "n_bootstraps"?'),
    (_swap('kind = "ensemble"', 'kind = "ensemble"\nn_bootstraps = "2"'),
     "[selectors.ens] n_bootstraps: expected int, got str"),
    (_swap('kind = "ensemble"', 'kind = "ensembel"'),
     '[selectors.ens] kind: "ensembel": unknown selector kind; did you mean "ensemble"?'),
    (_swap('selectors = ["ens", "single"]', 'selectors = ["ens", "singel"]'),
     '[grid] selectors[1] = "singel": no table [selectors.singel] defines it; did you mean '
     '"single"?'),
    (_swap('classifiers = ["naive_bayes"]', 'classifiers = ["naive_bayse"]'),
     '[grid] classifiers[0] = "naive_bayse": unknown classifier; did you mean "naive_bayes"?'),
    (_swap('kind = "error_curve"', 'kind = "error_curves"'),
     '[protocols.curve] kind: "error_curves": unknown protocol; did you mean "error_curve"?'),
    (_swap("n_splits = 3", 'n_splits = "3"'), "[protocols.curve] n_splits: expected int"),
    (_swap("n_splits = 3", "n_splits = 1"),
     "[protocols.curve] n_splits = 1: n_splits must be an int ≥ 2, got 1"),
    (_swap("test_size = 0.3", "test_size = 1.5"),
     "[protocols.curve] test_size = 1.5: test_size must be a number in (0, 1) or an int ≥ 1"),
    (_swap("n_features = [1, 2, 4]", "n_features = [1, 2, 40]"),
     "[protocols.curve] on dataset 'iris' (150 × 4) n_features: [40] exceed"),
    (_swap("n_features = [1, 2, 4]", 'n_features = [1, "2"]'),
     "[protocols.curve] n_features = [1, '2']: n_features must be a list of counts"),
    (_swap("n_features = [1, 2, 4]", 'n_features = "lg:3"'),
     '[protocols.curve] n_features = "lg:3"'),
    (_swap("test_size = 0.3", "test_size = 0.3\nn_fold = 3"),
     '[protocols.curve] n_fold: unknown parameter of protocol "error_curve"'),
    (_swap('kind = "error_curve"', 'kind = "cross_validation"\ncv = 100').replace(
        "n_splits = 3\ntest_size = 0.3\nn_features = [1, 2, 4]\n", ""),
     "[protocols.curve] on dataset 'iris' (150 × 4) cv: 100 folds need ≥ 100 samples"),
    (_swap('rules = ["borda", "kfirst"]', 'rules = ["borda", "fuzzy:OW"]'),
     "[selectors.ens] × [rules.fuzzy:OW]: a fuzzy rule needs n_bootstraps ≥ 2"),
    (_swap("[rules.kfirst]", '[rules.kfirst2]\nrule = "kfirst"\nk = 0.5\n[rules.kfirst]')
     .replace('rules = ["borda", "kfirst"]', 'rules = ["borda", "kfirst", "kfirst2"]'),
     "computes the same thing as"),
    (_swap('kind = "ensemble"', 'kind = "ensemble"\nn_features_to_select = 0'),
     "[selectors.ens] n_features_to_select = 0: n_features_to_select must be None, an int ≥ 1"),
    # values of rule parameters, the ensemble's own rule and weights, protocol options
    (_swap("k = 0.5", 'k = "2"'),
     '[rules.kfirst] k: expected a count (int ≥ 1) or a fraction in (0, 1], got str "2"'),
    (_swap("k = 0.5", "k = -2"), "[rules.kfirst] k: a count must be ≥ 1, got -2"),
    (_swap("k = 0.5", "k = 1.5"), "[rules.kfirst] k: a fraction must lie in (0, 1], got 1.5"),
    (_swap("k = 0.5", "k = 20"),
     "[rules.kfirst] k on dataset 'iris' (150 × 4): 20 exceeds the dataset's 4 features"),
    (_swap('rankers = ["f_classif", "chi2"]',
           'rankers = ["f_classif", "chi2"]\naggregation = "bordaa"'),
     '[selectors.ens] aggregation = "bordaa": unknown rule; did you mean "borda"?'),
    (_swap('rankers = ["f_classif", "chi2"]',
           'rankers = ["f_classif", "chi2"]\naggregation = "kfirst"\n'
           "aggregation_params = { k = -3 }"),
     "[selectors.ens] aggregation_params k: a count must be ≥ 1, got -3"),
    (_swap('rankers = ["f_classif", "chi2"]',
           'rankers = ["f_classif", "chi2"]\naggregation = "borda"\n'
           "aggregation_params = { k = 2 }"),
     '[selectors.ens] aggregation_params k: unknown parameter of rule "borda"; it takes none'),
    (_swap('rankers = ["f_classif", "chi2"]',
           'rankers = ["f_classif", "chi2"]\nlist_weights = [1, -1]'),
     "[selectors.ens] list_weights[1]: expected a number ≥ 0, got -1"),
    (_swap('rankers = ["f_classif", "chi2"]',
           'rankers = ["f_classif", "chi2"]\nlist_weights = [1, 2, 3]'),
     "[selectors.ens] list_weights: 3 weights for 2 rankers"),
    (_swap('kind = "error_curve"\nn_splits = 3\ntest_size = 0.3\nn_features = [1, 2, 4]',
           'kind = "cross_validation"\ncv = 3\nscoring = []'),
     "[protocols.curve] scoring = []: scoring must be a list of metrics (accuracy, error"),
    (_swap('kind = "error_curve"\nn_splits = 3\ntest_size = 0.3\nn_features = [1, 2, 4]',
           'kind = "cross_validation"\ncv = 3\npos_label = "setosa"'),
     "pos_label: applies to binary problems; the dataset has 3 classes"),
]


@pytest.mark.parametrize("text, fragment", BAD, ids=[f"bad{i:02d}" for i in range(len(BAD))])
def test_bad_config_fails_before_any_work_naming_the_key(text, fragment, tmp_path,
                                                         monkeypatch):
    def boom(*a, **k):  # pragma: no cover - must not be reached
        raise AssertionError("a cell ran although the config is invalid")

    monkeypatch.setattr(cells_mod, "run_cell", boom)
    monkeypatch.setattr(runner_mod, "run_cell", boom)
    out = tmp_path / "out"
    with pytest.raises(ConfigError) as info:
        run_experiment(text, out)
    assert fragment in str(info.value), str(info.value)
    assert not out.exists()


def test_at_least_fifteen_kinds_of_bad_config():
    assert len(BAD) >= 15


def test_config_file_errors_name_the_file(tmp_path):
    from rankfusion.experiments import load_config

    path = tmp_path / "exp.toml"
    path.write_text(tiny_config().replace('"borda"', '"brda"'))
    with pytest.raises(ConfigError, match=r"exp\.toml: 1 error"):
        load_config(path)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_config(tmp_path / "missing.toml")


def _svm_rfe_config(extra: str) -> str:
    return f"""
[experiment]
seed = 1
[grid]
datasets = ["iris"]
selectors = ["rfe"]
rules = ["kfirst"]
classifiers = ["naive_bayes"]
protocols = ["curve"]
[selectors.rfe]
kind = "svm_rfe"
{extra}
[protocols.curve]
kind = "error_curve"
n_splits = 2
n_features = [1, 2]
"""


def test_svm_rfe_warm_start_is_a_bool_parameter():
    cell = parse_config(_svm_rfe_config("warm_start = true")).cells[0]
    assert cell.selector["params"]["warm_start"] is True
    assert cell.hash != parse_config(_svm_rfe_config("")).cells[0].hash
    with pytest.raises(ConfigError, match="warm_start"):
        parse_config(_svm_rfe_config('warm_start = "yes"'))


def test_run_options_are_checked_before_the_results_folder_is_made(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(ValueError, match=r"^n_jobs must not be 0"):
        run_experiment(tiny_config(), out, n_jobs=0)
    assert not out.exists()
    a_file = tmp_path / "results.csv"
    a_file.write_text("keep")
    with pytest.raises(NotADirectoryError, match="is a file; the results go to a folder"):
        run_experiment(tiny_config(), a_file)
    assert a_file.read_text() == "keep"
