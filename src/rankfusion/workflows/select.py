"""Ensemble feature selection on a data set: what ``rankfusion select`` computes
(:func:`run_selection` → :class:`SelectionRun`).

Rankers × bootstrap samples → one consensus ranking → a subset, by
:class:`~rankfusion.EnsembleSelector` (built by
:func:`~rankfusion.workflows.ensemble_from_options`). The views of a fitted selector
(:func:`selected_features`, :func:`subset_curve_table`, :func:`stability_table`), its record
(:func:`selection_summary`: parameters, seeds including ``seed_entropy_``, package versions,
timings) and its results folder (:func:`write_selection`: the consensus ranking, the subset, the
curve, the stability table and the summary, each file written atomically — a temporary file,
then ``os.replace`` —, an existing folder refused unless ``overwrite``) are public too.
"""

from __future__ import annotations

import json
import platform
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .output import WorkflowRun, inputs_of, is_stream, jsonable, source_name

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..selection import EnsembleSelector

__all__ = ["run_selection", "SelectionRun", "selected_features", "consensus_table",
           "subset_scores",
           "subset_curve_table",
           "stability_table", "selection_summary", "write_selection", "RESULT_FILES"]

#: The files :func:`write_selection` may write (and, with ``overwrite``, replace or remove).
RESULT_FILES = ("consensus.csv", "subset.txt", "subset_curve.csv", "stability.csv",
                "summary.json")


def selected_features(selector: EnsembleSelector) -> list[str]:
    """The selected features, best first (consensus order; ``get_feature_names_out`` keeps the
    column order instead).

    Parameters
    ----------
    selector : EnsembleSelector
        A fitted selector.

    Returns
    -------
    list of str
    """
    order = np.argsort(selector.positions_, kind="stable")[: selector.n_features_]
    names = selector.lists_.features
    return [str(names[i]) for i in order]


def subset_curve_table(selector: EnsembleSelector, *, max_rows: int = 12) -> pd.DataFrame | None:
    """A compact view of the subset-size curve: one row per k (at most ``max_rows``: evenly
    spread over the grid, always with the first, the last and the chosen k), one column per
    estimator with its mean cross-validated accuracy, and ``chosen`` marking the chosen k.
    None when the size was not searched.

    Parameters
    ----------
    selector : EnsembleSelector
        A fitted selector.
    max_rows : int, default 12
        The most rows shown.

    Returns
    -------
    DataFrame or None
    """
    sc = getattr(selector, "subset_curve_", None)
    if sc is None:
        return None
    wide = sc.curve.pivot(index="k", columns="estimator", values="mean")
    wide = wide[list(dict.fromkeys(sc.curve["estimator"]))]
    ks = wide.index.to_numpy()
    if ks.shape[0] > max_rows:
        pick = set(np.unique(np.rint(np.linspace(0, ks.shape[0] - 1, max_rows - 1))
                             .astype(int)).tolist())
        pick.add(int(np.flatnonzero(ks == sc.n_features)[0]))
        wide = wide.iloc[sorted(pick)]
    wide = wide.round(3)
    wide["chosen"] = np.where(wide.index == sc.n_features, "<-", "")
    wide.columns.name = None
    return wide


def stability_table(selector: EnsembleSelector) -> pd.DataFrame | None:
    """The stability summary of the fit (Nogueira's Φ̂ with its 95 % interval, ASD, APC), rounded
    to 3 decimals; None without at least two bootstraps.

    Parameters
    ----------
    selector : EnsembleSelector
        A fitted selector.

    Returns
    -------
    DataFrame or None
    """
    st = getattr(selector, "stability_", None)
    if st is None:
        return None
    cols = ["nogueira", "nogueira_low", "nogueira_high", "asd", "apc"]
    return st[cols].round(3)


