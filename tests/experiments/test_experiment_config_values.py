"""Parameter *values* of an experiment config, checked before any work by the rankers', rules'
and selectors' own checks: each message names the table and key, the value and what is
allowed (docs/experiments.md; docs/design.md, 'Validation')."""

from __future__ import annotations

import pytest
from experiment_configs import tiny_config

from rankfusion.experiments import ConfigError, parse_config, run_experiment
from rankfusion.experiments import cells as cells_mod
from rankfusion.experiments import runner as runner_mod

ENS = 'rankers = ["f_classif", "chi2"]'


def _swap(old, new, text=None):
    text = tiny_config() if text is None else text
    assert old in text, old
    return text.replace(old, new)


def _svm_rfe(extra: str) -> str:
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


BAD_VALUES = [
    # ranker parameters, in an ensemble and in a single-ranker selector
    (_swap(ENS, 'rankers = ["f_classif", { name = "relieff", n_neighbors = -3 }]'),
     '[selectors.ens] rankers[1] n_neighbors = -3: n_neighbors must be an int ≥ 1, got -3 '
     '(ranker "relieff")'),
    (_swap(ENS, 'rankers = ["f_classif", { name = "relieff", n_neighbors = "five" }]'),
     '[selectors.ens] rankers[1] n_neighbors = "five": n_neighbors must be an int ≥ 1, got '
     "'five'"),
    (_swap(ENS, 'rankers = ["f_classif", { name = "relieff", n_neighbors = 2.5 }]'),
     "[selectors.ens] rankers[1] n_neighbors = 2.5: n_neighbors must be an int ≥ 1"),
    (_swap(ENS, 'rankers = [{ name = "relieff", n_samples = 0 }, "chi2"]'),
     "[selectors.ens] rankers[0] n_samples = 0: n_samples must be None or an int ≥ 1, got 0"),
    (_swap(ENS, 'rankers = [{ name = "random_forest", n_estimators = -10 }, "chi2"]'),
     "[selectors.ens] rankers[0] n_estimators = -10: n_estimators must be an int ≥ 1, got -10"),
    (_swap(ENS, 'rankers = [{ name = "mifs", beta = -1 }, "chi2"]'),
     "[selectors.ens] rankers[0] beta = -1: beta must be a number ≥ 0, got -1"),
    (_swap('ranker = "f_classif"', 'ranker = { name = "relieff", n_neighbors = 0 }'),
     "[selectors.single] ranker[0] n_neighbors = 0: n_neighbors must be an int ≥ 1, got 0"),
    # rule parameters: [rules.*] tables, an ensemble's own rule, SVMRFE's rule
    (_swap("[rules.kfirst]", "[rules.ga]\nmax_iter = -3\n[rules.kfirst]"),
     '[rules.ga] max_iter = -3: max_iter must be an int ≥ 1, got -3 (refused by rule "ga")'),
    (_swap("[rules.kfirst]", '[rules.ga]\npopulation = "big"\n[rules.kfirst]'),
     '[rules.ga] population = "big": population must be an int ≥ 2, got \'big\''),
    (_swap("[rules.kfirst]", "[rules.ce]\nrho = 5\n[rules.kfirst]"),
     "[rules.ce] rho = 5: rho must be a number in (0, 1], got 5"),
    (_swap("[rules.kfirst]", "[rules.rrf]\nk_rrf = -1\n[rules.kfirst]"),
     "[rules.rrf] k_rrf = -1: k_rrf must be a number ≥ 0, got -1"),
    # the SD tie break of Average-SD / 3Q-SD
    (_swap("[rules.kfirst]", '[rules.avsd]\nrule = "average_sd"\nsd_tie_break = "minimum"\n'
                             "[rules.kfirst]"),
     '[rules.avsd] sd_tie_break = "minimum": sd_tie_break must be \'max\' or \'min\', got '
     "'minimum'; did you mean 'min'? (refused by rule \"average_sd\")"),
    (_swap("[rules.kfirst]", '[rules.avsd]\nrule = "average_sd"\nsd_tie_break = 1\n'
                             "[rules.kfirst]"),
     "[rules.avsd] sd_tie_break = 1: sd_tie_break must be 'max' or 'min', got 1"),
    (_swap("[rules.kfirst]", '[rules.q3_sd]\nsd_tie_break = ["min"]\n[rules.kfirst]'),
     "[rules.q3_sd] sd_tie_break = ['min']: sd_tie_break must be 'max' or 'min', got ['min']"),
    (_swap("[rules.kfirst]", '[rules.q3_sd]\ntie_break = "min"\n[rules.kfirst]'),
     '[rules.q3_sd] tie_break: unknown parameter of rule "q3_sd"; did you mean '
     '"sd_tie_break"?'),
    (_svm_rfe('aggregation = "q3_sd"\naggregation_params = { sd_tie_break = "low" }'),
     "[selectors.rfe] aggregation_params sd_tie_break = \"low\": sd_tie_break must be 'max' "
     "or 'min'"),
    (_swap(ENS, ENS + '\naggregation = "ga"\naggregation_params = { mutation = 2.0 }'),
     "[selectors.ens] aggregation_params mutation = 2.0: mutation must be a number in (0, 1], "
     "got 2.0"),
    (_svm_rfe('aggregation = "ga"\naggregation_params = { max_iter = 0 }'),
     "[selectors.rfe] aggregation_params max_iter = 0: max_iter must be an int ≥ 1, got 0"),
    (_svm_rfe('aggregation = "kfirst"\naggregation_params = { k = 2, bogus = 1 }'),
     "[selectors.rfe] aggregation_params bogus = 1: aggregation method 'kfirst' got unknown "
     "parameter(s) ['bogus']"),
    (_svm_rfe('aggregation = "bordaa"'),
     '[selectors.rfe] aggregation = "bordaa": unknown rule; did you mean "borda"?'),
    # selector tables, by the selector's own check
    (_svm_rfe("tol = -1.0"),
     "[selectors.rfe] tol = -1.0: tol must be a number > 0, got -1.0"),
    (_svm_rfe("step = 0.1\nstep_until = -5"),
     "[selectors.rfe] step_until = -5: step_until must be an int ≥ 1, got -5"),
    (_swap(ENS, ENS + "\nweight_k = -2"),
     "[selectors.ens] weight_k = -2: weight_k must be None, an int ≥ 1 or a number in (0, 1], "
     "got -2"),
    (_swap(ENS, ENS + "\nweight_k = 1.5"),
     "[selectors.ens] weight_k = 1.5: weight_k must be None, an int ≥ 1 or a number in (0, 1], "
     "got 1.5"),
    (_swap(ENS, ENS + "\nsubset_grid = [1, 2]"),
     "[selectors.ens] subset_grid = [1, 2]: subset_grid applies to a searched size; set "
     "n_features_to_select="),
    (_swap(ENS, ENS + '\nn_features_to_select = "k-step"\nsubset_grid = [0, 2]'),
     "[selectors.ens] subset_grid = [0, 2]: subset_grid must be None or a list of counts (ints "
     "≥ 1), got [0, 2]"),
    # a bootstrap too small for the rows the ensemble's fits will see
    (_swap(ENS, ENS + "\nn_bootstraps = 3\nsample_fraction = 0.001"),
     "[selectors.ens] sample_fraction = 0.001 on dataset 'iris' (150 × 4): sample_fraction=0.001 "
     "draws 1 row of class 0 (of its 35) per bootstrap sample of a training part of "
     "[protocols.curve]; at least 2 rows of every class are needed to rank features: use "
     "sample_fraction ≥ 0.0429"),
    (_swap(ENS, ENS + "\nn_bootstraps = 3\nsample_fraction = 0.03\nstratify = false"),
     "[selectors.ens] sample_fraction = 0.03 on dataset 'iris' (150 × 4): sample_fraction=0.03 "
     "draws 3 rows (of 105)"),
]


