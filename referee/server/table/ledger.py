"""The tables one referee process holds, and the one way their state changes: a command
stored durably, then applied.

With a private store every unfinished table is held from the start; with a shared store
(replicas) a table is loaded on first use by replaying its commands, and caught up with
what other replicas appended whenever it may be behind.  A command is appended with the
table's next number, which the store keeps unique, so of two replicas racing for a table
exactly one wins; the other catches up and checks the request again (``locked``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from referee.reasons import Reason
from referee.server.errors import Refusal
from referee.server.store import CommandRecord, ConflictError, Store, StoreError
from referee.server.table.apply import apply, deal_due, next_deal
from referee.server.table.commands import Command, Join, Leave, Start, command_of, stored
from referee.server.table.rulesets import Rulesets
from referee.server.table.state import FINISHED, OPEN, PLAYING, Table, table_from_config

ATTEMPTS = 8
"""How often a request is checked again after other replicas changed its table first."""

log = logging.getLogger("bhabhi.referee")
T = TypeVar("T")


async def stored_call(pending: Awaitable[T]) -> T:
    """A store call; a store that cannot answer is a refusal the client may retry.  A
    ConflictError (a command number or an id already taken) passes: its caller knows what
    it means."""
    try:
        return await pending
    except ConflictError:
        raise
    except StoreError as error:
        raise Refusal(Reason.STORE_UNAVAILABLE, detail=str(error)) from error


class Ledger:
    def __init__(
        self,
        store: Store,
        rulesets: Rulesets,
        now: Callable[[], float],
        *,
        min_turn_time: float = 0.0,
    ) -> None:
        self.store = store
        self.min_turn_time = min_turn_time
        """A table stored with a shorter clock (by an older referee) plays with this one."""
        self.rulesets = rulesets
        self.now = now
        self.tables: dict[str, Table] = {}
        """The tables held here: all unfinished ones with a private store, those touched
        with a shared one, and finished ones until they are retired."""
        self.on_commit: list[Callable[[str], None]] = []
        """Called with the kind of every command this referee stored (metrics)."""
        self.on_change: list[Callable[[Table], None]] = []
        """Called after commands were applied to a table (the clocks re-arm)."""
        self._loading: dict[str, asyncio.Future[Table]] = {}

    # --- holding tables -------------------------------------------------------------------

    def rebuild(self, table_id: str, config: Any, created_at: float) -> Table:
        """An empty table from its stored settings (refused if its ruleset is not hosted)."""
        rules = self.rulesets.get(config["ruleset_id"]).rules
        table = table_from_config(table_id, config, created_at, rules)
        if 0 < table.turn_time < self.min_turn_time:
            table.turn_time = self.min_turn_time
        return table

    def replay(self, table: Table, records: list[CommandRecord]) -> None:
        for record in records:
            apply(table, record.number, command_of(record.kind, record.payload), record.at)

    async def get(self, table_id: str, *, fresh: bool = False) -> Table:
        """A table by id, loaded from the store if it is not held here; with ``fresh`` and
        a shared store, brought up to date first (a read must show what another replica
        acknowledged)."""
        table = self.tables.get(table_id)
        if table is not None:
            table.last_read = self.now()
            if fresh and self.store.shared:
                async with table.lock:
                    await self.catch_up(table)
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = asyncio.ensure_future(self._load(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load(self, table_id: str) -> Table:
        record = await stored_call(self.store.load_table(table_id))
        if record is None:
            raise Refusal(Reason.TABLE_NOT_FOUND, table_id=table_id)
        await self.load_rulesets_for(record.config["ruleset_id"])
        table = self.rebuild(table_id, record.config, record.created_at)
        self.replay(table, await stored_call(self.store.load_commands(table_id)))
        table.last_read = self.now()
        self.tables[table_id] = table
        # Commands committed while this one loaded were announced before the table was
        # held here, so nobody followed them: look once more, now that the table is held.
        async with table.lock:
            await self.catch_up(table)
            if deal_due(table):  # an older log whose hand ended without the next deal
                await self.commit(table, next_deal(table, secrets.token_hex(32)))
        self._changed(table)
        if table.status == FINISHED:  # the hint may be missing (its writer died): again
            await self.record_finish(table)
        return table

    async def load_rulesets(self) -> None:
        """Host the registered rulesets this referee does not know yet (all at start; with
        replicas, those registered elsewhere since)."""
        for record in await stored_call(self.store.load_rulesets()):
            if self.rulesets.hosts(record.ruleset_id):
                continue
            rules, problems = self.rulesets.validate(record.yaml, record.ruleset_id)
            if rules is None:  # registered under rules this referee no longer accepts
                first = problems[0] if problems else "no problem named"
                log.warning("registered ruleset %s is not hosted: %s", record.ruleset_id, first)
            elif not self.rulesets.hosts(rules.id):
                self.rulesets.add(rules, record.yaml)

    async def load_rulesets_for(self, ruleset_id: str) -> None:
        """Make sure ``ruleset_id`` is hosted; with replicas, one registered elsewhere."""
        if not self.rulesets.hosts(ruleset_id) and self.store.shared:
            await self.load_rulesets()
        self.rulesets.get(ruleset_id)  # refuses an unknown one

    # --- changing tables ------------------------------------------------------------------

    async def locked(self, table: Table, attempt: Callable[[], Awaitable[T]]) -> T:
        """Run ``attempt`` (check, then commit) under the table's lock.

        With replicas the state held here may be behind the store: when another replica
        took the next command number first, or when the check refused something, catch up
        and check again; only a refusal against the latest state stands."""
        for _ in range(ATTEMPTS):
            async with table.lock:
                try:
                    return await attempt()
                except ConflictError:
                    await self.catch_up(table)
                except Refusal:
                    if not self.store.shared or not await self.catch_up(table):
                        raise
        raise Refusal(Reason.TABLE_BUSY)

    async def commit(self, table: Table, command: Command, *, verified: bool = False) -> None:
        """Store the command durably, then apply it: the only way state changes.

        Raises ConflictError when another replica took the number first (``locked``
        catches up and checks again); any other store failure is a refusal to retry."""
        kind, payload = stored(command)
        record = CommandRecord(table.table_id, table.commands + 1, kind, payload, self.now())
        # Hints for the store's table row: the status when the command decides it (open
        # tables are listed across replicas), and when to look at the table if nothing
        # else happens (the turn clock this command may start; idle wake-ups are cleared).
        seating = isinstance(command, Join | Leave)
        status = OPEN if seating else PLAYING if isinstance(command, Start) else None
        clocked = table.turn_time > 0 and not seating
        await stored_call(
            self.store.append(
                record,
                table_status=status,
                wake_at=record.at + table.turn_time if clocked else None,
            )
        )
        for hook in self.on_commit:
            hook(kind)
        was = table.status
        apply(table, record.number, command, record.at, verified=verified)
        await self.notify(table)
        if table.status == FINISHED and was != FINISHED:
            await self.record_finish(table)

    async def catch_up(self, table: Table) -> bool:
        """Apply the commands other replicas stored since (hold the table's lock); True if
        there were any."""
        records = await stored_call(self.store.load_commands(table.table_id, table.commands))
        self.replay(table, records)
        if records:
            await self.notify(table)
            self._changed(table)
        return bool(records)

    async def follow(self, table: Table, number: int, record: CommandRecord | None) -> None:
        """Apply command ``number`` that some replica committed (carried by the store's
        news, or read back)."""
        async with table.lock:
            if number and number <= table.commands:
                return  # applied meanwhile (our own command, or an earlier catch-up)
            if record is not None and number == table.commands + 1:
                self.replay(table, [record])  # carried by the news: no need to read it
                await self.notify(table)
                self._changed(table)
                return
            try:
                await self.catch_up(table)
            except Refusal as refusal:  # the store is away; the next news or request retries
                log.warning("cannot follow table %s: %s", table.table_id, refusal)

    @staticmethod
    async def notify(table: Table) -> None:
        """Wake the event streams reading ``table``."""
        if table.watchers:
            async with table.changed:
                table.changed.notify_all()

    def _changed(self, table: Table) -> None:
        for hook in self.on_change:
            hook(table)

    async def record_finish(self, table: Table) -> None:
        """Tell the store the session is over (a hint: the command that ended it is stored
        already, so a failure here is only logged; the next replica to load the table
        writes it again)."""
        try:
            await self.store.finish_table(table.table_id)
        except StoreError as error:
            log.warning("cannot record the end of table %s: %s", table.table_id, error)
