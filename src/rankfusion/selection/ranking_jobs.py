"""Which ranker calls an ensemble makes, with which rows and seeds, and running them.

:class:`~rankfusion.EnsembleSelector` ranks every ranker on all the data (``n_bootstraps=0``,
function perturbation) or on each of ``n_bootstraps`` bootstrap samples (data perturbation).
:func:`plan_ranking_jobs` fixes the jobs — one per (ranker, sample), ranker-major — and their
seeds before anything runs; :func:`run_ranking_jobs` runs them, in this process or on joblib
workers, and gathers the lists. The seeds follow docs/design.md, 'Seeds': the root stream is
split into a bootstrap stream and a ranker stream; the bootstrap stream gives sample ``b`` its
own child, the ranker stream one parent per ranker, whose child ``b`` seeds that ranker on
sample ``b``. A job's seed therefore depends only on the root, the ranker's index and ``b``,
not on ``n_jobs`` nor on the order the jobs finish.

A ranker computed from weighted sums (``f_classif``, ``chi2``, ``welch_t``:
:data:`rankfusion.rankers.BATCHED_RANKERS`) is scored on all the resamples of a plan at once,
from their multiplicity matrix (:func:`rankfusion.rankers.batched_scores`), when ``X`` is a
finite dense float64 array, the labels are integer codes and the ranker has no parameters: the
same resamples, the same positions (ties included) and scores within
:data:`rankfusion.rankers.batched.RTOL` (of each list's largest score) of one call per
resample; the other rankers, and the
resamples the sums cannot score, keep the one-call-per-resample path. The private switch
``_BATCHED["on"] = False`` forces that path for every ranker (the tests compare the two).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._utils.progress import progress_bar
from .._utils.seeding import spawn
from ..lists import RankedLists
from .ranker_specs import RankerSpec, run_ranker
from .resampling import bootstrap_indices

__all__ = ["RankingJob", "RankingPlan", "plan_ranking_jobs", "run_ranking_jobs"]

#: ``_BATCHED["on"]``: score the batchable rankers on all resamples at once (module docstring);
#: False forces one call per resample (tests).
_BATCHED = {"on": True}


@dataclass(frozen=True)
class RankingJob:
    """One ranker call of an ensemble.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    ranker : RankerSpec
        The ranker.
    rows : ndarray of int or None
        The rows of its bootstrap sample (None: all the data).
    seed : numpy.random.SeedSequence
        Its own stream (a seeded ranker draws its ``random_state`` from it).
    name : str
        The list's name: the ranker's (``relieff``) or with the sample (``relieff@b17``).
    bootstrap : int or None
        The sample's number (None: all the data).
    """

    ranker: RankerSpec
    rows: np.ndarray | None
    seed: np.random.SeedSequence
    name: str
    bootstrap: int | None = None


@dataclass(frozen=True)
class RankingPlan:
    """The ranker calls of one ensemble fit (:func:`plan_ranking_jobs`).

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    jobs : list of RankingJob
        Ranker-major: ranker ``i`` on sample ``b`` is ``jobs[i * n_samples + b]``.
    samples : list of ndarray
        The rows of each bootstrap sample (empty without bootstraps).
    n_rankers : int
        The number of rankers.
    """

    jobs: list
    samples: list
    n_rankers: int

    @property
    def n_samples(self) -> int:
        """Samples per ranker: the bootstrap samples, or 1 (all the data)."""
        return max(1, len(self.samples))

    def tasks(self, n_jobs=None) -> list:
        """The jobs grouped into tasks. A task holds every ranker of its bootstrap samples, so
        the rankers of one sample share its copy of the rows (taken once per sample, not once
        per ranker call). In this process: one task per sample (the progress bar moves per
        sample). On ``W`` workers: guided self-scheduling (Polychronopoulos & Kuck 1987) —
        task after task takes ``ceil(R / (2 W))`` of the ``R`` samples still unassigned,
        consecutive samples, so the tasks shrink from a quarter of the work (two workers)
        to single samples: few tasks (about ``2 W ln(S / 2 W) + 2 W`` for ``S`` samples),
        which keeps the per-task costs (pickling, the round trip to a worker) small — 400
        calls of a few ms each as 400 tasks ran 5× slower on two workers than on one — and
        small last tasks, so that no worker waits long for another at the end (with four
        equal tasks per worker, a worker could wait a quarter of its share). With fewer
        samples than ``4 W`` (no bootstraps), the jobs themselves are dealt out,
        ``t, t + n_tasks, …`` (rankers mixed).

        Parameters
        ----------
        n_jobs : int or None, default None
            joblib's ``n_jobs``.

        Returns
        -------
        list of list of int
            Indices into ``jobs``.
        """
        from joblib import effective_n_jobs

        n = len(self.jobs)
        R = max(1, self.n_rankers)
        S = n // R if n % R == 0 else n  # samples per ranker, as the jobs hold them
        R = n // S if S else 1
        workers = effective_n_jobs(n_jobs)
        if workers <= 1:
            return [[i * S + b for i in range(R)] for b in range(S)]
        if S < 4 * workers:  # few samples: deal out the jobs
            n_tasks = max(1, min(n, 4 * workers))
            return [list(range(t, n, n_tasks)) for t in range(n_tasks)]
        # job of ranker i on sample b: i * S + b
        out, start = [], 0
        while start < S:
            size = -(-(S - start) // (2 * workers))
            out.append([i * S + b for b in range(start, start + size) for i in range(R)])
            start += size
        return out


def plan_ranking_jobs(rankers, y, random_state, *, n_bootstraps: int = 0,
                      sample_fraction: float = 1.0, stratify: bool = True,
                      progress: bool = False) -> RankingPlan:
    """The (ranker, sample) jobs of an ensemble and their seeds, drawn before any job runs.

    Parameters
    ----------
    rankers : list of RankerSpec
        The rankers (``rankfusion.selection.ranker_specs.resolve_rankers``).
    y : ndarray of shape (n_samples,)
        The class labels (the bootstrap samples are drawn within classes when ``stratify``).
    random_state : None, int, SeedSequence or Generator
        The root stream (see the module docstring for how it is split).
    n_bootstraps : int, default 0
        0: every ranker once on all the data; L > 0: every ranker on each of L bootstrap
        samples (``rankfusion.selection.resampling.bootstrap_indices``).
    sample_fraction : float, default 1.0
        Rows drawn per bootstrap sample, as a fraction of n.
    stratify : bool, default True
        Draw each sample within classes.
    progress : bool, default False
        A progress bar of the samples drawn (many samples are drawn in chunks of 1000).

    Returns
    -------
    RankingPlan
    """
    boot_seq, rank_seq = spawn(random_state, 2)
    B = int(n_bootstraps)
    parents = rank_seq.spawn(len(rankers))
    if B > 0:
        # in chunks, for the progress of many samples; SeedSequence.spawn numbers the
        # children on from the last, so the chunks give the children of one spawn(B)
        samples, ranker_seqs = [], [[] for _ in rankers]
        bar = progress_bar(B, "drawing", "bootstrap samples", enabled=bool(progress))
        for start in range(0, B, 1000):
            m = min(1000, B - start)
            samples += bootstrap_indices(y, boot_seq.spawn(m),
                                         sample_fraction=float(sample_fraction),
                                         stratify=bool(stratify))
            for seqs, parent in zip(ranker_seqs, parents):
                seqs += parent.spawn(m)
            if bar is not None:
                bar.update(m)
        if bar is not None:
            bar.close()
        rows = samples
    else:
        samples = []
        rows = [None]
        ranker_seqs = [s.spawn(1) for s in parents]
    jobs = [RankingJob(r, rows[b], ranker_seqs[i][b],
                       r.name if rows[b] is None else f"{r.name}@b{b}",
                       None if rows[b] is None else b)
            for i, r in enumerate(rankers) for b in range(len(rows))]
    return RankingPlan(jobs=jobs, samples=samples, n_rankers=len(rankers))


def _run_jobs(X, y, p, jobs, kernels=None, densify=False):
    """Run :class:`RankingJob` s on ``(X, y)`` (one task); consecutive jobs on the same sample
    share its copy of the rows; ``kernels`` maps a ranker's name to its prepared kernel
    (:func:`rankfusion.rankers.prepared_kernel`). ``densify``: a sparse ``X`` reaches a
    ranker that cannot take it (``RankerSpec.takes_sparse`` False) as a dense copy of the
    sample, made once per sample (docs/design.md, 'Sparse input'); the sparse-capable rankers
    still get the sparse rows."""
    from .._utils.sparse import densify as dense_copy
    from .._utils.sparse import issparse

    frame = isinstance(X, pd.DataFrame)
    to_dense = bool(densify) and issparse(X)
    kernels = kernels or {}
    out = []
    last, Xb, yb, dense = None, X, y, None
    for job in jobs:
        if job.rows is None:
            if Xb is not X:
                dense = None
            Xb, yb = X, y
        elif job.rows is not last:
            Xb, yb = (X.iloc[job.rows] if frame else X[job.rows]), y[job.rows]
            dense = None
        last = job.rows
        data = Xb
        if to_dense and not job.ranker.takes_sparse:
            if dense is None:
                dense = dense_copy(Xb)
            data = dense
        out.append(run_ranker(job.ranker, data, yb, job.seed, p, job.name,
                              kernel=kernels.get(job.ranker.name)))
    return out


def _kernels(plan, X, y) -> dict:
    """The prepared kernels of the plan's rankers that have one, for integer class codes."""
    from ..rankers import prepared_kernel

    y = np.asarray(y)
    if y.dtype.kind not in "iu":
        return {}
    out = {}
    for r in {job.ranker.name: job.ranker for job in plan.jobs}.values():
        if not r.params:
            k = prepared_kernel(r.func, X)
            if k is not None:
                out[r.name] = k
    return out


