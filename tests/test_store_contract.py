"""The promises every store backend keeps, stated once and checked against each backend.

``StoreContract`` holds the tests; ``TestMemoryStore`` and ``TestSqliteStore`` only say how
to make a store (a PostgreSQL store, issue 5, adds one more small subclass).  The SQLite
class adds what only a file can show: reopening, the schema, a damaged file, group commit
inside one transaction, and a writer process killed with SIGKILL losing nothing it
acknowledged.

Tests are plain functions that run their own event loop (``asyncio.run``), so no pytest
plugin is needed.
"""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from referee.server.store import (
    CommandRecord,
    ConflictError,
    RulesetRecord,
    Store,
    StoreError,
    TableRecord,
)
from referee.server.store_memory import MemoryStore
from referee.server.store_sqlite import MIGRATIONS, SqliteStore

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
                store.load_tables,
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


class TestSqliteStore(StoreContract):
    def new_store(self, tmp_path: Path) -> Store:
        return SqliteStore(tmp_path / "store" / "referee.db")

    def check_batched(self, store: Store, appends: int) -> None:
        assert isinstance(store, SqliteStore)
        assert store.commits < appends, (store.commits, appends)

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
