"""Helpers shared by the reproduction scripts (``experiments/<paper>/tables.py``): the tidy
results of a runner folder, finished or stopped, and markdown tables without optional
dependencies. A script imports it with its parent folder on ``sys.path``::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tables_common import md_table, results_of
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from rankfusion.experiments import read_results


def results_of(folder) -> pd.DataFrame:
    """The tidy results of a runner folder: ``results.parquet``, or for a stopped run the
    cells finished so far (``read_results(..., partial=True)``)."""
    return read_results(Path(folder), partial=True)[0]


def md_table(df: pd.DataFrame, floatfmt: str = "{:.4f}") -> str:
    """A DataFrame as a markdown table (index included)."""
    df = df.reset_index()
    fmt = [(lambda v: floatfmt.format(v)) if pd.api.types.is_float_dtype(t) else str
           for t in df.dtypes]
    head = "| " + " | ".join(map(str, df.columns)) + " |"
    sep = "|" + "---|" * df.shape[1]
    body = ["| " + " | ".join(f(v) for f, v in zip(fmt, row)) + " |"
            for row in df.itertuples(index=False)]
    return "\n".join([head, sep, *body])
