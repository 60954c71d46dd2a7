"""``ReplayTestActions``: a test table's actions in one call, refused everywhere else.

Its answer holds every seat's cards, so a referee without test mode refuses it, and so does
a test referee at a table dealt by shuffling (a table people could play at); a caller
without a seat at the table is refused like any other play call.  Where it is allowed, it
must answer exactly what one ``SubmitAction`` per action and one ``GetView`` per seat would:
the same events as each seat is told them (its stream's), the same views, the same refusals,
and a refused action changes nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from server_helpers import (
    BHABHO_DEAL,
    Metadata,
    Seated,
    bearer,
    covers,
    drain_stream,
    play,
    referee,
    refused,
    run_async,
    seat_table,
    without_time_left,
)

Code = grpc.StatusCode

STEPS = [(0, "AS"), (1, "KS"), (3, "JS"), (2, "QS"), (3, "JS"), (0, "2H"), (1, "4H")]
"""On ``BHABHO_DEAL``: seat 0 leads, seat 3 plays out of turn (refused ``not_your_turn``),
then the trick is completed and the next begins."""


def bare(event: pb.Event) -> pb.Event:
    """The event without its times (two tables' events happen at different times)."""
    copy = without_time_left(event)
    copy.ClearField("time")
    return copy


def replay(
    seated: Seated, steps: list[tuple[int, str]], md: Metadata, expected_seq: int
) -> Awaitable[pb.ReplayTestActionsResponse]:
    request = pb.ReplayTestActionsRequest(
        table_id=seated.table_id,
        actions=[pb.TestAction(seat=seat, action=play(card)) for seat, card in steps],
        expected_seq=expected_seq,
    )
    return seated.ref.play.ReplayTestActions(request, metadata=md)


@run_async
@covers("test_mode_required")
async def test_replay_is_refused_without_test_mode_and_changes_nothing() -> None:
    async with referee() as ref:
        seated = await seat_table(ref, "bhabho", 4, hands=1)
        table = await seated.table()
        player = seated.players[0]
        await refused(
            lambda md: replay(seated, [(0, "AS")], player.md + md, table.last_seq),
            Code.PERMISSION_DENIED,
            "test_mode_required",
        )
        assert (await seated.table()).last_seq == table.last_seq
        view = (await player.view()).view
        assert len(view.hand) == sum(view.hand_sizes) // 4  # still the deal: nobody moved


@run_async
@covers("test_mode_required", "unauthenticated", "bad_credential", "stale_seq")
async def test_replay_needs_a_test_deal_a_seat_at_the_table_and_the_latest_seq() -> None:
    async with referee(test_mode=True) as ref:
        shuffled = await seat_table(ref, "bhabho", 4, hands=1)
        last = (await shuffled.table()).last_seq
        await refused(
            lambda md: replay(shuffled, [(0, "AS")], shuffled.players[0].md + md, last),
            Code.PERMISSION_DENIED,
            "test_mode_required",
        )
        dealt = await seat_table(ref, "bhabho", 4, hands=1, deal=BHABHO_DEAL)
        last = (await dealt.table()).last_seq
        await refused(
            lambda md: replay(dealt, [(0, "AS")], md, last),
            Code.UNAUTHENTICATED,
            "unauthenticated",
        )
        other = shuffled.players[1].token  # a seat, but at another table
        await refused(
            lambda md: replay(dealt, [(0, "AS")], bearer(other) + md, last),
            Code.UNAUTHENTICATED,
            "bad_credential",
        )
        # A stale expected_seq refuses the whole call (a retry applies nothing twice).
        await refused(
            lambda md: replay(dealt, [(0, "AS")], dealt.players[0].md + md, last - 1),
            Code.ABORTED,
            "stale_seq",
        )
        assert (await dealt.table()).last_seq == last


@run_async
async def test_replay_answers_what_each_seat_would_be_told_one_action_at_a_time() -> None:
    async with referee(test_mode=True) as ref:
        batched = await seat_table(ref, "bhabho", 4, hands=1, deal=BHABHO_DEAL)
        single = await seat_table(ref, "bhabho", 4, hands=1, deal=BHABHO_DEAL)
        start = (await batched.table()).last_seq
        answer = await replay(batched, STEPS, batched.players[2].md, start)
        assert len(answer.results) == len(STEPS) and len(answer.views) == 4

        # The same actions one at a time, each seat's view after each.
        seq = (await single.table()).last_seq
        assert seq == start
        for seat, view in enumerate(answer.views):
            assert view == (await single.players[seat].view()).view
        for (seat, card), result in zip(STEPS, answer.results, strict=True):
            try:
                response = await single.players[seat].submit(play(card), seq)
            except grpc.aio.AioRpcError as error:
                assert result.refused == "not_your_turn" and (seat, card) == (3, "JS")
                assert error.code() == Code.FAILED_PRECONDITION
                assert not result.events and result.last_seq == seq
            else:
                assert not result.refused
                assert [bare(e) for e in result.events[seat].events] == [
                    bare(e) for e in response.events
                ]
                seq = response.last_seq
                assert result.last_seq == seq
            for viewer, view in enumerate(result.views):
                assert view == (await single.players[viewer].view()).view
        assert answer.last_seq == seq

        # Every seat's events are those its own stream carries, history included.
        for seat, player in enumerate(batched.players):
            streamed = await drain_stream(player.watch(), seq)
            told = [*answer.history[seat].events]
            for result in answer.results:
                if result.events:
                    told.extend(result.events[seat].events)
            assert [without_time_left(item.event) for item in streamed] == [
                without_time_left(e) for e in told
            ]
            assert [e.seq for e in told] == list(range(1, seq + 1))
