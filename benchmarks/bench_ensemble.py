"""EnsembleSelector speed: the fuzzy paper's setting, and n_jobs scaling on St. Jude.

1. The fuzzy paper's setting: 100 bootstrap samples (63.2 % of the rows, drawn with
   replacement, as ``experiments/fuzzy/full.toml``) × CFS, ILFS, ReliefF and MIFS on Parkinsons
   (195 × 22), combined by ``fuzzy:MW``. The peer is the bare loop of the same 400 ranker calls
   on the same samples (what any ensemble must at least spend), so the ratio is the selector's
   own overhead (sampling, list building, fuzzy combination, stability). ``n_jobs=1`` and
   ``n_jobs=2`` are timed in the same rounds, and the CPU seconds of the ``n_jobs=1`` fit are
   recorded beside its wall time (on a shared machine wall time is CPU time divided by the share
   of a core the process gets).
2. Parallel scaling: ReliefF, information gain and NLC on ``--stjude-bootstraps`` bootstrap
   samples of St. Jude (248 × 985), ``n_jobs=1`` against ``n_jobs=2``, in interleaved pairs;
   the fitted lists, consensus and stability must be identical. The CPU seconds of every process
   (the parent and joblib's workers) are recorded too: they show whether two workers do more
   work than one.

3. Against pyensemblefs (``--pyensemblefs 50 500``, the bootstrap counts): Golub (72 × 7,129),
   B bootstrap samples × ANOVA F and χ², mean-rank aggregation, top 50, Nogueira stability.
   χ² needs non-negative data and Golub has negative values: both sides get the same copy of
   the data shifted once, column by column, to a minimum of 0 (``X - X.min(axis=0)``; ANOVA F
   does not change, and pyensemblefs's own per-sample shift of its ``RankingFilter`` never
   triggers). rankfusion: ``EnsembleSelector(rankers=("f_classif", "chi2"),
   aggregation="borda", n_bootstraps=B, n_features_to_select=50, n_jobs=1)`` (Borda is the
   mean rank). pyensemblefs 0.4.1, driven as its ``MetaBootstrapper`` documents: one
   ``MetaBootstrapper`` per ranker (``SelectKBest(f_classif, k=50)``, ``SelectKBest(chi2,
   k=50)``; the same ``random_state``, so both rankers see the same stratified resamples, as in
   rankfusion), ``MeanRankAggregator(top_k=50)`` on the stacked score rows and
   ``StabilityEvaluator(metrics="nogueira")`` on each ranker's bootstrap top-50 masks, all in
   one process (``n_jobs=1``). Ratio = pyensemblefs median / rankfusion median (> 1:
   rankfusion faster). An untimed check feeds pyensemblefs rankfusion's bootstrap rows and
   compares the outputs. The rankfusion side is then profiled (cProfile, top 15 cumulative).

Medians of interleaved runs, spread (min–max) and the load average before each round.
Run: ``python benchmarks/bench_ensemble.py [--repeat 5] [--out benchmarks/results/ensemble.md]``;
``--skip-fuzzy --skip-scaling --pyensemblefs 50 500 --append`` runs the pyensemblefs section
only and replaces it in (or adds it to) the ``--out`` file, keeping the rest.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np

from _timing import Timing, interleaved, load_average
from rankfusion import EnsembleSelector
from rankfusion.datasets import load, load_stjude_leukemia
from rankfusion.rankers import get_ranker

FUZZY = dict(rankers=("cfs", "ilfs", "relieff", "mifs"), aggregation="fuzzy:MW",
             n_bootstraps=100, sample_fraction=0.632, stratify=False, random_state=0)
SCALING_RANKERS = ("relieff", "info_gain", "nlc")


def _cpu_of_tree() -> float:
    """CPU seconds (user + system) of this process and its live children (joblib workers)."""
    import psutil

    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        try:
            total += sum(child.cpu_times()[:2])
        except psutil.Error:  # pragma: no cover - a worker that just exited
            pass
    return total


def _same(a: EnsembleSelector, b: EnsembleSelector) -> bool:
    return (np.array_equal(a.lists_.positions, b.lists_.positions)
            and np.array_equal(a.scores_, b.scores_)
            and np.array_equal(a.positions_, b.positions_)
            and a.stability_.equals(b.stability_))


def fuzzy_setting(repeat: int):
    X, y = load("parkinsons", return_X_y=True)
    X = np.asarray(X, dtype=float)
    one = EnsembleSelector(n_jobs=1, **FUZZY)
    two = EnsembleSelector(n_jobs=2, **FUZZY)
    rankers = FUZZY["rankers"]
    _, codes = np.unique(y, return_inverse=True)
    cpu = []

    def fit_one():
        c0 = time.process_time()
        one.fit(X, y)
        cpu.append(time.process_time() - c0)
        return one

    def bare_loop():
        out = []
        for idx in one.bootstrap_indices_:  # the selector's own samples
            for r in rankers:
                out.append(get_ranker(r)(X[idx], codes[idx]))
        return out

    # compile and warm (numba kernels, joblib's workers)
    fit_one(), two.fit(X, y), bare_loop()
    assert _same(one, two), "n_jobs changed the fuzzy ensemble"
    cpu.clear()
    timings, loads, _ = interleaved({"EnsembleSelector n_jobs=1": fit_one,
                                     "EnsembleSelector n_jobs=2": lambda: two.fit(X, y),
                                     "bare ranker loop (400 calls)": bare_loop}, repeat)
    assert _same(one, two), "n_jobs changed the fuzzy ensemble"
    return timings, loads, Timing("cpu", cpu)


def scaling(repeat: int, n_bootstraps: int):
    X, y = load_stjude_leukemia(return_X_y=True)
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    kw = dict(rankers=SCALING_RANKERS, n_bootstraps=n_bootstraps, random_state=0)
    one = EnsembleSelector(n_jobs=1, **kw)
    two = EnsembleSelector(n_jobs=2, **kw)
    one.fit(X, y)
    two.fit(X, y)  # starts joblib's workers and compiles their kernels
    assert _same(one, two), "n_jobs changed the lists"
    wall = {"n_jobs=1": Timing("n_jobs=1"), "n_jobs=2": Timing("n_jobs=2")}
    cpu = {"n_jobs=1": Timing("n_jobs=1"), "n_jobs=2": Timing("n_jobs=2")}
    loads = []
    for _ in range(repeat):
        loads.append(load_average())
        for name, sel in (("n_jobs=1", one), ("n_jobs=2", two)):
            c0, t0 = _cpu_of_tree(), time.perf_counter()
            sel.fit(X, y)
            wall[name].seconds.append(time.perf_counter() - t0)
            cpu[name].seconds.append(_cpu_of_tree() - c0)
        assert _same(one, two), "n_jobs changed the lists"
    return wall, cpu, loads


PYEFS_TOP = 50


def _golub_shifted():
    X, y = load("golub", return_X_y=True)
    X = np.asarray(X, dtype=np.float64)
    return X - X.min(axis=0), np.asarray(y)


def _pyefs_job(X, y, n_bootstraps, random_state=0):
    """pyensemblefs's side: the per-ranker bootstrap ensembles, mean rank, top 50, Nogueira."""
    from pyensemblefs.aggregators import MeanRankAggregator
    from pyensemblefs.ensemble.metabootstrapper import MetaBootstrapper
    from pyensemblefs.stability.evaluator import StabilityEvaluator
    from sklearn.feature_selection import SelectKBest, chi2, f_classif

    boots = {name: MetaBootstrapper([SelectKBest(f, k=PYEFS_TOP)], n_bootstraps=n_bootstraps,
                                    n_jobs=1, random_state=random_state, verbose=False).fit(X, y)
             for name, f in (("f_classif", f_classif), ("chi2", chi2))}
    agg = MeanRankAggregator(top_k=PYEFS_TOP).fit(np.vstack([b.score_mat_ for b in boots.values()]))
    ev = StabilityEvaluator(metrics="nogueira")
    stab = {name: ev.compute(b.results_).values["nogueira"] for name, b in boots.items()}
    return {"boots": boots, "top": np.asarray(agg.final_ranking_), "nogueira": stab}


