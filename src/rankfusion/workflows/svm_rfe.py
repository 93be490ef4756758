"""Multiclass SVM-RFE on a data set with the lists combined by rules (Izetta et al. 2017): what
``rankfusion svm-rfe`` computes (:func:`run_svm_rfe` → :class:`SVMRFERun`)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .output import (
    WorkflowRun,
    check_output_files,
    inputs_of,
    is_stream,
    source_name,
    write_csv_file,
)

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["run_svm_rfe", "SVMRFERun", "read_numeric_data"]

#: The rules of :func:`run_svm_rfe` when none are given.
DEFAULT_RULES = ("kfirst", "schulze", "average")


def read_numeric_data(data, target=None, *, standardize: bool = False, task=None,
                      **reading):
    """A data set as SVM-RFE takes it: numeric features without missing values, the class as
    text (a regression target as floats).

    Parameters
    ----------
    data : str, path-like or DataFrame
        The data set (:func:`~rankfusion.workflows.read_data`).
    target : str, int or None, default None
        The class column; None = the last column.
    standardize : bool, default False
        z-score every feature (:func:`rankfusion.io.standardize`).
    task : {None, "auto", "classification", "regression"}, optional
        What the target is (:func:`rankfusion.io.load_data`); a regression target is returned
        as floats.
    **reading
        The reading options of :func:`~rankfusion.workflows.read_data` (``format``,
        ``drop``, ``na_values``, ``nominal``, ``sep``, ``encoding``).

    Returns
    -------
    X : ndarray or scipy.sparse.csr_matrix of shape (n, p)
        The features as floats (an svmlight file's stay sparse, docs/design.md, 'Sparse
        input', unless ``accept_sparse="densify"`` is among ``reading``).
    y : ndarray of shape (n,)
        The class labels as text (floats for a regression target).
    names : list of str
        The feature names.
    """
    import numpy as np
    import pandas as pd

    from ..io import standardize as z_score
    from .data import read_data

    X, y = read_data(data, target, task=task, **reading)
    if not isinstance(X, pd.DataFrame):  # sparse (an svmlight file): kept sparse
        if standardize:
            raise ValueError(f"--standardize centres every feature, which makes the sparse "
                             f"data of {source_name(data)} dense: pass --accept-sparse densify "
                             "as well (made dense within the memory check), or leave "
                             "--standardize out")
        names = [str(c) for c in X.feature_names]
        if pd.api.types.is_float_dtype(y.dtype) and task in ("auto", "regression"):
            from .._utils.task import resolve_task

            if task == "regression" or resolve_task(y, "auto") == "regression":
                return X, y.to_numpy(dtype=np.float64), names
        return X, y.astype(str).to_numpy(), names
    bad = [c for c in X.columns if not pd.api.types.is_numeric_dtype(X[c].dtype)]
    if bad:
        raise ValueError(f"column {bad[0]!r} is not numeric; SVM-RFE needs numbers "
                         "(leave it out with --drop)")
    if X.isna().any().any():
        raise ValueError("the data have missing values; SVM-RFE needs complete data")
    if y.isna().any():
        raise ValueError("the class column has missing values")
    values = X.to_numpy(dtype=np.float64)
    if standardize:
        values = z_score(values)
    if pd.api.types.is_float_dtype(y.dtype) and task in ("auto", "regression"):
        from .._utils.task import resolve_task

        if task == "regression" or resolve_task(y, "auto") == "regression":
            return values, y.to_numpy(dtype=np.float64), [str(c) for c in X.columns]
    return values, y.astype(str).to_numpy(), [str(c) for c in X.columns]


@dataclass
class SVMRFERun(WorkflowRun):
    """What :func:`run_svm_rfe` computed.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    source : str, path-like or DataFrame
        The data as given.
    rankings : SVMRFERankings
        The rankings of every method (:func:`rankfusion.selection.svm_rfe_rankings`).
    features : list of str
        The feature names.
    n_samples : int
        Rows of the data.
    n_classes : int
        Classes of the target (0 for a regression target).
    decomposition : str
        The decomposition (``ovo``, ``ova``), or the MSVM criterion of an MSVM-RFE run
        (``crammer_singer``, ``weston_watkins``), as the summary names the run.
    seconds : float
        Wall-clock time of the rankings.
    top : int
        Features per method the summary shows (0 = all).
    written : dict of str → str or path-like
        ``"out"`` / ``"lists_out"`` → the file written.
    """

    MAIN_TABLE = "top_features"

    source: object
    rankings: object
    features: list
    n_samples: int
    n_classes: int
    decomposition: str
    seconds: float = 0.0
    top: int = 20
    written: dict = field(default_factory=dict)

    def positions(self) -> pd.DataFrame:
        """Features × methods positions (1 = best), in the data's column order: the
        ``--out`` file.

        Returns
        -------
        DataFrame
        """
        import pandas as pd

        return pd.DataFrame(self.rankings.positions,
                            index=pd.Index(self.features, name="feature"))

    def tables(self) -> dict:
        """``{"top_features": …}``: rank (1 = best) × method, the feature at that rank.

        Returns
        -------
        dict of str → DataFrame
        """
        import numpy as np
        import pandas as pd

        p = len(self.features)
        top = self.top if self.top else p
        side = pd.DataFrame(
            {m: [self.features[i] for i in np.argsort(pos, kind="stable")[:top]]
             for m, pos in self.rankings.positions.items()},
            index=pd.RangeIndex(1, min(top, p) + 1, name="rank"))
        return {"top_features": side}

    def notes(self) -> list[str]:
        """C (when chosen by CV), the run, the files written.

        Returns
        -------
        list of str
        """
        out = self.rankings
        n_lists = out.n_lists
        lines = [f"C chosen by 5-fold CV: {out.C:g}"] if out.C_cv_results is not None else []
        lines.append(f"SVM-RFE ({self.decomposition}, {n_lists} list"
                     f"{'s' if n_lists > 1 else ''}) on {self.n_samples} samples × "
                     f"{len(self.features)} features, "
                     f"{f'{self.n_classes} classes' if self.n_classes else 'numeric target'}; "
                     f"C={out.C:g}; "
                     f"{self.seconds:.2f} s")
        if "out" in self.written:
            lines.append(f"positions written to {self.written['out']}")
        if "lists_out" in self.written:
            lines.append(f"per-problem lists written to {self.written['lists_out']}")
        return lines

    def summary(self) -> str:
        """The text ``rankfusion svm-rfe`` prints.

        Returns
        -------
        str
        """
        from .text import frame_text

        notes = [f"# {n}" for n in self.notes()]
        n_head = 2 if self.rankings.C_cv_results is not None else 1
        return "\n".join([*notes[:n_head], frame_text(self.tables()["top_features"]),
                          *notes[n_head:]])

    def save(self, out=None, *, lists_out=None, overwrite: bool = False) -> list:
        """Write the positions (features × methods) and, with ``lists_out``, the per-problem
        positions (features × problems, readable by ``rankfusion aggregate --input
        positions``) as CSV.

        Parameters
        ----------
        out : str, path-like or text stream, optional
            The positions file (written atomically), or a stream.
        lists_out : str or path-like, optional
            The per-problem lists file (when the run has them).
        overwrite : bool, default False
            Replace existing files.

        Returns
        -------
        list of Path
            The files written (none for a stream).
        """
        paths = check_output_files({"--out": out, "--lists-out": lists_out},
                                   inputs_of(self.source), overwrite=overwrite)
        written = []
        if out is not None:
            write_csv_file(self.positions(), paths.get("--out", out))
            if not is_stream(out):
                written.append(paths["--out"])
        if lists_out is not None and self.rankings.lists is not None:
            write_csv_file(self.rankings.lists.to_frame("positions"), paths["--lists-out"])
            written.append(paths["--lists-out"])
        return written


def _svm_rfe_regression(data, X, y, names, *, rules, decomposition, criterion, k, params, C,
                        step, step_until, random_state, outputs, out, lists_out, top):
    """``run_svm_rfe`` on a numeric target: one RFE run with a linear SVR."""
    from ..selection import SVMRFE
    from ..selection.svm_rfe import SVMRFERankings

    given = [name for name, v in (("rules", rules is not None and list(rules) != list(
        DEFAULT_RULES)), ("decomposition", decomposition != "ovo"), ("criterion",
        criterion != "binary"), ("k", k is not None), ("params", bool(params)),
        ("lists_out", lists_out is not None)) if v]
    if given:
        raise ValueError(f"{given[0]} needs classes (binary problems and their lists); a "
                         "regression target is ranked by one RFE run with a linear SVR: "
                         "leave it out, or say task='classification'")
    t0 = time.perf_counter()
    sel = SVMRFE(n_features_to_select=1, C=C, step=step, step_until=step_until,
                 random_state=random_state, task="regression").fit(X, y)
    rankings = SVMRFERankings(positions={"rfe_linear_svr": sel.positions_}, consensus={},
                              lists=None, C=sel.C_)
    run = SVMRFERun(data, rankings, names, X.shape[0], 0, "regression, linear SVR",
                    seconds=time.perf_counter() - t0, top=top)
    run.save(outputs.get("--out"), overwrite=True)
    if out is not None:
        run.written["out"] = out
    return run


def run_svm_rfe(data, target=None, *, rules=None, decomposition: str = "ovo",
                criterion: str = "binary", k=None,
                params=None, C=1.0, step=0.1, step_until: int = 20, standardize: bool = False,
                random_state=None, n_jobs: int | None = None, format=None, drop=None,
                na_values=None, nominal=None, sep=None, encoding="utf-8", out=None,
                lists_out=None, overwrite: bool = False, top: int = 20,
                progress: bool = False, log: Callable[[str], None] | None = None,
                task: str = "auto", zero_based: bool = False, n_features=None,
                accept_sparse=False) -> SVMRFERun:
    """Multiclass SVM-RFE: one ranking per binary problem (OVO or OVA), combined by each rule,
    or an MSVM-RFE run (``criterion="crammer_singer"|"weston_watkins"``; the former spelling
    ``decomposition="crammer_singer"|"weston_watkins"`` still works for one release, with a
    ``FutureWarning``, and gives the same results).

    Parameters
    ----------
    data : str, path-like or DataFrame
        The data set (:func:`read_numeric_data`).
    target : str, int or None, default None
        The class column; None = the last column.
    rules : str or list of str, optional
        Rules combining the per-problem lists (comma-separated text or a list); ``average``
        is the joint RFE on mean ``|w|``. Default ``kfirst, schulze, average``.
    decomposition : {"ovo", "ova"}, default "ovo"
        The binary problems (the MSVM names: deprecated, see ``criterion``).
    criterion : {"binary", "crammer_singer", "weston_watkins"}, default "binary"
        ``"binary"``: one RFE ranking per binary problem, combined by each rule; an MSVM name:
        one MSVM-RFE run (:func:`rankfusion.selection.svm_rfe_rankings`).
    k : int or float, optional
        ``kfirst``'s k: a count or a fraction of the features.
    params : dict, optional
        Parameters of the rules; each rule gets the ones it takes.
    C : float or "cv", default 1.0
        The SVM's C, or ``"cv"`` (chosen by 5-fold CV).
    step : int or float, default 0.1
        Fraction removed per iteration (float) or a fixed count (int).
    step_until : int, default 20
        With a float ``step``: below this many features, one at a time.
    standardize : bool, default False
        z-score every feature first.
    random_state : None, int, SeedSequence or Generator
        Seed of every random step; None = fresh entropy.
    n_jobs : int, optional
        Binary problems in parallel.
    format : {"csv", "arff", "parquet"}, optional
        The file format; default: from the file name.
    drop : str or list of str, optional
        Columns that are not features.
    na_values : list of str, optional
        Cells read as missing values.
    nominal : str or list of str, optional
        Columns read as nominal.
    sep : str, optional
        The CSV separator.
    encoding : str, default "utf-8"
        The text encoding.
    out : str or path-like, optional
        Write the positions here; checked before any work.
    lists_out : str or path-like, optional
        Write the per-problem positions here; checked before any work.
    overwrite : bool, default False
        Replace existing output files.
    top : int, default 20
        Features per method the summary shows (0 = all).
    progress : bool, default False
        Report the estimated work (through ``log``) and the progress on standard error.
    log : callable, optional
        Called with the line of the estimated work when ``progress``.
    task : {"auto", "classification", "regression"}, default "auto"
        What the target is (docs/design.md, 'Tasks'). A regression target is ranked by one
        RFE run with a linear SVR (:class:`rankfusion.SVMRFE` with ``task="regression"``):
        one method, ``rfe_linear_svr``; rules, decompositions and the MSVM criteria need
        classes and are refused; ``C="cv"`` chooses the SVR's C by cross-validated R²
        (:func:`rankfusion.selection.svm_rfe.choose_C_regression`).
    zero_based : bool, default False
        svmlight files: the indices count from 0.
    n_features : int, optional
        svmlight files: the number of features (:func:`~rankfusion.workflows.read_data`).
    accept_sparse : {False, "densify"}, default False
        Sparse data (an svmlight file) stay sparse for the built-in SVM (the
        ``weston_watkins`` criterion and ``standardize`` refuse them); ``"densify"`` makes
        them dense first, within the memory check.

    Returns
    -------
    SVMRFERun
    """
    import numpy as np

    from .._utils.progress import progress_bar
    from ..selection import svm_rfe_rankings, svm_rfe_work
    from ..selection.svm_rfe import resolve_criterion

    if rules is None:
        rules = DEFAULT_RULES
    if isinstance(rules, str):
        rules = rules.split(",")
    methods = [m.strip() for m in rules if m.strip()]
    outputs = check_output_files({"--out": out, "--lists-out": lists_out}, inputs_of(data),
                                 overwrite=overwrite)
    from .._utils.task import check_task

    task = check_task(task)
    X, y, names = read_numeric_data(data, target, standardize=standardize, format=format,
                                    drop=drop, na_values=na_values, nominal=nominal, sep=sep,
                                    encoding=encoding, task=task, zero_based=zero_based,
                                    n_features=n_features, accept_sparse=accept_sparse)
    if y.dtype.kind == "f":
        return _svm_rfe_regression(data, X, y, names, rules=rules, decomposition=decomposition,
                                   criterion=criterion, k=k, params=params, C=C, step=step,
                                   step_until=step_until, random_state=random_state,
                                   outputs=outputs, out=out, lists_out=lists_out, top=top)
    n_classes = np.unique(y).shape[0]
    decomposition, criterion = resolve_criterion(decomposition, criterion)
    aggregation_params = dict(params or {})
    rule_params = {"kfirst": {"k": k}} if k is not None and "kfirst" in methods else None
    work = svm_rfe_work(X.shape[0], X.shape[1], n_classes, methods=methods,
                        decomposition=decomposition, criterion=criterion, C=C, step=step,
                        step_until=step_until,
                        aggregation_params=aggregation_params, rule_params=rule_params,
                        random_state=random_state)
    if progress and log is not None:
        log(work.describe())
    work.check_memory()
    bar = progress_bar(work.counts.get("binary problems", 0), "SVM-RFE", "binary problems",
                       enabled=bool(progress))
    t0 = time.perf_counter()
    try:
        rankings = svm_rfe_rankings(
            X, y, methods, decomposition=decomposition, criterion=criterion, C=C, step=step,
            step_until=step_until, n_jobs=n_jobs, aggregation_params=aggregation_params,
            rule_params=rule_params, random_state=random_state, feature_names=names,
            problem_lists=True, progress=None if bar is None else (lambda r: bar.update(1)))
    finally:
        if bar is not None:
            bar.close()
    run = SVMRFERun(data, rankings, names, X.shape[0], n_classes,
                    decomposition if criterion == "binary" else criterion,
                    seconds=time.perf_counter() - t0, top=top)
    run.save(outputs.get("--out"), lists_out=outputs.get("--lists-out"), overwrite=True)
    if out is not None:
        run.written["out"] = out
    if lists_out is not None and rankings.lists is not None:
        run.written["lists_out"] = lists_out
    return run
