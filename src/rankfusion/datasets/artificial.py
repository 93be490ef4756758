"""The artificial multiclass problems of Izetta et al. (2017), §3.2 and Table 3.

Every class is a Gaussian with diagonal covariance. Noise features are N(0, 1) for every class
(500 of them); relevant features have SD 0.5 (§3.2: "The SD of the Gaussian distributions
corresponding to relevant features are always set to 0.5") and a class-dependent mean; the
classes overlap (non-zero Bayes error). 3000 samples spread evenly over the classes.

* **Artificial-1** (class-specific features): 5 relevant features per class; class k's five
  features are shifted by ``separation`` for class k and centred at 0 for every other class, so
  "the set of 5 features together shift the class center away from other classes"; all
  relevant features are equally important.
* **Artificial-2** (8 classes, 25 relevant features, three levels of relevance): features 0–4
  are relevant for classes 0, 1, 2; features 5–9 for classes 3 and 4 only, less relevant; then
  5 features for each of classes 5, 6, 7, less relevant still. Inside a group of features shared
  by g classes, the j-th class of the group has mean ``separation · levels[ℓ] · s_j`` on the
  group's 5 features, with sign patterns ``s_0 = (+,+,+,+,+)``, ``s_1 = (−,−,−,−,−)``,
  ``s_2 = (+,−,+,−,+)`` (so the group also separates its own classes); the relative levels of
  the three relevance levels are ``levels = (1, 2/3, 8/15)``.
* **Artificial-3** (every relevant feature "equally useful for all classes at the same time"):
  5 relevant features per class as in Artificial-1; on each relevant feature f the class means
  sit on a line at c distinct, equally spaced levels, ``μ_kf = separation · (π_f(k) − (c−1)/2)``,
  where ``π_f`` is a permutation of the classes drawn once per feature from a fixed seed (the
  means do not depend on ``random_state``). So every relevant feature separates every pair of
  classes: two class means differ by at least ``separation`` on every relevant feature.

The paper states the structure but not the class means. We chose the scale of the means
(``separation``) per Table 3 dataset so that the problems are as hard as the paper's error
curves show (Izetta et al. 2017, Figs. 1–4): by bisection on ``separation``, the error of a
linear SVM (``SVC(kernel="linear", C=1)``, one-vs-one) trained on the true relevant features of
a 75 % random part of the 3000 samples and tested on the rest (the paper's protocol) reaches
the lowest labelled error of the paper's plotted curves — the best error the paper shows for
the dataset (``benchmarks/artificial_calibration.py``). Table 3's Artificial-3-16C has no
figure; it takes the separation of Artificial-3-8C. Another number of classes takes the
separation interpolated linearly in log c between the calibrated ones of its kind (clamped at
the ends).

Measured difficulty of the defaults (``benchmarks/artificial_difficulty.py``; Bayes error by
Monte Carlo with the true means and SDs on 400,000 samples, ± its standard error; linear-SVM
error on the relevant features, mean ± SD over 10 seeds of the paper's protocol; the paper's
plotted range is the y axis of its error-curve panels):

================  ======  ======  =============  =============  =====================  ======
dataset           sep.    chance  Bayes (MC)     linear SVM     paper's range          target
================  ======  ======  =============  =============  =====================  ======
Artificial-1-3C   0.5045  0.667   0.097 ± 0.001  0.103 ± 0.013  0.10–0.60 Fig. 4a      0.10
Artificial-1-4C   0.4318  0.750   0.192 ± 0.001  0.198 ± 0.018  0.20–0.70 Fig. 4b      0.20
Artificial-1-5C   0.4729  0.800   0.187 ± 0.001  0.202 ± 0.019  0.20–0.80 Fig. 4c      0.20
Artificial-1-8C   0.2912  0.875   0.514 ± 0.001  0.548 ± 0.015  0.55–0.85 Fig. 2a      0.55
Artificial-1-16C  0.2877  0.938   0.652 ± 0.001  0.748 ± 0.019  0.75–1.00 Fig. 1c, 4d  0.75
Artificial-2-8C   0.4166  0.875   0.480 ± 0.001  0.498 ± 0.016  0.50–0.85 Fig. 1d, 2b  0.50
Artificial-3-3C   0.0264  0.667   0.609 ± 0.001  0.617 ± 0.014  0.62–0.68 Fig. 1a, 4e  0.62
Artificial-3-8C   0.0322  0.875   0.618 ± 0.001  0.666 ± 0.020  0.65–0.95 Fig. 1b, 4f  0.65
Artificial-3-16C  0.0322  0.938   0.197 ± 0.001  0.323 ± 0.017  no figure              —
================  ======  ======  =============  =============  =====================  ======

The paper's range is the y axis of its OVO error-curve panels (Izetta et al. 2017, Figs. 1,
2 and 4; Fig. 3 is left out: its axes also span the Bayes error line, down to 0.4 for
Artificial-1-8C and -2-8C); the target is its lowest labelled tick. Artificial-3-16C (no
figure) takes Artificial-3-8C's separation and comes out much easier: its 16 class levels
spread further apart.

``version="v1"`` gives the first generator of rankfusion, bit for bit for the same seed: class
means ``shift`` (Artificial-1), levels ``(0.75, 0.5, 0.4)`` (Artificial-2) and random ± signs
``shift · (2/√c) · z_kf`` (Artificial-3, drawn from ``random_state``). Those problems are much
easier than the paper's (linear-SVM errors 0.27, 0.48, 0.20, 0.004 and 0.016 on Artificial-1-8C,
-1-16C, -2-8C, -3-3C and -3-8C, where the paper plots 0.5–1.0), and an
Artificial-3 feature there separates only some of the class pairs.

Relevant features come first (0 … r−1), then the noise; ``shuffle=True`` permutes the columns
(the returned ``relevant`` indices follow).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.utils import Bunch, check_random_state

from .._utils.constraints import Interval, check_param
from .._utils.validation import check_bool

__all__ = ["make_artificial", "ARTIFICIAL_DATASETS", "ARTIFICIAL_DIFFICULTY", "load_artificial",
           "artificial_bayes_error"]

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

#: Calibrated ``separation`` per (kind, classes) (``benchmarks/artificial_calibration.py``).
_SEPARATION = {(1, 3): 0.5045, (1, 4): 0.4318, (1, 5): 0.4729, (1, 8): 0.2912, (1, 16): 0.2877,
               (2, 8): 0.4166, (3, 3): 0.0264, (3, 8): 0.0322}

#: Measured difficulty of the default (``version="v2"``) datasets, the paper's plotted y range
#: and the calibration target: name → dict(bayes, bayes_se, svm, svm_sd, paper, target)
#: (``benchmarks/artificial_difficulty.py``; see the module notes).
ARTIFICIAL_DIFFICULTY = {
    "Artificial-1-3C": dict(bayes=0.0974, bayes_se=0.0005, svm=0.1027, svm_sd=0.0128,
                             paper=(0.1, 0.6), target=0.1),
    "Artificial-1-4C": dict(bayes=0.1919, bayes_se=0.0006, svm=0.1976, svm_sd=0.0179,
                             paper=(0.2, 0.7), target=0.2),
    "Artificial-1-5C": dict(bayes=0.1871, bayes_se=0.0006, svm=0.2024, svm_sd=0.0195,
                             paper=(0.2, 0.8), target=0.2),
    "Artificial-1-8C": dict(bayes=0.5145, bayes_se=0.0008, svm=0.5484, svm_sd=0.0152,
                             paper=(0.55, 0.85), target=0.55),
    "Artificial-1-16C": dict(bayes=0.6523, bayes_se=0.0008, svm=0.7476, svm_sd=0.0189,
                              paper=(0.75, 1.0), target=0.75),
    "Artificial-2-8C": dict(bayes=0.4799, bayes_se=0.0008, svm=0.4985, svm_sd=0.0157,
                             paper=(0.5, 0.85), target=0.5),
    "Artificial-3-3C": dict(bayes=0.6089, bayes_se=0.0008, svm=0.6165, svm_sd=0.0137,
                             paper=(0.62, 0.68), target=0.62),
    "Artificial-3-8C": dict(bayes=0.6179, bayes_se=0.0008, svm=0.6665, svm_sd=0.0199,
                             paper=(0.65, 0.95), target=0.65),
    "Artificial-3-16C": dict(bayes=0.1967, bayes_se=0.0006, svm=0.3228, svm_sd=0.0173,
                              paper=None, target=None),
}

_PATTERNS = np.array([[1, 1, 1, 1, 1], [-1, -1, -1, -1, -1], [1, -1, 1, -1, 1]], dtype=float)
_V2_LEVELS = (1.0, 2.0 / 3.0, 8.0 / 15.0)
_A2_GROUPS = [((0, 1, 2), 0), ((3, 4), 1), ((5,), 2), ((6,), 2), ((7,), 2)]


def _default_separation(kind: int, n_classes: int) -> float:
    """The calibrated separation, or its interpolation in log c (clamped at the ends)."""
    if (kind, n_classes) in _SEPARATION:
        return _SEPARATION[(kind, n_classes)]
    cs = sorted(c for k, c in _SEPARATION if k == kind)
    if kind == 3:  # Artificial-3-16C has no figure: it is not a calibration point
        cs = [c for c in cs if c <= 8]
    return float(np.interp(np.log(n_classes), np.log(cs), [_SEPARATION[(kind, c)] for c in cs]))


def _artificial_2(levels) -> tuple[np.ndarray, np.ndarray]:
    mu = np.zeros((8, 25))
    level = np.empty(25, dtype=np.int64)
    for g, (members, lev) in enumerate(_A2_GROUPS):
        cols = slice(5 * g, 5 * g + 5)
        level[cols] = lev + 1
        for j, k in enumerate(members):
            mu[k, cols] = levels[lev] * _PATTERNS[j]
    return mu, level


def _means_v1(kind: int, n_classes: int, shift: float, levels, rng):
    """The first generator's class means (``version="v1"``); Artificial-3 draws from ``rng``."""
    if kind == 1:
        r = 5 * n_classes
        mu = np.zeros((n_classes, r))
        for k in range(n_classes):
            mu[k, 5 * k:5 * k + 5] = shift
        return mu, np.ones(r, dtype=np.int64)
    if kind == 2:
        return _artificial_2(levels)
    r = 5 * n_classes
    z = rng.choice([-1.0, 1.0], size=(n_classes, r))
    return shift * 2.0 / np.sqrt(n_classes) * z, np.ones(r, dtype=np.int64)


