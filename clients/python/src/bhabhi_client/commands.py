"""``bhabhi bot``, ``bhabhi play`` and ``bhabhi demo-hand``: the client's commands.

``register(subparsers)`` follows the convention of ``referee.cli`` (each command sets a
``func`` that takes the parsed arguments and returns the exit code), so the same commands
appear under ``bhabhi`` when the referee is installed and under the client's own
``bhabhi-client`` script when it is not.  Exit codes: 0 done, 1 the referee refused or
could not be reached (one line on stderr, never a traceback), 2 usage error.

Without ``--target``, ``play`` and ``demo-hand`` start a referee in this process, which
needs the server package; that is the only place the client touches it, imported lazily.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from tqdm import tqdm

from bhabhi_client import __version__, arena_html
from bhabhi_client.arena import (
    MAX_HANDS,
    ArenaUsageError,
    Entrant,
    Journal,
    Sitting,
    entrants_of,
    league_hands,
    play_league,
    schedule,
)
from bhabhi_client.arena_report import document, rating_history, standings, terminal_table
from bhabhi_client.bots import STRATEGIES, BotResult, run_bot
from bhabhi_client.client import (
    LONGEST_BOT_KEY,
    SHORTEST_BOT_KEY,
    Client,
    SeatHandle,
    StreamItem,
    valid_bot_key,
)
from bhabhi_client.errors import RefereeError
from bhabhi_client.game import BOT_NAMES, GameOptions, play_game
from bhabhi_client.handed import SeatPlayed, play_handed_seats
from bhabhi_client.house import RulesetFileError, host_ruleset_file, names_a_file
from bhabhi_client.transcript import Narrator, Style, printable

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

LANGUAGES = ("en", "de", "pl")
RULES_HELP = (
    "a ruleset id, or a ruleset file (a house variant extending a ruleset the referee "
    "hosts, or a file beside it), which the referee is given first (default bhabho)"
)


class NoRefereeError(Exception):
    """No ``--target`` and no referee package to start one in this process."""


def register(subparsers: Subparsers) -> None:
    bot = subparsers.add_parser(
        "bot",
        help="play a seat of a referee's table with a bot",
        description="Join a table (or take back a seat with --token) and play it with a bot "
        "until the session is over; deals once every seat is taken.",
    )
    bot.add_argument("--target", required=True, metavar="HOST:PORT", help="the referee")
    seats = bot.add_mutually_exclusive_group(required=True)
    seats.add_argument("--table", metavar="ID", help="the table's id")
    seats.add_argument(
        "--await-key",
        type=_bot_key,
        metavar="KEY",
        help="wait under this secret key (16-128 characters) for seats handed to the bot "
        "(bhabhi arena's NAME=bot:KEY), and play each, until stopped",
    )
    bot.add_argument("--strategy", choices=STRATEGIES, default="heuristic")
    bot.add_argument("--think", type=_seconds, default=None, metavar="SECONDS", help=THINK_HELP)
    bot.add_argument(
        "--playouts", type=_at_least_one, default=None, metavar="N", help=PLAYOUTS_HELP
    )
    bot.add_argument("--name", default=None, metavar="N", help="name shown to the others")
    bot.add_argument("--seat", type=int, default=None, metavar="S", help="a particular seat")
    bot.add_argument("--token", default=None, help="the credential of a seat taken earlier")
    bot.add_argument("--seed", default=None, help="seed of the bot's choices (any text)")
    bot.add_argument(
        "--max-seats",
        type=_at_least_one,
        default=None,
        metavar="N",
        help="with --await-key: stop waiting after N seats, once they are played",
    )
    bot.add_argument("--verbose", action="store_true", help="print every event")
    bot.set_defaults(func=_bot)

    play = subparsers.add_parser(
        "play",
        help="play Bhabhi in the terminal against bots",
        description="A game for one person against bots. Without --target a referee is "
        "started in this process, and the game ends when you quit. Type a card (7h, 10S), "
        "p (pick up), t (take a hand), rules (the rulebook; rules short: the key options), "
        "? or q. Before each trick in which you may take your neighbour's hand the game asks "
        "(t to take, Enter to let the leader lead) and the bots wait for your answer, or on "
        "a clocked table for the leader's time to run out. Your seat is marked with ▶; "
        "the Bhabhi counts so far follow each hand.",
    )
    play.add_argument("--target", default=None, metavar="HOST:PORT", help="a running referee")
    play.add_argument("--rules", default="bhabho", metavar="ID|FILE", help=RULES_HELP)
    play.add_argument("--players", type=int, default=4, metavar="N", help="seats (default 4)")
    play.add_argument("--hands", type=int, default=0, metavar="K", help="hands (0: the ruleset's)")
    play.add_argument("--table", default=None, metavar="ID", help="join this table instead")
    play.add_argument("--name", default="You", metavar="N", help="your name at the table")
    play.add_argument("--seat", type=int, default=None, metavar="S", help="your seat")
    play.add_argument(
        "--token",
        default=None,
        help="take your seat at --table back (quitting a game on --target prints it)",
    )
    play.add_argument(
        "--bot-token",
        action="append",
        default=[],
        metavar="TOKEN",
        help="with --token: a seat the bots played before, played by a bot again (repeatable)",
    )
    play.add_argument(
        "--language",
        choices=LANGUAGES,
        default="en",
        help="the language of refusals and of the rulebook (`rules`)",
    )
    play.add_argument(
        "--bots",
        choices=STRATEGIES,
        default="heuristic",
        help="the bots' play: random, heuristic, or strong (it searches; needs the referee)",
    )
    play.add_argument("--think", type=_seconds, default=None, metavar="SECONDS", help=THINK_HELP)
    play.add_argument(
        "--bot-delay",
        type=float,
        default=None,
        metavar="SECONDS",
        help="pause before each bot move, so you can follow (default 0.5; 0 with --auto)",
    )
    play.add_argument(
        "--turn-time",
        type=_seconds,
        default=0.0,
        metavar="SECONDS",
        help="a turn clock on the table created: seconds for each move, after which the "
        "referee plays for the seat (default: no clock)",
    )
    play.add_argument(
        "--auto",
        action="store_true",
        help="answer every turn with the first legal card (for tests and demos)",
    )
    play.set_defaults(func=_play)

    demo = subparsers.add_parser(
        "demo-hand",
        help="seat bots at a new table, play one hand, print its transcript",
        description="Create a one-hand table, seat a bot on every seat, and print what a "
        "spectator sees until the hand is over. Without --target a referee is started in "
        "this process.",
    )
    demo.add_argument("--target", default=None, metavar="HOST:PORT", help="a running referee")
    demo.add_argument("--rules", default="bhabho", metavar="ID|FILE", help=RULES_HELP)
    demo.add_argument("--players", type=int, default=4, metavar="N", help="seats (default 4)")
    demo.add_argument("--strategy", choices=STRATEGIES, default="heuristic")
    demo.add_argument(
        "--strategies",
        default=None,
        metavar="S0,S1,...",
        help="one strategy per seat (sets the number of players), e.g. heuristic,random,random",
    )
    demo.add_argument("--hands", type=int, default=1, metavar="K", help="hands (default 1)")
    demo.add_argument("--quiet", action="store_true", help="only the bots' summaries")
    demo.add_argument("--seed", default=None, help="seed of the bots' choices (any text)")
    demo.set_defaults(func=_demo)

    arena = subparsers.add_parser(
        "arena",
        help="a rated league between bots on duplicate deals, through a referee",
        description="Play --deals deals by every group of --players entrants, each group in "
        "every rotation over the seats (one one-hand table each, dealt from the seed "
        "SEED:DEAL, so every entrant holds every seat's cards of every deal it plays and "
        "every pair meets equally often), rate the entrants (openskill), and print their "
        "Bhabhi rates with 95% intervals. Without --target a referee is started in this "
        "process. See docs/bots.md.",
    )
    arena.add_argument("--target", default=None, metavar="HOST:PORT", help="a running referee")
    arena.add_argument("--rules", default="bhabho", metavar="ID|FILE", help=RULES_HELP)
    arena.add_argument(
        "--entrants",
        required=True,
        metavar="S1,S2,...",
        help="at least one entrant per seat: a built-in strategy (repeats allowed: "
        "heuristic,random,random) or a program, cmd:PROGRAM ARGS or NAME=cmd:PROGRAM ARGS, "
        "whose words may hold {target}, {table}, {token} and {seat} (no commas), or a bot "
        "already connected, bot:KEY or NAME=bot:KEY, waiting under KEY (bhabhi bot "
        "--await-key KEY)",
    )
    arena.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="seats at each table (default: one per entrant); with fewer seats than "
        "entrants, every group of N entrants plays every deal",
    )
    arena.add_argument("--deals", type=int, default=10, metavar="D", help="deals (default 10)")
    arena.add_argument(
        "--seed", default=None, help="the league's seed, any text (default: a random one, printed)"
    )
    arena.add_argument(
        "--parallel", type=int, default=2, metavar="K", help="tables played at once (default 2)"
    )
    arena.add_argument(
        "--turn-time",
        type=_seconds,
        default=5.0,
        metavar="SECONDS",
        help="each table's turn clock: a seat whose bot fails or hangs is played by the "
        "referee's default action after it, and the failure counted (default 5)",
    )
    arena.add_argument("--think", type=_seconds, default=None, metavar="SECONDS", help=THINK_HELP)
    arena.add_argument(
        "--playouts", type=_at_least_one, default=None, metavar="N", help=PLAYOUTS_HELP
    )
    arena.add_argument(
        "--journal",
        default=None,
        metavar="FILE",
        help="with --target: record the hands played in FILE; run again with it to continue "
        "an interrupted league (its seed is the journal's)",
    )
    arena.add_argument("--json", default=None, metavar="FILE", help="write the results here")
    arena.add_argument(
        "--html",
        default=None,
        metavar="FILE",
        help="write a self-contained page: the tables, rating over the hands, Bhabhi rates",
    )
    arena.set_defaults(func=_arena)


THINK_HELP = "the strong bot's time a move (default 1; never more than the table's clock leaves)"
PLAYOUTS_HELP = (
    "the strong bot's worlds a decision at most, each played out once per candidate move "
    "(default: as many as --think allows; alone, no time bound but the table's clock), so "
    "that its play depends on its seed only"
)


def _at_least_one(text: str) -> int:
    """A whole number of at least 1 (worlds, seats), for argparse."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: at least 1")
    return value


