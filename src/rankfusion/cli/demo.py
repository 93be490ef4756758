"""``rankfusion demo``: the main job on bundled data.

``rankfusion demo --lists`` aggregates the example lists shipped with the package (five
scikit-learn rankers on the UCI Wine data) with every position-based rule and prints how the
rules agree and differ.
"""

from __future__ import annotations

import time
from importlib import resources

import pandas as pd

from ..aggregation import aggregate
from ..lists import RankedLists
from ._common import print_frame

DEMO_RULES = ("borda", "median", "average_sd", "best_rank", "q3_sd", "kfirst", "copeland",
              "schulze", "rrf", "combmnz", "mean_score")


def add_parser(sub) -> None:
    p = sub.add_parser("demo", help="run the main job on bundled data",
                       description="Run rankfusion's main job on data shipped with the package.")
    p.add_argument("--lists", action="store_true",
                   help="compare the aggregation rules on the bundled example lists")
    p.add_argument("--top", type=int, default=5, help="features shown per rule (default 5)")
    p.set_defaults(func=run)


def example_lists() -> RankedLists:
    """The bundled example lists: five scikit-learn rankers' scores on the UCI Wine data."""
    path = resources.files("rankfusion").joinpath("data/wine_ranker_scores.csv")
    with resources.as_file(path) as f:
        frame = pd.read_csv(f, index_col=0)
    return RankedLists.from_scores(frame)


def _short(name: str, width: int = 14) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def compare_rules(lists: RankedLists, rules=DEMO_RULES, top: int = 5) -> pd.DataFrame:
    """One row per rule: its top features, and its agreement with Borda (Kendall's τ over the
    full consensus order, and the overlap of the top sets)."""
    from scipy.stats import kendalltau

    base = aggregate(lists, "borda")
    rows = {}
    for rule in rules:
        c = aggregate(lists, rule)
        tau = kendalltau(base.ranks, c.ranks).statistic
        overlap = len(set(c.order[:top]) & set(base.order[:top]))
        row = {f"#{i + 1}": _short(str(f)) for i, f in enumerate(c.top(top))}
        row["tau_vs_borda"] = round(float(tau), 3)
        row[f"top{top}_overlap"] = f"{overlap}/{top}"
        rows[rule] = row
    return pd.DataFrame.from_dict(rows, orient="index")


def run_lists_demo(top: int = 5) -> int:
    t0 = time.perf_counter()
    lists = example_lists()
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
    return run_lists_demo(top=args.top)
