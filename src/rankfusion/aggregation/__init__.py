"""List aggregation: many ranked lists → one consensus ranking.

The rules and their keys: docs/design.md, 'Aggregation rules'.

:func:`aggregate` validates its input, looks the rule up in the registry and calls it. Rules
live one family per module (``statistics``, ``voting``, …) and register themselves by name.
"""

from __future__ import annotations

from typing import Any

from .._utils.validation import check_weights
from ..lists import as_ranked_lists
from . import cross_entropy, genetic, kemeny, rra, statistics, voting  # noqa: F401 (rules)
from ._registry import Rule, available_methods, get_rule, register
from ._result import Consensus
from .fuzzy import FUZZY_WEIGHTINGS, FuzzyConsensus, aggregate_fuzzy
from .voting import pairwise_matrix, schulze_strengths

__all__ = [
    "aggregate",
    "aggregate_fuzzy",
    "available_methods",
    "check_rule_params",
    "get_rule",
    "Rule",
    "FuzzyConsensus",
    "FUZZY_WEIGHTINGS",
    "register",
    "Consensus",
    "pairwise_matrix",
    "schulze_strengths",
]


def aggregate(lists, method: str, *, weights=None, **params: Any) -> Consensus:
    """Combine ranked lists into one consensus ranking.

    Parameters
    ----------
    lists : RankedLists, DataFrame or array-like of shape (p, M)
        The lists. A bare 2-D array or a DataFrame is a matrix of *scores*, features × lists,
        higher = better (docs/design.md, 'Scores and positions'); positions and orders come
        in through :class:`~rankfusion.RankedLists`.
    method : str
        The rule, one of :func:`available_methods` (``kfirst``, ``schulze``, ``borda``, …).
    weights : array-like of shape (M,), optional
        Non-negative list weights, where the rule can use them (mean-based rules, pairwise
        counts, ``rrf``); ``median``, ``q3_sd`` and ``best_rank`` refuse them.
    **params
        The rule's own parameters (``k`` for ``kfirst``, ``k_rrf`` for ``rrf`` …).

    Returns
    -------
    Consensus
        ``order`` (feature indices, best first), ``scores`` (the rule's primary key, higher =
        better), ``ranks`` (1 = best), ``features``, ``method``, ``params`` and ``to_frame()``.

    Notes
    -----
    One list is accepted: its consensus is the list itself, ties broken by each rule's
    secondary key and then the lower feature index. One feature is accepted too.

    Examples
    --------
    >>> import numpy as np
    >>> from rankfusion import aggregate
    >>> scores = np.array([[0.9, 0.1, 0.8], [0.5, 0.9, 0.7], [0.1, 0.3, 0.1]])
    >>> res = aggregate(scores, "borda")
    >>> res.scores.round(3)  # features 0 and 1 tie on the mean relative ranking …
    array([0.444, 0.444, 0.111])
    >>> res.order  # … and the lower index breaks the tie
    array([0, 1, 2])
    >>> aggregate(scores, "kfirst", k=1).params
    {'k': 1}
    """
    rule = get_rule(method)
    lists = as_ranked_lists(lists)
    unknown = sorted(set(params) - set(rule.params))
    if unknown:
        known = ", ".join(rule.params) or "none"
        raise TypeError(
            f"aggregation method {rule.name!r} got unknown parameter(s) {unknown}; "
            f"its parameters: {known}"
        )
    if weights is not None and not rule.weights:
        raise ValueError(
            f"aggregation method {rule.name!r} takes no list weights; "
            "drop weights= or choose a mean-based or pairwise rule"
        )
    weights = check_weights(weights, lists.n_lists, list_names=lists.list_names)
    if rule.needs_scores and not lists.has_scores:
        raise ValueError(
            f"aggregation method {rule.name!r} needs raw scores; these lists were built "
            "from orders or positions"
        )
    return rule.func(lists, weights=weights, **params)


def check_rule_params(method: str, params: dict | None = None) -> None:
    """Check a rule's parameter values by the rule's own checks, before any real work (an
    experiment's ``--dry-run``).

    The rule runs on small made-up score lists (3 lists of 4 features, then of 2), which
    reaches every check the rule makes of its parameters. A count ``k`` above the made-up
    features is lowered to their number (whether it fits the real data is checked against
    each data set). A failure counts only if its message names one of ``params`` and both
    made-up sizes fail: a limit that depends on the number of features is left to the data.

    Parameters
    ----------
    method : str
        A rule of :func:`available_methods`.
    params : dict, optional
        Its parameters.

    Raises
    ------
    ValueError, TypeError
        The rule's own error for a value it refuses, or an unknown rule or parameter.

    Examples
    --------
    >>> check_rule_params("rrf", {"k_rrf": 60})
    >>> check_rule_params("rrf", {"k_rrf": -1})
    Traceback (most recent call last):
    ...
    ValueError: k_rrf must be a finite number ≥ 0, got -1
    """
    import re

    import numpy as np

    from ..lists import RankedLists

    rule = get_rule(method)
    params = dict(params or {})
    unknown = sorted(set(params) - set(rule.params))
    if unknown:
        raise TypeError(f"aggregation method {rule.name!r} got unknown parameter(s) "
                        f"{unknown}; its parameters: {', '.join(rule.params) or 'none'}")
    if not params:
        return
    first = None
    for p in (4, 2):
        scores = np.random.default_rng(7).permutation(np.arange(3 * p, dtype=float))
        lists = RankedLists.from_scores(scores.reshape(p, 3))
        probe = dict(params)
        k = probe.get("k")
        if isinstance(k, (int, np.integer)) and not isinstance(k, bool) and k > p:
            probe["k"] = p
        try:
            aggregate(lists, rule.name, **probe)
            return
        except (ValueError, TypeError) as exc:
            if not any(re.search(rf"(?<!\w){re.escape(str(key))}(?!\w)", str(exc))
                       for key in params):
                return  # about the made-up lists, not the parameters
            first = first or exc
        except Exception:  # noqa: BLE001 - anything else is the real data's business
            return
    raise first
