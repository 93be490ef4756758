"""Small, fast experiment configurations shared by the experiment tests."""

from __future__ import annotations

BASE = """
[experiment]
name = "tiny"
seed = {seed}

[grid]
datasets = {datasets}
selectors = ["ens", "single"]
rules = {rules}
classifiers = ["naive_bayes"]
protocols = ["curve"]

[datasets.wine]
source = "sklearn:wine"

[selectors.ens]
kind = "ensemble"
rankers = ["f_classif", "chi2"]

[selectors.single]
kind = "ranker"
ranker = "f_classif"

[rules.kfirst]
k = {k}

[protocols.curve]
kind = "error_curve"
n_splits = {n_splits}
test_size = 0.3
n_features = [1, 2, 4]
"""


def tiny_config(*, seed=7, datasets=("iris", "wine"), rules=("borda", "kfirst"), k=0.5,
                n_splits=3) -> str:
    """TOML text of a grid of len(datasets) × (2 rules + 1 single ranker) cells."""
    as_list = lambda xs: "[" + ", ".join(f'"{x}"' for x in xs) + "]"  # noqa: E731
    return BASE.format(seed=seed, datasets=as_list(datasets), rules=as_list(rules), k=k,
                       n_splits=n_splits)

