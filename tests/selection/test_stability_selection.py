"""Stability selection (Meinshausen & Bühlmann 2010; Shah & Samworth 2013): the mean number of
false selections stays below the requested PFER; the bounds and the parameter rule as written;
selection probabilities recounted from the subsamples; the EnsembleSelector subset rule."""

import math

import numpy as np
import pandas as pd
import pytest
from sklearn.feature_selection import f_classif
from sklearn.utils.estimator_checks import check_estimator

from rankfusion import EnsembleSelector
from rankfusion.selection import (
    StabilitySelector,
    pfer_bound,
    stability_parameters,
    subsample_halves,
)

#: The fixed seeds of the error-control tests.
SEEDS = tuple(range(30))


def _sim(seed, n=100, k=5, p=50, shift=1.0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.normal(size=(n, p))
    X[:, :k] += shift * y[:, None]
    return X, y


# ------------------------------------------------------------------ error control
@pytest.mark.parametrize("pairs, bound", [(True, "mb"), (False, "mb"), (True, "unimodal")])
def test_mean_false_selections_below_the_requested_pfer(pairs, bound):
    # Stated in advance: over the 30 fixed seeds, the MEAN number of noise features selected
    # is at most the requested PFER (no extra tolerance: the bounds are conservative). Power,
    # a sanity check only: on average at least 3 of the 5 relevant features are selected
    # (q = 5 here; measured 3.9-4.0 with the MB bound).
    pfer = 1.0
    false, true = [], []
    for seed in SEEDS:
        X, y = _sim(seed)
        sel = StabilitySelector(threshold=0.75, pfer=pfer, n_subsamples=40,
                                complementary_pairs=pairs, bound=bound,
                                random_state=seed).fit(X, y)
        assert sel.pfer_bound_ <= pfer
        false.append(int(sel.support_[5:].sum()))
        true.append(int(sel.support_[:5].sum()))
    assert np.mean(false) <= pfer, false
    assert np.mean(true) >= 3, true


def test_mean_false_selections_of_an_ensemble_below_the_pfer():
    # two rankers combined by Borda on every half; 10 fixed seeds, same statement as above
    false = []
    for seed in SEEDS[:10]:
        X, y = _sim(seed, p=30)
        sel = StabilitySelector(rankers=("f_classif", "relieff"), aggregation="borda",
                                q=5, pfer=1.0, n_subsamples=20, random_state=seed).fit(X, y)
        false.append(int(sel.support_[5:].sum()))
    assert np.mean(false) <= 1.0, false


# ------------------------------------------------------------------ the bounds
def test_mb_bound_as_written():
    for q, p, t in [(10, 100, 0.9), (3, 7, 0.6), (50, 1000, 1.0)]:
        assert pfer_bound(q, p, t) == pytest.approx(q * q / ((2 * t - 1) * p), rel=1e-15)


@pytest.mark.parametrize("q, p, t, B", [(10, 100, 0.9, 50), (10, 100, 0.7, 50),
                                        (5, 1000, 0.6, 25), (20, 200, 0.76, 10)])
def test_unimodal_bound_as_written(q, p, t, B):
    # Shah & Samworth (2013), unimodal case; the constants as R stabs's um_const
    theta = q / p
    if t <= 0.75:
        c = 2 * (2 * t - 1 - 1 / (2 * B))
    else:
        c = (1 + 1 / B) / (4 * (1 - t + 1 / (2 * B)))
    assert pfer_bound(q, p, t, bound="unimodal", n_pairs=B) == pytest.approx(
        q * q / (p * c), rel=1e-14)
    assert theta < 1


def test_unimodal_bound_is_tighter_at_the_usual_threshold():
    assert pfer_bound(10, 100, 0.9, bound="unimodal", n_pairs=50) < pfer_bound(10, 100, 0.9)


def test_unimodal_bound_outside_its_range_is_refused():
    # θ = 0.5: π must be ≥ ½ + min(θ², 1/(2B) + ¾θ²) = 0.6975 for B = 50
    with pytest.raises(ValueError, match="outside the unimodal bound's range"):
        pfer_bound(50, 100, 0.6, bound="unimodal", n_pairs=50)


def test_threshold_from_q_and_pfer():
    got = stability_parameters(200, q=10, pfer=2.0)
    assert got.threshold == pytest.approx(0.5 * (1 + 100 / (200 * 2.0)))
    assert got.pfer_bound == pytest.approx(2.0)


def test_threshold_above_one_is_refused():
    with pytest.raises(ValueError, match=r"π = ½\(1 \+ q²/\(p·PFER\)\) = 1.22 > 1"):
        stability_parameters(100, q=12, pfer=1.0)


def test_q_from_threshold_and_pfer_is_the_largest_within_the_target():
    for p, t, pfer in [(100, 0.9, 1.0), (500, 0.6, 0.5), (37, 0.75, 3.0)]:
        q = stability_parameters(p, threshold=t, pfer=pfer).q
        assert q == math.floor(math.sqrt(pfer * (2 * t - 1) * p))
        assert pfer_bound(q, p, t) <= pfer
        if q < p:
            assert pfer_bound(q + 1, p, t) > pfer


def test_unimodal_q_and_threshold_from_the_target():
    got = stability_parameters(100, threshold=0.9, pfer=1.0, bound="unimodal", n_pairs=50)
    assert got.pfer_bound <= 1.0
    assert pfer_bound(got.q + 1, 100, 0.9, bound="unimodal", n_pairs=50) > 1.0
    got = stability_parameters(100, q=10, pfer=1.0, bound="unimodal", n_pairs=50)
    assert got.pfer_bound <= 1.0
    assert round(got.threshold * 100) == got.threshold * 100  # on the j/(2B) grid
    lower = got.threshold - 0.01
    if lower > 0.5:
        try:
            assert pfer_bound(10, 100, lower, bound="unimodal", n_pairs=50) > 1.0
        except ValueError:
            pass  # outside the bound's range: not a candidate either


def test_defaults_threshold_then_pfer():
    got = stability_parameters(100)
    assert (got.threshold, got.q) == (0.9, 8)  # ⌊√(0.8·100)⌋
    assert stability_parameters(100, q=5).threshold == 0.9


# ------------------------------------------------------------------ subsamples and counts
def test_complementary_pairs_are_disjoint_halves():
    y = np.repeat([0, 1, 2], [11, 20, 7])
    halves = subsample_halves(y, 10, complementary_pairs=True, stratify=False, random_state=1)
    assert len(halves) == 10
    for a, b in zip(halves[::2], halves[1::2]):
        assert a.shape[0] == b.shape[0] == y.shape[0] // 2
        assert not set(a) & set(b)
    strat = subsample_halves(y, 4, complementary_pairs=True, stratify=True, random_state=1)
    for h in strat:
        assert np.bincount(y[h]).tolist() == [5, 10, 3]
    assert not set(strat[0]) & set(strat[1])


def test_independent_halves_without_replacement():
    y = np.repeat([0, 1], 25)
    halves = subsample_halves(y, 7, complementary_pairs=False, stratify=False, random_state=3)
    assert len(halves) == 7
    for h in halves:
        assert h.shape[0] == 25 and np.unique(h).shape[0] == 25


def test_selection_probabilities_recounted_by_hand():
    X, y = _sim(4, p=20)
    sel = StabilitySelector(q=4, threshold=0.7, n_subsamples=16, random_state=0).fit(X, y)
    counts = np.zeros(20)
    for rows in sel.subsamples_:
        F = f_classif(X[rows], y[rows])[0]
        counts[np.argsort(-F, kind="stable")[:4]] += 1
    assert np.array_equal(sel.selection_probabilities_, counts / 16)
    assert np.array_equal(sel.support_, counts / 16 >= 0.7)
    assert sel.n_features_ == int(sel.support_.sum())


def test_path_and_ranking_are_consistent():
    X, y = _sim(5, p=25)
    sel = StabilitySelector(q=3, threshold=0.8, n_subsamples=20, random_state=0).fit(X, y)
    path = sel.selection_path_
    assert path.index[0] == 1 and path.index[-1] == 20
    assert np.array_equal(path.loc[3].to_numpy(), sel.selection_probabilities_)
    assert (np.diff(path.to_numpy(), axis=0) >= 0).all()  # Π̂ grows with q
    assert np.allclose(path.to_numpy().sum(axis=1), path.index.to_numpy())  # q per half
    assert (sel.ranking_[sel.support_] == 1).all()
    rest = sel.ranking_[~sel.support_]
    assert sorted(rest.tolist()) == list(range(2, 2 + rest.shape[0]))
    ordered = np.argsort(sel.ranking_, kind="stable")
    probs = sel.selection_probabilities_[ordered]
    assert (np.diff(probs) <= 0).all()


def test_seeded_and_independent_of_n_jobs():
    X, y = _sim(6, p=15)
    a = StabilitySelector(q=3, n_subsamples=10, random_state=9).fit(X, y)
    b = StabilitySelector(q=3, n_subsamples=10, random_state=9, n_jobs=2).fit(X, y)
    assert np.array_equal(a.positions_, b.positions_)
    c = StabilitySelector(q=3, n_subsamples=10, random_state=10).fit(X, y)
    assert not all(np.array_equal(s, t) for s, t in zip(a.subsamples_, c.subsamples_))


def test_dataframe_names_flow_and_caller_data_unchanged():
    X, y = _sim(7, p=8)
    frame = pd.DataFrame(X, columns=[f"g{i}" for i in range(8)])
    before = frame.copy()
    sel = StabilitySelector(q=2, threshold=0.6, n_subsamples=10, random_state=0).fit(frame, y)
    pd.testing.assert_frame_equal(frame, before)
    assert list(sel.selection_path_.columns) == list(frame.columns)
    assert set(sel.get_feature_names_out()) <= set(frame.columns)


def test_check_estimator():
    check_estimator(StabilitySelector(q=1, threshold=0.6, n_subsamples=4, random_state=0))


# ------------------------------------------------------------------ EnsembleSelector rule
def test_ensemble_stability_rule_is_the_stability_selector():
    X, y = _sim(8, p=20)
    ens = EnsembleSelector(rankers=("f_classif", "relieff"),
                           n_features_to_select="stability:q=4,threshold=0.7,n_subsamples=10",
                           random_state=0).fit(X, y)
    stab = ens.stability_selection_
    assert isinstance(stab, StabilitySelector)
    assert (stab.q_, stab.threshold_, stab.n_subsamples_) == (4, 0.7, 10)
    assert np.array_equal(ens.support_, stab.support_)
    assert ens.n_features_ == stab.n_features_
    again = StabilitySelector(rankers=("f_classif", "relieff"), q=4, threshold=0.7,
                              n_subsamples=10, random_state=stab.random_state,
                              tie_break="index").fit(X, y)
    assert np.array_equal(again.positions_, stab.positions_)
    refit = EnsembleSelector(rankers=("f_classif", "relieff"),
                             n_features_to_select="stability:q=4,threshold=0.7,n_subsamples=10",
                             random_state=0).fit(X, y)
    assert np.array_equal(refit.stability_selection_.positions_, stab.positions_)
    assert (ens.ranking_[ens.support_] == 1).all()
    assert EnsembleSelector(n_features_to_select=3).fit(X, y).stability_selection_ is None


@pytest.mark.parametrize("params, exc, words", [
    ({"n_features_to_select": "stability:foo=1"}, ValueError, "takes q, threshold"),
    ({"n_features_to_select": "stability:q=0"}, ValueError, "q must be"),
    ({"n_features_to_select": "stability:q=12,threshold=0.9,pfer=1"}, ValueError,
     "not all three"),
    ({"n_features_to_select": "stability", "list_weights": "accuracy"}, ValueError,
     "list_weights"),
    ({"n_features_to_select": "stability", "tol": 0.01}, ValueError, "searched size"),
    ({"n_features_to_select": "stabilty"}, ValueError, "stability"),
])
def test_ensemble_stability_rule_hostile(params, exc, words):
    X, y = _sim(0, p=10)
    with pytest.raises(exc, match=words):
        EnsembleSelector(rankers=("f_classif",), **params).fit(X, y)


# ------------------------------------------------------------------ hostile inputs
HOSTILE = [
    ({"q": 0}, ValueError, "q must"),
    ({"q": 1.5}, ValueError, "q must"),
    ({"q": 11}, ValueError, "exceeds the number of features"),
    ({"q": "5"}, TypeError, "q must"),
    ({"threshold": 0.5}, ValueError, "threshold must"),
    ({"threshold": 1.2}, ValueError, "threshold must"),
    ({"threshold": "0.9"}, TypeError, "threshold must"),
    ({"pfer": 0}, ValueError, "pfer must"),
    ({"pfer": -1.0}, ValueError, "pfer must"),
    ({"pfer": float("inf")}, ValueError, "pfer must"),
    ({"pfer": float("nan")}, ValueError, "pfer"),
    ({"q": 2, "threshold": 0.8, "pfer": 1.0}, ValueError, "not all three"),
    ({"q": 5, "pfer": 0.5}, ValueError, "> 1"),
    ({"threshold": 0.55, "pfer": 0.01}, ValueError, "allows no q"),
    ({"n_subsamples": 7}, ValueError, "even"),
    ({"n_subsamples": 1}, ValueError, "n_subsamples"),
    ({"bound": "r-concave"}, ValueError, "bound"),
    ({"bound": "unimodal", "complementary_pairs": False}, ValueError, "complementary"),
    ({"aggregation": "fuzzy:EW"}, ValueError, "bootstrap"),
    ({"aggregation": "nope"}, ValueError, "nope"),
    ({"rankers": []}, ValueError, "at least one ranker"),
    ({"rankers": ["no_such"]}, ValueError, "no_such"),
    ({"tie_break": "coin"}, ValueError, "tie_break"),
    ({"path_max": 0}, ValueError, "path_max"),
    ({"random_state": -2}, ValueError, "random_state"),
    ({"stratify": "yes"}, TypeError, "stratify"),
]


@pytest.mark.parametrize("params, exc, words", HOSTILE, ids=[str(h[0]) for h in HOSTILE])
def test_hostile_parameters(params, exc, words):
    X, y = _sim(0, n=40, p=10)
    with pytest.raises(exc, match=words):
        StabilitySelector(**{"n_subsamples": 4, **params}).fit(X, y)


HOSTILE_DATA = [
    ("nan", lambda X, y: (np.where(np.eye(*X.shape, dtype=bool), np.nan, X), y), "NaN"),
    ("one class", lambda X, y: (X, np.zeros_like(y)), "class"),
    ("continuous y", lambda X, y: (X, np.linspace(0, 1, y.shape[0])), "continuous"),
    ("short y", lambda X, y: (X, y[:-1]), "inconsistent numbers of samples"),
    ("singleton class", lambda X, y: (X, np.r_[y[:-1], 7]), "at least 2 rows"),
]


@pytest.mark.parametrize("make, words", [h[1:] for h in HOSTILE_DATA],
                         ids=[h[0] for h in HOSTILE_DATA])
def test_hostile_data(make, words):
    X, y = make(*_sim(0, n=40, p=10))
    with pytest.raises(ValueError, match=words):  # a classifier's ranker: y must be classes
        StabilitySelector(rankers=["f_classif"], q=2, n_subsamples=4).fit(X, y)


@pytest.mark.parametrize("call, words", [
    (lambda: pfer_bound(0, 10, 0.9), "q must"),
    (lambda: pfer_bound(3, 10, 0.4), "threshold"),
    (lambda: pfer_bound(3, 10, 0.9, bound="unimodal"), "n_pairs"),
    (lambda: pfer_bound(3, 10, 0.9, bound="x"), "bound"),
    (lambda: stability_parameters(10, bound="unimodal"), "n_pairs"),
    (lambda: subsample_halves([0, 1, 0, 1], 3), "even"),
    (lambda: subsample_halves([0, 1, 1, 1], 2), "at least 2 rows"),
    (lambda: subsample_halves([0, 1, 1], 2, stratify=False), "at least 4"),
])
def test_hostile_functions(call, words):
    with pytest.raises(ValueError, match=words):
        call()


# ------------------------------------------------------------------ the plot
def test_path_plot():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    from rankfusion.evaluation.plots import plot_stability_path

    X, y = _sim(1, p=20)
    sel = StabilitySelector(q=3, threshold=0.8, n_subsamples=10, random_state=0).fit(X, y)
    fig = plot_stability_path(sel, title="t")
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    labels = ax.get_legend_handles_labels()[1]
    names = [str(n) for n in np.asarray(sel.selection_path_.columns)[sel.support_]]
    assert set(names) <= set(labels)
    assert "threshold π = 0.80" in labels and "q = 3" in labels
    assert len(ax.lines) == 20 + 2
    with pytest.raises(TypeError, match="path must"):
        plot_stability_path([[0.5]])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        plot_stability_path(pd.DataFrame([[1.5]], index=[1]))
    with pytest.raises(ValueError, match="not in the path"):
        plot_stability_path(sel.selection_path_, q=99)
    with pytest.raises(ValueError, match="max_labels"):
        plot_stability_path(sel, max_labels=-1)


def test_work_estimate_counts_the_halves():
    from rankfusion.selection import ensemble_work

    sel = EnsembleSelector(rankers=("f_classif", "relieff"),
                           n_features_to_select="stability:n_subsamples=50")
    counts = ensemble_work(sel, 100, 20).counts
    assert counts["ranker calls"] == 2 + 2 * 50
    assert counts["aggregations"] == 1 + 50
    assert counts["classifier fits"] == 0
