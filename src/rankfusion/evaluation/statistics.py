"""Statistical comparison of feature-selection methods.

The rules they follow: docs/design.md, 'Ensembles, subsets and evaluation'.

Each function returns a small frozen result object, as :mod:`scipy.stats` does:

* :func:`paired_ttest` — the paired t-test over resampling splits, plain (as the papers use it)
  or with the Nadeau–Bengio corrected variance;
* :func:`friedman` — Friedman's test over datasets with the Iman–Davenport F (Demšar 2006, §3.2.2);
* :func:`nemenyi` — Nemenyi's post-hoc test and its critical difference (Demšar 2006, §3.2.2);
* :func:`win_matrix` — how often method A is significantly better than B (Izetta et al. 2017,
  Table 8);
* :func:`robustness_index` — the robust-FS paper's robustness index (Algorithm 3, Table 5);
* :func:`rule_agreement` — Kendall distance and top-k Jaccard between consensus rankings.

Convention: every *errors* argument holds errors (lower = better). Pass ``1 - accuracy`` (or
``-AUC``) for measures where higher is better.

References
----------
Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets. JMLR 7, 1-30.
Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine Learning 52,
239-281.
Iman, R. L. & Davenport, J. M. (1980). Approximations of the critical region of the Friedman
statistic. Communications in Statistics A 9, 571-595.
Izetta, J., Verdes, P. F. & Granitto, P. M. (2017). Improved multiclass feature selection via
list combination. Expert Systems with Applications 88, 205-216.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .._utils.constraints import LEVEL, Interval, check_param
from .._utils.validation import check_bool, real_array
from ..aggregation import Consensus
from ..distances import kendall_distance

__all__ = [
    "TTestResult",
    "FriedmanResult",
    "NemenyiResult",
    "WinMatrixResult",
    "RobustnessResult",
    "AgreementResult",
    "paired_ttest",
    "friedman",
    "nemenyi",
    "studentized_range_q",
    "win_matrix",
    "robustness_index",
    "rule_agreement",
]

_ALTERNATIVES = ("two-sided", "less", "greater")


# --------------------------------------------------------------------------- validation
def _check_vector(x, name: str) -> np.ndarray:
    if isinstance(x, (str, bytes)) or isinstance(x, numbers.Number):
        raise TypeError(f"{name} must be a 1-D sequence of numbers, got {type(x).__name__}")
    if isinstance(x, pd.DataFrame):
        raise TypeError(f"{name} must be 1-D; got a DataFrame")
    arr = real_array(x, name)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D; got shape {arr.shape}")
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} must be finite; found NaN or inf")
    return arr.copy()


def _check_alpha(alpha) -> float:
    check_param("alpha", alpha, LEVEL)
    return float(alpha)


def _check_table(errors, *, name: str, rows: str, cols: str, min_rows: int = 2,
                 min_cols: int = 2) -> tuple[np.ndarray, pd.Index, pd.Index]:
    """A 2-D finite table (``rows`` × ``cols``) as float64 values and its labels."""
    if isinstance(errors, pd.DataFrame):
        if errors.columns.has_duplicates:
            dup = list(errors.columns[errors.columns.duplicated()])
            raise ValueError(f"{name} has duplicate {cols} names: {dup[:3]}")
        bad = [c for c in errors.columns if not pd.api.types.is_numeric_dtype(errors[c])
               or pd.api.types.is_bool_dtype(errors[c])]
        if bad:
            raise TypeError(f"{name} must hold real numbers; column {bad[0]!r} has dtype "
                            f"{errors[bad[0]].dtype}")
        values = errors.to_numpy(dtype=np.float64, copy=True)
        index, columns = errors.index, errors.columns
    else:
        if isinstance(errors, (str, bytes)) or isinstance(errors, numbers.Number):
            raise TypeError(f"{name} must be a 2-D table ({rows} × {cols}), "
                            f"got {type(errors).__name__}")
        try:
            arr = np.asarray(errors)
        except Exception:
            raise ValueError(f"{name} could not be read as a 2-D array") from None
        if arr.dtype == object:
            arr = real_array(arr, name)
        if arr.dtype.kind not in "iuf":
            raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
        if arr.ndim != 2:
            raise ValueError(f"{name} must be 2-D ({rows} × {cols}); got shape {arr.shape}")
        values = np.array(arr, dtype=np.float64, copy=True)
        index, columns = pd.RangeIndex(values.shape[0]), pd.RangeIndex(values.shape[1])
    if values.ndim != 2:
        raise ValueError(f"{name} must be 2-D ({rows} × {cols}); got shape {values.shape}")
    if values.shape[0] < min_rows:
        raise ValueError(f"{name} needs at least {min_rows} {rows}; got {values.shape[0]}")
    if values.shape[1] < min_cols:
        raise ValueError(f"{name} needs at least {min_cols} {cols}; got {values.shape[1]}")
    if not np.isfinite(values).all():
        i, j = np.argwhere(~np.isfinite(values))[0]
        raise ValueError(f"{name} must be finite; found NaN or inf at row {i}, column {j}")
    return values, index, columns


# --------------------------------------------------------------------------- t-test
@dataclass(frozen=True)
class TTestResult:
    """Result of :func:`paired_ttest`.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    statistic : float
        The t statistic of the mean difference ``mean(a - b)``.
    pvalue : float
    df : int
        Degrees of freedom, ``J - 1``.
    mean_difference : float
        ``mean(a - b)``.
    std_error : float
        The standard error used as the denominator of ``statistic``.
    corrected : bool
        Whether the Nadeau–Bengio corrected variance was used.
    alternative : str
    """

    statistic: float
    pvalue: float
    df: int
    mean_difference: float
    std_error: float
    corrected: bool
    alternative: str


#: A number of samples.
_COUNT = [Interval("int", 1, None)]


def _check_count(value, name: str) -> int:
    check_param(name, value, _COUNT)
    return int(value)


def paired_ttest(a, b, *, corrected: bool = False, n_train: int | None = None,
                 n_test: int | None = None, alternative: str = "two-sided") -> TTestResult:
    """Paired t-test of two methods' results over the same J resampling splits.

    With ``d_j = a_j - b_j``, ``d̄`` their mean and ``σ̂²`` their variance (ddof = 1):

    * plain (``corrected=False``, as the papers use it; equal to
      :func:`scipy.stats.ttest_rel`): ``t = d̄ / sqrt(σ̂² / J)``;
    * Nadeau–Bengio corrected resampled t-test (``corrected=True``): the training sets of
      repeated random splits overlap, so the J differences are correlated and the plain test
      is too liberal; Nadeau & Bengio (2003) correct the variance to
      ``(1/J + n_test/n_train) · σ̂²``, ``t = d̄ / sqrt((1/J + n_test/n_train) · σ̂²)``.

    Both have ``J - 1`` degrees of freedom. When every difference is zero, there is no evidence
    of a difference: ``statistic = 0`` and ``pvalue = 1`` (scipy returns NaN there). When the
    differences are equal and non-zero, ``t = ±inf`` and the p-value is 0 or 1.

    Parameters
    ----------
    a, b : array-like of shape (J,)
        Results (for instance errors) of the two methods on the same J splits, J ≥ 2.
    corrected : bool, default False
        Use the Nadeau–Bengio corrected variance (needs ``n_train`` and ``n_test``).
    n_train, n_test : int, optional
        Training and test sizes of each split (corrected test only).
    alternative : {"two-sided", "less", "greater"}
        ``"less"``: the mean of ``a - b`` is below 0 (``a`` has the lower error).

    Returns
    -------
    TTestResult

    References
    ----------
    Nadeau, C. & Bengio, Y. (2003). Inference for the generalization error. Machine Learning 52,
    239-281 (the corrected resampled t-test).

    Examples
    --------
    >>> r = paired_ttest([0.20, 0.25, 0.22, 0.30], [0.25, 0.27, 0.26, 0.33])
    >>> round(r.statistic, 3), r.df
    (-5.422, 3)
    >>> r = paired_ttest([0.20, 0.25, 0.22, 0.30], [0.25, 0.27, 0.26, 0.33], corrected=True,
    ...                  n_train=75, n_test=25)
    >>> round(r.statistic, 3)
    -3.55
    """
    x = _check_vector(a, "a")
    z = _check_vector(b, "b")
    if x.shape != z.shape:
        raise ValueError(f"a and b must have the same length (paired splits); got "
                         f"{x.shape[0]} and {z.shape[0]}")
    if x.shape[0] < 2:
        raise ValueError(f"a and b need at least 2 paired results; got {x.shape[0]}")
    if not isinstance(corrected, (bool, np.bool_)):
        raise TypeError(f"corrected must be a bool, got {corrected!r}")
    if alternative not in _ALTERNATIVES:
        raise ValueError(f"alternative must be one of {list(_ALTERNATIVES)}, got {alternative!r}")
    j = x.shape[0]
    d = x - z
    mean = float(d.mean())
    var = float(d.var(ddof=1))
    if corrected:
        if n_train is None or n_test is None:
            raise ValueError("the corrected t-test needs n_train and n_test (the sizes of each "
                             "split's training and test parts)")
        n_train = _check_count(n_train, "n_train")
        n_test = _check_count(n_test, "n_test")
        factor = 1.0 / j + n_test / n_train
    else:
        if n_train is not None or n_test is not None:
            raise ValueError("n_train and n_test are used only by the corrected test; pass "
                             "corrected=True or leave them out")
        factor = 1.0 / j
    se = float(np.sqrt(factor * var))
    df = j - 1
    if se == 0.0 or np.allclose(d, d[0], rtol=0.0, atol=0.0):
        if mean == 0.0:
            return TTestResult(0.0, 1.0, df, 0.0, 0.0, bool(corrected), alternative)
        t = float(np.sign(mean) * np.inf)
    else:
        t = mean / se
    if alternative == "two-sided":
        p = float(2.0 * stats.t.sf(abs(t), df))
    elif alternative == "less":
        p = float(stats.t.cdf(t, df))
    else:
        p = float(stats.t.sf(t, df))
    return TTestResult(float(t), min(p, 1.0), df, mean, se, bool(corrected), alternative)


# --------------------------------------------------------------------------- Friedman
@dataclass(frozen=True)
class FriedmanResult:
    """Result of :func:`friedman`.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    statistic : float
        Friedman's χ²_F (tie-corrected unless ``tie_correction=False``).
    pvalue : float
        From the χ² distribution with ``k - 1`` degrees of freedom.
    iman_davenport : float
        ``F_F = (N - 1) χ²_F / (N (k - 1) - χ²_F)``.
    iman_davenport_pvalue : float
        From the F distribution with ``k - 1`` and ``(k - 1)(N - 1)`` degrees of freedom.
    average_ranks : Series
        Average rank of each method over the datasets (1 = lowest error, ties averaged).
    n_datasets, n_methods : int
    tie_correction : bool
    """

    statistic: float
    pvalue: float
    iman_davenport: float
    iman_davenport_pvalue: float
    average_ranks: pd.Series
    n_datasets: int
    n_methods: int
    tie_correction: bool


def _average_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks within each row (1 = lowest error, ties averaged), shape as ``values``."""
    return stats.rankdata(values, axis=1, method="average")