def _rf_selector(n_bootstraps):
    return EnsembleSelector(rankers=("f_classif", "chi2"), aggregation="borda",
                            n_bootstraps=n_bootstraps, n_features_to_select=PYEFS_TOP,
                            n_jobs=1, random_state=0)


def _same_samples_check(X, y, n_bootstraps):
    """Feed pyensemblefs rankfusion's bootstrap rows (its ``resample`` replaced by a lookup,
    untimed) and compare what both return."""
    import pyensemblefs.ensemble.metabootstrapper as mb

    sel = _rf_selector(n_bootstraps).fit(X, y)
    seeds = np.random.RandomState(0).randint(0, 1_000_000, size=n_bootstraps)
    if len(set(seeds.tolist())) < n_bootstraps:  # pragma: no cover - a repeated seed
        return None
    rows = dict(zip(seeds.tolist(), sel.bootstrap_indices_))
    original = mb.resample
    mb.resample = lambda X_, y_, replace, stratify, random_state: (X_[rows[random_state]],
                                                                   y_[rows[random_state]])
    try:
        out = _pyefs_job(X, y, n_bootstraps)
    finally:
        mb.resample = original
    L = sel.lists_
    res = {}
    for name in ("f_classif", "chi2"):
        cols = [L.list_names.tolist().index(f"{name}@b{b}") for b in range(n_bootstraps)]
        ours = (L.positions[:, cols] <= PYEFS_TOP).T
        theirs = out["boots"][name].results_.astype(bool)
        res[f"{name}: bootstrap top-{PYEFS_TOP} subsets equal"] = (
            f"{int((ours == theirs).all(axis=1).sum())} of {n_bootstraps}")
        res[f"{name}: Nogueira"] = (f"{sel.stability_.loc[name, 'nogueira']:.12g} (rankfusion), "
                                   f"{out['nogueira'][name]:.12g} (pyensemblefs)")
    ours_top = np.asarray(sel.consensus_.order[:PYEFS_TOP])
    res[f"consensus top {PYEFS_TOP}, same order"] = bool(np.array_equal(ours_top, out["top"]))
    res[f"consensus top {PYEFS_TOP}, same set"] = bool(set(ours_top) == set(out["top"].tolist()))
    return res


