"""The lock of a results folder: one run at a time per ``--out`` folder.

A run takes the lock before it touches the folder (``OUT/.rankfusion.lock``) and releases it
when it ends, however it ends; a second run on the same folder while the first is alive is
refused with ``another run (pid …, started …) is using DIR``. The lock is a file created with
``O_CREAT | O_EXCL`` (atomic on POSIX and Windows, also on NFS v3 and later), holding one JSON
object: the run's pid, host, start time (UTC), the SHA-256 of its configuration and its run id.

A lock left by a run that was killed (``kill -9``, power loss) is *stale* and is taken over with
a note (docs/experiments.md, 'Running twice on one folder'):

* on this host, the pid is not alive, or it is alive but started after the lock was written
  (the pid was reused by another process; Linux ``/proc`` start times);
* an empty or unreadable lock file older than :data:`UNREADABLE_GRACE` seconds (a run killed
  between creating and writing it).

A lock written on **another host** is never taken over: this machine cannot see whether that
run is alive (a shared file system). The error says how to remove it by hand once the user knows
the run has ended. The takeover itself is guarded by a second ``O_EXCL`` file, so two runs that
find the same stale lock cannot both take it.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LOCK_NAME", "FolderLock", "FolderLockedError", "acquire_lock", "lock_holder",
           "read_lock", "stale_reason", "UNREADABLE_GRACE"]

LOCK_NAME = ".rankfusion.lock"
_GUARD_NAME = ".rankfusion.lock.takeover"
#: Seconds after which an empty or unparsable lock file is taken as stale.
UNREADABLE_GRACE = 10.0


class FolderLockedError(OSError):
    """Another live run holds the lock of the results folder (or may: another host)."""


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def read_lock(path: Path) -> dict | None:
    """The lock's fields, or None when the file is empty or not a JSON object."""
    try:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return doc if isinstance(doc, dict) else None


def _process_start(pid: int) -> float | None:
    """Start time (epoch seconds) of ``pid`` from Linux ``/proc``, or None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            stat = fh.read()
        ticks = int(stat.rsplit(")", 1)[1].split()[19])
        with open("/proc/stat", encoding="ascii") as fh:
            btime = next(int(line.split()[1]) for line in fh if line.startswith("btime"))
        return btime + ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError, StopIteration, AttributeError):
        return None


def _pid_alive(pid: int) -> bool:
    """Whether process ``pid`` runs on this host; a zombie (killed, not yet reaped by its
    parent: Linux ``/proc`` state ``Z``) is dead."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        pass
    except (OSError, OverflowError):  # pragma: no cover - Windows: not a probe; huge pid
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            state = fh.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state not in ("Z", "X", "x")


def stale_reason(doc: dict | None, mtime: float, *, now: float | None = None) -> str | None:
    """Why the lock ``doc`` (file modified at ``mtime``) is stale, or None if it may be live."""
    now = time.time() if now is None else now
    if doc is None:
        if now - mtime > UNREADABLE_GRACE:
            return f"the lock file is empty or unreadable and {now - mtime:.0f} s old"
        return None
    pid, host, started = doc.get("pid"), doc.get("host"), doc.get("started_epoch")
    if host != socket.gethostname():
        return None  # cannot tell from here: the caller refuses (conservative)
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0:
        return f"the lock names no valid pid ({pid!r})"
    if not _pid_alive(pid):
        return f"process {pid} is not running"
    start = _process_start(pid)
    if start is not None and isinstance(started, (int, float)) and start > started + 2.0:
        return (f"process {pid} started at {_iso(start)}, after the lock was written "
                f"(the pid was reused)")
    return None


def _describe(doc: dict | None) -> str:
    if doc is None:
        return "a run that is still writing its lock"
    return (f"pid {doc.get('pid')}, started {doc.get('started')}"
            + (f" on host {doc.get('host')}" if doc.get("host") != socket.gethostname() else ""))


def lock_holder(folder) -> str | None:
    """A sentence naming the run that holds ``folder``'s lock (``another run (pid …, started
    …) is using DIR``), a note on a stale lock, or None when the folder is free."""
    path = Path(folder) / LOCK_NAME
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return None
    doc = read_lock(path)
    why = stale_reason(doc, mtime)
    if why is not None:
        return f"{path} is a stale lock ({why}); the next run takes it over"
    verb = "may be using" if doc is not None and doc.get("host") != socket.gethostname() \
        else "is using"
    return f"another run ({_describe(doc)}) {verb} {folder}"


@dataclass
class FolderLock:
    """A held lock; :meth:`release` removes the file if it is still this run's."""

    path: Path
    info: dict
    note: str | None = None  # set when a stale lock was taken over

    def release(self) -> None:
        doc = read_lock(self.path)
        if doc is not None and doc.get("run_id") == self.info["run_id"]:
            with contextlib.suppress(OSError):
                self.path.unlink()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()


def _create(path: Path, info: dict) -> bool:
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    try:
        os.write(fd, (json.dumps(info, sort_keys=True) + "\n").encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    return True


def acquire_lock(folder, *, config_sha256: str, run_id: str) -> FolderLock:
    """Take the lock of the results folder ``folder`` (which must exist).

    Parameters
    ----------
    folder : path
        The results folder.
    config_sha256 : str
        SHA-256 of the run's configuration text (written into the lock).
    run_id : str
        The run's id (the lock is released only by the run that holds it).

    Returns
    -------
    FolderLock
        ``note`` says which stale lock was taken over, if any.

    Raises
    ------
    FolderLockedError
        A live run on this host holds the lock, or a run on another host does (which cannot be
        checked from here: the message says how to remove the lock by hand).
    """
    folder = Path(folder)
    path = folder / LOCK_NAME
    now = time.time()
    info = {"pid": os.getpid(), "host": socket.gethostname(), "started": _iso(now),
            "started_epoch": now, "config_sha256": config_sha256, "run_id": run_id}
    note = None
    for _ in range(50):
        if _create(path, info):
            return FolderLock(path, info, note)
        try:
            mtime = path.stat().st_mtime
        except FileNotFoundError:
            continue  # released meanwhile: try again
        doc = read_lock(path)
        why = stale_reason(doc, mtime)
        if why is None:
            if doc is not None and doc.get("host") != socket.gethostname():
                raise FolderLockedError(
                    f"another run ({_describe(doc)}) may be using {folder}: its host is not "
                    f"this one ({socket.gethostname()}), so rankfusion cannot check whether it "
                    f"is still running. If it has ended (killed or its machine stopped), "
                    f"delete {path} and run again; else wait for it or choose another --out "
                    "folder")
            raise FolderLockedError(
                f"another run ({_describe(doc)}) is using {folder}; wait for it to end or "
                f"choose another --out folder (its lock: {path})")
        guard = folder / _GUARD_NAME
        if not _create(guard, info):
            with contextlib.suppress(OSError):
                if time.time() - guard.stat().st_mtime > UNREADABLE_GRACE:
                    guard.unlink()  # a run killed while taking over
            time.sleep(0.05)
            continue
        try:
            with contextlib.suppress(FileNotFoundError):
                # still the very lock judged stale (not a new run's, written meanwhile)
                if read_lock(path) == doc and path.stat().st_mtime == mtime:
                    path.unlink()
                    note = f"took over the stale lock of {folder} ({_describe(doc)}): {why}"
        finally:
            with contextlib.suppress(OSError):
                guard.unlink()
    raise FolderLockedError(f"could not take the lock of {folder} ({path}); another run keeps "
                            "taking it: wait for it to end or choose another --out folder")
