"""EnsembleSelector on a Dask cluster at omics size: 2 workers against one process.

A synthetic expression-like data set, ``--genes`` (20,000) genes × ``--samples`` (500)
samples, two classes, non-negative values (gamma, so that χ² applies as it is, with no shift)
and 200 informative genes with graded effects. The ensemble: ``--bootstraps`` bootstrap
samples × three rankers, ANOVA F (``f_classif``), χ² (``chi2``) and symmetric uncertainty
(``symmetric_uncertainty``, on discretised values), Borda (mean rank), top 50.

* one process: ``EnsembleSelector(n_jobs=1)``, no Dask;
* one process: BLAS limited to 1 thread (``threadpoolctl``), as on Dask's workers, which set
  ``OMP_NUM_THREADS=1``: scikit-learn's ``chi2`` is a BLAS product whose last bits depend on
  the BLAS thread count (measured: with the parent's default threads, about half of a χ²
  list's scores differed from the workers' by up to 1.2e-15; positions and selection equal);
* Dask: ``EnsembleSelector(n_jobs=2)`` inside ``joblib.parallel_config(backend="dask")`` on a
  ``distributed.LocalCluster(n_workers=2, threads_per_worker=1)`` (joblib's Dask backend
  scatters the data matrix, an argument over 1 kB, once per fit and the workers share it).

The cluster runs with Dask's own diagnostics turned down (``--dask-config lean``, the default:
no statistical profiler on the workers, the event-loop tick every 1 s instead of 20 ms, the
system monitor every 2 s instead of 0.5 s); these cost CPU on every process for every second
the cluster is up, busy or idle, so on a loaded machine, where the fit's wall time grows, they
grow too. Their cost is measured here on an idle cluster of each configuration
(``--dask-config default`` runs the fits on Dask's defaults instead).

Every worker first runs a small fit in its own process (``client.run``: imports, numba's
kernels loaded), then one untimed warm-up of each contender. Timed in interleaved pairs (one
process, then Dask); medians of ``--repeat`` pairs, the 1-minute load average before and after
every pair. Speed-up = one-process median / Dask median; efficiency = speed-up / 2. CPU
seconds of the parent and of each worker are recorded beside the wall time; their ratio (Dask
/ one process) is the scale-out's overhead, which the machine's load changes much less than
the wall times. Each worker's resident memory (its peak, ``ru_maxrss``, and its RSS after the
fits, read on the worker with ``client.run``). The fitted lists (scores and positions), the
consensus, the selected features and the stability table of the Dask run must equal the local
run's exactly.

The full job (1,000 bootstraps) is extrapolated linearly from the measured one (every part of a
fit — the ranker calls, the aggregation, the stability's per-bootstrap consensus — is linear in
the number of bootstraps) and labelled as an extrapolation.

Run: ``python benchmarks/bench_dask_omics.py [--bootstraps 40] [--repeat 3]
[--dask-config lean|default] [--out benchmarks/results/dask_omics.md]``
"""

from __future__ import annotations

import argparse
import os
import pickle
import platform
import resource
import time
from pathlib import Path

import numpy as np

from _timing import Timing, load_average
from rankfusion import EnsembleSelector

RANKERS = ("f_classif", "chi2", "symmetric_uncertainty")
TOP = 50
FULL_BOOTSTRAPS = 1000
ONE = "one process (n_jobs=1)"
DASK = "Dask, 2 workers (n_jobs=2)"