def _batched_jobs(plan, X, y) -> dict:
    """The scores of the jobs whose ranker is batched (module docstring), by job index."""
    from ..rankers import batched_ranker, batched_scores

    y = np.asarray(y)
    if not _BATCHED["on"] or not plan.samples or not isinstance(X, np.ndarray) \
            or X.dtype != np.float64 or X.ndim != 2 or X.shape[1] < 2 \
            or y.dtype.kind not in "iu" or not np.isfinite(X).all():
        return {}
    out = {}
    for name in dict.fromkeys(job.ranker.name for job in plan.jobs):
        mine = [j for j, job in enumerate(plan.jobs) if job.ranker.name == name]
        r = plan.jobs[mine[0]].ranker
        which = None if r.params else batched_ranker(r.func)
        if which is None or (which == "chi2" and (X < 0).any()):
            continue
        if not all(plan.jobs[j].bootstrap is not None
                   and plan.jobs[j].rows is plan.samples[plan.jobs[j].bootstrap]
                   for j in mine):
            continue
        scores, done = batched_scores(which, X, y, plan.samples, partial=True)
        for j in mine:
            b = plan.jobs[j].bootstrap
            if done[b]:
                out[j] = scores[b]
    return out


def run_ranking_jobs(plan: RankingPlan, X, y, p: int, *, n_jobs=None,
                     progress: bool = False, densify: bool = False) -> tuple:
    """Run the jobs of ``plan`` and gather their lists into one score matrix.

    The data travel once per task (``RankingPlan.tasks``), not once per ranker call; the
    result does not depend on ``n_jobs`` (any joblib backend, Dask included).

    Parameters
    ----------
    plan : RankingPlan
        From :func:`plan_ranking_jobs`.
    X : ndarray or DataFrame of shape (n_samples, n_features)
        The features.
    y : ndarray of shape (n_samples,)
        The class labels.
    p : int
        The number of features.
    n_jobs : int or None, default None
        joblib's ``n_jobs``.
    progress : bool, default False
        A progress bar of the ranker calls.
    densify : bool, default False
        With a sparse ``X``: give each ranker that cannot take it a dense copy of its sample
        (the caller has made the memory check and was asked to); the others get it sparse.

    Returns
    -------
    scores : ndarray of shape (p, n_lists)
        One column per list, in job order; a ranker giving several lists
        (a :class:`~rankfusion.RankedLists`) gives several adjacent columns (its scores, or
        its negated positions when it has none).
    list_names : list of str
        ``relieff``, ``relieff@b17``, ``name[list]@b17`` for a list of a multi-list ranker.
    groups : dict of str → list of int
        The columns of each ranker (of each list of a multi-list ranker), one per sample.
    """
    from joblib import Parallel, delayed

    jobs = plan.jobs
    bar = progress_bar(len(jobs), "ranking", "ranker calls", enabled=bool(progress))
    by_job = _batched_jobs(plan, X, y)
    if bar is not None and by_job:
        bar.update(len(by_job))
    rest = [j for j in range(len(jobs)) if j not in by_job]
    if rest:
        sub = RankingPlan(jobs=[jobs[j] for j in rest], samples=plan.samples,
                          n_rankers=len({jobs[j].ranker.name for j in rest}))
        tasks = [[rest[j] for j in task] for task in sub.tasks(n_jobs)]
        kernels = _kernels(plan, X, y)
        done = Parallel(n_jobs=n_jobs, return_as="generator")(
            delayed(_run_jobs)(X, y, p, [jobs[j] for j in task], kernels, densify)
            for task in tasks)
        for task, outs in zip(tasks, done):
            by_job.update(zip(task, outs))
            if bar is not None:
                bar.update(len(task))
    if bar is not None:
        bar.close()
    cols, list_names, groups = [], [], {}
    for j, job in enumerate(jobs):
        out = by_job[j]
        r = job.ranker
        suffix = "" if job.bootstrap is None else f"@b{job.bootstrap}"
        if isinstance(out, RankedLists):
            sub = out.scores if out.has_scores else -out.positions
            for c, lname in enumerate(out.list_names):
                lname = str(lname)
                group = lname if lname.startswith(f"{r.name}[") else f"{r.name}[{lname}]"
                groups.setdefault(group, []).append(len(cols))
                cols.append(np.asarray(sub[:, c], dtype=np.float64))
                list_names.append(group + suffix)
        else:
            groups.setdefault(r.name, []).append(len(cols))
            cols.append(out)
            list_names.append(r.name + suffix)
    return np.column_stack(cols), list_names, groups
