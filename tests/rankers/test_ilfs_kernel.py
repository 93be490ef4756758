"""The compiled EM loop of ILFS: numpy's arithmetic, operation for operation.

Oracles: ``numpy.add.reduce`` for the pairwise sums, exact rationals for the fused
multiply-add, and the numpy transcription of FSLib's EM the kernel replaced (kept here)."""

import importlib
from fractions import Fraction

import numba
import numpy as np
import pytest

ilfs_mod = importlib.import_module("rankfusion.rankers.ilfs")


def _numpy_em(tokens, n_samples, update_token_factor, max_iter=1000, tol=1e-6):
    """FSLib's EM (step 2) in numpy, as the ranker computed it before the compiled kernel."""
    tt, p = tokens.shape
    p_tz = np.column_stack([np.linspace(5000.0, 1.0, tt), np.linspace(1.0, 5000.0, tt)])
    p_tz /= p_tz.sum(axis=0, keepdims=True)
    prior = 100.0 * tokens[max(tt - 3, 0):].sum(axis=0) / n_samples
    prior[~np.isfinite(prior)] = 1.0
    prior[(prior <= 0.0) | (prior >= 100.0)] = 50.0
    p_zf = np.vstack([prior, 100.0 - prior])
    p_zf /= p_zf.sum(axis=0, keepdims=True)
    present = tokens > 0
    p_tf = p_tz @ p_zf
    ll_prev = -999.0
    for _ in range(max_iter):
        with np.errstate(divide="ignore", invalid="ignore"):
            post = np.where(present[None], p_zf[:, None, :] * p_tz.T[:, :, None]
                            / p_tf[None], 0.0)
        new = (tokens[None] * post).sum(axis=1)
        nc = new.sum(axis=0)
        nc[nc == 0] = 0.00001
        p_zf = new / nc
        if update_token_factor:
            w = (tokens[None] * post).sum(axis=2).T
            ws = w.sum(axis=0, keepdims=True)
            p_tz = np.where(ws > 0, w / np.where(ws > 0, ws, 1.0), p_tz)
        p_tf = p_tz @ p_zf
        with np.errstate(divide="ignore"):
            ll = float(np.sum(np.where(present, tokens * np.log(np.where(present, p_tf, 1.0)),
                                       0.0)))
        if abs(ll - ll_prev) < tol:
            break
        ll_prev = ll
    if update_token_factor and p_tz[0, 0] < p_tz[0, 1]:
        return p_zf[1]
    return p_zf[0]


@pytest.mark.parametrize("n", [0, 1, 2, 7, 8, 9, 15, 16, 17, 22, 127, 128, 129, 130, 255, 256,
                               257, 985, 1000, 4099])
def test_pairwise_sum_is_numpys_bit_for_bit(n):
    rng = np.random.default_rng(n)
    for scale in (1.0, 1e-8, 1e8):
        a = rng.standard_normal(n) * scale * rng.integers(1, 1000, n)
        assert ilfs_mod._pairwise_sum(a, n) == np.add.reduce(a)


def test_fma_rounds_once():
    ilfs_mod._bind_fma()
    fma = ilfs_mod._fma

    @numba.njit
    def call(a, b, c):
        return fma(a, b, c)

    a = 1.0 + 2.0 ** -30
    c = -(1.0 + 2.0 ** -29)
    assert a * a + c == 0.0  # two roundings lose the last term
    assert call(a, a, c) == 2.0 ** -60 == ilfs_mod._fma_exact(a, a, c)
    rng = np.random.default_rng(0)
    for a, b, c in rng.standard_normal((200, 3)):
        assert call(a, b, c) == float(Fraction(a) * Fraction(b) + Fraction(c))


@pytest.mark.parametrize("update", [True, False])
@pytest.mark.parametrize("tt, p, seed", [(4, 22, 0), (4, 3, 1), (4, 200, 2), (9, 40, 3),
                                         (3, 1, 4)])
def test_em_kernel_equals_numpy_transcription(update, tt, p, seed):
    rng = np.random.default_rng(seed)
    tokens = rng.integers(0, 30, (tt, p)).astype(float)
    tokens[:, rng.random(p) < 0.2] = 0.0  # features with empty bins, and some with no token
    tokens[rng.random((tt, p)) < 0.2] = 0.0
    n = int(tokens.sum(axis=0).max()) + 1
    got = ilfs_mod._plsa_relevance(tokens, n, update_token_factor=update)
    ref = _numpy_em(tokens, n, update)
    # equal bit for bit where numpy's BLAS computes p(t|z) @ p(z|f) with one fused
    # multiply-add, as the kernel does; within rounding elsewhere
    np.testing.assert_allclose(got, ref, rtol=1e-10, atol=1e-13)


def test_em_kernel_equals_numpy_transcription_on_bootstraps():
    from rankfusion.datasets import load

    X, y = load("parkinsons", return_X_y=True)
    _, y = np.unique(y, return_inverse=True)
    rng = np.random.default_rng(5)
    for _ in range(5):
        idx = rng.integers(0, len(y), 123)
        tokens = ilfs_mod.ilfs_tokens(np.asarray(X, float)[idx], y[idx], 2, 4)
        for update in (True, False):
            np.testing.assert_allclose(
                ilfs_mod._plsa_relevance(tokens, 123, update_token_factor=update),
                _numpy_em(tokens, 123, update), rtol=1e-10, atol=1e-13)
