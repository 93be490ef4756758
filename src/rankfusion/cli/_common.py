"""Helpers shared by the sub-commands: parsing numbers and parameters, printing tables."""

from __future__ import annotations

import argparse

__all__ = ["number", "param_value", "parse_params", "print_frame"]


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


def print_frame(frame, *, max_rows: int | None = None) -> None:
    import pandas as pd

    with pd.option_context("display.max_rows", max_rows, "display.width", 200,
                           "display.max_columns", 50):
        print(frame.to_string(max_rows=max_rows))
