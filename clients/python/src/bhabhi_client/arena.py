"""``bhabhi arena``: a league between bots on duplicate deals, played through a referee.

Fair by construction: every deal is played by every group of N of the E entrants (all of
them when E == N), each group once in every rotation of its entrants over the seats, at
tables the referee deals from the same seed (``CreateTableRequest.deal_seed``), so that
each entrant holds every seat's cards of every deal it plays, every pair of entrants meets
equally often, and no entrant is helped by the cards or by whom it is seated with.  Every
move goes through the referee exactly as in real play (validated, recorded, exportable with
``ExportHand``); the results are read back from the referee's own record of each table (its
event log: ``HandOver``, ``TurnTimedOut``), not from what the bots believe.

This module plays the schedule; ``arena_report`` turns the hands into ratings, rates with
intervals and the JSON document.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import shlex
import shutil
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

from bhabhi.referee.v1 import referee_pb2 as pb

from bhabhi_client.bots import Strategy, make_strategy, run_bot
from bhabhi_client.client import (
    LONGEST_BOT_KEY,
    SHORTEST_BOT_KEY,
    Client,
    SeatHandle,
    event_kind,
    valid_bot_key,
)
from bhabhi_client.errors import RefereeError


class ArenaUsageError(Exception):
    """The league asked for cannot be played (an unknown entrant, fewer entrants than
    players, a league too long): one line for the user, exit code 2."""


MAX_HANDS = 10_000
"""The most hands a league may have.  The schedule grows as C(E, N) * N * D, so a few more
entrants than seats multiply it fast (12 entrants on 6 seats: 5544 hands a deal); a league
above this is refused before anything is played, rather than left running for days."""


COMMAND = "cmd:"
"""An external entrant's prefix: ``cmd:PROGRAM ARGS``, or ``NAME=cmd:PROGRAM ARGS``."""

BOT = "bot:"
"""A bot already connected: ``bot:KEY`` or ``NAME=bot:KEY``, the secret key it waits under
(``bhabhi bot --await-key KEY``); each of its seats is handed to it (``HandSeat``)."""

PLACEHOLDERS = ("{target}", "{table}", "{token}", "{seat}")
"""What an external entrant's words may hold, replaced at each table: the referee's
address, the table's id, the seat's credential and its number."""


@dataclass(frozen=True, slots=True)
class Entrant:
    name: str
    """Unique in the league: the strategy's (or program's) name, ``#2``, ``#3`` … for its
    repeats."""
    strategy: str
    """A built-in strategy's name, or an external entrant's ``cmd:PROGRAM ARGS``."""
    command: tuple[str, ...] = ()
    """An external entrant's program and arguments (placeholders not yet replaced)."""
    bot_key: str = ""
    """A connected bot's key (its ``strategy`` is ``bot``: the key is written nowhere)."""


def entrants_of(words: Sequence[str]) -> list[Entrant]:
    """The entrants of ``--entrants``, each a strategy ``make_strategy`` knows (whatever
    it knows: the arena keeps no list of its own) or an external program, named uniquely:
    ``heuristic``, ``heuristic#2``."""
    seen: Counter[str] = Counter()
    entrants = []
    for word in words:
        entrant = _entrant(word.strip())
        seen[entrant.name] += 1
        count = seen[entrant.name]
        if count > 1:
            entrant = dataclasses.replace(entrant, name=f"{entrant.name}#{count}")
        entrants.append(entrant)
    return entrants


def _entrant(word: str) -> Entrant:
    """One entrant of ``--entrants``, named by its label, program or strategy."""
    if not word:
        raise ArenaUsageError("an empty entrant in --entrants")
    label, sign, rest = word.partition("=")
    labelled = rest.startswith((COMMAND, BOT)) and COMMAND not in label and BOT not in label
    if sign and label and labelled:
        word = rest
    else:
        label = ""
    if word.startswith(BOT):
        key = word[len(BOT) :]
        if not valid_bot_key(key):
            raise ArenaUsageError(
                f"entrant {label or 'bot'!r}: a bot key is {SHORTEST_BOT_KEY} to "
                f"{LONGEST_BOT_KEY} printable ASCII characters without spaces"
            )
        return Entrant(label or "bot", "bot", bot_key=key)
    if word.startswith(COMMAND):
        try:
            command = tuple(shlex.split(word[len(COMMAND) :]))
        except ValueError as error:
            raise ArenaUsageError(f"entrant {word!r}: {error}") from None
        if not command:
            raise ArenaUsageError(f"entrant {word!r} names no program")
        if shutil.which(command[0]) is None:
            raise ArenaUsageError(f"entrant {word!r}: no program {command[0]!r} found")
        return Entrant(label or Path(command[0]).name, word, command)
    try:
        make_strategy(word)
    except ValueError as error:
        raise ArenaUsageError(f"unknown entrant: {error}") from None
    return Entrant(word, word)


