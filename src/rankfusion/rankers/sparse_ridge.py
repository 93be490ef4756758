"""Ridge regression on a sparse matrix, exactly (docs/design.md, 'Sparse input').

scikit-learn's ``Ridge`` on sparse input with an intercept switches to an iterative solver
(``sparse_cg``, ``lsqr`` or ``sag``, stopped at ``tol``), so its coefficients are not the dense
Cholesky ones and a ranking by ``|coef_|`` may differ. Here the same normal equations as the
dense fit are solved directly, with the centring folded into the Gram matrix so the centred
(dense) matrix is never made. With ``μ`` the column means, ``s`` the standard deviations
(``standardise=True``; else 1), ``t_c`` the centred target and ``Z = (M − 1μᵀ) diag(1/s)``:

* ``p ≤ n`` (primal): ``(ZᵀZ + αI) w = Zᵀ t_c`` with ``ZᵀZ = (MᵀM − n μμᵀ) / (s sᵀ)`` and
  ``Zᵀ t_c = Mᵀ t_c / s``;
* ``p > n`` (dual, as scikit-learn's Cholesky solver does for wide data):
  ``(ZZᵀ + αI) a = t_c``, ``w = Zᵀ a``, with ``ZZᵀ = M̃M̃ᵀ − (M̃m)1ᵀ − 1(M̃m)ᵀ + (mᵀm) 11ᵀ``,
  ``M̃ = M diag(1/s)``, ``m = μ/s``.

The Gram matrix holds ``min(n, p)²`` floats (memory-checked before it is made); a constant
column gets exactly 0, as on dense data, where its centred column is exactly 0.

Reference: Hoerl, A. E. & Kennard, R. W. (1970), Ridge regression: biased estimation for
nonorthogonal problems, Technometrics 12(1).
"""

from __future__ import annotations

import numpy as np

__all__ = ["sparse_moments", "sparse_ridge_coef", "SparseRidge"]


def sparse_moments(M):
    """Column means, standard deviations (numpy's two-pass ``std``, population; a constant
    column → 1) and the constant columns of a sparse matrix, its implicit zeros included.

    Parameters
    ----------
    M : scipy.sparse matrix of shape (n, p)

    Returns
    -------
    mu, sd : ndarray of shape (p,)
    const : ndarray of bool, shape (p,)
    """
    M = M.tocsr()
    if not M.has_canonical_format:
        M = M.copy()
        M.sum_duplicates()
    n, p = M.shape
    mu = np.asarray(M.mean(axis=0)).ravel()
    cols = M.indices
    # two passes, as numpy's std: the stored deviations, and μ² for each implicit zero
    dev = M.data - mu[cols]
    nnz = np.bincount(cols, minlength=p)
    var = (np.bincount(cols, weights=dev * dev, minlength=p) + (n - nnz) * mu * mu) / n
    lo = np.full(p, np.inf)
    hi = np.full(p, -np.inf)
    np.minimum.at(lo, cols, M.data)
    np.maximum.at(hi, cols, M.data)
    gaps = nnz < n  # columns with implicit zeros
    lo[gaps] = np.minimum(lo[gaps], 0.0)
    hi[gaps] = np.maximum(hi[gaps], 0.0)
    const = lo == hi  # numpy's std is exactly 0 there
    sd = np.sqrt(var)
    sd[const | (sd == 0)] = 1.0
    return mu, sd, const


def sparse_ridge_coef(M, target, alpha: float, *, standardise: bool = True) -> np.ndarray:
    """The ridge coefficients ``w`` of the centred (and, with ``standardise``, scaled) columns
    of a sparse ``M`` (module docstring for the equations).

    Parameters
    ----------
    M : scipy.sparse matrix of shape (n, p)
    target : ndarray of shape (n,)
    alpha : float
        The penalty, > 0.
    standardise : bool, default True
        Divide each column by its standard deviation (``Ridge`` on standardised features);
        False: ``Ridge(alpha)`` on ``M`` as it is.

    Returns
    -------
    ndarray of shape (p,)
        Signed coefficients on the (scaled) columns; 0 for a constant column.
    """
    from scipy.linalg import solve
    from scipy.sparse import diags

    from .._utils.sparse import check_dense_size

    n, p = M.shape
    k = min(n, p)
    check_dense_size((k, k), name="X", what="ridge's Gram matrix")
    M = M.tocsr()
    mu, sd, const = sparse_moments(M)
    if not standardise:
        sd = np.ones(p)
    target = np.asarray(target, dtype=np.float64)
    tc = target - target.mean()
    if p <= n:
        G = (M.T @ M).toarray() - n * np.outer(mu, mu)
        G /= np.outer(sd, sd)
        G[np.diag_indices(p)] += alpha
        w = solve(G, np.asarray(M.T @ tc).ravel() / sd, assume_a="pos")
    else:
        Ms = M @ diags(1.0 / sd)
        m = mu / sd
        v = np.asarray(Ms @ m).ravel()
        K = (Ms @ Ms.T).toarray() - v[:, None] - v[None, :] + m @ m
        K[np.diag_indices(n)] += alpha
        a = solve(K, tc, assume_a="pos")
        w = np.asarray(Ms.T @ a).ravel() - m * a.sum()
    w[const] = 0.0
    return w


class SparseRidge:
    """``Ridge(alpha)`` with an intercept, solved exactly on a sparse X (module docstring);
    the replacement of scikit-learn's iterative sparse solvers in ridge RFE. Only what RFE
    reads: ``fit`` sets ``coef_`` and ``intercept_``; ``predict``.

    Parameters
    ----------
    alpha : float, default 1.0
    """

    def __init__(self, alpha: float = 1.0):
        self.alpha = alpha

    def get_params(self, deep: bool = True) -> dict:
        """The parameters (what scikit-learn's ``clone`` reads).

        Parameters
        ----------
        deep : bool, default True
            Unused (no sub-estimators).

        Returns
        -------
        dict
            ``{"alpha": alpha}``.
        """
        return {"alpha": self.alpha}

    def set_params(self, **params):
        """Set ``alpha``.

        Parameters
        ----------
        **params : dict
            ``alpha=…`` only.

        Returns
        -------
        SparseRidge
        """
        for key, value in params.items():
            if key != "alpha":
                raise ValueError(f"SparseRidge has no parameter {key!r}")
            self.alpha = value
        return self

    def fit(self, X, y):
        y = np.asarray(y, dtype=np.float64)
        self.coef_ = sparse_ridge_coef(X, y, float(self.alpha), standardise=False)
        mu = np.asarray(X.mean(axis=0)).ravel()
        self.intercept_ = float(y.mean() - mu @ self.coef_)
        return self

    def predict(self, X):
        return np.asarray(X @ self.coef_).ravel() + self.intercept_
