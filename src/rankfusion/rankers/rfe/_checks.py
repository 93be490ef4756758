"""Argument checks shared by the public RFE entry points (private to this package)."""

from __future__ import annotations

import numbers

import numpy as np

from ..._utils.constraints import check_param
from .params import SVM_CONSTRAINTS
from .schedule import rfe_schedule


def _check_X(X) -> tuple[np.ndarray, np.ndarray]:
    """float64 X (n × p) and its transpose p × n, both C-contiguous; finite values only.
    A scipy.sparse X stays sparse: CSR X and CSR Xᵀ (docs/design.md, 'Sparse input')."""
    from ..._utils.sparse import check_sparse_features, is_sparse

    if is_sparse(X):
        Xa, _ = check_sparse_features(X, fmt="csr", who="SVM-RFE")
        _check_scale(np.abs(Xa).max(axis=0).toarray().reshape(-1))
        return Xa, Xa.T.tocsr()
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-D (samples × features); got shape {X.shape}")
    if not np.isfinite(X).all():
        raise ValueError("X contains NaN or inf; SVM-RFE needs finite numeric values")
    _check_scale(np.abs(X).max(axis=0, initial=0.0))
    return np.ascontiguousarray(X), np.ascontiguousarray(X.T)


def _check_scale(top) -> None:
    big = top > 2.0 ** 64
    tiny = (top > 0) & (top < 2.0 ** -64)
    if big.any() or tiny.any():
        j = int(np.flatnonzero(big | tiny)[0])
        raise ValueError(
            f"X's feature {j} reaches |x| = {top[j]:.3g}: a linear SVM is not scale invariant "
            "and its solver over- or underflows at scales beyond 2**±64; z-score the features "
            "first (rankfusion.io.standardize, or --standardize on the command line)")


def _prepare(X, y, C, tol, class_weight, step, step_until):
    """The checks every public entry shares: (C, tol, X, Xᵀ, class codes, classes, class
    weights, elimination chunks)."""
    C = _check_C(C)
    tol = _check_tol(tol)
    Xa, Xt = _check_X(X)
    codes, classes = _codes(y)
    if codes.shape[0] != Xa.shape[0]:
        raise ValueError(f"y has {codes.shape[0]} labels but X has {Xa.shape[0]} samples")
    cw = _check_class_weight(class_weight, classes)
    chunks = rfe_schedule(Xa.shape[1], step, step_until)
    return C, tol, Xa, Xt, codes, classes, cw, chunks


def _check_tol(tol) -> float:
    check_param("tol", tol, SVM_CONSTRAINTS["tol"])
    return float(tol)


def _check_C(C) -> float:
    check_param("C", C, SVM_CONSTRAINTS["C"])
    return float(C)


def _check_class_weight(class_weight, classes):
    """None, "balanced" or a dict by class label → dict by class code."""
    if class_weight is None or (isinstance(class_weight, str) and class_weight == "balanced"):
        return class_weight
    if not isinstance(class_weight, dict):
        raise ValueError(f"class_weight must be None, 'balanced' or a dict, got {class_weight!r}")
    lut = {k: i for i, k in enumerate(list(classes))}
    out = {}
    for k, v in class_weight.items():
        if k not in lut:
            raise ValueError(f"class_weight names class {k!r}, not among {list(classes)}")
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, numbers.Real):
            raise TypeError(f"class_weight[{k!r}] must be a positive number, got {v!r}")
        if not np.isfinite(v) or v <= 0:
            raise ValueError(f"class_weight[{k!r}] must be positive, got {v!r}")
        out[lut[k]] = float(v)
    return out


def _codes(y):
    from ..._utils.data import check_target

    return check_target(y)

