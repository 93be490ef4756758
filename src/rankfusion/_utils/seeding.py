"""One seeding rule for every random step (docs/design.md, "Seeds").

``random_state`` everywhere means:

* ``None`` — fresh entropy from the operating system (a different result on each call);
* an ``int`` ≥ 0, a :class:`numpy.random.SeedSequence` or a :class:`numpy.random.Generator`
  — deterministic: the same value gives the same result.

Work that is split into pieces (resamples, binary problems, restarts) draws one *child stream*
per piece with :func:`spawn`, which uses :meth:`numpy.random.SeedSequence.spawn`. Child ``i``
depends only on the parent seed and on ``i``, never on how many workers run or in which order
the pieces finish, so a parallel or distributed run gives the same result for any ``n_jobs``.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["check_random_state", "spawn", "seed_int", "RandomState"]

RandomState = "None | int | numpy.random.SeedSequence | numpy.random.Generator"


def _seed_sequence(random_state, *, name: str) -> np.random.SeedSequence:
    """The :class:`~numpy.random.SeedSequence` behind ``random_state`` (see the module doc)."""
    if random_state is None:
        return np.random.SeedSequence()
    if isinstance(random_state, np.random.SeedSequence):
        return random_state
    if isinstance(random_state, np.random.Generator):
        # a Generator is consumed: draw the entropy of a new sequence from it
        return np.random.SeedSequence(seed_int(random_state, bits=63, size=4).tolist())
    if isinstance(random_state, (bool, np.bool_)) or not isinstance(random_state, numbers.Integral):
        raise TypeError(
            f"{name} must be None, an int ≥ 0, a numpy SeedSequence or a numpy Generator; "
            f"got {type(random_state).__name__}"
        )
    if random_state < 0:
        raise ValueError(f"{name} must be ≥ 0; got {int(random_state)}")
    return np.random.SeedSequence(int(random_state))


def check_random_state(random_state, *, name: str = "random_state") -> np.random.Generator:
    """A :class:`numpy.random.Generator` from ``random_state``.

    Parameters
    ----------
    random_state : None, int, SeedSequence or Generator
        ``None`` = fresh entropy; an int ≥ 0 or a ``SeedSequence`` = a new generator seeded
        from it; a ``Generator`` is returned as is (so successive calls continue its stream).
    name : str
        The argument's name in error messages.

    Raises
    ------
    TypeError
        For a bool, a float or any other type.
    ValueError
        For a negative int.

    Examples
    --------
    >>> a = check_random_state(3).integers(100, size=3)
    >>> b = check_random_state(3).integers(100, size=3)
    >>> bool((a == b).all())
    True
    """
    if isinstance(random_state, np.random.Generator):
        return random_state
    return np.random.default_rng(_seed_sequence(random_state, name=name))


def spawn(random_state, n: int, *, name: str = "random_state") -> list[np.random.SeedSequence]:
    """``n`` independent child seed sequences of ``random_state``.

    Child ``i`` depends only on ``random_state`` and ``i``: give piece ``i`` of a computation
    ``np.random.default_rng(children[i])`` and its result is the same whatever the number of
    workers or the order in which the pieces run.

    Examples
    --------
    >>> import numpy as np
    >>> first = [np.random.default_rng(s).integers(100) for s in spawn(7, 3)]
    >>> again = [np.random.default_rng(s).integers(100) for s in spawn(7, 3)]
    >>> first == again
    True
    """
    if isinstance(n, (bool, np.bool_)) or not isinstance(n, numbers.Integral):
        raise TypeError(f"n must be an int, got {type(n).__name__}")
    if n < 0:
        raise ValueError(f"n must be ≥ 0, got {n}")
    return _seed_sequence(random_state, name=name).spawn(int(n))


def seed_int(random_state, *, name: str = "random_state", bits: int = 32, size=None):
    """An int seed for code that needs one (scikit-learn estimators, numba kernels, restarts).

    The one place where a random state or a stream becomes an int (docs/design.md, 'Seeds'):

    * an int in ``[0, 2**bits)`` is returned unchanged (so ``random_state=0`` keeps meaning
      seed 0);
    * a ``Generator`` draws ``integers(0, 2**bits - 1)`` (the high end is exclusive, so
      ``2**bits - 1`` itself is never drawn; kept so that every seed stays the one it was);
    * a ``SeedSequence`` gives its first word, ``generate_state`` (32-bit words for
      ``bits ≤ 32``, else 64-bit), shifted right to ``bits`` bits;
    * ``None`` draws from fresh entropy as a ``SeedSequence`` does.

    Parameters
    ----------
    random_state : None, int, SeedSequence or Generator
        Where the seed comes from.
    name : str, default "random_state"
        The argument's name in error messages.
    bits : int, default 32
        The width of the seed, from 1 to 63: 32 for scikit-learn's ``random_state`` (an int
        in ``[0, 2**32)``); 31 where a seed must fit a signed 32-bit int (the ranker and
        rule seeds of the selectors, Kemeny's restarts); 63 for the entropy drawn from a
        Generator.
    size : int, optional
        Draw this many seeds (an int64 array) from a ``Generator``, a ``SeedSequence`` or
        ``None``; an int ``random_state`` is one seed and takes no ``size``.

    Returns
    -------
    int or ndarray of int64
        One seed in ``[0, 2**bits)``, or ``size`` of them.

    Raises
    ------
    TypeError
        For a bool, a float or any other type.
    ValueError
        For an int outside ``[0, 2**bits)``, an int with ``size``, or ``bits`` outside 1–63.

    Examples
    --------
    >>> import numpy as np
    >>> seed_int(7)
    7
    >>> seq = np.random.SeedSequence(3)
    >>> seed_int(seq, bits=31) == int(seq.generate_state(1, dtype=np.uint32)[0] >> 1)
    True
    """
    if isinstance(bits, (bool, np.bool_)) or not isinstance(bits, numbers.Integral) or not (
            1 <= bits <= 63):
        raise ValueError(f"bits must be an int from 1 to 63, got {bits!r}")
    bits = int(bits)
    is_bool = isinstance(random_state, (bool, np.bool_))
    if isinstance(random_state, numbers.Integral) and not is_bool:
        if size is not None:
            raise ValueError(f"{name} given as an int is one seed: it takes no size")
        if not 0 <= random_state < 2**bits:
            raise ValueError(f"{name} must lie in [0, 2**{bits}) when given as an int; "
                             f"got {int(random_state)}")
        return int(random_state)
    if isinstance(random_state, np.random.Generator):
        out = random_state.integers(0, 2**bits - 1, size=size)
        return int(out) if size is None else out.astype(np.int64)
    seq = _seed_sequence(random_state, name=name)
    width = 32 if bits <= 32 else 64
    words = seq.generate_state(1 if size is None else int(size),
                               dtype=np.uint32 if width == 32 else np.uint64)
    words = words >> np.array(width - bits, dtype=words.dtype)
    return int(words[0]) if size is None else words.astype(np.int64)
