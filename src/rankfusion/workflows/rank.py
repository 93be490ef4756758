"""Scoring and ranking the features of a data set with one or more rankers: what
``rankfusion rank`` computes (:func:`run_ranking` → :class:`RankingRun`).

A small plain CSV file ranked by information measures alone is read and scored without pandas
(:func:`rankfusion.io.read_small`, :func:`~rankfusion.workflows.format_float_table`), so that
the command starts quickly; the result is the same, byte for byte, as the general route's
(:func:`rankfusion.io.load_data`, :func:`rank_table`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .output import WorkflowRun, check_output_files, inputs_of, source_name, write_csv_file

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..lists import RankedLists

__all__ = ["run_ranking", "RankingRun", "rank_table"]

#: Rankers the small-file route computes without pandas (the information measures, whose
#: scores depend on the data alone), and the parameters they take.
LIGHT_RANKERS = ("info_gain", "gain_ratio", "symmetric_uncertainty", "chi_square")
LIGHT_PARAMS = ("missing_as_value", "binarize")


def _order(lists: RankedLists, tie_break: str = "index", random_state=None):
    """Features best first by the first list; equal scores by column order or at random."""
    from .ties import tie_order

    return tie_order([-lists.scores[:, 0]], tie_break, random_state)


def _lists_table(lists: RankedLists, tie_break: str = "index",
                 random_state=None) -> pd.DataFrame:
    table = lists.to_frame("scores")
    table.index.name = "feature"
    for name, col in zip(lists.list_names, lists.positions.T):
        table[f"{name}_pos"] = col
    return table.iloc[_order(lists, tie_break, random_state)]


def rank_table(X, y, rankers, params: dict | None = None, *, tie_break: str = "index",
               random_state=None) -> pd.DataFrame:
    """Scores and positions of every feature under each ranker, sorted by the first ranker.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n, p)
        The features.
    y : array-like of shape (n,)
        Class labels.
    rankers : list of str
        Registered ranker names (:func:`rankfusion.rankers.available_rankers`).
    params : dict, optional
        Parameters passed to every ranker that takes them.
    tie_break : {"index", "random"}, default "index"
        The row order of features with equal scores under the first ranker: column order
        (exact) or a random order drawn from ``random_state``. Their positions are tied
        either way (the mean of their places).
    random_state : int, optional
        Seeds ``tie_break="random"``.

    Returns
    -------
    DataFrame
        Indexed by ``feature``, best first by the first ranker (ties by ``tie_break``): one
        score column per ranker, then one ``<ranker>_pos`` column of positions (1 = best) per
        ranker.
    """
    from ..rankers import rank_features
    from .ties import check_tie_break

    check_tie_break(tie_break, random_state)
    return _lists_table(rank_features(X, y, rankers, params=params), tie_break, random_state)


@dataclass
class RankingRun(WorkflowRun):
    """What :func:`run_ranking` computed.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    source : str or path-like
        The data as given.
    rankers : list of str
        The rankers, as given.
    lists : RankedLists
        Features × rankers, with the scores.
    n_samples : int
        Rows of the data.
    n_features : int
        Features of the data.
    target : str
        The name of the class column.
    n_classes : int
        Classes of the target (0 for a regression target).
    top : int
        Rows the summary shows (0 = all).
    written : Path or None
        The scores file written, if any.
    light : bool
        Whether the small-file route (without pandas) computed it.
    tie_break : {"index", "random"}
        The row order of equal scores under the first ranker.
    random_state : int or None
        The seed of ``tie_break="random"``.
    task : {"classification", "regression"}
        The task of the target.
    """

    MAIN_TABLE = "scores"

    source: object
    rankers: list
    lists: object
    n_samples: int
    n_features: int
    target: object
    n_classes: int
    top: int = 20
    written: object = None
    light: bool = field(default=False, repr=False)
    tie_break: str = "index"
    random_state: object = None
    task: str = "classification"

    def table(self) -> pd.DataFrame:
        """Every feature's score and position under each ranker, best first by the first
        ranker (:func:`rank_table`).

        Returns
        -------
        DataFrame
        """
        return _lists_table(self.lists, self.tie_break, self.random_state)

    def tables(self) -> dict:
        """``{"scores": …}``: the rows of :meth:`table` the summary shows (``top``).

        Returns
        -------
        dict of str → DataFrame
        """
        table = self.table()
        return {"scores": table.head(self.top) if self.top else table}

    def notes(self) -> list[str]:
        """What was read, and the file written.

        Returns
        -------
        list of str
        """
        what = ("numeric (regression)" if self.task == "regression"
                else f"with {self.n_classes} classes")
        out = [f"{source_name(self.source)}: {self.n_samples} samples, "
               f"{self.n_features} features, target "
               f"{self.target!r} {what}; rankers: "
               f"{', '.join(self.rankers)}"]
        from .ties import tie_note

        note = tie_note(self.lists.scores[:, 0], self.top, what=str(self.rankers[0]),
                        tie_break=self.tie_break, random_state=self.random_state)
        if note is not None:
            out.append(note)
        if self.written is not None:
            out.append(f"written to {self.written}")
        return out

    def summary(self) -> str:
        """The text ``rankfusion rank`` prints.

        Returns
        -------
        str
        """
        notes = self.notes()
        body = self._light_text() if self.light else None
        if body is None:
            from .text import frame_text

            body = frame_text(self.tables()["scores"])
        lines = [f"# {notes[0]}", body] + [f"# {n}" for n in notes[1:]]
        return "\n".join(lines)

    def _light_text(self) -> str | None:
        lists = self.lists
        order = _order(lists, self.tie_break, self.random_state)
        if self.top:
            order = order[:self.top]
        columns = {name: lists.scores[order, k] for k, name in enumerate(self.rankers)}
        columns.update({f"{name}_pos": lists.positions[order, k]
                        for k, name in enumerate(self.rankers)})
        from .text import format_float_table

        return format_float_table("feature", lists.features[order], columns)

    def save(self, out, *, overwrite: bool = False) -> list:
        """Write the scores table (features × rankers, best first by the first ranker) as CSV,
        the input of ``rankfusion aggregate``.

        Parameters
        ----------
        out : str, path-like or text stream
            The file (written atomically), or a stream to write to.
        overwrite : bool, default False
            Replace an existing file.

        Returns
        -------
        list of Path
            The file written (none for a stream).
        """
        table = self.table()[list(self.lists.list_names)]
        paths = check_output_files({"--out": out}, inputs_of(self.source),
                                   overwrite=overwrite)
        write_csv_file(table, paths.get("--out", out))
        return list(paths.values())


def _rankers(rankers) -> list[str]:
    from ..rankers import get_ranker

    if isinstance(rankers, str):
        rankers = rankers.split(",")
    names = [str(r).strip() for r in rankers if str(r).strip()]
    if not names:
        raise ValueError("--rankers needs at least one ranker name")
    for name in names:
        get_ranker(name)  # unknown names fail before the data are read
    return names


def _light_ranking(source, target, rankers, params, reading, top,
                   ties=("index", None)) -> RankingRun | None:
    """The run on a small plain CSV with information measures, without pandas; None when
    the input is not one :func:`rankfusion.io.read_small` reads or the table is not one that
    :func:`~rankfusion.workflows.format_float_table` prints exactly as pandas."""
    from ..io import read_small
    from ..rankers import ranker_info

    entries = [ranker_info(name) for name in rankers]
    if (len(set(rankers)) < len(rankers) or any(e.name not in LIGHT_RANKERS for e in entries)
            or any(k not in LIGHT_PARAMS for k in params)):
        return None
    read = read_small(source, target, **reading)
    if read is None:
        return None
    data, target_name = read
    import numpy as np

    from ..lists import RankedLists

    scores = np.column_stack([np.asarray(e.func(data, None, **params), dtype=np.float64)
                              for e in entries])
    lists = RankedLists.from_scores(scores, features=[str(f) for f in data.feature_names],
                                    list_names=rankers)
    run = RankingRun(source, rankers, lists, data.n_samples, data.n_features, target_name,
                     data.n_classes, top=top, light=True, tie_break=ties[0],
                     random_state=ties[1])
    return run if run._light_text() is not None else None


def run_ranking(data, target=None, *, rankers="info_gain", params=None, format=None,
                drop=None, na_values=None, nominal=None, sep=None, encoding="utf-8",
                out=None, overwrite: bool = False, top: int = 20, tie_break: str = "index",
                random_state=None, sparse: bool = False, accept_sparse=False,
                task: str = "auto", zero_based: bool = False, n_features=None) -> RankingRun:
    """Score and rank the features of a data set with one or more rankers.

    Parameters
    ----------
    data : str, path-like or DataFrame
        The data set (:func:`~rankfusion.workflows.read_data`).
    target : str, int or None, default None
        The class column (a name or a 0-based position); None = the last column.
    rankers : str or list of str, default "info_gain"
        Registered ranker names (comma-separated text or a list); unknown names are refused
        before the data are read.
    params : dict, optional
        Parameters passed to every ranker that takes them.
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
        Write the scores table here (:meth:`RankingRun.save`); checked before any work.
    overwrite : bool, default False
        Replace an existing ``out``.
    top : int, default 20
        Rows the summary and the tables show (0 = all). When the top rows cut through a
        block of features with equal scores under the first ranker, the notes say how many
        tie and how the shown ones were chosen.
    tie_break : {"index", "random"}, default "index"
        The row order of equal scores (:func:`rank_table`).
    random_state : int, optional
        Seeds ``tie_break="random"``; None draws a seed, which the notes report.
    sparse : bool, default False
        Read an ARFF file into a sparse matrix (svmlight files always are;
        :func:`rankfusion.io.load_data`).
    accept_sparse : {False, "densify"}, default False
        As :func:`rankfusion.rankers.rank_features`: sparse data reach the sparse-capable
        rankers as they are; another ranker refuses them unless ``"densify"``.
    task : {"auto", "classification", "regression"}, default "auto"
        What the target is (docs/design.md, 'Tasks'): read as classes or as numbers, never
        guessed; under ``"auto"`` a whole-number target with many values is refused naming
        both choices.
    zero_based : bool, default False
        svmlight files: the indices count from 0.
    n_features : int, optional
        svmlight files: the number of features (:func:`~rankfusion.workflows.read_data`).

    Returns
    -------
    RankingRun

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> frame = load_iris(as_frame=True).frame
    >>> run = run_ranking(frame, rankers="info_gain,chi_square", top=2)
    >>> run.tables()["scores"].index.tolist()
    ['petal length (cm)', 'petal width (cm)']
    """
    from .._utils.task import check_task
    from .ties import check_tie_break

    task = check_task(task)
    names = _rankers(rankers)
    check_tie_break(tie_break, random_state)
    if tie_break == "random" and random_state is None:
        from .._utils.validation import check_seed

        random_state = check_seed(None)  # drawn once, reported in the notes
    params = dict(params or {})
    reading = {"format": format, "drop": drop, "na_values": na_values, "nominal": nominal,
               "sep": sep, "encoding": encoding}
    if sparse:
        reading["sparse"] = True
    svmlight = {k: v for k, v in (("zero_based", zero_based), ("n_features", n_features))
                if v not in (False, None)}
    if out is None and not sparse and not svmlight and task != "regression":
        run = _light_ranking(data, target, names, params, reading, top,
                             (tie_break, random_state))
        if run is not None:
            return run
    import pandas as pd

    from .._utils.task import resolve_task
    from ..rankers import rank_features
    from .data import read_data

    paths = check_output_files({"--out": out}, inputs_of(data), overwrite=overwrite)
    X, y = read_data(data, target, task=task, **reading, **svmlight)
    lists = rank_features(X, y, names, params=params, accept_sparse=accept_sparse, task=task)
    regression = pd.api.types.is_float_dtype(y.dtype) and (
        task == "regression" or (task == "auto" and resolve_task(y, "auto") == "regression"))
    n_classes = 0 if regression else pd.Series(y).astype(str).value_counts().shape[0]
    run = RankingRun(data, names, lists, X.shape[0], X.shape[1], y.name, n_classes,
                     top=top, tie_break=tie_break, random_state=random_state,
                     task="regression" if regression else "classification")
    if out is not None:
        run.written = out
        run.save(paths["--out"], overwrite=True)
    return run
