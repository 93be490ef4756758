"""Running an :class:`~rankfusion.EnsembleSelector` from plain options, summarising and saving
the result: the library behind ``rankfusion select``.

* :func:`ensemble_from_options` builds and checks the selector from names and numbers (unknown
  rankers, rules and classifiers fail with a did-you-mean before any data are read);
* :func:`subset_curve_table` and :func:`stability_table` give compact views of the fit;
* :func:`selection_summary` is the JSON-able record of a run (parameters, seeds including
  ``seed_entropy_``, package versions, timings);
* :func:`check_output_dir` and :func:`write_selection` save the consensus ranking (CSV), the
  subset, the curve, the stability table and the summary into a folder, each file written
  atomically (a temporary file, then ``os.replace``): an interrupted run leaves no half-written
  file, and an existing folder is refused unless ``overwrite``.
"""

from __future__ import annotations

import difflib
import json
import numbers
import platform
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .._utils.atomic import atomic_write_text, check_output_dir
from .._utils.tabular import to_csv
from .ensemble import EnsembleSelector
from .estimators import DEFAULT_ESTIMATOR_NAMES, default_estimators, estimator_by_name

__all__ = ["read_data", "ensemble_from_options", "parse_subset", "selected_features",
           "subset_curve_table", "stability_table", "selection_summary", "check_output_dir",
           "write_selection", "RESULT_FILES"]

#: The files :func:`write_selection` may write (and, with ``overwrite``, replace or remove).
RESULT_FILES = ("consensus.csv", "subset.txt", "subset_curve.csv", "stability.csv",
                "summary.json")

_SEARCHES = ("k-step", "learning-curve")


def _did_you_mean(value: str, known: Sequence[str]) -> str:
    """``"; did you mean 'x'?"`` for the closest known name, else ``";"`` (the registries'
    style: the list of known names follows)."""
    close = difflib.get_close_matches(value, list(known), n=1)
    return f"; did you mean {close[0]!r}?" if close else ";"


def _hint(value: str, known: Sequence[str]) -> str:
    """``"; did you mean 'x'?"`` or nothing."""
    h = _did_you_mean(value, known)
    return "" if h == ";" else h


def parse_subset(text) -> None | int | float | str:
    """The subset size from its text: ``k-step``, ``learning-curve``, ``half`` (None: half the
    features, as scikit-learn's ``RFE``), a count (``25``) or a fraction in (0, 1] (``0.1``).

    Parameters
    ----------
    text : str
        ``k-step``, ``learning-curve``, ``half``, a count or a fraction.

    Returns
    -------
    None, int, float or str
        The value of ``n_features_to_select``.

    Examples
    --------
    >>> [parse_subset(t) for t in ("k-step", "25", "0.1", "half")]
    ['k-step', 25, 0.1, None]
    """
    if text is None:
        return None
    if not isinstance(text, str):
        raise TypeError(f"subset must be text, got {type(text).__name__}")
    t = text.strip().lower()
    if t in _SEARCHES:
        return t
    if t == "half":
        return None
    try:
        k = int(t)
    except ValueError:
        k = None
    if k is None:
        try:
            f = float(t)
        except ValueError:
            raise ValueError(
                f"subset {text!r} is not k-step, learning-curve, half, a count or a fraction"
                f"{_hint(t, [*_SEARCHES, 'half'])}") from None
        if not (np.isfinite(f) and 0.0 < f <= 1.0):
            raise ValueError(f"subset {text!r}: a fraction must lie in (0, 1]")
        return f
    if k < 1:
        raise ValueError(f"subset {text!r}: a count must be ≥ 1")
    return k


def _check_rankers(rankers) -> list[str]:
    from ..rankers import get_ranker

    if isinstance(rankers, str):
        rankers = [r.strip() for r in rankers.split(",")]
    names = [str(r).strip() for r in rankers]
    if not names or any(not n for n in names):
        raise ValueError("rankers: give at least one ranker name, separated by commas "
                         "without empty entries")
    for n in names:
        get_ranker(n)  # did-you-mean on unknown names
    return names


def _check_aggregation(aggregation: str) -> str:
    """The canonical spec text of ``aggregation`` (:func:`rankfusion.aggregation.resolve`)."""
    from ..aggregation import resolve

    if not isinstance(aggregation, str) or not aggregation.strip():
        raise ValueError("aggregation must name a rule, e.g. borda or fuzzy:OW")
    return resolve(aggregation.strip()).label  # did-you-mean on unknown names and values


