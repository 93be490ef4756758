"""Experiment configuration: a TOML grid, validated completely before any work starts.

The schema is documented in ``docs/experiments.md``; an annotated example lives in
``experiments/examples/``. In short::

    [experiment]  name, seed, description, task ("classification" or "regression")
    [grid]        datasets, selectors, rules, classifiers, protocols   (lists of labels)
    [datasets.<label>]    source (default: the label) and loader options, or
                          path = "data.csv" (relative to this file), target and the reading
                          options of rankfusion.io.load_data
    [selectors.<label>]   kind = "ensemble" | "svm_rfe" | "ranker" | "boruta" | "stability",
                          then its parameters
    [rules.<label>]       rule (default: the label) and the rule's parameters
    [protocols.<label>]   kind = "error_curve" | "cross_validation", then its parameters

:func:`load_config` parses and validates; every problem found is collected and reported at once
in a :class:`ConfigError`, each message naming the key and its place in the file
(``[grid] rules[3] = "kfrist": unknown rule; did you mean "kfirst"?``). The grid's cells are
planned here too (:class:`Cell`), so an impossible grid (a feature count above a dataset's
number of features, more folds than the smallest class …) fails before the first cell runs.
"""

from __future__ import annotations

import inspect
import math
import numbers
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from .._utils.constraints import (
    Boolean,
    InstanceOf,
    Interval,
    Options,
    SequenceOf,
    Table,
    describe,
    param_problems,
    toml_types,
)
from .._utils.registry import closest_name
from .cells import (
    Cell,
    artificial_names,
    dataset_info,
    load_dataset,
    sklearn_toy_names,
)

__all__ = ["ConditionalDefault", "ConfigError", "ExperimentConfig", "load_config",
           "parse_config", "saved_config_text", "schema_rows"]

SELECTOR_KINDS = ("ensemble", "svm_rfe", "ranker", "boruta", "stability")
#: ``[experiment] task``: what every data set's target is (docs/design.md, 'Tasks').
EXPERIMENT_TASKS = ("classification", "regression")
#: The selector kinds that choose a subset without a full ranking of their own: they run
#: under the ``cross_validation`` protocol (an error curve needs a ranking).
SUBSET_KINDS = ("boruta", "stability")
PROTOCOL_KINDS = ("error_curve", "cross_validation")

_INT, _FLOAT, _BOOL, _STR, _LIST = "int", "float", "bool", "str", "list"

# The keys of a [selectors.X] table are the selector's own parameters: their TOML types and
# values come from EnsembleSelector._parameter_constraints / SVMRFE._parameter_constraints,
# read each time a config is parsed (docs/design.md, 'Parameters'). A parameter no TOML value
# can hold (a callable, an estimator object) is not a key; nor are those the runner sets
# itself (the seed of each cell, its jobs, its progress).
_RUNNER_OWNED = ("random_state", "n_jobs", "progress", "verbose")

#: What only the config knows, in the same vocabulary: the keys every selector table may have,
#: a single-ranker selector's own keys, and the protocol keys that are config notation (not a
#: parameter of the protocol function). Meanings for :func:`schema_rows`.
_SELECTOR_COMMON = {
    "kind": ([Options(*SELECTOR_KINDS)], None, "the selector: an EnsembleSelector, an SVMRFE, "
             "one ranker of the registry, a BorutaSelector or a StabilitySelector"),
    "rules": ([SequenceOf(InstanceOf(str, "a [rules.X] label", toml="str"),
                          description="a list of [rules.X] labels")], None,
              "the rules crossed with this selector (default: the grid's rules)"),
}
_RANKER_KIND = {
    "ranker": ([InstanceOf(str, "a ranker name", toml="str"), Table()], None,
               "the ranker: a registered name, or a table with its name and parameters"),
}
_PROTOCOL_OWN = {
    "error_curve": {
        "n_features": ([SequenceOf(Interval("int", 1, None),
                                   description="a list of counts (ints ≥ 1)"),
                        InstanceOf(str, '"all", "log" or "log:N"', toml="str"),
                        InstanceOf(dict, "a table { log = N }", toml="table")], "log",
                       'the feature counts of the curve: a list, "all", "log" (20 log-spaced '
                       'counts) or "log:N"'),
        "standardize": ([Boolean()], False, "z-score the features inside each training part "
                        "before the selector"),
    },
    "cross_validation": {
        "n_features": ([Interval("int", 1, None), Interval("real", 0, 1, closed="right"),
                        Options("k-step", "learning-curve")], None,
                       "the selector's n_features_to_select in every fold"),
        "search_with_classifier": ([Boolean()], False, "a searched size uses the classifier "
                                   "the cell evaluates"),
        "small_classes": ([Boolean()], False, "allow folds that lack the rarest class (as "
                          "Weka's)"),
    },
}

@dataclass(frozen=True)
class ConditionalDefault:
    """The default of a configuration key that depends on another setting.

    A row of :func:`schema_rows` carries one where the runner fills in a key differently by
    the value of another key of the table (``[protocols.X] test_size`` by ``splits``) or by
    ``[experiment] task`` (``scoring``); :meth:`value` is what the validator fills in.

    Parameters
    ----------
    on : str
        The setting it depends on, as the configuration spells it (``"splits"``,
        ``"[experiment] task"``).
    cases : tuple of (value, default, note)
        For each value of ``on``: the default then (None: the key is left out, the protocol
        function's own default applies, or the key is refused) and a note saying why
        (``""``: none).

    Examples
    --------
    >>> d = ConditionalDefault("splits", (("random", 0.25, ""), ("kfold", None, "refused")))
    >>> d.value("random")
    0.25
    >>> print(d)
    ``0.25`` with ``splits = "random"``; none with ``splits = "kfold"`` (refused)
    """

    on: str
    cases: tuple

    def value(self, setting):
        """The default when ``on`` is ``setting`` (a fresh copy of a list).

        Parameters
        ----------
        setting : object
            A value of ``on`` among those of ``cases``.

        Returns
        -------
        object
            The default of that case (None: none).

        Raises
        ------
        ValueError
            ``setting`` is not a value of ``on`` that ``cases`` lists.
        """
        for when, default, _ in self.cases:
            if when == setting:
                return list(default) if isinstance(default, list) else default
        raise ValueError(f"setting must be one of {[c[0] for c in self.cases]} (the values "
                         f"of {self.on}), got {setting!r}")

    def __str__(self) -> str:
        def lit(v):
            if isinstance(v, str):
                return f'"{v}"'
            if isinstance(v, list):
                return "[" + ", ".join(lit(x) for x in v) + "]"
            return "true" if v is True else "false" if v is False else repr(v)

        return "; ".join((f"``{lit(d)}``" if d is not None else "none")
                         + f" with ``{self.on} = {lit(w)}``" + (f" ({n})" if n else "")
                         for w, d, n in self.cases)


def _protocol_defaults(kind: str) -> dict:
    """What the validator fills in for the keys of a ``[protocols.X]`` table of ``kind``
    shared with the protocol function, where the configuration's default is not (or not
    only) the function's own: one declaration for the validator and :func:`schema_rows`."""
    if kind == "error_curve":
        return {"n_splits": 10, "stratify": True, "splits": "random",
                "test_size": ConditionalDefault("splits", (
                    ("random", 0.25, ""),
                    ("kfold", None, "refused: each fold is the test part, about n / n_splits "
                                    "rows")))}
    from ..evaluation.protocols import REGRESSION_SCORINGS, SCORINGS

    return {"cv": 10,
            "scoring": ConditionalDefault("[experiment] task", (
                ("classification", list(SCORINGS), ""),
                ("regression", list(REGRESSION_SCORINGS), "")))}


_ARTIFICIAL_OPTIONS = {"n_samples": (_INT,), "n_noise": (_INT,), "shift": (_FLOAT, _INT),
                       "relevant_sd": (_FLOAT, _INT), "shuffle": (_BOOL,), "seed": (_INT,)}
_REAL_OPTIONS = {"dropna": (_BOOL,)}
#: ``[datasets.<label>] path = "data.csv"``: the user's own file, read by
#: :func:`rankfusion.io.load_data` with these of its options.
_FILE_OPTIONS = {"path": (_STR,), "target": (_STR, _INT), "format": (_STR,),
                 "drop": (_STR, _LIST), "na_values": (_STR, _INT, _FLOAT, _LIST),
                 "nominal": (_STR, _LIST), "sep": (_STR,), "encoding": (_STR,)}
_FILE_FORMATS = ("csv", "arff", "parquet")
_TOP_LEVEL = ("experiment", "grid", "datasets", "selectors", "rules", "protocols")


class ConfigError(ValueError):
    """A configuration with problems; ``errors`` lists every message (key, place, problem).

    Parameters
    ----------
    errors : list of str
        Every problem found, each naming its key and place.
    source : str, default "config"
        The configuration's name (a file name) in the message.
    """

    def __init__(self, errors: list[str], source: str = "config"):
        self.errors = list(errors)
        self.source = source
        head = (f"{source}: 1 error" if len(errors) == 1
                else f"{source}: {len(errors)} errors")
        super().__init__(head + "\n  " + "\n  ".join(self.errors))


