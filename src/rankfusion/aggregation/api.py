"""Combining lists by a registered rule: :func:`aggregate`, and :func:`check_rule_params`
(docs/design.md, 'Aggregation rules').

:func:`aggregate` resolves the rule (:func:`~rankfusion.aggregation.resolve`), checks the
parameters once against the rule's declared constraints, validates the lists and weights, and
calls the rule. What depends on the data (a count ``k`` above the number of features) the rule
checks itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .._utils.validation import check_weights
from ..lists import as_ranked_lists
from ._result import Consensus
from .spec import RuleSpec, check_values, resolve

__all__ = ["aggregate", "check_rule_params"]


def aggregate(lists, method, *, weights=None, groups=None, **params: Any) -> Consensus:
    """Combine ranked lists into one consensus ranking.

    Parameters
    ----------
    lists : RankedLists, DataFrame or array-like of shape (p, M)
        The lists. A bare 2-D array or a DataFrame is a matrix of *scores*, features × lists,
        higher = better (docs/design.md, 'Scores and positions'); positions and orders come
        in through :class:`~rankfusion.RankedLists`.
    method : str, tuple or RuleSpec
        The rule, one of :func:`~rankfusion.aggregation.available_rules` (``kfirst``,
        ``schulze``, ``borda``, …), or a spec with its parameters (``"kfirst:k=0.05"``,
        ``("kfirst", {"k": 0.05})``, a :class:`~rankfusion.aggregation.RuleSpec`).
    weights : array-like of shape (M,), optional
        Non-negative list weights, where the rule can use them (mean-based rules, pairwise
        counts, ``rrf``); ``median``, ``q3_sd``, ``best_rank`` and ``fuzzy`` refuse them.
    groups : mapping, optional
        For a rule that combines each method's lists as a group (``fuzzy``): method → the
        names of its lists. Default: the lists grouped by the part of their names before
        ``@`` (``relieff@b3``), all lists one method when no name holds one.
    **params
        The rule's own parameters (``k`` for ``kfirst``, ``k_rrf`` for ``rrf`` …), each one
        the spec does not set already.

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
    >>> aggregate(scores, "kfirst:k=1").params
    {'k': 1}
    """
    spec = resolve(method, argument="method")
    if spec.entry is None:
        raise TypeError("method must name a registered rule; call an aggregation callable "
                        "directly (or through resolve(f)(lists))")
    rule = spec.entry
    lists = as_ranked_lists(lists)
    unknown = sorted(k for k in params if not rule.accepts(k))
    if unknown:
        raise TypeError(
            f"aggregation method {rule.name!r} got unknown parameter(s) {unknown}; "
            f"its parameters: {', '.join(rule.params) or 'none'}"
        )
    twice = sorted(set(params) & set(spec.params))
    if twice:
        raise TypeError(f"aggregation method {rule.name!r} got parameter(s) {twice} both in "
                        f"the spec {spec.label!r} and as keywords")
    params = {**spec.params, **check_values(rule, params)}
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
    if rule.tags.get("groups"):
        params["groups"] = groups
    elif groups is not None:
        raise ValueError(f"aggregation method {rule.name!r} combines the lists one by one; "
                         "groups= applies to rules that combine each method's lists (fuzzy)")
    return rule.func(lists, weights=weights, **params)


def check_rule_params(method, params: Mapping | None = None) -> RuleSpec:
    """Check a rule and its parameter values against the rule's declared constraints, before
    any real work (an experiment's ``--dry-run``).

    The check is the one :func:`aggregate` makes: the parameters must be the rule's and each
    value must satisfy its constraints (docs/design.md, 'Parameters'). What depends on the
    data (a count ``k`` above the number of features) is checked when the rule runs.

    Parameters
    ----------
    method : str
        A rule of :func:`~rankfusion.aggregation.available_rules`, or a spec with parameters
        (``"fuzzy:OW"``).
    params : dict, optional
        Its parameters.

    Returns
    -------
    RuleSpec
        The resolved rule.

    Raises
    ------
    ValueError, TypeError
        An unknown rule or parameter, or a value the rule's constraints refuse.

    Examples
    --------
    >>> check_rule_params("rrf", {"k_rrf": 60})
    RuleSpec('rrf:k_rrf=60')
    >>> check_rule_params("rrf", {"k_rrf": -1})
    Traceback (most recent call last):
    ...
    ValueError: k_rrf must be a number ≥ 0, got -1
    """
    if not isinstance(method, str):
        raise TypeError(f"method must be a string, got {type(method).__name__}")
    return resolve((method, dict(params or {})), argument="method")