@pytest.mark.parametrize("text, fragment", BAD_VALUES,
                         ids=[f"value{i:02d}" for i in range(len(BAD_VALUES))])
def test_bad_values_fail_the_dry_run_naming_table_key_value_and_range(text, fragment):
    with pytest.raises(ConfigError) as info:
        parse_config(text)
    assert fragment in str(info.value), str(info.value)


def test_one_message_per_selector_not_per_rule():
    with pytest.raises(ConfigError) as info:
        parse_config(_swap(ENS, ENS + "\nweight_k = -2"))
    assert len(info.value.errors) == 1  # two rules are crossed with the selector


@pytest.mark.parametrize("text", [
    _swap(ENS, 'rankers = ["f_classif", { name = "relieff", n_neighbors = 100 }]'),  # > rows
    _swap("[rules.kfirst]", "[rules.ga]\nmax_iter = 20\nk = 3\n[rules.kfirst]"),
    _swap(ENS, ENS + "\nn_bootstraps = 2\nsample_fraction = 0.05"),
    _swap(ENS, ENS + "\nweight_k = 0.5"),
    _svm_rfe('aggregation = "ga"\naggregation_params = { max_iter = 5, k = 2 }'),
    _swap("[rules.kfirst]", '[rules.q3_sd]\nsd_tie_break = "min"\n[rules.kfirst]'),
    _svm_rfe('aggregation = "average_sd"\naggregation_params = { sd_tie_break = "min" }'),
])
def test_good_values_pass(text):
    parse_config(text)