def _seconds(text: str) -> float:
    """A non-negative number of seconds, for argparse."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 86_400:  # what the referee accepts
        raise argparse.ArgumentTypeError(f"{text} is not 0 to 86400 seconds")
    return value


def _bot_key(text: str) -> str:
    if not valid_bot_key(text):
        raise argparse.ArgumentTypeError(
            f"a bot key is {SHORTEST_BOT_KEY} to {LONGEST_BOT_KEY} printable ASCII characters "
            "without spaces"
        )
    return text


def main(argv: Sequence[str] | None = None) -> int:
    """``bhabhi-client``: the same commands, for an install without the referee."""
    parser = argparse.ArgumentParser(
        prog="bhabhi-client", description="Play on a Bhabhi referee: bots and a terminal game."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    register(subparsers)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        if exc.code is None:
            return 0
        return exc.code if isinstance(exc.code, int) else 2
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    return code


# --- handlers -------------------------------------------------------------------------------


def _run(coroutine: Any) -> int:
    """Run a command's coroutine; a refusal or an unreachable referee is one line."""
    try:
        result: int = asyncio.run(coroutine)
    except RefereeError as error:
        print(f"bhabhi: {printable(str(error))}", file=sys.stderr)
        return 1
    except NoRefereeError as error:
        print(f"bhabhi: {error}", file=sys.stderr)
        return 1
    except RulesetFileError as error:
        for line in error.lines:
            print(line, file=sys.stderr)
        print(f"bhabhi: {error}", file=sys.stderr)
        return 1
    return result


