"""Playing through the API: retries, stale decisions, event streams that resume and catch
up, and the turn clock."""

from __future__ import annotations

import asyncio
import itertools
import random

import grpc
import pytest
from bhabhi.referee.v1 import referee_pb2 as pb
from server_helpers import (
    PICKUP,
    TAKE,
    Seated,
    drain_stream,
    legal,
    play,
    random_step,
    referee,
    refusal_of,
    run_async,
    seat_table,
    without_time_left,
)

BHABHO_DEAL = ["AS 2H 3H", "KS 4H 5D", "QS 6H 7D", "JS 8H 9C"]
# Pick-up, three seats, counterclockwise (0, 2, 1).
PICKUP_DEAL = ["AS 5S 9H", "2S 3S 7C QC", "4C KH"]


async def play_until(seated: Seated, seq: int, rng: random.Random) -> None:
    """Random legal actions until the table's log reaches ``seq``."""
    while (await seated.table()).last_seq < seq:
        assert await random_step(seated, rng) is not None, "the session ended first"


async def full_log(seated: Seated, player_index: int | None = None) -> list[pb.Event]:
    """Every event of the table so far, as one seat (or a spectator) is sent them."""
    last = (await seated.table()).last_seq
    call = (
        seated.spectator_watch(0) if player_index is None else seated.players[player_index].watch(0)
    )
    items = await drain_stream(call, last)
    call.cancel()
    assert all(i.WhichOneof("item") == "event" for i in items)
    return [i.event for i in items]


# --- retries and stale decisions ------------------------------------------------------------


@run_async
async def test_a_retried_action_is_applied_once_and_answered_alike() -> None:
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "bhabho", 4, deal=BHABHO_DEAL)
        p0, p1 = seated.players[:2]
        seq = (await p0.view()).seq
        # The same request sent twice at once (a client retrying a slow call): applied once.
        first, second = await asyncio.gather(
            p0.submit(play("AS"), seq, "lead-1"), p0.submit(play("AS"), seq, "lead-1")
        )
        assert first == second and first.last_seq == seq + 1
        assert (await seated.table()).last_seq == seq + 1
        # The table moves on; the retry still gets the first answer, stale seq or not.
        view = await p1.view()
        await p1.submit(play("KS"), view.seq, "lead-1")  # another seat's ids are its own
        again = await p0.submit(play("AS"), seq, "lead-1")
        assert again == first
        later = await p0.submit(play("AS"), 0, "lead-1")
        assert later == first
        assert (await seated.table()).last_seq == seq + 2
        log = await full_log(seated, 0)
        assert [e for e in log if e.HasField("card_played") and e.card_played.card == "AS"] == list(
            first.events
        )
        refusal = await refusal_of(p0.submit(TAKE, seq + 2, "lead-1"))
        assert refusal.reason == "request_id_reused"


@run_async
async def test_two_takes_on_one_decision_one_wins_the_other_is_stale() -> None:
    """B9: several seats may take a hand before a trick; both decide on the same seq, the
    first is applied, the second refused with ``stale_seq`` and the latest seq."""
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "bhabho", 4, deal=BHABHO_DEAL)
        p1, p2 = seated.players[1:3]
        v1, v2 = await p1.view(), await p2.view()
        assert legal(v1.view) == legal(v2.view) == ["take"]
        assert v1.seq == v2.seq
        won = await p1.submit(TAKE, v1.seq)
        lost = await refusal_of(p2.submit(TAKE, v2.seq))
        assert (lost.code, lost.reason) == (grpc.StatusCode.ABORTED, "stale_seq")
        assert lost.metadata["last_seq"] == str(won.last_seq)
        fresh = await p2.view()
        assert fresh.seq == won.last_seq
        taken = next(e.hand_taken for e in won.events if e.HasField("hand_taken"))
        assert (taken.taker, taken.seat, list(taken.cards)) == (1, 2, ["7D", "6H", "QS"])


# --- streams -------------------------------------------------------------------------------


@run_async
async def test_a_resumed_stream_has_no_gap_and_no_duplicate() -> None:
    async with referee() as ref:
        seated = await seat_table(ref, "pickup", 4)
        rng = random.Random(11)
        await play_until(seated, 12, rng)
        call = seated.players[1].watch(0)
        received = [i.event for i in await drain_stream(call, 8)]
        call.cancel()  # the connection drops after seq 8
        with pytest.raises(asyncio.CancelledError):
            await call.read()
        last_seen = received[-1].seq
        await play_until(seated, 30, rng)  # play goes on meanwhile
        resumed = seated.players[1].watch(last_seen)
        more = asyncio.ensure_future(drain_stream(resumed, 36))
        await play_until(seated, 36, rng)  # and while it catches up
        received += [i.event for i in await more]
        resumed.cancel()
        assert [e.seq for e in received] == list(range(1, 37))
        assert [without_time_left(e) for e in received] == (await full_log(seated, 1))[:36]