@dataclass
class ExperimentConfig:
    """A validated experiment: its settings and the planned cells (in grid order).

    The parameters are kept as the attributes of the same name.

    Parameters
    ----------
    name : str
        The experiment's name.
    seed : int
        Its root seed.
    description : str
        Free text kept with the results.
    cells : list of Cell
        The planned cells, in grid order.
    raw : dict
        The parsed TOML.
    source_text : str
        The configuration's text, as read.
    task : {"classification", "regression"}
        ``[experiment] task``: what every data set's target is.
    data_files : dict
        ``[datasets.<label>] path`` of the grid's data sets read from the user's files: label
        → ``{"path": the resolved (absolute) path, "written": the path as the configuration
        writes it, "sha256": the file's digest}``.
    """

    name: str
    seed: int
    description: str
    cells: list[Cell]
    raw: dict = field(repr=False)
    source_text: str = field(default="", repr=False)
    task: str = "classification"
    data_files: dict = field(default_factory=dict, repr=False)


# --------------------------------------------------------------------------- helpers
def _type_name(value) -> str:
    if isinstance(value, bool):
        return _BOOL
    if isinstance(value, numbers.Integral):
        return _INT
    if isinstance(value, numbers.Real):
        return _FLOAT
    if isinstance(value, str):
        return _STR
    if isinstance(value, list):
        return _LIST
    if isinstance(value, dict):
        return "table"
    return type(value).__name__


def _fmt(value) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _suggest(name, known) -> str:
    names = [str(k) for k in known]
    key = str(name).strip().lower()
    close = closest_name(str(name), names) or (next(
        (k for k in names if key and len(key) >= 2 and key in k.lower()), None)
        if isinstance(name, str) else None)
    if close:
        return f'; did you mean "{close}"?'
    shown = ", ".join(sorted(str(k) for k in known))
    return f"; known: {shown}" if len(shown) < 400 else ""


class _Errors:
    def __init__(self):
        self.items: list[str] = []

    def add(self, place: str, msg: str):
        self.items.append(f"{place}: {msg}")

    def check_type(self, place: str, value, allowed: tuple) -> bool:
        t = _type_name(value)
        ok = t in allowed
        if not ok:
            want = " or ".join(allowed)
            self.add(place, f"expected {want}, got {t} {_fmt(value)}")
        return ok

    def check_keys(self, where: str, table: dict, allowed, what: str = "key"):
        for key in table:
            if key not in allowed:
                self.add(f"{where} {key}", f"unknown {what}{_suggest(key, allowed)}")


def _ranker_params(name: str) -> tuple[str, ...] | None:
    """The keys a ranker table may set: the entry's parameters but ``random_state`` (the
    runner's); None when it takes any keyword (checked when the ranker runs)."""
    from ..rankers import ranker_info

    entry = ranker_info(name)
    if entry.var_keyword:
        return None
    return tuple(p for p in entry.params if p != "random_state")


def _toml_allowed(constraints) -> tuple[str, ...]:
    """The TOML types of a key (an int where a float is accepted: TOML writes 1 for 1.0)."""
    types = toml_types(constraints)
    if "float" in types and "int" not in types:
        types.append("int")
    return tuple(types)


def _selector_schema(kind: str) -> dict:
    """``{key: constraints}`` of a ``[selectors.X]`` table of ``kind`` (without ``kind`` and
    ``rules``), read from the selector's ``_parameter_constraints`` now, so that a changed
    declaration changes what the config accepts."""
    if kind == "ranker":
        from ..selection import EnsembleSelector

        return {"ranker": _RANKER_KIND["ranker"][0],
                "n_features_to_select":
                    EnsembleSelector._parameter_constraints["n_features_to_select"]}
    cls = _selector_class(kind)
    return {k: cs for k, cs in cls._parameter_constraints.items()
            if k not in _RUNNER_OWNED and toml_types(cs)}


def _selector_class(kind: str):
    """The class of a ``[selectors.X] kind``."""
    from ..selection import SVMRFE, BorutaSelector, EnsembleSelector, StabilitySelector

    return {"ensemble": EnsembleSelector, "ranker": EnsembleSelector, "svm_rfe": SVMRFE,
            "boruta": BorutaSelector, "stability": StabilitySelector}[kind]


def _protocol_schema(kind: str) -> dict:
    """``{key: constraints}`` of a ``[protocols.X]`` table of ``kind`` (without ``kind``): the
    protocol function's declared constraints (``ERROR_CURVE_CONSTRAINTS`` /
    ``CROSS_VALIDATION_CONSTRAINTS`` of :mod:`rankfusion.evaluation.protocols`, read now) for
    the keys it shares with the config, and the config's own notation keys."""
    from ..evaluation import protocols

    declared = (protocols.ERROR_CURVE_CONSTRAINTS if kind == "error_curve"
                else protocols.CROSS_VALIDATION_CONSTRAINTS)
    shared = (("n_splits", "test_size", "stratify", "splits") if kind == "error_curve"
              else ("cv", "scoring", "pos_label"))
    out = {k: [c for c in declared[k] if c is not None] for k in shared}  # TOML has no None
    out.update({k: v[0] for k, v in _PROTOCOL_OWN[kind].items()})
    return out


def _check_table(place: str, table: dict, schema: dict, err, what: str,
                 skip=("kind",)) -> tuple[dict, bool]:
    """Every key of ``table`` against ``schema``: an unknown key (with the closest known one),
    a TOML type no constraint takes, or a value the constraints refuse (their message), each
    reported at its place. Returns the parameters and whether all were valid."""
    params, ok = {}, True
    for key, value in table.items():
        if key in skip:
            continue
        if key not in schema:
            err.add(f"{place} {key}", f"unknown parameter of {what}" + _suggest(key, schema))
            ok = False
            continue
        if not err.check_type(f"{place} {key}", value, _toml_allowed(schema[key])):
            ok = False
            continue
        problems = param_problems({key: schema[key]}, {key: value})
        if problems:
            err.add(f"{place} {key} = {_fmt(value)}", problems[0])
            ok = False
            continue
        params[key] = value
    return params, ok


def _known_rankers() -> list[str]:
    from ..rankers import available_rankers

    return available_rankers(aliases=True)


def _known_rules() -> list[str]:
    from ..aggregation import available_rules

    return available_rules(aliases=True)


def _rule_params(name: str) -> tuple[str, ...]:
    from ..aggregation import resolve

    return tuple(resolve(name).entry.params)


def _check_rule_spec(place: str, rule: str, err, known, extra=()) -> bool:
    """A rule spec of the config (``"kfirst"``, ``"fuzzy:OW"``, ``"kfirst:k=0.05"``) through
    :func:`rankfusion.aggregation.resolve`: an unknown name, or what resolve refuses in the
    text, is reported at ``place``. Returns whether it resolves."""
    from ..aggregation import resolve

    name = rule.partition(":")[0].strip()
    if name not in known:
        err.add(place, "unknown rule" + _suggest(name, list(known) + list(extra)))
        return False
    try:
        resolve(rule)
    except (ValueError, TypeError) as exc:
        err.add(place, str(exc).splitlines()[0])
        return False
    return True


def _known_classifiers(task=None) -> list[str]:
    """The estimator names of ``task`` (None: every registered one)."""
    from ..evaluation import available_classifiers

    return available_classifiers() if task is None else available_classifiers(task)


# --------------------------------------------------------------------------- sections
def _check_experiment(raw, err: _Errors, default_name: str):
    exp = raw.get("experiment", {})
    if not isinstance(exp, dict):
        err.add("[experiment]", f"expected a table, got {_type_name(exp)}")
        return default_name, 0, "", "classification"
    err.check_keys("[experiment]", exp, ("name", "seed", "description", "task"))
    task = exp.get("task", "classification")
    if task not in EXPERIMENT_TASKS:
        err.add(f"[experiment] task = {_fmt(task)}", "expected \"classification\" or "
                "\"regression\"" + (_suggest(task, EXPERIMENT_TASKS)
                                     if isinstance(task, str) else ""))
        task = "classification"
    name = exp.get("name", default_name)
    if not isinstance(name, str) or not name.strip():
        err.add("[experiment] name", f"expected a non-empty str, got {_fmt(name)}")
        name = default_name
    if "seed" not in exp:
        err.add("[experiment] seed", "missing: every experiment needs a seed (an int in "
                "[0, 2**32)) so its results can be reproduced")
        seed = 0
    else:
        seed = exp["seed"]
        if err.check_type("[experiment] seed", seed, (_INT,)) and not 0 <= seed < 2**32:
            err.add("[experiment] seed", f"must lie in [0, 2**32), got {seed}")
        if not isinstance(seed, int) or isinstance(seed, bool):
            seed = 0
    desc = exp.get("description", "")
    if not isinstance(desc, str):
        err.add("[experiment] description", f"expected str, got {_type_name(desc)}")
        desc = ""
    return name, int(seed), desc, task


def _grid_list(grid: dict, key: str, err: _Errors, *, required: bool = True):
    if key not in grid:
        if required:
            err.add(f"[grid] {key}", "missing")
        return None
    value = grid[key]
    if not isinstance(value, list):
        err.add(f"[grid] {key}", f"expected a list of str, got {_type_name(value)} "
                f"{_fmt(value)}")
        return None
    if not value:
        err.add(f"[grid] {key}", "is empty: the grid would have no cells")
        return None
    out, seen = [], set()
    for i, v in enumerate(value):
        if not isinstance(v, str):
            err.add(f"[grid] {key}[{i}]", f"expected str, got {_type_name(v)} {_fmt(v)}")
            continue
        if v in seen:
            err.add(f"[grid] {key}[{i}] = {_fmt(v)}", "listed twice")
            continue
        seen.add(v)
        out.append((i, v))
    return out


