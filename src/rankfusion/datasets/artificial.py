"""The artificial multiclass problems of Izetta et al. (2017), §3.2 and Table 3.

Every class is a Gaussian with diagonal covariance. Noise features are N(0, 1) for every class
(500 of them); relevant features have SD 0.5 (§3.2: "The SD of the Gaussian distributions
corresponding to relevant features are always set to 0.5") and a class-dependent mean; the
classes overlap (non-zero Bayes error). 3000 samples spread evenly over the classes.

* **Artificial-1** (class-specific features): 5 relevant features per class; class k's five
  features are shifted by ``shift`` for class k and centred at 0 for every other class, so
  "the set of 5 features together shift the class center away from other classes"; all
  relevant features are equally important.
* **Artificial-2** (8 classes, 25 relevant features, three levels of relevance): features 0–4
  are relevant for classes 0, 1, 2; features 5–9 for classes 3 and 4 only, less relevant; then
  5 features for each of classes 5, 6, 7, less relevant still.
* **Artificial-3** (all relevant features useful for all classes at once): 5 relevant features
  per class as in Artificial-1, but every class has a non-zero mean on every relevant feature.

The paper states the structure but not the class means; ours (documented departure, chosen so
that the classes overlap as the paper's error curves show):

* Artificial-1: class k has mean ``shift`` (default 0.5, one relevant SD) on its own 5 features.
* Artificial-2: inside a group of features shared by g classes, the j-th class of the group has
  mean ``level · s_j`` on the group's 5 features, with sign patterns ``s_0 = (+,+,+,+,+)``,
  ``s_1 = (−,−,−,−,−)``, ``s_2 = (+,−,+,−,+)`` (so the group also separates its own classes);
  ``levels = (0.75, 0.5, 0.4)`` for the three relevance levels.
* Artificial-3: class k has mean ``shift · (2/√c) · z_kf`` on relevant feature f, with signs
  ``z_kf ∈ {−1, +1}`` drawn once (seeded) per class and feature; the factor ``2/√c`` keeps the
  distance between two class centres comparable to Artificial-1's as c grows.

Relevant features come first (0 … r−1), then the noise; ``shuffle=True`` permutes the columns
(the returned ``relevant`` indices follow).
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd
from sklearn.utils import Bunch, check_random_state

__all__ = ["make_artificial", "ARTIFICIAL_DATASETS", "load_artificial"]

#: Izetta et al. Table 3: name → (kind, classes).
ARTIFICIAL_DATASETS = {
    "Artificial-1-3C": (1, 3),
    "Artificial-1-4C": (1, 4),
    "Artificial-1-5C": (1, 5),
    "Artificial-1-8C": (1, 8),
    "Artificial-1-16C": (1, 16),
    "Artificial-2-8C": (2, 8),
    "Artificial-3-3C": (3, 3),
    "Artificial-3-8C": (3, 8),
    "Artificial-3-16C": (3, 16),
}

_PATTERNS = np.array([[1, 1, 1, 1, 1], [-1, -1, -1, -1, -1], [1, -1, 1, -1, 1]], dtype=float)


def _means(kind: int, n_classes: int, shift: float, levels, rng) -> tuple[np.ndarray, np.ndarray]:
    """Class means on the relevant features (c × r) and each feature's relevance level."""
    if kind == 1:
        r = 5 * n_classes
        mu = np.zeros((n_classes, r))
        for k in range(n_classes):
            mu[k, 5 * k:5 * k + 5] = shift
        return mu, np.ones(r, dtype=np.int64)
    if kind == 2:
        groups = [((0, 1, 2), 0), ((3, 4), 1), ((5,), 2), ((6,), 2), ((7,), 2)]
        mu = np.zeros((8, 25))
        level = np.empty(25, dtype=np.int64)
        for g, (members, lev) in enumerate(groups):
            cols = slice(5 * g, 5 * g + 5)
            level[cols] = lev + 1
            for j, k in enumerate(members):
                mu[k, cols] = levels[lev] * _PATTERNS[j]
        return mu, level
    r = 5 * n_classes
    z = rng.choice([-1.0, 1.0], size=(n_classes, r))
    return shift * 2.0 / np.sqrt(n_classes) * z, np.ones(r, dtype=np.int64)


