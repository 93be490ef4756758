"""Feature rankers: each ``f(X, y, **params)`` returns one score per feature, higher = better.

Modules register their rankers by name (:func:`get_ranker`, :func:`available_rankers`). A ranker
that can also give one list per binary problem registers a list producer
(:class:`MultiListRanker`, :func:`ranker_lists`; see :mod:`rankfusion.rankers.multilist`).

The names below are loaded on first use (PEP 562), and a ranker's module when the ranker is
first asked for by name, so that ranking with one filter loads only what it needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._utils.lazy import lazy_package
from ._registry import available_rankers, get_ranker, ranker_info, register_ranker

# public name -> submodule defining it
_EXPORTS = {
    "rank_features": "._rank",
    "cfs": ".cfs", "cfs_subset": ".cfs", "cfs_subset_regression": ".cfs_regression",
    "mdl_cut_points": ".discretize",
    "ilfs": ".ilfs",
    "chi_square": ".information", "gain_ratio": ".information", "info_gain": ".information",
    "symmetric_uncertainty": ".information",
    "mifs": ".mifs", "mifs_order": ".mifs",
    "redundancy_order": ".redundancy", "mrmr_mid": ".redundancy", "mrmr_miq": ".redundancy",
    "mrmr_fcq": ".redundancy", "jmi": ".redundancy", "cmim": ".redundancy", "disr": ".redundancy",
    "MultiListRanker": ".multilist", "available_list_producers": ".multilist",
    "list_producer": ".multilist", "ranker_lists": ".multilist",
    "register_list_producer": ".multilist",
    "label_changes": ".nlc", "nlc": ".nlc",
    "relief": ".relief", "relieff": ".relief",
    "estimator_ranker": ".sklearn_adapters", "score_func_ranker": ".sklearn_adapters",
    "prepared_kernel": ".sklearn_adapters",
    "DECOMPOSITIONS": ".rfe", "JOINT_CRITERIA": ".rfe", "BinaryProblem": ".rfe",
    "RFEResult": ".rfe", "binary_problems": ".rfe", "joint_rfe": ".rfe", "rfe_lists": ".rfe",
    "rfe_schedule": ".rfe", "svm_rfe": ".rfe", "svm_rfe_lists": ".rfe", "svm_rfe_scores": ".rfe",
    "rfe_regression": ".rfe",
    "rrelieff": ".rrelieff", "pearson": ".correlation", "spearman": ".correlation",
    "ranker_tasks": "._registry", "check_ranker_task": "._registry",
    "welch_t": ".stat_tests", "mann_whitney": ".stat_tests", "kruskal_wallis": ".stat_tests",
    "welch_t_test": ".stat_tests", "mann_whitney_test": ".stat_tests",
    "kruskal_wallis_test": ".stat_tests", "benjamini_hochberg": ".stat_tests",
    "ranker_pvalues": ".stat_tests", "PVALUE_TESTS": ".stat_tests",
    "batched_scores": ".batched", "resample_counts": ".batched",
    "batched_ranker": ".batched", "BATCHED_RANKERS": ".batched",
}

__all__ = ["available_rankers", "get_ranker", "ranker_info", "register_ranker",
           "mdl_cut_points", "info_gain", "gain_ratio", "symmetric_uncertainty",
           "chi_square", "relieff", "relief", "score_func_ranker", "estimator_ranker",
           "prepared_kernel"]
__all__ += ["label_changes", "nlc", "mifs", "mifs_order", "cfs", "cfs_subset", "ilfs"]
__all__ += ["MultiListRanker", "register_list_producer", "list_producer",
            "available_list_producers", "ranker_lists"]
__all__ += ["svm_rfe", "rfe_lists", "joint_rfe", "rfe_schedule", "binary_problems",
            "BinaryProblem", "RFEResult", "JOINT_CRITERIA", "DECOMPOSITIONS",
            "svm_rfe_scores", "svm_rfe_lists"]
__all__ += ["rank_features"]
__all__ += ["redundancy_order", "mrmr_mid", "mrmr_miq", "mrmr_fcq", "jmi", "cmim", "disr"]
__all__ += ["cfs_subset_regression", "rrelieff", "pearson", "spearman", "rfe_regression",
            "ranker_tasks", "check_ranker_task"]
__all__ += ["welch_t", "mann_whitney", "kruskal_wallis", "welch_t_test", "mann_whitney_test",
            "kruskal_wallis_test", "benjamini_hochberg", "ranker_pvalues", "PVALUE_TESTS",
            "batched_scores", "resample_counts", "batched_ranker", "BATCHED_RANKERS"]

if TYPE_CHECKING:  # pragma: no cover
    from ._rank import rank_features
    from ._registry import check_ranker_task, ranker_tasks
    from .batched import BATCHED_RANKERS, batched_ranker, batched_scores, resample_counts
    from .cfs import cfs, cfs_subset
    from .cfs_regression import cfs_subset_regression
    from .correlation import pearson, spearman
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
    from .redundancy import cmim, disr, jmi, mrmr_fcq, mrmr_mid, mrmr_miq, redundancy_order
    from .relief import relief, relieff
    from .rfe import (
        DECOMPOSITIONS,
        JOINT_CRITERIA,
        BinaryProblem,
        RFEResult,
        binary_problems,
        joint_rfe,
        rfe_lists,
        rfe_regression,
        rfe_schedule,
        svm_rfe,
        svm_rfe_lists,
        svm_rfe_scores,
    )
    from .rrelieff import rrelieff
    from .sklearn_adapters import estimator_ranker, prepared_kernel, score_func_ranker
    from .stat_tests import (
        PVALUE_TESTS,
        benjamini_hochberg,
        kruskal_wallis,
        kruskal_wallis_test,
        mann_whitney,
        mann_whitney_test,
        ranker_pvalues,
        welch_t,
        welch_t_test,
    )


__getattr__, __dir__ = lazy_package(__name__, _EXPORTS)
