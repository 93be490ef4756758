"""Classifiers that behave like Weka's defaults: naive Bayes, a J48-like tree and IB1; and
Weka's ``ReplaceMissingValues`` filter.

The NLC paper (Ruiz, Riquelme & Aguilar-Ruiz 2003, §5) and others evaluate feature subsets
with Weka's ``NaiveBayes``, ``J48`` (C4.5) and ``IBk`` (1-NN). scikit-learn's stand-ins drift
from them (``GaussianNB`` has no precision rounding nor SD floor, an unpruned entropy tree is
not C4.5), so the three classes below follow Weka 3.6's source (GPL; this is an independent
re-implementation of the documented behaviour, checked prediction for prediction against
Weka 3.6.14 on the fixtures in ``tests/fixtures/weka_classifiers/``).

* :class:`WekaNaiveBayes`: ``weka.classifiers.bayes.NaiveBayes`` without options.
* :class:`J48Like`: an entropy tree with at least two instances in two branches of a split,
  C4.5 split points and C4.5's error-based pruning (subtree replacement, confidence 0.25).
  What differs from J48: splits are binary on every attribute (scikit-learn's CART grower on
  information gain, not gain ratio; no multiway splits on nominal attributes: encode them, e.g.
  one-hot), missing values go with scikit-learn's learned direction instead of C4.5's
  fractional instances, C4.5's node-size-dependent minimum branch size
  (``min(25, max(M, 0.1·n/c))``) and gain correction for numeric splits are absent, and there is
  no subtree raising (collapse of splits without training gain and subtree replacement are
  done).
* :class:`WekaIB1`: ``weka.classifiers.lazy.IBk`` with its defaults (k = 1, Euclidean
  distance on attributes min–max scaled by the training ranges, Weka's missing-value
  distances, ties among equally near neighbours by majority then class order). With
  ``update_ranges=True`` (default) the ranges grow with every test instance classified, in
  order, as ``IBk.distributionForInstance`` does.
* :class:`ReplaceMissingValues`: ``weka.filters.unsupervised.attribute.ReplaceMissingValues``
  (training means and modes), the missing-value step of ``knn3_impute`` and
  ``adaboost_impute``.

Nominal attributes: DataFrame columns of pandas ``category`` dtype, or array columns flagged by
``categorical`` holding codes 0 … k−1 (NaN = missing); missing numeric values are NaN.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.special import ndtr, ndtri
from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.validation import check_is_fitted

__all__ = ["WekaNaiveBayes", "J48Like", "WekaIB1", "ReplaceMissingValues"]

_DEFAULT_PRECISION = 0.01  # weka.classifiers.bayes.NaiveBayes.DEFAULT_NUM_PRECISION


def _prepare(X, categorical=None, n_values=None):
    """Float array (nominal columns as codes), the nominal mask and the declared value counts."""
    if isinstance(X, pd.DataFrame):
        cols, mask, nv = [], [], []
        for c in X.columns:
            col = X[c]
            if isinstance(col.dtype, pd.CategoricalDtype):
                codes = col.cat.codes.to_numpy().astype(np.float64)
                codes[codes < 0] = np.nan
                cols.append(codes)
                mask.append(True)
                nv.append(len(col.cat.categories))
            else:
                try:
                    cols.append(col.to_numpy(dtype=np.float64, na_value=np.nan))
                except (TypeError, ValueError):
                    raise TypeError(f"X column {c!r} is neither numeric nor categorical") from None
                mask.append(False)
                nv.append(0)
        A = np.column_stack(cols) if cols else np.empty((len(X), 0))
        return A, np.array(mask, dtype=bool), np.array(nv, dtype=np.int64)
    try:
        A = np.array(X, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError("X must be numeric (nominal attributes as codes) or a DataFrame") \
            from None
    if A.ndim != 2:
        raise ValueError(f"X must be 2-D, got {A.ndim} dimension(s)")
    p = A.shape[1]
    mask = np.zeros(p, dtype=bool)
    if categorical is not None:
        cat = np.asarray(categorical)
        if cat.dtype == bool:
            if cat.shape != (p,):
                raise ValueError(f"categorical mask must have {p} entries, got {cat.shape}")
            mask = cat.copy()
        else:
            idx = cat.astype(np.int64).ravel()
            if np.any((idx < 0) | (idx >= p)):
                raise ValueError("categorical holds a column index out of range")
            mask[idx] = True
    nv = np.zeros(p, dtype=np.int64)
    for j in np.flatnonzero(mask):
        v = A[:, j][~np.isnan(A[:, j])]
        if v.size and (np.any(v < 0) or np.any(v != np.round(v))):
            raise ValueError(f"categorical column {j} must hold codes 0, 1, … (or NaN)")
        nv[j] = int(v.max()) + 1 if v.size else 1
    if n_values is not None:
        nv = np.maximum(nv, n_values)
    return A, mask, nv


def _check_y(y, n):
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != n:
        raise ValueError(f"y must be 1-D with {n} entries, got shape {y.shape}")
    if y.dtype.kind == "f" and np.isnan(y).any():
        raise ValueError("y holds missing values")
    classes, codes = np.unique(y, return_inverse=True)
    if classes.shape[0] < 1:
        raise ValueError("y is empty")
    return classes, codes


def _weka_precision(col: np.ndarray) -> float:
    """Weka NaiveBayes: mean gap between consecutive distinct training values (0.01 default)."""
    v = np.unique(col[~np.isnan(col)])
    if v.size < 2:
        return _DEFAULT_PRECISION
    return float(np.add.accumulate(np.diff(v))[-1] / (v.size - 1))  # Weka sums in order


class WekaNaiveBayes(ClassifierMixin, BaseEstimator):
    """Naive Bayes as ``weka.classifiers.bayes.NaiveBayes`` with its default options.

    For each numeric attribute a, Weka computes a *precision* from the training values:
    ``prec_a = (sum of gaps between consecutive distinct values) / (number of gaps)`` (0.01 if
    fewer than two distinct values). Per class, a ``NormalEstimator(prec_a)`` rounds every value
    to ``rint(x / prec) · prec``, keeps the weighted mean ``μ`` and the population SD ``σ`` of
    the rounded values, floored: ``σ = max(prec/6, σ)`` when ``σ > 1e-10``, else ``prec/6``.
    The likelihood of a value x is the probability of its precision bin,
    ``Φ((r − μ + prec/2)/σ) − Φ((r − μ − prec/2)/σ)`` with ``r`` the rounded x. Nominal
    attributes and the class use Laplace counts ``(n_v + 1)/(n + k)`` (k declared values).
    Missing values are skipped in training and prediction. The class score is the product of
    the prior and every likelihood, each floored at 1e-75, in attribute order, rescaled by 1e75
    when the largest score falls below 1e-75 (Weka's underflow guard); the prediction is the
    first class of largest score.

    Parameters
    ----------
    categorical : array of bool or int, optional
        For array input: the nominal columns (their values are codes 0 … k−1). DataFrame
        input uses its ``category`` columns instead.

    Attributes
    ----------
    classes_, precision_ (per attribute, NaN for nominal), mean_, sd_ (classes × attributes),
    nominal_prob_ (dict column → classes × values), class_prior_.

    References
    ----------
    John & Langley (1995). Estimating continuous distributions in Bayesian classifiers. UAI;
    Weka 3.6 ``NaiveBayes``, ``NormalEstimator``, ``DiscreteEstimator`` (GPL).
    """

    def __init__(self, categorical=None):
        self.categorical = categorical

    def fit(self, X, y):
        A, mask, nv = _prepare(X, self.categorical)
        classes, codes = _check_y(y, A.shape[0])
        c, p = classes.shape[0], A.shape[1]
        self.classes_ = classes
        self.n_features_in_ = p
        self.categorical_ = mask
        self.n_values_ = nv
        counts = np.bincount(codes, minlength=c).astype(np.float64)
        self.class_prior_ = (counts + 1.0) / (counts.sum() + c)
        self.precision_ = np.full(p, np.nan)
        self.mean_ = np.zeros((c, p))
        self.sd_ = np.zeros((c, p))
        self.nominal_prob_ = {}
        for j in range(p):
            col = A[:, j]
            ok = ~np.isnan(col)
            if mask[j]:
                t = np.ones((c, nv[j]))
                np.add.at(t, (codes[ok], col[ok].astype(np.int64)), 1.0)
                self.nominal_prob_[j] = t / t.sum(axis=1, keepdims=True)
                continue
            prec = _weka_precision(col)
            self.precision_[j] = prec
            r = np.rint(col[ok] / prec) * prec
            k = codes[ok]
            w = np.bincount(k, minlength=c).astype(np.float64)
            s = np.bincount(k, weights=r, minlength=c)
            s2 = np.bincount(k, weights=r * r, minlength=c)
            with np.errstate(invalid="ignore", divide="ignore"):
                mu = np.where(w > 0, s / w, 0.0)
                sd = np.where(w > 0, np.sqrt(np.abs(s2 - mu * s) / w), 0.0)
            floor = prec / 6.0
            self.mean_[:, j] = mu
            self.sd_[:, j] = np.where(sd > 1e-10, np.maximum(floor, sd), floor)
        return self

    def _scores(self, X):
        check_is_fitted(self, "classes_")
        A, _, _ = _prepare(X, self.categorical)
        if A.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {A.shape[1]} features, the model was fitted with "
                             f"{self.n_features_in_}")
        probs = np.tile(self.class_prior_, (A.shape[0], 1))
        for j in range(A.shape[1]):
            col = A[:, j]
            ok = ~np.isnan(col)
            if not ok.any():
                continue
            if self.categorical_[j]:
                v = col[ok].astype(np.int64)
                table = self.nominal_prob_[j]
                if np.any(v >= table.shape[1]):
                    raise ValueError(f"column {j} holds a nominal code unseen in training")
                lik = table[:, v].T
            else:
                prec = self.precision_[j]
                r = (np.rint(col[ok] / prec) * prec)[:, None]
                mu, sd = self.mean_[:, j][None, :], self.sd_[:, j][None, :]
                lik = ndtr((r - mu + prec / 2) / sd) - ndtr((r - mu - prec / 2) / sd)
            sub = probs[ok] * np.maximum(1e-75, lik)
            top = sub.max(axis=1)
            small = (top > 0) & (top < 1e-75)
            sub[small] *= 1e75
            probs[ok] = sub
        return probs

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities (rows sum to 1), columns in ``classes_`` order.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        s = self._scores(X)
        return s / s.sum(axis=1, keepdims=True)

    def predict(self, X) -> np.ndarray:
        """The first class of largest score (Weka's ``Utils.maxIndex``).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The samples.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self.classes_[np.argmax(self._scores(X), axis=1)]


def _add_errs(N: np.ndarray, e: np.ndarray, cf: float) -> np.ndarray:
    """C4.5 / Weka ``Stats.addErrs``: extra errors of the upper confidence limit."""
    N = np.asarray(N, dtype=np.float64)
    e = np.asarray(e, dtype=np.float64)
    z = ndtri(1 - cf)
    out = np.empty_like(N)
    with np.errstate(divide="ignore", invalid="ignore"):
        base = N * (1 - np.power(cf, 1 / N))
        f1 = 1.5 / N
        r1 = (f1 + z * z / (2 * N) + z * np.sqrt(f1 / N - f1 * f1 / N + z * z / (4 * N * N))) \
            / (1 + z * z / N)
        one = np.where(1.5 >= N, np.maximum(N - 1, 0), r1 * N - 1)
        f = (e + 0.5) / N
        r = (f + z * z / (2 * N) + z * np.sqrt(f / N - f * f / N + z * z / (4 * N * N))) \
            / (1 + z * z / N)
        big = r * N - e
    low = e < 1
    out[low] = (base + e * (one - base))[low]
    upper = ~low & (e + 0.5 >= N)
    out[upper] = np.maximum(N - e, 0)[upper]
    mid = ~low & ~upper
    out[mid] = big[mid]
    return out


class J48Like(ClassifierMixin, BaseEstimator):
    """A C4.5-like tree: entropy splits, ≥ 2 instances per branch, error-based pruning.

    The tree is grown by scikit-learn (``criterion="entropy"``, ``min_samples_leaf``), every
    numeric split point is moved to the largest training value not above it (C4.5's split
    points lie on data values), and the tree is pruned bottom-up as C4.5 does: a subtree is
    replaced by a leaf when the leaf's estimated errors ``e + addErrs(N, e, CF)`` do not exceed
    the subtree's (sum over its leaves) by more than 0.1 (Quinlan 1993, ch. 4; Weka
    ``C45PruneableClassifierTree``, without subtree raising). See the module notes for what
    differs from J48.

    Parameters
    ----------
    confidence : float, default=0.25
        Pruning confidence CF (Weka ``-C``); ``None`` grows an unpruned tree.
    min_leaf : int, default=2
        Minimum instances per branch (Weka ``-M``).
    random_state : int, optional
        Passed to the grower (ties between equally good splits).

    References
    ----------
    Quinlan, J.R. (1993). C4.5: Programs for Machine Learning. Morgan Kaufmann.
    """

    def __init__(self, confidence: float | None = 0.25, min_leaf: int = 2, random_state=0):
        self.confidence = confidence
        self.min_leaf = min_leaf
        self.random_state = random_state

    def fit(self, X, y):
        if self.confidence is not None and not 0 < float(self.confidence) <= 0.5:
            raise ValueError(f"confidence must be in (0, 0.5], got {self.confidence!r}")
        if isinstance(self.min_leaf, bool) or not isinstance(self.min_leaf, (int, np.integer)) \
                or self.min_leaf < 1:
            raise ValueError(f"min_leaf must be an int ≥ 1, got {self.min_leaf!r}")
        A, mask, _ = _prepare(X)
        if mask.any():
            raise TypeError("J48Like takes numeric attributes; encode nominal ones (one-hot)")
        classes, codes = _check_y(y, A.shape[0])
        self.classes_ = classes
        self.n_features_in_ = A.shape[1]
        grower = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=self.min_leaf,
                                        random_state=self.random_state).fit(A, codes)
        t = grower.tree_
        left, right = t.children_left.copy(), t.children_right.copy()
        feat, thr = t.feature.copy(), t.threshold.copy()
        counts = np.zeros((t.node_count, classes.shape[0]))
        node_of = grower.apply(A)
        path = grower.decision_path(A).tocsc()
        for k in range(classes.shape[0]):
            counts[:, k] = np.asarray(path[codes == k].sum(axis=0)).ravel()
        del node_of
        for v in np.flatnonzero(left >= 0):  # C4.5 split points on data values
            col = A[:, feat[v]]
            below = col[col <= thr[v]]
            if below.size:
                thr[v] = below.max()
        self.missing_left_ = getattr(t, "missing_go_to_left", np.ones(t.node_count, bool))
        if self.confidence is not None:
            cf = float(self.confidence)

            def train_errors(v):
                if left[v] < 0:
                    return counts[v].sum() - counts[v].max()
                return train_errors(left[v]) + train_errors(right[v])

            def prune(v):
                n = counts[v].sum()
                e = n - counts[v].max()
                leaf_est = e + _add_errs(np.array([n]), np.array([e]), cf)[0]
                if left[v] < 0:
                    return leaf_est
                if train_errors(v) >= e - 1e-3:  # C4.5's collapse: no gain on training data
                    left[v] = right[v] = -1
                    return leaf_est
                sub = prune(left[v]) + prune(right[v])
                if leaf_est <= sub + 0.1:
                    left[v] = right[v] = -1
                    return leaf_est
                return sub

            prune(0)
        self.children_left_, self.children_right_ = left, right
        self.feature_, self.threshold_, self.counts_ = feat, thr, counts
        return self

    def _leaves(self, A):
        node = np.zeros(A.shape[0], dtype=np.int64)
        while True:
            inner = self.children_left_[node] >= 0
            if not inner.any():
                return node
            idx = np.flatnonzero(inner)
            v = node[idx]
            x = A[idx, self.feature_[v]]
            go_left = np.where(np.isnan(x), self.missing_left_[v].astype(bool),
                               x <= self.threshold_[v])
            node[idx] = np.where(go_left, self.children_left_[v], self.children_right_[v])

    def predict_proba(self, X) -> np.ndarray:
        check_is_fitted(self, "classes_")
        A, _, _ = _prepare(X)
        if A.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {A.shape[1]} features, expected {self.n_features_in_}")
        c = self.counts_[self._leaves(A)]
        return c / c.sum(axis=1, keepdims=True)

    def predict(self, X) -> np.ndarray:
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]

    @property
    def n_leaves_(self) -> int:
        """Leaves after pruning (reachable from the root)."""
        stack, n = [0], 0
        while stack:
            v = stack.pop()
            if self.children_left_[v] < 0:
                n += 1
            else:
                stack += [self.children_left_[v], self.children_right_[v]]
        return n