DIGESTS = Path(__file__).with_name("results") / "ensemble_lists.json"


def fit_digest(sel) -> str:
    """SHA-256 of a fit's lists (scores, positions), consensus and stability table."""
    import hashlib

    h = hashlib.sha256()
    for a in (sel.lists_.scores, sel.lists_.positions, sel.scores_, sel.positions_):
        a = np.ascontiguousarray(a)
        h.update(a.dtype.str.encode())
        h.update(a.tobytes())
    h.update(sel.stability_.to_csv(float_format="%.17g").encode())
    return h.hexdigest()


def saved_digest_check(sel, n_bootstraps) -> str:
    """Whether the fit is bit-identical to the lists saved once before the speed work."""
    import json

    saved = json.loads(DIGESTS.read_text()) if DIGESTS.exists() else {}
    ref = saved.get(str(n_bootstraps))
    if ref is None:
        return "no saved lists for this count"
    return "yes" if fit_digest(sel) == ref else "**NO**"


def pyensemblefs_setting(repeat: int, n_bootstraps: int):
    X, y = _golub_shifted()
    sel = _rf_selector(n_bootstraps)
    sel.fit(X, y), _pyefs_job(X, y, 2)  # imports and warm caches on both sides
    timings, loads, outputs = interleaved({"rankfusion EnsembleSelector": lambda: sel.fit(X, y),
                                           "pyensemblefs": lambda: _pyefs_job(X, y, n_bootstraps)},
                                          repeat)
    loads.append(load_average())
    return timings, loads, saved_digest_check(sel, n_bootstraps)


def profile_rankfusion(n_bootstraps: int, top: int = 15) -> str:
    import cProfile
    import io
    import pstats

    X, y = _golub_shifted()
    sel = _rf_selector(n_bootstraps)
    sel.fit(X, y)
    prof = cProfile.Profile()
    prof.enable()
    sel.fit(X, y)
    prof.disable()
    buf = io.StringIO()
    stats = pstats.Stats(prof, stream=buf).strip_dirs().sort_stats("cumulative")
    stats.print_stats(top)
    text = buf.getvalue()
    return text[text.index("   ncalls"):].rstrip() if "   ncalls" in text else text.rstrip()


