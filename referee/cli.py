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
from typing import TYPE_CHECKING

import referee

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
OPTIONAL_COMMAND_MODULES: tuple[str, ...] = ("referee.sim.commands",)
"""Written in parallel by other work; skipped while the module does not exist yet."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit code (0 ok, 1 problems found, 2 usage error)."""
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
    return code
