"""List aggregation: many ranked lists → one consensus ranking.

The rules and their keys: docs/design.md, 'Aggregation rules'.

:func:`resolve` turns a spec (``"borda"``, ``"kfirst:k=0.05"``, ``"fuzzy:OW"``) into a ready
:class:`RuleSpec`; :func:`aggregate` combines lists by it. Rules live one family per module
(``statistics``, ``voting``, …, ``fuzzy``) and register themselves by name
(:func:`register_rule`); those modules are imported on the first lookup of a rule, so that
importing this package loads none of them (nor numba). ``pairwise_matrix``,
``schulze_strengths``, ``transition_matrix``, ``stationary_distribution`` (Markov-chain rules),
``approval_sets`` (approval votes), ``aggregate_fuzzy``, ``FuzzyConsensus`` and
``FUZZY_WEIGHTINGS`` are imported from their modules on first use.

Examples
--------
>>> import numpy as np
>>> from rankfusion.aggregation import aggregate, resolve
>>> scores = np.array([[0.9, 0.1, 0.8], [0.5, 0.9, 0.7], [0.1, 0.3, 0.1]])
>>> rule = resolve("kfirst:k=1")
>>> rule.name, dict(rule.params)
('kfirst', {'k': 1})
>>> rule(scores).order.tolist() == aggregate(scores, "kfirst", k=1).order.tolist()
True
"""

from __future__ import annotations

from .._utils.lazy import lazy_exports
from ._registry import (
    Rule,
    available_methods,
    available_rules,
    get_rule,
    register,
    register_rule,
    rule_info,
)
from ._result import Consensus
from .api import aggregate, check_rule_params
from .spec import RuleSpec, resolve
from .ties import TIE_BREAKS, break_ties, tied_blocks

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from .approval import approval_sets
    from .fuzzy import FUZZY_WEIGHTINGS, FuzzyConsensus, aggregate_fuzzy
    from .markov import stationary_distribution, transition_matrix
    from .voting import pairwise_matrix, schulze_strengths

__all__ = [
    "aggregate",
    "aggregate_fuzzy",
    "available_rules",
    "available_methods",
    "check_rule_params",
    "get_rule",
    "rule_info",
    "register_rule",
    "register",
    "resolve",
    "Rule",
    "RuleSpec",
    "FuzzyConsensus",
    "FUZZY_WEIGHTINGS",
    "Consensus",
    "pairwise_matrix",
    "schulze_strengths",
    "transition_matrix",
    "stationary_distribution",
    "approval_sets",
    "break_ties",
    "tied_blocks",
    "TIE_BREAKS",
]

__getattr__, __dir__ = lazy_exports(__name__, {
    "aggregate_fuzzy": ".fuzzy", "FuzzyConsensus": ".fuzzy", "FUZZY_WEIGHTINGS": ".fuzzy",
    "pairwise_matrix": ".voting", "schulze_strengths": ".voting",
    "transition_matrix": ".markov", "stationary_distribution": ".markov",
    "approval_sets": ".approval",
})
