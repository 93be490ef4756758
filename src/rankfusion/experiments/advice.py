"""The rule advisor run resumably, locally or on Dask: :func:`advise_in_folder`.

:func:`rankfusion.advise` splits its work into independent parts
(:class:`rankfusion.evaluation.advisor.AdviceTask`): one per outer fold (its inner choice, its
rankers' cached scores over the inner training parts and the outer one, every configuration
scored on its test part) and one for the choice on all the data. Here each part is filed in
the results folder as it finishes, with the machinery of the experiment runner:

* the folder's lock (:mod:`.lock`): one run at a time per folder;
* each part written atomically (:func:`.store.write_bytes_atomic`: temporary file, fsync,
  replace) as ``parts/part-NNN.npz``, holding the identity of the run and a SHA-256 of its
  arrays; a part is reused only when both match, anything else is computed again;
* the identity of the run (``advice-store.json``): a digest of the data and every argument
  that the numbers depend on, the seed included (not ``n_jobs`` nor where the parts run). A
  folder holding another identity is refused, never mixed; ``overwrite=True`` discards its
  parts. With ``random_state=None`` a resumed run takes the seed the folder recorded.

The parts depend only on their own seed streams, so a run killed halfway and started again,
or run on a Dask cluster, gives the numbers of one uninterrupted local :func:`rankfusion.advise`
call. At the end ``advice.csv``, ``summary.json`` and ``advice.html`` are written
(:func:`rankfusion.evaluation.write_advice`, :mod:`.advice_report`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sys
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._utils.atomic import check_output_dir
from .._utils.progress import progress_bar
from .._utils.validation import check_n_jobs
from .lock import acquire_lock
from .store import another_configuration_error, write_bytes_atomic, write_json_atomic

__all__ = ["advise_in_folder", "AdviceFolderRun", "check_advice_folder", "read_part",
           "STORE_NAME", "PARTS_DIR", "PART_FORMAT"]

STORE_NAME = "advice-store.json"
PARTS_DIR = "parts"
PART_FORMAT = 1


@dataclass
class AdviceFolderRun:
    """What one call of :func:`advise_in_folder` did.

    Attributes
    ----------
    advice : Advice
    out : Path
    identity_sha256 : str
        SHA-256 of the run's identity (``advice-store.json``).
    total, reused : int
        Parts of the work, parts found finished and sound.
    computed : list of int
        The parts computed by this run, in the order they finished.
    recomputed : dict of int → str
        Parts that were on disk but not sound, and why.
    backend : str
        ``local`` or ``dask (address)``.
    written : list of Path
        The result files.
    notes : list of str
    seconds : list of float
        The recorded duration of each run on the folder of this configuration, the first
        run's first and this one's last (an interrupted run's time up to its interruption
        included): ``summary.json``'s ``seconds.total`` is their sum and ``seconds.runs``
        the list, so a resume adds its time to the recorded one instead of replacing it.
    """

    advice: object
    out: Path
    identity_sha256: str
    total: int
    reused: int
    computed: list = field(default_factory=list)
    recomputed: dict = field(default_factory=dict)
    backend: str = "local"
    written: list = field(default_factory=list)
    seconds: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def _sha(obj) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _part_path(out: Path, j: int) -> Path:
    return Path(out) / PARTS_DIR / f"part-{j:03d}.npz"


def _arrays_sha(arrays: Mapping) -> str:
    h = hashlib.sha256()
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(repr((name, str(a.dtype), a.shape)).encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _write_part(out: Path, j: int, part: dict, identity_sha: str) -> Path:
    import io

    arrays = {k: np.asarray(v) for k, v in part.items() if k != "timing"}
    meta = {"format": PART_FORMAT, "identity_sha256": identity_sha, "part": int(j),
            "timing": {k: float(v) for k, v in part["timing"].items()},
            "arrays_sha256": _arrays_sha(arrays)}
    buf = io.BytesIO()
    np.savez(buf, __meta__=np.array(json.dumps(meta, sort_keys=True)), **arrays)
    path = _part_path(out, j)
    write_bytes_atomic(path, buf.getvalue())
    return path


def read_part(path, identity_sha: str, j: int) -> tuple[dict | None, str]:
    """``(part, "ok")`` for a sound part file of this identity and index, else
    ``(None, reason)``: missing, unreadable, another identity or index, checksum mismatch.

    Parameters
    ----------
    path : path-like
        ``OUT/parts/part-NNN.npz``.
    identity_sha : str
        The run's identity.
    j : int
        The part's index.

    Returns
    -------
    (dict or None, str)
    """
    path = Path(path)
    if not path.exists():
        return None, "missing"
    try:
        with np.load(path, allow_pickle=False) as z:
            meta = json.loads(str(z["__meta__"]))
            arrays = {k: z[k] for k in z.files if k != "__meta__"}
    except Exception as exc:  # a truncated or foreign file: recompute it
        return None, f"unreadable ({type(exc).__name__})"
    if not isinstance(meta, dict) or meta.get("format") != PART_FORMAT:
        return None, "unknown format"
    if meta.get("identity_sha256") != identity_sha:
        return None, "another configuration's part"
    if meta.get("part") != j:
        return None, "filed under another index"
    if _arrays_sha(arrays) != meta.get("arrays_sha256"):
        return None, "checksum mismatch"
    part = dict(arrays)
    part["timing"] = dict(meta.get("timing") or {})
    return part, "ok"


def _read_store(out: Path) -> dict | None:
    try:
        doc = json.loads((Path(out) / STORE_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return doc if isinstance(doc, dict) else None


def check_advice_folder(out, *, overwrite: bool = False, inputs=()) -> Path:
    """Check, before any work, that the advisor may use the folder ``out``: a new folder
    (its parent exists), or an existing advisor folder (it holds ``advice-store.json``: the
    run resumes it, or refuses it when its configuration differs), or any existing folder with
    ``overwrite``. Not one of ``inputs``, not a file.

    Parameters
    ----------
    out : str or path-like
    overwrite : bool, default False
    inputs : iterable of path-like, default ()

    Returns
    -------
    Path

    Raises
    ------
    ValueError
        As :func:`rankfusion._utils.atomic.check_output_dir`, except for an advisor folder.
    """
    p = Path(out)
    resuming = p.is_dir() and (p / STORE_NAME).is_file()
    return check_output_dir(out, overwrite=overwrite or resuming, inputs=inputs)


def _differences(old: dict, new: dict) -> list[str]:
    keys = sorted(set(old) | set(new))
    return [k for k in keys if old.get(k) != new.get(k)]


def advise_in_folder(X, y, out, *, overwrite: bool = False, client=None,
                     scheduler: str | None = None, n_workers: int | None = None,
                     progress: bool | None = None, on_part: Callable | None = None,
                     inputs=(), extra: Mapping | None = None, **kwargs) -> AdviceFolderRun:
    """:func:`rankfusion.advise` with its parts filed in the folder ``out`` as they finish:
    a run that stops (killed, Ctrl-C, a failing part) resumes on the same folder without
    redoing the finished parts; on Dask, one future per part.

    Parameters
    ----------
    X, y
        The data, as for :func:`rankfusion.advise`.
    out : str or path-like
        The results folder: new (its parent must exist), or one this function wrote before
        with the same data and arguments (it resumes). Another configuration's folder is
        refused unless ``overwrite``, which discards its parts.
    overwrite : bool, default False
        Accept an existing folder that is not this run's.
    client : distributed.Client, optional
        Run the parts on this Dask cluster.
    scheduler : str, optional
        Address of a Dask scheduler (``tcp://host:8786``).
    n_workers : int, optional
        Start a local Dask cluster of this many single-threaded worker processes.
    progress : bool, optional
        Parts done, elapsed and estimated remaining time on standard error
        (:func:`rankfusion._utils.progress.progress_bar`); default: when it is a terminal.
    on_part : callable(j, status), optional
        Called after part j is filed (``"computed"``) or found sound (``"reused"``).
    inputs : iterable of path-like, default ()
        Files the run read; ``out`` may not be one of them.
    extra : Mapping, optional
        Further entries for ``summary.json``.
    **kwargs
        The keyword arguments of :func:`rankfusion.advise` (``n_jobs``: parts in parallel
        locally; the numbers do not depend on it).

    Returns
    -------
    AdviceFolderRun

    Raises
    ------
    ValueError
        ``out`` is a file or an input, its parent does not exist, it holds another
        configuration's parts (without ``overwrite``), or an argument of
        :func:`rankfusion.advise` is wrong.
    FolderLockedError
        Another live run uses ``out``.
    """
    from ..evaluation import write_advice
    from ..evaluation.advisor import advice_part, finish_advice, prepare_advice
    from .runner import dask_client

    t0 = time.perf_counter()
    if scheduler is not None and n_workers is not None:
        raise ValueError("give scheduler or n_workers (a local cluster), not both")
    if client is not None and (scheduler is not None or n_workers is not None):
        raise ValueError("give client, or scheduler / n_workers, not both")
    if n_workers is not None and (isinstance(n_workers, bool)
                                  or not isinstance(n_workers, (int, np.integer))):
        raise TypeError(f"n_workers must be an int ≥ 1, got {type(n_workers).__name__}")
    if n_workers is not None and n_workers < 1:
        raise ValueError(f"n_workers must be an int ≥ 1, got {n_workers}")
    if scheduler is not None and not isinstance(scheduler, str):
        raise TypeError(f"scheduler must be a Dask scheduler address (str) such as "
                        f"'tcp://host:8786', got {type(scheduler).__name__}")
    if scheduler is not None and not scheduler.strip():
        raise ValueError("scheduler must be a Dask scheduler address such as "
                         "'tcp://host:8786', got an empty string")
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be True, False or None, got {type(progress).__name__}")
    if on_part is not None and not callable(on_part):
        raise TypeError(f"on_part must be callable, got {type(on_part).__name__}")
    out = check_advice_folder(out, overwrite=overwrite, inputs=inputs)
    notes: list[str] = []
    stored = _read_store(out) if out.is_dir() else None
    if kwargs.get("random_state") is None and stored and "seed_entropy" in stored.get(
            "identity", {}):
        entropy = stored["identity"]["seed_entropy"]
        kwargs["random_state"] = np.random.SeedSequence(entropy)
        notes.append(f"random_state not given: resuming with the seed this folder recorded "
                     f"(entropy {entropy})")
    n_jobs = check_n_jobs(kwargs.get("n_jobs"))
    task = prepare_advice(X, y, **kwargs)  # every argument checked before the folder is used
    identity = json.loads(json.dumps(task.identity()))  # as the folder stores it
    sha = _sha(identity)
    out.mkdir(exist_ok=True)
    run_id = uuid.uuid4().hex
    lock = acquire_lock(out, config_sha256=sha, run_id=run_id)
    try:
        if lock.note:
            notes.append(lock.note)
        stored = _read_store(out)
        if stored is not None and stored.get("identity_sha256") != sha:
            diff = _differences(stored.get("identity", {}), identity)
            if not overwrite:
                raise another_configuration_error(
                    out, "advisor parts", f"it differs in: {', '.join(diff) or 'its identity'}",
                    overwrite="discard them")
            notes.append(f"discarded the parts of another configuration (it differed in: "
                         f"{', '.join(diff)})")
            for old in sorted((out / PARTS_DIR).glob("part-*.npz")):
                old.unlink()
        # the earlier runs' durations of this configuration (discarded with its parts)
        earlier = [float(v) for v in (stored or {}).get("seconds") or ()
                   if isinstance(v, (int, float)) and not isinstance(v, bool)] \
            if stored is not None and stored.get("identity_sha256") == sha else []

        def record(seconds: list) -> None:
            write_json_atomic(out / STORE_NAME, {"identity_sha256": sha, "identity": identity,
                                                 "parts": task.n_parts, "seconds": seconds})

        record(earlier)
        parts: list = [None] * task.n_parts
        run = AdviceFolderRun(None, out, sha, task.n_parts, 0, notes=notes)
        for j in range(task.n_parts):
            part, why = read_part(_part_path(out, j), sha, j)
            if part is not None:
                parts[j] = part
                run.reused += 1
                if on_part is not None:
                    on_part(j, "reused")
            elif why != "missing":
                run.recomputed[j] = why
        todo = [j for j in range(task.n_parts) if parts[j] is None]
        if progress is None:
            progress = sys.stderr.isatty()
        bar = progress_bar(task.n_parts, "advise", "parts", enabled=bool(progress and todo),
                           initial=run.reused)

        def filed(j: int, part: dict):
            _write_part(out, j, part, sha)
            parts[j] = part
            run.computed.append(j)
            if bar is not None:
                bar.update(1)
            if on_part is not None:
                on_part(j, "computed")

        own = None
        try:
            if todo and (client is not None or scheduler is not None or n_workers is not None):
                if client is None:
                    client = own = dask_client(scheduler, n_workers)
                run.backend = f"dask ({client.scheduler.address})"
                _run_dask(client, task, todo, sha, filed)
            elif todo and n_jobs not in (None, 1):
                from joblib import Parallel, delayed

                gen = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
                    delayed(_indexed)(task, j) for j in todo)
                for j, part in gen:
                    filed(j, part)
            else:
                for j in todo:
                    filed(j, advice_part(task, j))
        except BaseException:
            with contextlib.suppress(Exception):  # an interrupted run's time is kept too
                record([*earlier, time.perf_counter() - t0])
            raise
        finally:
            if bar is not None:
                bar.close()
            if own is not None:
                cluster = getattr(own, "cluster", None)
                own.close()
                if cluster is not None:
                    cluster.close()
        # this run's duration, measured once; the total adds it to the recorded ones
        run.seconds = [*earlier, time.perf_counter() - t0]
        record(run.seconds)
        advice = finish_advice(task, parts, seconds=float(sum(run.seconds)))
        advice.summary["seconds"]["runs"] = list(run.seconds)
        run.advice = advice
        info = {"store": {"identity_sha256": sha, "parts": task.n_parts,
                          "reused": run.reused, "computed": len(run.computed),
                          "recomputed": {str(k): v for k, v in run.recomputed.items()},
                          "backend": run.backend, "notes": notes}}
        info.update(dict(extra or {}))
        run.written = write_advice(advice, out, overwrite=True, inputs=inputs, extra=info)
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:  # the report's figures need it
            import warnings

            warnings.warn("advice.html not written: its figures need matplotlib "
                          "(pip install 'rankfusion[plot]'); advice.csv and summary.json are",
                          UserWarning, stacklevel=2)
        else:
            from .advice_report import write_advice_report

            run.written.append(write_advice_report(advice, out / "advice.html"))
    finally:
        lock.release()
    return run


def _indexed(task, j):
    from ..evaluation.advisor import advice_part

    return j, advice_part(task, j)


def _run_dask(client, task, todo, sha, filed):
    """One future per part, filed from the driver as each finishes (``as_completed``)."""
    from distributed import as_completed

    from ..evaluation.advisor import advice_part

    shared = client.scatter(task, broadcast=True, hash=False)
    futures = {client.submit(advice_part, shared, j, key=f"rankfusion-advice-{sha[:16]}-{j}",
                             pure=False): j for j in todo}
    for fut in as_completed(list(futures)):
        j = futures[fut]
        filed(j, fut.result())
        fut.release()
