"""Every refusal reason the API can reach, as a client sees it.

Each refusal is made twice, plainly and with ``accept-language: de`` (``refused``), and
must carry the gRPC status code, a ``google.rpc.ErrorInfo`` with the reason in the domain
``referee.bhabhi``, ``LocalizedMessage`` details in English, German and Polish with every
placeholder filled, and the status message in the asked language.  An illegal move also
lists the seat's legal actions in the ErrorInfo metadata, and changes nothing.

``test_every_reason_is_covered`` checks that the tests below, together, reach every reason
of ``errors.MESSAGES`` but those the API cannot reach (``UNREACHABLE``, with the reason).
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import pytest
from bhabhi.referee.v1 import referee_pb2 as pb
from google.protobuf import duration_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from server_helpers import (
    BHABHO_DEAL,
    DECLARED,
    GERMAN,
    PICKUP,
    TAKE,
    TEST_LIMITS,
    Metadata,
    Player,
    action_message,
    bearer,
    bhabhi_command,
    check_refusal,
    covers,
    legal,
    play,
    referee,
    refusal_of,
    refused,
    run_async,
    seat_table,
)

from referee.server.errors import MESSAGES
from referee.server.limits import Limits
from referee.server.store import CommandRecord, ConflictError, StoreError
from referee.server.store.memory import MemoryStore
from referee.server.table import TableStatus

Code = grpc.StatusCode

UNREACHABLE = {
    "hand_over": "a finished hand is followed by the next deal (or the session's end) in the "
    "same locked command, so no action ever meets a finished hand",
}


def test_every_reason_is_covered() -> None:
    importlib.import_module("test_server_hardening")  # its tests declare reasons too
    covered = frozenset().union(*DECLARED.values())
    assert covered | set(UNREACHABLE) == set(MESSAGES), sorted(set(MESSAGES) - covered)
    assert not covered & set(UNREACHABLE)


# --- rulesets ------------------------------------------------------------------------------

HOUSE = """\
id: house
extends: bhabho
title: {en: House, de: Haus, pl: Dom}
description: {en: Ours., de: Unsere., pl: Nasze.}
"""


@run_async
@covers("ruleset_not_found", "register_not_allowed")
async def test_ruleset_refusals_without_registering() -> None:
    async with referee() as ref:
        await refused(
            lambda md: ref.rulesets.GetRuleset(pb.GetRulesetRequest(id="bhabo"), metadata=md),
            Code.NOT_FOUND,
            "ruleset_not_found",
        )
        await refused(
            lambda md: ref.tables.CreateTable(
                pb.CreateTableRequest(ruleset_id="bhabo", seat_count=4), metadata=md
            ),
            Code.NOT_FOUND,
            "ruleset_not_found",
        )
        await refused(
            lambda md: ref.rulesets.RegisterRuleset(
                pb.RegisterRulesetRequest(yaml=HOUSE), metadata=md
            ),
            Code.PERMISSION_DENIED,
            "register_not_allowed",
        )
        listed = await ref.rulesets.ListRulesets(pb.ListRulesetsRequest())
        assert "house" not in [r.id for r in listed.rulesets]


@run_async
@covers("invalid_ruleset", "ruleset_exists")
async def test_ruleset_refusals_when_registering() -> None:
    async with referee(allow_register=True) as ref:
        refusal = await refused(
            lambda md: ref.rulesets.RegisterRuleset(
                pb.RegisterRulesetRequest(yaml=HOUSE + "trump: sometimes\n"), metadata=md
            ),
            Code.INVALID_ARGUMENT,
            "invalid_ruleset",
        )
        assert "upload.yaml:5:8: trump:" in refusal.message
        await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=HOUSE))
        for text in (
            HOUSE,
            HOUSE.replace("id: house", "id: bhabho").replace("extends: bhabho", "extends: pickup"),
        ):

            def register(md: Metadata, text: str = text) -> Any:
                return ref.rulesets.RegisterRuleset(
                    pb.RegisterRulesetRequest(yaml=text), metadata=md
                )

            await refused(register, Code.ALREADY_EXISTS, "ruleset_exists")
        got = await ref.rulesets.GetRuleset(pb.GetRulesetRequest(id="bhabho"))
        assert got.ruleset.origin == pb.RULESET_ORIGIN_BUNDLED


@run_async
@covers("ruleset_not_found", "bad_rulebook_request")
async def test_rulebook_refusals() -> None:
    """GetRulebook: an unknown ruleset is NOT_FOUND, a language or a format the referee does
    not write is INVALID_ARGUMENT, naming the field and what there is."""
    async with referee() as ref:

        def book(**fields: Any) -> Callable[[Metadata], Any]:
            return lambda md: ref.rulesets.GetRulebook(pb.GetRulebookRequest(**fields), metadata=md)

        await refused(book(ruleset_id="bhabo"), Code.NOT_FOUND, "ruleset_not_found")
        wrong = await refused(
            book(ruleset_id="bhabho", language="fr"), Code.INVALID_ARGUMENT, "bad_rulebook_request"
        )
        assert (wrong.metadata["field"], wrong.metadata["value"]) == ("language", "'fr'")
        assert "en" in wrong.metadata["choices"].split(", ")
        wrong = await refused(
            book(ruleset_id="bhabho", format=9), Code.INVALID_ARGUMENT, "bad_rulebook_request"
        )
        assert wrong.metadata["field"] == "format"
        assert wrong.metadata["choices"] == "text, markdown, html"


@run_async
@covers("ruleset_not_found", "players_not_allowed", "bad_analysis_request")
async def test_analysis_refusals() -> None:
    """AnalyzeRuleset: an unknown ruleset, a player count the ruleset does not allow, more
    hands than the referee plays and a seat over 128 characters are refused before any hand
    is played."""
    async with referee(limits=dataclasses.replace(TEST_LIMITS, analysis_max_hands=50)) as ref:

        def analysis(**fields: Any) -> Callable[[Metadata], Any]:
            request = pb.AnalyzeRulesetRequest(**fields)
            return lambda md: ref.rulesets.AnalyzeRuleset(request, metadata=md)

        await refused(analysis(ruleset_id="bhabo"), Code.NOT_FOUND, "ruleset_not_found")
        wrong = await refused(
            analysis(ruleset_id="bhabho", players=[3, 2]),
            Code.INVALID_ARGUMENT,
            "players_not_allowed",
        )
        assert "not 2" in wrong.localized["en"]
        for fields in ({"hands": 51}, {"hands": -1}, {"seed": "s" * 129}):
            await refused(
                analysis(ruleset_id="bhabho", **fields),
                Code.INVALID_ARGUMENT,
                "bad_analysis_request",
            )
        assert not ref.running.referee.analyst.workers.asking


# --- tables --------------------------------------------------------------------------------


def create(ref_tables: Any, **fields: Any) -> Callable[[Metadata], Any]:
    def call(md: Metadata) -> Any:
        return ref_tables.CreateTable(pb.CreateTableRequest(**fields), metadata=md)

    return call


@run_async
@covers("players_not_allowed", "bad_table_settings", "test_mode_required")
async def test_create_table_refusals() -> None:
    async with referee() as ref:
        for ruleset_id, seats in (("bhabho", 2), ("bhabho", 9), ("bhabho", -4), ("team", 5)):
            refusal = await refused(
                create(ref.tables, ruleset_id=ruleset_id, seat_count=seats),
                Code.INVALID_ARGUMENT,
                "players_not_allowed",
            )
            assert f"not {seats}" in refusal.message
        await refused(
            create(ref.tables, ruleset_id="bhabho", seat_count=4, hands=-1),
            Code.INVALID_ARGUMENT,
            "bad_table_settings",
        )
        await refused(
            create(
                ref.tables,
                ruleset_id="bhabho",
                seat_count=4,
                turn_time=duration_pb2.Duration(seconds=-5),
            ),
            Code.INVALID_ARGUMENT,
            "bad_table_settings",
        )
        deal = [pb.SeatCards(cards=["AS"]), pb.SeatCards(), pb.SeatCards()]
        for explicit in ({"test_deal": deal}, {"test_draws": ["2C"]}, {"test_dealer": 1}):
            await refused(
                create(ref.tables, ruleset_id="pickup", seat_count=3, **explicit),
                Code.PERMISSION_DENIED,
                "test_mode_required",
            )
        assert not (await ref.tables.ListTables(pb.ListTablesRequest())).tables
    async with referee(test_mode=True) as ref:
        bad_deals = [
            ["ZZ", "", ""],  # not a card
            ["AS", "AS", ""],  # dealt twice
            ["AS", ""],  # two hands for three seats
            ["AS/2", "", ""],  # not in a one-pack deck
        ]
        for cards in bad_deals:
            await refused(
                create(
                    ref.tables,
                    ruleset_id="pickup",
                    seat_count=3,
                    test_deal=[pb.SeatCards(cards=c.split()) for c in cards],
                ),
                Code.INVALID_ARGUMENT,
                "bad_table_settings",
            )
        for dealer in (3, -1):
            await refused(
                create(
                    ref.tables,
                    ruleset_id="pickup",
                    seat_count=3,
                    test_deal=deal,
                    test_dealer=dealer,
                ),
                Code.INVALID_ARGUMENT,
                "bad_table_settings",
            )
        assert not (await ref.tables.ListTables(pb.ListTablesRequest())).tables


@run_async
@covers(
    "table_not_found",
    "unknown_seat",
    "seat_taken",
    "table_full",
    "table_not_full",
    "table_not_open",
    "unauthenticated",
    "bad_credential",
    "table_not_playing",
)
async def test_seat_refusals() -> None:
    async with referee() as ref:
        tables = ref.tables
        for call in (
            lambda md: tables.GetTable(pb.GetTableRequest(table_id="nope"), metadata=md),
            lambda md: tables.JoinTable(pb.JoinTableRequest(table_id="nope"), metadata=md),
            lambda md: ref.play.GetView(pb.GetViewRequest(table_id="nope"), metadata=md),
            lambda md: ref.play.ExportHand(pb.ExportHandRequest(table_id="nope"), metadata=md),
        ):
            await refused(call, Code.NOT_FOUND, "table_not_found")
        seated = await seat_table(ref, "pickup", 3, start=False)
        tid = seated.table_id
        p0 = seated.players[0]
        await tables.LeaveTable(pb.LeaveTableRequest(table_id=tid), metadata=p0.md)

        def join(seat: int | None) -> Callable[[Metadata], Any]:
            request = pb.JoinTableRequest(table_id=tid, player_name="late")
            if seat is not None:
                request.seat = seat
            return lambda md: tables.JoinTable(request, metadata=md)

        for seat in (3, -1, 1 << 30):
            await refused(join(seat), Code.INVALID_ARGUMENT, "unknown_seat")
        refusal = await refused(join(1), Code.FAILED_PRECONDITION, "seat_taken")
        assert refusal.metadata["seat"] == "1" and "1" in refusal.message

        def start(md: Metadata) -> Any:
            return tables.StartTable(
                pb.StartTableRequest(table_id=tid), metadata=seated.players[1].md + md
            )

        refusal = await refused(start, Code.FAILED_PRECONDITION, "table_not_full")
        assert "(1 free)" in refusal.message and "(1 frei)" in refusal.localized["de"]
        rejoined = await tables.JoinTable(pb.JoinTableRequest(table_id=tid))
        assert rejoined.seat == 0
        await refused(join(None), Code.FAILED_PRECONDITION, "table_full")
        # Before the start: no action, no credential-less start, no forged one.

        def submit(md: Metadata) -> Any:
            return ref.play.SubmitAction(
                pb.SubmitActionRequest(table_id=tid, action=play("AS"), request_id="a"),
                metadata=bearer(rejoined.seat_token) + md,
            )

        await refused(submit, Code.FAILED_PRECONDITION, "table_not_playing")
        await refused(
            lambda md: tables.StartTable(pb.StartTableRequest(table_id=tid), metadata=md),
            Code.UNAUTHENTICATED,
            "unauthenticated",
        )
        await refused(
            lambda md: tables.StartTable(
                pb.StartTableRequest(table_id=tid), metadata=bearer(p0.token) + md
            ),  # the seat was given up: the old credential is void
            Code.UNAUTHENTICATED,
            "bad_credential",
        )
        await start(())
        await refused(join(None), Code.FAILED_PRECONDITION, "table_not_open")
        await refused(
            lambda md: tables.LeaveTable(
                pb.LeaveTableRequest(table_id=tid), metadata=seated.players[2].md + md
            ),
            Code.FAILED_PRECONDITION,
            "table_not_open",
        )
        table = await seated.table()
        assert table.status == pb.TABLE_STATUS_PLAYING
        assert [s.player_name for s in table.seats] == ["Player 0", "player 1", "player 2"]


@run_async
@covers("unauthenticated", "bad_credential")
async def test_the_seat_comes_from_the_credential_only() -> None:
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "bhabho", 4, deal=BHABHO_DEAL)
        other = await seat_table(ref, "bhabho", 4, deal=BHABHO_DEAL)
        tid = seated.table_id
        p0, p1 = seated.players[:2]
        seq = (await p0.view()).seq
        forged = [
            f"{tid}.0.{'A' * 32}",  # the form of a credential, not one
            other.players[0].token,  # seat 0 of another table
            p0.token + "x",
            f"Basic {p0.token}",
        ]
        for token in forged:

            def submit(md: Metadata, token: str = token) -> Any:
                return ref.play.SubmitAction(
                    pb.SubmitActionRequest(
                        table_id=tid, action=play("AS"), request_id="f", expected_seq=seq
                    ),
                    metadata=(("authorization", f"Bearer {token}"), *md),
                )

            await refused(submit, Code.UNAUTHENTICATED, "bad_credential")

            def view(md: Metadata, token: str = token) -> Any:
                return ref.play.GetView(
                    pb.GetViewRequest(table_id=tid), metadata=bearer(token) + md
                )

            await refused(view, Code.UNAUTHENTICATED, "bad_credential")
            refusal = await refusal_of(
                ref.play.WatchTable(
                    pb.WatchTableRequest(table_id=tid), metadata=bearer(token)
                ).read()
            )
            check_refusal(refusal, Code.UNAUTHENTICATED, "bad_credential", "en")
        for metadata in ((), (("authorization", "Bearer "),), (("x-seat", "0"),)):

            def anonymous(md: Metadata, metadata: Metadata = metadata) -> Any:
                return ref.play.SubmitAction(
                    pb.SubmitActionRequest(
                        table_id=tid, action=play("AS"), request_id="n", expected_seq=seq
                    ),
                    metadata=metadata + md,
                )

            await refused(anonymous, Code.UNAUTHENTICATED, "unauthenticated")
        # Seat 1 cannot play seat 0's card, whatever it claims: its credential says seat 1.
        refusal = await refusal_of(
            p1.submit(play("AS"), seq, extra=(("x-seat", "0"), ("seat", "0")))
        )
        assert refusal.reason == "not_your_turn" and refusal.metadata["turn"] == "0"
        assert (await p0.view()).seq == seq
        answer = await p0.submit(play("AS"), seq)
        assert answer.events[0].card_played.seat == 0
        assert "AS" not in (await p1.view()).view.hand


# --- play ----------------------------------------------------------------------------------

# Pick-up, four seats, counterclockwise (0, 3, 2, 1): seat 3 empties its hand on trick 0.
PICKUP_DEAL = ["AS 2H", "JS 5H 6H", "QS 3H 4H", "KS"]


async def illegal(player: Player, action: pb.Action, code: Code, reason: str) -> dict[str, str]:
    """An illegal move by ``player``: refused with the seat's legal actions, and nothing
    changes (the seq, and every view)."""
    before = await player.view()
    refusal = await refused(lambda md: player.submit(action, before.seq, extra=md), code, reason)
    listed = [a for a in refusal.metadata["legal_actions"].split(",") if a]
    assert listed == legal(before.view)
    after = await player.view()
    assert after == before
    return refusal.metadata


@run_async
@covers(
    "must_lead_card",
    "card_not_in_hand",
    "card_not_in_deck",
    "not_your_turn",
    "pickup_not_allowed",
    "take_hand_not_allowed",
    "must_follow_suit",
)
async def test_illegal_moves_in_bhabho() -> None:
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "bhabho", 4, deal=BHABHO_DEAL)
        p0, p1, _, p3 = seated.players
        failed = Code.FAILED_PRECONDITION
        await illegal(p0, play("2H"), failed, "must_lead_card")
        await illegal(p0, play("KS"), failed, "card_not_in_hand")
        await illegal(p0, play("AS/2"), Code.INVALID_ARGUMENT, "card_not_in_deck")
        await illegal(p0, PICKUP, failed, "pickup_not_allowed")
        metadata = await illegal(p1, play("KS"), failed, "not_your_turn")
        assert metadata["turn"] == "0"
        view = await p0.view()
        await p0.submit(play("AS"), view.seq)
        await illegal(p3, TAKE, failed, "take_hand_not_allowed")  # only before a trick
        await illegal(p1, play("4H"), failed, "must_follow_suit")
        view = await p1.view()
        refusal = await refusal_of(p1.submit(play("4H"), view.seq, extra=GERMAN))
        assert "Pik" in refusal.message  # the suit in the caller's language


@run_async
@covers("action_not_allowed", "bad_action")
async def test_a_decision_no_rule_offers_is_refused() -> None:
    """A house rule's decision (a pass, a challenge, a consent) where none is open."""
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "bhabho", 4, deal=BHABHO_DEAL)
        p0, p1 = seated.players[0], seated.players[1]
        failed = Code.FAILED_PRECONDITION
        for kind in (pb.ACTION_KIND_PASS, pb.ACTION_KIND_CHALLENGE, pb.ACTION_KIND_AGREE):
            metadata = await illegal(p0, pb.Action(kind=kind), failed, "action_not_allowed")
            assert "AS" in metadata["legal_actions"]
        await illegal(p1, pb.Action(kind=pb.ACTION_KIND_REFUSE), failed, "action_not_allowed")
        await illegal(
            p0, pb.Action(kind=pb.ACTION_KIND_CHOOSE_TRUMP, suit="H"), failed, "action_not_allowed"
        )
        view = await p0.view()
        for malformed in (
            pb.Action(kind=pb.ACTION_KIND_CHOOSE_TRUMP, suit="X"),
            pb.Action(kind=pb.ACTION_KIND_DRAW_FROM),  # from whom?
            pb.Action(kind=pb.ACTION_KIND_PASS, seat=2),
        ):

            def submit(md: Any, action: pb.Action = malformed) -> Any:
                return p0.submit(action, view.seq, extra=md)

            await refused(submit, Code.INVALID_ARGUMENT, "bad_action")
        assert await p0.view() == view