def _versions() -> dict:
    from importlib import metadata

    out = {"python": platform.python_version()}
    for dist in ("rankfusion", "numpy", "scipy", "pandas", "scikit-learn", "numba", "joblib"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    if out["rankfusion"] is None:
        from .._utils.version import __version__

        out["rankfusion"] = __version__
    return out


def selection_summary(selector: EnsembleSelector, *, options: Mapping | None = None,
                      seconds: Mapping | None = None, n_samples: int | None = None) -> dict:
    """A JSON-able record of a fitted selector's run.

    Keys: ``options`` (as given, e.g. the command line's), ``parameters`` (the selector's
    ``get_params``), ``seeds`` (``random_state`` and ``seed_entropy_``: passing the latter as
    ``random_state`` repeats a run made with fresh entropy; also as text, since JSON readers
    may round integers beyond 2⁵³), ``result`` (samples, features, lists, the subset size, the
    subset, and the size search's choice), ``stability``, ``versions`` and ``seconds``.

    Parameters
    ----------
    selector : EnsembleSelector
        A fitted selector.
    options : mapping, optional
        The options as given (the command line's).
    seconds : mapping, optional
        Timings to record.
    n_samples : int, optional
        Samples of the fit data.

    Returns
    -------
    dict
    """
    sel = selector
    ent = int(sel.seed_entropy_)
    result = {"n_samples": n_samples, "n_features": int(sel.n_features_in_),
              "n_lists": int(sel.lists_.n_lists), "n_selected": int(sel.n_features_),
              "subset": selected_features(sel)}
    sc = sel.subset_curve_
    if sc is not None:
        result["size_search"] = {"method": sc.method, "n_features": int(sc.n_features),
                                 "estimator": sc.estimator, "accuracy": float(sc.accuracy)}
    params = {k: v for k, v in sel.get_params(deep=False).items() if k != "estimators"}
    est = sel.estimators
    from ..selection.estimators import DEFAULT_ESTIMATOR_NAMES

    params["estimators"] = (list(DEFAULT_ESTIMATOR_NAMES) if est is None
                            else list(est) if isinstance(est, dict) else repr(est))
    stab = stability_table(sel)
    return jsonable({
        "options": dict(options or {}),
        "parameters": params,
        "seeds": {"random_state": sel.random_state, "seed_entropy": ent,
                  "seed_entropy_text": str(ent)},
        "result": {k: v for k, v in result.items() if v is not None},
        "stability": None if stab is None else stab.to_dict(orient="index"),
        "versions": _versions(),
        "seconds": dict(seconds or {}),
    })


def consensus_table(selector: EnsembleSelector) -> pd.DataFrame:
    """The consensus ranking of a fitted selector, best first: ``feature``, ``position``,
    ``score``, ``selected`` (the ``consensus.csv`` of :func:`write_selection`).

    Parameters
    ----------
    selector : EnsembleSelector
        A fitted selector.

    Returns
    -------
    DataFrame
    """
    import pandas as pd

    sel = selector
    names = np.asarray(sel.lists_.features, dtype=object)
    order = np.argsort(sel.positions_, kind="stable")
    return pd.DataFrame({"feature": [str(names[i]) for i in order],
                         "position": sel.positions_[order],
                         "score": sel.scores_[order],
                         "selected": sel.support_[order]})


def write_selection(selector: EnsembleSelector, out, *, summary: Mapping,
                    overwrite: bool = False, inputs: Sequence = ()) -> list[Path]:
    """Save a fitted selector's results into the folder ``out``.

    Files (each written atomically): ``consensus.csv`` (feature, position, score, selected;
    best first), ``subset.txt`` (the selected features, best first, one a line),
    ``subset_curve.csv`` (the size search's curve, when searched), ``stability.csv`` (with
    bootstraps) and ``summary.json`` (``summary``, e.g. :func:`selection_summary`). An existing
    folder is refused unless ``overwrite``; then the files above are replaced and any of them
    this run does not produce is removed, nothing else is touched. ``inputs`` are the files the
    run read: ``out`` may not be one of them.

    Parameters
    ----------
    selector : EnsembleSelector
        A fitted selector.
    out : str or path-like
        The results folder.
    summary : mapping
        Written as ``summary.json``.
    overwrite : bool, default False
        Accept an existing folder.
    inputs : sequence of path-like, default ()
        The files the run read.

    Returns
    -------
    list of Path
        The files written.
    """
    from .._utils.atomic import atomic_write_text, check_output_dir
    from .._utils.tabular import to_csv

    folder = check_output_dir(out, overwrite=overwrite, inputs=inputs)
    folder.mkdir(exist_ok=True)
    sel = selector
    table = consensus_table(sel)
    files = {
        "consensus.csv": to_csv(table, index=False),
        "subset.txt": "".join(f"{f}\n" for f in table.loc[table["selected"], "feature"]),
    }
    if sel.subset_curve_ is not None:
        files["subset_curve.csv"] = to_csv(sel.subset_curve_.curve, index=False)
    if sel.stability_ is not None:
        files["stability.csv"] = to_csv(sel.stability_)
    files["summary.json"] = json.dumps(summary, indent=2, ensure_ascii=False) + "\n"
    written = []
    for name, text in files.items():
        written.append(atomic_write_text(folder / name, text))
    for stale in set(RESULT_FILES) - set(files):
        (folder / stale).unlink(missing_ok=True)
    return written


@dataclass
class SelectionRun(WorkflowRun):
    """What :func:`run_selection` computed.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    selector : EnsembleSelector
        The fitted selector.
    source : str, path-like or DataFrame
        The data as given.
    rankers : str
        The rankers as given (comma-separated).
    rule : str
        The rule as given.
    n_samples : int
        Rows of the data.
    target : str
        The name of the class column.
    options : dict
        The options recorded in ``summary.json`` (the command line's).
    seconds : dict of str → float
        ``read`` and ``fit`` wall-clock times.
    top : int
        Subset features the summary shows (0 = all).
    written : list of Path
        The files written into ``out``.
    out : str or path-like or None
        The results folder, as given.
    save_seconds : float
        Time taken to write them.
    subset_scores : dict or None
        For a regression target: the cross-validated R², RMSE and MAE of the first regressor
        on the selected features (:func:`subset_scores`); None for classification.
    plan : dict or None
        For a dry run (``selector`` then unfitted): the data's shape and the work the fit
        would do (:func:`rankfusion.selection.ensemble_work`), what → how many; else None.
    """

    selector: object
    source: object
    rankers: str
    rule: str
    n_samples: int
    target: object
    options: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)
    top: int = 20
    written: list = field(default_factory=list)
    out: object = None
    save_seconds: float = 0.0
    subset_scores: dict | None = None
    plan: dict | None = None

    @property
    def MAIN_TABLE(self) -> str:
        return "plan" if self.plan is not None else "subset"

    def subset(self) -> list[str]:
        """The selected features, best first (:func:`selected_features`).

        Returns
        -------
        list of str
        """
        return selected_features(self.selector)

    def record(self) -> dict:
        """The JSON-able record of the run, ``summary.json`` (:func:`selection_summary`).

        Returns
        -------
        dict
        """
        if self.plan is not None:
            return {"options": dict(self.options), "plan": dict(self.plan)}
        record = selection_summary(self.selector, options=self.options, seconds=self.seconds,
                                   n_samples=self.n_samples)
        if self.subset_scores is not None:
            record["subset_scores"] = dict(self.subset_scores)
        return record

    def tables(self) -> dict:
        """``subset`` (the selected features, best first, with their consensus position and
        score; ``top`` rows), ``subset_curve`` (the compact size curve, when the size was
        searched) and ``stability`` (with bootstraps).

        Returns
        -------
        dict of str → DataFrame
            For a dry run, ``plan`` alone (what, how many).
        """
        if self.plan is not None:
            import pandas as pd

            return {"plan": pd.DataFrame({"work": list(self.plan),
                                          "count": list(self.plan.values())})}
        table = consensus_table(self.selector)
        chosen = table.loc[table["selected"], ["feature", "position", "score"]]
        chosen = chosen.reset_index(drop=True)
        out = {"subset": chosen.head(self.top) if self.top else chosen}
        curve = subset_curve_table(self.selector)
        if curve is not None:
            out["subset_curve"] = curve
        stab = stability_table(self.selector)
        if stab is not None:
            out["stability"] = stab
        return out

    def notes(self) -> list[str]:
        """The data, the lists and the seed; the files written; the times.

        Returns
        -------
        list of str
        """
        if self.plan is not None:
            return [f"{source_name(self.source)}: dry run, nothing computed"]
        sel = self.selector
        what = ("numeric (regression)" if sel.classes_ is None
                else f"with {len(sel.classes_)} classes")
        lines = [f"{source_name(self.source)}: {self.n_samples} samples, "
                 f"{sel.n_features_in_} features, "
                 f"target {self.target!r} {what}",
                 f"{sel.lists_.n_lists} lists ({self.rankers}; {sel.n_bootstraps} "
                 f"bootstraps) combined by {self.rule}; seed entropy {sel.seed_entropy_}"]
        if self.written:
            lines.append(f"wrote {', '.join(f.name for f in self.written)} to {self.out} "
                         f"({self.save_seconds:.2f} s)")
        lines.append(f"time: read {self.seconds['read']:.2f} s, fit "
                     f"{self.seconds['fit']:.2f} s")
        tie = self._tie_note()
        if tie:
            lines.insert(2, tie)
        return lines

    def _tie_note(self) -> str | None:
        """A sentence when the subset cuts through features the consensus leaves tied."""
        ties = getattr(self.selector, "cutoff_ties_", None)
        if not ties or not ties["cuts_ties"]:
            return None
        how = ("by column order (tie_break='index'; 'random' draws them at random)"
               if ties["tie_break"] == "index" else "at random (tie_break='random')")
        return (f"the subset's last {ties['n_kept']} features come from {ties['n_tied']} the "
                f"consensus leaves tied: chosen {how}, not by the data")

    def summary(self) -> str:
        """The text ``rankfusion select`` prints.

        Returns
        -------
        str
        """
        from .text import frame_text

        if self.plan is not None:
            return "\n".join([f"# {self.notes()[0]}",
                              *(f"{k}: {v}" for k, v in self.plan.items())])
        sel, notes = self.selector, self.notes()
        p = sel.n_features_in_
        subset = self.subset()
        shown = subset if not self.top else subset[: self.top]
        more = f" (first {len(shown)} shown)" if len(shown) < len(subset) else ""
        tie = self._tie_note()
        if tie:
            notes.remove(tie)
        lines = [f"# {notes[0]}", f"# {notes[1]}",
                 f"\nsubset: {len(subset)} of {p} features{more}, best first",
                 "  " + ", ".join(shown)] + ([f"# {tie}"] if tie else [])
        curve = subset_curve_table(sel)
        if curve is not None:
            sc = sel.subset_curve_
            score = "R²" if sel.classes_ is None else "accuracy"
            lines.append(f"\n{sc.method} size search: mean {sel.cv}-fold CV {score} on the "
                         f"top k (chosen k = {sc.n_features}, {sc.estimator} "
                         f"{sc.accuracy:.3f})")
            lines.append(frame_text(curve))
        stab = stability_table(sel)
        if stab is not None:
            lines.append(f"\nstability over the {sel.n_bootstraps} bootstraps (Nogueira's Φ "
                         f"of the top-{sel.n_features_} subsets with its 95 % interval; ASD, "
                         "APC of the scores)")
            if sel.n_features_ == p:
                lines.append("  (Φ is undefined when the subset holds every feature)")
            lines.append(frame_text(stab))
        if self.subset_scores is not None:
            sc = self.subset_scores
            lines.append(f"\nthe subset under {sc['cv']}-fold CV of {sc['regressor']}: R² "
                         f"{sc['r2']:.3f}, RMSE {sc['rmse']:.4g}, MAE {sc['mae']:.4g} (the "
                         "subset was chosen on all rows: an optimistic estimate)")
        if self.written:
            lines.append(f"\n# {notes[2]}")
        lines.append(f"# {notes[-1]}")
        return "\n".join(lines)

    def save(self, out, *, overwrite: bool = False) -> list[Path]:
        """Write the results folder (:func:`write_selection`), or ``consensus.csv`` into a
        text stream.

        Parameters
        ----------
        out : str, path-like or text stream
            The results folder (new, unless ``overwrite``), or a stream.
        overwrite : bool, default False
            Accept an existing folder (its result files are replaced).

        Returns
        -------
        list of Path
            The files written (none for a stream).
        """
        if self.plan is not None:
            raise ValueError("a dry run has no results to save")
        if is_stream(out):
            from .._utils.tabular import to_csv

            out.write(to_csv(consensus_table(self.selector), index=False))
            return []
        return write_selection(self.selector, out, summary=self.record(),
                               overwrite=overwrite, inputs=inputs_of(self.source))


