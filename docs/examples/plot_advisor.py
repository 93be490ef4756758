"""
The advisor: does combining rankings pay on this data?
======================================================

:func:`rankfusion.advise` answers the practitioner's question for one data set without
selection bias: in each outer training part of a repeated stratified cross-validation
(here 2 × 5 folds) an inner 3-fold CV picks the best *combination* (a subset of the rankers ×
a rule × a subset size) and, separately, the best *single ranker* (× size); both choices are
refit and scored on the outer test part. The gain is the paired difference of those outer
accuracies, tested with the Nadeau–Bengio corrected resampled t-test. Each ranker runs once
per training part and every configuration is aggregated from the cached scores.

Data: the bundled UCI Parkinsons voice measures (195 × 22); rankers: information gain,
ReliefF, ANOVA F; rules: Borda, K-First, reciprocal rank fusion; sizes 2, 4, 8, 16.

**How to read it:** on the left, each grey line joins the outer accuracy of the two
procedures on one outer fold — lines going up favour combining; the title states the
verdict. On the right, the 11 configurations with the best mean outer accuracy, each with its
95 % interval, and in orange the one the advisor recommends (chosen by the inner CV on all
the data, so not necessarily the best outer mean): intervals that overlap this much mean the
choice among them is a coin toss, which is why the advisor reports the interval and not
just the winner.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from rankfusion import advise
from rankfusion.datasets import load

X, y = load("parkinsons", as_frame=True, return_X_y=True)
advice = advise(X, y, rankers=("info_gain", "relieff", "f_classif"),
                rules=("borda", "kfirst", "rrf"), sizes=(2, 4, 8, 16), cv=5, n_repeats=2,
                random_state=0)

fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.4),
                                  gridspec_kw={"width_ratios": [0.8, 1.4]})
single, combined = advice.single_scores, advice.combination_scores
jitter = np.linspace(-0.08, 0.08, len(single))  # folds with equal accuracies stay visible
for j, a, b in zip(jitter, single, combined):
    left.plot([j, 1 + j], [a, b], color="0.6", lw=1)
left.scatter(jitter, single, zorder=3, s=14)
left.scatter(1 + jitter, combined, zorder=3, s=14)
left.set_xticks([0, 1])
left.set_xticklabels(["best single\n(chosen inside)", "best combination\n(chosen inside)"])
left.set_xlim(-0.3, 1.3)
left.set_ylabel("outer-fold accuracy")
lo, hi = advice.gain_ci
left.set_title(f"gain {advice.gain:+.3f} (95 % CI {lo:+.3f} … {hi:+.3f}), "
               f"p = {advice.pvalue:.2f}", fontsize=9)

table = advice.table
chosen = table["configuration"] == advice.recommended
top = table.head(11)
if not chosen.head(11).any():  # the recommended configuration is always shown
    top = pd.concat([top, table[chosen]])
top = top.iloc[::-1]
recommended = [c == advice.recommended for c in top["configuration"]]
labels = [f"{r.rankers} | {r.rule} | {r.size}" + ("  (recommended)" if rec else "")
          for r, rec in zip(top.itertuples(), recommended)]
colors = ["tab:orange" if r else "tab:blue" for r in recommended]
ypos = np.arange(len(top))
right.hlines(ypos, top["score_low"], top["score_high"], colors=colors, lw=2)
right.scatter(top["score"], ypos, c=colors, zorder=3)
right.set_yticks(ypos)
right.set_yticklabels(labels, fontsize=7)
right.set_xlabel("mean outer accuracy (95 % interval)")
right.set_title("The best configurations and the recommended one", fontsize=9)
fig.suptitle(advice.verdict.split(" (")[0], fontsize=11)
fig.tight_layout()

# %%
# The advisor's verdict, in full:
print(advice.verdict)
