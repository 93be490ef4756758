"""The result store of an experiment directory: one file per finished cell, written atomically,
verified on reading; tidy tables assembled from them.

Layout of ``OUT/``::

    cells/<hash>.json     one finished cell (spec, seed, payload, payload checksum, timing)
    config.toml           the configuration of the folder (copied, data paths resolved)
    results.parquet       tidy scores: one row per cell × split/fold × feature count × metric
    positions.parquet     per-split rankings of the error-curve cells (cell × split × feature)
    results.csv, positions.csv   with ``--csv``
    metadata.json         versions, machine, seed, per-cell seeds and timings, run history
    report/               report.html (self-contained), report.md, figures/*.png

Safety: a cell file is written to a temporary file in the same folder, flushed and fsynced,
then renamed over its final name with :func:`os.replace` (atomic on POSIX and Windows) and the
folder fsynced; an interrupted write leaves at most a temporary ``.<name>.<random>.tmp``
file, which is ignored, and removed by the next run once proven stale
(:func:`clean_temporaries`). A cell file is trusted only if it parses, names the hash it is
filed under, its spec hashes to that hash, and its payload matches its SHA-256 checksum;
anything else is recomputed. The tables carry their configuration's SHA-256
(:func:`write_table`), so that a report is never titled with another experiment.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd

from .._utils.atomic import atomic_open
from .._utils.tabular import to_csv
from .cells import CELL_FORMAT, Cell, canonical_json, sha256_hex

__all__ = ["cell_path", "write_cell", "read_cell", "cell_status", "assemble",
           "write_json_atomic", "write_table", "read_table", "write_csv", "clean_temporaries",
           "another_configuration_error", "RESULT_COLUMNS", "TABLE_CONFIG_KEY"]

RESULT_COLUMNS = ["dataset", "method", "selector", "rule", "classifier", "protocol", "split",
                  "n_features", "metric", "value", "cell"]


def cell_path(out: Path, h: str) -> Path:
    return Path(out) / "cells" / f"{h}.json"


def _fsync_dir(path: Path):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows cannot open folders
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def write_bytes_atomic(path: Path, data: bytes):
    """Write ``data`` to ``path`` atomically (:func:`rankfusion._utils.atomic.atomic_open`:
    temporary file in the same folder, fsync, replace), then fsync the folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_open(path, "wb") as fh:
        fh.write(data)
    _fsync_dir(path.parent)


def write_json_atomic(path: Path, obj):
    write_bytes_atomic(path, (json.dumps(obj, indent=1, sort_keys=True) + "\n").encode())


def another_configuration_error(out, what: str, how: str, *, overwrite: str) -> ValueError:
    """The refusal of a results folder that holds another configuration's results, in one
    line naming the folder, how the configurations differ and the two ways out (the
    experiment runner and the advisor say it alike: results of two configurations are never
    mixed in one folder).

    Parameters
    ----------
    out : path-like
        The folder.
    what : str
        What it holds (``"results"``, ``"advisor parts"``).
    how : str
        How the configurations differ (``"it differs in: seed"``).
    overwrite : str
        What ``--overwrite`` does there (``"discard them"``).

    Returns
    -------
    ValueError
        The error to raise.
    """
    return ValueError(f"out {str(out)!r} holds the {what} of another configuration ({how}); "
                      "two configurations' results are never mixed in one folder: choose "
                      f"another folder (--out), or pass --overwrite (overwrite=True) to "
                      f"{overwrite}")


def write_cell(out: Path, cell: Cell, result: dict) -> Path:
    """File one finished cell (``result`` from :func:`~.cells.run_cell`)."""
    payload = result["payload"]
    doc = {
        "format": CELL_FORMAT,
        "hash": cell.hash,
        "spec": cell.spec,
        "seed": result["seed"],
        "labels": cell.labels,
        "timing": result["timing"],
        "payload_sha256": sha256_hex(payload),
        "payload": payload,
    }
    path = cell_path(out, cell.hash)
    write_bytes_atomic(path, canonical_json(doc).encode("utf-8"))
    return path


