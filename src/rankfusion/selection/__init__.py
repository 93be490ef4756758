"""Feature selectors with the scikit-learn API (``SVMRFE``, ``EnsembleSelector``), and the
consensus of ranked lists (docs/design.md, 'Layers')."""

from .ensemble import EnsembleSelector
from .svm_rfe import (
    C_GRID,
    SVMRFE,
    SVMRFE_DECOMPOSITIONS,
    SVMRFERankings,
    choose_C,
    rfe_lists_memo,
    svm_rfe_rankings,
)

__all__ = ["EnsembleSelector", "SVMRFE", "SVMRFERankings", "svm_rfe_rankings", "choose_C",
           "C_GRID", "SVMRFE_DECOMPOSITIONS", "rfe_lists_memo"]
