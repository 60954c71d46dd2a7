"""``python -m bench.store``: durable appends per second, group commit against one fsync each.

Every contender makes each append durable before counting it (WAL, ``synchronous=FULL``),
in a fresh file under ``var/bench-store/`` (the project's own disk: ``/tmp`` may be a tmpfs,
where an fsync costs nothing and the comparison means nothing):

* ``SqliteStore`` with ``--writers`` concurrent tasks, one table each, every task appending
  its commands in order and awaiting each, as the referee's tables do: the group commit;
* the same store with a single writer: one append in flight, so one transaction each, plus
  the thread hop (informational);
* the naive loop: one connection, ``BEGIN; INSERT; COMMIT`` per append, straight from the
  calling thread, no asyncio at all (the best a one-transaction-per-append design can do).

The naive loop stops after ``--seconds`` if it has not finished, so that a slow disk does not
make the run slow; rates are appends over elapsed time either way.

``--db postgresql://...`` measures ``PostgresStore`` on that server instead, with ``--writers``
concurrent tasks and with one, in a schema of its own (``bhabhi_bench_<random>``, created
and dropped by the run: the URL's user must be allowed to create schemas).  There the
server groups concurrent commits' WAL flushes; ``--pool`` connections carry the appends.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import shutil
import sqlite3
import sys
import time
from pathlib import Path

from referee.server.store import CommandRecord, Store, TableRecord
from referee.server.store.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[1]
PAYLOAD = {"seat": 2, "card": "7H", "clock_ms": 28_500}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.store", description=__doc__)
    parser.add_argument("--writers", type=int, default=200, help="concurrent tables (200)")
    parser.add_argument("--appends", type=int, default=25, help="appends per table (25)")
    parser.add_argument("--seconds", type=float, default=3.0, help="naive loop cap (3 s)")
    parser.add_argument("--dir", type=Path, default=ROOT / "var" / "bench-store")
    parser.add_argument("--db", help="a postgresql:// URL: measure PostgresStore there")
    parser.add_argument("--pool", type=int, default=10, help="PostgreSQL connections (10)")
    args = parser.parse_args(argv)
    total = args.writers * args.appends
    if args.db:
        return _postgres(args.db, args.writers, args.appends, args.pool)
    folder: Path = args.dir
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)

    group, commits = asyncio.run(_group_commit(folder / "group.db", args.writers, args.appends))
    single, _ = asyncio.run(_group_commit(folder / "single.db", 1, min(total, 2_000)))
    naive = _naive(folder / "naive.db", total, args.seconds)
    shutil.rmtree(folder, ignore_errors=True)

    print(
        f"store bench: {total:,} durable appends, {args.writers} writers x {args.appends}, "
        f"SQLite {sqlite3.sqlite_version}, in {folder}"
    )
    print(
        f"  SqliteStore, {args.writers} concurrent writers  {group:>9,.0f} appends/s  "
        f"({commits:,} commits, {total / commits:.1f} appends each)"
    )
    print(f"  SqliteStore, 1 writer                   {single:>9,.0f} appends/s  informational")
    print(f"  naive, one transaction per append       {naive:>9,.0f} appends/s")
    print(f"group commit / naive = {group / naive:.1f}x")
    return 0


async def _group_commit(path: Path, writers: int, appends: int) -> tuple[float, int]:
    store = SqliteStore(path)
    await store.open()
    try:
        await _tables(store, writers)
        before = store.commits
        rate = await _appends(store, writers, appends)
        return rate, store.commits - before
    finally:
        await store.close()


async def _tables(store: Store, writers: int) -> None:
    for k in range(writers):
        await store.create_table(TableRecord(f"t{k}", {"seats": 4}, 0.0))


async def _appends(store: Store, writers: int, appends: int, first: int = 1) -> float:
    """Appends per second: ``writers`` tasks, one table each, each awaiting every append."""

    async def write(table_id: str) -> None:
        for number in range(first, first + appends):
            await store.append(CommandRecord(table_id, number, "play", PAYLOAD, time.time()))

    started = time.perf_counter()
    await asyncio.gather(*(write(f"t{k}") for k in range(writers)))
    return writers * appends / (time.perf_counter() - started)


def _postgres(url: str, writers: int, appends: int, pool: int) -> int:
    import psycopg

    from referee.server.store.postgres import PostgresStore, redact, with_schema

    schema = f"bhabhi_bench_{secrets.token_hex(4)}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
        server = admin.execute("SHOW server_version").fetchone()
    try:

        async def run() -> tuple[float, float]:
            store = PostgresStore(with_schema(url, schema), pool_size=pool)
            await store.open()
            try:
                await _tables(store, writers)
                await _appends(store, writers, 2)  # the pool grown, statements prepared
                many = await _appends(store, writers, appends, first=3)
                single = await _appends(store, 1, min(writers * appends, 2_000), first=3 + appends)
                return many, single
            finally:
                await store.close()

        many, single = asyncio.run(run())
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")
    version = server[0] if server else "?"
    print(
        f"store bench: PostgreSQL {version} at {redact(url)}, {writers} writers x {appends},"
        f" pool of {pool}"
    )
    print(f"  PostgresStore, {writers} concurrent writers  {many:>9,.0f} appends/s")
    print(f"  PostgresStore, 1 writer                  {single:>9,.0f} appends/s")
    return 0


def _naive(path: Path, total: int, seconds: float) -> float:
    asyncio.run(_create_schema(path))
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("INSERT INTO tables (table_id, config, created_at) VALUES ('t', '{}', 0)")
        payload = json.dumps(PAYLOAD)
        started = time.perf_counter()
        done = 0
        while done < total and time.perf_counter() - started < seconds:
            done += 1
            db.execute("BEGIN IMMEDIATE")
            db.execute(
                "INSERT INTO commands VALUES ('t', ?, 'play', ?, ?)", (done, payload, time.time())
            )
            db.execute("COMMIT")
        return done / (time.perf_counter() - started)
    finally:
        db.close()


async def _create_schema(path: Path) -> None:
    store = SqliteStore(path)
    await store.open()
    await store.close()


if __name__ == "__main__":
    sys.exit(main())
