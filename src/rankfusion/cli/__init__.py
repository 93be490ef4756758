"""The ``rankfusion`` command line (also ``python -m rankfusion``).

Each sub-command lives in its own module of this package exposing ``add_parser(subparsers)``
and ``run(args) -> int``; :data:`COMMANDS` lists them in the order of ``rankfusion --help``.
Errors in the user's input print one line (``rankfusion: error: …``) and exit with status 2;
warnings print one line (``rankfusion: warning: …``); output to a closed pipe
(``rankfusion rank … | head -1``) ends quietly with status 0.

An option value that starts with ``-`` and reads as a number or a list of numbers
(``--weights -1,1,1``, ``--C -1e-3``, ``--step -.5``) is taken as the value, as
``--weights=-1,1,1`` is; argparse alone takes only plain negative numbers (``-1``, ``-0.5``)
and calls the rest a missing argument. Any other value starting with ``-`` must be given after
``=``, which the error message says.
"""

from .program import COMMANDS, build_parser, main

__all__ = ["COMMANDS", "build_parser", "main"]
