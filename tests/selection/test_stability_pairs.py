"""StabilitySelector's unimodal bound counts complementary *pairs*: B/2 for B half-samples.

Shah & Samworth (2013), Variable selection with error control: another look at stability
selection, JRSS B 75(1), 55–80, §3 (the unimodal case): with B complementary pairs (2B
half-samples), θ = q/p and threshold π,

    E[V] ≤ q² / (p · C(π, B)),
    C(π, B) = 2 (2π − 1 − 1/(2B))                  for π ≤ 3/4 (valid when
              π ≥ 1/2 + min(θ², 1/(2B) + 3/4 θ²)),
    C(π, B) = (1 + 1/B) / (4 (1 − π + 1/(2B)))     for 3/4 < π ≤ 1,

written as in the R package stabs (``um_const``, used by ``stabsel_parameters`` with
``sampling.type = "SS"`` and ``assumption = "unimodal"``, whose ``B`` is the number of
complementary pairs: ``check_folds`` doubles its B subsamples with their complements). The
bound is recomputed here from that formula, never through the library's functions, and
compared with what a fitted selector reports for its ``n_subsamples`` half-samples.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from rankfusion.selection import StabilitySelector


def um_const(cutoff: float, B: int, theta: float) -> float:
    """C(π, B) transcribed from Shah & Samworth (2013, §3) / stabs' ``um_const``; B pairs."""
    if cutoff <= 0.75:
        if cutoff < 0.5 + min(theta**2, 1 / (2 * B) + 0.75 * theta**2):
            raise ValueError("cutoff out of bounds")
        return 2 * (2 * cutoff - 1 - 1 / (2 * B))
    if cutoff > 1:
        raise ValueError("cutoff out of bounds")
    return (1 + 1 / B) / (4 * (1 - cutoff + 1 / (2 * B)))


def unimodal_pfer(q: int, p: int, cutoff: float, B: int) -> float:
    """stabs' ``stabsel_parameters(p, cutoff, q, B, sampling.type = "SS", assumption =
    "unimodal")$specifiedPFER``: q² / p / um_const(cutoff, B, q / p)."""
    return q * q / p / um_const(cutoff, B, q / p)


def _data(p: int, seed: int = 0, n: int = 40):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.normal(size=(n, p))
    X[:, :3] += y[:, None]
    return X, y


# (q, p, π, pairs): both branches of C, the branch point π = 3/4, one to fifty pairs
CASES = [
    (5, 50, 0.9, 10),
    (4, 40, 0.7, 5),
    (3, 30, 0.6, 25),
    (10, 40, 0.8, 3),
    (2, 20, 0.75, 4),
    (6, 60, 0.95, 50),
    (1, 12, 1.0, 1),
]


@pytest.mark.parametrize("q, p, threshold, pairs", CASES)
def test_fitted_unimodal_bound_uses_the_number_of_pairs(q, p, threshold, pairs):
    X, y = _data(p)
    sel = StabilitySelector(
        q=q, threshold=threshold, bound="unimodal", n_subsamples=2 * pairs, random_state=0
    ).fit(X, y)
    assert (sel.q_, sel.threshold_, sel.n_subsamples_) == (q, threshold, 2 * pairs)
    expected = unimodal_pfer(q, p, threshold, pairs)
    assert sel.pfer_bound_ == pytest.approx(expected, rel=1e-12)
    # the case can tell pairs from half-samples: counting all 2B halves as pairs is another
    # bound (smaller: more "pairs" make C larger)
    assert unimodal_pfer(q, p, threshold, 2 * pairs) < expected * (1 - 1e-6)


@pytest.mark.parametrize(
    "threshold, pfer, p, pairs", [(0.9, 1.0, 100, 5), (0.7, 0.5, 80, 3), (0.75, 1.0, 60, 3)]
)
def test_fitted_q_from_threshold_and_pfer_uses_the_number_of_pairs(threshold, pfer, p, pairs):
    # q: the largest count whose unimodal bound (B pairs) stays within the target
    X, y = _data(p, seed=1)
    sel = StabilitySelector(
        threshold=threshold, pfer=pfer, bound="unimodal", n_subsamples=2 * pairs, random_state=0
    ).fit(X, y)

    def within(q, B):
        try:
            return unimodal_pfer(q, p, threshold, B) <= pfer
        except ValueError:  # outside the bound's range: not a candidate
            return False

    expected = max(q for q in range(1, p + 1) if within(q, pairs))
    assert sel.q_ == expected
    assert sel.pfer_bound_ == pytest.approx(unimodal_pfer(expected, p, threshold, pairs), rel=1e-12)
    assert max(q for q in range(1, p + 1) if within(q, 2 * pairs)) != expected  # discriminates


@pytest.mark.parametrize(
    "q, pfer, p, pairs", [(5, 1.0, 60, 5), (3, 0.5, 40, 4), (4, 0.5, 50, 3), (8, 2.0, 100, 10)]
)
def test_fitted_threshold_from_q_and_pfer_uses_the_number_of_pairs(q, pfer, p, pairs):
    # π: the smallest attainable selection probability j / (2B) above ½ (B pairs, 2B halves)
    # whose unimodal bound is within the target
    X, y = _data(p, seed=2)
    sel = StabilitySelector(
        q=q, pfer=pfer, bound="unimodal", n_subsamples=2 * pairs, random_state=0
    ).fit(X, y)

    def first(B):
        for j in range(B + 1, 2 * B + 1):
            t = j / (2 * B)
            try:
                if unimodal_pfer(q, p, t, B) <= pfer:
                    return t
            except ValueError:
                continue
        return None

    expected = first(pairs)
    assert expected is not None
    assert math.isclose(sel.threshold_, expected, rel_tol=0, abs_tol=1e-12)
    assert sel.pfer_bound_ == pytest.approx(unimodal_pfer(q, p, expected, pairs), rel=1e-12)
    assert first(2 * pairs) != expected  # the case discriminates pairs from half-samples
