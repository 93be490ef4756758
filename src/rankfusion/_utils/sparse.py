"""Sparse feature matrices at the public boundary (docs/design.md, 'Sparse input').

A ``scipy.sparse`` array or matrix (CSR, CSC, COO, …) or a DataFrame whose columns are all
pandas sparse columns is **never densified behind the user's back**: a ranker that can work on
the sparse structure (registry tag ``sparse=True``) receives a validated sparse copy in the
format it asks for (:func:`check_sparse_features`); any other ranker refuses it with a
``TypeError`` naming the sparse-capable rankers and the ``accept_sparse="densify"`` option
(:func:`sparse_refusal`). Densifying happens only when asked, and only when the dense
``n × p`` float64 matrix passes the memory check (:func:`densify`: the limit of
``max_memory=``, else the ``RANKFUSION_MAX_MEMORY`` environment variable, else 75 % of the
physical memory — the same rule as the pairwise aggregation rules).

Conventions: implicit entries are zeros (a sparse matrix has no missing values: NaN or inf
stored in ``.data`` is refused); duplicate entries are summed (scipy's meaning of COO input);
the caller's matrix is never modified.
"""

from __future__ import annotations

import numpy as np

from .lazy import lazy_module
from .memory import ENV_VAR, RAISE_LIMIT, bytes_text
from .memory import memory_limit as shared_memory_limit

pd = lazy_module("pandas")

__all__ = ["is_sparse", "check_sparse_features", "densify", "sparse_refusal",
           "declare_sparse_rankers", "sparse_rankers", "ACCEPT_SPARSE", "memory_limit",
           "MEMORY_ENV_VAR", "issparse", "rescale_sparse_columns", "check_dense_size"]

#: The values of ``accept_sparse``: False (refuse sparse input unless the ranker takes it),
#: ``"densify"`` (densify for a ranker that cannot take it, within the memory check).
ACCEPT_SPARSE = (False, "densify")

MEMORY_ENV_VAR = ENV_VAR

_SPARSE_RANKERS: list[str] = []


def declare_sparse_rankers(names) -> None:
    """Record the names of the rankers that take sparse input (called by the ranker
    registry), so that a refusal can name them."""
    _SPARSE_RANKERS[:] = sorted(set(names))


def sparse_rankers() -> list[str]:
    """The sparse-capable ranker names recorded by :func:`declare_sparse_rankers`."""
    return list(_SPARSE_RANKERS)


def is_sparse(X) -> bool:
    """Whether ``X`` is a scipy.sparse array/matrix or a DataFrame with sparse columns."""
    if type(X).__module__.startswith("scipy.sparse"):
        return True
    if "pandas" in type(X).__module__ and isinstance(X, pd.DataFrame) and X.shape[1]:
        return any(isinstance(dt, pd.SparseDtype) for dt in X.dtypes)
    return False


def sparse_refusal(who: str = "this ranker") -> TypeError:
    """The ``TypeError`` of a sparse ``X`` given to a method that needs dense data."""
    names = sparse_rankers()
    can = (f"the sparse-capable rankers are {', '.join(names)}" if names else
           "the sparse-capable rankers carry the registry tag sparse=True")
    return TypeError(
        f"X is a sparse matrix and {who} cannot take it (dense data only); it is never "
        f"densified without being asked: {can}; or pass accept_sparse='densify' "
        "(rank_features, EnsembleSelector, SVMRFE, StabilitySelector, BorutaSelector; "
        "--accept-sparse densify on the command line) or densify it yourself with "
        "rankfusion.io.densify(X), both within the memory check")


def memory_limit(max_memory=None) -> tuple[float, str]:
    """The byte limit in force and where it comes from (``math.inf`` when unknown):
    :func:`rankfusion._utils.memory.memory_limit`, the rule the pairwise rules use too."""
    if max_memory is not None and (
            isinstance(max_memory, bool) or not isinstance(max_memory, (int, float))
            or not (max_memory > 0)):
        raise ValueError(f"max_memory must be a positive number of bytes (inf: no limit), "
                         f"got {max_memory!r}")
    return shared_memory_limit(max_memory)


def _to_scipy(X, name):
    if isinstance(X, pd.DataFrame):
        dense_cols = [c for c, dt in zip(X.columns, X.dtypes)
                      if not isinstance(dt, pd.SparseDtype)]
        if dense_cols:
            raise TypeError(f"{name} mixes sparse and dense DataFrame columns (e.g. "
                            f"{dense_cols[0]!r}); make every column sparse "
                            "(DataFrame.astype(pd.SparseDtype(float, 0))) or every column dense")
        for c, dt in zip(X.columns, X.dtypes):
            if dt.subtype.kind not in "iufb":
                raise TypeError(f"{name} column {c!r} is sparse of dtype {dt.subtype}; sparse "
                                "columns must be numeric")
        names = np.array([c if isinstance(c, str) else str(c) for c in X.columns], dtype=object)
        return _frame_to_csc(X, name), names
    if not hasattr(X, "tocsr"):
        raise TypeError(f"{name} must be a scipy.sparse matrix, got {type(X).__name__}")
    names = getattr(X, "feature_names", None)  # set by rankfusion.io's sparse readers
    if names is not None and len(names) != X.shape[1]:
        names = None
    return X, (None if names is None else np.asarray(names, dtype=object))


