"""Distances between ranked lists: Spearman's footrule and Kendall's tau, full, top-k, weighted.

The distances of Bouaguel et al. (2013) behind the ``ga`` and ``ce`` aggregation rules, with
Kendall's tau the objective of ``kemeny`` (docs/design.md, 'Distances'). They are defined, with
their notation and references, in :mod:`rankfusion.distances.measures`; the compiled kernels
they share with the aggregation rules live in ``_kernels``.
"""

from .measures import (
    DISTANCES,
    distance_matrix,
    kendall_distance,
    kendall_tau,
    max_distance,
    spearman_footrule,
)

__all__ = ["spearman_footrule", "kendall_distance", "kendall_tau", "distance_matrix",
           "max_distance", "DISTANCES"]
