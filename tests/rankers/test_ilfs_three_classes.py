"""ILFS beyond two classes, worked by hand.

FSLib's ILFS is defined for two classes only (its distance normalisation works for two). The
generalisation (``rankfusion.rankers.ilfs`` module docstring) computes, for a sample of class
c_s, the ratio rho = d_own / (d_own + min over the other classes of d_c) (``"nearest"``) or
rho = d_own / sum_c d_c (``"sum"``), with d_c the squared distance to class c's mean; the tokens
are the MATLAB ``histc`` counts of rho over ``linspace(0, 1, T)``. Below, the tokens of a
three-class case are counted by hand, and the relevance and the score are recomputed by a plain
loop transcription of PLSA's EM and of the Inf-FS path sum with an explicit matrix inverse.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from rankfusion.rankers import ilfs
from rankfusion.rankers.ilfs import ilfs_relevance, ilfs_tokens

#          A (clean)  C (one class-1 sample sits on class 0's mean, one between 1 and 2)
X = np.array([[0.0, 0.0],
              [2.0, 2.0],
              [4.0, 1.0],
              [6.0, 9.0],
              [10.0, 10.0],
              [12.0, 12.0]])
Y = np.array([0, 0, 1, 1, 2, 2])
# class means: A 1, 5, 11; C 1, 5, 11.
# Feature C, "nearest" (edges 0, 1/3, 2/3, 1):
#   x=0 (c0): d = 1, 25, 121 -> 1/26        bin 0
#   x=2 (c0): d = 1, 9, 81   -> 1/10        bin 0
#   x=1 (c1): d = 0, 16, 100 -> 16/(16+0)=1 bin 3 (histc: exactly 1 is the last bin)
#   x=9 (c1): d = 64, 16, 4  -> 16/20 = 0.8 bin 2
#   x=10 (c2): d = 81, 25, 1 -> 1/26        bin 0
#   x=12 (c2): d = 121, 49, 1 -> 1/50       bin 0
# Feature C, "sum": 1/147, 1/91, 16/116, 16/84, 1/107, 1/171: all bin 0.
# Feature A: every sample is nearest its own mean, ratios 1/26, 1/10, 1/10, 1/26, 1/26, 1/50
# ("nearest") and smaller ("sum"): all bin 0.
TOKENS_BY_HAND = {
    "nearest": np.array([[6, 4], [0, 0], [0, 1], [0, 1]], float),
    "sum": np.array([[6, 6], [0, 0], [0, 0], [0, 0]], float),
}


@pytest.mark.parametrize("multiclass", ["nearest", "sum"])
def test_three_class_tokens_counted_by_hand(multiclass):
    np.testing.assert_array_equal(ilfs_tokens(X, Y, 3, 4, multiclass),
                                  TOKENS_BY_HAND[multiclass])


def _plsa_transcription(tokens, n, update_token_factor, max_iter=1000, tol=1e-6):
    """PLSA EM with two factors, loop by loop (FSLib's ILFS.m initialisation; the package's
    documented departure: a feature starting at p(z1|f) = 0 or 1 starts at 1/2)."""
    T, p = len(tokens), len(tokens[0])
    a = [5000 + (1 - 5000) * t / (T - 1) for t in range(T)]
    b = [1 + (5000 - 1) * t / (T - 1) for t in range(T)]
    p_tz = [[a[t] / sum(a), b[t] / sum(b)] for t in range(T)]
    p_zf = []
    for f in range(p):
        prior = 100.0 * sum(tokens[t][f] for t in range(max(T - 3, 0), T)) / n
        if prior <= 0 or prior >= 100:
            prior = 50.0
        p_zf.append([prior / 100.0, 1 - prior / 100.0])
    ll_prev = -999.0
    for _ in range(max_iter):
        p_tf = [[sum(p_tz[t][z] * p_zf[f][z] for z in range(2)) for f in range(p)]
                for t in range(T)]
        post = [[[p_zf[f][z] * p_tz[t][z] / p_tf[t][f] if tokens[t][f] > 0 else 0.0
                  for f in range(p)] for t in range(T)] for z in range(2)]
        new_zf = []
        for f in range(p):
            w = [sum(tokens[t][f] * post[z][t][f] for t in range(T)) for z in range(2)]
            s = sum(w) or 0.00001
            new_zf.append([w[0] / s, w[1] / s])
        p_zf = new_zf
        if update_token_factor:
            w = [[sum(tokens[t][f] * post[z][t][f] for f in range(p)) for z in range(2)]
                 for t in range(T)]
            for z in range(2):
                s = sum(w[t][z] for t in range(T))
                if s > 0:
                    for t in range(T):
                        p_tz[t][z] = w[t][z] / s
        ll = 0.0
        for t in range(T):
            for f in range(p):
                if tokens[t][f] > 0:
                    ll += tokens[t][f] * math.log(sum(p_tz[t][z] * p_zf[f][z] for z in range(2)))
        if abs(ll - ll_prev) < tol:
            break
        ll_prev = ll
    z1 = 1 if update_token_factor and p_tz[0][0] < p_tz[0][1] else 0
    return np.array([p_zf[f][z1] for f in range(p)])


def _path_sum_by_inverse(v):
    p = v.size
    A = np.outer(v, v)
    phi = math.ceil(A.sum(axis=1).max()) / p
    if phi >= 1:
        phi = 0.99
    r = phi / max(abs(np.linalg.eigvals(A)))
    S = np.linalg.inv(np.eye(p) - r * A) - np.eye(p)
    return S.sum(axis=1)


@pytest.mark.parametrize("multiclass", ["nearest", "sum"])
@pytest.mark.parametrize("update", [False, True])
def test_three_class_relevance_and_score_equal_the_transcription(multiclass, update):
    tokens = TOKENS_BY_HAND[multiclass]
    v = _plsa_transcription(tokens.tolist(), X.shape[0], update)
    ours = ilfs_relevance(X, Y, multiclass=multiclass, update_token_factor=update)
    np.testing.assert_allclose(ours, v, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ilfs(X, Y, multiclass=multiclass, update_token_factor=update),
                               _path_sum_by_inverse(v), rtol=1e-9, atol=1e-12)


def test_three_class_nearest_ranks_the_clean_feature_first():
    s = ilfs(X, Y)  # multiclass="nearest"
    assert s[0] > s[1]
    # "sum" cannot tell them apart here: both features put all six ratios in bin 0
    s_sum = ilfs(X, Y, multiclass="sum")
    assert s_sum[0] == pytest.approx(s_sum[1])