@run_async
@covers("take_hand_not_allowed", "player_out")
async def test_illegal_moves_in_pickup() -> None:
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "pickup", 4, deal=PICKUP_DEAL)
        p0, p1, p2, p3 = seated.players
        failed = Code.FAILED_PRECONDITION
        await illegal(p0, TAKE, failed, "take_hand_not_allowed")  # no B9 in these rules
        for player, card in ((p0, "AS"), (p3, "KS"), (p2, "QS"), (p1, "JS")):
            view = await player.view()
            await player.submit(play(card), view.seq)
        view = await p3.view()
        assert view.view.out[3]  # emptied its hand: out (P3)
        await illegal(p3, play("KS"), failed, "player_out")


H14_CHOSEN = """\
id: house-chosen-draw
extends: bhabho
clauses: [C1, C2, C3, C4, C5, C6, C7, C9, C10, C11, C12, C13, C14, C15, C16, B1, B2, B3, B4, B5,
  B6, B7, B9, H14]
next_leader: {if_out: draws_from_player, draw_from: chosen}
"""


@run_async
@covers("action_not_allowed", "take_hand_not_allowed")
async def test_a_decision_not_offered_is_refused() -> None:
    """H14: while the drawer chooses whose hand to draw from, a draw from itself is no
    choice offered, and nobody may take a hand."""
    async with referee(test_mode=True, allow_register=True) as ref:
        await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=H14_CHOSEN))
        deal = ["AS KD", "2S QD JH 7C", "3S 4D 9H", "4S 3D 6H 8H 10H"]
        seated = await seat_table(ref, "house-chosen-draw", 4, deal=deal)
        players = seated.players
        for seat, card in enumerate(["AS", "2S", "3S", "4S", "KD", "QD", "4D", "3D"]):
            player = players[seat % 4]
            view = await player.view()
            await player.submit(play(card), view.seq)
        failed = Code.FAILED_PRECONDITION
        own = pb.Action(kind=pb.ACTION_KIND_DRAW_FROM, seat=0)
        metadata = await illegal(players[0], own, failed, "action_not_allowed")
        assert metadata["legal_actions"] == "draw:1,draw:2,draw:3"
        await illegal(players[1], TAKE, failed, "take_hand_not_allowed")