@dataclass(frozen=True, slots=True)
class Sitting:
    """One table of the schedule: one deal, one group of entrants in one rotation, one
    hand."""

    deal: int
    rotation: int
    seats: tuple[str, ...]
    """The entrant at each seat."""
    deal_seed: str
    """The table's ``deal_seed``: the same for every group and rotation of a deal."""
    group: int = 0
    """Which group of N entrants sits, in ``itertools.combinations`` order of the
    entrants; always 0 when there are as many entrants as players."""

    def bot_seed(self, seed: str, seat: int) -> str:
        """The seed of the bot at ``seat``: distinct for every sitting and seat of the
        league.  Group 0's names no group: a league of as many entrants as players (one
        group) seeds its bots ``seed:deal:rotation:seat``."""
        if self.group == 0:
            return f"{seed}:{self.deal}:{self.rotation}:{seat}"
        return f"{seed}:{self.deal}:g{self.group}:{self.rotation}:{seat}"


def deal_seed(seed: str, deal: int) -> str:
    """The deal seed of deal ``deal`` of a league played with ``--seed seed``."""
    return f"{seed}:{deal}"


def league_hands(entrants: int, players: int, deals: int) -> int:
    """The hands of a league's schedule: C(E, N) groups, each in N rotations, each deal."""
    return comb(entrants, players) * players * deals


def schedule(
    entrants: Sequence[Entrant], deals: int, seed: str, players: int | None = None
) -> list[Sitting]:
    """Deal after deal, every group of ``players`` entrants (default: all of them; the
    groups in ``itertools.combinations`` order), and every rotation ``r`` of the group over
    the seats (the group's entrant ``i`` at seat ``(i + r) mod N``): the order the league
    is played and rated in.  Every group of a deal is dealt the same cards, so each entrant
    holds every seat's cards of each deal in every group it is in, and each pair of
    entrants sits together in the same number of groups, C(E-2, N-2)."""
    n = len(entrants) if players is None else players
    groups = list(combinations(entrants, n))
    sittings = []
    for d in range(deals):
        for g, group in enumerate(groups):
            for r in range(n):
                seats = [""] * n
                for i, entrant in enumerate(group):
                    seats[(i + r) % n] = entrant.name
                sittings.append(Sitting(d, r, tuple(seats), deal_seed(seed, d), g))
    return sittings


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One played hand as the referee recorded it."""

    sitting: Sitting
    table_id: str
    bhabhi: int | None
    """The Bhabhi's seat; None when the hand had no loser."""
    out_order: tuple[int, ...]
    """Seats in the order they got away."""
    termination: str
    """How the hand ended (``TERMINATION_LAST_PLAYER`` …)."""
    hand_seed: str
    """The seed the referee revealed at the hand's end (``deal_seed:0``; "" for a hand
    ``ABANDONED``, whose seed the referee never reveals)."""
    timeouts: tuple[int, ...]
    """Per seat, its turn clocks that ran out (the referee played its default action)."""
    crashes: tuple[bool, ...]
    """Per seat, whether its bot failed: raised, exited with an error, or had not stopped
    a while after the session was over (and was stopped)."""
    notes: tuple[str, ...] = ()
    """Per seat, what went wrong with its bot ("" when nothing did)."""

    def places(self) -> list[int]:
        """Per seat, its place in the hand (0 the best), as the ratings take it: the order
        of getting out, those still in at a hand ended by a bound tied after them, the
        Bhabhi last."""
        n = len(self.sitting.seats)
        place = {seat: k for k, seat in enumerate(self.out_order)}
        still_in = [s for s in range(n) if s not in place and s != self.bhabhi]
        for seat in still_in:
            place[seat] = len(self.out_order)
        if self.bhabhi is not None:
            place[self.bhabhi] = len(self.out_order) + (1 if still_in else 0)
        return [place[s] for s in range(n)]


