"""The main job on bundled data: what ``rankfusion demo`` computes (:func:`run_demo` →
:class:`DemoRun`).

By default the headline of Izetta et al. (2017): one-vs-one SVM-RFE on the bundled St. Jude
leukemia data, combined by K-First and Schulze, beside the joint "Average" RFE, and the
cross-validated error of a linear SVM on each method's top genes
(:func:`rankfusion.evaluation.stjude_demo`). With ``lists=True``: every position-based rule
on the example lists shipped with the package (five scikit-learn rankers on the UCI Wine
data), and how the rules agree (:func:`compare_rules`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .output import WorkflowRun

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..lists import RankedLists

__all__ = ["run_demo", "DemoRun", "compare_rules", "DEMO_RULES"]

#: The rules the lists demo compares.
DEMO_RULES = ("borda", "median", "average_sd", "best_rank", "q3_sd", "kfirst", "copeland",
              "schulze", "rrf", "combmnz", "mean_score")


def _short(name: str, width: int = 14) -> str:
    return name if len(name) <= width else name[: width - 1] + "…"


def compare_rules(lists: RankedLists, rules=DEMO_RULES, top: int = 5) -> pd.DataFrame:
    """One row per rule: its top features, and its agreement with Borda.

    Parameters
    ----------
    lists : RankedLists
        The lists to combine.
    rules : sequence of str, default DEMO_RULES
        The rules compared.
    top : int, default 5
        The top features shown and compared.

    Returns
    -------
    DataFrame
        Indexed by rule: columns ``#1`` … ``#top`` (the rule's top features, names cut to 14
        characters), ``tau_vs_borda`` (Kendall's τ of the full consensus orders, 3 decimals)
        and ``top<top>_overlap`` (features shared with Borda's top, as ``n/top``).

    Examples
    --------
    >>> from rankfusion.datasets import load_wine_lists
    >>> compare_rules(load_wine_lists(), ["borda", "median"], top=2)["tau_vs_borda"].tolist()
    [1.0, 0.974]
    """
    import pandas as pd
    from scipy.stats import kendalltau

    from ..aggregation import aggregate

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


@dataclass
class DemoRun(WorkflowRun):
    """What :func:`run_demo` computed.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    stjude : StJudeDemo or None
        The St. Jude headline (None for the lists demo).
    lists : RankedLists or None
        The Wine example lists (the lists demo).
    inputs : DataFrame or None
        The lists demo: each ranker's top features (rankers × ranks).
    rules : DataFrame or None
        The lists demo: :func:`compare_rules`.
    seconds : float
        The lists demo's wall-clock time.
    plot : str or path-like or None
        The figure of the error curves written, if any.
    """

    stjude: object = None
    lists: object = None
    inputs: object = None
    rules: object = None
    seconds: float = 0.0
    plot: object = None

    @property
    def MAIN_TABLE(self) -> str:
        return "rules" if self.stjude is None else "top_genes"

    def tables(self) -> dict:
        """The lists demo: ``inputs`` and ``rules`` (main). The St. Jude demo: ``top_genes``
        (main; rank × method), ``agreement`` (shared top genes and footrule per pair of
        methods) and ``errors`` (mean and SD of the test error per number of genes; with
        splits).

        Returns
        -------
        dict of str → DataFrame
        """
        import pandas as pd

        if self.stjude is None:
            return {"inputs": self.inputs, "rules": self.rules}
        res = self.stjude
        pairs = [(key.split(" ∩ ")[0], key.split(" ∩ ")[1]) for key in res.overlap]
        agreement = pd.DataFrame(
            {"a": [a for a, _ in pairs], "b": [b for _, b in pairs],
             "shared": [res.overlap[f"{a} ∩ {b}"] for a, b in pairs],
             "footrule": [res.footrule[f"{a} ~ {b}"] for a, b in pairs]})
        out = {"top_genes": res.table, "agreement": agreement}
        if res.errors:
            err = res.error_table()
            err.columns = [f"{m}_{stat}" for m, stat in err.columns]
            out["errors"] = err
        return out

    def notes(self) -> list[str]:
        """The time taken; the figure written.

        Returns
        -------
        list of str
        """
        if self.stjude is None:
            return [f"{len(DEMO_RULES)} rules in {self.seconds:.2f} s"]
        last = self.stjude.report().rsplit("\n", 1)[-1]
        out = [last] if last.startswith("time:") else []
        if self.plot is not None:
            out.append(f"error curves saved to {self.plot}")
        return out

    def summary(self) -> str:
        """The text ``rankfusion demo`` prints.

        Returns
        -------
        str
        """
        from .text import frame_text

        if self.stjude is not None:
            text = self.stjude.report()
            if self.plot is not None:
                text += f"\nerror curves saved to {self.plot}"
            return text
        lists = self.lists
        return "\n".join([
            f"# {lists.n_lists} rankers on the UCI Wine data ({lists.n_features} features, "
            "3 classes): their top features",
            frame_text(self.inputs), "",
            "# the consensus of each rule, and how it agrees with Borda",
            frame_text(self.rules),
            f"\n# {self.notes()[0]}"])

    def save(self, out, *, overwrite: bool = False) -> list:
        """Save the error curves of the St. Jude demo as a figure (needs the ``plot`` extra).

        Parameters
        ----------
        out : str or path-like
            The figure's file; its suffix gives the format (``.png``, ``.pdf``, ``.svg`` …).
        overwrite : bool, default False
            Replace an existing file.

        Returns
        -------
        list of Path
            The file written.
        """
        from ..evaluation import save_figure

        if self.stjude is None:
            raise ValueError("the lists demo draws no figure")
        path = _check_plot(out, overwrite)
        save_figure(self.stjude.plot(), path)
        return [path]


def _check_plot(plot, overwrite: bool):
    from pathlib import Path

    from ..evaluation import check_figure_path

    path = check_figure_path(plot, name="--plot")
    if Path(plot).exists() and not overwrite:
        raise FileExistsError(f"--plot {plot} exists; pass --overwrite to replace it")
    return path


def run_demo(*, lists: bool = False, top: int | None = None, n_splits: int = 10,
             random_state: int = 0, n_jobs: int | None = None, plot=None,
             overwrite: bool = False, progress: bool = False) -> DemoRun:
    """Run the St. Jude headline (default) or the rules on the Wine example lists.

    Parameters
    ----------
    lists : bool, default False
        Compare the aggregation rules on the bundled example lists instead.
    top : int, optional
        Features shown per method (default 15; 5 with ``lists``; at most all).
    n_splits : int, default 10
        Stratified 75/25 splits of the error table (0 = skip it and the advisor's verdict;
        St. Jude only).
    random_state : int, default 0
        Seed of the splits (the output is deterministic; St. Jude only).
    n_jobs : int, optional
        Binary problems and splits in parallel (St. Jude only; the output does not depend on
        it).
    plot : str or path-like, optional
        Save the error curves here (St. Jude only; checked before the work).
    overwrite : bool, default False
        Replace an existing ``plot`` file.
    progress : bool, default False
        Progress bars on standard error.

    Returns
    -------
    DemoRun

    Examples
    --------
    >>> run = run_demo(lists=True, top=3)
    >>> run.tables()["rules"].loc["borda", "#1"]
    'proline'
    """
    if lists:
        import pandas as pd

        from ..datasets import load_wine_lists

        t0 = time.perf_counter()
        wine = load_wine_lists()
        top = max(1, min(top or 5, wine.n_features))
        inputs = pd.DataFrame({name: [_short(str(f)) for f in wine.ranked_features(name)[:top]]
                               for name in wine.list_names},
                              index=[f"#{i + 1}" for i in range(top)])
        rules = compare_rules(wine, top=top)
        return DemoRun(lists=wine, inputs=inputs.T, rules=rules,
                       seconds=time.perf_counter() - t0)
    from ..evaluation import stjude_demo

    if plot is not None:
        _check_plot(plot, overwrite)  # before the work, not after
    res = stjude_demo(top=top or 15, n_jobs=n_jobs, n_splits=n_splits,
                      random_state=random_state, progress=progress)
    run = DemoRun(stjude=res)
    if plot is not None:
        run.save(plot, overwrite=overwrite)
        run.plot = plot
    return run
