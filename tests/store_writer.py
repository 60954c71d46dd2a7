"""A process that appends to a ``SqliteStore`` until it is killed (the SIGKILL durability test).

``python tests/store_writer.py PATH TABLES`` creates TABLES tables, then appends commands
1, 2, 3 … to each from its own task, all at once, and prints ``TABLE NUMBER`` the moment an
``append`` returns: every printed line is a promise that the command is on disk.
"""

from __future__ import annotations

import asyncio
import sys

from referee.server.store import CommandRecord, TableRecord
from referee.server.store.sqlite import SqliteStore


async def main(path: str, tables: int) -> None:
    store = SqliteStore(path)
    await store.open()
    ids = [f"t{k}" for k in range(tables)]
    for table_id in ids:
        await store.create_table(TableRecord(table_id, {"seats": 4}, 0.0))
    print("ready", flush=True)

    async def write(table_id: str) -> None:
        number = 0
        while True:
            number += 1
            await store.append(
                CommandRecord(table_id, number, "play", {"card": "7H", "n": number}, 1.0)
            )
            print(table_id, number, flush=True)

    await asyncio.gather(*(write(table_id) for table_id in ids))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
