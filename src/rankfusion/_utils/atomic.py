"""Writing result files safely: atomic replacement and output folders that are not clobbered.

A file is written to a temporary name in its own folder and moved into place with
:func:`os.replace` (atomic on POSIX and Windows for one file system), so an interrupted write
(Ctrl-C, a full disk) leaves either the old file or none — never a half-written one.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = ["atomic_write", "atomic_write_text", "check_output_dir", "check_output_file"]


def atomic_write(path, write: Callable[[str], object]) -> Path:
    """Call ``write(tmp_path)`` to produce the file, then move it onto ``path`` atomically.

    The temporary file lives in ``path``'s folder (same file system) and is removed if
    ``write`` raises or the process is interrupted before the move.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def atomic_write_text(path, text: str, *, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically (:func:`atomic_write`)."""

    def write(tmp):
        with open(tmp, "w", encoding=encoding, newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())

    return atomic_write(path, write)


def check_output_file(path, *, name: str = "--plot", suffixes: Iterable[str] | None = None,
                      inputs: Iterable = ()) -> Path:
    """Check, before any work, that a result file can be written at ``path``: its folder exists,
    it is not a folder, not one of the ``inputs`` files, and has one of ``suffixes``."""
    p = Path(path)
    if str(path) == "" or p.is_dir():
        raise ValueError(f"{name} must name a file, got {str(path)!r}")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise ValueError(f"{name}: the folder {str(parent)!r} does not exist")
    if suffixes is not None:
        allowed = sorted({s.lower().lstrip(".") for s in suffixes})
        if p.suffix.lower().lstrip(".") not in allowed:
            raise ValueError(f"{name}: {str(path)!r} needs one of the suffixes "
                             f"{', '.join('.' + s for s in allowed)}")
    for other in inputs:
        if other is not None and Path(other).exists() and p.exists() and \
                os.path.samefile(p, other):
            raise ValueError(f"{name} {str(path)!r} is an input file; choose another name")
    return p


def check_output_dir(path, *, overwrite: bool = False, inputs: Iterable = (),
                     name: str = "--out") -> Path:
    """Check, before any work, that the results may go to the folder ``path``: it is not one of
    the ``inputs`` files, not an existing file, its parent exists, and it does not exist yet
    unless ``overwrite``. Nothing is created. Returns the path."""
    if path is None or str(path) == "":
        raise ValueError(f"{name} must name a folder")
    p = Path(path)
    resolved = p.resolve()
    for other in inputs:
        if other is not None and Path(other).resolve() == resolved:
            raise ValueError(f"{name} {str(path)!r} is the input file itself; choose a folder "
                             "for the results")
    if p.exists() and not p.is_dir():
        raise ValueError(f"{name} {str(path)!r} exists and is not a folder")
    if p.exists() and not overwrite:
        raise ValueError(f"{name} {str(path)!r} exists; choose a new folder or pass "
                         "--overwrite to replace its result files")
    parent = resolved.parent
    if not parent.is_dir():
        raise ValueError(f"{name}: the folder {str(parent)!r} does not exist")
    return p
