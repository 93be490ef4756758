"""Experiments: a TOML grid of datasets × selectors × rules × classifiers × protocols, run
resumably on one machine or a Dask cluster, with tidy results and a report.

* :func:`load_config` / :func:`parse_config` — validate a configuration completely
  (:class:`ConfigError` lists every problem with its key and place);
* :func:`run_experiment` — run or resume it (``client=`` / ``scheduler=`` / ``n_workers=``
  for Dask, the optional extra ``rankfusion[dask]``); :func:`dry_run` — what would run;
* :func:`write_report` — HTML + Markdown report of a results folder;
* :func:`read_results` — the tidy tables of a results folder;
* :func:`reproduce` — one paper of EXPERIMENTS.md: its configurations run (or the shipped
  results adopted), then its tables regenerated (``rankfusion reproduce``);
* :func:`rankfusion.experiments.advice.advise_in_folder` — :func:`rankfusion.advise` resumable
  and on Dask, its parts filed in a results folder as they finish.

One run at a time uses a results folder (its lock; :class:`FolderLockedError` otherwise), and
its tables and report are tied to their configuration's hash.

The schema and the guarantees (atomic cell files, content hashes, seeds) are documented in
``docs/experiments.md``. This package never imports Dask unless a cluster is asked for.
"""

from .cells import Cell, cell_seed, run_cell
from .config import (
    ConditionalDefault,
    ConfigError,
    ExperimentConfig,
    load_config,
    parse_config,
    schema_rows,
)
from .lock import FolderLockedError
from .report import read_results, write_report
from .reproduce import Reproduction, find_experiments, reproduce
from .runner import RunSummary, dask_client, dry_run, plan, run_experiment

__all__ = [
    "Cell",
    "ConditionalDefault",
    "ConfigError",
    "ExperimentConfig",
    "FolderLockedError",
    "RunSummary",
    "cell_seed",
    "dask_client",
    "dry_run",
    "load_config",
    "parse_config",
    "plan",
    "read_results",
    "Reproduction",
    "find_experiments",
    "reproduce",
    "run_cell",
    "run_experiment",
    "schema_rows",
    "write_report",
]
