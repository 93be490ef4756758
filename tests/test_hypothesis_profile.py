"""The test command is deterministic: hypothesis runs derandomised (``tests/conftest.py``), so a
fresh clone draws the same examples as every other run, whatever seed is offered."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import settings

HERE = Path(__file__).resolve().parent

PROBE = '''
from hypothesis import given, strategies as st

@given(st.lists(st.integers(), max_size=5), st.text(max_size=4))
def test_draws(xs, s):
    with open(OUT, "a", encoding="utf-8") as fh:
        fh.write(repr((xs, s)) + "\\n")
'''


def test_default_profile_is_derandomised():
    if os.environ.get("HYPOTHESIS_PROFILE", "ci") != "ci":
        return  # a developer chose another profile on purpose
    assert settings.default.derandomize is True
    assert settings.default.database is None
    assert settings.default.deadline is None


def _draws(tmp_path: Path, seed: int) -> list[str]:
    out = tmp_path / f"draws_{seed}.txt"
    probe = tmp_path / "probe"
    probe.mkdir(exist_ok=True)
    (probe / "conftest.py").write_text((HERE / "conftest.py").read_text(encoding="utf-8"),
                                       encoding="utf-8")
    (probe / "test_probe.py").write_text(f"OUT = {str(out)!r}\n" + PROBE, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_PROFILE"}
    res = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(probe),
         "-c", os.devnull, f"--hypothesis-seed={seed}", str(probe / "test_probe.py")],
        env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    return out.read_text(encoding="utf-8").splitlines()


def test_two_runs_with_different_seeds_draw_the_same_examples(tmp_path):
    first, second = _draws(tmp_path, 1), _draws(tmp_path, 987654321)
    assert len(first) > 10
    assert first == second
