"""
Error curves: does combining rankers pay?
=========================================

Two Weka-exact filters (information gain and ReliefF) are combined by two rules inside an
:class:`~rankfusion.selection.EnsembleSelector` and compared with information gain alone, on
the bundled UCI Parkinsons data (195 recordings × 22 voice measures).
:func:`rankfusion.evaluation.error_curve` fits each selector on the training part of every
stratified split and scores a linear SVM on the top *k* features of the test part, so no test
row shapes the ranking. Three splits keep the example fast; the papers use 10–100.

**How to read it:** lower is better; each line is a method's mean test error against the
number of top-ranked features kept (log scale), its error bars ± one SD over the splits. Curves that
overlap within their bands are not distinguishable with this many splits.
"""

import matplotlib.pyplot as plt

from rankfusion import EnsembleSelector
from rankfusion.datasets import load
from rankfusion.evaluation import error_curve, plot_error_curves

X, y = load("parkinsons", as_frame=True, return_X_y=True)
methods = {
    "K-First (IG + ReliefF)": EnsembleSelector(rankers=("info_gain", "relieff"),
                                               aggregation="kfirst"),
    "Borda (IG + ReliefF)": EnsembleSelector(rankers=("info_gain", "relieff"),
                                             aggregation="borda"),
    "info gain alone": EnsembleSelector(rankers=("info_gain",)),
}
curves = {name: error_curve(selector, X, y, n_features=[1, 2, 3, 5, 8, 12, 22], n_splits=3,
                            random_state=0)
          for name, selector in methods.items()}

fig, ax = plt.subplots(figsize=(6.4, 4.2))
plot_error_curves(curves, ax=ax, title="Parkinsons: linear SVM on the top k features")
fig.tight_layout()

# %%
# The numbers behind the figure: mean test error per method and feature count.
for name, result in curves.items():
    print(f"{name:24s}", result.errors.mean().round(3).to_dict())