def _autogroup_note() -> str:
    try:
        on = Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        on = False
    if not on:
        return ""
    return ("The kernel schedules by autogroup (one group per session): the other sessions' "
            "`nice` does not lower their weight against this one, and this session's "
            "processes, joblib's workers included, share one group's CPU. With more busy "
            "sessions than cores, the group gets less than one core whatever n_jobs is, so "
            "the wall-time speed-up of n_jobs=2 can only be measured on a machine with two "
            "free cores; the CPU seconds of all processes show what two workers cost beside "
            "one.")


def _loads(loads) -> str:
    return ", ".join(f"{x:.1f}" for x in loads)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--stjude-bootstraps", type=int, default=48)
    ap.add_argument("--skip-fuzzy", action="store_true")
    ap.add_argument("--skip-scaling", action="store_true")
    ap.add_argument("--pyensemblefs", type=int, nargs="*", default=[],
                    help="bootstrap counts of the comparison with pyensemblefs (e.g. 50 500)")
    ap.add_argument("--append", action="store_true",
                    help="keep the --out file's other sections, replace the pyensemblefs one")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    lines = ["# Ensemble selector", "",
             f"`python benchmarks/bench_ensemble.py --repeat {args.repeat} --stjude-bootstraps "
             f"{args.stjude_bootstraps}` — {platform.machine()}, {os.cpu_count()} CPUs, Python "
             f"{platform.python_version()}, numpy {np.__version__}, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; medians of "
             f"{args.repeat} interleaved runs (min–max), load average before each round.", ""]
    if not args.skip_fuzzy:
        t, loads, cpu = fuzzy_setting(args.repeat)
        base = t["bare ranker loop (400 calls)"].median
        lines += ["## Fuzzy paper setting: Parkinsons 195 × 22, 100 bootstraps × CFS, ILFS, "
                  "ReliefF, MIFS, fuzzy:MW", "",
                  "| contender | wall time | ratio to the bare loop |", "|---|---|---|"]
        lines += [f"| {k} | {v.cell()} | {v.median / base:.2f} |" for k, v in t.items()]
        lines += ["", f"CPU seconds of the `n_jobs=1` fit: {cpu.cell()}. Results of `n_jobs=1` "
                  f"and `n_jobs=2` identical (lists, consensus, stability). Load: "
                  f"{_loads(loads)}.", ""]
    if not args.skip_scaling:
        lines += _scaling_lines(args)
    if args.pyensemblefs:
        lines += _pyensemblefs_lines(args)
    text = "\n".join(lines)
    print(text)
    if args.out:
        if args.append and args.out.exists():
            old = args.out.read_text()
            head = old.split(PYEFS_HEADING)[0].rstrip("\n")
            text = head + "\n\n" + "\n".join(lines[lines.index(PYEFS_HEADING):])
        args.out.write_text(text + "\n")


PYEFS_HEADING = "## Against pyensemblefs: Golub, ANOVA F and χ², mean rank, top 50, Nogueira"


