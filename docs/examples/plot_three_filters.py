"""
Combining three filters on gene-expression data
===============================================

The St. Jude leukaemia data (Yeoh et al. 2002, as prepared by Monti et al. 2003; bundled:
248 patients × 985 genes, 6 subtypes) is the typical p ≫ n problem. Three filters rank the
genes — the ANOVA F statistic, information gain and ReliefF — and a Borda count combines the
three lists. Is the combination better than the filters it combines?

The honest way to ask is to put each selector *inside* the evaluation, so that the genes
are chosen on the training part only: :func:`rankfusion.evaluation.error_curve` fits each
selector once on the training part of each of 10 stratified 75/25 splits and scores a linear
SVM (Weka's SMO defaults: attributes scaled to [0, 1] on the training part) on the top *k*
genes of the test part. (The unscaled ``linear_svm`` is very slow on raw expression values of
order 10⁴; scale or use ``smo``.)

**How to read it:** lower is better; one line per selector, mean test error against the number
of genes kept (log scale), bars ± one standard deviation over the splits. Where the lines
overlap within their bars, the data do not tell the selectors apart — on this set, as in our
reproductions, the combination is about as good as its best member rather than better.
:func:`rankfusion.advise` asks the same question with a nested protocol and states the answer.
"""

import matplotlib.pyplot as plt
import pandas as pd

from rankfusion import EnsembleSelector
from rankfusion.datasets import load
from rankfusion.evaluation import error_curve, plot_error_curves

X, y = load("stjude", as_frame=True, return_X_y=True)
sizes = [2, 5, 10, 20, 50, 100]
selectors = {
    "F statistic": ["f_classif"],
    "information gain": ["info_gain"],
    "ReliefF": ["relieff"],
    "Borda of the three": ["f_classif", "info_gain", "relieff"],
}
curves = {
    label: error_curve(EnsembleSelector(rankers=rankers, aggregation="borda", n_bootstraps=0),
                       X, y, n_features=sizes, classifier="smo", n_splits=10, random_state=0)
    for label, rankers in selectors.items()
}

fig, ax = plt.subplots(figsize=(6.4, 4.2))
plot_error_curves(curves, ax=ax, title="St. Jude ALL: three filters and their Borda count",
                  ylabel="test error, 10 splits (± 1 sd)")
fig.tight_layout()

# %%
# The mean test errors behind the figure, one column per selector:
print(pd.DataFrame({label: c.summary()["mean"] for label, c in curves.items()}).round(3))