@run_async
async def test_a_watcher_far_behind_gets_the_whole_history_from_the_first_seq() -> None:
    async with referee() as ref:
        seated = await seat_table(ref, "pickup", 3)
        rng = random.Random(5)
        await play_until(seated, 25, rng)
        last = (await seated.table()).last_seq
        for seat in (2, None):  # a seat, and a spectator
            call = seated.players[2].watch(0) if seat is not None else seated.spectator_watch(0)
            items = await drain_stream(call, last)
            call.cancel()
            assert all(i.WhichOneof("item") == "event" for i in items)
            assert [i.event.seq for i in items] == list(range(1, last + 1))
            if seat is not None:
                assert [without_time_left(i.event) for i in items] == await full_log(seated, seat)


# --- the turn clock --------------------------------------------------------------------------


def seconds(stamp: object) -> float:
    return stamp.ToNanoseconds() / 1e9  # type: ignore[attr-defined, no-any-return]


@run_async
async def test_a_seat_that_does_nothing_times_out_into_the_default_action() -> None:
    """Seat after seat lets its 0.3 s run out: the referee plays the lowest legal card, or
    picks up when that is all the seat may do, and says so with TurnTimedOut."""
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "pickup", 3, deal=PICKUP_DEAL, turn_time=0.3)
        call = seated.spectator_watch(0)
        events: list[pb.Event] = []
        timeouts: list[tuple[int, str]] = []
        while True:
            event = (await call.read()).event
            events.append(event)
            if event.HasField("turn_timed_out"):
                t = event.turn_timed_out
                timeouts.append((t.seat, t.action.card or pb.ActionKind.Name(t.action.kind)))
                if len(timeouts) == 4:
                    break
        # Read the consequences of the last timeout too.
        last = (await seated.table()).last_seq
        events += [i.event for i in await drain_stream(call, last)]
        call.cancel()
        assert timeouts == [
            (0, "AS"),  # the forced first lead (C6)
            (2, "ACTION_KIND_PICK_UP"),  # no spade: pick up (P1)
            (2, "4C"),  # leads its lowest card (4C below KH)
            (1, "7C"),  # follows with its lowest club (7C below QC)
        ]
        played = [e for e in events if e.HasField("turn_timed_out")]
        for event in played:
            after = events[events.index(event) + 1]
            seat, action = event.turn_timed_out.seat, event.turn_timed_out.action
            if action.kind == pb.ACTION_KIND_PLAY:
                assert after.card_played.seat == seat and after.card_played.card == action.card
            else:
                assert after.picked_up.seat == seat
        dealt = next(i for i, e in enumerate(events) if e.HasField("hand_started"))
        clocked = events[dealt:]
        for before, event in itertools.pairwise(clocked):
            if event.HasField("turn_timed_out"):
                # The referee waited for the deadline, not less.
                assert seconds(event.time) >= seconds(before.turn_deadline) - 1e-3
        for event in clocked:
            assert event.HasField("turn_deadline") and event.HasField("time_left")
            assert seconds(event.turn_deadline) == pytest.approx(
                seconds(event.time) + 0.3, abs=1e-6
            )
            assert 0 <= seconds(event.time_left) <= 0.3


@run_async
async def test_acting_in_time_restarts_the_clock() -> None:
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "pickup", 3, deal=PICKUP_DEAL, turn_time=5)
        p0, _, p2 = seated.players
        view = await p0.view()
        answer = await p0.submit(play("AS"), view.seq)
        [event] = answer.events
        assert seconds(event.turn_deadline) == pytest.approx(seconds(event.time) + 5, abs=1e-6)
        assert 4 < seconds(event.time_left) <= 5
        answer = await p2.submit(PICKUP, answer.last_seq)
        assert not any(e.HasField("turn_timed_out") for e in await full_log(seated))
        table = await seated.table()
        assert table.turn_time.ToMilliseconds() == 5000
        for event in answer.events:
            assert seconds(event.turn_deadline) == pytest.approx(seconds(event.time) + 5, abs=1e-6)


@run_async
async def test_a_retry_of_the_action_that_ends_the_session_gets_the_same_answer() -> None:
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "pickup", 3, hands=1, deal=["AS 2C", "KS 3C 5D", "QS 4C"])
        while True:
            spectator = (await seated.spectate()).view
            player = seated.players[spectator.turn]
            view = await player.view()
            action = play(legal(view.view)[0])
            answer = await player.submit(action, view.seq, f"last-{view.seq}")
            if any(e.HasField("session_over") for e in answer.events):
                break
        kinds = [e.WhichOneof("kind") for e in answer.events]
        assert kinds[-2:] == ["hand_over", "session_over"]
        assert await player.submit(action, view.seq, f"last-{view.seq}") == answer
        table = await seated.table()
        assert table.status == pb.TABLE_STATUS_FINISHED and table.last_seq == answer.last_seq
