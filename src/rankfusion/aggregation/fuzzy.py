"""Weighted combination of fuzzy sets built from bootstrap scores (the fuzzy paper, eqs. 1–13).

M feature-selection methods each score the N features on L bootstrap samples. Per feature i
and method j, the L normalised, discretised scores form a type-1 fuzzy set on the grid
U = {0, 0.01, …, 1}; the M fuzzy sets of a feature are combined with weights w^i_j (equal,
reciprocal-SD, one-minus-SD or matrix-similarity) and defuzzified by the centre of average.

Reference: "A Novel Weighted Combination Method for Feature Selection using Fuzzy Sets" (the
fuzzy paper), §III, eqs. 1–13. Our readings of its ambiguous points are stated in
:func:`aggregate_fuzzy` and in docs/design.md, 'Departures from the papers and reference
tools'.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._utils.constraints import Options
from .._utils.validation import real_array
from ..lists import RankedLists
from ._registry import register_rule
from ._result import Consensus, order_from_keys

__all__ = ["aggregate_fuzzy", "FuzzyConsensus", "FUZZY_WEIGHTINGS", "fuzzy"]

#: The weighting schemes of the fuzzy paper, §III-B (eqs. 6, 7, 8 and 9–12).
FUZZY_WEIGHTINGS = ("EW", "RW", "OW", "MW")

_GRID = 101  # |U|: 0, 0.01, …, 1
# Halves up on the 0.01 grid, with a tolerance of 1e-9 grid steps (see aggregate_fuzzy, Notes).
_HALF_TOL = 1e-9


@dataclass(frozen=True, eq=False)
class FuzzyConsensus(Consensus):
    """A :class:`Consensus` from :func:`aggregate_fuzzy`, with the fuzzy sets behind it.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    order : ndarray of int, shape (p,)
        Feature indices, best first.
    scores : ndarray of float, shape (p,)
        The defuzzified scores c_i (eq. 13), in feature order, higher = better.
    positions : ndarray of int, shape (p,)
        Consensus position of each feature, 1 = best.
    features : ndarray of object, shape (p,)
        Feature names, in feature order.
    method : str
        ``"fuzzy"``.
    params : dict
        ``weighting`` and ``n_bootstraps``.
    tiebreak : ndarray of float or None
        The secondary key per feature, when there is one.
    tiebreak_name : str or None
        What ``tiebreak`` holds.
    info : dict
        Anything else the combination reports.
    memberships : ndarray of float, shape (n_features, 101)
        The combined membership function μ^i_com(x) of each feature (eq. 5) on the grid
        :attr:`grid` = 0, 0.01, …, 1.
    weights : ndarray of float, shape (n_features, n_methods)
        The weights w^i_j (each row sums to 1).
    methods : ndarray of object, shape (n_methods,)
        Names of the methods, in the order of the columns of :attr:`weights`.
    sd : ndarray of float, shape (n_features, n_methods), or None
        SD(F^i_j), the sample standard deviation (``ddof=1``) of the L discretised scores;
        ``None`` with a single bootstrap.

    See Also
    --------
    Consensus : the fields every consensus has.
    """

    memberships: np.ndarray | None = None
    weights: np.ndarray | None = None
    methods: np.ndarray | None = None
    sd: np.ndarray | None = None

    @property
    def grid(self) -> np.ndarray:
        """U = {0, 0.01, …, 1} (eq. 1), the x of :attr:`memberships`."""
        return np.arange(_GRID) / 100.0

    def __repr__(self) -> str:
        head = ", ".join(str(f) for f in self.top(5))
        more = ", …" if self.n_features > 5 else ""
        return (f"FuzzyConsensus(weighting={self.params.get('weighting')!r}, "
                f"{self.n_features} features: {head}{more})")


# --------------------------------------------------------------------------- input
def _check_weighting(weighting) -> str:
    if not isinstance(weighting, str):
        raise TypeError(f"weighting must be a string, one of {', '.join(FUZZY_WEIGHTINGS)}; "
                        f"got {type(weighting).__name__}")
    key = weighting.strip().upper()
    if key not in FUZZY_WEIGHTINGS:
        raise ValueError(f"unknown weighting {weighting!r}; known weightings: "
                         f"{', '.join(FUZZY_WEIGHTINGS)}")
    return key


def _method_name(lists: RankedLists, j: int) -> str:
    """The common prefix before '@' of the list names (``relieff@b3`` → ``relieff``)."""
    heads = {str(n).split("@", 1)[0] for n in lists.list_names}
    return heads.pop() if len(heads) == 1 and "@" in str(lists.list_names[0]) else f"method{j}"


def _from_ranked_lists(items, names) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if len(items) == 0:
        raise ValueError("scores must hold at least one method; got an empty sequence")
    blocks = []
    features = None
    n_boot = None
    out_names = []
    for j, lists in enumerate(items):
        label = repr(names[j]) if names is not None else str(j)
        if not isinstance(lists, RankedLists):
            raise TypeError(
                f"scores: method {label} must be a RankedLists built from scores (one list per "
                f"bootstrap); got {type(lists).__name__}"
            )
        if not lists.has_scores:
            raise ValueError(
                f"scores: method {label} was built from orders or positions; the fuzzy "
                "combination needs raw scores (RankedLists.from_scores)"
            )
        if features is None:
            features = lists.features
        elif list(lists.features) != list(features):
            raise ValueError(
                f"scores: method {label} ranks different features (or in another order) than "
                "method 0; every method must score the same features in the same order"
            )
        if n_boot is None:
            n_boot = lists.n_lists
        elif lists.n_lists != n_boot:
            raise ValueError(
                f"scores: method {label} has {lists.n_lists} bootstrap lists, method 0 has "
                f"{n_boot}; every method needs the same number L"
            )
        blocks.append(lists.scores)
        out_names.append(names[j] if names is not None else _method_name(lists, j))
    values = np.stack(blocks, axis=1)  # (p, M, L)
    return values, np.asarray(features, dtype=object), np.array(out_names, dtype=object)


def _from_array(scores) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if hasattr(scores, "toarray") or type(scores).__module__.startswith("scipy.sparse"):
        raise TypeError("scores must be a dense array, got a sparse matrix")
    try:
        arr = np.asarray(scores)
    except Exception as exc:  # ragged nested lists
        raise ValueError(f"scores could not be read as a 3-D array: {exc}") from None
    if arr.dtype == object:
        arr = real_array(arr, "scores")
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"scores must hold real numbers; got dtype {arr.dtype}")
    if arr.ndim != 3:
        raise ValueError(
            "scores must be 3-D (n_features, n_methods, n_bootstraps) or a sequence of "
            f"RankedLists; got {arr.ndim}-D with shape {arr.shape}"
        )
    values = np.array(arr, dtype=np.float64, copy=True)
    features = np.array([f"f{i}" for i in range(values.shape[0])], dtype=object)
    names = np.array([f"method{j}" for j in range(values.shape[1])], dtype=object)
    return values, features, names


def _check_fuzzy_input(scores) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if isinstance(scores, RankedLists):
        values, features, names = _from_ranked_lists([scores], None)
    elif isinstance(scores, Mapping):
        values, features, names = _from_ranked_lists(list(scores.values()), list(scores))
    elif isinstance(scores, (pd.DataFrame, pd.Series)):
        raise TypeError(
            "scores must be a 3-D array (n_features, n_methods, n_bootstraps) or a sequence of "
            f"RankedLists, one per method; got a {type(scores).__name__}"
        )
    elif isinstance(scores, Sequence) and len(scores) > 0 and all(
        isinstance(s, RankedLists) for s in scores
    ):
        values, features, names = _from_ranked_lists(list(scores), None)
    elif isinstance(scores, Sequence) and any(isinstance(s, RankedLists) for s in scores):
        bad = next(i for i, s in enumerate(scores) if not isinstance(s, RankedLists))
        raise TypeError(f"scores: method {bad} must be a RankedLists like the others; got "
                        f"{type(scores[bad]).__name__}")
    else:
        values, features, names = _from_array(scores)
    p, m, n_boot = values.shape
    if p < 1 or m < 1 or n_boot < 1:
        raise ValueError(
            "scores needs at least one feature, one method and one bootstrap; got shape "
            f"(n_features, n_methods, n_bootstraps) = {(p, m, n_boot)}"
        )
    bad = ~np.isfinite(values)
    if bad.any():
        i, j, b = np.argwhere(bad)[0]
        raise ValueError(
            f"scores must be finite; found {values[i, j, b]} at feature {i}, method {j}, "
            f"bootstrap {b} ({int(bad.sum())} non-finite value(s) in all)"
        )
    return values, features, names


# --------------------------------------------------------------------------- steps
def discretize_scores(values: np.ndarray) -> np.ndarray:
    """Steps 3–4 of §III-A: per-list min–max, then the 0.01 grid, halves up, as integers 0–100.

    ``values`` is (p, M, L); each (method, bootstrap) list ``values[:, j, l]`` is normalised over
    the features, ``t = 100 (s − min) / (max − min)`` (a list with max = min gives 0), and
    ``g = ⌊t + 1/2 + 1e-9⌋`` — the grid value is ``g / 100``.
    """
    # each list divided by an exact power of two first (min–max does not see it): scores near
    # 1e308 would overflow in the span and in 100·(s − min)
    values = np.ldexp(values, -np.frexp(np.abs(values).max(axis=0, keepdims=True))[1])
    lo = values.min(axis=0, keepdims=True)
    span = values.max(axis=0, keepdims=True) - lo
    # a constant list has values − lo = 0 everywhere: dividing by 1 instead of 0 gives 0
    span[span == 0] = 1.0
    t = values - lo
    t *= 100.0
    t /= span
    t += 0.5 + _HALF_TOL
    np.floor(t, out=t)
    return t.astype(np.int32)  # 0 … 100: t ≤ 100·(1 + ε) floors to 100 at most


def _counts(g: np.ndarray) -> np.ndarray:
    """freq(x, F^i_j) for every grid value: (p, M, 101) integer counts (eq. 4 times L)."""
    p, m, n_boot = g.shape
    base = (np.arange(p * m, dtype=np.int64) * _GRID).reshape(p, m, 1)
    flat = np.bincount((base + g).ravel(), minlength=p * m * _GRID)
    return flat.reshape(p, m, _GRID).astype(np.int32)


def _sd(g: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """SD(F^i_j) with ``ddof=1`` from exact integer sums, and the exact zero-spread mask."""
    n_boot = g.shape[2]
    s1 = g.sum(axis=2, dtype=np.int64)
    s2 = np.einsum("ijl,ijl->ij", g, g, dtype=np.int64)
    num = n_boot * s2 - s1 * s1  # exact: L·Σg² − (Σg)² = L(L−1)·var(g)
    sd = np.sqrt(num / (n_boot * (n_boot - 1.0))) / 100.0
    return sd, num == 0


def _normalise_rows(v: np.ndarray) -> np.ndarray:
    """Rows divided by their sum, the sum taken over sorted terms (order of methods irrelevant)."""
    return v / np.sort(v, axis=1).sum(axis=1, keepdims=True)


def _weights(weighting: str, counts: np.ndarray, g: np.ndarray):
    p, m, n_boot = g.shape
    sd = zero = None
    if n_boot >= 2:
        sd, zero = _sd(g)
    if weighting == "EW":  # eq. 6
        return np.full((p, m), 1.0 / m), sd
    if weighting in ("RW", "OW") and n_boot < 2:
        raise ValueError(
            f"weighting {weighting!r} needs n_bootstraps ≥ 2: it uses the sample standard "
            "deviation (ddof=1) of each method's L scores, undefined for L = 1; use 'EW' or 'MW'"
        )
    if weighting == "RW":  # eq. 7; methods with SD = 0 share the weight equally
        any_zero = zero.any(axis=1, keepdims=True)
        inv = np.divide(1.0, sd, out=np.zeros_like(sd), where=~zero)
        raw = np.where(any_zero, zero.astype(np.float64), inv)
        return _normalise_rows(raw), sd
    if weighting == "OW":  # eq. 8; for values in [0, 1], SD ≤ √(L/(4(L−1))) ≤ 1/√2 < 1
        return _normalise_rows(1.0 - sd), sd
    # MW, eqs. 9–12. Row p (1..L) of BinaryMatrix^i_j has s_{p,q} = 1 iff p/L ≤ μ^i_j(q), i.e.
    # iff p ≤ count^i_j(q): column q holds count(q) ones. Then
    # ‖B_j ∘ comMatrix‖₁ = Σ_q Σ_k min(count_j(q), count_k(q)) and ‖comMatrix‖₁ = M·L.
    # Σ_q min(count_j, count_j) = L; each other pair (j, k) is computed once.
    overlap = _mw_overlap(counts, n_boot)
    v = overlap / float(m * n_boot)  # eq. 11 (integers / M·L)
    return _normalise_rows(v), sd


def _mw_overlap(counts: np.ndarray, n_boot: int) -> np.ndarray:
    """‖B_j ∘ comMatrix‖₁ of eq. 11 as integers: Σ_q Σ_k min(count_j(q), count_k(q))."""
    p, m, _ = counts.shape
    overlap = np.full((p, m), n_boot, dtype=np.int64)
    for j in range(m):
        for k in range(j + 1, m):
            ov = np.minimum(counts[:, j], counts[:, k]).sum(axis=1, dtype=np.int64)
            overlap[:, j] += ov
            overlap[:, k] += ov
    return overlap


def aggregate_fuzzy(scores, weighting: str = "OW") -> FuzzyConsensus:
    r"""Combine bootstrap scores of several methods by weighted fuzzy sets (the fuzzy paper).

    For feature i, method j and bootstrap l, with :math:`Score^i_{lj}` the raw score
    (higher = better):

    1. **Normalise** each (method, bootstrap) list over the features,
       :math:`x = (s - \min)/(\max - \min)`; a list with :math:`\max = \min` becomes all 0.
    2. **Discretise** to :math:`U = \{0, 0.01, …, 1\}` (eq. 1), halves up:
       :math:`\lfloor 100x + 1/2\rfloor / 100`.
    3. **Fuzzy set** (eqs. 2–4): :math:`F^i_j` = the L discretised values and
       :math:`\mu^i_j(x) = freq(x, F^i_j)/L`.
    4. **Combine** (eq. 5): :math:`\mu^i_{com}(x) = \sum_j w^i_j \mu^i_j(x)`,
       :math:`\sum_j w^i_j = 1`, with the weighting

       - ``"EW"`` (eq. 6): :math:`w^i_j = 1/M`;
       - ``"RW"`` (eq. 7): :math:`w^i_j \propto 1/SD(F^i_j)`;
       - ``"OW"`` (eq. 8): :math:`w^i_j \propto 1 - SD(F^i_j)`;
       - ``"MW"`` (eqs. 9–12): :math:`w^i_j \propto v^i_j =
         \lVert B^i_j \circ C^i\rVert_1 / \lVert C^i\rVert_1` with the binary matrix
         :math:`B^i_j[p, q] = 1` iff :math:`p/L \le \mu^i_j(q)` (p = 1…L, q ∈ U) and
         :math:`C^i = \sum_j B^i_j`.

    5. **Defuzzify** (eq. 13), centre of average:
       :math:`c_i = \sum_{x\in U} x\,\mu^i_{com}(x) / \sum_{x\in U}\mu^i_{com}(x)`.

    Parameters
    ----------
    scores : array-like of shape (n_features, n_methods, n_bootstraps), or RankedLists
        Either a 3-D array of raw scores, or a sequence (one per method) of
        :class:`~rankfusion.RankedLists` built with ``from_scores`` whose lists are that
        method's bootstraps (a mapping name → RankedLists names the methods; otherwise a
        method is named by its list names' common prefix before ``@``, as in ``relieff@b3``).
        All methods must score the same features in the same order, on the same number L of
        bootstraps. Scores must be finite.
    weighting : {"OW", "EW", "RW", "MW"}, default "OW"
        The weighting scheme (case-insensitive). OW is the paper's marginally best one.

    Returns
    -------
    FuzzyConsensus
        A :class:`Consensus` whose ``scores`` are the defuzzified :math:`c_i`, with
        ``memberships`` (n_features × 101, the :math:`\mu^i_{com}` on ``grid``), ``weights``
        (n_features × n_methods, the :math:`w^i_j`), ``methods`` and ``sd``.

    Raises
    ------
    ValueError
        Wrong shape, non-finite scores, no feature / method / bootstrap, an unknown weighting
        (the known ones are listed), RankedLists with different features or different L, and
        ``"RW"``/``"OW"`` with a single bootstrap.
    TypeError
        Non-numeric scores, or a sequence mixing RankedLists with other things.

    Notes
    -----
    Readings of the paper (see docs/design.md, 'Departures from the papers and reference
    tools'):

    - *Normalisation.* Step 3 of §III-A says "for each feature, normalize the feature scores";
      normalising one feature over its own L bootstraps would stretch every feature to [0, 1]
      and erase the differences between features, so each list (one method on one bootstrap)
      is normalised over the features instead — the usual min–max of a score vector.
    - *Rounding.* The grid is handled as integers 0…100: ``t = 100·(s − min)/(max − min)`` in
      float64, ``g = ⌊t + 0.5 + 10⁻⁹⌋``. The tolerance of 10⁻⁹ grid steps makes a value that
      is a half in decimal (0.285, stored as 0.28499999999999998) go up as "halves up" asks;
      it moves nothing else farther than 10⁻¹¹ of the list's range. Counts, sums and SDs are
      then computed from the integers exactly.
    - *SD.* The sample standard deviation (``ddof=1``) of the L discretised values.
      ``"RW"``: when some methods of a feature have SD = 0 (1/SD infinite), those methods share
      the weight equally and the others get 0 (the limit of eq. 7). ``"OW"``: 1 − SD > 0
      always, since the sample SD of values in [0, 1] is at most √(L/(4(L − 1))) ≤ 1/√2.
      ``"RW"`` and ``"OW"`` need L ≥ 2; ``"EW"`` and ``"MW"`` accept L = 1.
    - *Matrix similarity.* Table I has L rows p/L (p = 1…L) and 101 columns q ∈ U;
      :math:`s_{p,q} = 1` iff :math:`p/L \le \mu(q)`, i.e. iff p ≤ freq(q): the matrix is
      the bar chart of the membership function. :math:`\lVert\cdot\rVert_1` is the sum of the
      (non-negative) entries. Hence :math:`v^i_j = \sum_q \sum_k \min(freq_j(q), freq_k(q)) /
      (M L)`, computed in integers — the comparison p/L ≤ μ(q) never goes through floats.
    - *Weights* are normalised with sums over sorted terms, so the order of the methods does not
      change the result.
    - *Ties.* Equal :math:`c_i` are broken by the lower feature index. With ``"EW"`` and
      ``"MW"`` the weights are integers up to a common factor, so :math:`c_i` is a ratio of
      exact integers divided once (mathematical ties are float ties); with ``"RW"`` and
      ``"OW"`` (weights from standard deviations) it is :math:`c_i` in float64.

    References
    ----------
    "A Novel Weighted Combination Method for Feature Selection using Fuzzy Sets" (the fuzzy
    paper), §III, eqs. 1–13.

    Examples
    --------
    >>> import numpy as np
    >>> from rankfusion import aggregate_fuzzy
    >>> s = np.array([[[0.9, 0.8], [5.0, 4.0]],   # feature 0: two methods × two bootstraps
    ...               [[0.5, 0.4], [9.0, 8.0]],
    ...               [[0.1, 0.0], [1.0, 0.0]]])
    >>> res = aggregate_fuzzy(s, "EW")
    >>> res.scores.round(4)  # feature 0: mean of (1, 1) and (0.5, 0.5) = 0.75
    array([0.75, 0.75, 0.  ])
    >>> res.order  # an exact tie: the lower index first
    array([0, 1, 2])
    >>> res.weights[0]
    array([0.5, 0.5])
    """
    weighting = _check_weighting(weighting)
    values, features, methods = _check_fuzzy_input(scores)
    p, m, n_boot = values.shape
    g = discretize_scores(values)
    counts = _counts(g)  # (p, M, 101)
    w, sd = _weights(weighting, counts, g)
    mu = counts / float(n_boot)  # eq. 4
    # eq. 5, the terms of each sum sorted so that the order of the methods changes nothing
    terms = w[:, None, :] * mu.transpose(0, 2, 1)  # (p, 101, M)
    terms.sort(axis=2)
    mu_com = terms.sum(axis=2)
    x = np.arange(_GRID) / 100.0
    c = (mu_com @ x) / mu_com.sum(axis=1)  # eq. 13
    if weighting in ("EW", "MW"):
        # eq. 13 with integer weights v (EW: v = 1; MW: the integer overlaps of eq. 11): the
        # normalisation of the weights cancels, c_i = Σ_j v_ij S_ij / (100 L Σ_j v_ij) with
        # S_ij = Σ_l g_ijl, a ratio of exact integers; one correctly rounded division makes
        # mathematically equal c_i equal floats, so exact ties go to the lower index.
        v = np.ones((p, m), dtype=np.int64) if weighting == "EW" else _mw_overlap(counts, n_boot)
        s_ij = g.sum(axis=2, dtype=np.int64)
        num = (v * s_ij).sum(axis=1)
        den = 100 * n_boot * v.sum(axis=1)
        c = num.astype(np.float64) / den.astype(np.float64)
    keys = [-c]
    order = order_from_keys(keys)
    positions = np.empty(p, dtype=np.int64)
    positions[order] = np.arange(1, p + 1)
    return FuzzyConsensus(
        order=order,
        scores=c,
        positions=positions,
        features=features,
        method="fuzzy",
        params={"weighting": weighting, "n_bootstraps": n_boot},
        memberships=mu_com,
        weights=w,
        methods=methods,
        sd=sd,
    )


def _groups_by_name(lists: RankedLists) -> dict[str, list[str]] | None:
    """Method → list names, by the part of each name before ``@`` (``relieff@b3``); None when
    no name holds an ``@`` (then the lists are one method's bootstraps)."""
    names = [str(n) for n in lists.list_names]
    if not any("@" in n for n in names):
        return None
    out: dict[str, list[str]] = {}
    for n in names:
        out.setdefault(n.split("@", 1)[0], []).append(n)
    return out


@register_rule("fuzzy", weights=False, needs_scores=True, groups="by_method",
               shorthand="weighting", invariants=("permute_lists", "relabel", "unanimity"),
               constraints={"weighting": [Options(*FUZZY_WEIGHTINGS)]})
def fuzzy(lists, *, weighting="OW", groups=None, weights=None):
    """The fuzzy combination as a rule (the fuzzy paper): each method's bootstrap lists are
    one group, combined by :func:`aggregate_fuzzy`; ``"fuzzy:OW"`` is this rule with
    ``weighting="OW"``.

    Parameters
    ----------
    weighting : {"OW", "EW", "RW", "MW"}, default "OW"
        The weighting scheme (any case in a spec).
    groups : mapping, optional
        Method → the names of its lists (an ensemble's rankers and their bootstrap lists).
        Default: the lists grouped by the part of their names before ``@`` (``relieff@b3``),
        or all lists one method's bootstraps when no name holds an ``@``.
    """
    if groups is None:
        groups = _groups_by_name(lists)
    if groups is None:
        return aggregate_fuzzy(lists, weighting=weighting)
    if not isinstance(groups, Mapping):
        raise TypeError(f"groups must map each method to its list names, got "
                        f"{type(groups).__name__}")
    by_method = {g: lists.select_lists(list(names)) for g, names in groups.items()}
    return aggregate_fuzzy(by_method, weighting=weighting)
