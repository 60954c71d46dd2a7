"""An in-process store for tests: the SQLite store's semantics without a file.

It keeps JSON text, not the caller's objects, so that a caller mutating a mapping after
``append`` (or one returned by ``load_commands``) changes nothing stored, as with a real
backend; the contract tests in ``tests/test_store_contract.py`` hold both to the same rules.
Nothing survives the process.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.server.store import (
    CommandRecord,
    ConflictError,
    RulesetRecord,
    Store,
    StoreError,
    TableRecord,
)
from referee.server.store_json import decode, encode


@dataclass(frozen=True, slots=True)
class _Command:
    kind: str
    payload: str
    at: float


class MemoryStore(Store):
    """Dictionaries behind the ``Store`` coroutines; every call completes at once."""

    def __init__(self) -> None:
        self._state = "new"
        self._tables: dict[str, tuple[str, float]] = {}
        self._commands: dict[str, dict[int, _Command]] = {}
        self._rulesets: dict[str, RulesetRecord] = {}

    async def open(self) -> None:
        if self._state != "new":
            raise StoreError(f"MemoryStore is already {self._state}")
        self._state = "open"

    async def close(self) -> None:
        # Idempotent, like file.close(): a ``finally`` may close a store already closed.
        self._state = "closed"

    async def create_table(self, table: TableRecord) -> None:
        self._check_open()
        config = encode(table.config, f"config of table {table.table_id!r}")
        if table.table_id in self._tables:
            raise ConflictError(f"table {table.table_id!r} already exists")
        self._tables[table.table_id] = (config, table.created_at)
        self._commands[table.table_id] = {}

    async def append(self, command: CommandRecord) -> None:
        self._check_open()
        payload = encode(
            command.payload, f"payload of command {command.number} of table {command.table_id!r}"
        )
        commands = self._commands.get(command.table_id)
        if commands is None:
            raise StoreError(
                f"command {command.number} for table {command.table_id!r}: no such table"
            )
        if command.number in commands:
            raise ConflictError(
                f"table {command.table_id!r} already has command number {command.number}"
            )
        commands[command.number] = _Command(command.kind, payload, command.at)

    async def load_tables(self) -> list[TableRecord]:
        self._check_open()
        # sorted() is stable: tables created at the same instant stay in creation order.
        ordered = sorted(self._tables.items(), key=lambda item: item[1][1])
        return [
            TableRecord(table_id=table_id, config=decode(config), created_at=created_at)
            for table_id, (config, created_at) in ordered
        ]

    async def load_commands(self, table_id: str, after: int = 0) -> list[CommandRecord]:
        self._check_open()
        commands = self._commands.get(table_id, {})
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
