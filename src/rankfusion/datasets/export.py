"""Write a bundled data set to a file: :func:`export_dataset` (``rankfusion datasets --export``).

The file holds the features and the class, one row per sample, in the encoding of
``load(name, as_frame=True).frame``: numeric attributes as numbers, nominal attributes as
their values, missing values as empty cells (CSV) or nulls (Parquet), and the class last in
the column :data:`TARGET_COLUMN`. The format is chosen by the file name's ending, one of
:data:`EXPORT_FORMATS`; any other ending is refused, never guessed. An existing file is
replaced only with ``force=True``; the file is written under a temporary name in the same
folder and moved into place, so an interrupted export leaves no half-written file.
"""

from __future__ import annotations

import os
from pathlib import Path

from .._utils.validation import check_bool
from .loaders import _resolve, load

__all__ = ["export_dataset", "EXPORT_FORMATS", "TARGET_COLUMN"]

#: The file-name endings :func:`export_dataset` accepts (case-insensitive) and their formats.
EXPORT_FORMATS = {".csv": "csv", ".csv.gz": "csv.gz", ".parquet": "parquet"}

#: The name of the class column in an exported file (the last column).
TARGET_COLUMN = "class"


def _format_of(path: Path) -> str:
    low = path.name.lower()
    for ending in sorted(EXPORT_FORMATS, key=len, reverse=True):
        if low.endswith(ending) and len(low) > len(ending):
            return EXPORT_FORMATS[ending]
    accepted = ", ".join(EXPORT_FORMATS)
    raise ValueError(f"out: cannot tell the format of {str(path)!r}; the name must end in "
                     f"one of {accepted} (CSV, gzip-compressed CSV, Parquet)")


def _check_out(out) -> tuple[Path, str]:
    if isinstance(out, bytes) or not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"out must be a file name (str or path) or a writable text stream, "
                        f"got {type(out).__name__}")
    text = os.fspath(out)
    if not isinstance(text, str) or not text.strip():
        raise ValueError("out must name a file, got an empty name")
    path = Path(text)
    if path.is_dir():
        raise ValueError(f"out: {text!r} is a folder; give a file name ending in "
                         f"{', '.join(EXPORT_FORMATS)}")
    fmt = _format_of(path)
    parent = path.parent
    if not parent.exists():
        raise ValueError(f"out: the folder {str(parent)!r} of {text!r} does not exist "
                         "(create it first)")
    if not parent.is_dir():
        raise ValueError(f"out: {str(parent)!r} (the folder of {text!r}) is not a folder")
    return path, fmt


def export_dataset(name: str, out, *, force: bool = False) -> Path | None:
    """Write the bundled data set ``name`` to ``out`` as CSV or Parquet.

    Parameters
    ----------
    name : str
        A name of :func:`rankfusion.datasets.available_datasets` (as :func:`load` reads it:
        case-insensitive, ``-`` and ``_`` alike, the same aliases). An unknown name is refused
        with the closest known names.
    out : str, path or text stream
        The file to write; its ending chooses the format: ``.csv``, ``.csv.gz`` (gzip) or
        ``.parquet`` (:data:`EXPORT_FORMATS`; any other ending is an error). A writable text
        stream (``sys.stdout``) receives the CSV text.
    force : bool, default=False
        Replace ``out`` when it exists (else an existing file is an error).

    Returns
    -------
    pathlib.Path or None
        The file written, or None when ``out`` is a stream.

    Raises
    ------
    TypeError
        ``name`` not a str, ``out`` neither a path nor a stream, ``force`` not a bool.
    ValueError
        Unknown ``name``; ``out`` with another ending, an empty name, a folder, in a folder
        that does not exist, or an existing file without ``force``.
    FileNotFoundError
        A data set that is not shipped with the package and is not under ``RANKFUSION_DATA``.

    See Also
    --------
    rankfusion.datasets.load : the same data as arrays or DataFrames.
    rankfusion.io.load_data : reads the exported file back (the class is the last column).

    Examples
    --------
    >>> import io
    >>> from rankfusion.datasets import export_dataset
    >>> buffer = io.StringIO()
    >>> export_dataset("iris", buffer)
    >>> print(buffer.getvalue().splitlines()[0])
    sepallength,sepalwidth,petallength,petalwidth,class
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a str, got {type(name).__name__}")
    force = check_bool(force, "force")
    stream = out if hasattr(out, "write") and not isinstance(out, (str, os.PathLike)) else None
    if stream is None:
        path, fmt = _check_out(out)
        if path.exists() and not force:
            raise ValueError(f"out: {os.fspath(out)!r} exists; pass force=True "
                             "(rankfusion datasets --force) to replace it")
    key = _resolve(name)  # an unknown name fails before anything is read or written
    frame = load(key, as_frame=True).frame
    if stream is not None:
        frame.to_csv(stream, index=False)
        return None
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        if fmt == "parquet":
            frame.to_parquet(tmp, index=False)
        else:
            text = frame.to_csv(index=False)
            if fmt == "csv.gz":
                import gzip

                # no name, mtime=0: the same data give the same bytes
                with open(tmp, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw,
                                                           mode="wb", mtime=0) as fh:
                    fh.write(text.encode("utf-8"))
            else:
                with open(tmp, "w", encoding="utf-8", newline="") as fh:
                    fh.write(text)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
    return path