@run_async
@covers("must_pick_up")
async def test_must_pick_up_when_void() -> None:
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "pickup", 3, deal=["AS 5S 9H", "2S 3S 7C QC", "4C KH"])
        p0, _, p2 = seated.players
        view = await p0.view()
        await p0.submit(play("AS"), view.seq)
        metadata = await illegal(p2, play("4C"), Code.FAILED_PRECONDITION, "must_pick_up")
        assert metadata["legal_actions"] == "pickup"


@run_async
@covers("stale_seq", "request_id_reused", "missing_request_id", "bad_action")
async def test_request_refusals() -> None:
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "bhabho", 4, deal=BHABHO_DEAL)
        p0 = seated.players[0]
        view = await p0.view()
        seq = view.seq
        refusal = await refused(
            lambda md: p0.submit(play("AS"), seq - 1, extra=md), Code.ABORTED, "stale_seq"
        )
        assert refusal.metadata["last_seq"] == str(seq)
        refusal = await refused(
            lambda md: p0.submit(play("AS"), seq + 5, extra=md), Code.ABORTED, "stale_seq"
        )
        assert refusal.metadata["last_seq"] == str(seq)
        await refused(
            lambda md: ref.play.SubmitAction(
                pb.SubmitActionRequest(table_id=p0.table_id, action=play("AS"), expected_seq=seq),
                metadata=p0.md + md,
            ),
            Code.INVALID_ARGUMENT,
            "missing_request_id",
        )
        malformed = [
            (pb.Action(), "r1"),  # kind unset
            (pb.Action(card="AS"), "r2"),  # a card but no kind
            (play("ZZ"), "r3"),
            (play(""), "r4"),
            (play("AS"), "x" * 129),
            (play("AS"), "x" * 100_000),
        ]
        for action, request_id in malformed:

            def submit(
                md: Metadata, action: pb.Action = action, request_id: str = request_id
            ) -> Any:
                return p0.submit(action, seq, request_id, extra=md)

            await refused(submit, Code.INVALID_ARGUMENT, "bad_action")
        assert await p0.view() == view  # nothing changed
        answer = await p0.submit(play("AS"), seq, "mine")
        await refused(
            lambda md: p0.submit(TAKE, answer.last_seq, "mine", extra=md),
            Code.INVALID_ARGUMENT,
            "request_id_reused",
        )
        assert answer.events[0].card_played.card == "AS"


