"""The table's own events, beside the engine's, and the numbered log they are kept in.

The engine's events (``referee.engine.types``) tell what happened in a hand; these tell
what happened at the table around it: a player sat down or left, a hand was dealt with its
seed committed, a hand ended with the seed revealed, a turn clock ran out, the session
ended.  Every event knows what a seat may see of it (``visible_to``), so that one log
serves every seat and every spectator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from referee.cards import Card
from referee.engine import Action
from referee.engine.types import HIDDEN_SIZE, Event, Outcome


@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    kind: ClassVar[str] = "player_joined"
    seat: int
    player_name: str


@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    kind: ClassVar[str] = "player_left"
    seat: int


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """A hand was dealt; each seat sees only its own cards."""

    kind: ClassVar[str] = "hand_dealt"
    dealer: int
    hand_sizes: tuple[int, ...]
    leader: int
    cards: tuple[tuple[Card, ...], ...]
    """Every seat's cards; ``visible_to`` keeps only the viewer's."""
    seed_commitment: str
    ruleset_hash: str
    sizes_hidden: bool = False
    """H29: each seat is told only its own hand's size (the others are -1)."""

    def visible_to(self, seat: int | None) -> Event:
        mine = tuple(c if s == seat else () for s, c in enumerate(self.cards))
        sizes = self.hand_sizes
        if self.sizes_hidden:
            sizes = tuple(n if s == seat else HIDDEN_SIZE for s, n in enumerate(sizes))
        return HandDealt(
            self.dealer,
            sizes,
            self.leader,
            mine,
            self.seed_commitment,
            self.ruleset_hash,
            self.sizes_hidden,
        )

    def public(self) -> Event:
        return self.visible_to(None)


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The engine's HandOver, with the hand's seed revealed (fair deal)."""

    kind: ClassVar[str] = "hand_ended"
    outcome: Outcome
    seed: str


@dataclass(frozen=True, slots=True)
class TurnTimedOut(Event):
    kind: ClassVar[str] = "turn_timed_out"
    seat: int
    action: Action


@dataclass(frozen=True, slots=True)
class SessionEnded(Event):
    kind: ClassVar[str] = "session_ended"
    hands_played: int
    bhabhi_counts: tuple[int, ...]
    losers: tuple[int, ...]
    chips: tuple[int, ...]
    pot_left: int


@dataclass(frozen=True, slots=True)
class TableClosed(Event):
    """The table closed before its session started; ``why``: ``idle`` (nobody joined)."""

    kind: ClassVar[str] = "table_closed"
    why: str


class TableEvent(NamedTuple):
    """One event of a table's log, numbered.

    Immutable, as a frozen dataclass would be, but a NamedTuple: one is made for every
    event, and a frozen dataclass's ``__init__`` (one ``object.__setattr__`` a field) costs
    three times as much."""

    seq: int
    at: float
    hand_number: int
    event: Event
    to_act: tuple[int, ...]
    deadline: float | None
    """Absolute deadline (unix seconds) of the seat the game waits for, if clocked."""
    acted: tuple[int, Action] | None = None
    """On the first event an accepted action caused: (seat, action)."""


def for_seat(item: TableEvent, seat: int | None) -> TableEvent:
    """``item`` as ``seat`` (None: a spectator) may see it."""
    shown = item.event.visible_to(seat)
    if shown is item.event:
        return item
    return item._replace(event=shown)
