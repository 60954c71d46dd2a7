"""Bots already connected: a bot waits under a secret key for the seats it is given.

An arena (or a lobby) that seats a bot it did not start cannot give it a credential by
hand: the bot is somewhere else, already connected.  So the bot waits on the referee under
a key of its own (``AwaitSeats``), shared only with whoever is to seat it, and the holder
of a seat hands that seat's credential to the key (``HandSeat``); the referee only passes
it on.  Nothing is opened to strangers: no seat is ever free for whoever asks first, and a
seat can only be handed by someone who holds it.

The waiting bots live in this process's memory, not in the store: a bot that is not
connected cannot be handed anything, and one that reconnects waits again.  Keys are kept
as their SHA-256, as credentials are.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from referee.reasons import Reason
from referee.server.errors import Refusal
from referee.server.table.access import token_hash

SHORTEST_KEY = 16
LONGEST_KEY = 128


@dataclass(frozen=True, slots=True)
class SeatOffer:
    """A seat handed to a waiting bot: all it needs to play it."""

    table_id: str
    seat: int
    seat_token: str
    ruleset_id: str
    player_name: str


@dataclass(slots=True)
class _Waiter:
    offers: asyncio.Queue[SeatOffer | None] = field(default_factory=asyncio.Queue)
    """Seats handed and not yet sent; None wakes the stream to end (the referee drains)."""
    handed: set[tuple[str, int]] = field(default_factory=set)
    """The seats handed to this bot, so that handing one again sends nothing twice (and
    the queue holds each seat at most once: its length is bounded by the seats held)."""


def checked_key(key: str) -> str:
    """``key`` if it is one a bot may wait under, else ``bad_bot_key``."""
    printable = all("!" <= ch <= "~" for ch in key)
    if not printable or not SHORTEST_KEY <= len(key) <= LONGEST_KEY:
        raise Refusal(Reason.BAD_BOT_KEY, shortest=SHORTEST_KEY, longest=LONGEST_KEY)
    return key


class WaitingBots:
    """The bots waiting on one referee process, by the hash of their key."""

    def __init__(self) -> None:
        self._waiters: dict[str, _Waiter] = {}
        self.closing = False

    def __len__(self) -> int:
        return len(self._waiters)

    async def wait(self, key: str) -> AsyncIterator[SeatOffer | None]:
        """Wait under ``key``: first None (the bot is waiting from now on), then each seat
        handed to it, until the caller stops reading or the referee drains
        (``unavailable``)."""
        digest = token_hash(checked_key(key))
        if digest in self._waiters:
            raise Refusal(Reason.BOT_ALREADY_WAITING)
        if self.closing:
            raise Refusal(Reason.UNAVAILABLE)
        waiter = self._waiters[digest] = _Waiter()
        try:
            yield None
            while True:
                offer = await waiter.offers.get()
                if offer is None:
                    raise Refusal(Reason.UNAVAILABLE)
                yield offer
        finally:
            if self._waiters.get(digest) is waiter:
                del self._waiters[digest]

    def hand(self, key: str, offer: SeatOffer) -> None:
        """Pass ``offer`` on to the bot waiting under ``key`` (once per seat), else
        ``bot_not_waiting``."""
        waiter = self._waiters.get(token_hash(checked_key(key)))
        if waiter is None:
            raise Refusal(Reason.BOT_NOT_WAITING)
        seat = (offer.table_id, offer.seat)
        if seat not in waiter.handed:
            waiter.handed.add(seat)
            waiter.offers.put_nowait(offer)

    def forget_table(self, table_id: str, seats: int) -> None:
        """A table let go of: its seats no longer count as handed."""
        for waiter in self._waiters.values():
            for seat in range(seats):
                waiter.handed.discard((table_id, seat))

    def drain(self) -> None:
        """End every wait with ``unavailable``, and refuse new ones."""
        self.closing = True
        for waiter in self._waiters.values():
            waiter.offers.put_nowait(None)
