"""``bhabhi simulate``: play many hands of a ruleset with bots and summarise them.

Exit codes: 0 done, 1 bad input (unknown ruleset, player count the ruleset does not allow,
``--games`` or ``--jobs`` below 1, a bad ``--bots`` list), 2 usage error (argparse).  Bad
input is one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, TextIO

from referee.ruleset.loader import RulesetError, load_ruleset
from referee.ruleset.model import Ruleset
from referee.ruleset.problems import Code
from referee.sim.runner import BOT_NAMES
from referee.sim.simulate import format_text, simulate, summary, timing

if TYPE_CHECKING:
    from referee.cli import Subparsers

DEFAULT_GAMES = 1000
"""Enough hands for the Bhabhi rates to settle to a few percent, and quick: 0.15 s for
pickup with 3 random bots, 4 s for bhabho with 4 heuristic ones, on one core."""
DEFAULT_SEED = "1"


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play many hands with bots and summarise how they end",
        description="Play K hands of a ruleset with bots (hand i dealt from the seed S:i, the "
        "deal moving as in a session) and report how hands end, how long they run, and each "
        "seat's Bhabhi rate, with warnings when hands mostly fail to end or the deal decides.",
    )
    parser.add_argument("--rules", required=True, metavar="ID|FILE", help="ruleset id or file")
    parser.add_argument("--players", required=True, type=int, metavar="N")
    parser.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        metavar="K",
        help=f"hands to play (default {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--seed",
        default=DEFAULT_SEED,
        metavar="S",
        help=f"the run's seed, any text (default {DEFAULT_SEED}: the same hands every run)",
    )
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--bot",
        choices=BOT_NAMES,
        help="the bot on every seat (default random: the fast playout)",
    )
    who.add_argument(
        "--bots", metavar="B0,B1,...", help=f"one bot per seat, from: {', '.join(BOT_NAMES)}"
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="processes to use (same result)"
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON object; timings under 'timing'"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The command's handler; returns the exit code."""
    try:
        rules = load_rules(args.rules)
    except ValueError as exc:
        return _fail(str(exc))
    if args.bots is not None:
        bots = [name.strip() for name in args.bots.split(",")]
        if len(bots) != args.players:
            return _fail(f"--bots names {len(bots)} bots for {args.players} players")
    else:
        bots = [args.bot or "random"] * max(args.players, 0)
    progress = _ProgressBar(sys.stderr) if sys.stderr.isatty() and not args.json else None
    try:
        sim = simulate(
            rules,
            args.players,
            args.games,
            args.seed,
            bots,
            jobs=args.jobs,
            progress=progress,
        )
    except ValueError as exc:
        return _fail(str(exc))
    finally:
        if progress is not None:
            progress.close()
    data = summary(sim)
    timed = timing(sim)
    if args.json:
        print(json.dumps({**data, "timing": timed}, sort_keys=True, ensure_ascii=False))
    else:
        print(format_text(data, timed))
    return 0


def _fail(message: str) -> int:
    print(f"bhabhi simulate: error: {message}", file=sys.stderr)
    return 1


def load_rules(reference: str) -> Ruleset:
    """The bundled ruleset ``reference`` names, or the file at it; a ``ValueError`` whose
    message is one line (the first problem) when it does not load."""
    try:
        return load_ruleset(reference)
    except RulesetError as exc:
        raise ValueError(first_problem(exc)) from None
    except OSError as exc:  # pragma: no cover - the loader reports unreadable files itself
        raise ValueError(f"cannot read {reference!r}: {exc.strerror or exc}") from None


def first_problem(exc: RulesetError) -> str:
    """The most useful problem on one line (the loader sorts them), and how many follow."""
    if not exc.problems:
        return str(exc)
    first = exc.problems[0]
    if first.code is Code.UNKNOWN_RULESET:
        text = first.message  # names the reference and the known ids already
    elif first.path or first.line > 1:
        text = str(first)  # FILE:LINE:COL: key.path: message
    else:
        text = f"{first.file}: {first.message}"
    more = len(exc.problems) - 1
    return text + (f" (and {more} more problem{'s' if more != 1 else ''})" if more else "")


class _ProgressBar:
    """A one-line bar on a terminal's stderr; never on a pipe (it would litter logs)."""

    WIDTH = 30

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        filled = self.WIDTH * done // total
        bar = "#" * filled + "." * (self.WIDTH - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} hands")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * (self.WIDTH + 40) + "\r")
            self.stream.flush()
