"""What every workflow result has in common: its tables, its printed summary, the formats it
is printed in, and its output files, checked before the work and written atomically
(docs/design.md, 'Outputs' and 'Inputs', 'Overwriting').

A result of a ``run_*`` function (:class:`~rankfusion.workflows.SelectionRun`,
:class:`~rankfusion.workflows.RankingRun`, …) is a :class:`WorkflowRun`:

* ``tables()`` — name → DataFrame, the tables its summary shows (``MAIN_TABLE`` names the
  main one);
* ``summary()`` — the text ``rankfusion COMMAND`` prints (``--output-format table``);
* ``notes()`` — the summary's comment lines (data, seeds, files written), which the command
  line sends to standard error when standard output holds data;
* ``render(output_format)`` — the summary, or the tables as CSV, TSV or JSON
  (:data:`OUTPUT_FORMATS`);
* ``save(out)`` — the files ``--out`` writes, or the main one into a text stream.
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Iterable, Mapping

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["OUTPUT_FORMATS", "WorkflowRun", "render_tables", "check_output_files",
           "is_stream"]

#: What ``--output-format`` takes: ``table`` (the summary, for people), ``csv``, ``tsv``
#: (the main table, read back by ``pandas.read_csv``) and ``json`` (records: a list of row
#: objects, or an object of such lists when the command shows several tables).
OUTPUT_FORMATS = ("table", "csv", "tsv", "json")


def is_stream(out) -> bool:
    """Whether ``out`` is a text stream (it has ``write``) rather than a file name.

    Parameters
    ----------
    out : object
        A path-like or a stream.

    Returns
    -------
    bool
    """
    return hasattr(out, "write")


def _flat(frame: pd.DataFrame) -> tuple[pd.DataFrame, bool]:
    """``(frame, index)``: the frame to write and whether its index is written (a default
    0…n-1 index without a name is not data)."""
    import pandas as pd

    idx = frame.index
    if isinstance(idx, pd.RangeIndex) and idx.name is None and idx.start == 0 \
            and idx.step == 1:
        return frame, False
    return frame, True


def _cell(value):
    """A JSON value from a table cell: NaN → null, numpy numbers → Python numbers."""
    if value is None or isinstance(value, (str, bool)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        v = float(value)
        return v if v == v and v not in (float("inf"), -float("inf")) else None
    try:
        if value != value:  # pandas' NA / NaT
            return None
    except (TypeError, ValueError):
        pass
    return str(value)


def _records(frame: pd.DataFrame) -> list[dict]:
    frame, with_index = _flat(frame)
    if with_index:
        frame = frame.copy()
        frame.index.names = [n if n is not None else "index" for n in frame.index.names]
        frame = frame.reset_index()
    cols = [str(c) for c in frame.columns]
    return [{c: _cell(v) for c, v in zip(cols, row)}
            for row in frame.itertuples(index=False, name=None)]


def render_tables(tables: Mapping[str, pd.DataFrame], main: str, output_format: str) -> str:
    """Tables as ``csv`` or ``tsv`` (the ``main`` one; cells that a spreadsheet would run are
    protected as in every CSV file, docs/design.md, 'Outputs') or ``json`` (records: the
    ``main`` table's rows when it is the only table, else an object name → rows).

    A named or non-default index is written as the first column (read it back with
    ``pandas.read_csv(..., index_col=0)``); missing values are empty in CSV and ``null`` in
    JSON.

    Parameters
    ----------
    tables : mapping of str → DataFrame
        The tables, in order.
    main : str
        The table ``csv`` and ``tsv`` write.
    output_format : {"csv", "tsv", "json"}
        The format.

    Returns
    -------
    str
        The text, ending with a newline.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"score": [0.5, 0.25]}, index=pd.Index(["a", "b"], name="feature"))
    >>> print(render_tables({"scores": t}, "scores", "csv"), end="")
    feature,score
    a,0.5
    b,0.25
    >>> print(render_tables({"scores": t}, "scores", "json"))
    [{"feature": "a", "score": 0.5}, {"feature": "b", "score": 0.25}]
    """
    from .._utils.tabular import to_csv

    if output_format in ("csv", "tsv"):
        frame, with_index = _flat(tables[main])
        return to_csv(frame, index=with_index, sep="," if output_format == "csv" else "\t")
    if output_format == "json":
        if list(tables) == [main]:
            return json.dumps(_records(tables[main]), ensure_ascii=False) + "\n"
        return json.dumps({name: _records(t) for name, t in tables.items()},
                          ensure_ascii=False) + "\n"
    raise ValueError(f"output_format must be one of {', '.join(OUTPUT_FORMATS)}, got "
                     f"{output_format!r}")


def check_output_files(outputs: Mapping[str, object], inputs: Iterable = (), *,
                       overwrite: bool = False) -> dict:
    """Check output files before any work: never an input, never an existing file without
    ``overwrite``, never two names for one file (``rankfusion.io.safe_output_path``).

    Parameters
    ----------
    outputs : mapping of str → path-like or None
        Option name (as messages name it, ``"--out"``) → file; None entries and streams are
        skipped.
    inputs : iterable of path-like, default ()
        The files the run reads.
    overwrite : bool, default False
        Accept existing files.

    Returns
    -------
    dict of str → Path
        The checked paths of the options given.
    """
    from ..io import safe_output_path

    inputs = list(inputs)
    paths: dict = {}
    for flag, value in outputs.items():
        if value is None or is_stream(value):
            continue
        if str(value).strip() == "-":
            raise ValueError(f"{flag} -: '-' is standard output, not a file name; give a file "
                             "name, or write the table to a stream")
        path = safe_output_path(value, inputs, overwrite=overwrite, option=flag)
        for oflag, opath in paths.items():
            if path.resolve() == opath.resolve():
                raise ValueError(f"{flag} and {oflag} name the same file {value}")
        paths[flag] = path
    return paths


def write_csv_file(frame: pd.DataFrame, out, **kwargs) -> None:
    """Write ``frame`` as CSV to the file ``out`` atomically (a temporary file renamed into
    place), or to the stream ``out``; text cells are protected against spreadsheet formulas
    (docs/design.md, 'Outputs')."""
    from ..io import atomic_write, protect_csv_cells

    if is_stream(out):
        protect_csv_cells(frame).to_csv(out, **kwargs)
        return
    with atomic_write(out) as fh:
        protect_csv_cells(frame).to_csv(fh, **kwargs)


def inputs_of(data) -> list:
    """``[data]`` when ``data`` names a file (the outputs may not replace it), else ``[]``."""
    import os

    return [data] if isinstance(data, (str, os.PathLike)) else []


def source_name(data) -> str:
    """How the notes name the input: a file's name as given, else ``<DataFrame>`` (the type
    of an object given in memory)."""
    import os

    if isinstance(data, (str, os.PathLike)):
        return str(data)
    return f"<{type(data).__name__}>"


def jsonable(value):
    """``value`` with numpy numbers, tuples and arrays turned into JSON types (NaN → None)."""
    import numpy as np

    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        v = float(value)
        return v if np.isfinite(v) else None
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [jsonable(v) for v in value]
    return repr(value)


class WorkflowRun:
    """The common part of the workflow results (module docstring).

    Subclasses define ``tables()``, ``summary()``, ``notes()`` and ``save()``, and name their
    main table in ``MAIN_TABLE``.
    """

    #: The table ``--output-format csv|tsv`` prints.
    MAIN_TABLE: str = ""

    def tables(self) -> dict:
        """The tables the summary shows, name → DataFrame (the main one first).

        Returns
        -------
        dict of str → DataFrame
        """
        raise NotImplementedError(f"{type(self).__name__} must define tables()")

    def summary(self) -> str:
        """The text the command prints (``--output-format table``).

        Returns
        -------
        str
            Without a final newline.
        """
        raise NotImplementedError(f"{type(self).__name__} must define summary()")

    def notes(self) -> list[str]:
        """The summary's comment lines (what was read, seeds, files written) without their
        ``#``: the command line prints them on standard error when standard output holds
        data (``--output-format csv|tsv|json``, ``--out -``).

        Returns
        -------
        list of str
        """
        return []

    def render(self, output_format: str = "table") -> str:
        """The result as ``output_format`` (:data:`OUTPUT_FORMATS`): ``table`` is
        :meth:`summary`; ``csv`` and ``tsv`` the main table (``MAIN_TABLE``); ``json`` the
        records of every table (:func:`render_tables`).

        Parameters
        ----------
        output_format : {"table", "csv", "tsv", "json"}, default "table"
            The format.

        Returns
        -------
        str
            The text, ending with a newline.
        """
        if output_format == "table":
            return self.summary() + "\n"
        return render_tables(self.tables(), self.MAIN_TABLE, output_format)
