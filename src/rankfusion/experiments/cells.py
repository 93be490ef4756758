"""One cell of an experiment grid: its configuration, content hash, seed, and how it runs.

A cell is one (dataset, selector, rule, classifier, protocol) combination. Its *spec* — the
resolved settings of those five parts, the experiment seed and the rankfusion release series
(major.minor) — is everything that determines its numbers; the user's labels are not part of it
(renaming a dataset table reuses its cells). ``hash`` is the SHA-256 of the spec's canonical
JSON (sorted keys, no spaces, UTF-8).

Seeds (docs/experiments.md, 'Seeds'): the protocol's ``random_state`` is the first 32-bit word
of ``SeedSequence([experiment seed, *sha256(dataset spec + protocol spec)])``. It depends only on
the configuration — never on the worker, the process or the order of execution — so a local run
and a Dask run give bit-identical numbers; and every method on one dataset and protocol gets the
same splits, which the paired tests (win matrix, t-tests) need.

:func:`run_cell` is a plain function of the spec (importable on Dask workers); it loads the data
itself (cached per process) so that only the small spec travels.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import socket
import time
from dataclasses import dataclass, field

import numpy as np

from .._utils.seeding import seed_int

__all__ = ["Cell", "canonical_json", "release_series", "cell_seed", "run_cell",
           "run_cell_on_worker", "WarningReplay", "dataset_info", "load_dataset", "CELL_FORMAT",
           "FILE_SOURCE", "file_sha256"]

#: Version of the cell spec and cell-file layout; bump when either changes meaning.
CELL_FORMAT = 1

_SKLEARN_TOYS = ("iris", "wine", "breast_cancer", "digits")


def canonical_json(obj) -> str:
    """JSON with sorted keys and no spaces (the input of every hash and checksum)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(obj) -> str:
    return hashlib.sha256(canonical_json(obj).encode("utf-8")).hexdigest()


def release_series() -> str:
    """``major.minor`` of the installed rankfusion: cells computed by another release series
    are recomputed (a patch or development release reuses them)."""
    from .._utils.version import __version__

    parts = __version__.split(".")
    return ".".join(parts[:2])


def cell_seed(experiment_seed: int, dataset: dict, protocol: dict) -> int:
    """The protocol's ``random_state`` for every cell on ``dataset`` under ``protocol``.

    docs/experiments.md, 'Seeds': a function of the configuration only, never of the worker,
    process or order of execution; the method and classifier are left out, so every method on
    one data set and protocol sees the same splits.

    Parameters
    ----------
    experiment_seed : int
        The ``[experiment] seed`` of the configuration.
    dataset : dict
        The cell spec's resolved data set (source and options).
    protocol : dict
        The cell spec's resolved protocol.

    Returns
    -------
    int
        A seed in [0, 2**32).
    """
    digest = hashlib.sha256(canonical_json({"dataset": dataset, "protocol": protocol})
                            .encode("utf-8")).digest()
    words = [int.from_bytes(digest[i:i + 4], "little") for i in range(0, 32, 4)]
    seq = np.random.SeedSequence([int(experiment_seed), *words])
    return seed_int(seq)