def _check_file_dataset(label, opts: dict, table: dict, err: _Errors, base_dir):
    """``[datasets.<label>] path = …``: the user's file, its reading options checked, its
    path resolved against the configuration's folder and its SHA-256 taken (the identity of
    the data in every cell: a changed file is new data, never a reused cell). Returns the
    resolved ``(source, options)`` or None after adding the errors."""
    from .cells import FILE_SOURCE, file_sha256

    place = f"[datasets.{label}]"
    if "source" in table:
        err.add(f"{place} path", "give path (your data file) or source (a bundled, artificial "
                "or scikit-learn data set), not both")
        return None
    bad = False
    for key, value in opts.items():
        if key not in _FILE_OPTIONS:
            err.add(f"{place} {key}", "unknown option for a data file"
                    + _suggest(key, _FILE_OPTIONS))
            bad = True
        elif not err.check_type(f"{place} {key}", value, _FILE_OPTIONS[key]):
            bad = True
        elif isinstance(value, list):
            allowed = (_STR, _INT, _FLOAT) if key == "na_values" else (_STR,)
            for i, item in enumerate(value):
                if _type_name(item) not in allowed:
                    err.add(f"{place} {key}[{i}]", f"expected {' or '.join(allowed)}, got "
                            f"{_type_name(item)} {_fmt(item)}")
                    bad = True
    fmt = opts.get("format")
    if isinstance(fmt, str) and fmt not in _FILE_FORMATS:
        err.add(f"{place} format", f"unknown format {_fmt(fmt)}" + _suggest(fmt, _FILE_FORMATS))
        bad = True
    if bad:
        return None
    text = opts["path"]
    if not text.strip():
        err.add(f"{place} path", "is empty; name your data file (.csv, .arff, .parquet)")
        return None
    path = Path(text).expanduser()
    if not path.is_absolute():
        path = Path(base_dir if base_dir is not None else ".") / path
    path = path.resolve()
    where = f"{place} path = {_fmt(text)}"
    if not path.exists():
        err.add(where, f"no such file ({path}; a relative path is read from the "
                "configuration file's folder)")
        return None
    if not path.is_file():
        err.add(where, f"is a folder, not a data file ({path})")
        return None
    try:
        digest = file_sha256(path)
    except OSError as exc:
        err.add(where, f"cannot be read: {exc}")
        return None
    return FILE_SOURCE, {**opts, "path": str(path), "sha256": digest}


def _check_datasets(grid, raw, err: _Errors, base_dir=None, task="classification", *,
                    explicit_classification: bool = False):
    """label → (source, options, info). A data file whose target the reader's class-label
    rule refuses (many distinct whole numbers) is read as classes when ``[experiment] task =
    "classification"`` says so explicitly: its options then hold ``task = "classification"``
    (so its cells' spec says how it was read; every file the rule accepts keeps its spec)."""
    items = _grid_list(grid, "datasets", err)
    tables = raw.get("datasets", {})
    if not isinstance(tables, dict):
        err.add("[datasets]", f"expected tables [datasets.<label>], got {_type_name(tables)}")
        tables = {}
    out = {}
    names_known = None
    for i, label in items or []:
        opts = dict(tables.get(label, {}))
        place = f"[datasets.{label}]"
        if not isinstance(tables.get(label, {}), dict):
            err.add(place, "expected a table")
            continue
        if "path" in opts:
            resolved = _check_file_dataset(label, opts, tables.get(label, {}), err, base_dir)
            if resolved is None:
                continue
            source, opts = resolved
            try:
                info = dataset_info(source, opts, task)
            except (ValueError, TypeError, OSError) as exc:
                info = None
                if explicit_classification and isinstance(exc, ValueError):
                    try:  # an explicit task is honoured (docs/design.md, 'Tasks')
                        opts = {**opts, "task": "classification"}
                        info = dataset_info(source, opts, task)
                    except (ValueError, TypeError, OSError):
                        info = None
                if info is None:
                    err.add(f"{place} path = {_fmt(tables[label]['path'])}",
                            _file_problem(exc, label, source, opts, task))
                    continue
            if _check_data_shape(f"{place} path = {_fmt(tables[label]['path'])}", info,
                                 opts, task, err):
                out[label] = (source, opts, info)
            continue
        source = opts.pop("source", label)
        if not isinstance(source, str):
            err.add(f"{place} source", f"expected str, got {_type_name(source)}")
            continue
        where = (f"[grid] datasets[{i}] = {_fmt(label)}" if "source" not in tables.get(label, {})
                 else f"{place} source = {_fmt(source)}")
        if source in artificial_names():
            allowed = _ARTIFICIAL_OPTIONS
        elif source.startswith("sklearn:"):
            if source[8:] not in sklearn_toy_names():
                err.add(where, "unknown scikit-learn dataset" + _suggest(
                    source, [f"sklearn:{n}" for n in sklearn_toy_names()]))
                continue
            allowed = {}
        else:
            if names_known is None:
                from ..datasets import available_datasets

                names_known = [str(n) for n in available_datasets()["name"]]
            if source not in names_known:
                hint = _suggest(source, list(tables) + names_known + list(artificial_names())
                                + [f"sklearn:{n}" for n in sklearn_toy_names()])
                err.add(where, "unknown dataset" + (hint or "; see `rankfusion datasets` or "
                                                    "rankfusion.datasets.available_datasets()"))
                continue
            allowed = _REAL_OPTIONS
        bad = False
        for key, value in opts.items():
            if key not in allowed:
                err.add(f"{place} {key}", f"unknown option for dataset {_fmt(source)}"
                        + (_suggest(key, allowed) if allowed else "; it takes no options"))
                bad = True
            elif not err.check_type(f"{place} {key}", value, allowed[key]):
                bad = True
            elif _type_name(value) == _INT and value < 1 and key in ("n_samples",):
                err.add(f"{place} {key}", f"must be ≥ 1, got {value}")
                bad = True
        if bad:
            continue
        try:
            info = dataset_info(source, opts, task)
        except (ValueError, TypeError, OSError) as exc:
            err.add(where, f"cannot be loaded: {exc}")
            continue
        if _check_data_shape(where, info, None, task, err):
            out[label] = (source, opts, info)
    return items, out


def _toml_words(message: str, label: str) -> str:
    """A reader's message in the configuration's words: its keyword arguments and command-line
    options become the TOML keys that set them."""
    def option(match):  # "pass --sep ';' (sep=';')" → sep = ";"
        key, value = match.group(1), match.group(2).strip()
        if key not in _FILE_OPTIONS:
            return match.group(0)
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = _toml_string(value[1:-1])
        return f"set {key} = {value} in [datasets.{label}]"

    text = re.sub(r"""(?:pass )?--[\w-]+ (?:'[^']*'|"[^"]*"|\S+) \((\w+)=([^()]*)\)""", option,
                  str(message))
    text = re.sub(r"""\btask=["']?(\w+)["']?(?: \(--task \w+\))?""",
                  r'task = "\1" in [experiment]', text)
    return re.sub(r"\btarget=(?: \(--target\))?", f'target = "…" in [datasets.{label}]', text)


def _numeric_target(source, opts) -> str | None:
    """How the target of a data file reads as numbers (``"non-integer numbers such as
    0.79"``), or None when it does not."""
    try:
        _, y, _ = load_dataset(source, opts, "regression")
    except (ValueError, TypeError, OSError):
        return None
    y = np.asarray(y, dtype=np.float64)
    y = y[np.isfinite(y)]
    if not y.size:
        return None
    frac = y[y != np.round(y)]
    if frac.size:
        return f"non-integer numbers such as {float(frac[0]):.6g}"
    return (f"{np.unique(y).shape[0]} distinct whole numbers such as {int(y[0])}")


def _file_problem(exc, label, source, opts, task) -> str:
    """What a data file that cannot be read for the grid is told: a numeric target under the
    classification task names ``[experiment] task``; anything else the reader's message."""
    if task == "classification" and isinstance(exc, ValueError):
        numbers = _numeric_target(source, opts)
        if numbers is not None:
            column = f" {opts['target']!r}" if "target" in opts else ""
            whole = numbers.startswith("non-integer")
            return (f"the target column{column} holds {numbers}, not class labels: for a "
                    'numeric target set task = "regression" in [experiment]'
                    + ("" if whole else '; whole numbers that name classes: task = '
                       '"classification"')
                    + f'; another column: target = "…" in [datasets.{label}]')
    return f"cannot be loaded: {_toml_words(exc, label)}"