def _estimators(names, random_state) -> dict | None:
    if names is None:
        return None
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",")]
    elif isinstance(names, (bytes, Mapping)) or not isinstance(names, Iterable):
        raise TypeError("estimators must be classifier names (comma-separated text or a list), "
                        f"got {names!r} of type {type(names).__name__}")
    names = list(names)
    if not names or any(isinstance(n, str) and not n for n in names):
        raise ValueError("estimators: give at least one classifier name, separated by commas")
    pool = default_estimators(random_state)
    for n in names:
        if not isinstance(n, str) or n not in pool:
            # raises, naming n and the closest known name
            estimator_by_name(n, argument="estimators", objects=False)
    if len(set(names)) < len(names):
        raise ValueError(f"estimators: {names} names a classifier twice")
    return {n: pool[n] for n in names}


def _route_params(params: Mapping, rankers: list[str], aggregation: str):
    """Split ``NAME=VALUE`` parameters between the rule and the rankers that take them."""
    from ..aggregation import resolve
    from ..rankers import ranker_info

    rule = resolve(aggregation).entry
    infos = [ranker_info(r) for r in rankers]
    agg_params: dict = {}
    own: list[dict] = [{} for _ in rankers]
    for key, value in params.items():
        used = False
        if rule is not None and rule.accepts(key):
            agg_params[key] = value
            used = True
        for i, info in enumerate(infos):
            if info.accepts(key):
                own[i][key] = value
                used = True
        if not used:
            takers = sorted({q for i in infos for q in i.params}
                            | (set(rule.params) if rule is not None else set()))
            raise ValueError(f"parameter {key!r}: neither the rule {aggregation!r} nor the "
                             f"rankers {', '.join(rankers)} take it"
                             f"{_did_you_mean(key, takers)} they take: "
                             f"{', '.join(takers) or 'nothing'}")
    specs = [r if not o else (r, o) for r, o in zip(rankers, own)]
    return specs, agg_params or None


def ensemble_from_options(*, rankers="info_gain,relieff,nlc", aggregation: str = "borda",
                          n_bootstraps: int = 0, subset=None, estimators=None,
                          params: Mapping | None = None, cv: int = 5, random_state=None,
                          n_jobs: int | None = None, progress: bool = False
                          ) -> EnsembleSelector:
    """An :class:`~rankfusion.EnsembleSelector` from plain options, checked before any data.

    Parameters
    ----------
    rankers : str or sequence of str
        Registered ranker names (comma-separated text or a list).
    aggregation : str
        A rule spec of :func:`rankfusion.aggregation.resolve` (``borda``, ``kfirst:k=0.05``,
        ``fuzzy:EW|RW|OW|MW``).
    n_bootstraps : int ≥ 0
    subset : None, int, float or str
        ``n_features_to_select``; text goes through :func:`parse_subset`.
    estimators : None, str or sequence of str
        Names among the papers' classifiers (``linear_svm``, ``naive_bayes``, ``knn1``,
        ``tree``) for the size search; None = all four.
    params : dict, optional
        ``NAME → value``: each goes to the rule if it takes it and to every ranker that takes it;
        a name nobody takes is an error.
    cv, random_state, n_jobs, progress
        As :class:`~rankfusion.EnsembleSelector`.

    Returns
    -------
    EnsembleSelector
        Unfitted, its parameters checked.
    """
    names = _check_rankers(rankers)
    agg = _check_aggregation(aggregation)
    if isinstance(n_bootstraps, (bool, np.bool_)) or not isinstance(n_bootstraps,
                                                                    numbers.Integral):
        raise TypeError(f"n_bootstraps must be an int ≥ 0, got {n_bootstraps!r}")
    if n_bootstraps < 0:
        raise ValueError(f"n_bootstraps must be ≥ 0, got {n_bootstraps}")
    if isinstance(subset, str):
        subset = parse_subset(subset)
    specs, agg_params = _route_params(dict(params or {}), names, agg)
    sel = EnsembleSelector(rankers=specs, aggregation=agg, aggregation_params=agg_params,
                           n_bootstraps=int(n_bootstraps), n_features_to_select=subset,
                           estimators=_estimators(estimators, None), cv=cv,
                           random_state=random_state, n_jobs=n_jobs, progress=progress)
    sel._check_params()  # every remaining rule of the selector, before the data are read
    return sel


