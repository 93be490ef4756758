"""CSV reading that gives back the very doubles the file spells.

pandas before 3.0 parses floats with a fast converter that is not round-trip exact: on pandas
1.5, about half the values that Weka or R print with 17 significant digits come back one unit in
the last place off. pandas 3.0 made the exact (round-trip) converter the default and deprecated
the option. Every CSV the library reads goes through :func:`read_csv`, so a number reads the same
on every supported pandas (docs/design.md, 'Inputs').
"""

from __future__ import annotations

import pandas as pd

__all__ = ["read_csv", "EXACT_FLOATS"]

#: Keyword arguments that make ``pandas.read_csv`` round-trip exact on the installed pandas.
EXACT_FLOATS: dict = ({} if int(pd.__version__.split(".")[0]) >= 3
                      else {"float_precision": "round_trip"})


def read_csv(*args, **kwargs) -> pd.DataFrame:
    """``pandas.read_csv`` with round-trip exact float parsing on every pandas version.

    Takes the arguments of :func:`pandas.read_csv`; ``float_precision`` is set by this function
    (on pandas < 3.0, ``"round_trip"``; on 3.0 and later, the default, which is exact).
    """
    if "float_precision" in kwargs:
        raise TypeError("read_csv sets float_precision itself (round-trip exact)")
    return pd.read_csv(*args, **kwargs, **EXACT_FLOATS)
