"""The Markov-chain and approval rules and the new list weightings in the experiment runner's
TOML and the advisor's rule vocabulary."""

from __future__ import annotations

import pytest
from experiment_configs import tiny_config

from rankfusion.evaluation.advisor import parse_rule
from rankfusion.experiments import ConfigError, parse_config

NEW_RULES = ("mc1", "mc2", "mc3", "mc4", "approval", "sav", "seq_pav", "seq_phragmen")


@pytest.mark.parametrize("rule", NEW_RULES)
def test_the_advisor_reads_the_new_rules(rule):
    assert parse_rule(rule) == (rule, {})


def test_the_advisor_reads_their_parameters_and_refuses_bad_ones():
    assert parse_rule("mc4:variant=pyflagr,ergodic_number=0.2") == (
        "mc4", {"variant": "pyflagr", "ergodic_number": 0.2})
    assert parse_rule("seq_pav:k=5") == ("seq_pav", {"k": 5})
    assert parse_rule("av") == ("approval", {})
    with pytest.raises(ValueError, match="variant"):
        parse_rule("mc2:variant=paper")
    with pytest.raises(ValueError, match="did you mean 'mc4'"):
        parse_rule("mc5")


def test_the_runner_plans_cells_with_the_new_rules():
    text = tiny_config(rules=("mc4", "seq_phragmen"))
    text = text.replace("[rules.kfirst]\nk = 0.5\n",
                        '[rules.mc4]\nvariant = "pyflagr"\n[rules.seq_phragmen]\nk = 3\n')
    cfg = parse_config(text)
    labels = [c.label for c in cfg.cells]
    assert "iris/ens+mc4/naive_bayes/curve" in labels
    assert "wine/ens+seq_phragmen/naive_bayes/curve" in labels


@pytest.mark.parametrize("table, fragment", [
    ('[rules.mc4]\nvariant = "paper"\n', "variant"),
    ("[rules.mc4]\nergodic_number = 2.0\n", "ergodic_number"),
    ("[rules.seq_pav]\nk = 0\n", "k"),
])
def test_the_runner_refuses_bad_parameters(table, fragment):
    rule = table.split("]")[0].split(".")[1]
    text = tiny_config(rules=("borda", rule)).replace("[rules.kfirst]\nk = 0.5\n", table)
    with pytest.raises(ConfigError, match=fragment):
        parse_config(text)


@pytest.mark.parametrize("lw", ["accuracy_above_chance", "accuracy_softmax:0.05",
                                "accuracy_rank"])
def test_the_runner_accepts_the_new_list_weightings(lw):
    text = tiny_config().replace('rankers = ["f_classif", "chi2"]',
                                 f'rankers = ["f_classif", "chi2"]\nlist_weights = "{lw}"')
    assert len(parse_config(text).cells) == 6


def test_the_runner_refuses_a_bad_list_weighting():
    text = tiny_config().replace('rankers = ["f_classif", "chi2"]',
                                 'rankers = ["f_classif", "chi2"]\n'
                                 'list_weights = "accuracy_softmax:0"')
    with pytest.raises(ConfigError, match="list_weights"):
        parse_config(text)


def test_the_advisor_runs_the_new_rules():
    from sklearn.datasets import load_wine

    from rankfusion.evaluation.advisor import advise

    X, y = load_wine(return_X_y=True)
    adv = advise(X, y, rankers=("f_classif", "chi2"), rules=("mc4", "seq_pav:k=4"),
                 sizes=[2, 4], random_state=0)
    assert {"mc4", "seq_pav:k=4"} <= set(adv.table["rule"])
    assert adv.table["score"].notna().all()