def make_data(genes: int, samples: int, seed: int = 0):
    """Non-negative expression-like data, two balanced classes, 200 informative genes."""
    rng = np.random.default_rng(seed)
    X = rng.gamma(2.0, 1.0, size=(samples, genes))
    y = np.repeat([0, 1], [samples // 2, samples - samples // 2])
    rng.shuffle(y)
    k = min(200, genes)
    X[y == 1, :k] += np.linspace(1.0, 0.05, k)
    return X, y


def selector(n_bootstraps: int, n_jobs: int) -> EnsembleSelector:
    return EnsembleSelector(rankers=RANKERS, aggregation="borda", n_bootstraps=n_bootstraps,
                            n_features_to_select=TOP, random_state=0, n_jobs=n_jobs)


def same(a: EnsembleSelector, b: EnsembleSelector) -> bool:
    """Every output of two fits equal, bit for bit."""
    return (np.array_equal(a.lists_.list_names, b.lists_.list_names)
            and np.array_equal(a.lists_.positions, b.lists_.positions)
            and np.array_equal(a.lists_.scores, b.lists_.scores)
            and np.array_equal(a.scores_, b.scores_)
            and np.array_equal(a.positions_, b.positions_)
            and np.array_equal(a.support_, b.support_)
            and a.stability_.equals(b.stability_))


def _worker_cpu() -> float:
    import psutil

    return float(sum(psutil.Process().cpu_times()[:2]))


def _cluster_cpu(client) -> float:
    """CPU seconds so far of the worker processes, summed (a ``LocalCluster``'s scheduler and
    nannies run in this process: its own CPU time counts them)."""
    return sum(client.run(_worker_cpu).values())


#: Dask's diagnostics turned down (``--dask-config lean``): see the module docstring.
LEAN = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
        "distributed.admin.system-monitor.interval": "2s"}


def _warm_worker(X, y) -> bool:
    """A small fit in the worker's own process: imports and numba's kernels (compiled above
    the interpreter threshold), so that no worker pays them inside a timed fit."""
    selector(1, 1).fit(X, y)
    return True


def _cluster(config: dict):
    import dask
    from distributed import Client, LocalCluster

    with dask.config.set(config):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    return cluster, client


def idle_cost(config: dict, seconds: float = 5.0) -> float:
    """CPU seconds per second (cores) an idle 2-worker cluster spends: this process (client,
    scheduler and the workers' nannies) and the two worker processes."""
    cluster, client = _cluster(config)
    try:
        time.sleep(1.0)
        w0, c0, t0 = _cluster_cpu(client), time.process_time(), time.perf_counter()
        time.sleep(seconds)
        w1, c1, t1 = _cluster_cpu(client), time.process_time(), time.perf_counter()
    finally:
        client.close()
        cluster.close()
    return (c1 - c0 + w1 - w0) / (t1 - t0)


def _worker_memory() -> dict:
    import psutil

    return {"rss": psutil.Process().memory_info().rss,
            "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}


def _mb(b) -> str:
    return f"{b / 1e6:.0f} MB"


def _loads(xs) -> str:
    return ", ".join(f"{x:.1f}" for x in xs)


def run(genes: int, samples: int, n_bootstraps: int, repeat: int, dask_config: str = "lean"):
    from joblib import parallel_config
    from threadpoolctl import threadpool_limits

    X, y = make_data(genes, samples)
    idle = {"default": idle_cost({}), "lean": idle_cost(LEAN)}
    cluster, client = _cluster(LEAN if dask_config == "lean" else {})
    try:
        mem0 = client.run(_worker_memory)
        client.run(_warm_worker, X[:, :2000], y)
        one, two = selector(n_bootstraps, 1), selector(n_bootstraps, 2)
        with threadpool_limits(1):
            selector(2, 1).fit(X, y)
        with parallel_config(backend="dask"):
            selector(2, 2).fit(X, y)  # the workers import rankfusion, scikit-learn, … once
        wall = {ONE: Timing(ONE), DASK: Timing(DASK)}
        cpu = {ONE: Timing(ONE), DASK: Timing(DASK)}
        loads_before, loads_after, identical = [], [], []
        for _ in range(repeat):
            loads_before.append(load_average())
            c0, t0 = time.process_time(), time.perf_counter()
            with threadpool_limits(1):  # the workers' BLAS threads (Dask sets 1)
                one.fit(X, y)
            wall[ONE].seconds.append(time.perf_counter() - t0)
            cpu[ONE].seconds.append(time.process_time() - c0)
            w0 = _cluster_cpu(client)
            c0, t0 = time.process_time(), time.perf_counter()
            with parallel_config(backend="dask"):
                two.fit(X, y)
            wall[DASK].seconds.append(time.perf_counter() - t0)
            w1 = _cluster_cpu(client)
            cpu[DASK].seconds.append(time.process_time() - c0 + w1 - w0)
            loads_after.append(load_average())
            identical.append(same(one, two))
        mem1 = client.run(_worker_memory)
        metrics = {k: v.get("metrics", {}).get("memory")
                   for k, v in client.scheduler_info()["workers"].items()}
    finally:
        client.close()
        cluster.close()
    return dict(X=X, y=y, one=one, two=two, wall=wall, cpu=cpu, loads_before=loads_before,
                loads_after=loads_after, identical=identical, mem0=mem0, mem1=mem1,
                metrics=metrics, idle=idle, dask_config=dask_config,
                parent_peak=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024)


def report(r, args) -> str:
    X, one = r["X"], r["one"]
    wall, cpu = r["wall"], r["cpu"]
    t1, t2 = (wall[k].median for k in wall)
    speedup = t1 / t2
    pairs = [a / b for a, b in zip(*(w.seconds for w in wall.values()))]
    B, M = args.bootstraps, len(RANKERS)
    calls = B * M
    p = X.shape[1]
    one_list = one.lists_.scores[:, 0]
    list_pickle = len(pickle.dumps(np.ascontiguousarray(one_list), protocol=5))
    int32_bytes = p * np.dtype(np.int32).itemsize
    full_calls = FULL_BOOTSTRAPS * M
    lines = [
        "# Omics ensemble on a Dask cluster", "",
        f"`python benchmarks/bench_dask_omics.py --genes {args.genes} --samples {args.samples} "
        f"--bootstraps {B} --repeat {args.repeat} --dask-config {r['dask_config']}` — "
        f"{platform.machine()}, {os.cpu_count()} "
        f"CPUs, Python {platform.python_version()}, numpy {np.__version__}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.", "",
        f"Data: synthetic, {p:,} genes × {X.shape[0]} samples (float64, {_mb(X.nbytes)}), two "
        f"classes, gamma(2, 1) values (non-negative, so χ² takes them as they are), 200 "
        f"informative genes. Ensemble: {B} bootstrap samples × {M} rankers "
        f"({', '.join(RANKERS)}) = {calls} ranker calls, Borda (mean rank), top {TOP}, the "
        f"stability table (Nogueira per ranker and for the consensus). **{B} bootstraps, not "
        f"{FULL_BOOTSTRAPS:,}**: one pass of the full job takes about "
        f"{t1 * FULL_BOOTSTRAPS / B / 60:.0f} min in one process on this shared machine, too "
        f"long for interleaved repeats; the {FULL_BOOTSTRAPS:,}-bootstrap figures below are "
        f"extrapolated.", "",
        f"Medians of {args.repeat} interleaved pairs (one process, then Dask; min–max), after "
        f"one untimed warm-up of each.", "",
        "| contender | wall time | CPU seconds (parent + workers) |", "|---|---|---|"]
    lines += [f"| {k} | {wall[k].cell()} | {cpu[k].cell()} |" for k in wall]
    c1, c2 = (cpu[k].median for k in cpu)
    cpu_pairs = [b / a for a, b in zip(*(c.seconds for c in cpu.values()))]
    idle = r["idle"]
    lines += [
        "",
        f"**Speed-up {speedup:.2f}×, efficiency {speedup / 2:.2f}** (speed-up / 2 workers; "
        f"ratio of the medians; per pair {', '.join(f'{x:.2f}' for x in pairs)}). Load "
        f"average before each pair: {_loads(r['loads_before'])}; after: "
        f"{_loads(r['loads_after'])} (2 cores).", "",
        f"**CPU seconds Dask / CPU seconds one process: {c2 / c1:.2f}** (ratio of the "
        f"medians; per pair {', '.join(f'{x:.2f}' for x in cpu_pairs)}): the scale-out's "
        f"overhead, parent (client, scheduler, nannies) and workers together — the data "
        f"scattered to the "
        f"workers, the tasks and their lists pickled, the scheduler, and Dask's own periodic "
        f"work. An idle 2-worker cluster (parent and 2 workers) spends "
        f"{idle['default']:.3f} cores with Dask's default configuration and "
        f"{idle['lean']:.3f} cores with its diagnostics turned down "
        f"(`--dask-config lean`: no statistical profiler on the workers, event-loop tick 1 s, "
        f"system monitor 2 s); this run used `{r['dask_config']}`, i.e. about "
        f"{idle[r['dask_config']] * t2:.1f} CPU seconds of the Dask fit's "
        f"{c2:.1f} s at its median wall time, more on a loaded machine, where the wall "
        f"time grows.", "",
        f"Result of the Dask run identical to the local run (list names, every list's scores "
        f"and positions, consensus scores and positions, selected features, stability table), "
        f"bit for bit: {'yes, in every pair' if all(r['identical']) else 'NO'}.", ""]
    share = {k: cpu[k].median / wall[k].median for k in wall}
    lines += [
        "CPU share the benchmark got (CPU seconds / wall seconds): "
        + "; ".join(f"{k}: {v:.2f} cores" for k, v in share.items())
        + ". Where the Dask share is well under 2, the other sessions on the machine held the "
          "second core, and the efficiency measures the machine's load, not the scale-out.", ""]
    lines += ["## Memory per worker", "",
              "| worker | RSS before the fits | RSS after | peak RSS (ru_maxrss) | scheduler's "
              "memory metric |", "|---|---|---|---|---|"]
    for i, w in enumerate(sorted(r["mem1"])):
        m = r["metrics"].get(w)
        lines.append(f"| {i} | {_mb(r['mem0'][w]['rss'])} | {_mb(r['mem1'][w]['rss'])} | "
                     f"{_mb(r['mem1'][w]['peak'])} | {_mb(m) if m else 'n/a'} |")
    peak = max(v["peak"] for v in r["mem1"].values())
    base = max(v["rss"] for v in r["mem0"].values())
    lines += ["", f"The parent process (it holds the data, gathers the lists and runs the "
              f"local fits): peak RSS {_mb(r['parent_peak'])}.", ""]
    per_call = t1 / calls
    lines += [
        f"## What {FULL_BOOTSTRAPS:,} bootstraps and a 16-worker cluster need (extrapolation)",
        "",
        f"*Extrapolated, not measured*: linear in the number of ranker calls from the measured "
        f"{calls} calls ({per_call:.2f} s per call in one process here, all parts of the fit "
        f"included).", "",
        f"- {FULL_BOOTSTRAPS:,} bootstraps × {M} rankers = {full_calls:,} calls: about "
        f"{per_call * full_calls / 60:.0f} min in one process; at the measured efficiency "
        f"{speedup / 2:.2f}, about {per_call * full_calls / (2 * speedup / 2) / 60:.0f} min on "
        f"2 workers and {per_call * full_calls / (16 * speedup / 2) / 60:.1f} min on 16 (the "
        f"same efficiency assumed; the jobs are independent, so only the data shipping and the "
        f"gathering grow with the workers).",
        f"- Data shipped once per worker (joblib's Dask backend scatters X once per fit, or "
        f"`parallel_config(backend='dask', scatter=[X])` broadcasts it up front): "
        f"{_mb(X.nbytes)} per worker, {_mb(16 * X.nbytes)} for 16 workers.",
        f"- Lists gathered: one list is {p:,} float64 scores, {list_pickle:,} bytes pickled "
        f"(what a task sends back: the fitted lists keep the scores, bit for bit); as int32 "
        f"positions alone it would be {int32_bytes:,} bytes. "
        f"{full_calls:,} lists: {_mb(full_calls * list_pickle)} as float64 scores, "
        f"{_mb(full_calls * int32_bytes)} as int32 — the parent then holds the lists "
        f"(`lists_`: scores and positions, {_mb(one.lists_.scores.nbytes / calls * full_calls)} "
        f"of scores alone at {FULL_BOOTSTRAPS:,} bootstraps), so it, not the workers, needs "
        f"the memory.",
        f"- Memory per worker: peak {_mb(peak)} measured here (an idle worker: {_mb(base)}); "
        f"a worker holds the data, one bootstrap copy of it ({_mb(X.nbytes)}), one ranker's "
        f"transients and the lists of its current task (the first, largest task takes "
        f"1/32 of the samples on 16 workers, the later ones fewer: at {FULL_BOOTSTRAPS:,} "
        f"bootstraps {-(-FULL_BOOTSTRAPS // 32) * M} lists, "
        f"{_mb(-(-FULL_BOOTSTRAPS // 32) * M * list_pickle)}), not more with more workers, "
        f"so 16 workers "
        f"need about 16 × {_mb(peak)} = {_mb(16 * peak)} in all (measured per-worker peak; "
        f"not measured on 16 workers).", ""]
    lines += [
        "## Notes", "",
        "- The one-process fit runs with BLAS limited to one thread (`threadpoolctl`), as "
        "Dask's workers (`OMP_NUM_THREADS=1`): scikit-learn's `chi2` is a BLAS product whose "
        "last bits depend on the BLAS thread count (with the parent's default threads, about "
        "half of a χ² list's scores differed from the workers' by up to 1.2e-15 in an earlier "
        "run; positions and selection were equal).",
        "- The ranker calls go to the workers as tasks of whole bootstrap samples (every ranker "
        "of a sample in one task, sharing its copy of the rows), by guided self-scheduling: "
        f"each task takes ceil(remaining / 4) of the samples still unassigned, here "
        f"{_guided(B, 2)} samples per task, so that no worker waits long for the other at the "
        "end. joblib's Dask backend scatters X once per fit (an argument over 1 kB); the "
        "tasks send back float64 scores.",
        f"- The parent's serial part (validation, `RankedLists`, Borda, the stability table "
        f"with its {B} per-bootstrap consensus rankings) runs before and after the workers' "
        f"part, in both contenders.", ""]
    return "\n".join(lines)


def _guided(n_samples: int, workers: int) -> str:
    """The task sizes of ``RankingPlan.tasks`` on ``workers`` workers, as text."""
    from rankfusion.selection.ranking_jobs import RankingPlan

    tasks = RankingPlan(jobs=list(range(n_samples)), samples=[], n_rankers=1).tasks(workers)
    return ", ".join(str(len(t)) for t in tasks)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--genes", type=int, default=20000)
    ap.add_argument("--samples", type=int, default=500)
    ap.add_argument("--bootstraps", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dask-config", choices=("lean", "default"), default="lean",
                    help="Dask's diagnostics turned down (lean) or Dask's defaults")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    r = run(args.genes, args.samples, args.bootstraps, args.repeat, args.dask_config)
    text = report(r, args)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")
    if not all(r["identical"]):
        raise SystemExit("the Dask run differs from the local run")


if __name__ == "__main__":
    main()
