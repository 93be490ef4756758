"""Feature selectors with the scikit-learn API: ``SVMRFE`` and ``EnsembleSelector``."""

from .ensemble import EnsembleSelector
from .svm_rfe import SVMRFE

__all__ = ["EnsembleSelector", "SVMRFE"]