def _check_data_shape(where, info, file_opts, task, err) -> bool:
    """What the data's shape already decides, refused before any cell runs: features missing
    in every row, a classification target with fewer than two classes. ``file_opts``: the
    options of a data file (its ``drop`` and ``target`` keys are the way out)."""
    n0 = len(err.items)
    n = info["n_samples"]
    empty = info.get("empty_columns") or []
    if empty and len(empty) == info["n_features"]:
        err.add(where, f"every feature is missing in all {n} rows: there is nothing to select "
                "from" + (" (na_values may name values that are data)"
                          if file_opts and "na_values" in file_opts else ""))
    elif empty:
        shown = ", ".join(f"'{c}'" for c in empty[:5]) + (
            f" and {len(empty) - 5} more" if len(empty) > 5 else "")
        drop = file_opts.get("drop", []) if file_opts else []
        drop = [drop] if isinstance(drop, str) else list(drop)
        hint = (f"; leave {'it' if len(empty) == 1 else 'them'} out with drop = "
                f"{_toml_value(drop + empty)}" if file_opts is not None else "")
        err.add(where, f"{'column' if len(empty) == 1 else 'columns'} {shown} "
                f"{'has' if len(empty) == 1 else 'have'} no value (missing in all {n} rows)"
                + hint)
    if task == "classification" and info["n_classes"] < 2:
        column = (f" column '{file_opts['target']}'" if file_opts and "target" in file_opts
                  else "")
        got = ("no class label" if info["n_classes"] == 0 else
               f"one class ('{info['first_class']}', in all {n} rows)")
        err.add(where, f"the target{column} holds {got}: feature selection needs at least 2 "
                "classes" + ('; choose the class column with target = "…", or for a numeric '
                             'target set task = "regression" in [experiment]'
                             if file_opts is not None else ""))
    return len(err.items) == n0


def _check_rankers(place: str, rankers, err: _Errors):
    if not isinstance(rankers, list) or not rankers:
        err.add(place, f"expected a non-empty list of ranker names or tables, got "
                f"{_fmt(rankers)}")
        return None
    known = _known_rankers()
    out = []
    for j, r in enumerate(rankers):
        where = f"{place}[{j}]"
        if isinstance(r, dict):
            params = dict(r)
            name = params.pop("name", None)
            if not isinstance(name, str):
                err.add(f"{where} name", "missing: a ranker table needs name = \"…\"")
                continue
        elif isinstance(r, str):
            name, params = r, {}
        else:
            err.add(where, f"expected a ranker name or table, got {_type_name(r)} {_fmt(r)}")
            continue
        if name not in known:
            err.add(f"{where} = {_fmt(name)}", "unknown ranker" + _suggest(name, known))
            continue
        allowed = _ranker_params(name)
        names_ok = True
        if allowed is not None:
            for key in params:
                if key not in allowed:
                    msg = (f"unknown parameter of ranker {_fmt(name)}" + _suggest(key, allowed)
                           if allowed else f"ranker {_fmt(name)} takes no parameters")
                    err.add(f"{where} {key}", msg)
                    names_ok = False
        if names_ok and params:
            from ..rankers import ranker_info

            problems = [(k, m) for k in params
                        for m in param_problems(ranker_info(name).constraints,
                                                {k: params[k]})]
            for k, m in problems:
                err.add(f"{where} {k} = {_fmt(params[k])}", f"{m} (ranker {_fmt(name)})")
            if not problems:
                _own_check(where, params, err, _check_ranker_values, name, params,
                           who=f"ranker {_fmt(name)}")
        out.append({"name": name, **params} if params else name)
    return out


def _check_ranker_values(name, params):
    from ..selection.ranker_specs import check_ranker_params

    check_ranker_params(name, params)


def _check_rule_values(rule, params):
    from ..aggregation import check_rule_params

    check_rule_params(rule, params)


def _named_key(message: str, params: dict):
    """The key of ``params`` that ``message`` names first (as a whole word), or None."""
    import re

    best = None
    for key in params:
        m = re.search(rf"(?<!\w){re.escape(str(key))}(?!\w)", message)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), key)
    return None if best is None else best[1]


