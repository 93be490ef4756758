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
        return np.random.SeedSequence(random_state.integers(0, 2**63 - 1, size=4).tolist())
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


def seed_int(random_state, *, name: str = "random_state") -> int:
    """A uint32 seed for code that needs an int (scikit-learn estimators, numba kernels).

    An int in ``[0, 2**32)`` is returned unchanged (so ``random_state=0`` keeps meaning seed 0);
    ``None`` draws from fresh entropy; a ``Generator`` or a ``SeedSequence`` gives a
    deterministic draw.
    """
    is_bool = isinstance(random_state, (bool, np.bool_))
    if isinstance(random_state, numbers.Integral) and not is_bool:
        if not 0 <= random_state < 2**32:
            raise ValueError(f"{name} must lie in [0, 2**32) when given as an int; "
                             f"got {int(random_state)}")
        return int(random_state)
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2**32 - 1))
    seq = _seed_sequence(random_state, name=name)
    return int(seq.generate_state(1, dtype=np.uint32)[0])
