"""Bots already connected: waiting under a key (``AwaitSeats``), being handed seats
(``HandSeat``) by those who hold them, over gRPC (docs/referee.md, "Seats for bots already
connected")."""

from __future__ import annotations

import asyncio
from typing import Any

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from server_helpers import bearer, decode, referee, refusal_of, run_async, seat_table

KEY = "0123456789abcdef-bot"


@run_async
async def test_a_waiting_bot_is_handed_each_seat_once_and_plays_it_with_the_credential() -> None:
    async with referee(test_mode=True) as ref:
        bot = ref.connect()
        waiting: Any = bot.tables.AwaitSeats(pb.AwaitSeatsRequest(bot_key=KEY))
        assert (await waiting.read()).HasField("waiting")
        seated = await seat_table(ref, "bhabho", 4)
        for seat in (2, 2, 3):  # seat 2 twice: the bot hears of it once
            holder = seated.players[seat]
            handed = await ref.tables.HandSeat(
                pb.HandSeatRequest(table_id=seated.table_id, bot_key=KEY), metadata=holder.md
            )
            assert handed.table.table_id == seated.table_id
        offers = [(await waiting.read()).seat for _ in range(2)]
        assert [(o.table_id, o.seat, o.player_name, o.ruleset_id) for o in offers] == [
            (seated.table_id, 2, "player 2", "bhabho"),
            (seated.table_id, 3, "player 3", "bhabho"),
        ]
        assert [o.seat_token for o in offers] == [p.token for p in seated.players[2:]]
        # The credential handed is the seat's: the bot sees the seat's own cards.
        view = await bot.play.GetView(
            pb.GetViewRequest(table_id=seated.table_id), metadata=bearer(offers[0].seat_token)
        )
        assert view.view.seat == 2
        assert list(view.view.hand) == list((await seated.players[2].view()).view.hand)
        waiting.cancel()


@run_async
async def test_a_seat_of_a_finished_table_is_not_handed() -> None:
    async with referee(test_mode=True) as ref:
        waiting: Any = ref.tables.AwaitSeats(pb.AwaitSeatsRequest(bot_key=KEY))
        assert (await waiting.read()).HasField("waiting")
        finished = await seat_table(ref, "pickup", 3, hands=1, deal=["AS", "", ""])
        assert (await finished.table()).status == pb.TABLE_STATUS_FINISHED
        refusal = await refusal_of(
            ref.tables.HandSeat(
                pb.HandSeatRequest(table_id=finished.table_id, bot_key=KEY),
                metadata=finished.players[0].md,
            )
        )
        assert refusal.reason == "table_not_playing"
        waiting.cancel()


@run_async
async def test_a_bot_that_stops_waiting_frees_its_key_and_is_handed_nothing_more() -> None:
    async with referee() as ref:
        seated = await seat_table(ref, "bhabho", 3)
        first: Any = ref.connect().tables.AwaitSeats(pb.AwaitSeatsRequest(bot_key=KEY))
        assert (await first.read()).HasField("waiting")
        first.cancel()
        hand = pb.HandSeatRequest(table_id=seated.table_id, bot_key=KEY)
        for _ in range(200):  # until the referee hears of the cancel
            try:
                await ref.tables.HandSeat(hand, metadata=seated.players[0].md)
            except grpc.aio.AioRpcError as error:
                assert decode(error).reason == "bot_not_waiting"
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("the referee still holds the cancelled wait")
        again: Any = ref.connect().tables.AwaitSeats(pb.AwaitSeatsRequest(bot_key=KEY))
        assert (await again.read()).HasField("waiting")
        again.cancel()


@run_async
async def test_a_draining_referee_ends_every_wait_with_unavailable() -> None:
    async with referee() as ref:
        waiting: Any = ref.tables.AwaitSeats(pb.AwaitSeatsRequest(bot_key=KEY))
        assert (await waiting.read()).HasField("waiting")
        await ref.running.referee.drain()
        refusal = await refusal_of(waiting.read())
        assert refusal.reason == "unavailable"
        assert (
            await refusal_of(ref.tables.AwaitSeats(pb.AwaitSeatsRequest(bot_key=KEY + "2")).read())
        ).reason == "unavailable"