OnHand = Callable[[HandRecord], None]


async def play_league(
    client: Client,
    rules_id: str,
    entrants: Sequence[Entrant],
    sittings: Sequence[Sitting],
    *,
    seed: str,
    parallel: int = 2,
    turn_time: float = 5.0,
    on_hand: OnHand | None = None,
    journal: Journal | None = None,
    think: float | None = None,
    playouts: int | None = None,
) -> list[HandRecord]:
    """Play every sitting, ``parallel`` tables at a time; the hands in schedule order.

    With a ``journal``, a sitting it records as played is read back from the referee's
    records instead of played again, and each hand played is recorded in it as it ends.
    The first failure of the arena itself (a refusal of a table, a referee gone) stops the
    league: the tables in progress are abandoned (their bots stopped)."""
    by_name = {e.name: e for e in entrants}
    gate = asyncio.Semaphore(max(1, parallel))

    async def one(sitting: Sitting) -> HandRecord:
        async with gate:
            record = None if journal is None else await journal.replay(client, sitting)
            if record is None:
                record = await play_sitting(
                    client,
                    rules_id,
                    sitting,
                    by_name,
                    seed=seed,
                    turn_time=turn_time,
                    think=think,
                    playouts=playouts,
                )
                if journal is not None:
                    journal.played(record)
        if on_hand is not None:
            on_hand(record)
        return record

    tasks = [asyncio.ensure_future(one(s)) for s in sittings]
    try:
        return list(await asyncio.gather(*tasks))
    finally:
        for task in tasks:
            task.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.gather(*tasks, return_exceptions=True)


async def play_sitting(
    client: Client,
    rules_id: str,
    sitting: Sitting,
    entrants: Mapping[str, Entrant | Strategy],
    *,
    seed: str,
    turn_time: float,
    stop_grace: float = 5.0,
    think: float | None = None,
    playouts: int | None = None,
) -> HandRecord:
    """Create the sitting's table (one hand, its deal seed, a turn clock), take every seat
    and deal, hand each seat's credential to its entrant's bot, and read the hand's result
    from the table's log once the session is over.

    The arena takes the seats itself, so that the hand is dealt and ends whatever the bots
    do: a bot that fails, hangs or never connects is played on by the table's clock (the
    referee's default action), and its failure is counted against its seat; a bot still
    running ``stop_grace`` seconds (at least the turn time) after the session is over has
    hung, and is stopped.  ``entrants`` maps a seat's entrant name to the entrant, or (in
    tests) to a strategy object."""
    table_id = await _create_table(client, rules_id, sitting, turn_time)
    handles = [
        await client.join(table_id, name, seat=seat) for seat, name in enumerate(sitting.seats)
    ]
    await handles[0].start()
    bots = [
        asyncio.ensure_future(
            _play_seat(
                client,
                handle,
                entrants[handle.name],
                sitting.bot_seed(seed, handle.seat),
                think,
                playouts,
            )
        )
        for handle in handles
    ]
    try:
        log = await _watch(client, table_id, len(handles))
        # The bots stop at the session's end; one still playing after a while has hung.
        _, pending = await asyncio.wait(bots, timeout=max(turn_time, stop_grace))
        notes = [_note(bot, bot in pending) for bot in bots]
    finally:
        for bot in bots:
            bot.cancel()
        await asyncio.gather(*bots, return_exceptions=True)
    return _hand_record(sitting, table_id, log, notes)


def _hand_record(sitting: Sitting, table_id: str, log: _Log, notes: Sequence[str]) -> HandRecord:
    """A hand from its table's log and what went wrong with each seat's bot."""
    if log.over is None:  # abandoned: those still in tie, and nobody is the Bhabhi
        bhabhi, out_order, termination, hand_seed = None, tuple(log.out), ABANDONED, ""
    else:
        result = log.over.result
        bhabhi = result.bhabhi if result.HasField("bhabhi") else None
        out_order = tuple(result.out_order)
        termination = pb.Termination.Name(result.termination)
        hand_seed = log.over.seed
    return HandRecord(
        sitting=sitting,
        table_id=table_id,
        bhabhi=bhabhi,
        out_order=out_order,
        termination=termination,
        hand_seed=hand_seed,
        timeouts=tuple(log.timeouts),
        crashes=tuple(bool(note) for note in notes),
        notes=tuple(notes),
    )