def _estimators_for_target(sel, estimators, y, task: str) -> None:
    """Under ``task="auto"``, the estimators named for the size search and the list weights,
    built for the task of the target just read (regressor names for a numeric target)."""
    if estimators is None or task != "auto":
        return
    from .._utils.task import resolve_task
    from ..selection.classifiers import available_classifiers
    from .ensemble_options import regressors_from_names

    names = [n.strip() for n in estimators.split(",")] if isinstance(estimators, str) \
        else list(estimators)
    regs = all(n in available_classifiers("regression") for n in names)
    found = resolve_task(y, "auto")
    if found == "regression" and regs:
        sel.set_params(estimators=regressors_from_names(names))
    elif found == "regression":
        raise ValueError(f"estimators {', '.join(names)} are classifiers, but the target is "
                         "numeric (regression, task='auto'): name regressors ("
                         f"{', '.join(available_classifiers('regression'))}), or say "
                         "task='classification'")
    elif regs:
        raise ValueError(f"estimators {', '.join(names)} are regressors, but the target is "
                         "class labels (classification, task='auto'): name classifiers, or "
                         "say task='regression'")


#: How a workflow's caller leaves columns out: ``drop=`` of ``run_*``, ``--drop`` on the
#: command line (:func:`rankfusion._utils.columns.check_observed_columns`).
DROP_HINT = "--drop {plain} on the command line, drop=[{names}] in Python"


