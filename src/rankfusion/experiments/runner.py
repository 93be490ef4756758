"""Running an experiment grid: locally or on a Dask cluster, resumably.

:func:`run_experiment` validates the configuration (nothing runs if it has an error), reads
which cells are already on disk and sound, computes the others — in this process, or as one
``dask.distributed`` future per cell — and files each finished cell atomically from the driver
as it arrives (``as_completed``), so an interruption or a lost worker costs only unfinished
cells. When every cell is done it writes the tidy tables, the metadata and the report.

Dask is imported only when a cluster is asked for (the optional extra ``rankfusion[dask]``).
"""

from __future__ import annotations

import os
import platform
import sys
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .._utils.validation import check_n_jobs
from .cells import Cell, run_cell, run_cell_on_worker
from .config import ExperimentConfig, load_config, parse_config
from .store import (
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

__all__ = ["run_experiment", "plan", "dry_run", "RunSummary", "dask_client"]

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
    seconds: float = 0.0
    report: Path | None = None
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex)

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

    from .. import __version__

    out = {"rankfusion": __version__}
    for name in ("numpy", "scipy", "pandas", "scikit-learn", "pyarrow", "numba", "joblib",
                 "matplotlib", *extra):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def dry_run(config, out, *, file=None) -> dict:
    """Print the cells, the estimated work and which are done; returns the counts.

    Parameters
    ----------
    config : str, path-like or ExperimentConfig
        The configuration (as :func:`plan`).
    out : str or path-like
        The results folder whose finished cells are counted as done.
    file : file-like, optional
        Where to print; default ``sys.stdout``.

    Returns
    -------
    dict
        The counts of cells by status and the estimated work left.
    """
    cfg = _as_config(config)
    out = Path(out)
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
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, desc="cells", unit="cell", file=sys.stderr,
                dynamic_ncols=True)


