"""rankfusion: feature selection by combining rankings.

The public API. Names are loaded on first use (PEP 562), so that ``import rankfusion`` and the
command line start quickly and each sub-command loads only what it needs.
"""

from __future__ import annotations

from ._utils import jit as _jit  # noqa: F401  (numba's cache where nothing is writable)
from ._utils.lazy import lazy_package
from ._utils.version import __version__

# ``typing.TYPE_CHECKING`` without importing typing (a few ms of every command's start-up)
TYPE_CHECKING = False

# public name -> module that defines it
_EXPORTS = {
    "RankedLists": ".lists",
    "aggregate": ".aggregation",
    "aggregate_fuzzy": ".aggregation",
    "FuzzyConsensus": ".aggregation",
    "available_methods": ".aggregation",
    "available_rules": ".aggregation",
    "Consensus": ".aggregation",
    "load_data": ".io",
    "kendall_distance": ".distances",
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
    "StabilitySelector": ".selection",
    "BorutaSelector": ".selection",
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
    "BorutaSelector",
    "Consensus",
    "EnsembleSelector",
    "RankedLists",
    "SVMRFE",
    "advise",
    "aggregate",
    "aggregate_fuzzy",
    "available_methods",
    "available_rules",
    "cross_validate_selection",
    "error_curve",
    "friedman",
    "FuzzyConsensus",
    "kendall_distance",
    "kendall_tau",
    "load_data",
    "nemenyi",
    "paired_ttest",
    "read_arff",
    "spearman_footrule",
    "StabilitySelector",
    "__version__",
]

if TYPE_CHECKING:  # pragma: no cover
    from .aggregation import (
        Consensus,
        FuzzyConsensus,
        aggregate,
        aggregate_fuzzy,
        available_methods,
        available_rules,
    )
    from .distances import kendall_distance, kendall_tau, spearman_footrule
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
    from .selection import SVMRFE, BorutaSelector, EnsembleSelector, StabilitySelector


__getattr__, __dir__ = lazy_package(__name__, _EXPORTS, _SUBMODULES)