def make_artificial(kind: int = 1, n_classes: int = 8, *, n_samples: int = 3000,
                    n_noise: int = 500, shift: float = 0.5, levels=(0.75, 0.5, 0.4),
                    relevant_sd: float = 0.5, shuffle: bool = False, as_frame: bool = False,
                    random_state=None) -> Bunch:
    """Generate Artificial-1, -2 or -3 of Izetta et al. (2017) §3.2.

    Parameters
    ----------
    kind : {1, 2, 3}
        Artificial-1 (class-specific features), -2 (8 classes, three levels of shared
        relevance), -3 (every relevant feature useful for every class).
    n_classes : int
        Number of classes (Artificial-2 has 8, always).
    n_samples : int, default=3000
        Spread evenly: class k gets ``n // c`` samples, plus one for the first ``n % c``.
    n_noise : int, default=500
        N(0, 1) features, the same for every class.
    shift : float, default=0.5
        Mean shift of a relevant feature (Artificial-1 and -3; see the module notes).
    levels : tuple of 3 floats, default=(0.75, 0.5, 0.4)
        Artificial-2's mean shifts of the three relevance levels.
    relevant_sd : float, default=0.5
    shuffle : bool, default=False
        Permute the feature columns (seeded).
    as_frame : bool, default=False
        ``data`` as a DataFrame (columns ``rel_*`` / ``noise_*``) and ``target`` a Series.
    random_state : int, Generator or None

    Returns
    -------
    Bunch
        ``data`` (n × (r + n_noise)), ``target`` (class codes 0 … c−1, sorted by class),
        ``feature_names``, ``relevant`` (column indices of the relevant features, in generation
        order), ``relevance`` (per column: 0 noise, 1 the most relevant level, 2, 3), ``means``
        (class means on the relevant features), ``name``.

    Examples
    --------
    >>> from rankfusion.datasets import make_artificial
    >>> d = make_artificial(1, 3, random_state=0)
    >>> d.data.shape, d.relevant[:5].tolist()
    ((3000, 515), [0, 1, 2, 3, 4])
    """
    if kind not in (1, 2, 3):
        raise ValueError(f"kind must be 1, 2 or 3, got {kind!r}")
    if kind == 2 and n_classes != 8:
        raise ValueError(f"Artificial-2 has 8 classes (Izetta et al. §3.2), got {n_classes}")
    for name, v, lo in (("n_classes", n_classes, 2), ("n_samples", n_samples, 1),
                        ("n_noise", n_noise, 0)):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < lo:
            raise ValueError(f"{name} must be an int ≥ {lo}, got {v!r}")
    if n_samples < n_classes:
        raise ValueError(f"n_samples ({n_samples}) must be at least n_classes ({n_classes})")
    if not relevant_sd > 0:
        raise ValueError(f"relevant_sd must be positive, got {relevant_sd!r}")
    if len(levels) != 3:
        raise ValueError(f"levels must hold 3 numbers, got {levels!r}")
    rng = check_random_state(random_state) if not isinstance(
        random_state, np.random.Generator) else random_state
    if isinstance(rng, np.random.RandomState):
        rng = np.random.default_rng(rng.randint(0, 2**31 - 1))
    mu, level = _means(kind, n_classes, float(shift), tuple(levels), rng)
    r = mu.shape[1]
    counts = np.full(n_classes, n_samples // n_classes)
    counts[: n_samples % n_classes] += 1
    y = np.repeat(np.arange(n_classes), counts)
    rel = mu[y] + relevant_sd * rng.standard_normal((n_samples, r))
    noise = rng.standard_normal((n_samples, n_noise))
    X = np.hstack([rel, noise])
    relevance = np.concatenate([level, np.zeros(n_noise, dtype=np.int64)])
    names = np.array([f"rel_{j}" for j in range(r)] + [f"noise_{j}" for j in range(n_noise)],
                     dtype=object)
    relevant = np.arange(r)
    if shuffle:
        perm = rng.permutation(r + n_noise)
        X, relevance, names = X[:, perm], relevance[perm], names[perm]
        inv = np.empty_like(perm)
        inv[perm] = np.arange(perm.shape[0])
        relevant = inv[relevant]
    data, target = X, y
    if as_frame:
        data = pd.DataFrame(X, columns=list(names))
        target = pd.Series(y, name="class")
    return Bunch(data=data, target=target, feature_names=names, relevant=relevant,
                 relevance=relevance, means=mu, name=f"Artificial-{kind}-{n_classes}C")


def load_artificial(name: str, **kwargs) -> Bunch:
    """One of Table 3's datasets by name, e.g. ``"Artificial-1-8C"`` (keywords as
    :func:`make_artificial`)."""
    if name not in ARTIFICIAL_DATASETS:
        raise ValueError(f"unknown artificial dataset {name!r}; known: {list(ARTIFICIAL_DATASETS)}")
    kind, c = ARTIFICIAL_DATASETS[name]
    return make_artificial(kind, c, **kwargs)