def read_data(source, target=None, *, ignore: Sequence[str] = (), format: str | None = None,
              na_values: Sequence[str] | None = None, nominal: Sequence[str] | None = None,
              sep: str | None = None, encoding: str = "utf-8"):
    """Features and class of a data file (:func:`rankfusion.io.load_data`), without the
    ``ignore`` columns (identifiers such as Parkinsons' ``name``, which a ranker would otherwise
    score as a nominal feature). ``na_values``, ``nominal``, ``sep`` and ``encoding`` are
    :func:`~rankfusion.io.load_data`'s. Returns ``(X, y)``."""
    from ..io import load_data

    try:  # dropped before load_data's checks (an identifier column is refused otherwise)
        X, y = load_data(source, target, format=format, drop=[str(c) for c in ignore or ()],
                         na_values=na_values, nominal=nominal, sep=sep, encoding=encoding)
    except ValueError as exc:
        raise ValueError(str(exc).replace("drop: ", "ignore: ", 1)) from None
    if X.shape[1] == 0:
        raise ValueError("no feature left after ignore")
    return X, y


# ------------------------------------------------------------------------------ views
def selected_features(selector: EnsembleSelector) -> list[str]:
    """The selected features, best first (consensus order; ``get_feature_names_out`` keeps the
    column order instead).

    Parameters
    ----------
    selector : EnsembleSelector
        A fitted selector.

    Returns
    -------
    list of str
    """
    order = np.argsort(selector.positions_, kind="stable")[: selector.n_features_]
    names = selector.lists_.features
    return [str(names[i]) for i in order]


def subset_curve_table(selector: EnsembleSelector, *, max_rows: int = 12) -> pd.DataFrame | None:
    """A compact view of the subset-size curve: one row per k (at most ``max_rows``: evenly
    spread over the grid, always with the first, the last and the chosen k), one column per
    estimator with its mean cross-validated accuracy, and ``chosen`` marking the chosen k.
    None when the size was not searched.

    Parameters
    ----------
    selector : EnsembleSelector
        A fitted selector.
    max_rows : int, default 12
        The most rows shown.

    Returns
    -------
    DataFrame or None
    """
    sc = getattr(selector, "subset_curve_", None)
    if sc is None:
        return None
    wide = sc.curve.pivot(index="k", columns="estimator", values="mean")
    wide = wide[list(dict.fromkeys(sc.curve["estimator"]))]
    ks = wide.index.to_numpy()
    if ks.shape[0] > max_rows:
        pick = set(np.unique(np.rint(np.linspace(0, ks.shape[0] - 1, max_rows - 1))
                             .astype(int)).tolist())
        pick.add(int(np.flatnonzero(ks == sc.n_features)[0]))
        wide = wide.iloc[sorted(pick)]
    wide = wide.round(3)
    wide["chosen"] = np.where(wide.index == sc.n_features, "<-", "")
    wide.columns.name = None
    return wide


def stability_table(selector: EnsembleSelector) -> pd.DataFrame | None:
    """The stability summary of the fit (Nogueira's Φ̂ with its 95 % interval, ASD, APC), rounded
    to 3 decimals; None without at least two bootstraps.

    Parameters
    ----------
    selector : EnsembleSelector
        A fitted selector.

    Returns
    -------
    DataFrame or None
    """
    st = getattr(selector, "stability_", None)
    if st is None:
        return None
    cols = ["nogueira", "nogueira_low", "nogueira_high", "asd", "apc"]
    return st[cols].round(3)


def _versions() -> dict:
    from importlib import metadata

    out = {"python": platform.python_version()}
    for dist in ("rankfusion", "numpy", "scipy", "pandas", "scikit-learn", "numba", "joblib"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    if out["rankfusion"] is None:
        from .._utils.version import __version__

        out["rankfusion"] = __version__
    return out


def _jsonable(value):
    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        v = float(value)
        return v if np.isfinite(v) else None
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_jsonable(v) for v in value]
    return repr(value)


