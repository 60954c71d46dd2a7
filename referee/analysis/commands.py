"""``bhabhi analyze``: play many hands of a ruleset and say what the variant is like.

Exit codes: 0 done; 2 for any bad input (an unknown ruleset or a file that does not load,
a player count or range the ruleset does not allow, ``--hands`` or ``--jobs`` below 1, an
unknown bot or a ``--bots`` list of the wrong length, an ``--against`` ruleset that does
not load or allows none of the player counts, a ``--json`` or ``--html`` file
that cannot be written), said on one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from referee.analysis.report import DEFAULT_SEED, analyze, format_text
from referee.ruleset.model import Ruleset
from referee.sim.commands import load_rules
from referee.sim.runner import BOT_NAMES, allowed_counts, players_message

if TYPE_CHECKING:
    from referee.cli import Subparsers

DEFAULT_HANDS = 1000
"""As ``bhabhi simulate``'s default: enough for seat rates to settle to a few percent."""
BAD_INPUT = 2


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "analyze",
        help="play many hands and report how a variant ends, how long, how fair, how decided",
        description="Play K hands of a ruleset at each player count with bots (hand i dealt "
        "from the seed S:i, as bhabhi simulate deals it) and report how hands end and how "
        "long they run, each seat's Bhabhi rate with 95% intervals and a test of equal "
        "chances, from when the Bhabhi can be told, the events per hand, and warnings in "
        "plain words naming the clauses likely responsible (docs/analysis.md).",
    )
    parser.add_argument("ruleset", metavar="RULESET-OR-FILE", help="ruleset id or file")
    parser.add_argument(
        "--players",
        metavar="N|N-M",
        help="a player count or a range (default: every count the ruleset allows)",
    )
    parser.add_argument(
        "--hands",
        type=int,
        default=DEFAULT_HANDS,
        metavar="K",
        help=f"hands per player count (default {DEFAULT_HANDS})",
    )
    parser.add_argument(
        "--bots",
        default="random",
        metavar="B|B0,B1,...",
        help=f"one bot for every seat, or one per seat from seat 0, from: {', '.join(BOT_NAMES)}"
        " (default random: the fast playout)",
    )
    parser.add_argument(
        "--seed",
        default=DEFAULT_SEED,
        metavar="S",
        help=f"the run's seed, any text (default {DEFAULT_SEED}: the same hands every run)",
    )
    parser.add_argument(
        "--json",
        metavar="FILE",
        help="write every figure as JSON to FILE ('-': standard output, instead of the summary)",
    )
    parser.add_argument(
        "--against",
        metavar="OTHER",
        help="play the same deals with a second ruleset (id or file), at each player count "
        "both allow, and report the differences and whether they are significant",
    )
    parser.add_argument(
        "--html",
        metavar="FILE",
        help="write the analysis as one self-contained HTML page with plots to FILE",
    )
    parser.add_argument(
        "--no-skill",
        action="store_true",
        help="do not measure the heuristic bot and the degenerate lines against random players",
    )
    parser.add_argument(
        "--no-confirm",
        action="store_true",
        help="name a warning's suspect clauses without re-playing with their options switched",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="J", help="processes to use (same result)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The command's handler; returns the exit code."""
    try:
        rules = load_rules(args.ruleset)
        counts = player_counts(args.players, rules)
        against = None if args.against is None else load_rules(args.against)
    except ValueError as exc:
        return _fail(str(exc))
    bots = [name.strip() for name in args.bots.split(",")]
    bar = _Bar() if _wants_bar() and args.json != "-" else None
    try:
        document, timing = analyze(
            rules,
            counts,
            args.hands,
            args.seed,
            bots,
            jobs=args.jobs,
            progress=bar,
            against=against,
            skill=not args.no_skill,
            confirm=not args.no_confirm,
        )
    except ValueError as exc:
        return _fail(str(exc))
    finally:
        if bar is not None:
            bar.close()
    if args.html is not None:
        from referee.analysis.html import render  # loads matplotlib: only for --html

        failed = _write(args.html, render(document))
        if failed:
            return _fail(failed)
    if args.json is not None:
        text = json.dumps(document, sort_keys=True, ensure_ascii=False, indent=2) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
            return 0
        failed = _write(args.json, text)
        if failed:
            return _fail(failed)
    print(format_text(document, timing))
    return 0


def _write(path: str, text: str) -> str | None:
    """Write ``text`` to ``path``; the one-line error when it cannot be written."""
    try:
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as exc:
        return f"cannot write {path!r}: {exc.strerror or exc}"
    return None


def player_counts(text: str | None, rules: Ruleset) -> list[int]:
    """``--players``: ``N`` or ``N-M`` (every count from N to M; one in the range that the
    ruleset does not allow is refused, so that a typo does not pass silently).  None: every
    count the ruleset allows."""
    allowed = allowed_counts(rules)
    if text is None:
        return allowed
    low_text, dash, high_text = text.partition("-")
    try:
        low = int(low_text)
        high = int(high_text) if dash else low
    except ValueError:
        raise ValueError(f"--players takes N or N-M (for example 4 or 3-6), not {text!r}") from None
    if low > high:
        raise ValueError(f"--players {text}: the range runs from the smaller count, {high}-{low}")
    refused = [n for n in range(low, high + 1) if n not in allowed]
    if refused:
        raise ValueError(players_message(rules, refused[0]))
    return list(range(low, high + 1))


def _fail(message: str) -> int:
    print(f"bhabhi analyze: error: {message}", file=sys.stderr)
    return BAD_INPUT


def _wants_bar() -> bool:
    """A bar belongs on a person's terminal, not in a pipe, a file or a CI log."""
    return sys.stderr.isatty() and not os.environ.get("CI")


class _Bar:
    """``ProgressFn`` drawn by tqdm on standard error."""

    def __init__(self) -> None:
        self._bar: tqdm[Any] | None = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            self._bar = tqdm(total=total, unit="hand", desc="analyze", leave=False)
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
