"""The registry of feature rankers: name → function ``f(X, y, **params) -> scores``.

Every ranker returns one float per feature, higher = more relevant (docs/design.md, 'Scores and
positions').
The registry is one instance of :class:`rankfusion._utils.registry.Registry` with the verbs of
every registry (docs/design.md, 'Rankers'): :func:`register_ranker`, :func:`get_ranker` (the
function), :func:`ranker_info` (its entry) and :func:`available_rankers`; each entry keeps the
ranker's keyword parameters, so callers never inspect signatures at call time. A ranker that
also gives several lists carries its producer on its entry (tags ``multilist`` and ``lists``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._utils.constraints import Check, InstanceOf, Interval
from .._utils.registry import Entry, Registry
from .._utils.sparse import declare_sparse_rankers
from .._utils.validation import check_bool
from ._degenerate import rank_degenerate_last

__all__ = ["RANKERS", "register_ranker", "get_ranker", "ranker_info", "available_rankers",
           "RANDOM_STATE", "BOOL", "ranker_tasks", "check_ranker_task"]


def _bool_word(value) -> bool:
    try:
        check_bool(value, "value")
    except TypeError:
        return False
    return True


#: A bool parameter of a ranker, as :func:`~rankfusion._utils.validation.check_bool` reads it:
#: True/False, and the command line's 'true'/'false'/'yes'/'no' and 1/0 (docs/design.md,
#: 'Validation'); anything else is a TypeError naming the parameter. TOML: a bool.
BOOL = Check(_bool_word, "a bool", toml="bool")

#: The constraints of a ranker's ``random_state`` (docs/design.md, 'Seeds').
#: Any int ≥ 0 is one seed (the entropy of a SeedSequence, 128 bits for a fit's
#: ``seed_entropy_``); a RandomState is not taken.
RANDOM_STATE = [None, Interval("int", 0, None),
                InstanceOf((np.random.SeedSequence, np.random.Generator),
                           "a SeedSequence or a Generator")]

#: The module registering each ranker (and its aliases), imported when the name is first asked
#: for, so that ranking with ``info_gain`` loads neither numba nor scikit-learn. A test checks
#: this table against what the modules register.
PROVIDERS = {
    **dict.fromkeys(("info_gain", "ig", "infogain", "gain_ratio", "gr", "gainratio",
                     "symmetric_uncertainty", "su", "symmetrical_uncertainty", "chi_square",
                     "chi2_weka", "chisquare"), ".information"),
    "cfs": ".cfs",
    "ilfs": ".ilfs",
    "mifs": ".mifs",
    **dict.fromkeys(("mrmr_mid", "mrmr_miq", "mrmr_fcq", "jmi", "cmim", "disr"), ".redundancy"),
    **dict.fromkeys(("nlc", "label_changes"), ".nlc"),
    **dict.fromkeys(("relieff", "relief_f", "relief"), ".relief"),
    **dict.fromkeys(("f_classif", "anova", "chi2", "mutual_info_classif", "mutual_info",
                     "random_forest", "rf_importance"), ".sklearn_adapters"),
    **dict.fromkeys(("svm_rfe", "rfe_regression", "svr_rfe"), ".rfe"),
    **dict.fromkeys(("rrelieff", "relieff_regression"), ".rrelieff"),
    "cfs_regression": ".cfs_regression",
    **dict.fromkeys(("pearson", "spearman"), ".correlation"),
    **dict.fromkeys(("welch_t", "welch", "t_test", "mann_whitney", "mannwhitney",
                     "wilcoxon_rank_sum", "kruskal_wallis", "kruskal"), ".stat_tests"),
    **dict.fromkeys(("f_regression", "mutual_info_regression", "random_forest_regressor",
                     "rf_regressor", "ridge", "lasso_cv"), ".sklearn_adapters"),
}

#: The rankers that take a scipy.sparse X without densifying it (registry tag ``sparse``;
#: docs/design.md, 'Sparse input'); a refusal of sparse X names them. A test checks this
#: table against the tags.
SPARSE_RANKERS = ("chi2", "chi_square", "f_classif", "f_regression", "gain_ratio", "info_gain",
                  "lasso_cv", "mutual_info_classif", "random_forest", "rfe_regression", "ridge",
                  "svm_rfe", "symmetric_uncertainty")
declare_sparse_rankers(SPARSE_RANKERS)

#: The registered rankers; each module of :data:`PROVIDERS` is imported when one of its names
#: is first asked for (docs/design.md, 'Rankers').
RANKERS = Registry("ranker", positional=2, providers=PROVIDERS, package="rankfusion.rankers")


def load_providers(name: str | None = None) -> None:
    """Import the module registering ``name`` (every ranker module when None or unknown)."""
    RANKERS.load(name)


def register_ranker(name: str, *, aliases: tuple[str, ...] = (), tags: dict | None = None,
                    constraints: dict | None = None) -> Callable[[Callable], Callable]:
    """Decorator registering a ranker function under ``name`` (and ``aliases``).

    Parameters
    ----------
    name : str
        The name :func:`get_ranker`, the estimators and the command line use.
    aliases : tuple of str, default ()
        Other names of the same ranker.
    tags : dict, optional
        Free metadata kept in the registry entry (``multilist`` and ``lists`` are set by
        :func:`~rankfusion.rankers.register_list_producer`).
    constraints : dict, optional
        ``{parameter: [constraint, ...]}`` of its parameters (docs/design.md, 'Parameters'):
        checked by the selectors before the first call, read by the experiment config.
        Every ranker declares ``tags={"allow_nan": bool}`` too: whether it takes missing
        values (NaN) in X (a test checks each claim on data with NaN); a ranker that takes a
        scipy.sparse X without densifying it adds ``"sparse": True``; a ranker whose scores
        are ``p − position`` in a greedy selection order (ties to the lower index: MIFS, the
        redundancy filters, CFS) adds ``"greedy": True`` (a test checks the claim, and
        :class:`~rankfusion.selection.BorutaSelector` refuses such rankers).

    Returns
    -------
    callable
        The decorator; it registers and returns the function wrapped so that constant and
        all-missing columns come last, with one warning naming them (docs/design.md,
        'Rankers'); name, signature and docstring are the function's.
    """
    register = RANKERS.register(name, aliases=aliases, weights=False, tags=tags,
                                constraints=constraints)
    greedy = bool((tags or {}).get("greedy", False))

    def decorator(func: Callable) -> Callable:
        return register(rank_degenerate_last(func, name, greedy))

    return decorator


def available_rankers(*, aliases: bool = False) -> list[str]:
    """Names of the registered rankers.

    Parameters
    ----------
    aliases : bool, default False
        Include the aliases.

    Returns
    -------
    list of str
    """
    return RANKERS.available(aliases=aliases)


def ranker_info(name: str) -> Entry:
    """The registry entry of ranker ``name``: ``func``, ``params``, ``accepts(param)``, …

    Parameters
    ----------
    name : str
        A registered name or alias; an unknown name suggests and lists the known ones.

    Returns
    -------
    Entry
        The registry entry.
    """
    return RANKERS.get(name, argument="ranker")


def get_ranker(name: str) -> Callable:
    """The ranker registered as ``name``; an unknown name suggests and lists the known ones.

    Parameters
    ----------
    name : str
        A registered name or alias (:func:`available_rankers`).

    Returns
    -------
    callable
        ``f(X, y, **params) -> scores`` (higher = more relevant).
    """
    return ranker_info(name).func


def ranker_tasks(name: str) -> tuple[str, ...]:
    """The tasks ranker ``name`` supports: its ``tasks`` tag, ``("classification",)`` when it
    declares none (docs/design.md, 'Tasks').

    Parameters
    ----------
    name : str
        A registered name or alias.

    Returns
    -------
    tuple of str
        Among ``"classification"``, ``"regression"``.
    """
    return tuple(ranker_info(name).tags.get("tasks", ("classification",)))


def check_ranker_task(name: str, task: str) -> None:
    """A ``ValueError`` unless ranker ``name`` supports ``task`` (``"classification"`` or
    ``"regression"``), naming the ranker and the registered rankers that do.

    Parameters
    ----------
    name : str
        A registered name or alias.
    task : str
        The resolved task (:func:`rankfusion._utils.task.resolve_task`).
    """
    tasks = ranker_tasks(name)
    if task in tasks:
        return
    load_providers()
    able = [n for n in available_rankers() if task in ranker_tasks(n)]
    what = "class labels" if task == "classification" else "a numeric target"
    raise ValueError(f"ranker {ranker_info(name).name!r} supports {' and '.join(tasks)} only, "
                     f"not {task} ({what}); rankers for {task}: {', '.join(able)}")
