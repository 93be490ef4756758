"""EnsembleSelector under joblib's Dask backend on a 2-worker LocalCluster (processes) gives the
one-process fit exactly: the same lists (names, scores, positions), consensus, selected features
and stability table — the small version of ``benchmarks/bench_dask_omics.py``."""

from __future__ import annotations

import numpy as np
import pytest

from rankfusion import EnsembleSelector

distributed = pytest.importorskip("distributed")


def _data():
    rng = np.random.default_rng(11)
    X = rng.gamma(2.0, 1.0, size=(40, 120))  # non-negative, for chi2
    y = np.repeat([0, 1], 20)
    X[y == 1, :10] += np.linspace(1.0, 0.2, 10)
    return X, y


def _selector(n_jobs):
    return EnsembleSelector(rankers=("f_classif", "chi2", "symmetric_uncertainty"),
                            aggregation="borda", n_bootstraps=6, n_features_to_select=10,
                            random_state=5, n_jobs=n_jobs)


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        yield c


def test_dask_backend_fit_equals_the_local_fit(client):
    from joblib import parallel_config
    from threadpoolctl import threadpool_limits

    X, y = _data()
    X_before = X.copy()
    with threadpool_limits(1):  # the workers' BLAS threads (Dask sets OMP_NUM_THREADS=1)
        local = _selector(1).fit(X, y)
    with distributed.get_task_stream(client=client) as stream, \
            parallel_config(backend="dask"):
        remote = _selector(2).fit(X, y)
    # the ranker calls ran as tasks on the cluster's workers
    assert len(stream.data) >= 2
    assert {t["worker"] for t in stream.data} <= set(client.scheduler_info()["workers"])
    assert np.array_equal(X, X_before)
    assert np.array_equal(remote.lists_.list_names, local.lists_.list_names)
    assert len(local.lists_.list_names) == 18
    assert np.array_equal(remote.lists_.scores, local.lists_.scores)
    assert np.array_equal(remote.lists_.positions, local.lists_.positions)
    assert np.array_equal(remote.scores_, local.scores_)
    assert np.array_equal(remote.positions_, local.positions_)
    assert np.array_equal(remote.get_support(), local.get_support())
    assert int(local.get_support().sum()) == 10
    assert [b.tolist() for b in remote.bootstrap_indices_] == \
        [b.tolist() for b in local.bootstrap_indices_]
    assert remote.stability_.equals(local.stability_)
    assert list(local.stability_.index) == ["f_classif", "chi2", "symmetric_uncertainty",
                                            "consensus"]