@run_async
@covers("hand_not_found", "hand_not_over", "bad_after_seq")
async def test_export_and_watch_refusals() -> None:
    async with referee() as ref:
        seated = await seat_table(ref, "bhabho", 4)
        tid = seated.table_id
        for number, code, reason in (
            (0, Code.FAILED_PRECONDITION, "hand_not_over"),
            (1, Code.NOT_FOUND, "hand_not_found"),
            (-1, Code.NOT_FOUND, "hand_not_found"),
        ):

            def export(md: Metadata, number: int = number) -> Any:
                return ref.play.ExportHand(
                    pb.ExportHandRequest(table_id=tid, hand_number=number), metadata=md
                )

            await refused(export, code, reason)
        last = (await seated.table()).last_seq
        for after in (last + 1, -1, 1 << 62):
            for md in ((), GERMAN):
                refusal = await refusal_of(
                    ref.play.WatchTable(
                        pb.WatchTableRequest(table_id=tid, after_seq=after), metadata=md
                    ).read()
                )
                check_refusal(refusal, Code.INVALID_ARGUMENT, "bad_after_seq", "de" if md else "en")
        # after_seq equal to the last seq is fine: the stream waits for what comes next.
        call = seated.players[0].watch(last)
        read = asyncio.ensure_future(call.read())
        await asyncio.sleep(0.05)
        assert not read.done()
        call.cancel()


