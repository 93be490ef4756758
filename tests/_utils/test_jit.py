"""Kernels compiled on demand and the thread policy (docs/design.md, 'Threads'): the thread
budget follows every limit, and results do not depend on the variant or the thread count."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rankfusion import RankedLists, aggregate
from rankfusion._utils import jit
from rankfusion._utils.jit import Kernel, kernel, thread_budget
from rankfusion.aggregation import voting
from rankfusion.rankers.rfe import engine

SRC = str(Path(__file__).resolve().parents[2] / "src")
CORES = os.cpu_count() or 1


# ---------------------------------------------------------------------------- thread budget
@pytest.mark.parametrize("load, runnable, expected", [
    (0.0, 1, CORES), (0.4, 0, CORES), (1.0, 1, CORES),  # our own process only
    (CORES + 1.0, 1, 1), (100.0, 1, 1),  # busy for the last minute
    (0.2, CORES + 1, 1), (0.2, 2, max(1, CORES - 1)),  # busy right now (load lags)
])
def test_free_cores_from_load(monkeypatch, load, runnable, expected):
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    monkeypatch.setattr(jit, "_runnable_now", lambda: runnable)
    assert jit.free_cores() == expected


def test_runnable_now_counts_this_process():
    if not os.path.exists("/proc/loadavg"):
        pytest.skip("no /proc/loadavg")
    assert jit._runnable_now() >= 1


@pytest.mark.parametrize("n_jobs, expected", [
    (1, 1), (None, CORES), (-1, CORES), (10_000, CORES), (-10_000, 1),
])
def test_thread_budget_follows_n_jobs(monkeypatch, n_jobs, expected):
    monkeypatch.setattr(jit, "free_cores", lambda: CORES)
    monkeypatch.delenv("NUMBA_NUM_THREADS", raising=False)
    assert thread_budget(n_jobs) == min(expected, numba.config.NUMBA_NUM_THREADS)


def test_thread_budget_follows_env_and_free_cores(monkeypatch):
    monkeypatch.setattr(jit, "free_cores", lambda: CORES)
    monkeypatch.setenv("NUMBA_NUM_THREADS", "1")
    assert thread_budget(None) == 1
    monkeypatch.delenv("NUMBA_NUM_THREADS")
    monkeypatch.setattr(jit, "free_cores", lambda: 1)
    assert thread_budget(8) == 1


def test_thread_budget_follows_threadpoolctl(monkeypatch):
    threadpoolctl = pytest.importorskip("threadpoolctl")
    monkeypatch.setattr(jit, "free_cores", lambda: CORES)
    monkeypatch.setattr(threadpoolctl, "threadpool_info",
                        lambda: [{"user_api": "openmp", "num_threads": 1}])
    assert thread_budget(None) == 1


# ---------------------------------------------------------------------------- Kernel
def _cumsum(x, out):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
        out[i] = s


def _rowsums(a, out):
    for i in numba.prange(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j]
        out[i] = s


def test_small_work_runs_as_python_until_compiled():
    k = Kernel(_cumsum, python_below=100, cache=False)
    x = np.arange(5.0)
    out = np.empty(5)
    k.run(x, out, work=5)
    assert not k.compiled
    np.testing.assert_array_equal(out, np.cumsum(x))
    out2 = np.empty(5)
    k.run(x, out2, work=1000)
    assert k.compiled
    np.testing.assert_array_equal(out2, out)


@pytest.mark.parametrize("numba_loaded", [True, False])
def test_many_small_calls_compile_once_python_took_as_long_as_compiling(monkeypatch,
                                                                        numba_loaded):
    """Rent or buy: plain Python while its accumulated time stays below the cost of compiling
    (the cold budget before numba is imported, the warm one after)."""
    monkeypatch.setattr(jit, "PYTHON_SECONDS_WARM", 0.2 if numba_loaded else 100.0)
    monkeypatch.setattr(jit, "PYTHON_SECONDS_COLD", 100.0 if numba_loaded else 0.2)
    if not numba_loaded:
        monkeypatch.delitem(sys.modules, "numba")
    k = Kernel(_cumsum, python_below=100, cache=False)
    x = np.arange(5.0)
    out = np.empty(5)
    k.run(x, out, work=5)
    assert not k.compiled and 0.0 < k.python_seconds < 0.2
    k.python_seconds = 0.2  # as if the interpreter had run for the whole budget
    out2 = np.empty(5)
    if not numba_loaded:
        monkeypatch.undo()  # compiling needs the real numba module back
        monkeypatch.setattr(jit, "PYTHON_SECONDS_COLD", 0.2)
        monkeypatch.setattr(jit, "PYTHON_SECONDS_WARM", 0.2)
    k.run(x, out2, work=5)
    assert k.compiled
    np.testing.assert_array_equal(out2, np.cumsum(x))


def test_python_time_is_counted_only_for_plain_python_runs():
    k = Kernel(_cumsum, python_below=100, cache=False)
    x = np.arange(5.0)
    k.run(x, np.empty(5), work=1000)  # compiled: nothing counted
    assert k.compiled and k.python_seconds == 0.0


def test_kernel_without_python_path_compiles_on_call():
    k = kernel(_cumsum, cache=False)
    out = np.empty(3)
    k(np.ones(3), out)
    assert k.compiled
    np.testing.assert_array_equal(out, [1.0, 2.0, 3.0])


@pytest.mark.parametrize("threads", sorted({1, 2, CORES}))
def test_parallel_variant_same_result(monkeypatch, threads):
    monkeypatch.setattr(jit, "thread_budget", lambda n_jobs=None: threads)
    k = Kernel(_rowsums, parallel=True, parallel_from=0, cache=False)
    a = np.random.default_rng(0).random((300, 7))
    out_p, out_s = np.empty(300), np.empty(300)
    assert k.threads_for(10**9) == threads
    k.run(a, out_p, work=10**9)
    k.serial()(a, out_s)
    np.testing.assert_array_equal(out_p, out_s)
    np.testing.assert_allclose(out_s, a.sum(axis=1), rtol=1e-12)


def test_below_threshold_is_serial():
    k = Kernel(_rowsums, parallel=True, parallel_from=1000, cache=False)
    assert k.threads_for(999) == 1


# ---------------------------------------------------------------------------- voting rules
def _force_parallel(monkeypatch, threads):
    for name in ("_pairwise_counts", "_pairwise_weighted", "_copeland_scores", "_links",
                 "_widest_paths", "_beats_count"):
        monkeypatch.setattr(getattr(voting, name), "parallel_from", 0)
    monkeypatch.setattr(jit, "thread_budget", lambda n_jobs=None: threads)


def _numpy_schulze_order(lists):
    # independent oracle: pairwise counts by broadcasting, Floyd–Warshall in numpy
    pos = lists.positions
    d = (pos[:, None, :] < pos[None, :, :]).sum(axis=2)
    P = np.where(d > d.T, d, 0)
    for k in range(P.shape[0]):
        P = np.maximum(P, np.minimum(P[:, k:k + 1], P[k:k + 1, :]))
    np.fill_diagonal(P, 0)
    return (P > P.T).sum(axis=1)


@settings(max_examples=15, deadline=None)
@given(st.integers(2, 40), st.integers(1, 6), st.integers(0, 2**31))
def test_schulze_copeland_same_for_any_thread_count(p, m, seed):
    lists = RankedLists.from_scores(np.random.default_rng(seed).integers(0, 5, (p, m)))
    ref = {r: aggregate(lists, r) for r in ("schulze", "copeland")}
    with pytest.MonkeyPatch.context() as mp:
        _force_parallel(mp, min(2, numba.config.NUMBA_NUM_THREADS))
        for r in ("schulze", "copeland"):
            c = aggregate(lists, r)
            np.testing.assert_array_equal(c.order, ref[r].order)
            np.testing.assert_array_equal(c.scores, ref[r].scores)
    np.testing.assert_array_equal(ref["schulze"].scores, _numpy_schulze_order(lists))


def test_svm_rfe_same_for_any_thread_count(monkeypatch):
    from rankfusion.rankers import rfe_lists

    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 25))
    y = np.repeat([0, 1, 2], 20)
    X[y == 1, :3] += 1.5
    ref, _ = rfe_lists(X, y, decomposition="ovo", n_jobs=1)
    monkeypatch.setattr(engine, "PARALLEL_FROM", 0)
    monkeypatch.setattr(jit, "free_cores", lambda: CORES)
    two, _ = rfe_lists(X, y, decomposition="ovo", n_jobs=2)
    np.testing.assert_array_equal(two.positions, ref.positions)


def test_svm_rfe_threads_by_work(monkeypatch):
    class Pb:
        samples = np.arange(80)

    monkeypatch.setattr(jit, "free_cores", lambda: CORES)
    monkeypatch.delenv("NUMBA_NUM_THREADS", raising=False)
    # St. Jude's size: 15 OVO problems of ~80 samples × 985 genes stay on one thread
    assert engine._problem_jobs(2, [Pb()] * 15, 248, 985) == 1
    assert engine._problem_jobs(None, [Pb()] * 15, 248, 10**6) == 1
    assert engine._problem_jobs(2, [Pb()] * 15, 248, 10**6) == min(
        2, CORES, numba.config.NUMBA_NUM_THREADS)


# ---------------------------------------------------------------------------- plain Python path
_PURE = """
import sys, numpy as np
from rankfusion.rankers.information import info_gain, gain_ratio, chi_square
rng = np.random.default_rng(5)
X = rng.normal(size=(60, 4)); y = rng.integers(0, 3, 60)
X[:, 0] += 2.0 * y; X[:, 1] += 0.8 * y; X[rng.random((60, 4)) < 0.1] = np.nan
out = np.concatenate([info_gain(X, y), gain_ratio(X, y), chi_square(X, y)])
assert "numba" not in sys.modules, "the small input loaded numba"
print(repr(out.tolist()))
"""


def test_information_plain_python_equals_compiled():
    from rankfusion.rankers.information import chi_square, gain_ratio, info_gain

    env = {**os.environ, "PYTHONPATH": SRC}
    proc = subprocess.run([sys.executable, "-c", _PURE], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    pure = np.array(eval(proc.stdout))  # a list of floats we printed
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 4))
    y = rng.integers(0, 3, 60)
    X[:, 0] += 2.0 * y
    X[:, 1] += 0.8 * y
    X[rng.random((60, 4)) < 0.1] = np.nan
    from rankfusion.rankers import discretize, information

    for k in (discretize._all_cuts, discretize._codes_kernel, information._count_tables):
        k.serial()  # in this process the compiled kernels run
    compiled = np.concatenate([info_gain(X, y), gain_ratio(X, y), chi_square(X, y)])
    np.testing.assert_allclose(pure, compiled, rtol=1e-12, atol=1e-14)
    assert (compiled > 0).any()


# ---------------------------------------------------------------------------- import order
_CFS_AFTER_COMPILE = """
import numpy as np
from rankfusion.rankers import discretize
discretize._all_cuts.serial()  # rebinds discretize's globals (lnf) to numba dispatchers
assert not isinstance(discretize.lnf, type(discretize._all_cuts)), "lnf was not rebound"
from rankfusion.rankers.cfs import cfs  # imports lnf from discretize
rng = np.random.default_rng(3)
X = rng.normal(size=(40, 6)); y = rng.integers(0, 2, 40); X[:, 2] += 2.0 * y
print(repr(np.asarray(cfs(X, y)).tolist()))
"""


def test_cfs_imports_after_discretize_kernels_compiled():
    # a module importing a kernel from a module whose kernels were already compiled gets the
    # dispatcher, not the Kernel; cfs must load either way (the order of lazy ranker loading)
    env = {**os.environ, "PYTHONPATH": SRC}
    proc = subprocess.run([sys.executable, "-c", _CFS_AFTER_COMPILE], env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    from rankfusion.rankers.cfs import cfs

    rng = np.random.default_rng(3)
    X = rng.normal(size=(40, 6))
    y = rng.integers(0, 2, 40)
    X[:, 2] += 2.0 * y
    np.testing.assert_array_equal(np.array(eval(proc.stdout)), np.asarray(cfs(X, y)))


def test_compiled_serial_of_kernel_and_dispatcher():
    k = Kernel(lambda x: x + 1.0)
    d = jit.compiled_serial(k)
    assert d(1.0) == 2.0
    assert jit.compiled_serial(d) is d


# ---------------------------------------------------------------------------- numba's cache
def _add_one(a):  # a kernel of this test module (its cache would go beside this file)
    out = a.copy()
    for i in range(out.shape[0]):
        out[i] += 1.0
    return out


def test_a_kernel_with_no_writable_cache_compiles_without_caching(monkeypatch):
    import numba.core.caching as caching

    # no locator finds a writable folder: numba.njit(cache=True) raises "cannot cache"
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    monkeypatch.setattr(impl, "_locator_classes", [])
    with pytest.raises(RuntimeError, match="cannot cache"):
        numba.njit(cache=True)(_add_one)
    k = Kernel(_add_one)
    np.testing.assert_array_equal(k.serial()(np.arange(3.0)), [1.0, 2.0, 3.0])
    assert k.serial()._cache.__class__.__name__ == "NullCache"


@pytest.mark.parametrize("setup, fallback", [
    ("nothing writable", True),
    ("NUMBA_CACHE_DIR writable", False),
    ("user cache writable", False),
    ("private folder taken by others", True),
], ids=lambda v: v if isinstance(v, str) else None)
def test_numba_cache_falls_back_to_a_private_temporary_folder(monkeypatch, tmp_path, setup,
                                                             fallback):
    blocked = tmp_path / "file"
    blocked.write_text("a file: nothing can be created under it")
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(temp))
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(numba.config, "CACHE_DIR", numba.config.CACHE_DIR)
    monkeypatch.setenv("HOME", str(blocked / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked / "cache"))
    if setup == "NUMBA_CACHE_DIR writable":
        monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "given"))
    if setup == "user cache writable":
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    private = temp / f"rankfusion-numba-cache-{os.getuid()}"
    if setup == "private folder taken by others":
        private.mkdir(mode=0o777)
        os.chmod(private, 0o777)  # writable by anyone: never loaded from
    jit.numba_cache_fallback.cache_clear()
    try:
        got = jit.numba_cache_fallback(str(blocked / "site-packages" / "rankfusion"))
    finally:
        jit.numba_cache_fallback.cache_clear()
    if not fallback:
        assert got is None
        assert os.environ.get("NUMBA_CACHE_DIR") == (str(tmp_path / "given") if "NUMBA" in setup
                                                     else None)
        return
    assert got is not None and os.path.dirname(got) == str(temp)
    assert os.environ["NUMBA_CACHE_DIR"] == got == numba.config.CACHE_DIR
    assert os.stat(got).st_mode & 0o777 == 0o700
    assert (got == str(private)) == (setup == "nothing writable")


def test_the_command_line_runs_where_neither_the_package_nor_home_is_writable(tmp_path):
    """A subprocess in which numba can write neither beside rankfusion's files nor under
    $HOME (simulated: its in-tree locator dropped, $HOME under a file, the package folder
    reported unwritable) imports the kernels and ranks."""
    blocked = tmp_path / "file"
    blocked.write_text("x")
    data = tmp_path / "d.csv"
    data.write_text("a,b,cls\n" + "".join(f"{i % 3},{i % 5},{'xy'[i % 2]}\n"
                                          for i in range(20)))
    code = f"""
