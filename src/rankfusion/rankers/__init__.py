"""Feature rankers: each ``f(X, y, **params)`` returns one score per feature, higher = better.

Modules register their rankers by name (:func:`get_ranker`, :func:`available_rankers`).
"""

from ._registry import available_rankers, get_ranker, register_ranker

__all__ = ["available_rankers", "get_ranker", "register_ranker"]
