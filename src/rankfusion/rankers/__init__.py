"""Feature rankers: each ``f(X, y, **params)`` returns one score per feature, higher = better.

Modules register their rankers by name (:func:`get_ranker`, :func:`available_rankers`). A ranker
that can also give one list per binary problem registers a list producer
(:class:`MultiListRanker`, :func:`ranker_lists`; see :mod:`rankfusion.rankers.multilist`).
"""

from ._rank import rank_features
from ._registry import available_rankers, get_ranker, ranker_info, register_ranker
from .cfs import cfs, cfs_subset
from .discretize import mdl_cut_points
from .ilfs import ilfs
from .information import chi_square, gain_ratio, info_gain, symmetric_uncertainty
from .mifs import mifs, mifs_order
from .multilist import (
    MultiListRanker,
    available_list_producers,
    list_producer,
    ranker_lists,
    register_list_producer,
)
from .nlc import label_changes, nlc
from .relief import relief, relieff
from .rfe import (  # registers the "svm_rfe" ranker and its list producer
    DECOMPOSITIONS,
    JOINT_CRITERIA,
    BinaryProblem,
    RFEResult,
    binary_problems,
    joint_rfe,
    rfe_lists,
    rfe_schedule,
    svm_rfe,
    svm_rfe_lists,
    svm_rfe_scores,
)
from .sklearn_adapters import estimator_ranker, score_func_ranker

__all__ = ["available_rankers", "get_ranker", "ranker_info", "register_ranker",
           "mdl_cut_points", "info_gain", "gain_ratio", "symmetric_uncertainty",
           "chi_square", "relieff", "relief", "score_func_ranker", "estimator_ranker"]
__all__ += ["label_changes", "nlc", "mifs", "mifs_order", "cfs", "cfs_subset", "ilfs"]
__all__ += ["MultiListRanker", "register_list_producer", "list_producer",
            "available_list_producers", "ranker_lists"]
__all__ += ["svm_rfe", "rfe_lists", "joint_rfe", "rfe_schedule", "binary_problems",
            "BinaryProblem", "RFEResult", "JOINT_CRITERIA", "DECOMPOSITIONS",
            "svm_rfe_scores", "svm_rfe_lists"]
__all__ += ["rank_features"]
