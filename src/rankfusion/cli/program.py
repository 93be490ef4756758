"""The ``rankfusion`` entry point: :func:`main` parses the arguments, runs the command and turns
errors, warnings and a closed pipe into the messages and exit statuses of the command line.

Errors in the user's input print one line (``rankfusion: error: …``) and exit with status 2;
warnings print one line (``rankfusion: warning: …``); output to a closed pipe
(``rankfusion rank … | head -1``) ends quietly with status 0.

Usage errors (an unknown option, a value argparse refuses) print the sub-command's usage line
and ``rankfusion COMMAND: error: …``. Old spellings of options (``--ignore`` for ``--drop``, …)
still work for one release with ``note: --ignore is deprecated; use --drop`` on stderr; an old
and a new spelling of one option given together are refused.

An option value that starts with ``-`` and reads as a number or a list of numbers
(``--weights -1,1,1``, ``--C -1e-3``, ``--step -.5``) is taken as the value, as
``--weights=-1,1,1`` is; argparse alone takes only plain negative numbers (``-1``, ``-0.5``)
and calls the rest a missing argument. Any other value starting with ``-`` must be given after
``=``, which the error message says.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
import warnings

from ._common import DeprecatedAlias

__all__ = ["COMMANDS", "build_parser", "main"]

COMMANDS = ("demo", "aggregate", "rank", "svm-rfe", "select", "advise", "datasets", "experiment",
            "report", "reproduce")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser; with ``only`` set to a command name, just that command's parser
    is built (its module alone is imported, so the command starts quickly)."""
    from .._utils.version import __version__

    parser = _Parser(
        prog="rankfusion",
        description="Feature selection by combining rankings.",
    )
    parser.add_argument("--version", action="version", version=f"rankfusion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        if only is not None and name != only:
            continue
        mod = importlib.import_module(f".{name.replace('-', '_')}", __package__)
        mod.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    chosen = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(chosen if chosen in COMMANDS else None)
    argv = _attach_dash_values(parser, chosen, list(argv))
    args, extras = parser.parse_known_args(argv)
    if extras:  # the sub-command's usage, not the top-level one
        (_subparser(parser, args.command) or parser).error(
            f"unrecognized arguments: {' '.join(extras)}")
    repeated = _repeated_option(parser, chosen, argv)
    if repeated:
        print(f"rankfusion: error: {repeated}", file=sys.stderr)
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
        from ..workflows.text import command_line_text

        msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        print(f"rankfusion: error: {command_line_text(msg)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # pragma: no cover
        print("rankfusion: interrupted", file=sys.stderr)
        return 130


class _Parser(argparse.ArgumentParser):
    """argparse's parser (sub-commands use the same class), whose "expected one argument"
    error says how to give a value starting with '-'."""

    def error(self, message):
        if "expected one argument" in message:
            flag = message.split(":", 1)[0].replace("argument ", "").split("/")[-1].strip()
            message += (f" (a value starting with '-' goes after '=': {flag}=-VALUE)"
                        if flag.startswith("--") else
                        " (a value starting with '-' goes after '=' of the long option)")
        super().error(message)


#: A value starting with '-' read as a number or a list of numbers: ``-1``, ``-1,1,1``,
#: ``-.5``, ``-1e-3``, ``-inf``, ``-1;2`` (the command checks the rest of the text).
_DASH_NUMBER = re.compile(r"-(\d|\.\d|inf|nan)", re.IGNORECASE)


def _subparser(parser, command):
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    if sub is None or command not in sub.choices:
        return None
    return sub.choices[command]


def _attach_dash_values(parser, command, argv) -> list[str]:
    """``argv`` with each single-value option of ``command`` that is followed by a value
    starting with '-' that reads as a number (``--weights -1,1,1``, ``-t -1``) joined to it
    (``--weights=-1,1,1``), as argparse would otherwise take the value for an option."""
    sub = _subparser(parser, command)
    if sub is None:
        return argv
    takes_one = {}
    for action in sub._actions:
        if isinstance(action, (argparse._StoreAction, argparse._AppendAction,
                               DeprecatedAlias)) and \
                action.nargs is None and action.option_strings:
            longs = [f for f in action.option_strings if f.startswith("--")]
            for flag in action.option_strings:
                takes_one[flag] = longs[0] if longs else None
    known = set(sub._option_string_actions)
    out, i, start = [], 0, argv.index(command) + 1
    out.extend(argv[:start])
    i = start
    while i < len(argv):
        token = argv[i]
        if token == "--":
            out.extend(argv[i:])
            break
        flag = token
        if token.startswith("--") and token not in takes_one and "=" not in token:
            # an abbreviation argparse accepts (allow_abbrev): the one option it begins
            found = [f for f in takes_one if f.startswith(token) and f.startswith("--")]
            others = [f for f in known if f.startswith(token)]
            flag = found[0] if len(found) == 1 and len(others) == 1 else token
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if flag in takes_one and nxt is not None and nxt not in known \
                and _DASH_NUMBER.match(nxt):
            long = takes_one[flag]
            out.append(f"{long}={nxt}" if long else f"{token}{nxt}")
            i += 2
            continue
        out.append(token)
        i += 1
    return out


def _repeated_option(parser, command, argv) -> str | None:
    """The message for the first single-value option that ``argv`` gives twice (argparse
    would keep the last value silently: ``--drop a --drop b`` dropping only ``b``), also under
    an old and a new spelling (``--ignore a --drop b``), or None. Options that collect
    (``--param``) may repeat."""
    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
    if sub is None or command not in sub.choices:
        return None
    single, new_of = {}, {}
    for action in sub.choices[command]._actions:
        if isinstance(action, (argparse._StoreAction, argparse.BooleanOptionalAction,
                               DeprecatedAlias)):
            for flag in action.option_strings:
                single[flag] = action.dest
                if isinstance(action, DeprecatedAlias):
                    new_of[flag] = action.new
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
            first = seen[dest]
            twice = f"{first} / {flag}" if first != flag else flag
            if (first in new_of) != (flag in new_of):  # an old and the new spelling
                new = new_of[first if first in new_of else flag]
                old = first if first in new_of else flag
                return (f"{twice} given twice: it takes one value ({old} is the deprecated "
                        f"spelling of {new}; give {new} once)")
            return (f"{twice} given twice: it takes one value (several names go in one, "
                    "separated by commas)")
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
