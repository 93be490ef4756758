"""Evaluation: statistical tests, protocols and plots (docs/design.md, 'Evaluation')."""

from .classifiers import (
    available_classifiers,
    encode_nominal,
    make_classifier,
    register_classifier,
)
from .protocols import (
    CrossValidationResult,
    ErrorCurveResult,
    cross_validate_selection,
    error_curve,
    log_grid,
    relevant_rank_stats,
    selector_positions,
)
from .statistics import (
    AgreementResult,
    FriedmanResult,
    NemenyiResult,
    RobustnessResult,
    TTestResult,
    WinMatrixResult,
    friedman,
    nemenyi,
    paired_ttest,
    robustness_index,
    rule_agreement,
    studentized_range_q,
    win_matrix,
)

__all__ = [
    "CrossValidationResult",
    "ErrorCurveResult",
    "available_classifiers",
    "cross_validate_selection",
    "encode_nominal",
    "error_curve",
    "log_grid",
    "make_classifier",
    "register_classifier",
    "relevant_rank_stats",
    "selector_positions",
    "AgreementResult",
    "FriedmanResult",
    "NemenyiResult",
    "RobustnessResult",
    "TTestResult",
    "WinMatrixResult",
    "friedman",
    "nemenyi",
    "paired_ttest",
    "robustness_index",
    "rule_agreement",
    "studentized_range_q",
    "win_matrix",
]
