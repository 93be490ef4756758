"""Evaluation: protocols, statistical tests and plots.

The rules they follow: docs/design.md, 'Ensembles, subsets and evaluation'.

* protocols — :func:`error_curve` (repeated random splits, error against the number of
  features), :func:`cross_validate_selection` (k-fold CV of selector + classifier),
  :func:`relevant_rank_stats`; classifiers by name (:func:`available_classifiers`), with
  Weka-like ones (:class:`WekaNaiveBayes`, :class:`J48Like`, :class:`WekaIB1`) and Weka's
  missing-value filter :class:`ReplaceMissingValues` (``knn3_impute``, ``adaboost_impute``);
* statistics — :func:`paired_ttest`, :func:`friedman`, :func:`nemenyi`, :func:`win_matrix`,
  :func:`robustness_index`, :func:`rule_agreement`;
* plots (optional extra ``rankfusion[plot]``) — :func:`plot_error_curves`,
  :func:`plot_stability`, :func:`plot_critical_difference`, :func:`plot_agreement`,
  :func:`save_figure`;
* advisor — :func:`advise`, the rule advisor: does any combination of rankers × rule × size
  beat the best single ranker on this data set (nested resampling, Nadeau–Bengio test)?
* demo — :func:`stjude_demo`, the main job (``rankfusion demo``): the St. Jude headline of
  Izetta et al. (2017) and the cross-validated error of each method's top genes.
"""

from ..selection.weka_like import J48Like, ReplaceMissingValues, WekaIB1, WekaNaiveBayes
from .advisor import (
    Advice,
    Configuration,
    advice_frame,
    advice_plan,
    advise,
    cutoff_ties,
    default_sizes,
    parse_rule,
    parse_sizes,
    split_rules,
    write_advice,
)
from .classifiers import (
    available_classifiers,
    classifier_info,
    classifier_task,
    default_estimator,
    encode_nominal,
    make_classifier,
    register_classifier,
)
from .demo import (
    DEMO_METHODS,
    DEMO_N_FEATURES,
    StJudeDemo,
    ZScoredSelector,
    stjude_demo,
)
from .plots import (
    check_figure_path,
    plot_agreement,
    plot_critical_difference,
    plot_error_curves,
    plot_stability,
    save_figure,
)
from .protocols import (
    CrossValidationResult,
    ErrorCurveResult,
    cross_validate_selection,
    error_curve,
    log_grid,
    regression_strata,
    relevant_rank_stats,
    selector_positions,
)
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
    "Advice",
    "Configuration",
    "advice_frame",
    "advice_plan",
    "advise",
    "cutoff_ties",
    "default_sizes",
    "parse_rule",
    "parse_sizes",
    "split_rules",
    "write_advice",
    "DEMO_METHODS",
    "DEMO_N_FEATURES",
    "StJudeDemo",
    "ZScoredSelector",
    "stjude_demo",
    "check_figure_path",
    "save_figure",
    "CrossValidationResult",
    "ErrorCurveResult",
    "available_classifiers",
    "classifier_task",
    "default_estimator",
    "classifier_info",
    "cross_validate_selection",
    "encode_nominal",
    "error_curve",
    "log_grid",
    "make_classifier",
    "plot_agreement",
    "plot_critical_difference",
    "plot_error_curves",
    "plot_stability",
    "register_classifier",
    "regression_strata",
    "relevant_rank_stats",
    "selector_positions",
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
    "J48Like",
    "ReplaceMissingValues",
    "WekaIB1",
    "WekaNaiveBayes",
]
