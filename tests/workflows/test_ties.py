"""Ties at a top-k cut-off in ``rank`` and ``aggregate``: reported, and broken by column order
(the exact default) or at random (seeded).

Oracles: hand-made data whose tied blocks are known (every score 0 but one), the positions
(which tie whatever the row order), and the same call with another seed.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from rankfusion import RankedLists
from rankfusion.cli import main
from rankfusion.workflows import run_aggregation, run_ranking
from rankfusion.workflows.ties import tie_note, tie_order


@pytest.fixture
def flat():
    # g0 carries the class; the 29 others are constant: information gain 0 for all of them
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 20)
    X = pd.DataFrame(np.zeros((40, 30), dtype=int), columns=[f"g{i}" for i in range(30)])
    X["g0"] = y
    X["y"] = y
    return X.sample(frac=1.0, random_state=rng.integers(1 << 30))


def test_rank_reports_a_top_that_cuts_through_ties(flat):
    run = run_ranking(flat, rankers="info_gain", top=5)
    table = run.tables()["scores"]
    assert table.index[0] == "g0"
    assert list(table.index[1:]) == ["g1", "g2", "g3", "g4"]  # column order
    assert (table["info_gain_pos"].iloc[1:] == 16.0).all()  # tied positions: the mean place
    notes = "\n".join(run.notes())
    assert "the top 5 cut through 29 features tied at info_gain = 0" in notes
    assert "4 of them shown were chosen by column order" in notes
    assert "tied" not in "\n".join(run_ranking(flat, rankers="info_gain", top=1).notes())
    assert "tied" not in "\n".join(run_ranking(flat, rankers="info_gain", top=0).notes())


def test_rank_random_tie_break_is_seeded_and_moves_only_the_ties(flat):
    a = run_ranking(flat, rankers="info_gain", top=0, tie_break="random", random_state=1)
    b = run_ranking(flat, rankers="info_gain", top=0, tie_break="random", random_state=1)
    c = run_ranking(flat, rankers="info_gain", top=0, tie_break="random", random_state=2)
    ta, tb, tc = (r.tables()["scores"] for r in (a, b, c))
    assert list(ta.index) == list(tb.index) != list(tc.index)
    assert ta.index[0] == tc.index[0] == "g0"
    pd.testing.assert_frame_equal(ta.sort_index(), tc.sort_index())  # same scores, positions
    top = run_ranking(flat, rankers="info_gain", top=5, tie_break="random", random_state=1)
    assert "chosen at random (tie_break='random', random_state=1)" in "\n".join(top.notes())


def test_rank_small_route_says_the_same(tmp_path, flat, capsys):
    path = tmp_path / "flat.csv"
    flat.to_csv(path, index=False)
    assert main(["rank", str(path), "--rankers", "info_gain", "--top", "5"]) == 0
    out = capsys.readouterr().out
    assert "the top 5 cut through 29 features tied" in out
    assert main(["rank", str(path), "--rankers", "info_gain", "--top", "5", "--tie-break",
                 "random", "--random-state", "3"]) == 0
    assert "random_state=3" in capsys.readouterr().out


def test_aggregate_reports_and_breaks_the_ties_it_leaves():
    scores = np.zeros((10, 3))
    scores[0] = 1.0
    lists = RankedLists.from_scores(scores, features=[f"f{i}" for i in range(10)])
    run = run_aggregation(lists, "borda", top=3)
    assert list(run.consensus.order[:3]) == [0, 1, 2]
    assert "the top 3 cut through 9 features tied at the borda score = 0.4" in \
        "\n".join(run.notes())
    a = run_aggregation(lists, "borda", top=3, tie_break="random", random_state=5)
    b = run_aggregation(lists, "borda", top=3, tie_break="random", random_state=5)
    c = run_aggregation(lists, "borda", top=3, tie_break="random", random_state=6)
    assert a.consensus.order[0] == 0  # the untied best stays first
    np.testing.assert_array_equal(a.consensus.order, b.consensus.order)
    assert not np.array_equal(a.consensus.order, c.consensus.order)
    np.testing.assert_array_equal(a.consensus.scores, run.consensus.scores)
    assert a.consensus.info["tie_break"] == {"rule": "random", "seed": 5}
    assert np.array_equal(np.sort(a.consensus.positions), np.arange(1, 11))


def test_aggregate_random_state_reaches_a_seeded_rule():
    lists = RankedLists.from_scores(np.random.default_rng(0).random((30, 4)))
    a = run_aggregation(lists, "ga", params={"max_iter": 5}, random_state=1)
    b = run_aggregation(lists, "ga", params={"max_iter": 5}, random_state=1)
    assert a.consensus.params["random_state"] == 1
    np.testing.assert_array_equal(a.consensus.order, b.consensus.order)
    # a seed in the parameters wins
    c = run_aggregation(lists, "ga", params={"max_iter": 5, "random_state": 9}, random_state=1)
    assert c.consensus.params["random_state"] == 9


def test_tie_order_and_note_by_hand():
    np.testing.assert_array_equal(tie_order([np.array([2, 1, 1, 0])]), [3, 1, 2, 0])
    assert tie_note([3.0, 2.0, 0.0, 0.0], 3, what="x", tie_break="index") is not None
    assert tie_note([3.0, 2.0, 1.0, 0.0], 3, what="x", tie_break="index") is None
    assert tie_note([3.0, 0.0, 0.0], 3, what="x", tie_break="index") is None  # keeps all


HOSTILE = [
    ({"tie_break": "Random"}, ValueError, "tie_break must be one of"),
    ({"tie_break": ""}, ValueError, "tie_break must be one of"),
    ({"tie_break": None}, ValueError, "tie_break must be one of"),
    ({"tie_break": 1}, ValueError, "tie_break must be one of"),
    ({"tie_break": "random", "random_state": "1"}, TypeError, "random_state"),
    ({"tie_break": "random", "random_state": 1.5}, TypeError, "random_state"),
    ({"tie_break": "random", "random_state": True}, TypeError, "random_state"),
    ({"tie_break": "random", "random_state": -1}, ValueError, "random_state"),
]


@pytest.mark.parametrize(("kwargs", "exc", "match"), HOSTILE)
def test_tie_arguments_hostile(flat, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        run_ranking(flat, rankers="info_gain", **kwargs)
    lists = RankedLists.from_orders([list("abc"), list("bca")])
    with pytest.raises(exc, match=match):
        run_aggregation(lists, "borda", **kwargs)


@pytest.mark.parametrize("argv", [["--tie-break", "foo"], ["--tie-break"],
                                  ["--random-state", "x"], ["--random-state", "1.5"]])
def test_tie_flags_hostile_on_the_command_line(tmp_path, flat, argv, capsys):
    path = tmp_path / "flat.csv"
    flat.to_csv(path, index=False)
    with pytest.raises(SystemExit) as err:
        main(["rank", str(path), *argv])
    assert err.value.code == 2
    assert "usage: rankfusion rank" in capsys.readouterr().err


def test_tied_blocks_and_break_ties_by_hand():
    from rankfusion import aggregate
    from rankfusion.aggregation import break_ties, tied_blocks

    # borda on three features: f0 best, f1 and f2 tied (same score, same everything)
    c = aggregate(np.array([[3.0, 3.0], [1.0, 1.0], [1.0, 1.0]]), "borda")
    assert tied_blocks(c).tolist() == [0, 1, 1]
    assert break_ties(c, "index") is c
    orders = {tuple(break_ties(c, "random", s).order) for s in range(20)}
    assert orders == {(0, 1, 2), (0, 2, 1)}  # only the tied pair moves, both ways
    # a secondary key that differs is no tie: average_sd splits equal means by their spread
    lists = RankedLists.from_positions(np.array([[1.0, 1.0], [2.0, 3.0], [3.0, 2.0]]))
    c = aggregate(lists, "median")
    assert len(set(tied_blocks(c).tolist())) == len(set(zip(c.scores, c.tiebreak)))
    with pytest.raises(ValueError, match="tie_break must be one of"):
        break_ties(c, "shuffle")


def test_ensemble_selector_reports_and_breaks_ties_at_the_cut():
    import warnings

    from sklearn.base import clone

    from rankfusion import EnsembleSelector

    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 20)
    X = np.zeros((40, 30))
    X[:, 0] = y
    X[:, 1] = y * 0.5 + rng.normal(0, 0.1, 40)
    base = EnsembleSelector(rankers=["info_gain"], n_features_to_select=5, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        idx = clone(base).fit(X, y)
        rnd = [clone(base).set_params(tie_break="random", random_state=s).fit(X, y)
               for s in (0, 0, 1)]
    # g0 and g1 carry the class; the 28 constant ones tie at 0 and fill the last 3 places
    assert idx.cutoff_ties_ == {"n_tied": 28, "n_kept": 3, "cuts_ties": True,
                                "tie_break": "index"}
    assert list(np.flatnonzero(idx.support_)) == [0, 1, 2, 3, 4]  # column order
    a, b, c = (np.flatnonzero(r.support_) for r in rnd)
    assert list(a) == list(b) != list(c)  # seeded
    assert {0, 1} <= set(a) and {0, 1} <= set(c)  # the informative ones always stay
    np.testing.assert_array_equal(rnd[0].scores_, idx.scores_)  # only the order of ties moves
    # the default keeps every earlier result: index order, whatever the other streams
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        again = clone(base).set_params(tie_break="index").fit(X, y)
    np.testing.assert_array_equal(again.positions_, idx.positions_)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        two = EnsembleSelector(rankers=["info_gain"], n_features_to_select=2).fit(X, y)
    assert two.cutoff_ties_["cuts_ties"] is False  # g0 and g1 tie at the top: both kept


@pytest.mark.parametrize("bad", ["Random", "", None, 1, "shuffle"])
def test_ensemble_selector_tie_break_hostile(bad):
    from rankfusion import EnsembleSelector

    X = np.random.default_rng(0).normal(size=(20, 4))
    y = np.repeat([0, 1], 10)
    with pytest.raises((ValueError, TypeError), match="tie_break"):
        EnsembleSelector(rankers=["f_classif"], tie_break=bad).fit(X, y)


def test_select_command_notes_ties(tmp_path, flat, capsys):
    path = tmp_path / "flat.csv"
    flat.to_csv(path, index=False)
    assert main(["select", str(path), "--rankers", "info_gain", "--subset", "5",
                 "--no-progress"]) == 0
    out = capsys.readouterr()
    assert "come from 29 the consensus leaves tied" in out.out + out.err
