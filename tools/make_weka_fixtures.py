"""Regenerate ``tests/fixtures/weka_classifiers/*.csv``: Weka's predictions, fold by fold.

Usage (from the repository root; needs ``java`` and Weka 3.6 at /usr/share/java/weka.jar,
e.g. Debian's ``apt-get install weka``)::

    PYTHONPATH=src python tools/make_weka_fixtures.py

For each dataset, rows are assigned to 10 stratified folds (scikit-learn ``StratifiedKFold``,
shuffle, random_state=0; the fold of each row is stored, so the tests do not depend on it);
for each fold a train and a test ARFF are written from ``rankfusion.datasets.load(...,
as_frame=True)`` (nominal attributes declared with their values, ``?`` for missing) and Weka
is run as::

    java -cp weka.jar weka.classifiers.bayes.NaiveBayes -t train.arff -T test.arff -p 0
    java -cp weka.jar weka.classifiers.trees.J48 -t train.arff -T test.arff -p 0
    java -cp weka.jar weka.classifiers.lazy.IBk -t train.arff -T test.arff -p 0

(default options). Class values are written as ``c0, c1, …`` (declared order). The
predicted class index of each test row is read from ``-p 0``'s output.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import numpy as np
import pandas as pd
from sklearn.model_selection import StratifiedKFold

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "src"))
from rankfusion.datasets import load  # noqa: E402

JAR = "/usr/share/java/weka.jar"
OUT = os.path.join(ROOT, "tests", "fixtures", "weka_classifiers")
SETS = ["ionosphere", "zoo", "pima", "glass", "iris", "sonar", "vehicle", "german_credit",
        "wbc", "splice"]
CLASSIFIERS = {"nb": "weka.classifiers.bayes.NaiveBayes", "j48": "weka.classifiers.trees.J48",
               "ibk": "weka.classifiers.lazy.IBk"}


def _q(v: str) -> str:
    return "'" + str(v).replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(frame: pd.DataFrame, path: str) -> None:
    lines = ["@relation fixture", ""]
    for c in frame.columns:
        col = frame[c]
        if isinstance(col.dtype, pd.CategoricalDtype):
            lines.append(f"@attribute {_q(c)} {{{','.join(_q(v) for v in col.cat.categories)}}}")
        else:
            lines.append(f"@attribute {_q(c)} numeric")
    lines += ["", "@data"]
    cols = []
    for c in frame.columns:
        col = frame[c]
        if isinstance(col.dtype, pd.CategoricalDtype):
            cols.append(["?" if pd.isna(v) else _q(v) for v in col.astype(object)])
        else:
            cols.append(["?" if np.isnan(v) else repr(float(v)) for v in col.to_numpy(float)])
    lines += [",".join(r) for r in zip(*cols)]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


def weka_predict(cls: str, train: str, test: str) -> list[int]:
    out = subprocess.run(["java", "-Xmx1g", "-cp", JAR, cls, "-t", train, "-T", test, "-p", "0"],
                         check=True, capture_output=True, text=True).stdout
    preds, started = [], False
    for line in out.splitlines():
        if line.strip().startswith("inst#"):
            started = True
            continue
        if started and line.strip():
            tok = line.split()
            preds.append(int(tok[2].split(":", 1)[0]) - 1)
    return preds


def main() -> None:
    version = subprocess.run(["java", "-cp", JAR, "weka.core.Version"], capture_output=True,
                             text=True).stdout.splitlines()[0].strip()
    print("Weka", version)
    for name in SETS:
        if os.path.exists(os.path.join(OUT, f"{name}.csv")):
            continue
        b = load(name, as_frame=True)
        y = b.target
        # class values renamed c0, c1, ... so that -p 0's output splits on white space
        frame = b.frame.assign(**{"class": y.cat.rename_categories(
            [f"c{i}" for i in range(len(y.cat.categories))])})
        folds = np.empty(len(y), dtype=np.int64)
        skf = StratifiedKFold(10, shuffle=True, random_state=0)
        for k, (_, te) in enumerate(skf.split(np.zeros(len(y)), y.cat.codes)):
            folds[te] = k
        res = pd.DataFrame({"row": np.arange(len(y)), "fold": folds,
                            "actual": y.astype(str).to_numpy()})
        cats = list(y.cat.categories)
        for key in CLASSIFIERS:
            res[key] = ""
        with tempfile.TemporaryDirectory() as tmp:
            for k in range(10):
                tr, te = os.path.join(tmp, "train.arff"), os.path.join(tmp, "test.arff")
                write_arff(frame[folds != k], tr)
                write_arff(frame[folds == k], te)
                for key, cls in CLASSIFIERS.items():
                    p = weka_predict(cls, tr, te)
                    res.loc[folds == k, key] = [cats[i] for i in p]
        res.to_csv(os.path.join(OUT, f"{name}.csv"), index=False)
        acc = {k: float((res[k] == res["actual"]).mean()) for k in CLASSIFIERS}
        print(name, len(y), acc)


if __name__ == "__main__":
    main()
