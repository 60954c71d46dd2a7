"""Regressions found by reading the referee's core: each a scenario that once went wrong."""

from __future__ import annotations

import asyncio

import pytest
from server_helpers import run_async

from referee.server.errors import Refusal
from referee.server.limits import Limits
from referee.server.store import TableRecord
from referee.server.store.memory import MemoryStore
from referee.server.table import Referee

LIMITS = Limits(tables_per_minute=0, uploads_per_minute=0, min_turn_time=0.1)


def deaf(store: MemoryStore) -> None:
    """The replica over ``store`` hears no news of other replicas' commands."""
    own = set(map(id, store._own))
    store._listeners[:] = [
        (lambda *news: None) if id(listener) in own else listener for listener in store._listeners
    ]


@run_async
async def test_a_credential_given_up_on_another_replica_cannot_act_for_the_new_seat() -> None:
    """B is behind: it has not heard that seat 0 was given up, taken by a newcomer and the
    table started.  The leaver's old credential must not play for the newcomer after B
    catches up."""
    shared = MemoryStore(shared=True)
    a, b = Referee(shared, limits=LIMITS), Referee(shared.replica(), limits=LIMITS)
    await a.start()
    await b.start()
    try:
        for _ in range(40):
            table = await a.create_table("pickup", 3)
            tokens = [(await a.join(table.table_id, f"P{s}", s))[2] for s in range(3)]
            await b.get_table(table.table_id)  # B holds it, all three seated
            deaf(b.store)  # type: ignore[arg-type]
            await a.leave(table.table_id, tokens[0])
            newcomer = (await a.join(table.table_id, "Newcomer", 0))[2]
            await a.start_table(table.table_id, newcomer)
            hand = a.tables[table.table_id].hand
            assert hand is not None
            if hand.to_move != 0:
                continue  # the newcomer's seat must be the one to move
            move = hand.default_action(0)
            with pytest.raises(Refusal) as refused:
                await b.act(
                    table.table_id, tokens[0], move, "old", a.tables[table.table_id].last_seq
                )
            assert refused.value.reason == "bad_credential"
            return
        raise AssertionError("no deal where seat 0 leads")
    finally:
        await a.stop()
        await b.stop()


@run_async
async def test_a_draining_referee_plays_no_turn_clock() -> None:
    store = MemoryStore()
    referee = Referee(store, limits=LIMITS)
    await referee.start()
    table = await referee.create_table("pickup", 3, turn_time=0.2)
    tokens = [(await referee.join(table.table_id, f"P{s}", s))[2] for s in range(3)]
    await referee.start_table(table.table_id, tokens[0])
    seen = table.last_seq
    await referee.drain()
    await asyncio.sleep(0.5)  # past the deadline
    assert table.last_seq == seen, "a timeout was played during the drain"
    await referee.stop()


@run_async
async def test_a_table_stored_with_a_clock_below_the_floor_plays_at_the_floor() -> None:
    """An older referee accepted any positive turn_time; such a table keeps its settings in
    the store but is played with the floor's clock."""
    store = MemoryStore()
    first = Referee(store, limits=Limits(min_turn_time=0.1))
    await first.start()
    table = await first.create_table("pickup", 3, turn_time=0.2)
    record = await store.load_table(table.table_id)
    assert record is not None
    await first.stop()
    config = {**record.config, "turn_time": 0.01}
    older = MemoryStore()  # the same table, as an older referee stored it
    await older.open()
    await older.create_table(TableRecord(table.table_id, config, record.created_at))
    await older.close()
    older._state = "new"  # reopened by the next referee, as a file would be
    again = Referee(older, limits=Limits(min_turn_time=1.0))
    await again.start()
    try:
        assert again.tables[table.table_id].turn_time == 1.0
    finally:
        await again.stop()
