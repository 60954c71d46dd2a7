"""Where the referee keeps what it accepted: a small interface, one class per backend.

The referee is event-sourced: a table is its creation record plus an append-only list of
the commands it accepted (a player joined, a hand was dealt with this seed, seat 2 played
the 7 of hearts, the clock ran out …), each with the table's next command number.  Replaying
them through the deterministic engine rebuilds the table exactly, events and clocks
included, so nothing else needs storing.  ``append`` returns only once the record is
durable; the referee acknowledges an action only after that.

A command number is unique per table: a second append of the same number is a
``ConflictError``.  That one rule is what lets several referee replicas share one store
(PostgreSQL) without locks: two replicas racing for a table's next number cannot both win,
and the loser catches up with ``load_commands`` and checks its request again.

Three small additions serve replicas and are harmless to a store only one process uses:

* ``append`` records two hints about the table, kept on the table's row: its status after
  the command when the referee knows it (``open`` tables are what ``load_tables(status=)``
  lists), and ``wake_at``, the latest moment a referee should look at the table again (a turn
  clock).  ``due_tables`` finds tables whose wake-up has passed, so that a clock still fires
  when the replica that armed it died; ``clear_wake`` drops a wake-up that turned out idle.
* ``listen`` tells the referee about commands appended by anyone (another replica included),
  so that watchers connected anywhere get every event promptly.  A store that only one
  process writes (``shared`` is false) has nothing to tell.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
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


Listener = Callable[[str, int, "CommandRecord | None"], None]
"""Called (on the event loop) with a table id, a command number just committed, and the
command itself when the store could carry it along (else ``None``: load it).

``listener("", 0, None)`` is the resync signal: the store may have missed news (its
listening connection was lost and is back, or it began listening only after ``open``), so
the listener should catch up every table it holds from the store.  News can arrive more
than once and out of turn with a catch-up: a listener compares numbers with what it has."""


class Store(ABC):
    """The storage interface. All methods are coroutines; none blocks the event loop."""

    shared: bool = False
    """True when other processes (referee replicas) may write the same store."""

    @abstractmethod
    async def open(self) -> None:
        """Create or migrate the schema and get ready."""

    @abstractmethod
    async def close(self) -> None:
        """Finish pending writes and release resources; later calls raise StoreError."""

    @abstractmethod
    async def create_table(self, table: TableRecord) -> None:
        """Store a new table, durably, with status ``open``. ConflictError if the id exists."""

    @abstractmethod
    async def append(
        self,
        command: CommandRecord,
        *,
        table_status: str | None = None,
        wake_at: float | None = None,
    ) -> None:
        """Store one command, durably, before returning. ConflictError if its number is
        taken for that table.  In the same transaction the table's row takes
        ``table_status`` (unless None: unchanged) and ``wake_at`` (None: no wake-up)."""

    @abstractmethod
    async def load_tables(
        self, *, status: str | None = None, unfinished: bool = False
    ) -> list[TableRecord]:
        """Every table, oldest first; only those whose last recorded status is ``status``;
        with ``unfinished``, only those not recorded as ``finished`` (a table whose status
        was never recorded counts as unfinished), so that a referee starting up reads the
        games in play without the rows of every game ever finished."""

    @abstractmethod
    async def load_table(self, table_id: str) -> TableRecord | None:
        """One table, or None if there is no such table."""

    @abstractmethod
    async def due_tables(self, now: float, limit: int = 100) -> list[tuple[str, float]]:
        """Up to ``limit`` (table id, wake_at) pairs with ``wake_at <= now``, earliest first."""

    @abstractmethod
    async def clear_wake(self, table_id: str, wake_at: float) -> None:
        """Drop the table's wake-up if it is still ``wake_at`` (a later append set a new one,
        which stays)."""

    @abstractmethod
    async def finish_table(self, table_id: str) -> None:
        """Record that the table's session is over: status ``finished``, no wake-up.  A
        hint, written after the command that ended the session (which alone is the truth):
        finished tables are no longer listed or loaded with the tables in play.  No error
        for a table that does not exist."""

    def listen(self, listener: Listener) -> None:  # noqa: B027 - optional for a private store
        """Have ``listener`` called for every command committed from now on, by any process.

        A store that is not ``shared`` calls nothing: the referee sees its own commands."""

    @abstractmethod
    async def load_commands(self, table_id: str, after: int = 0) -> list[CommandRecord]:
        """The table's commands with a number greater than ``after``, in order."""

    @abstractmethod
    async def put_ruleset(self, ruleset: RulesetRecord) -> None:
        """Store a registered ruleset, durably. ConflictError if the id exists."""

    @abstractmethod
    async def load_rulesets(self) -> list[RulesetRecord]:
        """Every registered ruleset, oldest first."""
