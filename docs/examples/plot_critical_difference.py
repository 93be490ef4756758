"""
Comparing rules across data sets: the critical-difference diagram
=================================================================

Three rules combining information gain and ReliefF, and information gain alone, are scored
on five small bundled data sets (the test error of a linear SVM on each method's top 3
features, mean of two stratified splits). :func:`rankfusion.evaluation.friedman` ranks the
methods on each data set and tests whether their average ranks differ;
:func:`rankfusion.evaluation.nemenyi` gives the critical difference (CD) that two average
ranks must exceed to differ at α = 0.05 (Demšar 2006).

**How to read it:** methods are placed by their average rank (1 = best, on the left); a
horizontal bar joins methods whose ranks differ by less than the CD, i.e. that the test cannot
tell apart. With five data sets the CD is large and nearly every method is joined to every
other: the figure shows the method, not a verdict (two data sets say almost nothing).
"""

import matplotlib.pyplot as plt
import pandas as pd

from rankfusion import EnsembleSelector
from rankfusion.datasets import load
from rankfusion.evaluation import error_curve, friedman, nemenyi, plot_critical_difference

methods = {
    "K-First": EnsembleSelector(rankers=("info_gain", "relieff"), aggregation="kfirst"),
    "Borda": EnsembleSelector(rankers=("info_gain", "relieff"), aggregation="borda"),
    "Schulze": EnsembleSelector(rankers=("info_gain", "relieff"), aggregation="schulze"),
    "info gain": EnsembleSelector(rankers=("info_gain",)),
}
errors = {}
for name in ("iris", "glass", "zoo", "parkinsons", "ionosphere"):
    X, y = load(name, as_frame=True, return_X_y=True)
    errors[name] = {method: error_curve(selector, X, y, n_features=[3], n_splits=2,
                                        random_state=0).errors.mean().iloc[0]
                    for method, selector in methods.items()}
errors = pd.DataFrame(errors).T  # data sets × methods
print(errors.round(3))

test = friedman(errors)
print(f"Friedman chi2 = {test.statistic:.2f}, p = {test.pvalue:.3f} over {test.n_datasets} sets")

fig, ax = plt.subplots(figsize=(6.4, 2.6))
plot_critical_difference(nemenyi(errors), ax=ax, title="Top-3 error, 5 data sets")
fig.tight_layout()
