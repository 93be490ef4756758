"""The features × lists container: :class:`RankedLists`.

Conventions (docs/design.md, 'Scores and positions', 'Ties and determinism'): position 1 is
the best feature of a list; the relative ranking is ``r = 1 - pos / p``; tied scores share the mean
of their positions by default (``ties="average"``,
as :func:`scipy.stats.rankdata`), ``ties="ordinal"`` gives consecutive positions by feature
index, ``ties="min"`` the best one. In a top-k list a feature the list did not rank takes position
``k + 1`` (RankAggreg's convention) and the container remembers that it was absent.

Positions are stored internally *doubled* as integers (``2·pos``), so that average ties, which
give half-integer positions, stay exact: every rule built on positions computes its keys from
integer sums (docs/design.md, 'Exact keys').
"""

from __future__ import annotations

import os
import sys
from collections.abc import Hashable, Iterable, Mapping, Sequence

import numpy as np

from ._utils.lazy import lazy_module
from ._utils.validation import (
    check_names,
    check_score_matrix,
    check_unique_columns,
    object_vector,
    tuple_in_order_message,
)

pd = lazy_module("pandas")  # imported on first use (small commands start without it)

__all__ = ["RankedLists", "TIES"]

TIES = ("average", "ordinal", "min")


def _check_ties(ties) -> str:
    if ties not in TIES:
        raise ValueError(f"ties must be one of {list(TIES)}, got {ties!r}")
    return ties


def pos2_dtype(p: int) -> np.dtype:
    """The integer type of doubled positions for ``p`` features: int32 while ``2·(p + 1)``
    fits it (every practical size; half the memory of int64), int64 beyond."""
    return np.dtype(np.int32) if 2 * (int(p) + 1) <= np.iinfo(np.int32).max else np.dtype(
        np.int64)


def _doubled_positions_block(t: np.ndarray, ties: str, dtype) -> np.ndarray:
    """Doubled positions of each row of ``t`` (lists × features, lower = better)."""
    m, p = t.shape
    # numpy's default (SIMD introsort) argsort is several times faster than its stable sort;
    # without equal scores in a row the two give the same order, so only the rows that hold
    # ties are sorted again stably (equal scores in feature-index order)
    order = np.argsort(t, axis=1)
    out = np.empty((m, p), dtype=dtype)
    steps = 2 * np.arange(1, p + 1, dtype=dtype)
    new = np.ones((m, max(p - 1, 0)), dtype=bool)
    if p > 1:
        vs = np.take_along_axis(t, order, axis=1)
        new = vs[:, 1:] != vs[:, :-1]
        del vs
        tied = ~new.all(axis=1)
        if tied.any():
            rows = np.flatnonzero(tied)
            order[rows] = np.argsort(t[rows], axis=1, kind="stable")
    if ties == "ordinal" or p == 1 or new.all():
        np.put_along_axis(out, order, np.broadcast_to(steps, (m, p)), axis=1)
        return out
    idx = np.broadcast_to(np.arange(p, dtype=dtype), (m, p))
    starts_flag = np.ones((m, p), dtype=bool)
    starts_flag[:, 1:] = new
    start = np.maximum.accumulate(np.where(starts_flag, idx, 0), axis=1)
    if ties == "min":
        val = 2 * (start + 1)
    else:  # average: (start+1 + end+1) / 2, doubled
        ends_flag = np.ones((m, p), dtype=bool)
        ends_flag[:, :-1] = new
        end = np.minimum.accumulate(np.where(ends_flag, idx, p - 1)[:, ::-1], axis=1)[:, ::-1]
        val = start + end + 2
    np.put_along_axis(out, order, val, axis=1)
    return out


#: Scores ranked per block of lists: the block's transposed copy and sort buffers stay a
#: small fraction of a large matrix (about 40 bytes of transients per score of the block).
_BLOCK_SCORES = 1 << 21


