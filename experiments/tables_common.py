"""Helpers shared by the reproduction scripts (``experiments/<paper>/tables.py``): the tidy
results of a runner folder, finished or stopped, and markdown tables without optional
dependencies. A script imports it with its parent folder on ``sys.path``::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tables_common import md_table, results_of

``all_data_cv`` is the clearly-labelled "selection on all data" protocol, for papers whose
numbers look like a selection made before the cross-validation.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin

from rankfusion.evaluation import cross_validate_selection
from rankfusion.experiments import load_config, read_results
from rankfusion.experiments.cells import build_selector, load_dataset, resolve_pos_label


def results_of(folder) -> pd.DataFrame:
    """The tidy results of a runner folder: ``results.parquet``, or for a stopped run the
    cells finished so far (``read_results(..., partial=True)``)."""
    return read_results(Path(folder), partial=True)[0]


def md_table(df: pd.DataFrame, floatfmt: str = "{:.4f}") -> str:
    """A DataFrame as a markdown table (index included)."""
    df = df.reset_index()
    fmt = [(lambda v: floatfmt.format(v)) if pd.api.types.is_float_dtype(t) else str
           for t in df.dtypes]
    head = "| " + " | ".join(map(str, df.columns)) + " |"
    sep = "|" + "---|" * df.shape[1]
    body = ["| " + " | ".join(f(v) for f, v in zip(fmt, row)) + " |"
            for row in df.itertuples(index=False)]
    return "\n".join([head, sep, *body])


class FixedSupport(SelectorMixin, BaseEstimator):
    """Keeps the columns chosen beforehand (the "selection on all data" protocol)."""

    def __init__(self, support=None):
        self.support = support

    def fit(self, X, y=None):
        self.n_features_in_ = np.asarray(X).shape[1] if not hasattr(X, "columns") else X.shape[1]
        return self

    def _get_support_mask(self):
        return np.asarray(self.support, dtype=bool)


def all_data_cv(config_path) -> tuple[list[dict], dict]:
    """"Selection on all data": for every ``cross_validation`` cell of the configuration, its
    selector fitted ONCE on all the rows of the data set (one fit per data set × method),
    then the cell's classifier cross-validated on the selected columns, with the cell's folds,
    seed, metrics and positive class. Leaks the test rows into the selection: only to test
    whether a paper's numbers come from it.

    Returns the tidy rows (dataset, method, classifier, split, metric, value, protocol
    ``"all_data"``, k) and the fitted selectors by ``(dataset, method)``.
    """
    cfg = load_config(config_path)
    rows, done = [], {}
    for cell in cfg.cells:
        spec = cell.spec
        ds, method, clf = cell.labels["dataset"], cell.method, spec["classifier"]
        X, y, _ = load_dataset(spec["dataset"]["source"], spec["dataset"]["options"])
        if (ds, method) not in done:
            sel = build_selector(spec, cell.seed).set_params(random_state=cell.seed)
            done[(ds, method)] = sel.fit(X, y)
        sel = done[(ds, method)]
        pp = spec["protocol"]["params"]
        res = cross_validate_selection(FixedSupport(sel.get_support()), X, y,
                                       classifier=clf, cv=cell_folds(pp, cell.seed),
                                       scoring=tuple(pp["scoring"]),
                                       pos_label=resolve_pos_label(pp.get("pos_label"), y),
                                       random_state=cell.seed)
        rows += tidy_scores(res.scores, dataset=ds, method=method, classifier=clf,
                            protocol="all_data", k=int(sel.n_features_))
    return rows, done


def cell_folds(params: dict, seed):
    """The folds of a ``cross_validation`` cell as the runner makes them: ``cv`` folds, or with
    ``small_classes = true`` (folds may lack the rarest class, as Weka's) the splitter the
    runner passes, ``StratifiedKFold(cv, shuffle=True, random_state=seed)``."""
    if params.get("small_classes"):
        from sklearn.model_selection import StratifiedKFold

        return StratifiedKFold(params["cv"], shuffle=True, random_state=seed)
    return params["cv"]


def tidy_scores(scores: pd.DataFrame, *, dataset, method, classifier, protocol, k) -> list[dict]:
    """One row per split × metric of a ``cross_validate_selection`` score table, labelled as the
    runner's tidy results (dataset, method, classifier, split, metric, value, protocol, k)."""
    return [{"dataset": dataset, "method": method, "classifier": classifier, "split": split,
             "metric": metric, "value": float(v), "protocol": protocol, "k": k}
            for split, r in scores.iterrows() for metric, v in r.items()]
