"""Loaders for the real datasets bundled with rankfusion (``rankfusion/data/``)."""

from __future__ import annotations

from importlib import resources

import numpy as np
from sklearn.utils import Bunch

from .._utils.tabular import read_csv
from .._utils.validation import check_bool
from ..io import read_lists
from ..lists import RankedLists

__all__ = ["load_stjude_leukemia", "load_wine_lists"]


def load_stjude_leukemia(*, as_frame: bool = False, return_X_y: bool = False):
    """The St. Jude pediatric leukemia data of Monti et al. (2003): 248 × 985, 6 classes.

    Yeoh et al. (2002)'s ALL subtypes (BCR.ABL 15, E2A.PBX1 27, Hyperdip.50 64, MLL 20,
    T.ALL 43, TEL.AML1 79) on Monti's 985 filtered genes, intensities as distributed. Source
    and attribution: the documentation's page "Bundled data sets", section ``stjude``; Yeoh et
    al. (2002), Cancer Cell 1, 133–143; Monti, Tamayo, Mesirov & Golub (2003), Consensus
    clustering, Machine Learning 52, 91–118.

    Parameters
    ----------
    as_frame : bool
        ``data`` as a DataFrame (columns ``gene_1`` … ``gene_985``, index the sample names)
        and ``target`` a Series.
    return_X_y : bool
        Return ``(data, target)`` only.

    Returns
    -------
    Bunch with ``data``, ``target`` (class names), ``feature_names``, ``sample_names``,
    ``DESCR``; or ``(data, target)``.
    """
    as_frame = check_bool(as_frame, "as_frame")
    return_X_y = check_bool(return_X_y, "return_X_y")
    ref = resources.files("rankfusion").joinpath("data/stjude_monti_985x248.csv.gz")
    with resources.as_file(ref) as path:
        frame = read_csv(path, compression="gzip")
    frame = frame.set_index("sample")
    target = frame.pop("class").astype(str)
    names = np.array(frame.columns, dtype=object)
    if as_frame:
        data, tgt = frame, target
    else:
        data, tgt = frame.to_numpy(dtype=np.float64), target.to_numpy(dtype=object)
    if return_X_y:
        return data, tgt
    descr = resources.files("rankfusion").joinpath("data/stjude_README.md").read_text()
    return Bunch(data=data, target=tgt, feature_names=names,
                 sample_names=np.array(frame.index, dtype=object), DESCR=descr)


def load_wine_lists() -> RankedLists:
    """Five feature rankings of the UCI Wine data (178 × 13, 3 classes), as ranked lists.

    The scores of five scikit-learn rankers on the 13 Wine features, one list per ranker, as
    bundled in ``rankfusion/data/wine_ranker_scores.csv`` (higher = more relevant). They are
    the example lists of ``rankfusion demo --lists``.

    Returns
    -------
    RankedLists
        13 features × 5 lists, with scores.

    Examples
    --------
    >>> lists = load_wine_lists()
    >>> lists.shape
    (13, 5)
    """
    ref = resources.files("rankfusion").joinpath("data/wine_ranker_scores.csv")
    with resources.as_file(ref) as path:
        return read_lists(path, kind="scores")