def doubled_positions_from_scores(scores: np.ndarray, ties: str = "average") -> np.ndarray:
    """Doubled positions ``2·pos`` (features × lists; int32, or int64 beyond 2³⁰ features) of
    each column.

    Position 1 goes to the highest score. Ties follow ``ties`` (docs/design.md, 'Ties and
    determinism'); features with equal scores under ``"ordinal"`` get consecutive positions in
    feature-index order. The lists are ranked in blocks of about two million scores, each
    block copied lists-major (every list contiguous) and negated, so the transients stay
    small next to the input; large inputs rank their blocks on two to eight threads (numpy's
    sorts release the GIL). Every list is ranked independently, so the result does not depend
    on the blocks or the number of threads.
    """
    p, m = scores.shape
    out = np.empty((p, m), dtype=pos2_dtype(p))
    per_block = max(1, min(m, _BLOCK_SCORES // max(p, 1)))
    blocks = [(a, min(a + per_block, m)) for a in range(0, m, per_block)]

    def work(ab):
        a, b = ab
        # lists-major and negated: an ascending stable sort puts the best first and equal
        # scores in feature-index order
        t = np.empty((b - a, p), dtype=scores.dtype)  # never a view of the caller's scores
        np.negative(scores[:, a:b].T, out=t)
        out[:, a:b] = _doubled_positions_block(t, ties, out.dtype).T

    n_threads = min(os.cpu_count() or 1, 8, len(blocks))
    if p * m < 4 * _BLOCK_SCORES or n_threads < 2:
        for ab in blocks:
            work(ab)
        return out
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(n_threads) as ex:
        list(ex.map(work, blocks))
    return out


def _member(value, names: dict) -> bool:
    """Whether ``value`` is a key of ``names`` (False for an unhashable value)."""
    try:
        return value in names
    except TypeError:
        return False


def _is_frame(obj) -> bool:
    """``obj`` is a DataFrame; False without importing pandas when pandas is not loaded (no
    frame can exist then, and small commands start without pandas)."""
    return "pandas" in sys.modules and isinstance(obj, pd.DataFrame)


def _missing_name(v) -> bool:
    """None, NaN, pd.NA, NaT or an empty / blank string: not a feature name."""
    if isinstance(v, str):
        return not v.strip()
    try:
        return bool(pd.isna(v))
    except (TypeError, ValueError):  # array-like entries are not missing markers
        return False


def _frame_row(row, name) -> list:
    """A DataFrame row of an orders table: the cells up to the first empty one; an empty cell
    followed by a name is an error (a hole in a list, not a shorter list)."""
    cells = list(row)
    out = []
    for i, v in enumerate(cells):
        if _missing_name(v):
            rest = [w for w in cells[i + 1:] if not _missing_name(w)]
            if rest:
                raise ValueError(
                    f"orders row {name!r}: an empty cell at position {i + 1} is followed by "
                    f"{rest[0]!r}; empty cells may only end a short (top-k) list")
            break
        out.append(v)
    return out


def _check_average_ties(pos2: np.ndarray, j: int) -> None:
    """Doubled positions ``pos2`` of one list's ranked features must be a ranking with average
    ties: the c features of a group that starts at rank r all hold 2r + c − 1, and the groups
    tile 1..k (O(k) with one count per value)."""
    counts = np.bincount(pos2)
    values = np.flatnonzero(counts)
    c = counts[values]
    start2 = values - c + 1                      # 2r of each group
    ok = (start2[0] == 2 and (start2 % 2 == 0).all()
          and np.array_equal(start2[1:], start2[:-1] + 2 * c[:-1]))
    if not ok:
        raise ValueError(
            f"positions: list {j} is not a ranking with average ties (tied features share the "
            "mean of the places they take: two features tied first both hold 1.5, the next "
            "feature 3)")


class RankedLists:
    """p features × M ranked lists, with names, positions and (optionally) scores.

    Build it with :meth:`from_scores`, :meth:`from_orders` or :meth:`from_positions`; the
    plain constructor is internal. Files are read and written by :func:`rankfusion.io.read_lists`
    and :func:`rankfusion.io.write_lists`.

    Parameters
    ----------
    pos2 : ndarray of int, shape (p, M)
        Twice the position of each feature in each list (integers even where average ties
        give half-integer positions).
    ranked : ndarray of bool, shape (p, M)
        Whether each list really ranked each feature.
    features : ndarray of object, shape (p,)
        Feature names.
    list_names : ndarray of object, shape (M,)
        Names of the lists.
    scores : ndarray of float, shape (p, M), optional
        The raw scores, when the lists come from scores.
    ties : {"average", "ordinal", "min"}, default "average"
        How tied scores were given positions.

    Attributes
    ----------
    features : ndarray of object, shape (p,)
        Feature names (the universe).
    list_names : ndarray of object, shape (M,)
        Names of the lists.
    positions : ndarray of float, shape (p, M)
        Position of each feature in each list, 1 = best; half-integers where average ties;
        ``k + 1`` for a feature a top-k list did not rank.
    relative : ndarray of float, shape (p, M)
        ``r = 1 - pos / p`` (Izetta et al. 2017, §2).
    ranked : ndarray of bool, shape (p, M)
        Whether each list really ranked each feature (False only in top-k lists).
    scores : ndarray of float, shape (p, M), or None
        The raw scores the lists came from (higher = better), when built from scores.

    Examples
    --------
    >>> import numpy as np
    >>> from rankfusion import RankedLists
    >>> lists = RankedLists.from_scores(np.array([[0.9, 0.2], [0.5, 0.7], [0.1, 0.7]]))
    >>> lists.positions
    array([[1. , 3. ],
           [2. , 1.5],
           [3. , 1.5]])
    >>> top = RankedLists.from_orders([["b", "a"], ["a", "c", "b"]])
    >>> top.features  # the universe: the union, in order of first appearance
    array(['b', 'a', 'c'], dtype=object)
    >>> top.positions  # "c" is absent from the first list (k = 2): position k + 1 = 3
    array([[1., 3.],
           [2., 1.],
           [3., 2.]])
    """

    __slots__ = ("_features", "_list_names", "_pos2", "_ranked", "_scores", "_ties")

    def __init__(self, pos2, ranked, features, list_names, scores=None, ties="average"):
        self._pos2 = pos2
        self._ranked = ranked
        self._features = features
        self._list_names = list_names
        self._scores = scores
        self._ties = ties
        for a in (self._pos2, self._ranked, self._scores):
            if a is not None:
                a.flags.writeable = False

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_scores(
        cls, scores, ties: str = "average", *, features=None, list_names=None
    ) -> RankedLists:
        """Lists from a features × lists matrix of scores (higher = better).

        Parameters
        ----------
        scores : array-like or DataFrame, shape (p, M)
            One column per list. A DataFrame's index names the features and its columns the
            lists. Must be finite.
        ties : {"average", "ordinal", "min"}
            Positions of tied scores (docs/design.md, 'Ties and determinism').
        features, list_names : sequence, optional
            Names, when ``scores`` is a bare array.
        """
        ties = _check_ties(ties)
        values, features, list_names = check_score_matrix(
            scores, name="scores", features=features, list_names=list_names
        )
        pos2 = doubled_positions_from_scores(values, ties)
        ranked = np.broadcast_to(np.True_, values.shape)  # every list ranks every feature
        return cls(pos2, ranked, features, list_names, scores=values, ties=ties)

    @classmethod
    def from_orders(
        cls, orders, universe: Sequence | None = None, *, list_names=None
    ) -> RankedLists:
        """Lists from ordered sequences of feature names, best first (full or top-k).

        Parameters
        ----------
        orders : sequence of sequences, or mapping name → sequence, or DataFrame
            Each list is the feature names it ranks, best first. A DataFrame is read as one
            row per list (index = list names), empty cells (NaN, None, ``pd.NA``, ``""``)
            ending a short list; an empty cell before a name is an error, as is a missing
            name in a sequence, or two names that differ only by type (``1`` and ``"1"``).
        universe : sequence, optional
            All features. Defaults to the union of the lists, in order of first appearance.
            A list naming a feature outside a given universe is an error.
        list_names : sequence, optional
            Names of the lists (a mapping or DataFrame gives its own).

        Raises
        ------
        TypeError
            A tuple inside an order, unless ``universe`` names that tuple as a feature. To its
            author ``["a", ("b", "c"), "d"]`` is a tie, to an order it would be one feature
            named ``("b", "c")``; an order cannot hold a tie, so the message names the list
            and the position and points to scores or positions with ties
            (:meth:`from_scores`, :meth:`from_positions`). Features named by tuples
            (MultiIndex columns) are read when ``universe`` lists them: then a tuple is a name
            only if it is one of the universe's (docs/design.md, 'Inputs').

        Notes
        -----
        A feature absent from a list of length k takes position k + 1 in it (RankAggreg's
        convention); :attr:`ranked` records that it was absent.
        """
        if _is_frame(orders):
            if list_names is None:
                list_names = list(orders.index)
            orders = [_frame_row(row, name) for row, name in
                      zip(orders.itertuples(index=False), orders.index)]
        elif isinstance(orders, Mapping):
            if list_names is None:
                list_names = list(orders.keys())
            orders = list(orders.values())
        elif isinstance(orders, (str, bytes, set, frozenset)) or not isinstance(orders,
                                                                                Iterable):
            raise TypeError("orders must be a sequence of ordered sequences of feature names")
        orders = list(orders)
        if not orders:
            raise ValueError("orders must hold at least one list")
        features = None
        if universe is not None:
            if isinstance(universe, (str, bytes, set, frozenset, Mapping)):
                raise TypeError("universe must be a sequence of feature names")
            universe = list(universe)  # once: a generator can be read only once
            features = check_names(universe, len(universe), name="universe",
                                   default_prefix="f")
            uni = {v: i for i, v in enumerate(features)}
        shown = list(list_names) if list_names is not None and not isinstance(
            list_names, (str, bytes)) else None
        clean: list[list] = []
        for j, o in enumerate(orders):
            if isinstance(o, (str, bytes)) or not isinstance(o, Iterable):
                raise TypeError(
                    f"orders[{j}] must be a sequence of feature names, got {type(o).__name__}"
                )
            if isinstance(o, (set, frozenset, Mapping)):
                raise TypeError(f"orders[{j}] is a {type(o).__name__}, which has no order; give "
                                "the feature names as a list, best first")
            o = list(o.tolist() if isinstance(o, np.ndarray) else o)
            if not o:
                raise ValueError(f"orders[{j}] is empty; every list must rank a feature")
            seen = set()
            for i, v in enumerate(o):
                if _missing_name(v):
                    raise ValueError(
                        f"orders[{j}] holds a missing feature name ({v!r}) at position {i + 1}; "
                        "every entry must name a feature (a top-k list is simply shorter)")
                if isinstance(v, tuple) and not (features is not None and _member(v, uni)):
                    where = f"orders[{j}]"
                    if shown is not None and j < len(shown):
                        where += f" (list {shown[j]!r})"
                    tail = ("; features named by tuples (e.g. MultiIndex columns) need "
                            "universe= listing those tuples" if features is None
                            else "; it is not one of universe's features")
                    raise TypeError(tuple_in_order_message(where, i + 1, v, tail=tail))
                if isinstance(v, (list, np.ndarray, set, frozenset)):
                    raise TypeError(tuple_in_order_message(
                        f"orders[{j}]" + (f" (list {shown[j]!r})" if shown is not None
                                          and j < len(shown) else ""), i + 1, v,
                        tail="; a feature name is a string, a number or (with universe=) a "
                             "tuple"))
                if isinstance(v, dict) or not isinstance(v, Hashable):
                    raise TypeError(
                        f"orders[{j}] holds a {type(v).__name__} at position {i + 1} ({v!r}); a "
                        "feature name is a string, a number or (with universe=) a tuple")
                if v in seen:
                    raise ValueError(f"orders[{j}] names feature {v!r} twice")
                seen.add(v)
            clean.append(o)
        if universe is None:
            uni = {}
            for o in clean:
                for v in o:
                    uni.setdefault(v, len(uni))
            features = object_vector(list(uni), name="orders' feature names")
            if len({str(v) for v in uni}) < len(uni):
                spelled: dict = {}
                for v in uni:
                    w = spelled.setdefault(str(v), v)
                    if w is not v and w != v:
                        raise ValueError(
                            f"orders name the features {w!r} and {v!r}, which differ only by "
                            "type; give every feature name in one type (e.g. all strings)")
        else:
            for j, o in enumerate(clean):
                unknown = [v for v in o if v not in uni]
                if unknown:
                    raise ValueError(
                        f"orders[{j}] names feature(s) not in universe: {unknown[:5]}"
                    )
        p, m = len(features), len(clean)
        list_names = check_names(list_names, m, name="list_names", default_prefix="L")
        pos2 = np.empty((p, m), dtype=pos2_dtype(p))
        ranked = np.zeros((p, m), dtype=bool)
        for j, o in enumerate(clean):
            idx = np.fromiter((uni[v] for v in o), dtype=np.int64, count=len(o))
            pos2[:, j] = 2 * (len(o) + 1)
            pos2[idx, j] = 2 * np.arange(1, len(o) + 1)
            ranked[idx, j] = True
        return cls(pos2, ranked, features, list_names, scores=None, ties="ordinal")

    @classmethod
    def from_positions(cls, positions, *, features=None, list_names=None) -> RankedLists:
        """Lists from a features × lists matrix of positions (1 = best).

        Positions must be whole or half-integers (average ties) in [1, p]. NaN marks a feature
        the list did not rank: it takes position k + 1, k being the number of features that
        list ranked, and the ranked positions must then lie in [1, k].

        Parameters
        ----------
        positions : array-like or DataFrame, shape (p, M)
            One column per list. A DataFrame's index names the features and its columns the
            lists.
        features, list_names : sequence, optional
            Names, when ``positions`` is a bare array.

        Returns
        -------
        RankedLists
        """
        if _is_frame(positions):
            check_unique_columns(positions, name="positions")
            if features is None:
                features = list(positions.index)
            if list_names is None:
                list_names = list(positions.columns)
            bad = [c for c in positions.columns
                   if not pd.api.types.is_numeric_dtype(positions[c].dtype)
                   or pd.api.types.is_bool_dtype(positions[c].dtype)]
            if bad:
                raise TypeError(f"positions must be numbers; column {bad[0]!r} is not")
            arr = positions.to_numpy(dtype=np.float64, copy=True)
        else:
            arr = np.asarray(positions)
            if arr.dtype == bool or not (
                np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
            ):
                raise TypeError(f"positions must be numbers, got dtype {arr.dtype}")
            arr = np.array(arr, dtype=np.float64, copy=True)
        if arr.ndim != 2:
            raise ValueError(f"positions must be 2-D (features × lists); got shape {arr.shape}")
        p, m = arr.shape
        if p < 1 or m < 1:
            raise ValueError(f"positions must have a feature and a list; got shape {arr.shape}")
        if np.isinf(arr).any():
            raise ValueError("positions must be finite (NaN marks an unranked feature)")
        ranked = ~np.isnan(arr)
        if not ranked.any(axis=0).all():
            j = int(np.flatnonzero(~ranked.any(axis=0))[0])
            raise ValueError(f"positions: list {j} ranks no feature (all NaN)")
        doubled = 2.0 * np.where(ranked, arr, 1.0)
        if not np.array_equal(doubled, np.round(doubled)):
            raise ValueError("positions must be whole or half-integers (1 = best)")
        pos2 = doubled.astype(np.int64)
        k = ranked.sum(axis=0)
        lo_bad = (pos2 < 2) & ranked
        hi_bad = (pos2 > 2 * k[None, :]) & ranked
        if lo_bad.any() or hi_bad.any():
            i, j = np.argwhere(lo_bad | hi_bad)[0]
            raise ValueError(
                f"positions: feature {i} of list {j} has position {arr[i, j]}, outside "
                f"[1, {int(k[j])}] (the number of features the list ranks)"
            )
        for j in range(m):
            _check_average_ties(pos2[ranked[:, j], j], j)
        pos2 = np.where(ranked, pos2, 2 * (k[None, :] + 1)).astype(pos2_dtype(p))
        features = check_names(features, p, name="features", default_prefix="f")
        list_names = check_names(list_names, m, name="list_names", default_prefix="L")
        return cls(pos2, ranked, features, list_names, scores=None, ties="average")

    # ------------------------------------------------------------------ accessors
    @property
    def features(self) -> np.ndarray:
        return self._features.copy()

    @property
    def list_names(self) -> np.ndarray:
        return self._list_names.copy()

    @property
    def n_features(self) -> int:
        return int(self._pos2.shape[0])

    @property
    def n_lists(self) -> int:
        return int(self._pos2.shape[1])

    @property
    def shape(self) -> tuple[int, int]:
        return self.n_features, self.n_lists

    @property
    def ties(self) -> str:
        return self._ties

    @property
    def positions(self) -> np.ndarray:
        return self._pos2 / 2.0

    @property
    def positions2(self) -> np.ndarray:
        """Doubled positions ``2·pos`` (read-only view): exact for average ties.

        Integers: int32 up to 2³⁰ features, int64 beyond. A sum or a product of them belongs
        in int64 (the rules' exact sums are computed so).
        """
        return self._pos2

    @property
    def relative(self) -> np.ndarray:
        return 1.0 - self._pos2 / (2.0 * self.n_features)

    @property
    def ranked(self) -> np.ndarray:
        return self._ranked.copy()

    @property
    def is_full(self) -> bool:
        """True when every list ranks every feature."""
        return bool(self._ranked.all())

    @property
    def lengths(self) -> np.ndarray:
        """Number of features each list ranked (k of a top-k list, p of a full one)."""
        return self._ranked.sum(axis=0)

    @property
    def scores(self) -> np.ndarray | None:
        return None if self._scores is None else self._scores.copy()

    @property
    def has_scores(self) -> bool:
        return self._scores is not None

    def ranked_features(self, list_) -> list:
        """The features list ``list_`` (name or index) ranked, best first.

        Parameters
        ----------
        list_ : str or int
            A list's name or index.

        Returns
        -------
        list
            The names of the features that list ranked (all of them for a full list).
        """
        j = self._list_index(list_)
        idx = np.flatnonzero(self._ranked[:, j])
        idx = idx[np.argsort(self._pos2[idx, j], kind="stable")]
        return [self._features[i] for i in idx]

    def orders(self) -> list[list]:
        """Every list as its ranked feature names, best first (ties by feature index)."""
        return [self.ranked_features(j) for j in range(self.n_lists)]

    def _list_index(self, list_) -> int:
        """The column of ``list_``: a list name, or an int position (negative from the end).
        An int that is also the name of another list is ambiguous and refused."""
        if isinstance(list_, (bool, np.bool_)):
            raise TypeError(f"a list is a name or an int position, got {list_!r}")
        try:
            hits = np.flatnonzero(self._list_names == list_)
        except (TypeError, ValueError):  # an array or another value names cannot equal
            hits = np.array([], dtype=np.int64)
        if isinstance(list_, (int, np.integer)):
            if not -self.n_lists <= list_ < self.n_lists:
                if hits.size:
                    return int(hits[0])
                raise IndexError(f"list index {list_} out of range for {self.n_lists} lists")
            j = int(list_) % self.n_lists
            if hits.size and int(hits[0]) != j:
                raise ValueError(
                    f"list {list_!r} is ambiguous: the name of list {int(hits[0])} and the "
                    f"position of list {self._list_names[j]!r}; give the lists string names "
                    "to select them unambiguously")
            return j
        if hits.size == 0:
            raise KeyError(f"no list named {list_!r}; lists are {list(self._list_names)}")
        return int(hits[0])

    def select_lists(self, lists: Sequence) -> RankedLists:
        """A container holding only the given lists (names or indices), in that order; a
        single name (a string) selects that one list.

        Parameters
        ----------
        lists : sequence of str or int, or str
            The lists to keep, without repeats.

        Returns
        -------
        RankedLists
        """
        if isinstance(lists, (str, bytes)):
            lists = [lists]
        idx = [self._list_index(x) for x in lists]
        if not idx:
            raise ValueError("lists must name at least one list")
        if len(set(idx)) != len(idx):
            raise ValueError("lists must not repeat a list")
        return RankedLists(
            self._pos2[:, idx].copy(), self._ranked[:, idx].copy(), self._features.copy(),
            self._list_names[idx].copy(),
            None if self._scores is None else self._scores[:, idx].copy(), self._ties,
        )

    # ------------------------------------------------------------------ output
    def to_frame(self, values: str = "positions") -> pd.DataFrame:
        """Features × lists DataFrame of ``values``: "positions" (NaN where a list did not
        rank the feature), "relative" or "scores".

        Parameters
        ----------
        values : {"positions", "relative", "scores"}, default "positions"
            What the cells hold.

        Returns
        -------
        DataFrame
            Indexed by feature, one column per list.
        """
        if values == "positions":
            data = np.where(self._ranked, self._pos2 / 2.0, np.nan)
        elif values == "relative":
            data = self.relative
        elif values == "scores":
            if self._scores is None:
                raise ValueError("these lists carry no scores (built from orders or positions)")
            data = self._scores.copy()
        else:
            raise ValueError(
                f"values must be 'positions', 'relative' or 'scores', got {values!r}"
            )
        frame = pd.DataFrame(data, index=pd.Index(self._features, name="feature"),
                             columns=list(self._list_names))
        return frame

    def __repr__(self) -> str:
        kind = "full" if self.is_full else "top-k"
        return (f"RankedLists({self.n_features} features × {self.n_lists} lists, {kind}, "
                f"ties={self._ties!r})")

    def __eq__(self, other) -> bool:
        if not isinstance(other, RankedLists):
            return NotImplemented
        return (np.array_equal(self._pos2, other._pos2)
                and np.array_equal(self._ranked, other._ranked)
                and list(self._features) == list(other._features)
                and list(self._list_names) == list(other._list_names))

    __hash__ = None  # type: ignore[assignment]


def as_ranked_lists(lists, *, name: str = "lists") -> RankedLists:
    """Coerce the public ``lists`` argument: a RankedLists, a DataFrame or 2-D array of scores."""
    if isinstance(lists, RankedLists):
        return lists
    if isinstance(lists, pd.DataFrame) or isinstance(lists, np.ndarray) or isinstance(
        lists, (list, tuple)
    ):
        values, features, list_names = check_score_matrix(lists, name=name)
        pos2 = doubled_positions_from_scores(values, "average")
        return RankedLists(pos2, np.ones(values.shape, dtype=bool), features, list_names,
                           scores=values, ties="average")
    raise TypeError(
        f"{name} must be a RankedLists, a DataFrame or a 2-D array of scores "
        f"(features × lists); got {type(lists).__name__}"
    )
