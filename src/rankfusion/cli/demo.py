"""``rankfusion demo``: the main job on bundled data.

``rankfusion demo`` runs the headline of Izetta et al. (2017): one-vs-one SVM-RFE on the bundled
St. Jude leukemia data (248 samples × 985 genes, 6 classes → 15 rankings), combined by K-First
and Schulze, beside the usual joint "Average" RFE, and the cross-validated error of a linear SVM
on each method's top genes (:func:`rankfusion.evaluation.stjude_demo`); ``--plot FILE.png``
saves the error curves.
``rankfusion demo --lists`` aggregates the example lists shipped with the package (five
scikit-learn rankers on the UCI Wine data) with every position-based rule and prints how the
rules agree and differ.
"""

from __future__ import annotations

import time
from pathlib import Path

from ._common import check_count, count, print_frame

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..lists import RankedLists

DEMO_RULES = ("borda", "median", "average_sd", "best_rank", "q3_sd", "kfirst", "copeland",
              "schulze", "rrf", "combmnz", "mean_score")


def add_parser(sub) -> None:
    p = sub.add_parser("demo", help="run the main job on bundled data",
                       description="Run rankfusion's main job on data shipped with the package.")
    p.add_argument("--lists", action="store_true",
                   help="compare the aggregation rules on the bundled example lists instead")
    p.add_argument("--top", type=count, default=None,
                   help="features shown per method (default 15; 5 with --lists; at most all)")
    p.add_argument("--n-jobs", type=int, default=None,
                   help="binary problems and splits in parallel (default: one at a time; the "
                   "output does not depend on it)")
    p.add_argument("--splits", type=int, default=10, metavar="N",
                   help="stratified 75/25 splits of the error table (default 10; 0 = skip)")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the splits (default 0; the output is deterministic)")
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help="save the error curves (needs the plot extra: pip install "
                   "\"rankfusion[plot]\")")
    p.add_argument("--overwrite", action="store_true",
                   help="replace an existing --plot file (default: refuse)")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.set_defaults(func=run)


def _short(name: str, width: int = 14) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def compare_rules(lists: RankedLists, rules=DEMO_RULES, top: int = 5) -> pd.DataFrame:
    """One row per rule: its top features, and its agreement with Borda (Kendall's τ over the
    full consensus order, and the overlap of the top sets)."""
    import pandas as pd
    from scipy.stats import kendalltau

    from ..aggregation import aggregate

    base = aggregate(lists, "borda")
    rows = {}
    for rule in rules:
        c = aggregate(lists, rule)
        tau = kendalltau(base.positions, c.positions).statistic
        overlap = len(set(c.order[:top]) & set(base.order[:top]))
        row = {f"#{i + 1}": _short(str(f)) for i, f in enumerate(c.top(top))}
        row["tau_vs_borda"] = round(float(tau), 3)
        row[f"top{top}_overlap"] = f"{overlap}/{top}"
        rows[rule] = row
    return pd.DataFrame.from_dict(rows, orient="index")


def run_lists_demo(top: int = 5) -> int:
    import pandas as pd

    from ..datasets import load_wine_lists

    t0 = time.perf_counter()
    lists = load_wine_lists()
    top = max(1, min(top, lists.n_features))
    print(f"# {lists.n_lists} rankers on the UCI Wine data ({lists.n_features} features, "
          "3 classes): their top features")
    inputs = pd.DataFrame({name: [_short(str(f)) for f in lists.ranked_features(name)[:top]]
                           for name in lists.list_names}, index=[f"#{i + 1}" for i in range(top)])
    print_frame(inputs.T)
    print()
    print("# the consensus of each rule, and how it agrees with Borda")
    print_frame(compare_rules(lists, top=top))
    print(f"\n# {len(DEMO_RULES)} rules in {time.perf_counter() - t0:.2f} s")
    return 0


def run(args) -> int:
    from ..evaluation import check_figure_path, save_figure, stjude_demo

    check_count(args.top)
    if args.lists:
        given = [flag for flag, on in (("--plot", args.plot is not None),
                                       ("--splits", args.splits != 10),
                                       ("--seed", args.seed != 0),
                                       ("--n-jobs", args.n_jobs is not None)) if on]
        if given:
            raise ValueError(f"{', '.join(given)} apply to the St. Jude demo, not to --lists")
        return run_lists_demo(top=args.top or 5)
    if args.splits < 0 or args.splits == 1:
        raise ValueError("--splits must be 0 (skip the error table) or ≥ 2 (a mean ± SD "
                         f"needs two splits), got {args.splits}")
    if args.plot is not None:
        if args.splits == 0:
            raise ValueError("--plot draws the error curves: it needs --splits ≥ 2")
        check_figure_path(args.plot, name="--plot")  # before the work, not after
        if Path(args.plot).exists() and not args.overwrite:
            raise FileExistsError(f"--plot {args.plot} exists; pass --overwrite to replace it")
    res = stjude_demo(top=args.top or 15, n_jobs=args.n_jobs, n_splits=args.splits,
                      random_state=args.seed, progress=not args.no_progress)
    print(res.report())
    if args.plot is not None:
        save_figure(res.plot(), args.plot)
        print(f"error curves saved to {args.plot}")
    return 0
