"""Every RPC of the referee's API doing its job, in-process over loopback.

Refusals are checked in ``test_server_refusals.py``; whole games, secrecy, streams and
clocks in the other ``test_server_*`` modules.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import grpc
import pytest
import yaml
from bhabhi.referee.v1 import referee_pb2 as pb
from server_helpers import (
    ROOT,
    action_message,
    decode,
    drain_stream,
    legal,
    play,
    referee,
    refusal_of,
    replay_case,
    run_async,
    seat_table,
)

from referee import cli
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset
from referee.ruleset.model import ruleset_hash

HOUSE_RULES = """\
# A house variant: pick-up Bhabhi where the illegal card is penalised (C12).
id: house-penalty
extends: pickup
title:
  en: House penalty
  de: Hausstrafe
  pl: Kara domowa
description:
  en: Pick-up, with the table's penalty for a card that does not follow.
  de: Aufnehmen, mit der Strafe des Tisches für eine Karte, die nicht bedient.
  pl: Podnoszenie, z karą stołu za kartę, która nie dokłada do koloru.
illegal_play: pickup_penalty
"""

# Three seats of pick-up Bhabhi (counterclockwise: 0, 2, 1): seat 0 leads AS.
SMALL_DEAL = ["AS 5S 9H", "2S 3S 7C QC", "4C KH"]


# --- rulesets ------------------------------------------------------------------------------


@run_async
async def test_list_rulesets_are_the_bundled_ones_with_summaries() -> None:
    async with referee() as ref:
        listed = (await ref.rulesets.ListRulesets(pb.ListRulesetsRequest())).rulesets
        ids = [r.id for r in listed]
        assert ids == sorted(bundled_ruleset_paths()) == sorted(ids)
        for summary in listed:
            rules = load_ruleset(summary.id)
            assert summary.hash == rules.hash
            assert summary.origin == pb.RULESET_ORIGIN_BUNDLED
            assert set(summary.title) == set(summary.description) == {"en", "de", "pl"}
            assert summary.title["de"] == rules.title.de
            assert list(summary.clauses) == list(rules.clauses)
            assert (summary.min_players, summary.max_players) == (
                rules.players.min,
                rules.players.max,
            )
            assert summary.teams == (summary.id == "team")
            assert summary.direction == (
                pb.PLAY_DIRECTION_CLOCKWISE
                if rules.direction == "clockwise"
                else pb.PLAY_DIRECTION_COUNTERCLOCKWISE
            )
        directions = {s.id: s.direction for s in listed}
        assert directions["pickup"] == pb.PLAY_DIRECTION_COUNTERCLOCKWISE  # C3


@run_async
async def test_get_ruleset_returns_the_resolved_yaml_with_its_hash() -> None:
    async with referee() as ref:
        got = await ref.rulesets.GetRuleset(pb.GetRulesetRequest(id="whole-pile"))
        resolved = yaml.safe_load(got.yaml)
        assert "extends" not in resolved  # resolved: the base merged in
        assert resolved["off_suit"]["pickup_takes"] == "trick_and_waste"
        assert resolved["next_leader"]["after_pickup"] == "picker"  # from pickup
        assert ruleset_hash(resolved) == got.ruleset.hash == load_ruleset("whole-pile").hash


BROKEN = sorted(
    p.name
    for p in (ROOT / "tests" / "data" / "broken").glob("*.yaml")
    # An upload has no directory: `extends` of a sibling file cannot resolve; binary is no
    # text to put in a proto string.
    if p.stem not in ("cycle-a", "cycle-b", "binary")
)


@pytest.mark.parametrize("name", BROKEN)
def test_validate_ruleset_reports_problems_as_the_cli_does(
    name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    path = f"tests/data/broken/{name}"
    assert cli.main(["rules", "validate", path]) == 1
    printed = capsys.readouterr().out.splitlines()

    @run_async
    async def check() -> None:
        async with referee() as ref:
            text = (ROOT / path).read_text(encoding="utf-8")
            answer = await ref.rulesets.ValidateRuleset(
                pb.ValidateRulesetRequest(yaml=text, name=path)
            )
            assert not answer.valid and not answer.HasField("ruleset")
            lines = [
                f"{p.file}:{p.line}:{p.column}: {'warning: ' if p.warning else ''}{p.path}:"
                f" {p.message}"
                for p in answer.problems
            ]
            if [p.code for p in answer.problems] == ["missing_base"]:
                # The CLI also looked for a sibling file, which an upload does not have:
                # the same place, a different message.
                assert [line.split(": ")[:2] for line in lines] == [
                    line.split(": ")[:2] for line in printed
                ]
            else:
                assert lines == printed
            for problem in answer.problems:
                assert problem.line >= 1 and problem.column >= 1 and problem.code

    check()


@run_async
async def test_validate_ruleset_accepts_a_house_variant() -> None:
    async with referee() as ref:
        answer = await ref.rulesets.ValidateRuleset(pb.ValidateRulesetRequest(yaml=HOUSE_RULES))
        assert answer.valid and not answer.problems
        assert answer.ruleset.id == "house-penalty"
        assert answer.ruleset.hash.startswith("sha256:")
        broken = await ref.rulesets.ValidateRuleset(
            pb.ValidateRulesetRequest(yaml=HOUSE_RULES.replace("pickup_penalty", "maybe"))
        )
        assert not broken.valid
        assert [(p.file, p.path, p.code) for p in broken.problems] == [
            ("upload.yaml", "illegal_play", "not_allowed")
        ]
        assert (broken.problems[0].line, broken.problems[0].column) == (12, 15)


@run_async
async def test_register_ruleset_hosts_it_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "referee.sqlite3"
    async with referee(db=db, allow_register=True) as ref:
        registered = await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=HOUSE_RULES))
        assert registered.ruleset.id == "house-penalty"
        assert registered.ruleset.origin == pb.RULESET_ORIGIN_REGISTERED
        listed = (await ref.rulesets.ListRulesets(pb.ListRulesetsRequest())).rulesets
        assert "house-penalty" in [r.id for r in listed]
        seated = await seat_table(ref, "house-penalty", 3)
        table_id = seated.table_id
        duplicate = await refusal_of(
            ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=HOUSE_RULES))
        )
        assert (duplicate.code, duplicate.reason) == (
            grpc.StatusCode.ALREADY_EXISTS,
            "ruleset_exists",
        )
    async with referee(db=db) as ref:  # registering is off now; what was registered stays
        got = await ref.rulesets.GetRuleset(pb.GetRulesetRequest(id="house-penalty"))
        assert got.ruleset == registered.ruleset
        assert yaml.safe_load(got.yaml)["illegal_play"] == "pickup_penalty"
        table = (await ref.tables.GetTable(pb.GetTableRequest(table_id=table_id))).table
        assert table.ruleset.id == "house-penalty"
        assert table.status == pb.TABLE_STATUS_PLAYING
        created = await ref.tables.CreateTable(
            pb.CreateTableRequest(ruleset_id="house-penalty", seat_count=4)
        )
        assert created.table.ruleset.origin == pb.RULESET_ORIGIN_REGISTERED


@run_async
async def test_a_registered_penalty_variant_plays_c12() -> None:
    """C12 through the API: the card that does not follow goes back, its player picks up."""
    async with referee(allow_register=True, test_mode=True) as ref:
        await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=HOUSE_RULES))
        seated = await seat_table(ref, "house-penalty", 3, deal=SMALL_DEAL)
        p0, p1, p2 = seated.players
        view = await p0.view()
        await p0.submit(play("AS"), view.seq)
        view = await p2.view()
        await p2.submit(action_message("pickup"), view.seq)
        view = await p2.view()
        await p2.submit(play("4C"), view.seq)
        view = await p1.view()
        assert legal(view.view) == ["7C", "QC"]
        answer = await p1.submit(play("2S"), view.seq)  # holds clubs: penalised, not refused
        assert [e.WhichOneof("kind") for e in answer.events] == [
            "illegal_play_penalised",
            "picked_up",
            "trick_ended",
        ]
        assert answer.events[0].illegal_play_penalised == pb.IllegalPlayPenalised(
            seat=1, card="2S", offence="must_follow_suit"
        )
        assert answer.events[1].picked_up == pb.PickedUp(seat=1, cards=["4C"], penalty=True)
        view = await p1.view()
        assert sorted(view.view.hand) == sorted(["2S", "3S", "7C", "QC", "4C"])
        assert view.view.turn == 1  # P2: the picker leads


# --- tables --------------------------------------------------------------------------------


@run_async
async def test_create_and_get_table() -> None:
    async with referee() as ref:
        before = time.time()
        request = pb.CreateTableRequest(ruleset_id="bhabho", seat_count=5, hands=3)
        request.turn_time.FromMilliseconds(1500)
        table = (await ref.tables.CreateTable(request)).table
        assert table.table_id and table.ruleset.id == "bhabho"
        assert (table.seat_count, table.hands, table.hands_dealt) == (5, 3, 0)
        assert table.turn_time.ToMilliseconds() == 1500
        assert table.status == pb.TABLE_STATUS_OPEN and not table.test_deal
        assert [(s.seat, s.taken, s.player_name) for s in table.seats] == [
            (s, False, "") for s in range(5)
        ]
        assert before - 1 <= table.created_at.ToNanoseconds() / 1e9 <= time.time() + 1
        assert table.last_seq == 0
        got = (await ref.tables.GetTable(pb.GetTableRequest(table_id=table.table_id))).table
        assert got == table


@run_async
async def test_create_table_with_a_test_deal_deals_exactly_that() -> None:
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "pickup", 3, deal=SMALL_DEAL, dealer=1, start=False)
        table = await seated.table()
        assert table.test_deal
        watch = seated.players[2].watch(0)
        started = await seated.start()
        assert started.status == pb.TABLE_STATUS_PLAYING and started.hands_dealt == 1
        events = [m.event for m in await drain_stream(watch, started.last_seq)]
        watch.cancel()
        dealt = next(e for e in events if e.WhichOneof("kind") == "hand_started")
        assert list(dealt.hand_started.your_cards) == SMALL_DEAL[2].split()
        assert dealt.hand_started.dealer == 1 and dealt.hand_started.seed_commitment == ""
        assert list(dealt.hand_started.hand_sizes) == [3, 4, 2]
        for player, cards in zip(seated.players, SMALL_DEAL, strict=True):
            view = (await player.view()).view
            assert sorted(view.hand) == sorted(cards.split())
            assert view.dealer == 1


@run_async
async def test_list_tables_open_only_and_open_first() -> None:
    async with referee(test_mode=True) as ref:
        # A deal where two seats hold nothing: the hand (and the session) ends at the deal.
        finished = await seat_table(ref, "pickup", 3, hands=1, deal=["AS", "", ""])
        playing = await seat_table(ref, "bhabho", 3)
        open_ = await seat_table(ref, "pickup", 4, start=False)
        assert (await finished.table()).status == pb.TABLE_STATUS_FINISHED
        everything = (await ref.tables.ListTables(pb.ListTablesRequest())).tables
        assert [t.table_id for t in everything] == [
            open_.table_id,
            finished.table_id,
            playing.table_id,
        ]
        assert [t.status for t in everything] == [
            pb.TABLE_STATUS_OPEN,
            pb.TABLE_STATUS_FINISHED,
            pb.TABLE_STATUS_PLAYING,
        ]
        only = (await ref.tables.ListTables(pb.ListTablesRequest(open_only=True))).tables
        assert [t.table_id for t in only] == [open_.table_id]


@run_async
async def test_a_finished_table_is_let_go_of_and_read_back_from_the_store() -> None:
    """A referee holds the tables in play; a finished one, ``keep_finished`` seconds after
    its last event, lives only in the store: no longer listed, still readable by id."""
    async with referee(test_mode=True, keep_finished=0.2) as ref:
        finished = await seat_table(ref, "pickup", 3, hands=1, deal=["AS", "", ""])
        playing = await seat_table(ref, "bhabho", 3)
        tid = finished.table_id
        before = await finished.table()
        assert before.status == pb.TABLE_STATUS_FINISHED
        exported = await ref.play.ExportHand(pb.ExportHandRequest(table_id=tid, hand_number=0))
        held = ref.running.referee.tables
        for _ in range(100):  # let go of within a few tenths of a second
            if tid not in held:
                break
            await asyncio.sleep(0.05)
        assert tid not in held and playing.table_id in held
        listed = (await ref.tables.ListTables(pb.ListTablesRequest())).tables
        assert [t.table_id for t in listed] == [playing.table_id]
        # Still there for whoever asks by id, as it was; the store knows it is over.
        assert await finished.table() == before
        again = await ref.play.ExportHand(pb.ExportHandRequest(table_id=tid, hand_number=0))
        assert again == exported
        assert (await finished.players[0].view()).seq == before.last_seq
        store = ref.running.referee.store
        assert [t.table_id for t in await store.load_tables(status="finished")] == [tid]
        missing = await refusal_of(ref.tables.GetTable(pb.GetTableRequest(table_id="nope")))
        assert missing.reason == "table_not_found"


def test_a_restart_replays_the_tables_in_play_and_not_the_finished_ones(tmp_path: Path) -> None:
    db = tmp_path / "referee.sqlite3"

    async def first() -> tuple[str, str, pb.Table]:
        async with referee(test_mode=True, db=db) as ref:
            finished = await seat_table(ref, "pickup", 3, hands=1, deal=["AS", "", ""])
            playing = await seat_table(ref, "bhabho", 3)
            return finished.table_id, playing.table_id, await finished.table()

    async def second(finished: str, playing: str, before: pb.Table) -> None:
        async with referee(test_mode=True, db=db) as ref:
            held = ref.running.referee.tables
            assert playing in held and finished not in held
            got = await ref.tables.GetTable(pb.GetTableRequest(table_id=finished))
            assert got.table == before

    finished, playing, before = asyncio.run(first())
    asyncio.run(second(finished, playing, before))


@run_async
async def test_join_and_leave() -> None:
    async with referee() as ref:
        table = (
            await ref.tables.CreateTable(pb.CreateTableRequest(ruleset_id="pickup", seat_count=3))
        ).table
        tid = table.table_id
        first = await ref.tables.JoinTable(pb.JoinTableRequest(table_id=tid, player_name="Ann"))
        assert first.seat == 0 and first.seat_token
        second = await ref.tables.JoinTable(
            pb.JoinTableRequest(table_id=tid, player_name="Bo", seat=2)
        )
        assert second.seat == 2
        assert [(s.taken, s.player_name) for s in second.table.seats] == [
            (True, "Ann"),
            (False, ""),
            (True, "Bo"),
        ]
        left = await ref.tables.LeaveTable(
            pb.LeaveTableRequest(table_id=tid),
            metadata=(("authorization", f"Bearer {first.seat_token}"),),
        )
        assert not left.table.seats[0].taken
        third = await ref.tables.JoinTable(pb.JoinTableRequest(table_id=tid, player_name="Cy"))
        assert third.seat == 0 and third.seat_token != first.seat_token
        stale = await refusal_of(
            ref.play.GetView(
                pb.GetViewRequest(table_id=tid),
                metadata=(("authorization", f"Bearer {first.seat_token}"),),
            )
        )
        assert stale.reason == "bad_credential"
        events = [
            m.event
            for m in await drain_stream(ref.play.WatchTable(pb.WatchTableRequest(table_id=tid)), 4)
        ]
        assert [e.WhichOneof("kind") for e in events] == [
            "player_joined",
            "player_joined",
            "player_left",
            "player_joined",
        ]
        assert [e.seq for e in events] == [1, 2, 3, 4]
        assert all(e.hand_number == -1 for e in events)
        assert events[1].player_joined == pb.PlayerJoined(seat=2, player_name="Bo")


@run_async
async def test_start_table_deals_and_views_follow() -> None:
    async with referee() as ref:
        seated = await seat_table(ref, "bhabho", 4, start=False)
        before = await seated.spectate()
        assert not before.HasField("view")
        table = await seated.start()
        assert table.status == pb.TABLE_STATUS_PLAYING and table.hands_dealt == 1
        sizes = []
        for player in seated.players:
            response = await player.view()
            view = response.view
            assert response.seq == table.last_seq
            assert view.seat == player.seat and view.players == 4 and view.hand_number == 0
            assert len(view.hand) == view.hand_sizes[player.seat]
            sizes.append(len(view.hand))
        assert sum(sizes) == 52
        spectator = (await seated.spectate()).view
        assert spectator.seat == -1 and not spectator.hand and not spectator.legal_actions
        leader = spectator.turn
        assert legal((await seated.players[leader].view()).view) == ["AS", "take"]  # B1, B9


@run_async
async def test_submit_action_returns_the_events_it_caused() -> None:
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "pickup", 3, deal=SMALL_DEAL)
        p0, _, p2 = seated.players
        view = await p0.view()
        answer = await p0.submit(play("AS"), view.seq)
        assert answer.last_seq == view.seq + 1
        [event] = answer.events
        assert event.seq == answer.last_seq and event.hand_number == 0
        assert event.card_played == pb.CardPlayed(seat=0, card="AS", trick=0, role="lead")
        assert list(event.to_act) == [2]
        view = await p2.view()
        answer = await p2.submit(action_message("pickup"), view.seq)
        kinds = [e.WhichOneof("kind") for e in answer.events]
        assert kinds == ["picked_up", "trick_ended"]
        assert answer.events[0].picked_up.cards == ["AS"]
        assert [e.seq for e in answer.events] == [view.seq + 1, view.seq + 2]
        assert answer.events[-1].trick_ended.next_leader == 2


@run_async
async def test_export_hand_replays_on_the_engine() -> None:
    async with referee(test_mode=True) as ref:
        # Two clean tricks (seat 0 leads, then 2 and 1 follow); seat 1 is left holding 5D.
        deal = ["AS 2C", "KS 3C 5D", "QS 4C"]
        seated = await seat_table(ref, "pickup", 3, hands=1, deal=deal)
        refusal = await refusal_of(
            ref.play.ExportHand(pb.ExportHandRequest(table_id=seated.table_id, hand_number=0))
        )
        assert refusal.reason == "hand_not_over"
        last: pb.SubmitActionResponse | None = None
        while True:
            spectator = (await seated.spectate()).view
            if spectator.turn < 0:
                break
            player = seated.players[spectator.turn]
            view = await player.view()
            last = await player.submit(action_message(legal(view.view)[0]), view.seq)
        assert last is not None
        over = next(e.hand_over for e in last.events if e.WhichOneof("kind") == "hand_over")
        exported = await ref.play.ExportHand(
            pb.ExportHandRequest(table_id=seated.table_id, hand_number=0)
        )
        hand, case = replay_case(exported.case_yaml)
        assert case["deal"] == deal and case["ruleset"]["id"] == "pickup"
        assert hand.outcome is not None
        assert over.result.HasField("bhabhi") and over.result.bhabhi == hand.outcome.bhabhi == 1
        assert list(over.result.out_order) == list(hand.outcome.out_order)
        assert over.seed == ""  # a test deal has no seed


@run_async
async def test_concurrent_registrations_of_one_id_one_wins(tmp_path: Path) -> None:
    async with referee(db=tmp_path / "referee.sqlite3", allow_register=True) as ref:
        calls = [
            ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=HOUSE_RULES))
            for _ in range(4)
        ]
        answers = await asyncio.gather(*calls, return_exceptions=True)
        won = [a for a in answers if isinstance(a, pb.RegisterRulesetResponse)]
        lost = [decode(a) for a in answers if isinstance(a, grpc.aio.AioRpcError)]
        assert len(won) == 1 and len(lost) == 3
        assert {(r.code, r.reason) for r in lost} == {
            (grpc.StatusCode.ALREADY_EXISTS, "ruleset_exists")
        }


# Bhabho, three seats: after the first trick (to the waste pile, B1) and a second one won by
# seat 2 with its last card, seat 2 has the power and no card: it draws (B8).
DRAW_DEAL = ["AS 2C", "KS 3C 4C", "QS AC"]
DRAW_PLAYS = [(0, "AS"), (1, "KS"), (2, "QS"), (0, "2C"), (1, "3C"), (2, "AC")]


@run_async
async def test_test_draws_are_the_cards_drawn() -> None:
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "bhabho", 3, hands=1, deal=DRAW_DEAL, draws=["KS"])
        answer = None
        for seat, card in DRAW_PLAYS:
            player = seated.players[seat]
            answer = await player.submit(play(card), (await player.view()).seq)
        assert answer is not None
        drawn = [e.waste_drawn for e in answer.events if e.HasField("waste_drawn")]
        assert drawn == [pb.WasteDrawn(seat=2, card="KS")]
        view = (await seated.players[2].view()).view
        assert list(view.hand) == ["KS"] and legal(view)[0] == "KS"
        others = (await seated.players[1].view()).view
        assert "KS" not in str(others)


@run_async
async def test_a_hand_of_a_registered_variant_exports_with_its_rules_inline() -> None:
    """A registered variant is known only to this referee: its cases carry it inline, so
    that they replay anywhere."""
    async with referee(allow_register=True, test_mode=True) as ref:
        await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=HOUSE_RULES))
        seated = await seat_table(
            ref, "house-penalty", 3, hands=1, deal=["AS 2C", "KS 3C 5D", "QS 4C"]
        )
        while (spectator := (await seated.spectate()).view).turn >= 0:
            player = seated.players[spectator.turn]
            view = await player.view()
            await player.submit(action_message(legal(view.view)[0]), view.seq)
        exported = await ref.play.ExportHand(
            pb.ExportHandRequest(table_id=seated.table_id, hand_number=0)
        )
        hand, case = replay_case(exported.case_yaml)
        assert case["ruleset"]["id"] == "house-penalty"
        assert case["ruleset"]["inline"]["illegal_play"] == "pickup_penalty"
        assert hand.rules.hash == (await seated.table()).ruleset.hash


@run_async
async def test_a_house_variant_may_extend_a_registered_one(tmp_path: Path) -> None:
    """A registered variant is a base like a bundled one, also after a restart."""
    base = "id: house\nextends: bhabho\ntitle: {en: House, de: Haus, pl: Dom}\n"
    child = "id: house-two\nextends: house\ntitle: {en: House 2, de: Haus 2, pl: Dom 2}\n"
    db = tmp_path / "referee.sqlite3"
    async with referee(db=db, allow_register=True) as ref:
        missing = await ref.rulesets.ValidateRuleset(pb.ValidateRulesetRequest(yaml=child))
        assert not missing.valid
        assert "base ruleset 'house' not found" in missing.problems[0].message
        await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=base))
        checked = await ref.rulesets.ValidateRuleset(pb.ValidateRulesetRequest(yaml=child))
        assert checked.valid, checked.problems
        await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=child))
    async with referee(db=db, allow_register=True) as ref:
        got = await ref.rulesets.GetRuleset(pb.GetRulesetRequest(id="house-two"))
        assert got.ruleset.origin == pb.RULESET_ORIGIN_REGISTERED
        assert "extends" not in got.yaml
        await ref.tables.CreateTable(pb.CreateTableRequest(ruleset_id="house-two", seat_count=4))