def _bot(args: argparse.Namespace) -> int:
    return _run(_bot_main(args))


async def _bot_main(args: argparse.Namespace) -> int:
    if args.await_key is not None:
        return await _handed_bot_main(args)
    if args.max_seats is not None:
        print("bhabhi bot: --max-seats goes with --await-key", file=sys.stderr)
        return 2
    name = args.name or f"{args.strategy}-bot"
    style = Style.for_stream(sys.stdout)
    narrator = Narrator(style=style)

    def on_event(item: StreamItem) -> None:
        lines = narrator.describe(item)
        if args.verbose:
            for line in lines:
                print(line, flush=True)

    async with Client(args.target) as client:
        narrator.learn(await client.get_table(args.table))

        def joined(handle: SeatHandle) -> None:
            narrator.me = handle.seat
            print(f"{name}: seat {handle.seat} of table {args.table}", flush=True)
            if not args.token:
                print(f"token: {printable(handle.token)}", flush=True)

        result = await run_bot(
            client,
            args.table,
            name,
            args.strategy,
            args.seat,
            token=args.token,
            seed=args.seed,
            on_event=on_event,
            on_join=joined,
            think=args.think,
            playouts=args.playouts,
        )
    print(_summary(result), flush=True)
    return 0


async def _handed_bot_main(args: argparse.Namespace) -> int:
    """``bhabhi bot --await-key``: a line when the bot waits, one per seat handed, one per
    seat played."""

    def waiting() -> None:
        print(f"waiting for seats at {args.target}", flush=True)

    def seat(handle: SeatHandle) -> None:
        print(f"{handle.name}: seat {handle.seat} of table {handle.table_id}", flush=True)

    def played(seat: SeatPlayed) -> None:
        if seat.result is not None:
            print(f"table {seat.handle.table_id}: {_summary(seat.result)}", flush=True)
        else:
            print(f"table {seat.handle.table_id}: {printable(str(seat.error))}", flush=True)

    async with Client(args.target) as client:
        await play_handed_seats(
            client,
            args.await_key,
            args.strategy,
            seed=args.seed,
            think=args.think,
            playouts=args.playouts,
            max_seats=args.max_seats,
            on_waiting=waiting,
            on_seat=seat,
            on_played=played,
        )
    return 0