@dataclass
class Cell:
    """One planned cell (see the module docstring).

    The parameters are kept as the attributes of the same name; ``spec`` (everything that
    determines the numbers), ``hash`` (its SHA-256), ``seed``, ``method`` and ``label`` are
    derived from them.

    Parameters
    ----------
    dataset : dict
        The resolved data set (``source`` and its options).
    selector : dict
        The resolved selector (``kind`` and its parameters).
    rule : dict or None
        The resolved rule, for a selector that aggregates.
    classifier : str
        The classifier's registered name.
    protocol : dict
        The resolved protocol (``kind`` and its parameters).
    labels : dict
        The user's labels of the five parts (not part of the spec).
    experiment_seed : int
        The experiment's root seed.
    task : {"classification", "regression"}, default "classification"
        The experiment's task (``[experiment] task``); part of the spec of a regression cell
        only, so a classification cell's hash is what it always was.
    """

    dataset: dict
    selector: dict
    rule: dict | None
    classifier: str
    protocol: dict
    labels: dict = field(default_factory=dict)
    experiment_seed: int = 0
    task: str = "classification"

    @property
    def spec(self) -> dict:
        spec = {
            "format": CELL_FORMAT,
            "rankfusion": release_series(),
            "experiment_seed": self.experiment_seed,
            "dataset": self.dataset,
            "selector": self.selector,
            "rule": self.rule,
            "classifier": self.classifier,
            "protocol": self.protocol,
        }
        if self.task != "classification":
            spec["task"] = self.task
        return spec

    @functools.cached_property
    def hash(self) -> str:
        return sha256_hex(self.spec)

    @property
    def seed(self) -> int:
        return cell_seed(self.experiment_seed, self.dataset, self.protocol)

    @property
    def method(self) -> str:
        """``selector`` or ``selector+rule``: the compared method's name."""
        r = self.labels.get("rule")
        return self.labels["selector"] if r is None else f"{self.labels['selector']}+{r}"

    @property
    def label(self) -> str:
        lab = self.labels
        return f"{lab['dataset']}/{self.method}/{lab['classifier']}/{lab['protocol']}"


# --------------------------------------------------------------------------- data
def artificial_names() -> tuple[str, ...]:
    from ..datasets import ARTIFICIAL_DATASETS

    return tuple(ARTIFICIAL_DATASETS)


def sklearn_toy_names() -> tuple[str, ...]:
    return _SKLEARN_TOYS


#: The ``source`` of a cell's data set read from the user's file (``[datasets.<label>] path``).
FILE_SOURCE = "file"
#: The options of :func:`rankfusion.io.load_data` a data file takes (besides path / sha256).
_LOAD_DATA_OPTIONS = ("target", "format", "drop", "na_values", "nominal", "sep", "encoding")