@run_async
@covers("unavailable")
async def test_actions_are_refused_while_draining() -> None:
    """An action that waited for its table while the referee began to drain is refused
    with ``unavailable`` (retry elsewhere or later), not applied."""
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "bhabho", 4, deal=BHABHO_DEAL)
        p0 = seated.players[0]
        seq = (await p0.view()).seq
        table = ref.running.referee.tables[seated.table_id]
        await table.lock.acquire()
        pending = [
            asyncio.ensure_future(p0.submit(play("AS"), seq, "drained", extra=md))
            for md in ((), GERMAN)
        ]
        await asyncio.sleep(0.1)  # both calls wait for the table
        stopping = asyncio.ensure_future(ref.running.stop(grace=5))
        await asyncio.sleep(0.1)
        table.lock.release()
        for call, language in zip(pending, ("en", "de"), strict=True):
            refusal = await refusal_of(call)
            check_refusal(refusal, Code.UNAVAILABLE, "unavailable", language)
        await stopping
        assert table.last_seq == seq


@run_async
@covers("bad_table_settings")
async def test_test_draws_that_cannot_be_drawn_are_refused_not_stored(tmp_path: Path) -> None:
    """A test deal whose B8 draw names a card not in the waste pile when the draw comes:
    the action that would draw is refused, nothing is stored, and the referee restarts."""
    db = tmp_path / "referee.sqlite3"
    deal = ["AS 2C", "KS 3C 4C", "QS AC"]
    async with referee(db=db, test_mode=True) as ref:
        seated = await seat_table(ref, "bhabho", 3, deal=deal, draws=["4C"])
        for seat, card in [(0, "AS"), (1, "KS"), (2, "QS"), (0, "2C"), (1, "3C")]:
            player = seated.players[seat]
            await player.submit(play(card), (await player.view()).seq)
        p2 = seated.players[2]
        before = await p2.view()
        refusal = await refused(
            lambda md: p2.submit(play("AC"), before.seq, extra=md),
            Code.INVALID_ARGUMENT,
            "bad_table_settings",
        )
        assert "4C" in refusal.message
        assert await p2.view() == before
    async with referee(db=db, test_mode=True) as ref:  # the log still replays
        table = await ref.tables.GetTable(pb.GetTableRequest(table_id=seated.table_id))
        assert table.table.last_seq == before.seq
        p2.stubs = ref.connect()
        assert await p2.view() == before


@run_async
async def test_the_status_message_follows_accept_language() -> None:
    async with referee() as ref:
        for header, language in (
            ("de", "de"),
            ("de-CH", "de"),
            ("de-DE,de;q=0.9,en;q=0.8", "de"),
            ("pl", "pl"),
            ("PL-pl", "pl"),
            ("en-GB", "en"),
            ("fr", "en"),
        ):
            refusal = await refusal_of(
                ref.tables.GetTable(
                    pb.GetTableRequest(table_id="nope"), metadata=(("accept-language", header),)
                )
            )
            check_refusal(refusal, Code.NOT_FOUND, "table_not_found", language)


