"""Seeded tables (``CreateTableRequest.deal_seed``): the same deal at several tables.

Duplicate deals, as the arena plays them, need the same hands dealt at several tables; a
table created with a deal seed deals hand ``k`` from ``deal_seed:k``, says publicly that it
is seeded (its creator knows the cards), still commits to each hand's seed at the deal and
reveals it at the end, and replays from the store as it was played.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from server_helpers import (
    Player,
    Referee,
    Seated,
    covers,
    drain_stream,
    random_step,
    referee,
    refused,
    run_async,
    seat_table,
)

from referee.engine.shuffle import hand_seed


async def seeded_table(ref: Referee, seed: str, *, hands: int = 1, start: bool = True) -> Seated:
    """``seat_table`` with a deal seed, at a three-seat bhabho table."""
    created = await ref.tables.CreateTable(
        pb.CreateTableRequest(ruleset_id="bhabho", seat_count=3, hands=hands, deal_seed=seed)
    )
    table_id = created.table.table_id
    players = []
    for seat in range(3):
        stubs = ref.connect()
        joined = await stubs.tables.JoinTable(
            pb.JoinTableRequest(table_id=table_id, player_name=f"player {seat}", seat=seat)
        )
        players.append(Player(stubs, table_id, seat, joined.seat_token))
    seated = Seated(ref, table_id, players)
    if start:
        await seated.start()
    return seated


async def hands_held(seated: Seated) -> list[list[str]]:
    """Every seat's cards, as each seat's own view shows them."""
    return [list((await player.view()).view.hand) for player in seated.players]


async def play_out(seated: Seated, rng: random.Random) -> None:
    while await random_step(seated, rng) is not None:
        pass


async def dealt_and_ended(seated: Seated) -> list[tuple[str, str]]:
    """(seed_commitment, revealed seed) of every hand of the table, from its event log."""
    last = (await seated.table()).last_seq
    call = seated.spectator_watch(0)
    items = await drain_stream(call, last)
    call.cancel()
    commitments = [
        i.event.hand_started.seed_commitment for i in items if i.event.HasField("hand_started")
    ]
    seeds = [i.event.hand_over.seed for i in items if i.event.HasField("hand_over")]
    return list(zip(commitments, seeds, strict=True))


@run_async
async def test_tables_with_one_deal_seed_deal_the_same_hands() -> None:
    async with referee() as ref:
        first = await seeded_table(ref, "league 7:0", hands=2)
        second = await seeded_table(ref, "league 7:0", hands=2)
        other = await seeded_table(ref, "league 7:1", hands=2)
        assert await hands_held(first) == await hands_held(second)
        assert await hands_held(first) != await hands_held(other)
        # The second hand too, however differently the first was played.
        await play_out(first, random.Random(1))
        await play_out(second, random.Random(2))
        ended = await dealt_and_ended(first)
        assert ended == await dealt_and_ended(second)
        expected = [hand_seed("league 7:0", k).decode() for k in range(2)]
        assert [seed for _, seed in ended] == expected
        for commitment, seed in ended:  # still committed at the deal, revealed at the end
            assert commitment == "sha256:" + hashlib.sha256(seed.encode()).hexdigest()


@run_async
async def test_a_seeded_table_says_so_and_an_unseeded_one_does_not() -> None:
    async with referee() as ref:
        seeded = await seeded_table(ref, "anything at all", start=False)
        plain = await seat_table(ref, "bhabho", 3, start=False, hands=1)
        assert (await seeded.table()).seeded
        assert not (await plain.table()).seeded
        listed = {
            t.table_id: t.seeded
            for t in (await ref.tables.ListTables(pb.ListTablesRequest())).tables
        }
        assert listed == {seeded.table_id: True, plain.table_id: False}
        await seeded.start()
        assert (await seeded.table()).seeded  # while it is played too
        # An unseeded table's hands come from the referee's own secret seeds.
        await plain.start()
        await play_out(plain, random.Random(3))
        [(_, seed)] = await dealt_and_ended(plain)
        assert len(seed) == 64 and ":" not in seed


@run_async
@covers("bad_table_settings")
async def test_a_deal_seed_over_128_characters_is_refused() -> None:
    async with referee() as ref:
        request = pb.CreateTableRequest(ruleset_id="bhabho", seat_count=3, deal_seed="s" * 129)
        answer = await refused(
            lambda md: ref.tables.CreateTable(request, metadata=md),
            grpc.StatusCode.INVALID_ARGUMENT,
            "bad_table_settings",
        )
        assert "129" in answer.message and "128" in answer.message
        created = await ref.tables.CreateTable(
            pb.CreateTableRequest(ruleset_id="bhabho", seat_count=3, deal_seed="s" * 128)
        )
        assert created.table.seeded


@run_async
async def test_a_seeded_table_replays_from_the_store_as_it_was_played(tmp_path: Path) -> None:
    db = tmp_path / "referee.sqlite3"
    async with referee(db=db) as ref:
        seated = await seeded_table(ref, "replayed", hands=2)
        held = await hands_held(seated)
        rng = random.Random(4)
        for _ in range(5):
            assert await random_step(seated, rng) is not None
        before = await seated.table()
        views = [await player.view() for player in seated.players]
        table_id, tokens = seated.table_id, [p.token for p in seated.players]
    async with referee(db=db) as ref:
        again = Seated(
            ref,
            table_id,
            [Player(ref.connect(), table_id, seat, token) for seat, token in enumerate(tokens)],
        )
        after = await again.table()
        assert after.seeded and after.last_seq == before.last_seq
        assert [await player.view() for player in again.players] == views
        fresh = await seeded_table(ref, "replayed", hands=2)
        assert await hands_held(fresh) == held
        await play_out(again, random.Random(5))
        ended = await dealt_and_ended(again)
        assert [seed for _, seed in ended] == [hand_seed("replayed", k).decode() for k in range(2)]
