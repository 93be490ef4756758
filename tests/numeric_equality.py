"""How the tests compare numbers with an oracle (docs/design.md, 'Equality with the oracles').

Where bit-equality can hold on every platform (the input read exactly, only ``+ − × ÷`` and
``|·|`` in a fixed order, which IEEE 754 rounds the same everywhere) a test keeps
``numpy.testing.assert_array_equal``. Where a result goes through the platform's libm
(``exp``, ``log``, ``pow``) or BLAS, whose last bits differ between machines, a test compares
within a stated number of units in the last place with :func:`assert_within_ulps`, and says
why.
"""

from __future__ import annotations

import numpy as np


def ulps_apart(a, b, *, scale: float = 0.0) -> np.ndarray:
    """``|a − b|`` in units in the last place of ``max(|a|, |b|, scale)``, elementwise.

    ``scale`` is the magnitude of the terms a result was summed from, where it is larger
    than the result (a score near 0 after cancellation of terms near 1): its rounding errors
    are ulps of ``scale``, not of the small result. Equal values (NaN with NaN, an infinity
    with itself) are 0 ulps apart; a NaN against a number, or different infinities, are
    infinitely far apart.
    """
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    with np.errstate(invalid="ignore", over="ignore"):
        size = np.maximum(np.maximum(np.abs(a), np.abs(b)), abs(float(scale)))
        out = np.abs(a - b) / np.spacing(size)
    out = np.where(same, 0.0, out)
    return np.where(np.isnan(out), np.inf, out)


def assert_within_ulps(actual, desired, ulps: float, *, why: str, scale: float = 0.0) -> None:
    """Assert ``actual`` and ``desired`` are at most ``ulps`` units in the last place apart
    (of ``max(|actual|, |desired|, scale)``, elementwise; :func:`ulps_apart`).

    Parameters
    ----------
    actual, desired : array-like
        Same shape.
    ulps : float
        The tolerance, at least 0 (0: bit-equal but for the sign of zero).
    why : str
        Why the comparison cannot be bit-equal on every platform (libm, BLAS, …); required,
        and shown when the assertion fails.
    scale : float, default 0
        See :func:`ulps_apart`.
    """
    if not (isinstance(why, str) and why.strip()):
        raise TypeError("assert_within_ulps needs why=: the reason bit-equality cannot hold")
    if not ulps >= 0:
        raise ValueError(f"ulps must be at least 0, got {ulps!r}")
    actual, desired = np.asarray(actual, dtype=np.float64), np.asarray(desired, dtype=np.float64)
    assert actual.shape == desired.shape, f"shapes {actual.shape} and {desired.shape}"
    apart = ulps_apart(actual, desired, scale=scale)
    if apart.size and apart.max() > ulps:
        k = int(np.argmax(apart))
        raise AssertionError(
            f"{int((apart > ulps).sum())} of {apart.size} values more than {ulps:g} ulps apart "
            f"(at most {ulps:g} allowed because {why}); the farthest, at flat index {k}: "
            f"{float(actual.flat[k])!r} and {float(desired.flat[k])!r}, "
            f"{float(apart.flat[k]):.3g} ulps"
        )


def weka_with_degenerate_last(ref, X) -> np.ndarray:
    """Weka's scores ``ref`` with rankfusion's documented departure (docs/design.md,
    'Rankers'): a constant or entirely missing column of ``X`` is lowered to the lowest score
    of the others where it is above (Weka places it by its score)."""
    import pandas as pd

    ref = np.array(ref, dtype=np.float64)
    frame = pd.DataFrame(X)
    mask = np.array([frame.iloc[:, j].nunique(dropna=False) <= 1 for j in range(frame.shape[1])])
    if mask.any() and not mask.all():
        ref[mask] = np.minimum(ref[mask], ref[~mask].min())
    return ref
