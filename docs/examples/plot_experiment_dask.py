"""
An experiment grid on a local Dask cluster
==========================================

:func:`rankfusion.experiments.run_experiment` runs a grid written in TOML — data sets ×
selectors × rules × classifiers × protocols — one cell at a time, saving each finished cell,
so a run that stops is resumed by running it again. ``n_workers=2`` starts a
``distributed.LocalCluster`` of two worker processes and sends the cells to it; ``client=``
takes an existing cluster instead (``--scheduler tcp://host:8786`` on the command line). The
numbers do not depend on where a cell runs: every cell draws its seed from the experiment's
seed and its own settings.

The grid here is small on purpose: two bundled data sets, an ensemble of information gain and
ReliefF combined by two rules, a linear SVM, and 5 random 75/25 splits.

**How to read it:** one panel per data set, mean test error (over the 5 splits) against the
number of features kept, one line per rule, bars ± one standard deviation. The runner's own
report (``out/report/``) draws the same curves for every cell of a larger grid.
"""

import tempfile
from pathlib import Path

import matplotlib.pyplot as plt

from rankfusion.experiments import read_results, run_experiment

CONFIG = """
[experiment]
name = "gallery-grid"
seed = 2024

[grid]
datasets = ["parkinsons", "sonar"]
selectors = ["filters"]
rules = ["borda", "kfirst"]
classifiers = ["smo"]
protocols = ["curve"]

[selectors.filters]
kind = "ensemble"
rankers = ["info_gain", "relieff"]

[rules.kfirst]
k = 0.1

[protocols.curve]
kind = "error_curve"
n_splits = 5
test_size = 0.25
n_features = [1, 2, 4, 8, 16]
"""

out = Path(tempfile.mkdtemp()) / "grid"
summary = run_experiment(CONFIG, out, n_workers=2, report=False, progress=False)
print(f"{summary.status}: {summary.total} cells, {len(summary.computed)} computed, "
      f"{summary.reused} reused, on {summary.backend.split(' (')[0]}")

# %%
# Run it again: every cell is found in the folder and reused, nothing is recomputed.
again = run_experiment(CONFIG, out, report=False, progress=False)
print(f"second run: {again.reused} reused, {len(again.computed)} computed")

results, positions, metadata = read_results(out)

# %%
# The error curves of the grid (``results`` is long: one row per cell, split, feature count
# and metric).
errors = results[results["metric"] == "error"]
curves = (errors.groupby(["dataset", "rule", "n_features"])["value"]
          .agg(["mean", "std"]).reset_index())
fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
for ax, (data, part) in zip(axes, curves.groupby("dataset")):
    for rule, line in part.groupby("rule"):
        ax.errorbar(line["n_features"], line["mean"], yerr=line["std"], marker="o",
                    capsize=3, label=rule)
    ax.set_xscale("log", base=2)
    ax.set_xticks([1, 2, 4, 8, 16])
    ax.set_xticklabels(["1", "2", "4", "8", "16"])
    ax.set_xlabel("features kept (log scale)")
    ax.set_title(data)
axes[0].set_ylabel("test error, 5 splits (± 1 sd)")
axes[0].legend(title="rule")
fig.tight_layout()