def run_experiment(config, out, *, client=None, scheduler: str | None = None,
                   n_workers: int | None = None, n_jobs: int | None = None,
                   csv: bool = False, report: bool = True, progress: bool | None = None,
                   retries: int = 2, on_cell: Callable[[Cell, str], None] | None = None,
                   rfe_memo: int | None = 32) -> RunSummary:
    """Run (or resume) an experiment grid and write its results under ``out``.

    Parameters
    ----------
    config : path to a .toml file, TOML text or ExperimentConfig
        Validated completely before anything runs (:class:`~.config.ConfigError`).
    out : path
        The results folder (created). Cells already there and sound are reused.
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
        tqdm bar on stderr (cells done / total, elapsed, remaining); default: only when stderr
        is a terminal.
    retries : int, default 2
        Dask retries of a cell whose task raised.
    on_cell : callable(cell, status), optional
        Called from the driver after each cell is filed (``"computed"``) or found done
        (``"reused"``).
    rfe_memo : int or None, default 32
        Local runs: keep the per-problem SVM-RFE lists of the last ``rfe_memo`` fits
        (:func:`rankfusion.selection.rfe_lists_memo`), so the cells that combine the same
        splits' lists with different rules run the eliminations once. The numbers do not
        change (the eliminations are deterministic). None switches it off; it does not reach
        Dask workers or the joblib workers of ``n_jobs`` > 1.

    Returns
    -------
    RunSummary
    """
    cfg = _as_config(config)
    out = Path(out)
    if n_workers is not None and scheduler is not None:
        raise ValueError("give scheduler or n_workers (a local cluster), not both")
    n_jobs = check_n_jobs(n_jobs)
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(f"out {out} is a file; the results go to a folder (new, or "
                                 "an earlier run's to resume it)")
    t0 = time.time()
    (out / "cells").mkdir(parents=True, exist_ok=True)
    clean_temporaries(out)
    write_bytes_atomic(out / "config.toml", cfg.source_text.encode("utf-8"))
    status = cell_status(out, cfg.cells)
    todo = [c for c in cfg.cells if status[c.hash] != "done"]
    summary = RunSummary(out=out, total=len(cfg.cells), reused=len(cfg.cells) - len(todo))
    summary.recomputed_corrupt = [c.hash for c in todo if status[c.hash].startswith("corrupt")]
    if on_cell is not None:
        for c in cfg.cells:
            if status[c.hash] == "done":
                on_cell(c, "reused")
    bar = _progress_bar(len(cfg.cells), summary.reused, progress)
    backend = "local"

    def filed(cell: Cell, result: dict):
        write_cell(out, cell, result)
        summary.computed.append(cell.hash)
        if bar is not None:
            bar.update(1)
        if on_cell is not None:
            on_cell(cell, "computed")

    own_client = None
    try:
        if todo and (client is not None or scheduler is not None or n_workers is not None):
            if client is None:
                client = own_client = dask_client(scheduler, n_workers)
            backend = f"dask ({client.scheduler.address})"
            _run_dask(client, todo, n_jobs, retries, filed, summary)
        else:
            import contextlib

            from ..selection import rfe_lists_memo

            memo = (contextlib.nullcontext() if rfe_memo is None
                    else rfe_lists_memo(rfe_memo))
            with memo:
                _run_local(todo, n_jobs, filed, summary)
    finally:
        if bar is not None:
            bar.close()
        if own_client is not None:
            cluster = getattr(own_client, "cluster", None)
            own_client.close()
            if cluster is not None:
                cluster.close()
        _write_metadata(out, cfg, summary, backend, time.time() - t0, finished=False)
    summary.seconds = time.time() - t0
    if summary.failed:
        return summary
    results, positions, timings = assemble(out, cfg.cells)
    write_table(results, out / "results.parquet")
    write_table(positions, out / "positions.parquet")
    if csv:
        write_csv(results, out / "results.csv")
        write_csv(positions, out / "positions.csv")
    _write_metadata(out, cfg, summary, backend, time.time() - t0, finished=True,
                    timings=timings)
    if report:
        from .report import write_report

        summary.report = write_report(out)
    summary.seconds = time.time() - t0
    return summary


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
    from distributed import as_completed

    futures = {}
    for cell in todo:
        fut = client.submit(run_cell_on_worker, cell.spec, n_jobs=n_jobs, key=f"rankfusion-cell-"
                            f"{cell.hash}", pure=False, retries=retries)
        futures[fut.key] = (cell, fut)
    for fut in as_completed([f for _, f in futures.values()]):
        cell = futures[fut.key][0]
        try:
            result = fut.result()
        except Exception as exc:
            summary.failed[cell.hash] = f"{type(exc).__name__}: {exc}"
            continue
        filed(cell, result)
        fut.release()


def _write_metadata(out: Path, cfg: ExperimentConfig, summary: RunSummary, backend: str,
                    seconds: float, *, finished: bool, timings: dict | None = None):
    import hashlib
    import json

    path = out / "metadata.json"
    old = {}
    if path.exists():
        try:
            old = json.loads(path.read_text())
        except (OSError, ValueError):
            old = {}
    runs = [r for r in old.get("runs", []) if isinstance(r, dict)
            and r.get("run_id") != summary.run_id]
    runs.append({
        "run_id": summary.run_id,
        "started": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(time.time() - seconds)),
        "seconds": round(seconds, 3), "backend": backend, "finished": finished,
        "cells_total": summary.total, "cells_reused": summary.reused,
        "cells_computed": len(summary.computed), "computed": list(summary.computed),
        "recomputed_corrupt": list(summary.recomputed_corrupt), "failed": dict(summary.failed),
    })
    meta = {
        "experiment": {"name": cfg.name, "seed": cfg.seed, "description": cfg.description,
                       "config_sha256": hashlib.sha256(cfg.source_text.encode()).hexdigest(),
                       "cells": len(cfg.cells)},
        "versions": _versions(("dask", "distributed") if backend != "local" else ()),
        "machine": _machine(),
        "seeding": "protocol random_state = SeedSequence([experiment seed, *sha256(dataset + "
                   "protocol spec)]).generate_state(1)[0]",
        "runs": runs,
        "cells": timings if timings is not None else old.get("cells", {}),
    }
    write_json_atomic(path, meta)
