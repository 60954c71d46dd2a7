"""kill -9 in the middle of games loses no acknowledged action.

``bhabhi serve`` runs as a subprocess on a SQLite file.  Clients play several tables at
once, recording every SubmitAction the referee acknowledged, while spectators record the
event streams; the server is killed with SIGKILL with actions in flight, and started again
on the same file.  Then every acknowledged action's events are in the WatchTable replay,
exactly (deadlines included), an unanswered action retried with its request_id is applied
once, the clocks keep their deadlines, and every table plays on to the end.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from server_helpers import (
    Player,
    Referee,
    Seated,
    ServerProcess,
    action_message,
    drain_stream,
    legal,
    pick_action,
    pick_seat,
    replay_case,
    run_async,
    seat_table,
    without_time_left,
)

ACKS_BEFORE_KILL = 45


@dataclass
class Game:
    seated: Seated
    rng: random.Random
    acked: list[tuple[int, pb.SubmitActionResponse]] = field(default_factory=list)
    pending: tuple[Player, pb.Action, int, str] | None = None
    """The action sent and not answered (yet)."""
    watched: list[pb.Event] = field(default_factory=list)
    """The spectator's events before the kill."""

    def on(self, ref: Referee) -> None:
        """Point the game's clients at a (restarted) referee."""
        self.seated.ref = ref
        for player in self.seated.players:
            player.stubs = ref.connect()


async def play(game: Game) -> None:
    """Random legal actions, recording each acknowledged one, to the session's end (or
    until the referee dies under it)."""
    seated = game.seated
    while True:
        spectator = (await seated.spectate()).view
        if not spectator.to_act:
            return
        seat = pick_seat(spectator.to_act, spectator.turn, game.rng, 0.1)
        player = seated.players[seat]
        view = await player.view()
        action = action_message(pick_action(legal(view.view), game.rng, 0.1))
        request_id = uuid.uuid4().hex
        game.pending = (player, action, view.seq, request_id)
        answer = await player.submit(action, view.seq, request_id)
        game.pending = None
        game.acked.append((seat, answer))


async def spectate(game: Game) -> None:
    async for item in game.seated.spectator_watch(0):
        game.watched.append(item.event)


async def replay_as(seated: Seated, seat: int | None) -> dict[int, pb.Event]:
    """The table's whole log as ``seat`` (or a spectator) receives it, by seq."""
    last = (await seated.table()).last_seq
    call = seated.spectator_watch(0) if seat is None else seated.players[seat].watch(0)
    items = await drain_stream(call, last)
    call.cancel()
    return {i.event.seq: without_time_left(i.event) for i in items}


def seconds(stamp: object) -> float:
    return stamp.ToNanoseconds() / 1e9  # type: ignore[attr-defined, no-any-return]


@run_async
async def test_kill_9_loses_no_acknowledged_action(tmp_path: Path) -> None:
    process = ServerProcess(tmp_path / "referee.sqlite3")
    try:
        ref = await process.start()
        games = [
            Game(await seat_table(ref, "bhabho", 4, hands=2, turn_time=600), random.Random(1)),
            Game(await seat_table(ref, "pickup", 3, hands=1, turn_time=600), random.Random(2)),
            Game(await seat_table(ref, "team", 4, hands=1), random.Random(3)),
            Game(await seat_table(ref, "bhabho", 3, hands=2), random.Random(5)),
        ]
        # Nobody plays here: the referee does, every 2 s, by the clock.
        clocked = Game(await seat_table(ref, "pickup", 3, turn_time=2), random.Random(4))
        watchers = [asyncio.ensure_future(spectate(g)) for g in [*games, clocked]]
        players = [asyncio.ensure_future(play(g)) for g in games]
        # Kill once enough was acknowledged, at a moment when actions are in flight.
        while (
            sum(len(g.acked) for g in games) < ACKS_BEFORE_KILL
            or sum(g.pending is not None for g in games) < 2
        ):
            await asyncio.sleep(0.001)
            assert all(p.exception() is None for p in players if p.done())
        process.kill()
        killed_at = time.time()
        for task in players + watchers:
            try:
                await task
            except grpc.aio.AioRpcError as error:
                assert error.code() == grpc.StatusCode.UNAVAILABLE
        assert await process.wait() != 0
        await ref.close()
        # Usually still unanswered (an answer already on its way was acknowledged).
        in_flight = [g for g in games if g.pending is not None]
        assert all(len(g.acked) >= 5 for g in games), [len(g.acked) for g in games]

        ref = await process.start()
        restarted_at = time.time()
        for game in [*games, clocked]:
            game.on(ref)
            seated = game.seated
            # What the spectator saw is there, identical, deadlines included.
            replay = await replay_as(seated, None)
            for event in game.watched:
                assert replay[event.seq] == without_time_left(event)
            # Every acknowledged action's events, as the acting seat was answered.
            by_seat = {s: await replay_as(seated, s) for s in {s for s, _ in game.acked}}
            for seat, answer in game.acked:
                assert answer.events
                for event in answer.events:
                    assert by_seat[seat][event.seq] == without_time_left(event)
            assert max(replay) == (await seated.table()).last_seq
            assert sorted(replay) == list(range(1, max(replay) + 1))
        for game in in_flight:
            # The answer lost with the connection: a retry applies it once, or returns it.
            assert game.pending is not None
            player, action, seq, request_id = game.pending
            table = await game.seated.table()
            answer = await player.submit(action, seq, request_id)
            again = await player.submit(action, seq, request_id)
            assert list(map(without_time_left, answer.events)) == list(
                map(without_time_left, again.events)
            )
            if answer.last_seq <= table.last_seq:  # it was stored before the kill
                replay = await replay_as(game.seated, player.seat)
                assert [replay[e.seq] for e in answer.events] == list(
                    map(without_time_left, answer.events)
                )
            else:
                assert answer.events[0].seq == table.last_seq + 1
        # The clock kept its deadline: the referee's next move comes at the deadline stored
        # before the kill, or at once if that passed while it was down; not a turn after
        # the restart.
        replay = await replay_as(clocked.seated, None)
        before = [e for _, e in sorted(replay.items()) if seconds(e.time) <= killed_at][-1]
        assert before.HasField("turn_deadline")
        deadline = seconds(before.turn_deadline)
        stream = clocked.seated.spectator_watch(before.seq)
        following = (await asyncio.wait_for(stream.read(), 5)).event
        stream.cancel()
        assert following.HasField("turn_timed_out")
        assert seconds(following.time) >= deadline - 1e-3
        assert seconds(following.time) <= max(deadline, restarted_at) + 1.0
        # Every table plays on to the end.
        await asyncio.gather(*(play(g) for g in games))
        for game in games:
            table = await game.seated.table()
            assert table.status == pb.TABLE_STATUS_FINISHED
            for number in range(table.hands_dealt):
                exported = await ref.play.ExportHand(
                    pb.ExportHandRequest(table_id=table.table_id, hand_number=number)
                )
                replay_case(exported.case_yaml)
        process.terminate()
        assert await process.wait() == 0
        await ref.close()
    finally:
        await process.ensure_stopped()
