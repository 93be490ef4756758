"""Speed of multiclass SVM-RFE: rankfusion vs scikit-learn, in the same run.

Peer: scikit-learn's ``SVC(kernel="linear", C=1)`` driven through the *same* schedule on each
binary problem (remove max(1, ⌊0.1·n⌋) while n ≥ 20, then one at a time; stable argsort of
``coef_²``) — what ``RFE(SVC(kernel="linear"))`` does inside, since RFE's own float ``step`` is
a fraction of the *starting* number of features (docs/design.md, 'SVM-RFE'). Each ``SVC`` fit
sees the binary problem's samples with their original labels (as ``RFE`` would). Rankings are
compared problem by problem: the fraction of feature pairs in the same order, and whether the
top five agree.
A second peer is the literal reading of "RFE driven in a loop": one
``RFE(SVC(kernel="linear"), n_features_to_select=n − r, step=r)`` per iteration (RFE refits its
final ``estimator_`` each time, so about two SVC fits per iteration); it is timed only.
Ours and the peers are timed problem by problem, interleaved, so that load drift on a shared
machine hits both alike.

Usage::

    python benchmarks/bench_svm_rfe.py          # all; writes benchmarks/results/svm_rfe.md
    python benchmarks/bench_svm_rfe.py --quick    # fewer problems (smoke run)
"""

from __future__ import annotations

import argparse
import gzip
import io
import os
import platform
import time

import numpy as np
import pandas as pd
import scipy.io
import sklearn
from sklearn.feature_selection import RFE
from sklearn.svm import SVC

from _timing import Timing, interleaved, load_average
from rankfusion._utils.data import check_target
from rankfusion.datasets import load_artificial, load_stjude_leukemia
from rankfusion.rankers import binary_problems, rfe_lists, rfe_schedule

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.join(HERE, "..", "..", "shared", "datasets")


def sklearn_rfe_loop(Xs, ys, C=1.0):
    """The peer on one binary problem: SVC(kernel="linear") through the same schedule."""
    rem = np.arange(Xs.shape[1])
    elim = []
    for r in rfe_schedule(Xs.shape[1]):
        w = SVC(kernel="linear", C=C).fit(Xs[:, rem], ys).coef_[0]
        out = np.argsort(w * w, kind="stable")[:r]
        keep = np.ones(rem.shape[0], dtype=bool)
        keep[out] = False
        elim += rem[out].tolist()
        rem = rem[keep]
    elim += rem.tolist()
    rank = np.empty(len(elim), dtype=np.int64)
    rank[np.asarray(elim)] = np.arange(len(elim), 0, -1)
    return rank


def sklearn_rfe_objects_loop(Xs, ys, C=1.0):
    """The literal reading: ``RFE(SVC(kernel="linear"))`` driven through the schedule, one
    ``RFE(n_features_to_select=n − r, step=r)`` per iteration (each also refits its final
    ``estimator_``, so it costs about two SVC fits per iteration). Returns the survivors'
    order of elimination chunks only (RFE ties a chunk), so it is timed, not compared."""
    rem = np.arange(Xs.shape[1])
    for r in rfe_schedule(Xs.shape[1]):
        sel = RFE(SVC(kernel="linear", C=C), n_features_to_select=rem.shape[0] - int(r),
                  step=int(r)).fit(Xs[:, rem], ys)
        rem = rem[sel.support_]
    return rem


def sklearn_loop(X, y, C=1.0, max_problems=None):
    """Rankings of the same-schedule SVC loop on every OVO problem (peer)."""
    codes, classes = check_target(y)
    return [sklearn_rfe_loop(X[pb.samples], codes[pb.samples], C)
            for pb in binary_problems(codes, classes, "ovo")[:max_problems]]


def pair_agreement(a, b) -> float:
    """Fraction of feature pairs ordered alike by two full rankings."""
    order = np.argsort(a, kind="stable")
    bb = b[order]  # b's positions in a's order: agreement = 1 − inversions / pairs
    p = bb.shape[0]
    inv = _inversions(bb.astype(np.int64))
    return 1.0 - inv / (p * (p - 1) / 2)


def _inversions(x):
    if x.shape[0] < 2:
        return 0
    m = x.shape[0] // 2
    left, right = x[:m], x[m:]
    inv = _inversions(left) + _inversions(right)
    ls, rs = np.sort(left), np.sort(right)
    return inv + int(np.searchsorted(rs, ls, side="left").sum())


def load_golub_z():
    raw = gzip.open(os.path.join(SHARED, "golub_leukemia", "ALLAML_scikit-feature.mat.gz")).read()
    m = scipy.io.loadmat(io.BytesIO(raw))
    return m["X"].astype(np.float64), m["Y"].ravel()


