"""The ensemble's prepared kernels and sample-grouped tasks change no number."""

import numpy as np
import pytest

from rankfusion import EnsembleSelector
from rankfusion.selection.ranker_specs import ranker_cache, resolve_rankers
from rankfusion.selection.ranking_jobs import plan_ranking_jobs


def _data(n_classes=2):
    rng = np.random.default_rng(5)
    y = np.arange(60) % n_classes
    X = rng.gamma(2.0, 1.0, size=(60, 30))
    X[:, :3] += y[:, None]
    return X, y


@pytest.mark.parametrize("n_classes", [2, 3])
def test_kernel_path_equals_the_ranker_path(n_classes):
    X, y = _data(n_classes)
    kw = dict(rankers=("f_classif", "chi2", "info_gain"), n_bootstraps=6,
              n_features_to_select=5, random_state=3)
    fast = EnsembleSelector(**kw).fit(X, y)
    with ranker_cache():  # the memo on: every call goes through the registered ranker
        slow = EnsembleSelector(**kw).fit(X, y)
    assert np.array_equal(fast.lists_.scores, slow.lists_.scores)
    assert np.array_equal(fast.lists_.positions, slow.lists_.positions)
    assert np.array_equal(fast.scores_, slow.scores_)
    assert fast.stability_.equals(slow.stability_)


@pytest.mark.parametrize("n_bootstraps", [0, 1, 3, 8, 40])
@pytest.mark.parametrize("n_jobs", [1, 2, 4])
def test_tasks_hold_every_job_once(n_bootstraps, n_jobs):
    _, y = _data()
    plan = plan_ranking_jobs(resolve_rankers(["f_classif", "chi2", "relieff"]), y, 0,
                             n_bootstraps=n_bootstraps)
    tasks = plan.tasks(n_jobs)
    flat = sorted(j for t in tasks for j in t)
    assert flat == list(range(len(plan.jobs)))
    assert all(tasks)
    if n_jobs == 1 and n_bootstraps:
        # one task per sample: its rankers share the sample's rows
        assert len(tasks) == n_bootstraps
        for t in tasks:
            assert len({plan.jobs[j].bootstrap for j in t}) == 1