def test_a_bad_value_fails_before_any_cell_runs(tmp_path, monkeypatch):
    def boom(*a, **k):  # pragma: no cover - must not be reached
        raise AssertionError("a cell ran although the config is invalid")

    monkeypatch.setattr(cells_mod, "run_cell", boom)
    monkeypatch.setattr(runner_mod, "run_cell", boom)
    out = tmp_path / "out"
    with pytest.raises(ConfigError, match="n_neighbors = -3"):
        run_experiment(_swap(ENS, 'rankers = [{ name = "relieff", n_neighbors = -3 }]'), out)
    assert not out.exists()


# the MSVM criteria's former spelling, decomposition = "<msvm>" (svm_rfe.resolve_criterion)
def _msvm(line: str) -> str:
    return _svm_rfe(f'{line}\naggregation = "average"')


@pytest.mark.parametrize("msvm", ["crammer_singer", "weston_watkins"])
def test_former_msvm_spelling_warns_once_and_plans_the_same_cells(msvm):
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old = parse_config(_msvm(f'decomposition = "{msvm}"'))
    future = [w for w in caught if issubclass(w.category, FutureWarning)]
    assert len(future) == 1, [str(w.message) for w in future]  # one per table, not per cell
    msg = str(future[0].message)
    assert f'[selectors.rfe] decomposition = "{msvm}" is deprecated' in msg
    assert f'criterion = "{msvm}"' in msg
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        new = parse_config(_msvm(f'criterion = "{msvm}"'))
    assert [c.hash for c in old.cells] == [c.hash for c in new.cells]
    params = old.cells[0].spec["selector"]["params"]
    assert params["criterion"] == msvm and "decomposition" not in params


@pytest.mark.parametrize("line, fragment", [
    ('decomposition = "crammer_singer"\ncriterion = "weston_watkins"',
     '[selectors.rfe] decomposition = "crammer_singer": the former spelling of criterion = '
     '"crammer_singer" contradicts criterion = "weston_watkins": give criterion only'),
    ('decomposition = "weston_watkins"\ncriterion = "crammer_singer"',
     'contradicts criterion = "crammer_singer"'),
    ('decomposition = "crammer"', '[selectors.rfe] decomposition'),
])
def test_former_msvm_spelling_contradicting_or_misspelt_is_refused(line, fragment):
    with pytest.raises(ConfigError) as info:
        parse_config(_msvm(line))
    assert fragment in str(info.value), str(info.value)


def test_former_msvm_spelling_with_its_own_criterion_is_accepted():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        cfg = parse_config(_msvm('decomposition = "crammer_singer"\ncriterion = "crammer_singer"'))
    assert cfg.cells[0].spec["selector"]["params"]["criterion"] == "crammer_singer"


# error_curve's K-fold splits (splits = "kfold")
_CURVE = "n_splits = 3\ntest_size = 0.3"


def test_kfold_curve_is_planned_without_test_size_and_random_keeps_the_hashes():
    kfold = parse_config(_swap(_CURVE, 'n_splits = 3\nsplits = "kfold"'))
    pp = kfold.cells[0].spec["protocol"]["params"]
    assert pp["splits"] == "kfold" and "test_size" not in pp
    plain = parse_config(tiny_config())
    explicit = parse_config(_swap(_CURVE, _CURVE + '\nsplits = "random"'))
    # "random" is the default and is left out of the spec: the cells keep their hashes
    assert [c.hash for c in explicit.cells] == [c.hash for c in plain.cells]
    assert {c.hash for c in kfold.cells}.isdisjoint(c.hash for c in plain.cells)


@pytest.mark.parametrize("new, fragment", [
    ('n_splits = 3\ntest_size = 0.3\nsplits = "kfold"',
     '[protocols.curve] test_size = 0.3: not used with splits = "kfold"'),
    ('n_splits = 3\nsplits = "k-fold"', "[protocols.curve] splits = \"k-fold\": splits must be "
     "'random' or 'kfold'"),
    ('n_splits = 3\nsplits = 5', "[protocols.curve] splits"),
    ('n_splits = 60\nsplits = "kfold"', "n_splits = 60: 60 folds (splits = \"kfold\") need at "
     "least 60 rows of every class"),
    ('n_splits = 200\nsplits = "kfold"\nstratify = false', "n_splits = 200: 200 folds "
     "(splits = \"kfold\") need at least 200 rows"),
])
def test_kfold_curve_bad_settings_are_refused(new, fragment):
    with pytest.raises(ConfigError) as info:
        parse_config(_swap(_CURVE, new))
    assert fragment in str(info.value), str(info.value)


def test_kfold_curve_cell_runs_one_row_of_results_per_fold(tmp_path):
    from rankfusion.experiments import read_results

    text = _swap(_CURVE, 'n_splits = 3\nsplits = "kfold"')
    text = text.replace('selectors = ["ens", "single"]', 'selectors = ["single"]')
    cfg = tmp_path / "k.toml"
    cfg.write_text(text)
    s = run_experiment(cfg, tmp_path / "out", report=False, progress=False)
    assert s.ok
    res = read_results(tmp_path / "out")[0]
    assert set(res["split"]) == {0, 1, 2}
