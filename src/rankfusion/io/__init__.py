"""Reading classification data and ranked lists, and writing output files safely.

:func:`load_data` returns the features as a DataFrame (nominal attributes as pandas categoricals
in their declared order or text columns, NaN for missing values) and the target as a Series.
The target is the column named (or numbered) by ``target``; by default the last column, as
Weka does. Every input is read once (``"-"`` is standard input) and read as the user meant it
or refused with one message naming the file, the place and the fix (docs/design.md,
'Inputs'): a column is numeric or nominal by one rule, a cell that breaks a numeric column is
an error unless it is a declared missing-value marker, identifier-like columns and duplicate
column names are refused.

:func:`read_arff` is a small reader for Weka's ARFF format (dense and sparse rows, nominal
attributes with their declared values, ``?`` for missing, quoted names and values, comments),
written because ``scipy.io.arff`` drops the declared category order of nominal attributes
(it returns bytes) and cannot read sparse rows or quoted values containing commas reliably.

:func:`read_lists` and :func:`write_lists` read and write ranked lists (scores, positions or
orders) as CSV files; :class:`~rankfusion.RankedLists` itself reads and writes no files.
:func:`standardize` z-scores the columns of a feature matrix.

:func:`read_sparse_arff` and :func:`read_svmlight` read sparse data files into
``scipy.sparse`` CSR matrices (``load_data`` uses them for ``sparse=True`` and svmlight
files); :func:`densify` makes a sparse matrix dense when asked, within the memory check
(docs/design.md, 'Sparse input').

:func:`safe_output_path` and :func:`atomic_write` are what every command uses for ``--out``:
an output never replaces an input file, never replaces an existing file unless asked, and is
written to a temporary file renamed into place, so that a failure leaves no half-written file.

Modules (one topic each)
------------------------
``inputs``
    Reading an input file once (standard input, gzip, text encodings, the format of a data
    file): :func:`read_input`, :class:`InputWarning`.
``csv_text``
    CSV rows, the separator, the syntax of numbers and missing-value markers
    (:data:`DEFAULT_NA_VALUES`), shared by data files and list files.
``arff``
    :func:`read_arff`.
``columns``
    The columns of a data table: numeric or nominal, the target column, identifier-like
    columns refused.
``data_files``
    :func:`load_data` and :func:`read_small` (:data:`SMALL_CELLS`).
``list_files``
    :func:`read_lists`, :func:`write_lists` (:data:`LIST_KINDS`).
``outputs``
    :func:`safe_output_path`, :func:`atomic_write`, :func:`protect_csv_cells`.
``preparation``
    :func:`standardize`.
``sparse_files``
    :func:`read_sparse_arff`, :func:`read_svmlight`, :func:`densify`.
"""

from .arff import read_arff
from .csv_text import DEFAULT_NA_VALUES
from .data_files import SMALL_CELLS, load_data, read_small
from .inputs import InputWarning, read_input
from .list_files import LIST_KINDS, read_lists, write_lists
from .outputs import atomic_write, protect_csv_cells, safe_output_path
from .preparation import standardize
from .sparse_files import densify, read_sparse_arff, read_svmlight

__all__ = ["read_arff", "load_data", "read_lists", "write_lists", "LIST_KINDS", "standardize",
           "DEFAULT_NA_VALUES", "InputWarning", "read_input", "safe_output_path",
           "atomic_write", "protect_csv_cells", "read_small", "SMALL_CELLS",
           "read_sparse_arff", "read_svmlight", "densify"]