def load_golub_raw():
    df = pd.read_csv(os.path.join(SHARED, "golub_leukemia", "golub_merge_72x7129.csv.gz"))
    return df.iloc[:, 6:].to_numpy(np.float64), df["ALL.AML"].to_numpy()


def _cell(seconds) -> str:
    return Timing("t", list(seconds)).cell()


def run_case(name, X, y, *, max_problems=None, rfe_objects=True, repeat=5):
    """Time ours and the peers problem by problem, interleaved (ours, peer, RFE objects on each
    problem in turn), ``repeat`` rounds; then the whole decomposition with ``rfe_lists``
    (n_jobs 1 and 2, interleaved, ``repeat`` rounds). Medians with the spread, load recorded."""
    codes, classes = check_target(y)
    problems = binary_problems(codes, classes, "ovo")[:max_problems]
    rfe_lists(X[:, :30], y)  # load the JIT cache outside the timings
    t_ours, t_peer, t_rfe, loads = [], [], [], []
    agree, top5 = [], []
    for rnd in range(repeat):
        loads.append(load_average())
        so = sp = sr = 0.0
        for pb in problems:
            Xs, ys = X[pb.samples], y[pb.samples]
            t0 = time.perf_counter()
            _, res = rfe_lists(Xs, ys)
            so += time.perf_counter() - t0
            t0 = time.perf_counter()
            ref = sklearn_rfe_loop(Xs, codes[pb.samples])
            sp += time.perf_counter() - t0
            if rfe_objects:
                t0 = time.perf_counter()
                last = sklearn_rfe_objects_loop(Xs, codes[pb.samples])
                sr += time.perf_counter() - t0
                assert last[0] == int(np.argmin(ref))
            if rnd == 0:
                agree.append(pair_agreement(res[0].ranking, ref))
                top5.append(bool(np.array_equal(res[0].order[:5],
                                                np.argsort(ref, kind="stable")[:5])))
        t_ours.append(so)
        t_peer.append(sp)
        t_rfe.append(sr)
    mo, mp = float(np.median(t_ours)), float(np.median(t_peer))
    row = {"dataset": name, "shape": f"{X.shape[0]} × {X.shape[1]}",
           "problems": len(problems), "rankfusion (s)": _cell(t_ours),
           "sklearn SVC loop (s)": _cell(t_peer), "speed-up vs SVC loop": mp / mo}
    if rfe_objects:
        row["sklearn RFE-object loop (s)"] = _cell(t_rfe)
        row["speed-up vs RFE loop"] = float(np.median(t_rfe)) / mo
    if max_problems is None:
        t, more, _ = interleaved({nj: (lambda nj=nj: rfe_lists(X, y, n_jobs=nj))
                                  for nj in (1, 2)}, repeat)
        loads += more
        for nj in (1, 2):
            row[f"rfe_lists n_jobs={nj} (s)"] = t[nj].cell()
        row["speed-up n_jobs=2 vs SVC loop"] = mp / t[2].median
    row["min pair agreement"] = min(agree)
    row["mean pair agreement"] = float(np.mean(agree))
    row["top-5 equal"] = f"{sum(top5)}/{len(top5)}"
    row["load"] = f"{min(loads):.1f}–{max(loads):.1f}"
    print(row, flush=True)
    return row


def golub_vs_rfe(X, y, name, repeat=5):
    """Golub (binary): our schedule vs scikit-learn's own RFE(step=0.1) and the same loop,
    ``repeat`` interleaved rounds."""
    from rankfusion.rankers import svm_rfe

    svm_rfe(X[:, :30], y)
    t, loads, out = interleaved({
        "ours": lambda: svm_rfe(X, y),
        "rfe": lambda: RFE(SVC(kernel="linear"), n_features_to_select=1, step=0.1).fit(X, y),
        "loop": lambda: sklearn_loop(X, y)[0]}, repeat)
    ours, peer = out["ours"], out["loop"]
    row = {"dataset": name, "shape": f"{X.shape[0]} × {X.shape[1]}",
           "rankfusion (s)": t["ours"].cell(), "sklearn RFE(step=0.1) (s)": t["rfe"].cell(),
           "sklearn same-schedule loop (s)": t["loop"].cell(),
           "speed-up vs RFE(step=0.1)": t["rfe"].median / t["ours"].median,
           "pair agreement (loop)": pair_agreement(ours.ranking, peer),
           "top-5 equal": bool(np.array_equal(ours.order[:5], np.argsort(peer)[:5])),
           "load": f"{min(loads):.1f}–{max(loads):.1f}"}
    print(row, flush=True)
    return row