def _pyensemblefs_lines(args) -> list:
    import pyensemblefs
    import sklearn

    version = getattr(pyensemblefs, "__version__", None)
    if version is None:
        from importlib.metadata import version as _v
        version = _v("pyensemblefs")
    lines = [PYEFS_HEADING, "",
             f"`python benchmarks/bench_ensemble.py --skip-fuzzy --skip-scaling --pyensemblefs "
             f"{' '.join(map(str, args.pyensemblefs))} --repeat {args.repeat}` — pyensemblefs "
             f"{version}, scikit-learn {sklearn.__version__}, "
             f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}.", "",
             "Golub 72 × 7,129, shifted once per column to a minimum of 0 for χ² (the same "
             "array on both sides; ANOVA F is shift-invariant). rankfusion: "
             "`EnsembleSelector(rankers=(\"f_classif\", \"chi2\"), aggregation=\"borda\", "
             "n_bootstraps=B, n_features_to_select=50, n_jobs=1)`. pyensemblefs: one "
             "`MetaBootstrapper` per ranker (`SelectKBest(f_classif, k=50)`, "
             "`SelectKBest(chi2, k=50)`, the same "
             "`random_state`, `n_jobs=1`), `MeanRankAggregator(top_k=50)` on the stacked score "
             "rows, `StabilityEvaluator(metrics=\"nogueira\")` on each ranker's bootstrap "
             "top-50 masks. Ratio = pyensemblefs / rankfusion (> 1: rankfusion faster).", "",
             "| bootstraps | rankfusion | pyensemblefs | ratio | load before each round, "
             "and after | lists bit-identical to the saved ones |", "|---|---|---|---|---|---|"]
    for B in args.pyensemblefs:
        t, loads, same = pyensemblefs_setting(args.repeat, B)
        ours, theirs = t["rankfusion EnsembleSelector"], t["pyensemblefs"]
        pairs = [b / a for a, b in zip(ours.seconds, theirs.seconds)]
        lines.append(f"| {B} | {ours.cell()} | {theirs.cell()} | "
                     f"**{theirs.median / ours.median:.2f}×** (per round "
                     f"{', '.join(f'{x:.2f}' for x in pairs)}) | {_loads(loads)} | {same} |")
    lines += ["", f"Medians of {args.repeat} interleaved rounds (min–max). Last column: the "
              "SHA-256 of the fit (every list's scores and positions, the consensus, the "
              "stability table) against `results/ensemble_lists.json`, saved once before the "
              "prepared kernels.", "",
              "Outputs. Both sides return the bootstrap lists, the mean-rank consensus, its top "
              "50 and each ranker's Nogueira stability. rankfusion's fit returns more: every "
              "list's positions (ties resolved), the consensus scores and positions, the "
              "Nogueira variance and 95 % interval, ASD and APC of the bootstrap scores, and a "
              "consensus row (the rule applied to each bootstrap's lists again, and its "
              "stability); pyensemblefs keeps min–max normalised score rows and 0/1 masks. The "
              "bootstrap samples differ (rankfusion's SeedSequence streams against "
              "scikit-learn's `resample(stratify=y)` on `RandomState` seeds; both stratified, "
              "n rows with replacement), so the timed runs rank different samples; with "
              f"rankfusion's samples fed to pyensemblefs (untimed, {min(args.pyensemblefs)} "
              "bootstraps):", ""]
    X, y = _golub_shifted()
    check = _same_samples_check(X, y, min(args.pyensemblefs))
    if check is None:
        lines.append("- (two pyensemblefs seeds repeat: check skipped)")
    else:
        lines += [f"- {k}: {v}" for k, v in check.items()]
    B = min(args.pyensemblefs)
    lines += ["", f"### Where rankfusion's time goes ({B} bootstraps, cProfile, top 15 by "
              "cumulative time)", "", "```", profile_rankfusion(B), "```", ""]
    return lines


def _scaling_lines(args) -> list:
    lines = []
    wall, cpu, loads = scaling(args.repeat, args.stjude_bootstraps)
    ratios = [a / b for a, b in zip(wall["n_jobs=1"].seconds, wall["n_jobs=2"].seconds)]
    speedup = wall["n_jobs=1"].median / wall["n_jobs=2"].median
    lines += [f"## n_jobs scaling: St. Jude 248 × 985, ReliefF + IG + NLC × "
              f"{args.stjude_bootstraps} bootstraps", "",
              "| n_jobs | wall time | CPU seconds, all processes |", "|---|---|---|"]
    lines += [f"| {k} | {wall[k].cell()} | {cpu[k].cell()} |" for k in wall]
    lines += ["", f"Speed-up n_jobs=2 over n_jobs=1: {speedup:.2f}× (ratio of the medians; per "
              f"pair {', '.join(f'{r:.2f}' for r in ratios)}). Lists, consensus and stability "
              f"identical. Load before each pair: {_loads(loads)}.", ""]
    share = {k: cpu[k].median / wall[k].median for k in wall}
    lines += [f"CPU share the benchmark got (CPU seconds / wall seconds): {share['n_jobs=1']:.2f} "
              f"cores with n_jobs=1, {share['n_jobs=2']:.2f} with n_jobs=2. "
              f"{_autogroup_note()}", ""]
    return lines


if __name__ == "__main__":
    main()
