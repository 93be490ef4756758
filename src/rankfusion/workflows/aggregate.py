"""Combining the ranked lists of a file into one consensus ranking: what ``rankfusion
aggregate`` computes (:func:`run_aggregation` → :class:`AggregationRun`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .output import WorkflowRun, check_output_files, inputs_of, write_csv_file

TYPE_CHECKING = False
if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["run_aggregation", "AggregationRun"]


@dataclass
class AggregationRun(WorkflowRun):
    """What :func:`run_aggregation` computed.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    source : str, path-like or RankedLists
        The lists as given.
    lists : RankedLists
        The lists read.
    reading : str
        How the file was read (``scores``, ``positions`` or ``orders``).
    consensus : Consensus
        The consensus ranking.
    top : int
        Rows the summary shows (0 = all).
    written : str, path-like or None
        The consensus file written, if any.
    tie_break : {"index", "random"}
        How features the rule leaves tied were ordered.
    random_state : int or None
        The seed of ``tie_break="random"``.
    """

    MAIN_TABLE = "consensus"

    source: object
    lists: object
    reading: str
    consensus: object
    top: int = 20
    written: object = None
    tie_break: str = "index"
    random_state: object = None

    def table(self) -> pd.DataFrame:
        """The consensus table (:meth:`rankfusion.aggregation.Consensus.to_frame`).

        Returns
        -------
        DataFrame
        """
        return self.consensus.to_frame()

    def tables(self) -> dict:
        """``{"consensus": …}``: the rows of :meth:`table` the summary shows (``top``).

        Returns
        -------
        dict of str → DataFrame
        """
        frame = self.table()
        return {"consensus": frame.head(self.top) if self.top else frame}

    def notes(self) -> list[str]:
        """The rule and the lists; the file written.

        Returns
        -------
        list of str
        """
        c, lists = self.consensus, self.lists
        out = [f"{c.method} consensus of {lists.n_lists} lists over {lists.n_features} "
               f"features{'' if not c.params else ' ' + str(c.params)}"]
        from ..aggregation import tied_blocks
        from .ties import tie_note

        at = (float(c.scores[c.order[self.top - 1]])
              if 0 < self.top <= c.order.shape[0] else None)
        note = tie_note(-tied_blocks(c), self.top, what=f"the {c.method} score",
                        tie_break=self.tie_break, random_state=self.random_state, at=at)
        if note is not None:
            out.append(note)
        if self.written is not None:
            out.append(f"written to {self.written}")
        return out

    def summary(self) -> str:
        """The text ``rankfusion aggregate`` prints.

        Returns
        -------
        str
        """
        notes = self.notes()
        body = self._light_text()
        if body is None:
            from .text import frame_text

            body = frame_text(self.tables()["consensus"])
        return "\n".join([f"# {notes[0]}", body, *(f"# {n}" for n in notes[1:])])

    def _light_text(self) -> str | None:
        """The consensus table as :func:`frame_text` prints it, made without pandas
        (:func:`~rankfusion.workflows.format_float_table`); None where that text could
        differ (a feature name that is not a string, or numbers pandas prints otherwise)."""
        c = self.consensus
        order = c.order[:self.top] if self.top else c.order  # as DataFrame.head(top)
        features = c.features[order]
        if not all(isinstance(f, str) for f in features):
            return None
        columns = {"rank": c.positions[order], "score": c.scores[order]}
        if c.tiebreak is not None:
            columns[c.tiebreak_name or "tiebreak"] = c.tiebreak[order]
        from .text import format_float_table

        return format_float_table("feature", features, columns)

    def save(self, out, *, overwrite: bool = False) -> list:
        """Write the consensus table as CSV.

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
        paths = check_output_files({"--out": out}, inputs_of(self.source),
                                   overwrite=overwrite)
        write_csv_file(self.table(), paths.get("--out", out))
        return list(paths.values())


def run_aggregation(lists, rule: str = "kfirst", *, params=None, weights=None,
                    input: str = "auto", header=None, list_names=None, sep: str = ",",
                    encoding: str = "utf-8", out=None, overwrite: bool = False,
                    top: int = 20, tie_break: str = "index", random_state=None,
                    log: Callable[[str], None] | None = None) -> AggregationRun:
    """Read ranked lists and combine them into one consensus ranking.

    Parameters
    ----------
    lists : str, path-like or RankedLists
        A lists file (:func:`rankfusion.io.read_lists`; ``-`` = standard input) or lists.
    rule : str, default "kfirst"
        The rule (:func:`rankfusion.aggregation.available_methods`); an unknown rule is
        refused before the file is read.
    params : dict, optional
        The rule's parameters (``k`` for ``kfirst``, …).
    weights : sequence of float, optional
        One weight per list.
    input : {"auto", "scores", "positions", "orders"}, default "auto"
        The kind of the file; ``auto`` decides only where one reading is possible.
    header : bool, optional
        Orders files: whether the first row is a header.
    list_names : bool, optional
        Orders files: whether each row starts with the list's name.
    sep : str, default ","
        The CSV separator.
    encoding : str, default "utf-8"
        The text encoding.
    out : str or path-like, optional
        Write the consensus table here (:meth:`AggregationRun.save`); checked before any
        work.
    overwrite : bool, default False
        Replace an existing ``out``.
    top : int, default 20
        Rows the summary and the tables show (0 = all). When the top rows cut through
        features the rule leaves tied (equal score and secondary key), the notes say how
        many tie and how the shown ones were chosen.
    tie_break : {"index", "random"}, default "index"
        The order of features the rule leaves tied: the lower feature index (the rules'
        exact default) or a random order drawn from ``random_state``.
    random_state : int, optional
        Seeds ``tie_break="random"`` and a rule that takes a ``random_state`` (``ga``,
        ``ce``, ``kemeny``…) unless ``params`` gives one; None draws a seed where one is
        needed, which the notes report.
    log : callable, optional
        Called with a line of text when ``input="auto"`` chose the reading.

    Returns
    -------
    AggregationRun

    Examples
    --------
    >>> from rankfusion import RankedLists
    >>> lists = RankedLists.from_orders([["a", "b", "c"], ["b", "a", "c"], ["a", "c", "b"]])
    >>> run_aggregation(lists, "borda").tables()["consensus"].index.tolist()
    ['a', 'b', 'c']
    """
    from ..aggregation import aggregate, break_ties, resolve
    from ..io import read_lists
    from ..lists import RankedLists

    rule = resolve(rule, argument="--rules")  # an unknown rule fails before the file is read
    paths = check_output_files({"--out": out}, inputs_of(lists), overwrite=overwrite)
    if isinstance(lists, RankedLists):
        ranked, reading = lists, "lists"
    else:
        ranked, reading = read_lists(lists, input, header=header, list_names=list_names,
                                     sep=sep, encoding=encoding, return_reading=True)
        if input == "auto" and log is not None:
            log(f"read {lists} as {reading}; say --input to choose")
    from .._utils.validation import check_seed
    from .ties import check_tie_break

    check_tie_break(tie_break, random_state)
    params = dict(params or {})
    if (random_state is not None and rule.accepts("random_state")
            and "random_state" not in rule.params):
        params.setdefault("random_state", check_seed(random_state))
    if tie_break == "random" and random_state is None:
        random_state = check_seed(None)  # drawn once, reported in the notes
    result = aggregate(ranked, rule, weights=weights, **params)
    result = break_ties(result, tie_break, random_state)
    run = AggregationRun(lists, ranked, reading, result, top=top, tie_break=tie_break,
                         random_state=random_state)
    if out is not None:
        run.save(paths["--out"], overwrite=True)
        run.written = out
    return run
