"""Every action the referee accepts is told on the first event it caused (``Event.acted``),
so a client can follow a hand action by action with the rules alone: over a whole hand of
random play, the acted entries a seat's stream carries are the hand's own history."""

from __future__ import annotations

import random

from bhabhi.referee.v1 import referee_pb2 as pb
from server_helpers import (
    action_text,
    bearer,
    pick_action,
    pick_seat,
    referee,
    run_async,
    seat_table,
)

from referee.engine import Action
from referee.server.messages import action_message


@run_async
async def test_the_events_tell_every_action_in_order() -> None:
    rng = random.Random(5)
    async with referee() as ref:
        seated = await seat_table(ref, "bhabho", 3, hands=1)
        player = seated.players[0]
        while True:
            view = (await player.view()).view
            if view.HasField("result"):
                break
            actor = seated.players[pick_seat(view.to_act, view.turn, rng, 0.1)]
            mine = (await actor.view()).view
            text = pick_action([action_text(a) for a in mine.legal_actions], rng, 0.1)
            await actor.submit(action_message(Action.parse(text)), (await actor.view()).seq)
        events = ref.play.WatchTable(
            pb.WatchTableRequest(table_id=seated.table_id), metadata=bearer(player.token)
        )
        told: list[tuple[int, str]] = []
        async for item in events:
            event = item.event
            if event.HasField("acted"):
                told.append((event.acted.seat, action_text(event.acted.action)))
            if event.WhichOneof("kind") == "hand_over":
                break
        events.cancel()
        hand = ref.running.referee.tables[seated.table_id].finished_hands[0]
    assert told == [(seat, str(action)) for seat, action in hand.history]
    assert len(told) >= 10
