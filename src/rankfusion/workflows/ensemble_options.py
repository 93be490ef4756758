"""An :class:`~rankfusion.EnsembleSelector` from plain options (names and numbers, as a command
line gives them), checked before any data are read: unknown rankers, rules and classifiers fail
with a did-you-mean, and each ``NAME=VALUE`` parameter goes to the rule and to the rankers
that take it (:func:`ensemble_from_options`; :func:`parse_subset` reads a subset size)."""

from __future__ import annotations

import difflib
import numbers
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    from ..selection import EnsembleSelector

__all__ = ["ensemble_from_options", "parse_subset", "regressors_from_names"]

_SEARCHES = ("k-step", "learning-curve")


def _did_you_mean(value: str, known: Sequence[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest known name, else ``";"`` (the registries'
    style: the list of known names follows)."""
    close = difflib.get_close_matches(value, list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ";"


def _hint(value: str, known: Sequence[str]) -> str:
    """``"; did you mean 'x'?"`` or nothing."""
    h = _did_you_mean(value, known)
    return "" if h == ";" else h


def parse_subset(text) -> None | int | float | str:
    """The subset size from its text: ``k-step``, ``learning-curve``, ``half`` (None: half the
    features, as scikit-learn's ``RFE``), a count (``25``) or a fraction in (0, 1] (``0.1``).

    Parameters
    ----------
    text : str
        ``k-step``, ``learning-curve``, ``half``, a count or a fraction.

    Returns
    -------
    None, int, float or str
        The value of ``n_features_to_select``.

    Examples
    --------
    >>> [parse_subset(t) for t in ("k-step", "25", "0.1", "half")]
    ['k-step', 25, 0.1, None]
    """
    if text is None:
        return None
    if not isinstance(text, str):
        raise TypeError(f"subset must be text, got {type(text).__name__}")
    t = text.strip().lower()
    if t in _SEARCHES:
        return t
    if t == "half":
        return None
    try:
        k = int(t)
    except ValueError:
        k = None
    if k is None:
        try:
            f = float(t)
        except ValueError:
            raise ValueError(
                f"subset {text!r} is not k-step, learning-curve, half, a count or a fraction"
                f"{_hint(t, [*_SEARCHES, 'half'])}") from None
        if not (np.isfinite(f) and 0.0 < f <= 1.0):
            raise ValueError(f"subset {text!r}: a fraction must lie in (0, 1]")
        return f
    if k < 1:
        raise ValueError(f"subset {text!r}: a count must be ≥ 1")
    return k


def _check_rankers(rankers) -> list[str]:
    from ..rankers import get_ranker

    if isinstance(rankers, str):
        rankers = [r.strip() for r in rankers.split(",")]
    names = [str(r).strip() for r in rankers]
    if not names or any(not n for n in names):
        raise ValueError("rankers: give at least one ranker name, separated by commas "
                         "without empty entries")
    for n in names:
        get_ranker(n)  # did-you-mean on unknown names
    return names


def _check_aggregation(aggregation: str) -> str:
    """The canonical spec text of ``aggregation`` (:func:`rankfusion.aggregation.resolve`)."""
    from ..aggregation import resolve

    if not isinstance(aggregation, str) or not aggregation.strip():
        raise ValueError("aggregation must name a rule, e.g. borda or fuzzy:OW")
    return resolve(aggregation.strip()).label  # did-you-mean on unknown names and values


def _estimators(names, random_state) -> dict | None:
    if names is None:
        return None
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",")]
    elif isinstance(names, (bytes, Mapping)) or not isinstance(names, Iterable):
        raise TypeError("estimators must be classifier names (comma-separated text or a list), "
                        f"got {names!r} of type {type(names).__name__}")
    names = list(names)
    if not names or any(isinstance(n, str) and not n for n in names):
        raise ValueError("estimators: give at least one classifier name, separated by commas")
    from ..selection.estimators import estimator_by_name

    # the papers' four or any registered classifier; an unknown name raises, naming the
    # closest known one
    pool = {n: estimator_by_name(n, argument="estimators", random_state=random_state,
                                 objects=False) for n in names}
    if len(set(names)) < len(names):
        raise ValueError(f"estimators: {names} names a classifier twice")
    return pool


def regressors_from_names(names, random_state=None) -> dict:
    """Regressor objects from registered regressor names (comma-separated text or a list),
    for an :class:`~rankfusion.EnsembleSelector` fitted with ``task="regression"`` (the first
    one scores the lists' weights and the subset sizes; docs/design.md, 'Tasks'). A
    classifier name is refused naming the regressors.

    Parameters
    ----------
    names : str or sequence of str
        Names of :func:`rankfusion.selection.classifiers.available_classifiers` with
        ``task="regression"`` (``ridge``, ``linear_svr``, …).
    random_state : int, optional
        Passed to each factory.

    Returns
    -------
    dict of str → regressor
    """
    from ..selection.classifiers import make_classifier

    if isinstance(names, str):
        names = [n.strip() for n in names.split(",")]
    elif isinstance(names, (bytes, Mapping)) or not isinstance(names, Iterable):
        raise TypeError("estimators must be regressor names (comma-separated text or a list), "
                        f"got {names!r} of type {type(names).__name__}")
    names = list(names)
    if not names or any(not isinstance(n, str) or not n for n in names):
        raise ValueError("estimators: give at least one regressor name, separated by commas")
    if len(set(names)) < len(names):
        raise ValueError(f"estimators: {names} names a regressor twice")
    return {n: make_classifier(n, task="regression", random_state=random_state)
            for n in names}


def _check_estimator_names(names) -> list[str]:
    """Names of classifiers or regressors, each registered (for ``task="auto"``: which kind
    is needed is known once the target is read). Classifier names get the classifiers'
    checks and messages."""
    from ..selection.classifiers import available_classifiers

    regressors = set(available_classifiers("regression"))
    if isinstance(names, str):
        listed = [n.strip() for n in names.split(",")]
    elif isinstance(names, (bytes, Mapping)) or not isinstance(names, Iterable):
        listed = None
    else:
        listed = list(names)
    is_reg = [isinstance(n, str) and n in regressors for n in listed or []]
    if listed and all(is_reg):
        return regressors_from_names(listed) and listed  # duplicates refused there
    if any(is_reg):
        raise ValueError(f"estimators: {listed} mixes classifiers and regressors; give the "
                         "estimators of one task")
    _estimators(names, None)  # the classifiers' checks (did-you-mean on unknown names)
    return listed


def _route_params(params: Mapping, rankers: list[str], aggregation: str):
    """Split ``NAME=VALUE`` parameters between the rule and the rankers that take them."""
    from ..aggregation import resolve
    from ..rankers import ranker_info

    rule = resolve(aggregation).entry
    infos = [ranker_info(r) for r in rankers]
    agg_params: dict = {}
    own: list[dict] = [{} for _ in rankers]
    for key, value in params.items():
        used = False
        if rule is not None and rule.accepts(key):
            agg_params[key] = value
            used = True
        for i, info in enumerate(infos):
            if info.accepts(key):
                own[i][key] = value
                used = True
        if not used:
            takers = sorted({q for i in infos for q in i.params}
                            | (set(rule.params) if rule is not None else set()))
            raise ValueError(f"parameter {key!r}: neither the rule {aggregation!r} nor the "
                             f"rankers {', '.join(rankers)} take it"
                             f"{_did_you_mean(key, takers)} they take: "
                             f"{', '.join(takers) or 'nothing'}")
    specs = [r if not o else (r, o) for r, o in zip(rankers, own)]
    return specs, agg_params or None


def ensemble_from_options(*, rankers="info_gain,relieff,nlc", aggregation: str = "borda",
                          n_bootstraps: int = 0, subset=None, estimators=None,
                          params: Mapping | None = None, cv: int = 5, random_state=None,
                          n_jobs: int | None = None, progress: bool = False,
                          tie_break: str = "index", task: str = "auto") -> EnsembleSelector:
    """An :class:`~rankfusion.EnsembleSelector` from plain options, checked before any data.

    Parameters
    ----------
    rankers : str or sequence of str
        Registered ranker names (comma-separated text or a list).
    aggregation : str
        A rule spec of :func:`rankfusion.aggregation.resolve` (``borda``, ``kfirst:k=0.05``,
        ``fuzzy:EW|RW|OW|MW``).
    n_bootstraps : int ≥ 0
    subset : None, int, float or str
        ``n_features_to_select``; text goes through :func:`parse_subset`.
    estimators : None, str or sequence of str
        Names among the papers' classifiers (``linear_svm``, ``naive_bayes``, ``knn1``,
        ``tree``) for the size search; None = all four.
    params : dict, optional
        ``NAME → value``: each goes to the rule if it takes it and to every ranker that takes it;
        a name nobody takes is an error.
    cv, random_state, n_jobs, progress, tie_break
        As :class:`~rankfusion.EnsembleSelector`.
    task : {"auto", "classification", "regression"}, default "auto"
        As :class:`~rankfusion.EnsembleSelector` (docs/design.md, 'Tasks'). With
        ``"regression"`` the ``estimators`` are regressor names
        (:func:`regressors_from_names`); with ``"auto"`` they are checked as names of one
        kind and left for :func:`run_selection` to build once the target is read.

    Returns
    -------
    EnsembleSelector
        Unfitted, its parameters checked.
    """
    from .._utils.task import check_task
    from ..selection import EnsembleSelector

    task = check_task(task)
    names = _check_rankers(rankers)
    agg = _check_aggregation(aggregation)
    if isinstance(n_bootstraps, (bool, np.bool_)) or not isinstance(n_bootstraps,
                                                                    numbers.Integral):
        raise TypeError(f"n_bootstraps must be an int ≥ 0, got {n_bootstraps!r}")
    if n_bootstraps < 0:
        raise ValueError(f"n_bootstraps must be ≥ 0, got {n_bootstraps}")
    if isinstance(subset, str):
        subset = parse_subset(subset)
    specs, agg_params = _route_params(dict(params or {}), names, agg)
    if estimators is None:
        pool = None
    elif task == "regression":
        pool = regressors_from_names(estimators)
    elif task == "classification":
        pool = _estimators(estimators, None)
    else:
        names_given = _check_estimator_names(estimators)
        from ..selection.classifiers import available_classifiers

        pool = (None if all(n in available_classifiers("regression") for n in names_given)
                else _estimators(names_given, None))  # regressors: built once y is read
    sel = EnsembleSelector(rankers=specs, aggregation=agg, aggregation_params=agg_params,
                           n_bootstraps=int(n_bootstraps), n_features_to_select=subset,
                           estimators=pool, cv=cv,
                           random_state=random_state, n_jobs=n_jobs, progress=progress,
                           tie_break=tie_break, task=task)
    sel._check_params()  # every remaining rule of the selector, before the data are read
    return sel