class FaultyStore(MemoryStore):
    """A shared MemoryStore whose appends fail on demand: ``StoreError`` as a database that
    went away, ``ConflictError`` as other replicas that always win the race for the table."""

    def __init__(self) -> None:
        super().__init__(shared=True)
        self.fail: StoreError | None = None

    async def append(
        self,
        command: CommandRecord,
        *,
        table_status: str | None = None,
        wake_at: float | None = None,
    ) -> None:
        if self.fail is not None:
            raise self.fail
        await super().append(command, table_status=table_status, wake_at=wake_at)


@run_async
@covers("store_unavailable", "table_busy")
async def test_a_store_that_fails_is_a_refusal_that_changes_nothing() -> None:
    store = FaultyStore()
    async with referee(store=store) as ref:
        seated = await seat_table(ref, "bhabho", 4)
        before = await seated.spectate()
        mover = seated.players[before.view.turn]
        card = legal((await mover.view()).view)[0]

        def submit(md: Metadata) -> Any:
            return mover.submit(action_message(card), before.seq, "the-move", extra=md)

        store.fail = StoreError("cannot write to store postgresql://127.0.0.1:5432/test: gone")
        refusal = await refused(submit, Code.UNAVAILABLE, "store_unavailable")
        assert "127.0.0.1:5432" in refusal.message
        store.fail = ConflictError("table already has command number 9")
        await refused(submit, Code.ABORTED, "table_busy")
        assert await seated.spectate() == before
        store.fail = None  # back: the same request is applied, once
        answer = await submit(())
        assert answer.last_seq > before.seq
        assert (await submit(())).last_seq == answer.last_seq


@run_async
@covers("bad_request")
async def test_bytes_that_are_not_the_request_message_are_refused_with_error_info() -> None:
    """A client in another language sending broken bytes learns what is wrong, with the
    same ErrorInfo as every refusal, for unary and streaming methods alike."""
    async with referee() as ref:
        for method in (
            "/bhabhi.referee.v1.PlayService/SubmitAction",
            "/bhabhi.referee.v1.TableService/GetTable",
        ):
            call = ref.channel.unary_unary(
                method, request_serializer=bytes, response_deserializer=bytes
            )

            def broken(md: Metadata, call: Any = call) -> Any:
                return call(b"\xff\xff\xff\xff\x0f", metadata=md)

            refusal = await refused(broken, Code.INVALID_ARGUMENT, "bad_request")
            assert "bhabhi.referee.v1." in refusal.message
        stream = ref.channel.unary_stream(
            "/bhabhi.referee.v1.PlayService/WatchTable",
            request_serializer=bytes,
            response_deserializer=bytes,
        )

        async def watch(md: Metadata) -> list[bytes]:
            return [item async for item in stream(b"\x0a\xff", metadata=md)]

        await refused(watch, Code.INVALID_ARGUMENT, "bad_request")
        # A well-formed request on the same channel is served as ever.
        listed = await ref.rulesets.ListRulesets(pb.ListRulesetsRequest())
        assert listed.rulesets


# --- limits ----------------------------------------------------------------------------------


@run_async
@covers("too_many_tables")
async def test_a_referee_hosts_at_most_max_tables_open_or_in_play() -> None:
    async with referee(limits=Limits(max_tables=2)) as ref:
        first = await seat_table(ref, "bhabho", 4, start=False)
        await seat_table(ref, "bhabho", 4, start=False)
        listed = await ref.tables.ListTables(pb.ListTablesRequest())

        def create(md: Metadata) -> Any:
            request = pb.CreateTableRequest(ruleset_id="bhabho", seat_count=4)
            return ref.tables.CreateTable(request, metadata=md)

        refusal = await refused(create, Code.RESOURCE_EXHAUSTED, "too_many_tables")
        assert refusal.metadata["limit"] == "2"
        assert await ref.tables.ListTables(pb.ListTablesRequest()) == listed  # nothing made
        # A finished session frees its place: play the first table to its end.
        ref.running.referee.tables[first.table_id].status = TableStatus.FINISHED
        assert (await create(())).table.table_id


@run_async
@covers("rate_limited")
async def test_a_seat_acting_faster_than_its_rate_is_told_how_long_to_wait() -> None:
    """Every attempt, refused or not, takes from the seat's allowance (it cost the referee
    the work); past it the seat is refused, nothing applied, with a RetryInfo; after that
    wait it is served again.  Each seat has its own allowance."""
    clock = [1000.0]
    async with referee(test_mode=True, limits=Limits(actions_per_second=2, action_burst=1)) as ref:
        ref.running.referee.gate._monotonic = lambda: clock[0]
        seated = await seat_table(ref, "bhabho", 4, deal=BHABHO_DEAL)
        p0, p1 = seated.players[:2]  # p0 holds the A of spades and leads
        seq = (await p1.view()).seq
        assert (await refusal_of(p1.submit(play("AS"), seq))).reason == "not_your_turn"

        def hurried(md: Metadata) -> Any:
            return p1.submit(play("AS"), seq, "hurried", extra=md)

        before = await seated.spectate()
        refusal = await refused(hurried, Code.RESOURCE_EXHAUSTED, "rate_limited")
        assert refusal.metadata["retry_ms"] == "500"  # one token at 2 a second
        assert await seated.spectate() == before
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await hurried(())
        status = rpc_status.from_call(caught.value)
        assert status is not None
        waits = [d for d in status.details if d.Is(error_details_pb2.RetryInfo.DESCRIPTOR)]
        assert len(waits) == 1
        wait = error_details_pb2.RetryInfo()
        waits[0].Unpack(wait)
        assert wait.retry_delay.ToMilliseconds() == 500
        # Seat 0 has its own allowance: its lead is applied.
        assert (await p0.submit(play("AS"), seq)).last_seq > seq
        clock[0] += 0.5  # the wait asked for: seat 1 is heard again
        assert (await refusal_of(hurried(()))).reason == "stale_seq"  # heard, and answered


