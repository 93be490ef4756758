"""
A paper's table, regenerated: NLC against ReliefF and information gain
======================================================================

Ruiz, Riquelme & Aguilar-Ruiz (2003), Table 4, keep the **first three features** of each
ranking and report the 10-fold cross-validated accuracy of a classifier on them. This example
redoes the naive Bayes column on six of the paper's UCI sets bundled with rankfusion: each
ranking is computed on the training part of each fold only (the selector sits inside the
cross-validation), then Weka-style naive Bayes is trained on the three features and tested.

**How to read it:** each panel is one ranker; a point is one data set, at the paper's accuracy
(x) and ours (y). Points on the diagonal reproduce the paper; the vertical bars are ± one
standard deviation of our accuracy over the 10 folds, so a point whose bar crosses the diagonal
is within the fold-to-fold noise. The full comparison, with all 11 sets and three classifiers,
is in ``EXPERIMENTS.md`` ("NLC").
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

from rankfusion import EnsembleSelector, cross_validate_selection
from rankfusion.datasets import load

#: Table 4 of Ruiz et al. (2003), naive Bayes, first three features: NLC, ReliefF, IG (%).
PAPER = pd.DataFrame(
    {"nlc": [95.3, 84.2, 53.8, 77.1, 73.1, 78.3],
     "relieff": [95.3, 71.3, 45.8, 76.4, 70.6, 83.5],
     "info_gain": [95.3, 84.2, 49.1, 76.8, 70.6, 86.6]},
    index=["iris", "zoo", "glass", "pima", "sonar", "ionosphere"],
)
RANKERS = {"nlc": "nlc", "relieff": ("relieff", {"n_neighbors": 10}), "info_gain": "info_gain"}

# zoo has a class of 4 animals and glass one of 9: as in Weka, a fold may then lack the
# rarest class (scikit-learn warns about it; we know)
warnings.filterwarnings("ignore", message="The least populated class", category=UserWarning)
folds = StratifiedKFold(10, shuffle=True, random_state=2003)
rows = []
for data in PAPER.index:
    X, y = load(data, as_frame=True, return_X_y=True)
    for label, ranker in RANKERS.items():
        selector = EnsembleSelector(rankers=[ranker], aggregation="borda", n_bootstraps=0,
                                    n_features_to_select=3)
        cv = cross_validate_selection(selector, X, y, classifier="naive_bayes_weka", cv=folds,
                                      scoring=("accuracy",))
        accuracy = cv.summary().loc["accuracy"]
        rows.append({"data": data, "ranker": label, "paper": PAPER.loc[data, label],
                     "ours": 100 * accuracy["mean"], "sd": 100 * accuracy["sd"]})
table = pd.DataFrame(rows)

fig, axes = plt.subplots(1, 3, figsize=(10, 3.8), sharex=True, sharey=True)
for ax, (label, part) in zip(axes, table.groupby("ranker", sort=False)):
    ax.plot([40, 100], [40, 100], color="0.6", lw=1, ls="--", label="ours = paper")
    ax.errorbar(part["paper"], part["ours"], yerr=part["sd"], fmt="o", ms=5, capsize=3,
                label="ours ± 1 sd over folds")
    for _, r in part.iterrows():
        ax.annotate(r["data"], (r["paper"], r["ours"]), textcoords="offset points",
                    xytext=(4, -10), fontsize=7)
    ax.set_title(label)
    ax.set_xlabel("paper's accuracy (%)")
    ax.set_xticks(np.arange(40, 101, 20))
    ax.set_yticks(np.arange(40, 101, 20))
    ax.set_xlim(40, 100)
    ax.set_ylim(40, 100)
axes[0].set_ylabel("our accuracy (%)")
axes[0].legend(loc="upper left", fontsize=7)
fig.suptitle("Ruiz et al. (2003), Table 4: naive Bayes on the first three features")
fig.tight_layout()

# %%
# The numbers behind the figure (accuracy in %, our standard deviation over the 10 folds):
print(table.round(1).to_string(index=False))
