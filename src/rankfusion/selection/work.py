"""How much work a selection run is, counted before it starts (as ``rankfusion experiment
--dry-run`` counts an experiment's): ranker calls, aggregations, SVM and classifier fits, and
the memory the resamples and lists take. The command line prints the estimate on standard error
before the work and refuses a run whose lists alone could not fit in the machine's memory;
``rankfusion._utils.progress`` reports the work as it is done.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from .._utils.seeding import check_random_state

__all__ = ["WorkEstimate", "ensemble_work", "svm_rfe_work", "physical_memory"]


def physical_memory() -> int | None:
    """The machine's memory in bytes, or None where the system does not say.

    Returns
    -------
    int or None
        ``SC_PAGE_SIZE × SC_PHYS_PAGES`` from :func:`os.sysconf`; None where these are not
        available (not POSIX).
    """
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        return None


#: The counted things, when there is one of them.
_SINGULAR = {"ranker calls": "ranker call", "aggregations": "aggregation",
             "classifier fits": "classifier fit", "binary problems": "binary problem",
             "SVM fits": "SVM fit", "multiclass SVM fits": "multiclass SVM fit",
             "SVM fits for C": "SVM fit for C"}


def _bytes(n: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:,.1f} {unit}"
    return f"{int(n)} B"


@dataclass
class WorkEstimate:
    """The work of one run: ``counts`` (what → how many, in the order they are printed) and
    a lower bound of the memory the resamples and lists take (``memory_bytes``); ``what``
    names the run, ``cause`` the option that sets its size and ``fix`` the way out (in
    messages).

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    what : str
        The run, as messages name it.
    counts : dict of str → int
        What → how many, in the order they are printed.
    memory_bytes : int
        A lower bound of the memory the resamples and lists take.
    cause : str
        The option that sets the run's size.
    fix : str
        The way out, for a message that refuses the run.
    """

    what: str
    counts: dict = field(default_factory=dict)
    memory_bytes: int = 0
    cause: str = ""
    fix: str = "ask for less work"

    def describe(self) -> str:
        """One line: ``select: 300 ranker calls, 101 aggregations, … (≥ 1.2 MB)``."""
        parts = [f"{v:,} {_SINGULAR.get(k, k) if v == 1 else k}"
                 for k, v in self.counts.items() if v]
        text = f"{self.what}: " + (", ".join(parts) if parts else "no work")
        if self.memory_bytes >= 1e6:
            text += f"; at least {_bytes(self.memory_bytes)} of memory"
        return text

    def check_memory(self, available: int | None = None) -> None:
        """A ``ValueError`` when the resamples and lists alone need more than ``available``
        bytes (default: the machine's memory), naming the option to lower.

        Parameters
        ----------
        available : int, optional
            The memory in bytes that the run may take; None = the machine's memory
            (``physical_memory()`` of this module). When
            that is unknown too, nothing is checked.

        Raises
        ------
        ValueError
            When ``memory_bytes`` exceeds ``available``; the message names ``cause`` and
            ``fix``.
        """
        if available is None:
            available = physical_memory()
        if available is None or self.memory_bytes <= available:
            return
        cause = f" ({self.cause})" if self.cause else ""
        raise ValueError(
            f"{self.what}: the run{cause} needs at least {_bytes(self.memory_bytes)} of memory "
            f"for its resamples and lists, more than this machine has "
            f"({_bytes(available)}); {self.fix}")


def ensemble_work(selector, n_samples: int, n_features: int) -> WorkEstimate:
    """The work of ``selector.fit`` (an :class:`~rankfusion.selection.EnsembleSelector`) on
    ``n_samples`` × ``n_features`` data, from its parameters alone (checked as ``fit``
    checks them).

    Counted: ranker calls (each ranker on each bootstrap sample, or once on all data; a
    ranker giving several lists, one per binary problem, is one call), aggregations (the
    consensus, one per bootstrap sample for the consensus stability), the size search's
    rankings on each training part (``subset_cv="nested"``) and its classifier fits (folds
    × subset sizes × classifiers), and the fits of ``list_weights="accuracy"``. Memory, a
    lower bound: the bootstrap indices (8 bytes per drawn row and about 100 per sample) and
    the lists (scores and positions, 24 bytes per feature and about 200 per list).

    Parameters
    ----------
    selector : EnsembleSelector
        The selector, not fitted; its parameters are checked (with the messages of ``fit``),
        its ``random_state`` is checked but not advanced.
    n_samples : int
        Rows of the data it would be fitted on.
    n_features : int
        Columns (features) of that data.

    Returns
    -------
    WorkEstimate
        ``what="select"``, with the counts above, the memory lower bound and, when there are
        bootstrap samples, ``n_bootstraps`` as the cause.
    """
    from .subset_size import k_step_grid, learning_curve_grid, parse_stability_rule

    rankers, kind, estimators = selector._check_params()
    check_random_state(selector.random_state)  # checked, a Generator not advanced
    n, p = int(n_samples), int(n_features)
    B = int(selector.n_bootstraps)
    L = max(1, B)
    calls = len(rankers) * L
    per_consensus = 1
    aggregations = per_consensus + (L if B >= 2 and kind[0] != "grouped" else 0)
    classifier_fits = 0
    folds = int(selector.cv)
    weights_fits = 0
    if isinstance(selector.list_weights, str):  # "accuracy": every list on every fold
        weights_fits = calls * folds
    stab = parse_stability_rule(selector.n_features_to_select)
    searched = isinstance(selector.n_features_to_select, str) and stab is None
    nested_calls = 0
    if stab is not None:  # the stability rule: every ranker on each half, one rule per half
        halves = int(stab.get("n_subsamples", 100))
        nested_calls = len(rankers) * halves
        aggregations += halves
    if searched:
        grid = selector.subset_grid
        if grid is None:
            grid = (k_step_grid(p) if selector.n_features_to_select == "k-step"
                    else learning_curve_grid(p))
        models = 1 if selector.n_features_to_select == "learning-curve" else len(estimators)
        classifier_fits = folds * len(np.unique(np.asarray(list(grid)))) * models
        if selector.subset_cv == "nested":
            nested_calls = folds * calls
            aggregations += folds * per_consensus
            weights_fits *= 1 + folds
    sample_rows = int(round(n * float(selector.sample_fraction))) * B
    counts = {"ranker calls": calls + nested_calls, "aggregations": aggregations,
              "classifier fits": classifier_fits + weights_fits}
    # an index array per sample (8 bytes a row, ≈ 100 bytes of array and seed around it);
    # per list a score column, its positions and names (24 bytes a feature, ≈ 200 around)
    memory = 8 * sample_rows + 100 * B + (24 * p + 200) * len(rankers) * L
    return WorkEstimate("select", counts, memory, cause=f"n_bootstraps={B}" if B else "",
                        fix="lower n_bootstraps (--bootstraps)" if B else "use fewer rankers")


def svm_rfe_work(n_samples: int, n_features: int, n_classes: int, *, methods=("kfirst",),
                 decomposition: str = "ovo", C=1.0, step=0.1, step_until: int = 20,
                 cv: int = 5, aggregation_params=None, rule_params=None,
                 random_state=None, criterion: str = "binary") -> WorkEstimate:
    """The work of :func:`~rankfusion.selection.svm_rfe_rankings` with these options: binary
    problems (OVO c(c−1)/2, OVA c; one for two classes) × RFE iterations (one fit per chunk
    of :func:`~rankfusion.rankers.rfe_schedule`) SVM fits, the same again for the joint
    ``average``, one multiclass fit per iteration for an MSVM decomposition, ``len(C_GRID)
    × cv`` fits for ``C="cv"``, and one aggregation per rule. The options are checked first,
    as :func:`~rankfusion.selection.svm_rfe_rankings` checks them (the same messages).

    Parameters
    ----------
    n_samples : int
        Rows of the data (used for the memory of the data, 8 bytes a value).
    n_features : int
        Features at the start of the elimination.
    n_classes : int
        Classes of ``y``; two or fewer make one binary problem.
    methods : str or sequence of str, default ("kfirst",)
        Aggregation rules and/or ``"average"``, as in
        :func:`~rankfusion.selection.svm_rfe_rankings`; with several binary problems, one
        aggregation is counted per rule other than ``"average"``.
    decomposition : {"ovo", "ova"}, default "ovo"
        The binary problems (the MSVM names here are the deprecated spelling of
        ``criterion``, as :func:`~rankfusion.selection.svm_rfe_rankings`).
    C : float or "cv", default 1.0
        The SVM's C; ``"cv"`` adds ``len(C_GRID) × cv`` fits to choose it.
    step : int or float, default 0.1
        The RFE step, as :func:`~rankfusion.rankers.rfe_schedule`.
    step_until : int, default 20
        With a float ``step``: below this many features, one at a time.
    cv : int, default 5
        Folds of ``C="cv"``.
    aggregation_params : dict, optional
        Parameters for the rules; checked only.
    rule_params : dict of rule → dict, optional
        Parameters for one rule only; checked only.
    random_state : None, int, SeedSequence or Generator
        Checked only.
    criterion : {"binary", "crammer_singer", "weston_watkins"}, default "binary"
        An MSVM criterion makes, on more than two classes, one multiclass SVM fit per
        iteration.

    Returns
    -------
    WorkEstimate
        ``what="svm-rfe"``, with the counts above and a lower bound of the memory.
    """
    from .._utils.constraints import validate_params
    from ..rankers import rfe_schedule
    from .svm_rfe import (
        C_GRID,
        SVMRFE,
        _check_methods,
        _rule_params,
        check_C,
        resolve_criterion,
    )

    c, p = int(n_classes), int(n_features)
    methods = _check_methods(methods)
    validate_params(SVMRFE._parameter_constraints,
                    {"decomposition": decomposition, "criterion": criterion})
    decomposition, criterion = resolve_criterion(decomposition, criterion)
    iterations = max(1, int(rfe_schedule(p, step, step_until).shape[0]))
    _rule_params(methods, p, aggregation_params, rule_params)
    check_C(C, cv)
    check_random_state(random_state)
    counts = {}
    if criterion != "binary" and c > 2:
        counts["multiclass SVM fits"] = iterations
        problems = 0
    else:
        problems = 1 if c <= 2 else (c * (c - 1) // 2 if decomposition == "ovo" else c)
        per_list = problems * iterations
        lists = problems > 1 and any(m != "average" for m in methods)
        joint = problems > 1 and "average" in methods
        counts["binary problems"] = problems
        counts["SVM fits"] = per_list * (int(lists or problems == 1) + int(joint))
        counts["aggregations"] = sum(m != "average" for m in methods) if problems > 1 else 0
    if C == "cv":
        counts["SVM fits for C"] = len(C_GRID) * int(cv)
    memory = 8 * int(n_samples) * p + 24 * p * max(problems, 1)
    return WorkEstimate("svm-rfe", counts, memory)
