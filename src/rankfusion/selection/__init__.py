"""Feature selectors with the scikit-learn API (``SVMRFE``, ``EnsembleSelector``), and the
consensus of ranked lists (docs/design.md, 'Layers')."""

from .ensemble import EnsembleSelector
from .list_weights import accuracy_weights, resolve_list_weights
from .ranking_jobs import RankingJob, RankingPlan, plan_ranking_jobs, run_ranking_jobs
from .report import (
    check_output_dir,
    ensemble_from_options,
    parse_subset,
    read_data,
    selected_features,
    selection_summary,
    stability_table,
    subset_curve_table,
    write_selection,
)
from .subset_size import SubsetCurve, choose_size, search_size
from .svm_rfe import (
    C_GRID,
    SVMRFE,
    SVMRFE_DECOMPOSITIONS,
    SVMRFERankings,
    choose_C,
    rfe_lists_memo,
    svm_rfe_rankings,
)
from .work import WorkEstimate, ensemble_work, physical_memory, progress_bar, svm_rfe_work

__all__ = ["EnsembleSelector", "SVMRFE", "SVMRFERankings", "svm_rfe_rankings", "choose_C",
           "C_GRID", "SVMRFE_DECOMPOSITIONS", "check_output_dir", "read_data",
           "ensemble_from_options", "parse_subset", "selected_features", "selection_summary",
           "stability_table", "subset_curve_table", "write_selection",
           "rfe_lists_memo", "WorkEstimate", "ensemble_work", "svm_rfe_work",
           "physical_memory", "progress_bar", "SubsetCurve", "choose_size", "search_size",
           "RankingJob", "RankingPlan", "plan_ranking_jobs", "run_ranking_jobs",
           "accuracy_weights", "resolve_list_weights"]