class WekaIB1(ClassifierMixin, BaseEstimator):
    r"""1-nearest neighbour as ``weka.classifiers.lazy.IBk`` with its defaults.

    Distance ``sqrt(Σ_a d_a²)`` (Weka ``EuclideanDistance``): numeric attributes scaled to
    ``(x − min_a)/(max_a − min_a)`` by the ranges (0 when ``max_a = min_a``); nominal ``d = 0``
    if equal else 1. Missing values: nominal → 1; numeric with both missing → 1, one missing →
    ``max(v, 1 − v)`` of the other's scaled value. All training instances at the smallest
    distance vote; the class with most votes wins, the first class on a tie.

    Class probabilities (:meth:`predict_proba`) are IBk's ``makeDistribution`` for k = 1 with
    its defaults (no distance weighting, unit instance weights): with ``n_c`` the votes of
    class ``c`` among the ``m`` equally nearest training instances, ``N`` the training
    instances and ``C`` the classes,

    .. math:: P(c \mid x) = \frac{n_c + 1/N}{m + C/N},

    the correction IBk adds to every class before normalising. Weka's evaluation computes its
    ROC area from this distribution (31/32 and 1/32 for a single neighbour among 30 training
    instances of two classes); the predicted class is its most probable one.

    The distances are screened, not computed row by row: for each block of test rows that
    share their ranges, one Gram-matrix product bounds every squared distance, and the exact
    distance is computed only for the training rows whose bound can reach the smallest one
    (:meth:`_votes_screened`). The votes are those of the row-by-row computation, ties
    included, on any data (tested against it); on splice (2,867 training rows, 180 binary
    attributes) a fold takes about 1/100 of the row-by-row time
    (``benchmarks/bench_weka_ib1.py``). Test rows with a missing value, or training data with
    one, go row by row.

    Parameters
    ----------
    categorical : array of bool or int, optional
        Nominal columns of array input (DataFrame: its ``category`` columns).
    update_ranges : bool, default=True
        Grow the ranges with every test instance classified, in row order (IBk does
        ``addInstanceInfo`` before each prediction); False keeps the training ranges.

    References
    ----------
    Aha, Kibler & Albert (1991). Instance-based learning algorithms. Machine Learning 6,
    37-66; Weka 3.6 ``IBk``, ``EuclideanDistance`` (GPL).
    """

    def __init__(self, categorical=None, update_ranges: bool = True):
        self.categorical = categorical
        self.update_ranges = update_ranges

    def fit(self, X, y):
        A, mask, _ = _prepare(X, self.categorical)
        classes, codes = _check_y(y, A.shape[0])
        self.classes_, self.n_features_in_ = classes, A.shape[1]
        self.categorical_ = mask
        self._A, self._y = A, codes
        with np.errstate(all="ignore"):
            self.min_ = np.nanmin(np.where(np.isnan(A), np.inf, A), axis=0)
            self.max_ = np.nanmax(np.where(np.isnan(A), -np.inf, A), axis=0)
        return self

    def _scaled(self, V, lo, hi):
        width = hi - lo
        with np.errstate(invalid="ignore", divide="ignore"):
            S = np.where((width > 0) & np.isfinite(width), (V - lo) / width, 0.0)
        return np.where(np.isnan(V), np.nan, S)

    def _votes(self, X) -> np.ndarray:
        """Votes of each class among the equally nearest training instances, per row."""
        check_is_fitted(self, "classes_")
        if not isinstance(self.update_ranges, (bool, np.bool_)):
            raise TypeError(f"update_ranges must be True or False, got {self.update_ranges!r}")
        B, _, _ = _prepare(X, self.categorical)
        if B.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {B.shape[1]} features, expected {self.n_features_in_}")
        if np.isinf(B).any():
            raise ValueError("X has infinite values (missing values are NaN)")
        if self.update_ranges:
            Bi = np.where(np.isnan(B), np.inf, B)
            Ba = np.where(np.isnan(B), -np.inf, B)
            lo = np.minimum(self.min_, np.minimum.accumulate(Bi, axis=0))
            hi = np.maximum(self.max_, np.maximum.accumulate(Ba, axis=0))
        else:
            lo = np.broadcast_to(self.min_, B.shape)
            hi = np.broadcast_to(self.max_, B.shape)
        c = self.classes_.shape[0]
        out = np.zeros((B.shape[0], c), dtype=np.int64)
        slow = np.isnan(B).any(axis=1)
        if np.isnan(self._A).any():
            slow[:] = True
        for i in np.flatnonzero(slow):
            d = np.sqrt(self._sq_dist(self._A, B[i][None, :], lo[i], hi[i]))
            near = d == d.min()
            out[i] = np.bincount(self._y[near], minlength=c)
        fast = np.flatnonzero(~slow)
        if fast.size:
            self._votes_screened(B, lo, hi, fast, out)
        return out

    def _sq_dist(self, a, b, lo, hi) -> np.ndarray:
        """Squared distances of the rows of ``a`` to the rows of ``b`` (one row, or as many as
        ``a``: row-wise pairs), with the ranges ``lo``, ``hi``: the reference computation."""
        num = ~self.categorical_
        d2 = np.zeros(a.shape[0])
        if num.any():
            ta = self._scaled(a[:, num], lo[num], hi[num])
            tb = self._scaled(b[:, num], lo[num], hi[num])
            diff = tb - ta
            ma, mb = np.isnan(ta), np.isnan(tb)
            other = np.where(ma, tb, ta)
            one = np.maximum(other, 1 - other)
            diff = np.where(ma & mb, 1.0, np.where(ma | mb, one, diff))
            d2 += np.sum(diff * diff, axis=1)
        if (~num).any():
            na, nb = a[:, ~num], b[:, ~num]
            neq = (na != nb) | np.isnan(na) | np.isnan(nb)
            d2 += neq.sum(axis=1)
        return d2

    def _votes_screened(self, B, lo, hi, rows, out) -> None:
        r"""Votes for the complete test ``rows`` (no missing value here or in training).

        The squared distances are first bounded through the Gram matrix,
        ``‖a‖² + ‖b‖² − 2 a·b`` (one matrix product for a block of test rows sharing their
        ranges), whose rounding error is at most ``E = 4 (p + 2) ε (‖a‖² + ‖b‖² + 1)``
        (Higham 2002, §3.1, for sums of p products; doubled for safety). Every training row
        whose bound ``d̃ − E`` can reach the smallest ``d̃ + E`` is a candidate, and only the
        candidates' distances are computed by :meth:`_sq_dist`, the reference computation; the
        nearest rows and their ties are taken among them. The nearest rows of the reference
        computation are always candidates, so the votes are those of the row-by-row loop,
        exactly, whatever the data.
        """
        num = ~self.categorical_
        A = self._A
        n, p = A.shape
        eps = np.finfo(np.float64).eps
        chunk = max(1, min(256, 2**22 // max(n, 1)))  # test rows per block: ≤ 32 MB products
        # Nominal attributes: matches counted exactly by one-hot products (integers).
        nom = np.flatnonzero(~num)
        onehot_a, levels = [], []
        for j in nom:
            lv = np.unique(np.concatenate([A[:, j], B[rows, j]]))
            levels.append(lv)
            onehot_a.append(np.searchsorted(lv, A[:, j]))
        sizes = [lv.size for lv in levels]
        offs = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        if nom.size:
            OA = np.zeros((n, int(offs[-1])))
            for k, codes in enumerate(onehot_a):
                OA[np.arange(n), offs[k] + codes] = 1.0
        # Blocks of consecutive rows with the same ranges (they only grow, row by row).
        lo_r, hi_r = lo[rows], hi[rows]
        change = np.ones(rows.size, dtype=bool)
        if rows.size > 1:
            same = (np.all((lo_r[1:] == lo_r[:-1]) | (np.isnan(lo_r[1:]) & np.isnan(lo_r[:-1])),
                           axis=1)
                    & np.all((hi_r[1:] == hi_r[:-1]) | (np.isnan(hi_r[1:]) & np.isnan(hi_r[:-1])),
                             axis=1))
            change[1:] = ~same
        starts = np.flatnonzero(change)
        bounds = np.append(starts, rows.size)
        for s, e in zip(bounds[:-1], bounds[1:]):
            lo_s, hi_s = lo_r[s], hi_r[s]
            ta = self._scaled(A[:, num], lo_s[num], hi_s[num])
            na2 = np.einsum("ij,ij->i", ta, ta)
            for cs in range(s, e, chunk):
                idx = rows[cs:min(cs + chunk, e)]
                tb = self._scaled(B[idx][:, num], lo_s[num], hi_s[num])
                nb2 = np.einsum("ij,ij->i", tb, tb)
                g = nb2[:, None] + na2[None, :] - 2.0 * (tb @ ta.T)
                if nom.size:
                    OB = np.zeros((idx.size, int(offs[-1])))
                    for k, j in enumerate(nom):
                        codes = np.searchsorted(levels[k], B[idx, j])
                        OB[np.arange(idx.size), offs[k] + codes] = 1.0
                    g += nom.size - OB @ OA.T
                err = 4.0 * (p + 2) * eps * (nb2[:, None] + na2[None, :] + nom.size + 1.0)
                reach = (g + err).min(axis=1, keepdims=True)
                ri, cj = np.nonzero(g - err <= reach)
                d = np.sqrt(self._sq_dist(A[cj], B[idx[ri]], lo_s, hi_s))
                best = np.full(idx.size, np.inf)
                np.minimum.at(best, ri, d)
                near = d == best[ri]
                np.add.at(out, (idx[ri[near]], self._y[cj[near]]), 1)

    def predict(self, X) -> np.ndarray:
        return self.classes_[np.argmax(self._votes(X), axis=1)]

    def predict_proba(self, X) -> np.ndarray:
        """IBk's class distribution for k = 1: ``(n_c + 1/N) / (m + C/N)`` (class docstring).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``; rows sum to 1.
        """
        votes = self._votes(X).astype(np.float64)
        n, c = max(1, self._y.shape[0]), self.classes_.shape[0]
        m = votes.sum(axis=1, keepdims=True)  # the equally nearest training instances
        return (votes + 1.0 / n) / (m + c / n)


def _is_nominal(dtype) -> bool:
    return (isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_object_dtype(dtype)
            or pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_string_dtype(dtype))


class ReplaceMissingValues(TransformerMixin, BaseEstimator):
    r"""Missing values replaced by the training means and modes, as Weka's
    ``weka.filters.unsupervised.attribute.ReplaceMissingValues``.

    Fitted on the training part only (inside the classifier's pipeline, so the test rows never
    enter the statistics). A numeric attribute a takes the mean of its observed training values,

    .. math:: \bar x_a = \frac{1}{|O_a|} \sum_{i \in O_a} x_{ia},
              \qquad O_a = \{i : x_{ia} \text{ observed}\},

    and 0 when it has none (Weka's value, checked with Weka 3.6.14's filter); a nominal attribute (a
    DataFrame column of ``category``, ``object``, ``bool`` or ``string`` dtype) takes its most
    frequent training value, the first in category order (sorted values for the other dtypes)
    on a tie or when none is observed (Weka's ``Utils.maxIndex`` over the declared values).
    Observed values are never changed, so on complete data the transform is the identity and a
    classifier behind it predicts exactly what it predicts alone. A sparse matrix has no
    missing values (docs/design.md, 'Sparse input'): it passes through unchanged, and NaN or
    inf among its stored values is refused.

    Attributes
    ----------
    fill_ : dict or ndarray
        The value of each attribute: a dict column → value for a DataFrame, an array of means
        for an array.
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        The DataFrame's columns (only when fitted on one).

    References
    ----------
    Witten, Frank, Hall & Pal (2016). Data Mining: Practical Machine Learning Tools and
    Techniques, 4th ed., §8.2 (missing values) and the Weka filter ``ReplaceMissingValues``.
    """

    def fit(self, X, y=None):
        """Learn the mean or mode of each attribute on ``X`` (the training part).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Missing values are NaN (or ``None`` / ``pd.NA`` in nominal columns).
        y : ignored

        Returns
        -------
        self
        """
        if isinstance(X, pd.DataFrame):
            if X.shape[0] == 0:
                raise ValueError("X has no rows: ReplaceMissingValues needs training rows")
            fill = {}
            for c in X.columns:
                col = X[c]
                if _is_nominal(col.dtype):
                    fill[c] = self._mode(col)
                else:
                    v = self._numeric(col, c)
                    obs = v[~np.isnan(v)]
                    fill[c] = float(obs.mean()) if obs.size else 0.0
            self.fill_ = fill
            self.feature_names_in_ = np.asarray(X.columns, dtype=object)
            self.n_features_in_ = X.shape[1]
            return self
        if sp.issparse(X):
            self._check_sparse(X)
            if X.shape[0] == 0:
                raise ValueError("X has no rows: ReplaceMissingValues needs training rows")
            self.fill_ = np.asarray(X.mean(axis=0), dtype=np.float64).ravel()
            self.n_features_in_ = X.shape[1]
            return self
        A = self._array(X)
        if A.shape[0] == 0:
            raise ValueError("X has no rows: ReplaceMissingValues needs training rows")
        obs = ~np.isnan(A)
        n = obs.sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            self.fill_ = np.where(n > 0, np.where(obs, A, 0.0).sum(axis=0) / np.maximum(n, 1),
                                  0.0)
        self.n_features_in_ = A.shape[1]
        if hasattr(self, "feature_names_in_"):
            del self.feature_names_in_
        return self

    def transform(self, X):
        """``X`` with each missing value replaced by its attribute's training value (a copy;
        ``X`` is not modified).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            The same attributes as in :meth:`fit` (a DataFrame: the same columns).

        Returns
        -------
        ndarray or DataFrame
            Of the type given, the dtypes of a DataFrame kept.
        """
        check_is_fitted(self, "fill_")
        if isinstance(self.fill_, dict):
            if not isinstance(X, pd.DataFrame):
                raise TypeError(f"X must be a DataFrame (ReplaceMissingValues was fitted on "
                                f"one), got {type(X).__name__}")
            if list(X.columns) != list(self.feature_names_in_):
                raise ValueError(f"X has columns {list(X.columns)[:5]}…, expected the "
                                 f"{self.n_features_in_} columns seen in fit, in order")
            out = X.copy()
            for c, value in self.fill_.items():
                col = out[c]
                if not _is_nominal(col.dtype):
                    self._numeric(col, c)  # inf refused in every numeric column
                miss = col.isna().to_numpy()
                if not miss.any():
                    continue
                if isinstance(col.dtype, pd.CategoricalDtype):
                    if value is None:
                        continue  # a category column declaring no value: nothing to fill
                    out[c] = col.fillna(value)
                elif _is_nominal(col.dtype):
                    if value is not None:
                        out[c] = col.where(~miss, value)
                else:  # as float64: a nullable integer column cannot hold a mean
                    v = self._numeric(col, c)
                    out[c] = np.where(np.isnan(v), value, v)
            return out
        if sp.issparse(X):
            self._check_sparse(X)
            if X.shape[1] != self.n_features_in_:
                raise ValueError(f"X has {X.shape[1]} features, ReplaceMissingValues was "
                                 f"fitted with {self.n_features_in_}")
            return X.copy()  # a sparse matrix has no missing values
        if isinstance(X, pd.DataFrame):
            X = X.to_numpy()
        A = self._array(X)
        if A.shape[1] != self.n_features_in_:
            raise ValueError(f"X has {A.shape[1]} features, ReplaceMissingValues was fitted "
                             f"with {self.n_features_in_}")
        return np.where(np.isnan(A), self.fill_[None, :], A)

    @staticmethod
    def _mode(col: pd.Series):
        if isinstance(col.dtype, pd.CategoricalDtype):
            cats = list(col.cat.categories)
            if not cats:
                return None
            counts = col.value_counts(sort=False, dropna=True).reindex(cats, fill_value=0)
            return cats[int(np.argmax(counts.to_numpy()))]
        counts = col.dropna().value_counts(sort=False)
        if counts.empty:
            return None
        counts = counts.sort_index()
        return counts.index[int(np.argmax(counts.to_numpy()))]

    @staticmethod
    def _numeric(col: pd.Series, name) -> np.ndarray:
        if pd.api.types.is_complex_dtype(col.dtype):
            raise TypeError(f"X column {name!r} is complex; ReplaceMissingValues takes real "
                            f"numbers")
        try:
            v = col.to_numpy(dtype=np.float64, na_value=np.nan)
        except (TypeError, ValueError):
            raise TypeError(f"X column {name!r} is neither numeric nor nominal") from None
        if np.isinf(v).any():
            raise ValueError(f"X column {name!r} has infinite values (missing values are NaN)")
        return v

    @staticmethod
    def _check_sparse(X) -> None:
        data = np.asarray(X.tocoo().data)
        if np.iscomplexobj(data):
            raise TypeError("X is complex; ReplaceMissingValues takes real numbers")
        if data.size and not np.isfinite(data.astype(np.float64)).all():
            raise ValueError("a sparse X has no missing values (docs/design.md, 'Sparse "
                             "input'): NaN or inf among its stored values")

    @staticmethod
    def _array(X) -> np.ndarray:
        if np.iscomplexobj(X):
            raise TypeError("X is complex; ReplaceMissingValues takes real numbers")
        try:
            A = np.array(X, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError("X must be numeric (or a DataFrame with nominal columns)") from None
        if A.ndim != 2:
            raise ValueError(f"X must be 2-D, got {A.ndim} dimension(s)")
        if np.isinf(A).any():
            raise ValueError("X has infinite values (missing values are NaN)")
        return A
