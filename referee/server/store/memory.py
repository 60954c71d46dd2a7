"""An in-process store for tests: the SQLite store's semantics without a file.

It keeps JSON text, not the caller's objects, so that a caller mutating a mapping after
``append`` (or one returned by ``load_commands``) changes nothing stored, as with a real
backend; the contract tests in ``tests/test_store_contract.py`` hold both to the same rules.
Nothing survives the process.

``MemoryStore(shared=True)`` stands in for PostgreSQL in fast tests of several referees
(replicas) in one process: ``replica()`` gives each referee its own store object over the
same data, and every append calls every replica's listeners from the event loop.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from referee.server.store import (
    CommandRecord,
    ConflictError,
    Listener,
    RulesetRecord,
    Store,
    StoreError,
    TableRecord,
)
from referee.server.store.payload import decode, encode


@dataclass(frozen=True, slots=True)
class _Command:
    kind: str
    payload: str
    at: float


@dataclass
class _Table:
    config: str
    created_at: float
    status: str | None = None
    wake_at: float | None = None
    commands: dict[int, _Command] = field(default_factory=dict)


class MemoryStore(Store):
    """Dictionaries behind the ``Store`` coroutines; every call completes at once."""

    def __init__(self, *, shared: bool = False) -> None:
        self.shared = shared
        self._state = "new"
        self._tables: dict[str, _Table] = {}
        self._listeners: list[Listener] = []
        """Every replica's listeners (the list is shared by ``replica()``)."""
        self._own: list[Listener] = []
        self._rulesets: dict[str, RulesetRecord] = {}

    async def open(self) -> None:
        if self._state != "new":
            raise StoreError(f"MemoryStore is already {self._state}")
        self._state = "open"

    async def close(self) -> None:
        # Idempotent, like file.close(): a ``finally`` may close a store already closed.
        self._state = "closed"
        for listener in self._own:  # a closed connection hears nothing more
            if listener in self._listeners:
                self._listeners.remove(listener)
        self._own.clear()

    async def create_table(self, table: TableRecord) -> None:
        self._check_open()
        config = encode(table.config, f"config of table {table.table_id!r}")
        if table.table_id in self._tables:
            raise ConflictError(f"table {table.table_id!r} already exists")
        self._tables[table.table_id] = _Table(config, table.created_at, status="open")

    async def append(
        self,
        command: CommandRecord,
        *,
        table_status: str | None = None,
        wake_at: float | None = None,
    ) -> None:
        self._check_open()
        payload = encode(
            command.payload, f"payload of command {command.number} of table {command.table_id!r}"
        )
        row = self._tables.get(command.table_id)
        if row is None:
            raise StoreError(
                f"command {command.number} for table {command.table_id!r}: no such table"
            )
        if command.number in row.commands:
            raise ConflictError(
                f"table {command.table_id!r} already has command number {command.number}"
            )
        row.commands[command.number] = _Command(command.kind, payload, command.at)
        if table_status is not None:
            row.status = table_status
        row.wake_at = wake_at
        if self._listeners:
            stored = CommandRecord(
                command.table_id, command.number, command.kind, decode(payload), command.at
            )
            loop = asyncio.get_running_loop()
            for listener in self._listeners:
                loop.call_soon(listener, command.table_id, command.number, stored)

    async def load_tables(
        self, *, status: str | None = None, unfinished: bool = False
    ) -> list[TableRecord]:
        self._check_open()
        # sorted() is stable: tables created at the same instant stay in creation order.
        ordered = sorted(self._tables.items(), key=lambda item: item[1].created_at)
        return [
            TableRecord(table_id=table_id, config=decode(row.config), created_at=row.created_at)
            for table_id, row in ordered
            if (status is None or row.status == status)
            and not (unfinished and row.status == "finished")
        ]

    async def load_table(self, table_id: str) -> TableRecord | None:
        self._check_open()
        row = self._tables.get(table_id)
        if row is None:
            return None
        return TableRecord(table_id=table_id, config=decode(row.config), created_at=row.created_at)

    async def due_tables(self, now: float, limit: int = 100) -> list[tuple[str, float]]:
        self._check_open()
        due = sorted(
            (row.wake_at, table_id)
            for table_id, row in self._tables.items()
            if row.wake_at is not None and row.wake_at <= now
        )
        return [(table_id, wake_at) for wake_at, table_id in due[:limit]]

    async def clear_wake(self, table_id: str, wake_at: float) -> None:
        self._check_open()
        row = self._tables.get(table_id)
        if row is not None and row.wake_at == wake_at:
            row.wake_at = None

    async def finish_table(self, table_id: str) -> None:
        self._check_open()
        row = self._tables.get(table_id)
        if row is not None:
            row.status, row.wake_at = "finished", None

    def replica(self) -> MemoryStore:
        """Another store object over the same data, opened and closed on its own, as a
        second referee process would connect to the same database."""
        other = MemoryStore(shared=self.shared)
        other._tables, other._rulesets, other._listeners = (
            self._tables,
            self._rulesets,
            self._listeners,
        )
        return other

    def listen(self, listener: Listener) -> None:
        if self.shared:
            self._listeners.append(listener)
            self._own.append(listener)

    async def load_commands(self, table_id: str, after: int = 0) -> list[CommandRecord]:
        self._check_open()
        row = self._tables.get(table_id)
        commands = {} if row is None else row.commands
        return [
            CommandRecord(
                table_id=table_id,
                number=number,
                kind=commands[number].kind,
                payload=decode(commands[number].payload),
                at=commands[number].at,
            )
            for number in sorted(n for n in commands if n > after)
        ]

    async def put_ruleset(self, ruleset: RulesetRecord) -> None:
        self._check_open()
        if ruleset.ruleset_id in self._rulesets:
            raise ConflictError(f"ruleset {ruleset.ruleset_id!r} already exists")
        self._rulesets[ruleset.ruleset_id] = ruleset  # frozen, and only str and float inside

    async def load_rulesets(self) -> list[RulesetRecord]:
        self._check_open()
        return sorted(self._rulesets.values(), key=lambda ruleset: ruleset.registered_at)

    def _check_open(self) -> None:
        if self._state != "open":
            raise StoreError(f"MemoryStore is {self._state}, not open")
