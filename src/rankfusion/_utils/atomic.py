"""Writing result files safely: atomic replacement and output folders that are not clobbered.

A file is written to a temporary name in its own folder and moved into place with
:func:`os.replace` (atomic on POSIX and Windows for one file system), so an interrupted write
(Ctrl-C, a full disk) leaves either the old file or none — never a half-written one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = ["atomic_open", "atomic_write", "atomic_write_text", "check_output_dir",
           "check_output_file"]


@contextlib.contextmanager
def atomic_open(path, mode: str = "w", *, encoding: str = "utf-8"):
    """Write a file all at once: yield a handle on a temporary file in the same folder, then
    rename it over ``path`` (``os.replace``) after an ``fsync``; on an error the temporary file
    is removed and ``path`` is untouched. The file keeps an existing file's permissions (a new
    one gets the umask's). A device or pipe (``/dev/stdout``) is written directly.

    Parameters
    ----------
    path : str or path-like
        The file to write.
    mode : str, default "w"
        ``"w"`` for text, ``"wb"`` for bytes.
    encoding : str, default "utf-8"
        Text encoding (text mode).

    Yields
    ------
    file object

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     with atomic_open(os.path.join(d, "a.txt")) as fh:
    ...         _ = fh.write("x")
    ...     print(open(os.path.join(d, "a.txt")).read(), os.listdir(d))
    x ['a.txt']
    """
    path = os.fspath(path)
    binary = "b" in mode
    text_kw = {} if binary else {"encoding": encoding, "newline": ""}
    if os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path):
        with open(path, mode, **text_kw) as fh:
            yield fh
        return
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp",
                               dir=folder)
    try:
        with os.fdopen(fd, mode, **text_kw) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def atomic_write(path, write: Callable) -> Path:
    """Call ``write(fh)`` with a binary handle (:func:`atomic_open`), then move the file onto
    ``path`` atomically; returns the path."""
    with atomic_open(path, "wb") as fh:
        write(fh)
    return Path(path)


def atomic_write_text(path, text: str, *, encoding: str = "utf-8") -> Path:
    """Write ``text`` to ``path`` atomically (:func:`atomic_open`)."""
    with atomic_open(path, "w", encoding=encoding) as fh:
        fh.write(text)
    return Path(path)


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
    unless ``overwrite``. Nothing is created. Returns the path.

    Parameters
    ----------
    path : str or path-like
        The results folder.
    overwrite : bool, default False
        Accept an existing folder.
    inputs : iterable of path-like, default ()
        The files the run reads.
    name : str, default "--out"
        The argument's name in error messages.

    Returns
    -------
    pathlib.Path
    """
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
