"""Data perturbation: bootstrap samples of the rows (the fuzzy paper's "63.2 % data with return").

A bootstrap sample draws ``m = max(1, ⌊f·n + 0.5⌋)`` rows *with replacement* (``f`` =
``sample_fraction``; ``f = 1`` is the classical bootstrap, whose sample holds about 63.2 % of
the distinct rows — our reading of the paper; ``f = 0.632`` covers the other reading, a sample
of 63.2 % of n). Stratified sampling draws ``max(1, ⌊f·n_c + 0.5⌋)`` rows from every class c, so
each sample keeps every class (rankers need two classes at least).

Each sample is drawn from its own child stream of a :class:`numpy.random.SeedSequence`, so the
samples do not depend on how many are drawn in parallel, nor in which order (docs/design.md,
'Seeds').
"""

from __future__ import annotations

import numpy as np

__all__ = ["bootstrap_indices"]


def _n_draws(fraction: float, n: int) -> int:
    return max(1, int(np.floor(fraction * n + 0.5)))


def bootstrap_indices(y, seeds, *, sample_fraction: float = 1.0,
                      stratify: bool = True) -> list[np.ndarray]:
    """Row indices of one bootstrap sample per seed.

    Parameters
    ----------
    y : array-like of shape (n,)
        Class labels (codes or labels: only equality matters).
    seeds : sequence of numpy.random.SeedSequence
        One child seed per sample (``SeedSequence(...).spawn(L)``).
    sample_fraction : float in (0, 1], default=1.0
        Rows drawn per sample as a fraction of n (of each class's size when stratified).
    stratify : bool, default=True
        Draw within each class.

    Returns
    -------
    list of ndarray of int
        Sorted row indices of each sample (duplicates kept: a row drawn twice appears twice).

    Examples
    --------
    >>> import numpy as np
    >>> seeds = np.random.SeedSequence(0).spawn(2)
    >>> [s.shape for s in bootstrap_indices([0, 0, 0, 1, 1, 1], seeds)]
    [(6,), (6,)]
    """
    y = np.asarray(y)
    n = y.shape[0]
    out = []
    if stratify:
        _, codes = np.unique(y, return_inverse=True)
        groups = [np.flatnonzero(codes == c) for c in range(codes.max() + 1)]
    for seed in seeds:
        rng = np.random.default_rng(seed)
        if stratify:
            parts = [g[rng.integers(0, g.shape[0], size=_n_draws(sample_fraction, g.shape[0]))]
                     for g in groups]
            idx = np.concatenate(parts)
        else:
            idx = rng.integers(0, n, size=_n_draws(sample_fraction, n))
        out.append(np.sort(idx, kind="stable"))
    return out
