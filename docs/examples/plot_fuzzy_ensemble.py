"""
A bootstrap ensemble combined by fuzzy sets, and its stability
==============================================================

The fuzzy weighted combination turns each ranker's scores over L bootstrap samples into a
fuzzy set per feature, weighs the rankers feature by feature and defuzzifies the combined set
into one score (the OW weighting weighs a ranker by how consistently it scores a feature
across the bootstraps). Here three filters — information gain, ReliefF and the ANOVA F
statistic — rank the 8 features of the bundled Pima Indians diabetes data on 20 bootstrap
samples inside an :class:`~rankfusion.selection.EnsembleSelector` with
``aggregation="fuzzy:OW"``.

**How to read it:** on the left, the weight w each ranker receives for each feature (a row
sums to 1; rows in the consensus order, the defuzzified score in brackets): with OW a ranker
that scores a feature inconsistently across the bootstraps gets less than 1/3 of the say on
it, and all three get 1/3 where they agree perfectly (``plas``, first on every bootstrap). On
the right, Nogueira's Φ of the top 3 features over the 20 bootstraps for each ranker and for
the fuzzy consensus, with its 95 % interval: 1 means the same 3 features on every bootstrap,
0 no more agreement than chance.
"""

import matplotlib.pyplot as plt
import numpy as np

from rankfusion import EnsembleSelector
from rankfusion.datasets import load

X, y = load("pima", as_frame=True, return_X_y=True)
selector = EnsembleSelector(rankers=["info_gain", "relieff", "f_classif"],
                            aggregation="fuzzy:OW", n_bootstraps=20, n_features_to_select=3,
                            random_state=0).fit(X, y)
fuzzy = selector.consensus_

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.0),
                                  gridspec_kw={"width_ratios": [1.1, 1]})
weights = fuzzy.weights[fuzzy.order]
image = left.imshow(weights, cmap="RdBu", vmin=1 / 3 - 0.06, vmax=1 / 3 + 0.06, aspect="auto")
for i in range(weights.shape[0]):
    for j in range(weights.shape[1]):
        left.text(j, i, f"{weights[i, j]:.3f}", ha="center", va="center", fontsize=8)
left.set_xticks(range(len(fuzzy.methods)))
left.set_xticklabels(fuzzy.methods)
left.set_yticks(range(len(fuzzy.order)))
left.set_yticklabels([f"{fuzzy.features[i]} ({fuzzy.scores[i]:.2f})" for i in fuzzy.order])
left.set_title("OW weight of each ranker, per feature")
fig.colorbar(image, ax=left, label="weight (1/3 = equal say)")

stab = selector.stability_
ypos = np.arange(len(stab))
err = np.vstack([stab["nogueira"] - stab["nogueira_low"],
                 stab["nogueira_high"] - stab["nogueira"]]).clip(min=0)
right.errorbar(stab["nogueira"], ypos, xerr=err, fmt="o", capsize=4)
right.set_yticks(ypos)
right.set_yticklabels(stab.index)
right.invert_yaxis()
right.set_xlim(0, 1)
right.set_xticks(np.linspace(0, 1, 6))
right.set_xlabel("Nogueira's Φ of the top 3 (95 % interval)")
right.set_title("Stability over 20 bootstraps")
fig.tight_layout()

# %%
# The stability table of the selector (Φ with its interval; ASD lower and APC higher = more
# stable scores):
print(stab.round(3).to_string())