def _check_data_shape(sel, X, y) -> dict:
    """What the data's shape already decides, refused before any work (and in a dry run):
    a column with no value, one class only, a subset larger than the features, too few
    samples of a class for the size search's folds or for the bootstrap samples. Returns
    the facts a dry run prints."""
    import pandas as pd

    from .._utils.columns import check_observed_columns, plain_value
    from .._utils.task import resolve_task
    from .._utils.validation import resolve_n_features
    from ..selection.resampling import check_sample_size
    from ..selection.stability_selection import check_rankers_task

    check_observed_columns(X, drop=DROP_HINT)
    n_rows, p = X.shape
    k = sel.n_features_to_select
    if isinstance(k, (int, float, np.integer, np.floating)) and not isinstance(k, bool):
        try:
            resolve_n_features(k, p, name="subset")
        except ValueError as exc:
            raise ValueError(f"{exc}: give a smaller subset (--subset)") from None
    searched = isinstance(k, str)
    cv = int(sel.cv)
    facts = {"n_samples": int(n_rows), "n_features": int(p)}
    found = resolve_task(y, sel.task)
    check_rankers_task(sel.rankers, found, sel.task, who="rankers")
    if found == "regression":
        facts["target"] = "numeric (regression)"
        if searched and n_rows < cv:
            raise ValueError(f"cv={cv} (--cv) folds of the size search need at least {cv} "
                             f"samples; the data have {n_rows}: lower cv")
        return facts
    counts = pd.Series(np.asarray(y, dtype=object)).value_counts()
    if counts.shape[0] < 2:
        one = plain_value(counts.index[0])
        raise ValueError(f"the target {y.name!r} has one class only ({one!r}): feature "
                         "ranking needs at least two; choose the class column with target= "
                         "(--target)" if getattr(y, "name", None) is not None else
                         f"y has one class only ({one!r}): feature ranking needs at least two")
    facts["classes"] = int(counts.shape[0])
    small = plain_value(counts.index[-1])
    if searched and sel.stratify and int(counts.iloc[-1]) < cv:
        raise ValueError(f"cv={cv} (--cv) stratified folds of the {k} size search need at "
                         f"least {cv} samples of every class; class {small!r} has "
                         f"{int(counts.iloc[-1])}: lower cv, or give the subset as a count "
                         "(--subset 10)")
    if sel.n_bootstraps > 0:
        check_sample_size(np.asarray(y, dtype=object), sel.sample_fraction,
                          stratify=bool(sel.stratify))
    return facts


