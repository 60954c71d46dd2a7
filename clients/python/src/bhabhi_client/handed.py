"""A bot already connected: it waits under its key and plays every seat handed to it.

A bot that runs on its own (a server, a long-lived process an arena did not start) is
given seats rather than joining them: it waits on the referee under a secret key
(``Client.await_seats``), and whoever holds a seat hands it over (``SeatHandle.hand_to``;
``bhabhi arena`` does, for an entrant ``NAME=bot:KEY``).  Each seat is played by
``run_bot`` in a task of its own, so one bot plays any number of tables at once, and a
seat that goes wrong is reported and does not stop the others.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from bhabhi_client.bots import BotResult, Strategy, run_bot
from bhabhi_client.client import Client, SeatHandle
from bhabhi_client.errors import RefereeError


@dataclass(frozen=True, slots=True)
class SeatPlayed:
    """How one handed seat went: the bot's result, or the refusal that ended it."""

    handle: SeatHandle
    result: BotResult | None
    error: RefereeError | None = None


async def play_handed_seats(
    client: Client,
    bot_key: str,
    strategy: str | Callable[[], Strategy] = "heuristic",
    *,
    seed: str | None = None,
    think: float | None = None,
    playouts: int | None = None,
    max_seats: int | None = None,
    on_waiting: Callable[[], None] | None = None,
    on_seat: Callable[[SeatHandle], None] | None = None,
    on_played: Callable[[SeatPlayed], None] | None = None,
) -> int:
    """Wait under ``bot_key`` and play every seat handed to it with ``strategy`` (a name,
    or a factory of a fresh strategy a seat), as long as the wait lasts; with
    ``max_seats``, stop waiting after that many seats and return once they are played.
    The number of seats handed.  ``seed`` seeds each seat's bot with the table and seat
    added, so that two seats never play alike by accident."""
    playing: set[asyncio.Task[None]] = set()

    async def play(handle: SeatHandle) -> None:
        chosen = strategy if isinstance(strategy, str) else strategy()
        bot_seed = None if seed is None else f"{seed}:{handle.table_id}:{handle.seat}"
        try:
            result = await run_bot(
                client,
                handle.table_id,
                handle.name,
                chosen,
                token=handle.token,
                seed=bot_seed,
                auto_start=False,
                think=think,
                playouts=playouts,
            )
        except RefereeError as error:
            played = SeatPlayed(handle, None, error)
        else:
            played = SeatPlayed(handle, result)
        if on_played is not None:
            on_played(played)

    handed = 0
    try:
        seats = client.await_seats(bot_key, on_waiting=on_waiting)
        async with contextlib.aclosing(seats):  # a break ends the wait on the referee
            async for handle in seats:
                handed += 1
                if on_seat is not None:
                    on_seat(handle)
                task = asyncio.ensure_future(play(handle))
                playing.add(task)
                task.add_done_callback(playing.discard)
                if max_seats is not None and handed >= max_seats:
                    break
        await asyncio.gather(*playing)
    finally:
        for task in playing:
            task.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.gather(*playing, return_exceptions=True)
    return handed
