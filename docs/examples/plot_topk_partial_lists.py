"""
Top-k partial lists: how short may the lists be?
================================================

Published gene lists, search results and many tools give only their **top k** — the rest of
the ranking is unknown. :meth:`rankfusion.RankedLists.from_orders` reads such lists: a feature
a list does not name takes position k + 1 in it (the convention of RankAggreg), and
:attr:`~rankfusion.RankedLists.ranked` records that it was absent. Here four filters (ANOVA F,
information gain, symmetric uncertainty, ReliefF) rank the 985 genes of the bundled St. Jude
data; we keep only each filter's top k genes, combine the truncated lists with five rules, and
compare the consensus top 10 with the one the full rankings give.

**How to read it:** one line per rule; a point is the number of the full-list consensus' top
10 genes that the consensus of the top-k lists also puts in its top 10 (10 = the same set).
Where a line reaches 10, lists of that length lose nothing for this question; to the left of
it the truncation changes the answer. The rankings are computed on all 248 samples — this
example is about aggregation, not about an honest accuracy.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from rankfusion import RankedLists, aggregate
from rankfusion.datasets import load
from rankfusion.rankers import get_ranker

X, y = load("stjude", as_frame=True, return_X_y=True)
genes = np.asarray(X.columns)
rankers = ["f_classif", "info_gain", "symmetric_uncertainty", "relieff"]
scores = pd.DataFrame({r: get_ranker(r)(X, y) for r in rankers}, index=genes)
full = RankedLists.from_scores(scores)

rules = ["borda", "median", "kfirst", "schulze", "rra"]
reference = {rule: set(aggregate(full, rule).order[:10]) for rule in rules}
lengths = [5, 10, 15, 20, 30, 50, 75, 100]
overlap = pd.DataFrame(index=lengths, columns=rules, dtype=float)
for k in lengths:
    orders = {r: scores[r].sort_values(ascending=False, kind="stable").index[:k] for r in rankers}
    partial = RankedLists.from_orders(orders, universe=genes)
    for rule in rules:
        overlap.loc[k, rule] = len(reference[rule] & set(aggregate(partial, rule).order[:10]))

fig, ax = plt.subplots(figsize=(6.4, 4.0))
for i, rule in enumerate(rules):
    ax.plot(overlap.index, overlap[rule] + (i - 2) * 0.06, marker="o", label=rule)
ax.set_xticks(lengths)
ax.set_yticks(range(4, 11))
ax.set_ylim(4, 10.5)
ax.set_xlabel("length k of each truncated list")
ax.set_ylabel("genes shared with the full-list top 10")
ax.set_title("St. Jude: consensus of top-k lists against full lists (points offset a little)",
             fontsize=9)
ax.legend(title="rule", loc="lower right")
fig.tight_layout()

# %%
# The counts behind the figure:
print(overlap.astype(int))