import os, sys
real_access = os.access
pkg = os.path.join({SRC!r}, "rankfusion")
def access(path, mode, *a, **k):
    if mode & os.W_OK and os.path.abspath(os.fspath(path)).startswith(pkg):
        return False
    return real_access(path, mode, *a, **k)
os.access = access
import numba.core.caching as caching
def locator(name):
    return getattr(caching, name, None) or getattr(caching, "_" + name)
impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
impl._locator_classes = [locator("UserProvidedCacheLocator"),
                         locator("UserWideCacheLocator")]
from rankfusion.cli import main
from rankfusion.distances import _kernels  # cache=True decorators, at import
code = main(["rank", {str(data)!r}, "--rankers", "relieff"])
print("CACHE", os.environ.get("NUMBA_CACHE_DIR"))
sys.exit(code)
"""
    env = {**os.environ, "PYTHONPATH": SRC, "HOME": str(blocked / "home"),
           "TMPDIR": str(tmp_path)}
    env.pop("NUMBA_CACHE_DIR", None)
    env.pop("XDG_CACHE_HOME", None)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=600)
    assert res.returncode == 0, res.stderr
    assert "cannot cache" not in res.stderr and "Traceback" not in res.stderr
    cache = res.stdout.split("CACHE ")[-1].strip()
    assert cache.startswith(str(tmp_path)) and os.listdir(cache)
