"""The ``bhabhi`` command line.

Commands live in the packages they belong to (``referee.ruleset.commands``,
``referee.sim.commands``…): each module exposes ``register(subparsers)``, which adds its
sub-commands and sets a ``func`` default taking the parsed arguments and returning the exit
code.  This module only assembles them, so a new command never edits a shared file beyond one
line in ``COMMAND_MODULES``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import referee
from referee.ruleset.problems import RulesetError

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

COMMAND_MODULES: tuple[str, ...] = (
    "referee.ruleset.commands",
    "referee.server.commands",
    "referee.ops.drill",
    "bhabhi_client.commands",
    "referee.conformance.commands",
    "referee.conformance.verify_deal",
)
"""Always present: a failure to import one is a bug and must show."""
OPTIONAL_COMMAND_MODULES: tuple[str, ...] = ("referee.sim.commands", "referee.analysis.commands")
"""Written in parallel by other work; skipped while the module does not exist yet."""


MISSING = "the following arguments are required: "
"""How argparse's message about missing required arguments begins."""


class _Missing(Exception):
    """argparse found required arguments missing (its message)."""


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` that names an unrecognised argument before a missing one.

    argparse checks for missing required arguments before unrecognised ones: alone, it
    would answer ``bhabhi --bogus`` only that COMMAND is required, and ``bhabhi simulate
    --bogus`` that --rules is.  Here a parser (sub-commands are made with the class of
    their parent) that finds arguments missing parses again with nothing required, only to
    see what it does not recognise, and names that first.  What a sub-command does not
    recognise it names itself, with its own usage, rather than leave it to ``bhabhi``'s:
    no command here takes arguments it does not know."""

    def parse_known_args(  # type: ignore[override]  # its overloads, as one
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> tuple[argparse.Namespace, list[str]]:
        try:
            parsed, extras = super().parse_known_args(args, namespace)
        except _Missing as missing:
            extras = self._unrecognised(args)
            if not extras:
                super().error(str(missing))
        else:
            if not extras:
                return parsed, extras
        super().error(f"unrecognized arguments: {' '.join(extras)}")

    def error(self, message: str) -> NoReturn:
        if message.startswith(MISSING):
            raise _Missing(message)
        super().error(message)

    def _unrecognised(self, args: Sequence[str] | None) -> list[str]:
        """What a parse with nothing required leaves unrecognised (every other error the
        arguments have was met before the check for missing ones)."""
        required = [action for action in self._actions if action.required]
        for action in required:
            action.required = False
        try:
            return super().parse_known_args(args, None)[1]
        finally:
            for action in required:
                action.required = True


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="bhabhi",
        description="Bhabhi as data: rulesets, engine and referee.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {referee.__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    for name in OPTIONAL_COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # Only the command module itself (or its package) being absent is expected; a
            # module it imports being missing is a real error.
            if exc.name is None or not (name == exc.name or name.startswith(exc.name + ".")):
                raise
            continue
        module.register(subparsers)
    return parser


def quiet_grpc() -> None:
    """Keep gRPC C-core's informational lines out of the commands' output.

    Without ``GRPC_VERBOSITY``, C-core leaves abseil's threshold at INFO, and lines such as
    ``I… chttp2_transport.cc:1403] …: Got goaway [2] … Cancelling all calls`` (``bhabhi
    play``'s referee in this process stopping while a bot's stream is open) or ``I…
    fork_posix.cc:71] Other threads are currently calling into gRPC, skipping fork()
    handlers`` (a process pool started while a channel is open) appear among a game's text.
    gRPC reads the variable once, when it starts: so this runs before any command module
    imports grpc.  Its errors still show; a ``GRPC_VERBOSITY`` already set wins (``info``
    or ``debug`` to see C-core's lines); the referee's own logs are Python's and do not
    depend on it."""
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit code (0 ok, 1 problems found, 2 usage error)."""
    quiet_grpc()
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits on --help, --version and usage errors
        if exc.code is None:
            return 0
        return exc.code if isinstance(exc.code, int) else 2
    try:
        code: int = args.func(args)
    except BrokenPipeError:
        # `bhabhi rules list | head`: the reader left; say nothing more and exit quietly.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):  # pragma: no cover - stdout without a descriptor
            pass
        return 1
    except KeyboardInterrupt:
        return 130
    except RulesetError as error:
        # Rulesets that cannot be listed at all (two files giving one id in the folders of
        # BHABHI_RULES_DIR): every command needs them, so each says so the same way.
        for problem in error.problems:
            print(f"bhabhi: error: {problem}", file=sys.stderr)
        return 2
    return code