def _summary(result: BotResult) -> str:
    text = (
        f"{result.name} (seat {result.seat}): {result.hands} hand(s), {result.actions} "
        f"action(s), Bhabhi {result.bhabhi} time(s)"
    )
    if result.session is not None and result.seat in result.session.losers:
        text += "; the session's loser"
    return text


@contextlib.asynccontextmanager
async def _referee(target: str | None, *, many_tables: bool = False) -> AsyncIterator[str]:
    """The given referee, or one started in this process for as long as the command runs;
    ``many_tables``: one that lets its one client create tables as fast as it likes (an
    arena creates one a hand, and the referee serves nobody else)."""
    if target:
        yield target
        return
    try:
        from referee.server.app import create_server
        from referee.server.limits import Limits
        from referee.server.store.memory import MemoryStore
    except ImportError as error:
        raise NoRefereeError(
            "no --target given and the referee is not installed here: start one with "
            "`bhabhi serve` and pass --target HOST:PORT"
        ) from error
    # It serves this program alone, so it may take the house variant of --rules FILE.
    limits = Limits(tables_per_minute=0) if many_tables else None
    server, port = await create_server(
        "127.0.0.1:0", store=MemoryStore(), allow_register=True, limits=limits
    )
    try:
        yield f"127.0.0.1:{port}"
    finally:
        await server.stop(0)


def _play(args: argparse.Namespace) -> int:
    problem = _play_usage(args)
    if problem:
        print(f"bhabhi: {problem}", file=sys.stderr)
        return 2
    return _run(_play_main(args))


def _play_usage(args: argparse.Namespace) -> str:
    """What is wrong with ``play``'s options together; empty when nothing is."""
    if args.turn_time and args.table:
        return "--turn-time sets the clock of a table play creates, not of one it joins (--table)"
    if args.token and not (args.table and args.target):
        return "--token takes a seat back at a running referee: give --target and --table too"
    if args.token and args.seat is not None:
        return "--token already says which seat is yours: leave --seat out"
    if args.bot_token and not args.token:
        return "--bot-token goes with --token (your own seat)"
    return ""


async def _play_main(args: argparse.Namespace) -> int:
    delay = args.bot_delay if args.bot_delay is not None else (0.0 if args.auto else 0.5)
    options = GameOptions(language=args.language, auto=args.auto)
    async with _referee(args.target) as target, Client(target, language=args.language) as client:
        rules_id = args.rules if args.table else await _ruleset_id(client, args.rules, args.target)
        return await play_game(
            client,
            rules_id=rules_id,
            players=args.players,
            table_id=args.table,
            name=args.name,
            seat=args.seat,
            hands=args.hands,
            bots=args.bots,
            think=args.think,
            bot_delay=delay,
            options=options,
            turn_time=args.turn_time,
            remote=args.target,
            token=args.token,
            bot_tokens=args.bot_token,
        )


