"""Datasets: the artificial problems of Izetta et al. (2017) and the bundled real data."""

from .artificial import ARTIFICIAL_DATASETS, load_artificial, make_artificial
from .real import load_stjude_leukemia, load_wine_lists

__all__ = ["make_artificial", "load_artificial", "ARTIFICIAL_DATASETS", "load_stjude_leukemia",
           "load_wine_lists"]
