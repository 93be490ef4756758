"""The seeding rule (docs/design.md, "Seeds"); oracle: numpy's own SeedSequence/Generator."""

import numpy as np
import pytest

from rankfusion._utils.seeding import check_random_state, seed_int, spawn


def test_ints_and_seed_sequences_are_deterministic():
    a = check_random_state(5).random(4)
    np.testing.assert_array_equal(a, np.random.default_rng(np.random.SeedSequence(5)).random(4))
    seq = np.random.SeedSequence(9)
    np.testing.assert_array_equal(check_random_state(seq).random(3),
                                  np.random.default_rng(np.random.SeedSequence(9)).random(3))


def test_a_generator_is_used_as_is():
    g = np.random.default_rng(1)
    assert check_random_state(g) is g


def test_none_is_fresh_entropy():
    draws = {tuple(check_random_state(None).integers(0, 2**62, size=2)) for _ in range(5)}
    assert len(draws) == 5
    assert len({seed_int(None) for _ in range(8)}) > 1


def test_children_do_not_depend_on_how_many_or_in_which_order():
    three = [np.random.default_rng(s).random() for s in spawn(11, 3)]
    five = [np.random.default_rng(s).random() for s in spawn(11, 5)]
    assert three == five[:3]
    backwards = [np.random.default_rng(s).random() for s in reversed(spawn(11, 3))]
    assert backwards[::-1] == three
    assert len(set(five)) == 5
    oracle = np.random.SeedSequence(11).spawn(3)
    assert three == [np.random.default_rng(s).random() for s in oracle]


def test_seed_int_keeps_ints_and_draws_from_generators():
    assert seed_int(0) == 0 and seed_int(2**32 - 1) == 2**32 - 1
    assert seed_int(np.random.default_rng(3)) == int(
        np.random.default_rng(3).integers(0, 2**32 - 1))
    assert seed_int(np.random.SeedSequence(4)) == seed_int(np.random.SeedSequence(4))


@pytest.mark.parametrize(("value", "exc", "match"), [
    (True, TypeError, "random_state"),
    (np.bool_(False), TypeError, "random_state"),
    (1.5, TypeError, "random_state"),
    ("0", TypeError, "random_state"),
    (-1, ValueError, "random_state must be ≥ 0"),
    (np.random.RandomState(0), TypeError, "random_state"),
])
def test_hostile_random_states(value, exc, match):
    with pytest.raises(exc, match=match):
        check_random_state(value)
    with pytest.raises(exc, match=match):
        spawn(value, 2)


@pytest.mark.parametrize(("n", "exc"), [(-1, ValueError), (1.0, TypeError), (True, TypeError)])
def test_hostile_spawn_counts(n, exc):
    with pytest.raises(exc, match="n must"):
        spawn(0, n)


def test_seed_int_refuses_seeds_beyond_uint32():
    with pytest.raises(ValueError, match=r"\[0, 2\*\*32\)"):
        seed_int(2**32)


def test_seed_int_bits_and_size_reproduce_the_spellings_it_replaced():
    # each oracle is the expression that the callers used before seed_int took bits and size
    for i in range(20):
        seq = np.random.SeedSequence(i)
        assert seed_int(seq, bits=31) == int(seq.generate_state(1, dtype=np.uint32)[0] >> 1)
        np.testing.assert_array_equal(seed_int(seq, size=3), seq.generate_state(3))
        assert seed_int(np.random.default_rng(seq), bits=31) == int(
            np.random.default_rng(seq).integers(0, 2**31 - 1))
        np.testing.assert_array_equal(seed_int(np.random.default_rng(i), bits=31, size=5),
                                      np.random.default_rng(i).integers(0, 2**31 - 1, size=5))
        g = np.random.default_rng(i)
        assert check_random_state(g).integers(9) == np.random.default_rng(i).integers(9)
        a = spawn(np.random.default_rng(i), 1)[0].entropy
        b = np.random.default_rng(i).integers(0, 2**63 - 1, size=4).tolist()
        assert a == b
    drawn = seed_int(np.random.SeedSequence(5), bits=31, size=100)
    assert drawn.dtype == np.int64 and drawn.min() >= 0 and drawn.max() < 2**31


@pytest.mark.parametrize(("args", "kw", "match"), [
    ((3,), {"size": 2}, "takes no size"),
    ((2**31,), {"bits": 31}, r"\[0, 2\*\*31\)"),
    ((0,), {"bits": 0}, "bits must be an int from 1 to 63"),
    ((0,), {"bits": 64}, "bits must be an int from 1 to 63"),
    ((0,), {"bits": True}, "bits must be an int from 1 to 63"),
])
def test_seed_int_hostile_bits_and_sizes(args, kw, match):
    with pytest.raises(ValueError, match=match):
        seed_int(*args, **kw)