def read_cell(path: Path, expected_hash: str | None = None) -> tuple[dict | None, str]:
    """``(document, "ok")`` for a sound cell file, else ``(None, reason)``."""
    path = Path(path)
    try:
        doc = json.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError:
        return None, "missing"
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        return None, f"unreadable ({type(exc).__name__})"
    if not isinstance(doc, dict) or not {"hash", "spec", "payload", "payload_sha256"} <= set(doc):
        return None, "incomplete"
    h = expected_hash or path.stem
    if doc["hash"] != h:
        return None, "filed under another hash"
    if sha256_hex(doc["spec"]) != h:
        return None, "spec does not match its hash"
    if sha256_hex(doc["payload"]) != doc["payload_sha256"]:
        return None, "payload checksum mismatch"
    return doc, "ok"


def cell_status(out: Path, cells: list[Cell]) -> dict[str, str]:
    """hash → ``"done"``, ``"todo"`` or ``"corrupt: <reason>"`` for the planned cells."""
    status = {}
    for c in cells:
        path = cell_path(out, c.hash)
        if not path.exists():
            status[c.hash] = "todo"
            continue
        doc, why = read_cell(path, c.hash)
        status[c.hash] = "done" if doc is not None else f"corrupt: {why}"
    return status


#: Names of the temporary files of :func:`rankfusion._utils.atomic.atomic_open`
#: (``.<name>.<random>.tmp``) and of earlier releases (``.tmp-*``).
_TEMP_PATTERNS = (re.compile(r"^\..+\.[A-Za-z0-9_]+\.tmp$"), re.compile(r"^\.tmp-.+"))


def clean_temporaries(out: Path, *, before: float) -> list[str]:
    """Remove the temporary files that an interrupted run left in ``out`` and ``out/cells``;
    returns their names.

    Called only by a run that holds the folder's lock (:mod:`.lock`), so no other run is
    writing there; and a temporary file is removed only when it is proven stale: its name is
    one the writers use, and it was last modified before ``before`` (the moment the lock was
    taken, epoch seconds), i.e. by a run that ended before this one started. ``out/report`` is
    left alone: ``rankfusion report`` writes there without the lock.
    """
    removed = []
    for folder in (Path(out), Path(out) / "cells"):
        if not folder.is_dir():
            continue
        for tmp in folder.iterdir():
            if not any(pat.match(tmp.name) for pat in _TEMP_PATTERNS):
                continue
            try:
                if not tmp.is_file() or tmp.stat().st_mtime >= before:
                    continue
                tmp.unlink()
                removed.append(str(tmp.relative_to(out)))
            except OSError:  # pragma: no cover - removed meanwhile, or not ours to remove
                pass
    return removed