def subset_scores(selector, X, y, *, cv: int | None = None) -> dict:
    """Cross-validated R², RMSE and MAE of the selector's first regressor on its selected
    features, for a fitted regression :class:`~rankfusion.EnsembleSelector`.

    Shuffled ``cv``-fold splits (plain K-fold: no strata for a numeric target; docs/design.md,
    'Tasks') seeded from the fit's ``seed_entropy_``; ``R² = 1 − Σ(y − ŷ)² / Σ(y − ȳ)²``,
    ``RMSE = √(mean (y − ŷ)²)``, ``MAE = mean |y − ŷ|``, each the mean over the folds. The
    subset was chosen on all rows, so the estimate is optimistic (an honest one re-selects in
    every fold: :func:`rankfusion.evaluation.cross_validate_selection`).

    Parameters
    ----------
    selector : EnsembleSelector
        Fitted with a numeric target.
    X : DataFrame or array of shape (n, p)
        The features it was fitted on.
    y : array-like of shape (n,)
        The numeric target.
    cv : int, optional
        Folds; default the selector's ``cv``.

    Returns
    -------
    dict
        ``regressor``, ``cv``, ``r2``, ``rmse``, ``mae``.
    """
    from sklearn.base import clone
    from sklearn.model_selection import KFold, cross_validate

    from ..selection.regression import default_regressor

    if getattr(selector, "classes_", "unfitted") is not None:
        raise ValueError("subset_scores needs an EnsembleSelector fitted with a numeric "
                         "target (task='regression')")
    est = selector.estimators
    name, reg = (next(iter(est.items())) if isinstance(est, dict) and est
                 else ("ridge", default_regressor()))
    folds = int(selector.cv if cv is None else cv)
    seed = int(np.random.SeedSequence(selector.seed_entropy_).generate_state(1)[0] >> 1)
    Xs = X.iloc[:, selector.support_] if hasattr(X, "iloc") else np.asarray(X)[:, selector.support_]
    res = cross_validate(clone(reg), Xs, np.asarray(y, dtype=np.float64),
                         cv=KFold(folds, shuffle=True, random_state=seed),
                         scoring=("r2", "neg_root_mean_squared_error",
                                  "neg_mean_absolute_error"))
    return {"regressor": name, "cv": folds, "r2": float(np.mean(res["test_r2"])),
            "rmse": float(-np.mean(res["test_neg_root_mean_squared_error"])),
            "mae": float(-np.mean(res["test_neg_mean_absolute_error"]))}