def _means_v2(kind: int, n_classes: int, separation: float, levels):
    """Calibrated class means (c × r) and each relevant feature's relevance level."""
    r = 5 * n_classes
    if kind == 1:
        mu = np.zeros((n_classes, r))
        for k in range(n_classes):
            mu[k, 5 * k:5 * k + 5] = separation
        return mu, np.ones(r, dtype=np.int64)
    if kind == 2:
        return _artificial_2(tuple(separation * v for v in levels))
    # Artificial-3: per feature, the classes at c distinct levels in a permuted order; the
    # permutations come from a fixed seed so the problem (and its Bayes error) is fixed.
    perm_rng = np.random.default_rng([3, n_classes])
    order = np.stack([perm_rng.permutation(n_classes) for _ in range(r)], axis=1)
    return separation * (order - (n_classes - 1) / 2.0), np.ones(r, dtype=np.int64)


#: A positive finite number (a standard deviation, a shift).
_POSITIVE = [Interval("real", 0, None, closed="neither")]


def _check_positive(name: str, v) -> float:
    check_param(name, v, _POSITIVE)
    return float(v)


def make_artificial(kind: int = 1, n_classes: int = 8, *, n_samples: int = 3000,
                    n_noise: int = 500, separation: float | None = None, levels=None,
                    relevant_sd: float = 0.5, version: str = "v2", shift: float | None = None,
                    shuffle: bool = False, as_frame: bool = False, random_state=None) -> Bunch:
    """Generate Artificial-1, -2 or -3 of Izetta et al. (2017) §3.2.

    Class k's samples are ``x = μ_k + ε`` with ``ε ~ N(0, diag(σ²))``: σ = ``relevant_sd`` on the
    r relevant features, 1 on the ``n_noise`` noise features (mean 0 for every class). The class
    means μ_k on the relevant features follow the structure of each problem (module notes);
    their scale, ``separation``, is calibrated so that a linear SVM on the relevant features errs
    as the paper's curves show (Figs. 1–4; module notes):

    ================  ======  ======  =============  =============  =====================  ======
    dataset           sep.    chance  Bayes (MC)     linear SVM     paper's range          target
    ================  ======  ======  =============  =============  =====================  ======
    Artificial-1-3C   0.5045  0.667   0.097 ± 0.001  0.103 ± 0.013  0.10–0.60 Fig. 4a      0.10
    Artificial-1-4C   0.4318  0.750   0.192 ± 0.001  0.198 ± 0.018  0.20–0.70 Fig. 4b      0.20
    Artificial-1-5C   0.4729  0.800   0.187 ± 0.001  0.202 ± 0.019  0.20–0.80 Fig. 4c      0.20
    Artificial-1-8C   0.2912  0.875   0.514 ± 0.001  0.548 ± 0.015  0.55–0.85 Fig. 2a      0.55
    Artificial-1-16C  0.2877  0.938   0.652 ± 0.001  0.748 ± 0.019  0.75–1.00 Fig. 1c, 4d  0.75
    Artificial-2-8C   0.4166  0.875   0.480 ± 0.001  0.498 ± 0.016  0.50–0.85 Fig. 1d, 2b  0.50
    Artificial-3-3C   0.0264  0.667   0.609 ± 0.001  0.617 ± 0.014  0.62–0.68 Fig. 1a, 4e  0.62
    Artificial-3-8C   0.0322  0.875   0.618 ± 0.001  0.666 ± 0.020  0.65–0.95 Fig. 1b, 4f  0.65
    Artificial-3-16C  0.0322  0.938   0.197 ± 0.001  0.323 ± 0.017  no figure              —
    ================  ======  ======  =============  =============  =====================  ======

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
    separation : float, optional
        Scale of the class means (``version="v2"``): Artificial-1, the shift of a class on its
        own five features; Artificial-2, the shift of the most relevant level; Artificial-3, the
        gap between adjacent class levels on a feature. Default: the calibrated value of the
        Table 3 dataset (:data:`ARTIFICIAL_DIFFICULTY`), interpolated in log c for other c.
    levels : tuple of 3 floats, optional
        Artificial-2's three relevance levels: relative to ``separation`` with ``"v2"`` (default
        ``(1, 2/3, 8/15)``), absolute shifts with ``"v1"`` (default ``(0.75, 0.5, 0.4)``).
    relevant_sd : float, default=0.5
    version : {"v2", "v1"}, default="v2"
        ``"v1"``: the first, uncalibrated generator, bit-identical for the same seed (module
        notes); it takes ``shift`` instead of ``separation``.
    shift : float, optional
        ``version="v1"`` only: the mean shift of Artificial-1 and -3 (default 0.5).
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
        (class means on the relevant features, c × r), ``sd`` (their SD), ``priors`` (class
        proportions), ``name``, ``version``.

    Examples
    --------
    >>> from rankfusion.datasets import make_artificial
    >>> d = make_artificial(1, 3, random_state=0)
    >>> d.data.shape, d.relevant[:5].tolist()
    ((3000, 515), [0, 1, 2, 3, 4])
    """
    shuffle = check_bool(shuffle, "shuffle")
    as_frame = check_bool(as_frame, "as_frame")
    if version not in ("v1", "v2"):
        raise ValueError(f"version must be 'v1' or 'v2', got {version!r}")
    check_param("kind", kind, [Interval("int", 1, 3)])
    if kind == 2 and n_classes != 8:
        raise ValueError(f"Artificial-2 has 8 classes (Izetta et al. §3.2), got {n_classes}")
    for name, v, lo in (("n_classes", n_classes, 2), ("n_samples", n_samples, 1),
                        ("n_noise", n_noise, 0)):
        check_param(name, v, [Interval("int", lo, None)])
    if n_samples < n_classes:
        raise ValueError(f"n_samples ({n_samples}) must be at least n_classes ({n_classes})")
    relevant_sd = _check_positive("relevant_sd", relevant_sd)
    if version == "v1":
        if separation is not None:
            raise ValueError("separation applies to version='v2'; version='v1' takes shift")
        shift = 0.5 if shift is None else _check_positive("shift", shift)
        levels = (0.75, 0.5, 0.4) if levels is None else levels
    else:
        if shift is not None:
            raise ValueError("shift applies to version='v1'; version='v2' takes separation")
        separation = (_default_separation(kind, n_classes) if separation is None
                      else _check_positive("separation", separation))
        levels = _V2_LEVELS if levels is None else levels
    if isinstance(levels, (str, bytes)) or len(levels) != 3:
        raise ValueError(f"levels must hold 3 numbers, got {levels!r}")
    levels = tuple(_check_positive("levels", v) for v in levels)
    rng = check_random_state(random_state) if not isinstance(
        random_state, np.random.Generator) else random_state
    if isinstance(rng, np.random.RandomState):
        rng = np.random.default_rng(rng.randint(0, 2**31 - 1))
    if version == "v1":
        mu, level = _means_v1(kind, n_classes, shift, levels, rng)
    else:
        mu, level = _means_v2(kind, n_classes, separation, levels)
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
                 relevance=relevance, means=mu, sd=relevant_sd, priors=counts / n_samples,
                 name=f"Artificial-{kind}-{n_classes}C", version=version)


