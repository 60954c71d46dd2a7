"""Following the other replicas of a shared store (PostgreSQL).

Several referee processes serve the same tables with no lock between them.  The store
tells every replica about every command committed (``Store.listen``), so watchers anywhere
get each event promptly; a sweep finds tables whose turn clock is overdue because the
replica that armed it died, and fires it here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from referee.server.errors import Refusal
from referee.server.store import CommandRecord, StoreError
from referee.server.table.clocks import TurnClocks
from referee.server.table.ledger import Ledger

SWEEP_EVERY = 1.0
"""Seconds between two looks for overdue turn clocks."""

SWEEP_GRACE = 2.0
"""How overdue a clock must be before a replica that did not arm it steps in: the replica
that armed it normally fires it on time, and a sweep should not race it."""

log = logging.getLogger("bhabhi.referee")


class Follower:
    def __init__(
        self,
        ledger: Ledger,
        clocks: TurnClocks,
        now: Callable[[], float],
        spawn: Callable[[Awaitable[None]], None],
    ) -> None:
        self.ledger = ledger
        self.clocks = clocks
        self.now = now
        self.spawn = spawn
        self.closing = False

    def on_command(self, table_id: str, number: int, record: CommandRecord | None) -> None:
        """The store's news of a command committed by any replica (this one included)."""
        tables = self.ledger.tables
        if not table_id:  # the store may have missed news: catch up every table held here
            for table in list(tables.values()):
                self.spawn(self.ledger.follow(table, 0, None))
            return
        held = tables.get(table_id)
        if held is not None and number > held.commands:
            self.spawn(self.ledger.follow(held, number, record))

    async def sweep(self) -> None:
        """Fire the clocks of tables whose wake-up is overdue (their replica may be dead)."""
        store = self.ledger.store
        while not self.closing:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                due = await store.due_tables(self.now() - SWEEP_GRACE)
                for table_id, wake_at in due:
                    table = await self.ledger.get(table_id, fresh=True)
                    if table.deadline() is None:
                        await store.clear_wake(table_id, wake_at)
                    elif table.clock is None:
                        self.clocks.arm(table)
            except (Refusal, StoreError) as error:
                log.warning("clock sweep: %s", error)