def file_sha256(path) -> str:
    """SHA-256 hex digest of a file's bytes (read in 1 MiB blocks)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _load_file(options: dict, task: str = "classification"):
    from ..io import load_data

    path = options["path"]
    try:
        digest = file_sha256(path)
    except FileNotFoundError:
        raise FileNotFoundError(f"data file {path} no longer exists") from None
    if digest != options["sha256"]:
        raise ValueError(f"data file {path} changed since the configuration was read "
                         f"(SHA-256 {digest[:12]}…, expected {options['sha256'][:12]}…); run "
                         "the experiment again: the cells of the new file are computed anew")
    kw = {k: options[k] for k in _LOAD_DATA_OPTIONS if k in options}
    if task == "regression":
        kw["task"] = "regression"
    elif options.get("task") == "classification":  # many whole numbers as classes, as asked
        kw["task"] = "classification"
    X, y = load_data(path, **kw)
    if not hasattr(X, "columns"):  # an svmlight file: sparse (docs/design.md, 'Sparse input')
        raise ValueError(f"{path} is an svmlight file, read as a sparse matrix, and the "
                         "experiment runner takes dense data files only (.csv, .arff, "
                         ".parquet): save the data in one of them, or rank the file with "
                         "rankfusion rank, select or svm-rfe, which read svmlight")
    if kw.get("task") == "classification":
        from .._utils.task import as_class_labels

        # labels c01, c02 … in the values' order: every step of a classification cell then
        # takes them as classes (task="auto" would refuse the numbers: docs/design.md, 'Tasks')
        y = as_class_labels(y)
    return X, np.asarray(y), [str(c) for c in X.columns]


@functools.lru_cache(maxsize=8)
def _load_cached(source: str, options_json: str, task: str = "classification"):
    options = json.loads(options_json)
    if source == FILE_SOURCE:
        return _load_file(options, task)
    if task == "regression" and (source.startswith("sklearn:") or source in artificial_names()):
        if source != "sklearn:diabetes":
            raise ValueError(f"{source!r} is a classification data set (class labels); an "
                             'experiment with task = "regression" needs a numeric target '
                             "(cpu, diabetes_lars, sklearn:diabetes, or a data file)")
    if source.startswith("sklearn:"):
        import sklearn.datasets as skd

        bunch = getattr(skd, f"load_{source[8:]}")()
        X = np.asarray(bunch.data, dtype=np.float64)
        names = [str(n) for n in getattr(bunch, "feature_names", range(X.shape[1]))]
        if source == "sklearn:diabetes":
            if task != "regression":
                raise ValueError("'sklearn:diabetes' is a regression data set (a numeric "
                                 "target); say task = \"regression\" in [experiment]")
            return X, np.asarray(bunch.target, dtype=np.float64), names
        return X, np.asarray(bunch.target), names
    if source in artificial_names():
        from ..datasets import load_artificial

        opts = dict(options)
        seed = opts.pop("seed", 0)
        bunch = load_artificial(source, random_state=seed, **opts)
        X = np.asarray(bunch.data, dtype=np.float64)
        names = [str(n) for n in bunch.get("feature_names", [f"x{j}" for j in
                                                             range(X.shape[1])])]
        return X, np.asarray(bunch.target), names
    from ..datasets import load

    bunch = load(source, as_frame=True, dropna=bool(options.get("dropna", False)))
    if bunch.task != task:
        # never read a numeric target as classes, nor classes as numbers (docs/design.md,
        # 'Tasks'): the experiment says which it runs
        what = ("a numeric target" if bunch.task == "regression" else "class labels")
        raise ValueError(f"{source!r} is a {bunch.task} data set ({what}); the experiment's "
                         f"task is {task} ([experiment] task = \"{bunch.task}\" runs it)")
    X = bunch.data
    y = np.asarray(bunch.target, dtype=np.float64) if task == "regression" \
        else np.asarray(bunch.target)
    return X, y, [str(c) for c in X.columns]


def load_dataset(source: str, options: dict, task: str = "classification"):
    """``(X, y, feature_names)`` of a dataset spec (cached per process; do not modify); a
    regression data set only with ``task="regression"`` (and only those then)."""
    return _load_cached(source, canonical_json(options), task)


def _empty_columns(X, names) -> list[str]:
    """The names of the columns of ``X`` with no value (missing in every row)."""
    if not X.shape[0] or hasattr(X, "tocsr"):  # a sparse matrix has no missing values
        return []
    if hasattr(X, "isna"):
        empty = X.isna().all(axis=0).to_numpy()
    else:
        arr = np.asarray(X)
        if arr.dtype.kind not in "fc":
            return []
        empty = np.isnan(arr).all(axis=0)
    return [str(names[j]) for j in np.flatnonzero(empty)]


def dataset_info(source: str, options: dict, task: str = "classification") -> dict:
    """Shape and class counts of a dataset spec (for validating the grid); a regression data
    set has ``n_classes`` 0 and ``min_class`` its number of samples (no class to split).
    ``empty_columns`` names the features missing in every row; ``first_class`` is the first
    class label (as text)."""
    X, y, names = load_dataset(source, options, task)
    info = {"n_samples": int(X.shape[0]), "n_features": int(X.shape[1]),
            "empty_columns": _empty_columns(X, names)}
    if task == "regression":
        return {**info, "n_classes": 0, "min_class": int(X.shape[0]), "first_class": None}
    labels, counts = np.unique(np.asarray(y).astype(str), return_counts=True)
    return {**info, "n_classes": int(counts.shape[0]),
            "min_class": int(counts.min()) if counts.shape[0] else 0,
            "first_class": str(labels[0]) if labels.shape[0] else None}


# --------------------------------------------------------------------------- running
def _ranker_spec(r):
    if isinstance(r, dict):
        params = dict(r)
        name = params.pop("name")
        return (name, params)
    return r


def build_selector(spec: dict, seed: int):
    """The unfitted selector of a cell spec (its ``random_state`` is left to the protocol)."""
    from ..evaluation import make_classifier
    from ..selection import SVMRFE, EnsembleSelector

    kind = spec["selector"]["kind"]
    params = dict(spec["selector"]["params"])
    task = spec.get("task", "classification")
    est_task = None if task == "classification" else task
    rule = spec["rule"]
    proto = spec["protocol"]
    if proto["kind"] == "cross_validation" and proto["params"].get("n_features") is not None:
        params["n_features_to_select"] = proto["params"]["n_features"]
    if (proto["kind"] == "cross_validation" and proto["params"].get("search_with_classifier")
            and kind in ("ensemble", "ranker")
            and params.get("n_features_to_select") in ("k-step", "learning-curve")):
        # the size search uses the classifier the cell evaluates (Ruiz et al. 2003, §5)
        params["estimators"] = [spec["classifier"]]
    if rule is not None:
        params["aggregation"] = rule["rule"]
        params["aggregation_params"] = dict(rule["params"]) or None
    if kind == "ranker":
        est = params.get("estimators")
        extra = {} if est_task is None else {"task": task}
        return EnsembleSelector(rankers=(_ranker_spec(params["ranker"]),), aggregation="borda",
                                n_features_to_select=params.get("n_features_to_select"),
                                estimators=None if est is None else
                                [make_classifier(n, random_state=seed, task=est_task)
                                 for n in est], **extra)
    if est_task is not None and kind in ("ensemble", "svm_rfe", "boruta", "stability"):
        params["task"] = task
    if kind == "svm_rfe":
        return SVMRFE(**params)
    if kind in ("boruta", "stability"):
        return _other_selector(kind, params)
    if "rankers" in params:
        params["rankers"] = tuple(_ranker_spec(r) for r in params["rankers"])
    if "estimators" in params:
        params["estimators"] = [make_classifier(n, random_state=seed, task=est_task)
                                for n in params["estimators"]]
    if "subset_grid" in params:
        params["subset_grid"] = list(params["subset_grid"])
    return EnsembleSelector(**params)


def _other_selector(kind: str, params: dict):
    """A ``boruta`` (:class:`~rankfusion.selection.BorutaSelector`) or ``stability``
    (:class:`~rankfusion.selection.StabilitySelector`) selector from its table's parameters."""
    from ..selection import BorutaSelector, StabilitySelector

    params = dict(params)
    if "rankers" in params:
        params["rankers"] = tuple(_ranker_spec(r) for r in params["rankers"])
    if "ranker" in params:
        params["ranker"] = _ranker_spec(params["ranker"])
    return (BorutaSelector if kind == "boruta" else StabilitySelector)(**params)


