"""The referee's own bots (``CreateTable.bots``): seats it plays itself, through the turn
clocks, from each seat's view only (docs/referee.md, "The referee's own bots")."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from bhabhi.referee.v1 import referee_pb2 as pb
from bhabhi_client.client import Client
from bhabhi_client.errors import RefereeError
from server_helpers import (
    TEST_LIMITS,
    Player,
    bearer,
    referee,
    refusal_of,
    run_async,
)

from referee.engine import Hand
from referee.ruleset.loader import bundled_ruleset_paths, load_ruleset
from referee.server.table.seatbots import strong_choice


def _request(
    ruleset: str, seats: int, bots: dict[int, int], *, delay: float = 0.0, turn_time: float = 0
) -> pb.CreateTableRequest:
    request = pb.CreateTableRequest(ruleset_id=ruleset, seat_count=seats, hands=1)
    for seat, strategy in bots.items():
        request.bots.add(seat=seat, strategy=strategy)
    request.bot_delay.FromNanoseconds(int(delay * 1e9))
    if turn_time:
        request.turn_time.FromNanoseconds(int(turn_time * 1e9))
    return request


async def _play_out(person: Player) -> list[pb.Event]:
    """Play the person's seat (its first legal action each turn) until the session is
    over; every event the seat was told."""
    events: list[pb.Event] = []
    stream = person.watch()
    async for item in stream:
        event = item.event
        events.append(event)
        if event.HasField("session_over"):
            break
        if person.seat in event.to_act:
            view = await person.view()
            if view.view.turn == person.seat and view.seq == event.seq:
                action = view.view.legal_actions[0]
                try:
                    await person.submit(action, view.seq)
                except Exception as error:  # the bots moved first: look again next event
                    assert "stale_seq" in str(error) or "not_your_turn" in str(error)
    stream.cancel()
    return events


@run_async
async def test_a_person_plays_a_whole_hand_against_the_referee_s_bots() -> None:
    async with referee() as ref:
        request = _request(
            "bhabho", 4, {1: pb.BOT_STRATEGY_HEURISTIC, 2: pb.BOT_STRATEGY_RANDOM, 3: 2}
        )
        table = (await ref.tables.CreateTable(request)).table
        assert [(s.taken, s.bot, s.player_name) for s in table.seats] == [
            (False, pb.BOT_STRATEGY_UNSPECIFIED, ""),
            (True, pb.BOT_STRATEGY_HEURISTIC, "Heuristic bot"),
            (True, pb.BOT_STRATEGY_RANDOM, "Random bot"),
            (True, pb.BOT_STRATEGY_HEURISTIC, "Heuristic bot"),
        ]
        joined = await ref.tables.JoinTable(
            pb.JoinTableRequest(table_id=table.table_id, player_name="Asha")
        )
        assert joined.seat == 0  # the only seat left for a person
        person = Player(ref.connect(), table.table_id, 0, joined.seat_token)
        await person.stubs.tables.StartTable(
            pb.StartTableRequest(table_id=table.table_id), metadata=person.md
        )
        events = await _play_out(person)
        over = [e for e in events if e.HasField("hand_over")]
        assert len(over) == 1
        assert not [e for e in events if e.HasField("turn_timed_out")]
        case = (await ref.play.ExportHand(pb.ExportHandRequest(table_id=table.table_id))).case_yaml
        assert all(f"seat: {seat}" in case for seat in range(4))  # every seat played


@run_async
async def test_bad_bots_are_refused_and_change_nothing() -> None:
    async with referee() as ref:
        heuristic = pb.BOT_STRATEGY_HEURISTIC
        for request, says in [
            (_request("bhabho", 3, dict.fromkeys(range(3), heuristic)), "at least one seat"),
            (_request("bhabho", 3, {3: heuristic}), "must be 0 to 2, not 3"),
            (_request("bhabho", 3, {1: pb.BOT_STRATEGY_UNSPECIFIED}), "not unspecified"),
            (_request("bhabho", 3, {1: 9}), "not unspecified"),
            (_request("bhabho", 3, {1: heuristic}, delay=10.5), "bot_delay must be 0 to 10"),
        ]:
            refusal = await refusal_of(ref.tables.CreateTable(request))
            assert refusal.reason == "bad_table_settings" and says in refusal.metadata["message"]
        twice = _request("bhabho", 3, {1: heuristic})
        twice.bots.add(seat=1, strategy=pb.BOT_STRATEGY_RANDOM)
        refusal = await refusal_of(ref.tables.CreateTable(twice))
        assert "seat 1 is given two bots" in refusal.metadata["message"]
        assert not (await ref.tables.ListTables(pb.ListTablesRequest())).tables
        # A bot's seat is taken: nobody joins it.
        table = (await ref.tables.CreateTable(_request("bhabho", 3, {1: heuristic}))).table
        taken = await refusal_of(
            ref.tables.JoinTable(pb.JoinTableRequest(table_id=table.table_id, seat=1))
        )
        assert taken.reason == "seat_taken"


@run_async
async def test_the_strong_bot_searches_in_a_worker_and_its_seats_survive_a_restart(
    tmp_path: Path,
) -> None:
    db = tmp_path / "bots.db"
    limits = dataclasses.replace(TEST_LIMITS, bot_think=0.05)
    async with referee(db=db, limits=limits) as ref:
        request = _request("pickup", 3, {1: pb.BOT_STRATEGY_STRONG, 2: pb.BOT_STRATEGY_RANDOM})
        table = (await ref.tables.CreateTable(request)).table
    async with referee(db=db, limits=limits) as ref:  # the bots are in the stored settings
        shown = (await ref.tables.GetTable(pb.GetTableRequest(table_id=table.table_id))).table
        assert [s.bot for s in shown.seats][1:] == [pb.BOT_STRATEGY_STRONG, pb.BOT_STRATEGY_RANDOM]
        joined = await ref.tables.JoinTable(pb.JoinTableRequest(table_id=table.table_id))
        person = Player(ref.connect(), table.table_id, joined.seat, joined.seat_token)
        await ref.tables.StartTable(
            pb.StartTableRequest(table_id=table.table_id), metadata=bearer(joined.seat_token)
        )
        events = await _play_out(person)
        assert [e for e in events if e.HasField("hand_over")]
        bots = ref.running.referee.clocks.bots
        assert bots is not None
        assert bots.searched > 0 and bots.fell_back == 0


@run_async
async def test_a_table_whose_person_is_gone_is_closed_though_its_bots_play_on() -> None:
    async with referee() as ref:
        request = _request("bhabho", 3, {1: 2, 2: 2}, turn_time=0.1)
        table = (await ref.tables.CreateTable(request)).table
        joined = await ref.tables.JoinTable(pb.JoinTableRequest(table_id=table.table_id))
        person = Player(ref.connect(), table.table_id, joined.seat, joined.seat_token)
        await person.stubs.tables.StartTable(
            pb.StartTableRequest(table_id=table.table_id), metadata=person.md
        )
        stream = person.watch()
        closed = None
        async for item in stream:  # the person never acts
            if item.event.HasField("table_closed"):
                closed = item.event.table_closed
            if item.event.HasField("session_over") or closed is not None:
                break
        stream.cancel()
        # The bots' moves do not count as somebody at the table: after two rounds' worth
        # of the person's clocks (abandon_after_rounds x the one person) it is closed.
        assert closed is not None and closed.why == "abandoned"


@pytest.mark.parametrize("ruleset_id", sorted(bundled_ruleset_paths()))
def test_the_strong_bot_s_replay_decides_in_every_bundled_ruleset(ruleset_id: str) -> None:
    """A worker replays the hand from its deal: it must reach the position the referee
    holds, whatever the ruleset's options, and choose a legal action there."""
    rules = load_ruleset(ruleset_id)
    players = rules.players.counts[0]
    rng = random.Random(ruleset_id)
    hand = Hand(rules, players, seed=f"replay:{ruleset_id}".encode())
    checked = 0
    while not hand.is_over and checked < 3:
        seat = hand.to_move
        assert seat is not None
        if len(hand.history) % 7 == 3:
            choice = strong_choice(
                rules.hash,
                dict(rules.source),
                players,
                seat,
                hand.deal,
                hand.dealer,
                tuple(hand.draws_made),
                tuple(hand.history),
                0.01,
                rng.random(),
            )
            assert choice is not None and choice in hand.view(seat).legal_actions
            checked += 1
        legal = list(hand.legal_actions(seat))
        hand.apply(seat, legal[rng.randrange(len(legal))])


@run_async
async def test_the_python_client_seats_the_referee_s_bots_by_name() -> None:
    async with referee() as ref, Client(ref.target) as client:
        table = await client.create_table("bhabho", 3, bots={1: "strong", 2: "random"})
        assert [s.bot for s in table.seats] == [
            pb.BOT_STRATEGY_UNSPECIFIED,
            pb.BOT_STRATEGY_STRONG,
            pb.BOT_STRATEGY_RANDOM,
        ]
        with pytest.raises(RefereeError, match="not unspecified"):
            await client.create_table("bhabho", 3, bots={1: "clever"})