def selection_summary(selector: EnsembleSelector, *, options: Mapping | None = None,
                      seconds: Mapping | None = None, n_samples: int | None = None) -> dict:
    """A JSON-able record of a fitted selector's run.

    Keys: ``options`` (as given, e.g. the command line's), ``parameters`` (the selector's
    ``get_params``), ``seeds`` (``random_state`` and ``seed_entropy_``: passing the latter as
    ``random_state`` repeats a run made with fresh entropy; also as text, since JSON readers
    may round integers beyond 2⁵³), ``result`` (samples, features, lists, the subset size, the
    subset, and the size search's choice), ``stability``, ``versions`` and ``seconds``.

    Parameters
    ----------
    selector : EnsembleSelector
        A fitted selector.
    options : mapping, optional
        The options as given (the command line's).
    seconds : mapping, optional
        Timings to record.
    n_samples : int, optional
        Samples of the fit data.

    Returns
    -------
    dict
    """
    sel = selector
    ent = int(sel.seed_entropy_)
    result = {"n_samples": n_samples, "n_features": int(sel.n_features_in_),
              "n_lists": int(sel.lists_.n_lists), "n_selected": int(sel.n_features_),
              "subset": selected_features(sel)}
    sc = sel.subset_curve_
    if sc is not None:
        result["size_search"] = {"method": sc.method, "n_features": int(sc.n_features),
                                 "estimator": sc.estimator, "accuracy": float(sc.accuracy)}
    params = {k: v for k, v in sel.get_params(deep=False).items() if k != "estimators"}
    est = sel.estimators
    params["estimators"] = (list(DEFAULT_ESTIMATOR_NAMES) if est is None
                            else list(est) if isinstance(est, dict) else repr(est))
    stab = stability_table(sel)
    return _jsonable({
        "options": dict(options or {}),
        "parameters": params,
        "seeds": {"random_state": sel.random_state, "seed_entropy": ent,
                  "seed_entropy_text": str(ent)},
        "result": {k: v for k, v in result.items() if v is not None},
        "stability": None if stab is None else stab.to_dict(orient="index"),
        "versions": _versions(),
        "seconds": dict(seconds or {}),
    })


def write_selection(selector: EnsembleSelector, out, *, summary: Mapping,
                    overwrite: bool = False, inputs: Sequence = ()) -> list[Path]:
    """Save a fitted selector's results into the folder ``out``.

    Files (each written atomically): ``consensus.csv`` (feature, position, score, selected;
    best first), ``subset.txt`` (the selected features, best first, one a line),
    ``subset_curve.csv`` (the size search's curve, when searched), ``stability.csv`` (with
    bootstraps) and ``summary.json`` (``summary``, e.g. :func:`selection_summary`). An existing
    folder is refused unless ``overwrite``; then the files above are replaced and any of them
    this run does not produce is removed, nothing else is touched. ``inputs`` are the files the
    run read: ``out`` may not be one of them.

    Parameters
    ----------
    selector : EnsembleSelector
        A fitted selector.
    out : str or path-like
        The results folder.
    summary : mapping
        Written as ``summary.json``.
    overwrite : bool, default False
        Accept an existing folder.
    inputs : sequence of path-like, default ()
        The files the run read.

    Returns
    -------
    list of Path
        The files written.
    """
    folder = check_output_dir(out, overwrite=overwrite, inputs=inputs)
    folder.mkdir(exist_ok=True)
    sel = selector
    names = np.asarray(sel.lists_.features, dtype=object)
    order = np.argsort(sel.positions_, kind="stable")
    table = pd.DataFrame({"feature": [str(names[i]) for i in order],
                          "position": sel.positions_[order],
                          "score": sel.scores_[order],
                          "selected": sel.support_[order]})
    files = {
        "consensus.csv": to_csv(table, index=False),
        "subset.txt": "".join(f"{f}\n" for f in table.loc[table["selected"], "feature"]),
    }
    if sel.subset_curve_ is not None:
        files["subset_curve.csv"] = to_csv(sel.subset_curve_.curve, index=False)
    if sel.stability_ is not None:
        files["stability.csv"] = to_csv(sel.stability_)
    files["summary.json"] = json.dumps(summary, indent=2, ensure_ascii=False) + "\n"
    written = []
    for name, text in files.items():
        written.append(atomic_write_text(folder / name, text))
    for stale in set(RESULT_FILES) - set(files):
        (folder / stale).unlink(missing_ok=True)
    return written