def resolve_pos_label(pos_label, y):
    """The positive class of a ``cross_validation`` protocol's ``pos_label``.

    None keeps the protocol's default (the minority class of a binary problem);
    ``"majority"`` / ``"minority"`` name the most / least frequent class (a tie is an error);
    any other value is a class label, passed on as is.
    """
    if pos_label not in ("majority", "minority"):
        return pos_label
    yv = y.to_numpy() if hasattr(y, "to_numpy") else np.asarray(y)
    classes, counts = np.unique(yv.reshape(-1), return_counts=True)
    if classes.shape[0] != 2:
        raise ValueError(f"pos_label = {pos_label!r} applies to binary problems only; y has "
                         f"{classes.shape[0]} classes")
    if counts[0] == counts[1]:
        raise ValueError(f"pos_label = {pos_label!r}: the two classes have equal counts")
    big = int(np.argmax(counts))
    return classes[big] if pos_label == "majority" else classes[1 - big]


#: Smallest size of the process-wide ranker memo while a cell runs.
RANKER_MEMO_MIN = 512


def ranker_memo_entries(spec: dict) -> int:
    """Score vectors the ranker memo keeps while this cell runs: at least
    :data:`RANKER_MEMO_MIN`, and room for twice the lists one cell ranks (bootstrap samples ×
    rankers × splits), so that the next cell on the same dataset and protocol (another rule or
    classifier, same seed) finds every list of this one instead of cycling through a memo too
    small for it. The memo only changes the time, never the numbers."""
    sel = spec.get("selector", {})
    params = sel.get("params", {}) if sel.get("kind") == "ensemble" else {}
    lists = (max(1, len(params.get("rankers", ()) or ()))
             * max(1, int(params.get("n_bootstraps", 0))))
    pp = spec.get("protocol", {}).get("params", {})
    parts = pp.get("n_splits") if spec.get("protocol", {}).get("kind") == "error_curve" \
        else pp.get("cv")
    parts = parts if isinstance(parts, int) and not isinstance(parts, bool) else 10
    return max(RANKER_MEMO_MIN, 2 * lists * parts)