def _is_nan(value) -> bool:
    try:
        return bool(value is pd.NA or (isinstance(value, (float, np.floating)) and
                                       np.isnan(value)))
    except TypeError:  # pragma: no cover
        return False


def _frame_to_csc(X, name: str):
    """The CSC matrix of a DataFrame of sparse columns, built from each column's stored
    values (docs/design.md, 'Sparse input').

    A column's unstored entries are its fill value, as pandas reads them
    (``X.sparse.to_dense()``): fill value 0, they are the matrix's implicit zeros; fill
    value NaN (pandas' default for ``pd.arrays.SparseArray`` of floats and
    ``pd.SparseDtype(float)``, and what ``DataFrame.sparse.from_spmatrix`` gives on pandas
    3.0), they are missing values, which a sparse matrix cannot hold: such a column is taken
    only when it has no unstored entry (every value stored, the fill value unused), else
    refused with the two ways out. Any other fill value is refused."""
    import scipy.sparse as sp

    n, p = X.shape
    indptr = np.zeros(p + 1, dtype=np.int64)
    indices, data = [], []
    for j, c in enumerate(X.columns):
        arr = X.iloc[:, j].array
        fill = arr.fill_value
        stored = arr.sp_index.to_int_index().indices
        if _is_nan(fill):
            gaps = n - stored.shape[0]
            if gaps:
                raise ValueError(
                    f"{name} column {c!r} has fill value NaN and {gaps} of its {n} entries "
                    "unstored: pandas reads them as missing values (X.sparse.to_dense() "
                    "gives NaN there) and a sparse matrix has no missing values. If they are "
                    "zeros (DataFrame.sparse.from_spmatrix gives fill value NaN on pandas "
                    "3.0), make the fill value 0: X.fillna(0) keeps X sparse; if they are "
                    "missing, pass the dense X.sparse.to_dense() to a ranker that takes "
                    "missing values")
        elif not (isinstance(fill, (bool, int, float, np.number)) and fill == 0):
            shown = fill.item() if isinstance(fill, np.generic) else fill
            raise ValueError(
                f"{name} column {c!r} has fill value {shown!r}, so its unstored entries are "
                f"{shown!r}, but a sparse matrix's are 0; pass the dense X.sparse.to_dense(), "
                "or X.sparse.to_dense().astype(pd.SparseDtype(float, 0)) to keep it sparse "
                "with fill value 0")
        indices.append(stored)
        data.append(np.asarray(arr.sp_values, dtype=np.float64))
        indptr[j + 1] = indptr[j] + stored.shape[0]
    return sp.csc_matrix((np.concatenate(data) if data else np.empty(0),
                          np.concatenate(indices) if indices else np.empty(0, np.int64),
                          indptr), shape=(n, p))


def check_sparse_features(X, *, fmt: str = "csr", name: str = "X", nonnegative: bool = False,
                          who: str = "this ranker"):
    """Validate a sparse ``X``; return ``(matrix, feature_names or None)``.

    The matrix is a float64 ``scipy.sparse.csr_matrix`` (``fmt="csr"``) or ``csc_matrix``
    (``"csc"``), a copy with duplicates summed, sorted indices and no explicit zeros: the
    caller's object is never modified. Raises a ``ValueError`` for an empty matrix, NaN or inf
    among the stored values (a sparse matrix has no missing values) or, with
    ``nonnegative``, a negative value; a ``TypeError`` for a non-numeric or complex dtype.
    """
    import scipy.sparse as sp

    if fmt not in ("csr", "csc"):
        raise ValueError(f"fmt must be 'csr' or 'csc', got {fmt!r}")
    M, names = _to_scipy(X, name)
    if M.ndim != 2:
        raise ValueError(f"{name} must be 2-D (samples × features); got shape {M.shape}")
    kind = np.dtype(M.dtype).kind
    if kind == "c":
        raise TypeError(f"{name} holds complex numbers; features must be real")
    if kind not in "iufb":
        raise TypeError(f"{name} must be numeric, got dtype {M.dtype}")
    n, p = M.shape
    if n == 0 or p == 0:
        raise ValueError(f"{name} is empty (shape {M.shape})")
    out = sp.csr_matrix(M, dtype=np.float64, copy=True) if fmt == "csr" else sp.csc_matrix(
        M, dtype=np.float64, copy=True)
    out.sum_duplicates()  # also sorts the indices
    data = out.data
    if not np.isfinite(data).all():
        bad = int(np.flatnonzero(~np.isfinite(data))[0])
        i, j = _position(out, bad, fmt)
        what = "NaN" if np.isnan(data[bad]) else "inf"
        raise ValueError(f"{name} stores {what} at sample {i}, feature {j}; a sparse matrix "
                         f"has no missing values (implicit entries are 0) and {who} needs "
                         "finite values")
    if nonnegative and (data < 0).any():
        bad = int(np.flatnonzero(data < 0)[0])
        i, j = _position(out, bad, fmt)
        raise ValueError(f"{name} has the negative value {data[bad]:g} at sample {i}, "
                         f"feature {j}; {who} needs non-negative features (counts)")
    out.eliminate_zeros()
    return out, names