async def _ruleset_id(client: Client, rules: str, target: str | None) -> str:
    """The id of the ruleset ``--rules`` names, a file's ruleset given to the referee first
    (on a referee elsewhere, saying so: it keeps what it is given)."""
    if not names_a_file(rules):
        return rules
    hosted = await host_ruleset_file(client, Path(rules))
    if target and hosted.registered:
        given = ", ".join(hosted.registered)
        print(f"Registered ruleset {printable(given)} at the referee {printable(target)}.")
    return hosted.ruleset_id


def _demo(args: argparse.Namespace) -> int:
    return _run(_demo_main(args))


async def _demo_main(args: argparse.Namespace) -> int:
    strategies = (
        [word.strip() for word in args.strategies.split(",")]
        if args.strategies
        else [args.strategy] * args.players
    )
    unknown = sorted(set(strategies) - set(STRATEGIES))
    if unknown:
        print(
            f"bhabhi: unknown strategy {unknown[0]!r}: choose from {', '.join(STRATEGIES)}",
            file=sys.stderr,
        )
        return 2
    style = Style.for_stream(sys.stdout)
    async with _referee(args.target) as target, Client(target, timeout=30) as client:
        rules_id = await _ruleset_id(client, args.rules, args.target)
        table = await client.create_table(rules_id, len(strategies), hands=args.hands)
        title = printable(table.ruleset.title.get("en", table.ruleset.id))
        heading = f"{title}: table {printable(table.table_id)}, {len(strategies)} bots"
        print(style.paint(heading, "bold"))
        watcher = None
        if not args.quiet:
            narrator = Narrator(style=style)
            watcher = asyncio.create_task(_transcript(client, table.table_id, narrator))
        results = await asyncio.gather(
            *(
                run_bot(
                    client,
                    table.table_id,
                    f"{BOT_NAMES[i % len(BOT_NAMES)]} ({strategy})",
                    strategy,
                    seat=i,
                    seed=None if args.seed is None else f"{args.seed}:{i}",
                )
                for i, strategy in enumerate(strategies)
            )
        )
        if watcher is not None:
            await asyncio.wait_for(watcher, timeout=client.timeout)
    for result in sorted(results, key=lambda r: r.seat):
        print(_summary(result))
    return 0


async def _transcript(client: Client, table_id: str, narrator: Narrator) -> None:
    async for item in client.watch(table_id):  # it ends with the session
        for line in narrator.describe(item):
            print(line, flush=True)


# --- arena ---------------------------------------------------------------------------------


def _arena(args: argparse.Namespace) -> int:
    try:
        entrants = _arena_usage(args)
    except ArenaUsageError as error:
        print(f"bhabhi: {error}", file=sys.stderr)
        return 2
    return _run(_arena_main(args, entrants))


def _arena_usage(args: argparse.Namespace) -> list[Entrant]:
    """The entrants, once the options make sense together (ArenaUsageError if not)."""
    entrants = entrants_of(args.entrants.split(","))
    players = _arena_players(args, entrants)
    if players < 1:
        raise ArenaUsageError(f"--players must be at least 1, not {players}")
    if players > len(entrants):
        raise ArenaUsageError(
            f"{len(entrants)} entrants for {players} players: every seat needs an entrant, "
            f"so give at least {players}"
        )
    if args.deals < 1:
        raise ArenaUsageError(f"--deals must be at least 1, not {args.deals}")
    hands = league_hands(len(entrants), players, args.deals)
    if hands > MAX_HANDS:
        raise ArenaUsageError(
            f"{len(entrants)} entrants on {players} seats for {args.deals} deal(s) would be "
            f"{hands} hands, more than the arena plays in one league ({MAX_HANDS}): "
            "give fewer entrants or deals"
        )
    if args.parallel < 1:
        raise ArenaUsageError(f"--parallel must be at least 1, not {args.parallel}")
    if args.turn_time == 0:
        raise ArenaUsageError(
            "--turn-time must be more than 0: the clock plays on for a bot that fails"
        )
    if args.seed is not None and not args.seed:
        raise ArenaUsageError("--seed must not be empty")
    if args.journal and not args.target:
        raise ArenaUsageError(
            "--journal needs --target: a league continues from the records of a referee "
            "that outlives the arena, and the arena's own referee does not"
        )
    return entrants


def _arena_players(args: argparse.Namespace, entrants: Sequence[Entrant]) -> int:
    """The seats at each table: ``--players``, or one per entrant."""
    return len(entrants) if args.players is None else args.players


