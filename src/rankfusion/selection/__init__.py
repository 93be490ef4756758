"""Feature selectors with the scikit-learn API (``SVMRFE``, ``EnsembleSelector``), their
rankings and the work their fits take (docs/design.md, 'Layers'). Running them from plain
options, summarising and saving their results is :mod:`rankfusion.workflows`'."""

from .boruta import DEFAULT_BORUTA_RANKERS, BorutaSelector, boruta_decide, sparse_shadows
from .ensemble import EnsembleSelector
from .list_weights import accuracy_weights, resolve_list_weights, weights_from_accuracies
from .ranking_jobs import RankingJob, RankingPlan, plan_ranking_jobs, run_ranking_jobs
from .regression import default_regressor, r2_weights, regression_folds
from .stability_selection import (
    DEFAULT_STABILITY_RANKERS,
    StabilityParameters,
    StabilitySelector,
    pfer_bound,
    stability_parameters,
    subsample_halves,
)
from .subset_size import SubsetCurve, choose_size, search_size
from .svm_rfe import (
    C_GRID,
    SVMRFE,
    SVMRFE_DECOMPOSITIONS,
    SVMRFERankings,
    choose_C,
    choose_C_regression,
    linear_svr,
    rfe_lists_memo,
    svm_rfe_rankings,
)
from .work import WorkEstimate, ensemble_work, svm_rfe_work

__all__ = ["EnsembleSelector", "SVMRFE", "SVMRFERankings", "svm_rfe_rankings", "choose_C",
           "C_GRID", "SVMRFE_DECOMPOSITIONS", "rfe_lists_memo", "WorkEstimate",
           "ensemble_work", "svm_rfe_work", "SubsetCurve", "choose_size", "search_size",
           "RankingJob", "RankingPlan", "plan_ranking_jobs", "run_ranking_jobs",
           "accuracy_weights", "resolve_list_weights",
           "weights_from_accuracies", "r2_weights", "regression_folds",
           "default_regressor", "StabilitySelector",
           "StabilityParameters", "stability_parameters", "pfer_bound", "subsample_halves",
           "BorutaSelector", "boruta_decide", "sparse_shadows", "choose_C_regression",
           "linear_svr", "DEFAULT_STABILITY_RANKERS", "DEFAULT_BORUTA_RANKERS"]
