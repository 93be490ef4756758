"""Does combining rankings pay on this data set? What ``rankfusion advise`` computes
(:func:`run_advice` → :class:`AdviceRun`), over :func:`rankfusion.advise` (nested resampling;
the Nadeau–Bengio corrected test of the combination procedure against the best single ranker)."""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field

from .output import WorkflowRun, inputs_of, is_stream, source_name

__all__ = ["run_advice", "AdviceRun"]

#: The columns of the printed configurations table.
SHOWN_COLUMNS = ("rankers", "rule", "size", "score", "score_low", "score_high", "phi", "chosen")


@dataclass
class AdviceRun(WorkflowRun):
    """What :func:`run_advice` computed.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    source : str, path-like or DataFrame
        The data as given.
    advice : Advice or None
        The advice (None for a dry run).
    plan : dict or None
        The work of a dry run (:func:`rankfusion.evaluation.advice_plan`), else None.
    settings : dict
        ``cv``, ``inner_cv`` and ``repeats`` as given.
    options : dict
        Recorded in ``summary.json`` (the command line's options).
    seconds : dict of str → float
        ``read`` and ``advise`` wall-clock times.
    top : int
        Configurations the summary shows (0 = all).
    written : list of Path
        The files written.
    out : str or path-like or None
        The results folder, as given.
    store : object or None
        The resumable folder's store, when the advice ran in a folder.
    """

    source: object
    advice: object = None
    plan: dict | None = None
    settings: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)
    top: int = 10
    written: list = field(default_factory=list)
    out: object = None
    #: The folder run (:class:`rankfusion.experiments.advice.AdviceFolderRun`), or None.
    store: object = None

    @property
    def MAIN_TABLE(self) -> str:
        return "plan" if self.advice is None else "configurations"

    def tables(self) -> dict:
        """``configurations`` (by mean outer score, rounded to 3 decimals; ``top`` rows),
        or ``plan`` (what, how many) for a dry run.

        Returns
        -------
        dict of str → DataFrame
        """
        import pandas as pd

        if self.advice is None:
            return {"plan": pd.DataFrame({"work": list(self.plan),
                                          "count": list(self.plan.values())})}
        from ..evaluation import advice_frame

        frame = advice_frame(self.advice)
        extra = [c for c in ("size_rule", "fold_sizes") if c in frame.columns]
        frame = frame[list(SHOWN_COLUMNS) + extra]
        shown = frame if not self.top else frame.head(self.top)
        return {"configurations": shown.round(3)}

    def notes(self) -> list[str]:
        """The data and the folds; the files written; the times.

        Returns
        -------
        list of str
        """
        if self.advice is None:
            return [f"{source_name(self.source)}: dry run, nothing computed"]
        s, st = self.advice.summary, self.settings
        lines = [f"{source_name(self.source)}: {s['n_samples']} samples, "
                 f"{s['n_features']} features; "
                 f"{s['outer_folds']} outer folds ({st['repeats']} × {st['cv']}), "
                 f"{st['inner_cv']} inner; seed entropy {s['seed_entropy']}"]
        if self.written:
            lines.append(f"wrote {', '.join(f.name for f in self.written)} to {self.out}")
        if self.store is not None and self.store.reused:
            lines.append(f"resumed: {self.store.reused} of {self.store.total} parts reused "
                         f"from {self.out}, {len(self.store.computed)} computed")
        sec = s["seconds"]
        est = "regressor" if s.get("task") == "regression" else "classifier"
        lines.append(f"time: read {self.seconds['read']:.2f} s, advise "
                     f"{self.seconds['advise']:.2f} s (summed over the work: rankers "
                     f"{sec['rankers']:.2f} s, aggregation {sec['aggregation']:.2f} s, "
                     f"{est} {sec['classifier']:.2f} s for {s['classifier_fits']} fits)")
        runs = sec.get("runs") or ()
        if len(runs) > 1:  # a resumed folder: each run's time and their sum
            lines.append(f"time over the folder's {len(runs)} runs: "
                         + " + ".join(f"{v:.2f}" for v in runs)
                         + f" = {sec['total']:.2f} s (summary.json seconds.total)")
        return lines

    def summary(self) -> str:
        """The text ``rankfusion advise`` prints.

        Returns
        -------
        str
        """
        notes = self.notes()
        if self.advice is None:
            return "\n".join([f"# {notes[0]}", *(f"{k}: {v}" for k, v in self.plan.items())])
        from ..evaluation import advice_frame
        from ..evaluation.advisor import SCORE_NAMES
        from .text import frame_text

        adv = self.advice
        n_all = advice_frame(adv).shape[0]
        shown = self.tables()["configurations"]
        score = SCORE_NAMES[adv.scoring]
        sizes = ("; fold_sizes = the stable set's size on each outer fold"
                 if "fold_sizes" in shown.columns else "")
        lines = [f"# {notes[0]}", adv.verdict,
                 f"\nrecommended: {adv.recommended.label}",
                 f"best single: {adv.best_single.label}",
                 f"one-SE pick (smallest size within one SE of the best): {adv.one_se.label}",
                 f"\nconfigurations by mean outer {score} ({len(shown)} of {n_all}; "
                 f"{round(100 * (1 - adv.alpha))} % intervals; phi = Nogueira's stability; "
                 f"chosen = share of outer folds whose inner CV picked it{sizes})",
                 frame_text(shown)]
        middle = notes[1:-1]
        if middle:
            lines.append("\n" + "\n".join(f"# {m}" for m in middle))
        lines.append(f"# {notes[-1]}")
        return "\n".join(lines)

    def save(self, out, *, overwrite: bool = False) -> list:
        """Write ``advice.csv`` and ``summary.json`` into the folder ``out``
        (:func:`rankfusion.evaluation.write_advice`), or ``advice.csv`` into a text stream.

        Parameters
        ----------
        out : str, path-like or text stream
            The results folder (new, unless ``overwrite``), or a stream.
        overwrite : bool, default False
            Accept an existing folder.

        Returns
        -------
        list of Path
            The files written (none for a stream).
        """
        from ..evaluation import advice_frame, write_advice

        if self.advice is None:
            raise ValueError("a dry run has no results to save")
        if is_stream(out):
            out.write(advice_frame(self.advice).to_csv(index=False))
            return []
        return write_advice(self.advice, out, overwrite=overwrite,
                            inputs=inputs_of(self.source),
                            extra={"options": self.options,
                                   "command_seconds": {"read": self.seconds["read"],
                                                       "advise": self.seconds["advise"]}})


