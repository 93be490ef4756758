"""The parameters of the linear SVM and of the RFE schedule, as data (docs/design.md,
'Parameters'): declared once, checked by every RFE entry point, the ranker ``svm_rfe`` and
:class:`rankfusion.selection.SVMRFE`."""

from __future__ import annotations

from ..._utils.constraints import InstanceOf, Interval, Options
from .._registry import BOOL

__all__ = ["SVM_CONSTRAINTS"]

#: The linear SVM's and the schedule's parameters.
SVM_CONSTRAINTS = {
    "C": [Interval("real", 0, None, closed="neither")],
    "step": [Interval("int", 1, None), Interval("real", 0, 1, closed="neither")],
    "step_until": [Interval("int", 1, None)],
    "class_weight": [None, Options("balanced"),
                     InstanceOf(dict, "a dict class → weight", toml="table")],
    "tol": [Interval("real", 0, None, closed="neither")],
    "warm_start": [BOOL],
}