async def _arena_main(args: argparse.Namespace, entrants: list[Entrant]) -> int:
    seed = args.seed if args.seed is not None else secrets.token_hex(8)
    players = _arena_players(args, entrants)
    journal = None
    async with (
        _referee(args.target, many_tables=True) as target,
        Client(target, timeout=30) as client,
    ):
        try:
            rules_id = await _arena_rules(client, args.rules, args.target, players)
            if args.journal:
                league = {
                    "rules": rules_id,
                    "players": players,
                    "entrants": [e.strategy for e in entrants],
                }
                if args.seed is not None:
                    league["seed"] = args.seed
                journal = Journal.open(Path(args.journal), league, seed_if_new=seed)
                seed = journal.league["seed"]
        except ArenaUsageError as error:
            print(f"bhabhi: {error}", file=sys.stderr)
            return 2
        sittings = schedule(entrants, args.deals, seed, players)
        # The seed is published first: with it the league's every deal can be dealt again.
        heading = _arena_heading(rules_id, len(entrants), players, args.deals, sittings, seed)
        print(heading, flush=True)
        bar = tqdm(
            total=len(sittings),
            unit="hand",
            desc="arena",
            file=sys.stderr,
            leave=False,
            disable=not sys.stderr.isatty(),
        )
        with bar:
            hands = await play_league(
                client,
                rules_id,
                entrants,
                sittings,
                seed=seed,
                parallel=args.parallel,
                turn_time=args.turn_time,
                on_hand=lambda _: _advance(bar),
                journal=journal,
                think=args.think,
                playouts=args.playouts,
            )
    for line in terminal_table(standings(entrants, hands)):
        print(line)
    result = document(
        rules=rules_id,
        players=players,
        deals=args.deals,
        seed=seed,
        entrants=entrants,
        sittings=sittings,
        hands=hands,
    )
    written = []
    if args.json:
        written.append((args.json, json.dumps(result, indent=2) + "\n"))
    if args.html:
        written.append((args.html, arena_html.page(result, rating_history(entrants, hands))))
    for name, text in written:
        try:
            Path(name).write_text(text, encoding="utf-8")
        except OSError as error:
            print(f"bhabhi: cannot write {name}: {error.strerror}", file=sys.stderr)
            return 1
    return 0


def _arena_heading(
    rules_id: str, entrants: int, players: int, deals: int, sittings: Sequence[Sitting], seed: str
) -> str:
    """The league's first line, what will be played: a league of as many entrants as
    players has one group, which the line does not name."""
    if entrants == players:
        who, what = "", f"{deals} deal(s) in {players} rotations"
    else:
        groups = len({s.group for s in sittings})
        who = f", {entrants} entrants"
        what = f"{deals} deal(s), {groups} groups of {players} in {players} rotations"
    return (
        f"{printable(rules_id)}, {players} players{who}: {what}, {len(sittings)} hands, "
        f"seed {printable(seed)}"
    )


def _advance(bar: tqdm[Any]) -> None:
    bar.update()


async def _arena_rules(client: Client, rules: str, target: str | None, players: int) -> str:
    """The id of the league's ruleset, once the referee is known to answer, to host it, and
    to allow ``players`` (ArenaUsageError if not: the league would not start)."""
    try:
        hosted = {r.id: r for r in await client.list_rulesets()}
    except RefereeError as error:
        if error.code is not grpc.StatusCode.UNAVAILABLE:
            raise
        raise ArenaUsageError(f"cannot reach the referee at {printable(target or '')}") from None
    rules_id = await _ruleset_id(client, rules, target)
    summary = hosted.get(rules_id) or await _summary_of(client, rules_id)
    if summary is None:
        known = ", ".join(sorted(hosted))
        raise ArenaUsageError(f"unknown ruleset {printable(rules_id)!r}: the referee hosts {known}")
    if summary.teams:
        raise ArenaUsageError(
            f"{printable(rules_id)} is played in teams, which the arena does not rate yet"
        )
    if not summary.min_players <= players <= summary.max_players:
        raise ArenaUsageError(
            f"{printable(rules_id)} is played by {summary.min_players} to "
            f"{summary.max_players} players, not {players}"
        )
    return rules_id


async def _summary_of(client: Client, rules_id: str) -> pb.RulesetSummary | None:
    """A ruleset registered just now (a --rules FILE), or None if the referee has none."""
    try:
        return (await client.get_ruleset(rules_id)).ruleset
    except RefereeError as error:
        if error.reason == "ruleset_not_found":
            return None
        raise
