"""The rankers package loads each ranker's module on first use: the table of which module
registers which name must match what the modules register."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rankfusion.rankers import _registry as reg
from rankfusion.rankers import available_rankers, ranker_info

SRC = str(Path(__file__).resolve().parents[2] / "src")


def test_every_registered_name_has_its_provider():
    names = set(available_rankers(aliases=True))  # loads every module
    assert names == set(reg.PROVIDERS)
    for name, module in reg.PROVIDERS.items():
        func_module = ranker_info(name).func.__module__
        assert func_module.startswith("rankfusion.rankers" + module), (name, func_module)


@pytest.mark.parametrize("name, loaded, not_loaded", [
    ("info_gain", "rankfusion.rankers.information", "rankfusion.rankers.cfs"),
    ("ig", "rankfusion.rankers.information", "rankfusion.rankers.relief"),
    ("relieff", "rankfusion.rankers.relief", "rankfusion.rankers.rfe"),
    ("mifs", "rankfusion.rankers.mifs", "sklearn"),
])
def test_asking_for_one_ranker_loads_only_its_module(name, loaded, not_loaded):
    code = (f"import sys; from rankfusion.rankers import get_ranker; get_ranker({name!r}); "
            f"print({loaded!r} in sys.modules, {not_loaded!r} in sys.modules)")
    env = {**os.environ, "PYTHONPATH": SRC}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "False"]


def test_function_names_shadowing_modules_stay_functions():
    import rankfusion.rankers as rk
    import rankfusion.rankers.cfs  # noqa: F401 - the submodule import must not replace cfs()
    import rankfusion.rankers.relief  # noqa: F401

    assert callable(rk.cfs) and rk.cfs.__name__ == "cfs"
    assert callable(rk.relief) and rk.relief.__name__ == "relief"


def test_unknown_ranker_lists_all_known():
    with pytest.raises(ValueError, match="did you mean 'info_gain'.*relieff"):
        ranker_info("info_gian")
