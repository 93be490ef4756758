"""The result store of an experiment directory: one file per finished cell, written atomically,
verified on reading; tidy tables assembled from them.

Layout of ``OUT/``::

    cells/<hash>.json     one finished cell (spec, seed, payload, payload checksum, timing)
    config.toml           the configuration of the last run (copied)
    results.parquet       tidy scores: one row per cell × split/fold × feature count × metric
    positions.parquet     per-split rankings of the error-curve cells (cell × split × feature)
    results.csv, positions.csv   with ``--csv``
    metadata.json         versions, machine, seed, per-cell seeds and timings, run history
    report/               report.html (self-contained), report.md, figures/*.png

Safety: a cell file is written to a temporary file in the same folder, flushed and fsynced,
then renamed over its final name with :func:`os.replace` (atomic on POSIX and Windows) and the
folder fsynced; an interrupted write leaves at most a ``.tmp-*`` file, which is ignored and
removed. A cell file is trusted only if it parses, names the hash it is filed under, its spec
hashes to that hash, and its payload matches its SHA-256 checksum; anything else is recomputed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd

from .._utils.atomic import atomic_open
from .cells import CELL_FORMAT, Cell, canonical_json, sha256_hex

__all__ = ["cell_path", "write_cell", "read_cell", "cell_status", "assemble",
           "write_json_atomic", "RESULT_COLUMNS"]

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


def clean_temporaries(out: Path) -> int:
    n = 0
    folder = Path(out) / "cells"
    if folder.is_dir():
        for tmp in folder.glob(".tmp-*"):
            try:
                tmp.unlink()
                n += 1
            except OSError:  # pragma: no cover
                pass
    return n


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


def write_table(frame: pd.DataFrame, path: Path):
    """Parquet (pyarrow) written atomically."""
    import io

    buf = io.BytesIO()
    frame.to_parquet(buf, engine="pyarrow", index=False)
    write_bytes_atomic(path, buf.getvalue())


def write_csv(frame: pd.DataFrame, path: Path):
    write_bytes_atomic(path, frame.to_csv(index=False).encode("utf-8"))
