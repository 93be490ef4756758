"""Feature selectors with the scikit-learn API (GUIDE §2 "selection/")."""

from .svm_rfe import SVMRFE

__all__ = ["SVMRFE"]
