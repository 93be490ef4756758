"""Output files, written safely (docs/design.md, 'Outputs').

:func:`safe_output_path` and :func:`atomic_write` are what every command uses for ``--out``:
an output never replaces an input file, never replaces an existing file unless asked, and is
written to a temporary file renamed into place, so that a failure leaves no half-written file.
:func:`protect_csv_cells` keeps the text cells of a table from running as spreadsheet formulas.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from .._utils.atomic import atomic_open
from .inputs import _STDIN

__all__ = ["safe_output_path", "atomic_write", "protect_csv_cells"]


def safe_output_path(out, inputs: Iterable = (), *, overwrite: bool = False,
                     option: str = "--out") -> Path:
    """Check an output file name before any work is done; return it as a ``Path``.

    Refuses (``ValueError``) an output that is one of ``inputs`` (compared after resolving
    links and relative paths, and by ``os.path.samefile``), a directory, a file in a folder
    that does not exist, and (``FileExistsError``) an existing file unless ``overwrite``.
    ``option`` names the argument in the messages. Devices and pipes (``/dev/stdout``) are
    accepted as they are.

    Parameters
    ----------
    out : str or path-like
        The output file.
    inputs : iterable of path-like, default ()
        The files the run reads.
    overwrite : bool, default False
        Accept an existing file.
    option : str, default "--out"
        The argument's name in error messages.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     data = os.path.join(d, "data.csv")
    ...     open(data, "w").close()
    ...     try:
    ...         safe_output_path(data, [data])
    ...     except ValueError as exc:
    ...         print(str(exc).split("; ")[1])
    ...     safe_output_path(os.path.join(d, "out.csv"), [data]).name
    choose another name (an input is never overwritten)
    'out.csv'
    """
    if out is None or str(out).strip() == "":
        raise ValueError(f"{option} needs a file name")
    path = Path(out)
    special = path.exists() and not path.is_file() and not path.is_dir()
    target = path.resolve()
    for inp in inputs:
        if inp is None or str(inp) in _STDIN:
            continue
        ip = Path(inp)
        try:
            same = os.path.samefile(path, ip) if path.exists() and ip.exists() else \
                target == ip.resolve()
        except OSError:
            same = False
        if same and not special:
            raise ValueError(f"{option} {out} is the input file {inp}; choose another name "
                             "(an input is never overwritten)")
    if special:
        return path
    if path.is_dir():
        raise IsADirectoryError(f"{option} {out} is a directory; give a file name")
    if not target.parent.is_dir():
        raise FileNotFoundError(f"{option} {out}: the folder {target.parent} does not exist")
    if path.exists() and not overwrite:
        raise FileExistsError(f"{option} {out} exists; pass --overwrite to replace it "
                              "(overwrite=True)")
    return path



atomic_write = atomic_open  # the one atomic writer (rankfusion._utils.atomic.atomic_open)



def protect_csv_cells(frame):
    """A copy of ``frame`` whose text cells, column names and index labels cannot run as
    spreadsheet formulas (a leading ``'``; numbers untouched): the protection every CSV writer
    applies (:func:`rankfusion._utils.tabular.protect_frame`; docs/design.md, 'Outputs').

    Parameters
    ----------
    frame : pandas.DataFrame or pandas.Series
        The table to write; anything else is a ``TypeError``.

    Returns
    -------
    pandas.DataFrame or pandas.Series
        A protected copy; the caller's frame is not modified.
    """
    from .._utils.tabular import protect_frame

    return protect_frame(frame)