def _own_check(where: str, params: dict, err, check, *args, who: str) -> bool:
    """Run a ranker's or a rule's own parameter check (``check(*args)``) before any work; a
    refusal is reported at ``where KEY = VALUE`` with the check's message (which says what is
    allowed). Returns whether the values passed."""
    try:
        check(*args)
    except (ValueError, TypeError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        key = _named_key(msg, params)
        place = where if key is None else f"{where} {key} = {_fmt(params[key])}"
        err.add(place, f"{msg} (refused by {who})")
        return False
    return True


def _check_classifier_names(place, names, err, task=None):
    known = _known_classifiers(task)
    if not isinstance(names, list) or not names:
        err.add(place, "expected a non-empty list of classifier names")
        return
    for j, n in enumerate(names):
        if not isinstance(n, str) or n not in known:
            err.add(f"{place}[{j}] = {_fmt(n)}", "unknown classifier" + _suggest(n, known))


def _check_selectors(grid, raw, err: _Errors, task="classification"):
    items = _grid_list(grid, "selectors", err)
    tables = raw.get("selectors", {})
    if not isinstance(tables, dict):
        err.add("[selectors]", f"expected tables [selectors.<label>], got {_type_name(tables)}")
        tables = {}
    out = {}
    for i, label in items or []:
        place = f"[selectors.{label}]"
        if label not in tables:
            err.add(f"[grid] selectors[{i}] = {_fmt(label)}",
                    "no table [selectors." + label + "] defines it"
                    + _suggest(label, list(tables)))
            continue
        table = tables[label]
        if not isinstance(table, dict):
            err.add(place, "expected a table")
            continue
        kind = table.get("kind")
        if kind not in SELECTOR_KINDS:
            err.add(f"{place} kind", ("missing" if kind is None else
                    f"{_fmt(kind)}: unknown selector kind" + _suggest(kind, SELECTOR_KINDS))
                    + f" (one of {', '.join(SELECTOR_KINDS)})")
            continue
        schema = {**{k: v[0] for k, v in _SELECTOR_COMMON.items()}, **_selector_schema(kind)}
        params, ok = _check_table(place, table, schema, err,
                                  f"a selector of kind {_fmt(kind)}")
        ok &= _check_selector_values(place, kind, params, err, task)
        if ok:
            out[label] = (kind, params)
    return items, out


def _check_regression_rankers(place, rankers, err) -> None:
    """Each ranker of a regression experiment supports regression (the registry's task tag):
    else its message, naming the regression rankers."""
    from ..rankers import check_ranker_task

    for j, r in enumerate(rankers):
        name = r["name"] if isinstance(r, dict) else r
        try:
            check_ranker_task(name, "regression")
        except ValueError as exc:
            err.add(f"{place}[{j}] = {_fmt(name)}", str(exc).splitlines()[0])


def _respell_msvm(place, params, err) -> None:
    """``decomposition = "crammer_singer" | "weston_watkins"`` of an ``svm_rfe`` table (the
    spelling before ``criterion``) becomes ``criterion = ...`` on the default ``"ovo"``
    decomposition, as :func:`rankfusion.selection.svm_rfe.resolve_criterion` does for the
    estimator: one ``FutureWarning`` naming the table, and the cells are planned (and hashed)
    with the current spelling, so the two spellings are the same experiment cell for cell. A
    ``criterion`` naming another MSVM is refused."""
    import warnings

    dec = params.get("decomposition")
    if not isinstance(dec, str) or dec not in ("crammer_singer", "weston_watkins"):
        return
    crit = params.get("criterion", "binary")
    if crit not in ("binary", dec):
        err.add(f"{place} decomposition = {_fmt(dec)}",
                f"the former spelling of criterion = {_fmt(dec)} contradicts criterion = "
                f"{_fmt(crit)}: give criterion only")
        return
    warnings.warn(f"{place} decomposition = {_fmt(dec)} is deprecated and will be refused in "
                  f"the next release: write criterion = {_fmt(dec)} (decomposition names the "
                  "binary problems, ovo or ova); the results are the same", FutureWarning,
                  stacklevel=2)
    del params["decomposition"]
    params["criterion"] = dec


def _check_selector_values(place, kind, params, err, task="classification") -> bool:
    """What a selector table needs beyond each key's declared constraints (checked by
    :func:`_check_table`): the rankers and classifiers it names, its list weights against its
    rankers, and its rule with the rule's parameters."""
    n0 = len(err.items)
    if kind == "ensemble":
        if "rankers" in params:
            params["rankers"] = _check_rankers(f"{place} rankers", params["rankers"], err)
            if task == "regression" and len(err.items) == n0:
                _check_regression_rankers(f"{place} rankers", params["rankers"], err)
        if "estimators" in params:
            _check_classifier_names(f"{place} estimators", params["estimators"], err, task)
        if isinstance(params.get("list_weights"), list):
            lw = params["list_weights"]
            bad = [j for j, w in enumerate(lw) if _type_name(w) not in (_INT, _FLOAT) or w < 0]
            if bad:
                err.add(f"{place} list_weights[{bad[0]}]",
                        f"expected a number ≥ 0, got {_fmt(lw[bad[0]])}")
            elif not any(w > 0 for w in lw):
                err.add(f"{place} list_weights", "must not be empty or all zero")
            elif isinstance(params.get("rankers"), list) and params.get("n_bootstraps", 0) == 0 \
                    and len(lw) != len(params["rankers"]):
                err.add(f"{place} list_weights", f"{len(lw)} weights for "
                        f"{len(params['rankers'])} rankers")
        agg = params.get("aggregation")
        if isinstance(agg, str) and _check_rule_spec(f"{place} aggregation = {_fmt(agg)}",
                                                     agg, err, _known_rules()):
            if isinstance(params.get("aggregation_params"), dict):
                allowed = _rule_params(agg)
                for key, value in params["aggregation_params"].items():
                    if key not in allowed:
                        err.add(f"{place} aggregation_params {key}",
                                f"unknown parameter of rule {_fmt(agg)}"
                                + (_suggest(key, allowed) if allowed else "; it takes none"))
                    elif key == "k":
                        _check_k_value(f"{place} aggregation_params k", value, err)
                if len(err.items) == n0:
                    _own_check(f"{place} aggregation_params", params["aggregation_params"],
                               err, _check_rule_values, agg, params["aggregation_params"],
                               who=f"rule {_fmt(agg)}")
    elif kind == "svm_rfe":
        _respell_msvm(place, params, err)
        agg = params.get("aggregation")
        ap = params.get("aggregation_params")
        ok = not isinstance(agg, str) or agg == "average" or _check_rule_spec(
            f"{place} aggregation = {_fmt(agg)}", agg, err, _known_rules(), ["average"])
        if ok and isinstance(ap, dict) and ap:
            rule = agg if isinstance(agg, str) else "kfirst"  # SVMRFE's default rule
            if rule == "average":
                err.add(f"{place} aggregation_params", '"average" (one joint RFE) takes none')
            else:
                _own_check(f"{place} aggregation_params", ap, err, _check_rule_values, rule, ap,
                           who=f"rule {_fmt(rule)}")
    elif kind in SUBSET_KINDS:
        # under task = "regression" the rankers must support it (the selector's default
        # without one: f_regression / a random-forest regressor)
        if kind == "stability" and "rankers" in params:
            params["rankers"] = _check_rankers(f"{place} rankers", params["rankers"], err)
            if task == "regression" and len(err.items) == n0:
                _check_regression_rankers(f"{place} rankers", params["rankers"], err)
        elif kind == "boruta" and isinstance(params.get("ranker"), str):
            got = _check_rankers(f"{place} ranker", [params["ranker"]], err)
            if task == "regression" and len(err.items) == n0:
                _check_regression_rankers(f"{place} ranker", got, err)
    elif kind == "ranker":
        r = params.get("ranker")
        if r is None:
            err.add(f"{place} ranker", "missing: the ranker's name (or a table with name)")
        else:
            got = _check_rankers(f"{place} ranker", [r], err)
            if got:
                params["ranker"] = got[0]
                if task == "regression":
                    _check_regression_rankers(f"{place} ranker", got, err)
    return len(err.items) == n0


def _check_rules(grid, raw, err: _Errors):
    """label → (rule name, params); the grid's list may be absent (selectors' defaults)."""
    items = _grid_list(grid, "rules", err, required=False)
    tables = raw.get("rules", {})
    if not isinstance(tables, dict):
        err.add("[rules]", f"expected tables [rules.<label>], got {_type_name(tables)}")
        tables = {}
    known = _known_rules()
    out = {}
    labels = [(f"[grid] rules[{i}]", v) for i, v in (items or [])]
    listed = {v for _, v in labels}
    for label in tables:
        if label not in listed:
            labels.append((f"[rules.{label}]", label))
    for where, label in labels:
        table = tables.get(label, {})
        if not isinstance(table, dict):
            err.add(f"[rules.{label}]", "expected a table")
            continue
        params = dict(table)
        rule = params.pop("rule", label)
        place = (f"{where} = {_fmt(label)}" if "rule" not in table
                 else f"[rules.{label}] rule = {_fmt(rule)}")
        if not isinstance(rule, str):
            err.add(f"[rules.{label}] rule", f"expected str, got {_type_name(rule)}")
            continue
        if rule == "average":
            allowed: tuple = ()
        elif not _check_rule_spec(place, rule, err, known, ["average"]):
            continue
        else:
            allowed = _rule_params(rule)
        for key, value in params.items():
            if key not in allowed:
                err.add(f"[rules.{label}] {key}", f"unknown parameter of rule {_fmt(rule)}"
                        + (_suggest(key, allowed) if allowed else "; it takes none"))
            elif _type_name(value) not in (_INT, _FLOAT, _STR, _BOOL, _LIST):
                err.add(f"[rules.{label}] {key}", f"expected a value, got {_type_name(value)}")
            elif key == "k":
                _check_k_value(f"[rules.{label}] k", value, err)
        if params and allowed and all(k in allowed for k in params) and not any(
                e.startswith(f"[rules.{label}]") for e in err.items):
            _own_check(f"[rules.{label}]", params, err, _check_rule_values, rule, params,
                       who=f"rule {_fmt(rule)}")
        out[label] = (rule, params)
    return items, out


def _check_k_value(place, value, err) -> None:
    """A top-k rule's ``k``: a count ≥ 1 or a fraction in (0, 1] (docs/design.md,
    'Fractions'); that a count fits each data set's features is checked when the data are."""
    if _type_name(value) == _INT:
        if value < 1:
            err.add(place, f"a count must be ≥ 1, got {value}")
    elif _type_name(value) == _FLOAT:
        if not 0 < value <= 1:
            err.add(place, f"a fraction must lie in (0, 1], got {value}")
    else:
        err.add(place, f"expected a count (int ≥ 1) or a fraction in (0, 1], got "
                f"{_type_name(value)} {_fmt(value)}")


def _resolve_grid(value, p: int) -> list[int]:
    from ..evaluation import log_grid

    if value == "all":  # every count 1 … p
        return list(range(1, p + 1))
    if isinstance(value, str):  # "log" or "log:N"
        num = int(value.split(":", 1)[1]) if ":" in value else 20
        return [int(k) for k in log_grid(p, num)]
    if isinstance(value, dict):
        return [int(k) for k in log_grid(p, int(value["log"]))]
    return sorted({int(k) for k in value})


def _check_protocols(grid, raw, err: _Errors, task="classification"):
    tables = raw.get("protocols", {})
    if not isinstance(tables, dict):
        err.add("[protocols]", f"expected tables [protocols.<label>], got {_type_name(tables)}")
        tables = {}
    items = _grid_list(grid, "protocols", err, required=False)
    if items is None and "protocols" not in grid:
        if not tables:
            err.add("[protocols]", "missing: define at least one [protocols.<label>] table "
                    "(kind = \"error_curve\" or \"cross_validation\")")
        items = [(i, k) for i, k in enumerate(tables)]
    out = {}
    for i, label in items or []:
        place = f"[protocols.{label}]"
        if label not in tables:
            err.add(f"[grid] protocols[{i}] = {_fmt(label)}", "no table [protocols." + label
                    + "] defines it" + _suggest(label, list(tables)))
            continue
        table = tables[label]
        if not isinstance(table, dict):
            err.add(place, "expected a table")
            continue
        kind = table.get("kind")
        if kind not in PROTOCOL_KINDS:
            err.add(f"{place} kind", ("missing" if kind is None else
                    f"{_fmt(kind)}: unknown protocol" + _suggest(kind, PROTOCOL_KINDS))
                    + f" (one of {', '.join(PROTOCOL_KINDS)})")
            continue
        n0 = len(err.items)
        params, _ = _check_table(place, table, _protocol_schema(kind), err,
                                 f"protocol {_fmt(kind)}")
        if len(err.items) > n0:
            continue
        # the defaults the runner uses, and the config notation of n_features
        defaults = _protocol_defaults(kind)
        if kind == "error_curve":
            params.setdefault("n_splits", defaults["n_splits"])
            if params.get("splits") == "kfold":
                # the folds are the test parts; "random" is the default and is left out of
                # the cell spec, so the cells of configurations without the key keep their
                # hashes
                if "test_size" in params:
                    err.add(f"{place} test_size = {_fmt(params['test_size'])}",
                            'not used with splits = "kfold" (each fold is a test part of '
                            'about n / n_splits rows): leave it out')
            else:
                params.pop("splits", None)
                params.setdefault("test_size", defaults["test_size"].value("random"))
            params.setdefault("stratify", defaults["stratify"])
            params.setdefault("n_features", _PROTOCOL_OWN[kind]["n_features"][1])
            nf = params["n_features"]
            if isinstance(nf, str) and not (nf in ("log", "all") or (
                    nf.startswith("log:") and nf[4:].isdigit() and int(nf[4:]) >= 1)):
                err.add(f"{place} n_features = {_fmt(nf)}",
                        'expected a list of ints, "all", "log" or "log:N" (N counts, '
                        'log-spaced)')
            elif isinstance(nf, dict) and (set(nf) != {"log"} or _type_name(nf["log"]) != _INT
                                           or nf["log"] < 1):
                err.add(f"{place} n_features", "a table must be { log = N } with N ≥ 1")
        else:
            from ..evaluation.protocols import EXTRA_SCORINGS, REGRESSION_SCORINGS, SCORINGS

            params.setdefault("cv", defaults["cv"])
            own, other = ((REGRESSION_SCORINGS, SCORINGS + EXTRA_SCORINGS)
                          if task == "regression"
                          else (SCORINGS + EXTRA_SCORINGS, REGRESSION_SCORINGS))
            params.setdefault("scoring", defaults["scoring"].value(task))
            wrong = [m for m in params["scoring"] if m in other]
            if wrong:
                kind_of = "classification" if task == "regression" else "regression"
                err.add(f"{place} scoring", f"{_fmt(wrong[0])} is a {kind_of} "
                        f"metric; an experiment with task = {_fmt(task)} takes "
                        f"{', '.join(own)}")
            if task == "regression" and params.get("pos_label") is not None:
                err.add(f"{place} pos_label", "applies to binary classes; the task is "
                        "regression")
        if len(err.items) == n0:
            out[label] = (kind, params)
    return items, out


# --------------------------------------------------------------------------- planning
def _rules_for(kind: str, sparams: dict, grid_rules, rule_tables, label, err) -> list:
    """The rule labels crossed with one selector (None: the selector's own rule)."""
    if kind in ("ranker", "boruta") or "aggregation" in sparams:
        if "rules" in sparams:
            err.add(f"[selectors.{label}] rules", "a single ranker or a selector with a fixed "
                    "aggregation takes no rules")
        return [None]
    if "rules" in sparams:
        names = []
        for j, r in enumerate(sparams["rules"]):
            if r not in rule_tables:
                err.add(f"[selectors.{label}] rules[{j}] = {_fmt(r)}", "unknown rule"
                        + _suggest(r, list(rule_tables)))
            else:
                names.append(r)
        return names
    if grid_rules is None:
        return [None]
    return [v for _, v in grid_rules if v in rule_tables]


def _spec_params(rule: str) -> dict:
    """The parameters written in a (valid) rule spec's text (``"kfirst:k=5"`` → ``{"k": 5}``)."""
    from ..aggregation import resolve

    return {} if rule == "average" else dict(resolve(rule).params)


def _rule_groups(rule: str) -> str | None:
    """The registry's ``groups`` tag of a (valid) rule spec: ``"by_method"`` for a rule that
    combines each ranker's bootstrap lists (fuzzy)."""
    from ..aggregation import resolve

    return resolve(rule).groups


def _rule_applies(kind, sparams, rule, err, place) -> bool:
    if rule == "average" and kind != "svm_rfe":
        err.add(place, '"average" (one joint RFE) applies to svm_rfe selectors only; give this '
                "selector its own rules = [...]")
        return False
    grouped = rule != "average" and _rule_groups(rule)
    if grouped:
        name = rule.partition(":")[0].strip()
        if kind != "ensemble":
            err.add(place, f"the {name} rules combine an ensemble's bootstrap lists; they "
                    "apply to ensemble selectors only")
            return False
        if sparams.get("n_bootstraps", 0) < 2:
            err.add(place, f"a {name} rule needs n_bootstraps ≥ 2 in the ensemble")
            return False
    msvm = (sparams.get("criterion", "binary") != "binary"
            or sparams.get("decomposition", "ovo") not in ("ovo", "ova"))
    if kind == "svm_rfe" and msvm and rule != "average":
        err.add(place, "the MSVM criteria (crammer_singer, weston_watkins) give one list: no "
                "rule to cross with")
        return False
    return True


def parse_config(text: str, *, source: str = "config", default_name: str = "experiment",
                 base_dir=None) -> ExperimentConfig:
    """Parse and validate a TOML experiment configuration; plan its cells.

    Parameters
    ----------
    text : str
        The TOML text (docs/experiments.md, 'Schema').
    source : str, default "config"
        The name error messages give the configuration (a file name).
    default_name : str, default "experiment"
        The experiment's name when ``[experiment] name`` is not given.
    base_dir : str or path-like, optional
        The folder a relative ``[datasets.<label>] path`` is read from (the configuration
        file's folder; default the current folder).

    Returns
    -------
    ExperimentConfig
        The validated configuration with its planned cells.

    Raises
    ------
    ConfigError
        With every problem found, each naming its key and place.
    """
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"not valid TOML: {exc}"], source) from None
    err = _Errors()
    err.check_keys("(top level)", raw, _TOP_LEVEL, what="table")
    name, seed, desc, task = _check_experiment(raw, err, default_name)
    grid = raw.get("grid")
    if not isinstance(grid, dict):
        err.add("[grid]", "missing: the table listing datasets, selectors, classifiers …")
        grid = {}
    err.check_keys("[grid]", grid, ("datasets", "selectors", "rules", "classifiers",
                                    "protocols"))
    exp = raw.get("experiment")
    explicit = isinstance(exp, dict) and exp.get("task") == "classification"
    ds_items, datasets = _check_datasets(grid, raw, err, base_dir, task,
                                         explicit_classification=explicit)
    sel_items, selectors = _check_selectors(grid, raw, err, task)
    rule_items, rules = _check_rules(grid, raw, err)
    clf_items = _grid_list(grid, "classifiers", err)
    known_clf = _known_classifiers(task)
    for i, c in clf_items or []:
        if c not in known_clf:
            other = _known_classifiers("classification" if task == "regression"
                                       else "regression")
            what = (f"{'a regressor' if task == 'classification' else 'a classifier'}, not "
                    f"an estimator of a {task} task; {task} estimators: "
                    f"{', '.join(known_clf)}") if c in other else (
                "unknown classifier" + _suggest(c, known_clf))
            err.add(f"[grid] classifiers[{i}] = {_fmt(c)}", what)
    proto_items, protocols = _check_protocols(grid, raw, err, task)

    cells: list[Cell] = []
    if not err.items:
        cells = _plan(seed, ds_items, datasets, sel_items, selectors, rule_items, rules,
                      clf_items, proto_items, protocols, err, task)
    if err.items:
        raise ConfigError(err.items, source)
    from .cells import FILE_SOURCE

    data_files = {label: {"path": opts["path"], "written": raw["datasets"][label]["path"],
                          "sha256": opts["sha256"]}
                  for _, label in ds_items for src, opts, _ in [datasets[label]]
                  if src == FILE_SOURCE}
    return ExperimentConfig(name=name, seed=seed, description=desc, cells=cells, raw=raw,
                            source_text=text, task=task, data_files=data_files)