def _position(M, k: int, fmt: str) -> tuple[int, int]:
    outer = int(np.searchsorted(M.indptr, k, side="right") - 1)
    inner = int(M.indices[k])
    return (outer, inner) if fmt == "csr" else (inner, outer)


def densify(X, *, max_memory=None, name: str = "X") -> np.ndarray:
    """A dense float64 copy of a sparse ``X``, only within the memory check
    (docs/design.md, 'Sparse input').

    Parameters
    ----------
    X : scipy.sparse matrix or array, DataFrame of sparse columns, or a dense array
        The data; a dense ``X`` is returned unchanged.
    max_memory : float, optional
        The limit in bytes; default the ``RANKFUSION_MAX_MEMORY`` environment variable, else
        75 % of the physical memory.
    name : str, default "X"
        The argument's name in messages.

    Returns
    -------
    ndarray of float64, shape (n, p)
        The dense matrix (a DataFrame for a sparse DataFrame).

    Raises
    ------
    MemoryError
        When the dense ``n × p × 8`` bytes exceed the limit (naming the size, the limit and
        the way out).

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> densify(sp.csr_matrix([[0.0, 2.0], [1.0, 0.0]])).tolist()
    [[0.0, 2.0], [1.0, 0.0]]
    """
    if not is_sparse(X):
        return X
    if isinstance(X, pd.DataFrame):
        M, _ = _to_scipy(X, name)
    else:
        M = X
    check_dense_size(M.shape, max_memory=max_memory, name=name, nnz=M.nnz)
    if isinstance(X, pd.DataFrame):
        return X.sparse.to_dense().astype(np.float64)
    return np.asarray(M.toarray(), dtype=np.float64)


def check_dense_size(shape, *, max_memory=None, name: str = "X", nnz=None,
                     what: str = "dense") -> None:
    """The memory check of :func:`densify` on its own: a ``MemoryError`` when a dense float64
    matrix of ``shape`` (``n × p × 8`` bytes) exceeds the limit of :func:`memory_limit`
    (``max_memory=``, else ``RANKFUSION_MAX_MEMORY``, else 75 % of the physical memory),
    naming the size, the limit, where the limit comes from and the way out. A caller that
    will densify later (per bootstrap sample, with shadow columns) checks once, before any
    work.

    Parameters
    ----------
    shape : tuple of int
        ``(n, p)`` of the dense matrix.
    max_memory : float, optional
        The limit in bytes.
    name : str, default "X"
        The argument's name in messages.
    nnz : int, optional
        The stored values, named in the message.
    what : str, default "dense"
        How the message says what would be made (``"dense, with its shadow columns"``).
    """
    n, p = (int(shape[0]), int(shape[1]))
    need = 8.0 * n * p
    limit, source = memory_limit(max_memory)
    if need > limit:
        stored = "" if nnz is None else f", {nnz} stored values"
        raise MemoryError(
            f"{name} ({n} × {p}{stored}) would take {bytes_text(need)} "
            f"{what}, above the limit of {bytes_text(limit)} ({source}); use a "
            f"sparse-capable ranker, or {RAISE_LIMIT}")


def issparse(M) -> bool:
    """Whether ``M`` is a scipy.sparse array or matrix (after validation)."""
    return type(M).__module__.startswith("scipy.sparse")


def rescale_sparse_columns(M):
    """:func:`~rankfusion._utils.data.rescale_extreme_columns` for a validated sparse matrix
    (CSR or CSC): the same powers of two, applied to the stored values only (zeros stay 0).

    Returns ``(matrix, exponents)``: ``M`` itself when no column needed it."""
    from .data import EXTREME_SCALE

    p = M.shape[1]
    top = np.zeros(p)
    if M.nnz:
        cols = M.indices if M.format == "csr" else np.repeat(np.arange(p), np.diff(M.indptr))
        np.maximum.at(top, cols, np.abs(M.data))
    need = (top > 0) & ((top > EXTREME_SCALE) | (top < 1.0 / EXTREME_SCALE))
    e = np.where(need, np.frexp(top)[1], 0).astype(np.int64)
    if not need.any():
        return M, e
    out = M.copy()
    out.data = np.ldexp(out.data, -e[cols])
    return out, e
