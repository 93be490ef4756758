"""One command per paper: run every configuration of a reproduced paper, then regenerate the
tables and figures of its section of ``EXPERIMENTS.md`` from the results
(docs/design.md, 'Reproductions').

The configurations (``<paper>/*.toml``) and the table scripts (``<paper>/tables.py``) live in
the repository's ``experiments/`` folder, which is not part of the installed package:
:func:`find_experiments` takes it from the argument, else from the environment variable
``RANKFUSION_EXPERIMENTS``, else ``./experiments`` of the current folder (a clone's root),
else the checkout the package is imported from (an editable install), else the clone that
``pip install .`` installed it from (recorded by pip in ``direct_url.json``).

Resuming from the shipped results: a results folder whose ``results.parquet`` is present and
whose ``config.toml`` is the configuration (the same SHA-256, :func:`config_sha256`) is
*adopted* as finished when none of its planned cells is missing from an existing
``cells/`` folder — the committed results of the papers whose cell files are not shipped
(Izetta, robust FS, Bouaguel) are taken as they are, and nothing is computed. Any other
folder is run (or resumed) by :func:`~.runner.run_experiment`.

Derived files: some table scripts keep what they compute beyond the runner's cells (fuzzy
``table4.csv`` and ``fig4.csv``; robust FS ``all_data_<part>.csv``, ``agreement_<part>.csv``
and ``kstep_<part>.csv``; Bouaguel ``all_data.csv``). With ``recompute_derived=True`` (the
default of the smoke runs) they are removed first, so the scripts compute them again;
otherwise the ones found are reused and :attr:`Reproduction.cached` names them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .config import load_config
from .runner import config_sha256, run_experiment
from .store import cell_status

__all__ = ["PAPERS", "MODES", "Reproduction", "find_experiments", "reproduce", "adoptable"]

MODES = ("smoke", "full")
ENV_VAR = "RANKFUSION_EXPERIMENTS"


@dataclass(frozen=True)
class _Plan:
    runs: tuple[tuple[str, str], ...]     # (configuration file, folder under the output)
    tables: tuple[tuple[str, ...], ...]   # arguments of tables.py; "{out}" = output folder
    derived: tuple[str, ...] = ()         # files the scripts reuse when present (globs)
    not_rerun: tuple[str, ...] = ()       # outputs of the section that reproduce does not make


#: What ``reproduce PAPER`` runs, by paper and mode.
PAPERS: dict[str, dict[str, _Plan]] = {
    "izetta": {
        "smoke": _Plan((("smoke.toml", "artificial"),), (("--root", "{out}"),)),
        "full": _Plan(
            (("full_artificial.toml", "artificial"), ("full_ova.toml", "artificial_ova"),
             ("full_artificial_ww.toml", "artificial_ww"), ("full_real_uci.toml", "real_uci"),
             ("full_real_mfeat.toml", "real_mfeat"), ("full_real_wide.toml", "real_wide"),
             ("full_fig1_kfirst.toml", "fig1_kfirst"), ("full_fig2_ties.toml", "fig2_ties"),
             ("faithful_artificial_part.toml", "faithful_artificial_part"),
             ("faithful_artificial_part_b.toml", "faithful_artificial_part_b")),
            (("--root", "{out}"),),
            not_rerun=("fig7_timing.* (a timing measurement: python experiments/izetta/"
                       "timing.py)",
                       "faithful_artificial.toml (the paper's 3,000 samples, 100 random splits "
                       "and C by CV: hours, validated but not run; rankfusion experiment "
                       "experiments/izetta/faithful_artificial.toml --out experiments/results/"
                       "izetta/full/faithful_artificial)")),
    },
    "fuzzy": {
        "smoke": _Plan((("smoke.toml", "run"),), (("smoke", "--out", "{out}"),),
                       derived=("table4.csv", "fig4.csv")),
        "full": _Plan((("full.toml", "run"), ("faithful_table3.toml", "faithful_table3")),
                      (("full", "--out", "{out}"),),
                      derived=("table4.csv", "fig4.csv"),
                      not_rerun=("run_L20/ (the partial L = 20 run beside Table III, 39 of 48 "
                                 "cells: read as it stands; complete it with rankfusion "
                                 "experiment experiments/fuzzy/full_L20.toml --out "
                                 "experiments/results/fuzzy/full/run_L20)",
                                 "L20/ (Table IV at L = 20, an earlier session's)")),
    },
    "nlc": {
        "smoke": _Plan((("smoke.toml", "run"),), (("smoke", "--out", "{out}"),)),
        "full": _Plan((("full.toml", "run"), ("top3.toml", "top3"),
                       ("faithful_table3.toml", "faithful_table3")),
                      (("full", "--out", "{out}"),),
                      not_rerun=("timing.* (a timing measurement: python experiments/nlc/"
                                 "timing.py)",)),
    },
    "bouaguel": {
        "smoke": _Plan((("smoke.toml", "."),), (("{out}", "--all-data"),),
                       derived=("all_data.csv",)),
        "full": _Plan((("full.toml", "."),), (("{out}", "--all-data"),),
                      derived=("all_data.csv",)),
    },
    "robust_fs": {
        "smoke": _Plan((("smoke.toml", "smoke"),), (("{out}", "--parts=smoke:smoke.toml"),),
                       derived=("all_data_*.csv", "agreement_*.csv", "kstep_*.csv")),
        "full": _Plan((("full_k8.toml", "k8"), ("full_k9.toml", "k9"), ("full_k40.toml", "k40"),
                       ("full_k60.toml", "k60"),
                       ("faithful_arrhythmia.toml", "faithful_arrhythmia")),
                      (("{out}", "--k-step"),),
                      derived=("all_data_*.csv", "agreement_*.csv", "kstep_*.csv")),
    },
}


@dataclass
class Reproduction:
    """What one call of :func:`reproduce` did.

    Parameters
    ----------
    paper, mode : str
        The paper and ``"smoke"`` or ``"full"``.
    out : Path
        The output folder (the runs' folders and the tables).
    experiments : Path
        The ``experiments/`` folder the configurations and scripts were read from.
    runs : list of dict
        Per configuration: ``config``, ``folder``, ``status`` (``"adopted"``: the shipped
        results taken as finished; ``"ran"``), ``cells``, ``computed``, ``reused``.
    tables : list of str
        The table scripts' command lines, as run.
    cached : list of str
        Derived files the scripts reused instead of computing them.
    recomputed : list of str
        Derived files removed before the scripts ran, so computed again.
    not_rerun : list of str
        Outputs of the paper's section that this command does not regenerate.
    seconds : float
        Wall time.
    """

    paper: str
    mode: str
    out: Path
    experiments: Path
    runs: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    cached: list = field(default_factory=list)
    recomputed: list = field(default_factory=list)
    not_rerun: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def computed(self) -> int:
        """Cells computed in this call, over all the configurations."""
        return sum(r["computed"] for r in self.runs)

    def summary(self) -> str:
        """The text ``rankfusion reproduce`` prints."""
        lines = [f"reproduce {self.paper} ({self.mode}) → {self.out}"]
        for r in self.runs:
            how = ("adopted: shipped results of this configuration, nothing computed"
                   if r["status"] == "adopted" else
                   f"{r['reused']} reused, {r['computed']} computed")
            lines.append(f"  {r['config']}: {r['cells']} cells, {how}")
        for t in self.tables:
            lines.append(f"  tables: {t}")
        for c in self.cached:
            lines.append(f"  cached (reused, not recomputed; --recompute-derived to "
                         f"recompute): {c}")
        for c in self.recomputed:
            lines.append(f"  derived, computed in this run: {c}")
        for n in self.not_rerun:
            lines.append(f"  not regenerated: {n}")
        lines.append(f"  {self.seconds:.1f} s")
        return "\n".join(lines)


def find_experiments(experiments=None) -> Path:
    """The ``experiments/`` folder: ``experiments``, else ``$RANKFUSION_EXPERIMENTS``, else
    ``./experiments``, else the one beside the imported package's checkout, else the one of
    the folder ``pip install .`` installed the package from.

    Parameters
    ----------
    experiments : str or path-like, optional
        The folder, given explicitly.

    Returns
    -------
    Path

    Raises
    ------
    ValueError
        No such folder holds the papers' configurations, or ``$RANKFUSION_EXPERIMENTS`` is
        set to a folder that does not (it is never passed over for another).
    """
    def ok(p: Path) -> bool:
        return all((p / paper / "smoke.toml").is_file() for paper in PAPERS)

    if experiments is not None:
        if not isinstance(experiments, (str, os.PathLike)):
            raise TypeError(f"experiments must be a folder path, got "
                            f"{type(experiments).__name__}")
        p = Path(experiments)
        if not ok(p):
            raise ValueError(f"experiments must be the experiments/ folder of a rankfusion "
                             f"checkout (with <paper>/smoke.toml for {', '.join(PAPERS)}), "
                             f"got {str(p)!r}")
        return p.resolve()
    candidates = []
    if os.environ.get(ENV_VAR, "").strip():
        p = Path(os.environ[ENV_VAR]).expanduser()
        if not ok(p):  # set, so meant: never passed over for another folder
            what = ("does not exist" if not p.exists() else "is not a folder" if not p.is_dir()
                    else f"holds no <paper>/smoke.toml for {', '.join(PAPERS)}")
            raise ValueError(f"{ENV_VAR}={os.environ[ENV_VAR]}: {what}; it must name the "
                             "experiments/ folder of a rankfusion checkout: correct it, unset "
                             "it, or give --experiments DIR")
        return p.resolve()
    candidates.append(Path.cwd() / "experiments")
    candidates.append(Path(__file__).resolve().parents[3] / "experiments")
    source = _installed_from()
    if source is not None:
        candidates.append(source / "experiments")
    for p in candidates:
        if ok(p):
            return p.resolve()
    raise ValueError("reproduce needs the experiments/ folder of a rankfusion checkout (it is "
                     "not installed with the package): run it from the repository's root, "
                     f"set {ENV_VAR}, or give --experiments DIR")


def _installed_from() -> Path | None:
    """The local folder the package was installed from (``pip install .`` in a clone records
    it in the distribution's ``direct_url.json``, PEP 610), or None."""
    import json
    from importlib import metadata
    from urllib.parse import unquote, urlparse

    try:
        text = metadata.distribution("rankfusion").read_text("direct_url.json")
        url = urlparse(json.loads(text)["url"]) if text else None
    except (metadata.PackageNotFoundError, ValueError, KeyError, TypeError, OSError):
        return None
    if url is None or url.scheme != "file":
        return None
    return Path(unquote(url.path))


def adoptable(config_path, folder) -> bool:
    """Whether ``folder`` holds the finished results of the configuration: its
    ``results.parquet`` is there, its ``config.toml`` has the configuration's SHA-256, and no
    planned cell is missing from its ``cells/`` folder (if it has one).

    Parameters
    ----------
    config_path : str or path-like
        The configuration file.
    folder : str or path-like
        A results folder.

    Returns
    -------
    bool
    """
    folder = Path(folder)
    if not (folder / "results.parquet").is_file() or not (folder / "config.toml").is_file():
        return False
    cfg = load_config(config_path)
    try:
        shipped = load_config(folder / "config.toml")
    except Exception:  # an unreadable copy: not adopted, the run decides
        return False
    if config_sha256(shipped) != config_sha256(cfg):
        return False
    if (folder / "cells").is_dir():
        return all(s == "done" for s in cell_status(folder, cfg.cells).values())
    return True


def _derived(out: Path, patterns) -> list[Path]:
    return sorted({p for pat in patterns for p in out.glob(pat) if p.is_file()})


def _script_env() -> dict:
    """The environment of the table scripts: this process's, with the imported rankfusion
    first on ``PYTHONPATH`` (the scripts then use the same code)."""
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[2])  # the folder holding this rankfusion
    env["PYTHONPATH"] = os.pathsep.join([src] + [p for p in
                                                 env.get("PYTHONPATH", "").split(os.pathsep)
                                                 if p])
    env.setdefault("MPLBACKEND", "Agg")
    return env


def reproduce(paper: str, mode: str = "smoke", *, out=None, experiments=None,
              scheduler: str | None = None, n_workers: int | None = None,
              recompute_derived: bool | None = None, adopt: bool = True,
              progress: bool | None = None, tables: bool = True,
              log=None) -> Reproduction:
    """Run every configuration of ``paper`` and regenerate its tables and figures.

    Parameters
    ----------
    paper : {"izetta", "fuzzy", "nlc", "bouaguel", "robust_fs"}
        The reproduced paper (:data:`PAPERS`).
    mode : {"smoke", "full"}, default "smoke"
        ``"smoke"``: the paper's ``smoke.toml`` (minutes); ``"full"``: every full
        configuration of the section (hours, unless the shipped results are adopted).
    out : str or path-like, optional
        Output folder; default ``<experiments>/results/<paper>/<mode>``, where the shipped
        results are (so a full run resumes from them).
    experiments : str or path-like, optional
        The ``experiments/`` folder (:func:`find_experiments`).
    scheduler : str, optional
        A Dask scheduler's address for the cells.
    n_workers : int, optional
        A local Dask cluster of this many worker processes for the cells.
    recompute_derived : bool, optional
        Remove the table scripts' derived files first so they are computed again; default
        True for ``"smoke"``, False for ``"full"`` (the files reused are then named in
        :attr:`Reproduction.cached`).
    adopt : bool, default True
        Take a folder that already holds this configuration's finished tables as done
        (:func:`adoptable`) instead of calling the runner on it.
    progress : bool, optional
        The runner's progress on stderr (default: on a terminal).
    tables : bool, default True
        Run the table scripts after the runs.
    log : callable(str), optional
        Called with a line as each step starts.

    Returns
    -------
    Reproduction

    Raises
    ------
    ValueError
        An unknown paper or mode, a bad worker count, no experiments folder.
    RuntimeError
        A cell failed, or a table script exited with an error (its output in the message).
    """
    if not isinstance(paper, str) or paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}, got {paper!r}")
    if not isinstance(mode, str) or mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if n_workers is not None and (isinstance(n_workers, bool) or not isinstance(n_workers, int)
                                  or n_workers < 1):
        raise ValueError(f"n_workers must be an int ≥ 1, got {n_workers!r}")
    if n_workers is not None and scheduler is not None:
        raise ValueError("give scheduler or n_workers (a local cluster), not both")
    for name, flag in (("adopt", adopt), ("tables", tables)):
        if not isinstance(flag, bool):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    if recompute_derived is not None and not isinstance(recompute_derived, bool):
        raise TypeError(f"recompute_derived must be True, False or None, got "
                        f"{recompute_derived!r}")
    if out is not None and not isinstance(out, (str, os.PathLike)):
        raise TypeError(f"out must be a folder path, got {type(out).__name__}")
    if out is not None and not str(os.fspath(out)).strip():
        raise ValueError(f"out must be a folder path, got an empty one ({out!r}); leave it "
                         f"out for the shipped results folder")
    log = log or (lambda line: None)
    t0 = time.time()
    exp = find_experiments(experiments)
    plan = PAPERS[paper][mode]
    out = Path(out) if out is not None else exp / "results" / paper / mode
    if out.exists() and not out.is_dir():
        raise NotADirectoryError(f"out {out} is a file; reproduce writes a folder")
    rep = Reproduction(paper=paper, mode=mode, out=out, experiments=exp,
                       not_rerun=list(plan.not_rerun))
    for config, sub in plan.runs:
        path = exp / paper / config
        folder = out / sub
        n_cells = len(load_config(path).cells)
        if adopt and adoptable(path, folder):
            log(f"{config}: adopting the finished results in {folder}")
            rep.runs.append({"config": config, "folder": folder, "status": "adopted",
                             "cells": n_cells, "computed": 0, "reused": n_cells})
            continue
        log(f"{config}: running {n_cells} cells → {folder}")
        # each folder of the plan is this configuration's: one shipped with an earlier
        # version of it is brought up to date (its cells of unchanged settings reused)
        s = run_experiment(path, folder, scheduler=scheduler, n_workers=n_workers,
                           report=False, progress=progress, overwrite=True)
        if s.failed:
            raise RuntimeError(f"{paper} {config}: {len(s.failed)} cell(s) failed (the finished "
                               f"cells are kept in {folder}; rerun to resume): "
                               + "; ".join(sorted(s.failed.values()))[:2000])
        rep.runs.append({"config": config, "folder": folder, "status": "ran",
                         "cells": s.total, "computed": len(s.computed), "reused": s.reused})
    if not tables:
        rep.seconds = time.time() - t0
        return rep
    if recompute_derived is None:
        recompute_derived = mode == "smoke"
    found = _derived(out, plan.derived)
    if recompute_derived:
        for f in found:
            f.unlink()
        rep.recomputed = [str(f) for f in found]
    else:
        rep.cached = [str(f) for f in found]
    script = exp / paper / "tables.py"
    for args in plan.tables:
        argv = [a.replace("{out}", str(out.absolute())) for a in args]  # run from exp's parent
        cmd = [sys.executable, str(script), *argv]
        shown = " ".join(["python", str(script), *argv])
        log(f"tables: {shown}")
        proc = subprocess.run(cmd, env=_script_env(), capture_output=True, text=True,
                              cwd=str(exp.parent))
        if proc.returncode != 0:
            raise RuntimeError(f"{shown} exited with status {proc.returncode}:\n"
                               f"{(proc.stdout + proc.stderr)[-4000:]}")
        rep.tables.append(shown)
    if not recompute_derived:
        # files the scripts computed now (absent before) are not cached
        rep.cached = [c for c in rep.cached if Path(c) in set(found)]
    else:
        rep.recomputed = [str(f) for f in _derived(out, plan.derived)]
    rep.seconds = time.time() - t0
    return rep
