"""Sparse input: time and peak memory of χ², information gain and linear SVM-RFE on a sparse
matrix against the dense equivalent (docs/design.md, 'Sparse input').

Each measurement runs in its own subprocess (``python bench_sparse.py --one KIND RANKER N P``)
that builds the data and calls the ranker once on a 200 × 50 corner (imports and compilation
out of the timing), then reports the seconds of the ranker call and the process's peak
resident memory (``resource.getrusage(RUSAGE_SELF).ru_maxrss``) and the peak of Python
allocations during the call (``tracemalloc``; numpy and scipy allocations are traced). Sizes:

* χ² and information gain (``binarize=True``: binary/count features, the contingency from the
  sparse structure): sparse at the full 10⁴ × 10⁵, 1 % density; dense at 10⁴ × 10⁴ (the
  full dense matrix is 8 GB, above this shared machine's budget), with the sparse path also
  measured at 10⁴ × 10⁴ so that the ratio compares equal sizes.
* linear SVM-RFE (``svm_rfe``, binary, ``step=0.5``): 2·10³ × 2·10⁴ at 1 % (the full size is
  too slow on 2 shared cores: the SMO solver on 10⁴ samples for ~100 elimination steps),
  sparse and dense.

Rounds are interleaved (sparse, dense, sparse, dense, …); figures are medians of ``REPEAT``
rounds with the load average before each. Output: ``benchmarks/results/sparse.md``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

REPEAT = 3
DENSITY = 0.01
HERE = Path(__file__).resolve().parent
OUT = HERE / "results" / "sparse.md"

# (ranker, params, [(n, p) sparse-and-dense sizes], sparse-only size or None)
CASES = [
    ("chi2", {}, [(10_000, 10_000)], (10_000, 100_000)),
    ("info_gain", {"binarize": True}, [(10_000, 10_000)], (10_000, 100_000)),
    ("svm_rfe", {"step": 0.5}, [(2_000, 20_000)], None),
]


def make_data(n: int, p: int, seed: int = 0):
    """A CSR count matrix (Poisson 1 + Poisson(2) values at 1 % density) and a binary target
    driven by the first 20 features."""
    import scipy.sparse as sp

    rng = np.random.default_rng(seed)
    nnz = int(DENSITY * n * p)
    rows = rng.integers(0, n, nnz)
    cols = rng.integers(0, p, nnz)
    vals = 1.0 + rng.poisson(2.0, nnz)
    M = sp.csr_matrix((vals, (rows, cols)), shape=(n, p))
    M.sum_duplicates()
    score = np.asarray(M[:, :20].sum(axis=1)).reshape(-1) + rng.normal(0, 0.5, n)
    y = (score > np.median(score)).astype(np.int64)
    return M, y


def one(kind: str, ranker: str, n: int, p: int, params: dict) -> dict:
    import resource
    import time
    import tracemalloc

    from rankfusion.rankers import get_ranker

    M, y = make_data(n, p)
    X = M if kind == "sparse" else M.toarray()
    del M
    f = get_ranker(ranker)
    small = slice(0, 200)
    f(X[small][:, :50], y[small], **params)  # imports (scikit-learn, numba) out of the timing
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    t0 = time.perf_counter()
    f(X, y, **params)
    sec = time.perf_counter() - t0
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seconds": sec, "call_peak_mb": peak / 2**20, "maxrss_mb": rss / 1024,
            "before_call_mb": base / 1024,
            "input_mb": (X.data.nbytes + X.indices.nbytes + X.indptr.nbytes if kind == "sparse"
                         else X.nbytes) / 2**20}


def run(kind, ranker, n, p, params):
    env = dict(os.environ)
    src = str(HERE.parent / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run([sys.executable, __file__, "--one", kind, ranker, str(n), str(p),
                          json.dumps(params)], capture_output=True, text=True, env=env,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    rows = []
    for ranker, params, both, sparse_only in CASES:
        for n, p in both:
            res = {"sparse": [], "dense": []}
            loads = []
            for _ in range(REPEAT):
                loads.append(os.getloadavg()[0])
                for kind in ("sparse", "dense"):
                    res[kind].append(run(kind, ranker, n, p, params))
            rows.append((ranker, params, n, p, res, loads))
            print(ranker, n, p, {k: [r["seconds"] for r in v] for k, v in res.items()},
                  flush=True)
        if sparse_only:
            n, p = sparse_only
            res = {"sparse": [], "dense": None}
            loads = []
            for _ in range(REPEAT):
                loads.append(os.getloadavg()[0])
                res["sparse"].append(run("sparse", ranker, n, p, params))
            rows.append((ranker, params, n, p, res, loads))
            print(ranker, n, p, [r["seconds"] for r in res["sparse"]], flush=True)
    write(rows)


def _med(runs, key):
    return float(np.median([r[key] for r in runs]))


def write(rows) -> None:
    lines = ["# Sparse input: sparse path against the dense equivalent", "",
             "Generated by `benchmarks/bench_sparse.py` (each run a fresh subprocess; medians of "
             f"{REPEAT} interleaved rounds, min–max in brackets). Density 1 %, count values "
             "(1 + Poisson(2)), binary target. *Call peak* = tracemalloc peak of the ranker "
             "call (numpy/scipy buffers included); *max RSS* = the process's peak resident "
             "memory (data construction included). The dense matrix of 10⁴ × 10⁵ would be "
             "8 GB (over this shared machine's budget): dense is measured at 10⁴ × 10⁴ and "
             "sparse at both sizes. SVM-RFE uses a stated reduction (2·10³ × 2·10⁴, "
             "`step=0.5`): the full size is too slow on 2 shared cores.", "",
             "| ranker | n × p | input | time (s) | call peak (MiB) | max RSS (MiB) | "
             "input (MiB) | dense / sparse time | dense / sparse call peak | load |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for ranker, params, n, p, res, loads in rows:
        name = ranker + (f" ({', '.join(f'{k}={v}' for k, v in params.items())})"
                         if params else "")
        load = f"{min(loads):.1f}–{max(loads):.1f}"
        for kind in ("sparse", "dense"):
            runs = res[kind]
            if runs is None:
                continue
            secs = [r["seconds"] for r in runs]
            ratio_t = ratio_m = ""
            if kind == "dense":
                ratio_t = f"{_med(runs, 'seconds') / _med(res['sparse'], 'seconds'):.2f}"
                peak = _med(runs, "call_peak_mb") / _med(res["sparse"], "call_peak_mb")
                ratio_m = f"{peak:.1f}"
            lines.append(
                f"| {name} | {n:,} × {p:,} | {kind} | {np.median(secs):.2f} "
                f"[{min(secs):.2f}–{max(secs):.2f}] | {_med(runs, 'call_peak_mb'):,.0f} | "
                f"{_med(runs, 'maxrss_mb'):,.0f} | {_med(runs, 'input_mb'):,.0f} | {ratio_t} | "
                f"{ratio_m} | {load} |")
    lines += ["", f"Machine: {os.cpu_count()} cores (shared); Python {sys.version.split()[0]}.",
              ""]
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        kind, ranker, n, p, params = sys.argv[2:7]
        print(json.dumps(one(kind, ranker, int(n), int(p), json.loads(params))))
    else:
        main()
