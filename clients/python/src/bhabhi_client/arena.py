"""``bhabhi arena``: a league between bots on duplicate deals, played through a referee.

Fair by construction: every deal is played once in every rotation of the entrants over the
seats, at tables the referee deals from the same seed (``CreateTableRequest.deal_seed``),
so that each entrant holds every seat's cards of every deal once and no entrant is helped
by the cards.  Every move goes through the referee exactly as in real play (validated,
recorded, exportable with ``ExportHand``); the results are read back from the referee's
own record of each table (its event log: ``HandOver``, ``TurnTimedOut``), not from what
the bots believe.

This module plays the schedule; ``arena_report`` turns the hands into ratings, rates with
intervals and the JSON document.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bhabhi.referee.v1 import referee_pb2 as pb

from bhabhi_client.bots import make_strategy, run_bot
from bhabhi_client.client import Client, event_kind


class ArenaUsageError(Exception):
    """The league asked for cannot be played (an unknown entrant, a count of entrants that
    does not fit the players): one line for the user, exit code 2."""


@dataclass(frozen=True, slots=True)
class Entrant:
    name: str
    """Unique in the league: the strategy's name, ``#2``, ``#3`` … for its repeats."""
    strategy: str


def entrants_of(strategies: Sequence[str]) -> list[Entrant]:
    """The entrants of ``--entrants``, each a strategy ``make_strategy`` knows (whatever
    it knows: the arena keeps no list of its own), named uniquely: ``heuristic``,
    ``heuristic#2``."""
    seen: Counter[str] = Counter()
    entrants = []
    for word in strategies:
        strategy = word.strip()
        if not strategy:
            raise ArenaUsageError("an empty entrant name in --entrants")
        try:
            make_strategy(strategy)
        except ValueError as error:
            raise ArenaUsageError(f"unknown entrant: {error}") from None
        seen[strategy] += 1
        count = seen[strategy]
        entrants.append(Entrant(strategy if count == 1 else f"{strategy}#{count}", strategy))
    return entrants


@dataclass(frozen=True, slots=True)
class Sitting:
    """One table of the schedule: one deal in one rotation, one hand."""

    deal: int
    rotation: int
    seats: tuple[str, ...]
    """The entrant at each seat."""
    deal_seed: str
    """The table's ``deal_seed``: the same for every rotation of a deal."""


def deal_seed(seed: str, deal: int) -> str:
    """The deal seed of deal ``deal`` of a league played with ``--seed seed``."""
    return f"{seed}:{deal}"


def schedule(entrants: Sequence[Entrant], deals: int, seed: str) -> list[Sitting]:
    """Deal after deal, every rotation ``r`` of the entrants over the seats (entrant ``i``
    at seat ``(i + r) mod N``): the order the league is played and rated in."""
    n = len(entrants)
    sittings = []
    for d in range(deals):
        for r in range(n):
            seats = [""] * n
            for i, entrant in enumerate(entrants):
                seats[(i + r) % n] = entrant.name
            sittings.append(Sitting(d, r, tuple(seats), deal_seed(seed, d)))
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
    """The seed the referee revealed at the hand's end (``deal_seed:0``)."""
    timeouts: tuple[int, ...]
    """Per seat, its turn clocks that ran out (the referee played its default action)."""
    crashes: tuple[bool, ...]
    """Per seat, whether its bot failed (raised) before the hand was over."""

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
) -> list[HandRecord]:
    """Play every sitting, ``parallel`` tables at a time; the hands in schedule order.

    The first failure of the arena itself (a refusal of a table, a referee gone) stops the
    league: the tables in progress are abandoned (their bots stopped)."""
    strategy_of = {e.name: e.strategy for e in entrants}
    gate = asyncio.Semaphore(max(1, parallel))

    async def one(sitting: Sitting) -> HandRecord:
        async with gate:
            record = await play_sitting(
                client, rules_id, sitting, strategy_of, seed=seed, turn_time=turn_time
            )
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
    strategy_of: dict[str, str],
    *,
    seed: str,
    turn_time: float,
) -> HandRecord:
    """Create the sitting's table (one hand, its deal seed, a turn clock), seat a bot of
    each entrant's strategy, play the hand, and read its result from the table's log.

    A bot that fails is counted against its seat, and the table's clock plays on for it
    (the referee's default action), so that the hand still ends."""
    players = len(sitting.seats)
    table = await client.create_table(
        rules_id, players, hands=1, turn_time=turn_time or None, deal_seed=sitting.deal_seed
    )
    table_id = table.table_id
    outcomes = await asyncio.gather(
        *(
            run_bot(
                client,
                table_id,
                name,
                strategy_of[name],
                seat=seat,
                seed=f"{seed}:{sitting.deal}:{sitting.rotation}:{seat}",
            )
            for seat, name in enumerate(sitting.seats)
        ),
        return_exceptions=True,
    )
    for outcome in outcomes:
        if isinstance(outcome, BaseException) and not isinstance(outcome, Exception):
            raise outcome  # a cancellation or an interrupt is the arena's, not a bot's
    crashes = tuple(isinstance(outcome, Exception) for outcome in outcomes)
    return await _record(client, sitting, table_id, crashes)


async def _record(
    client: Client, sitting: Sitting, table_id: str, crashes: tuple[bool, ...]
) -> HandRecord:
    """The hand's result from the table's event log (the stream ends with the session)."""
    timeouts = [0] * len(sitting.seats)
    over: pb.HandOver | None = None
    async for item in client.watch(table_id):
        if isinstance(item, pb.Snapshot):
            continue
        kind = event_kind(item)
        if kind == "turn_timed_out":
            timeouts[item.turn_timed_out.seat] += 1
        elif kind == "hand_over":
            over = item.hand_over
    if over is None:
        raise ArenaError(f"table {table_id} ended without a hand played to its end")
    result = over.result
    return HandRecord(
        sitting=sitting,
        table_id=table_id,
        bhabhi=result.bhabhi if result.HasField("bhabhi") else None,
        out_order=tuple(result.out_order),
        termination=pb.Termination.Name(result.termination),
        hand_seed=over.seed,
        timeouts=tuple(timeouts),
        crashes=crashes,
    )


class ArenaError(Exception):
    """The league could not go on (a table that never finished its hand)."""