def run_cell(spec: dict, n_jobs: int | None = None) -> dict:
    """Compute one cell; returns ``{"payload": …, "timing": …}`` (JSON-able).

    The payload of an ``error_curve`` cell holds the per-split errors (splits × feature counts)
    and the per-split positions (splits × features); a ``cross_validation`` cell the per-fold
    metrics.

    Parameters
    ----------
    spec : dict
        The cell's spec (:attr:`Cell.spec`): everything that determines its numbers.
    n_jobs : int, optional
        joblib jobs inside the cell (the protocol's splits).

    Returns
    -------
    dict
        ``payload`` and ``timing`` (wall and CPU seconds, host, pid).
    """
    from ..selection.ranker_specs import ranker_cache

    t0, c0 = time.perf_counter(), time.process_time()
    started = time.time()
    seed = cell_seed(spec["experiment_seed"], spec["dataset"], spec["protocol"])
    X, y, names = load_dataset(spec["dataset"]["source"], spec["dataset"]["options"],
                               spec.get("task", "classification"))
    selector = build_selector(spec, seed)
    # every method of a grid ranks the same training parts with the same rankers: reuse the
    # scores (same numbers; docs/experiments.md, 'Cells, hashes …'). The memo lives as long as
    # the caller holds it: the local runner across all its cells, a Dask worker for its life
    # (run_cell_on_worker); a lone call empties it when it returns.
    with ranker_cache(ranker_memo_entries(spec)):
        payload = _run_protocol(spec, selector, X, y, names, seed, n_jobs)
    timing = {"seconds": time.perf_counter() - t0, "cpu_seconds": time.process_time() - c0,
              "started": started, "host": socket.gethostname(), "pid": os.getpid()}
    return {"payload": payload, "timing": timing, "seed": seed}


def run_cell_on_worker(spec: dict, n_jobs: int | None = None) -> dict:
    """:func:`run_cell` in a worker process of the runner's cluster: the worker keeps the ranker
    memo on for its whole life (``set_ranker_cache`` in ``rankfusion.selection.ranker_specs``),
    so the cells it computes one after another reuse each other's rankings.

    The warnings raised while the cell runs are not printed by the worker (whose filters and
    output are not the user's): they are caught, each distinct one once, and returned under
    ``"warnings"`` for the driver to show through its own filters (:class:`WarningReplay`), so a
    Dask run shows what a local run shows."""
    import warnings

    from ..selection.ranker_specs import set_ranker_cache

    set_ranker_cache(512)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # the driver's filters decide, not the worker's
        result = run_cell(spec, n_jobs=n_jobs)
    seen, out = set(), []
    for w in caught:
        cat = w.category
        item = (str(w.message), f"{cat.__module__}:{cat.__qualname__}", str(w.filename),
                int(w.lineno or 0))
        if item not in seen:
            seen.add(item)
            out.append(list(item))
    result["warnings"] = out
    return result


