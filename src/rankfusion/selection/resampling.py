"""Data perturbation: bootstrap samples of the rows (the fuzzy paper's "63.2 % data with return").

A bootstrap sample draws ``m = max(1, ⌊f·n + 0.5⌋)`` rows *with replacement* (``f`` =
``sample_fraction``; ``f = 1`` is the classical bootstrap, whose sample holds about 63.2 % of
the distinct rows — our reading of the paper; ``f = 0.632`` covers the other reading, a sample
of 63.2 % of n). Stratified sampling draws ``max(1, ⌊f·n_c + 0.5⌋)`` rows from every class c, so
each sample keeps every class (rankers need two classes at least).

A sample too small to rank on is refused before any work (:func:`check_sample_size`): a
stratified sample must draw at least 2 rows of every class (all of a class's rows when it has
fewer), an unstratified one at least 2 rows per class (2·K for K classes). A bootstrap of one
row per class gives every ranker the same tied scores, hence the same top-k on every sample,
and a stability of 1 that measures nothing (docs/design.md, 'Ensembles, subsets and
evaluation').

Each sample is drawn from its own child stream of a :class:`numpy.random.SeedSequence`, so the
samples do not depend on how many are drawn in parallel, nor in which order (docs/design.md,
'Seeds').
"""

from __future__ import annotations

import numpy as np

__all__ = ["bootstrap_indices", "check_sample_size", "sample_sizes", "cv_folds"]

#: Rows of every class a resample must hold at least (fewer when the class has fewer rows).
MIN_PER_CLASS = 2


def _n_draws(fraction: float, n: int) -> int:
    return max(1, int(np.floor(fraction * n + 0.5)))


def _class_groups(y):
    y = np.asarray(y)
    labels, codes = np.unique(y, return_inverse=True)
    return labels, codes.reshape(-1)


def sample_sizes(y, sample_fraction: float = 1.0, *, stratify: bool = True) -> dict:
    """The rows one bootstrap sample draws: ``{label: count}`` per class when stratified, else
    ``{None: m}``, by the rule of this module (``max(1, ⌊f·n + 0.5⌋)``)."""
    labels, codes = _class_groups(y)
    if stratify:
        sizes = np.bincount(codes, minlength=labels.shape[0])
        return {lab: _n_draws(sample_fraction, int(c)) for lab, c in zip(labels, sizes)}
    return {None: _n_draws(sample_fraction, codes.shape[0])}


def check_sample_size(y, sample_fraction: float = 1.0, *, stratify: bool = True,
                      name: str = "sample_fraction", where: str = "") -> None:
    """Refuse a sample fraction whose bootstrap samples are too small to rank on.

    Parameters
    ----------
    y : array-like of shape (n,)
        The class labels the samples are drawn from.
    sample_fraction : float in (0, 1]
        Rows drawn per sample as a fraction of n (of each class's size when stratified).
    stratify : bool, default=True
        Whether the samples are drawn within classes.
    name : str, default="sample_fraction"
        The argument named in the message.
    where : str, default=""
        Where the samples are drawn, for the message (" in the training part of fold 2").

    Raises
    ------
    ValueError
        A stratified sample drawing fewer than 2 rows of a class (that has 2 rows or more), or
        an unstratified sample of fewer than 2·K rows for K classes; the message names the
        fraction, the resulting count, the minimum and the smallest fraction that reaches it.

    Examples
    --------
    >>> check_sample_size([0] * 20 + [1] * 20, 0.01)
    Traceback (most recent call last):
    ...
    ValueError: sample_fraction=0.01 draws 1 row of class 0 (of its 20) per bootstrap sample;
    at least 2 rows of every class are needed to rank features: use sample_fraction ≥ 0.075
    """
    labels, codes = _class_groups(y)
    f = float(sample_fraction)
    if stratify:
        sizes = np.bincount(codes, minlength=labels.shape[0])
        for lab, size in zip(labels, sizes):
            need = min(MIN_PER_CLASS, int(size))
            got = _n_draws(f, int(size))
            if got < need:
                # ⌊f·s + 0.5⌋ ≥ need  ⇔  f ≥ (need − 0.5)/s, for the smallest class that needs it
                small = int(sizes[sizes >= MIN_PER_CLASS].min())
                fmin = _enough(MIN_PER_CLASS, small)
                raise ValueError(
                    f"{name}={sample_fraction!r} draws {got} row{'s' if got != 1 else ''} of "
                    f"class {_label(lab)!r} (of its {int(size)}) per bootstrap sample{where}; "
                    f"at least {MIN_PER_CLASS} rows of every class are needed to rank features: "
                    f"use {name} ≥ {fmin}")
        return
    n = codes.shape[0]
    need = min(MIN_PER_CLASS * labels.shape[0], n)
    got = _n_draws(f, n)
    if got < need:
        raise ValueError(
            f"{name}={sample_fraction!r} draws {got} row{'s' if got != 1 else ''} (of {n}) per "
            f"bootstrap sample{where}; at least {need} ({MIN_PER_CLASS} per class for "
            f"{labels.shape[0]} classes) are needed to rank features: use {name} ≥ "
            f"{_enough(need, n)}")


