"""The version of rankfusion, defined once in the lowest layer (docs/design.md, "Layers").

Every package imports ``__version__`` from here, never from the root ``rankfusion`` (the facade
above every layer); the command line may import it too, as metadata, although this module is
private. ``pyproject.toml`` states the same version for packaging.
"""

__all__ = ["__version__"]

__version__ = "0.1.0.dev0"
