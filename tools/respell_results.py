"""Carry a shipped results folder over to a configuration that was only respelled.

Usage (from the repository root)::

    PYTHONPATH=src python tools/respell_results.py CONFIG.toml RESULTS_FOLDER [...]

(pairs of arguments). A results folder is adopted by ``rankfusion reproduce`` only when its
``config.toml`` is the configuration's text (docs/design.md, 'Reproductions'), so rewording a
configuration — e.g. ``decomposition = "crammer_singer"`` → ``criterion = "crammer_singer"``,
which the runner plans as the same cells — would make the next ``reproduce --full`` recompute
hours of cells whose numbers cannot change. This script checks that claim and only then
rewrites the folder:

1. the folder's own ``config.toml`` and ``CONFIG.toml`` plan the same cells, label for label,
   with the same cell hash under the current planning (the hash covers every setting that
   determines the numbers: dataset, selector, rule, classifier, protocol, seed) — otherwise it
   stops and changes nothing;
2. the ``cell`` column of ``results.parquet`` / ``positions.parquet`` (hashes as planned when
   the cells ran) is mapped to the current hashes through the labels in ``metadata.json``, and
   the tables are stamped with the new configuration's SHA-256;
3. ``config.toml`` becomes the new text, and ``metadata.json`` gets its cell keys renamed, the
   experiment's SHA-256 updated and a ``respelled`` record (old and new SHA-256, date, how many
   cells; nothing recomputed).

Run a recomputation check afterwards (e.g. ``tests/experiments/test_repro_izetta_ge.py``
recomputes committed cells and compares them row for row).
"""

from __future__ import annotations

import json
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from rankfusion.experiments.config import load_config  # noqa: E402
from rankfusion.experiments.runner import config_sha256  # noqa: E402
from rankfusion.experiments.store import read_table, write_json_atomic, write_table  # noqa: E402


def respell(config: Path, folder: Path) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # the old spelling warns; expected here
        old_cfg = load_config(folder / "config.toml")
    new_cfg = load_config(config)
    old_sha, new_sha = config_sha256(old_cfg), config_sha256(new_cfg)
    if old_sha == new_sha:
        return f"{folder}: already {config.name}'s text, nothing to do"
    old = {c.label: c.hash for c in old_cfg.cells}
    new = {c.label: c.hash for c in new_cfg.cells}
    if old != new:
        diff = sorted(set(old.items()) ^ set(new.items()))[:5]
        raise SystemExit(f"{folder}: {config} plans other cells than the folder's config.toml "
                         f"(first differences: {diff}); not respelled")
    meta_path = folder / "metadata.json"
    meta = json.loads(meta_path.read_text())
    by_label = {}
    for h, info in meta["cells"].items():
        by_label.setdefault(info["label"], set()).add(h)
    mapping = {}
    for label, hashes in by_label.items():
        if label not in new:
            raise SystemExit(f"{folder}: metadata names cell {label!r}, not planned by {config}")
        for h in hashes:
            mapping[h] = new[label]
    for name in ("results.parquet", "positions.parquet"):
        path = folder / name
        if not path.is_file():
            continue
        frame, _ = read_table(path)
        if "cell" in frame:
            unknown = set(frame["cell"]) - set(mapping)
            if unknown:
                raise SystemExit(f"{path}: cells {sorted(unknown)[:3]} not in metadata.json")
            frame["cell"] = frame["cell"].map(mapping)
        write_table(frame, path, config_sha256=new_sha)
    meta["cells"] = {mapping[h]: info for h, info in meta["cells"].items()}
    if isinstance(meta.get("experiment"), dict):
        meta["experiment"]["config_sha256"] = new_sha
        meta.setdefault("experiments", {})[new_sha] = dict(meta["experiment"])
    if isinstance(meta.get("tables"), dict):
        meta["tables"]["config_sha256"] = new_sha
    meta.setdefault("respelled", []).append({
        "from_config_sha256": old_sha, "to_config_sha256": new_sha,
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "cells": len(new), "recomputed": 0,
        "note": f"configuration text replaced by {config.name}; the same cells (hashes under "
                "the current planning), numbers unchanged"})
    write_json_atomic(meta_path, meta)
    (folder / "config.toml").write_text(config.read_text(encoding="utf-8"), encoding="utf-8")
    return f"{folder}: respelled ({len(new)} cells, {len(mapping)} hashes mapped)"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or len(argv) % 2:
        print(__doc__)
        return 2
    for config, folder in zip(argv[::2], argv[1::2]):
        print(respell(Path(config), Path(folder)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
