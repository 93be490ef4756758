"""Numba kernels compiled on demand, run serially or in parallel by the size of the work
(docs/design.md, 'Threads').

A :class:`Kernel` wraps a plain Python function written in the numba subset. Nothing is
imported or compiled when the module defining it is imported:

* ``kernel(*args)`` runs the compiled serial variant once numba has compiled it, and the plain
  Python function before that — for tiny inputs (a 150 × 4 data set) the interpreter is faster
  than importing numba (≈ 0.3–0.5 s and ≈ 70 MB);
* ``kernel.run(*args, work=w)`` is the entry point for callers: with ``w`` below
  ``python_below`` (and the kernel not compiled yet) it runs the plain function; otherwise the
  compiled serial variant, or, when ``w`` reaches ``parallel_from`` and more than one thread is
  allowed (:func:`thread_budget`), the ``parallel=True`` variant on that many threads.
* many small calls (a ranker on 100 bootstrap samples) add up: once a kernel has spent as long
  in the interpreter as compiling would cost (:data:`PYTHON_SECONDS_COLD` while numba is not
  imported, :data:`PYTHON_SECONDS_WARM` once it is and only the kernel's cached machine code
  remains to load), it is compiled and its later calls run compiled -- the rent-or-buy rule,
  at most about twice the cost of the better choice made in hindsight.

Serial and parallel variants compile the same function (``numba.prange`` is ``range`` in the
serial one), and every kernel writes each output cell from one iteration only, so results do not
depend on the number of threads.

When a kernel is compiled, the kernels it calls (globals of its module that are
:class:`Kernel`) are compiled first and the module's globals rebound to their dispatchers, so
numba sees ordinary jitted functions.

numba's on-disk cache (``cache=True``) writes next to the source file (``__pycache__``), in
``$NUMBA_CACHE_DIR`` or in the user's cache folder (``~/.cache/numba``); where none of them is
writable (a read-only installation and ``$HOME``), decorating a function fails with numba's
"cannot cache function". :func:`numba_cache_fallback`, run when this module is imported (and
``import rankfusion`` imports it), then points ``NUMBA_CACHE_DIR`` at a private folder of the
temporary folder; and a :class:`Kernel` that still cannot cache compiles without caching.
"""

from __future__ import annotations

import functools
import math
import os
import sys
import time
import types

__all__ = ["Kernel", "kernel", "compiled_serial", "thread_budget", "free_cores", "NUMBA",
           "numba_cache_fallback"]


def _writable(path) -> bool:
    """Whether a folder ``path`` can be written, or created: the folder itself, else its
    nearest existing parent (as numba's ``os.makedirs`` then a test file would find)."""
    path = os.path.abspath(os.fspath(path))
    while not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            return False
        path = parent
    return os.path.isdir(path) and os.access(path, os.W_OK | os.X_OK)


def _user_cache_dir() -> str | None:
    """numba's user-wide cache folder (``appdirs.user_cache_dir("numba")``) on Linux and
    macOS; None elsewhere."""
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Caches/numba")
    if sys.platform.startswith("linux"):
        base = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
        return os.path.join(base, "numba")
    return None