def assemble(out: Path, cells: list[Cell]) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """Tidy tables of the planned cells from their files: ``(results, positions, timings)``.

    ``results`` columns: dataset, method, selector, rule, classifier, protocol, split (split or
    fold index), n_features (feature count of an error curve; the selected count is not
    known for a CV fold: -1), metric, value, cell (hash). ``positions`` columns: dataset,
    method, selector, rule, protocol, split, feature, position, cell (error-curve cells only;
    one ranking per split, shared by the classifiers of a method).
    """
    res_parts, pos_parts, timings = [], [], {}
    seen_pos = set()
    for c in cells:
        doc, why = read_cell(cell_path(out, c.hash), c.hash)
        if doc is None:
            raise ValueError(f"cell {c.label} ({c.hash[:12]}) is not available: {why}")
        p = doc["payload"]
        lab = c.labels
        base = {"dataset": lab["dataset"], "method": c.method, "selector": lab["selector"],
                "rule": lab["rule"] or "", "classifier": lab["classifier"],
                "protocol": lab["protocol"]}
        timings[c.hash] = {"label": c.label, "seed": doc["seed"], **doc["timing"]}
        if p["kind"] == "error_curve":
            err = np.asarray(p["errors"], dtype=np.float64)
            n_splits, n_k = err.shape
            frame = pd.DataFrame({
                "split": np.repeat(np.arange(n_splits), n_k),
                "n_features": np.tile(np.asarray(p["n_features"], dtype=np.int64), n_splits),
                "metric": "error",
                "value": err.reshape(-1),
            })
            key = (lab["dataset"], c.method, lab["protocol"])
            if key not in seen_pos:
                seen_pos.add(key)
                pos = np.asarray(p["positions"], dtype=np.int64)
                feats = p["features"]
                pos_parts.append(pd.DataFrame({
                    "dataset": lab["dataset"], "method": c.method,
                    "selector": lab["selector"], "rule": lab["rule"] or "",
                    "protocol": lab["protocol"],
                    "split": np.repeat(np.arange(pos.shape[0]), pos.shape[1]),
                    "feature": np.tile(np.asarray(feats, dtype=object), pos.shape[0]),
                    "position": pos.reshape(-1), "cell": c.hash}))
        else:
            sc = np.asarray(p["scores"], dtype=np.float64)
            n_f, n_m = sc.shape
            frame = pd.DataFrame({
                "split": np.repeat(np.arange(n_f), n_m),
                "n_features": -1,
                "metric": np.tile(np.asarray(p["metrics"], dtype=object), n_f),
                "value": sc.reshape(-1),
            })
        for k, v in base.items():
            frame[k] = v
        frame["cell"] = c.hash
        res_parts.append(frame)
    results = (pd.concat(res_parts, ignore_index=True)[RESULT_COLUMNS] if res_parts
               else pd.DataFrame(columns=RESULT_COLUMNS))
    pos_cols = ["dataset", "method", "selector", "rule", "protocol", "split", "feature",
                "position", "cell"]
    positions = (pd.concat(pos_parts, ignore_index=True)[pos_cols] if pos_parts
                 else pd.DataFrame(columns=pos_cols))
    for frame in (results, positions):
        for col in ("split", "n_features", "position"):
            if col in frame:
                frame[col] = frame[col].astype(np.int64)
        if "feature" in frame:
            frame["feature"] = frame["feature"].astype(str)
    return results, positions, timings


#: Key of the configuration's SHA-256 in the Parquet schema metadata of the tables.
TABLE_CONFIG_KEY = b"rankfusion.config_sha256"


def write_table(frame: pd.DataFrame, path: Path, *, config_sha256: str | None = None):
    """Parquet (pyarrow) written atomically; ``config_sha256`` is stored in the file's schema
    metadata, so that a table can be matched to the configuration it was assembled for."""
    import io

    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    if config_sha256 is not None:
        table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                               TABLE_CONFIG_KEY: config_sha256.encode()})
    buf = io.BytesIO()
    pq.write_table(table, buf)
    write_bytes_atomic(path, buf.getvalue())


def read_table(path: Path) -> tuple[pd.DataFrame, str | None]:
    """``(frame, config_sha256)`` of a table written by :func:`write_table` (the hash is None
    for tables of earlier releases).

    Raises
    ------
    ValueError
        The file is damaged (truncated, overwritten, not Parquet); the message names it and the
        ways out: run the experiment again (it rebuilds the tables from the cell files), or
        delete the file.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    try:
        table = pq.read_table(path)
    except (pa.ArrowException, OSError, ValueError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        folder = path.parent
        raise ValueError(
            f"{path}: damaged, not a readable Parquet file ({type(exc).__name__}: {exc}). "
            f"The finished cells in {folder / 'cells'} are not affected: run the experiment "
            f"again on the same folder (rankfusion experiment {folder / 'config.toml'} --out "
            f"{folder}) to rebuild {path.name} from them, or delete {path}") from None
    meta = table.schema.metadata or {}
    h = meta.get(TABLE_CONFIG_KEY)
    return table.to_pandas(), (h.decode() if h is not None else None)


def write_csv(frame: pd.DataFrame, path: Path):
    """CSV written atomically, text cells protected against spreadsheet formulas
    (:func:`rankfusion._utils.tabular.to_csv`; docs/design.md, 'Outputs')."""
    write_bytes_atomic(path, to_csv(frame, index=False).encode("utf-8"))
