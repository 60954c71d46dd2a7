"""Where the referee keeps what it accepted: a small interface, one class per backend.

The referee is event-sourced: a table is its creation record plus an append-only list of
the commands it accepted (a player joined, a hand was dealt with this seed, seat 2 played
the 7 of hearts, the clock ran out …), each with the table's next command number.  Replaying
them through the deterministic engine rebuilds the table exactly, events and clocks
included, so nothing else needs storing.  ``append`` returns only once the record is
durable; the referee acknowledges an action only after that.

A command number is unique per table: a second append of the same number is a
``ConflictError`` (several replicas racing for one table rely on it, see issue 5).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class StoreError(RuntimeError):
    """The store could not do what was asked (I/O, corruption, closed store)."""


class ConflictError(StoreError):
    """The command number (or ruleset id) is already taken."""


@dataclass(frozen=True, slots=True)
class TableRecord:
    table_id: str
    config: Mapping[str, Any]
    """JSON-serialisable table settings (ruleset id and hash, seats, clock, test deal…)."""
    created_at: float
    """Unix time, seconds."""


@dataclass(frozen=True, slots=True)
class CommandRecord:
    table_id: str
    number: int
    """1, 2, 3 … per table, without gaps."""
    kind: str
    payload: Mapping[str, Any]
    """JSON-serialisable."""
    at: float
    """Unix time, seconds, when the referee accepted it."""


@dataclass(frozen=True, slots=True)
class RulesetRecord:
    ruleset_id: str
    yaml: str
    registered_at: float


class Store(ABC):
    """The storage interface. All methods are coroutines; none blocks the event loop."""

    @abstractmethod
    async def open(self) -> None:
        """Create or migrate the schema and get ready."""

    @abstractmethod
    async def close(self) -> None:
        """Finish pending writes and release resources; later calls raise StoreError."""

    @abstractmethod
    async def create_table(self, table: TableRecord) -> None:
        """Store a new table, durably. ConflictError if the id exists."""

    @abstractmethod
    async def append(self, command: CommandRecord) -> None:
        """Store one command, durably, before returning. ConflictError if its number is
        taken for that table."""

    @abstractmethod
    async def load_tables(self) -> list[TableRecord]:
        """Every table, oldest first."""

    @abstractmethod
    async def load_commands(self, table_id: str, after: int = 0) -> list[CommandRecord]:
        """The table's commands with a number greater than ``after``, in order."""

    @abstractmethod
    async def put_ruleset(self, ruleset: RulesetRecord) -> None:
        """Store a registered ruleset, durably. ConflictError if the id exists."""

    @abstractmethod
    async def load_rulesets(self) -> list[RulesetRecord]:
        """Every registered ruleset, oldest first."""
