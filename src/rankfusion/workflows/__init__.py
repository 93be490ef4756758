"""What each command of the command line computes, as one library call returning one result
(docs/design.md, 'Layers'): ``run_selection`` → :class:`SelectionRun`, ``run_ranking`` →
:class:`RankingRun`, ``run_svm_rfe`` → :class:`SVMRFERun`, ``run_aggregation`` →
:class:`AggregationRun`, ``run_advice`` → :class:`AdviceRun`, ``run_demo`` →
:class:`DemoRun`. Each result has ``tables()`` (name → DataFrame), ``summary()`` (the text the
command prints), ``render(output_format)`` (that text, or the tables as CSV, TSV or JSON) and
``save(out)`` (the files the command writes, or the main one into a stream)."""

from .advise import AdviceRun, run_advice
from .aggregate import AggregationRun, run_aggregation
from .data import DATA_OPTIONS, read_data
from .demo import DEMO_RULES, DemoRun, compare_rules, run_demo
from .ensemble_options import ensemble_from_options, parse_subset
from .output import OUTPUT_FORMATS, WorkflowRun, check_output_files, render_tables
from .rank import RankingRun, rank_table, run_ranking
from .select import (
    RESULT_FILES,
    SelectionRun,
    consensus_table,
    run_selection,
    selected_features,
    selection_summary,
    stability_table,
    subset_curve_table,
    write_selection,
)
from .svm_rfe import SVMRFERun, read_numeric_data, run_svm_rfe
from .text import command_line_text, format_float_table, frame_text

__all__ = [
    "run_selection", "SelectionRun", "run_ranking", "RankingRun", "run_svm_rfe", "SVMRFERun",
    "run_aggregation", "AggregationRun", "run_advice", "AdviceRun", "run_demo", "DemoRun",
    "WorkflowRun", "OUTPUT_FORMATS", "render_tables", "check_output_files",
    "read_data", "DATA_OPTIONS", "read_numeric_data",
    "ensemble_from_options", "parse_subset", "selected_features", "consensus_table",
    "subset_curve_table", "stability_table", "selection_summary", "write_selection",
    "RESULT_FILES", "rank_table", "compare_rules", "DEMO_RULES", "frame_text",
    "command_line_text",
    "format_float_table",
]
