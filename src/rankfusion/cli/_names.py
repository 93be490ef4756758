"""Names shown in the sub-commands' ``--help``, kept here as plain tuples so that building the
parsers imports no registry (and so none of numpy, pandas, scipy or numba).

A test checks these tuples against :func:`rankfusion.aggregation.available_rules` and
:func:`rankfusion.rankers.available_rankers`; unknown names are still refused by the registries
when the command runs, with the closest known name suggested.
"""

from __future__ import annotations

__all__ = ["METHODS", "RANKERS", "SCORINGS"]

#: Aggregation rules, as ``available_rules()`` lists them.
METHODS = ("approval", "average_sd", "best_rank", "borda", "ce", "combmnz", "copeland", "fuzzy",
           "ga", "kemeny", "kfirst", "mc1", "mc2", "mc3", "mc4", "mean_score", "median", "q3_sd",
           "rra", "rra_geom_mean", "rra_mean", "rra_median", "rra_min", "rrf", "sav", "schulze",
           "seq_pav", "seq_phragmen", "stuart")

#: Rankers, as ``available_rankers()`` lists them.
RANKERS = ("cfs", "cfs_regression", "chi2", "chi_square", "cmim", "disr", "f_classif",
           "f_regression", "gain_ratio", "ilfs", "info_gain", "jmi", "kruskal_wallis",
           "lasso_cv", "mann_whitney", "mifs", "mrmr_fcq", "mrmr_mid", "mrmr_miq",
           "mutual_info_classif", "mutual_info_regression", "nlc", "pearson", "random_forest",
           "random_forest_regressor", "relief", "relieff", "rfe_regression", "ridge", "rrelieff",
           "spearman", "svm_rfe", "symmetric_uncertainty", "welch_t")

#: Scores of ``advise --scoring``, as :mod:`rankfusion.evaluation.scores` lists them
#: (classification, then regression).
SCORINGS = ("accuracy", "balanced_accuracy", "roc_auc", "neg_log_loss", "mcc", "r2", "neg_rmse",
            "neg_mae")