def artificial_bayes_error(dataset: Bunch, *, n_samples: int = 400_000, random_state=0,
                           chunk: int = 50_000) -> tuple[float, float]:
    """Monte-Carlo Bayes error of an artificial problem, with its standard error.

    The classes are Gaussians with the same diagonal covariance σ²I on the relevant features
    and identical noise features, so the Bayes rule picks
    ``argmax_k log π_k − ‖x − μ_k‖² / (2σ²)`` on the relevant features (noise carries no
    information). Draw ``n_samples`` fresh points from the model (classes by their priors),
    classify them by that rule and count the errors.

    Parameters
    ----------
    dataset : Bunch
        As :func:`make_artificial` returns it (``means``, ``sd``, ``priors``).
    n_samples : int, default=400_000
    random_state : int, Generator or None, default=0
    chunk : int, default=50_000
        Points per batch (memory).

    Returns
    -------
    error, standard_error : float
        The error rate and ``sqrt(e(1 − e)/n)``.
    """
    for name, v in (("n_samples", n_samples), ("chunk", chunk)):
        check_param(name, v, [Interval("int", 1, None)])
    if not all(hasattr(dataset, a) for a in ("means", "sd", "priors")):
        raise TypeError("dataset must be what make_artificial returns (a Bunch with means, sd "
                        f"and priors), got {type(dataset).__name__}")
    mu = np.asarray(dataset.means, dtype=float)
    sd = float(dataset.sd)
    logp = np.log(np.asarray(dataset.priors, dtype=float))
    rng = np.random.default_rng(random_state)
    wrong = 0
    done = 0
    sq = (mu * mu).sum(axis=1)
    while done < n_samples:
        m = min(chunk, n_samples - done)
        y = rng.choice(mu.shape[0], size=m, p=np.exp(logp))
        x = mu[y] + sd * rng.standard_normal((m, mu.shape[1]))
        score = logp - (sq - 2.0 * x @ mu.T) / (2.0 * sd * sd)
        wrong += int((score.argmax(axis=1) != y).sum())
        done += m
    e = wrong / n_samples
    return e, float(np.sqrt(e * (1.0 - e) / n_samples))


def load_artificial(name: str, **kwargs) -> Bunch:
    """One of Table 3's datasets by name, e.g. ``"Artificial-1-8C"`` (keywords as
    :func:`make_artificial`).

    Parameters
    ----------
    name : str
        A key of :data:`ARTIFICIAL_DATASETS`.
    **kwargs
        Passed to :func:`make_artificial` (``n_samples``, ``seed`` …).

    Returns
    -------
    Bunch
        As :func:`make_artificial`.
    """
    if name not in ARTIFICIAL_DATASETS:
        raise ValueError(f"unknown artificial dataset {name!r}; known: {list(ARTIFICIAL_DATASETS)}")
    kind, c = ARTIFICIAL_DATASETS[name]
    return make_artificial(kind, c, **kwargs)