class WarningReplay:
    """Show on the driver the warnings a worker caught (:func:`run_cell_on_worker`), through
    the driver's warning filters and ``showwarning`` — as if the cell had run here. Each
    ``(message, category, file, line)`` passes the filters' ``once``/``default`` bookkeeping of
    one registry per source file, as a warning raised in this process would."""

    def __init__(self):
        self._registries: dict[str, dict] = {}

    @staticmethod
    def _category(name: str) -> type[Warning]:
        import builtins
        import importlib

        module, _, qual = name.partition(":")
        try:
            obj = builtins if module == "builtins" else importlib.import_module(module)
            for part in qual.split("."):
                obj = getattr(obj, part)
        except (ImportError, AttributeError, ValueError):
            return UserWarning
        return obj if isinstance(obj, type) and issubclass(obj, Warning) else UserWarning

    def __call__(self, caught) -> None:
        import warnings

        for message, category, filename, lineno in caught or ():
            module = os.path.splitext(os.path.basename(filename))[0] or "<unknown>"
            warnings.warn_explicit(message, self._category(category), filename, lineno,
                                   module=_module_of(filename, module),
                                   registry=self._registries.setdefault(filename, {}))


def _module_of(filename: str, fallback: str) -> str:
    """The dotted module name of a source file (``…/sklearn/svm/_base.py`` →
    ``sklearn.svm._base``) for the filters' module patterns; the file's stem if unknown."""
    import sys

    for name, mod in list(sys.modules.items()):
        if getattr(mod, "__file__", None) == filename:
            return name
    return fallback


def fold_positions(out, cells, positions):
    """``positions`` (from :func:`rankfusion.experiments.store.assemble`) with the rows of the
    cross-validation cells among ``cells``: per fold and feature, the fold's ``position`` (-1
    when the selector exposes no ranking) and ``selected`` (whether the fold's selector kept
    the feature). The cells' selections are shared by the classifiers of a method (one set of
    rows per dataset, method and protocol), unless the size search uses the cell's own
    classifier (``search_with_classifier``: one set per cell). Cells written before the folds
    were recorded add nothing (their stability is not recorded). Error-curve rows get
    ``selected`` missing (NA): an error curve selects every k of its grid.

    Parameters
    ----------
    out : Path
        The results folder.
    cells : list of Cell
        The cells whose files to read (finished ones).
    positions : DataFrame
        The error-curve rows.

    Returns
    -------
    DataFrame
        A new frame; ``positions`` itself unchanged when no cell recorded its folds.
    """
    import pandas as pd

    from .store import cell_path, read_cell

    parts, seen = [], set()
    for c in cells:
        if c.protocol.get("kind") != "cross_validation":
            continue
        doc, _ = read_cell(cell_path(out, c.hash), c.hash)
        p = None if doc is None else doc["payload"]
        if p is None or "selected" not in p:
            continue
        lab = c.labels
        shared = not c.protocol.get("params", {}).get("search_with_classifier")
        key = (lab["dataset"], c.method, lab["protocol"], None if shared else c.hash)
        if key in seen:
            continue
        seen.add(key)
        feats = np.asarray(p["features"], dtype=object)
        n_folds, n_feat = len(p["selected"]), feats.shape[0]
        sel = np.zeros((n_folds, n_feat), dtype=bool)
        for f, idx in enumerate(p["selected"]):
            sel[f, np.asarray(idx, dtype=np.int64)] = True
        pos = (np.asarray(p["positions"], dtype=np.int64) if "positions" in p
               else np.full((n_folds, n_feat), -1, dtype=np.int64))
        parts.append(pd.DataFrame({
            "dataset": lab["dataset"], "method": c.method, "selector": lab["selector"],
            "rule": lab["rule"] or "", "protocol": lab["protocol"],
            "split": np.repeat(np.arange(n_folds), n_feat).astype(np.int64),
            "feature": np.tile(feats, n_folds).astype(str),
            "position": pos.reshape(-1), "cell": c.hash,
            "selected": pd.array(sel.reshape(-1), dtype="boolean")}))
    if not parts:
        return positions
    base = positions.copy()
    if base.empty and not len(base.columns):
        base = pd.DataFrame(columns=list(parts[0].columns[:-1]))
    base["selected"] = pd.array([pd.NA] * len(base), dtype="boolean")
    out_frame = pd.concat([base, *parts], ignore_index=True)
    for col in ("split", "position"):
        out_frame[col] = out_frame[col].astype(np.int64)
    return out_frame


