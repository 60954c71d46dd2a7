"""A table's state: its settings, seats, session, event log and idempotency records.

Only ``apply`` (``apply.py``) changes it, one command at a time, so the state is always
what replaying the stored commands gives.  The asyncio lock and condition, the clock
handle and the credential cache live here too, but are never stored: they belong to the
process holding the table.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from referee.cards import Card, CardSyntaxError, parse_card
from referee.engine import Hand, Session
from referee.reasons import Reason
from referee.ruleset.model import Ruleset
from referee.server.errors import Refusal
from referee.server.table.events import TableEvent


class TableStatus(StrEnum):
    OPEN = "open"
    """Waiting for players; seats may be taken and given up."""
    PLAYING = "playing"
    FINISHED = "finished"
    """The session is over; the table never changes again."""


OPEN, PLAYING, FINISHED = TableStatus.OPEN, TableStatus.PLAYING, TableStatus.FINISHED


@dataclass
class SeatState:
    player_name: str = ""
    token_hash: str = ""

    @property
    def taken(self) -> bool:
        return bool(self.token_hash)


@dataclass(slots=True)
class Answer:
    """What an action returned, kept for retries with the same request_id."""

    fingerprint: str
    first_seq: int
    last_seq: int


@dataclass
class Table:
    table_id: str
    rules: Ruleset
    seat_count: int
    turn_time: float
    hands: int
    created_at: float
    test_deal: list[list[Card]] | None = None
    test_draws: list[Card] | None = None
    test_dealer: int | None = None
    test_hands: list[tuple[list[list[Card]], list[Card] | None]] = field(default_factory=list)
    """Explicit deals (and B8 draws) of the hands after the first (test mode)."""
    deal_seed: str = ""
    """The creator's session seed (``CreateTableRequest.deal_seed``): hand ``k`` is dealt
    from ``deal_seed:k`` instead of a fresh secret seed ("" for those)."""
    bots: dict[int, str] = field(default_factory=dict)
    """The seats the referee plays with its own bots, and how each plays (``random``,
    ``heuristic``, ``strong``: ``seatbots.STRATEGIES``)."""
    bot_delay: float = 1.0
    """Seconds the referee's bots wait before each move."""
    seats: list[SeatState] = field(default_factory=list)
    seat_of_token: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    """Credentials already matched against ``seats``, with their seat, so that a seat's
    every action is not hashed again; emptied whenever a seat is taken or left (a stored
    command changes ``seats``), so it holds at most one credential per taken seat.  Never
    stored, and kept out of ``repr`` (a log line must not show a credential)."""
    watchers: int = field(default=0, compare=False)
    """Event streams reading this table's log: with none, a new event has nobody to wake,
    and ``changed`` is not notified."""
    status: TableStatus = OPEN
    session: Session | None = None
    finished_hands: list[Hand] = field(default_factory=list)
    hand_seeds: list[str] = field(default_factory=list)
    log: list[TableEvent] = field(default_factory=list)
    answers: dict[tuple[int, str], Answer] = field(default_factory=dict)
    commands: int = 0
    """The number of the last command applied."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    clock: asyncio.TimerHandle | None = None
    to_act_key: tuple[int, int, int] | None = field(default=None, repr=False)
    to_act: tuple[int, ...] = field(default=(), repr=False)
    idle_timeouts: int = 0
    """Turn clocks run out in a row since a seat last acted (a table nobody plays at)."""
    missed: dict[int, int] = field(default_factory=dict)
    """H27: per seat, its turn clocks run out in a row since its player last acted."""
    last_read: float = field(default=0.0, compare=False)
    """When a request last asked for the table (unix seconds): a finished table is let go
    of when nobody has read it for a while, not just when it last changed."""
    """Who may act, computed once per applied command (``apply._emit``) for its events."""

    @property
    def last_seq(self) -> int:
        return len(self.log)

    @property
    def hand(self) -> Hand | None:
        return self.session.current if self.session is not None else None

    @property
    def last_at(self) -> float:
        """The time of the last event (the table's creation before any)."""
        return self.log[-1].at if self.log else self.created_at

    def test_draws_of(self, number: int) -> list[Card] | None:
        """The explicit draws of hand ``number`` of a test table (None: from the seed)."""
        if number == 0:
            return self.test_draws
        if 0 < number <= len(self.test_hands):
            return self.test_hands[number - 1][1]
        return None

    def deadline(self) -> float | None:
        """The absolute deadline of the seat the game waits for: the last event's time plus
        the turn time, so that it survives a restart unchanged; for a seat of the
        referee's bots, the last event's time (it decides at once)."""
        if not self.turn_time and not self.bots:  # first: most tables have no clock
            return None
        hand = self.hand
        if hand is None or hand.is_over or not self.log or self.status is FINISHED:
            return None  # (a closed table's hand may be unfinished: nobody plays it)
        seat = hand.to_move
        if seat is not None and seat in self.bots:
            return self.log[-1].at  # the bot starts deciding at once (and waits bot_delay)
        if not self.turn_time:
            return None
        # H27: a seat the referee plays for is played at once, unless nobody in the hand
        # plays any more (then at the clock's pace: such a table must not race its hands)
        if (
            seat is not None
            and self.played_by_referee(seat)
            and not all(self.played_by_referee(s) or s in self.bots for s in hand.active_seats())
        ):
            return self.log[-1].at
        return self.log[-1].at + self.turn_time

    @property
    def people(self) -> int:
        """The seats of people (and of clients' own bots): not the referee's bots."""
        return self.seat_count - len(self.bots)

    def played_by_referee(self, seat: int) -> bool:
        """H27 (``timeout_bot_after``): the seat let its clock run out that many times in a
        row, so the referee plays its default action as soon as the game waits for it,
        until the seat's player sends an action again."""
        after = self.rules.timeout_bot_after
        return after is not None and self.missed.get(seat, 0) >= after


def table_config(
    rules: Ruleset,
    seat_count: int,
    *,
    turn_time: float,
    hands: int,
    test_deal: list[list[str]] | None,
    test_draws: list[str] | None,
    test_dealer: int | None,
    test_hands: list[tuple[list[list[str]], list[str]]] | None,
    deal_seed: str = "",
    bots: dict[int, str] | None = None,
    bot_delay: float = 1.0,
) -> dict[str, Any]:
    """A table's settings as stored (``TableRecord.config``)."""
    return {
        "ruleset_id": rules.id,
        "ruleset_hash": rules.hash,
        "seat_count": seat_count,
        "turn_time": turn_time,
        "hands": hands,
        "test_deal": test_deal or None,
        "test_draws": test_draws or None,
        "test_dealer": test_dealer,
        "test_hands": [
            {"deal": deal, "draws": draws or None} for deal, draws in (test_hands or [])
        ],
        # Only when set: an unseeded table's settings are stored as before.
        **({"deal_seed": deal_seed} if deal_seed else {}),
        **({"bots": {str(s): b for s, b in bots.items()}, "bot_delay": bot_delay} if bots else {}),
    }


def table_from_config(
    table_id: str, config: dict[str, Any] | Any, created_at: float, rules: Ruleset
) -> Table:
    """An empty table (no command applied yet) from its stored settings."""

    def cards(words: list[str]) -> list[Card]:
        try:
            return [parse_card(w) for w in words]
        except CardSyntaxError as error:
            raise Refusal(Reason.BAD_TABLE_SETTINGS, detail=str(error)) from error

    deal = config.get("test_deal")
    draws = config.get("test_draws")
    table = Table(
        table_id=table_id,
        rules=rules,
        seat_count=config["seat_count"],
        turn_time=float(config.get("turn_time") or 0.0),
        hands=int(config.get("hands") or 0),
        created_at=created_at,
        test_deal=None if not deal else [cards(h) for h in deal],
        test_draws=None if not draws else cards(draws),
        test_dealer=config.get("test_dealer"),
        test_hands=[
            (
                [cards(h) for h in entry["deal"]],
                None if not entry.get("draws") else cards(entry["draws"]),
            )
            for entry in config.get("test_hands") or []
        ],
        deal_seed=str(config.get("deal_seed") or ""),
        bots={int(seat): str(bot) for seat, bot in (config.get("bots") or {}).items()},
        bot_delay=float(config.get("bot_delay", 1.0)),
    )
    table.seats = [SeatState() for _ in range(table.seat_count)]
    return table
