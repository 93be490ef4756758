"""Datasets: the artificial problems of Izetta et al. (2017) and the papers' real data."""

from .artificial import (
    ARTIFICIAL_DATASETS,
    ARTIFICIAL_DIFFICULTY,
    artificial_bayes_error,
    load_artificial,
    make_artificial,
)
from .export import EXPORT_FORMATS, export_dataset
from .loaders import available_datasets, check_dataset_name, load
from .real import load_stjude_leukemia, load_wine_lists

__all__ = ["make_artificial", "load_artificial", "ARTIFICIAL_DATASETS", "ARTIFICIAL_DIFFICULTY",
           "artificial_bayes_error", "load_stjude_leukemia", "load_wine_lists", "load",
           "available_datasets", "check_dataset_name", "export_dataset", "EXPORT_FORMATS"]