@run_async
@covers("too_many_streams")
async def test_a_credential_holds_at_most_max_streams_and_gets_one_back_when_it_closes() -> None:
    async with referee(limits=Limits(max_streams_per_credential=1)) as ref:
        seated = await seat_table(ref, "bhabho", 4)
        p0 = seated.players[0]
        first = p0.watch()
        assert (await first.read()).HasField("event")  # the stream is open on the referee

        async def second(md: Metadata) -> Any:
            call = p0.stubs.play.WatchTable(
                pb.WatchTableRequest(table_id=seated.table_id), metadata=p0.md + md
            )
            return await call.read()

        refusal = await refused(second, Code.RESOURCE_EXHAUSTED, "too_many_streams")
        assert refusal.metadata["limit"] == "1"
        # Another seat, and a spectator, have their own count.
        other = seated.players[1].watch()
        assert (await other.read()).HasField("event")
        watching = seated.spectator_watch()
        assert (await watching.read()).HasField("event")

        async def spectator(md: Metadata) -> Any:
            call = ref.play.WatchTable(pb.WatchTableRequest(table_id=seated.table_id), metadata=md)
            return await call.read()

        await refused(spectator, Code.RESOURCE_EXHAUSTED, "too_many_streams")
        first.cancel()
        for _ in range(200):  # the referee hears of the cancel: the place is free again
            try:
                assert (await second(())).HasField("event")
                break
            except grpc.aio.AioRpcError as error:
                assert error.code() == Code.RESOURCE_EXHAUSTED
                await asyncio.sleep(0.01)
        else:
            raise AssertionError("the closed stream's place was never freed")
        other.cancel()
        watching.cancel()


@run_async
async def test_a_request_larger_than_max_message_bytes_is_refused_by_grpc() -> None:
    """gRPC refuses it before any referee code runs (RESOURCE_EXHAUSTED, without ErrorInfo:
    the request was never read); the connection goes on serving."""
    async with referee(limits=Limits(max_message_bytes=4096)) as ref:
        small = await ref.rulesets.ValidateRuleset(pb.ValidateRulesetRequest(yaml="id: x\n"))
        assert not small.valid
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await ref.rulesets.ValidateRuleset(pb.ValidateRulesetRequest(yaml="#" * 5000))
        assert caught.value.code() == Code.RESOURCE_EXHAUSTED
        assert (await ref.rulesets.ListRulesets(pb.ListRulesetsRequest())).rulesets


def test_limits_are_checked_when_set() -> None:
    for bad in (
        {"max_tables": -1},
        {"max_streams_per_credential": -2},
        {"actions_per_second": -0.5},
        {"action_burst": -1},
        {"max_message_bytes": 100},
    ):
        with pytest.raises(ValueError, match=next(iter(bad))):
            Limits(**bad)


@run_async
async def test_behind_trusted_proxies_spectators_count_by_forwarded_address() -> None:
    """With ``trusted_proxy_hops`` the address the proxy appended to x-forwarded-for tells
    spectators apart (what a client wrote before it is not trusted); without, the header is
    ignored, since any client could send it."""

    async def open_as(ref: Any, table_id: str, forwarded: str) -> Any:
        call = ref.play.WatchTable(
            pb.WatchTableRequest(table_id=table_id),
            metadata=(("x-forwarded-for", forwarded),),
        )
        await call.read()
        return call

    for hops, second_allowed in ((1, True), (0, False)):
        limits = Limits(max_streams_per_credential=1, trusted_proxy_hops=hops)
        async with referee(limits=limits) as ref:
            seated = await seat_table(ref, "bhabho", 4)
            first = await open_as(ref, seated.table_id, "203.0.113.7")
            if second_allowed:
                second = await open_as(ref, seated.table_id, "203.0.113.7, 198.51.100.2")
                second.cancel()
            else:
                refusal = await refusal_of(open_as(ref, seated.table_id, "198.51.100.2"))
                assert refusal.reason == "too_many_streams"
            # The same forwarded address (whatever a client put in front of it) is one
            # spectator, who already has its stream.
            spoofed = await refusal_of(open_as(ref, seated.table_id, "10.9.9.9, 203.0.113.7"))
            assert spoofed.reason == "too_many_streams"
            first.cancel()