async def _create_table(client: Client, rules_id: str, sitting: Sitting, turn_time: float) -> str:
    """The sitting's table; when the referee limits the tables a client creates a minute
    (``create_rate_limited``), created once it says it may be, so that a league longer than the
    limit is played at the limit's pace instead of stopping."""
    while True:
        try:
            table = await client.create_table(
                rules_id,
                len(sitting.seats),
                hands=1,
                turn_time=turn_time or None,
                deal_seed=sitting.deal_seed,
            )
        except RefereeError as error:
            if error.reason != "create_rate_limited":
                raise
            await asyncio.sleep(error.retry_after or 1.0)
            continue
        return table.table_id


def _note(bot: asyncio.Future[None], hung: bool) -> str:
    """What went wrong with a seat's bot ("" when nothing did)."""
    if hung:
        return "still running after the session was over"
    if bot.cancelled():
        return "stopped"
    error = bot.exception()
    if error is None:
        return ""
    return " ".join(str(error).split()) or type(error).__name__


async def _play_seat(
    client: Client,
    handle: SeatHandle,
    entrant: Entrant | Strategy,
    seed: str,
    think: float | None = None,
    playouts: int | None = None,
) -> None:
    """Play one seat with its entrant's bot: a built-in strategy through ``run_bot``, or
    the entrant's program, given the seat's credential."""
    if not isinstance(entrant, Entrant):
        strategy: str | Strategy = entrant
    elif entrant.command:
        await _run_program(client.target, handle, entrant.command)
        return
    elif entrant.bot_key:
        await _hand_seat(handle, entrant.bot_key)
        return
    else:
        strategy = entrant.strategy
    await run_bot(
        client,
        handle.table_id,
        handle.name,
        strategy,
        token=handle.token,
        seed=seed,
        auto_start=False,
        think=think,
        playouts=playouts,
    )


async def _hand_seat(handle: SeatHandle, bot_key: str) -> None:
    """Give a seat to the connected bot waiting under ``bot_key``; an error if none waits
    (the seat is then played by its clock).  The bot plays on by itself: what it fails to
    do shows in the table's log as the seat's timeouts."""
    try:
        await handle.hand_to(bot_key)
    except RefereeError as error:
        if error.reason != "bot_not_waiting":
            raise
        raise ArenaBotError("not connected: no bot waits under its key") from None


async def _run_program(target: str, handle: SeatHandle, command: Sequence[str]) -> None:
    """Run an external entrant for one seat until it exits; an error if it fails (the
    last line it wrote on standard error says why)."""
    values = {
        "{target}": target,
        "{table}": handle.table_id,
        "{token}": handle.token,
        "{seat}": str(handle.seat),
    }
    argv = []
    for word in command:
        for placeholder, value in values.items():
            word = word.replace(placeholder, value)
        argv.append(word)
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
    except OSError as error:
        raise ArenaBotError(f"cannot start {argv[0]}: {error.strerror}") from None
    try:
        _, err = await process.communicate()
    except asyncio.CancelledError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
        raise
    if process.returncode:
        lines = err.decode("utf-8", "replace").strip().splitlines()
        why = f": {lines[-1][:200]}" if lines else ""
        raise ArenaBotError(f"exited with {process.returncode}{why}")


class ArenaBotError(Exception):
    """An external entrant's program failed at a seat."""


ABANDONED = "ABANDONED"
"""The termination of a hand whose table the referee closed before its end: every seat
still in let its clock run out, round after round (``TableClosed``, ``abandoned``)."""


@dataclass(slots=True)
class _Log:
    """What the arena reads from a table's log."""

    timeouts: list[int]
    out: list[int]
    """Seats in the order they went out (``PlayerOut``), for a hand that never ended."""
    over: pb.HandOver | None = None