def _check_sparse_subset(X, sel, data) -> None:
    """A sparse ``X`` (an svmlight file) with a subset size searched by classifiers, which
    take dense data: refused before the work, naming the two ways out."""
    from .._utils.sparse import is_sparse

    how = sel.n_features_to_select
    if is_sparse(X) and isinstance(how, str) and how in ("k-step", "learning-curve"):
        raise ValueError(f"--subset {how} scores subsets with classifiers, which take dense "
                         f"data, and {source_name(data)} is sparse (svmlight): pass "
                         "--accept-sparse densify (made dense within the memory check), or a "
                         "subset size (--subset 10, --subset 0.1)")


def run_selection(data, target=None, *, rankers="info_gain,relieff,nlc", rule: str = "borda",
                  n_bootstraps: int = 0, subset="half", estimators=None, params=None,
                  cv: int = 5, random_state=None, tie_break: str = "index",
                  n_jobs: int | None = None, format=None,
                  drop=None, na_values=None, nominal=None, sep=None, encoding="utf-8",
                  out=None, overwrite: bool = False, top: int = 20, options=None,
                  progress: bool = False, log: Callable[[str], None] | None = None,
                  task: str = "auto", zero_based: bool = False, n_features=None,
                  accept_sparse=False, dry_run: bool = False) -> SelectionRun:
    """Ensemble feature selection on a data set: every ranker on every bootstrap sample, the
    lists combined into one consensus ranking, a subset kept.

    The options are checked before the data are read (:func:`ensemble_from_options`), the
    results folder before the work, and the work (:func:`rankfusion.selection.ensemble_work`)
    before the fit: a run whose resamples and lists cannot fit in memory is refused.

    Parameters
    ----------
    data : str, path-like or DataFrame
        The data set (:func:`~rankfusion.workflows.read_data`).
    target : str, int or None, default None
        The class column; None = the last column.
    rankers : str or list of str, default "info_gain,relieff,nlc"
        Registered ranker names.
    rule : str, default "borda"
        A rule of :func:`rankfusion.aggregate` or ``fuzzy:EW|RW|OW|MW`` (needs
        ``n_bootstraps`` ≥ 2).
    n_bootstraps : int, default 0
        Bootstrap samples per ranker (0: each ranker once on all data).
    subset : str, int, float or None, default "half"
        ``k-step``, ``learning-curve``, a count, a fraction in (0, 1] or ``half``
        (:func:`parse_subset`).
    estimators : str or list of str, optional
        Classifiers of the size search (``linear_svm``, ``naive_bayes``, ``knn1``,
        ``tree``); default all four.
    params : dict, optional
        ``NAME → value`` for the rule and the rankers that take it.
    cv : int, default 5
        Folds of the size search.
    random_state : None, int, SeedSequence or Generator
        The seed; None = fresh entropy, recorded as ``seed_entropy``.
    tie_break : {"index", "random"}, default "index"
        The order of features the consensus leaves tied (:class:`~rankfusion.EnsembleSelector`);
        the notes say when the subset cuts through such a block.
    n_jobs : int, optional
        Ranking jobs in parallel (the result does not depend on it).
    format : {"csv", "arff", "parquet"}, optional
        The file format; default: from the file name.
    drop : str or list of str, optional
        Columns that are not features.
    na_values : list of str, optional
        Cells read as missing values.
    nominal : str or list of str, optional
        Columns read as nominal.
    sep : str, optional
        The CSV separator.
    encoding : str, default "utf-8"
        The text encoding.
    out : str or path-like, optional
        The results folder (:meth:`SelectionRun.save`); checked before any work.
    overwrite : bool, default False
        Accept an existing ``out``.
    top : int, default 20
        Subset features the summary and the ``subset`` table show (0 = all).
    options : dict, optional
        Recorded as given in ``summary.json`` (the command line's options).
    progress : bool, default False
        Report the estimated work (through ``log``) and the progress on standard error.
    log : callable, optional
        Called with the line of the estimated work when ``progress``.
    task : {"auto", "classification", "regression"}, default "auto"
        What the target is (docs/design.md, 'Tasks'), passed to the reader and to the
        selector: ``"auto"`` refuses a whole-number target with many distinct values naming
        both choices. For regression ``estimators`` are regressor names (default ``ridge``)
        and the run reports the subset's cross-validated R², RMSE and MAE
        (:func:`subset_scores`).
    zero_based : bool, default False
        svmlight files: the indices count from 0.
    n_features : int, optional
        svmlight files: the number of features (:func:`~rankfusion.workflows.read_data`).
    accept_sparse : {False, "densify"}, default False
        Sparse data (an svmlight file) stay sparse for the rankers that take them (the
        others refuse them); ``"densify"`` makes them dense first, within the memory check.
    dry_run : bool, default False
        Read the data, refuse what their shape already decides (a column with no value,
        one class only, a subset larger than the features, too few samples of a class for
        the size search's ``cv`` folds or for the bootstrap samples), count the work
        (:func:`rankfusion.selection.ensemble_work`) and do none of it: the run's ``plan``.

    Returns
    -------
    SelectionRun

    Examples
    --------
    >>> from rankfusion.datasets import load
    >>> frame = load("parkinsons", as_frame=True).frame
    >>> run = run_selection(frame, "class", rankers="info_gain,relieff", subset=3,
    ...                     random_state=0)
    >>> len(run.subset())
    3
    """
    from .._utils.atomic import check_output_dir
    from ..selection import ensemble_work
    from .data import read_data
    from .ensemble_options import ensemble_from_options

    t0 = time.perf_counter()
    sel = ensemble_from_options(
        rankers=rankers, aggregation=rule, n_bootstraps=n_bootstraps, subset=subset,
        estimators=estimators, params=params, cv=cv, random_state=random_state,
        n_jobs=n_jobs, progress=progress, tie_break=tie_break, task=task)
    if out is not None and not dry_run:  # refused before the work, not after
        check_output_dir(out, overwrite=overwrite, inputs=inputs_of(data))
    X, y = read_data(data, target, format=format, drop=drop, na_values=na_values,
                     nominal=nominal, sep=sep, encoding=encoding, task=task,
                     zero_based=zero_based, n_features=n_features,
                     accept_sparse=accept_sparse, sparse_frame=True)
    _check_sparse_subset(X, sel, data)
    _estimators_for_target(sel, estimators, y, task)
    t_read = time.perf_counter() - t0
    facts = _check_data_shape(sel, X, y)
    work = ensemble_work(sel, X.shape[0], X.shape[1])
    if dry_run:
        plan = {**facts, **work.counts, "memory_bytes_at_least": int(work.memory_bytes)}
        return SelectionRun(sel, data, rankers if isinstance(rankers, str)
                            else ",".join(rankers), rule, X.shape[0], y.name,
                            options=dict(options or {}), seconds={"read": t_read}, top=top,
                            plan=plan)
    if progress and log is not None:
        log(work.describe())
    work.check_memory()
    t1 = time.perf_counter()
    sel.fit(X, y)
    t_fit = time.perf_counter() - t1
    run = SelectionRun(sel, data, rankers if isinstance(rankers, str) else ",".join(rankers),
                       rule, X.shape[0], y.name, options=dict(options or {}),
                       seconds={"read": t_read, "fit": t_fit}, top=top)
    if sel.task_ == "regression":
        run.subset_scores = subset_scores(sel, X, y)
    if out is not None:
        t2 = time.perf_counter()
        run.written = run.save(out, overwrite=overwrite)
        run.out = out
        run.save_seconds = time.perf_counter() - t2
    return run
