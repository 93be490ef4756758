"""Datasets: the artificial problems of Izetta et al. (2017) and the papers' real data."""

from .artificial import ARTIFICIAL_DATASETS, load_artificial, make_artificial
from .loaders import available_datasets, load
from .real import load_stjude_leukemia

__all__ = ["make_artificial", "load_artificial", "ARTIFICIAL_DATASETS", "load_stjude_leukemia",
           "load", "available_datasets"]