def _plan(seed, ds_items, datasets, sel_items, selectors, rule_items, rules, clf_items,
          proto_items, protocols, err, task="classification") -> list[Cell]:
    cells = []
    rule_cross = {}
    for _, slabel in sel_items:
        kind, sparams = selectors[slabel]
        labels = _rules_for(kind, sparams, rule_items, rules, slabel, err)
        for r in labels:
            if r is not None:
                _rule_applies(kind, sparams, rules[r][0], err,
                              f"[selectors.{slabel}] × [rules.{r}]")
        rule_cross[slabel] = labels
    if err.items:
        return []
    seen: dict[str, str] = {}
    checked: set = set()
    for _, dlabel in ds_items:
        source, opts, info = datasets[dlabel]
        n, p, min_class = info["n_samples"], info["n_features"], info["min_class"]
        n_classes = info["n_classes"]
        ks = [(f"[rules.{r}] k", {**_spec_params(rn), **rp}.get("k"))
              for r, (rn, rp) in rules.items()]
        ks += [(f"[selectors.{s}] aggregation_params k",
                (sp.get("aggregation_params") or {}).get("k"))
               for _, s in sel_items for _, sp in [selectors[s]]]
        for where, k in ks:
            if _type_name(k) == _INT and k > p:
                err.add(f"{where} on dataset {dlabel!r} ({n} × {p})",
                        f"{k} exceeds the dataset's {p} features")
        for _, slabel in sel_items:
            if selectors[slabel][0] == "stability":
                _check_stability_sizes(slabel, selectors[slabel][1], dlabel, n, p, err)
        for _, plabel in proto_items:
            pkind, pparams = protocols[plabel]
            pp = dict(pparams)
            place = f"[protocols.{plabel}] on dataset {dlabel!r} ({n} × {p})"
            if pkind == "error_curve":
                pp["n_features"] = _resolve_grid(pp["n_features"], p)
                too_big = [k for k in pp["n_features"] if k > p]
                if too_big:
                    err.add(f"{place} n_features", f"{too_big} exceed the dataset's {p} "
                            "features")
                    continue
                if pp.get("splits") == "kfold":
                    k = pp["n_splits"]
                    if k > n or (pp["stratify"] and k > min_class):
                        err.add(f"{place} n_splits = {k}", f"{k} folds (splits = \"kfold\") "
                                f"need at least {k} rows"
                                + (f" of every class (the smallest has {min_class})"
                                   if pp["stratify"] else ""))
                        continue
                    n_test = n // k  # the smallest fold
                else:
                    ts = pp["test_size"]
                    n_test = ts if isinstance(ts, int) else math.ceil(ts * n)
                if n_test >= n:
                    err.add(f"{place} test_size", f"leaves no training rows ({n} samples)")
                    continue
                if pp["stratify"] and (n_test < n_classes or n - n_test < n_classes):
                    err.add(f"{place} test_size", f"a stratified split of {n} rows into "
                            f"{n - n_test} + {n_test} cannot hold all {n_classes} classes")
                    continue
                if pp["stratify"] and min_class < 2:
                    err.add(f"{place} stratify", "a class has a single sample: a stratified "
                            "split is impossible (stratify = false)")
                    continue
            else:
                pl = pp.get("pos_label")
                if pl is not None and n_classes != 2:
                    err.add(f"{place} pos_label", f"applies to binary problems; the dataset has "
                            f"{n_classes} classes")
                    continue
                if pp["cv"] > min_class and not pp.get("small_classes"):
                    err.add(f"{place} cv", f"{pp['cv']} folds need ≥ {pp['cv']} samples of "
                            f"every class; the smallest class has {min_class} (small_classes = "
                            "true accepts folds without it, as Weka)")
                    continue
                nf = pp.get("n_features")
                if isinstance(nf, int) and nf > p:
                    err.add(f"{place} n_features", f"{nf} exceeds the dataset's {p} features")
                    continue
            for _, slabel in sel_items:
                kind, sparams = selectors[slabel]
                if kind in SUBSET_KINDS and pkind == "error_curve":
                    msg = (f"[selectors.{slabel}] × [protocols.{plabel}]: a {kind} selector "
                           "chooses a subset, not a ranking of every feature; an error "
                           "curve needs a ranking: cross it with a cross_validation protocol")
                    if msg not in err.items:
                        err.items.append(msg)
                    continue
                nsel = sparams.get("n_features_to_select")
                if isinstance(nsel, int) and not isinstance(nsel, bool) and nsel > p:
                    err.add(f"[selectors.{slabel}] n_features_to_select", f"{nsel} exceeds "
                            f"dataset {dlabel!r}'s {p} features")
                    continue
                for rlabel in rule_cross[slabel]:
                    rule = None if rlabel is None else {"rule": rules[rlabel][0],
                                                        "params": rules[rlabel][1]}
                    for _, clf in clf_items:
                        cell = Cell(
                            dataset={"source": source, "options": opts},
                            selector={"kind": kind, "params": {k: v for k, v in
                                                               sparams.items()
                                                               if k != "rules"}},
                            rule=rule, classifier=clf,
                            protocol={"kind": pkind, "params": pp},
                            labels={"dataset": dlabel, "selector": slabel,
                                    "rule": rlabel, "classifier": clf, "protocol": plabel},
                            experiment_seed=seed, task=task,
                        )
                        h = cell.hash
                        if h in seen:
                            err.add(f"[grid] cell {cell.label}", "computes the same thing as "
                                    f"{seen[h]} (two labels with identical settings)")
                            continue
                        seen[h] = cell.label
                        cells.append(cell)
                        _check_selector_object(cell, slabel, rlabel, dlabel, plabel, info,
                                               checked, err)
    if not cells and not err.items:
        err.add("[grid]", "the grid has no cells")
    return cells