def _label(lab):
    return lab.item() if isinstance(lab, np.generic) else lab


def _enough(need: int, size: int) -> float:
    """The smallest fraction of 3 significant digits whose draw from ``size`` rows is at least
    ``need`` (``⌊f·size + 0.5⌋ ≥ need``), checked by the same arithmetic as the draw."""
    f = (need - 0.5) / size
    if f >= 1.0:
        return 1.0
    step = 10.0 ** (int(np.floor(np.log10(f))) - 2)
    out = float(np.ceil(f / step) * step)
    while _n_draws(out, size) < need and out < 1.0:
        out = float(round(out + step, 12))
    return min(1.0, float(f"{out:.3g}")) if _n_draws(float(f"{out:.3g}"), size) >= need \
        else min(1.0, out)


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

    Raises
    ------
    ValueError
        A fraction whose samples are too small to rank on (:func:`check_sample_size`).

    Examples
    --------
    >>> import numpy as np
    >>> seeds = np.random.SeedSequence(0).spawn(2)
    >>> [s.shape for s in bootstrap_indices([0, 0, 0, 1, 1, 1], seeds)]
    [(6,), (6,)]
    """
    check_sample_size(y, sample_fraction, stratify=stratify)
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


def cv_folds(y, cv: int, *, stratify: bool = True, random_state: int = 0) -> list:
    """The shuffled ``cv``-fold split of the selectors' size search and accuracy weights.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        The class labels (codes or names).
    cv : int
        The number of folds (≥ 2).
    stratify : bool, default True
        Folds within classes (``StratifiedKFold``), else ``KFold``; both shuffled.
    random_state : int, default 0
        The shuffle's seed.

    Returns
    -------
    list of (ndarray, ndarray)
        The (train, test) row indices of each fold.

    Raises
    ------
    ValueError
        When a class (stratified) or the data (not stratified) has fewer than ``cv`` rows.
    """
    from sklearn.model_selection import KFold, StratifiedKFold

    y = np.asarray(y)
    cv = int(cv)
    if stratify:
        _, counts = np.unique(y, return_counts=True)
        if counts.min() < cv:
            raise ValueError(f"cv={cv} stratified folds need at least {cv} samples of every "
                             f"class; the smallest class has {counts.min()}: lower cv")
        split = StratifiedKFold(cv, shuffle=True, random_state=random_state)
    else:
        if y.shape[0] < cv:
            raise ValueError(f"cv={cv} folds need at least {cv} samples")
        split = KFold(cv, shuffle=True, random_state=random_state)
    return list(split.split(np.zeros(y.shape[0]), y))