def _run_protocol(spec, selector, X, y, names, seed, n_jobs):
    from ..evaluation import cross_validate_selection, error_curve

    proto = spec["protocol"]
    pp = proto["params"]
    # a regression cell says so; a classification cell calls as it always did
    task_kw = {"task": spec["task"]} if spec.get("task", "classification") != \
        "classification" else {}
    if proto["kind"] == "error_curve":
        classifier = spec["classifier"]
        if pp.get("standardize"):
            # z-scores from each split's training rows only, for the selector and the
            # classifier alike (docs/experiments.md, 'Protocols')
            from sklearn.pipeline import make_pipeline
            from sklearn.preprocessing import StandardScaler

            from ..evaluation import ZScoredSelector, make_classifier

            selector = ZScoredSelector(selector)
            classifier = make_pipeline(StandardScaler(),
                                       make_classifier(classifier, random_state=seed,
                                                       task=task_kw.get("task")))
        res = error_curve(selector, X, y, n_features=pp["n_features"],
                          classifier=classifier, n_splits=pp["n_splits"],
                          test_size=pp.get("test_size"), stratify=pp["stratify"],
                          splits=pp.get("splits", "random"), n_jobs=n_jobs,
                          random_state=seed, **task_kw)
        payload = {
            "kind": "error_curve",
            "n_features": [int(k) for k in res.errors.columns],
            "errors": res.errors.to_numpy(dtype=np.float64).tolist(),
            "features": list(names),
            "positions": res.positions.to_numpy(dtype=np.int64).tolist(),
            "n_train": int(res.n_train), "n_test": int(res.n_test),
        }
    else:
        from .memo import CachedSelector

        cv = pp["cv"]
        if pp.get("small_classes"):  # folds may lack the rarest class (as Weka's)
            from sklearn.model_selection import StratifiedKFold

            cv = StratifiedKFold(cv, shuffle=True, random_state=seed)
        # one fitted selector per fold is shared by the classifiers, unless the size search
        # uses the cell's own classifier (then the selector depends on it)
        shared = not pp.get("search_with_classifier")
        key = canonical_json({k: v for k, v in spec.items() if k != "classifier" or not shared})
        res = cross_validate_selection(CachedSelector(selector, key=key), X, y,
                                       classifier=spec["classifier"],
                                       cv=cv, scoring=tuple(pp["scoring"]),
                                       pos_label=resolve_pos_label(pp.get("pos_label"), y),
                                       n_jobs=n_jobs, random_state=seed, **task_kw)
        payload = {
            "kind": "cross_validation",
            "metrics": [str(c) for c in res.scores.columns],
            "scores": res.scores.to_numpy(dtype=np.float64).tolist(),
            "average": res.average,
            "pos_label": None if res.pos_label is None else str(res.pos_label),
            # each fold's selected subset (feature indices) and ranking, for the stability
            "features": list(names),
            "selected": [np.flatnonzero(row).tolist() for row in res.support.to_numpy()],
        }
        if res.positions is not None:
            payload["positions"] = res.positions.to_numpy(dtype=np.int64).tolist()
    return payload
