"""Feature rankers: each ``f(X, y, **params)`` returns one score per feature, higher = better.

Modules register their rankers by name (:func:`get_ranker`, :func:`available_rankers`).
"""

from ._rank import rank_features
from ._registry import available_rankers, get_ranker, ranker_info, register_ranker
from .cfs import cfs, cfs_subset
from .discretize import mdl_cut_points
from .ilfs import ilfs
from .information import chi_square, gain_ratio, info_gain, symmetric_uncertainty
from .mifs import mifs, mifs_order
from .nlc import label_changes, nlc
from .relief import relief, relieff
from .sklearn_adapters import estimator_ranker, score_func_ranker
from .svm_rfe import svm_rfe_scores  # registers the "svm_rfe" ranker

__all__ = ["available_rankers", "get_ranker", "ranker_info", "register_ranker",
           "mdl_cut_points", "info_gain", "gain_ratio", "symmetric_uncertainty",
           "chi_square", "relieff", "relief", "score_func_ranker", "estimator_ranker"]
__all__ += ["label_changes", "nlc", "mifs", "mifs_order", "cfs", "cfs_subset", "ilfs"]
__all__ += ["svm_rfe_scores", "rank_features"]
