"""Test tables with explicit deals for every hand of a session (conformance of C5, C14-C16)."""

from __future__ import annotations

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from server_helpers import referee, refusal_of, run_async

HAND_1 = ["AS 5H", "KS 6H", "QS 7H"]
HAND_2 = ["2C 3C", "4C 5C", "6C AS"]


async def _play_out(ref, table_id, tokens) -> None:  # type: ignore[no-untyped-def]
    """Every seat plays its first legal action until the table has no hand in progress."""
    for _ in range(200):
        view = await ref.play.GetView(pb.GetViewRequest(table_id=table_id))
        if view.view.turn < 0:
            return
        seat = view.view.turn
        mine = await ref.play.GetView(
            pb.GetViewRequest(table_id=table_id),
            metadata=(("authorization", f"Bearer {tokens[seat]}"),),
        )
        await ref.play.SubmitAction(
            pb.SubmitActionRequest(
                table_id=table_id,
                action=mine.view.legal_actions[0],
                request_id=f"r{mine.seq}",
                expected_seq=mine.seq,
            ),
            metadata=(("authorization", f"Bearer {tokens[seat]}"),),
        )


@run_async
async def test_later_hands_are_dealt_as_given_and_the_dealer_moves_on() -> None:
    async with referee(test_mode=True) as ref:
        request = pb.CreateTableRequest(ruleset_id="pickup", seat_count=3, hands=2, test_dealer=1)
        for cards in HAND_1:
            request.test_deal.add(cards=cards.split())
        later = request.test_hands.add()
        for cards in HAND_2:
            later.deal.add(cards=cards.split())
        table_id = (await ref.tables.CreateTable(request)).table.table_id
        tokens = []
        for seat in range(3):
            joined = await ref.tables.JoinTable(
                pb.JoinTableRequest(table_id=table_id, player_name=f"p{seat}")
            )
            tokens.append(joined.seat_token)
        await ref.tables.StartTable(
            pb.StartTableRequest(table_id=table_id),
            metadata=(("authorization", f"Bearer {tokens[0]}"),),
        )
        first = await ref.play.GetView(pb.GetViewRequest(table_id=table_id))
        assert first.view.dealer == 1
        await _play_out(ref, table_id, tokens)
        table = (await ref.tables.GetTable(pb.GetTableRequest(table_id=table_id))).table
        assert table.hands_dealt == 2
        for number, deal in enumerate((HAND_1, HAND_2)):
            case = await ref.play.ExportHand(
                pb.ExportHandRequest(table_id=table_id, hand_number=number)
            )
            for seat_cards in deal:
                assert f"- {seat_cards}" in case.case_yaml
        # pickup plays counterclockwise and the deal moves counterclockwise (C5): 1 -> 0
        assert (
            "dealer: 0"
            in (
                await ref.play.ExportHand(pb.ExportHandRequest(table_id=table_id, hand_number=1))
            ).case_yaml
        )
        assert table.status == pb.TABLE_STATUS_FINISHED


@run_async
async def test_test_hands_need_test_mode_and_a_first_deal() -> None:
    async with referee(test_mode=False) as ref:
        request = pb.CreateTableRequest(ruleset_id="pickup", seat_count=3)
        later = request.test_hands.add()
        for cards in HAND_2:
            later.deal.add(cards=cards.split())
        refused = await refusal_of(ref.tables.CreateTable(request))
        assert refused.reason == "test_mode_required"
    async with referee(test_mode=True) as ref:
        refused = await refusal_of(ref.tables.CreateTable(request))
        assert refused.reason == "bad_table_settings"
        assert refused.code == grpc.StatusCode.INVALID_ARGUMENT
