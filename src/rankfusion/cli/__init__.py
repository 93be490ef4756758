"""The ``rankfusion`` command line (also ``python -m rankfusion``).

Each sub-command lives in its own module of this package exposing ``add_parser(subparsers)``
and ``run(args) -> int``; :data:`COMMANDS` lists them in the order of ``rankfusion --help``.
Errors in the user's input print one line (``rankfusion: error: …``) and exit with status 2;
warnings print one line (``rankfusion: warning: …``); output to a closed pipe
(``rankfusion rank … | head -1``) ends quietly with status 0.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings

COMMANDS = ("demo", "aggregate", "rank", "svm-rfe", "select", "advise", "datasets", "experiment",
            "report")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with ``only`` set to a command name, just that command's parser
    is built (its module alone is imported, so the command starts quickly)."""
    from .. import __version__

    parser = argparse.ArgumentParser(
        prog="rankfusion",
        description="Feature selection by combining rankings.",
    )
    parser.add_argument("--version", action="version", version=f"rankfusion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        if only is not None and name != only:
            continue
        mod = importlib.import_module(f".{name.replace('-', '_')}", __name__)
        mod.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    chosen = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(chosen if chosen in COMMANDS else None)
    args = parser.parse_args(argv)
    repeated = _repeated_option(parser, chosen, argv)
    if repeated:
        print(f"rankfusion: error: {repeated} given twice: it takes one value (several names "
              "go in one, separated by commas)", file=sys.stderr)
        return 2
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            code = int(args.func(args) or 0)
        sys.stdout.flush()  # a closed pipe shows here, inside the try, not at exit
        return code
    except BrokenPipeError:
        # the reader went away (``rankfusion … | head -1``): stop quietly, as Unix tools do
        _silence_stdout()
        return 0
    except (ValueError, TypeError, KeyError, OSError, ImportError) as exc:
        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"rankfusion: error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # pragma: no cover
        print("rankfusion: interrupted", file=sys.stderr)
        return 130


def _repeated_option(parser, command, argv) -> str | None:
    """The first single-value option that ``argv`` gives twice (argparse would keep the last
    value silently: ``--drop a --drop b`` dropping only ``b``), or None. Options that collect
    (``--param``) may repeat."""
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    if sub is None or command not in sub.choices:
        return None
    single = {}
    for action in sub.choices[command]._actions:
        if isinstance(action, (argparse._StoreAction, argparse.BooleanOptionalAction)):
            for flag in action.option_strings:
                single[flag] = action.dest
    seen: dict = {}
    for token in argv[argv.index(command) + 1:]:
        if token == "--":
            break
        flag = token.split("=", 1)[0] if token.startswith("--") else token
        dest = single.get(flag)
        if dest is None and token.startswith("--no-"):
            dest = single.get("--" + token[5:].split("=", 1)[0])
        if dest is None:
            continue
        if dest in seen:
            return f"{seen[dest]} / {flag}" if seen[dest] != flag else flag
        seen[dest] = flag
    return None


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings as one line: ``rankfusion: warning: …``."""
    print(f"rankfusion: warning: {message}", file=sys.stderr if file is None else file)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # pragma: no cover - no real stdout
        pass
