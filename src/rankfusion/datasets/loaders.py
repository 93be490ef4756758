"""Load the real datasets of the papers by name: :func:`load` and :func:`available_datasets`.

The sets are shipped as gzip-compressed CSV files in ``rankfusion/data/datasets/`` with a
metadata table ``catalog.json`` (shapes, classes, missing values, nominal attributes and their
declared values, SHA-256 checksums, provenance). Both are written by
``tools/bundle_datasets.py`` from the raw files of the shared datasets folder, with the parsers
of :mod:`rankfusion.datasets._sources`. A set that is not shipped (``bundled: false`` in the
table) is parsed from its raw file under ``data_home`` (the argument, else the environment
variable ``RANKFUSION_DATA``), laid out as ``<data_home>/<folder>/<file>``.

Encoding
--------
* ``as_frame=True``: ``data`` is a DataFrame whose nominal attributes are pandas categoricals
  (declared values, declared order) and numeric attributes float64; ``target`` is a categorical
  Series named ``"class"``; ``frame`` is both side by side. Missing values are NaN.
* ``as_frame=False``: ``data`` is a float64 array in which a nominal attribute holds the code
  of its value (0, 1, … in the order of ``categories[name]``) and NaN when missing;
  ``categorical`` is the boolean mask of the nominal columns. ``target`` holds class codes
  0 … c−1 indexing ``target_names`` (the classes present, in their declared order).

Derived sets
------------
* ``monti_lung``, ``monti_cns``, ``monti_novartis``: substitutes for three of Monti et al.
  (2003)'s matrices, built from de Souto et al. (2008)'s files of the same samples
  (``*_full``, the shapes the source gives) by keeping the top genes by standard deviation:
  SD with ``ddof=1`` over the retained samples, computed on the values as distributed (the
  intensities, **not** log-transformed), the ``n`` largest kept (1000, 989 and 1000, Monti's
  sizes), ties broken by the source's gene order (a stable sort of −SD), and the kept genes
  returned in the source's order.
* ``mfeat``: the six Multiple Features views side by side in UCI order (fou, fac, kar, pix,
  zer, mor), 2000 × 649.
"""

from __future__ import annotations

import difflib
import gzip
import hashlib
import json
import os
from functools import lru_cache
from importlib import resources

import numpy as np
import pandas as pd
from sklearn.utils import Bunch

from .._utils.tabular import read_csv
from ._sources import MONTI_GENES, SOURCES, parse

__all__ = ["load", "available_datasets", "check_dataset_name", "MFEAT_VIEWS"]

#: The Multiple Features views in UCI order and the loader name of each.
MFEAT_VIEWS = ("mfeat_fourier", "mfeat_fac", "mfeat_kar", "mfeat_pix", "mfeat_zer", "mfeat_mor")

#: The documentation page of the bundled data sets (docs/datasets.rst), named in ``DESCR``;
#: each data set is the section ``#<name>`` (``_`` written ``-``, as Sphinx writes anchors).
DATASETS_PAGE = "datasets.html"

_ALIASES = {"diabetes": "pima", "breast_w": "wbc", "credit_g": "german_credit",
            "dna": "splice", "stjude_leukemia": "stjude", "mfeat_fou": "mfeat_fourier",
            "mfeat_factors": "mfeat_fac", "mfeat_karhunen": "mfeat_kar",
            "mfeat_pixel": "mfeat_pix", "mfeat_zernike": "mfeat_zer",
            "mfeat_morphological": "mfeat_mor"}


@lru_cache(maxsize=1)
def _catalog() -> dict:
    ref = resources.files("rankfusion").joinpath("data/datasets/catalog.json")
    return json.loads(ref.read_text(encoding="utf-8"))


