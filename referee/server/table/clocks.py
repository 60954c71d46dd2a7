"""Turn clocks: when the seat the game waits for runs out of time, the referee plays the
ruleset's default action for it (``Hand.default_action``), as a stored command like any
other, so that a clock is enforced once, survives a restart, and with replicas whichever
replica's clock fires first wins while the others catch up.

A table's deadline is its last event's time plus its turn time (``Table.deadline``), and a
turn time has a floor (``Limits.min_turn_time``), so timeouts cannot play faster than that;
and a table at which nobody acts for ``Limits.abandon_after_rounds`` rounds is closed, so
that tables nobody plays at do not go on playing themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable

from referee.engine import EngineError
from referee.server.errors import Refusal
from referee.server.store import ConflictError
from referee.server.table.commands import Close, Command, Move, Timeout
from referee.server.table.ledger import Ledger
from referee.server.table.seatbots import SeatBots
from referee.server.table.state import Table
from referee.server.table.trial import try_on_copy

RETRY_AFTER = 1.0
"""Seconds before a clock whose timeout could not be stored (the store away) tries again."""

log = logging.getLogger("bhabhi.referee")


class TurnClocks:
    def __init__(
        self,
        ledger: Ledger,
        now: Callable[[], float],
        spawn: Callable[[Awaitable[None]], None],
        *,
        abandon_after_rounds: int = 0,
        bots: SeatBots | None = None,
    ) -> None:
        self.bots = bots
        """The referee's own bots, which play their seats through these clocks."""
        self.abandon_after_rounds = abandon_after_rounds
        """A table whose clocks run out this many rounds' worth of turns in a row (rounds
        times seats timeouts, no seat acting in between) is closed as abandoned; 0: never."""
        self.ledger = ledger
        self.now = now
        self.spawn = spawn
        self.stopped = False

    def arm(self, table: Table) -> None:
        """(Re)start the table's clock for the seat the game waits for, if it has one."""
        if table.clock is not None:
            table.clock.cancel()
            table.clock = None
        deadline = table.deadline()
        if deadline is None or self.stopped:
            return
        loop = asyncio.get_running_loop()
        table.clock = loop.call_later(
            max(0.0, deadline - self.now()), self._fire, table, table.last_seq
        )

    def stop(self, tables: list[Table]) -> None:
        self.stopped = True
        for table in tables:
            if table.clock is not None:
                table.clock.cancel()
                table.clock = None

    def _fire(self, table: Table, seq: int) -> None:
        table.clock = None
        self.spawn(self._time_out(table, seq))

    async def _time_out(self, table: Table, seq: int) -> None:
        """The seat the game waits for ran out of time: play its default action (a seat of
        the referee's bots: the bot's move)."""
        hand = table.hand
        if hand is not None and hand.to_move in table.bots and self.bots is not None:
            await self._bot_move(table, seq, self.bots)
            return
        async with table.lock:
            hand = table.hand
            if self.stopped or hand is None or hand.is_over or table.last_seq != seq:
                return  # the table moved on meanwhile: its new clock is armed
            seat = hand.to_move
            assert seat is not None
            rounds = self.abandon_after_rounds
            command: Command
            if rounds and table.idle_timeouts >= rounds * table.people:
                command = Close("abandoned")  # nobody plays here: stop playing for them
            else:
                action = hand.default_action(seat)
                try:
                    try_on_copy(table, hand, seat, action)
                except EngineError:
                    return  # the test draws cannot follow this action; the seat must choose
                command = Timeout(seat, action, secrets.token_hex(32))
            if not await self._commit(table, seq, command):
                return
        self.arm(table)

    async def _bot_move(self, table: Table, seq: int, bots: SeatBots) -> None:
        """The game waits for a seat of the referee's bots: its decision, made outside the
        table's lock (a strong bot searches for a second), then, once the table's
        ``bot_delay`` has passed since the last event, stored as the seat's move if the
        table is still where it was."""
        hand = table.hand
        if self.stopped or hand is None or hand.is_over or table.last_seq != seq:
            return
        seat = hand.to_move
        assert seat is not None
        action = await bots.decide(table, hand, seat)
        wait = table.log[seq - 1].at + table.bot_delay - self.now()
        if wait > 0:
            await asyncio.sleep(wait)
        async with table.lock:
            if self.stopped or table.hand is not hand or table.last_seq != seq:
                return  # the table moved on meanwhile: its new clock is armed
            try:
                try_on_copy(table, hand, seat, action)
            except EngineError:
                return  # the test draws cannot follow this action
            move = Move(seat, action, f"bot:{seq}", secrets.token_hex(32))
            if not await self._commit(table, seq, move):
                return
        self.arm(table)

    async def _commit(self, table: Table, seq: int, command: Command) -> bool:
        """Store ``command`` for the seat the referee plays (hold the table's lock); False
        when it could not be, and the clock is set to try again shortly."""
        try:
            await self.ledger.commit(table, command)
        except ConflictError:  # another replica moved first (its clock, or a move)
            with contextlib.suppress(Refusal):  # if the store is away, news will come
                await self.ledger.catch_up(table)
        except Refusal as refusal:  # the store is away: try again shortly
            log.warning("turn clock of table %s: %s", table.table_id, refusal)
            loop = asyncio.get_running_loop()
            table.clock = loop.call_later(RETRY_AFTER, self._fire, table, seq)
            return False
        return True
