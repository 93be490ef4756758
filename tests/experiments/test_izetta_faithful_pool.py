"""Izetta tables: the paper-faithful parts run under several seeds are pooled, never mixed
with another protocol (``experiments/izetta/tables.py``: ``faithful_groups``,
``pool_splits``)."""

import pandas as pd
import pytest

from conftest import tables_script

CONFIG = """[experiment]
name = "{name}"
seed = {seed}
description = "{desc}"

[grid]
datasets = ["art1"]
selectors = ["ovo"]
protocols = ["curve"]

[protocols.curve]
kind = "error_curve"
n_splits = {n_splits}
"""


@pytest.fixture(scope="module")
def tables():
    return tables_script("izetta", "_tables_izetta_pool")


def _part(run, folder: str, *, name="x", seed=1, desc="d", n_splits=2):
    (run / folder).mkdir(parents=True)
    (run / folder / "config.toml").write_text(
        CONFIG.format(name=name, seed=seed, desc=desc, n_splits=n_splits))


def test_parts_under_other_seeds_are_grouped(tables, tmp_path):
    _part(tmp_path, "faithful_p", seed=1)
    _part(tmp_path, "faithful_p_b", name="y", seed=2, desc="other words")
    _part(tmp_path, "faithful_p_c", seed=3)
    _part(tmp_path, "faithful_q", seed=1)
    _part(tmp_path, "faithful_r_b", seed=1)      # no faithful_r: a part of its own
    _part(tmp_path, "artificial", seed=1)        # not a faithful part
    (tmp_path / "faithful_s").mkdir()            # no config: not a part
    assert tables.faithful_groups(str(tmp_path)) == {
        "faithful_p": ["faithful_p", "faithful_p_b", "faithful_p_c"],
        "faithful_q": ["faithful_q"], "faithful_r_b": ["faithful_r_b"]}


@pytest.mark.parametrize("edit", [
    lambda t: t.replace("n_splits = 2", "n_splits = 4"),                  # more splits per part
    lambda t: t.replace('datasets = ["art1"]', 'datasets = ["art2"]'),    # other data
    lambda t: t.replace('selectors = ["ovo"]', 'selectors = ["ova"]'),    # other selector
    lambda t: t + "test_size = 0.3\n",                                    # a key added
    lambda t: t.replace('kind = "error_curve"\n', ""),                    # a key dropped
    lambda t: t + '\n[datasets.art1]\nn_samples = 1200\n',              # another sample size
    lambda t: t.replace("[experiment]", "[experiment]\ntask = \"regression\""),  # not name/seed
])
def test_another_protocol_is_refused(tables, tmp_path, edit):
    _part(tmp_path, "faithful_p")
    _part(tmp_path, "faithful_p_b", seed=2)
    cfg = tmp_path / "faithful_p_b" / "config.toml"
    cfg.write_text(edit(cfg.read_text()))
    with pytest.raises(ValueError, match="faithful_p_b is not faithful_p under another seed"):
        tables.faithful_groups(str(tmp_path))


@pytest.mark.parametrize("content", [b"[experiment\nname = 1\n", b"\xff\xfe not text",
                                     b"seed = = 2\n"])
def test_an_unreadable_configuration_is_named(tables, tmp_path, content):
    _part(tmp_path, "faithful_p")
    _part(tmp_path, "faithful_p_b", seed=2)
    (tmp_path / "faithful_p_b" / "config.toml").write_bytes(content)
    with pytest.raises(ValueError, match=r"faithful_p_b.config\.toml is not a readable TOML"):
        tables.faithful_groups(str(tmp_path))


def test_pooled_splits_are_renumbered(tables):
    r1 = pd.DataFrame({"split": [0, 1, 1], "value": [1.0, 2.0, 3.0]})
    p1 = pd.DataFrame({"split": [0, 1], "position": [5, 6]})
    r2 = pd.DataFrame({"split": [0, 1], "value": [4.0, 5.0]})
    p2 = pd.DataFrame({"split": [1, 0], "position": [7, 8]})
    r, p = tables.pool_splits([r1, r2], [p1, p2])
    assert r.split.tolist() == [0, 1, 1, 2, 3]
    assert p.split.tolist() == [0, 1, 3, 2]
    assert r.value.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert r1.split.tolist() == [0, 1, 1]        # the callers' frames are not changed