def available_datasets() -> pd.DataFrame:
    """The datasets :func:`load` knows, one row each, from the metadata table (nothing loaded).

    Returns
    -------
    DataFrame
        Columns ``name``, ``task`` (``"classification"`` or ``"regression"``), ``n_samples``,
        ``n_features``, ``n_classes`` (classes present; missing, ``<NA>``, for a regression
        set),
        ``n_missing`` (missing feature values), ``bundled`` (shipped with the package, else read
        from ``data_home``) and ``source`` (origin and repository).

    Examples
    --------
    >>> from rankfusion.datasets import available_datasets
    >>> t = available_datasets().set_index("name")
    >>> t.loc["wbc", ["n_samples", "n_features", "n_missing"]].astype(int).tolist()
    [699, 9, 16]
    """
    rows = []
    for name, e in _catalog()["datasets"].items():
        rows.append({"name": name, "task": task_of(e), "n_samples": e["n_samples"],
                     "n_features": e["n_features"], "n_classes": e["n_classes"],
                     "n_missing": e["n_missing"], "bundled": e["bundled"],
                     "source": f"{e['origin']} [{e['repo']}]"})
    table = pd.DataFrame(rows)
    table["n_classes"] = table["n_classes"].astype("Int64")
    return table


def check_dataset_name(name, *, argument: str = "name",
                       listing: str = "available_datasets()") -> str:
    """The name :func:`load` files a real data set under (case, ``-`` and ``_`` and the
    aliases forgiven); an unknown name is refused with the closest known ones.

    Parameters
    ----------
    name : str
        A data set's name.
    argument : str, default "name"
        How the caller spells the argument, for the message (``"--export"`` on the command
        line).
    listing : str, default "available_datasets()"
        What lists the names, for the message (``"rankfusion datasets"`` on the command line).

    Returns
    -------
    str

    Raises
    ------
    ValueError
        An unknown name; the message names ``argument``, the closest names and ``listing``.

    Examples
    --------
    >>> check_dataset_name("Breast-W")
    'wbc'
    """
    if not isinstance(name, str):
        raise TypeError(f"{argument} must be a str, got {type(name).__name__}")
    key = name.strip().lower().replace("-", "_")
    key = _ALIASES.get(key, key)
    known = _catalog()["datasets"]
    if key not in known:
        close = difflib.get_close_matches(key, list(known) + list(_ALIASES), n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise ValueError(f"{argument}: unknown dataset {name!r}{hint} ({listing} lists the "
                         f"{len(known)} names)")
    return key


def _resolve(name) -> str:
    return check_dataset_name(name)


def _data_home(data_home):
    if data_home is None:
        data_home = os.environ.get("RANKFUSION_DATA") or None
    if data_home is not None and not isinstance(data_home, (str, os.PathLike)):
        raise TypeError(f"data_home must be a path or None, got {type(data_home).__name__}")
    return data_home


def _read_bundled(entry: dict) -> pd.DataFrame:
    nominal = entry["nominal"]
    ref = resources.files("rankfusion").joinpath(f"data/{entry['file']}")
    with resources.as_file(ref) as path, gzip.open(path, "rt", encoding="utf-8") as fh:
        dtype = {c: str for c in [*nominal, "class"]}
        frame = read_csv(fh, dtype=dtype, keep_default_na=False, na_values=[""])
    return frame


def _typed(frame: pd.DataFrame, entry: dict) -> pd.DataFrame:
    """Numeric columns as float64, nominal ones as categoricals with the declared values."""
    nominal = entry["nominal"]
    cols = [c for c in frame.columns if c != "class"]
    num = [c for c in cols if c not in nominal]
    block = pd.DataFrame(frame[num].to_numpy(dtype=np.float64), columns=num)
    parts = {c: pd.Categorical(frame[c].to_numpy(dtype=object), categories=nominal[c])
             for c in nominal}
    out = pd.concat([block, pd.DataFrame(parts)], axis=1)[cols] if parts else block
    if task_of(entry) == "regression":
        y = frame["class"].astype(str).astype(np.float64).to_numpy()
    else:
        y = pd.Categorical(frame["class"].astype(str).to_numpy(dtype=object),
                           categories=entry["classes"])
    return pd.concat([out, pd.DataFrame({"class": y})], axis=1)


def task_of(entry: dict) -> str:
    """The task of a catalog entry: ``"classification"`` (the default) or ``"regression"``."""
    return entry.get("task", "classification")


def _external(name: str, entry: dict, data_home) -> pd.DataFrame:
    paths = [os.path.join(entry["folder"], f) for f in entry["files"]]
    where = (f"https://github.com/{entry['repo']} (commit {entry['commit']})"
             if "/" in entry["repo"] and " " not in entry["repo"] else entry["repo"])
    if data_home is None:
        raise FileNotFoundError(
            f"dataset {name!r} is not shipped with rankfusion: pass data_home= (or set "
            f"RANKFUSION_DATA) to a folder holding {', '.join(paths)}; get it from {where}")
    missing = [p for p in paths if not os.path.exists(os.path.join(data_home, p))]
    if missing:
        raise FileNotFoundError(
            f"dataset {name!r}: {os.path.join(os.fspath(data_home), missing[0])} not found; "
            f"get {', '.join(paths)} from {where}")
    return parse(entry.get("source", name), data_home)


def _frame(name: str, data_home) -> pd.DataFrame:
    entry = _catalog()["datasets"][name]
    kind = entry.get("derived")
    if kind == "concat":
        parts = [_frame(p, data_home) for p in entry["parts"]]
        y = parts[0]["class"]
        return pd.concat([p.drop(columns="class") for p in parts] + [y.to_frame()], axis=1)
    if kind == "top_sd":
        base = _frame(entry["base"], data_home)
        return top_genes_by_sd(base, entry["n_top"])
    if kind == "stjude":
        ref = resources.files("rankfusion").joinpath(f"data/{entry['file']}")
        with resources.as_file(ref) as path:
            raw = read_csv(path, compression="gzip")
        y = pd.Categorical(raw.pop("class").astype(str).to_numpy(dtype=object),
                           categories=entry["classes"])
        block = pd.DataFrame(raw.drop(columns="sample").to_numpy(dtype=np.float64),
                             columns=list(raw.columns[1:]))
        return pd.concat([block, pd.DataFrame({"class": y})], axis=1)
    if entry["bundled"]:
        return _typed(_read_bundled(entry), entry)
    return _external(name, entry, data_home)


def top_genes_by_sd(frame: pd.DataFrame, n_top: int) -> pd.DataFrame:
    """Keep the ``n_top`` numeric columns of largest SD (``ddof=1``, values as given, ties
    by column order), in their original order; the ``class`` column is kept last."""
    X = frame.drop(columns="class")
    sd = X.to_numpy(dtype=np.float64).std(axis=0, ddof=1)
    keep = np.sort(np.argsort(-sd, kind="stable")[:n_top])
    return pd.concat([X.iloc[:, keep], frame[["class"]]], axis=1)


def _check_bool(name: str, value) -> None:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")


def _descr(name: str, entry: dict, shape) -> str:
    if task_of(entry) == "regression":
        t = entry["target"]
        what = (f"a numeric target (regression; {t['min']:g} to {t['max']:g}, "
                f"{t['n_unique']} distinct values)")
    else:
        what = f"{entry['n_classes']} classes"
    lines = [f"{name}: {entry['origin']}",
             f"{shape[0]} samples x {shape[1]} features, {what}, "
             f"{entry['n_missing']} missing values (as shipped).",
             f"Source: {entry['repo']} @ {entry['commit']}: "
             + ", ".join(f"{entry['folder']}/{f}" for f in entry["files"]),
             f"Citation: {entry['citation']}",
             f"Licence: {entry['licence']}"]
    notes = entry.get("notes", "")
    if notes and not notes.startswith("See rankfusion/data/"):  # a file inside the package
        lines.append(f"Notes: {notes}")
    if entry.get("derived") == "top_sd":
        lines.append(f"Preprocessing: the {entry['n_top']} genes of largest SD (ddof=1, raw "
                     "intensities as distributed, not log2; ties by source gene order) among "
                     f"the genes of {entry['base']!r}, kept in source order, to match the size "
                     "of Monti et al. (2003)'s matrix.")
    lines.append(f"Documentation: the rankfusion documentation, page 'Bundled data sets', "
                 f"section {name!r} ({DATASETS_PAGE}#{name.replace('_', '-')})")
    return "\n".join(lines)


def load(name: str, *, as_frame: bool = False, return_X_y: bool = False,
         dropna: bool = False, data_home=None):
    """Load one of the papers' real datasets by name.

    Parameters
    ----------
    name : str
        A name of :func:`available_datasets` (case-insensitive; ``-`` and ``_`` alike; a few
        aliases such as ``"diabetes"`` for ``"pima"``).
    as_frame : bool, default=False
        DataFrame / categorical Series instead of arrays (see the module notes on encoding).
    return_X_y : bool, default=False
        Return ``(data, target)`` only.
    dropna : bool, default=False
        Drop the samples with a missing feature value (``wbc``: 699 → 683 rows, the rows the
        fuzzy-combination paper used).
    data_home : str or path, optional
        Folder of the raw files (shared datasets layout) for the sets not shipped; default the
        environment variable ``RANKFUSION_DATA``.

    Returns
    -------
    Bunch
        ``data``, ``target``, ``feature_names``, ``target_names``, ``categorical`` (mask of the
        nominal columns), ``categories`` (declared values of each nominal column), ``frame``
        (``as_frame=True`` only, else None), ``DESCR`` (origin, source repository and commit,
        citation, licence, preprocessing), ``name`` and ``task``; or ``(data, target)``.
        For a regression set (``task == "regression"``: ``cpu``, ``diabetes_lars``) the target
        is the numeric value as float64 (a Series named ``"target"`` with ``as_frame=True``)
        and ``target_names`` is empty. The task is stated, never inferred from the values:
        ``diabetes_lars``'s target is integer valued.

    Raises
    ------
    ValueError
        Unknown name (with the closest known names).
    TypeError
        A flag that is not a bool, a ``data_home`` that is not a path.
    FileNotFoundError
        A set that is not shipped and is not under ``data_home`` (the message names the file
        and the repository to get it from).

    Examples
    --------
    >>> from rankfusion.datasets import load
    >>> b = load("wbc")
    >>> b.data.shape, int(np.isnan(b.data).sum()), load("wbc", dropna=True).data.shape
    ((699, 9), 16, (683, 9))
    >>> X, y = load("german_credit", as_frame=True, return_X_y=True)
    >>> str(X["checking_status"].dtype), list(y.cat.categories)
    ('category', ['good', 'bad'])
    """
    key = _resolve(name)
    for flag, value in (("as_frame", as_frame), ("return_X_y", return_X_y),
                        ("dropna", dropna)):
        _check_bool(flag, value)
    home = _data_home(data_home)
    entry = _catalog()["datasets"][key]
    frame = _frame(key, home)
    if dropna:
        frame = frame.loc[~frame.drop(columns="class").isna().any(axis=1)]
        frame = frame.reset_index(drop=True)
    task = task_of(entry)
    X = frame.drop(columns="class")
    if task == "regression":
        y = frame["class"].astype(np.float64)
    else:
        y = frame["class"].cat.remove_unused_categories()
    nominal = {c: list(X[c].cat.categories) for c in X.columns
               if isinstance(X[c].dtype, pd.CategoricalDtype)}
    mask = np.array([c in nominal for c in X.columns], dtype=bool)
    names = np.array(X.columns, dtype=object)
    if as_frame:
        data, target = X, y.rename("target" if task == "regression" else "class")
        full = pd.concat([X, target], axis=1)
    else:
        data = np.empty(X.shape, dtype=np.float64)
        for j, c in enumerate(X.columns):
            if mask[j]:
                codes = X[c].cat.codes.to_numpy()
                data[:, j] = np.where(codes < 0, np.nan, codes)
            else:
                data[:, j] = X[c].to_numpy(dtype=np.float64)
        target = (y.to_numpy(dtype=np.float64) if task == "regression"
                  else y.cat.codes.to_numpy().astype(np.int64))
        full = None
    if return_X_y:
        return data, target
    target_names = (np.array([], dtype=object) if task == "regression"
                    else np.array(y.cat.categories, dtype=object))
    return Bunch(data=data, target=target, feature_names=names, target_names=target_names,
                 categorical=mask, categories=nominal, frame=full,
                 DESCR=_descr(key, entry, X.shape), name=key, task=task)


def file_sha256(path) -> str:
    """SHA-256 of a file (the checksums recorded in ``catalog.json``)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# names of the Monti substitutes and their full sources, for the bundler
MONTI_DERIVED = {k: (f"{k}_full", n) for k, n in MONTI_GENES.items()}
SOURCE_NAMES = tuple(SOURCES)
