"""House rule H27 at the referee: ``timeout_bot_after``, the referee playing a seat at once
after it let its clock run out that many times in a row, until its player acts again.

The state is tested without a clock (``Table.deadline`` and ``apply``), and once through a
running referee with a turn time long enough that "at once" and "after the clock" cannot
be confused on a slow machine."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import grpc
from bhabhi.referee.v1 import referee_pb2 as pb
from server_helpers import referee, run_async, seat_table

from referee.ruleset.loader import load_ruleset_text
from referee.server.table.apply import apply
from referee.server.table.commands import Join, Move, Resume, Start, Timeout, command_of, stored
from referee.server.table.events import TurnTimedOut
from referee.server.table.state import Table, table_from_config

BOT_RULES = """\
id: house-bot
extends: pickup
title: {en: House bot, de: Hausbot, pl: Bot domowy}
description:
  en: Pick-up, where a seat that lets its clock run out once is played by the referee.
  de: Aufnehmen, wobei ein Platz, dessen Uhr einmal abläuft, vom Schiedsrichter gespielt wird.
  pl: Podnoszenie; miejsce, któremu raz skończy się czas, gra sędzia.
timeout_bot_after: 1
"""


def clocked_table(turn_time: float = 30.0) -> Table:
    rules = load_ruleset_text(BOT_RULES)
    config = {
        "ruleset_id": rules.id,
        "ruleset_hash": rules.hash,
        "seat_count": 3,
        "turn_time": turn_time,
        "hands": 1,
    }
    table = table_from_config("t", config, 0.0, rules)
    for seat in range(3):
        apply(table, seat + 1, Join(seat, f"p{seat}", f"h{seat}"), 1.0)
    apply(table, 4, Start("seed-0"), 2.0)
    return table


def test_a_seat_is_played_at_once_after_its_timeouts_until_its_player_acts() -> None:
    table = clocked_table()
    hand = table.hand
    assert hand is not None
    seat = hand.to_move
    assert seat is not None
    assert table.deadline() == table.last_at + 30.0
    apply(table, 5, Timeout(seat, hand.default_action(seat), None), 40.0)
    assert table.played_by_referee(seat)
    # the next seats still have their clocks; the timed-out one is played at once
    number = 6
    while hand.to_move != seat:
        mover = hand.to_move
        assert mover is not None
        assert table.deadline() == table.last_at + 30.0
        apply(table, number, Move(mover, hand.default_action(mover), f"r{number}", None), 41.0)
        number += 1
        if hand.is_over:
            return
    assert table.deadline() == table.last_at  # at once
    apply(table, number, Resume(seat), 42.0)
    assert not table.played_by_referee(seat)
    assert table.deadline() == table.last_at + 30.0


def test_when_every_seat_is_played_by_the_referee_the_clock_keeps_its_pace() -> None:
    table = clocked_table()
    hand = table.hand
    assert hand is not None
    number = 5
    for _ in range(3):
        seat = hand.to_move
        assert seat is not None
        apply(table, number, Timeout(seat, hand.default_action(seat), None), 50.0 + number)
        number += 1
    assert all(table.played_by_referee(s) for s in hand.active_seats())
    assert table.deadline() == table.last_at + 30.0


def test_a_table_without_the_rule_never_plays_at_once() -> None:
    table = clocked_table()
    table.rules = load_ruleset_text(BOT_RULES.replace("timeout_bot_after: 1", ""))
    hand = table.hand
    assert hand is not None
    seat = hand.to_move
    assert seat is not None
    for number in range(5, 8):
        mover = hand.to_move
        assert mover is not None
        apply(table, number, Timeout(mover, hand.default_action(mover), None), 60.0)
    assert not table.played_by_referee(seat)
    assert table.deadline() == table.last_at + 30.0


def test_resume_is_stored_and_read_back() -> None:
    assert stored(Resume(2)) == ("resume", {"seat": 2})
    assert command_of("resume", {"seat": 2}) == Resume(2)


def _default(view: pb.SeatView) -> pb.Action:
    for action in view.legal_actions:
        if action.kind == pb.ACTION_KIND_PLAY or action.kind == pb.ACTION_KIND_PICK_UP:
            return action
    return view.legal_actions[0]


@run_async
async def test_the_referee_plays_a_seat_at_once_after_a_timeout() -> None:
    """Seat A lets its 2 s clock run out once; from then on its turns are played as soon
    as they come (well under the turn time), while the others play for themselves; when A
    sends an action again its own clock applies."""
    turn = 2.0
    async with referee(allow_register=True) as ref:
        await ref.rulesets.RegisterRuleset(pb.RegisterRulesetRequest(yaml=BOT_RULES))
        seated = await seat_table(ref, "house-bot", 3, turn_time=turn)
        internal = ref.running.referee.tables[seated.table_id]
        away = (await seated.players[0].view()).view.turn
        loop = asyncio.get_running_loop()
        started = loop.time()

        def timeouts() -> list[int]:
            return [
                i
                for i, e in enumerate(internal.log)
                if isinstance(e.event, TurnTimedOut) and e.event.seat == away
            ]

        while len(timeouts()) < 4 and loop.time() - started < 30:
            spectated = await seated.spectate()
            view = spectated.view
            if view.HasField("result"):
                break
            if view.turn == away:
                await asyncio.sleep(0.01)  # the clock plays for it
                continue
            player = seated.players[view.turn]
            mine = await player.view()
            if mine.view.turn == player.seat:
                with contextlib.suppress(grpc.aio.AioRpcError):  # the clock moved first
                    await player.submit(_default(mine.view), mine.seq)
        found = timeouts()
        assert len(found) >= 2, "seat A had its turn twice (a pick-up hand is long)"
        gaps = [internal.log[i].at - internal.log[i - 1].at for i in found]
        assert gaps[0] >= turn - 0.05  # the first timeout waited for the clock
        assert all(gap < turn / 2 for gap in gaps[1:]), gaps  # then at once
        assert internal.played_by_referee(away)
        player = seated.players[away]
        answer: Any = None
        with contextlib.suppress(grpc.aio.AioRpcError):  # stale: the player is back all the same
            answer = await player.submit(pb.Action(kind=pb.ACTION_KIND_PICK_UP), 0)
        assert answer is None
        assert not internal.played_by_referee(away)
