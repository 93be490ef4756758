"""
How much do the rules agree?
============================

Five rankers (ANOVA F, mutual information, chi², random forest, linear SVM) ranked the 13
features of the UCI Wine data; the bundled lists are :func:`rankfusion.datasets.load_wine_lists`.
Every position-based rule combines them, and :func:`rankfusion.evaluation.rule_agreement`
compares the consensus rankings pairwise.

**How to read it:** each cell is the normalised Kendall distance between two rules' full
rankings (0 = the same order, 1 = reversed); a light block means rules that order the features
alike, so choosing between them matters little on these lists.
"""

import matplotlib.pyplot as plt

from rankfusion import aggregate
from rankfusion.datasets import load_wine_lists
from rankfusion.evaluation import plot_agreement, rule_agreement

lists = load_wine_lists()
rules = ["borda", "median", "best_rank", "q3_sd", "kfirst", "copeland", "schulze", "rrf"]
consensus = {rule: aggregate(lists, rule) for rule in rules}
agreement = rule_agreement(consensus, k=3)

fig, ax = plt.subplots(figsize=(6.4, 5.4))
plot_agreement(agreement.kendall, ax=ax, vmax=0.3,
               title="Kendall distance between rules (Wine)")
fig.tight_layout()

# %%
# The top-3 sets: Jaccard index of the rules' three best features (1 = the same three).
print(agreement.jaccard.round(2))
