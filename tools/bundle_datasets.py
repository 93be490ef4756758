"""Regenerate the datasets shipped in ``src/rankfusion/data/datasets/`` and ``catalog.json``.

Usage (from the repository root)::

    PYTHONPATH=src python tools/bundle_datasets.py [RAW_DIR]   # default /work/shared/datasets

Every set of :data:`rankfusion.datasets._sources.SOURCES` is parsed from its raw file(s) with
the parser the package itself uses for ``data_home``; the shipped copy is a gzip CSV (header,
features then ``class``; nominal values and classes written as their labels; integral numeric
columns written without a decimal point; missing = empty cell; gzip header with mtime 0 and no
file name, so a rerun gives identical bytes). Each file is read back and compared with the
parse (values, NaN positions, categories) before its SHA-256 is recorded. The catalog also
records the SHA-256 of every raw file read. Sets listed in ``EXTERNAL`` are not shipped (their
raw file does not compress); the catalog keeps their metadata so that ``load`` can parse them
from ``data_home``.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import sys
import warnings
from dataclasses import asdict

import numpy as np
import pandas as pd

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))

from rankfusion.datasets import _sources, loaders  # noqa: E402

OUT = os.path.join(ROOT, "src", "rankfusion", "data", "datasets")
EXTERNAL = {"golub_zscored"}


def _stats(frame: pd.DataFrame) -> dict:
    X = frame.drop(columns="class")
    y = frame["class"]
    if not isinstance(y.dtype, pd.CategoricalDtype):  # a regression target
        v = y.to_numpy(dtype=np.float64)
        return {"n_samples": int(X.shape[0]), "n_features": int(X.shape[1]),
                "n_classes": None, "n_missing": int(X.isna().sum().sum()),
                "target": {"min": float(v.min()), "max": float(v.max()),
                           "mean": float(v.mean()), "n_unique": int(np.unique(v).size),
                           "integer_valued": bool(np.all(v == np.round(v)))}}
    counts = y.value_counts(sort=False)
    return {"n_samples": int(X.shape[0]), "n_features": int(X.shape[1]),
            "n_classes": int((counts > 0).sum()), "n_missing": int(X.isna().sum().sum()),
            "class_counts": {str(k): int(v) for k, v in counts.items() if v > 0}}


def _nominal(frame: pd.DataFrame) -> dict:
    return {c: [str(v) for v in frame[c].cat.categories] for c in frame.columns
            if c != "class" and isinstance(frame[c].dtype, pd.CategoricalDtype)}


def _write(frame: pd.DataFrame, path: str) -> None:
    out = {}
    for c in frame.columns:
        col = frame[c]
        if isinstance(col.dtype, pd.CategoricalDtype):
            out[c] = col.astype(object)
        else:
            v = col.to_numpy(dtype=np.float64)
            ok = ~np.isnan(v)
            if np.all(v[ok] == np.round(v[ok])) and np.all(np.abs(v[ok]) < 2**53):
                out[c] = col.astype("Int64")
            else:
                out[c] = col
    text = pd.DataFrame(out).to_csv(index=False, lineterminator="\n")
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                                mtime=0, compresslevel=9) as fh:
        fh.write(text.encode("utf-8"))


def _same(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    if list(a.columns) != list(b.columns) or a.shape != b.shape:
        return False
    for c in a.columns:
        x, y = a[c], b[c]
        if isinstance(x.dtype, pd.CategoricalDtype):
            if list(x.cat.categories) != list(y.cat.categories) or \
                    not np.array_equal(x.cat.codes.to_numpy(), y.cat.codes.to_numpy()):
                return False
        elif not np.array_equal(x.to_numpy(np.float64), y.to_numpy(np.float64), equal_nan=True):
            return False
    return True


def main(raw_dir: str) -> None:
    warnings.simplefilter("ignore", pd.errors.PerformanceWarning)
    os.makedirs(OUT, exist_ok=True)
    catalog: dict = {"format": "gzip CSV, see tools/bundle_datasets.py", "datasets": {}}
    entries = catalog["datasets"]
    for name, src in _sources.SOURCES.items():
        frame = _sources.parse(name, raw_dir)
        meta = {k: v for k, v in asdict(src).items() if k not in ("options", "parser")}
        meta["files"] = list(src.files)
        meta["raw_sha256"] = {f: loaders.file_sha256(_sources._path(raw_dir, src, k))
                              for k, f in enumerate(src.files)}
        regression = src.task == "regression"
        entry = {**meta, **_stats(frame), "nominal": _nominal(frame),
                 "classes": [] if regression else
                 [str(c) for c in frame["class"].cat.categories],
                 "bundled": name not in EXTERNAL}
        if entry["bundled"]:
            rel = f"datasets/{name}.csv.gz"
            path = os.path.join(OUT, f"{name}.csv.gz")
            _write(frame, path)
            entry["file"] = rel
            entry["sha256"] = loaders.file_sha256(path)
            entry["bytes"] = os.path.getsize(path)
        entries[name] = entry
        print(f"{name:22s} {entry['n_samples']:5d} x {entry['n_features']:5d} "
              f"{entry.get('bytes', 0):9d} B")
    # the St. Jude file shipped since the first release (read by load_stjude_leukemia)
    st = pd.read_csv(os.path.join(ROOT, "src", "rankfusion", "data",
                                  "stjude_monti_985x248.csv.gz"))
    y = st.pop("class")
    st = st.drop(columns="sample").assign(**{"class": pd.Categorical(y)})
    entries["stjude"] = {
        "folder": "monti_stjude_leukemia", "files": ["stjude.rda"],
        "repo": "harrysouthworth/conclus", "commit": "15c97fbb14b256e932dda5520e609395f112814a",
        "origin": "St. Jude pediatric ALL (Yeoh et al. 2002), Monti et al. (2003)'s Leukemia "
                  "matrix (985 genes)",
        "citation": "Yeoh et al. (2002). Cancer Cell 1, 133-143; Monti et al. (2003). "
                    "Machine Learning 52, 91-118.",
        "licence": "GPL-2 (conclus package); no licence statement on the data",
        "notes": "See rankfusion/data/stjude_README.md.", "group": "monti",
        **_stats(st), "nominal": {}, "classes": [str(c) for c in st["class"].cat.categories],
        "bundled": True, "derived": "stjude", "file": "stjude_monti_985x248.csv.gz",
        "sha256": loaders.file_sha256(os.path.join(ROOT, "src", "rankfusion", "data",
                                                   "stjude_monti_985x248.csv.gz"))}
    derived = {k: {"derived": "top_sd", "base": base, "n_top": n}
               for k, (base, n) in loaders.MONTI_DERIVED.items()}
    derived["mfeat"] = {"derived": "concat", "parts": list(loaders.MFEAT_VIEWS)}
    for name, d in derived.items():
        first = d.get("base") or d["parts"][0]
        base = dict(entries[first])
        for k in ("file", "sha256", "bytes", "raw_sha256"):
            base.pop(k, None)
        if name == "mfeat":
            base["origin"] = "UCI Multiple Features, all six views (fou, fac, kar, pix, zer, mor)"
            base["files"] = [f for p in d["parts"] for f in entries[p]["files"]]
        entries[name] = {**base, **d, "nominal": {}}
    _dump(catalog)
    loaders._catalog.cache_clear()
    for name in list(derived) + [n for n in entries if entries[n]["bundled"]
                                 and "derived" not in entries[n]]:
        frame = loaders._frame(name, raw_dir)
        if name in derived:
            entries[name].update(_stats(frame))
            if derived[name]["derived"] == "top_sd":
                X = frame.drop(columns="class")
                full = loaders._frame(derived[name]["base"], raw_dir).drop(columns="class")
                sd = np.sort(full.to_numpy().std(axis=0, ddof=1))[::-1]
                n = derived[name]["n_top"]
                entries[name]["sd_boundary"] = [float(sd[n - 1]), float(sd[n])]
                entries[name]["tie_at_boundary"] = bool(sd[n - 1] == sd[n])
                assert X.shape[1] == n
        else:
            assert _same(frame, _sources.parse(name, raw_dir)), name
        print(f"checked {name}")
    _dump(catalog)


def _dump(catalog: dict) -> None:
    buf = io.StringIO()
    json.dump(catalog, buf, indent=1, sort_keys=False, ensure_ascii=False)
    with open(os.path.join(OUT, "catalog.json"), "w", encoding="utf-8") as fh:
        fh.write(buf.getvalue() + "\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/datasets")
