"""Evaluation: statistical tests, protocols and plots (docs/design.md, 'Evaluation')."""

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
