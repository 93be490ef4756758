"""
Stability of the top-k features over bootstrap samples
======================================================

An :class:`~rankfusion.selection.EnsembleSelector` with ``n_bootstraps=20`` ranks the
features of the bundled UCI Parkinsons data with each ranker on 20 bootstrap samples; its
``lists_`` hold one list per ranker and sample. For every subset size *k*, Nogueira et al.'s
estimator Φ (:func:`rankfusion.stability.nogueira`) measures how much the 20 top-*k* sets of a
ranker agree.

**How to read it:** Φ is 1 when every bootstrap selects the same *k* features and about 0 when
the selections agree no more than random subsets of size *k* would; a curve that stays high
means a ranker whose top features do not depend on which samples it saw. Φ is undefined at
*k* = p (every subset is then the whole set).
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from rankfusion import EnsembleSelector
from rankfusion.datasets import load
from rankfusion.evaluation import plot_stability
from rankfusion.stability import nogueira

X, y = load("parkinsons", as_frame=True, return_X_y=True)
rankers = ("info_gain", "relieff", "nlc")
selector = EnsembleSelector(rankers=rankers, aggregation="borda", n_bootstraps=20,
                            n_features_to_select=5, random_state=0).fit(X, y)

positions = selector.lists_.positions  # features × lists (1 = best)
names = np.asarray(selector.lists_.list_names, dtype=str)
sizes = range(1, X.shape[1])
curves = {}
for ranker in rankers:
    own = positions[:, [i for i, n in enumerate(names) if n.startswith(ranker)]]
    curves[ranker] = pd.Series({k: nogueira((own <= k).T).statistic for k in sizes})

fig, ax = plt.subplots(figsize=(6.4, 4.2))
plot_stability(curves, ax=ax, log_x=False, ylabel="Nogueira's Φ over 20 bootstraps",
               title="Parkinsons: stability of each ranker's top k")
ax.xaxis.set_major_locator(MaxNLocator(integer=True))
fig.tight_layout()

# %%
# The selector's own summary at its subset size (k = 5): Φ with its 95 % interval, and the
# score-based ASD (lower = more stable) and APC (higher = more stable).
print(selector.stability_.round(3))
