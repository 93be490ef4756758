"""Every registered ranker and rule by name in the advisor and in the experiment runner's TOML.

No hand-kept list of names: the cases are the registries themselves
(:func:`rankfusion.rankers.available_rankers`, :func:`rankfusion.aggregation.available_rules`),
so a ranker or rule registered later is tested here without editing this file. Each is either
accepted by :func:`rankfusion.advise` (checked, then run on the choice on all the data) and by
the runner's config validator (:func:`rankfusion.experiments.parse_config`), or refused with a
message saying why (``REFUSED``, which a name leaves by being accepted: the test then fails).
"""

from __future__ import annotations

import numpy as np
import pytest

from rankfusion.aggregation import available_rules, get_rule
from rankfusion.evaluation.advisor import advice_part, prepare_advice
from rankfusion.experiments import ConfigError, parse_config
from rankfusion.rankers import available_rankers, ranker_tasks

RANKERS = available_rankers()
RULES = available_rules()

#: The advisor's refusals, each with the reason its message must give.
REFUSED_BY_ADVISOR = {
    "svm_rfe": r"rankers\[0\]: 'svm_rfe' gives several lists \(one per binary problem\).*"
               r"one score per feature.*EnsembleSelector",
}
#: The runner's: a fuzzy rule combines each ranker's bootstrap lists, so the ensemble must
#: draw some (accepted once it does).
REFUSED_BY_RUNNER = {"fuzzy": r"a fuzzy rule needs n_bootstraps ≥ 2 in the ensemble"}

_RNG = np.random.default_rng(0)
X_CLS = np.abs(_RNG.normal(size=(36, 5)))
Y_CLS = np.repeat([0, 1], 18)
X_CLS[:, 0] += Y_CLS
X_REG = _RNG.normal(size=(36, 5))
Y_REG = 2 * X_REG[:, 0] + 0.3 * _RNG.normal(size=36)
FAST = dict(sizes=[2], cv=2, inner_cv=2, n_repeats=1, random_state=0, n_bootstraps=2)

CONFIG = '''
[experiment]
name = "vocabulary"
seed = 1
{task}
[grid]
datasets = ["{dataset}"]
selectors = ["ens"]
rules = ["{rule}"]
classifiers = ["{estimator}"]
protocols = ["curve"]

[selectors.ens]
kind = "ensemble"
rankers = ["{a}", "{b}"]
{extra}
[protocols.curve]
kind = "error_curve"
n_splits = 2
test_size = 0.3
n_features = [1, 2]
'''


def _config(a, b, rule="borda", regression=False, extra=""):
    return CONFIG.format(task='task = "regression"' if regression else "",
                         dataset="cpu" if regression else "iris", rule=rule,
                         estimator="ridge" if regression else "naive_bayes", a=a, b=b,
                         extra=extra)


def _advise_part(X, y, **kw):
    """Check every argument as advise does, then run the choice on all the data (its inner
    folds rank, aggregate and score every configuration): the name is usable end to end."""
    task = prepare_advice(X, y, **FAST, **kw)
    part = advice_part(task, task.n_parts - 1)
    assert part["orders"].shape == (task.plan.n_orders, X.shape[1])
    return task


@pytest.mark.parametrize("name", RANKERS)
def test_every_registered_ranker_in_the_advisor_and_the_runner(name):
    regression = "regression" in ranker_tasks(name)
    X, y, partner = (X_REG, Y_REG, "pearson") if regression else (X_CLS, Y_CLS, "f_classif")
    if name in REFUSED_BY_ADVISOR:
        with pytest.raises(ValueError, match=REFUSED_BY_ADVISOR[name]):
            prepare_advice(X, y, rankers=(name, partner), rules=("borda",), **FAST)
    else:
        _advise_part(X, y, rankers=(name, partner), rules=("borda",))
    cfg = parse_config(_config(name, partner, regression=regression))
    assert len(cfg.cells) == 1


@pytest.mark.parametrize("name", [n for n in RANKERS if len(ranker_tasks(n)) == 1])
def test_every_ranker_of_the_other_task_is_refused_naming_why(name):
    # (a ranker of both tasks would have nothing to refuse)
    regression = "regression" not in ranker_tasks(name)  # the task it does not support
    X, y, partner = (X_REG, Y_REG, "pearson") if regression else (X_CLS, Y_CLS, "f_classif")
    other = "regression" if regression else "classification"
    with pytest.raises(ValueError, match=rf"rankers\[0\]: ranker '{name}' supports .* only, "
                                         rf"not {other}.*rankers for {other}: "):
        prepare_advice(X, y, rankers=(name, partner), rules=("borda",), **FAST)


@pytest.mark.parametrize("rule", RULES)
def test_every_registered_rule_in_the_advisor_and_the_runner(rule):
    task = _advise_part(X_CLS, Y_CLS, rankers=("f_classif", "chi2"), rules=(rule,))
    assert task.plan.rules[0][0] == get_rule(rule).name
    if rule in REFUSED_BY_RUNNER:
        with pytest.raises(ConfigError, match=REFUSED_BY_RUNNER[rule]):
            parse_config(_config("f_classif", "chi2", rule))
        cfg = parse_config(_config("f_classif", "chi2", rule, extra="n_bootstraps = 2\n"))
    else:
        cfg = parse_config(_config("f_classif", "chi2", rule))
    assert len(cfg.cells) == 1


def test_the_refusal_tables_name_registered_names_only():
    assert set(REFUSED_BY_ADVISOR) <= set(RANKERS)
    assert set(REFUSED_BY_RUNNER) <= set(RULES)


def test_the_new_methods_by_name_on_the_command_line(tmp_path, capsys):
    # the redundancy-aware rankers and the Markov-chain and approval rules, as a user types
    # them; the command adds nothing to the library's numbers
    import pandas as pd

    from rankfusion import advise
    from rankfusion.cli import main

    rankers = ["mrmr_mid", "mrmr_miq", "mrmr_fcq", "jmi", "cmim", "disr", "mifs"]
    rules = ["mc1", "mc2", "mc3", "mc4", "approval", "sav", "seq_pav:k=2", "seq_phragmen"]
    frame = pd.DataFrame(X_CLS, columns=[f"f{j}" for j in range(5)]).assign(cls=Y_CLS)
    path = tmp_path / "d.csv"
    frame.to_csv(path, index=False)
    code = main(["advise", str(path), "--rankers", ",".join(rankers), "--rules",
                 ",".join(rules), "--combine", "all", "--sizes", "2", "--cv", "2",
                 "--inner-cv", "2", "--repeats", "1", "--random-state", "0", "--top", "0"])
    out = capsys.readouterr().out
    assert code == 0
    adv = advise(frame.drop(columns="cls"), frame["cls"], rankers=rankers, rules=rules,
                 combine="all", sizes=[2], cv=2, inner_cv=2, n_repeats=1, random_state=0)
    assert adv.verdict in out
    assert set(adv.table["rule"]) == {"alone", *rules}
