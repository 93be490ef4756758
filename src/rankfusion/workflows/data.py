"""Reading the data set a workflow works on: one reader, the same options for every command
that reads a data file (``--target``, ``--format``, ``--drop``, ``--na-values``,
``--nominal``, ``--sep``, ``--encoding``; docs/design.md, 'Inputs')."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["read_data", "DATA_OPTIONS"]

#: The keyword arguments of :func:`read_data` after ``source`` and ``target``, which every
#: ``run_*`` function that reads a data file takes alike.
DATA_OPTIONS = ("format", "drop", "na_values", "nominal", "sep", "encoding")


def read_data(source, target=None, *, format: str | None = None, drop=None,
              na_values: Sequence[str] | None = None, nominal=None, sep: str | None = None,
              encoding: str = "utf-8", sparse: bool = False, task: str | None = None,
              zero_based: bool = False, n_features: int | None = None,
              accept_sparse=False, sparse_frame: bool = False):
    """Features and class of a data file, by :func:`rankfusion.io.load_data`.

    Parameters
    ----------
    source : str, path-like or DataFrame
        The data (``-`` = standard input).
    target : str, int or None, default None
        The class column: a name, or a 0-based position (-1 = last); None = the last column.
    format : {"csv", "arff", "parquet", "svmlight", "libsvm"}, optional
        The file format; default: from the file name (``.svm``, ``.svmlight``, ``.libsvm``
        are svmlight).
    drop : str or sequence of str, optional
        Columns that are not features (identifiers), left out before any other check;
        comma-separated text or a list.
    na_values : sequence of str, optional
        The cells read as missing values (replacing the default markers).
    nominal : str or sequence of str, optional
        Columns read as nominal even if they hold numbers.
    sep : str, optional
        The CSV separator (default ``,``; tab for ``.tsv``).
    encoding : str, default "utf-8"
        The text encoding of CSV and ARFF files.
    sparse : bool, default False
        Read an ARFF file into a scipy.sparse matrix (svmlight files always are).
    task : {None, "auto", "classification", "regression"}, default None
        What the target is (:func:`rankfusion.io.load_data`; docs/design.md, 'Tasks'): a
        regression target comes back as a float Series; ``"auto"`` refuses a target it
        cannot tell, naming both choices.
    zero_based : bool, default False
        svmlight files: the indices count from 0 (``--zero-based``).
    n_features : int, optional
        svmlight files: the number of features (``--n-features``; default the largest
        index, within a plausibility bound: :func:`rankfusion.io.load_data`).
    accept_sparse : {False, "densify"}, default False
        ``"densify"``: sparse features (svmlight, ``sparse=True``) are made dense, within the
        memory check (:func:`rankfusion.io.densify`), as a DataFrame with their names.
    sparse_frame : bool, default False
        Return sparse features as a DataFrame of pandas sparse columns (their names kept
        through resampling), not as a CSR matrix.

    Returns
    -------
    X : DataFrame or scipy.sparse.csr_matrix
        The features (sparse for a sparse reading).
    y : Series
        The class (or the numeric target), named after its column.
    """
    import scipy.sparse as sp

    from ..io import densify, load_data

    if accept_sparse not in (False, None, "densify"):
        raise ValueError(f"accept_sparse must be False or 'densify', got {accept_sparse!r}")
    X, y = load_data(source, target, format=format, drop=drop, na_values=na_values,
                     nominal=nominal, sep=sep, encoding=encoding,
                     **({"sparse": True} if sparse else {}),
                     **({"task": task} if task is not None else {}),
                     **({"zero_based": True} if zero_based else {}),
                     **({"n_features": n_features} if n_features is not None else {}))
    if X.shape[1] == 0:
        raise ValueError("no feature left after drop")
    if sp.issparse(X) and (accept_sparse == "densify" or sparse_frame):
        import pandas as pd

        names = [str(c) for c in X.feature_names]
        if accept_sparse == "densify":
            X = pd.DataFrame(densify(X), columns=names)
        else:
            X = pd.DataFrame.sparse.from_spmatrix(X, columns=names)
    return X, y