def artificial_positions(seeds=(0, 1, 2), sizes=(3000, 1000)):
    """Mean position of the relevant features under each rule (Izetta Tables 4–5)."""
    from rankfusion import aggregate
    from rankfusion.rankers import joint_rfe

    rows = []
    for name in ("Artificial-1-8C", "Artificial-2-8C"):
        for n_samples, seed in ((n, s) for n in sizes for s in seeds):
            d = load_artificial(name, random_state=seed, n_samples=n_samples)
            lists, _ = rfe_lists(d.data, d.target)
            ranks = {m: aggregate(lists, m).ranks
                     for m in ("kfirst", "best_rank", "schulze", "q3_sd", "average_sd",
                               "copeland")}
            ranks["average"] = joint_rfe(d.data, d.target, criterion="average").ranking
            for m, r in ranks.items():
                row = {"dataset": name, "samples": n_samples, "seed": seed, "method": m,
                       "relevant mean": r[d.relevant].mean(),
                       "relevant worst": int(r[d.relevant].max())}
                for lev in (1, 2, 3):
                    if (d.relevance == lev).any() and name.startswith("Artificial-2"):
                        row[f"level {lev} mean"] = r[d.relevance == lev].mean()
                rows.append(row)
            print(name, n_samples, seed,
                  {m: round(r[d.relevant].mean(), 1) for m, r in ranks.items()},
                  flush=True)
    return pd.DataFrame(rows)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--skip-artificial-positions", action="store_true")
    ap.add_argument("--repeat", type=int, default=None,
                    help="interleaved rounds (default 5; 3 with --quick)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "svm_rfe.md"))
    args = ap.parse_args()
    mp = 12 if args.quick else None
    rep = args.repeat or (3 if args.quick else 5)
    speed = []
    a16 = load_artificial("Artificial-1-16C", random_state=0)
    speed.append(run_case("Artificial-1-16C (seed 0)", a16.data, a16.target, max_problems=mp,
                          repeat=rep))
    st = load_stjude_leukemia()
    speed.append(run_case("St. Jude leukemia (raw)", st.data, st.target, repeat=rep))
    Xz = (st.data - st.data.mean(0)) / st.data.std(0)
    speed.append(run_case("St. Jude leukemia (z-scored)", Xz, st.target, repeat=rep))
    golub = [golub_vs_rfe(*load_golub_z(), "Golub (scikit-feature, z-scored)", repeat=rep),
             golub_vs_rfe(*load_golub_raw(), "Golub (raw)", repeat=rep)]
    pos = None
    if not args.skip_artificial_positions:
        pos = artificial_positions(seeds=(0,) if args.quick else (0, 1, 2),
                                   sizes=(1000,) if args.quick else (3000, 1000))
    write_md(args.out, pd.DataFrame(speed), pd.DataFrame(golub), pos)


def md_table(frame: pd.DataFrame, index: bool = False) -> str:
    """A markdown table (no tabulate dependency)."""
    if index:
        frame = frame.reset_index()

    def fmt(v, col):
        if isinstance(v, (float, np.floating)):
            if "agreement" in col:
                return f"{v:.7f}"
            return f"{v:.4g}" if abs(v) < 1e4 else f"{v:.0f}"
        return str(v)

    cols = [str(c) for c in frame.columns]
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in frame.itertuples(index=False):
        out.append("| " + " | ".join(fmt(v, c) for v, c in zip(row, cols)) + " |")
    return "\n".join(out)


def write_md(path, speed, golub, pos):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = ["# SVM-RFE benchmark (`benchmarks/bench_svm_rfe.py`)", "",
             f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores "
             "(shared with other jobs while measured); "
             f"numpy {np.__version__}, scikit-learn {sklearn.__version__}. Times: medians of "
             "interleaved rounds (ours, then the peers, problem by problem), spread (min–max) "
             "in brackets; speed-ups are ratios of the medians; load = the range of the 1-minute "
             "load average before the rounds.", "",
             "## Full OVO rankings: rankfusion vs scikit-learn's SVC in the same RFE schedule", "",
             md_table(speed), "",
             "## Golub (binary): rankfusion vs scikit-learn", "",
             md_table(golub), ""]
    if pos is not None:
        summary = (pos.groupby(["dataset", "samples", "method"]).mean(numeric_only=True)
                   .drop(columns="seed"))
        per_seed = pos.pivot_table(index=["dataset", "samples", "seed"], columns="method",
                                   values="relevant mean")
        lines += ["## Artificial data: mean position of the truly relevant features", "",
                  "(OVO, C = 1; mean over seeds 0–2; Izetta Tables 4–5)", "",
                  md_table(summary.round(1), index=True), "",
                  "Per seed (mean position of the relevant features):", "",
                  md_table(per_seed.round(1), index=True), ""]
    with open(path, "w") as fh:
        fh.write("\n".join(lines))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