def run_advice(data, target=None, *, rankers=None,
               rules="borda,mean_score,kfirst,rrf", sizes=None, estimator=None, cv: int = 5,
               inner_cv: int = 3, repeats: int = 2, combine: str = "subsets",
               alpha: float = 0.05, tie_break: str = "random", random_state=None,
               n_jobs: int | None = None, n_bootstraps: int = 10,
               sample_fraction: float = 1.0, format=None, drop=None, na_values=None,
               nominal=None, sep=None, encoding="utf-8", out=None, overwrite: bool = False,
               top: int = 10, dry_run: bool = False, options=None,
               scheduler: str | None = None, n_workers: int | None = None,
               progress: bool | None = None, task: str = "auto",
               scoring: str | None = None, zero_based: bool = False, n_features=None,
               accept_sparse=False) -> AdviceRun:
    """Whether any combination of rankers × rule × size beats the best single ranker on a
    data set (:func:`rankfusion.advise`), or, with ``dry_run``, the work that would take.

    With a folder ``out`` the run is resumable
    (:func:`rankfusion.experiments.advice.advise_in_folder`): each part of the work (an outer
    fold, the choice on all the data) is filed there as it finishes, a run on the same folder
    with the same data and arguments reuses them, another configuration's folder is refused
    (``overwrite`` discards its parts); ``advice.csv``, ``summary.json`` and ``advice.html``
    are written at the end.

    Parameters
    ----------
    data : str, path-like or DataFrame
        The data set (:func:`~rankfusion.workflows.read_data`).
    target : str, int or None, default None
        The target column (class labels or, with ``task``, a numeric target); None = the
        last column.
    rankers : str or list of str, optional
        At least two rankers (comma-separated text or a list); default
        ``info_gain,relieff,nlc`` for classification, ``f_regression,rrelieff,
        mutual_info_regression`` for regression (:func:`rankfusion.advise`).
    rules : str or list of str, default "borda,mean_score,kfirst,rrf"
        Rules with parameters (``"borda,kfirst:k=0.05"``; text goes through
        :func:`rankfusion.evaluation.split_rules`).
    sizes : str or list, optional
        Subset sizes (text goes through :func:`rankfusion.evaluation.parse_sizes`); default
        1, 2, 4, … up to 256.
    estimator : str, optional
        The classifier (or, for regression, the regressor) scoring a subset.
    cv : int, default 5
        Outer folds per repeat.
    inner_cv : int, default 3
        Inner folds.
    repeats : int, default 2
        Repeats of the outer folds.
    combine : {"subsets", "all"}, default "subsets"
        Every subset of ≥ 2 rankers, or all together.
    alpha : float, default 0.05
        The level of the test and the intervals.
    tie_break : {"random", "index"}, default "random"
        The order of tied scores inside the resampling.
    random_state : None, int, SeedSequence or Generator
        The seed; None = fresh entropy, saved in ``summary.json``.
    n_jobs : int, optional
        Outer folds in parallel.
    n_bootstraps : int, default 10
        With a fuzzy rule (``"fuzzy:OW"``): bootstrap samples per ranker and training part
        (≥ 2; :func:`rankfusion.advise`); ignored without one.
    sample_fraction : float in (0, 1], default 1.0
        Rows drawn per bootstrap sample, as a fraction of the training part.
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
        The results folder (:meth:`AdviceRun.save`); checked before any work (not for a dry
        run).
    overwrite : bool, default False
        Accept an existing ``out``.
    top : int, default 10
        Configurations the summary shows (0 = all).
    dry_run : bool, default False
        Count the work (ranker fits, aggregations, classifier fits) and do none of it.
    options : dict, optional
        Recorded as given in ``summary.json``.
    scheduler : str, optional
        Run the parts on this Dask scheduler (needs ``out``).
    n_workers : int, optional
        Run the parts on a local Dask cluster of this many worker processes (needs ``out``).
    progress : bool, optional
        Parts done (the outer folds and the choice on all the data) and the estimated time
        left on standard error: a bar on a terminal, else a line at most every 10 s
        (:mod:`rankfusion._utils.progress`); default: on a terminal only (False: none).
    task : {"auto", "classification", "regression"}, default "auto"
        What the target is (docs/design.md, 'Tasks'): passed to the reader
        (:func:`rankfusion.io.load_data`) and to :func:`rankfusion.advise`; never guessed
        from a whole-number target with many values.
    scoring : str, optional
        The score (``rankfusion.evaluation.scores``): ``accuracy`` (default),
        ``balanced_accuracy``, ``roc_auc``, ``neg_log_loss`` or ``mcc`` (classification);
        ``r2`` (default), ``neg_rmse`` or ``neg_mae`` (regression).
    zero_based : bool, default False
        svmlight files: the indices count from 0.
    n_features : int, optional
        svmlight files: the number of features (:func:`~rankfusion.workflows.read_data`).
    accept_sparse : {False, "densify"}, default False
        The advisor works on dense data: sparse data (an svmlight file) are refused unless
        ``"densify"`` makes them dense, within the memory check.

    Returns
    -------
    AdviceRun
    """
    from ..evaluation import advice_plan, advise, parse_sizes, split_rules
    from ..experiments.advice import advise_in_folder, check_advice_folder
    from .data import read_data

    if isinstance(rankers, str):
        rankers = [r.strip() for r in rankers.split(",") if r.strip()]
    kwargs = dict(rankers=None if rankers is None else list(rankers),
                  rules=split_rules(rules) if isinstance(rules, str) else list(rules),
                  sizes=parse_sizes(sizes) if isinstance(sizes, str) else sizes,
                  estimator=estimator, cv=cv, inner_cv=inner_cv, n_repeats=repeats,
                  combine=combine, alpha=alpha, tie_break=tie_break,
                  random_state=random_state, n_jobs=n_jobs, n_bootstraps=n_bootstraps,
                  sample_fraction=sample_fraction, task=task, scoring=scoring)
    folder = out is not None and not is_stream(out)
    if (scheduler is not None or n_workers is not None) and not dry_run and not folder:
        raise ValueError("--scheduler / --dask-local need --out DIR: the parts computed on "
                         "the cluster are filed in that folder")
    if folder and not dry_run:  # refused before the work, not after
        check_advice_folder(out, overwrite=overwrite, inputs=inputs_of(data))
    t0 = time.perf_counter()
    X, y = read_data(data, target, format=format, drop=drop, na_values=na_values,
                     nominal=nominal, sep=sep, encoding=encoding, task=task,
                     zero_based=zero_based, n_features=n_features,
                     accept_sparse=accept_sparse)
    if not hasattr(X, "columns"):  # sparse (an svmlight file), not densified
        raise ValueError(f"{source_name(data)} is sparse (svmlight) and the advisor's "
                         "classifiers and rankers work on dense data: pass --accept-sparse "
                         "densify (accept_sparse='densify'; made dense within the memory "
                         "check), or rank the file with rankfusion rank or svm-rfe, which "
                         "keep it sparse")
    t_read = time.perf_counter() - t0
    from .._utils.columns import check_observed_columns
    from .select import DROP_HINT

    check_observed_columns(X, drop=DROP_HINT)  # named, with --drop, before any work
    settings = {"cv": cv, "inner_cv": inner_cv, "repeats": repeats}
    if dry_run:
        return AdviceRun(data, plan=advice_plan(X, y, **kwargs), settings=settings, top=top)
    t1 = time.perf_counter()
    if folder:
        done = advise_in_folder(X, y, out, overwrite=overwrite, scheduler=scheduler,
                                n_workers=n_workers, progress=progress,
                                inputs=inputs_of(data),
                                extra={"options": dict(options or {}),
                                       "command_seconds": {"read": t_read}}, **kwargs)
        run = AdviceRun(data, done.advice, settings=settings, options=dict(options or {}),
                        seconds={"read": t_read, "advise": done.seconds[-1]}, top=top,
                        written=list(done.written), out=out)
        run.store = done
        return run
    if progress or (progress is None and sys.stderr.isatty()):
        adv = _advise_with_progress(X, y, kwargs)
    else:
        adv = advise(X, y, **kwargs)
    run = AdviceRun(data, adv, settings=settings, options=dict(options or {}),
                    seconds={"read": t_read, "advise": time.perf_counter() - t1}, top=top)
    if out is not None:
        run.written = run.save(out, overwrite=overwrite)
        run.out = out
    return run


def _advise_with_progress(X, y, kwargs):
    """:func:`rankfusion.advise` part by part with the parts done and the time left on
    standard error (:func:`rankfusion._utils.progress.progress_bar`); the same numbers."""
    from .._utils.progress import progress_bar
    from ..evaluation.advisor import advice_part, finish_advice, prepare_advice

    t0 = time.perf_counter()
    task = prepare_advice(X, y, **kwargs)
    bar = progress_bar(task.n_parts, "advise", "parts")
    parts: list = [None] * task.n_parts
    try:
        n_jobs = kwargs.get("n_jobs")
        if n_jobs not in (None, 1):
            from joblib import Parallel, delayed

            def one(j):
                return j, advice_part(task, j)

            for j, part in Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                    delayed(one)(j) for j in range(task.n_parts)):
                parts[j] = part
                bar.update(1)
        else:
            for j in range(task.n_parts):
                parts[j] = advice_part(task, j)
                bar.update(1)
    finally:
        bar.close()
    return finish_advice(task, parts, seconds=time.perf_counter() - t0)
