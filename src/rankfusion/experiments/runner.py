"""Running an experiment grid: locally or on a Dask cluster, resumably.

:func:`run_experiment` validates the configuration (nothing runs if it has an error), reads
which cells are already on disk and sound, computes the others — in this process, or as one
``dask.distributed`` future per cell — and files each finished cell atomically from the driver
as it arrives (``as_completed``), so an interruption or a lost worker costs only unfinished
cells. When every cell is done it writes the tidy tables, the metadata and the report.

The run holds the folder's lock from before it touches the folder until it ends
(:mod:`.lock`), and records itself in ``metadata.json``'s history when it starts and when it
ends (docs/experiments.md, 'Running twice on one folder').

Dask is imported only when a cluster is asked for (the optional extra ``rankfusion[dask]``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import platform
import sys
import time
import uuid
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .._utils.progress import progress_bar
from .._utils.validation import check_n_jobs, check_positive_int
from .cells import Cell, WarningReplay, fold_positions, run_cell, run_cell_on_worker
from .config import ExperimentConfig, load_config, parse_config, saved_config_text
from .lock import acquire_lock, lock_holder
from .store import (
    another_configuration_error,
    assemble,
    cell_path,
    cell_status,
    clean_temporaries,
    read_cell,
    write_bytes_atomic,
    write_cell,
    write_csv,
    write_json_atomic,
    write_table,
)

__all__ = ["run_experiment", "plan", "dry_run", "RunSummary", "dask_client",
           "check_results_folder", "config_sha256"]

DASK_EXTRA = "rankfusion[dask]"


@dataclass
class RunSummary:
    """What one call of :func:`run_experiment` did."""

    out: Path
    total: int
    reused: int
    computed: list[str] = field(default_factory=list)
    recomputed_corrupt: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    #: The run's duration, from its start to its tables (or its end when it stops early),
    #: measured once (:func:`_end_run`) and shown everywhere: the command line, the progress
    #: line's last line, ``metadata.json``'s run record and the report's runs table.
    seconds: float = 0.0
    report: Path | None = None
    #: Seconds spent drawing the report, after the run's end (not in ``seconds``).
    report_seconds: float | None = None
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    #: ``running`` while it runs, then ``finished``, ``failed`` (some cells failed),
    #: ``interrupted`` (Ctrl-C) or ``error: …`` (the run itself raised).
    status: str = "running"
    backend: str = "local"
    #: Cells computed again after a failure: Dask retries in this run (``attempt`` ≥ 1,
    #: ``error`` of the failed attempt), or cells that failed in an earlier run
    #: (``failed_in_run``).
    retried: list[dict] = field(default_factory=list)
    #: Notes on the run, such as a stale lock taken over.
    notes: list[str] = field(default_factory=list)
    #: Temporary files of interrupted runs that were removed at start.
    temporaries_removed: list[str] = field(default_factory=list)
    started: float = field(default_factory=time.time)
    #: When the run ended (epoch seconds; None while it runs): set once, by ``_end_run``.
    ended: float | None = None

    @property
    def ok(self) -> bool:
        return not self.failed


def _as_config(config) -> ExperimentConfig:
    if isinstance(config, ExperimentConfig):
        return config
    if isinstance(config, (str, os.PathLike)) and Path(config).suffix == ".toml":
        return load_config(config)
    if isinstance(config, str):
        return parse_config(config)
    raise TypeError(f"config must be a path to a .toml file, TOML text or an ExperimentConfig; "
                    f"got {type(config).__name__}")


def plan(config) -> ExperimentConfig:
    """Parse and validate a configuration (path, TOML text or :class:`ExperimentConfig`).

    Parameters
    ----------
    config : str, path-like or ExperimentConfig
        A TOML file, TOML text, or an already parsed configuration.

    Returns
    -------
    ExperimentConfig
        The validated configuration with its planned cells.
    """
    return _as_config(config)


def dask_client(scheduler: str | None = None, n_workers: int | None = None):
    """A ``distributed.Client``: connected to ``scheduler``, or on a new ``LocalCluster`` of
    ``n_workers`` single-threaded worker processes. Needs the extra ``rankfusion[dask]``.

    Parameters
    ----------
    scheduler : str, optional
        Address of a running scheduler (``tcp://host:8786``).
    n_workers : int, optional
        Without ``scheduler``: the number of worker processes of the local cluster.

    Returns
    -------
    distributed.Client
        A client to pass to :func:`run_experiment` as ``client``.
    """
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ImportError(f"running on Dask needs the optional dependencies of {DASK_EXTRA}: "
                          f"pip install '{DASK_EXTRA}'") from None
    if scheduler is not None:
        return Client(scheduler)
    if n_workers is None or isinstance(n_workers, bool) or int(n_workers) < 1:
        raise ValueError(f"n_workers must be an int ≥ 1, got {n_workers!r}")
    cluster = LocalCluster(n_workers=int(n_workers), threads_per_worker=1, processes=True,
                           dashboard_address=None)
    return Client(cluster)


def _estimate(cell: Cell) -> dict:
    """Units of work of a cell: selector fits and classifier fits."""
    sp = cell.selector["params"]
    pp = cell.protocol["params"]
    if cell.selector["kind"] == "ensemble":
        lists = len(sp.get("rankers", ("info_gain", "relieff", "nlc"))) * max(
            1, sp.get("n_bootstraps", 0))
    else:
        lists = 1
    if cell.protocol["kind"] == "error_curve":
        fits = pp["n_splits"]
        clf = pp["n_splits"] * len(pp["n_features"])
    else:
        fits = pp["cv"]
        clf = pp["cv"]
    return {"selector_fits": fits, "ranker_lists": fits * lists, "classifier_fits": clf}


def _machine() -> dict:
    return {"hostname": platform.node(), "platform": platform.platform(),
            "python": sys.version.split()[0], "cpu_count": os.cpu_count(),
            "processor": platform.processor() or platform.machine()}


def _versions(extra: tuple[str, ...] = ()) -> dict:
    from importlib import metadata

    from .._utils.version import __version__

    out = {"rankfusion": __version__}
    for name in ("numpy", "scipy", "pandas", "scikit-learn", "pyarrow", "numba", "joblib",
                 "matplotlib", *extra):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def dry_run(config, out, *, file=None, overwrite: bool = False) -> dict:
    """Print the cells, the estimated work and which are done; returns the counts.

    Parameters
    ----------
    config : str, path-like or ExperimentConfig
        The configuration (as :func:`plan`).
    out : str or path-like
        The results folder whose finished cells are counted as done.
    file : file-like, optional
        Where to print; default ``sys.stdout``.
    overwrite : bool, default False
        As :func:`run_experiment`: without it, a folder that the run would refuse
        (:func:`check_results_folder`) is refused here too.

    Returns
    -------
    dict
        The counts of cells by status and the estimated work left.
    """
    cfg = _as_config(config)
    out = Path(out)
    note = check_results_folder(cfg, out, overwrite=overwrite)
    status = cell_status(out, cfg.cells)
    times = []
    for c in cfg.cells:
        if status[c.hash] == "done":
            doc, _ = read_cell(cell_path(out, c.hash), c.hash)
            times.append(doc["timing"]["seconds"])
    file = file or sys.stdout
    tot = {"selector_fits": 0, "ranker_lists": 0, "classifier_fits": 0}
    w = max(len(c.label) for c in cfg.cells)
    print(f"experiment {cfg.name!r} (seed {cfg.seed}): {len(cfg.cells)} cells → {out}",
          file=file)
    holder = lock_holder(out)
    if holder:
        print(f"note: {holder}", file=file)
    if note:
        print(f"note: --overwrite: the run {note[0].lower()}{note[1:]}"
              .replace("the run replaced", "the run replaces"), file=file)
    print(f"{'#':>4}  {'cell':<{w}}  {'hash':<12}  {'status':<8}  work", file=file)
    for i, c in enumerate(cfg.cells):
        est = _estimate(c)
        if status[c.hash] != "done":
            for k in tot:
                tot[k] += est[k]
        work = (f"{est['selector_fits']} selector fits ({est['ranker_lists']} lists), "
                f"{est['classifier_fits']} classifier fits")
        print(f"{i + 1:>4}  {c.label:<{w}}  {c.hash[:12]}  {status[c.hash]:<8}  {work}",
              file=file)
    done = sum(s == "done" for s in status.values())
    corrupt = sum(s.startswith("corrupt") for s in status.values())
    todo = len(cfg.cells) - done
    print(f"done {done}, to compute {todo}" + (f" (of which {corrupt} corrupt)" if corrupt
                                               else ""), file=file)
    print(f"work left: {tot['selector_fits']} selector fits ({tot['ranker_lists']} ranked "
          f"lists), {tot['classifier_fits']} classifier fits", file=file)
    if times:
        mean = sum(times) / len(times)
        print(f"time left: about {mean * todo:.0f} s on one core (mean {mean:.2f} s per "
              f"finished cell)", file=file)
    else:
        print("time left: unknown until a cell has finished", file=file)
    return {"total": len(cfg.cells), "done": done, "todo": todo, "corrupt": corrupt, **tot}


def _progress_bar(total: int, initial: int, enabled: bool | None):
    """None, a tqdm bar on a terminal or rate-limited lines elsewhere (``_utils.progress``);
    ``enabled=None``: on a terminal only."""
    if enabled is None:
        enabled = sys.stderr.isatty()
    return progress_bar(total, "cells", "cells", enabled=bool(enabled), initial=initial)


def run_experiment(config, out, *, client=None, scheduler: str | None = None,
                   n_workers: int | None = None, n_jobs: int | None = None,
                   csv: bool = False, report: bool = True, progress: bool | None = None,
                   retries: int = 2, on_cell: Callable[[Cell, str], None] | None = None,
                   rfe_memo: int | None = 32, overwrite: bool = False) -> RunSummary:
    """Run (or resume) an experiment grid and write its results under ``out``.

    Parameters
    ----------
    config : path to a .toml file, TOML text or ExperimentConfig
        Validated completely before anything runs (:class:`~.config.ConfigError`).
    out : path
        The results folder (created). Cells already there and sound are reused. The run holds
        the folder's lock while it runs (:mod:`rankfusion.experiments.lock`); another live
        run on it is refused (docs/experiments.md, 'Running twice on one folder').
    client : distributed.Client, optional
        Run the cells on this Dask cluster.
    scheduler : str, optional
        Address of a Dask scheduler to connect to (``tcp://host:8786``).
    n_workers : int, optional
        Start a ``distributed.LocalCluster`` of this many worker processes.
    n_jobs : int, optional
        joblib jobs inside each cell (the protocol's splits); default 1.
    csv : bool, default False
        Also write ``results.csv`` and ``positions.csv``.
    report : bool, default True
        Write the report (``out/report/``) at the end (needs matplotlib for figures).
    progress : bool, optional
        Progress on stderr (cells done / total, elapsed, remaining): a tqdm bar on a terminal,
        else a line every 10 s; default: only when stderr is a terminal.
    retries : int, default 2
        Dask: times a cell whose task raised is submitted again (by the driver, each retry
        recorded in the history with the error of the attempt before it).
    on_cell : callable(cell, status), optional
        Called from the driver after each cell is filed (``"computed"``) or found done
        (``"reused"``).
    rfe_memo : int or None, default 32
        Local runs: keep the per-problem SVM-RFE lists of the last ``rfe_memo`` fits
        (:func:`rankfusion.selection.rfe_lists_memo`), so the cells that combine the same
        splits' lists with different rules run the eliminations once. The numbers do not
        change (the eliminations are deterministic). None switches it off; it does not reach
        Dask workers or the joblib workers of ``n_jobs`` > 1.
    overwrite : bool, default False
        Accept a folder that holds another configuration's results (or a data file changed
        since its last run), or files of its own (:func:`check_results_folder`): this run's
        configuration replaces the folder's (its ``config.toml``, and its tables and report
        when it finishes). The finished cells are kept: those whose settings and data are
        unchanged are reused.

    Returns
    -------
    RunSummary

    Raises
    ------
    ValueError
        ``out`` holds another configuration's results, a data file changed since its last
        run, or files that are not a results folder's (without ``overwrite``).
    FolderLockedError
        Another run is using ``out`` (an ``OSError``; its message names the run's pid and
        start, and for a run on another host how to remove its lock).
    """
    cfg = _as_config(config)
    out = Path(out)
    if n_workers is not None and scheduler is not None:
        raise ValueError("give scheduler or n_workers (a local cluster), not both")
    n_jobs = check_n_jobs(n_jobs)
    retries = check_positive_int(retries, name="retries", minimum=0)
    if not isinstance(overwrite, bool):
        raise TypeError(f"overwrite must be True or False, got {type(overwrite).__name__}")
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(f"out {out} is a file; the results go to a folder (new, or "
                                 "an earlier run's to resume it)")
    # before the folder is touched: nothing of a refused run is recorded in it
    replaced = check_results_folder(cfg, out, overwrite=overwrite)
    t0 = time.time()
    config_sha = config_sha256(cfg)
    summary = RunSummary(out=out, total=len(cfg.cells), reused=0)
    if replaced:
        summary.notes.append(replaced)
    out.mkdir(parents=True, exist_ok=True)
    # one run at a time per folder (docs/experiments.md, 'Running twice on one folder'):
    # nothing in the folder is touched before the lock is held
    lock = acquire_lock(out, config_sha256=config_sha, run_id=summary.run_id)
    try:
        if lock.note:
            summary.notes.append(lock.note)
            warnings.warn(lock.note, RuntimeWarning, stacklevel=2)
        summary.started = lock.info["started_epoch"]
        (out / "cells").mkdir(exist_ok=True)
        summary.temporaries_removed = clean_temporaries(out, before=summary.started)
        earlier_failures = _start_history(out, cfg, summary)
        write_bytes_atomic(out / "config.toml", saved_config_text(cfg).encode("utf-8"))
        _run_locked(cfg, out, summary, earlier_failures, client=client, scheduler=scheduler,
                    n_workers=n_workers, n_jobs=n_jobs, csv=csv, report=report,
                    progress=progress, retries=retries, on_cell=on_cell, rfe_memo=rfe_memo,
                    t0=t0)
    except BaseException as exc:
        summary.status = ("interrupted" if isinstance(exc, (KeyboardInterrupt, SystemExit))
                          else f"error: {type(exc).__name__}: {exc}")
        with contextlib.suppress(Exception):
            _write_metadata(out, cfg, summary, _end_run(summary, t0))
        raise
    finally:
        lock.release()
    _end_run(summary, t0)  # a no-op when the run recorded its end
    return summary


def _end_run(summary: RunSummary, t0: float, bar=None) -> float:
    """The run's duration, measured once: ``summary.seconds`` set at the run's end (the
    first call) and returned unchanged after; ``bar``, the progress reporter, closes with it,
    so its last line shows the same number as the command line and ``metadata.json``."""
    if summary.ended is None:
        summary.ended = time.time()
        summary.seconds = summary.ended - t0
    if bar is not None:
        close = getattr(bar, "close_after", None)
        close(summary.seconds) if close is not None else bar.close()
    return summary.seconds


def config_sha256(cfg: ExperimentConfig) -> str:
    """SHA-256 of the ``config.toml`` a results folder keeps of the configuration
    (:func:`~.config.saved_config_text`: the text as written, data paths resolved, and the
    SHA-256 of each data file it reads): the identity of an experiment in a results folder
    (its run records, its tables and the lock carry it), so a changed data file is another
    experiment. A configuration without data files: the SHA-256 of its text.

    Parameters
    ----------
    cfg : ExperimentConfig

    Returns
    -------
    str
    """
    return hashlib.sha256(saved_config_text(cfg).encode("utf-8")).hexdigest()


def _earlier_sha256(cfg: ExperimentConfig) -> str:
    """The identity earlier releases gave a configuration: its text, then the data files'
    digests (a folder they wrote is this configuration's)."""
    h = hashlib.sha256(cfg.source_text.encode("utf-8"))
    for digest in sorted({e["sha256"] for e in cfg.data_files.values()}):
        h.update(f"\ndata file sha256 {digest}".encode("ascii"))
    return h.hexdigest()


#: Files of a results folder that a run writes or replaces.
_RUN_FILES = ("config.toml", "results.parquet", "positions.parquet", "results.csv",
              "positions.csv", "report")


def _folder_configuration(out: Path) -> str | None:
    """The SHA-256 of the configuration a results folder holds: its last run's (the one its
    ``config.toml`` is), else its tables', else its ``config.toml``'s; None when unknown."""
    runs = _read_metadata(out).get("runs")
    if isinstance(runs, list):
        for run in reversed(runs):
            if isinstance(run, dict) and isinstance(run.get("config_sha256"), str):
                return run["config_sha256"]
    tables = out / "results.parquet"
    if tables.is_file():
        try:
            import pyarrow.parquet as pq

            from .store import TABLE_CONFIG_KEY

            sha = (pq.read_schema(tables).metadata or {}).get(TABLE_CONFIG_KEY)
            if sha:
                return sha.decode()
        except Exception:  # a damaged table: the config.toml decides
            pass
    saved = out / "config.toml"
    if saved.is_file():
        return hashlib.sha256(saved.read_bytes()).hexdigest()
    return None


def _changed_files(cfg: ExperimentConfig, recorded: dict) -> list[str]:
    """The data files of ``cfg`` that ``recorded`` (label → the path, size, time and digest
    an earlier run recorded) saw with other contents, each said in one phrase."""
    changed = []
    for label, entry in sorted(cfg.data_files.items()):
        old = recorded.get(label)
        if not isinstance(old, dict) or old.get("path") != entry["path"] \
                or old.get("sha256") in (None, entry["sha256"]):
            continue
        try:
            st = os.stat(entry["path"])
            now = f"{st.st_size:,} bytes, modified {_iso(st.st_mtime)}"
        except OSError:
            now = "unreadable now"
        was = (f"{old['size']:,} bytes, modified {_iso(old.get('mtime'))}"
               if isinstance(old.get("size"), int) else "other contents")
        changed.append(f"data file {entry['path']} ([datasets.{label}]) changed since the "
                       f"last run ({was}; now {now})")
    return changed


def check_results_folder(config, out, *, overwrite: bool = False) -> str | None:
    """Check, before anything is written, that an experiment may run in the folder ``out``:
    it is new or empty, or it holds this configuration's results (the run resumes them).

    Refused, unless ``overwrite``: a folder holding another configuration's results (its last
    run, tables or ``config.toml`` are of another configuration), where the message names a
    data file that changed since that run; and a folder that is not a results folder but
    holds files a run replaces (``config.toml``, ``report/`` …).

    Parameters
    ----------
    config : str, path-like or ExperimentConfig
        The configuration (as :func:`plan`).
    out : str or path-like
        The results folder.
    overwrite : bool, default False
        Accept such a folder: this configuration then replaces the folder's.

    Returns
    -------
    str or None
        With ``overwrite``, what is replaced (a note for the run's history); else None.

    Raises
    ------
    ValueError
        The folder is refused; the message names it and the ways out (``--overwrite``,
        another ``--out``).
    """
    cfg = _as_config(config)
    out = Path(out)
    if not out.is_dir():
        return None
    sha = config_sha256(cfg)
    ours = any((out / n).exists() for n in ("metadata.json", "cells", "results.parquet"))
    if not ours:
        found = sorted(n for n in (*_RUN_FILES, "advice-store.json") if (out / n).exists())
        if found and not overwrite:
            raise ValueError(
                f"out {str(out)!r} is not a results folder of rankfusion experiment and holds "
                f"{', '.join(found)}, which a run would replace: choose another folder "
                "(--out), or pass --overwrite (overwrite=True) to replace them")
        return (f"replaced the files of a folder that was not a results folder "
                f"({', '.join(found)})") if found else None
    theirs = _folder_configuration(out)
    if theirs is None or theirs in (sha, _earlier_sha256(cfg)):
        return None
    meta = _read_metadata(out)
    known = meta.get("experiments") if isinstance(meta.get("experiments"), dict) else {}
    record = known.get(theirs) if isinstance(known.get(theirs), dict) else {}
    changed = _changed_files(cfg, record.get("data_files") or {})
    name = record.get("name")
    if overwrite:
        return (f"replaced the configuration of this folder ({theirs[:12]}"
                + (f", {name!r}" if name else "") + ")"
                + (": " + "; ".join(changed) if changed else ""))
    if changed:
        raise ValueError(f"out {str(out)!r}: {'; '.join(changed)}; its results are never mixed "
                         "with the new data's: choose another folder (--out), or pass "
                         "--overwrite (overwrite=True) to replace them (the cells of unchanged "
                         "data are reused)")
    how = (f"{name!r}, " if name else "") + f"SHA-256 {theirs[:12]}…, this one {sha[:12]}…"
    raise another_configuration_error(
        out, "results", how, overwrite="replace them with this configuration's (the finished "
        "cells of unchanged settings are reused)")


def _run_locked(cfg, out, summary, earlier_failures, *, client, scheduler, n_workers, n_jobs,
                csv, report, progress, retries, on_cell, rfe_memo, t0):
    status = cell_status(out, cfg.cells)
    todo = [c for c in cfg.cells if status[c.hash] != "done"]
    summary.reused = len(cfg.cells) - len(todo)
    summary.recomputed_corrupt = [c.hash for c in todo if status[c.hash].startswith("corrupt")]
    if on_cell is not None:
        for c in cfg.cells:
            if status[c.hash] == "done":
                on_cell(c, "reused")
    bar = _progress_bar(len(cfg.cells), summary.reused, progress)

    def filed(cell: Cell, result: dict):
        write_cell(out, cell, result)
        summary.computed.append(cell.hash)
        if cell.hash in earlier_failures:  # failed in an earlier run, computed in this one
            run_id, error = earlier_failures[cell.hash]
            summary.retried.append({"cell": cell.hash, "label": cell.label, "attempt": 1,
                                    "error": error, "failed_in_run": run_id})
        if bar is not None:
            bar.update(1)
        if on_cell is not None:
            on_cell(cell, "computed")

    own_client = None
    try:
        if todo and (client is not None or scheduler is not None or n_workers is not None):
            if client is None:
                client = own_client = dask_client(scheduler, n_workers)
            summary.backend = f"dask ({client.scheduler.address})"
            _write_metadata(out, cfg, summary, time.time() - t0)
            _run_dask(client, todo, n_jobs, retries, filed, summary)
        else:
            from ..selection import rfe_lists_memo

            memo = (contextlib.nullcontext() if rfe_memo is None
                    else rfe_lists_memo(rfe_memo))
            with memo:
                _run_local(todo, n_jobs, filed, summary)
    except BaseException:
        if bar is not None:
            bar.close()
        raise
    finally:
        if own_client is not None:
            cluster = getattr(own_client, "cluster", None)
            own_client.close()
            if cluster is not None:
                cluster.close()
    if summary.failed:
        summary.status = "failed"
        _write_metadata(out, cfg, summary, _end_run(summary, t0, bar))
        return
    try:
        results, positions, timings = assemble(out, cfg.cells)
        # the cross-validation cells' folds (selected subsets, rankings), for their stability
        positions = fold_positions(out, cfg.cells, positions)
        sha = config_sha256(cfg)
        write_table(results, out / "results.parquet", config_sha256=sha)
        write_table(positions, out / "positions.parquet", config_sha256=sha)
        if csv:
            write_csv(results, out / "results.csv")
            write_csv(positions, out / "positions.csv")
    except BaseException:
        if bar is not None:
            bar.close()
        raise
    summary.status = "finished"
    _write_metadata(out, cfg, summary, _end_run(summary, t0, bar), timings=timings)
    if report:
        from .report import write_report

        t_report = time.perf_counter()
        summary.report = write_report(out)
        summary.report_seconds = time.perf_counter() - t_report


def _run_local(todo, n_jobs, filed, summary):
    from ..selection.ranker_specs import ranker_cache

    # one memo across the run's cells, emptied when the run ends (the caller's process is not
    # left with a process-wide cache)
    with ranker_cache(512):
        for cell in todo:
            try:
                result = run_cell(cell.spec, n_jobs=n_jobs)
            except Exception as exc:  # one broken cell does not stop the others
                summary.failed[cell.hash] = f"{type(exc).__name__}: {exc}"
                continue
            filed(cell, result)


def _run_dask(client, todo, n_jobs, retries, filed, summary):
    """One future per cell, collected as they finish. A cell whose task raised is submitted
    again up to ``retries`` times by the driver (not by the scheduler), so every retry is
    recorded with the error of the attempt before it; a lost worker's cells are reassigned
    by the scheduler. The warnings the workers caught are shown here, through this process's
    warning filters, as a local run would show them (:class:`~.cells.WarningReplay`)."""
    from distributed import as_completed

    replay = WarningReplay()

    def submit(cell, attempt):
        return client.submit(run_cell_on_worker, cell.spec, n_jobs=n_jobs,
                             key=f"rankfusion-cell-{cell.hash}-{attempt}", pure=False)

    cells = {}
    first = []
    for cell in todo:
        fut = submit(cell, 0)
        cells[fut.key] = (cell, 0)
        first.append(fut)
    ac = as_completed(first)
    for fut in ac:
        cell, attempt = cells.pop(fut.key)
        try:
            result = fut.result()
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
            if attempt < retries:
                summary.retried.append({"cell": cell.hash, "label": cell.label,
                                        "attempt": attempt + 1, "error": error})
                again = submit(cell, attempt + 1)
                cells[again.key] = (cell, attempt + 1)
                ac.add(again)
            else:
                summary.failed[cell.hash] = error
            fut.release()
            continue
        replay(result.pop("warnings", ()))
        filed(cell, result)
        fut.release()


def _iso(epoch: float | None) -> str | None:
    return None if epoch is None else time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(epoch))


def _read_metadata(out: Path) -> dict:
    path = out / "metadata.json"
    try:
        old = json.loads(path.read_text())
    except (OSError, ValueError, UnicodeDecodeError):
        return {}
    return old if isinstance(old, dict) else {}


def _start_history(out: Path, cfg: ExperimentConfig, summary: RunSummary) -> dict:
    """Record the start of this run in ``metadata.json``'s history, after marking the runs
    that never recorded an end (killed with SIGKILL, power loss) as ``killed/interrupted``:
    the folder's lock is held, so none of them is still running. Returns hash → (run id,
    error) of the cells that failed in an earlier run and are not on disk since."""
    old = _read_metadata(out)
    now = time.time()
    path = out / "metadata.json"
    if not old and path.is_file() and path.stat().st_size:
        # unreadable: kept aside (not overwritten) and said, since its history is lost here
        kept = path.with_name(f"metadata.json.damaged-{time.strftime('%Y%m%dT%H%M%S')}")
        os.replace(path, kept)
        summary.notes.append(f"{path} was not readable JSON; kept as {kept.name}, and the "
                             "history starts again with this run")
        warnings.warn(summary.notes[-1], RuntimeWarning, stacklevel=3)
    failures: dict = {}
    for run in old.get("runs", []):
        if not isinstance(run, dict):
            continue
        if run.get("status") == "running":
            run["status"] = "killed/interrupted"
            run["detected"] = _iso(now)
            run["detected_by"] = summary.run_id
            summary.notes.append(f"run {run.get('run_id')} (pid {run.get('pid')}, started "
                                 f"{run.get('started')}) ended without recording its end: "
                                 "marked killed/interrupted")
        for h, err in (run.get("failed") or {}).items():
            failures[h] = (run.get("run_id"), err)
        for h in run.get("computed") or ():
            failures.pop(h, None)
    _write_metadata(out, cfg, summary, 0.0, old=old)
    return failures


def _data_file_records(cfg: ExperimentConfig) -> dict:
    """label → the data file's resolved path, the path as written, SHA-256, size and
    modification time (epoch seconds)."""
    records = {}
    for label, entry in sorted(cfg.data_files.items()):
        record = dict(entry)
        try:
            st = os.stat(entry["path"])
            record.update(size=int(st.st_size), mtime=float(st.st_mtime))
        except OSError:
            pass
        records[label] = record
    return records


def _write_metadata(out: Path, cfg: ExperimentConfig, summary: RunSummary, seconds: float, *,
                    timings: dict | None = None, old: dict | None = None):
    """Write ``metadata.json``: this run's record in the history (added or updated), the
    experiments run in the folder by configuration hash, and — only when this run wrote the
    tables (``timings`` given) — ``experiment``, ``tables`` and ``cells`` for the new tables.
    A run that does not reach its end never changes which experiment the tables belong to
    (docs/experiments.md, 'Running twice on one folder')."""
    path = out / "metadata.json"
    if old is None:
        old = _read_metadata(out)
    sha = config_sha256(cfg)
    experiment = {"name": cfg.name, "seed": cfg.seed, "description": cfg.description,
                  "config_sha256": sha, "cells": len(cfg.cells)}
    if cfg.task != "classification":  # a classification run's metadata as it always was
        experiment["task"] = cfg.task
    if cfg.data_files:  # what a later run compares its files with
        experiment["data_files"] = _data_file_records(cfg)
    runs = [r for r in old.get("runs", []) if isinstance(r, dict)
            and r.get("run_id") != summary.run_id]
    ended = summary.status != "running"
    runs.append({
        "run_id": summary.run_id, "config_sha256": sha, "experiment": cfg.name,
        "pid": os.getpid(), "host": platform.node(),
        "started": _iso(summary.started),
        "ended": (_iso(time.time() if summary.ended is None else summary.ended) if ended
                  else None),
        "status": summary.status, "finished": summary.status == "finished",
        "seconds": round(seconds, 3), "backend": summary.backend,
        "cells_total": summary.total, "cells_reused": summary.reused,
        "cells_computed": len(summary.computed), "computed": list(summary.computed),
        "recomputed_corrupt": list(summary.recomputed_corrupt), "failed": dict(summary.failed),
        "retried": list(summary.retried), "notes": list(summary.notes),
        "temporaries_removed": list(summary.temporaries_removed),
    })
    experiments = old.get("experiments")
    experiments = dict(experiments) if isinstance(experiments, dict) else {}
    legacy = old.get("experiment")
    if isinstance(legacy, dict) and legacy.get("config_sha256"):
        experiments.setdefault(legacy["config_sha256"], legacy)
    experiments[sha] = experiment
    wrote_tables = timings is not None
    if wrote_tables:
        tables = {"config_sha256": sha, "written": _iso(time.time())}
    else:
        tables = old.get("tables")
    if wrote_tables or not (out / "results.parquet").exists() or not isinstance(legacy, dict):
        current = experiment
    else:  # the tables on disk are another run's: they keep their experiment
        current = legacy
    meta = {
        "experiment": current,
        "experiments": experiments,
        "tables": tables,
        "versions": _versions(("dask", "distributed") if summary.backend != "local" else ()),
        "machine": _machine(),
        "seeding": "protocol random_state = SeedSequence([experiment seed, *sha256(dataset + "
                   "protocol spec)]).generate_state(1)[0]",
        "runs": runs,
        "cells": timings if wrote_tables else old.get("cells", {}),
    }
    write_json_atomic(path, meta)