def _check_stability_sizes(slabel, sparams, dlabel, n, p, err) -> None:
    """A stability selector's q, threshold and PFER target against a data set's p features,
    as its fit will resolve them (:func:`rankfusion.selection.stability_parameters`): q above
    p, all three given, a target no threshold reaches."""
    from ..selection import StabilitySelector, stability_parameters

    given = {**StabilitySelector().get_params(deep=False), **sparams}
    if all(given[k] is not None for k in ("q", "threshold", "pfer")):
        return  # the selector's own check refuses all three, whatever the data
    try:
        stability_parameters(p, q=given["q"], threshold=given["threshold"], pfer=given["pfer"],
                             bound=given["bound"],
                             n_pairs=(given["n_subsamples"] // 2
                                      if given["complementary_pairs"] else None))
    except (ValueError, TypeError) as exc:
        text = re.sub(r"\b(q|threshold|pfer|bound|n_pairs|p)=", r"\1 = ",
                      str(exc).splitlines()[0])
        own = {k: sparams[k] for k in ("q", "threshold", "pfer") if k in sparams}
        key = _named_key(text, own)
        place = f"[selectors.{slabel}]" + (f" {key} = {_fmt(own[key])}" if key else "")
        msg = f"{place} on dataset {dlabel!r} ({n} × {p}): {text}"
        if msg not in err.items:
            err.items.append(msg)


def _check_selector_object(cell, slabel, rlabel, dlabel, plabel, info, checked, err):
    """Build the cell's selector as the run will and ask the selector's own parameter check
    (``EnsembleSelector`` / ``SVMRFE``), before any work; then an ensemble's bootstrap size
    against the rows its fits will see. Each selector × rule × protocol × classifier is
    checked once; each message is reported once."""
    from ..selection.resampling import check_sample_size
    from .cells import build_selector

    # the selector on its own first (one message per table), then with the rule crossed in
    for key, spec in (((slabel,), dict(cell.spec, rule=None)),
                      ((slabel, rlabel, plabel, cell.classifier), cell.spec)):
        if key in checked:
            if key + ("failed",) in checked:
                return
            continue
        checked.add(key)
        place = f"[selectors.{slabel}]" + (
            f" × [rules.{rlabel}]" if rlabel and spec["rule"] is not None else "")
        try:
            built = build_selector(spec, 0)
            if hasattr(built, "_check_params"):
                built._check_params()
            else:  # the selector's declared constraints (BorutaSelector)
                from .._utils.constraints import validate_params

                validate_params(built._parameter_constraints, built.get_params(deep=False))
        except (ValueError, TypeError) as exc:
            checked.add(key + ("failed",))
            text = str(exc).splitlines()[0]
            keys = "|".join(re.escape(str(k)) for k in spec["selector"]["params"])
            if keys:  # the selector's q=2 is the table's q = 2
                text = re.sub(rf"\b({keys})=(?!=)", r"\1 = ", text)
            named = _named_key(text, spec["selector"]["params"])
            if named is not None:
                place += f" {named} = {_fmt(spec['selector']['params'][named])}"
            msg = f"{place}: {text} (refused by the selector)"
            if msg not in err.items:
                err.items.append(msg)
            return
    sel = cell.selector
    params = sel["params"]
    nb = params.get("n_bootstraps", 0)
    if sel["kind"] != "ensemble" or not isinstance(nb, int) or nb < 1:
        return
    sf = params.get("sample_fraction", 1.0)
    stratify = params.get("stratify", True)
    proto = cell.protocol
    n, k, smallest = info["n_samples"], info["n_classes"], info["min_class"]
    if proto["kind"] == "error_curve" and proto["params"].get("splits") == "kfold":
        share = 1.0 - 1.0 / proto["params"]["n_splits"]
    elif proto["kind"] == "error_curve":
        ts = proto["params"]["test_size"]
        share = 1.0 - (ts / n if isinstance(ts, int) else ts)
    else:
        share = 1.0 - 1.0 / proto["params"]["cv"]
    # the class sizes of a training part: the smallest class scaled down, the rest shared out
    small = max(1, int(smallest * share))
    rest = max(k - 1, int((n - smallest) * share))
    labels = [0] * small + [1 + i % (k - 1) for i in range(rest)]
    try:
        check_sample_size(labels, sf, stratify=bool(stratify),
                          where=f" of a training part of [protocols.{plabel}]")
    except ValueError as exc:
        msg = (f"[selectors.{slabel}] sample_fraction = {_fmt(sf)} on dataset {dlabel!r} "
               f"({n} × {info['n_features']}): {exc}")
        if msg not in err.items:
            err.items.append(msg)


def load_config(path) -> ExperimentConfig:
    """Read, parse and validate the TOML file at ``path`` (see :func:`parse_config`).

    Parameters
    ----------
    path : str or path-like
        A UTF-8 TOML file (docs/experiments.md); its stem is the default experiment name.

    Returns
    -------
    ExperimentConfig
        The validated configuration with its planned cells.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"config file {str(path)!r} does not exist") from None
    except UnicodeDecodeError as exc:
        raise ConfigError([f"not UTF-8 text: {exc}"], str(path)) from None
    return parse_config(text, source=str(path), default_name=path.stem,
                        base_dir=path.resolve().parent)


# --------------------------------------------------------------------------- saved copy
#: First line of the comment block that a saved ``config.toml`` opens with when the
#: configuration reads data files (:func:`saved_config_text`).
SAVED_HEADER = ("# rankfusion experiment: the configuration of this results folder, its data "
                "paths resolved")
_HEADER_FILE = "# data file "
_PATH_VALUE = re.compile(r"""(?m)(\bpath[ \t]*=[ \t]*)("(?:[^"\\\n]|\\.)*"|'[^'\n]*')""")


def _toml_string(text: str) -> str:
    """A TOML basic string holding ``text`` (JSON's escapes are TOML's)."""
    import json

    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_string(key)


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}"
                               for k, v in value.items()) + "}"
    raise TypeError(f"no TOML text for a {type(value).__name__}")


def _toml_dumps(raw: dict, prefix: str = "") -> str:
    """TOML text of a parsed configuration (tables as ``[a.b]`` headers, the rest inline)."""
    lines, tables = [], []
    for key, value in raw.items():
        if isinstance(value, dict):
            tables.append((key, value))
        else:
            lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    text = "\n".join(lines) + ("\n" if lines else "")
    for key, value in tables:
        name = f"{prefix}.{_toml_key(key)}" if prefix else _toml_key(key)
        body = _toml_dumps(value, name)
        if any(not isinstance(v, dict) for v in value.values()) or not value:
            text += f"\n[{name}]\n"
        text += body
    return text


def _strip_saved_header(text: str) -> str:
    """``text`` without the comment block :func:`saved_config_text` put before it."""
    if not text.startswith(SAVED_HEADER + "\n"):
        return text
    lines = text.split("\n")[1:]
    while lines and lines[0].startswith(_HEADER_FILE):
        lines.pop(0)
    if lines and not lines[0].strip():
        lines.pop(0)
    return "\n".join(lines)


