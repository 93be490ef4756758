"""``rankfusion svm-rfe --standardize`` equals the same run on scikit-learn's StandardScaler
output (population SD, as ``StandardScaler``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn.preprocessing import StandardScaler

from conftest import read_csv
from rankfusion.cli import main


def _frame(seed=0, n=60, p=8):
    rng = np.random.default_rng(seed)
    y = np.repeat(["a", "b", "c"], n // 3)
    codes = np.repeat([0, 1, 2], n // 3)
    X = rng.normal(size=(n, p))
    X[:, :3] += codes[:, None] * np.array([1.0, -0.7, 0.5])
    X *= np.geomspace(0.01, 500.0, p)  # scales far apart: z-scoring changes the SVMs
    X += rng.normal(0, 50, size=p)
    frame = pd.DataFrame(X, columns=[f"g{j}" for j in range(p)])
    frame["class"] = y
    return frame


def _run(path, out, *extra):
    code = main(["svm-rfe", str(path), "-t", "class", "--rules", "kfirst,schulze,average",
                 "--step", "1", "--random-state", "0", "--out", str(out), *extra])
    assert code == 0
    return read_csv(out, index_col=0)


@pytest.mark.parametrize("seed", [0, 1])
def test_standardize_equals_standard_scaler_output(tmp_path, capsys, seed):
    frame = _frame(seed)
    raw = tmp_path / "raw.csv"
    frame.to_csv(raw, index=False)
    scaled = frame.copy()
    cols = [c for c in frame.columns if c != "class"]
    scaled[cols] = StandardScaler().fit_transform(frame[cols].to_numpy())
    pre = tmp_path / "scaled.csv"
    scaled.to_csv(pre, index=False)
    ours = _run(raw, tmp_path / "a.csv", "--standardize")
    theirs = _run(pre, tmp_path / "b.csv")
    pd.testing.assert_frame_equal(ours, theirs)
    # the case discriminates: without z-scoring the positions differ
    assert not _run(raw, tmp_path / "c.csv").equals(ours)
    capsys.readouterr()