@pytest.mark.parametrize(
    ("flag", "value", "says"),
    [
        ("--max-tables", "-3", "must be 0 (no limit) or more, not -3"),
        ("--max-actions-per-second", "fast", "not a number: 'fast'"),
        ("--max-message-bytes", "10", "must be at least 1024 bytes, not 10"),
        ("--keep-finished", "-1", "must be 0 or more seconds, not -1"),
        ("--trusted-proxy-hops", "x", "not a whole number: 'x'"),
        ("--tables-per-minute", "-1", "must be 0 (no limit) or a positive number, not -1"),
        ("--open-table-seconds", "soon", "not a number of seconds: 'soon'"),
        ("--min-turn-time", "-0.5", "must be 0 or more seconds, not -0.5"),
        ("--validation-workers", "0", "must be 1 or more"),
        ("--validation-cpu-seconds", "0", "must be more than 0 seconds"),
        ("--analysis-workers", "0", "must be 1 or more"),
        ("--analysis-cpu-seconds", "-2", "must be 0 or more seconds, not -2"),
        ("--analysis-max-hands", "many", "not a whole number: 'many'"),
    ],
)
def test_serve_refuses_a_bad_limit_in_one_line(
    tmp_path: Path, flag: str, value: str, says: str
) -> None:
    result = subprocess.run(
        [*bhabhi_command(), "serve", "--db", str(tmp_path / "r.sqlite3"), flag, value],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines()[-1] == (
        f"bhabhi serve: error: argument {flag}: {says}"
    )
    assert not (tmp_path / "r.sqlite3").exists()  # refused before anything was opened


FLOOR_ABOVE_CEILING = ("--min-turn-time", "100000")


def test_serve_refuses_limits_that_contradict_each_other(tmp_path: Path) -> None:
    result = subprocess.run(
        [*bhabhi_command(), "serve", "--db", str(tmp_path / "r.sqlite3"), *FLOOR_ABOVE_CEILING],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == (
        "bhabhi serve: error: min_turn_time must be at most 86400 seconds (max_turn_time),"
        " not 100000"
    )
    assert not (tmp_path / "r.sqlite3").exists()


DEALERS_TRUMP = """\
id: house-dealers-trump
extends: bhabho
clauses: [C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, B1, B2, B3, B4,
  B5, B6, B7, B8, B9, X3, H12]
trump: dealer_choice
"""


@run_async
@covers("action_not_allowed", "not_your_turn")
async def test_before_the_dealer_names_the_trump_nothing_else_is_allowed() -> None:
    """H12: the dealer's card and another seat's trump are refused (action_not_allowed),
    the first leader's card is not its turn; the dealer's naming of the trump is then
    refused a second time."""
    async with referee(test_mode=True, allow_register=True) as ref:
        registered = await ref.rulesets.RegisterRuleset(
            pb.RegisterRulesetRequest(yaml=DEALERS_TRUMP)
        )
        seated = await seat_table(ref, registered.ruleset.id, 4, deal=BHABHO_DEAL, dealer=3)
        p0, _, _, p3 = seated.players
        failed = Code.FAILED_PRECONDITION
        hearts = pb.Action(kind=pb.ACTION_KIND_CHOOSE_TRUMP, suit="H")
        await illegal(p3, play("JS"), failed, "action_not_allowed")
        await illegal(p0, hearts, failed, "action_not_allowed")
        metadata = await illegal(p0, play("AS"), failed, "not_your_turn")
        assert metadata["turn"] == "3"
        view = await p3.view()
        await p3.submit(hearts, view.seq)
        await illegal(p3, hearts, failed, "action_not_allowed")


@run_async
@covers("action_not_allowed")
async def test_a_challenge_with_no_trick_to_challenge_is_refused() -> None:
    """H25 off (bhabho): a challenge is never offered, and is refused with the seat's
    legal actions; nothing changes."""
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "bhabho", 4, deal=BHABHO_DEAL)
        p0 = seated.players[0]
        challenge = pb.Action(kind=pb.ACTION_KIND_CHALLENGE)
        metadata = await illegal(p0, challenge, Code.FAILED_PRECONDITION, "action_not_allowed")
        assert "AS" in metadata["legal_actions"]


# --- bots already connected ------------------------------------------------------------------

BOT_KEY = "a-key-of-twenty-chars"


@run_async
@covers("bad_bot_key", "bot_not_waiting", "bot_already_waiting", "unauthenticated")
async def test_handing_a_seat_and_waiting_for_one_refuse_bad_keys_and_strangers() -> None:
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "bhabho", 4)
        p1 = seated.players[1]

        def hand(key: str, md: Metadata = ()) -> Callable[[Metadata], Any]:
            request = pb.HandSeatRequest(table_id=seated.table_id, bot_key=key)
            return lambda more: ref.tables.HandSeat(request, metadata=md + more)

        def wait(key: str) -> Callable[[Metadata], Any]:
            async def call(md: Metadata) -> Any:
                stream: Any = ref.tables.AwaitSeats(pb.AwaitSeatsRequest(bot_key=key), metadata=md)
                return await stream.read()

            return call

        for key in (
            "",
            "x" * 15,
            "x" * 129,
            "sixteen chars ok",
            "sixteen-chars-\u00e9k",
            "a\tb" * 8,
        ):
            refusal = await refused(wait(key), Code.INVALID_ARGUMENT, "bad_bot_key")
            assert "16 to 128" in refusal.metadata["message"]
            await refused(hand(key, p1.md), Code.INVALID_ARGUMENT, "bad_bot_key")
        await refused(hand(BOT_KEY, p1.md), Code.FAILED_PRECONDITION, "bot_not_waiting")
        waiting: Any = ref.tables.AwaitSeats(pb.AwaitSeatsRequest(bot_key=BOT_KEY))
        assert (await waiting.read()).HasField("waiting")
        await refused(wait(BOT_KEY), Code.ALREADY_EXISTS, "bot_already_waiting")
        # Only a seat's holder hands it: a stranger, without or with a wrong credential.
        await refused(hand(BOT_KEY), Code.UNAUTHENTICATED, "unauthenticated")
        # Nothing reached the waiting bot: the first seat it is handed is the next message.
        await hand(BOT_KEY, p1.md)(())
        offer = (await waiting.read()).seat
        assert (offer.table_id, offer.seat, offer.seat_token) == (seated.table_id, 1, p1.token)
        waiting.cancel()
