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
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sqlite3
import sys
import time
from pathlib import Path

from referee.server.store import CommandRecord, TableRecord
from referee.server.store_sqlite import SqliteStore

ROOT = Path(__file__).resolve().parents[1]
PAYLOAD = {"seat": 2, "card": "7H", "clock_ms": 28_500}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.store", description=__doc__)
    parser.add_argument("--writers", type=int, default=200, help="concurrent tables (200)")
    parser.add_argument("--appends", type=int, default=25, help="appends per table (25)")
    parser.add_argument("--seconds", type=float, default=3.0, help="naive loop cap (3 s)")
    parser.add_argument("--dir", type=Path, default=ROOT / "var" / "bench-store")
    args = parser.parse_args(argv)
    total = args.writers * args.appends
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
        for k in range(writers):
            await store.create_table(TableRecord(f"t{k}", {"seats": 4}, 0.0))
        before = store.commits

        async def write(table_id: str) -> None:
            for number in range(1, appends + 1):
                await store.append(CommandRecord(table_id, number, "play", PAYLOAD, time.time()))

        started = time.perf_counter()
        await asyncio.gather(*(write(f"t{k}") for k in range(writers)))
        elapsed = time.perf_counter() - started
        return writers * appends / elapsed, store.commits - before
    finally:
        await store.close()


def _naive(path: Path, total: int, seconds: float) -> float:
    asyncio.run(_create_schema(path))
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("INSERT INTO tables VALUES ('t', '{}', 0)")
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