def friedman(errors, *, tie_correction: bool = True) -> FriedmanResult:
    """Friedman's test that k methods perform alike over N datasets (Demšar 2006, §3.2.2).

    The methods are ranked on each dataset (1 = lowest error, ties get the average rank);
    with ``R_j`` the average rank of method j,

    ``χ²_F = 12 N / (k (k + 1)) · [Σ_j R_j² − k (k + 1)² / 4]``,

    divided, with ``tie_correction=True`` (the default, as :func:`scipy.stats.friedmanchisquare`),
    by ``1 − Σ_i Σ_g (t_ig³ − t_ig) / (N (k³ − k))`` where ``t_ig`` are the sizes of the groups of
    tied values on dataset i. Demšar's formula is the uncorrected one (``tie_correction=False``).
    Iman & Davenport's less conservative statistic is

    ``F_F = (N − 1) χ²_F / (N (k − 1) − χ²_F)``, F-distributed with ``k − 1`` and
    ``(k − 1)(N − 1)`` degrees of freedom (``inf`` with p-value 0 when the ranks agree
    perfectly).

    When every dataset ties all methods, there is no evidence of a difference: the statistics
    are 0 and the p-values 1 (scipy returns NaN there).

    Parameters
    ----------
    errors : array-like or DataFrame of shape (N datasets, k methods)
        Lower = better. A DataFrame's columns name the methods. N ≥ 2, k ≥ 2.
    tie_correction : bool, default True

    Returns
    -------
    FriedmanResult

    References
    ----------
    Friedman, M. (1937). JASA 32, 675-701. Iman, R. L. & Davenport, J. M. (1980).
    Demšar, J. (2006). JMLR 7, 1-30, §3.2.2.
    """
    tie_correction = check_bool(tie_correction, "tie_correction")
    values, _, methods = _check_table(errors, name="errors", rows="datasets", cols="methods")
    if not isinstance(tie_correction, (bool, np.bool_)):
        raise TypeError(f"tie_correction must be a bool, got {tie_correction!r}")
    n, k = values.shape
    ranks = _average_ranks(values)
    avg = ranks.mean(axis=0)
    chi2 = 12.0 * n / (k * (k + 1)) * (float(np.sum(avg**2)) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(chi2, 0.0)
    if tie_correction:
        ties = 0.0
        for row in values:
            _, counts = np.unique(row, return_counts=True)
            ties += float(np.sum(counts**3 - counts))
        c = 1.0 - ties / (n * (k**3 - k))
        chi2 = 0.0 if c <= 0.0 else chi2 / c
    if chi2 == 0.0:
        p, ff, pf = 1.0, 0.0, 1.0
    else:
        p = float(stats.chi2.sf(chi2, k - 1))
        denom = n * (k - 1) - chi2
        if denom <= 1e-12 * n * (k - 1):
            ff, pf = float("inf"), 0.0
        else:
            ff = (n - 1) * chi2 / denom
            pf = float(stats.f.sf(ff, k - 1, (k - 1) * (n - 1)))
    return FriedmanResult(
        statistic=float(chi2), pvalue=p, iman_davenport=float(ff), iman_davenport_pvalue=pf,
        average_ranks=pd.Series(avg, index=methods, name="average_rank"),
        n_datasets=n, n_methods=k, tie_correction=bool(tie_correction),
    )


# --------------------------------------------------------------------------- Nemenyi
def studentized_range_q(k: int, alpha: float = 0.05) -> float:
    """Nemenyi's critical value ``q_α`` for k methods (Demšar 2006, Table 5a).

    ``q_α = Q(1 − α; k, ∞) / √2``, with ``Q`` the quantile of the studentised range with k groups
    and infinite degrees of freedom (:data:`scipy.stats.studentized_range`).

    Parameters
    ----------
    k : int
        Number of methods, ≥ 2.
    alpha : float, default 0.05
        Significance level.

    Returns
    -------
    float

    Examples
    --------
    >>> round(studentized_range_q(4, 0.05), 3)
    2.569
    """
    check_param("k", k, [Interval("int", 2, None)])  # the number of methods
    alpha = _check_alpha(alpha)
    return float(stats.studentized_range.ppf(1.0 - alpha, int(k), np.inf) / np.sqrt(2.0))


@dataclass(frozen=True)
class NemenyiResult:
    """Result of :func:`nemenyi`.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    critical_difference : float
        ``CD = q_α · sqrt(k (k + 1) / (6 N))``.
    q_alpha : float
    alpha : float
    average_ranks : Series
    rank_differences : DataFrame
        ``|R_i − R_j|``, k × k.
    pvalues : DataFrame
        Nemenyi p-values ``P(Q > √2 · |R_i − R_j| / sqrt(k (k + 1) / (6 N)))``, k × k.
    significant : DataFrame of bool
        ``|R_i − R_j| ≥ CD`` (diagonal False).
    n_datasets : int
    """

    critical_difference: float
    q_alpha: float
    alpha: float
    average_ranks: pd.Series
    rank_differences: pd.DataFrame
    pvalues: pd.DataFrame
    significant: pd.DataFrame
    n_datasets: int


def nemenyi(errors, alpha: float = 0.05) -> NemenyiResult:
    """Nemenyi's post-hoc test after Friedman's (Demšar 2006, §3.2.2).

    Two methods differ significantly when their average ranks differ by at least the critical
    difference

    ``CD = q_α · sqrt(k (k + 1) / (6 N))``,

    with ``q_α`` the studentised range quantile divided by √2 (:func:`studentized_range_q`;
    Demšar's Table 5a: 2.569 for k = 4 at α = 0.05).

    Parameters
    ----------
    errors : array-like or DataFrame of shape (N datasets, k methods)
        Lower = better; ranks as in :func:`friedman` (ties averaged).
    alpha : float, default 0.05

    Returns
    -------
    NemenyiResult

    References
    ----------
    Nemenyi, P. B. (1963). Distribution-free multiple comparisons. PhD thesis, Princeton.
    Demšar, J. (2006). JMLR 7, 1-30, §3.2.2 and Table 5.
    """
    values, _, methods = _check_table(errors, name="errors", rows="datasets", cols="methods")
    alpha = _check_alpha(alpha)
    n, k = values.shape
    avg = _average_ranks(values).mean(axis=0)
    q = studentized_range_q(k, alpha)
    scale = np.sqrt(k * (k + 1) / (6.0 * n))
    cd = q * scale
    diff = np.abs(avg[:, None] - avg[None, :])
    pv = stats.studentized_range.sf(diff / scale * np.sqrt(2.0), k, np.inf)
    pv = np.clip(np.where(diff == 0, 1.0, pv), 0.0, 1.0)
    # a tolerance of a few ulps so that a difference equal to CD on paper counts as reaching it
    sig = diff >= cd * (1.0 - 1e-12)
    np.fill_diagonal(sig, False)
    frame = lambda m: pd.DataFrame(m, index=methods, columns=methods)  # noqa: E731
    return NemenyiResult(
        critical_difference=float(cd), q_alpha=q, alpha=alpha,
        average_ranks=pd.Series(avg, index=methods, name="average_rank"),
        rank_differences=frame(diff), pvalues=frame(pv), significant=frame(sig), n_datasets=n,
    )


# --------------------------------------------------------------------------- win matrix
@dataclass(frozen=True)
class WinMatrixResult:
    """Result of :func:`win_matrix`.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    wins : DataFrame of int, k × k
        ``wins.loc[A, B]`` = number of datasets on which A has a significantly lower error than B.
    net_wins : Series
        Wins minus losses, ``wins.sum(axis=1) − wins.sum(axis=0)``.
    outperforms : Series
        Number of other methods B that A beats on more datasets than B beats A (our reading of
        the 0 … k−1 counts of Izetta et al.'s Table 8).
    ranking : list
        Methods by decreasing ``net_wins`` (ties by decreasing ``outperforms``, then input order).
    n_datasets : int
    alpha : float
    corrected : bool
    """

    wins: pd.DataFrame
    net_wins: pd.Series
    outperforms: pd.Series
    ranking: list
    n_datasets: int
    alpha: float
    corrected: bool


def _split_tables(errors_per_split) -> tuple[list[str], list[np.ndarray], pd.Index]:
    """Datasets → (splits × methods) tables with shared method names."""
    if isinstance(errors_per_split, Mapping):
        if not errors_per_split:
            raise ValueError("errors_per_split is empty")
        names, tables, methods = [], [], None
        for key, tab in errors_per_split.items():
            vals, _, cols = _check_table(tab, name=f"errors_per_split[{key!r}]", rows="splits",
                                         cols="methods")
            if methods is None:
                methods = cols
            elif not cols.equals(methods):
                raise ValueError(f"errors_per_split[{key!r}] has methods {list(cols)}, but the "
                                 f"first dataset has {list(methods)}")
            names.append(key)
            tables.append(vals)
        return names, tables, methods
    if isinstance(errors_per_split, (str, bytes, pd.DataFrame)) or isinstance(
            errors_per_split, numbers.Number):
        raise TypeError("errors_per_split must be a mapping dataset → (splits × methods) table "
                        "or a 3-D array (datasets × splits × methods)")
    try:
        arr = np.asarray(errors_per_split, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("errors_per_split must hold real numbers") from None
    if arr.ndim != 3:
        raise ValueError("errors_per_split as an array must be 3-D (datasets × splits × "
                         f"methods); got shape {arr.shape}")
    if arr.shape[0] < 1:
        raise ValueError("errors_per_split has no dataset")
    tables = []
    for i in range(arr.shape[0]):
        vals, _, cols = _check_table(arr[i], name=f"errors_per_split[{i}]", rows="splits",
                                     cols="methods")
        tables.append(vals)
    return list(range(arr.shape[0])), tables, cols


def win_matrix(errors_per_split, alpha: float = 0.05, *, corrected: bool = False,
               n_train: int | None = None, n_test: int | None = None) -> WinMatrixResult:
    """Count, for each pair of methods, the datasets where one is significantly better
    (Izetta et al. 2017, Table 8).

    On each dataset and for each pair (A, B), a two-sided :func:`paired_ttest` over the splits
    (plain as the paper, or Nadeau–Bengio ``corrected``) at level ``alpha``; A wins when the
    test rejects and A's mean error is lower. ``wins[A, B]`` sums the wins over datasets.
    The implied ranking orders methods by wins minus losses. Izetta et al.'s Table 8 prints,
    per domain, numbers from 0 to k − 1; ``outperforms`` gives our reading of them (how many
    methods A beats more often than it is beaten by).

    Parameters
    ----------
    errors_per_split : mapping or array-like
        Either a mapping dataset → table of shape (splits × methods) (DataFrames whose columns
        name the methods, the same on every dataset; the number of splits may differ), or a 3-D
        array (datasets × splits × methods). The splits of one dataset must be paired (the
        same splits for every method).
    alpha : float, default 0.05
    corrected : bool, default False
        Nadeau–Bengio corrected variance (needs ``n_train`` and ``n_test``).
    n_train, n_test : int, optional

    Returns
    -------
    WinMatrixResult
    """
    corrected = check_bool(corrected, "corrected")
    alpha = _check_alpha(alpha)
    names, tables, methods = _split_tables(errors_per_split)
    k = len(methods)
    wins = np.zeros((k, k), dtype=np.int64)
    for tab in tables:
        means = tab.mean(axis=0)
        for i in range(k):
            for j in range(i + 1, k):
                r = paired_ttest(tab[:, i], tab[:, j], corrected=corrected, n_train=n_train,
                                 n_test=n_test)
                if r.pvalue < alpha:
                    if means[i] < means[j]:
                        wins[i, j] += 1
                    elif means[j] < means[i]:
                        wins[j, i] += 1
    net = wins.sum(axis=1) - wins.sum(axis=0)
    outp = (wins > wins.T).sum(axis=1)
    order = sorted(range(k), key=lambda i: (-net[i], -outp[i], i))
    return WinMatrixResult(
        wins=pd.DataFrame(wins, index=methods, columns=methods),
        net_wins=pd.Series(net, index=methods, name="net_wins"),
        outperforms=pd.Series(outp, index=methods, name="outperforms"),
        ranking=[methods[i] for i in order], n_datasets=len(names), alpha=alpha,
        corrected=bool(corrected),
    )


# --------------------------------------------------------------------------- robustness
@dataclass(frozen=True)
class RobustnessResult:
    """Result of :func:`robustness_index`.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    index : Series
        Robustness index ``r_p`` of each technique: its mean rank over the classifiers
        (Borda), lower = more robust.
    ranks : DataFrame
        The technique ranks per classifier (classifiers × techniques, ties averaged).
    rank : Series of int
        Dense ranks of ``index`` (1 = most robust; equal indices share a rank, the next one
        follows), as the robust-FS paper's Table 5 prints them.
    """

    index: pd.Series
    ranks: pd.DataFrame
    rank: pd.Series


def robustness_index(errors) -> RobustnessResult:
    """Robustness index of feature-selection techniques (robust-FS paper, Algorithm 3).

    For each classifier ``M_i``, the p techniques are ranked by their classification error
    ``C_p`` (1 = lowest, ties get the average rank); the ranks are then aggregated over the m
    classifiers with Borda's count as a mean rank,

    ``r_p = (1/m) Σ_i rank_i(p)``,  lower = more robust.

    The paper's Table 5 prints ``r_p`` as dense ranks (:attr:`RobustnessResult.rank`). From its
    own Table 3 (F-measures of 5 classifiers on 8 datasets, error = 1 − F) this reproduces the
    AML, Internet-Ads and Leukemia-3c rows of Table 5 exactly; the other rows do not follow
    from the F-measures as printed (for instance Borda and Kemeny have equal F-measures on Lung
    Cancer for every classifier, yet Table 5 ranks them 1 and 2).

    Parameters
    ----------
    errors : array-like or DataFrame of shape (m classifiers, p techniques)
        Lower = better. m ≥ 1, p ≥ 2.

    Returns
    -------
    RobustnessResult

    References
    ----------
    "Robust Feature Selection Technique Using Rank Aggregation" (the robust-FS paper: Borda
    and Kemeny aggregation of IG, SU and chi-square rankings), Algorithm 3 and Table 5.
    """
    values, index, techniques = _check_table(errors, name="errors", rows="classifiers",
                                             cols="techniques", min_rows=1)
    ranks = _average_ranks(values)
    r = ranks.mean(axis=0)
    return RobustnessResult(
        index=pd.Series(r, index=techniques, name="robustness_index"),
        ranks=pd.DataFrame(ranks, index=index, columns=techniques),
        rank=pd.Series(stats.rankdata(r, method="dense").astype(np.int64), index=techniques,
                       name="rank"),
    )


# --------------------------------------------------------------------------- agreement
@dataclass(frozen=True)
class AgreementResult:
    """Result of :func:`rule_agreement`.

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    kendall : DataFrame
        Normalised Kendall distance between full consensus rankings, in [0, 1]
        (0 = same order, 1 = reversed).
    jaccard : DataFrame
        Jaccard index ``|A ∩ B| / |A ∪ B|`` of the top-k feature sets, in [0, 1].
    k : int
    """

    kendall: pd.DataFrame
    jaccard: pd.DataFrame
    k: int


def _as_order(value, name: str) -> list:
    if isinstance(value, Consensus):
        return value.top()
    if isinstance(value, (str, bytes)) or isinstance(value, numbers.Number):
        raise TypeError(f"{name} must be a Consensus or an order of feature names (best "
                        f"first), got {type(value).__name__}")
    if isinstance(value, pd.Series):
        raise TypeError(f"{name} must be a Consensus or an order (best first); for a Series of "
                        "scores use its index sorted by value")
    order = list(value)
    if len(set(order)) != len(order):
        raise ValueError(f"{name} repeats a feature")
    return order


def rule_agreement(consensuses, k: int) -> AgreementResult:
    """How much the consensus rankings of several rules (or rankers) agree.

    For each pair of rankings a and b of the same p features:

    * normalised Kendall distance ``K(a, b) / (p (p − 1) / 2)`` with ``K`` from
      :func:`rankfusion.distances.kendall_distance` (the number of discordant pairs);
    * top-k Jaccard index ``|T_k(a) ∩ T_k(b)| / |T_k(a) ∪ T_k(b)|``.

    Parameters
    ----------
    consensuses : mapping name → Consensus or order, or sequence of Consensus
        Each a full ranking of the same features (an order is a sequence of feature names,
        best first). A sequence of :class:`~rankfusion.Consensus` is labelled by their
        ``method``.
    k : int
        Size of the top sets, 1 ≤ k ≤ p.

    Returns
    -------
    AgreementResult
    """
    if isinstance(consensuses, Mapping):
        labels = list(consensuses)
        items = list(consensuses.values())
    elif isinstance(consensuses, Sequence) and not isinstance(consensuses, (str, bytes)):
        items = list(consensuses)
        if not all(isinstance(c, Consensus) for c in items):
            raise TypeError("consensuses as a sequence must hold Consensus objects; give a "
                            "mapping name → order for plain orders")
        labels = [c.method for c in items]
        if len(set(labels)) != len(labels):
            raise ValueError(f"consensuses share a method name ({labels}); give a mapping "
                             "name → Consensus")
    else:
        raise TypeError("consensuses must be a mapping name → Consensus (or order) or a "
                        f"sequence of Consensus, got {type(consensuses).__name__}")
    if len(items) < 2:
        raise ValueError(f"consensuses needs at least 2 rankings; got {len(items)}")
    orders = [_as_order(c, f"consensuses[{lab!r}]") for c, lab in zip(items, labels)]
    ref = set(orders[0])
    p = len(orders[0])
    for lab, o in zip(labels, orders):
        if len(o) != p or set(o) != ref:
            raise ValueError(f"consensuses[{lab!r}] does not rank the same {p} features as "
                             f"consensuses[{labels[0]!r}]")
    if p < 2:
        raise ValueError("rankings need at least 2 features")
    check_param("k", k, [Interval("int", 1, p)])  # the size of the top sets, ≤ p features
    m = len(orders)
    kd = np.zeros((m, m))
    jac = np.ones((m, m))
    pairs = p * (p - 1) / 2.0
    tops = [set(o[:k]) for o in orders]
    for i in range(m):
        for j in range(i + 1, m):
            kd[i, j] = kd[j, i] = kendall_distance(orders[i], orders[j]) / pairs
            jac[i, j] = jac[j, i] = len(tops[i] & tops[j]) / len(tops[i] | tops[j])
    return AgreementResult(
        kendall=pd.DataFrame(kd, index=labels, columns=labels),
        jaccard=pd.DataFrame(jac, index=labels, columns=labels),
        k=int(k),
    )
