"""The main job on bundled data: multiclass SVM-RFE with list combination, and whether it pays.

:func:`stjude_demo` runs the headline of Izetta et al. (2017) on the bundled St. Jude leukemia
data (Yeoh et al. 2002 as distributed by Monti et al. 2003; 248 samples × 985 genes, 6 classes):

1. one-vs-one SVM-RFE on all the data gives 15 rankings, combined by K-First and Schulze, beside
   the usual joint "Average" RFE on the mean ``|w|`` over the 15 problems; the top genes of each
   and how much they agree;
2. the gain: the test error of a linear SVM on the top k genes of each method, over repeated
   stratified random splits, with the genes z-scored and ranked on each training part only
   (:func:`~rankfusion.evaluation.error_curve`, docs/design.md, 'Ensembles, subsets and
   evaluation');
3. the advisor's verdict for this data (:func:`~rankfusion.advise`, a small run:
   :data:`DEMO_ADVICE`): does any combination of three filters beat the best of them alone,
   by nested resampling and the Nadeau–Bengio corrected test.

``rankfusion demo`` prints :meth:`StJudeDemo.report` and, with ``--plot``, saves
:meth:`StJudeDemo.plot`.

References
----------
Izetta, J., Verdes, P. F. & Granitto, P. M. (2017). Improved multiclass feature selection via
list combination. Expert Systems with Applications 88, 205-216 (§3: error of a linear SVM on the
top k features over repeated random splits, selection on the training part only).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, clone

from .._utils.validation import check_n_jobs, check_positive_int
from .protocols import ErrorCurveResult, error_curve

__all__ = ["StJudeDemo", "stjude_demo", "DEMO_METHODS", "DEMO_N_FEATURES", "DEMO_ADVICE"]

#: The methods compared: display name → ``SVMRFE(aggregation=...)``.
DEMO_METHODS = {"K-First": "kfirst", "Schulze": "schulze", "Average": "average"}
#: The numbers of top genes the classifier is scored on.
DEMO_N_FEATURES = (5, 10, 20, 50)

#: The demo's advice (:func:`rankfusion.advise`; sizes are :data:`DEMO_N_FEATURES`): three
#: fast filters that need no scaling (ANOVA F, ReliefF and −NLC are unchanged by a per-gene
#: affine map, and the classifier z-scores each training part), two rules, 2 × 5 outer folds.
DEMO_ADVICE = {"rankers": ("f_classif", "relieff", "nlc"), "rules": ("borda", "kfirst"),
               "cv": 5, "inner_cv": 2, "n_repeats": 2}

_PAIRS = (("K-First", "Schulze"), ("K-First", "Average"), ("Schulze", "Average"))


class ZScoredSelector(BaseEstimator):
    """A selector fitted on z-scored data: :func:`rankfusion.io.standardize` is applied to the
    rows given to :meth:`ZScoredSelector.fit` (so a split's test rows never shape the
    scaling), then a clone of ``selector`` is fitted; its ranking is exposed as
    ``positions_`` (1 = best).

    Parameters
    ----------
    selector : estimator
        A selector whose fitted ranking :func:`~rankfusion.evaluation.selector_positions` reads.
    """

    def __init__(self, selector):
        self.selector = selector

    def fit(self, X, y):
        from ..io import standardize
        from .protocols import selector_positions

        Xs = standardize(np.asarray(X, dtype=np.float64))
        self.selector_ = clone(self.selector).fit(Xs, y)
        self.positions_ = selector_positions(self.selector_, Xs.shape[1])
        return self


@dataclass
class StJudeDemo:
    """What :func:`stjude_demo` computed.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    table : DataFrame
        The top ``top`` genes of each method (columns K-First, Schulze, Average) on all the data.
    rankings : dict of str → ndarray
        Method → position of every gene (1 = best) on all the data.
    overlap : dict of str → int
        ``"A ∩ B"`` → genes shared by the two top-``top`` lists.
    footrule : dict of str → float
        ``"A ~ B"`` → normalised Spearman footrule of the two full rankings (0 = same order).
    errors : dict of str → ErrorCurveResult
        Method → per-split test errors of the linear SVM on the top k genes (empty when
        ``n_splits=0``).
    seconds : dict of str → float
        ``lists``, ``aggregation``, ``average``, ``cv`` and ``total`` wall-clock times.
    settings : dict
        The parameters of the run and the data's description (used by :meth:`report`).
    advice : Advice or None
        The advisor's result on the data (``DEMO_ADVICE``); None when ``n_splits=0`` or
        ``advice=False``.
    """

    table: pd.DataFrame
    rankings: dict
    overlap: dict
    footrule: dict
    errors: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)
    settings: dict = field(default_factory=dict)
    advice: object = None

    def error_table(self) -> pd.DataFrame:
        """Mean and SD (ddof = 1) of the test error per method (columns ``(method, "mean")``,
        ``(method, "sd")``) and number of genes (rows)."""
        if not self.errors:
            return pd.DataFrame()
        parts = {m: r.summary() for m, r in self.errors.items()}
        out = pd.concat(parts, axis=1)
        out.index.name = "genes"
        return out

    def plot(self):
        """The error curves (mean ± SD against the number of genes, log axis) as a matplotlib
        Figure; needs the ``plot`` extra (``pip install "rankfusion[plot]"``)."""
        from .plots import plot_error_curves

        if not self.errors:
            raise ValueError("no error curves to plot: the demo ran with n_splits=0")
        from matplotlib.ticker import NullFormatter

        s = self.settings
        fig = plot_error_curves(
            self.errors, ylabel="Test error (linear SVM), mean ± SD",
            title=f"St. Jude leukemia: {s['n_splits']} stratified splits, "
                  f"selection on the training part")
        ax = fig.axes[0]
        ks = list(s["n_features"])
        ax.set_xticks(ks, labels=[str(k) for k in ks])
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xlabel("Top genes of each method")
        return fig

    def report(self, *, timing: bool = True) -> str:
        """The text ``rankfusion demo`` prints; ``timing=False`` leaves out the one line of
        wall-clock times (the rest is deterministic).

        Parameters
        ----------
        timing : bool, default True
            Include the line of wall-clock times.

        Returns
        -------
        str
        """
        s = self.settings
        top = self.table.shape[0]
        lines = [
            "rankfusion demo: multiclass SVM-RFE with list combination (Izetta et al. 2017)",
            f"data: St. Jude pediatric leukemia (Yeoh et al. 2002; Monti et al. 2003), "
            f"{s['n_samples']} samples × {s['n_genes']} genes, {len(s['classes'])} classes"
            f"{' (genes z-scored)' if s['standardize'] else ''}",
            "       " + ", ".join(f"{c} {n}" for c, n in s["classes"].items()),
            f"SVM-RFE (linear SVM, C={s['C']:g}; remove 10 % per iteration down to 20 genes, "
            f"then one at a time) on each of the {s['n_problems']} one-vs-one problems …",
            "",
            f"top {top} genes (K-First k = {s['k']} of {s['n_genes']}; Schulze; Average = "
            f"one joint RFE on mean |w| over the {s['n_problems']} problems)",
        ]
        with pd.option_context("display.width", 200):
            lines.append(self.table.to_string())
        lines += ["", f"agreement: genes shared by the two top-{top} lists, and the normalised "
                  "Spearman footrule of the full rankings (0 = same order)"]
        for a, b in _PAIRS:
            lines.append(f"  {a:>7} vs {b:<7}  {self.overlap[f'{a} ∩ {b}']:>2}/{top} shared   "
                         f"footrule {self.footrule[f'{a} ~ {b}']:.3f}")
        if self.errors:
            lines += ["", self._error_text()]
        if self.advice is not None:
            a = DEMO_ADVICE
            sm = self.advice.summary
            r = a["rankers"]
            lines += ["", f"does combining pay on this data? the advisor (rankfusion advise) with "
                      f"{', '.join(r[:-1])} and {r[-1]}, alone and combined by "
                      f"{' or '.join(a['rules'])}, on the top {', '.join(map(str, sm['sizes']))} "
                      "genes;",
                      f"{sm['outer_folds']} outer folds ({sm['n_repeats']} × {sm['cv']}), "
                      f"{sm['inner_cv']} inner, seed {s['random_state']}; every accuracy is an "
                      "outer estimate, never the best inner score:",
                      self.advice.verdict]
        if timing:
            t = self.seconds
            cv = (f", {s['n_splits']} splits × 3 methods {t['cv']:.2f} s" if self.errors
                  else "")
            if self.advice is not None:
                cv += f", advisor {t['advice']:.2f} s"
            lines += ["", f"time: {s['n_problems']} OVO rankings {t['lists']:.2f} s, "
                      f"K-First + Schulze {t['aggregation']:.2f} s, joint Average RFE "
                      f"{t['average']:.2f} s{cv}; total {t['total']:.2f} s"]
        return "\n".join(lines)

    def _error_text(self) -> str:
        s = self.settings
        tab = self.error_table()
        methods = list(self.errors)
        cells = pd.DataFrame(
            {m: [f"{mu:.3f} ± {sd:.3f}" for mu, sd in zip(tab[(m, "mean")], tab[(m, "sd")])]
             for m in methods}, index=tab.index)
        means = tab.xs("mean", axis=1, level=1)[methods].to_numpy()
        best = [", ".join(m for m, v in zip(methods, row) if np.isclose(v, row.min()))
                for row in means]
        cells["lowest"] = best
        head = (f"the gain: test error of a linear SVM (C={s['C']:g}) on each method's top k "
                f"genes, mean ± SD over {s['n_splits']} stratified "
                f"{round(100 * (1 - s['test_size']))}/{round(100 * s['test_size'])} splits "
                f"(seed {s['random_state']});\nthe genes are z-scored and ranked on each "
                "training part only, so no test sample reaches the selection")
        note = ("(Izetta et al., Table 8, count the joint Average, their \"Zhou OVO\", above "
                "K-First and Schulze on their gene-expression\n sets, and K-First first on "
                "their mass-spectrometry and UCI sets, at 10 and 20 features)")
        with pd.option_context("display.width", 200):
            return head + "\n" + cells.to_string() + "\n" + note


def _check_n_features(n_features, p: int) -> tuple[int, ...]:
    if isinstance(n_features, (str, bytes)) or not isinstance(n_features, Sequence):
        raise TypeError(f"n_features must be a sequence of gene counts, got {n_features!r}")
    ks = tuple(check_positive_int(k, name="n_features") for k in n_features)
    if not ks:
        raise ValueError("n_features is empty")
    if max(ks) > p:
        raise ValueError(f"n_features must lie in [1, {p}] (the number of genes); got "
                         f"{max(ks)}")
    return ks


def stjude_demo(*, top: int = 15, standardize: bool = True, C: float = 1.0, k: float = 0.1,
                n_features: Sequence[int] = DEMO_N_FEATURES, n_splits: int = 10,
                test_size: float = 0.25, random_state: int = 0, n_jobs: int | None = None,
                progress: bool = False, advice: bool = True) -> StJudeDemo:
    """Run the St. Jude headline and measure the gain of combining the per-problem lists.

    Headline (all 248 samples): one-vs-one SVM-RFE (:func:`rankfusion.rankers.rfe_lists`; linear
    SVM, remove 10 % per iteration down to 20 genes, then one at a time) gives 15 rankings;
    K-First (``k``) and Schulze combine them; the baseline "Average" is one joint RFE on the
    mean ``|w_ij|`` over the 15 problems (:func:`rankfusion.rankers.joint_rfe`).

    The gain: for each method, :func:`~rankfusion.evaluation.error_curve` with
    ``SVMRFE(aggregation=...)`` as the selector — ``n_splits`` stratified random splits
    (``test_size`` held out); on each split the genes are z-scored and ranked on the training
    part only, and a linear SVM (``SVC(kernel="linear", C)`` on z-scored genes) is trained on the
    top k genes and scored on the test part, for each k of ``n_features``. The three methods see
    the same splits (the same ``random_state``), so their errors are paired.

    Parameters
    ----------
    top : int, default 15
        How many top genes to list and compare.
    standardize : bool, default True
        z-score every gene (on all the data for the headline; on each training part for the
        error curves). SVMs on raw intensities spend their time on ill-conditioned duals.
    C : float, default 1.0
        The SVMs' C (SVM-RFE and the classifier).
    k : int or float, default 0.1
        K-First's k (10 % of the genes, the paper's choice).
    n_features : sequence of int, default (5, 10, 20, 50)
        The numbers of top genes the classifier is scored on.
    n_splits : int, default 10
        Random splits of the error curves; 0 skips them (headline only).
    test_size : float, default 0.25
    random_state : int, default 0
        Seeds the splits (docs/design.md, 'Seeds'); the output is deterministic for a given
        value.
    n_jobs : int, optional
        Binary problems (headline) and splits (error curves) in parallel; the result does not
        depend on it.
    progress : bool, default False
        tqdm progress bars on stderr.
    advice : bool, default True
        With the error curves (``n_splits`` ≥ 2), also run the advisor (:data:`DEMO_ADVICE`,
        sizes ``n_features``, seed ``random_state``) on the raw data and report its verdict.

    Returns
    -------
    StJudeDemo
    """
    from tqdm.auto import tqdm

    from ..aggregation import aggregate
    from ..datasets import load_stjude_leukemia
    from ..distances import spearman_footrule
    from ..io import standardize as zscore
    from ..rankers import joint_rfe, rfe_lists, rfe_schedule
    from ..selection import SVMRFE

    top = check_positive_int(top, name="top")
    if not isinstance(n_splits, (int, np.integer)) or isinstance(n_splits, bool) or n_splits < 0 \
            or n_splits == 1:
        raise ValueError(f"n_splits must be 0 (no error curves) or an int ≥ 2 (a mean ± SD "
                         f"needs two splits), got {n_splits!r}")
    n_jobs = check_n_jobs(n_jobs)
    if not isinstance(advice, (bool, np.bool_)):
        raise TypeError(f"advice must be True or False, got {advice!r}")
    if isinstance(random_state, bool) or not isinstance(random_state, (int, np.integer)):
        raise TypeError(f"random_state must be an int (the demo is deterministic), got "
                        f"{random_state!r}")
    t_start = time.perf_counter()
    data = load_stjude_leukemia()
    X_raw, y, names = data.data, data.target, list(data.feature_names)
    p = X_raw.shape[1]
    if top > p:
        raise ValueError(f"top must lie in [1, {p}], got {top}")
    ks = _check_n_features(n_features, p)
    X = zscore(X_raw) if standardize else X_raw
    classes, counts = np.unique(y, return_counts=True)
    n_problems = len(classes) * (len(classes) - 1) // 2

    t0 = time.perf_counter()
    bar = tqdm(total=n_problems, desc="OVO SVM-RFE", unit="problem", disable=not progress,
               file=sys.stderr, leave=False)
    lists, _ = rfe_lists(X, y, decomposition="ovo", C=C, n_jobs=n_jobs, feature_names=names,
                         progress=lambda r: bar.update(1))
    bar.close()
    t_lists = time.perf_counter() - t0

    t0 = time.perf_counter()
    kf = aggregate(lists, "kfirst", k=k)
    sch = aggregate(lists, "schulze")
    t_agg = time.perf_counter() - t0

    t0 = time.perf_counter()
    bar = tqdm(total=int(rfe_schedule(p).sum()), desc="joint Average RFE", unit="gene",
               disable=not progress, file=sys.stderr, leave=False)
    avg = joint_rfe(X, y, criterion="average", C=C, progress=bar.update)
    bar.close()
    t_avg = time.perf_counter() - t0

    rankings = {"K-First": np.asarray(kf.positions, dtype=np.int64),
                "Schulze": np.asarray(sch.positions, dtype=np.int64),
                "Average": np.asarray(avg.ranking, dtype=np.int64)}
    orders = {m: np.argsort(r, kind="stable") for m, r in rankings.items()}
    tops = {m: [names[i] for i in o[:top]] for m, o in orders.items()}
    table = pd.DataFrame(tops, index=pd.RangeIndex(1, top + 1, name="rank"))
    overlap = {f"{a} ∩ {b}": len(set(tops[a]) & set(tops[b])) for a, b in _PAIRS}
    foot = {f"{a} ~ {b}": float(spearman_footrule(orders[a].tolist(), orders[b].tolist(),
                                                  normalize=True)) for a, b in _PAIRS}

    t0 = time.perf_counter()
    errors: dict[str, ErrorCurveResult] = {}
    if n_splits:
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler
        from sklearn.svm import SVC

        classifier = (make_pipeline(StandardScaler(), SVC(kernel="linear", C=C))
                      if standardize else SVC(kernel="linear", C=C))
        for label, rule in DEMO_METHODS.items():
            params = {"k": k} if rule == "kfirst" else None
            sel = SVMRFE(aggregation=rule, aggregation_params=params, C=C, random_state=0)
            if standardize:
                sel = ZScoredSelector(sel)
            errors[label] = error_curve(sel, X_raw, y, n_features=list(ks),
                                        classifier=classifier, n_splits=n_splits,
                                        test_size=test_size, stratify=True, n_jobs=n_jobs,
                                        random_state=random_state, progress=progress)
    t_cv = time.perf_counter() - t0
    t0 = time.perf_counter()
    adv = None
    if n_splits and advice:
        from .advisor import advise

        adv = advise(X_raw, y, sizes=list(ks), random_state=random_state, n_jobs=n_jobs,
                     **DEMO_ADVICE)
    t_advice = time.perf_counter() - t0
    total = time.perf_counter() - t_start
    settings = {"n_samples": int(X.shape[0]), "n_genes": int(p), "n_problems": n_problems,
                "classes": dict(zip(classes.tolist(), counts.tolist())),
                "standardize": bool(standardize), "C": float(C), "k": kf.params["k"],
                "n_splits": int(n_splits), "test_size": float(test_size),
                "random_state": int(random_state), "n_features": ks}
    return StJudeDemo(table=table, rankings=rankings, overlap=overlap, footrule=foot,
                      errors=errors,
                      seconds={"lists": t_lists, "aggregation": t_agg, "average": t_avg,
                               "cv": t_cv, "advice": t_advice, "total": total},
                      settings=settings, advice=adv)
