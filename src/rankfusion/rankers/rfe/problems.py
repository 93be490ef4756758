"""Binary decomposition of a multiclass problem: one-vs-one and one-vs-all (Izetta et al. 2017,
§2).

Each :class:`BinaryProblem` names its samples (grouped by class, in the order libsvm sees them),
their ±1 labels and the two sides' class codes; the per-sample box bounds and the class weights
of a replacement estimator follow from it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["BinaryProblem", "binary_problems", "DECOMPOSITIONS"]

DECOMPOSITIONS = ("ovo", "ova")


@dataclass(frozen=True)
class BinaryProblem:
    """One binary problem of a decomposition.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    name : str
        ``"A_vs_B"`` (one-vs-one) or ``"A_vs_rest"`` (one-vs-all).
    samples : ndarray of int or None
        Row indices into X (None = all rows).
    y : ndarray of int
        +1 / −1 for those rows.
    positive : int
        The class code on the +1 side.
    negative : int
        The class code on the −1 side (−1 for "the rest").
    """

    name: str
    samples: np.ndarray | None
    y: np.ndarray
    positive: int
    negative: int


def binary_problems(y_codes: np.ndarray, classes,
                    decomposition: str = "ovo") -> list[BinaryProblem]:
    """The binary problems of ``decomposition`` ("ovo" or "ova") for class codes ``y_codes``.

    OVO problems come in class order (0 vs 1, 0 vs 2, …, 1 vs 2, …) and are named
    ``"A_vs_B"``; OVA problems are named ``"A_vs_rest"``. Two classes give one problem,
    ``"A_vs_B"``, whatever the decomposition. In each problem the second class (the rest) is
    −1 and the first +1.

    Parameters
    ----------
    y_codes : ndarray of int
        Class codes 0 … c − 1 of the samples.
    classes : sequence
        The class labels, in code order (they name the problems).
    decomposition : {"ovo", "ova"}, default "ovo"
        One-vs-one or one-vs-all.

    Returns
    -------
    list of BinaryProblem
    """
    if decomposition not in DECOMPOSITIONS:
        raise ValueError(
            f"decomposition must be one of {list(DECOMPOSITIONS)}, got {decomposition!r}")
    y_codes = np.asarray(y_codes)
    c = len(classes)
    names = [str(k) for k in classes]
    out = []
    if c == 2 or decomposition == "ovo":
        for a in range(c):
            for b in range(a + 1, c):
                # Samples grouped by class, first class first, as libsvm orders them: the
                # solver's ties (and so its path at a loose tolerance) then follow SVC's.
                idx = np.concatenate([np.flatnonzero(y_codes == a), np.flatnonzero(y_codes == b)])
                yb = np.where(y_codes[idx] == a, 1.0, -1.0)
                out.append(BinaryProblem(f"{names[a]}_vs_{names[b]}", idx, yb, a, b))
    else:
        for a in range(c):
            # As SVC sees ``y == a``: the rest (False, the first class) is +1 and comes first.
            idx = np.concatenate([np.flatnonzero(y_codes != a), np.flatnonzero(y_codes == a)])
            yb = np.where(y_codes[idx] == a, -1.0, 1.0)
            out.append(BinaryProblem(f"{names[a]}_vs_rest", idx, yb, a, -1))
    return out


def _sample_C(problem: BinaryProblem, y_codes, C: float, class_weight, n_classes) -> np.ndarray:
    """Per-sample box bounds ``C_t = C · weight``; ``class_weight`` None, dict by class code
    (already translated) or "balanced" (computed on the binary labels, as SVC on that problem).
    """
    yb = problem.y
    if class_weight is None:
        return np.full(yb.shape[0], float(C))
    if isinstance(class_weight, str):  # "balanced"
        n = yb.shape[0]
        n_pos = float((yb > 0).sum())
        n_neg = n - n_pos
        return np.where(yb > 0, C * n / (2.0 * n_pos), C * n / (2.0 * n_neg))
    codes = y_codes if problem.samples is None else y_codes[problem.samples]
    w = np.asarray([class_weight.get(k, 1.0) for k in range(n_classes)], dtype=np.float64)
    return C * w[codes]



def _binary_class_weight(problem, class_weight):
    """The binary labels' weights for a replacement ``estimator``.

    OVO: class ``positive`` is +1, class ``negative`` −1. OVA: the class itself is −1 and the
    rest +1 (as SVC sees ``y == a``); the rest gets weight 1 here, whereas the built-in solver
    weights each "rest" sample by its own class's weight (a per-class dict cannot say that).
    """
    if class_weight is None or isinstance(class_weight, str):
        return class_weight
    if problem.negative < 0:  # OVA
        return {-1.0: class_weight.get(problem.positive, 1.0), 1.0: 1.0}
    return {1.0: class_weight.get(problem.positive, 1.0),
            -1.0: class_weight.get(problem.negative, 1.0)}

