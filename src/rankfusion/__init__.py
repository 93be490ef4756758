"""rankfusion: feature selection by combining rankings."""

from .aggregation import Consensus, aggregate, available_methods
from .lists import RankedLists

__version__ = "0.1.0.dev0"

__all__ = ["RankedLists", "aggregate", "available_methods", "Consensus", "__version__"]
