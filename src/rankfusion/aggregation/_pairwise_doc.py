"""The parameter documentation shared by the pairwise rules (Copeland, Schulze, Kemeny):
``candidates`` and ``max_memory`` mean the same in each, so they are written once and filled
into each docstring by :func:`pairwise_doc`."""

from __future__ import annotations

__all__ = ["PAIRWISE_PARAMS", "pairwise_doc"]

#: numpydoc entries of ``candidates`` and ``max_memory`` (no indentation).
PAIRWISE_PARAMS = """\
candidates : int or float, optional
    Run the rule on the *candidates* only: the union of every list's top-k features
    (the features some list places at position ≤ k; an int ≥ 1 is k, a float in (0, 1]
    a fraction of p). Every pairwise comparison among candidates is exact: it uses the
    full lists' positions (``d[i, j]`` counts every list, as without ``candidates``);
    comparisons with the other features are not made. The other features follow all
    the candidates, in Borda's order (lowest weighted mean position, i.e. highest mean
    relative ranking, then the lower index); their score is below every candidate's.
    Guarantee: whenever every list ranks all the candidates above all the other
    features, the candidates' order (the first n places) equals the full rule's, since
    each candidate then beats each other feature in every list and no comparison with
    the others can change the order among candidates. Memory and time are those of the
    rule on n = number of candidates instead of p.
max_memory : float, optional
    Byte limit for the n × n matrices, checked before allocating (default: the
    ``RANKFUSION_MAX_MEMORY`` environment variable, else 75 % of physical memory;
    ``float("inf")`` disables the check). Above it the rule raises ``ValueError`` with its
    estimate, suggesting ``candidates=`` or a statistics rule such as ``borda``."""


def pairwise_doc(func):
    """Replace the line ``%(pairwise_params)s`` of ``func``'s docstring with
    :data:`PAIRWISE_PARAMS`, indented as that line is."""
    doc = func.__doc__ or ""
    marker = "%(pairwise_params)s"
    at = doc.index(marker)
    indent = doc[doc.rindex("\n", 0, at) + 1: at]
    text = "\n".join(indent + line if line else line for line in PAIRWISE_PARAMS.split("\n"))
    func.__doc__ = doc[: at - len(indent)] + text + doc[at + len(marker):]
    return func
