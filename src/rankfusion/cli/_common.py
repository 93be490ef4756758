"""Helpers shared by the sub-commands: reading lists, parsing numbers, printing tables."""

from __future__ import annotations

import argparse
import os

import numpy as np
import pandas as pd

from ..lists import RankedLists

__all__ = ["read_lists", "number", "param_value", "parse_params", "print_frame"]


def number(text: str) -> int | float:
    """``5`` → int 5, ``0.1`` → float 0.1.

    The CLI reads k this way (docs/design.md, 'Aggregation rules').
    """
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def param_value(text: str):
    """A ``--param NAME=VALUE`` value: true/yes, false/no, none, an int, a float, else text."""
    low = text.strip().lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    if low == "none":
        return None
    try:
        return number(text.strip())
    except argparse.ArgumentTypeError:
        return text.strip()


def parse_params(items) -> dict:
    """``["k=5", "distance=kendall"]`` → ``{"k": 5, "distance": "kendall"}``."""
    out = {}
    for item in items:
        if "=" not in item:
            raise ValueError(f"--param expects NAME=VALUE, got {item!r}")
        key, val = item.split("=", 1)
        out[key.strip()] = param_value(val)
    return out


def _is_number(v) -> bool:
    if isinstance(v, (int, float, np.number)) and not isinstance(v, bool):
        return True
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


def read_lists(path: str | os.PathLike, kind: str = "auto") -> RankedLists:
    """Read lists from a CSV file.

    ``kind="scores"``: features × lists, first column the feature names, higher = better.
    ``kind="positions"``: same layout with positions (1 = best; empty = not ranked).
    ``kind="orders"``: one row per list, first column the list name, then the feature names
    best first (rows may be shorter: top-k lists).
    ``kind="auto"``: orders when the cells after the first column are names rather than
    numbers, scores otherwise.
    """
    if kind not in ("auto", "scores", "positions", "orders"):
        raise ValueError(f"--input must be auto, scores, positions or orders, got {kind!r}")
    if not os.path.exists(path):
        raise FileNotFoundError(f"no such file: {path}")
    raw = pd.read_csv(path, header=None, dtype=str, keep_default_na=False)
    if raw.shape[0] < 2 and kind != "orders":
        raise ValueError(f"{path}: expected a header row and at least one feature row")
    if kind == "auto":
        body = raw.iloc[1:, 1:].to_numpy().ravel()
        cells = [c for c in body if c != ""]
        kind = "scores" if cells and all(_is_number(c) for c in cells) else "orders"
    if kind == "orders":
        first = [str(c).strip() for c in raw.iloc[0].tolist()]
        # A header row is present when the first row looks like column labels: a first cell
        # such as "list" or "name", or rank numbers 1, 2, … after it.
        has_header = first[0].lower() in ("list", "lists", "name", "list_name", "") or all(
            c.isdigit() for c in first[1:] if c != ""
        ) and any(c != "" for c in first[1:])
        rows = [list(r) for r in (raw.iloc[1:] if has_header else raw).itertuples(index=False)]
        if not rows:
            raise ValueError(f"{path}: no lists found")
        # The first column names the lists unless its values are themselves ranked features.
        firsts = {r[0] for r in rows}
        rest = {c for r in rows for c in r[1:] if c != ""}
        named = (has_header and first[0] != "") or (not (firsts & rest) and len(firsts) == len(rows)
                                                    and len(rows) > 1)
        if named:
            names = [r[0] for r in rows]
            orders = [[c for c in r[1:] if c != ""] for r in rows]
        else:
            names = None
            orders = [[c for c in r if c != ""] for r in rows]
        return RankedLists.from_orders(orders, list_names=names)
    frame = pd.read_csv(path, index_col=0)
    frame.index = frame.index.astype(str)
    if kind == "positions":
        return RankedLists.from_positions(frame)
    non_numeric = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    if non_numeric:
        raise ValueError(f"{path}: column {non_numeric[0]!r} is not numeric scores")
    if frame.isna().any().any():
        raise ValueError(f"{path}: empty or NaN score cells; scores must be finite")
    return RankedLists.from_scores(frame)


def print_frame(frame: pd.DataFrame, *, max_rows: int | None = None) -> None:
    with pd.option_context("display.max_rows", max_rows, "display.width", 200,
                           "display.max_columns", 50):
        print(frame.to_string(max_rows=max_rows))
