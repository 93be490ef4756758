"""rankfusion: feature selection by combining rankings.

The public API. Names are loaded on first use (PEP 562), so that ``import rankfusion`` and the
command line start quickly and each sub-command loads only what it needs.
"""

from __future__ import annotations

import importlib

# ``typing.TYPE_CHECKING`` without importing typing (a few ms of every command's start-up)
TYPE_CHECKING = False

__version__ = "0.1.0.dev0"

# public name -> module that defines it
_EXPORTS = {
    "RankedLists": ".lists",
    "aggregate": ".aggregation",
    "aggregate_fuzzy": ".aggregation",
    "FuzzyConsensus": ".aggregation",
    "available_methods": ".aggregation",
    "Consensus": ".aggregation",
    "load_data": ".io",
    "kendall_tau": ".distances",
    "spearman_footrule": ".distances",
    "read_arff": ".io",
    "SVMRFE": ".selection",
    "error_curve": ".evaluation",
    "cross_validate_selection": ".evaluation",
    "friedman": ".evaluation",
    "nemenyi": ".evaluation",
    "paired_ttest": ".evaluation",
    "EnsembleSelector": ".selection",
    "advise": ".evaluation",
    "Advice": ".evaluation",
}

# sub-packages reachable as attributes (``rankfusion.datasets``) without an explicit import
_SUBMODULES = (
    "aggregation", "datasets", "distances", "evaluation", "experiments", "io", "lists",
    "rankers", "selection", "stability", "workflows",
)

__all__ = [
    "Advice",
    "Consensus",
    "EnsembleSelector",
    "RankedLists",
    "SVMRFE",
    "advise",
    "aggregate",
    "aggregate_fuzzy",
    "available_methods",
    "cross_validate_selection",
    "error_curve",
    "friedman",
    "FuzzyConsensus",
    "kendall_tau",
    "load_data",
    "nemenyi",
    "paired_ttest",
    "read_arff",
    "spearman_footrule",
    "__version__",
]

if TYPE_CHECKING:  # pragma: no cover
    from .aggregation import (
        Consensus,
        FuzzyConsensus,
        aggregate,
        aggregate_fuzzy,
        available_methods,
    )
    from .distances import kendall_tau, spearman_footrule
    from .evaluation import (
        Advice,
        advise,
        cross_validate_selection,
        error_curve,
        friedman,
        nemenyi,
        paired_ttest,
    )
    from .io import load_data, read_arff
    from .lists import RankedLists
    from .selection import SVMRFE, EnsembleSelector


def __getattr__(name: str):
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'rankfusion' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS) | set(_SUBMODULES))