def saved_config_text(cfg: ExperimentConfig) -> str:
    """The text of the ``config.toml`` a results folder keeps: the configuration as written,
    each data file's ``path`` resolved (absolute), so that the copy reads the same files from
    wherever it is loaded; and, when it reads data files, a comment block before it naming
    each file and its SHA-256, so that the copy's own SHA-256 identifies the data too.

    A configuration without data files is kept as written. Saving a configuration loaded from
    a saved copy gives the same text.

    Parameters
    ----------
    cfg : ExperimentConfig
        A validated configuration.

    Returns
    -------
    str
    """
    text = _strip_saved_header(cfg.source_text)
    if not cfg.data_files:
        return text
    import copy

    written = {}
    for entry in cfg.data_files.values():
        if entry["written"] != entry["path"]:
            written[entry["written"]] = entry["path"]
    expected = copy.deepcopy(cfg.raw)
    for label, entry in cfg.data_files.items():
        expected["datasets"][label]["path"] = entry["path"]

    def resolved(match):
        try:
            value = tomllib.loads(f"v = {match.group(2)}")["v"]
        except tomllib.TOMLDecodeError:  # pragma: no cover - the pattern matched a fragment
            return match.group(0)
        if value not in written:
            return match.group(0)
        return match.group(1) + _toml_string(written[value])

    body = _PATH_VALUE.sub(resolved, text) if written else text
    try:
        ok = tomllib.loads(body) == expected
    except tomllib.TOMLDecodeError:  # pragma: no cover
        ok = False
    if not ok:  # a path written where the pattern cannot see it: the parsed tables, written out
        try:
            dumped = _toml_dumps(expected)
            if tomllib.loads(dumped) == expected:
                body = dumped
        except (TypeError, tomllib.TOMLDecodeError):  # pragma: no cover - a TOML date
            pass
    head = [SAVED_HEADER] + [f"{_HEADER_FILE}[datasets.{label}] {_toml_string(e['path'])} "
                             f"sha256 {e['sha256']}"
                             for label, e in sorted(cfg.data_files.items())]
    return "\n".join(head) + "\n\n" + body


# --------------------------------------------------------------------------- schema
def _param_meanings(obj) -> dict[str, str]:
    """The first sentence of each parameter's description in the numpydoc ``Parameters``
    section of ``obj``'s docstring (``"a, b : type"`` lines describe both)."""
    doc = inspect.cleandoc(getattr(obj, "__doc__", None) or "")
    lines = doc.splitlines()
    out: dict[str, str] = {}
    try:
        start = next(i for i, line in enumerate(lines[:-1])
                     if line.strip() == "Parameters" and set(lines[i + 1].strip()) == {"-"})
    except StopIteration:
        return out
    names: list[str] = []
    text: list[str] = []

    def flush():
        import re

        words = " ".join(text).strip()
        # the first sentence: up to a full stop before a capital ("e.g. ``{…}``" goes on)
        first = re.split(r"\.\s+(?=[A-Z])", words)[0].rstrip(".") if words else ""
        for n in names:
            out.setdefault(n, first)

    i = start + 2
    while i < len(lines):
        line = lines[i]
        if i + 1 < len(lines) and line.strip() and set(lines[i + 1].strip()) == {"-"} \
                and not line.startswith(" "):
            break  # the next section
        if line and not line.startswith(" "):
            flush()
            head = line.split(" : ")[0] if " : " in line else line
            names = [n.strip() for n in head.split(",") if n.strip()]
            text = []
        elif line.strip():
            text.append(line.strip())
        i += 1
    flush()
    return out


def _defaults(func) -> dict:
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):  # pragma: no cover
        return {}
    return {k: p.default for k, p in sig.parameters.items()
            if p.default is not inspect.Parameter.empty}


def schema_rows() -> list[tuple[str, str, tuple[str, ...], object, str]]:
    """Every key an experiment configuration accepts, one row each, from the declarations the
    validation itself reads (docs/design.md, 'Parameters').

    Each row is ``(table, key, toml_types, default, meaning)``: the TOML table
    (``"[experiment]"``, ``"[grid]"``, ``"[datasets.*] (artificial)"``, ``"[selectors.*] kind =
    \\"ensemble\\""`` …), the key, the TOML types that can hold a valid value, the default the
    runner uses when the key is left out (None when there is none or it is the owner's None;
    a :class:`ConditionalDefault` where it depends on another setting, e.g. ``test_size`` on
    ``splits``) and the meaning: the first sentence of the
    parameter in the numpydoc ``Parameters`` section of the estimator or function that owns
    it (:class:`~rankfusion.EnsembleSelector`, :class:`~rankfusion.SVMRFE`, the rules of
    :func:`rankfusion.aggregation.available_rules`, :func:`~rankfusion.evaluation.error_curve`,
    :func:`~rankfusion.evaluation.cross_validate_selection`, the artificial data generator),
    or the config's own words for its own keys; where the owner's docstring gives a
    parameter no description, what its constraints accept.

    Returns
    -------
    list of tuple
        ``(table, key, toml_types, default, meaning)`` rows, table by table.

    Examples
    --------
    >>> rows = schema_rows()
    >>> [r[:3] for r in rows if r[1] == "n_bootstraps"]
    [('[selectors.*] kind = "ensemble"', 'n_bootstraps', ('int',))]
    """
    from ..aggregation import available_rules, rule_info
    from ..datasets.artificial import make_artificial
    from ..evaluation import cross_validate_selection, error_curve

    rows: list = []
    rows += [("[experiment]", "name", ("str",), None, "the experiment's name (default: the "
              "file's stem)"),
             ("[experiment]", "seed", ("int",), None, "the root seed of every cell, an int in "
              "[0, 2**32) (required)"),
             ("[experiment]", "description", ("str",), "", "free text kept with the results"),
             ("[experiment]", "task", ("str",), "classification", "what every data set's "
              'target is: "classification" (class labels) or "regression" (a numeric '
              "target)")]
    for key, what in (("datasets", "[datasets.X] labels"), ("selectors", "[selectors.X] labels"),
                      ("rules", "[rules.X] labels (optional)"),
                      ("classifiers", "classifier names of the registry"),
                      ("protocols", "[protocols.X] labels (default: every table)")):
        rows.append(("[grid]", key, ("list",), None, f"the grid's {what}"))
    rows.append(("[datasets.*]", "source", ("str",), None, "a bundled, artificial or "
                 "scikit-learn data set (default: the label)"))
    gen = _param_meanings(make_artificial)
    gen_defaults = _defaults(make_artificial)
    for key, types in _ARTIFICIAL_OPTIONS.items():
        rows.append(("[datasets.*] (artificial)", key, tuple(types), gen_defaults.get(key),
                     gen.get(key) or "an option of rankfusion.datasets.make_artificial"))
    for key, types in _REAL_OPTIONS.items():
        rows.append(("[datasets.*] (real)", key, tuple(types), None,
                     "drop the rows with a missing value"))
    from ..io import load_data

    reading = _param_meanings(load_data)
    reading_defaults = _defaults(load_data)
    for key, types in _FILE_OPTIONS.items():
        text = ("the user's data file (.csv, .arff, .parquet; relative to the config file's "
                "folder; its SHA-256 is part of every cell)" if key == "path"
                else reading.get(key) or "an option of rankfusion.io.load_data")
        rows.append(("[datasets.*] (file)", key, tuple(types),
                     None if key == "path" else reading_defaults.get(key), text))
    owners = {kind: _selector_class(kind) for kind in SELECTOR_KINDS}
    for kind in SELECTOR_KINDS:
        table = f'[selectors.*] kind = "{kind}"'
        meaning = _param_meanings(owners[kind])
        defaults = _defaults(owners[kind].__init__)
        for key, (cs, default, text) in _SELECTOR_COMMON.items():
            rows.append((table, key, _toml_allowed(cs), default, text))
        for key, cs in _selector_schema(kind).items():
            text = _RANKER_KIND[key][2] if key in _RANKER_KIND else meaning.get(key, "")
            rows.append((table, key, _toml_allowed(cs), defaults.get(key),
                         text or describe(cs)))
    rows.append(("[rules.*]", "rule", ("str",), None, "the rule (default: the label), a rule "
                 "spec of rankfusion.aggregation.resolve or \"average\""))
    for name in available_rules():
        entry = rule_info(name)
        meaning = _param_meanings(entry.func)
        defaults = _defaults(entry.func)
        for key in entry.params:
            cs = entry.constraints.get(key, [])
            rows.append((f'[rules.*] rule = "{name}"', key, _toml_allowed(cs),
                         defaults.get(key), meaning.get(key, "") or describe(cs)))
    for kind, func in (("error_curve", error_curve),
                       ("cross_validation", cross_validate_selection)):
        table = f'[protocols.*] kind = "{kind}"'
        meaning = _param_meanings(func)
        defaults = _defaults(func)
        rows.append((table, "kind", ("str",), None, f"the protocol: {func.__name__}"))
        filled = _protocol_defaults(kind)
        for key, cs in _protocol_schema(kind).items():
            own = _PROTOCOL_OWN[kind].get(key)
            rows.append((table, key, _toml_allowed(cs),
                         own[1] if own else filled.get(key, defaults.get(key)),
                         own[2] if own else meaning.get(key, "") or describe(cs)))
    return rows