def _private_temp_dir() -> str | None:
    """A folder of the temporary folder that only this user can write, kept across runs
    (``rankfusion-numba-cache-<uid>``), or a fresh one when that name is taken by another
    user or is writable by others (numba loads machine code from it); None when the temporary
    folder is not writable either."""
    import stat
    import tempfile

    try:
        base = tempfile.gettempdir()
    except (OSError, FileNotFoundError):  # no writable temporary folder at all
        return None
    uid = os.getuid() if hasattr(os, "getuid") else 0
    path = os.path.join(base, f"rankfusion-numba-cache-{uid}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        st = os.lstat(path)
        if (stat.S_ISDIR(st.st_mode) and not st.st_mode & 0o022
                and (not hasattr(os, "getuid") or st.st_uid == uid)
                and os.access(path, os.W_OK | os.X_OK)):
            return path
        return tempfile.mkdtemp(prefix="rankfusion-numba-cache-")
    except OSError:
        return None


@functools.lru_cache(maxsize=1)
def numba_cache_fallback(package_dir: str | None = None) -> str | None:
    """Give numba's on-disk cache a writable folder where it has none.

    numba caches a compiled function (``cache=True``) in ``$NUMBA_CACHE_DIR``, else beside its
    source file (``__pycache__``), else in the user's cache folder; when none can be written,
    decorating the function raises ``RuntimeError: cannot cache function``. Where neither
    rankfusion's folder nor the user's cache folder (nor a given ``$NUMBA_CACHE_DIR``) is
    writable, this sets ``NUMBA_CACHE_DIR`` (the environment, inherited by worker processes,
    and numba's configuration if numba is loaded) to a folder of the temporary folder that
    only this user can write. Called once, when this module is imported; nothing is imported
    or written otherwise.

    Parameters
    ----------
    package_dir : str, optional
        The folder of the kernels' source files (default: rankfusion's).

    Returns
    -------
    str or None
        The folder set, or None when numba has a writable place already (or none at all: a
        :class:`Kernel` then compiles without caching).
    """
    given = os.environ.get("NUMBA_CACHE_DIR", "").strip()
    if given and _writable(given):
        return None
    pkg = package_dir or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if _writable(os.path.join(pkg, "__pycache__")):
        return None
    user = _user_cache_dir()
    if user is None or _writable(user):
        return None
    folder = _private_temp_dir()
    if folder is None:
        return None
    os.environ["NUMBA_CACHE_DIR"] = folder
    numba = sys.modules.get("numba")
    if numba is not None:
        numba.config.CACHE_DIR = folder
    return folder


def _njit(func, **options):
    """``numba.njit(**options)(func)``; with ``cache=True`` where numba finds no writable
    cache folder (``cannot cache function``), compiled without caching."""
    import numba

    try:
        return numba.njit(**options)(func)
    except RuntimeError as exc:
        if not options.get("cache") or "cannot cache" not in str(exc):
            raise
    return numba.njit(**{**options, "cache": False})(func)


class _NumbaStandIn:
    """What a kernel module binds to the name ``numba`` so that importing it does not import
    numba: ``numba.prange`` is ``range`` in the kernels' plain-Python runs, and compiling a
    kernel rebinds the module's ``numba`` to the real module first (:meth:`Kernel.serial`)."""

    prange = range

    def __repr__(self) -> str:
        return "<numba, imported when a kernel is compiled>"


#: ``from .._utils.jit import NUMBA as numba`` in a module whose kernels use only
#: ``numba.prange`` (see :class:`_NumbaStandIn`).
NUMBA = _NumbaStandIn()

#: Seconds of plain-Python runs after which a kernel is compiled while numba is not imported
#: yet (importing numba and loading a cached kernel take ≈ 0.3–0.5 s).
PYTHON_SECONDS_COLD = 0.5
#: The same once numba is imported: only the kernel's cached machine code remains to load
#: (≈ 0.03 s for the MDL discretisation kernels).
PYTHON_SECONDS_WARM = 0.05


def _runnable_now() -> int:
    """Processes and threads runnable at this instant, host-wide (``/proc/loadavg``'s 4th
    field, ours included); 0 where unknown."""
    try:
        with open("/proc/loadavg") as fh:
            return int(fh.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return 0


def free_cores() -> int:
    """Cores free for this process: ``os.cpu_count()`` minus the other runnable work, at least 1.

    The other work is read two ways and the larger is kept: the rounded 1-minute load average
    less one (this process), which is smooth but lags by up to a minute, and the tasks
    runnable right now less one (``/proc/loadavg``), which sees a job that just started. Erring
    towards fewer threads costs at most the parallel speed-up; erring the other way makes
    threads wait for busy cores, which was 10–300× slower on small calls.
    """
    n = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # pragma: no cover - platforms without a load average
        load = 0.0
    others = max(0, math.floor(load + 0.5) - 1, _runnable_now() - 1)
    return max(1, n - others)


def _threadpool_limit() -> int | None:
    """The smallest thread limit threadpoolctl set on an OpenMP / BLAS pool (only when the
    caller imported threadpoolctl, so that this costs nothing otherwise)."""
    if "threadpoolctl" not in sys.modules:
        return None
    try:
        info = sys.modules["threadpoolctl"].threadpool_info()
    except Exception:  # pragma: no cover - threadpoolctl internals
        return None
    counts = [int(d["num_threads"]) for d in info if d.get("num_threads")]
    return min(counts) if counts else None


def thread_budget(n_jobs: int | None = None) -> int:
    """Threads a parallel kernel may use (docs/design.md, 'Threads').

    ``min(cores, n_jobs, NUMBA_NUM_THREADS, threadpoolctl's limit, free cores)``, each limit only
    when set: ``n_jobs`` as in scikit-learn (``None`` = no limit of its own, ``-1`` = all cores,
    ``-2`` = all but one), ``NUMBA_NUM_THREADS`` from the environment (numba's own pool size
    when numba is loaded), threadpoolctl's smallest OpenMP / BLAS limit when threadpoolctl is
    in use, and :func:`free_cores`. At least 1.
    """
    n = os.cpu_count() or 1
    limits = [n, free_cores()]
    if n_jobs is not None and n_jobs != 0:
        limits.append(n_jobs if n_jobs > 0 else max(1, n + 1 + n_jobs))
    env = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    if env.isdigit():
        limits.append(int(env))
    if "numba" in sys.modules:
        limits.append(sys.modules["numba"].config.NUMBA_NUM_THREADS)
    pool = _threadpool_limit()
    if pool is not None:
        limits.append(pool)
    return max(1, min(limits))


class Kernel:
    """A numba kernel compiled on first need; see the module docstring.

    Parameters
    ----------
    func : callable
        The kernel, in the numba subset (``numba.prange`` allowed only where ``parallel``).
    parallel : bool
        Whether a ``parallel=True`` variant exists.
    python_below : int
        Work below which an uncompiled kernel runs as plain Python.
    parallel_from : int
        Work from which the parallel variant is used (measured per kernel).
    options
        Other ``numba.njit`` options (``cache=True`` by default).
    """

    def __init__(self, func, *, parallel: bool = False, python_below: int = 0,
                 parallel_from: int | None = None, **options):
        functools.update_wrapper(self, func)
        self.py_func = func
        self.has_parallel = bool(parallel)
        self.python_below = int(python_below)
        self.parallel_from = parallel_from
        self.options = {"cache": True, **options}
        self._serial = None
        self._parallel = None
        self.python_seconds = 0.0  # time spent running py_func through run()

    def _bind_callees(self) -> None:
        g = self.py_func.__globals__
        for name in self.py_func.__code__.co_names:
            obj = g.get(name)
            if isinstance(obj, Kernel):
                g[name] = obj.serial()
            elif obj is NUMBA:  # numba must see its own prange
                import numba

                g[name] = numba

    def serial(self):
        """The compiled serial variant (compiled now if needed)."""
        if self._serial is None:
            self._bind_callees()
            self._serial = _njit(self.py_func, parallel=False, **self.options)
        return self._serial

    def parallel(self):
        """The compiled ``parallel=True`` variant (the serial one if there is none)."""
        if not self.has_parallel:
            return self.serial()
        if self._parallel is None:
            self._bind_callees()
            # numba's on-disk cache keys a function by its qualified name and signature, not
            # by ``parallel``: the parallel variant compiles a copy under its own name, or the
            # two variants would load each other's machine code
            f = self.py_func
            twin = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__,
                                      f.__closure__)
            twin.__qualname__ = f"{f.__qualname__}__parallel"
            twin.__module__ = f.__module__
            self._parallel = _njit(twin, parallel=True, **self.options)
        return self._parallel

    @property
    def compiled(self) -> bool:
        return self._serial is not None or self._parallel is not None

    def __call__(self, *args):
        # plain Python only for kernels allowed to run so (``python_below`` > 0) before they
        # are compiled; the others compile on their first call
        if self._serial is None and self.python_below > 0:
            return self.py_func(*args)
        return self.serial()(*args)

    def threads_for(self, work: int, n_jobs: int | None = None) -> int:
        """Threads the kernel uses for ``work`` (1 below ``parallel_from``)."""
        if not self.has_parallel or self.parallel_from is None or work < self.parallel_from:
            return 1
        return thread_budget(n_jobs)

    def _python_budget_left(self) -> bool:
        budget = PYTHON_SECONDS_WARM if "numba" in sys.modules else PYTHON_SECONDS_COLD
        return self.python_seconds < budget

    def run(self, *args, work: int, n_jobs: int | None = None):
        """Run on ``args``: plain Python, compiled serial or parallel by ``work``.

        Plain Python only while the kernel is not compiled, ``work < python_below`` and the
        kernel's plain-Python runs so far took less than the cost of compiling it (see the
        module docstring); the result is the same either way."""
        if not self.compiled and work < self.python_below and self._python_budget_left():
            t0 = time.perf_counter()
            try:
                return self.py_func(*args)
            finally:
                self.python_seconds += time.perf_counter() - t0
        threads = self.threads_for(work, n_jobs)
        if threads <= 1:
            return self.serial()(*args)
        import numba

        func = self.parallel()
        before = numba.get_num_threads()
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
        try:
            return func(*args)
        finally:
            numba.set_num_threads(before)


def compiled_serial(func):
    """The compiled serial variant of ``func``: a :class:`Kernel` or a kernel already rebound
    to its numba dispatcher (a module imported after a kernel of the defining module was
    compiled sees the dispatcher, not the :class:`Kernel`)."""
    return func.serial() if isinstance(func, Kernel) else func


def kernel(func=None, **kwargs):
    """Decorator making a :class:`Kernel` (``@kernel`` or ``@kernel(parallel=True, …)``)."""
    if func is None:
        return lambda f: Kernel(f, **kwargs)
    return Kernel(func, **kwargs)


numba_cache_fallback()
