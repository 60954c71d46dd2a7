"""The promises every store backend keeps, stated once and checked against each backend.

``StoreContract`` holds the tests; ``TestMemoryStore``, ``TestSharedMemoryStore``,
``TestSqliteStore`` and ``TestPostgresStore`` only say how to make a store.  The SQLite
class adds what only a file can show: reopening, the schema, a damaged file, group commit
inside one transaction, and a writer process killed with SIGKILL losing nothing it
acknowledged.  The PostgreSQL class adds what only a shared server can show: replicas
migrating at once, racing for a number, hearing each other's commands (LISTEN/NOTIFY),
schemas that stay apart, a lost listening connection, and an unreachable server.  Each
PostgreSQL test gets a schema of its own (the ``postgres_url`` fixture, ``conftest.py``).

Tests are plain functions that run their own event loop (``asyncio.run``), so no pytest
plugin is needed.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
from postgres_helpers import fresh_postgres_schema, schema_of

from referee.ops.drill import free_port
from referee.server.store import (
    CommandRecord,
    ConflictError,
    RulesetRecord,
    Store,
    StoreError,
    TableRecord,
)
from referee.server.store import postgres as store_postgres
from referee.server.store.memory import MemoryStore
from referee.server.store.opening import describe_store, open_store
from referee.server.store.postgres import PostgresStore, redact, with_schema
from referee.server.store.sqlite import MIGRATIONS, SqliteStore

WRITER_SCRIPT = Path(__file__).with_name("store_writer.py")

Body = Callable[[Any, Store], Awaitable[None]]


def scenario(body: Body) -> Callable[[Any, Store], None]:
    """An async test body, run against the opened ``store`` fixture, closed afterwards."""

    def test(self: Any, store: Store) -> None:
        async def run() -> None:
            await store.open()
            try:
                await body(self, store)
            finally:
                await store.close()

        asyncio.run(run())

    test.__name__ = body.__name__
    test.__qualname__ = body.__qualname__
    test.__doc__ = body.__doc__
    return test


def table(table_id: str, created_at: float = 1_700_000_000.0, **config: Any) -> TableRecord:
    return TableRecord(table_id, config or {"ruleset": "bhabho", "seats": 4}, created_at)


def command(table_id: str, number: int, kind: str = "play", **payload: Any) -> CommandRecord:
    return CommandRecord(table_id, number, kind, payload or {"seat": number % 4}, 1.7e9 + number)


def numbers(commands: list[CommandRecord]) -> list[int]:
    return [c.number for c in commands]


RICH: dict[str, Any] = {
    "nested": {"deeper": {"deepest": [1, 2, {"k": None}]}, "empty": {}},
    "list": [None, True, False, 0, -1, 2**62, 1.5, -0.25, 1e-300, "", [], [[]]],
    "none": None,
    "unicode": "Dame ♥ — Łódź, 数字, 🂡, \u0000 and \U0010ffff",
    "quotes and ; and \n newline": "'\"; DROP TABLE commands; --",
    "bool": True,
    "float": 0.1 + 0.2,
}


class StoreContract:
    """What the referee relies on, whatever the backend."""

    def new_store(self, tmp_path: Path) -> Store:
        raise NotImplementedError

    def check_batched(self, store: Store, appends: int) -> None:
        """A backend that groups commits proves it here; the others have nothing to show."""

    @pytest.fixture
    def store(self, tmp_path: Path) -> Store:
        return self.new_store(tmp_path)

    # --- tables, commands, rulesets -------------------------------------------------------

    @scenario
    async def test_a_new_store_is_empty(self, store: Store) -> None:
        assert await store.load_tables() == []
        assert await store.load_rulesets() == []
        assert await store.load_commands("nowhere") == []

    @scenario
    async def test_tables_come_back_equal_and_oldest_first(self, store: Store) -> None:
        tables = [table("b", 20.0), table("a", 10.0, seats=6), table("c", 30.0), table("d", 20.0)]
        for record in tables:
            await store.create_table(record)
        loaded = await store.load_tables()
        # Oldest first; "b" and "d" were created at the same instant: creation order.
        assert [t.table_id for t in loaded] == ["a", "b", "d", "c"]
        assert sorted(loaded, key=lambda t: t.table_id) == sorted(tables, key=lambda t: t.table_id)

    @scenario
    async def test_commands_come_back_in_number_order(self, store: Store) -> None:
        await store.create_table(table("t1"))
        await store.create_table(table("t2"))
        for number in (3, 1, 2, 5, 4):  # only uniqueness is the store's business
            await store.append(command("t1", number, card=f"{number}H"))
            await store.append(command("t2", number * 10))
        loaded = await store.load_commands("t1")
        assert loaded == [command("t1", n, card=f"{n}H") for n in (1, 2, 3, 4, 5)]
        assert numbers(await store.load_commands("t2")) == [10, 20, 30, 40, 50]

    @scenario
    async def test_after_skips_what_the_caller_has(self, store: Store) -> None:
        await store.create_table(table("t"))
        for number in range(1, 8):
            await store.append(command("t", number))
        assert numbers(await store.load_commands("t", after=0)) == [1, 2, 3, 4, 5, 6, 7]
        assert numbers(await store.load_commands("t", after=4)) == [5, 6, 7]
        assert await store.load_commands("t", after=7) == []
        assert await store.load_commands("t", after=100) == []

    @scenario
    async def test_gaps_are_the_callers_business(self, store: Store) -> None:
        await store.create_table(table("t"))
        await store.append(command("t", 1))
        await store.append(command("t", 3))
        assert numbers(await store.load_commands("t")) == [1, 3]

    @scenario
    async def test_rulesets_come_back_equal_and_oldest_first(self, store: Store) -> None:
        late = RulesetRecord("house-laad", "id: house-laad\nextends: laad\n", 200.0)
        early = RulesetRecord("bhabho", "id: bhabho\n# ♠ spades\n", 100.0)
        await store.put_ruleset(late)
        await store.put_ruleset(early)
        assert await store.load_rulesets() == [early, late]

    # --- conflicts and refusals -----------------------------------------------------------

    @scenario
    async def test_a_taken_command_number_is_a_conflict(self, store: Store) -> None:
        await store.create_table(table("t-7"))
        await store.create_table(table("t-8"))
        await store.append(command("t-7", 5, card="AS"))
        with pytest.raises(ConflictError) as raised:
            await store.append(command("t-7", 5, card="KS"))
        assert "'t-7'" in str(raised.value) and "5" in str(raised.value)
        await store.append(command("t-8", 5))  # per table: another table may use it
        assert await store.load_commands("t-7") == [command("t-7", 5, card="AS")]

    @scenario
    async def test_a_taken_table_id_is_a_conflict(self, store: Store) -> None:
        await store.create_table(table("t", seats=4))
        with pytest.raises(ConflictError, match="'t'"):
            await store.create_table(table("t", seats=6))
        assert await store.load_tables() == [table("t", seats=4)]

    @scenario
    async def test_a_taken_ruleset_id_is_a_conflict(self, store: Store) -> None:
        await store.put_ruleset(RulesetRecord("mine", "first", 1.0))
        with pytest.raises(ConflictError, match="'mine'"):
            await store.put_ruleset(RulesetRecord("mine", "second", 2.0))
        assert await store.load_rulesets() == [RulesetRecord("mine", "first", 1.0)]

    @scenario
    async def test_a_command_for_an_unknown_table_is_refused(self, store: Store) -> None:
        with pytest.raises(StoreError, match="'ghost'") as raised:
            await store.append(command("ghost", 1))
        assert not isinstance(raised.value, ConflictError)
        assert await store.load_commands("ghost") == []

    @scenario
    async def test_racing_appends_of_one_number_have_one_winner(self, store: Store) -> None:
        """Replicas racing for a table (issue 5) rely on exactly this."""
        await store.create_table(table("t"))
        results = await asyncio.gather(
            *(store.append(command("t", 1, racer=k)) for k in range(20)), return_exceptions=True
        )
        winners = [k for k, result in enumerate(results) if result is None]
        assert len(winners) == 1
        assert all(isinstance(r, ConflictError) for r in results if r is not None)
        assert await store.load_commands("t") == [command("t", 1, racer=winners[0])]

    # --- what goes in comes out -----------------------------------------------------------

    @scenario
    async def test_json_values_round_trip(self, store: Store) -> None:
        await store.create_table(TableRecord("t", RICH, 1.5))
        await store.append(CommandRecord("t", 1, "deal ♦", RICH, 2.25))
        [loaded_table] = await store.load_tables()
        [loaded_command] = await store.load_commands("t")
        assert loaded_table == TableRecord("t", RICH, 1.5)
        assert loaded_command == CommandRecord("t", 1, "deal ♦", RICH, 2.25)
        assert list(loaded_command.payload) == list(RICH)  # key order kept
        assert type(loaded_command.payload["list"][6]) is float
        assert type(loaded_command.payload["list"][5]) is int

    @scenario
    async def test_json_normalises_as_it_would_after_a_restart(self, store: Store) -> None:
        await store.create_table(table("t"))
        await store.append(command("t", 1, cards=("AS", "KS")))
        [loaded] = await store.load_commands("t")
        assert loaded.payload == {"cards": ["AS", "KS"]}

    @scenario
    async def test_values_json_cannot_hold_are_refused(self, store: Store) -> None:
        await store.create_table(table("t"))
        for bad in ({"x": object()}, {"x": float("nan")}, {"x": {1, 2}}):
            with pytest.raises(StoreError, match="JSON"):
                await store.append(CommandRecord("t", 1, "play", bad, 0.0))
        with pytest.raises(StoreError, match="JSON"):
            await store.create_table(TableRecord("u", {"inf": float("inf")}, 0.0))
        await store.append(command("t", 1))  # nothing half-stored: number 1 is still free
        assert [t.table_id for t in await store.load_tables()] == ["t"]

    @scenario
    async def test_stored_mappings_are_copies(self, store: Store) -> None:
        config: dict[str, Any] = {"seats": 4, "clock": {"turn": 30}}
        payload: dict[str, Any] = {"cards": ["AS"]}
        await store.create_table(TableRecord("t", config, 0.0))
        await store.append(CommandRecord("t", 1, "deal", payload, 0.0))
        config["clock"]["turn"] = 1
        payload["cards"].append("KS")
        [loaded_table] = await store.load_tables()
        [loaded_command] = await store.load_commands("t")
        assert loaded_table.config == {"seats": 4, "clock": {"turn": 30}}
        assert loaded_command.payload == {"cards": ["AS"]}
        loaded_table.config["clock"]["turn"] = 2
        loaded_command.payload["cards"].append("QS")
        assert (await store.load_tables())[0].config == {"seats": 4, "clock": {"turn": 30}}
        assert (await store.load_commands("t"))[0].payload == {"cards": ["AS"]}

    # --- many writers -----------------------------------------------------------------------

    @scenario
    async def test_many_concurrent_appends_all_land(self, store: Store) -> None:
        tables, per_table, tasks_per_table = 40, 24, 4
        for k in range(tables):
            await store.create_table(table(f"t{k}"))

        async def writer(table_id: str, lane: int) -> None:
            for number in range(1 + lane, per_table + 1, tasks_per_table):
                await store.append(command(table_id, number, lane=lane))

        await asyncio.gather(
            *(writer(f"t{k}", lane) for k in range(tables) for lane in range(tasks_per_table))
        )
        for k in range(tables):
            loaded = await store.load_commands(f"t{k}")
            assert numbers(loaded) == list(range(1, per_table + 1))
            assert [c.payload["lane"] for c in loaded] == [
                (n - 1) % tasks_per_table for n in range(1, per_table + 1)
            ]
        self.check_batched(store, tables * per_table)

    # --- hints for replicas: status, wake-ups, one table ----------------------------------

    @scenario
    async def test_load_table_finds_one_table_or_none(self, store: Store) -> None:
        await store.create_table(table("t", 5.0, seats=6))
        await store.create_table(table("u"))
        assert await store.load_table("t") == table("t", 5.0, seats=6)
        assert await store.load_table("ghost") is None
        assert await store.load_table("") is None

    @scenario
    async def test_status_is_what_the_last_append_that_knew_it_said(self, store: Store) -> None:
        for table_id, created_at in (("a", 1.0), ("b", 2.0), ("c", 3.0), ("d", 4.0)):
            await store.create_table(table(table_id, created_at))
        opened = await store.load_tables(status="open")
        assert [t.table_id for t in opened] == ["a", "b", "c", "d"]  # a new table is open
        assert opened[0] == table("a", 1.0)
        await store.append(command("b", 1), table_status="open")
        await store.append(command("c", 1), table_status="over")
        await store.append(command("a", 1))  # None: unchanged
        assert [t.table_id for t in await store.load_tables(status="open")] == ["a", "b", "d"]
        await store.append(command("a", 2), table_status="over")
        await store.append(command("b", 2))
        assert [t.table_id for t in await store.load_tables(status="open")] == ["b", "d"]
        assert await store.load_tables(status="over") == [table("a", 1.0), table("c", 3.0)]
        await store.append(command("c", 2), table_status="open")  # whatever it says, it is
        assert [t.table_id for t in await store.load_tables(status="open")] == ["b", "c", "d"]
        assert await store.load_tables(status="nothing") == []
        assert [t.table_id for t in await store.load_tables()] == ["a", "b", "c", "d"]

    @scenario
    async def test_each_append_sets_replaces_or_clears_the_wake_up(self, store: Store) -> None:
        await store.create_table(table("t"))
        await store.append(command("t", 1), wake_at=100.0)
        assert await store.due_tables(100.0) == [("t", 100.0)]  # due at the instant itself
        assert await store.due_tables(99.5) == []
        await store.append(command("t", 2), wake_at=50.25)  # replaced, even by an earlier one
        assert await store.due_tables(1e12) == [("t", 50.25)]
        await store.append(command("t", 3), table_status="open")  # None: no wake-up
        assert await store.due_tables(1e12) == []
        assert [t.table_id for t in await store.load_tables(status="open")] == ["t"]

    @scenario
    async def test_due_tables_come_earliest_first_and_limited(self, store: Store) -> None:
        wakes = {"b": 10.0, "a": 10.0, "c": 5.0, "d": 20.0, "B": 10.0, "e": None}
        for table_id, wake_at in wakes.items():
            await store.create_table(table(table_id))
            await store.append(command(table_id, 1), wake_at=wake_at)
        # Ties by table id, compared as strings (code points): "B" < "a" < "b".
        assert await store.due_tables(15.0) == [("c", 5.0), ("B", 10.0), ("a", 10.0), ("b", 10.0)]
        assert await store.due_tables(15.0, limit=2) == [("c", 5.0), ("B", 10.0)]
        assert await store.due_tables(4.99) == []
        assert len(await store.due_tables(1e12)) == 5

    @scenario
    async def test_clear_wake_drops_only_the_wake_up_it_names(self, store: Store) -> None:
        await store.create_table(table("t"))
        await store.append(command("t", 1), wake_at=10.0)
        await store.clear_wake("t", 9.0)  # not the table's wake-up: nothing happens
        assert await store.due_tables(10.0) == [("t", 10.0)]
        await store.clear_wake("t", 10.0)
        assert await store.due_tables(1e12) == []
        await store.append(command("t", 2), wake_at=20.0)
        await store.clear_wake("t", 10.0)  # stale: a later append set a new one, which stays
        assert await store.due_tables(1e12) == [("t", 20.0)]
        await store.clear_wake("ghost", 1.0)  # no such table: nothing to clear, no error

    @scenario
    async def test_a_finished_table_leaves_the_tables_in_play_and_its_wake_up(
        self, store: Store
    ) -> None:
        await store.create_table(table("t"))
        await store.create_table(table("u"))
        await store.append(command("t", 1), table_status="playing", wake_at=10.0)
        await store.append(command("u", 1), table_status="playing")
        await store.finish_table("t")
        assert [t.table_id for t in await store.load_tables(status="playing")] == ["u"]
        assert [t.table_id for t in await store.load_tables(status="finished")] == ["t"]
        assert await store.due_tables(1e12) == []
        assert [t.table_id for t in await store.load_tables()] == ["t", "u"]
        await store.create_table(table("v"))  # open
        assert [t.table_id for t in await store.load_tables(unfinished=True)] == ["u", "v"]
        assert await store.load_tables(status="playing", unfinished=True) == [table("u")]
        assert await store.load_tables(status="finished", unfinished=True) == []
        assert [c.number for c in await store.load_commands("t")] == [1]  # the truth stays
        await store.finish_table("t")  # again: harmless
        await store.finish_table("ghost")  # no such table: nothing to record, no error

    @scenario
    async def test_a_refused_append_changes_no_hint(self, store: Store) -> None:
        await store.create_table(table("t"))
        await store.append(command("t", 1), table_status="open", wake_at=10.0)
        with pytest.raises(ConflictError):
            await store.append(command("t", 1), table_status="over", wake_at=99.0)
        with pytest.raises(StoreError):
            await store.append(command("ghost", 1), table_status="over", wake_at=99.0)
        assert [t.table_id for t in await store.load_tables(status="open")] == ["t"]
        assert await store.due_tables(1e12) == [("t", 10.0)]

    def test_listeners_hear_of_every_command_when_shared(self, store: Store) -> None:
        """Registered before ``open``, a listener misses nothing; a private store (only this
        process writes it) has nothing to tell."""
        heard: list[tuple[str, int, CommandRecord | None]] = []

        def listener(table_id: str, number: int, record: CommandRecord | None) -> None:
            asyncio.get_running_loop()  # called on the event loop, or this raises
            heard.append((table_id, number, record))

        async def run() -> None:
            store.listen(listener)
            await store.open()
            try:
                await store.create_table(table("t"))
                sent = [command("t", n, cards=["AS"] * n) for n in (1, 2, 3)]
                for record in sent:
                    await store.append(record, table_status="open")
                if not store.shared:
                    await asyncio.sleep(0.05)
                    assert heard == []
                    return
                news = await _news(heard, 3)
                assert [(t, n) for t, n, _ in news] == [("t", 1), ("t", 2), ("t", 3)]
                for (_, _, carried), expected in zip(news, sent, strict=True):
                    assert carried is None or carried == expected
            finally:
                await store.close()

        asyncio.run(run())

    # --- closing ----------------------------------------------------------------------------

    def test_close_lets_queued_writes_finish(self, store: Store) -> None:
        async def run() -> None:
            await store.open()
            await store.create_table(table("t"))
            pending = [asyncio.create_task(store.append(command("t", n))) for n in range(1, 51)]
            await asyncio.sleep(0)  # every task has handed its write over
            await store.close()
            assert await asyncio.gather(*pending) == [None] * 50

        asyncio.run(run())

    def test_every_call_after_close_is_a_store_error(self, store: Store) -> None:
        async def run() -> None:
            await store.open()
            await store.create_table(table("t"))
            await store.close()
            await store.close()  # closing twice is harmless
            calls: list[Callable[[], Awaitable[object]]] = [
                store.open,
                lambda: store.create_table(table("u")),
                lambda: store.append(command("t", 1)),
                lambda: store.put_ruleset(RulesetRecord("r", "", 0.0)),
                lambda: store.clear_wake("t", 1.0),
                lambda: store.finish_table("t"),
                store.load_tables,
                lambda: store.load_table("t"),
                lambda: store.due_tables(1e12),
                lambda: store.load_commands("t"),
                store.load_rulesets,
            ]
            for call in calls:
                with pytest.raises(StoreError):
                    await call()

        asyncio.run(run())

    def test_calls_before_open_are_a_store_error(self, store: Store) -> None:
        async def run() -> None:
            with pytest.raises(StoreError):
                await store.load_tables()
            with pytest.raises(StoreError):
                await store.create_table(table("t"))
            await store.close()  # closing a store never opened is harmless too

        asyncio.run(run())


class TestMemoryStore(StoreContract):
    def new_store(self, tmp_path: Path) -> Store:
        return MemoryStore()


class TestSharedMemoryStore(StoreContract):
    """The stand-in for PostgreSQL in fast tests of replicas keeps the same promises."""

    def new_store(self, tmp_path: Path) -> Store:
        return MemoryStore(shared=True)


class TestSqliteStore(StoreContract):
    def new_store(self, tmp_path: Path) -> Store:
        return SqliteStore(tmp_path / "store" / "referee.db")

    def check_batched(self, store: Store, appends: int) -> None:
        assert isinstance(store, SqliteStore)
        assert store.commits < appends, (store.commits, appends)

    def test_hints_stay_true_when_the_row_is_left_alone(self, tmp_path: Path) -> None:
        """The store skips the row's UPDATE when the hints would not change; across a
        reopen (which forgets what was written) and other writes to the row, they must
        still be what the last append said."""
        path = tmp_path / "referee.db"

        async def first() -> None:
            store = SqliteStore(path)
            await store.open()
            await store.create_table(table("t"))
            await store.append(command("t", 1), table_status="open")  # as created: skipped
            await store.append(command("t", 2), table_status="playing", wake_at=5.0)
            await store.close()

        async def second() -> None:
            store = SqliteStore(path)
            await store.open()
            try:
                await store.append(command("t", 3), wake_at=5.0)  # unknown to this store
                assert await store.due_tables(10.0) == [("t", 5.0)]
                await store.append(command("t", 4), wake_at=5.0)  # the same: skipped
                await store.clear_wake("t", 5.0)
                await store.append(command("t", 5), wake_at=5.0)  # after another write
                assert await store.due_tables(10.0) == [("t", 5.0)]
                await store.append(command("t", 6))
                assert await store.due_tables(1e12) == []
                with pytest.raises(ConflictError):
                    await store.append(command("t", 6), wake_at=7.0)
                await store.append(command("t", 7))  # after a refusal: still none
                assert await store.due_tables(1e12) == []
                assert [r.table_id for r in await store.load_tables(status="playing")] == ["t"]
            finally:
                await store.close()

        asyncio.run(first())
        asyncio.run(second())

    @pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="Linux scheduling policy")
    def test_the_stores_threads_give_way_to_the_loop(self, tmp_path: Path) -> None:
        """The writer and the reader run as SCHED_BATCH, so that handing them work does
        not preempt the event loop; the loop's own thread is left as it was."""

        async def run() -> dict[str, int]:
            store = SqliteStore(tmp_path / "referee.db")
            await store.open()
            try:
                await store.load_tables()  # the reader thread exists once it has read
                return {
                    thread.name.split(":")[0]: os.sched_getscheduler(thread.native_id or 0)
                    for thread in threading.enumerate()
                    if thread.name.startswith("store-")
                }
            finally:
                await store.close()

        policies = asyncio.run(run())
        assert policies == {"store-writer": os.SCHED_BATCH, "store-reader": os.SCHED_BATCH}
        assert os.sched_getscheduler(0) == os.SCHED_OTHER

    def test_a_row_without_a_status_counts_as_unfinished(self, tmp_path: Path) -> None:
        """Rows written before the status column existed (schema version 1) hold NULL:
        a referee starting up must still replay them."""
        path = tmp_path / "referee.db"

        async def run() -> list[str]:
            store = SqliteStore(path)
            await store.open()
            try:
                await store.create_table(table("old"))
                await store.create_table(table("done"))
                await store.finish_table("done")
                with sqlite3.connect(path) as connection:
                    connection.execute("UPDATE tables SET status = NULL WHERE table_id = 'old'")
                return [t.table_id for t in await store.load_tables(unfinished=True)]
            finally:
                await store.close()

        assert asyncio.run(run()) == ["old"]

    def test_reopening_sees_everything(self, tmp_path: Path) -> None:
        path = tmp_path / "a" / "b" / "referee.db"  # parent folders created on open

        async def write() -> None:
            store = SqliteStore(path)
            await store.open()
            await store.create_table(TableRecord("t", RICH, 1.0))
            await store.put_ruleset(RulesetRecord("r", "id: r\n", 2.0))
            await asyncio.gather(*(store.append(command("t", n)) for n in range(1, 101)))
            await store.close()

        async def read() -> tuple[list[TableRecord], list[CommandRecord], list[RulesetRecord]]:
            store = SqliteStore(path)
            await store.open()
            try:
                return (
                    await store.load_tables(),
                    await store.load_commands("t"),
                    await store.load_rulesets(),
                )
            finally:
                await store.close()

        asyncio.run(write())
        tables, commands, rulesets = asyncio.run(read())
        assert tables == [TableRecord("t", RICH, 1.0)]
        assert commands == [command("t", n) for n in range(1, 101)]
        assert rulesets == [RulesetRecord("r", "id: r\n", 2.0)]
        assert asyncio.run(read()) == (tables, commands, rulesets)  # a third open migrates nothing

    def test_the_schema_is_versioned_and_durable(self, tmp_path: Path) -> None:
        path = tmp_path / "referee.db"
        asyncio.run(_open_and_close(SqliteStore(path)))
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
            versions = [v for (v,) in db.execute("SELECT version FROM schema_version")]
            assert versions == list(range(1, len(MIGRATIONS) + 1))
            names = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            assert {"tables", "commands", "rulesets", "schema_version"} <= names
            [foreign_key] = db.execute("PRAGMA foreign_key_list(commands)").fetchall()
            assert foreign_key[2:5] == ("tables", "table_id", "table_id")
        db.close()

    def test_a_schema_newer_than_the_code_is_refused(self, tmp_path: Path) -> None:
        path = tmp_path / "referee.db"
        asyncio.run(_open_and_close(SqliteStore(path)))
        with sqlite3.connect(path) as db:
            db.execute("INSERT INTO schema_version VALUES (999, 0)")
        db.close()
        with pytest.raises(StoreError, match="999") as raised:
            asyncio.run(_open_and_close(SqliteStore(path)))
        assert str(path) in str(raised.value)

    @pytest.mark.parametrize("damage", ["garbage", "directory", "damaged pages", "not ours"])
    def test_an_unusable_file_is_a_store_error_naming_it(self, tmp_path: Path, damage: str) -> None:
        path = tmp_path / "referee.db"
        if damage == "garbage":
            path.write_bytes(b"this is not a database\n" * 400)
        elif damage == "directory":
            path.mkdir()
        elif damage == "damaged pages":
            asyncio.run(_fill(SqliteStore(path), commands=400))
            data = bytearray(path.read_bytes())
            assert len(data) > 8 * 4096
            data[4096:] = b"\xa5" * (len(data) - 4096)  # everything after the first page
            path.write_bytes(bytes(data))
        else:
            with sqlite3.connect(path) as db:
                db.execute("CREATE TABLE tables (x)")
            db.close()

        async def use() -> None:
            store = SqliteStore(path)
            await store.open()
            try:
                for record in await store.load_tables():
                    await store.load_commands(record.table_id)
            finally:
                await store.close()

        with pytest.raises(StoreError) as raised:
            asyncio.run(use())
        assert str(path) in str(raised.value)

    def test_one_conflict_does_not_fail_its_batch(self, tmp_path: Path) -> None:
        """Hold the file's write lock from outside so that the writer is stuck on its first
        request while the others queue up: they must then share one transaction."""
        path = tmp_path / "referee.db"

        async def run() -> None:
            store = SqliteStore(path)
            await store.open()
            await store.create_table(table("t"))
            await store.create_table(table("u"))
            await store.append(command("t", 1))
            blocker = sqlite3.connect(path, isolation_level=None)
            blocker.execute("BEGIN IMMEDIATE")
            before = store.commits
            first = asyncio.create_task(store.append(command("t", 2)))
            await asyncio.sleep(0.1)  # the writer has taken it and waits for the lock
            # Reads go on meanwhile (WAL, their own connection): the loop is not blocked.
            assert len(await asyncio.wait_for(store.load_commands("t"), 2.0)) == 1
            rest = [
                store.append(command("t", 1, late=True)),  # conflict
                store.append(command("t", 3)),
                store.append(command("u", 1)),
                store.append(command("t", 3, late=True)),  # conflict with its own batch
                store.append(command("u", 2)),
            ]
            tasks = [asyncio.create_task(c) for c in rest]
            await asyncio.sleep(0.05)
            blocker.execute("ROLLBACK")
            blocker.close()
            results = await asyncio.gather(first, *tasks, return_exceptions=True)
            ok, conflict = "stored", "ConflictError"
            kinds = [ok if r is None else type(r).__name__ for r in results]
            assert kinds == [ok, conflict, ok, ok, conflict, ok]
            assert store.commits - before <= 2  # the five queued ones shared one transaction
            assert numbers(await store.load_commands("t")) == [1, 2, 3]
            assert (await store.load_commands("t"))[2].payload == command("t", 3).payload
            assert numbers(await store.load_commands("u")) == [1, 2]
            await store.close()

        asyncio.run(run())

    def test_acknowledged_appends_survive_sigkill(self, tmp_path: Path) -> None:
        path = tmp_path / "referee.db"
        writer = subprocess.Popen(
            [sys.executable, str(WRITER_SCRIPT), str(path), "16"],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert writer.stdout is not None
        try:
            assert writer.stdout.readline() == "ready\n"
            acknowledged = [writer.stdout.readline() for _ in range(1500)]
        finally:
            writer.send_signal(signal.SIGKILL)
            rest, _ = writer.communicate(timeout=10)
        assert writer.returncode == -signal.SIGKILL
        lines = acknowledged + rest.splitlines(keepends=True)
        printed: dict[str, set[int]] = {}
        for line in lines:
            if line.endswith("\n"):  # a line cut by the kill promised nothing yet
                table_id, number = line.split()
                printed.setdefault(table_id, set()).add(int(number))
        assert sum(map(len, printed.values())) >= 1500

        async def stored() -> dict[str, list[int]]:
            store = SqliteStore(path)
            await store.open()
            try:
                return {
                    t.table_id: numbers(await store.load_commands(t.table_id))
                    for t in await store.load_tables()
                }
            finally:
                await store.close()

        on_disk = asyncio.run(stored())
        for table_id, acked in printed.items():
            assert acked <= set(on_disk[table_id]), table_id
            # Each table's writer appends in order, so what is stored is 1..n, no holes.
            assert on_disk[table_id] == list(range(1, len(on_disk[table_id]) + 1))


async def _open_and_close(store: Store) -> None:
    await store.open()
    await store.close()


async def _fill(store: Store, commands: int) -> None:
    await store.open()
    await store.create_table(table("t"))
    await asyncio.gather(
        *(store.append(command("t", n, filler="x" * 200)) for n in range(1, commands + 1))
    )
    await store.close()


News = list[tuple[str, int, CommandRecord | None]]


async def _news(heard: News, count: int, timeout: float = 10.0) -> News:
    """The first ``count`` pieces of news about commands (resync signals left out), once
    they have arrived."""
    deadline = time.monotonic() + timeout
    while True:
        news = [item for item in heard if item[0]]
        if len(news) >= count or time.monotonic() > deadline:
            assert len(news) >= count, f"heard only {news} in {timeout} s"
            return news[:count]
        await asyncio.sleep(0.01)


async def _resync(heard: News, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while ("", 0, None) not in heard:
        assert time.monotonic() < deadline, f"no resync signal in {timeout} s: {heard}"
        await asyncio.sleep(0.01)


class TestPostgresStore(StoreContract):
    """Each test gets a schema of its own (``postgres_url``) and a small pool, so that two
    xdist workers and other suites stay far below the server's connection limit."""

    @pytest.fixture
    def store(self, postgres_url: str) -> Store:
        return PostgresStore(postgres_url, pool_size=4)

    # --- the schema -------------------------------------------------------------------------

    def test_replicas_starting_at_once_migrate_once(self, postgres_url: str) -> None:
        assert len(store_postgres.MIGRATIONS) == len(MIGRATIONS)  # versions mean the same

        async def start(replicas: int, number: int) -> None:
            stores = [PostgresStore(postgres_url, pool_size=1) for _ in range(replicas)]
            await asyncio.gather(*(s.open() for s in stores))
            if number == 1:
                await stores[0].create_table(table("t"))
            await stores[-1].append(command("t", number), table_status="open", wake_at=1.0)
            await asyncio.gather(*(s.close() for s in stores))

        asyncio.run(start(4, 1))
        schema = schema_of(postgres_url)
        with psycopg.connect(postgres_url) as db:
            applied = db.execute("SELECT version, applied_at FROM schema_version").fetchall()
            assert [version for version, _ in applied] == [1, 2]
            names = db.execute(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
                (schema,),
            ).fetchall()
            assert {n for (n,) in names} == {"tables", "commands", "rulesets", "schema_version"}
        asyncio.run(start(2, 2))  # opening again migrates nothing and keeps everything
        with psycopg.connect(postgres_url) as db:
            again = db.execute("SELECT version, applied_at FROM schema_version").fetchall()
            assert again == applied
            assert db.execute("SELECT count(*) FROM commands").fetchone() == (2,)

    def test_a_schema_newer_than_the_code_is_refused(self, postgres_url: str) -> None:
        asyncio.run(_open_and_close(PostgresStore(postgres_url)))
        with psycopg.connect(postgres_url) as db:
            db.execute("INSERT INTO schema_version VALUES (999, 0)")
        with pytest.raises(StoreError, match=r"999.*upgrade the referee") as raised:
            asyncio.run(_open_and_close(PostgresStore(postgres_url)))
        assert schema_of(postgres_url) in str(raised.value)

    def test_a_missing_schema_is_a_clear_store_error(self, postgres_url: str) -> None:
        url = with_schema(postgres_url.split("?")[0], "bhabhi_no_such_schema")
        with pytest.raises(StoreError, match="no schema of the search_path"):
            asyncio.run(_open_and_close(PostgresStore(url)))

    def test_an_unreachable_server_is_a_store_error_naming_it(self) -> None:
        port = free_port()  # nobody listens there: connecting is refused
        store = PostgresStore(f"postgresql://referee:s3cret-pw@127.0.0.1:{port}/test")
        with pytest.raises(StoreError) as raised:
            asyncio.run(_open_and_close(store))
        message = str(raised.value)
        assert type(raised.value) is StoreError
        assert f"127.0.0.1:{port}/test" in message and "PostgreSQL" in message
        assert "refused" in message.lower()
        assert "s3cret-pw" not in message

    def test_driver_errors_are_store_errors(self, postgres_url: str) -> None:
        async def run() -> None:
            store = PostgresStore(postgres_url, pool_size=1)
            await store.open()
            try:
                await store.create_table(table("t"))
                bad = [
                    command("t", 2**70),  # no bigint holds it
                    CommandRecord("t", 1, "nul\x00kind", {}, 0.0),  # text holds no NUL
                    CommandRecord("t", 1, "play", {"lone": "\ud800"}, 0.0),  # not UTF-8
                ]
                for record in bad:
                    with pytest.raises(StoreError) as raised:
                        await store.append(record)
                    assert not isinstance(raised.value, ConflictError)
                    assert "PostgreSQL store 127.0.0.1" in str(raised.value) or "JSON" in str(
                        raised.value
                    )
                with pytest.raises(StoreError):
                    await store.create_table(table("nul\x00id"))
                await store.append(command("t", 1))  # the pool's connections still work
                assert numbers(await store.load_commands("t")) == [1]
            finally:
                await store.close()

        asyncio.run(run())

    # --- several replicas -------------------------------------------------------------------

    def test_200_concurrent_appends_to_50_tables_all_land(self, postgres_url: str) -> None:
        async def run() -> None:
            store = PostgresStore(postgres_url)
            await store.open()
            try:
                ids = [f"t{k}" for k in range(50)]
                await asyncio.gather(*(store.create_table(table(i)) for i in ids))
                await asyncio.gather(
                    *(
                        store.append(command(i, n), table_status="open", wake_at=float(n))
                        for n in (1, 2, 3, 4)
                        for i in ids
                    )
                )
                for i in ids:
                    assert await store.load_commands(i) == [command(i, n) for n in (1, 2, 3, 4)]
                assert len(await store.load_tables(status="open")) == 50
            finally:
                await store.close()

        asyncio.run(run())

    def test_two_replicas_racing_for_a_number_have_one_winner(self, postgres_url: str) -> None:
        async def run() -> None:
            one, two = PostgresStore(postgres_url), PostgresStore(postgres_url)
            await asyncio.gather(one.open(), two.open())
            try:
                ids = [f"t{k}" for k in range(20)]
                for i in ids:
                    await one.create_table(table(i))
                results = await asyncio.gather(
                    *(
                        s.append(command(i, 1, by=name))
                        for i in ids
                        for name, s in (("one", one), ("two", two))
                    ),
                    return_exceptions=True,
                )
                for k, i in enumerate(ids):
                    pair = results[2 * k : 2 * k + 2]
                    assert sorted(type(r).__name__ for r in pair) == ["ConflictError", "NoneType"]
                    winner = "one" if pair[0] is None else "two"
                    assert await two.load_commands(i) == [command(i, 1, by=winner)]
            finally:
                await asyncio.gather(one.close(), two.close())

        asyncio.run(run())

    def test_listeners_hear_what_another_replica_appends(self, postgres_url: str) -> None:
        big = {"filler": "♠" * 3000}  # 9000 bytes of UTF-8: too big to ride along

        async def run() -> None:
            heard: News = []
            listening, writing = PostgresStore(postgres_url), PostgresStore(postgres_url)
            listening.listen(lambda *news: heard.append(news))
            await asyncio.gather(listening.open(), writing.open())
            try:
                await writing.create_table(TableRecord("t", RICH, 1.0))
                sent = [
                    command("t", 1, card="7H"),
                    CommandRecord("t", 2, "deal ♦", RICH, 2.5),
                    command("t", 3, **big),
                    command("t", 4, card="AS"),
                ]
                for record in sent:
                    await writing.append(record)
                news = await _news(heard, 4)
                assert news == [
                    ("t", 1, sent[0]),
                    ("t", 2, sent[1]),
                    ("t", 3, None),  # too big: load it
                    ("t", 4, sent[3]),
                ]
                assert ("", 0, None) not in heard  # listening since open: nothing missed
                carried = news[1][2]
                assert carried is not None and list(carried.payload) == list(RICH)
                assert await listening.load_commands("t", after=2) == sent[2:]
            finally:
                await asyncio.gather(listening.close(), writing.close())

        asyncio.run(run())

    def test_notifications_stay_in_their_schema(self, postgres_url: str) -> None:
        async def run(other_url: str) -> None:
            heard: News = []
            here, there = PostgresStore(postgres_url), PostgresStore(other_url)
            here.listen(lambda *news: heard.append(news))
            await asyncio.gather(here.open(), there.open())
            try:
                for s in (here, there):
                    await s.create_table(table("t"))
                await there.append(command("t", 1, schema="there"))
                await there.append(command("t", 2, schema="there"))
                await here.append(command("t", 1, schema="here"))
                # Committed after "there"'s: heard in commit order if the channel were shared.
                assert await _news(heard, 1) == [("t", 1, command("t", 1, schema="here"))]
                await asyncio.sleep(0.1)
                assert [news for news in heard if news[0]] == await _news(heard, 1)
            finally:
                await asyncio.gather(here.close(), there.close())

        with fresh_postgres_schema() as other_url:
            asyncio.run(run(other_url))

    def test_a_lost_listening_connection_comes_back_with_a_resync(self, postgres_url: str) -> None:
        async def run() -> None:
            heard: News = []
            listening = PostgresStore(postgres_url, reconnect_delay=(0.05, 0.5))
            writing = PostgresStore(postgres_url, pool_size=1)
            listening.listen(lambda *news: heard.append(news))
            await asyncio.gather(listening.open(), writing.open())
            try:
                await writing.create_table(table("t"))
                await writing.append(command("t", 1))
                await _news(heard, 1)
                first = listening._listen_pid
                with psycopg.connect(postgres_url, autocommit=True) as admin:
                    admin.execute("SELECT pg_terminate_backend(%s)", (first,))
                await _resync(heard)
                assert listening._listen_pid != first
                await writing.append(command("t", 2))
                assert (await _news(heard, 2))[1] == ("t", 2, command("t", 2))
            finally:
                await asyncio.gather(listening.close(), writing.close())

        asyncio.run(run())

    def test_news_the_store_cannot_read_is_a_resync(self, postgres_url: str) -> None:
        long_id = "t" * 9000  # even its table id and number do not fit a notification

        async def run() -> None:
            heard: News = []
            store = PostgresStore(postgres_url, pool_size=2)
            store.listen(lambda *news: heard.append(news))
            await store.open()
            try:
                await store.create_table(table(long_id))
                await store.append(command(long_id, 1))
                await _resync(heard)
                heard.clear()
                with psycopg.connect(postgres_url, autocommit=True) as other:
                    channel = store_postgres.channel_name(schema_of(postgres_url))
                    other.execute("SELECT pg_notify(%s, 'not ours')", (channel,))
                await _resync(heard)
                assert heard == [("", 0, None)]
                assert numbers(await store.load_commands(long_id)) == [1]
            finally:
                await store.close()

        asyncio.run(run())

    def test_listening_after_open_starts_with_a_resync(self, postgres_url: str) -> None:
        async def run() -> None:
            heard: News = []
            store = PostgresStore(postgres_url, pool_size=2)
            await store.open()
            try:
                await store.create_table(table("t"))
                await store.append(command("t", 1))  # before anyone listened
                store.listen(lambda *news: heard.append(news))
                await _resync(heard)  # so: catch up from the store
                await store.append(command("t", 2))
                assert await _news(heard, 1) == [("t", 2, command("t", 2))]
            finally:
                await store.close()
            with pytest.raises(StoreError):
                store.listen(lambda *news: None)

        asyncio.run(run())


# --- choosing a store -------------------------------------------------------------------------


def test_open_store_picks_the_backend_from_the_db_value(tmp_path: Path) -> None:
    for url in ("postgresql://u@h/db", "postgres://u:pw@h:5433/db", "postgresql:///db"):
        assert isinstance(open_store(url), PostgresStore), url
    assert isinstance(open_store(tmp_path / "x.db"), SqliteStore)
    assert isinstance(open_store(str(tmp_path / "x.db")), SqliteStore)
    default = open_store(None)
    assert isinstance(default, SqliteStore)
    assert default.path == Path("var") / "referee.sqlite3"


def test_urls_are_shown_without_their_password() -> None:
    assert describe_store("postgresql://ref:hunter22@db:5432/bhabhi?sslmode=require") == (
        "postgresql://ref:***@db:5432/bhabhi?sslmode=require"
    )
    assert redact("postgres://db/x?user=ref&password=hunter22") == (
        "postgres://db/x?user=ref&password=***"
    )
    assert redact("postgresql://ref@db/x") == "postgresql://ref@db/x"
    assert describe_store("var/referee.sqlite3") == "var/referee.sqlite3"
    for bad in ("postgresql://ref:hunter22@db/x?nonsense=1", "POSTGRESQL://ref:hunter22@db/x"):
        with pytest.raises(StoreError) as raised:
            PostgresStore(bad)  # libpq's message quotes the second one whole
        assert "invalid PostgreSQL URL" in str(raised.value)
        assert "hunter22" not in str(raised.value)


def test_with_schema_keeps_the_urls_other_options() -> None:
    url = with_schema("postgresql://h/db?options=-cstatement_timeout%3D5000&sslmode=off", "s_1")
    params = psycopg.conninfo.conninfo_to_dict(url)
    assert params["options"] == "-cstatement_timeout=5000 -csearch_path=s_1"
    assert params["sslmode"] == "off"
    assert with_schema("postgresql://h/db", "s") == "postgresql://h/db?options=-csearch_path%3Ds"
