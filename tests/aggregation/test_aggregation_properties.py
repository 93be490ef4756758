"""Invariants of every registered aggregation rule (hypothesis), by the promises each rule
declares on its registry entry (``register_rule(..., invariants=(...))``).

Every test runs over ``available_rules()`` and takes the rules whose entry declares its
invariant, so a new rule declaring one is tested automatically; the vocabulary is
``rankfusion.aggregation._registry.INVARIANTS`` (an unknown name is refused at registration).
A rule parameter that changes the order (the SD tie break of ``average_sd`` and ``q3_sd``) runs
its non-default values too, as rule specs (``VARIANTS``). The invariants:

* ``permute_lists`` — permuting the lists (and their weights) changes neither the order nor the
  scores, ties inside lists included (docs/design.md, 'Exact keys');
* ``relabel`` — renaming the features permutes the scores with them, and the order too where no
  two features share their keys (the lower-index tie break then plays no part);
* ``relabel_objective`` — for an optimisation rule whose optimum may not be unique: renaming the
  features leaves the optimal objective unchanged;
* ``unanimity`` — identical lists without ties come back as that order;
* ``condorcet`` — a feature beating every other one in pairwise majority comes first;
* ``seeded`` — a random rule gives the same result twice for the same ``random_state``
  (int or Generator) (docs/design.md, 'Seeds').

The random and optimisation rules (``ga``, ``ce``, ``kemeny``) run on tiny inputs with few
generations, so the file stays fast on a 2-core machine.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rankfusion import RankedLists, aggregate
from rankfusion.aggregation import available_rules, pairwise_matrix, rule_info
from rankfusion.aggregation._registry import INVARIANTS

P, R, RO, U, C, S = INVARIANTS

# Small settings for the costly rules (tiny inputs keep every search exact and quick).
_FAST = {
    "ga": dict(population=20, max_iter=20, conv_in=5),
    "ce": dict(max_iter=10, conv_in=3),
    "kemeny": dict(restarts=2),
}


def params(method, p, m=2):
    """Keyword arguments for ``method`` on p features and m lists."""
    kw = dict(_FAST.get(method, {}))
    if method == "fuzzy" and m < 2:
        kw["weighting"] = "EW"  # one bootstrap list: OW and RW need two (an SD)
    if method in ("ga", "ce"):
        kw["k"] = min(3, p)
    if method in ("ga", "ce", "kemeny"):
        kw["random_state"] = 0
    return kw


def run(scores_or_lists, method, **extra):
    p, m = scores_or_lists.shape
    return aggregate(scores_or_lists, method, **{**params(method, p, m), **extra})


#: Non-default parameter values that change a rule's order, checked against the same promises
#: as the default (a rule spec ``NAME:PARAM=VALUE`` each).
VARIANTS = {
    "average_sd": ["average_sd:sd_tie_break=min"],
    "q3_sd": ["q3_sd:sd_tie_break=min"],
}


def rule_name(spec):
    """The registered name of a rule spec (``"q3_sd:sd_tie_break=min"`` → ``"q3_sd"``)."""
    return spec.split(":", 1)[0]


def rules(tag):
    names = [m for m in available_rules() if tag in rule_info(m).invariants]
    return names + [v for m in names for v in VARIANTS.get(m, [])]


def test_every_registered_rule_declares_its_promises():
    empty = [m for m in available_rules() if not rule_info(m).invariants]
    assert not empty, f"rules promising nothing: {empty}"
    for m in available_rules():
        assert set(rule_info(m).invariants) <= set(INVARIANTS), m


def test_an_unknown_invariant_is_refused_at_registration():
    from rankfusion.aggregation import register_rule

    with pytest.raises(ValueError, match="unknown invariant"):
        register_rule("never_registered", invariants=("commutative",))


def test_the_tag_table_is_not_vacuous():
    # each invariant below runs on at least the rules the papers are about
    assert {"average_sd:sd_tie_break=min", "q3_sd:sd_tie_break=min"} <= set(rules(P))
    assert {"average_sd:sd_tie_break=min", "q3_sd:sd_tie_break=min"} <= set(rules(U))
    assert {"copeland", "schulze", "kemeny"} <= set(rules(C))
    assert {"kemeny", "ga", "ce"} <= set(rules(S))
    assert {"kfirst", "schulze", "kemeny", "rra"} <= set(rules(P))


@st.composite
def untied_scores(draw, max_p=7, max_m=5):
    """Scores of M full lists without ties inside a list (each column a permutation)."""
    p = draw(st.integers(1, max_p))
    m = draw(st.integers(1, max_m))
    cols = [draw(st.permutations(range(p))) for _ in range(m)]
    return np.array(cols, dtype=float).T


@st.composite
def tied_scores(draw, max_p=7, max_m=5):
    p = draw(st.integers(1, max_p))
    m = draw(st.integers(1, max_m))
    vals = draw(st.lists(st.integers(0, 3), min_size=p * m, max_size=p * m))
    return np.array(vals, dtype=float).reshape(p, m)


_SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("method", rules(P))
@settings(max_examples=15, **_SETTINGS)
@given(scores=tied_scores(), data=st.data())
def test_permuting_lists_changes_nothing(method, scores, data):
    perm = list(data.draw(st.permutations(range(scores.shape[1]))))
    a = run(scores, method)
    b = run(scores[:, perm], method)
    np.testing.assert_array_equal(a.order, b.order)
    np.testing.assert_array_equal(a.scores, b.scores)
    if rule_info(rule_name(method)).weights:
        w = np.array(data.draw(st.lists(st.floats(0.1, 3.0), min_size=scores.shape[1],
                                        max_size=scores.shape[1])))
        wa = run(scores, method, weights=w)
        wb = run(scores[:, perm], method, weights=w[perm])
        np.testing.assert_array_equal(wa.order, wb.order)


@pytest.mark.parametrize("method", rules(R))
@settings(max_examples=15, **_SETTINGS)
@given(scores=untied_scores(), data=st.data())
def test_relabelling_features_permutes_the_output(method, scores, data):
    p = scores.shape[0]
    perm = np.array(data.draw(st.permutations(range(p))))  # new feature i is old perm[i]
    a = run(scores, method)
    b = run(scores[perm], method)
    np.testing.assert_array_equal(b.scores, a.scores[perm])
    second = a.tiebreak if a.tiebreak is not None else a.scores
    keys = set(zip(np.round(a.scores, 9), np.round(second, 9)))
    if len(keys) == p:  # no key ties: the index tie break plays no part
        np.testing.assert_array_equal(perm[b.order], a.order)


@pytest.mark.parametrize("method", rules(RO))
@settings(max_examples=8, **_SETTINGS)
@given(scores=untied_scores(max_p=6, max_m=4), data=st.data())
def test_relabelling_features_keeps_the_optimum(method, scores, data):
    p = scores.shape[0]
    perm = np.array(data.draw(st.permutations(range(p))))
    a = run(scores, method)
    b = run(scores[perm], method)
    assert a.info["optimal"] and b.info["optimal"]  # tiny inputs: both proven optimal
    assert a.info["objective"] == pytest.approx(b.info["objective"], abs=1e-9)


@pytest.mark.parametrize("method", rules(U))
@settings(max_examples=12, **_SETTINGS)
@given(p=st.integers(1, 8), m=st.integers(1, 5), data=st.data())
def test_unanimous_lists_come_back_unchanged(method, p, m, data):
    order = data.draw(st.permutations(range(p)))
    scores = np.empty((p, m))
    scores[list(order), :] = np.arange(p, 0, -1)[:, None]
    assert run(scores, method).order.tolist() == list(order)


@pytest.mark.parametrize("method", rules(C))
@settings(max_examples=20, **_SETTINGS)
@given(scores=untied_scores(max_p=7, max_m=5))
def test_condorcet_winner_comes_first(method, scores):
    lists = RankedLists.from_scores(scores)
    d = pairwise_matrix(lists).astype(int)
    p = d.shape[0]
    winners = [i for i in range(p) if all(d[i, j] > d[j, i] for j in range(p) if j != i)]
    assume(winners)
    assert run(lists, method).order[0] == winners[0]


@pytest.mark.parametrize("method", rules(S))
@settings(max_examples=6, **_SETTINGS)
@given(scores=tied_scores(max_p=6, max_m=4), seed=st.integers(0, 2**32 - 1))
def test_a_seed_fixes_the_result(method, scores, seed):
    a = run(scores, method, random_state=seed)
    b = run(scores, method, random_state=seed)
    np.testing.assert_array_equal(a.order, b.order)
    np.testing.assert_array_equal(a.scores, b.scores)
    g1 = run(scores, method, random_state=np.random.default_rng(seed))
    g2 = run(scores, method, random_state=np.random.default_rng(seed))
    np.testing.assert_array_equal(g1.order, g2.order)


@settings(max_examples=30, deadline=None)
@given(scores=tied_scores())
def test_kfirst_with_k_p_is_linear_in_average_sd(scores):
    p = scores.shape[0]
    kf = aggregate(scores, "kfirst", k=p)
    av = aggregate(scores, "average_sd")
    np.testing.assert_allclose(kf.scores, av.scores + 1.0 / p, atol=1e-12)
    # same primary key: the features kfirst puts in a block of equal keys are the same
    np.testing.assert_array_equal(np.argsort(-kf.scores, kind="stable"),
                                  np.argsort(-av.scores, kind="stable"))
