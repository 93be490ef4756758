"""Feature selectors with the scikit-learn API, and the consensus of ranked lists
(docs/design.md, 'Layers')."""

from .svm_rfe import (
    C_GRID,
    SVMRFE,
    SVMRFE_DECOMPOSITIONS,
    SVMRFERankings,
    choose_C,
    svm_rfe_rankings,
)

__all__ = ["SVMRFE", "SVMRFERankings", "svm_rfe_rankings", "choose_C", "C_GRID",
           "SVMRFE_DECOMPOSITIONS"]