async def _watch(client: Client, table_id: str, seats: int) -> _Log:
    """The table's turn clocks run out per seat, and how its hand ended, from its event
    log (the stream ends with the session, or when the table is closed)."""
    log = _Log([0] * seats, [])
    async for item in client.watch(table_id):
        if isinstance(item, pb.Snapshot):
            continue
        kind = event_kind(item)
        if kind == "turn_timed_out":
            log.timeouts[item.turn_timed_out.seat] += 1
        elif kind == "player_out":
            log.out.append(item.player_out.seat)
        elif kind == "hand_over":
            log.over = item.hand_over
    return log


class Journal:
    """The hands of a league played so far, in a file (JSON lines), so that an interrupted
    league continues where it stopped.

    The first line says which league it is (ruleset, players, seed, entrants); each further
    line names one finished hand's (deal, group, rotation), its table, and its bots'
    failures, written as the hand ends.  The results themselves are read back from the referee's
    records of those tables (their event logs), as for a hand just played; a sitting the
    journal does not name (interrupted in the middle, or never reached) is played again
    from its deal seed at a new table, which deals it exactly the same cards.  The file
    holds no credential."""

    def __init__(self, path: Path, league: dict[str, Any], done: dict[tuple[int, int, int], Any]):
        self.path = path
        self.league = league
        self.done = done
        """Per (deal, group, rotation), the journal's line of its finished hand."""

    @classmethod
    def open(cls, path: Path, league: dict[str, Any], *, seed_if_new: str) -> Journal:
        """The journal at ``path``: a new one if there is none, whose first line is
        ``league`` (with ``seed_if_new`` as its seed if ``league`` names none); else the
        one there, refused (ArenaUsageError) if it is another league's or no journal.  Its
        ``league["seed"]`` is the league's seed."""
        if not path.exists():
            league = {**league, "seed": league.get("seed") or seed_if_new}
            try:
                path.write_text(json.dumps({"league": league}) + "\n", encoding="utf-8")
            except OSError as error:
                raise ArenaUsageError(f"cannot write {path}: {error.strerror}") from None
            return cls(path, league, {})
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
            header = json.loads(lines[0])["league"] if lines else None
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ArenaUsageError(f"{path} is not an arena journal ({error})") from None
        if not isinstance(header, dict):
            raise ArenaUsageError(f"{path} is not an arena journal")
        differs = [k for k in league if header.get(k) != league[k]]
        if differs:
            raise ArenaUsageError(
                f"{path} is the journal of another league (not the same {', '.join(differs)})"
            )
        done: dict[tuple[int, int, int], Any] = {}
        for number, line in enumerate(lines[1:], start=2):
            try:
                entry = json.loads(line)
                # "group" is optional in a journal's line: without it, group 0.
                key = (int(entry["deal"]), int(entry.get("group", 0)), int(entry["rotation"]))
                done[key] = entry
            except (ValueError, KeyError, TypeError, AttributeError):
                if number == len(lines):
                    break  # a last line cut short by a kill: that hand is played again
                raise ArenaUsageError(f"{path}:{number}: not a line of an arena journal") from None
        return cls(path, header, done)

    async def replay(self, client: Client, sitting: Sitting) -> HandRecord | None:
        """The hand of ``sitting`` from the referee's records, if the journal says it was
        played (None: play it); one the referee no longer knows is played again."""
        entry = self.done.get((sitting.deal, sitting.group, sitting.rotation))
        if entry is None:
            return None
        table_id = str(entry["table_id"])
        try:
            log = await _watch(client, table_id, len(sitting.seats))
        except RefereeError as error:
            if error.reason != "table_not_found":
                raise
            return None
        notes = [str(n) for n in entry.get("notes") or [""] * len(sitting.seats)]
        return _hand_record(sitting, table_id, log, notes)

    def played(self, record: HandRecord) -> None:
        """Record a finished hand (one whole line, flushed to the disk before it counts)."""
        entry = {
            "deal": record.sitting.deal,
            "group": record.sitting.group,
            "rotation": record.sitting.rotation,
            "table_id": record.table_id,
            "notes": list(record.notes),
        }
        with self.path.open("a", encoding="utf-8") as file:
            file.write(json.dumps(entry) + "\n")
            file.flush()
            os.fsync(file.fileno())
