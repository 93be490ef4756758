"""Shared utilities of every layer: argument validation, classification data, seeds, registries.

This package is the lowest layer of rankfusion (docs/design.md, "Layers"): it imports nothing
from the rest of the package, and every other package may import its public names.
"""
