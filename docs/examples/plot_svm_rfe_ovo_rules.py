"""
One-vs-one SVM-RFE combined by K-First and by Schulze
=====================================================

Izetta et al. (2017) run SVM-RFE (Guyon et al. 2002) once per pair of classes and combine the
per-pair rankings into one. On the three-class leukaemia data of Golub et al. (ALL-B, ALL-T,
AML; 72 samples × 7,129 genes, bundled) the one-vs-one decomposition gives three rankings;
:func:`rankfusion.selection.svm_rfe_rankings` computes them once and combines them with two
rules: **K-First** (the paper's rule: each list credits only its k best positions, linearly
decreasing from 1 at the top to 0 after position k — here k = 10 % of the genes — and the
credits are averaged over the lists) and **Schulze** (a Condorcet method on the pairwise
preferences of the lists).

**How to read it:** one row per gene — the 12 genes each rule puts first, together — and one
column per ranking; a cell is that gene's position in that ranking (1 = best, darker = better,
log colour scale). The first three columns are the per-pair rankings both rules start from.
Neither rule rewards a gene for being first in one pair's list alone: a gene needs good
positions in every pair to lead, and the two rules, built on different ideas, agree on most of
the top genes.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import LogNorm

from rankfusion.datasets import load
from rankfusion.selection import svm_rfe_rankings

X, y = load("leukemia_3c", as_frame=True, return_X_y=True)
res = svm_rfe_rankings(X, y, ("kfirst", "schulze"), decomposition="ovo", random_state=0)

positions = pd.DataFrame(res.lists.positions, index=res.lists.features,
                         columns=res.lists.list_names)
for rule in ("kfirst", "schulze"):
    positions[rule] = res.consensus[rule].to_frame()["rank"].reindex(positions.index)

top = 12
genes = list(dict.fromkeys(
    [*res.consensus["kfirst"].features[res.consensus["kfirst"].order[:top]],
     *res.consensus["schulze"].features[res.consensus["schulze"].order[:top]]]))
shown = positions.loc[genes].sort_values("kfirst")

fig, ax = plt.subplots(figsize=(6.4, 6.0))
image = ax.imshow(shown.to_numpy(dtype=float), cmap="viridis", aspect="auto",
                  norm=LogNorm(vmin=1, vmax=max(100, shown.to_numpy().max())))
ax.set_xticks(range(shown.shape[1]))
ax.set_xticklabels([c.replace("_vs_", " vs\n") for c in shown.columns], fontsize=8)
ax.set_yticks(range(shown.shape[0]))
ax.set_yticklabels(shown.index, fontsize=7)
ax.axvline(2.5, color="white", lw=2)
for i in range(shown.shape[0]):
    for j in range(shown.shape[1]):
        value = int(shown.iat[i, j])
        ax.text(j, i, str(value), ha="center", va="center", fontsize=6,
                color="white" if value < 40 else "black")
fig.colorbar(image, ax=ax, label="position (1 = best, log scale)")
ax.set_title("Golub 3-class: one-vs-one SVM-RFE lists and two combinations", fontsize=10)
fig.tight_layout()

# %%
# How much do the two rules agree on the top of the ranking?
for k in (5, 10, 20, 50):
    a = set(res.consensus["kfirst"].order[:k])
    b = set(res.consensus["schulze"].order[:k])
    print(f"top {k:>2}: {len(a & b):>2} genes in common")
print("the genes K-First and Schulze rank in their top 12:", len(genes), "in all;",
      int(np.isin(res.consensus["kfirst"].order[:top],
                  res.consensus["schulze"].order[:top]).sum()), "shared")
